//! Differential fuzzing: every ChaCha20 rung against the reference reading
//! of RFC 8439, at fuzzer-chosen keys, nonces, offsets (near the 2^32 carry
//! of the original form and the end of RFC 8439's 2^32 blocks too), lengths
//! and split points, both counter forms and both XOR forms.
#![no_main]

use libfuzzer_sys::fuzz_target;
use simdcrypt::Xor;
use simdcrypt::chacha20::{ChaCha20, ChaCha20Legacy, Impl, reference};

/// One past the last byte of RFC 8439's keystream: 2^32 blocks.
const RFC_END: u128 = 1 << 38;

fn run(key: &[u8; 32], nonce: &[u8; 12], offset: u128, data: &[u8], split: usize, legacy: bool) {
    let first_block = (offset / 64) as u64;
    let skip = (offset % 64) as usize;
    let mut want = vec![0u8; skip + data.len()];
    want[skip..].copy_from_slice(data);
    let legacy_nonce: &[u8; 8] = nonce[..8].try_into().unwrap();
    if legacy {
        reference::encrypt_legacy(key, first_block, legacy_nonce, &mut want);
    } else {
        reference::encrypt(key, first_block as u32, nonce, &mut want);
    }
    for imp in Impl::available() {
        for xor in Xor::ALL {
            let mut got = data.to_vec();
            let (a, b) = got.split_at_mut(split.min(data.len()));
            // The same calls on either type.
            macro_rules! run {
                ($cipher:expr) => {{
                    let mut c = $cipher.with_impl(imp).unwrap().with_xor(xor);
                    c.seek(offset).unwrap();
                    c.apply_keystream(a).unwrap();
                    c.apply_keystream(b).unwrap();
                }};
            }
            if legacy {
                run!(ChaCha20Legacy::new(key, legacy_nonce));
            } else {
                run!(ChaCha20::new(key, nonce));
            }
            assert_eq!(got, want[skip..], "rung {imp} {xor}, legacy {legacy}");
        }
    }
}

fuzz_target!(|input: &[u8]| {
    if input.len() < 32 + 12 + 8 + 2 + 1 {
        return;
    }
    let (head, data) = input.split_at(55);
    let key: [u8; 32] = head[..32].try_into().unwrap();
    let nonce: [u8; 12] = head[32..44].try_into().unwrap();
    let raw = u64::from_le_bytes(head[44..52].try_into().unwrap());
    // Steer half of the counters to just below the 2^32 carry.
    let counter = match raw & 3 {
        0 | 1 => (1u64 << 32) - 1 - (raw >> 2) % 64,
        _ => raw >> 2,
    };
    let offset = u128::from(counter) * 64 + u128::from(head[52] % 64);
    let split = usize::from(head[53]) * 8;
    let legacy = head[54] & 1 == 1;
    // RFC 8439's keystream ends at 2^38 bytes: keep the request inside it.
    let offset = if legacy {
        offset
    } else {
        (offset % RFC_END).min(RFC_END - data.len() as u128)
    };
    run(&key, &nonce, offset, data, split, legacy);
});
