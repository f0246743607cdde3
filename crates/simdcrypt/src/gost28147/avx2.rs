//! AVX2, eight blocks a ymm register pair: the `ssse3` rung's SIMD S-box
//! ([`super::nibbles`]) on ymm, `vpblendw` building the indexes, eight
//! groups interleaved; the single-block rounds are the `ssse3` rung's
//! (every AVX2 CPU has SSSE3).

use core::arch::x86_64::{
    __m256i, _mm_set_epi64x, _mm256_add_epi32, _mm256_and_si256, _mm256_blend_epi16,
    _mm256_broadcastsi128_si256, _mm256_loadu_si256, _mm256_or_si256, _mm256_set1_epi32,
    _mm256_shuffle_epi8, _mm256_slli_epi32, _mm256_srli_epi32, _mm256_storeu_si256,
    _mm256_unpackhi_epi64, _mm256_unpacklo_epi64, _mm256_xor_si256,
};

use super::Order;
pub(super) use super::nibbles::Tables;
use super::nibbles::nibble_rung;
use crate::xor::InOut;

/// [`GROUPS`](super::nibbles::GROUPS) groups of eight blocks.
pub(super) const PAR_BLOCKS: usize = 8 * super::nibbles::GROUPS;

/// A 16-byte table or shuffle in both 128-bit lanes.
#[target_feature(enable = "avx2")]
#[inline]
fn splat16(t: &[u8; 16]) -> __m256i {
    let v = u128::from_le_bytes(*t);
    _mm256_broadcastsi128_si256(_mm_set_epi64x((v >> 64) as i64, v as i64))
}

/// Bytes 0–1 of each lane from `a`, 2–3 from `b`: one `vpblendw`.
macro_rules! blend {
    ($a:expr, $b:expr) => {
        _mm256_blend_epi16::<0b1010_1010>($a, $b)
    };
}

nibble_rung! {
    feature = "avx2", reg = __m256i, lanes = 8,
    splat16 = splat16, set1 = _mm256_set1_epi32, add = _mm256_add_epi32, and = _mm256_and_si256,
    or = _mm256_or_si256, xor = _mm256_xor_si256, shuffle = _mm256_shuffle_epi8,
    slli = _mm256_slli_epi32, srli = _mm256_srli_epi32, blend = blend,
    unpacklo64 = _mm256_unpacklo_epi64, unpackhi64 = _mm256_unpackhi_epi64,
    loadu = _mm256_loadu_si256, storeu = _mm256_storeu_si256
}

/// The 32 rounds under `rk` on whole blocks, eight groups of eight at a
/// time.
#[target_feature(enable = "avx2")]
pub(super) fn crypt(t: &Tables, rk: &[u32; 32], order: Order, blocks: InOut<'_>) {
    crypt_with(t, rk, order, blocks);
}

/// The rounds under `rk` of one block: the `ssse3` rung's.
#[target_feature(enable = "avx2")]
pub(super) fn rounds(t: &Tables, rk: &[u32], n: [u32; 2]) -> [u32; 2] {
    super::ssse3::rounds(t, rk, n)
}
