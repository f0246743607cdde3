//! AVX-512F + VL: the `sse2` rung's one lane and the `avx2` rung's two and
//! four lanes, with each rotation one `vprold` instead of two shifts and
//! an or. A lane is one chain of dependent quarter-round steps, so the
//! step's latency is the lane's speed: add, rotate, xor is 3 cycles where
//! add, shift, or, xor was 4 (RFC 7914's Salsa20/8 has 32 steps in
//! sequence a core, plus the shuffles between rounds).

use core::arch::x86_64::{
    __m128i, __m256i, _mm_add_epi32, _mm_shuffle_epi32, _mm_xor_si128, _mm256_add_epi32,
    _mm256_shuffle_epi32, _mm256_xor_si256,
};

use super::avx2::{lane_groups, load_row, store_row};
use super::simd::simd_rung;
use crate::simd::{vprold_xmm, vprold_ymm};

/// One lane: the `sse2` rung's registers and layout.
pub(super) mod one {
    use super::*;
    use crate::kdf::scrypt::sse2::{load, store};

    simd_rung! {
        feature = "avx512f,avx512vl", lanes = 1, reg = __m128i,
        add = _mm_add_epi32, xor = _mm_xor_si128, rotl = vprold_xmm, shuffle = _mm_shuffle_epi32,
        load = load, store = store,
    }
}

lane_groups!(feature = "avx512f,avx512vl", rotl = vprold_ymm, $);
