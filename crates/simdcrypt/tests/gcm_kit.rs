//! AES-GCM and AES-GCM-SIV through the checking kit: every path a message
//! can take on the GCM specification's, Wycheproof's and RFC 8452's
//! vectors, against both constructions written out over the reference
//! AES, GHASH and POLYVAL, and sealed on one path, opened on the others.

#![cfg(feature = "kit")]

mod common;

#[test]
fn every_gcm_path_passes_every_check() {
    common::kit::every_check_passes("aes-128-gcm", 5 * 3 * 3);
}
