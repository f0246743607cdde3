//! AVX2, 16 blocks at once: the `bitsliced` rung's fixsliced circuit
//! ([`super::bitsliced`], written once, generic over the word) on ymm
//! registers, each 64-bit lane one `u64` word of 4 blocks. The rotations
//! of MixColumns are byte shuffles (`vpshufb`) within the lanes, plus, when
//! they move the columns by an odd number, a rotation of each 16-bit row
//! by 4 bits (two shifts and an or).
//!
//! Loading takes the low and high halves of the blocks apart
//! (`vpunpcklqdq`/`vpunpckhqdq`) so that each lane receives the words the
//! 64-bit rung's transposition starts from; the transposition itself is the
//! same code, and so is the driver ([`super::bitsliced_wide`]): tails of up
//! to 4 blocks, and single blocks, go to the 64-bit rung; longer tails run
//! one padded batch here.

use core::arch::x86_64::{
    __m256i, _mm_loadu_si128, _mm256_and_si256, _mm256_broadcastsi128_si256, _mm256_loadu_si256,
    _mm256_or_si256, _mm256_set1_epi64x, _mm256_shuffle_epi8,
    _mm256_slli_epi16, _mm256_slli_epi64, _mm256_srli_epi16, _mm256_srli_epi64,
    _mm256_storeu_si256, _mm256_unpackhi_epi64, _mm256_unpacklo_epi64, _mm256_xor_si256,
};
use super::bitsliced_wide::{ROTATE, SHIFT_ROWS_TWICE, word_ops};

/// Four 64-bit words of the bitsliced state in a ymm register.
///
/// A `Ymm` is made only by `load_halves`, whose caller promises AVX2 (it
/// is called only from `batch`, compiled with AVX2, which runs only
/// after the dispatcher has checked that the CPU has it), and from other
/// `Ymm`s; its field is private and it has no constructor that could make
/// one elsewhere. So wherever a `Ymm` exists, the CPU has AVX2: that is
/// why its methods may call AVX2 intrinsics. They are `#[inline(always)]`,
/// so they are compiled into `batch`, with AVX2 enabled.
#[derive(Clone, Copy)]
pub(super) struct Ymm(__m256i);

/// A `vpshufb` control: the 16-byte `table` in both 128-bit halves.
#[inline(always)]
fn control(table: &[u8; 16]) -> __m256i {
    // SAFETY: `table` is 16 readable bytes (an unaligned load); a `Ymm`
    // exists wherever this is called, so the CPU has AVX2.
    unsafe { _mm256_broadcastsi128_si256(_mm_loadu_si128(table.as_ptr().cast())) }
}

word_ops! {
    Ymm, 16 blocks, "avx2":
    xor _mm256_xor_si256, and _mm256_and_si256, splat _mm256_set1_epi64x,
    shr _mm256_srli_epi64, shl _mm256_slli_epi64;
    slice {
        #[inline(always)]
        fn rotate(self, rows: u32, columns: u32) -> Ymm {
            let table = &ROTATE[rows as usize % 4][(columns as usize / 2) % 2];
            // SAFETY: a `Ymm` exists, so the CPU has AVX2 (see the type).
            unsafe {
                let x = _mm256_shuffle_epi8(self.0, control(table));
                Ymm(if columns % 2 == 1 {
                    // One column more: each 16-bit row rotated right by 4.
                    _mm256_or_si256(_mm256_srli_epi16::<4>(x), _mm256_slli_epi16::<12>(x))
                } else {
                    x
                })
            }
        }

        #[inline(always)]
        fn shift_rows_twice(self) -> Ymm {
            // SAFETY: a `Ymm` exists, so the CPU has AVX2 (see the type).
            Ymm(unsafe { _mm256_shuffle_epi8(self.0, control(&SHIFT_ROWS_TWICE)) })
        }
    }
    wide {
        #[inline(always)]
        unsafe fn load_halves(src: *const u8) -> [Ymm; 2] {
            // Blocks 0, 1 and 2, 3 (one per 128-bit half): blocks 0, 2, 1, 3
            // in lanes 0–3.
            // SAFETY: the caller promises AVX2 and 64 readable bytes at `src`.
            unsafe {
                let a = _mm256_loadu_si256(src.cast());
                let b = _mm256_loadu_si256(src.add(32).cast());
                [
                    Ymm(_mm256_unpacklo_epi64(a, b)),
                    Ymm(_mm256_unpackhi_epi64(a, b)),
                ]
            }
        }

        #[inline(always)]
        unsafe fn store_halves(dst: *mut u8, [lo, hi]: [Ymm; 2]) {
            // SAFETY: `Ymm`s exist, so the CPU has AVX2; the caller promises
            // 64 writable bytes at `dst`.
            unsafe {
                _mm256_storeu_si256(dst.cast(), _mm256_unpacklo_epi64(lo.0, hi.0));
                _mm256_storeu_si256(dst.add(32).cast(), _mm256_unpackhi_epi64(lo.0, hi.0));
            }
        }
    }
}
