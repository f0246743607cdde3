//! PMULL (FEAT_PMULL): the 64×64 carry-less product in one instruction
//! (`vmull_p64` on the low words, `vmull_high_p64` on the high ones),
//! Karatsuba's three per block, and one reduction per 8 blocks
//! (aggregated reduction, Gueron and Kounavis, *Intel Carry-Less
//! Multiplication Instruction and its Usage for Computing the GCM Mode*,
//! 2010, as the `pclmul` rung): with the powers `H^8 … H^1` of the key
//! computed once, 8 blocks add up as `(S ⊕ X_1)·H^8 ⊕ X_2·H^7 ⊕ … ⊕
//! X_8·H^1` unreduced, then reduce. The sums, the byte order and the
//! aggregation are the `neon` rung's; only the products and the
//! reduction are this rung's.
//!
//! Everything is POLYVAL's field (RFC 8452 §3), where the reduction by
//! `x^-128` takes two carry-less multiplications by `x^63 + x^62 + x^57`
//! (the constant `0xc2 << 56`), Montgomery's a 64-bit word at a time;
//! GHASH's blocks are byte-reversed on loading (RFC 8452 Appendix A).

use core::arch::aarch64::{
    uint8x16_t, veor_u8, veorq_u8, vextq_u8, vget_high_u8, vget_lane_u64, vget_low_u8,
    vgetq_lane_u64, vmull_high_p64, vmull_p64, vreinterpret_u64_u8, vreinterpretq_p64_u8,
    vreinterpretq_u8_p128, vreinterpretq_u64_u8,
};

use super::neon::{self, Wide};

/// `x^63 + x^62 + x^57`: the reduction's multiplier.
const POLY: u64 = 0xc200_0000_0000_0000;

/// The low 64-bit word of `v`.
#[target_feature(enable = "neon")]
#[inline]
fn low_word(v: uint8x16_t) -> u64 {
    vgetq_lane_u64::<0>(vreinterpretq_u64_u8(v))
}

/// Adds `a · h` to `w`, unreduced: three carry-less products (Karatsuba).
#[target_feature(enable = "neon,aes")]
#[inline]
pub(crate) fn mul_add(w: &mut Wide, a: uint8x16_t, h: uint8x16_t) {
    let lo = vmull_p64(low_word(a), low_word(h));
    let hi = vmull_high_p64(vreinterpretq_p64_u8(a), vreinterpretq_p64_u8(h));
    let a_sum = veor_u8(vget_low_u8(a), vget_high_u8(a));
    let h_sum = veor_u8(vget_low_u8(h), vget_high_u8(h));
    let mid = vmull_p64(
        vget_lane_u64::<0>(vreinterpret_u64_u8(a_sum)),
        vget_lane_u64::<0>(vreinterpret_u64_u8(h_sum)),
    );
    w.lo = veorq_u8(w.lo, vreinterpretq_u8_p128(lo));
    w.hi = veorq_u8(w.hi, vreinterpretq_u8_p128(hi));
    w.mid = veorq_u8(w.mid, vreinterpretq_u8_p128(mid));
}

/// The sum `w` times `x^-128`, reduced: Karatsuba's middle term put in
/// place ([`Wide::halves`]), then Montgomery's reduction a 64-bit word at
/// a time (the low word `c` of the product cancelled by adding `c·P`,
/// whose part above `x^64` is `c·(x^57 + x^62 + x^63)` and `c` itself one
/// word up).
#[target_feature(enable = "neon,aes")]
#[inline]
pub(crate) fn reduce(w: Wide) -> uint8x16_t {
    let (lo, hi) = w.halves();
    let t = vreinterpretq_u8_p128(vmull_p64(low_word(lo), POLY));
    let lo = veorq_u8(vextq_u8::<8>(lo, lo), t);
    let t = vreinterpretq_u8_p128(vmull_p64(low_word(lo), POLY));
    let lo = veorq_u8(vextq_u8::<8>(lo, lo), t);
    veorq_u8(hi, lo)
}

/// `dot(a, b)` (RFC 8452 §3): one product, one reduction.
#[target_feature(enable = "neon,aes")]
pub(super) fn dot(a: u128, b: u128) -> u128 {
    let mut w = Wide::zero();
    mul_add(&mut w, neon::load(&a), neon::load(&b));
    neon::store(reduce(w))
}

/// Absorbs whole `blocks` into `acc`, 8 at a time, the rest in one last
/// reduction; `reversed` for GHASH's byte order.
#[target_feature(enable = "neon,aes")]
pub(crate) fn update(powers: &[u128; 8], acc: &mut u128, blocks: &[u8], reversed: bool) {
    neon::update_with(
        powers,
        acc,
        blocks,
        reversed,
        |w, a, h| mul_add(w, a, h),
        |w| reduce(w),
    );
}
