//! Differential fuzzing of the MAC and KDFs: every scrypt rung against the
//! `scalar` one at fuzzer-chosen small parameters, passwords and salts; and
//! HMAC-SHA-256 / HKDF-SHA-256 at fuzzer-chosen keys, messages and output
//! lengths against RFC 2104's and RFC 5869's formulas on the reference
//! rung of SHA-256 (an HKDF output past 255 hash lengths must be refused).
#![no_main]

use libfuzzer_sys::fuzz_target;
use simdcrypt::hash::{Sha256, sha256};
use simdcrypt::{hmac, kdf};

/// SHA-256 on its reference rung.
fn reference(parts: &[&[u8]]) -> [u8; 32] {
    let mut h = Sha256::new().with_impl(sha256::Impl::Reference).unwrap();
    for p in parts {
        h.update(p);
    }
    h.finalize()
}

/// RFC 2104 §2 on the reference rung.
fn hmac_formula(key: &[u8], msg: &[u8]) -> [u8; 32] {
    let mut k0 = [0u8; 64];
    if key.len() > 64 {
        k0[..32].copy_from_slice(&reference(&[key]));
    } else {
        k0[..key.len()].copy_from_slice(key);
    }
    let ipad: Vec<u8> = k0.iter().map(|k| k ^ 0x36).collect();
    let opad: Vec<u8> = k0.iter().map(|k| k ^ 0x5c).collect();
    reference(&[&opad, &reference(&[&ipad, msg])])
}

fuzz_target!(|input: &[u8]| {
    if input.len() < 6 {
        return;
    }
    let (head, rest) = input.split_at(6);
    let split = usize::from(head[0]).min(rest.len());
    let (a, b) = rest.split_at(split);
    // HMAC and HKDF.
    assert_eq!(hmac::hmac_sha256(a, b), hmac_formula(a, b));
    let len = usize::from(u16::from_le_bytes([head[1], head[2]])) % 9000;
    let mut okm = vec![0u8; len];
    let result = kdf::hkdf_sha256(b, a, &head[..3], &mut okm);
    if len > 255 * 32 {
        assert!(result.is_err());
    } else {
        result.unwrap();
        let prk = hmac_formula(b, a);
        let mut t: Vec<u8> = Vec::new();
        let mut want = Vec::new();
        for i in 1..=len.div_ceil(32) {
            t = hmac_formula(&prk, &[&t[..], &head[..3], &[i as u8]].concat()).to_vec();
            want.extend_from_slice(&t);
        }
        assert_eq!(okm, want[..len]);
    }
    // scrypt: log N 1–6, r 1–3, p 1–5.
    let (log_n, r, p) = (
        1 + head[3] % 6,
        1 + u32::from(head[4] % 3),
        1 + u32::from(head[5] % 5),
    );
    let out_len = 1 + usize::from(head[1]) % 80;
    let run = |imp| {
        let mut out = vec![0u8; out_len];
        kdf::scrypt::scrypt_with_impl(imp, a, b, log_n, r, p, &mut out).unwrap();
        out
    };
    let want = run(kdf::scrypt::Impl::Scalar);
    for imp in kdf::scrypt::Impl::available() {
        assert_eq!(run(imp), want, "scrypt {imp} log_n={log_n} r={r} p={p}");
    }
});
