//! SSE2, one block (or a few interleaved), horizontal: four 128-bit registers loaded once, each
//! holding one diagonal of the state; the row round reuses the column round's
//! code on `pshufd`-rotated registers with the roles of two rows swapped by
//! renaming, and the state is stored once at the end.
//!
//! The layout and its double-round are [`super::diagonal`]'s.

use core::arch::x86_64::{
    __m128i, _mm_add_epi32, _mm_set_epi32, _mm_shuffle_epi32, _mm_storeu_si128, _mm_xor_si128,
};

use super::diagonal::double_round;
use crate::simd::rotl_sse2;

/// `double_rounds` double-rounds of the state, without the final addition.
#[inline]
#[target_feature(enable = "sse2")]
pub(super) fn double_rounds(x: &[u32; 16], double_rounds: usize) -> [u32; 16] {
    let [z] = double_rounds_interleaved(&[*x], double_rounds);
    z
}

/// [`double_rounds`] of `N` independent states at once. Each state's chain of
/// quarter-round steps is sequential (add, rotate, xor: latency-bound), so
/// `N` states interleaved cost little more than one: the tails of the
/// vertical rungs use this for their last 2 or 3 blocks.
#[inline]
#[target_feature(enable = "sse2")]
pub(super) fn double_rounds_interleaved<const N: usize>(
    x: &[[u32; 16]; N],
    double_rounds: usize,
) -> [[u32; 16]; N] {
    let diagonal = |lanes: [usize; 4]| -> [__m128i; N] {
        // `_mm_set_epi32` takes the highest lane first.
        std::array::from_fn(|n| {
            let w = |i: usize| x[n][lanes[i]] as i32;
            _mm_set_epi32(w(3), w(2), w(1), w(0))
        })
    };
    let mut a = diagonal([0, 5, 10, 15]);
    let mut b = diagonal([4, 9, 14, 3]);
    let mut c = diagonal([8, 13, 2, 7]);
    let mut d = diagonal([12, 1, 6, 11]);
    for _ in 0..double_rounds {
        for n in 0..N {
            let [mut y0, mut y1, mut y2, mut y3] = [a[n], b[n], c[n], d[n]];
            double_round!(_mm_add_epi32, _mm_xor_si128, rotl_sse2, _mm_shuffle_epi32; y0, y1, y2, y3);
            [a[n], b[n], c[n], d[n]] = [y0, y1, y2, y3];
        }
    }
    std::array::from_fn(|n| {
        let mut lanes = [[0u32; 4]; 4];
        for (out, reg) in lanes.iter_mut().zip([a[n], b[n], c[n], d[n]]) {
            // SAFETY: `out` is 16 writable bytes; the store is unaligned.
            unsafe { _mm_storeu_si128(out.as_mut_ptr().cast(), reg) };
        }
        let [a, b, c, d] = lanes;
        [
            a[0], d[1], c[2], b[3], //
            b[0], a[1], d[2], c[3], //
            c[0], b[1], a[2], d[3], //
            d[0], c[1], b[2], a[3],
        ]
    })
}
