//! AES as FIPS 197 writes it: the state a 4×4 array of bytes, and the
//! cipher (§5.1) and inverse cipher (§5.3) as rounds of SubBytes,
//! ShiftRows, MixColumns and AddRoundKey, with the S-box as the table of
//! Figure 7. Written to be read beside the standard, not to be fast; its
//! table lookups by secret bytes make it not constant-time, so it is
//! chosen only with the `hazmat` feature.

use super::Keys;

/// The S-box (FIPS 197, Figure 7).
pub const SBOX: [u8; 256] = [
    0x63, 0x7c, 0x77, 0x7b, 0xf2, 0x6b, 0x6f, 0xc5, 0x30, 0x01, 0x67, 0x2b, 0xfe, 0xd7, 0xab, 0x76,
    0xca, 0x82, 0xc9, 0x7d, 0xfa, 0x59, 0x47, 0xf0, 0xad, 0xd4, 0xa2, 0xaf, 0x9c, 0xa4, 0x72, 0xc0,
    0xb7, 0xfd, 0x93, 0x26, 0x36, 0x3f, 0xf7, 0xcc, 0x34, 0xa5, 0xe5, 0xf1, 0x71, 0xd8, 0x31, 0x15,
    0x04, 0xc7, 0x23, 0xc3, 0x18, 0x96, 0x05, 0x9a, 0x07, 0x12, 0x80, 0xe2, 0xeb, 0x27, 0xb2, 0x75,
    0x09, 0x83, 0x2c, 0x1a, 0x1b, 0x6e, 0x5a, 0xa0, 0x52, 0x3b, 0xd6, 0xb3, 0x29, 0xe3, 0x2f, 0x84,
    0x53, 0xd1, 0x00, 0xed, 0x20, 0xfc, 0xb1, 0x5b, 0x6a, 0xcb, 0xbe, 0x39, 0x4a, 0x4c, 0x58, 0xcf,
    0xd0, 0xef, 0xaa, 0xfb, 0x43, 0x4d, 0x33, 0x85, 0x45, 0xf9, 0x02, 0x7f, 0x50, 0x3c, 0x9f, 0xa8,
    0x51, 0xa3, 0x40, 0x8f, 0x92, 0x9d, 0x38, 0xf5, 0xbc, 0xb6, 0xda, 0x21, 0x10, 0xff, 0xf3, 0xd2,
    0xcd, 0x0c, 0x13, 0xec, 0x5f, 0x97, 0x44, 0x17, 0xc4, 0xa7, 0x7e, 0x3d, 0x64, 0x5d, 0x19, 0x73,
    0x60, 0x81, 0x4f, 0xdc, 0x22, 0x2a, 0x90, 0x88, 0x46, 0xee, 0xb8, 0x14, 0xde, 0x5e, 0x0b, 0xdb,
    0xe0, 0x32, 0x3a, 0x0a, 0x49, 0x06, 0x24, 0x5c, 0xc2, 0xd3, 0xac, 0x62, 0x91, 0x95, 0xe4, 0x79,
    0xe7, 0xc8, 0x37, 0x6d, 0x8d, 0xd5, 0x4e, 0xa9, 0x6c, 0x56, 0xf4, 0xea, 0x65, 0x7a, 0xae, 0x08,
    0xba, 0x78, 0x25, 0x2e, 0x1c, 0xa6, 0xb4, 0xc6, 0xe8, 0xdd, 0x74, 0x1f, 0x4b, 0xbd, 0x8b, 0x8a,
    0x70, 0x3e, 0xb5, 0x66, 0x48, 0x03, 0xf6, 0x0e, 0x61, 0x35, 0x57, 0xb9, 0x86, 0xc1, 0x1d, 0x9e,
    0xe1, 0xf8, 0x98, 0x11, 0x69, 0xd9, 0x8e, 0x94, 0x9b, 0x1e, 0x87, 0xe9, 0xce, 0x55, 0x28, 0xdf,
    0x8c, 0xa1, 0x89, 0x0d, 0xbf, 0xe6, 0x42, 0x68, 0x41, 0x99, 0x2d, 0x0f, 0xb0, 0x54, 0xbb, 0x16,
];

/// The inverse S-box (FIPS 197, Figure 14): `INV_SBOX[SBOX[x]] == x`.
pub const INV_SBOX: [u8; 256] = {
    let mut inv = [0u8; 256];
    let mut x = 0;
    while x < 256 {
        inv[SBOX[x] as usize] = x as u8;
        x += 1;
    }
    inv
};

/// The state (§3.4): `s[r][c]`, row `r`, column `c`.
pub type State = [[u8; 4]; 4];

/// Input bytes to the state, column by column (§3.4).
fn to_state(block: &[u8; 16]) -> State {
    std::array::from_fn(|r| std::array::from_fn(|c| block[r + 4 * c]))
}

/// The state to output bytes, column by column.
fn from_state(s: &State) -> [u8; 16] {
    std::array::from_fn(|i| s[i % 4][i / 4])
}

/// Multiplication by x in GF(2^8) modulo x^8 + x^4 + x^3 + x + 1 (§4.2.1).
pub fn xtime(b: u8) -> u8 {
    (b << 1) ^ if b & 0x80 != 0 { 0x1b } else { 0 }
}

/// Multiplication in GF(2^8) (§4.2), by repeated `xtime`.
pub fn mul(a: u8, b: u8) -> u8 {
    let (mut a, mut b, mut p) = (a, b, 0);
    while b != 0 {
        if b & 1 != 0 {
            p ^= a;
        }
        a = xtime(a);
        b >>= 1;
    }
    p
}

