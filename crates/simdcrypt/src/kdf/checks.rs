//! HMAC, HKDF, PBKDF2 and scrypt: HMAC over the hashes on RFC 2202, RFC
//! 4231 (also on every SHA-256 rung) and Wycheproof (every invalid tag
//! refused); HKDF on RFC 5869 (SHA-256 and SHA-1, through every entry
//! point) and Wycheproof (outputs past 255 hash lengths refused); PBKDF2
//! on RFC 7914 §11; HMAC, HKDF and PBKDF2 over every hash against their
//! RFCs' formulas written out over RFC 2104's, on the hashes' reference
//! rungs; every scrypt rung on RFC 7914 §9 and §10 (in every lane
//! grouping) and §12 (all but the 1 GiB case), and against the `scalar`
//! rung on random small parameters.

use std::sync::OnceLock;

use serde_json::Value;

use crate::Error;
use crate::hash::{Hash, Md5, Sha1, Sha224, Sha256, Sha384, Sha512, Sha512_256};
use crate::hmac::Hmac;
use crate::kdf::{self, Hkdf, scrypt};
use crate::kit::vectors::{hex_field, label, number_field, parse, records, wycheproof_tests};
use crate::kit::{Check, ChosenRungs, Outcome, Report, Rng, Tally};

const HMAC_RFC2202: &str = include_str!("../../tests/data/kdf/hmac_rfc2202.json");
const HMAC_RFC4231: &str = include_str!("../../tests/data/kdf/hmac_rfc4231.json");
const HKDF_RFC5869: &str = include_str!("../../tests/data/kdf/hkdf_rfc5869.json");
const SCRYPT_RFC7914: &str = include_str!("../../tests/data/kdf/scrypt_rfc7914.json");
const WYCHEPROOF_HMAC_SHA1: &str = include_str!("../../tests/data/wycheproof/hmac_sha1_test.json");
const WYCHEPROOF_HMAC_SHA256: &str =
    include_str!("../../tests/data/wycheproof/hmac_sha256_test.json");
const WYCHEPROOF_HMAC_SHA512: &str =
    include_str!("../../tests/data/wycheproof/hmac_sha512_test.json");
const WYCHEPROOF_HKDF_SHA256: &str =
    include_str!("../../tests/data/wycheproof/hkdf_sha256_test.json");

/// Random HMAC cases per hash against RFC 2104's formula.
const HMAC_CASES: usize = 100;
/// Random HKDF and PBKDF2 cases per hash against their formulas.
const KDF_CASES: usize = 24;
/// Random scrypt cases per rung against `scalar`.
const SCRYPT_CASES: usize = 12;
/// RFC 7914 §12's largest case (N = 2^20, r = 8: 1 GiB) is left to the
/// test suite (`cargo test -- --ignored`).
const SCRYPT_MAX_LOG_N: u64 = 14;

/// The files, parsed on first use.
fn files() -> &'static Files {
    static FILES: OnceLock<Files> = OnceLock::new();
    FILES.get_or_init(|| Files {
        rfc2202: parse(HMAC_RFC2202),
        rfc4231: parse(HMAC_RFC4231),
        rfc5869: parse(HKDF_RFC5869),
        rfc7914: parse(SCRYPT_RFC7914),
        wycheproof_sha1: parse(WYCHEPROOF_HMAC_SHA1),
        wycheproof_sha256: parse(WYCHEPROOF_HMAC_SHA256),
        wycheproof_sha512: parse(WYCHEPROOF_HMAC_SHA512),
        wycheproof_hkdf: parse(WYCHEPROOF_HKDF_SHA256),
    })
}

/// HMAC's ladder: one row, over every hash.
pub(crate) fn hmac(report: &mut Report) {
    let files = files();
    report.primitive("hmac", |ChosenRungs, seeds| {
        seeds.each(|check| match check {
            Check::Vectors => hmac_vectors(files).vectors(),
            Check::CrossCheck => Outcome::Ran(hmac_cross_check(&mut seeds.rng(1))),
            Check::RoundTrip => Outcome::NotApplicable("a MAC: no round trip"),
        })
    });
}

