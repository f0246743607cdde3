//! GHASH as NIST SP 800-38D writes it — the product of two blocks bit by
//! bit (§6.3, Algorithm 1) and GHASH itself (§6.4, Algorithm 2) — and
//! POLYVAL as RFC 8452 §3 defines it: `dot(a, b) = a · b · x^-128` in
//! GF(2^128) modulo `x^128 + x^127 + x^126 + x^121 + 1`, computed as the
//! product bit by bit and 128 divisions by `x`. Written to be read beside
//! the documents, not to be fast: each step branches on a bit of its
//! operands, so the rung is not constant-time and is chosen only with the
//! `hazmat` feature.

/// A block of 128 bits.
pub type Block = [u8; 16];

/// `R = 11100001 ‖ 0^120` (§6.3): the reduction constant, as the
/// big-endian integer whose most significant bit is bit 0 of the block.
const R: u128 = 0xe1 << 120;

/// `X • Y` (§6.3, Algorithm 1). Bit `i` of a block is the `i`-th bit from
/// the left: bit 7 of byte 0 is bit 0, the coefficient of `x^0`.
pub fn mul(x: &Block, y: &Block) -> Block {
    let x = u128::from_be_bytes(*x);
    // Step 2: Z_0 = 0^128, V_0 = Y.
    let mut z = 0u128;
    let mut v = u128::from_be_bytes(*y);
    for i in 0..128 {
        // Step 3: Z_{i+1} = Z_i when x_i = 0, else Z_i ⊕ V_i.
        if (x >> (127 - i)) & 1 == 1 {
            z ^= v;
        }
        // V_{i+1} = V_i >> 1 when LSB_1(V_i) = 0, else (V_i >> 1) ⊕ R.
        if v & 1 == 0 {
            v >>= 1;
        } else {
            v = (v >> 1) ^ R;
        }
    }
    // Step 4: return Z_128.
    z.to_be_bytes()
}

/// `GHASH_H(X)` (§6.4, Algorithm 2) of a whole number of blocks:
/// `Y_i = (Y_{i-1} ⊕ X_i) • H`, `Y_0 = 0^128`.
///
/// # Panics
///
/// When `x` is not a whole number of blocks (§6.4 defines GHASH on `128m`
/// bits only).
pub fn ghash(h: &Block, x: &[u8]) -> Block {
    assert!(x.len().is_multiple_of(16), "GHASH takes whole blocks");
    let mut y = [0u8; 16];
    for block in x.chunks_exact(16) {
        let mut sum = y;
        for (s, b) in sum.iter_mut().zip(block) {
            *s ^= b;
        }
        y = mul(&sum, h);
    }
    y
}

/// `x^128 + x^127 + x^126 + x^121 + 1` (RFC 8452 §3) without `x^128`. A
/// block is the little-endian integer whose bit `i` is the coefficient of
/// `x^i`.
const P_LOW: u128 = (1 << 127) | (1 << 126) | (1 << 121) | 1;

/// `a · b` in the field of POLYVAL (RFC 8452 §3): shift and add, `b`
/// multiplied by `x` (and reduced) for each bit of `a`.
pub fn field_mul(a: &Block, b: &Block) -> Block {
    let a = u128::from_le_bytes(*a);
    let mut b = u128::from_le_bytes(*b);
    let mut p = 0u128;
    for i in 0..128 {
        if (a >> i) & 1 == 1 {
            p ^= b;
        }
        let overflow = b >> 127;
        b <<= 1;
        if overflow == 1 {
            b ^= P_LOW;
        }
    }
    p.to_le_bytes()
}

/// `dot(a, b) = a · b · x^-128` (RFC 8452 §3): the product, then 128
/// divisions by `x` — each adds the polynomial when the constant term is
/// set, so that the division is exact.
pub fn dot(a: &Block, b: &Block) -> Block {
    let mut p = u128::from_le_bytes(field_mul(a, b));
    for _ in 0..128 {
        if p & 1 == 1 {
            // (p + P) / x: P's x^128 term becomes x^127.
            p = ((p ^ P_LOW) >> 1) | (1 << 127);
        } else {
            p >>= 1;
        }
    }
    p.to_le_bytes()
}

/// `POLYVAL(H, X_1, …, X_s)` (RFC 8452 §3): `S_j = dot(S_{j-1} + X_j, H)`,
/// `S_0 = 0`, of a whole number of blocks.
///
/// # Panics
///
/// When `x` is not a whole number of blocks.
pub fn polyval(h: &Block, x: &[u8]) -> Block {
    assert!(x.len().is_multiple_of(16), "POLYVAL takes whole blocks");
    let mut s = [0u8; 16];
    for block in x.chunks_exact(16) {
        let mut sum = s;
        for (a, b) in sum.iter_mut().zip(block) {
            *a ^= b;
        }
        s = dot(&sum, h);
    }
    s
}

/// `ByteReverse` (RFC 8452 Appendix A).
pub fn byte_reverse(x: &Block) -> Block {
    let mut r = *x;
    r.reverse();
    r
}

/// `mulX_GHASH` (RFC 8452 Appendix A): multiplication by `x` in GHASH's
/// field, `X • (0^1 ‖ 1 ‖ 0^126)`.
pub fn mulx_ghash(x: &Block) -> Block {
    let mut x_block = [0u8; 16];
    x_block[0] = 0x40;
    mul(x, &x_block)
}

/// `mulX_POLYVAL` (RFC 8452 Appendix A): multiplication by `x` in
/// POLYVAL's field.
pub fn mulx_polyval(x: &Block) -> Block {
    field_mul(x, &2u128.to_le_bytes())
}
