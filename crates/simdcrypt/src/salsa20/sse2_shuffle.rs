//! SSE2, one block (or a few interleaved), horizontal: four 128-bit registers loaded once, each
//! holding one diagonal of the state; the row round reuses the column round's
//! code on `pshufd`-rotated registers with the roles of two rows swapped by
//! renaming, and the state is stored once at the end.
//!
//! Registers, lane by lane (spec §5's column quarter-rounds run down the lanes):
//!
//! ```text
//! a = (x0,  x5,  x10, x15)    the words each quarter-round starts at
//! b = (x4,  x9,  x14, x3)
//! c = (x8,  x13, x2,  x7)
//! d = (x12, x1,  x6,  x11)
//! ```
//!
//! For the row round (spec §4) the second words are `d` rotated one lane
//! down, the third `c` rotated two, the fourth `b` rotated three: so the row
//! round is the column round with `b` and `d` exchanged.

use core::arch::x86_64::{
    __m128i, _mm_add_epi32, _mm_set_epi32, _mm_shuffle_epi32, _mm_storeu_si128, _mm_xor_si128,
};

use crate::simd::rotl_sse2;

/// `pshufd` immediates: lane `i` of the result is lane `i + k` of the input.
pub(crate) const ROT1: i32 = 0b00_11_10_01;
pub(crate) const ROT2: i32 = 0b01_00_11_10;
pub(crate) const ROT3: i32 = 0b10_01_00_11;

/// One double-round (spec §4, §5) of states in the diagonal layout above,
/// on the four registers `a, b, c, d` in place, back in that layout at the
/// end. `$add`, `$xor` and `$shuffle` (a `pshufd`-like intrinsic taking
/// the immediate as a const generic) act on each 128-bit lane, `$rotl!`
/// rotates each 32-bit lane: so xmm registers hold one state, and ymm or
/// zmm registers two or four states side by side (scrypt's lanes use
/// this).
macro_rules! double_round {
    ($add:ident, $xor:ident, $rotl:ident, $shuffle:ident; $a:ident, $b:ident, $c:ident, $d:ident) => {
        // Column round: lanes of (a, b, c, d) are the columns' quarter-rounds.
        $crate::salsa20::quarterround!($add, $xor, $rotl; $a, $b, $c, $d);
        // Row round: rotate the rows into place, b and d exchange roles.
        $d = $shuffle::<{ $crate::salsa20::sse2_shuffle::ROT1 }>($d);
        $c = $shuffle::<{ $crate::salsa20::sse2_shuffle::ROT2 }>($c);
        $b = $shuffle::<{ $crate::salsa20::sse2_shuffle::ROT3 }>($b);
        $crate::salsa20::quarterround!($add, $xor, $rotl; $a, $d, $c, $b);
        // Back to the diagonal layout of the column round.
        $d = $shuffle::<{ $crate::salsa20::sse2_shuffle::ROT3 }>($d);
        $c = $shuffle::<{ $crate::salsa20::sse2_shuffle::ROT2 }>($c);
        $b = $shuffle::<{ $crate::salsa20::sse2_shuffle::ROT1 }>($b);
    };
}
pub(crate) use double_round;

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
