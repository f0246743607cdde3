//! SSE2, one lane: each sub-block in four xmm registers in the
//! `sse2-shuffle` diagonal layout, whose double-round it reuses.

use core::arch::x86_64::{
    __m128i, _mm_add_epi32, _mm_load_si128, _mm_shuffle_epi32, _mm_store_si128, _mm_xor_si128,
};

use super::simd::simd_rung;
use crate::salsa20::rotl_sse2;

/// The sub-block `blocks[at[0]]` in four registers.
#[inline]
#[target_feature(enable = "sse2")]
fn load(blocks: &[Block], at: [usize; 1]) -> [__m128i; 4] {
    let p: *const __m128i = blocks[at[0]].0.as_ptr().cast();
    // SAFETY: a `Block` is 64 bytes aligned to 64: four aligned 16-byte rows.
    unsafe {
        [
            _mm_load_si128(p),
            _mm_load_si128(p.add(1)),
            _mm_load_si128(p.add(2)),
            _mm_load_si128(p.add(3)),
        ]
    }
}

/// Stores four registers to the sub-block `blocks[at[0]]`.
#[inline]
#[target_feature(enable = "sse2")]
fn store(x: [__m128i; 4], blocks: &mut [Block], at: [usize; 1]) {
    let p: *mut __m128i = blocks[at[0]].0.as_mut_ptr().cast();
    // SAFETY: as in `load`, and the block is borrowed mutably.
    unsafe {
        _mm_store_si128(p, x[0]);
        _mm_store_si128(p.add(1), x[1]);
        _mm_store_si128(p.add(2), x[2]);
        _mm_store_si128(p.add(3), x[3]);
    }
}

simd_rung! {
    feature = "sse2", lanes = 1, reg = __m128i,
    add = _mm_add_epi32, xor = _mm_xor_si128, rotl = rotl_sse2, shuffle = _mm_shuffle_epi32,
    load = load, store = store,
}
