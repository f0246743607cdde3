//! HMAC (RFC 2104) over every hash: the streaming API's promises,
//! truncated tags, and RustCrypto's `hmac` as an independent peer on keys
//! around the block length. (RFC 4231, RFC 2202 and Wycheproof on every
//! hash, and RFC 2104's formula on the reference rungs, are the checking
//! kit's: `tests/kit.rs`.)

mod common;

use common::bytes;
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

/// A MAC keyed once and reused through `finalize_reset` (the keyed
/// inner and outer states restored, not rehashed) equals a fresh MAC on
/// the hash's reference rung, at every message length from 0 to 300, whole
/// and in two pieces, for keys shorter than, equal to and longer than the
/// block.
fn reused_equals_reference<H: Hash, R: simdcrypt::RungSet>(with: fn(H, R) -> H) {
    let reference = || with(H::new(), R::all()[0]);
    let data = bytes(301, 300);
    for key_len in [0, 20, H::BLOCK_LEN, 200] {
        let key = bytes(key_len as u64, key_len);
        let mut reused = Hmac::<H>::new(&key);
        for len in 0..=data.len() {
            let msg = &data[..len];
            let mut fresh = Hmac::with_hash(reference(), &key);
            fresh.update(msg);
            let want = fresh.finalize();
            reused.update(msg);
            assert_eq!(reused.finalize_reset(), want, "key {key_len}, {len} bytes");
            let (first, second) = msg.split_at(len / 3);
            reused.update(first);
            reused.update(second);
            assert_eq!(
                reused.finalize_reset(),
                want,
                "key {key_len}, {len} bytes split"
            );
        }
    }
}

#[test]
fn hmac_reused_equals_reference_at_every_length() {
    reused_equals_reference::<Sha256, _>(|h, r: simdcrypt::hash::sha256::Rung| {
        h.with_rung(r).unwrap()
    });
    reused_equals_reference::<Sha512, _>(|h, r: simdcrypt::hash::sha512::Rung| {
        h.with_rung(r).unwrap()
    });
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
