//! What the hash families' tests share: the NIST CAVP `.rsp` reader, the
//! FIPS 180 examples, one macro of ladder tests every hash type runs, and
//! the checks of the SHA-512 family and the multi-buffer hashes, each
//! taking the rungs to check (`sha512` and `hash_many` give them every rung
//! this CPU runs, `avx512_emu` the AVX-512 rungs alone).

use super::{bytes, field, hex, json, number, records};
use simdcrypt::hash::many;
use simdcrypt::hash::{Sha384, Sha512, Sha512_256, sha512};

/// A list of `(message, digest)` pairs.
pub type Vectors = Vec<(Vec<u8>, Vec<u8>)>;

/// The `(message, digest)` pairs of a CAVP SHAVS byte-oriented file
/// (`Len = bits`, `Msg = hex`, `MD = hex`; `Len = 0` carries `Msg = 00`,
/// which stands for the empty message).
pub fn cavp(text: &str) -> Vec<(Vec<u8>, Vec<u8>)> {
    let mut out = Vec::new();
    let mut len_bits = None;
    let mut msg = None;
    for line in text.lines().map(str::trim) {
        let Some((key, value)) = line.split_once(" = ") else {
            continue;
        };
        match key {
            "Len" => len_bits = Some(value.parse::<usize>().expect("Len is a number")),
            "Msg" => msg = Some(hex(value)),
            "MD" => {
                let bits = len_bits.take().expect("Len before MD");
                let mut m = msg.take().expect("Msg before MD");
                assert_eq!(bits % 8, 0, "byte-oriented vectors only");
                m.truncate(bits / 8);
                out.push((m, hex(value)));
            }
            _ => {}
        }
    }
    assert!(!out.is_empty(), "no vectors in the CAVP file");
    out
}

/// The FIPS 180 examples (RFC 6234 §8.4) of `algorithm` ("SHA-1",
/// "SHA-256", "SHA-512"): `(message, digest)`, the message repeated as the
/// file says (one million "a" among them).
pub fn fips180(algorithm: &str) -> Vec<(Vec<u8>, Vec<u8>)> {
    let file = json(include_str!("../data/sha/fips180_examples.json"));
    let list: Vec<_> = records(&file, "vectors")
        .iter()
        .filter(|v| v["algorithm"] == algorithm)
        .map(|v| {
            let unit = v["message_ascii"].as_str().expect("message_ascii");
            let repeat = v["repeat"].as_u64().expect("repeat") as usize;
            (
                unit.repeat(repeat).into_bytes(),
                hex(v["digest"].as_str().expect("digest")),
            )
        })
        .collect();
    assert!(!list.is_empty(), "no FIPS 180 examples for {algorithm}");
    list
}

