//! Multi-buffer hashing's API (`sha256_many`, `md5_many`): the default
//! entry points, and a missing rung as an error. (Every rung on the known
//! answers in the lanes and against one message at a time is the checking
//! kit's: `tests/kit.rs`.)

mod common;

use simdcrypt::hash::many::{self, Rung};
use simdcrypt::hash::{Md5, Sha256, md5_many, sha256_many};

#[test]
fn default_entry_points_equal_the_single_message_hashes() {
    let msgs: Vec<Vec<u8>> = (0..33)
        .map(|i| common::bytes(i, (i * 97) as usize % 301))
        .collect();
    let refs: Vec<&[u8]> = msgs.iter().map(Vec::as_slice).collect();
    let sha: Vec<[u8; 32]> = msgs.iter().map(|m| Sha256::digest(m)).collect();
    let md5: Vec<[u8; 16]> = msgs.iter().map(|m| Md5::digest(m)).collect();
    assert_eq!(sha256_many(&refs), sha);
    assert_eq!(md5_many(&refs), md5);
    assert!(Rung::best_sha256().is_available());
    assert!(Rung::best_md5().is_available());
}

#[test]
fn a_missing_rung_is_an_error() {
    for imp in Rung::ALL.iter().filter(|i| !i.is_available()) {
        let err = many::sha256_many_with(*imp, &[b"abc"]).unwrap_err();
        assert!(
            matches!(err, simdcrypt::Error::RungUnavailable { .. }),
            "{imp}: {err}"
        );
        assert!(many::md5_many_with(*imp, &[b"abc"]).is_err(), "{imp}");
    }
}
