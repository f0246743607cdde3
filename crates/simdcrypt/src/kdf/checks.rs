//! HKDF, PBKDF2 and scrypt: HKDF on RFC 5869 (SHA-256 and SHA-1, through
//! every entry point) and Wycheproof (outputs past 255 hash lengths
//! refused); PBKDF2 on RFC 7914 §11; HKDF and PBKDF2 over every hash
//! against their RFCs' formulas written out over RFC 2104's (HMAC's
//! checks', `hmac/checks.rs`), on the hashes' reference rungs; every scrypt rung on RFC 7914 §9 and §10 (in every lane
//! grouping) and §12 (all but the 1 GiB case), and against the `scalar`
//! rung on random small parameters.

use std::sync::OnceLock;

use serde_json::Value;

use crate::Error;
use crate::hash::{Hash, Md5, Sha1, Sha224, Sha256, Sha384, Sha512, Sha512_256};
use crate::hmac::checks::{Prf, prf};
use crate::kdf::{self, Hkdf, scrypt};
use crate::harness::vectors::{hex_field, label, number_field, parse, records, wycheproof_tests};
use crate::harness::{Check, ChosenRungs, Outcome, Report, Rng, Tally};

const HKDF_RFC5869: &str = include_str!("../../tests/data/kdf/hkdf_rfc5869.json");
const SCRYPT_RFC7914: &str = include_str!("../../tests/data/kdf/scrypt_rfc7914.json");
const WYCHEPROOF_HKDF_SHA256: &str =
    include_str!("../../tests/data/wycheproof/hkdf_sha256_test.json");

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
        rfc5869: parse(HKDF_RFC5869),
        rfc7914: parse(SCRYPT_RFC7914),
        wycheproof_hkdf: parse(WYCHEPROOF_HKDF_SHA256),
    })
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

/// One hash's HKDF and PBKDF2 as the checks call them, beside its HMAC
/// and RFC 2104's formula.
struct Kdf {
    /// The hash's HMAC and RFC 2104's formula.
    prf: Prf,
    /// HKDF-Extract: the PRK of a salt and an input key.
    extract: fn(&[u8], &[u8]) -> Vec<u8>,
    /// HKDF (`Hkdf::new` then `expand`) of a salt, an input key, an info.
    hkdf: HkdfFn,
    /// HKDF-Expand from a PRK (`Hkdf::from_prk`).
    expand: ExpandFn,
    /// PBKDF2-HMAC of a password, a salt, a round count.
    pbkdf2: Pbkdf2Fn,
}

/// The [`Kdf`] of `$Hash`, whose rungs are `$Rung` (the reference first).
macro_rules! kdf {
    ($Hash:ty, $Rung:ty) => {
        Kdf {
            prf: prf!($Hash, $Rung),
            extract: |salt, ikm| Hkdf::<$Hash>::extract(salt, ikm).as_ref().to_vec(),
            hkdf: |salt, ikm, info, okm| Hkdf::<$Hash>::new(salt, ikm).expand(info, okm),
            expand: |prk, info, okm| Hkdf::<$Hash>::from_prk(prk)?.expand(info, okm),
            pbkdf2: kdf::pbkdf2_hmac::<$Hash>,
        }
    };
}

/// Every hash's [`Kdf`].
fn every_kdf() -> [Kdf; 7] {
    use crate::hash::{md5, sha1, sha256, sha512};
    [
        kdf!(Md5, md5::Rung),
        kdf!(Sha1, sha1::Rung),
        kdf!(Sha224, sha256::Rung),
        kdf!(Sha256, sha256::Rung),
        kdf!(Sha384, sha512::Rung),
        kdf!(Sha512, sha512::Rung),
        kdf!(Sha512_256, sha512::Rung),
    ]
}

/// The vector files of this module, parsed.
struct Files {
    rfc5869: Value,
    rfc7914: Value,
    wycheproof_hkdf: Value,
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
    for kdf in every_kdf() {
        check_hkdf(&kdf, (salt, ikm, info), len, &mut t, String::new);
    }
    t
}

