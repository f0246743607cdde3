//! The ChaCha20 ladder's API (resumable calls, `xor_into`, the ends of the
//! keystreams as errors, the rungs by name, `Debug` without the key), and
//! the three ciphers against RustCrypto's `chacha20` as an independent
//! peer. (Every rung against RFC 8439's own functions, on the vectors and
//! in round trips, is the checking kit's: `tests/kit.rs`.)

mod common;

use chacha20::cipher::KeyIvInit as _;
use common::chacha20::matches_peer;
use proptest::prelude::*;
use simdcrypt::Error;
use simdcrypt::chacha20::{self as ours, ChaCha20, ChaCha20Legacy, Rung, XChaCha20};

/// The rungs this CPU runs, printed once per test so the log shows what was
/// exercised and what was skipped.
fn rungs(test: &str) -> Vec<Rung> {
    common::rungs(test)
}

// Calls resume at any byte, in place and out of place alike; `xor_into`
// equals `apply_keystream`.
common::stream_api_tests!(
    |imp| ChaCha20::new(&[9; 32], &[4; 12]).with_rung(imp).unwrap(),
    rungs
);

proptest! {
    #![proptest_config(ProptestConfig { cases: 192, ..ProptestConfig::default() })]

    /// XChaCha20 against RustCrypto's, at random offsets and lengths.
    #[test]
    fn xchacha20_matches_rustcrypto(
        key in any::<[u8; 32]>(),
        nonce in any::<[u8; 24]>(),
        offset in prop_oneof![0u64..100_000, any::<u64>().prop_map(|o| o >> 27)],
        data in prop::collection::vec(any::<u8>(), 0..=1500),
    ) {
        matches_peer(
            Rung::available(),
            chacha20::XChaCha20::new(&key.into(), &nonce.into()),
            |imp| XChaCha20::new(&key, &nonce).with_rung(imp).unwrap(),
            offset,
            &data,
        )?;
    }

    /// ChaCha20 (RFC 8439) and the original form against RustCrypto's
    /// `chacha20` crate, at random offsets and lengths.
    #[test]
    fn chacha20_and_legacy_match_rustcrypto(
        key in any::<[u8; 32]>(),
        nonce in any::<[u8; 12]>(),
        offset in prop_oneof![0u64..100_000, (((1u64 << 32) - 40) * 64)..(((1u64 << 32) - 30) * 64), any::<u64>().prop_map(|o| o >> 28)],
        data in prop::collection::vec(any::<u8>(), 0..=1500),
    ) {
        let legacy_nonce: [u8; 8] = nonce[..8].try_into().unwrap();
        matches_peer(
            Rung::available(),
            chacha20::ChaCha20::new(&key.into(), &nonce.into()),
            |imp| ChaCha20::new(&key, &nonce).with_rung(imp).unwrap(),
            offset,
            &data,
        )?;
        matches_peer(
            Rung::available(),
            chacha20::ChaCha20Legacy::new(&key.into(), &legacy_nonce.into()),
            |imp| ChaCha20Legacy::new(&key, &legacy_nonce).with_rung(imp).unwrap(),
            offset,
            &data,
        )?;
    }
}

/// RFC 8439's keystream is 2^32 blocks, the original form's and
/// XChaCha20's 2^64: the last block is usable, one byte more is a
/// `KeystreamExhausted` error that names the last block, and the counter
/// never wraps.
#[test]
fn keystream_ends_are_errors_not_wraps() {
    for imp in rungs("keystream_ends_are_errors_not_wraps") {
        let mut rfc = ChaCha20::new(&[5; 32], &[6; 12]).with_rung(imp).unwrap();
        rfc.seek((1 << 38) - 64).unwrap();
        rfc.apply_keystream(&mut [0; 64]).unwrap();
        common::exhausted(&mut rfc, &format!("{imp}, RFC 8439"));
        rfc.seek((1 << 38) - 64).unwrap();
        let err = rfc.apply_keystream(&mut [0; 65]).unwrap_err();
        assert!(
            matches!(err, Error::KeystreamExhausted { .. }),
            "{imp}: {err}"
        );
        assert!(
            err.to_string().contains(&u32::MAX.to_string()),
            "{imp}: {err}"
        );
        let mut legacy = ChaCha20Legacy::new(&[5; 32], &[6; 8])
            .with_rung(imp)
            .unwrap();
        legacy.seek((1 << 70) - 64 * 20).unwrap();
        legacy.apply_keystream(&mut [0; 64 * 20]).unwrap();
        common::exhausted(&mut legacy, &format!("{imp}, original form"));
        let mut x = XChaCha20::new(&[5; 32], &[1; 24]).with_rung(imp).unwrap();
        x.seek((1 << 70) - 10).unwrap();
        let err = x.apply_keystream(&mut [0; 11]).unwrap_err();
        assert!(
            matches!(err, Error::KeystreamExhausted { .. }),
            "{imp}: {err}"
        );
    }
}

#[test]
fn rungs_are_named_and_forcing_a_missing_one_is_an_error() {
    let names: Vec<&str> = Rung::ALL.iter().map(|i| i.name()).collect();
    assert_eq!(
        names,
        [
            "reference",
            "sse2",
            "ssse3-4x",
            "avx2",
            "avx512",
            "avx512vl",
            "neon"
        ]
    );
    for &imp in Rung::ALL {
        assert_eq!(Rung::from_name(imp.name()).unwrap(), imp);
        match ChaCha20::new(&[0; 32], &[0; 12]).with_rung(imp) {
            Ok(c) => assert_eq!(c.rung(), imp),
            Err(e) => {
                assert!(!imp.is_available());
                assert!(e.to_string().contains(imp.needs()), "{e}");
            }
        }
        assert!(imp.par_blocks() >= 1);
    }
    assert!(Rung::best().is_available());
    assert_eq!(ChaCha20::new(&[0; 32], &[0; 12]).rung(), Rung::best());
}

#[test]
fn constants_are_the_rfcs() {
    assert_eq!(ours::KEY_LEN, 32);
    assert_eq!(ours::NONCE_LEN, 12);
    assert_eq!(ours::LEGACY_NONCE_LEN, 8);
    assert_eq!(ours::XNONCE_LEN, 24);
    assert_eq!(ours::BLOCK_LEN, 64);
}

#[test]
fn debug_shows_no_key() {
    let c = ChaCha20::new(&[0x41; 32], &[0; 12]);
    let s = format!("{c:?}");
    assert!(s.starts_with("ChaCha20"), "{s}");
    assert!(!s.contains("65") && !s.contains("41"), "{s}");
    assert!(format!("{:?}", XChaCha20::new(&[0x41; 32], &[0; 24])).starts_with("XChaCha20"));
    assert!(
        format!("{:?}", ChaCha20Legacy::new(&[0x41; 32], &[0; 8])).starts_with("ChaCha20Legacy")
    );
}
