//! Every ladder of the table through the checking kit (`simdcrypt::kit`,
//! the checks `simdcrypt verify` runs), on every rung this CPU runs: the
//! official vectors, the cross-check against the specification's own
//! functions on random inputs (every length to a bound, the edge lengths,
//! carries and the end of the keystream, in place and out of place), and
//! round trips between rungs; one test per ladder and check. A failure
//! names the primitive, the rung, the check and the case; the cases come
//! from the kit's default seed, so `simdcrypt verify` draws the same.
//!
//! The other test files hold what the kit does not check: the API's
//! promises, errors, and independent peers (RustCrypto).

#![cfg(feature = "kit")]

mod common;

common::kit::kit_tests! {
    rungs: |_| true, require_every_rung: false;
    salsa20 => "salsa20": [vectors, cross_check, round_trip],
    chacha20 => "chacha20": [vectors, cross_check, round_trip],
    poly1305 => "poly1305": [vectors, cross_check, round_trip],
    aead => "aead": [vectors, cross_check, round_trip],
    sha256 => "sha256": [vectors, cross_check],
    sha512 => "sha512": [vectors, cross_check],
    sha1 => "sha1": [vectors, cross_check],
    md5 => "md5": [vectors, cross_check],
    hash_many => "hash-many": [vectors, cross_check],
    hmac => "hmac": [vectors, cross_check],
    kdf => "kdf": [vectors, cross_check],
    scrypt => "scrypt": [vectors, cross_check],
    aes => "aes": [vectors, cross_check, round_trip],
    ghash => "ghash": [vectors, cross_check, round_trip],
    aes_gcm => "aes-gcm": [vectors, cross_check, round_trip],
    gost28147 => "gost28147": [vectors, cross_check, round_trip],
    magma => "magma": [vectors, cross_check, round_trip],
}

/// Every ladder of the table has its tests above: a new ladder cannot go
/// unchecked.
#[test]
fn every_ladder_is_tested() {
    let mut table: Vec<&str> = simdcrypt::ladders().iter().map(|l| l.name).collect();
    let mut tested = LADDERS.to_vec();
    table.sort_unstable();
    tested.sort_unstable();
    assert_eq!(
        tested, table,
        "the ladders of the table, and those tested here"
    );
}

/// Every AEAD of the table has a case in the kit (`kit::cases::aead`, what
/// the `aead_differential` fuzz target runs on the fuzzer's bytes), and it
/// passes at each of its key lengths: a new AEAD cannot go unfuzzed.
#[test]
fn every_aead_has_a_fuzz_case() {
    use simdcrypt::ladder::{self, Construct};

    let bytes: Vec<u8> = (0..200u8).map(|i| i.wrapping_mul(37) ^ 0x5c).collect();
    let mut seen = 0;
    for (_, aead) in ladder::primitives() {
        let Construct::Aead {
            associated_data, ..
        } = aead.construct
        else {
            continue;
        };
        let nonce_len = aead.nonce_len.expect("an AEAD's nonce length");
        // MGM's nonce has its first bit clear (RFC 9058 §4).
        let mut nonce = bytes[32..32 + nonce_len].to_vec();
        nonce[0] &= 0x7f;
        let aad: &[u8] = if associated_data { &bytes[60..73] } else { &[] };
        for &key_len in aead.key_lens {
            let tally = simdcrypt::kit::cases::aead(
                aead.name,
                (&bytes[..key_len], &nonce, aad),
                &bytes[73..],
                1000,
            )
            .unwrap_or_else(|e| panic!("{}: {e}", aead.name));
            assert!(tally.passed(), "{}: {:#?}", aead.name, tally.failures);
            seen += 1;
        }
    }
    assert!(seen >= 9, "{seen} AEADs");
}
