//! Differential fuzzing of the MAC and KDFs through the checking kit: HMAC,
//! HKDF and PBKDF2 over every hash at fuzzer-chosen keys, messages, salts
//! and output lengths against RFC 2104's, RFC 5869's and RFC 8018's
//! formulas on the hashes' reference rungs (an HKDF output past 255 hash
//! lengths must be refused); every scrypt rung against the `scalar` one at
//! fuzzer-chosen small parameters, passwords and salts.
#![no_main]

use libfuzzer_sys::fuzz_target;
use simdcrypt::kit::cases;

fuzz_target!(|input: &[u8]| {
    if input.len() < 7 {
        return;
    }
    let (head, rest) = input.split_at(7);
    let split = usize::from(head[0]).min(rest.len());
    let (a, b) = rest.split_at(split);
    let len = usize::from(u16::from_le_bytes([head[1], head[2]])) % 9000;
    // log N 1–6, r 1–3, p 1–5; PBKDF2 1–3 rounds.
    let (log_n, r, p) = (
        1 + head[3] % 6,
        1 + u32::from(head[4] % 3),
        1 + u32::from(head[5] % 5),
    );
    let rounds = 1 + u32::from(head[6] % 3);
    let tallies = [
        cases::hmac(a, b, usize::from(head[6])),
        cases::hkdf(b, a, &head[..3], len),
        cases::pbkdf2(a, b, rounds, len % 300),
        cases::scrypt(a, b, (log_n, r, p), 1 + usize::from(head[1]) % 80),
    ];
    for tally in tallies {
        assert!(tally.passed(), "{:#?}", tally.failures);
    }
});
