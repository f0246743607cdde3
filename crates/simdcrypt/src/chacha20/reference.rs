//! Reference: RFC 8439 §2 read literally, function by function — the
//! quarter round (§2.1), the quarter round on the state (§2.2), the block
//! function (§2.3) with its `inner_block`, and the encryption (§2.4). Never
//! fast; every other rung is tested against it.
//!
//! The original form of ChaCha20 (D. J. Bernstein, 2008), with a 64-bit
//! block counter in words 12–13 and a 64-bit nonce in words 14–15, differs
//! only in where the counter and nonce go: [`block_legacy`],
//! [`encrypt_legacy`]. HChaCha20 (draft-irtf-cfrg-xchacha-03 §2.2) is
//! [`hchacha20`].
//!
//! This file imports nothing from its sibling rungs.

/// The constants of RFC 8439 §2.3, words 0–3: "expand 32-byte k".
pub const CONSTANTS: [u32; 4] = [0x6170_7865, 0x3320_646e, 0x7962_2d32, 0x6b20_6574];

/// The ChaCha quarter round (§2.1) on four words:
///
/// ```text
/// a += b; d ^= a; d <<<= 16;
/// c += d; b ^= c; b <<<= 12;
/// a += b; d ^= a; d <<<= 8;
/// c += d; b ^= c; b <<<= 7;
/// ```
pub fn quarter_round(mut a: u32, mut b: u32, mut c: u32, mut d: u32) -> (u32, u32, u32, u32) {
    a = a.wrapping_add(b);
    d ^= a;
    d = d.rotate_left(16);
    c = c.wrapping_add(d);
    b ^= c;
    b = b.rotate_left(12);
    a = a.wrapping_add(b);
    d ^= a;
    d = d.rotate_left(8);
    c = c.wrapping_add(d);
    b ^= c;
    b = b.rotate_left(7);
    (a, b, c, d)
}

/// The quarter round on the state (§2.2): `QUARTERROUND(x, y, z, w)` on the
/// words at those four indices.
pub fn quarter_round_on_state(state: &mut [u32; 16], x: usize, y: usize, z: usize, w: usize) {
    let (a, b, c, d) = quarter_round(state[x], state[y], state[z], state[w]);
    state[x] = a;
    state[y] = b;
    state[z] = c;
    state[w] = d;
}

/// `inner_block` (§2.3.1): a column round, then a diagonal round.
pub fn inner_block(state: &mut [u32; 16]) {
    quarter_round_on_state(state, 0, 4, 8, 12);
    quarter_round_on_state(state, 1, 5, 9, 13);
    quarter_round_on_state(state, 2, 6, 10, 14);
    quarter_round_on_state(state, 3, 7, 11, 15);
    quarter_round_on_state(state, 0, 5, 10, 15);
    quarter_round_on_state(state, 1, 6, 11, 12);
    quarter_round_on_state(state, 2, 7, 8, 13);
    quarter_round_on_state(state, 3, 4, 9, 14);
}

/// The rung: `double_rounds` calls of [`inner_block`] (ten for ChaCha20's
/// 20 rounds), without the final addition.
pub fn double_rounds(input: &[u32; 16], double_rounds: usize) -> [u32; 16] {
    let mut state = *input;
    for _ in 0..double_rounds {
        inner_block(&mut state);
    }
    state
}

/// The four bytes at `b[4i..4i + 4]` as a little-endian word (§2.3: "the key
/// … is treated as a concatenation of eight 32-bit little-endian integers").
fn word(b: &[u8], i: usize) -> u32 {
    u32::from_le_bytes([b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3]])
}

/// The initial state of §2.3: constants, key, the 32-bit block counter,
/// the 96-bit nonce.
pub fn initial_state(key: &[u8; 32], counter: u32, nonce: &[u8; 12]) -> [u32; 16] {
    let mut state = [0u32; 16];
    state[..4].copy_from_slice(&CONSTANTS);
    for i in 0..8 {
        state[4 + i] = word(key, i);
    }
    state[12] = counter;
    for i in 0..3 {
        state[13 + i] = word(nonce, i);
    }
    state
}

/// The ChaCha20 block function (§2.3.1) on a state: 20 rounds, then the
/// state added to the working state, serialised little-endian.
pub fn block_of_state(state: &[u32; 16]) -> [u8; 64] {
    let working_state = double_rounds(state, 10);
    let mut out = [0u8; 64];
    for i in 0..16 {
        let w = state[i].wrapping_add(working_state[i]);
        out[4 * i..4 * i + 4].copy_from_slice(&w.to_le_bytes());
    }
    out
}

/// `chacha20_block(key, counter, nonce)` (§2.3.1).
pub fn block(key: &[u8; 32], counter: u32, nonce: &[u8; 12]) -> [u8; 64] {
    block_of_state(&initial_state(key, counter, nonce))
}

/// The block function of the original ChaCha20: the 64-bit counter in words
/// 12 (low) and 13 (high), the 64-bit nonce in words 14–15.
pub fn block_legacy(key: &[u8; 32], counter: u64, nonce: &[u8; 8]) -> [u8; 64] {
    let mut n = [0u8; 12];
    n[..4].copy_from_slice(&((counter >> 32) as u32).to_le_bytes());
    n[4..].copy_from_slice(nonce);
    block_of_state(&initial_state(key, counter as u32, &n))
}

/// `chacha20_encrypt(key, counter, nonce, plaintext)` (§2.4.1): block `j`
/// of keystream is `chacha20_block(key, counter + j, nonce)`, XORed into the
/// 64-byte piece `j` of `data`, the last piece maybe shorter.
///
/// The RFC's 32-bit counter would wrap after block 2^32 − 1; this function
/// wraps with it, as a literal reading does — the public types refuse such
/// requests before any keystream is made.
pub fn encrypt(key: &[u8; 32], counter: u32, nonce: &[u8; 12], data: &mut [u8]) {
    for (j, piece) in data.chunks_mut(64).enumerate() {
        let key_stream = block(key, counter.wrapping_add(j as u32), nonce);
        for (b, k) in piece.iter_mut().zip(key_stream) {
            *b ^= k;
        }
    }
}

/// [`encrypt`] for the original ChaCha20, with its 64-bit counter and nonce.
pub fn encrypt_legacy(key: &[u8; 32], counter: u64, nonce: &[u8; 8], data: &mut [u8]) {
    for (j, piece) in data.chunks_mut(64).enumerate() {
        let key_stream = block_legacy(key, counter.wrapping_add(j as u64), nonce);
        for (b, k) in piece.iter_mut().zip(key_stream) {
            *b ^= k;
        }
    }
}

/// HChaCha20 (draft-irtf-cfrg-xchacha-03 §2.2): the ChaCha20 state with the
/// 16-byte `input` in words 12–15 (where counter and nonce go), 20 rounds,
/// no final addition; the output is words 0–3 and 12–15, little-endian.
pub fn hchacha20(key: &[u8; 32], input: &[u8; 16]) -> [u8; 32] {
    let mut n = [0u8; 12];
    n.copy_from_slice(&input[4..]);
    let state = initial_state(key, word(input, 0), &n);
    let z = double_rounds(&state, 10);
    let mut out = [0u8; 32];
    for (o, i) in out.chunks_exact_mut(4).zip([0, 1, 2, 3, 12, 13, 14, 15]) {
        o.copy_from_slice(&z[i].to_le_bytes());
    }
    out
}
