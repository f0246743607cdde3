//! Reference: the Salsa20 specification (D. J. Bernstein, "Salsa20
//! specification", 2005) read literally, function by function.
//!
//! The rung itself ([`double_rounds`]) is the specification's picture of the
//! state as a 4×4 matrix: quarter-rounds on the four columns (each column
//! starting at its diagonal word), then a transpose, so that the next
//! "column" round works on what were the rows. Twenty such rounds are ten
//! double-rounds. Never fast; every other rung is tested against it.
//!
//! This file imports nothing from its sibling rungs.

/// quarterround (spec §3): `z1 = y1 ⊕ ((y0 + y3) <<< 7)`, `z2 = y2 ⊕ ((z1 + y0) <<< 9)`,
/// `z3 = y3 ⊕ ((z2 + z1) <<< 13)`, `z0 = y0 ⊕ ((z3 + z2) <<< 18)`.
pub fn quarterround(y: [u32; 4]) -> [u32; 4] {
    let z1 = y[1] ^ y[0].wrapping_add(y[3]).rotate_left(7);
    let z2 = y[2] ^ z1.wrapping_add(y[0]).rotate_left(9);
    let z3 = y[3] ^ z2.wrapping_add(z1).rotate_left(13);
    let z0 = y[0] ^ z3.wrapping_add(z2).rotate_left(18);
    [z0, z1, z2, z3]
}

/// Applies [`quarterround`] to the words of `x` at the four `positions`.
fn quarterround_at(x: &mut [u32; 16], positions: [usize; 4]) {
    let z = quarterround(positions.map(|i| x[i]));
    for (i, zi) in positions.into_iter().zip(z) {
        x[i] = zi;
    }
}

/// rowround (spec §4): quarter-rounds on the rows, each starting at its
/// diagonal word: (y0,y1,y2,y3), (y5,y6,y7,y4), (y10,y11,y8,y9), (y15,y12,y13,y14).
pub fn rowround(y: &[u32; 16]) -> [u32; 16] {
    let mut z = *y;
    for positions in [[0, 1, 2, 3], [5, 6, 7, 4], [10, 11, 8, 9], [15, 12, 13, 14]] {
        quarterround_at(&mut z, positions);
    }
    z
}

/// columnround (spec §5): quarter-rounds on the columns, each starting at its
/// diagonal word: (x0,x4,x8,x12), (x5,x9,x13,x1), (x10,x14,x2,x6), (x15,x3,x7,x11).
pub fn columnround(x: &[u32; 16]) -> [u32; 16] {
    let mut y = *x;
    for positions in [[0, 4, 8, 12], [5, 9, 13, 1], [10, 14, 2, 6], [15, 3, 7, 11]] {
        quarterround_at(&mut y, positions);
    }
    y
}

/// doubleround (spec §6): `rowround(columnround(x))`.
pub fn doubleround(x: &[u32; 16]) -> [u32; 16] {
    rowround(&columnround(x))
}

/// littleendian (spec §7): four bytes to a word, least significant first.
pub fn littleendian(b: [u8; 4]) -> u32 {
    u32::from(b[0]) | u32::from(b[1]) << 8 | u32::from(b[2]) << 16 | u32::from(b[3]) << 24
}

/// The inverse of [`littleendian`].
pub fn littleendian_inverse(w: u32) -> [u8; 4] {
    [w as u8, (w >> 8) as u8, (w >> 16) as u8, (w >> 24) as u8]
}

/// The rung: `double_rounds` double-rounds of the state, as the matrix
/// picture of the specification has them — a column round, then a transpose,
/// `2 · double_rounds` times. No final addition (see [`hash`]).
pub fn double_rounds(input: &[u32; 16], double_rounds: usize) -> [u32; 16] {
    // m[row][column]
    let mut m: [[u32; 4]; 4] = std::array::from_fn(|r| std::array::from_fn(|c| input[4 * r + c]));
    for _round in 0..2 * double_rounds {
        // Quarter-round every column j, starting at its diagonal word m[j][j]
        // and going down the rows cyclically.
        let diagonal_first = [[0, 1, 2, 3], [1, 2, 3, 0], [2, 3, 0, 1], [3, 0, 1, 2]];
        for (j, rows) in diagonal_first.into_iter().enumerate() {
            let z = quarterround(rows.map(|r| m[r][j]));
            for (r, zr) in rows.into_iter().zip(z) {
                m[r][j] = zr;
            }
        }
        // Transpose: the rows become the columns of the next round.
        m = std::array::from_fn(|r| std::array::from_fn(|c| m[c][r]));
    }
    std::array::from_fn(|i| m[i / 4][i % 4])
}

