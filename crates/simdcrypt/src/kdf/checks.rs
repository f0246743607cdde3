//! HMAC, HKDF, PBKDF2 and scrypt: HMAC over the hashes on RFC 2202, RFC
//! 4231 and Wycheproof (every invalid tag refused), and against RFC 2104's
//! formula computed on the hashes' reference rungs; HKDF on RFC 5869 and
//! Wycheproof (outputs past 255 hash lengths refused); PBKDF2 on RFC 7914
//! §11; every scrypt rung on RFC 7914 §9, §10 and §12 (all but the
//! 1 GiB case) and against the `scalar` rung on random small parameters.

use std::sync::OnceLock;

use serde_json::Value;

use crate::hash::{Hash, Sha1, Sha256};
use crate::hmac::Hmac;
use crate::kdf::{self, Hkdf, scrypt};
use crate::kit::vectors::{hex_field, label, number_field, parse, records, wycheproof_tests};
use crate::kit::{Composed, Outcome, Report, Rng, Tally};

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
const HMAC_CASES: usize = 200;
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
    report.primitive("hmac", |Composed, streams| {
        [
            hmac_vectors(files).vectors(),
            Outcome::Ran(hmac_cross_check(&mut streams.rng(1))),
            Outcome::NotApplicable("a MAC: no round trip"),
        ]
    });
}

/// The KDFs' ladder: HKDF and PBKDF2.
pub(crate) fn kdfs(report: &mut Report) {
    let files = files();
    report.primitive("hkdf", |Composed, _| {
        [
            hkdf_vectors(files).vectors(),
            Outcome::NotApplicable("built on HMAC, cross-checked there"),
            Outcome::NotApplicable("a KDF: no round trip"),
        ]
    });
    report.primitive("pbkdf2", |Composed, _| {
        [
            pbkdf2_vectors(&files.rfc7914).vectors(),
            Outcome::NotApplicable("built on HMAC, cross-checked there"),
            Outcome::NotApplicable("a KDF: no round trip"),
        ]
    });
}

