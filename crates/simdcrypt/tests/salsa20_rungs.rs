//! Every Salsa20 rung against the reference reading of the specification:
//! random keys, nonces, counters (with the 2^32 and 2^64 edges), lengths,
//! offsets and split points, in place and out of place at every alignment;
//! then the API's promises (resumable calls, `xor_into`, the end of the
//! keystream).

// The specifications' `reference` modules are `hazmat` items.
#![cfg(feature = "hazmat")]

mod common;

use common::bytes;
use common::salsa20 as checks;
use proptest::prelude::*;
use simdcrypt::Xor;
use simdcrypt::salsa20::{Impl, Salsa20, Salsa20_8, Salsa20_12, hsalsa20, reference};

/// The rungs this CPU runs, printed once per test so the log shows what was
/// exercised and what was skipped.
fn rungs(test: &str) -> Vec<Impl> {
    common::rungs(test)
}

// Every edge length at every edge counter (both XOR forms, all three
// round counts, both key sizes); every length from 0 to 2000 from block 0
// and across the 2^32 carry; random keys (both sizes), nonces, counters,
// offsets, lengths, split points, round counts and XOR forms; the stream
// API.
common::stream_ladder_tests!(
    checks,
    rungs,
    every_length: 2000,
    &[
        |_| (Xor::Simd128, 0, 0),
        |len| (Xor::Bytewise, ((1u128 << 32) - 3) * 64, len),
    ],
    random: ProptestConfig { cases: 192, ..ProptestConfig::default() },
    prop::collection::vec(any::<u8>(), 0..=2000),
    2000,
    Impl::available(),
);

proptest! {
    #![proptest_config(ProptestConfig { cases: 192, ..ProptestConfig::default() })]

    /// Encrypt on one rung, decrypt on another.
    #[test]
    fn round_trip_across_rungs(
        key in any::<[u8; 32]>(),
        nonce in any::<[u8; 24]>(),
        data in prop::collection::vec(any::<u8>(), 0..=1500),
    ) {
        let pairs: Vec<(Impl, Impl)> =
            Impl::available().flat_map(|e| Impl::available().map(move |d| (e, d))).collect();
        checks::round_trip(&pairs, &key, &nonce, &data)?;
    }

    /// `core` of every rung is the reference hash, for any round count.
    #[test]
    fn core_of_every_rung_matches_reference(x in any::<[u32; 16]>(), double_rounds in 0usize..12) {
        let z = reference::double_rounds(&x, double_rounds);
        let want: [u32; 16] = std::array::from_fn(|i| z[i].wrapping_add(x[i]));
        for imp in Impl::available() {
            prop_assert_eq!(imp.core(&x, double_rounds).unwrap(), want, "{}", imp);
        }
        prop_assert_eq!(simdcrypt::salsa20::core(&x, double_rounds), want);
    }
}

/// HSalsa20 is words 0, 5, 10, 15, 6, 7, 8, 9 of the reference rounds.
#[test]
fn hsalsa20_matches_reference_rounds() {
    for seed in 0..50 {
        let key: [u8; 32] = bytes(seed, 32).try_into().unwrap();
        let input: [u8; 16] = bytes(seed + 1000, 16).try_into().unwrap();
        let mut block = [0u8; 64];
        let mut pieces = Vec::new();
        for (c, k) in reference::SIGMA
            .iter()
            .zip([&key[..16], &input[..], &key[16..], &[][..]])
        {
            pieces.extend_from_slice(c);
            pieces.extend_from_slice(k);
        }
        block.copy_from_slice(&pieces);
        let x: [u32; 16] = std::array::from_fn(|i| {
            u32::from_le_bytes(block[4 * i..4 * i + 4].try_into().unwrap())
        });
        let z = reference::double_rounds(&x, 10);
        let want: Vec<u8> = [0, 5, 10, 15, 6, 7, 8, 9]
            .iter()
            .flat_map(|&i| z[i].to_le_bytes())
            .collect();
        assert_eq!(hsalsa20(&key, &input).to_vec(), want);
    }
}

/// The last block, 2^64 − 1, is usable; one byte past it is refused, with
/// nothing written and the position unchanged; the counter never wraps.
#[test]
fn keystream_end_is_an_error_not_a_wrap() {
    checks::keystream_end_is_an_error_not_a_wrap(
        &rungs("keystream_end_is_an_error_not_a_wrap"),
        &[100],
        &[10],
    );
}

#[test]
fn rungs_are_named_and_forcing_a_missing_one_is_an_error() {
    for &imp in Impl::ALL {
        assert_eq!(Impl::from_name(imp.name()).unwrap(), imp);
        let forced = Salsa20::new(&[0; 32], &[0; 8]).with_impl(imp);
        match forced {
            Ok(c) => assert_eq!(c.implementation(), imp),
            Err(e) => {
                assert!(!imp.is_available());
                assert!(e.to_string().contains(imp.needs()), "{e}");
            }
        }
    }
    let err = Impl::from_name("avx1024").unwrap_err().to_string();
    assert!(
        err.contains("avx1024") && err.contains("sse2-shuffle"),
        "{err}"
    );
    assert!(Impl::best().is_available());
}

#[test]
fn reduced_round_variants_differ_from_salsa20() {
    let mut a = [0u8; 64];
    let mut b = [0u8; 64];
    let mut c = [0u8; 64];
    Salsa20::new(&[1; 32], &[0; 8])
        .apply_keystream(&mut a)
        .unwrap();
    Salsa20_12::new(&[1; 32], &[0; 8])
        .apply_keystream(&mut b)
        .unwrap();
    Salsa20_8::new(&[1; 32], &[0; 8])
        .apply_keystream(&mut c)
        .unwrap();
    assert!(a != b && b != c && a != c);
}