/// SubBytes (§5.1.1).
pub fn sub_bytes(s: &mut State) {
    s.iter_mut()
        .flatten()
        .for_each(|b| *b = SBOX[usize::from(*b)]);
}

/// InvSubBytes (§5.3.2).
pub fn inv_sub_bytes(s: &mut State) {
    s.iter_mut()
        .flatten()
        .for_each(|b| *b = INV_SBOX[usize::from(*b)]);
}

/// ShiftRows (§5.1.2): row `r` rotated left by `r`.
pub fn shift_rows(s: &mut State) {
    for (r, row) in s.iter_mut().enumerate() {
        row.rotate_left(r);
    }
}

/// InvShiftRows (§5.3.1): row `r` rotated right by `r`.
pub fn inv_shift_rows(s: &mut State) {
    for (r, row) in s.iter_mut().enumerate() {
        row.rotate_right(r);
    }
}

/// Multiplies every column by the matrix whose first row is `m` (§5.1.3:
/// {02, 03, 01, 01}; §5.3.3: {0e, 0b, 0d, 09}), each row the one above
/// rotated right.
fn mix_columns_by(s: &mut State, m: [u8; 4]) {
    for c in 0..4 {
        let col: [u8; 4] = std::array::from_fn(|r| s[r][c]);
        for (r, row) in s.iter_mut().enumerate() {
            row[c] = (0..4).fold(0, |acc, k| acc ^ mul(m[(k + 4 - r) % 4], col[k]));
        }
    }
}

/// MixColumns (§5.1.3).
pub fn mix_columns(s: &mut State) {
    mix_columns_by(s, [0x02, 0x03, 0x01, 0x01]);
}

/// InvMixColumns (§5.3.3).
pub fn inv_mix_columns(s: &mut State) {
    mix_columns_by(s, [0x0e, 0x0b, 0x0d, 0x09]);
}

/// AddRoundKey (§5.1.4): round key `w` (16 bytes, column by column).
pub fn add_round_key(s: &mut State, w: &[u8; 16]) {
    for (c, word) in w.chunks_exact(4).enumerate() {
        for (r, &k) in word.iter().enumerate() {
            s[r][c] ^= k;
        }
    }
}

/// SubWord (§5.2): the S-box on each byte of a word.
pub fn sub_word(w: [u8; 4]) -> [u8; 4] {
    w.map(|b| SBOX[usize::from(b)])
}

/// KeyExpansion (§5.2): the `Nb·(Nr + 1)` words of the schedule for a
/// key of `Nk` = 4, 6 or 8 words, as round keys of 16 bytes.
pub fn key_expansion(key: &[u8]) -> Vec<[u8; 16]> {
    expand_with(key, sub_word)
}

/// KeyExpansion with `sub_word` for SubWord, so a constant-time S-box can
/// stand in for the table.
pub(super) fn expand_with(key: &[u8], sub_word: impl Fn([u8; 4]) -> [u8; 4]) -> Vec<[u8; 16]> {
    let nk = key.len() / 4;
    let nr = nk + 6;
    let mut w: Vec<[u8; 4]> = key
        .chunks_exact(4)
        .map(|c| c.try_into().expect("4 bytes"))
        .collect();
    let mut rcon = 0x01u8;
    for i in nk..4 * (nr + 1) {
        let mut temp = w[i - 1];
        if i % nk == 0 {
            temp.rotate_left(1);
            temp = sub_word(temp);
            temp[0] ^= rcon;
            rcon = xtime(rcon);
        } else if nk > 6 && i % nk == 4 {
            temp = sub_word(temp);
        }
        let word = std::array::from_fn(|j| w[i - nk][j] ^ temp[j]);
        w.push(word);
    }
    let keys = w
        .chunks_exact(4)
        .map(|c| std::array::from_fn(|i| c[i / 4][i % 4]))
        .collect();
    zeroize::Zeroize::zeroize(&mut w);
    keys
}

/// Cipher (§5.1, Figure 5).
pub fn cipher(block: &[u8; 16], w: &[[u8; 16]]) -> [u8; 16] {
    let nr = w.len() - 1;
    let mut s = to_state(block);
    add_round_key(&mut s, &w[0]);
    for round in w.iter().take(nr).skip(1) {
        sub_bytes(&mut s);
        shift_rows(&mut s);
        mix_columns(&mut s);
        add_round_key(&mut s, round);
    }
    sub_bytes(&mut s);
    shift_rows(&mut s);
    add_round_key(&mut s, &w[nr]);
    from_state(&s)
}

/// InvCipher (§5.3, Figure 12).
pub fn inv_cipher(block: &[u8; 16], w: &[[u8; 16]]) -> [u8; 16] {
    let nr = w.len() - 1;
    let mut s = to_state(block);
    add_round_key(&mut s, &w[nr]);
    for round in w[1..nr].iter().rev() {
        inv_shift_rows(&mut s);
        inv_sub_bytes(&mut s);
        add_round_key(&mut s, round);
        inv_mix_columns(&mut s);
    }
    inv_shift_rows(&mut s);
    inv_sub_bytes(&mut s);
    add_round_key(&mut s, &w[0]);
    from_state(&s)
}

/// The rung: [`cipher`] on each block with the schedule in `keys`.
pub(super) fn encrypt_block(keys: &Keys, block: &mut [u8; 16]) {
    *block = cipher(block, keys.enc());
}

/// The rung: [`inv_cipher`] on each block.
pub(super) fn decrypt_block(keys: &Keys, block: &mut [u8; 16]) {
    *block = inv_cipher(block, keys.enc());
}