/// scrypt's ladder.
pub(crate) fn scrypt_rows(report: &mut Report) {
    let files = files();
    report.primitive("scrypt", |imp: scrypt::Impl, streams| {
        [
            scrypt_vectors(&files.rfc7914, imp).vectors(),
            Outcome::Ran(scrypt_cross_check(imp, &mut streams.rng(1))),
            Outcome::NotApplicable("a KDF: no round trip"),
        ]
    });
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

/// HMAC-`H` of `msg` under `key`, and `verify_truncated` of `tag` (of any
/// length) against it.
fn hmac_checks<H: Hash>(key: &[u8], msg: &[u8], tag: &[u8]) -> HmacFindings {
    let full = Hmac::<H>::mac(key, msg).as_ref().to_vec();
    let mut mac = Hmac::<H>::new(key);
    mac.update(msg);
    let long_enough = tag.len() >= Hmac::<H>::MIN_TRUNCATED_LEN;
    (full, mac.verify_truncated(tag).is_ok(), long_enough)
}

/// RFC 2202 (SHA-1), RFC 4231 (SHA-224/256 columns) and Wycheproof: valid
/// tags made and accepted, invalid ones refused.
fn hmac_vectors(files: &Files) -> Tally {
    let mut t = Tally::default();
    let mut rfc = |list: &[Value], column: &str, f: fn(&[u8], &[u8], &[u8]) -> HmacFindings| {
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
                format!("{column} case {}", r["test_case"])
            });
        }
    };
    rfc(
        records(&files.rfc2202, "hmac_sha1"),
        "digest",
        hmac_checks::<Sha1>,
    );
    let rfc4231 = records(&files.rfc4231, "test_cases");
    rfc(rfc4231, "hmac_sha_224", hmac_checks::<crate::hash::Sha224>);
    rfc(rfc4231, "hmac_sha_256", hmac_checks::<Sha256>);
    rfc(rfc4231, "hmac_sha_384", hmac_checks::<crate::hash::Sha384>);
    rfc(rfc4231, "hmac_sha_512", hmac_checks::<crate::hash::Sha512>);
    rfc(
        records(&files.rfc2202, "hmac_md5"),
        "digest",
        hmac_checks::<crate::hash::Md5>,
    );
    let wycheproof = [
        (
            &files.wycheproof_sha1,
            hmac_checks::<Sha1> as fn(&[u8], &[u8], &[u8]) -> _,
        ),
        (&files.wycheproof_sha256, hmac_checks::<Sha256>),
        (&files.wycheproof_sha512, hmac_checks::<crate::hash::Sha512>),
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

/// HMAC-SHA-256 and HMAC-SHA-1 against RFC 2104 §2's formula,
/// `H(K ⊕ opad ‖ H(K ⊕ ipad ‖ text))`, computed on the reference rungs, for
/// random keys (shorter than, equal to and longer than a block) and
/// messages fed in two `update` calls.
fn hmac_cross_check(rng: &mut Rng) -> Tally {
    let mut t = Tally::default();
    for i in 0..HMAC_CASES {
        let (key_len, msg_len) = (rng.index(200), rng.index(300));
        let key = rng.bytes(key_len);
        let msg = rng.bytes(msg_len);
        let cut = rng.index(msg.len() + 1);
        t.check(
            hmac_parts::<Sha256>(&key, &msg, cut) == formula_sha256(&key, &msg),
            || {
                format!(
                    "HMAC-SHA-256 case {i}: {}-byte key, {}-byte message",
                    key.len(),
                    msg.len()
                )
            },
        );
        t.check(
            hmac_parts::<Sha1>(&key, &msg, cut) == formula_sha1(&key, &msg),
            || {
                format!(
                    "HMAC-SHA-1 case {i}: {}-byte key, {}-byte message",
                    key.len(),
                    msg.len()
                )
            },
        );
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

/// Declares `$name`, RFC 2104's formula over `$Hash` on its reference rung.
macro_rules! reference_formula {
    ($name:ident, $Hash:ty, $Impl:ty) => {
        fn $name(key: &[u8], msg: &[u8]) -> Vec<u8> {
            formula(key, msg, <$Hash as Hash>::BLOCK_LEN, |m| {
                let mut h = <$Hash>::new()
                    .with_impl(<$Impl>::ALL[0])
                    .expect("the reference runs anywhere");
                h.update(m);
                h.finalize().to_vec()
            })
        }
    };
}

reference_formula!(formula_sha256, Sha256, crate::hash::sha256::Impl);
reference_formula!(formula_sha1, Sha1, crate::hash::sha1::Impl);

/// RFC 5869's SHA-256 cases (PRK and OKM) and Wycheproof's HKDF-SHA-256:
/// valid outputs made, outputs past 255·HashLen refused.
fn hkdf_vectors(files: &Files) -> Tally {
    let mut t = Tally::default();
    for r in records(&files.rfc5869, "test_cases")
        .iter()
        .filter(|r| r["hash"] == "SHA-256")
    {
        let fields = (
            hex_field(r, "ikm"),
            hex_field(r, "salt"),
            hex_field(r, "info"),
            hex_field(r, "prk"),
            hex_field(r, "okm"),
        );
        let (Some(ikm), Some(salt), Some(info), Some(prk), Some(okm)) = fields else {
            t.malformed(label(r));
            continue;
        };
        let got_prk = Hkdf::<Sha256>::extract(&salt, &ikm);
        let mut got = vec![0u8; okm.len()];
        let ok = kdf::hkdf_sha256(&salt, &ikm, &info, &mut got).is_ok();
        t.check(got_prk.as_ref() == &prk[..] && ok && got == okm, || {
            format!("RFC 5869 case {}", r["test_case"])
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
fn scrypt_vectors(file: &Value, imp: scrypt::Impl) -> Tally {
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
    }
    t
}

/// `imp` against `scalar` on random small parameters: log N 1–8, r 1–4,
/// p 1–5 (every lane grouping), passwords and salts of random lengths.
fn scrypt_cross_check(imp: scrypt::Impl, rng: &mut Rng) -> Tally {
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
        let (got, want) = (run(imp), run(scrypt::Impl::Scalar));
        t.check(got.is_ok() && got == want, || {
            format!("log_n={log_n} r={r} p={p}, {len} bytes")
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
