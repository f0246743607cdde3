//! SSE2, one lane: each sub-block in four xmm registers in the
//! `sse2-shuffle` diagonal layout, whose double-round it reuses.

use core::arch::x86_64::{
    __m128i, _MM_HINT_T0, _mm_add_epi32, _mm_load_si128, _mm_prefetch, _mm_setzero_si128,
    _mm_shuffle_epi32, _mm_store_si128, _mm_xor_si128,
};
use core::sync::atomic::{Ordering, compiler_fence};

use super::simd::simd_rung;
use crate::simd::rotl_sse2;

/// The sub-block `blocks[at[0]]` in four registers.
#[inline]
#[target_feature(enable = "sse2")]
pub(super) fn load(blocks: &[Block], at: [usize; 1]) -> [__m128i; 4] {
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
pub(super) fn store(x: [__m128i; 4], blocks: &mut [Block], at: [usize; 1]) {
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

/// Overwrites `blocks` with zeros through volatile 16-byte stores, which
/// the compiler may not remove (the `zeroize` crate's guarantee, in a
/// quarter of the stores its `u32` words take): V is wiped this way, for
/// every rung.
pub(super) fn wipe(blocks: &mut [Block]) {
    for block in blocks {
        let p: *mut __m128i = block.0.as_mut_ptr().cast();
        for row in 0..4 {
            // SAFETY: SSE2 is part of the x86-64 baseline; a `Block` is 64
            // bytes aligned to 64: four aligned 16-byte rows, borrowed
            // mutably.
            unsafe { core::ptr::write_volatile(p.add(row), _mm_setzero_si128()) };
        }
    }
    compiler_fence(Ordering::SeqCst);
}

/// Asks for all the cache lines of `blocks` (one per sub-block) at once,
/// so that they arrive in parallel rather than one by one as BlockMix
/// reaches them: `V_j` in ROMix's second loop, for every rung.
#[inline(always)]
pub(super) fn prefetch(blocks: &[Block]) {
    for block in blocks {
        // SAFETY: SSE is part of the x86-64 baseline; a prefetch reads
        // nothing back and cannot fault.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(block.0.as_ptr().cast()) };
    }
}
