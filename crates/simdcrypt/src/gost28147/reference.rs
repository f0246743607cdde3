//! GOST 28147-89 as RFC 5830 writes it: the basic step (§5.1, "основной
//! шаг"), nibble by nibble, one block at a time.
//!
//! **Not constant-time**: each nibble is looked up in its S-box row by its
//! value. The rung exists to read beside the standard and to check the
//! others against; it is chosen only by name, with the `hazmat` feature.

use super::SBox;

/// The round function: (`n` + `k`) mod 2^32, each nibble through its
/// S-box row (`K1` on the least-significant), rotated left by 11 bits
/// (RFC 5830 §5.1, steps 1–3).
pub fn f(sbox: &SBox, n: u32, k: u32) -> u32 {
    let s = n.wrapping_add(k);
    let mut y = 0;
    for (i, row) in sbox.rows().iter().enumerate() {
        let nibble = (s >> (4 * i)) & 0xf;
        y |= u32::from(row[nibble as usize]) << (4 * i);
    }
    y.rotate_left(11)
}

/// The basic step of RFC 5830 §5.1 on `(N1, N2)` with the key word `k`:
/// `S = f(N1, k) ⊕ N2`, then `N2 = N1` and `N1 = S`.
pub fn basic_step(sbox: &SBox, [n1, n2]: [u32; 2], k: u32) -> [u32; 2] {
    [f(sbox, n1, k) ^ n2, n1]
}

/// The basic steps under the key words `rk` in turn, of a block held as
/// `[N1, N2]`, given and returned in the form the rungs share (each step
/// writes the other half in place, without the swap): after an odd number
/// of steps the standard's `(N1, N2)` is that form's `[N2, N1]`.
pub fn rounds(sbox: &SBox, rk: &[u32], n: [u32; 2]) -> [u32; 2] {
    let state = rk.iter().fold(n, |n, &k| basic_step(sbox, n, k));
    if rk.len() % 2 == 1 {
        [state[1], state[0]]
    } else {
        state
    }
}
