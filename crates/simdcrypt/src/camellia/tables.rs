//! Scalar, one block, four SP tables of 256 32-bit words (SP1110, SP0222,
//! SP3033, SP4404, as OpenSSL's `camellia.c` and NTT's reference code
//! have them): each entry an s-box's output already spread over the
//! bytes of the P-function's output it reaches, so F is eight lookups,
//! four per 32-bit half of its input.
//!
//! **Not constant-time.** Every lookup is indexed by a byte of the secret
//! state, which opens the rung to the cache-timing attacks that break
//! table-based AES; it is chosen by name, with the `hazmat` feature, to
//! measure and to compare.
//!
//! The tables are computed at compile time from the reference's s-boxes.

use super::key_schedule::Subkeys;
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

/// One block under `sk`: the data randomizing part of §2.3 with the state
/// as four 32-bit words, D1 = (a, b) and D2 = (c, d), as OpenSSL's
/// `camellia.c` keeps it. The F-function's output then goes into the
/// words as it is made; joined into 64-bit halves, as the reference's
/// form has them, the rung is about a fifth slower (74 against 61 ns a
/// block on a Zen 5): the joins sit on the rounds' chain.
pub(super) fn encrypt_block(sk: &Subkeys, block: &mut [u8; 16]) {
    let word = |i: usize| u32::from_be_bytes(block[4 * i..4 * i + 4].try_into().expect("4 bytes"));
    let half = |k: u64| ((k >> 32) as u32, k as u32);
    let (mut a, mut b, mut c, mut d) = (word(0), word(1), word(2), word(3));
    let (kw1, kw2) = (half(sk.kw[0]), half(sk.kw[1]));
    (a, b, c, d) = (a ^ kw1.0, b ^ kw1.1, c ^ kw2.0, d ^ kw2.1);
    for (six, k) in sk.k[..sk.rounds].chunks_exact(6).enumerate() {
        if six > 0 {
            // FL on D1 and FL^-1 on D2 (§2.4.2, §2.4.3).
            let (k1, k2) = half(sk.ke[2 * six - 2]);
            b ^= (a & k1).rotate_left(1);
            a ^= b | k2;
            let (k1, k2) = half(sk.ke[2 * six - 1]);
            c ^= d | k2;
            d ^= (c & k1).rotate_left(1);
        }
        for pair in k.chunks_exact(2) {
            f(a, b, pair[0], &mut c, &mut d);
            f(c, d, pair[1], &mut a, &mut b);
        }
    }
    let (kw3, kw4) = (half(sk.kw[2]), half(sk.kw[3]));
    for (i, w) in [c ^ kw3.0, d ^ kw3.1, a ^ kw4.0, b ^ kw4.1].into_iter().enumerate() {
        block[4 * i..4 * i + 4].copy_from_slice(&w.to_be_bytes());
    }
}
