//! HKDF (RFC 5869 Appendix A, Wycheproof), PBKDF2 and scrypt (RFC 7914
//! §8–§12, every rung), scrypt's rungs against the scalar one on random
//! small parameters, and the rejection of every bad parameter.

mod common;

use common::{bytes, field, hex, json, number, records};
use proptest::prelude::*;
use simdcrypt::Error;
use simdcrypt::hash::{Hash, Sha1, Sha256};
use simdcrypt::kdf::scrypt::{self, Impl};
use simdcrypt::kdf::{Hkdf, hkdf_sha256, hkdf_sha512, pbkdf2_hmac, pbkdf2_hmac_sha256};

/// The scrypt rungs this CPU runs, saying in the log which were skipped.
fn rungs(test: &str) -> Vec<Impl> {
    common::rungs(test)
}

/// A one-shot HKDF: `(salt, ikm, info, okm)`.
type HkdfOneShot = fn(&[u8], &[u8], &[u8], &mut [u8]) -> Result<(), Error>;

/// RFC 5869 Appendix A's cases for `H` (by its name in the file), through
/// extract, expand and the one-shot where there is one.
fn hkdf_rfc5869<H: Hash>(one_shot: Option<HkdfOneShot>) {
    let file = json(include_str!("data/kdf/hkdf_rfc5869.json"));
    let cases: Vec<_> = records(&file, "test_cases")
        .iter()
        .filter(|c| field(c, "hash") == H::NAME)
        .collect();
    assert!(!cases.is_empty(), "no RFC 5869 cases for {}", H::NAME);
    for case in cases {
        let (ikm, salt, info) = (
            hex(field(case, "ikm")),
            hex(field(case, "salt")),
            hex(field(case, "info")),
        );
        let okm_want = hex(field(case, "okm"));
        assert_eq!(
            Hkdf::<H>::extract(&salt, &ikm).as_ref(),
            hex(field(case, "prk")),
            "{} PRK, case {}",
            H::NAME,
            case["test_case"]
        );
        let mut okm = vec![0u8; number(case, "L") as usize];
        Hkdf::<H>::new(&salt, &ikm).expand(&info, &mut okm).unwrap();
        assert_eq!(okm, okm_want, "{} OKM, case {}", H::NAME, case["test_case"]);
        let mut okm = vec![0u8; okm_want.len()];
        Hkdf::<H>::from_prk(&hex(field(case, "prk")))
            .unwrap()
            .expand(&info, &mut okm)
            .unwrap();
        assert_eq!(okm, okm_want);
        if let Some(f) = one_shot {
            let mut okm = vec![0u8; okm_want.len()];
            f(&salt, &ikm, &info, &mut okm).unwrap();
            assert_eq!(okm, okm_want);
        }
    }
}

/// Every test of a Wycheproof HKDF file for `H`, the invalid (too long)
/// outputs included.
fn hkdf_wycheproof<H: Hash>(text: &str) {
    let file = json(text);
    let mut count = 0;
    for group in records(&file, "testGroups") {
        for test in records(group, "tests") {
            count += 1;
            let id = &test["tcId"];
            let size = number(test, "size") as usize;
            let mut okm = vec![0u8; size];
            let result = Hkdf::<H>::new(&hex(field(test, "salt")), &hex(field(test, "ikm")))
                .expand(&hex(field(test, "info")), &mut okm);
            match field(test, "result") {
                "valid" => {
                    result.unwrap_or_else(|e| panic!("tcId {id}: {e}"));
                    assert_eq!(okm, hex(field(test, "okm")), "tcId {id}");
                }
                _ => assert_eq!(
                    result,
                    Err(Error::KdfOutputTooLong {
                        kdf: "HKDF",
                        len: size as u64,
                        max: 255 * H::OUTPUT_LEN as u64
                    }),
                    "tcId {id}"
                ),
            }
        }
    }
    assert_eq!(count, number(&file, "numberOfTests"));
}

