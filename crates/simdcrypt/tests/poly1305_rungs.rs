//! Every Poly1305 rung against the reference reading of RFC 8439 §2.5.1:
//! every length to 1100 bytes, random splits of the incremental calls
//! (across the scalar/vector switch point both ways, with `update_padded`
//! in between), keys at the extremes, accumulators that reach p and beyond
//! just before the final reduction, long messages; the RustCrypto
//! `poly1305` crate as an independent peer; `verify`.

// The specifications' `reference` modules are `hazmat` items.
#![cfg(feature = "hazmat")]

mod common;

use common::poly1305::{self as checks, Call, incremental, key};
use common::{EDGE_LENGTHS, bytes};
use proptest::prelude::*;
use simdcrypt::Error;
use simdcrypt::poly1305::{Impl, Poly1305, reference};

/// The rungs this CPU runs, and in the log the ones a test exercised and
/// the ones it skipped (the CPU lacks them or `SIMDCRYPT_MAX_ISA` caps them).
fn rungs(test: &str) -> Vec<Impl> {
    common::rungs(test)
}

/// The rungs other than the reference, which the tests compare against it.
fn fast_rungs(test: &str) -> Vec<Impl> {
    rungs(test)
        .into_iter()
        .filter(|&i| i != Impl::Reference)
        .collect()
}

#[test]
fn every_length_to_1100_against_reference_and_rustcrypto() {
    checks::every_length_to_1100(&fast_rungs("every_length_to_1100"));
    // The reference rung through the incremental API, at the edges.
    for &len in EDGE_LENGTHS {
        let k = key(7 + len as u64);
        let msg = bytes(len as u64, len);
        let want = reference::mac(&k, &msg);
        let calls = [Call::Update(len / 3), Call::Update(1)];
        assert_eq!(
            incremental(Impl::Reference, &k, &msg, &calls),
            want,
            "length {len}"
        );
    }
}

/// Call patterns that cross the switch point (the lowest of any rung) both
/// ways.
#[test]
fn splits_across_the_switch_point() {
    checks::splits_across_the_switch_point(&fast_rungs("splits_across_the_switch_point"), |_| {
        Impl::ALL
            .iter()
            .map(|i| i.min_vector_blocks())
            .filter(|&m| m < usize::MAX)
            .min()
            .unwrap_or(16)
            * 16
    });
}

#[test]
fn keys_and_messages_at_the_extremes() {
    checks::keys_and_messages_at_the_extremes(&fast_rungs("keys_and_messages_at_the_extremes"));
}

#[test]
fn accumulator_at_p_before_the_last_reduction() {
    checks::accumulator_at_p_before_the_last_reduction(&fast_rungs(
        "accumulator_at_p_before_the_last_reduction",
    ));
}

#[test]
fn long_messages_in_chunks() {
    checks::long_messages_in_chunks(&fast_rungs("long_messages_in_chunks"));
}

/// Changing rung in the middle of a message carries the state over.
#[test]
fn with_impl_mid_message() {
    let imps = rungs("with_impl_mid_message");
    let pairs: Vec<(Impl, Impl)> = imps
        .iter()
        .flat_map(|&a| imps.iter().map(move |&b| (a, b)))
        .collect();
    checks::rung_changes_mid_message(&pairs, 1500, &[700]);
}

#[test]
fn verify_accepts_the_tag_and_rejects_every_bit_flip() {
    checks::verify_rejects_every_bit_flip(&rungs(
        "verify_accepts_the_tag_and_rejects_every_bit_flip",
    ));
    assert_eq!(
        Error::AuthenticationFailed.to_string(),
        "authentication failed"
    );
}

/// A long run moves a vector rung's accumulator into its lanes (the
/// `Debug` form says so), and a short one does not.
#[test]
fn vector_rungs_switch_to_the_lanes() {
    checks::vector_rungs_switch_to_the_lanes(&rungs("vector_rungs_switch_to_the_lanes"));
}

#[test]
fn unavailable_rungs_are_errors() {
    for imp in Impl::ALL.iter().filter(|i| !i.is_available()) {
        let err = Poly1305::new(&[0; 32]).with_impl(*imp).unwrap_err();
        assert!(matches!(err, Error::ImplUnavailable { .. }), "{err}");
    }
    assert_eq!(Impl::from_name("avx2").unwrap(), Impl::Avx2);
    assert!(Impl::from_name("avx3").is_err());
    assert!(Impl::best().is_available());
}

proptest! {
    #[test]
    fn random_splits_equal_the_reference(
        k in any::<[u8; 32]>(),
        msg in prop::collection::vec(any::<u8>(), 0..3000),
        calls in checks::calls(200..700),
    ) {
        let fast = Impl::available().filter(|&i| i != Impl::Reference);
        checks::random_splits_equal_the_reference(fast, &k, &msg, &calls)?;
    }
}
