//! Scalar, four SP tables of 256 32-bit words (SP1110, SP0222,
//! SP3033, SP4404, as OpenSSL's `camellia.c` and NTT's reference code
//! have them): each entry an s-box's output already spread over the
//! bytes of the P-function's output it reaches, so F is eight lookups,
//! four per 32-bit half of its input; the parallel modes run two blocks
//! side by side.
//!
//! **Not constant-time.** Every lookup is indexed by a byte of the secret
//! state, which opens the rung to the cache-timing attacks that break
//! table-based AES; it is chosen by name, with the `hazmat` feature, to
//! measure and to compare.
//!
//! The tables are computed at compile time from the reference's s-boxes.

use super::BLOCK_LEN;
use super::key_schedule::Subkeys;
use crate::xor::InOut;
use super::reference::{s1, s2, s3, s4};

/// A table whose entry `x` is s-box `n`'s output (s1..s4) in the bytes
/// `mask` marks, most significant first: SP1110 has s1(x) in bytes 1, 2, 3
/// of the word.
const fn sp(n: u8, mask: [bool; 4]) -> [u32; 256] {
    let mut table = [0; 256];
    let mut x = 0;
    while x < 256 {
        let y = match n {
            1 => s1(x as u8),
            2 => s2(x as u8),
            3 => s3(x as u8),
            _ => s4(x as u8),
        } as u32;
        let mut i = 0;
        while i < 4 {
            if mask[i] {
                table[x] |= y << (24 - 8 * i);
            }
            i += 1;
        }
        x += 1;
    }
    table
}

/// s1 in bytes 1, 2, 3 of y1..y4 (its column of P over y1..y4).
static SP1110: [u32; 256] = sp(1, [true, true, true, false]);
/// s2 in bytes 2, 3, 4.
static SP0222: [u32; 256] = sp(2, [false, true, true, true]);
/// s3 in bytes 1, 3, 4.
static SP3033: [u32; 256] = sp(3, [true, false, true, true]);
/// s4 in bytes 1, 2, 4.
static SP4404: [u32; 256] = sp(4, [true, true, false, true]);

/// The bytes of a 32-bit word as indices, most significant first.
#[inline(always)]
fn bytes(x: u32) -> [usize; 4] {
    x.to_be_bytes().map(usize::from)
}

/// The F-function (§2.4.1) by table lookups, its input and output as
/// 32-bit halves: the input `hi`, `lo` under the key `ke`, the output
/// XORed into `out_hi`, `out_lo`. With t1..t4 the bytes of the left half
/// (after the key) and t5..t8 those of the right, P's rows over y1..y4
/// make V = SP1110[t1] ^ SP0222[t2] ^ SP3033[t3] ^ SP4404[t4] and
/// U = SP0222[t5] ^ SP3033[t6] ^ SP4404[t7] ^ SP1110[t8] the contributions
/// to y1..y4; those of t5..t8 to y5..y8 are U again, and those of t1..t4
/// are V ^ (V >>> 8). So y1..y4 = U ^ V and y5..y8 = U ^ V ^ (V >>> 8).
#[inline(always)]
fn f(hi: u32, lo: u32, ke: u64, out_hi: &mut u32, out_lo: &mut u32) {
    let [t1, t2, t3, t4] = bytes(hi ^ (ke >> 32) as u32);
    let [t5, t6, t7, t8] = bytes(lo ^ ke as u32);
    let v = SP1110[t1] ^ SP0222[t2] ^ SP3033[t3] ^ SP4404[t4];
    let u = SP0222[t5] ^ SP3033[t6] ^ SP4404[t7] ^ SP1110[t8];
    let y_left = u ^ v;
    *out_hi ^= y_left;
    *out_lo ^= y_left ^ v.rotate_right(8);
}

