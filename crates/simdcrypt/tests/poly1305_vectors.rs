//! The Poly1305 vectors of RFC 8439 (§2.5.2, Appendix A.3, with the
//! reduction edge cases) on every rung this CPU runs, one-shot and fed in
//! pieces; the rungs the CPU lacks are skipped, and the skip is printed.
//! Then the Poly1305 key generation vectors (§2.6.2, A.4) through ChaCha20.

// The specifications' `reference` modules are `hazmat` items.
#![cfg(feature = "hazmat")]

mod common;

use common::{hex, hex_array};
use serde_json::Value;
use simdcrypt::chacha20::ChaCha20;
use simdcrypt::poly1305::{self, Impl, reference};

/// One vector of a list in the file: its string fields by name.
struct Record<'a>(&'a Value);

impl Record<'_> {
    fn text(&self, field: &str) -> &str {
        self.0[field]
            .as_str()
            .unwrap_or_else(|| panic!("no `{field}` string in {}", self.0))
    }
}

/// The vectors of the list `list` in the file.
fn load(list: &str, each: impl FnMut(Record)) {
    let v: Value = serde_json::from_str(include_str!("data/rfc8439/rfc8439.json"))
        .expect("vector file is JSON");
    let records = v[list].as_array().expect("a list of vectors");
    assert!(!records.is_empty());
    records.iter().map(Record).for_each(each);
}

/// The rungs this CPU runs; prints the ones it skips.
fn rungs(test: &str) -> Vec<Impl> {
    common::rungs(test)
}

#[test]
fn rfc8439_poly1305_vectors_on_every_rung() {
    common::poly1305::rfc8439_vectors(&rungs("rfc8439_poly1305_vectors_on_every_rung"));
}

#[test]
fn rfc8439_poly1305_vectors_one_shot_and_reference() {
    load("poly1305", |r| {
        let key: [u8; 32] = hex_array(r.text("key"));
        let msg = hex(r.text("message"));
        let want: [u8; 16] = hex_array(r.text("tag"));
        assert_eq!(poly1305::mac(&key, &msg), want, "{}", r.text("section"));
        assert_eq!(reference::mac(&key, &msg), want, "{}", r.text("section"));
    });
}

#[test]
fn rfc8439_2_5_2_clamped_r() {
    load("poly1305", |r| {
        if r.text("section") != "2.5.2" {
            return;
        }
        let key: [u8; 32] = hex_array(r.text("key"));
        let mut clamped: [u8; 16] = std::array::from_fn(|i| key[i]);
        reference::clamp(&mut clamped);
        clamped.reverse();
        let got: String = clamped.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(
            got.trim_start_matches('0'),
            r.text("clamped_r_as_number_hex")
        );
    });
}

/// §2.6: the one-time key is the first 32 bytes of ChaCha20 block 0.
#[test]
fn rfc8439_poly1305_key_generation() {
    load("poly1305_key_generation", |r| {
        let key: [u8; 32] = hex_array(r.text("key"));
        let nonce: [u8; 12] = hex_array(r.text("nonce"));
        let mut otk = [0u8; 32];
        ChaCha20::new(&key, &nonce)
            .apply_keystream(&mut otk)
            .unwrap();
        assert_eq!(
            otk.to_vec(),
            hex(r.text("poly1305_key")),
            "{}",
            r.text("section")
        );
    });
}
