//! HMAC over the hashes for the checking kit: on RFC 2202, RFC 4231 (also
//! on every SHA-256 rung) and Wycheproof (every invalid tag refused), and
//! over every hash against RFC 2104's formula written out on the hashes'
//! reference rungs — the formula the KDFs' checks (`kdf/checks.rs`) build
//! HKDF and PBKDF2 on.

use std::sync::OnceLock;

use serde_json::Value;

use super::Hmac;
use crate::hash::{Hash, Md5, Sha1, Sha224, Sha256, Sha384, Sha512, Sha512_256};
use crate::harness::vectors::{hex_field, label, parse, records, wycheproof_tests};
use crate::harness::{Check, ChosenRungs, Outcome, Report, Rng, Tally};

const RFC2202: &str = include_str!("../../tests/data/kdf/hmac_rfc2202.json");
const RFC4231: &str = include_str!("../../tests/data/kdf/hmac_rfc4231.json");
const WYCHEPROOF_SHA1: &str = include_str!("../../tests/data/wycheproof/hmac_sha1_test.json");
const WYCHEPROOF_SHA256: &str = include_str!("../../tests/data/wycheproof/hmac_sha256_test.json");
const WYCHEPROOF_SHA512: &str = include_str!("../../tests/data/wycheproof/hmac_sha512_test.json");

/// Random HMAC cases per hash against RFC 2104's formula.
const CASES: usize = 100;

/// The vector files of this module, parsed.
struct Files {
    rfc2202: Value,
    rfc4231: Value,
    wycheproof_sha1: Value,
    wycheproof_sha256: Value,
    wycheproof_sha512: Value,
}

/// The files, parsed on first use.
fn files() -> &'static Files {
    static FILES: OnceLock<Files> = OnceLock::new();
    FILES.get_or_init(|| Files {
        rfc2202: parse(RFC2202),
        rfc4231: parse(RFC4231),
        wycheproof_sha1: parse(WYCHEPROOF_SHA1),
        wycheproof_sha256: parse(WYCHEPROOF_SHA256),
        wycheproof_sha512: parse(WYCHEPROOF_SHA512),
    })
}

/// One hash's HMAC as the checks call it, and RFC 2104's formula on the
/// hash's reference rung.
pub(crate) struct Prf {
    /// The hash, as its specification (and the vector files) name it.
    pub(crate) name: &'static str,
    /// Its digest length.
    pub(crate) output_len: usize,
    /// HMAC of a message in two `update` calls, cut at a point.
    pub(crate) hmac: fn(&[u8], &[u8], usize) -> Vec<u8>,
    /// RFC 2104 §2's formula on the hash's reference rung.
    pub(crate) formula: fn(&[u8], &[u8]) -> Vec<u8>,
}

/// The [`Prf`] of `$Hash`, whose rungs are `$Rung` (the reference first).
macro_rules! prf {
    ($Hash:ty, $Rung:ty) => {
        $crate::hmac::checks::Prf {
            name: <$Hash as $crate::hash::Hash>::NAME,
            output_len: <$Hash as $crate::hash::Hash>::OUTPUT_LEN,
            hmac: $crate::hmac::checks::hmac_parts::<$Hash>,
            formula: |key, msg| {
                $crate::hmac::checks::formula(
                    key,
                    msg,
                    <$Hash as $crate::hash::Hash>::BLOCK_LEN,
                    |m| {
                        let mut h = <$Hash>::new()
                            .with_rung(<$Rung>::ALL[0])
                            .expect("the reference runs anywhere");
                        h.update(m);
                        h.finalize().to_vec()
                    },
                )
            },
        }
    };
}
pub(crate) use prf;

/// Every hash's [`Prf`].
fn prfs() -> [Prf; 7] {
    use crate::hash::{md5, sha1, sha256, sha512};
    [
        prf!(Md5, md5::Rung),
        prf!(Sha1, sha1::Rung),
        prf!(Sha224, sha256::Rung),
        prf!(Sha256, sha256::Rung),
        prf!(Sha384, sha512::Rung),
        prf!(Sha512, sha512::Rung),
        prf!(Sha512_256, sha512::Rung),
    ]
}

