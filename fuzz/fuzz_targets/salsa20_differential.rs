//! Differential fuzzing: every Salsa20 rung against the reference reading of
//! the specification, at fuzzer-chosen keys, nonces, offsets (near the 2^32
//! and 2^64 carries too), lengths, split points and round counts.
#![no_main]

use libfuzzer_sys::fuzz_target;
use simdcrypt::Xor;
use simdcrypt::salsa20::{Impl, Salsa, reference};

fn run<const DR: usize>(key: &[u8; 32], nonce: &[u8; 8], offset: u128, data: &[u8], split: usize) {
    let first_block = (offset / 64) as u64;
    let skip = (offset % 64) as usize;
    let mut want = vec![0u8; skip + data.len()];
    want[skip..].copy_from_slice(data);
    reference::encrypt(reference::Key::Bits256(key), nonce, first_block, &mut want, DR);
    for imp in Impl::available() {
        for xor in Xor::ALL {
            let mut got = data.to_vec();
            let mut c = Salsa::<DR>::new(key, nonce).with_impl(imp).unwrap().with_xor(xor);
            c.seek(offset).unwrap();
            let (a, b) = got.split_at_mut(split.min(data.len()));
            c.apply_keystream(a).unwrap();
            c.apply_keystream(b).unwrap();
            assert_eq!(got, want[skip..], "rung {imp} {xor}");
        }
    }
}

fuzz_target!(|input: &[u8]| {
    if input.len() < 32 + 8 + 8 + 2 + 1 {
        return;
    }
    let (head, data) = input.split_at(51);
    let key: [u8; 32] = head[..32].try_into().unwrap();
    let nonce: [u8; 8] = head[32..40].try_into().unwrap();
    let raw = u64::from_le_bytes(head[40..48].try_into().unwrap());
    // Steer a quarter of the counters to just below the 2^32 and 2^64 carries.
    let counter = match raw & 3 {
        0 => (1u64 << 32) - 1 - (raw >> 2) % 64,
        1 => u64::MAX - 128 - (raw >> 2) % 64,
        _ => raw >> 2,
    };
    let offset = u128::from(counter) * 64 + u128::from(head[48] % 64);
    let split = usize::from(head[49]) * 8;
    match head[50] % 3 {
        0 => run::<10>(&key, &nonce, offset, data, split),
        1 => run::<6>(&key, &nonce, offset, data, split),
        _ => run::<4>(&key, &nonce, offset, data, split),
    }
});