/// The ladder tests of one hash type `$Hash` whose rungs are `$Impl`, over
/// the known answers `$vectors` (an expression giving `(message, digest)`
/// pairs): every rung on every vector; every rung against the reference
/// for every length 0..=1000; random splits of `update` calls; reset.
macro_rules! hash_ladder_tests {
    ($Hash:ty, $Impl:ty, $vectors:expr) => {
        /// The rungs this CPU runs, saying in the log which were skipped.
        fn rungs(test: &str) -> Vec<$Impl> {
            $crate::common::rungs(test)
        }

        fn on(imp: $Impl) -> $Hash {
            <$Hash>::new().with_impl(imp).expect("available rung")
        }

        fn one_shot(imp: $Impl, data: &[u8]) -> Vec<u8> {
            let mut h = on(imp);
            h.update(data);
            h.finalize().to_vec()
        }

        #[test]
        fn known_answers_on_every_rung() {
            let vectors: Vec<(Vec<u8>, Vec<u8>)> = $vectors;
            for imp in rungs("known_answers_on_every_rung") {
                for (i, (msg, want)) in vectors.iter().enumerate() {
                    assert_eq!(
                        &one_shot(imp, msg),
                        want,
                        "{imp}: vector {i} ({} bytes)",
                        msg.len()
                    );
                }
            }
        }

        #[test]
        fn every_length_to_1000_equals_the_reference() {
            let data = $crate::common::bytes(7, 1000);
            let want: Vec<Vec<u8>> = (0..=1000)
                .map(|len| one_shot(<$Impl>::ALL[0], &data[..len]))
                .collect();
            for imp in rungs("every_length_to_1000_equals_the_reference") {
                for len in 0..=1000 {
                    assert_eq!(one_shot(imp, &data[..len]), want[len], "{imp}: {len} bytes");
                }
            }
        }

        #[test]
        fn reset_and_finalize_reset_start_over() {
            for imp in rungs("reset_and_finalize_reset_start_over") {
                let mut h = on(imp);
                h.update(b"something else");
                h.reset();
                h.update(b"abc");
                let first = h.finalize_reset();
                h.update(b"abc");
                assert_eq!(first, h.finalize(), "{imp}");
                assert_eq!(first.to_vec(), one_shot(imp, b"abc"), "{imp}");
                assert_eq!(<$Hash>::digest(b"abc"), first, "{imp}: digest");
            }
        }

        proptest::proptest! {
            #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
            #[test]
            fn random_splits_equal_one_shot(
                seed in proptest::prelude::any::<u64>(),
                len in 0usize..3000,
                cuts in proptest::collection::vec(0usize..3000, 0..8),
            ) {
                let data = $crate::common::bytes(seed, len);
                let want = one_shot(<$Impl>::ALL[0], &data);
                let mut cuts: Vec<usize> = cuts.into_iter().map(|c| c % (len + 1)).collect();
                cuts.sort_unstable();
                for imp in <$Impl>::available() {
                    let mut h = on(imp);
                    let mut at = 0;
                    for &cut in &cuts {
                        h.update(&data[at..cut]);
                        at = cut;
                    }
                    h.update(&data[at..]);
                    proptest::prop_assert_eq!(h.finalize().to_vec(), want.clone(), "{} cuts {:?}", imp, cuts);
                }
            }
        }
    };
}
pub(crate) use hash_ladder_tests;

/// "abc", FIPS 180's one-block example.
const ABC: &[u8] = b"abc";
/// FIPS 180's 896-bit two-block example for the SHA-512 family.
const TWO_BLOCK: &[u8] = b"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";
/// RFC 6234 §8.4's test 4: "01234567" × 8, repeated 10 times.
const RFC6234_TEST4: &[u8] = b"0123456701234567012345670123456701234567012345670123456701234567";

/// The examples of `algorithm` ("SHA-384", "SHA-512/256") in
/// `sha2_truncated_examples.json` (RFC 6234 §8.4's messages), after `list`
/// and without repeating its pairs.
fn with_rfc6234_examples(algorithm: &str, mut list: Vectors) -> Vectors {
    let file = json(include_str!("../data/sha/sha2_truncated_examples.json"));
    for v in records(&file, "vectors") {
        if v["algorithm"] != algorithm {
            continue;
        }
        let unit = field(v, "message_ascii");
        let pair = (
            unit.repeat(number(v, "repeat") as usize).into_bytes(),
            hex(field(v, "digest")),
        );
        if !list.contains(&pair) {
            list.push(pair);
        }
    }
    list
}

/// SHA-512's known answers: the CAVP byte-oriented vectors (short and
/// long) and FIPS 180's examples.
pub fn sha512_vectors() -> Vectors {
    let mut v = cavp(include_str!("../data/sha/SHA512ShortMsg.rsp"));
    v.extend(cavp(include_str!("../data/sha/SHA512LongMsg.rsp")));
    v.extend(fips180("SHA-512"));
    v
}

/// SHA-384's known answers. SHA-384 has no CAVP file here: FIPS 180-4's
/// examples as RFC 6234 §8.4 prints them (tests 1 to 4 for SHA-384), each
/// checked with Python's `hashlib.sha384`, and the examples file.
pub fn sha384_vectors() -> Vectors {
    with_rfc6234_examples(
        "SHA-384",
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
        ],
    )
}