#[test]
fn hkdf_sha256_rfc5869() {
    hkdf_rfc5869::<Sha256>(Some(hkdf_sha256));
}

#[test]
fn hkdf_sha1_rfc5869() {
    // RFC 5869 A.4–A.7 are HKDF-SHA-1.
    hkdf_rfc5869::<Sha1>(None);
}

#[test]
fn hkdf_sha256_wycheproof() {
    hkdf_wycheproof::<Sha256>(include_str!("data/wycheproof/hkdf_sha256_test.json"));
}

#[test]
fn hkdf_against_rustcrypto() {
    for (salt_len, ikm_len, info_len, okm_len) in [
        (0, 0, 0, 0),
        (0, 1, 0, 32),
        (13, 77, 200, 33),
        (200, 10, 1, 8160),
    ] {
        let (salt, ikm, info) = (bytes(1, salt_len), bytes(2, ikm_len), bytes(3, info_len));
        let mut want = vec![0u8; okm_len];
        hkdf::Hkdf::<sha2::Sha256>::new(Some(&salt), &ikm)
            .expand(&info, &mut want)
            .unwrap();
        let mut got = vec![0u8; okm_len];
        hkdf_sha256(&salt, &ikm, &info, &mut got).unwrap();
        assert_eq!(
            got, want,
            "salt {salt_len}, ikm {ikm_len}, info {info_len}, okm {okm_len}"
        );
        // HKDF-SHA-512: no official vectors here, so RustCrypto is the
        // reference (its limit is 255 · 64 bytes).
        let mut want = vec![0u8; okm_len];
        hkdf::Hkdf::<sha2::Sha512>::new(Some(&salt), &ikm)
            .expand(&info, &mut want)
            .unwrap();
        let mut got = vec![0u8; okm_len];
        hkdf_sha512(&salt, &ikm, &info, &mut got).unwrap();
        assert_eq!(
            got, want,
            "SHA-512: salt {salt_len}, ikm {ikm_len}, okm {okm_len}"
        );
    }
    let mut too_long = vec![0u8; 255 * 64 + 1];
    assert!(hkdf_sha512(b"", b"ikm", b"", &mut too_long).is_err());
}

#[test]
fn hkdf_rejects_a_short_prk() {
    assert!(matches!(
        Hkdf::<Sha256>::from_prk(&[0; 31]),
        Err(Error::KdfParameter {
            parameter: "PRK length",
            value: 31,
            ..
        })
    ));
}

/// RFC 7914's test vectors file.
fn rfc7914() -> serde_json::Value {
    json(include_str!("data/kdf/scrypt_rfc7914.json"))
}

#[test]
fn pbkdf2_hmac_sha256_rfc7914() {
    let file = rfc7914();
    for case in records(&file, "pbkdf2_hmac_sha256") {
        let mut dk = vec![0u8; number(case, "dkLen") as usize];
        let rounds = number(case, "c") as u32;
        pbkdf2_hmac_sha256(
            field(case, "P").as_bytes(),
            field(case, "S").as_bytes(),
            rounds,
            &mut dk,
        )
        .unwrap();
        assert_eq!(dk, hex(field(case, "dk")), "c = {rounds}");
    }
}

#[test]
fn pbkdf2_against_rustcrypto_and_rejections() {
    for (len, rounds) in [(0, 1), (1, 1), (31, 2), (32, 3), (33, 100), (100, 7)] {
        let mut want = vec![0u8; len];
        pbkdf2::pbkdf2_hmac::<sha2::Sha256>(b"pass", b"salt!", rounds, &mut want);
        let mut got = vec![0u8; len];
        pbkdf2_hmac::<Sha256>(b"pass", b"salt!", rounds, &mut got).unwrap();
        assert_eq!(got, want, "{len} bytes, {rounds} rounds");
    }
    assert!(matches!(
        pbkdf2_hmac_sha256(b"p", b"s", 0, &mut [0; 32]),
        Err(Error::KdfParameter {
            kdf: "PBKDF2",
            value: 0,
            ..
        })
    ));
}

