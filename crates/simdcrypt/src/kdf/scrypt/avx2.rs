//! AVX2, two lanes of `p` at once: each ymm register holds the same
//! diagonal row (the `sse2-shuffle` layout) of one sub-block of each lane,
//! so two independent ROMix chains run in the latency of one. V holds both
//! lanes' entries side by side.

use core::arch::x86_64::{
    __m128i, __m256i, _mm256_add_epi32, _mm256_loadu2_m128i, _mm256_shuffle_epi32,
    _mm256_storeu2_m128i, _mm256_xor_si256,
};

use super::simd::simd_rung;
use crate::salsa20::avx2::rotl_ymm;

/// The sub-blocks `blocks[at[0]]` (low halves) and `blocks[at[1]]` (high
/// halves) in four registers.
#[inline]
#[target_feature(enable = "avx2")]
fn load(blocks: &[Block], at: [usize; 2]) -> [__m256i; 4] {
    let lo: *const __m128i = blocks[at[0]].0.as_ptr().cast();
    let hi: *const __m128i = blocks[at[1]].0.as_ptr().cast();
    // SAFETY: a `Block` is 64 bytes: four 16-byte rows each.
    unsafe {
        [
            _mm256_loadu2_m128i(hi, lo),
            _mm256_loadu2_m128i(hi.add(1), lo.add(1)),
            _mm256_loadu2_m128i(hi.add(2), lo.add(2)),
            _mm256_loadu2_m128i(hi.add(3), lo.add(3)),
        ]
    }
}

/// Stores four registers' low halves to `blocks[at[0]]`, high halves to
/// `blocks[at[1]]`.
#[inline]
#[target_feature(enable = "avx2")]
fn store(x: [__m256i; 4], blocks: &mut [Block], at: [usize; 2]) {
    debug_assert_ne!(at[0], at[1]);
    let lo: *mut __m128i = blocks[at[0]].0.as_mut_ptr().cast();
    let hi: *mut __m128i = blocks[at[1]].0.as_mut_ptr().cast();
    // SAFETY: as in `load`; the blocks are distinct (lanes are 2r apart)
    // and borrowed mutably.
    unsafe {
        _mm256_storeu2_m128i(hi, lo, x[0]);
        _mm256_storeu2_m128i(hi.add(1), lo.add(1), x[1]);
        _mm256_storeu2_m128i(hi.add(2), lo.add(2), x[2]);
        _mm256_storeu2_m128i(hi.add(3), lo.add(3), x[3]);
    }
}

simd_rung! {
    feature = "avx2", lanes = 2, reg = __m256i,
    add = _mm256_add_epi32, xor = _mm256_xor_si256, rotl = rotl_ymm, shuffle = _mm256_shuffle_epi32,
    load = load, store = store,
}
