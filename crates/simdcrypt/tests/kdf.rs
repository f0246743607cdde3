//! HKDF, PBKDF2 and scrypt: RFC 7914 §12's 1 GiB scrypt case (on the
//! default rung), RustCrypto's `hkdf`, `pbkdf2` and `scrypt` as
//! independent peers, and the rejection of every bad parameter with the
//! error that says so. (Every rung on RFC 5869, RFC 7914's other vectors
//! and Wycheproof, and against the RFCs' formulas, is the checking kit's:
//! `tests/kit.rs`.)

mod common;

use common::{bytes, field, hex, json, number, records};
use simdcrypt::Error;
use simdcrypt::hash::{Sha256, Sha512};
use simdcrypt::kdf::scrypt::{self, Rung};
use simdcrypt::kdf::{Hkdf, hkdf_sha256, hkdf_sha512, pbkdf2_hmac, pbkdf2_hmac_sha256};

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

/// Past 255 hash lengths HKDF refuses, and the error gives the limit.
#[test]
fn hkdf_refuses_an_output_past_255_hash_lengths() {
    for (len, max, result) in [
        (
            255 * 32 + 1,
            255 * 32,
            Hkdf::<Sha256>::new(b"s", b"ikm").expand(b"", &mut [0; 255 * 32 + 1]),
        ),
        (
            255 * 64 + 1,
            255 * 64,
            Hkdf::<Sha512>::new(b"s", b"ikm").expand(b"", &mut [0; 255 * 64 + 1]),
        ),
    ] {
        assert_eq!(
            result,
            Err(Error::KdfOutputTooLong {
                kdf: "HKDF",
                len: len as u64,
                max: max as u64
            })
        );
    }
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

/// N = 2^20, r = 8: 1 GiB of V, about 4 s a rung here, so only on the
/// default rung (the kit checks every rung on the smaller N and against
/// `scalar`).
#[test]
fn scrypt_rfc7914_section12_n_2_20() {
    let file = json(include_str!("data/kdf/scrypt_rfc7914.json"));
    let cases: Vec<_> = records(&file, "scrypt")
        .iter()
        .filter(|c| number(c, "N") == 1 << 20)
        .collect();
    assert!(!cases.is_empty(), "no N = 2^20 case in the file");
    for case in cases {
        let (n, r, p) = (
            number(case, "N"),
            number(case, "r") as u32,
            number(case, "p") as u32,
        );
        let dk = hex(field(case, "dk"));
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
        assert_eq!(best, dk, "N = {n}, r = {r}, p = {p}");
    }
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
    let mut errors = Rung::available().map(|imp| {
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