#[test]
fn scrypt_salsa20_8_core_rfc7914() {
    let file = rfc7914();
    let case = &file["salsa20_8_core"];
    let words = |h: &str| -> [u32; 16] {
        let b = hex(h);
        std::array::from_fn(|i| u32::from_le_bytes(b[4 * i..4 * i + 4].try_into().unwrap()))
    };
    assert_eq!(
        simdcrypt::salsa20::core(&words(field(case, "input")), 4),
        words(field(case, "output"))
    );
}

#[test]
#[cfg(feature = "hazmat")]
fn scrypt_block_mix_rfc7914() {
    let file = rfc7914();
    let case = &file["scrypt_block_mix"];
    let r = number(case, "r") as u32;
    let (input, want) = (hex(field(case, "input")), hex(field(case, "output")));
    for imp in rungs("scrypt_block_mix_rfc7914") {
        // Every lane of each group the rung runs gets the same input.
        for &lanes in imp.lane_widths() {
            let mut out = vec![0u8; lanes * input.len()];
            scrypt::block_mix(imp, r, lanes, &input.repeat(lanes), &mut out).unwrap();
            for lane in out.chunks(input.len()) {
                assert_eq!(lane, want, "{imp}, {lanes} lanes");
            }
        }
    }
}

#[test]
#[cfg(feature = "hazmat")]
fn scrypt_ro_mix_rfc7914() {
    let file = rfc7914();
    let case = &file["scrypt_ro_mix"];
    let r = number(case, "r") as u32;
    let log_n = number(case, "N").trailing_zeros() as u8;
    let (input, want) = (hex(field(case, "input")), hex(field(case, "output")));
    for imp in rungs("scrypt_ro_mix_rfc7914") {
        // 1 to 7 lanes: every combination of groups of 4, 2 and 1.
        for lanes in 1..=7 {
            let mut b = input.repeat(lanes);
            scrypt::ro_mix_lanes(imp, r, log_n, &mut b).unwrap();
            for lane in b.chunks(input.len()) {
                assert_eq!(lane, want, "{imp}, {lanes} lanes");
            }
        }
    }
}

/// RFC 7914 §12's vectors with `N` in `min_n..=max_n` on the default
/// rung, and on every rung when `every_rung`.
fn scrypt_rfc7914(max_n: u64, min_n: u64, every_rung: bool) {
    let file = rfc7914();
    for case in records(&file, "scrypt") {
        let n = number(case, "N");
        if !(min_n..=max_n).contains(&n) {
            continue;
        }
        let (r, p) = (number(case, "r") as u32, number(case, "p") as u32);
        let mut dk = hex(field(case, "dk"));
        let all = if every_rung {
            rungs("scrypt_rfc7914")
        } else {
            Vec::new()
        };
        for imp in all {
            let (password, salt) = (field(case, "P").as_bytes(), field(case, "S").as_bytes());
            scrypt::scrypt_with_impl(imp, password, salt, n.trailing_zeros() as u8, r, p, &mut dk)
                .unwrap();
            assert_eq!(
                dk,
                hex(field(case, "dk")),
                "{imp}, N = {n}, r = {r}, p = {p}"
            );
        }
        let mut best = vec![0u8; dk.len()];
        simdcrypt::kdf::scrypt(
            field(case, "P").as_bytes(),
            field(case, "S").as_bytes(),
            n.trailing_zeros() as u8,
            r,
            p,
            &mut best,
        )
        .unwrap();
        assert_eq!(best, dk);
    }
}

#[test]
fn scrypt_rfc7914_section12() {
    scrypt_rfc7914(1 << 14, 0, true);
}

/// N = 2^20, r = 8: 1 GiB of V, about 4 s a rung here, so only on the
/// default rung (every rung meets the smaller N above and the property
/// tests against `scalar`).
#[test]
fn scrypt_rfc7914_section12_n_2_20() {
    scrypt_rfc7914(1 << 20, 1 << 20, false);
}

