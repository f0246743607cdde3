//! GHASH and POLYVAL through the checking kit: every rung this CPU runs on
//! RFC 8452's and the GCM vectors, against SP 800-38D's and RFC 8452's
//! own algorithms, and against the other rungs.

#![cfg(feature = "kit")]

mod common;

#[test]
fn every_ghash_rung_passes_every_check() {
    // Two hashes, three checks, on at least the two portable rungs.
    common::kit::every_check_passes("ghash", 2 * 3 * 2);
}
