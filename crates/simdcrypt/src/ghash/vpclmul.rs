//! VPCLMULQDQ on ymm (AVX2): the `pclmul` rung's aggregated reduction with
//! two blocks per register, so that each instruction computes two
//! products: 8 blocks per step as four registers, each multiplied by its
//! pair of powers (`H^8, H^7`, …, `H^2, H^1`) schoolbook (see
//! [`mul_add2`]), the low, middle and high parts summed over the step, the
//! two halves folded, and one reduction. Runs of fewer than 8 blocks go to
//! the `pclmul` rung.

use core::arch::x86_64::{
    __m256i, _mm_xor_si128, _mm256_broadcastsi128_si256, _mm256_castsi256_si128,
    _mm256_clmulepi64_epi128, _mm256_extracti128_si256, _mm256_loadu_si256, _mm256_setzero_si256,
    _mm256_shuffle_epi8, _mm256_xor_si256,
};

use super::pclmul::{self, Wide};
use core::arch::x86_64::__m128i;

/// Two sums of products before reduction, one per 128-bit half.
#[derive(Clone, Copy)]
pub(crate) struct Wide2 {
    lo: __m256i,
    mid: __m256i,
    hi: __m256i,
}

impl Wide2 {
    /// The empty sums.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(crate) fn zero() -> Wide2 {
        let z = _mm256_setzero_si256();
        Wide2 {
            lo: z,
            mid: z,
            hi: z,
        }
    }

    /// Both halves added into one sum, for [`pclmul::reduce`].
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(crate) fn fold(self) -> Wide {
        let half =
            |v: __m256i| _mm_xor_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
        Wide {
            lo: half(self.lo),
            mid: half(self.mid),
            hi: half(self.hi),
        }
    }
}

/// A pair of powers: `H^(k+1)` in the low half, `H^k` in the high half.
pub(crate) type Pair = __m256i;

/// Adds `a · h` to `w` in each half, schoolbook: four carry-less
/// products, the middle term the two cross products (reduced with
/// [`pclmul::reduce_parts`]). On ymm this is measured faster than
/// Karatsuba's three products, whose operand sums cost a shuffle each on
/// the port the products also need (GHASH alone 20.4 against 19.2 GB/s
/// at 16 KiB; the stitched AES-128-GCM 16.0 against 14.5).
#[target_feature(enable = "avx2,vpclmulqdq")]
#[inline]
pub(crate) fn mul_add2(w: &mut Wide2, a: __m256i, h: &Pair) {
    w.lo = _mm256_xor_si256(w.lo, _mm256_clmulepi64_epi128::<0x00>(a, *h));
    w.hi = _mm256_xor_si256(w.hi, _mm256_clmulepi64_epi128::<0x11>(a, *h));
    let cross = _mm256_xor_si256(
        _mm256_clmulepi64_epi128::<0x01>(a, *h),
        _mm256_clmulepi64_epi128::<0x10>(a, *h),
    );
    w.mid = _mm256_xor_si256(w.mid, cross);
}

/// The powers by pairs: of `N` pairs (`2N` powers, the highest first),
/// register `j` holds `H^(2N−2j)` in its low half and `H^(2N−2j−1)` in
/// its high half, the multipliers of blocks `2j` and `2j + 1` of a run of
/// `2N` blocks.
#[target_feature(enable = "avx2")]
#[inline]
pub(crate) fn power_pairs<const N: usize>(powers: &[u128]) -> [Pair; N] {
    let powers = &powers[powers.len() - 2 * N..];
    // SAFETY: `powers[2j..2j + 2]` is 32 bytes, the size of each load.
    std::array::from_fn(|j| unsafe { _mm256_loadu_si256(powers[2 * j..].as_ptr().cast()) })
}

/// `s` after absorbing the `2N` blocks of the registers `g` (in field
/// order), `s` joining the first, by `pairs`, in one reduction.
#[target_feature(enable = "avx2,vpclmulqdq,pclmulqdq")]
#[inline]
pub(crate) fn absorb_regs<const N: usize>(
    s: __m128i,
    g: &[__m256i; N],
    pairs: &[Pair; N],
) -> __m128i {
    // The registers that do not depend on `s` first.
    let mut w = Wide2::zero();
    for j in 1..N {
        mul_add2(&mut w, g[j], &pairs[j]);
    }
    mul_add2(&mut w, _mm256_xor_si256(g[0], zero_extend(s)), &pairs[0]);
    pclmul::reduce_parts(w.fold())
}

/// Register `j` of a step: blocks `2j` and `2j + 1` of `step` (128 bytes),
/// in field order.
#[target_feature(enable = "avx2")]
#[inline]
pub(crate) fn load_pair(step: &[u8], j: usize, order: __m256i) -> __m256i {
    let pair = &step[32 * j..32 * j + 32];
    // SAFETY: `pair` is 32 bytes, the size of the (unaligned) load.
    let x = unsafe { _mm256_loadu_si256(pair.as_ptr().cast()) };
    _mm256_shuffle_epi8(x, order)
}

/// Absorbs whole `blocks` into `acc`, 8 at a time; the last run of fewer
/// than 8 blocks on [`pclmul::update`].
#[target_feature(enable = "avx2,vpclmulqdq,pclmulqdq,ssse3")]
pub(crate) fn update(powers: &[u128; 8], acc: &mut u128, blocks: &[u8], reversed: bool) {
    let order = _mm256_broadcastsi128_si256(pclmul::byte_order(reversed));
    let pairs = power_pairs::<4>(powers);
    let mut s = pclmul::load(acc);
    let steps = blocks.chunks_exact(128);
    let rest = steps.remainder();
    for step in steps {
        let g: [__m256i; 4] = std::array::from_fn(|j| load_pair(step, j, order));
        s = absorb_regs(s, &g, &pairs);
    }
    *acc = pclmul::store(s);
    if !rest.is_empty() {
        pclmul::update(powers, acc, rest, reversed);
    }
}

/// A ymm register holding `x` in its low half and zeros in its high half.
#[target_feature(enable = "avx2")]
#[inline]
pub(crate) fn zero_extend(x: core::arch::x86_64::__m128i) -> __m256i {
    core::arch::x86_64::_mm256_inserti128_si256::<0>(_mm256_setzero_si256(), x)
}
