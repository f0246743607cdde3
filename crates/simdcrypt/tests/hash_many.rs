//! Multi-buffer hashing (`sha256_many`, `md5_many`): every rung gives the
//! single-message digests, for message counts around each lane width and
//! lengths at the padding boundaries, mixed in one call.

mod common;

use simdcrypt::hash::many::{self, Impl};
use simdcrypt::hash::{Md5, Sha256, md5_many, sha256_many};

/// The rungs this CPU runs, saying in the log which were skipped.
fn rungs(test: &str) -> Vec<Impl> {
    common::rungs(test)
}

/// Message counts: none, one, each lane width (8, 16) ± 1, and more.
const COUNTS: &[usize] = &[0, 1, 7, 8, 9, 16, 17, 33];

#[test]
fn sha256_many_equals_sha256_on_every_rung() {
    let rungs = rungs("sha256_many_equals_sha256_on_every_rung");
    common::hash::many_equals_one(&rungs, COUNTS, 0..3, many::sha256_many_with, Sha256::digest);
}

#[test]
fn md5_many_equals_md5_on_every_rung() {
    let rungs = rungs("md5_many_equals_md5_on_every_rung");
    common::hash::many_equals_one(&rungs, COUNTS, 0..3, many::md5_many_with, Md5::digest);
}

/// The CAVP SHA-256 vectors, FIPS 180's examples and RFC 1321's MD5 suite
/// in the lanes.
#[test]
fn known_answers_in_the_lanes_on_every_rung() {
    common::hash::many_known_answers(&rungs("known_answers_in_the_lanes_on_every_rung"));
}

#[test]
fn default_entry_points_equal_the_single_message_hashes() {
    let msgs = common::hash::messages(33, 9);
    let refs: Vec<&[u8]> = msgs.iter().map(Vec::as_slice).collect();
    let sha: Vec<[u8; 32]> = msgs.iter().map(|m| Sha256::digest(m)).collect();
    let md5: Vec<[u8; 16]> = msgs.iter().map(|m| Md5::digest(m)).collect();
    assert_eq!(sha256_many(&refs), sha);
    assert_eq!(md5_many(&refs), md5);
    assert!(Impl::best_sha256().is_available());
    assert!(Impl::best_md5().is_available());
}

#[test]
fn a_missing_rung_is_an_error() {
    for imp in Impl::ALL.iter().filter(|i| !i.is_available()) {
        let err = many::sha256_many_with(*imp, &[b"abc"]).unwrap_err();
        assert!(
            matches!(err, simdcrypt::Error::ImplUnavailable { .. }),
            "{imp}: {err}"
        );
        assert!(many::md5_many_with(*imp, &[b"abc"]).is_err(), "{imp}");
    }
}
