//! SHA-512, SHA-384 and SHA-512/256 (FIPS 180-4 §6.4, §6.5, §6.7): every
//! rung on the NIST CAVP byte-oriented vectors (SHA-512) and on the FIPS
//! 180 examples, against the reference on every length to 1000 bytes and
//! on random splits, and against RustCrypto's `sha2` on large inputs.

mod common;

use common::hash::{cavp, fips180};
use common::hex;

/// "abc", FIPS 180's one-block example.
const ABC: &[u8] = b"abc";
/// FIPS 180's 896-bit two-block example for the SHA-512 family.
const TWO_BLOCK: &[u8] = b"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";
/// RFC 6234 §8.4's test 4: "01234567" × 8, repeated 10 times.
const RFC6234_TEST4: &[u8] = b"0123456701234567012345670123456701234567012345670123456701234567";

mod sha512 {
    use super::*;
    use simdcrypt::hash::{Sha512, sha512::Impl};

    crate::common::hash::hash_ladder_tests!(Sha512, Impl, {
        let mut v = cavp(include_str!("data/sha/SHA512ShortMsg.rsp"));
        v.extend(cavp(include_str!("data/sha/SHA512LongMsg.rsp")));
        v.extend(fips180("SHA-512"));
        v
    });
}

mod sha384 {
    use super::*;
    use simdcrypt::hash::{Sha384, sha512::Impl};

    // SHA-384 has no CAVP file here. Its known answers are FIPS 180-4's
    // examples as RFC 6234 §8.4 prints them (tests 1 to 4 for SHA-384);
    // each checked with Python's `hashlib.sha384`.
    crate::common::hash::hash_ladder_tests!(Sha384, Impl, {
        vec![
            (
                ABC.to_vec(),
                hex(
                    "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7",
                ),
            ),
            (
                TWO_BLOCK.to_vec(),
                hex(
                    "09330c33f71147e83d192fc782cd1b4753111b173b3b05d22fa08086e3b0f712fcc7c71a557e2db966c3e9fa91746039",
                ),
            ),
            (
                b"a".repeat(1_000_000),
                hex(
                    "9d0e1809716474cb086e834e310a4a1ced149e9c00f248527972cec5704c2a5b07b8b3dc38ecc4ebae97ddd87f3d8985",
                ),
            ),
            (
                RFC6234_TEST4.repeat(10),
                hex(
                    "2fc64a4f500ddb6828f6a3430b8dd72a368eb7f3a8322a70bc84275b9c0b3ab00d27a5cc3c2d224aa6b61a0d79fb4596",
                ),
            ),
        ]
    });
}

mod sha512_256 {
    use super::*;
    use simdcrypt::hash::{Sha512_256, sha512::Impl};

    // SHA-512/256 has no CAVP file here. "abc" and the two-block message
    // are NIST's worked examples for FIPS 180-4 (`SHA512_256.pdf`, from
    // the CSRC examples page); the empty message and one million "a" are
    // computed with Python's `hashlib.new("sha512_256")` (OpenSSL), an
    // independent implementation. Each value checked with `hashlib`.
    crate::common::hash::hash_ladder_tests!(Sha512_256, Impl, {
        vec![
            (
                ABC.to_vec(),
                hex("53048e2681941ef99b2e29b76b4c7dabe4c2d0c634fc6d46e0e2f13107e7af23"),
            ),
            (
                TWO_BLOCK.to_vec(),
                hex("3928e184fb8690f840da3988121d31be65cb9d3ef83ee6146feac861e19b563a"),
            ),
            (
                Vec::new(),
                hex("c672b8d1ef56ed28ab87c3622c5114069bdd3ad7b8f9737498d0c01ecef0967a"),
            ),
            (
                b"a".repeat(1_000_000),
                hex("9a59a052930187a97038cae692f30708aa6491923ef5194394dc68d56c74fb21"),
            ),
        ]
    });
}

/// All three functions on every rung against RustCrypto's `sha2`, on large
/// random inputs cut at odd places (the cuts leave partial blocks buffered
/// and odd numbers of whole blocks for the multi-block rungs).
#[test]
fn sha2_crate_agrees_on_large_inputs_with_odd_splits() {
    use sha2::Digest;
    use simdcrypt::hash::{Sha384, Sha512, Sha512_256, sha512::Impl};

    for (seed, len) in [
        (1u64, 100_003usize),
        (2, 128 * 37),
        (3, 128 * 64 + 1),
        (4, 262_144 + 77),
    ] {
        let data = common::bytes(seed, len);
        let want384 = sha2::Sha384::digest(&data);
        let want512 = sha2::Sha512::digest(&data);
        let want512_256 = sha2::Sha512_256::digest(&data);
        for imp in Impl::available() {
            for split in [1usize, 127, 128 * 3 + 5, 128 * 8, 10_007, 65_537] {
                let mut h384 = Sha384::new().with_impl(imp).expect("available rung");
                let mut h512 = Sha512::new().with_impl(imp).expect("available rung");
                let mut h256 = Sha512_256::new().with_impl(imp).expect("available rung");
                // A first piece of `split` bytes, then pieces growing by 129.
                let (mut at, mut size) = (0, split);
                while at < data.len() {
                    let piece = &data[at..(at + size).min(data.len())];
                    h384.update(piece);
                    h512.update(piece);
                    h256.update(piece);
                    at += piece.len();
                    size += 129;
                }
                assert_eq!(
                    h384.finalize()[..],
                    want384[..],
                    "{imp}: SHA-384, {len} bytes, split {split}"
                );
                assert_eq!(
                    h512.finalize()[..],
                    want512[..],
                    "{imp}: SHA-512, {len} bytes, split {split}"
                );
                assert_eq!(
                    h256.finalize()[..],
                    want512_256[..],
                    "{imp}: SHA-512/256, {len} bytes, split {split}"
                );
            }
        }
    }
}
