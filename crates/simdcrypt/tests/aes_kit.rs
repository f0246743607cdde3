//! AES and its modes through the checking kit: every rung this CPU runs
//! on the official vectors, against the standards' modes written out over
//! the reference cipher, and in round trips with the other rungs.

#![cfg(feature = "kit")]

mod common;

#[test]
fn every_aes_rung_passes_every_check() {
    common::kit::every_check_passes("aes-128", 12);
}
