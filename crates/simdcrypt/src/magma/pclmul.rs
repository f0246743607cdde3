//! PCLMULQDQ: MGM's sum of products in GF(2^64) (RFC 9058 §4, the field
//! of x^64 + x^4 + x^3 + x + 1), one carry-less multiplication a product
//! and two for the reduction: the 128-bit product's high word times
//! x^4 + x^3 + x + 1 folds into the low one, and its 5 overflow bits once
//! more.

use core::arch::x86_64::{
    __m128i, _mm_clmulepi64_si128, _mm_cvtsi64_si128, _mm_cvtsi128_si64, _mm_set_epi64x,
    _mm_srli_si128, _mm_xor_si128,
};

/// `acc ⊕ Σ h[i]·x[i]` in GF(2^64).
#[target_feature(enable = "pclmulqdq,sse2")]
pub(super) fn dot(acc: u64, h: &[u64], x: &[u64]) -> u64 {
    let mut sum: __m128i = _mm_cvtsi64_si128(acc as i64);
    for (&h, &x) in h.iter().zip(x) {
        let p = _mm_clmulepi64_si128(_mm_cvtsi64_si128(h as i64), _mm_cvtsi64_si128(x as i64), 0);
        sum = _mm_xor_si128(sum, p);
    }
    // The unreduced sum: fold the high word twice by 0x1b.
    let r = _mm_set_epi64x(0, 0x1b);
    let t = _mm_clmulepi64_si128(_mm_srli_si128(sum, 8), r, 0);
    let t2 = _mm_clmulepi64_si128(_mm_srli_si128(t, 8), r, 0);
    _mm_cvtsi128_si64(_mm_xor_si128(_mm_xor_si128(sum, t), t2)) as u64
}
