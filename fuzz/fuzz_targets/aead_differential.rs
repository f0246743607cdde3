//! Differential fuzzing of every AEAD of the table through the checking
//! kit (`kit::cases::aead`), at each of its key lengths: against its
//! construction written out from the reference functions of the
//! primitives inside (ChaCha20, Salsa20 and Poly1305: RFC 8439 §2.8, the
//! XChaCha draft, `crypto_secretbox`; AES with GHASH or POLYVAL: SP
//! 800-38D, RFC 8452) or, for MGM, on every Magma rung against
//! `reference`, at fuzzer-chosen keys, nonces, associated data and
//! messages; then every sealed message must open, and a fuzzer-chosen
//! altered bit must be refused with the output zeroed. An AEAD added to
//! the table is fuzzed here without a change: the kit's test
//! `every_aead_has_a_fuzz_case` fails until the kit has its case.
#![no_main]

use libfuzzer_sys::fuzz_target;
use simdcrypt::kit::cases;
use simdcrypt::ladder::{self, Construct};

/// Key bytes (the longest key), nonce bytes (the longest nonce), and the
/// associated data's length and the bit to flip.
const KEY: usize = 32;
const NONCE: usize = 24;
const HEAD: usize = KEY + NONCE + 3;

fuzz_target!(|input: &[u8]| {
    if input.len() < HEAD {
        return;
    }
    let (head, rest) = input.split_at(HEAD);
    let aad_len = usize::from(head[KEY + NONCE]).min(rest.len());
    let flip = usize::from(u16::from_le_bytes([
        head[KEY + NONCE + 1],
        head[KEY + NONCE + 2],
    ]));
    for (_, aead) in ladder::primitives() {
        let Construct::Aead {
            associated_data, ..
        } = aead.construct
        else {
            continue;
        };
        let nonce = &head[KEY..KEY + aead.nonce_len.expect("a nonce")];
        // `crypto_secretbox` takes no associated data: its part of the
        // input is message there.
        let (aad, pt) = if associated_data {
            rest.split_at(aad_len)
        } else {
            (&[][..], rest)
        };
        for &key_len in aead.key_lens {
            let key = &head[..key_len];
            let tally = cases::aead(aead.name, (key, nonce, aad), pt, flip)
                .unwrap_or_else(|e| panic!("{}: {e}", aead.name));
            assert!(tally.passed(), "{}: {:#?}", aead.name, tally.failures);
        }
    }
});