/// SHA-512/256's known answers. It has no CAVP file here: "abc" and the
/// two-block message are NIST's worked examples for FIPS 180-4
/// (`SHA512_256.pdf`, from the CSRC examples page); the empty message and
/// one million "a" are computed with Python's `hashlib.new("sha512_256")`
/// (OpenSSL), an independent implementation (each value checked with
/// `hashlib`); then the examples file.
pub fn sha512_256_vectors() -> Vectors {
    with_rfc6234_examples(
        "SHA-512/256",
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
        ],
    )
}

/// The SHA-384, SHA-512 and SHA-512/256 digests of `data` on `imp`, fed
/// in pieces of `pieces` bytes (the rest at the end).
pub fn sha512_family(imp: sha512::Impl, data: &[u8], pieces: &[usize]) -> [Vec<u8>; 3] {
    let mut h384 = Sha384::new().with_impl(imp).unwrap();
    let mut h512 = Sha512::new().with_impl(imp).unwrap();
    let mut h256 = Sha512_256::new().with_impl(imp).unwrap();
    let mut rest = data;
    for &n in pieces.iter().chain(&[usize::MAX]) {
        let (piece, tail) = rest.split_at(n.min(rest.len()));
        h384.update(piece);
        h512.update(piece);
        h256.update(piece);
        rest = tail;
    }
    [
        h384.finalize().to_vec(),
        h512.finalize().to_vec(),
        h256.finalize().to_vec(),
    ]
}

/// The known answers of SHA-512, SHA-384 and SHA-512/256 on each rung.
pub fn sha512_family_known_answers(rungs: &[sha512::Impl]) {
    let lists = [sha384_vectors(), sha512_vectors(), sha512_256_vectors()];
    for &imp in rungs {
        for (n, list) in lists.iter().enumerate() {
            for (i, (msg, want)) in list.iter().enumerate() {
                let got = &sha512_family(imp, msg, &[])[n];
                let name = ["SHA-384", "SHA-512", "SHA-512/256"][n];
                assert_eq!(got, want, "{imp}: {name} vector {i}");
            }
        }
    }
}

/// Every length to `max_len` bytes, split at a third, against the
/// reference rung.
pub fn sha512_family_every_length(rungs: &[sha512::Impl], max_len: usize) {
    let data = bytes(7, max_len);
    for &imp in rungs {
        for len in 0..=max_len {
            let d = &data[..len];
            assert_eq!(
                sha512_family(imp, d, &[len / 3]),
                sha512_family(sha512::Impl::Reference, d, &[]),
                "{imp}: {len} bytes"
            );
        }
    }
}

/// RustCrypto's `sha2` agrees on the `(seed, length)` inputs, fed in a
/// first piece of each of `firsts` bytes and then pieces growing by 129
/// (which leave partial blocks buffered and odd numbers of whole blocks for
/// the multi-block rungs).
pub fn sha2_crate_agrees_on_large_inputs(
    rungs: &[sha512::Impl],
    inputs: &[(u64, usize)],
    firsts: &[usize],
) {
    use sha2::Digest;
    for &(seed, len) in inputs {
        let data = bytes(seed, len);
        let want = [
            sha2::Sha384::digest(&data).to_vec(),
            sha2::Sha512::digest(&data).to_vec(),
            sha2::Sha512_256::digest(&data).to_vec(),
        ];
        for &first in firsts {
            let (mut pieces, mut at) = (Vec::new(), 0);
            while at < len {
                pieces.push(first + 129 * pieces.len());
                at += pieces[pieces.len() - 1];
            }
            for &imp in rungs {
                let got = sha512_family(imp, &data, &pieces);
                assert_eq!(got, want, "{imp}: {len} bytes, first piece {first}");
            }
        }
    }
}

