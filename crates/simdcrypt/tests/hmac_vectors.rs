//! HMAC (RFC 2104) over every hash: RFC 4231 (SHA-224/256/384/512) and
//! RFC 2202 (MD5, SHA-1), every test of Wycheproof's HMAC files (invalid
//! and truncated tags included), against RustCrypto's `hmac` on keys
//! around the block length, and the streaming API's promises.

mod common;

use common::{bytes, field, hex, json, number, records};
use simdcrypt::Error;
use simdcrypt::hash::{Hash, Md5, Sha1, Sha224, Sha256, Sha384, Sha512, Sha512_256};
use simdcrypt::hmac::{Hmac, hmac_sha256};

/// Runs the generic test function `$f::<H>($args…)` for each hash named
/// (as its specification writes it) in the rows.
macro_rules! over_hashes {
    ($f:ident, every hash) => {
        over_hashes!(
            $f,
            [("MD5"), ("SHA-1"), ("SHA-224"), ("SHA-256"), ("SHA-384"), ("SHA-512"), ("SHA-512/256")]
        )
    };
    ($f:ident, [$(($name:expr $(, $arg:expr)*)),+ $(,)?]) => {{
        $(
            match $name {
                "MD5" => $f::<Md5>($($arg),*),
                "SHA-1" => $f::<Sha1>($($arg),*),
                "SHA-224" => $f::<Sha224>($($arg),*),
                "SHA-256" => $f::<Sha256>($($arg),*),
                "SHA-384" => $f::<Sha384>($($arg),*),
                "SHA-512" => $f::<Sha512>($($arg),*),
                "SHA-512/256" => $f::<Sha512_256>($($arg),*),
                other => panic!("no hash named {other}"),
            }
        )+
    }};
}

/// `H::Digest` holding `bytes` (which must be `H::OUTPUT_LEN` long).
fn digest_of<H: Hash>(bytes: &[u8]) -> H::Digest {
    let mut d = H::digest(b"");
    d.as_mut().copy_from_slice(bytes);
    d
}

/// RFC 4231 §4's test cases 1–7 for `H` in the file's column `column`.
/// Test case 5's tag is truncated to 128 bits (below RFC 2104 §5's
/// recommendation for the longer hashes), so it is compared as a prefix.
fn rfc4231<H: Hash>(column: &str) {
    let file = json(include_str!("data/kdf/hmac_rfc4231.json"));
    for case in records(&file, "test_cases") {
        let (key, data, want) = (
            hex(field(case, "key")),
            hex(field(case, "data")),
            hex(field(case, column)),
        );
        let tag = Hmac::<H>::mac(&key, &data);
        assert_eq!(
            &tag.as_ref()[..want.len()],
            want,
            "{}, case {}",
            H::NAME,
            case["test_case"]
        );
        if want.len() == H::OUTPUT_LEN {
            let mut mac = Hmac::<H>::new(&key);
            mac.update(&data);
            mac.verify(&digest_of::<H>(&want)).unwrap();
        }
    }
}

/// RFC 2202's test cases for `H` under the file's key `list`.
fn rfc2202<H: Hash>(list: &str) {
    let file = json(include_str!("data/kdf/hmac_rfc2202.json"));
    for case in records(&file, list) {
        let tag = Hmac::<H>::mac(&hex(field(case, "key")), &hex(field(case, "data")));
        assert_eq!(
            tag.as_ref(),
            hex(field(case, "digest")),
            "{}, case {}",
            H::NAME,
            case["test_case"]
        );
    }
}

/// Every test of a Wycheproof HMAC file for `H`: valid tags verify (full
/// or truncated to the group's tag size), modified ones are refused.
fn wycheproof<H: Hash>(text: &str) {
    let file = json(text);
    let mut count = 0;
    for group in records(&file, "testGroups") {
        let tag_len = number(group, "tagSize") as usize / 8;
        for test in records(group, "tests") {
            count += 1;
            let id = &test["tcId"];
            let (key, msg, tag) = (
                hex(field(test, "key")),
                hex(field(test, "msg")),
                hex(field(test, "tag")),
            );
            assert_eq!(tag.len(), tag_len, "tcId {id}");
            let mut mac = Hmac::<H>::new(&key);
            mac.update(&msg);
            let computed = mac.clone().finalize();
            let result = mac.verify_truncated(&tag);
            match field(test, "result") {
                "valid" => {
                    assert_eq!(&computed.as_ref()[..tag_len], tag, "tcId {id}");
                    result.unwrap_or_else(|e| panic!("tcId {id}: {e}"));
                }
                _ => {
                    assert_eq!(result, Err(Error::AuthenticationFailed), "tcId {id}");
                    if tag_len == H::OUTPUT_LEN {
                        let mut mac = Hmac::<H>::new(&key);
                        mac.update(&msg);
                        assert_eq!(
                            mac.verify(&digest_of::<H>(&tag)),
                            Err(Error::AuthenticationFailed),
                            "tcId {id}"
                        );
                    }
                }
            }
        }
    }
    assert_eq!(count, number(&file, "numberOfTests"));
}

