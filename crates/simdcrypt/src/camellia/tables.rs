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
use super::reference::{encrypt_block_with, s1, s2, s3, s4};

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

/// The F-function (§2.4.1) by table lookups. With t1..t4 the bytes of the
/// left 32 bits (after the key) and t5..t8 those of the right, P's rows
/// over y1..y4 make
/// V = SP1110[t1] ^ SP0222[t2] ^ SP3033[t3] ^ SP4404[t4] and
/// U = SP0222[t5] ^ SP3033[t6] ^ SP4404[t7] ^ SP1110[t8]
/// the contributions to y1..y4; those of t5..t8 to y5..y8 are U again,
/// and those of t1..t4 are V ^ (V >>> 8). So
/// y1..y4 = U ^ V and y5..y8 = U ^ V ^ (V >>> 8).
#[inline(always)]
fn f(f_in: u64, ke: u64) -> u64 {
    let [t1, t2, t3, t4, t5, t6, t7, t8] = (f_in ^ ke).to_be_bytes().map(usize::from);
    let v = SP1110[t1] ^ SP0222[t2] ^ SP3033[t3] ^ SP4404[t4];
    let u = SP0222[t5] ^ SP3033[t6] ^ SP4404[t7] ^ SP1110[t8];
    let left = u ^ v;
    (u64::from(left) << 32) | u64::from(left ^ v.rotate_right(8))
}

/// One block under `sk`: the reference's data randomizing part with the
/// table F.
pub(super) fn encrypt_block(sk: &Subkeys, block: &mut [u8; 16]) {
    encrypt_block_with(sk, block, f);
}