/// The Salsa20 hash function (spec §8) on 64 bytes, with `double_rounds`
/// double-rounds (10 for Salsa20/20): `x + doubleround^n(x)`, word-wise,
/// little-endian in and out.
pub fn hash(input: &[u8; 64], double_rounds_count: usize) -> [u8; 64] {
    let mut x = [0u32; 16];
    for (w, b) in x.iter_mut().zip(input.chunks_exact(4)) {
        *w = littleendian([b[0], b[1], b[2], b[3]]);
    }
    let z = double_rounds(&x, double_rounds_count);
    let mut out = [0u8; 64];
    for (i, o) in out.chunks_exact_mut(4).enumerate() {
        o.copy_from_slice(&littleendian_inverse(z[i].wrapping_add(x[i])));
    }
    out
}

/// σ = "expand 32-byte k" (spec §9), the constants of the 32-byte key form.
pub const SIGMA: [[u8; 4]; 4] = [*b"expa", *b"nd 3", *b"2-by", *b"te k"];
/// τ = "expand 16-byte k" (spec §9), the constants of the 16-byte key form.
pub const TAU: [[u8; 4]; 4] = [*b"expa", *b"nd 1", *b"6-by", *b"te k"];

/// A Salsa20 key: 32 bytes (`k0‖k1`, with σ) or 16 bytes (`k`, with τ).
#[derive(Clone, Copy, Debug)]
pub enum Key<'a> {
    /// A 256-bit key.
    Bits256(&'a [u8; 32]),
    /// A 128-bit key.
    Bits128(&'a [u8; 16]),
}

/// The expansion function (spec §9): `Salsa20_k(n)` for a 32-byte key `k0‖k1`
/// is `Salsa20(σ0, k0, σ1, n, σ2, k1, σ3)`; a 16-byte key `k` uses τ and
/// `k` twice. `n` is the 16-byte nonce-and-counter.
pub fn expansion(key: Key<'_>, n: &[u8; 16], double_rounds_count: usize) -> [u8; 64] {
    let (constants, k0, k1): (_, &[u8], &[u8]) = match key {
        Key::Bits256(k) => (SIGMA, &k[..16], &k[16..]),
        Key::Bits128(k) => (TAU, k, k),
    };
    let pieces: [&[u8]; 7] = [
        &constants[0],
        k0,
        &constants[1],
        n,
        &constants[2],
        k1,
        &constants[3],
    ];
    let mut input = [0u8; 64];
    let mut at = 0;
    for piece in pieces {
        input[at..at + piece.len()].copy_from_slice(piece);
        at += piece.len();
    }
    hash(&input, double_rounds_count)
}

/// Encryption (spec §10): `c_i = m_i ⊕ Salsa20_k(v, ⌊i/64⌋)[i mod 64]`, the
/// block number `⌊i/64⌋` taken little-endian after the 8-byte nonce `v`.
/// `first_block` is the number of the block `data[0]` falls at the start of.
pub fn encrypt(
    key: Key<'_>,
    v: &[u8; 8],
    first_block: u64,
    data: &mut [u8],
    double_rounds_count: usize,
) {
    for (i, chunk) in data.chunks_mut(64).enumerate() {
        let mut n = [0u8; 16];
        n[..8].copy_from_slice(v);
        n[8..].copy_from_slice(&first_block.wrapping_add(i as u64).to_le_bytes());
        let block = expansion(key, &n, double_rounds_count);
        for (m, k) in chunk.iter_mut().zip(block) {
            *m ^= k;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matrix_transpose_form_equals_doubleround() {
        let mut x = [0u32; 16];
        for (i, w) in x.iter_mut().enumerate() {
            *w = (i as u32).wrapping_mul(0x9e37_79b9) ^ 0xdead_beef;
        }
        let mut want = x;
        for n in 0..=10 {
            assert_eq!(double_rounds(&x, n), want, "{n} double-rounds");
            want = doubleround(&want);
        }
    }
}
