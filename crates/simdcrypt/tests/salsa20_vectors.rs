//! Official Salsa20, HSalsa20 and XSalsa20 vectors, on every rung this CPU
//! runs (the others are skipped, and the skip is printed).

// The specifications' `reference` modules are `hazmat` items.
#![cfg(feature = "hazmat")]

mod common;

use common::{hex, hex_array, words};
use serde_json::Value;
use simdcrypt::salsa20::{self, Impl, reference};

fn load(text: &str) -> Value {
    serde_json::from_str(text).expect("vector file is JSON")
}

fn spec() -> Value {
    load(include_str!("data/salsa20/salsa20_spec.json"))
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
    common::salsa20::spec_expansion(&rungs("spec_expansion_on_every_rung"));
}

/// eSTREAM: keystream slices at their offsets and the XOR digest of all
/// blocks, for both key sizes, every rung and both XOR forms.
#[test]
fn estream_on_every_rung() {
    common::salsa20::estream(&rungs("estream_on_every_rung"));
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
    common::salsa20::nacl_xsalsa20(&rungs("nacl_xsalsa20_on_every_rung"));
}

/// NaCl's SHA-256 digests of 4 MiB of Salsa20 and XSalsa20 keystream.
#[test]
fn nacl_keystream_digests_on_every_rung() {
    common::salsa20::nacl_keystream_digests(&rungs("nacl_keystream_digests_on_every_rung"));
}
