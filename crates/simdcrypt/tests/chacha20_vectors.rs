//! Official ChaCha20 vectors (RFC 8439 §2.1.1–§2.4.2, A.1, A.2) and the
//! HChaCha20 and XChaCha20 vectors of draft-irtf-cfrg-xchacha-03, on every
//! rung this CPU runs (the others are skipped, and the skip is printed) and
//! both XOR forms.

// The specifications' `reference` modules are `hazmat` items.
#![cfg(feature = "hazmat")]

mod common;

use common::{field, hex, hex_array, json, records, word, words};
use serde_json::Value;
use simdcrypt::chacha20::{self, Impl, hchacha20, reference};

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
    common::chacha20::rfc_block_function(&rungs("rfc_block_function"));
}

/// §2.4.2 (the sunscreen) and A.2: encryption, with the block states of
/// §2.4.2, on every rung and XOR form, whole and in chunks.
#[test]
fn rfc_encryption() {
    common::chacha20::rfc_encryption(&rungs("rfc_encryption"));
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
    common::chacha20::draft_xchacha20(&rungs("draft_xchacha20"));
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
