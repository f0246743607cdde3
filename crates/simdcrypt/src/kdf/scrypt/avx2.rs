//! AVX2, two or four lanes of `p` at once: each ymm register holds the same
//! diagonal row (the `sse2-shuffle` layout) of one sub-block of two lanes,
//! one per 128-bit half, so two independent ROMix chains run in the latency
//! of one; four lanes take two such registers per row, two independent
//! dependency chains the core interleaves (a chain of add, shifts, or, xor
//! leaves most of the vector ports idle). V holds the lanes' entries side
//! by side.

use core::arch::x86_64::{
    __m128i, __m256i, _mm256_add_epi32, _mm256_loadu2_m128i, _mm256_shuffle_epi32,
    _mm256_storeu2_m128i, _mm256_xor_si256,
};

use super::Block;
use super::simd::simd_rung;

/// Row `row` of the sub-blocks `blocks[lo]` (low half) and `blocks[hi]`
/// (high half).
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn load_row(blocks: &[Block], lo: usize, hi: usize, row: usize) -> __m256i {
    let lo: *const __m128i = blocks[lo].0[4 * row..4 * row + 4].as_ptr().cast();
    let hi: *const __m128i = blocks[hi].0[4 * row..4 * row + 4].as_ptr().cast();
    // SAFETY: each pointer is to four readable words (16 bytes).
    unsafe { _mm256_loadu2_m128i(hi, lo) }
}

/// Stores `x` to row `row` of `blocks[lo]` (low half) and `blocks[hi]`
/// (high half).
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn store_row(x: __m256i, blocks: &mut [Block], lo: usize, hi: usize, row: usize) {
    debug_assert_ne!(lo, hi);
    let lo: *mut __m128i = blocks[lo].0[4 * row..4 * row + 4].as_mut_ptr().cast();
    let hi: *mut __m128i = blocks[hi].0[4 * row..4 * row + 4].as_mut_ptr().cast();
    // SAFETY: each pointer is to four writable words (16 bytes), of two
    // distinct blocks (lanes are 2r sub-blocks apart).
    unsafe { _mm256_storeu2_m128i(hi, lo, x) }
}

/// The two- and four-lane groups of a rung whose features are `$feature`
/// and whose rotation is the macro `$rotl` (`avx2`: two shifts and an or;
/// `avx512`: `vprold`); `$d` is a `$`, for the macro inside.
macro_rules! lane_groups {
    (feature = $feature:literal, rotl = $rotl:ident, $d:tt) => {
    /// Two lanes: one ymm register per row.
    pub(super) mod two {
        use super::*;

        /// The sub-blocks `blocks[at[0]]` and `blocks[at[1]]` in four registers.
        #[inline]
        #[target_feature(enable = "avx2")]
        fn load(blocks: &[Block], at: [usize; 2]) -> [__m256i; 4] {
            std::array::from_fn(|row| load_row(blocks, at[0], at[1], row))
        }

        /// Stores four registers to `blocks[at[0]]` and `blocks[at[1]]`.
        #[inline]
        #[target_feature(enable = "avx2")]
        fn store(x: [__m256i; 4], blocks: &mut [Block], at: [usize; 2]) {
            for (row, x) in x.into_iter().enumerate() {
                store_row(x, blocks, at[0], at[1], row);
            }
        }

        simd_rung! {
            feature = $feature, lanes = 2, reg = __m256i,
            add = _mm256_add_epi32, xor = _mm256_xor_si256, rotl = $rotl, shuffle = _mm256_shuffle_epi32,
            load = load, store = store,
        }
    }

    /// Four lanes: two ymm registers per row, lanes 0–1 and 2–3.
    pub(super) mod four {
        use super::*;

        /// Two registers of two lanes each.
        #[derive(Clone, Copy)]
        pub(super) struct Pair(__m256i, __m256i);

        /// Lane-wise addition of pairs.
        #[inline]
        #[target_feature(enable = "avx2")]
        fn add(x: Pair, y: Pair) -> Pair {
            Pair(_mm256_add_epi32(x.0, y.0), _mm256_add_epi32(x.1, y.1))
        }

        /// Lane-wise XOR of pairs.
        #[inline]
        #[target_feature(enable = "avx2")]
        fn xor(x: Pair, y: Pair) -> Pair {
            Pair(_mm256_xor_si256(x.0, y.0), _mm256_xor_si256(x.1, y.1))
        }

        /// `pshufd` on both registers of a pair.
        #[inline]
        #[target_feature(enable = "avx2")]
        fn shuffle<const IMM: i32>(x: Pair) -> Pair {
            Pair(
                _mm256_shuffle_epi32::<IMM>(x.0),
                _mm256_shuffle_epi32::<IMM>(x.1),
            )
        }

        /// `x <<< n` on every 32-bit lane of a pair.
        macro_rules! rotl_pair {
            ($d x:expr, $d n:literal) => {{
                let x: Pair = $d x;
                Pair($rotl!(x.0, $d n), $rotl!(x.1, $d n))
            }};
        }

        /// The sub-blocks `blocks[at[0..4]]` in four pairs.
        #[inline]
        #[target_feature(enable = "avx2")]
        fn load(blocks: &[Block], at: [usize; 4]) -> [Pair; 4] {
            std::array::from_fn(|row| {
                Pair(
                    load_row(blocks, at[0], at[1], row),
                    load_row(blocks, at[2], at[3], row),
                )
            })
        }

        /// Stores four pairs to `blocks[at[0..4]]`.
        #[inline]
        #[target_feature(enable = "avx2")]
        fn store(x: [Pair; 4], blocks: &mut [Block], at: [usize; 4]) {
            for (row, x) in x.into_iter().enumerate() {
                store_row(x.0, blocks, at[0], at[1], row);
                store_row(x.1, blocks, at[2], at[3], row);
            }
        }

        simd_rung! {
            feature = $feature, lanes = 4, reg = Pair,
            add = add, xor = xor, rotl = rotl_pair, shuffle = shuffle,
            load = load, store = store,
        }
    }
    };
}
pub(super) use lane_groups;

use crate::simd::rotl_ymm;

lane_groups!(feature = "avx2", rotl = rotl_ymm, $);
