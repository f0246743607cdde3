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
    _mm256_or_si256, _mm256_set1_epi64x, _mm256_setzero_si256, _mm256_shuffle_epi8,
    _mm256_slli_epi16, _mm256_slli_epi64, _mm256_srli_epi16, _mm256_srli_epi64,
    _mm256_storeu_si256, _mm256_unpackhi_epi64, _mm256_unpacklo_epi64, _mm256_xor_si256,
};
use core::ops::{BitAnd, BitXor};

use super::bitsliced::{RoundKeys, Slice, cipher_words};
use super::bitsliced_wide::{ROTATE, SHIFT_ROWS_TWICE, Wide};

/// Four 64-bit words of the bitsliced state in a ymm register.
///
/// A `Ymm` is made only inside this file's functions compiled with AVX2
/// (`#[target_feature(enable = "avx2")]`), which run only after the
/// dispatcher has checked that the CPU has AVX2; its field is private and
/// it has no constructor that could make one elsewhere. So wherever a `Ymm`
/// exists, the CPU has AVX2: that is why its methods may call AVX2
/// intrinsics. They are `#[inline(always)]`, so they are compiled into
/// those functions, with AVX2 enabled.
#[derive(Clone, Copy)]
pub(super) struct Ymm(__m256i);

impl BitXor for Ymm {
    type Output = Ymm;

    #[inline(always)]
    fn bitxor(self, other: Ymm) -> Ymm {
        // SAFETY: a `Ymm` exists, so the CPU has AVX2 (see the type).
        Ymm(unsafe { _mm256_xor_si256(self.0, other.0) })
    }
}

impl BitAnd for Ymm {
    type Output = Ymm;

    #[inline(always)]
    fn bitand(self, other: Ymm) -> Ymm {
        // SAFETY: a `Ymm` exists, so the CPU has AVX2 (see the type).
        Ymm(unsafe { _mm256_and_si256(self.0, other.0) })
    }
}

/// A `vpshufb` control: the 16-byte `table` in both 128-bit halves.
#[inline(always)]
fn control(table: &[u8; 16]) -> __m256i {
    // SAFETY: `table` is 16 readable bytes (an unaligned load); a `Ymm`
    // exists wherever this is called, so the CPU has AVX2.
    unsafe { _mm256_broadcastsi128_si256(_mm_loadu_si128(table.as_ptr().cast())) }
}

impl Slice for Ymm {
    #[inline(always)]
    fn xor_u64(self, k: u64) -> Ymm {
        // SAFETY: a `Ymm` exists, so the CPU has AVX2 (see the type).
        Ymm(unsafe { _mm256_xor_si256(self.0, _mm256_set1_epi64x(k as i64)) })
    }

    #[inline(always)]
    fn and_u64(self, m: u64) -> Ymm {
        // SAFETY: a `Ymm` exists, so the CPU has AVX2 (see the type).
        Ymm(unsafe { _mm256_and_si256(self.0, _mm256_set1_epi64x(m as i64)) })
    }

    #[inline(always)]
    fn shr<const N: i32>(self) -> Ymm {
        // SAFETY: a `Ymm` exists, so the CPU has AVX2 (see the type).
        Ymm(unsafe { _mm256_srli_epi64::<N>(self.0) })
    }

    #[inline(always)]
    fn shl<const N: i32>(self) -> Ymm {
        // SAFETY: a `Ymm` exists, so the CPU has AVX2 (see the type).
        Ymm(unsafe { _mm256_slli_epi64::<N>(self.0) })
    }

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

impl Wide for Ymm {
    const PAR_BLOCKS: usize = 16;

    #[target_feature(enable = "avx2")]
    unsafe fn batch<const DECRYPT: bool>(keys: &RoundKeys, src: *const u8, dst: *mut u8) {
        let mut s = [Ymm(_mm256_setzero_si256()); 8];
        for p in 0..4 {
            // Blocks 4p, 4p + 1 and 4p + 2, 4p + 3 (one per 128-bit half);
            // then word 2p + h: half h of blocks 4p, 4p + 2, 4p + 1, 4p + 3
            // in lanes 0–3, as `bitslice` takes them in every lane.
            // SAFETY: the caller promises 256 readable bytes at `src`.
            let (a, b) = unsafe {
                (
                    _mm256_loadu_si256(src.add(64 * p).cast()),
                    _mm256_loadu_si256(src.add(64 * p + 32).cast()),
                )
            };
            s[2 * p] = Ymm(_mm256_unpacklo_epi64(a, b));
            s[2 * p + 1] = Ymm(_mm256_unpackhi_epi64(a, b));
        }
        cipher_words::<Ymm, DECRYPT>(keys, &mut s);
        for p in 0..4 {
            let (lo, hi) = (s[2 * p].0, s[2 * p + 1].0);
            // SAFETY: the caller promises 256 writable bytes at `dst`.
            unsafe {
                _mm256_storeu_si256(dst.add(64 * p).cast(), _mm256_unpacklo_epi64(lo, hi));
                _mm256_storeu_si256(dst.add(64 * p + 32).cast(), _mm256_unpackhi_epi64(lo, hi));
            }
        }
    }
}
