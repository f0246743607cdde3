//! Official ChaCha20 vectors (RFC 8439 §2.1.1–§2.4.2, A.1, A.2) and the
//! HChaCha20 and XChaCha20 vectors of draft-irtf-cfrg-xchacha-03, on every
//! rung this CPU runs (the others are skipped, and the skip is printed) and
//! both XOR forms.

// The specifications' `reference` modules are `hazmat` items.
#![cfg(feature = "hazmat")]

mod common;

use common::{field, hex, hex_array, json, number, records, word, words};
use serde_json::Value;
use simdcrypt::Xor;
use simdcrypt::chacha20::{self, ChaCha20, Impl, XChaCha20, hchacha20, reference};

fn rfc() -> Value {
    json(include_str!("data/rfc8439/rfc8439.json"))
}

fn draft() -> Value {
    json(include_str!("data/xchacha/draft-irtf-cfrg-xchacha-03.json"))
}

/// The rungs this CPU runs; prints the ones it skips.
fn rungs(test: &str) -> Vec<Impl> {
    common::rungs(test)
}

/// `data` through `cipher` on every rung and XOR form, from byte `offset`,
/// whole and in chunks of 1 to 256 bytes: each must give `want`.
fn on_every_rung<C>(
    test: &str,
    new: impl Fn(Impl, Xor) -> C,
    apply: impl Fn(&mut C, &mut [u8]),
    seek: impl Fn(&mut C, u128),
    offset: u128,
    data: &[u8],
    want: &[u8],
) {
    for imp in rungs(test) {
        for xor in Xor::ALL {
            for chunk in [data.len().max(1), 1, 7, 63, 64, 65, 256] {
                let mut c = new(imp, xor);
                seek(&mut c, offset);
                let mut got = data.to_vec();
                for piece in got.chunks_mut(chunk) {
                    apply(&mut c, piece);
                }
                assert_eq!(got, want, "{test}: rung {imp} ({xor}), chunks of {chunk}");
            }
        }
    }
}

/// ChaCha20 of RFC 8439 on every rung.
fn rfc_on_every_rung(
    test: &str,
    key: &[u8; 32],
    nonce: &[u8; 12],
    offset: u128,
    data: &[u8],
    want: &[u8],
) {
    on_every_rung(
        test,
        |imp, xor| {
            ChaCha20::new(key, nonce)
                .with_impl(imp)
                .unwrap()
                .with_xor(xor)
        },
        |c, d| c.apply_keystream(d).unwrap(),
        |c, o| c.seek(o).unwrap(),
        offset,
        data,
        want,
    );
}

/// §2.1.1 and §2.2.1: the quarter round, alone and on the state.
#[test]
fn rfc_quarter_round() {
    let v = rfc();
    for r in records(&v, "quarter_round") {
        let (i, o) = (&r["input"], &r["output"]);
        let got =
            reference::quarter_round(word(&i["a"]), word(&i["b"]), word(&i["c"]), word(&i["d"]));
        assert_eq!(
            got,
            (word(&o["a"]), word(&o["b"]), word(&o["c"]), word(&o["d"]))
        );
    }
    for r in records(&v, "quarter_round_on_state") {
        let mut state = words::<16>(&r["state"]);
        let [x, y, z, w] =
            [0, 1, 2, 3].map(|i| r["quarterround_indices"][i].as_u64().unwrap() as usize);
        reference::quarter_round_on_state(&mut state, x, y, z, w);
        assert_eq!(state, words::<16>(&r["output_state"]));
    }
}

/// §2.3.2 and A.1: the block function, its states, and its keystream on
/// every rung (through `Impl::block` and through the cipher).
#[test]
fn rfc_block_function() {
    let v = rfc();
    for r in records(&v, "chacha20_block") {
        let section = field(r, "section");
        let key = hex_array::<32>(field(r, "key"));
        let nonce = hex_array::<12>(field(r, "nonce"));
        let counter = number(r, "block_counter");
        let state = reference::initial_state(&key, counter as u32, &nonce);
        if !r["initial_state"].is_null() {
            assert_eq!(state, words::<16>(&r["initial_state"]), "{section}");
        }
        if !r["state_after_20_rounds"].is_null() {
            assert_eq!(
                reference::double_rounds(&state, 10),
                words::<16>(&r["state_after_20_rounds"]),
                "{section}"
            );
        }
        let final_state = words::<16>(&r["final_state"]);
        for imp in rungs("rfc_block_function") {
            assert_eq!(
                imp.block(&state).unwrap(),
                final_state,
                "{section}, rung {imp}"
            );
        }
        let keystream = hex(field(r, "keystream"));
        assert_eq!(
            reference::block(&key, counter as u32, &nonce).to_vec(),
            keystream
        );
        let zeros = vec![0u8; keystream.len()];
        rfc_on_every_rung(
            section,
            &key,
            &nonce,
            u128::from(counter) * 64,
            &zeros,
            &keystream,
        );
    }
}