/// [`hkdf_case`] for one hash; `what` names the case in a failure.
fn check_hkdf(
    kdf: &Kdf,
    (salt, ikm, info): (&[u8], &[u8], &[u8]),
    len: usize,
    t: &mut Tally,
    what: impl FnOnce() -> String,
) {
    let want = hkdf_formula(&kdf.prf, salt, ikm, info, len);
    let run = |f: &dyn Fn(&mut [u8]) -> Result<(), Error>| {
        let mut okm = vec![0u8; len];
        f(&mut okm).ok().map(|()| okm)
    };
    let new = run(&|okm| (kdf.hkdf)(salt, ikm, info, okm));
    let prk = (kdf.extract)(salt, ikm);
    let from_prk = run(&|okm| (kdf.expand)(&prk, info, okm));
    t.check(new == want && from_prk == want, || {
        format!(
            "HKDF-{}{}: {}-byte salt, {}-byte IKM, {}-byte info, {len} bytes{}",
            kdf.prf.name,
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
    for kdf in every_kdf() {
        for i in 0..KDF_CASES {
            let (salt, ikm) = (rng.bytes_below(150), rng.bytes_below(150));
            let info = rng.bytes_below(80);
            let len = match i % 8 {
                0 => 255 * kdf.prf.output_len + rng.index(2),
                _ => rng.index(4 * kdf.prf.output_len + 2),
            };
            check_hkdf(&kdf, (&salt, &ikm, &info), len, &mut t, || {
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
    for kdf in every_kdf() {
        let mut dk = vec![0u8; len];
        let got = (kdf.pbkdf2)(password, salt, rounds, &mut dk).map(|()| dk);
        let want = (rounds > 0).then(|| pbkdf2_formula(&kdf.prf, password, salt, rounds, len));
        t.check(got.ok() == want, || {
            format!("PBKDF2-HMAC-{}: {rounds} rounds, {len} bytes", kdf.prf.name)
        });
    }
    t
}

/// PBKDF2 over every hash on random passwords, salts, round counts (1 to
/// 4, so that every `U_j` step runs) and lengths against RFC 8018's
/// formula; a round count of 0 refused.
fn pbkdf2_cross_check(rng: &mut Rng) -> Tally {
    let mut t = Tally::default();
    for kdf in every_kdf() {
        for i in 0..KDF_CASES {
            let (password, salt) = (rng.bytes_below(150), rng.bytes_below(80));
            let (rounds, len) = (1 + rng.index(4) as u32, rng.index(3 * kdf.prf.output_len + 2));
            let mut dk = vec![0u8; len];
            let ok = (kdf.pbkdf2)(&password, &salt, rounds, &mut dk).is_ok();
            t.check(
                ok && dk == pbkdf2_formula(&kdf.prf, &password, &salt, rounds, len),
                || {
                    format!(
                        "PBKDF2-HMAC-{} case {i}: {}-byte password, {}-byte salt, \
                         {rounds} rounds, {len} bytes",
                        kdf.prf.name,
                        password.len(),
                        salt.len()
                    )
                },
            );
        }
        let refused = (kdf.pbkdf2)(b"p", b"s", 0, &mut [0; 8]).is_err();
        t.check(refused, || {
            format!("PBKDF2-HMAC-{}: 0 rounds refused", kdf.prf.name)
        });
    }
    t
}

/// RFC 5869's cases (SHA-256 and SHA-1: the PRK, and the OKM through
/// `Hkdf::new`, `from_prk` and, for SHA-256, `hkdf_sha256`) and
/// Wycheproof's HKDF-SHA-256: valid outputs made, outputs past 255·HashLen
/// refused.
fn hkdf_vectors(files: &Files) -> Tally {
    let mut t = Tally::default();
    let kdfs = every_kdf();
    for r in records(&files.rfc5869, "test_cases") {
        let kdf = kdfs.iter().find(|k| r["hash"] == k.prf.name);
        let fields = (
            hex_field(r, "ikm"),
            hex_field(r, "salt"),
            hex_field(r, "info"),
            hex_field(r, "prk"),
            hex_field(r, "okm"),
        );
        let (Some(kdf), (Some(ikm), Some(salt), Some(info), Some(prk), Some(okm))) = (kdf, fields)
        else {
            t.malformed(label(r));
            continue;
        };
        let run = |f: &dyn Fn(&mut [u8]) -> Result<(), Error>| {
            let mut got = vec![0u8; okm.len()];
            f(&mut got).is_ok_and(|()| got == okm)
        };
        let ok = (kdf.extract)(&salt, &ikm) == prk
            && run(&|got| (kdf.hkdf)(&salt, &ikm, &info, got))
            && run(&|got| (kdf.expand)(&prk, &info, got))
            && (kdf.prf.name != Sha256::NAME || run(&|got| kdf::hkdf_sha256(&salt, &ikm, &info, got)));
        t.check(ok, || {
            format!("RFC 5869 case {} ({})", r["test_case"], kdf.prf.name)
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

/// The KDFs' ladder's fuzz case: HKDF or PBKDF2 (the first byte picks) on
/// inputs the fuzzer's bytes steer ([`Rng::from_bytes`]), over every hash
/// against their RFCs' formulas ([`hkdf_case`], [`pbkdf2_case`]); some
/// HKDF lengths past 255 hash lengths, which must be refused.
pub(crate) fn fuzz(input: &[u8]) -> Tally {
    let (hkdf, bytes) = crate::harness::pick(input, &[true, false]);
    let mut rng = Rng::from_bytes(bytes);
    let (a, b) = (rng.bytes_below(150), rng.bytes_below(150));
    if hkdf {
        let info = rng.bytes_below(80);
        hkdf_case(&a, &b, &info, rng.index(255 * 64 + 2))
    } else {
        let rounds = rng.below(4) as u32;
        pbkdf2_case(&a, &b, rounds, rng.index(300))
    }
}

/// scrypt's ladder's fuzz case: a password, a salt, small parameters (log
/// N up to 6, r up to 3, p up to 5) and an output length steered by the
/// fuzzer's bytes, on every rung against `scalar` ([`scrypt_case`]).
pub(crate) fn fuzz_scrypt(input: &[u8]) -> Tally {
    let mut rng = Rng::from_bytes(input);
    let (password, salt) = (rng.bytes_below(100), rng.bytes_below(100));
    let log_n = 1 + rng.below(6) as u8;
    let (r, p) = (1 + rng.below(3) as u32, 1 + rng.below(5) as u32);
    scrypt_case((&password, &salt), (log_n, r, p), 1 + rng.index(80))
}
