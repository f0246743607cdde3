//! SSSE3, four blocks an xmm register pair: the Baikal-T1 article's SIMD
//! S-box (`pshufb` looking nibbles up in four tables held in registers,
//! [`super::nibbles`]), eight groups interleaved to hide the round's
//! latency; and the single-block rounds of the chained modes on one lane.

use core::arch::x86_64::{
    __m128i, _mm_add_epi32, _mm_and_si128, _mm_cvtsi32_si128, _mm_cvtsi128_si32, _mm_loadu_si128,
    _mm_or_si128, _mm_set_epi64x, _mm_set1_epi32, _mm_shuffle_epi8, _mm_slli_epi32, _mm_srli_epi32,
    _mm_storeu_si128, _mm_unpackhi_epi64, _mm_unpacklo_epi64, _mm_xor_si128,
};

use super::Order;
pub(super) use super::nibbles::Tables;
use super::nibbles::nibble_rung;
use crate::xor::InOut;

/// [`GROUPS`](super::nibbles::GROUPS) groups of four blocks.
pub(super) const PAR_BLOCKS: usize = 4 * super::nibbles::GROUPS;

/// A 16-byte table or shuffle in a register.
#[target_feature(enable = "ssse3")]
#[inline]
fn splat16(t: &[u8; 16]) -> __m128i {
    let v = u128::from_le_bytes(*t);
    _mm_set_epi64x((v >> 64) as i64, v as i64)
}

/// Bytes 0–1 of each lane from `a`, 2–3 from `b` (`pblendw` is SSE4.1):
/// `a ^ ((a ^ b) & 0xffff0000)`.
macro_rules! blend {
    ($a:expr, $b:expr) => {{
        let (a, b) = ($a, $b);
        _mm_xor_si128(
            a,
            _mm_and_si128(_mm_xor_si128(a, b), _mm_set1_epi32(0xffff_0000_u32 as i32)),
        )
    }};
}

nibble_rung! {
    feature = "ssse3", reg = __m128i, lanes = 4,
    splat16 = splat16, set1 = _mm_set1_epi32, add = _mm_add_epi32, and = _mm_and_si128,
    or = _mm_or_si128, xor = _mm_xor_si128, shuffle = _mm_shuffle_epi8, slli = _mm_slli_epi32,
    srli = _mm_srli_epi32, blend = blend, unpacklo64 = _mm_unpacklo_epi64,
    unpackhi64 = _mm_unpackhi_epi64,
    loadu = _mm_loadu_si128, storeu = _mm_storeu_si128
}

/// The 32 rounds under `rk` on whole blocks, eight groups of four at a
/// time.
#[target_feature(enable = "ssse3")]
pub(super) fn crypt(t: &Tables, rk: &[u32; 32], order: Order, blocks: InOut<'_>) {
    crypt_with(t, rk, order, blocks);
}

/// The rounds under `rk` of one block `[N1, N2]`, in lane 0 of two xmm
/// registers (the chained modes' path: its latency is the round's).
#[target_feature(enable = "ssse3")]
pub(super) fn rounds(t: &Tables, rk: &[u32], [n1, n2]: [u32; 2]) -> [u32; 2] {
    let c = regs(t);
    let (mut a, mut b) = (_mm_cvtsi32_si128(n1 as i32), _mm_cvtsi32_si128(n2 as i32));
    let mut pairs = rk.chunks_exact(2);
    for k in &mut pairs {
        b = _mm_xor_si128(b, f(&c, _mm_add_epi32(a, _mm_cvtsi32_si128(k[0] as i32))));
        a = _mm_xor_si128(a, f(&c, _mm_add_epi32(b, _mm_cvtsi32_si128(k[1] as i32))));
    }
    if let [k] = pairs.remainder() {
        b = _mm_xor_si128(b, f(&c, _mm_add_epi32(a, _mm_cvtsi32_si128(*k as i32))));
    }
    [_mm_cvtsi128_si32(a) as u32, _mm_cvtsi128_si32(b) as u32]
}
