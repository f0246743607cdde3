//! Portable and constant-time: POLYVAL's `dot` from integer
//! multiplications "with holes" (the technique of BearSSL's
//! `ghash_ctmul64`, Pornin): no table indexed by a secret, no branch on
//! one. One block at a time.
//!
//! A carry-less 64×64 product is built from integer multiplications of
//! the operands' bits split four ways (every fourth bit kept): in the
//! integer product of two such sparse words, each bit position that can
//! hold a true product bit sums at most 16 terms, whose carries land in
//! the three unused bits above it (or past bit 63), so masking keeps the
//! carry-less bits exactly. The high half of a product comes from the
//! same computation on the bit-reversed operands. Karatsuba makes the
//! 128×128 product from three 64×64 ones, and the reduction by
//! `x^-128` modulo `x^128 + x^127 + x^126 + x^121 + 1` is shifts and
//! XORs (Montgomery's, one 64-bit word at a time).

/// The low 64 bits of the carry-less product of `x` and `y`.
#[inline]
fn bmul64_low(x: u64, y: u64) -> u64 {
    const M0: u64 = 0x1111_1111_1111_1111;
    const M1: u64 = M0 << 1;
    const M2: u64 = M0 << 2;
    const M3: u64 = M0 << 3;
    let (x0, x1, x2, x3) = (x & M0, x & M1, x & M2, x & M3);
    let (y0, y1, y2, y3) = (y & M0, y & M1, y & M2, y & M3);
    let m = u64::wrapping_mul;
    // Bits at positions ≡ k (mod 4) come from the pairs i + j ≡ k.
    let z0 = m(x0, y0) ^ m(x1, y3) ^ m(x2, y2) ^ m(x3, y1);
    let z1 = m(x0, y1) ^ m(x1, y0) ^ m(x2, y3) ^ m(x3, y2);
    let z2 = m(x0, y2) ^ m(x1, y1) ^ m(x2, y0) ^ m(x3, y3);
    let z3 = m(x0, y3) ^ m(x1, y2) ^ m(x2, y1) ^ m(x3, y0);
    (z0 & M0) | (z1 & M1) | (z2 & M2) | (z3 & M3)
}

/// The carry-less product of `x` and `y`, 127 bits, as (low, high) words:
/// the high word is the low word of the reversed operands' product,
/// reversed and shifted by one.
#[inline]
fn bmul64(x: u64, y: u64) -> (u64, u64) {
    let low = bmul64_low(x, y);
    let high = bmul64_low(x.reverse_bits(), y.reverse_bits()).reverse_bits() >> 1;
    (low, high)
}

/// `dot(a, b) = a · b · x^-128` (RFC 8452 §3) on field elements as
/// little-endian integers (bit `i` the coefficient of `x^i`).
#[inline]
pub(super) fn dot(a: u128, b: u128) -> u128 {
    let (a0, a1) = (a as u64, (a >> 64) as u64);
    let (b0, b1) = (b as u64, (b >> 64) as u64);
    // Karatsuba: a·b = H·x^128 + (M + L + H)·x^64 + L.
    let (l0, l1) = bmul64(a0, b0);
    let (h0, h1) = bmul64(a1, b1);
    let (m0, m1) = bmul64(a0 ^ a1, b0 ^ b1);
    let (m0, m1) = (m0 ^ l0 ^ h0, m1 ^ l1 ^ h1);
    let (c0, c1, c2, c3) = (l0, l1 ^ m0, h0 ^ m1, h1);
    // Montgomery reduction one word at a time: adding c0·P clears word 0
    // (P ≡ 1 mod x^64) and puts c0·(x^121 + x^126 + x^127 + x^128)
    // into words 1 and 2; then the same with the new word 1.
    let c1 = c1 ^ (c0 << 63) ^ (c0 << 62) ^ (c0 << 57);
    let c2 = c2 ^ c0 ^ (c0 >> 1) ^ (c0 >> 2) ^ (c0 >> 7);
    let c2 = c2 ^ (c1 << 63) ^ (c1 << 62) ^ (c1 << 57);
    let c3 = c3 ^ c1 ^ (c1 >> 1) ^ (c1 >> 2) ^ (c1 >> 7);
    (u128::from(c3) << 64) | u128::from(c2)
}

/// Absorbs whole `blocks` into the accumulator `acc`: `acc = dot(acc ⊕
/// X, h)` for each block `X`, read little-endian (POLYVAL) or, with
/// `reversed`, big-endian (GHASH's blocks, byte-reversed).
pub(super) fn update(h: u128, acc: &mut u128, blocks: &[u8], reversed: bool) {
    for block in blocks.chunks_exact(16) {
        let block: [u8; 16] = block.try_into().expect("16 bytes");
        let x = if reversed {
            u128::from_be_bytes(block)
        } else {
            u128::from_le_bytes(block)
        };
        *acc = dot(*acc ^ x, h);
    }
}
