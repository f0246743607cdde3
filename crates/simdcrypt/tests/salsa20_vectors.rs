//! Official Salsa20, HSalsa20 and XSalsa20 vectors, on every rung this CPU
//! runs (the others are skipped, and the skip is printed).

// The specifications' `reference` modules are `hazmat` items.
#![cfg(feature = "hazmat")]

mod common;

use common::{hex, hex_array, words};
use serde_json::Value;
use sha2::{Digest, Sha256};
use simdcrypt::Xor;
use simdcrypt::salsa20::{self, Impl, Salsa20, XSalsa20, reference};

fn load(text: &str) -> Value {
    serde_json::from_str(text).expect("vector file is JSON")
}

fn spec() -> Value {
    load(include_str!("data/salsa20/salsa20_spec.json"))
}

fn estream() -> Value {
    load(include_str!("data/salsa20/salsa20_estream_subset.json"))
}

fn nacl() -> Value {
    load(include_str!("data/salsa20/xsalsa20_nacl.json"))
}

/// The rungs this CPU runs; prints the ones it skips.
fn rungs(test: &str) -> Vec<Impl> {
    common::rungs(test)
}

fn records<'a>(v: &'a Value, key: &str) -> &'a [Value] {
    v[key]
        .as_array()
        .unwrap_or_else(|| panic!("no `{key}` list"))
}

fn s<'a>(v: &'a Value, key: &str) -> &'a str {
    v[key]
        .as_str()
        .unwrap_or_else(|| panic!("no `{key}` string in {v}"))
}

#[test]
fn spec_quarterround_to_doubleround() {
    let v = spec();
    for r in records(&v, "quarterround") {
        assert_eq!(
            reference::quarterround(words(&r["input"])),
            words::<4>(&r["output"])
        );
    }
    for (name, f) in [
        (
            "rowround",
            reference::rowround as fn(&[u32; 16]) -> [u32; 16],
        ),
        ("columnround", reference::columnround),
        ("doubleround", reference::doubleround),
    ] {
        for r in records(&v, name) {
            assert_eq!(
                f(&words(&r["input"])),
                words::<16>(&r["output"]),
                "{name} {r}"
            );
        }
    }
    for r in records(&v, "doubleround") {
        let x = words(&r["input"]);
        assert_eq!(
            reference::double_rounds(&x, 1),
            words::<16>(&r["output"]),
            "matrix form"
        );
    }
    for r in records(&v, "littleendian") {
        let b = hex_array::<4>(s(r, "input_bytes"));
        let w = u32::from_str_radix(s(r, "output"), 16).unwrap();
        assert_eq!(reference::littleendian(b), w);
        assert_eq!(reference::littleendian_inverse(w), b);
    }
}

/// The Salsa20 hash examples (spec §8), including the one iterated
/// 1,000,000 times, through `Impl::core` of every rung.
#[test]
fn spec_hash_on_every_rung() {
    let v = spec();
    for imp in rungs("spec_hash_on_every_rung") {
        for r in records(&v, "salsa20_hash") {
            let iterations = r["iterations"].as_u64().unwrap();
            let mut block = hex_array::<64>(s(r, "input"));
            for _ in 0..iterations {
                let mut x = [0u32; 16];
                for (w, b) in x.iter_mut().zip(block.chunks_exact(4)) {
                    *w = u32::from_le_bytes(b.try_into().unwrap());
                }
                let z = imp.core(&x, 10).unwrap();
                for (b, w) in block.chunks_exact_mut(4).zip(z) {
                    b.copy_from_slice(&w.to_le_bytes());
                }
            }
            assert_eq!(
                block.to_vec(),
                hex(s(r, "output")),
                "{imp}, {iterations} iterations"
            );
        }
    }
    let r = &records(&v, "salsa20_hash")[0];
    assert_eq!(
        reference::hash(&hex_array(s(r, "input")), 10).to_vec(),
        hex(s(r, "output"))
    );
}

/// A Salsa20/20 cipher for a 32- or 16-byte key.
fn cipher(key: &[u8], nonce: &[u8; 8]) -> Salsa20 {
    match key.len() {
        32 => Salsa20::new(key.try_into().unwrap(), nonce),
        16 => Salsa20::new_128(key.try_into().unwrap(), nonce),
        n => panic!("a {n}-byte key in a vector file"),
    }
}

/// The reference expansion function for a 32- or 16-byte key.
fn expansion(key: &[u8], n: &[u8; 16]) -> [u8; 64] {
    match key.len() {
        32 => reference::expansion(reference::Key::Bits256(key.try_into().unwrap()), n, 10),
        16 => reference::expansion(reference::Key::Bits128(key.try_into().unwrap()), n, 10),
        n => panic!("a {n}-byte key in a vector file"),
    }
}

/// RFC 7914 §8: the Salsa20/8 core (4 double-rounds) through every rung.
#[test]
fn rfc7914_salsa20_8_core_on_every_rung() {
    let v = load(include_str!("data/salsa20/salsa20_8_rfc7914.json"));
    for imp in rungs("rfc7914_salsa20_8_core_on_every_rung") {
        for r in records(&v, "salsa20_8_core") {
            let input = hex(s(r, "input"));
            let x: [u32; 16] = std::array::from_fn(|i| {
                u32::from_le_bytes(input[4 * i..4 * i + 4].try_into().unwrap())
            });
            let z = imp.core(&x, 4).unwrap();
            let out: Vec<u8> = z.iter().flat_map(|w| w.to_le_bytes()).collect();
            assert_eq!(out, hex(s(r, "output")), "{imp}");
        }
    }
    let r = &records(&v, "salsa20_8_core")[0];
    assert_eq!(
        reference::hash(&hex_array(s(r, "input")), 4).to_vec(),
        hex(s(r, "output"))
    );
}