/// The KDFs' ladder: HKDF and PBKDF2.
pub(crate) fn kdfs(report: &mut Report) {
    let files = files();
    report.primitive("hkdf", |ChosenRungs, seeds| {
        seeds.each(|check| match check {
            Check::Vectors => hkdf_vectors(files).vectors(),
            Check::CrossCheck => Outcome::Ran(hkdf_cross_check(&mut seeds.rng(1))),
            Check::RoundTrip => Outcome::NotApplicable("a KDF: no round trip"),
        })
    });
    report.primitive("pbkdf2", |ChosenRungs, seeds| {
        seeds.each(|check| match check {
            Check::Vectors => pbkdf2_vectors(&files.rfc7914).vectors(),
            Check::CrossCheck => Outcome::Ran(pbkdf2_cross_check(&mut seeds.rng(1))),
            Check::RoundTrip => Outcome::NotApplicable("a KDF: no round trip"),
        })
    });
}

/// scrypt's ladder.
pub(crate) fn scrypt_rows(report: &mut Report) {
    let files = files();
    report.primitive("scrypt", |imp: scrypt::Rung, seeds| {
        seeds.each(|check| match check {
            Check::Vectors => scrypt_vectors(&files.rfc7914, imp).vectors(),
            Check::CrossCheck => Outcome::Ran(scrypt_cross_check(imp, &mut seeds.rng(1))),
            Check::RoundTrip => Outcome::NotApplicable("a KDF: no round trip"),
        })
    });
}

/// HKDF from a salt, an input key and an info into an output.
type HkdfFn = fn(&[u8], &[u8], &[u8], &mut [u8]) -> Result<(), Error>;
/// HKDF-Expand from a PRK and an info into an output.
type ExpandFn = fn(&[u8], &[u8], &mut [u8]) -> Result<(), Error>;
/// PBKDF2 from a password, a salt and a round count into an output.
type Pbkdf2Fn = fn(&[u8], &[u8], u32, &mut [u8]) -> Result<(), Error>;

/// One hash's HMAC, HKDF and PBKDF2 as the checks call them, and RFC
/// 2104's formula on the hash's reference rung.
struct Prf {
    /// The hash, as its specification (and the vector files) name it.
    name: &'static str,
    /// Its digest length.
    output_len: usize,
    /// HMAC of a message in two `update` calls, cut at a point.
    hmac: fn(&[u8], &[u8], usize) -> Vec<u8>,
    /// RFC 2104 §2's formula on the hash's reference rung.
    formula: fn(&[u8], &[u8]) -> Vec<u8>,
    /// HKDF-Extract: the PRK of a salt and an input key.
    extract: fn(&[u8], &[u8]) -> Vec<u8>,
    /// HKDF (`Hkdf::new` then `expand`) of a salt, an input key, an info.
    hkdf: HkdfFn,
    /// HKDF-Expand from a PRK (`Hkdf::from_prk`).
    expand: ExpandFn,
    /// PBKDF2-HMAC of a password, a salt, a round count.
    pbkdf2: Pbkdf2Fn,
}

/// The [`Prf`] of `$Hash`, whose rungs are `$Rung` (the reference first).
macro_rules! prf {
    ($Hash:ty, $Rung:ty) => {
        Prf {
            name: <$Hash as Hash>::NAME,
            output_len: <$Hash as Hash>::OUTPUT_LEN,
            hmac: hmac_parts::<$Hash>,
            formula: |key, msg| {
                formula(key, msg, <$Hash as Hash>::BLOCK_LEN, |m| {
                    let mut h = <$Hash>::new()
                        .with_rung(<$Rung>::ALL[0])
                        .expect("the reference runs anywhere");
                    h.update(m);
                    h.finalize().to_vec()
                })
            },
            extract: |salt, ikm| Hkdf::<$Hash>::extract(salt, ikm).as_ref().to_vec(),
            hkdf: |salt, ikm, info, okm| Hkdf::<$Hash>::new(salt, ikm).expand(info, okm),
            expand: |prk, info, okm| Hkdf::<$Hash>::from_prk(prk)?.expand(info, okm),
            pbkdf2: kdf::pbkdf2_hmac::<$Hash>,
        }
    };
}

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