/// `N` blocks under `sk`, their rounds interleaved: the data randomizing
/// part of §2.3 with each state as four 32-bit words, D1 = (a, b) and
/// D2 = (c, d), as OpenSSL's `camellia.c` keeps it. The F-function's
/// output then goes into the words as it is made; joined into 64-bit
/// halves, as the reference's form has them, the rung is about a fifth
/// slower (74 against 61 ns a block on a Zen 5): the joins sit on the
/// rounds' chain. One block is a chain of lookups, each waiting for the
/// one before; two side by side fill the other's waits.
#[inline(always)]
fn encrypt_n<const N: usize>(sk: &Subkeys, blocks: [[u8; BLOCK_LEN]; N]) -> [[u8; BLOCK_LEN]; N] {
    let half = |k: u64| ((k >> 32) as u32, k as u32);
    let (kw1, kw2) = (half(sk.kw[0]), half(sk.kw[1]));
    let mut state = blocks.map(|block| {
        let word = |i: usize| u32::from_be_bytes(block[4 * i..4 * i + 4].try_into().expect("4 bytes"));
        [word(0) ^ kw1.0, word(1) ^ kw1.1, word(2) ^ kw2.0, word(3) ^ kw2.1]
    });
    for (six, k) in sk.k[..sk.rounds].chunks_exact(6).enumerate() {
        if six > 0 {
            // FL on D1 and FL^-1 on D2 (§2.4.2, §2.4.3).
            let (k1, k2) = half(sk.ke[2 * six - 2]);
            let (k3, k4) = half(sk.ke[2 * six - 1]);
            for [a, b, c, d] in state.iter_mut() {
                *b ^= (*a & k1).rotate_left(1);
                *a ^= *b | k2;
                *c ^= *d | k4;
                *d ^= (*c & k3).rotate_left(1);
            }
        }
        for pair in k.chunks_exact(2) {
            for [a, b, c, d] in state.iter_mut() {
                f(*a, *b, pair[0], c, d);
            }
            for [a, b, c, d] in state.iter_mut() {
                f(*c, *d, pair[1], a, b);
            }
        }
    }
    let (kw3, kw4) = (half(sk.kw[2]), half(sk.kw[3]));
    let mut out = [[0; BLOCK_LEN]; N];
    for (block, [a, b, c, d]) in out.iter_mut().zip(state) {
        for (i, w) in [c ^ kw3.0, d ^ kw3.1, a ^ kw4.0, b ^ kw4.1].into_iter().enumerate() {
            block[4 * i..4 * i + 4].copy_from_slice(&w.to_be_bytes());
        }
    }
    out
}

/// Blocks processed at once by [`encrypt`].
pub(super) const PAR_BLOCKS: usize = 2;

/// One block under `sk`.
pub(super) fn encrypt_block(sk: &Subkeys, block: &mut [u8; BLOCK_LEN]) {
    [*block] = encrypt_n(sk, [*block]);
}

/// Whole blocks under `sk`, two at a time, read from the input and
/// written to the output.
pub(super) fn encrypt(sk: &Subkeys, blocks: InOut<'_>) {
    for chunk in blocks.chunks(PAR_BLOCKS * BLOCK_LEN) {
        if chunk.len() < PAR_BLOCKS * BLOCK_LEN {
            crate::block::by_block(chunk, |block| encrypt_block(sk, block));
            continue;
        }
        let input = chunk.input();
        let blocks: [[u8; BLOCK_LEN]; PAR_BLOCKS] =
            std::array::from_fn(|i| input[BLOCK_LEN * i..BLOCK_LEN * (i + 1)].try_into().expect("a block"));
        chunk.into_output().copy_from_slice(encrypt_n(sk, blocks).as_flattened());
    }
}

#[cfg(test)]
mod tests {
    use super::super::reference;
    use super::*;

    /// Every count of blocks, pairs and the odd one, equals the reference
    /// block by block, in place and apart.
    #[test]
    fn pairs_and_singles_match_the_reference() {
        let sk = Subkeys::new(&[0x2b; 24]);
        let data: Vec<u8> = (0..7 * BLOCK_LEN).map(|i| (i * 29 + 5) as u8).collect();
        for n in 0..=7 {
            let input = &data[..n * BLOCK_LEN];
            let mut want = input.to_vec();
            for block in want.chunks_exact_mut(BLOCK_LEN) {
                reference::encrypt_block(&sk, block.try_into().expect("a block"));
            }
            let mut in_place = input.to_vec();
            encrypt(&sk, InOut::in_place(&mut in_place));
            let mut apart = vec![0; input.len()];
            encrypt(&sk, InOut::apart(input, &mut apart).expect("equal lengths"));
            assert_eq!((&in_place, &apart), (&want, &want), "{n} blocks");
        }
    }
}
