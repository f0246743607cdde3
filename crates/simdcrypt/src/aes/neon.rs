//! NEON (aarch64 Advanced SIMD), 8 blocks at once, for cores without the
//! ARMv8 AES instructions (the Cortex-A72 of a Raspberry Pi 4, say): the
//! `bitsliced` rung's fixsliced circuit ([`super::bitsliced`], FIPS 197
//! §5.1 and §5.3.5 as Boolean logic, written once, generic over the word)
//! on q registers, each 64-bit lane one `u64` word of 4 blocks, as
//! `bitsliced-avx2` runs it on ymm. No table lookup and no branch depends
//! on the key or the data: constant-time.
//!
//! The rotations of MixColumns are byte permutes (`tbl`) within the lanes,
//! plus, when they move the columns by an odd number, a rotation of each
//! 16-bit row by 4 bits (a shift left and a shift right and insert, `shl`
//! and `sri`). Loading takes two blocks' low and high halves apart
//! (`zip1`/`zip2` on 64-bit elements) so that each lane receives the words
//! the 64-bit rung's transposition starts from: lane 0 the even blocks of
//! the batch, lane 1 the odd ones. The transposition and the driver are
//! shared ([`super::bitsliced_wide`]): tails of up to 4 blocks, and single
//! blocks, go to the 64-bit rung; longer tails run one padded batch here.

use core::arch::aarch64::{
    uint64x2_t, vandq_u64, vdupq_n_u64, veorq_u64, vld1q_u8, vqtbl1q_u8, vreinterpretq_u8_u64,
    vreinterpretq_u16_u64, vreinterpretq_u64_u8, vreinterpretq_u64_u16, vshlq_n_u16, vshlq_n_u64,
    vshrq_n_u64, vsriq_n_u16, vst1q_u8, vzip1q_u64, vzip2q_u64,
};
use super::bitsliced_wide::{ROTATE, SHIFT_ROWS_TWICE, word_ops};

/// Two 64-bit words of the bitsliced state in a q register.
///
/// A `Q` is made only by `load_halves`, whose caller promises NEON (it is
/// called only from `batch`, compiled with NEON, which runs only
/// after the dispatcher has checked that the CPU has it), and from other
/// `Q`s; its field is private and it has no constructor that could make
/// one elsewhere. So wherever a `Q` exists, the CPU has NEON: that is why
/// its methods may call NEON intrinsics. They are `#[inline(always)]`, so
/// they are compiled into `batch`, with NEON enabled.
#[derive(Clone, Copy)]
pub(super) struct Q(uint64x2_t);

/// `x` permuted bytewise by the 16-byte `table` (`tbl`): byte `i` of the
/// result is byte `table[i]` of `x`.
#[inline(always)]
fn permute(x: Q, table: &[u8; 16]) -> uint64x2_t {
    // SAFETY: `table` is 16 readable bytes; a `Q` exists, so the CPU has
    // NEON (see the type).
    unsafe {
        let index = vld1q_u8(table.as_ptr());
        vreinterpretq_u64_u8(vqtbl1q_u8(vreinterpretq_u8_u64(x.0), index))
    }
}

word_ops! {
    Q, 8 blocks, "neon":
    xor veorq_u64, and vandq_u64, splat vdupq_n_u64, shr vshrq_n_u64, shl vshlq_n_u64;
    slice {
        #[inline(always)]
        fn rotate(self, rows: u32, columns: u32) -> Q {
            let x = permute(self, &ROTATE[rows as usize % 4][(columns as usize / 2) % 2]);
            Q(if columns % 2 == 1 {
                // One column more: each 16-bit row rotated right by 4, its low
                // 4 bits shifted to the top and the rest inserted below them.
                // SAFETY: a `Q` exists, so the CPU has NEON (see the type).
                unsafe {
                    let r = vreinterpretq_u16_u64(x);
                    vreinterpretq_u64_u16(vsriq_n_u16::<4>(vshlq_n_u16::<12>(r), r))
                }
            } else {
                x
            })
        }

        #[inline(always)]
        fn shift_rows_twice(self) -> Q {
            Q(permute(self, &SHIFT_ROWS_TWICE))
        }
    }
    wide {
        #[inline(always)]
        unsafe fn load_halves(src: *const u8) -> [Q; 2] {
            // Two blocks: the first in lane 0, the second in lane 1.
            // SAFETY: the caller promises NEON and 32 readable bytes at `src`.
            unsafe {
                let a = vreinterpretq_u64_u8(vld1q_u8(src));
                let b = vreinterpretq_u64_u8(vld1q_u8(src.add(16)));
                [Q(vzip1q_u64(a, b)), Q(vzip2q_u64(a, b))]
            }
        }

        #[inline(always)]
        unsafe fn store_halves(dst: *mut u8, [lo, hi]: [Q; 2]) {
            // SAFETY: `Q`s exist, so the CPU has NEON; the caller promises 32
            // writable bytes at `dst`.
            unsafe {
                vst1q_u8(dst, vreinterpretq_u8_u64(vzip1q_u64(lo.0, hi.0)));
                vst1q_u8(dst.add(16), vreinterpretq_u8_u64(vzip2q_u64(lo.0, hi.0)));
            }
        }
    }
}