/// The streaming promises for `H`: any split of `update`, `finalize_reset`
/// and `reset` start over with the key, clones are independent, and keys
/// of every length around the block.
fn streaming<H: Hash>() {
    for key_len in [
        0,
        1,
        H::BLOCK_LEN - 1,
        H::BLOCK_LEN,
        H::BLOCK_LEN + 1,
        3 * H::BLOCK_LEN,
    ] {
        let key = bytes(key_len as u64, key_len);
        let msg = bytes(7, 1000);
        let want = Hmac::<H>::mac(&key, &msg);
        for split in [0, 1, 63, 64, 65, 500, 1000] {
            let mut mac = Hmac::<H>::new(&key);
            mac.update(&msg[..split]);
            let fork = mac.clone();
            mac.update(&msg[split..]);
            assert_eq!(mac.finalize_reset(), want, "key {key_len}, split {split}");
            mac.update(&msg);
            assert_eq!(mac.finalize_reset(), want, "after finalize_reset");
            mac.update(b"noise");
            mac.reset();
            mac.update(&msg);
            assert_eq!(mac.finalize(), want, "after reset");
            let mut fork = fork;
            fork.update(&msg[split..]);
            assert_eq!(fork.finalize(), want, "clone");
        }
        // The same on an explicitly given hash state (one with data absorbed
        // is started over).
        let mut hash = H::new();
        hash.update(b"discarded");
        let mut mac = Hmac::with_hash(hash, &key);
        mac.update(&msg);
        assert_eq!(mac.finalize(), want);
    }
}

/// `verify_truncated` refuses tags shorter than RFC 2104 §5's minimum or
/// longer than the output, and accepts every length between.
fn truncation<H: Hash>() {
    let min = Hmac::<H>::MIN_TRUNCATED_LEN;
    assert_eq!(min, (H::OUTPUT_LEN / 2).max(10));
    let tag = Hmac::<H>::mac(b"key", b"msg");
    let mac = Hmac::<H>::new(b"key");
    let with_msg = || {
        let mut m = mac.clone();
        m.update(b"msg");
        m
    };
    for len in [0, 1, min - 1, H::OUTPUT_LEN + 1] {
        let long = [tag.as_ref(), &[0]].concat();
        assert_eq!(
            with_msg().verify_truncated(&long[..len]),
            Err(Error::TagLength {
                len,
                min,
                max: H::OUTPUT_LEN
            })
        );
    }
    for len in min..=H::OUTPUT_LEN {
        with_msg().verify_truncated(&tag.as_ref()[..len]).unwrap();
        let mut bad = tag.as_ref()[..len].to_vec();
        bad[len - 1] ^= 1;
        assert_eq!(
            with_msg().verify_truncated(&bad),
            Err(Error::AuthenticationFailed)
        );
    }
}

#[test]
fn hmac_rfc4231() {
    over_hashes!(
        rfc4231,
        [
            ("SHA-224", "hmac_sha_224"),
            ("SHA-256", "hmac_sha_256"),
            ("SHA-384", "hmac_sha_384"),
            ("SHA-512", "hmac_sha_512"),
        ]
    );
}

#[test]
fn hmac_rfc2202() {
    over_hashes!(rfc2202, [("MD5", "hmac_md5"), ("SHA-1", "hmac_sha1")]);
}

#[test]
fn hmac_wycheproof() {
    over_hashes!(
        wycheproof,
        [
            ("SHA-1", include_str!("data/wycheproof/hmac_sha1_test.json")),
            (
                "SHA-256",
                include_str!("data/wycheproof/hmac_sha256_test.json")
            ),
            (
                "SHA-512",
                include_str!("data/wycheproof/hmac_sha512_test.json")
            ),
        ]
    );
}

#[test]
fn hmac_streaming() {
    over_hashes!(streaming, every hash);
}

#[test]
fn hmac_truncation() {
    over_hashes!(truncation, every hash);
}

#[test]
fn hmac_sha256_against_rustcrypto() {
    use hmac::Mac;
    for key_len in [0, 1, 31, 32, 63, 64, 65, 100, 200] {
        for msg_len in [0, 1, 55, 56, 63, 64, 65, 1000] {
            let (key, msg) = (
                bytes(key_len as u64, key_len),
                bytes(msg_len as u64 + 99, msg_len),
            );
            let mut peer = hmac::Hmac::<sha2::Sha256>::new_from_slice(&key).unwrap();
            peer.update(&msg);
            let want: [u8; 32] = peer.finalize().into_bytes().into();
            assert_eq!(
                hmac_sha256(&key, &msg),
                want,
                "key {key_len}, message {msg_len}"
            );
        }
    }
}

#[test]
fn hmac_sha256_every_rung() {
    use simdcrypt::hash::sha256::Impl;
    let file = json(include_str!("data/kdf/hmac_rfc4231.json"));
    for imp in common::rungs::<Impl>("hmac_sha256_every_rung") {
        for case in records(&file, "test_cases") {
            let (key, data, want) = (
                hex(field(case, "key")),
                hex(field(case, "data")),
                hex(field(case, "hmac_sha_256")),
            );
            let hash = Sha256::new().with_impl(imp).unwrap();
            let mut mac = Hmac::with_hash(hash, &key);
            mac.update(&data);
            assert_eq!(
                &mac.finalize()[..want.len()],
                want,
                "{imp}, case {}",
                case["test_case"]
            );
        }
    }
}