/// The vector files of this module, parsed.
struct Files {
    rfc2202: Value,
    rfc4231: Value,
    rfc5869: Value,
    rfc7914: Value,
    wycheproof_sha1: Value,
    wycheproof_sha256: Value,
    wycheproof_sha512: Value,
    wycheproof_hkdf: Value,
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
fn hmac_vectors(files: &Files) -> Tally {
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
fn hmac_cross_check(rng: &mut Rng) -> Tally {
    let mut t = Tally::default();
    for prf in prfs() {
        for i in 0..HMAC_CASES {
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

/// HKDF (RFC 5869 §2.2–§2.3) of `prf`'s formula written out: the PRK is
/// HMAC(salt, IKM) (an empty salt is HashLen zeros, which HMAC pads to the
/// same key), then `T(i) = HMAC(PRK, T(i−1) ‖ info ‖ i)`; `None` past 255
/// blocks.
fn hkdf_formula(prf: &Prf, salt: &[u8], ikm: &[u8], info: &[u8], len: usize) -> Option<Vec<u8>> {
    if len > 255 * prf.output_len {
        return None;
    }
    let prk = (prf.formula)(salt, ikm);
    let (mut okm, mut t) = (Vec::new(), Vec::new());
    for i in 1..=len.div_ceil(prf.output_len) {
        t = (prf.formula)(&prk, &[&t[..], info, &[i as u8]].concat());
        okm.extend_from_slice(&t);
    }
    okm.truncate(len);
    Some(okm)
}

/// PBKDF2 (RFC 8018 §5.2) of `prf`'s formula written out: `T_i = U_1 ⊕ …
/// ⊕ U_c`, `U_1 = PRF(P, S ‖ INT(i))`, `U_j = PRF(P, U_{j−1})`.
fn pbkdf2_formula(prf: &Prf, password: &[u8], salt: &[u8], rounds: u32, len: usize) -> Vec<u8> {
    let mut dk = Vec::new();
    for i in 1..=len.div_ceil(prf.output_len) as u32 {
        let mut u = (prf.formula)(password, &[salt, &i.to_be_bytes()].concat());
        let mut block = u.clone();
        for _ in 1..rounds {
            u = (prf.formula)(password, &u);
            block.iter_mut().zip(&u).for_each(|(b, u)| *b ^= u);
        }
        dk.extend_from_slice(&block);
    }
    dk.truncate(len);
    dk
}

/// HKDF over every hash of `salt`, `ikm` and `info` to `len` bytes, through
/// `Hkdf::new` then `expand` and through `extract` then `from_prk`,
/// against RFC 5869 written out over RFC 2104's formula on the reference
/// rungs; past 255 hash lengths both must refuse.
pub(crate) fn hkdf_case(salt: &[u8], ikm: &[u8], info: &[u8], len: usize) -> Tally {
    let mut t = Tally::default();
    for prf in prfs() {
        check_hkdf(&prf, (salt, ikm, info), len, &mut t, String::new);
    }
    t
}

/// [`hkdf_case`] for one hash; `what` names the case in a failure.
fn check_hkdf(
    prf: &Prf,
    (salt, ikm, info): (&[u8], &[u8], &[u8]),
    len: usize,
    t: &mut Tally,
    what: impl FnOnce() -> String,
) {
    let want = hkdf_formula(prf, salt, ikm, info, len);
    let run = |f: &dyn Fn(&mut [u8]) -> Result<(), Error>| {
        let mut okm = vec![0u8; len];
        f(&mut okm).ok().map(|()| okm)
    };
    let new = run(&|okm| (prf.hkdf)(salt, ikm, info, okm));
    let prk = (prf.extract)(salt, ikm);
    let from_prk = run(&|okm| (prf.expand)(&prk, info, okm));
    t.check(new == want && from_prk == want, || {
        format!(
            "HKDF-{}{}: {}-byte salt, {}-byte IKM, {}-byte info, {len} bytes{}",
            prf.name,
            what(),
            salt.len(),
            ikm.len(),
            info.len(),
            if want.is_none() {
                " (must be refused)"
            } else {
                ""
            }
        )
    });
}

/// HKDF over every hash on random salts, input keys, infos and lengths
/// (some past 255 hash lengths) against RFC 5869's formula.
fn hkdf_cross_check(rng: &mut Rng) -> Tally {
    let mut t = Tally::default();
    for prf in prfs() {
        for i in 0..KDF_CASES {
            let (salt, ikm) = (rng.bytes_below(150), rng.bytes_below(150));
            let info = rng.bytes_below(80);
            let len = match i % 8 {
                0 => 255 * prf.output_len + rng.index(2),
                _ => rng.index(4 * prf.output_len + 2),
            };
            check_hkdf(&prf, (&salt, &ikm, &info), len, &mut t, || {
                format!(" case {i}")
            });
        }
    }
    t
}

/// PBKDF2 over every hash of `password` and `salt` with `rounds` to
/// `len` bytes against RFC 8018's formula on the reference rungs (a round
/// count of 0 must be refused).
pub(crate) fn pbkdf2_case(password: &[u8], salt: &[u8], rounds: u32, len: usize) -> Tally {
    let mut t = Tally::default();
    for prf in prfs() {
        let mut dk = vec![0u8; len];
        let got = (prf.pbkdf2)(password, salt, rounds, &mut dk).map(|()| dk);
        let want = (rounds > 0).then(|| pbkdf2_formula(&prf, password, salt, rounds, len));
        t.check(got.ok() == want, || {
            format!("PBKDF2-HMAC-{}: {rounds} rounds, {len} bytes", prf.name)
        });
    }
    t
}

/// PBKDF2 over every hash on random passwords, salts, round counts (1 to
/// 4, so that every `U_j` step runs) and lengths against RFC 8018's
/// formula; a round count of 0 refused.
fn pbkdf2_cross_check(rng: &mut Rng) -> Tally {
    let mut t = Tally::default();
    for prf in prfs() {
        for i in 0..KDF_CASES {
            let (password, salt) = (rng.bytes_below(150), rng.bytes_below(80));
            let (rounds, len) = (1 + rng.index(4) as u32, rng.index(3 * prf.output_len + 2));
            let mut dk = vec![0u8; len];
            let ok = (prf.pbkdf2)(&password, &salt, rounds, &mut dk).is_ok();
            t.check(
                ok && dk == pbkdf2_formula(&prf, &password, &salt, rounds, len),
                || {
                    format!(
                        "PBKDF2-HMAC-{} case {i}: {}-byte password, {}-byte salt, \
                         {rounds} rounds, {len} bytes",
                        prf.name,
                        password.len(),
                        salt.len()
                    )
                },
            );
        }
        let refused = (prf.pbkdf2)(b"p", b"s", 0, &mut [0; 8]).is_err();
        t.check(refused, || {
            format!("PBKDF2-HMAC-{}: 0 rounds refused", prf.name)
        });
    }
    t
}

/// HMAC-`H` of `msg` in two `update` calls, cut at `cut`.
fn hmac_parts<H: Hash>(key: &[u8], msg: &[u8], cut: usize) -> Vec<u8> {
    let mut mac = Hmac::<H>::new(key);
    mac.update(&msg[..cut]);
    mac.update(&msg[cut..]);
    mac.finalize().as_ref().to_vec()
}

/// RFC 2104 §2 on a hash's reference rung, given as `digest`, whose block
/// is `block` bytes.
fn formula(key: &[u8], msg: &[u8], block: usize, digest: impl Fn(&[u8]) -> Vec<u8>) -> Vec<u8> {
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

/// RFC 5869's cases (SHA-256 and SHA-1: the PRK, and the OKM through
/// `Hkdf::new`, `from_prk` and, for SHA-256, `hkdf_sha256`) and
/// Wycheproof's HKDF-SHA-256: valid outputs made, outputs past 255·HashLen
/// refused.
fn hkdf_vectors(files: &Files) -> Tally {
    let mut t = Tally::default();
    let prfs = prfs();
    for r in records(&files.rfc5869, "test_cases") {
        let prf = prfs.iter().find(|p| r["hash"] == p.name);
        let fields = (
            hex_field(r, "ikm"),
            hex_field(r, "salt"),
            hex_field(r, "info"),
            hex_field(r, "prk"),
            hex_field(r, "okm"),
        );
        let (Some(prf), (Some(ikm), Some(salt), Some(info), Some(prk), Some(okm))) = (prf, fields)
        else {
            t.malformed(label(r));
            continue;
        };
        let run = |f: &dyn Fn(&mut [u8]) -> Result<(), Error>| {
            let mut got = vec![0u8; okm.len()];
            f(&mut got).is_ok_and(|()| got == okm)
        };
        let ok = (prf.extract)(&salt, &ikm) == prk
            && run(&|got| (prf.hkdf)(&salt, &ikm, &info, got))
            && run(&|got| (prf.expand)(&prk, &info, got))
            && (prf.name != Sha256::NAME || run(&|got| kdf::hkdf_sha256(&salt, &ikm, &info, got)));
        t.check(ok, || {
            format!("RFC 5869 case {} ({})", r["test_case"], prf.name)
        });
    }
    for r in wycheproof_tests(&files.wycheproof_hkdf) {
        let fields = (
            hex_field(r, "ikm"),
            hex_field(r, "salt"),
            hex_field(r, "info"),
            number_field(r, "size").and_then(|n| usize::try_from(n).ok()),
            hex_field(r, "okm"),
        );
        let (Some(ikm), Some(salt), Some(info), Some(size), Some(okm)) = fields else {
            t.malformed(label(r));
            continue;
        };
        let mut got = vec![0u8; size];
        let result = kdf::hkdf_sha256(&salt, &ikm, &info, &mut got);
        let ok = match r["result"].as_str() {
            Some("valid") => result.is_ok() && got == okm,
            _ => result.is_err(),
        };
        t.check(ok, || label(r));
    }
    t
}

/// RFC 7914 §9 (BlockMix), §10 (ROMix), §11 (PBKDF2, on the best rungs of
/// SHA-256) and §12 (scrypt, N up to 2^14) on `imp`.
fn scrypt_vectors(file: &Value, imp: scrypt::Rung) -> Tally {
    let mut t = Tally::default();
    for r in records(file, "scrypt_block_mix") {
        let fields = (
            number_field(r, "r").and_then(|n| u32::try_from(n).ok()),
            hex_field(r, "input_B0"),
            hex_field(r, "input_B1"),
            hex_field(r, "output_B0"),
            hex_field(r, "output_B1"),
        );
        let (Some(rr), Some(b0), Some(b1), Some(o0), Some(o1)) = fields else {
            t.malformed(label(r));
            continue;
        };
        // Every lane of each group the rung runs gets the same input.
        let (input, want) = ([b0, b1].concat(), [o0, o1].concat());
        for &lanes in imp.lane_widths() {
            let mut out = vec![0u8; lanes * input.len()];
            let ok = scrypt::block_mix(imp, rr, lanes, &input.repeat(lanes), &mut out).is_ok();
            t.check(ok && out == want.repeat(lanes), || {
                format!("BlockMix in {lanes} lanes, {}", label(r))
            });
        }
    }
    for r in records(file, "scrypt_ro_mix") {
        let fields = (
            number_field(r, "r").and_then(|n| u32::try_from(n).ok()),
            number_field(r, "N"),
            hex_field(r, "input"),
            hex_field(r, "output"),
        );
        let (Some(rr), Some(n), Some(b), Some(want)) = fields else {
            t.malformed(label(r));
            continue;
        };
        // 1 to 7 lanes: every combination of groups of 4, 2 and 1.
        for lanes in 1..=7 {
            let mut b = b.repeat(lanes);
            let ok = scrypt::ro_mix_lanes(imp, rr, n.trailing_zeros() as u8, &mut b).is_ok();
            t.check(ok && b == want.repeat(lanes), || {
                format!("ROMix in {lanes} lanes, {}", label(r))
            });
        }
    }
    for r in records(file, "pbkdf2_hmac_sha256") {
        let fields = (
            r["P"].as_str(),
            r["S"].as_str(),
            number_field(r, "c").and_then(|n| u32::try_from(n).ok()),
            hex_field(r, "dk"),
        );
        let (Some(p), Some(s), Some(c), Some(dk)) = fields else {
            t.malformed(label(r));
            continue;
        };
        let mut got = vec![0u8; dk.len()];
        let ok = kdf::pbkdf2_hmac_sha256(p.as_bytes(), s.as_bytes(), c, &mut got).is_ok();
        t.check(ok && got == dk, || format!("PBKDF2, {}", label(r)));
    }
    for r in records(file, "scrypt") {
        let fields = (
            r["P"].as_str(),
            r["S"].as_str(),
            number_field(r, "N").filter(|&n| n.is_power_of_two()),
            number_field(r, "r").and_then(|n| u32::try_from(n).ok()),
            number_field(r, "p").and_then(|n| u32::try_from(n).ok()),
            hex_field(r, "dk"),
        );
        let (Some(pw), Some(salt), Some(n), Some(rr), Some(p), Some(dk)) = fields else {
            t.malformed(label(r));
            continue;
        };
        let log_n = n.trailing_zeros() as u8;
        if u64::from(log_n) > SCRYPT_MAX_LOG_N {
            continue;
        }
        let mut got = vec![0u8; dk.len()];
        let ok = kdf::scrypt::scrypt_with_impl(
            imp,
            pw.as_bytes(),
            salt.as_bytes(),
            log_n,
            rr,
            p,
            &mut got,
        )
        .is_ok();
        t.check(ok && got == dk, || format!("scrypt N={n} r={rr} p={p}"));
        if imp == scrypt::Rung::best() {
            let ok = kdf::scrypt(pw.as_bytes(), salt.as_bytes(), log_n, rr, p, &mut got).is_ok();
            t.check(ok && got == dk, || format!("scrypt() N={n} r={rr} p={p}"));
        }
    }
    t
}

/// `imp` against `scalar` on random small parameters: log N 1–8, r 1–4,
/// p 1–5 (every lane grouping), passwords and salts of random lengths.
fn scrypt_cross_check(imp: scrypt::Rung, rng: &mut Rng) -> Tally {
    let mut t = Tally::default();
    for _ in 0..SCRYPT_CASES {
        let (log_n, r, p) = (
            1 + rng.index(8) as u8,
            1 + rng.index(4) as u32,
            1 + rng.index(5) as u32,
        );
        let (password_len, salt_len) = (rng.index(40), rng.index(40));
        let (password, salt) = (rng.bytes(password_len), rng.bytes(salt_len));
        let len = 1 + rng.index(100);
        let run = |imp| {
            let mut out = vec![0u8; len];
            kdf::scrypt::scrypt_with_impl(imp, &password, &salt, log_n, r, p, &mut out)
                .map(|()| out)
        };
        let (got, want) = (run(imp), run(scrypt::Rung::Scalar));
        t.check(got.is_ok() && got == want, || {
            format!("log_n={log_n} r={r} p={p}, {len} bytes")
        });
        // A kept `Scrypt`, its memory dirtied by another password first.
        let kept = scrypt::Scrypt::new(log_n, r, p)
            .and_then(|s| s.with_rung(imp))
            .and_then(|mut kept| {
                kept.derive(b"another password", &salt, &mut [0; 7])?;
                let mut out = vec![0u8; len];
                kept.derive(&password, &salt, &mut out).map(|()| out)
            });
        t.check(kept == want, || {
            format!("a kept Scrypt, log_n={log_n} r={r} p={p}, {len} bytes")
        });
    }
    t
}

/// scrypt of `password` and `salt` with `log_n`, `r`, `p` to `len` bytes
/// on every rung this CPU runs, against the `scalar` rung (RFC 7914
/// literally).
pub(crate) fn scrypt_case(
    (password, salt): (&[u8], &[u8]),
    (log_n, r, p): (u8, u32, u32),
    len: usize,
) -> Tally {
    let run = |imp| {
        let mut out = vec![0u8; len];
        scrypt::scrypt_with_impl(imp, password, salt, log_n, r, p, &mut out).map(|()| out)
    };
    let want = run(scrypt::Rung::Scalar);
    let mut t = Tally::default();
    for imp in scrypt::Rung::available() {
        t.check(run(imp) == want, || {
            format!("scrypt on {imp}: log_n={log_n} r={r} p={p}, {len} bytes")
        });
    }
    t
}

/// RFC 7914 §11's PBKDF2-HMAC-SHA-256 cases.
fn pbkdf2_vectors(file: &Value) -> Tally {
    let mut t = Tally::default();
    for r in records(file, "pbkdf2_hmac_sha256") {
        let (Some(password), Some(salt), Some(rounds), Some(len), Some(want)) = (
            r["P"].as_str(),
            r["S"].as_str(),
            number_field(r, "c").and_then(|c| u32::try_from(c).ok()),
            number_field(r, "dkLen"),
            hex_field(r, "dk"),
        ) else {
            t.malformed(label(r));
            continue;
        };
        let mut dk = vec![0u8; len as usize];
        let ok = kdf::pbkdf2_hmac_sha256(password.as_bytes(), salt.as_bytes(), rounds, &mut dk)
            .is_ok()
            && dk == want;
        t.check(ok, || format!("c = {rounds}, {len} bytes"));
    }
    t
}