/// §2.4.2 (the sunscreen) and A.2: encryption, with the block states of
/// §2.4.2, on every rung and XOR form, whole and in chunks.
#[test]
fn rfc_encryption() {
    let v = rfc();
    for r in records(&v, "chacha20_encryption") {
        let section = field(r, "section");
        let key = hex_array::<32>(field(r, "key"));
        let nonce = hex_array::<12>(field(r, "nonce"));
        let counter = number(r, "initial_counter");
        let plaintext = hex(field(r, "plaintext"));
        let ciphertext = hex(field(r, "ciphertext"));
        for (i, (setup, after)) in [
            ("first_block_setup", "first_block_after_block_operation"),
            ("second_block_setup", "second_block_after_block_operation"),
        ]
        .into_iter()
        .enumerate()
        {
            if r[setup].is_null() {
                continue;
            }
            let state = reference::initial_state(&key, counter as u32 + i as u32, &nonce);
            assert_eq!(state, words::<16>(&r[setup]), "{section} {setup}");
            for imp in rungs("rfc_encryption") {
                assert_eq!(
                    imp.block(&state).unwrap(),
                    words::<16>(&r[after]),
                    "{section}, {imp}"
                );
            }
        }
        if !r["keystream"].is_null() {
            let keystream = hex(field(r, "keystream"));
            let mut got = vec![0u8; keystream.len()];
            reference::encrypt(&key, counter as u32, &nonce, &mut got);
            assert_eq!(got, keystream, "{section}: keystream");
        }
        let mut got = plaintext.clone();
        reference::encrypt(&key, counter as u32, &nonce, &mut got);
        assert_eq!(got, ciphertext, "{section}: reference");
        rfc_on_every_rung(
            section,
            &key,
            &nonce,
            u128::from(counter) * 64,
            &plaintext,
            &ciphertext,
        );
        // And back.
        rfc_on_every_rung(
            section,
            &key,
            &nonce,
            u128::from(counter) * 64,
            &ciphertext,
            &plaintext,
        );
    }
}

/// draft-irtf-cfrg-xchacha-03 §2.2.1: HChaCha20, its state and subkey.
#[test]
fn draft_hchacha20() {
    let v = draft();
    for r in records(&v, "hchacha20") {
        let key = hex_array::<32>(field(r, "key"));
        let input = hex_array::<16>(field(r, "nonce"));
        let nonce: [u8; 12] = input[4..].try_into().unwrap();
        let counter = u32::from_le_bytes(input[..4].try_into().unwrap());
        let state = reference::initial_state(&key, counter, &nonce);
        assert_eq!(state, words::<16>(&r["initial_state"]));
        assert_eq!(
            reference::double_rounds(&state, 10),
            words::<16>(&r["state_after_20_rounds"])
        );
        let subkey = hex(field(r, "subkey"));
        assert_eq!(reference::hchacha20(&key, &input).to_vec(), subkey);
        assert_eq!(hchacha20(&key, &input).to_vec(), subkey);
    }
}

/// draft-irtf-cfrg-xchacha-03 A.2.1/A.3.2: XChaCha20's keystream and
/// ciphertext on every rung and XOR form.
#[test]
fn draft_xchacha20() {
    let v = draft();
    for r in records(&v, "xchacha20") {
        let section = field(r, "section");
        let key = hex_array::<32>(field(r, "key"));
        let nonce = hex_array::<24>(field(r, "nonce"));
        let offset = u128::from(number(r, "initial_counter")) * 64;
        let plaintext = hex(field(r, "plaintext"));
        let ciphertext = hex(field(r, "ciphertext"));
        let keystream = hex(field(r, "keystream"));
        let new = |imp, xor| {
            XChaCha20::new(&key, &nonce)
                .with_impl(imp)
                .unwrap()
                .with_xor(xor)
        };
        let apply = |c: &mut XChaCha20, d: &mut [u8]| c.apply_keystream(d).unwrap();
        let seek = |c: &mut XChaCha20, o| c.seek(o).unwrap();
        on_every_rung(section, new, apply, seek, offset, &plaintext, &ciphertext);
        let zeros = vec![0u8; keystream.len()];
        on_every_rung(section, new, apply, seek, offset, &zeros, &keystream);
    }
}

#[test]
fn constants_are_the_rfcs() {
    assert_eq!(chacha20::KEY_LEN, 32);
    assert_eq!(chacha20::NONCE_LEN, 12);
    assert_eq!(chacha20::LEGACY_NONCE_LEN, 8);
    assert_eq!(chacha20::XNONCE_LEN, 24);
    assert_eq!(chacha20::BLOCK_LEN, 64);
    let c: Vec<u8> = reference::CONSTANTS
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect();
    assert_eq!(c, b"expand 32-byte k");
}
