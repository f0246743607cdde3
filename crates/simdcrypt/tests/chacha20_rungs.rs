//! Every ChaCha20 rung against the reference reading of RFC 8439: random
//! keys, nonces, counters (near 2^32 for the original form's carry and for
//! the end of RFC 8439's keystream), lengths, offsets and split points, in
//! place and out of place at every alignment; the API's promises (resumable
//! calls, `xor_into`, the end of the keystream); and the three ciphers
//! against RustCrypto's `chacha20` as an independent peer.

// The specifications' `reference` modules are `hazmat` items.
#![cfg(feature = "hazmat")]

mod common;

use chacha20::cipher::KeyIvInit as _;
use common::bytes;
use common::chacha20::{self as checks, Form, reference_xor};
use proptest::prelude::*;
use simdcrypt::Xor;
use simdcrypt::chacha20::{ChaCha20, ChaCha20Legacy, Impl, XChaCha20, hchacha20, reference};

/// The rungs this CPU runs, printed once per test so the log shows what was
/// exercised and what was skipped.
fn rungs(test: &str) -> Vec<Impl> {
    common::rungs(test)
}

// Every edge length at every edge counter (both XOR forms, both counter
// forms); every length from 0 to 2100 from block 0 (every path of the
// 16/8/4/1–3 cascade and every partial last block), across the 2^32 carry
// of the original form, and up to the very end of RFC 8439's keystream;
// random keys, nonces, counters, offsets, lengths (0 to 20 blocks and a
// bit, past the 16-block width) and split points, both forms; the stream
// API.
common::stream_ladder_tests!(
    checks,
    rungs,
    every_length: 2100,
    &[
        |_| (Form::Rfc, Xor::Simd128, 0, 0),
        |len| (
            Form::Legacy,
            Xor::Bytewise,
            ((1u128 << 32) - 3) * 64 + 5,
            len
        ),
        |len| (
            Form::Legacy,
            Xor::Bytewise,
            ((1u128 << 32) - 17) * 64 + 5,
            len
        ),
        |len| (Form::Rfc, Xor::Simd128, (1 << 38) - len as u128, len / 2),
    ],
    random: ProptestConfig { cases: 192, ..ProptestConfig::default() },
    prop::collection::vec(any::<u8>(), 0..=20 * 64 + 40),
    1400,
    Impl::available(),
);