/// HMAC's ladder: one row, over every hash.
pub(crate) fn run(report: &mut Report) {
    let files = files();
    report.primitive("hmac", |ChosenRungs, seeds| {
        seeds.each(|check| match check {
            Check::Vectors => vectors(files).vectors(),
            Check::CrossCheck => Outcome::Ran(cross_check(&mut seeds.rng(1))),
            Check::RoundTrip => Outcome::NotApplicable("a MAC: no round trip"),
        })
    });
}

/// What [`hmac_checks`] finds: the full tag, whether `verify_truncated`
/// took the tag given, and whether it should have (the tag is at least
/// [`Hmac::MIN_TRUNCATED_LEN`] bytes: RFC 2104 §5's half the output and 80
/// bits).
type HmacFindings = (Vec<u8>, bool, bool);

/// HMAC of a key and a message, checked against a tag: [`hmac_checks`].
type HmacCheck<'a> = &'a dyn Fn(&[u8], &[u8], &[u8]) -> HmacFindings;

/// HMAC-`H` of `msg` under `key`, and `verify_truncated` of `tag` (of any
/// length) against it.
fn hmac_checks<H: Hash>(key: &[u8], msg: &[u8], tag: &[u8]) -> HmacFindings {
    hmac_checks_on(H::new(), key, msg, tag)
}

/// [`hmac_checks`] over `hash` (a hash forced to a rung).
fn hmac_checks_on<H: Hash>(hash: H, key: &[u8], msg: &[u8], tag: &[u8]) -> HmacFindings {
    let mut mac = Hmac::with_hash(hash, key);
    mac.update(msg);
    let full = mac.clone().finalize().as_ref().to_vec();
    let long_enough = tag.len() >= Hmac::<H>::MIN_TRUNCATED_LEN;
    (full, mac.verify_truncated(tag).is_ok(), long_enough)
}

/// RFC 2202 (SHA-1, MD5), RFC 4231 (SHA-224/256/384/512; SHA-256 on its
/// every rung) and Wycheproof: valid tags made and accepted, invalid ones
/// refused.
fn vectors(files: &Files) -> Tally {
    let mut t = Tally::default();
    // The records of `list` with the tag in `column`, through `f`; `on`
    // says on what in a failure.
    let mut rfc = |(list, column, on): (&[Value], &str, &str), f: HmacCheck<'_>| {
        for r in list {
            let (Some(key), Some(msg), Some(want)) = (
                hex_field(r, "key"),
                hex_field(r, "data"),
                hex_field(r, column),
            ) else {
                t.malformed(format!("{column} {}", label(r)));
                continue;
            };
            let (full, accepted, long_enough) = f(&key, &msg, &want);
            // RFC 4231 test 5 lists tags truncated to 128 bits, which for
            // SHA-384 and SHA-512 is under half the output: refused.
            t.check(full.starts_with(&want) && accepted == long_enough, || {
                format!("{column}{on} case {}", r["test_case"])
            });
        }
    };
    let (rfc2202, rfc4231) = (&files.rfc2202, records(&files.rfc4231, "test_cases"));
    let sha1 = (records(rfc2202, "hmac_sha1"), "digest", " (SHA-1)");
    rfc(sha1, &hmac_checks::<Sha1>);
    let md5 = (records(rfc2202, "hmac_md5"), "digest", " (MD5)");
    rfc(md5, &hmac_checks::<Md5>);
    rfc((rfc4231, "hmac_sha_224", ""), &hmac_checks::<Sha224>);
    rfc((rfc4231, "hmac_sha_384", ""), &hmac_checks::<Sha384>);
    rfc((rfc4231, "hmac_sha_512", ""), &hmac_checks::<Sha512>);
    // An unavailable rung (none is offered) would make no tag: a failure.
    for imp in crate::hash::sha256::Rung::available() {
        let on = format!(" on SHA-256's {imp} rung");
        rfc(
            (rfc4231, "hmac_sha_256", &on),
            &|key, msg, tag| match Sha256::new().with_rung(imp) {
                Ok(hash) => hmac_checks_on(hash, key, msg, tag),
                Err(_) => (Vec::new(), false, true),
            },
        );
    }
    let wycheproof = [
        (
            &files.wycheproof_sha1,
            hmac_checks::<Sha1> as fn(&[u8], &[u8], &[u8]) -> _,
        ),
        (&files.wycheproof_sha256, hmac_checks::<Sha256>),
        (&files.wycheproof_sha512, hmac_checks::<Sha512>),
    ];
    for (file, f) in wycheproof {
        for r in wycheproof_tests(file) {
            let (Some(key), Some(msg), Some(tag)) = (
                hex_field(r, "key"),
                hex_field(r, "msg"),
                hex_field(r, "tag"),
            ) else {
                t.malformed(label(r));
                continue;
            };
            let valid = r["result"].as_str() == Some("valid");
            let (_, accepted, _) = f(&key, &msg, &tag);
            t.check(accepted == valid, || label(r));
        }
    }
    t
}

