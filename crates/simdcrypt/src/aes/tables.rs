//! Scalar, one block, 32-bit T-tables (Daemen and Rijmen, *The Design of
//! Rijndael*, the implementation on 32-bit processors; the form of Matsui's
//! survey, 170 cycles a block on an Athlon 64): a round is 16 lookups in four 256-entry tables of 32-bit
//! words and XORs, each lookup SubBytes, ShiftRows and MixColumns of one
//! byte at once; the last round looks bytes up in the S-box. Decryption is
//! the equivalent inverse cipher (FIPS 197 §5.3.5) with the inverse tables
//! and the round keys of [`Keys::dec`].
//!
//! **Not constant-time.** Every lookup is indexed by a byte of the secret
//! state, so which cache lines are touched depends on the key and the data.
//! That has been turned into key recovery: by timing whole encryptions
//! (Bernstein, *Cache-timing attacks on AES*, 2005) and by watching the
//! cache from another process (Osvik, Shamir and Tromer, *Cache attacks and
//! countermeasures: the case of AES*, CT-RSA 2006). The rung is therefore
//! never a default; it is chosen by name, with the `hazmat` feature, to
//! measure and to compare.
//!
//! The tables are computed at compile time from the S-box and the
//! multiplication in GF(2^8), not pasted in.

use super::Keys;
use super::reference::{INV_SBOX, SBOX};

/// Multiplication by x in GF(2^8) (FIPS 197 §4.2.1), for the tables.
const fn xtime(b: u8) -> u8 {
    (b << 1) ^ ((b >> 7) * 0x1b)
}

/// Multiplication in GF(2^8) (§4.2), for the tables.
const fn mul(mut a: u8, mut b: u8) -> u8 {
    let mut p = 0;
    while b != 0 {
        if b & 1 != 0 {
            p ^= a;
        }
        a = xtime(a);
        b >>= 1;
    }
    p
}

/// Four tables: `t[i][x]` is the column that byte `x`, standing in row
/// `i`, contributes after the S-box `sbox` and the matrix whose column 0
/// is `col` (row 0 in the low byte, as a column is loaded little-endian).
/// `t[i]` is `t[0]` rotated by `i` bytes.
const fn tables(sbox: &[u8; 256], col: [u8; 4]) -> [[u32; 256]; 4] {
    let mut t = [[0u32; 256]; 4];
    let mut x = 0;
    while x < 256 {
        let s = sbox[x];
        let word = u32::from_le_bytes([
            mul(col[0], s),
            mul(col[1], s),
            mul(col[2], s),
            mul(col[3], s),
        ]);
        let mut i = 0;
        while i < 4 {
            t[i][x] = word.rotate_left(8 * i as u32);
            i += 1;
        }
        x += 1;
    }
    t
}

/// The encryption tables: S-box, then MixColumns' column 0 {02, 01, 01, 03}.
static TE: [[u32; 256]; 4] = tables(&SBOX, [0x02, 0x01, 0x01, 0x03]);

/// The decryption tables: inverse S-box, then InvMixColumns' column 0
/// {0e, 09, 0d, 0b}.
static TD: [[u32; 256]; 4] = tables(&INV_SBOX, [0x0e, 0x09, 0x0d, 0x0b]);

/// Byte `row` of the column word `w`, as a table index.
#[inline(always)]
fn byte(w: u32, row: usize) -> usize {
    usize::from((w >> (8 * row)) as u8)
}

/// The round key `k` as four column words.
#[inline(always)]
fn columns(k: &[u8; 16]) -> [u32; 4] {
    std::array::from_fn(|c| {
        u32::from_le_bytes([k[4 * c], k[4 * c + 1], k[4 * c + 2], k[4 * c + 3]])
    })
}

/// The rounds of the cipher (`step` = 1: column `c` row `r` comes from
/// column `c + r`, ShiftRows) or of the equivalent inverse cipher (`step` =
/// 3: from column `c − r`, InvShiftRows) with tables `t` and S-box `sbox`.
#[inline(always)]
fn rounds(
    t: &[[u32; 256]; 4],
    sbox: &[u8; 256],
    step: usize,
    keys: &[[u8; 16]],
    block: &mut [u8; 16],
) {
    let from = |c: usize, r: usize| (c + step * r) % 4;
    let mut s = columns(block);
    let k = columns(&keys[0]);
    for c in 0..4 {
        s[c] ^= k[c];
    }
    let last = keys.len() - 1;
    for key in &keys[1..last] {
        let k = columns(key);
        s = std::array::from_fn(|c| {
            t[0][byte(s[from(c, 0)], 0)]
                ^ t[1][byte(s[from(c, 1)], 1)]
                ^ t[2][byte(s[from(c, 2)], 2)]
                ^ t[3][byte(s[from(c, 3)], 3)]
                ^ k[c]
        });
    }
    let k = columns(&keys[last]);
    for c in 0..4 {
        let column = u32::from_le_bytes(std::array::from_fn(|r| sbox[byte(s[from(c, r)], r)]));
        block[4 * c..4 * c + 4].copy_from_slice(&(column ^ k[c]).to_le_bytes());
    }
}

/// Encrypts one block (FIPS 197 §5.1) with T-tables.
pub(super) fn encrypt_block(keys: &Keys, block: &mut [u8; 16]) {
    rounds(&TE, &SBOX, 1, keys.enc(), block);
}

/// Decrypts one block with the equivalent inverse cipher (§5.3.5) and
/// the inverse T-tables.
pub(super) fn decrypt_block(keys: &Keys, block: &mut [u8; 16]) {
    rounds(&TD, &INV_SBOX, 3, keys.dec(), block);
}

#[cfg(test)]
mod tests {
    use super::super::reference;
    use super::*;

    #[test]
    fn tables_are_sbox_then_mix_columns() {
        for x in 0..=255u8 {
            let mut s: reference::State = [[0; 4]; 4];
            s[0][0] = reference::SBOX[usize::from(x)];
            reference::mix_columns(&mut s);
            let want = u32::from_le_bytes([s[0][0], s[1][0], s[2][0], s[3][0]]);
            assert_eq!(TE[0][usize::from(x)], want, "{x:#04x}");
            assert_eq!(TE[3][usize::from(x)], want.rotate_left(24));
        }
    }
}
