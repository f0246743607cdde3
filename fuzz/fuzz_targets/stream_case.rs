//! The fuzzer's bytes as a stream-cipher case of the checking kit
//! (`simdcrypt::kit::cases::stream`), shared by the stream ciphers'
//! differential targets.

use simdcrypt::kit::cases::{self, StreamCase};
use simdcrypt::ladder;

/// The header: a 32-byte key, 24 nonce bytes, an 8-byte counter, the
/// offset in the block, the split point, the cipher.
const HEAD: usize = 32 + 24 + 8 + 3;

/// Runs one of `ciphers` (named as the table names them) on the case the
/// bytes `input` make, on every rung against the specification's own
/// functions; panics with the failures.
pub fn run(ciphers: &[&str], input: &[u8]) {
    if input.len() < HEAD {
        return;
    }
    let (head, data) = input.split_at(HEAD);
    let name = ciphers[usize::from(head[66]) % ciphers.len()];
    let (_, cipher) = ladder::find(name).expect("a cipher of the table");
    // A 128-bit key where the cipher takes one, on a selector bit.
    let key_len = match cipher.key_lens {
        [_, short, ..] if head[66] & 0x80 != 0 => *short,
        lens => lens[0],
    };
    let nonce_len = cipher.nonce_len.expect("a nonce");
    let raw = u64::from_le_bytes(head[56..64].try_into().expect("8 bytes"));
    // Steer most counters to just below 2^31, 2^32 (a carry, or the end of
    // RFC 8439's keystream) and 2^64 (the end of the others').
    let below = (raw >> 3) % 64;
    let counter = match raw & 7 {
        0 => (1 << 31) - 1 - below,
        1 | 2 => (1 << 32) - 1 - below,
        3 | 4 => u64::MAX - below,
        _ => raw >> 3,
    };
    let case = StreamCase {
        key: &head[..key_len],
        nonce: &head[32..32 + nonce_len],
        start: u128::from(counter) * 64 + u128::from(head[64] % 64),
        data,
        split: usize::from(head[65]) * 8,
    };
    let tally = cases::stream(name, &case).expect("a stream cipher of the kit");
    assert!(tally.passed(), "{name}: {:#?}", tally.failures);
}