/// HMAC over every hash against RFC 2104 §2's formula,
/// `H(K ⊕ opad ‖ H(K ⊕ ipad ‖ text))`, computed on the reference rungs, for
/// random keys (shorter than, equal to and longer than a block) and
/// messages fed in two `update` calls.
fn cross_check(rng: &mut Rng) -> Tally {
    let mut t = Tally::default();
    for prf in prfs() {
        for i in 0..CASES {
            let (key, msg) = (rng.bytes_below(300), rng.bytes_below(400));
            let cut = rng.index(msg.len() + 1);
            t.check(
                (prf.hmac)(&key, &msg, cut) == (prf.formula)(&key, &msg),
                || {
                    format!(
                        "HMAC-{} case {i}: {}-byte key, {}-byte message cut at {cut}",
                        prf.name,
                        key.len(),
                        msg.len()
                    )
                },
            );
        }
    }
    t
}

/// HMAC over every hash of `message` under `key`, in two `update` calls
/// cut at `cut`, against RFC 2104's formula on the reference rungs.
pub(crate) fn hmac_case(key: &[u8], message: &[u8], cut: usize) -> Tally {
    let mut t = Tally::default();
    let cut = cut.min(message.len());
    for prf in prfs() {
        t.check(
            (prf.hmac)(key, message, cut) == (prf.formula)(key, message),
            || {
                format!(
                    "HMAC-{}: {}-byte key, {}-byte message",
                    prf.name,
                    key.len(),
                    message.len()
                )
            },
        );
    }
    t
}

/// HMAC-`H` of `msg` in two `update` calls, cut at `cut`.
pub(crate) fn hmac_parts<H: Hash>(key: &[u8], msg: &[u8], cut: usize) -> Vec<u8> {
    let mut mac = Hmac::<H>::new(key);
    mac.update(&msg[..cut]);
    mac.update(&msg[cut..]);
    mac.finalize().as_ref().to_vec()
}

/// RFC 2104 §2 on a hash's reference rung, given as `digest`, whose block
/// is `block` bytes.
pub(crate) fn formula(key: &[u8], msg: &[u8], block: usize, digest: impl Fn(&[u8]) -> Vec<u8>) -> Vec<u8> {
    let mut k0 = if key.len() > block {
        digest(key)
    } else {
        key.to_vec()
    };
    k0.resize(block, 0);
    let pad = |byte: u8| k0.iter().map(|k| k ^ byte).collect::<Vec<u8>>();
    let inner = digest(&[pad(0x36), msg.to_vec()].concat());
    digest(&[pad(0x5c), inner].concat())
}


/// The ladder's fuzz case: a key and a message cut in two, steered by the
/// fuzzer's bytes ([`Rng::from_bytes`]), through HMAC over every hash
/// against RFC 2104's formula ([`hmac_case`]).
pub(crate) fn fuzz(input: &[u8]) -> Tally {
    let mut rng = Rng::from_bytes(input);
    let key = rng.bytes_below(300);
    let message = rng.bytes_below(400);
    let cut = rng.index(message.len() + 1);
    hmac_case(&key, &message, cut)
}