#[test]
fn scrypt_against_rustcrypto() {
    for (log_n, r, p, len) in [(1, 1, 1, 1), (4, 1, 3, 64), (6, 3, 2, 100), (7, 2, 5, 31)] {
        // RustCrypto's `len` is only its recommended output length (10..=64).
        let params = ::scrypt::Params::new(log_n, r, p, 32).unwrap();
        let mut want = vec![0u8; len];
        ::scrypt::scrypt(b"password", b"salt", &params, &mut want).unwrap();
        let mut got = vec![0u8; len];
        simdcrypt::kdf::scrypt(b"password", b"salt", log_n, r, p, &mut got).unwrap();
        assert_eq!(got, want, "log_n {log_n}, r {r}, p {p}");
    }
}

/// The error `scrypt` gives for these parameters on every rung (the same
/// on each), with a 64-byte output.
fn scrypt_error(log_n: u8, r: u32, p: u32) -> Error {
    let mut errors = Impl::available().map(|imp| {
        scrypt::scrypt_with_impl(imp, b"pw", b"salt", log_n, r, p, &mut [0u8; 64]).unwrap_err()
    });
    let first = errors.next().unwrap();
    assert!(errors.all(|e| e == first));
    first
}

#[test]
fn scrypt_rejects_bad_parameters() {
    let parameter = |e: Error| match e {
        Error::KdfParameter {
            kdf: "scrypt",
            parameter,
            ..
        } => parameter,
        other => panic!("expected a scrypt parameter error, got {other}"),
    };
    assert_eq!(parameter(scrypt_error(0, 8, 1)), "log_n");
    assert_eq!(parameter(scrypt_error(16, 1, 1)), "log_n");
    assert_eq!(parameter(scrypt_error(255, 15, 1)), "log_n");
    assert_eq!(parameter(scrypt_error(10, 0, 1)), "r");
    assert_eq!(parameter(scrypt_error(10, 8, 0)), "p");
    assert_eq!(parameter(scrypt_error(10, 1 << 15, 1 << 15)), "p");
    assert_eq!(parameter(scrypt_error(10, (1 << 30) - 1, 2)), "p");
    // The limits themselves pass the checks (and then ask for memory).
    assert!(matches!(scrypt_error(63, 4, 1), Error::OutOfMemory { .. }));
    assert!(matches!(
        scrypt_error(255, 16, 1),
        Error::OutOfMemory { .. }
    ));
    // 128 · r · N beyond any address space.
    assert!(matches!(scrypt_error(60, 8, 1), Error::OutOfMemory { .. }));
    // More than an allocator gives: 2^48 bytes.
    assert!(matches!(scrypt_error(41, 8, 1), Error::OutOfMemory { .. }));
    // A message says what was wrong.
    let message = scrypt_error(16, 1, 1).to_string();
    assert!(
        message.contains("log_n = 16") && message.contains("16·r = 16"),
        "{message}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Every rung equals the scalar one on small random parameters,
    /// passwords, salts and output lengths.
    #[test]
    fn scrypt_rungs_equal_scalar(
        log_n in 1u8..=8,
        r in 1u32..=4,
        p in 1u32..=4,
        password in proptest::collection::vec(any::<u8>(), 0..80),
        salt in proptest::collection::vec(any::<u8>(), 0..80),
        len in 1usize..100,
    ) {
        let mut want = vec![0u8; len];
        scrypt::scrypt_with_impl(Impl::Scalar, &password, &salt, log_n, r, p, &mut want).unwrap();
        for imp in Impl::available() {
            let mut got = vec![0u8; len];
            scrypt::scrypt_with_impl(imp, &password, &salt, log_n, r, p, &mut got).unwrap();
            prop_assert_eq!(&got, &want, "{} log_n {} r {} p {}", imp, log_n, r, p);
        }
    }
}
