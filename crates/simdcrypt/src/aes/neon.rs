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
use core::ops::{BitAnd, BitXor};

use super::bitsliced::{RoundKeys, Slice, cipher_words};
use super::bitsliced_wide::{ROTATE, SHIFT_ROWS_TWICE, Wide};

/// Two 64-bit words of the bitsliced state in a q register.
///
/// A `Q` is made only inside [`Q::batch`], compiled with NEON
/// (`#[target_feature(enable = "neon")]`), which runs only after the
/// dispatcher has checked that the CPU has NEON; its field is private and
/// it has no constructor that could make one elsewhere. So wherever a `Q`
/// exists, the CPU has NEON: that is why its methods may call NEON
/// intrinsics. They are `#[inline(always)]`, so they are compiled into
/// `batch`, with NEON enabled.
#[derive(Clone, Copy)]
pub(super) struct Q(uint64x2_t);

impl BitXor for Q {
    type Output = Q;

    #[inline(always)]
    fn bitxor(self, other: Q) -> Q {
        // SAFETY: a `Q` exists, so the CPU has NEON (see the type).
        Q(unsafe { veorq_u64(self.0, other.0) })
    }
}

impl BitAnd for Q {
    type Output = Q;

    #[inline(always)]
    fn bitand(self, other: Q) -> Q {
        // SAFETY: a `Q` exists, so the CPU has NEON (see the type).
        Q(unsafe { vandq_u64(self.0, other.0) })
    }
}

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

impl Slice for Q {
    #[inline(always)]
    fn xor_u64(self, k: u64) -> Q {
        // SAFETY: a `Q` exists, so the CPU has NEON (see the type).
        Q(unsafe { veorq_u64(self.0, vdupq_n_u64(k)) })
    }

    #[inline(always)]
    fn and_u64(self, m: u64) -> Q {
        // SAFETY: a `Q` exists, so the CPU has NEON (see the type).
        Q(unsafe { vandq_u64(self.0, vdupq_n_u64(m)) })
    }

    #[inline(always)]
    fn shr<const N: i32>(self) -> Q {
        // SAFETY: a `Q` exists, so the CPU has NEON (see the type).
        Q(unsafe { vshrq_n_u64::<N>(self.0) })
    }

    #[inline(always)]
    fn shl<const N: i32>(self) -> Q {
        // SAFETY: a `Q` exists, so the CPU has NEON (see the type).
        Q(unsafe { vshlq_n_u64::<N>(self.0) })
    }

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

impl Wide for Q {
    const PAR_BLOCKS: usize = 8;

    #[target_feature(enable = "neon")]
    unsafe fn batch<const DECRYPT: bool>(keys: &RoundKeys, src: *const u8, dst: *mut u8) {
        let mut s = [Q(vdupq_n_u64(0)); 8];
        for p in 0..4 {
            // Blocks 2p and 2p + 1; word 2p + h: half h of each, block 2p
            // in lane 0 and 2p + 1 in lane 1, as `bitslice` takes them in
            // every lane.
            // SAFETY: the caller promises 128 readable bytes at `src`.
            let (a, b) = unsafe {
                (
                    vreinterpretq_u64_u8(vld1q_u8(src.add(32 * p))),
                    vreinterpretq_u64_u8(vld1q_u8(src.add(32 * p + 16))),
                )
            };
            s[2 * p] = Q(vzip1q_u64(a, b));
            s[2 * p + 1] = Q(vzip2q_u64(a, b));
        }
        cipher_words::<Q, DECRYPT>(keys, &mut s);
        for p in 0..4 {
            let (lo, hi) = (s[2 * p].0, s[2 * p + 1].0);
            // SAFETY: the caller promises 128 writable bytes at `dst`.
            unsafe {
                vst1q_u8(dst.add(32 * p), vreinterpretq_u8_u64(vzip1q_u64(lo, hi)));
                vst1q_u8(dst.add(32 * p + 16), vreinterpretq_u8_u64(vzip2q_u64(lo, hi)));
            }
        }
    }
}
