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

/// Lengths around the padding boundaries (55/56 bytes: one padding block
/// or two; 63, 64; 119, 120 one block later) and a few of several KiB.
const EDGES: &[usize] = &[55, 56, 63, 64, 119, 120, 0, 1, 4096, 5000, 9000];

/// `count` messages of mixed lengths: the edges, then lengths spread over
/// 0..=300, each message from its own seed.
fn messages(count: usize, salt: u64) -> Vec<Vec<u8>> {
    (0..count)
        .map(|i| {
            let len = match EDGES.get(i) {
                Some(&len) => len,
                None => (i * 97 + salt as usize * 31) % 301,
            };
            common::bytes(salt * 1000 + i as u64, len)
        })
        .collect()
}

/// Checks `many(imp, msgs)` against `one` on every message.
fn check<const N: usize>(
    test: &str,
    many: impl Fn(Impl, &[&[u8]]) -> Result<Vec<[u8; N]>, simdcrypt::Error>,
    one: impl Fn(&[u8]) -> [u8; N],
) {
    for imp in rungs(test) {
        for &count in COUNTS {
            for salt in 0..3 {
                let msgs = messages(count, salt);
                let refs: Vec<&[u8]> = msgs.iter().map(Vec::as_slice).collect();
                let got = many(imp, &refs).expect("available rung");
                assert_eq!(got.len(), count, "{imp}: {count} messages");
                for (i, (m, d)) in msgs.iter().zip(&got).enumerate() {
                    assert_eq!(
                        *d,
                        one(m),
                        "{imp}: message {i} of {count} ({} bytes)",
                        m.len()
                    );
                }
            }
        }
        // All of one length (no lane idles), and all empty.
        for len in [0, 1024] {
            let msgs: Vec<Vec<u8>> = (0..16).map(|i| common::bytes(i, len)).collect();
            let refs: Vec<&[u8]> = msgs.iter().map(Vec::as_slice).collect();
            let want: Vec<[u8; N]> = msgs.iter().map(|m| one(m)).collect();
            assert_eq!(many(imp, &refs).unwrap(), want, "{imp}: 16 × {len} bytes");
        }
    }
}

#[test]
fn sha256_many_equals_sha256_on_every_rung() {
    check(
        "sha256_many_equals_sha256_on_every_rung",
        many::sha256_many_with,
        Sha256::digest,
    );
}

#[test]
fn md5_many_equals_md5_on_every_rung() {
    check(
        "md5_many_equals_md5_on_every_rung",
        many::md5_many_with,
        Md5::digest,
    );
}

#[test]
fn default_entry_points_equal_the_single_message_hashes() {
    let msgs = messages(33, 9);
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
