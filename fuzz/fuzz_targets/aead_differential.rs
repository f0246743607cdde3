//! Differential fuzzing of the AEADs through the checking kit
//! (`kit::cases::aead`): every AEAD of the table against its construction
//! written out from the `reference` functions of ChaCha20, Salsa20 and
//! Poly1305 (RFC 8439 §2.8, the XChaCha draft, `crypto_secretbox`), at
//! fuzzer-chosen keys, nonces, associated data and messages, combined and
//! into a buffer of one's own; then every sealed message must open, and a
//! fuzzer-chosen altered bit must be refused with the buffer zeroed.
#![no_main]

use libfuzzer_sys::fuzz_target;
use simdcrypt::kit::cases;
use simdcrypt::ladder::{self, Construct};

fuzz_target!(|input: &[u8]| {
    if input.len() < 32 + 24 + 4 {
        return;
    }
    let (head, rest) = input.split_at(60);
    let key: [u8; 32] = head[..32].try_into().unwrap();
    let aad_len = usize::from(head[56]).min(rest.len());
    let (aad, pt) = rest.split_at(aad_len);
    let flip = usize::from(u16::from_le_bytes([head[57], head[58]]));
    for (_, aead) in ladder::primitives() {
        let Construct::Aead {
            associated_data, ..
        } = aead.construct
        else {
            continue;
        };
        let nonce = &head[32..32 + aead.nonce_len.expect("a nonce")];
        // `crypto_secretbox` takes no associated data: its part of the
        // input is message there.
        let (aad, pt) = if associated_data {
            (aad, pt)
        } else {
            (&[][..], rest)
        };
        let tally =
            cases::aead(aead.name, (&key, nonce, aad), pt, flip).expect("an AEAD of the kit");
        assert!(tally.passed(), "{}: {:#?}", aead.name, tally.failures);
    }
});