/// Every CAVP SHA-256 vector (short and long) and FIPS 180's SHA-256
/// examples in one call of `sha256_many`, so lanes of every length share
/// the registers; then in groups of 17 and alone. RFC 1321's MD5 suite,
/// each message as often as it takes to fill 16 lanes and more.
pub fn many_known_answers(rungs: &[many::Impl]) {
    let mut sha = cavp(include_str!("../data/sha/SHA256ShortMsg.rsp"));
    sha.extend(cavp(include_str!("../data/sha/SHA256LongMsg.rsp")));
    sha.extend(fips180("SHA-256"));
    let md5_file = json(include_str!("../data/sha/md5_rfc1321.json"));
    let md5: Vectors = records(&md5_file, "vectors")
        .iter()
        .map(|v| (hex(field(v, "message_hex")), hex(field(v, "md5"))))
        .collect();
    assert!(md5.len() >= 7);
    for &imp in rungs {
        for group in [sha.len(), 17, 1] {
            for part in sha.chunks(group) {
                let msgs: Vec<&[u8]> = part.iter().map(|(m, _)| m.as_slice()).collect();
                let got = many::sha256_many_with(imp, &msgs).unwrap();
                for (i, ((m, want), d)) in part.iter().zip(&got).enumerate() {
                    assert_eq!(&d.to_vec(), want, "{imp}: SHA-256 #{i} ({} bytes)", m.len());
                }
            }
        }
        let msgs: Vec<&[u8]> = md5.iter().cycle().take(35).map(|(m, _)| &m[..]).collect();
        let got = many::md5_many_with(imp, &msgs).unwrap();
        for (i, d) in got.iter().enumerate() {
            assert_eq!(&d.to_vec(), &md5[i % md5.len()].1, "{imp}: MD5 #{i}");
        }
    }
}

/// Lengths around the padding boundaries (55/56 bytes: one padding block
/// or two; 63, 64; 119, 120 one block later) and a few of several KiB.
const EDGES: &[usize] = &[55, 56, 63, 64, 119, 120, 0, 1, 4096, 5000, 9000];

/// `count` messages of mixed lengths: the edges, then lengths spread over
/// 0..=300, each message from its own seed.
pub fn messages(count: usize, salt: u64) -> Vec<Vec<u8>> {
    (0..count)
        .map(|i| {
            let len = match EDGES.get(i) {
                Some(&len) => len,
                None => (i * 97 + salt as usize * 31) % 301,
            };
            bytes(salt * 1000 + i as u64, len)
        })
        .collect()
}

/// `many(imp, msgs)` on each rung equals `one` on every message: for each
/// of `counts` messages of mixed lengths (with each of `salts`), and for 16
/// of one length (no lane idles) and 16 empty ones.
pub fn many_equals_one<const N: usize>(
    rungs: &[many::Impl],
    counts: &[usize],
    salts: std::ops::Range<u64>,
    many: impl Fn(many::Impl, &[&[u8]]) -> Result<Vec<[u8; N]>, simdcrypt::Error>,
    one: impl Fn(&[u8]) -> [u8; N],
) {
    for &imp in rungs {
        for &count in counts {
            for salt in salts.clone() {
                let msgs = messages(count, salt);
                let refs: Vec<&[u8]> = msgs.iter().map(Vec::as_slice).collect();
                let got = many(imp, &refs).expect("available rung");
                assert_eq!(got.len(), count, "{imp}: {count} messages");
                for (i, (m, d)) in msgs.iter().zip(&got).enumerate() {
                    assert_eq!(
                        *d,
                        one(m),
                        "{imp}: message {i} of {count} ({} bytes)",
                        m.len()
                    );
                }
            }
        }
        for len in [0, 1024] {
            let msgs: Vec<Vec<u8>> = (0..16).map(|i| bytes(i, len)).collect();
            let refs: Vec<&[u8]> = msgs.iter().map(Vec::as_slice).collect();
            let want: Vec<[u8; N]> = msgs.iter().map(|m| one(m)).collect();
            assert_eq!(many(imp, &refs).unwrap(), want, "{imp}: 16 × {len} bytes");
        }
    }
}
