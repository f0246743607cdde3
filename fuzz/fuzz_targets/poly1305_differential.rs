//! Differential fuzzing through the checking kit: every Poly1305 rung
//! against RFC 8439 §2.5.1's own arithmetic (`kit::cases::poly1305`), at
//! fuzzer-chosen keys (clamped `r` and `s` at the extremes too), messages
//! and splits of the incremental calls, with `update_padded` between them.
#![no_main]

use libfuzzer_sys::fuzz_target;
use simdcrypt::kit::cases::{self, Call};

fuzz_target!(|input: &[u8]| {
    if input.len() < 32 + 8 {
        return;
    }
    let (head, msg) = input.split_at(40);
    let mut key: [u8; 32] = head[..32].try_into().unwrap();
    // Steer some keys to r and s of all ones or zeros.
    match head[32] % 8 {
        0 => key[..16].fill(0xff),
        1 => key[16..].fill(0xff),
        2 => key[..16].fill(0),
        _ => {}
    }
    // Up to 7 calls: the length of each (scaled so that runs cross the
    // vector rungs' switch point) and whether it pads to 16 bytes.
    let calls: Vec<Call> = head[33..40]
        .iter()
        .map(|&b| {
            let n = usize::from(b & 0x7f) * if b & 0x40 != 0 { 16 } else { 1 };
            if b & 0x80 != 0 {
                Call::Padded(n)
            } else {
                Call::Update(n)
            }
        })
        .collect();
    let tally = cases::poly1305(&key, msg, &calls);
    assert!(tally.passed(), "{:#?}", tally.failures);
});
