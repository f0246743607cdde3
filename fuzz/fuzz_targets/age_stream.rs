//! The STREAM payload under damage: a plaintext is encrypted, then cut,
//! flipped or extended as the fuzzer says; decryption on one and on three
//! threads must agree, release only a prefix of the plaintext, and accept
//! exactly the undamaged payload.

#![no_main]

use std::num::NonZeroUsize;

use libfuzzer_sys::fuzz_target;
use simdcrypt_age::stream::{self, CHUNK_LEN};
use simdcrypt_age::{FileKey, Threads};

fuzz_target!(|data: &[u8]| {
    let [a, b, c, d, rest @ ..] = data else {
        return;
    };
    // A length from two bytes, the plaintext repeating the rest: mostly
    // under 2 KiB, one input in eight within 2 chunks (a chunk's edge), one
    // in 64 within 17 (past the pipeline's 16-chunk batches), so that runs
    // stay quick.
    let bound = match a % 64 {
        0 => 17 * CHUNK_LEN,
        n if n % 8 == 1 => 2 * CHUNK_LEN,
        _ => 2048,
    };
    let len = usize::from(u16::from_le_bytes([*a, *b])) * 21 % (bound + 17);
    let plain: Vec<u8> = rest.iter().copied().cycle().take(len).collect();
    let key = FileKey::from_bytes([9; 16]);
    let mut sealed = Vec::new();
    stream::encrypt(
        &key,
        &plain[..],
        &mut sealed,
        Threads::Count(NonZeroUsize::MIN),
    )
    .unwrap();
    let original = sealed.clone();
    let at = usize::from(u16::from_le_bytes([*c, *d])) * 37 % (sealed.len() + 1);
    match d % 4 {
        0 => sealed.truncate(at),
        1 if at < sealed.len() => sealed[at] ^= 1 << (c % 8),
        2 => sealed.extend_from_slice(&rest[..rest.len().min(usize::from(*c))]),
        _ => {}
    }
    let outcomes: Vec<_> = [1, 3]
        .map(|n| {
            let mut out = Vec::new();
            let r = stream::decrypt(
                &key,
                &sealed[..],
                &mut out,
                Threads::Count(NonZeroUsize::new(n).unwrap()),
            );
            (r.map_err(|e| e.to_string()), out)
        })
        .into();
    assert_eq!(outcomes[0], outcomes[1], "one and three threads disagree");
    let (result, out) = &outcomes[0];
    assert!(
        plain.starts_with(out),
        "released bytes that are not the plaintext"
    );
    assert_eq!(result.is_ok(), sealed == original, "{result:?}");
    if result.is_ok() {
        assert_eq!(out, &plain);
    }
});