/// The expansion examples (spec §9) are keystream block `n[8..16]` of a
/// cipher whose nonce is `n[0..8]`.
#[test]
fn spec_expansion_on_every_rung() {
    let v = spec();
    for r in records(&v, "salsa20_expansion") {
        let n = hex_array::<16>(s(r, "n"));
        let want = hex(s(r, "output"));
        let key = hex(s(r, "key"));
        assert_eq!(expansion(&key, &n).to_vec(), want);
        let nonce: [u8; 8] = n[..8].try_into().unwrap();
        let counter = u64::from_le_bytes(n[8..].try_into().unwrap());
        for imp in rungs("spec_expansion_on_every_rung") {
            let mut block = [0u8; 64];
            let mut c = cipher(&key, &nonce).with_impl(imp).unwrap();
            c.seek(u128::from(counter) * 64).unwrap();
            c.apply_keystream(&mut block).unwrap();
            assert_eq!(block.to_vec(), want, "{imp}");
        }
    }
}

/// eSTREAM: keystream slices at their offsets and the XOR digest of all
/// blocks, for both key sizes, every rung and both XOR forms.
#[test]
fn estream_on_every_rung() {
    let v = estream();
    for imp in rungs("estream_on_every_rung") {
        for xor in Xor::ALL {
            for r in records(&v, "vectors") {
                let key = hex(s(r, "key"));
                let iv = hex_array::<8>(s(r, "iv"));
                let make = || cipher(&key, &iv).with_impl(imp).unwrap().with_xor(xor);
                let mut end = 0;
                for slice in records(r, "stream") {
                    let from = slice["from"].as_u64().unwrap() as usize;
                    let to = slice["to"].as_u64().unwrap() as usize;
                    let mut ks = vec![0u8; to - from + 1];
                    let mut c = make();
                    c.seek(from as u128).unwrap();
                    c.apply_keystream(&mut ks).unwrap();
                    assert_eq!(ks, hex(s(slice, "hex")), "{imp} {xor} {r}");
                    end = end.max(to + 1);
                }
                let mut ks = vec![0u8; end];
                make().apply_keystream(&mut ks).unwrap();
                let mut digest = [0u8; 64];
                for block in ks.chunks(64) {
                    for (d, b) in digest.iter_mut().zip(block) {
                        *d ^= b;
                    }
                }
                assert_eq!(
                    digest.to_vec(),
                    hex(s(r, "xor_digest")),
                    "{imp} {xor} digest"
                );
            }
        }
    }
}

#[test]
fn nacl_hsalsa20_and_core() {
    let v = nacl();
    for r in records(&v, "hsalsa20") {
        let out = salsa20::hsalsa20(&hex_array(s(r, "key")), &hex_array(s(r, "input")));
        assert_eq!(out.to_vec(), hex(s(r, "output")), "{}", s(r, "name"));
    }
    for r in records(&v, "salsa20_core") {
        let block = reference::expansion(
            reference::Key::Bits256(&hex_array(s(r, "key"))),
            &hex_array(s(r, "input")),
            10,
        );
        assert_eq!(block.to_vec(), hex(s(r, "output")), "{}", s(r, "name"));
    }
}

#[test]
fn nacl_xsalsa20_on_every_rung() {
    let v = nacl();
    for imp in rungs("nacl_xsalsa20_on_every_rung") {
        for r in records(&v, "xsalsa20_stream") {
            let want = hex(s(r, "keystream"));
            let mut ks = vec![0u8; want.len()];
            XSalsa20::new(&hex_array(s(r, "key")), &hex_array(s(r, "nonce")))
                .with_impl(imp)
                .unwrap()
                .apply_keystream(&mut ks)
                .unwrap();
            assert_eq!(ks, want, "{imp}");
        }
        for r in records(&v, "xsalsa20_xor") {
            let mut m = hex(s(r, "message"));
            XSalsa20::new(&hex_array(s(r, "key")), &hex_array(s(r, "nonce")))
                .with_impl(imp)
                .unwrap()
                .apply_keystream(&mut m)
                .unwrap();
            assert_eq!(m, hex(s(r, "ciphertext_full")), "{imp}");
        }
    }
}

/// NaCl's SHA-256 digests of 4 MiB of Salsa20 and XSalsa20 keystream (the
/// same bytes: XSalsa20's subkey and nonce tail are the Salsa20 key and
/// nonce of the other record).
#[test]
fn nacl_keystream_digests_on_every_rung() {
    let v = nacl();
    for imp in rungs("nacl_keystream_digests_on_every_rung") {
        for r in records(&v, "salsa20_stream_hash") {
            let mut ks = vec![0u8; r["length"].as_u64().unwrap() as usize];
            Salsa20::new(&hex_array(s(r, "key")), &hex_array(s(r, "nonce")))
                .with_impl(imp)
                .unwrap()
                .apply_keystream(&mut ks)
                .unwrap();
            assert_eq!(Sha256::digest(&ks).to_vec(), hex(s(r, "sha256")), "{imp}");
        }
        for r in records(&v, "xsalsa20_stream_hash") {
            let mut ks = vec![0u8; r["length"].as_u64().unwrap() as usize];
            XSalsa20::new(&hex_array(s(r, "key")), &hex_array(s(r, "nonce")))
                .with_impl(imp)
                .unwrap()
                .apply_keystream(&mut ks)
                .unwrap();
            assert_eq!(Sha256::digest(&ks).to_vec(), hex(s(r, "sha256")), "{imp}");
        }
    }
}
