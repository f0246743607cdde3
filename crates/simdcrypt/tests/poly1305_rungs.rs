//! Poly1305's API (the lanes' switch, `verify`'s error, a missing rung)
//! and every rung against RustCrypto's `poly1305` as an independent peer.
//! (Every rung against RFC 8439's own arithmetic, on the vectors, across
//! the switch point, at the extremes and in round trips, is the checking
//! kit's: `tests/kit.rs`.)

// The reference rung is variable-time: a `hazmat` choice.
#![cfg(feature = "hazmat")]

mod common;

use simdcrypt::Error;
use simdcrypt::poly1305::{Poly1305, Rung};

/// The rungs this CPU runs, and in the log the ones a test exercised and
/// the ones it skipped (the CPU lacks them or `SIMDCRYPT_MAX_ISA` caps them).
fn rungs(test: &str) -> Vec<Rung> {
    common::rungs(test)
}

#[test]
fn every_rung_equals_rustcrypto() {
    common::poly1305::equals_rustcrypto(&rungs("every_rung_equals_rustcrypto"), 1100);
}

/// A long run moves a vector rung's accumulator into its lanes (the
/// `Debug` form says so), and a short one does not.
#[test]
fn vector_rungs_switch_to_the_lanes() {
    common::poly1305::vector_rungs_switch_to_the_lanes(&rungs("vector_rungs_switch_to_the_lanes"));
}

/// A wrong tag is `AuthenticationFailed`, which says no more.
#[test]
fn verify_refuses_a_wrong_tag_with_authentication_failed() {
    for imp in rungs("verify_refuses_a_wrong_tag_with_authentication_failed") {
        let mut p = Poly1305::new(&[3; 32]).with_rung(imp).unwrap();
        p.update(b"message");
        assert_eq!(
            p.verify(&[0; 16]),
            Err(Error::AuthenticationFailed),
            "{imp}"
        );
    }
    assert_eq!(
        Error::AuthenticationFailed.to_string(),
        "authentication failed"
    );
}

#[test]
fn unavailable_rungs_are_errors() {
    for imp in Rung::ALL.iter().filter(|i| !i.is_available()) {
        let err = Poly1305::new(&[0; 32]).with_rung(*imp).unwrap_err();
        assert!(matches!(err, Error::RungUnavailable { .. }), "{err}");
    }
    assert_eq!(Rung::from_name("avx2").unwrap(), Rung::Avx2);
    assert!(Rung::from_name("avx3").is_err());
    assert!(Rung::best().is_available());
}