proptest! {
    #![proptest_config(ProptestConfig { cases: 192, ..ProptestConfig::default() })]

    /// Encrypt on one rung, decrypt on another, XChaCha20.
    #[test]
    fn round_trip_across_rungs(
        key in any::<[u8; 32]>(),
        nonce in any::<[u8; 24]>(),
        data in prop::collection::vec(any::<u8>(), 0..=1500),
    ) {
        let rungs: Vec<Impl> = Impl::available().collect();
        for &enc in &rungs {
            for &dec in &rungs {
                let mut buf = data.clone();
                XChaCha20::new(&key, &nonce).with_impl(enc).unwrap().apply_keystream(&mut buf).unwrap();
                XChaCha20::new(&key, &nonce).with_impl(dec).unwrap().apply_keystream(&mut buf).unwrap();
                prop_assert_eq!(&buf, &data, "{} then {}", enc, dec);
            }
        }
    }

    /// `block` of every rung is the reference block function.
    #[test]
    fn block_of_every_rung_matches_reference(x in any::<[u32; 16]>()) {
        checks::block_matches_reference(Impl::available(), &x)?;
    }

    /// XChaCha20 against RustCrypto's, at random offsets and lengths.
    #[test]
    fn xchacha20_matches_rustcrypto(
        key in any::<[u8; 32]>(),
        nonce in any::<[u8; 24]>(),
        offset in prop_oneof![0u64..100_000, any::<u64>().prop_map(|o| o >> 27)],
        data in prop::collection::vec(any::<u8>(), 0..=1500),
    ) {
        checks::matches_peer(
            Impl::available(),
            chacha20::XChaCha20::new(&key.into(), &nonce.into()),
            |imp| XChaCha20::new(&key, &nonce).with_impl(imp).unwrap(),
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
        checks::matches_peer(
            Impl::available(),
            chacha20::ChaCha20::new(&key.into(), &nonce.into()),
            |imp| ChaCha20::new(&key, &nonce).with_impl(imp).unwrap(),
            offset,
            &data,
        )?;
        checks::matches_peer(
            Impl::available(),
            chacha20::ChaCha20Legacy::new(&key.into(), &legacy_nonce.into()),
            |imp| ChaCha20Legacy::new(&key, &legacy_nonce).with_impl(imp).unwrap(),
            offset,
            &data,
        )?;
    }
}

/// XChaCha20 is the original form keyed with HChaCha20's subkey, nonce
/// `nonce[16..24]`, from block 0 and across the 2^32 carry.
#[test]
fn xchacha20_is_legacy_chacha20_under_the_subkey() {
    let key: [u8; 32] = bytes(11, 32).try_into().unwrap();
    let nonce: [u8; 24] = bytes(12, 24).try_into().unwrap();
    let subkey = hchacha20(&key, nonce[..16].try_into().unwrap());
    assert_eq!(
        subkey,
        reference::hchacha20(&key, nonce[..16].try_into().unwrap())
    );
    for imp in rungs("xchacha20_is_legacy_chacha20_under_the_subkey") {
        for offset in [0u128, 77, ((1 << 32) - 5) * 64 + 3] {
            let data = bytes(13, 1000);
            let mut got = data.clone();
            let mut c = XChaCha20::new(&key, &nonce).with_impl(imp).unwrap();
            c.seek(offset).unwrap();
            c.apply_keystream(&mut got).unwrap();
            let mut want = data.clone();
            let mut n12 = [0u8; 12];
            n12[..8].copy_from_slice(&nonce[16..]);
            reference_xor(Form::Legacy, &subkey, &n12, offset, &mut want);
            assert_eq!(got, want, "{imp}, offset {offset}");
        }
    }
}

/// RFC 8439's keystream is 2^32 blocks: 64 bytes at block 2^32 − 1 are
/// fine, 65 are refused with nothing written, and the counter never wraps
/// into block 0 or carries into the nonce; every length to 40 blocks
/// ending exactly at the end.
#[test]
fn rfc_keystream_ends_at_block_2_pow_32() {
    checks::rfc_keystream_end(&rungs("rfc_keystream_ends_at_block_2_pow_32"), 40 * 64);
}

/// The original form's keystream is 2^64 blocks; the counter carries from
/// word 12 into word 13 across 2^32 on every rung.
#[test]
fn legacy_keystream_ends_at_block_2_pow_64() {
    checks::legacy_keystream_end(&rungs("legacy_keystream_ends_at_block_2_pow_64"));
}

#[test]
fn rungs_are_named_and_forcing_a_missing_one_is_an_error() {
    let names: Vec<&str> = Impl::ALL.iter().map(|i| i.name()).collect();
    assert_eq!(
        names,
        [
            "reference",
            "sse2",
            "ssse3-4x",
            "avx2",
            "avx512",
            "avx512vl"
        ]
    );
    for &imp in Impl::ALL {
        assert_eq!(Impl::from_name(imp.name()).unwrap(), imp);
        match ChaCha20::new(&[0; 32], &[0; 12]).with_impl(imp) {
            Ok(c) => assert_eq!(c.implementation(), imp),
            Err(e) => {
                assert!(!imp.is_available());
                assert!(e.to_string().contains(imp.needs()), "{e}");
            }
        }
        assert!(imp.par_blocks() >= 1);
    }
    assert!(Impl::best().is_available());
    assert_eq!(
        ChaCha20::new(&[0; 32], &[0; 12]).implementation(),
        Impl::best()
    );
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
