//! Every Salsa20 rung against the reference reading of the specification:
//! random keys, nonces, counters (with the 2^32 and 2^64 edges), lengths,
//! offsets and split points, in place and out of place at every alignment;
//! then the API's promises (resumable calls, `xor_into`, the end of the
//! keystream).

// The specifications' `reference` modules are `hazmat` items.
#![cfg(feature = "hazmat")]

mod common;

use common::{EDGE_COUNTERS, EDGE_LENGTHS, bytes, out_of_place};
use proptest::prelude::*;
use simdcrypt::salsa20::{
    Impl, Salsa, Salsa20, Salsa20_8, Salsa20_12, XSalsa20, hsalsa20, reference,
};
use simdcrypt::{Error, Xor};

/// The rungs this CPU runs, printed once per test so the log shows what was
/// exercised and what was skipped.
fn rungs(test: &str) -> Vec<Impl> {
    common::rungs(test)
}

/// The reference keystream XOR at any byte offset, from spec §10 directly.
fn reference_xor(key: &[u8], nonce: &[u8; 8], offset: u128, data: &mut [u8], double_rounds: usize) {
    let first_block = (offset / 64) as u64;
    let skip = (offset % 64) as usize;
    let mut buf = vec![0u8; skip + data.len()];
    buf[skip..].copy_from_slice(data);
    let key = match key.len() {
        32 => reference::Key::Bits256(key.try_into().unwrap()),
        _ => reference::Key::Bits128(key.try_into().unwrap()),
    };
    reference::encrypt(key, nonce, first_block, &mut buf, double_rounds);
    data.copy_from_slice(&buf[skip..]);
}

/// A Salsa cipher of `DR` double-rounds for a 32- or 16-byte key on `imp`.
fn cipher<const DR: usize>(key: &[u8], nonce: &[u8; 8], imp: Impl, xor: Xor) -> Salsa<DR> {
    let c = match key.len() {
        32 => Salsa::<DR>::new(key.try_into().unwrap(), nonce),
        _ => Salsa::<DR>::new_128(key.try_into().unwrap(), nonce),
    };
    c.with_impl(imp).unwrap().with_xor(xor)
}

/// `imp` equals the reference at `offset` over `data`, applied in two calls
/// split at `split`, for `DR` double-rounds: in place, and out of place
/// (`xor_into`) from and to addresses shifted by amounts taken from the
/// length and the split, so every alignment comes up.
fn check<const DR: usize>(
    imp: Impl,
    xor: Xor,
    key: &[u8],
    nonce: &[u8; 8],
    offset: u128,
    data: &[u8],
    split: usize,
) {
    let mut want = data.to_vec();
    reference_xor(key, nonce, offset, &mut want, DR);
    let mut got = data.to_vec();
    let mut c = cipher::<DR>(key, nonce, imp, xor);
    c.seek(offset).unwrap();
    let (a, b) = got.split_at_mut(split.min(data.len()));
    c.apply_keystream(a).unwrap();
    c.apply_keystream(b).unwrap();
    assert_eq!(c.position(), offset + data.len() as u128);
    assert!(
        got == want,
        "rung {imp} ({xor}), Salsa20/{}, key {} bytes, offset {offset}, length {}, split {split}",
        2 * DR,
        key.len(),
        data.len()
    );
    let (in_shift, out_shift) = (data.len() % 37, split % 31);
    let got = out_of_place(data, in_shift, out_shift, |input, output| {
        let mut c = cipher::<DR>(key, nonce, imp, xor);
        c.seek(offset).unwrap();
        let at = split.min(data.len());
        let ((ia, ib), (oa, ob)) = (input.split_at(at), output.split_at_mut(at));
        c.xor_into(ia, oa).unwrap();
        c.xor_into(ib, ob).unwrap();
        assert_eq!(c.position(), offset + data.len() as u128);
    });
    assert!(
        got == want,
        "rung {imp} ({xor}) out of place (shifts {in_shift}, {out_shift}), Salsa20/{}, key {} bytes, offset {offset}, length {}, split {split}",
        2 * DR,
        key.len(),
        data.len()
    );
}

/// Every edge length at every edge counter, every rung, both XOR forms, all
/// three round counts, both key sizes.
#[test]
fn every_rung_matches_reference_at_the_edges() {
    for imp in rungs("every_rung_matches_reference_at_the_edges") {
        for (i, &counter) in EDGE_COUNTERS.iter().enumerate() {
            for (j, &len) in EDGE_LENGTHS.iter().enumerate() {
                let seed = (i * 100 + j) as u64;
                let key = bytes(seed, if j % 3 == 0 { 16 } else { 32 });
                let nonce: [u8; 8] = bytes(seed + 1, 8).try_into().unwrap();
                let data = bytes(seed + 2, len);
                let offset = u128::from(counter) * 64 + (j % 5) as u128 * 13 % 64;
                let xor = Xor::ALL[j % 2];
                check::<10>(imp, xor, &key, &nonce, offset, &data, len / 3);
                check::<6>(imp, xor, &key, &nonce, offset, &data, len / 2);
                check::<4>(imp, xor, &key, &nonce, offset, &data, len);
            }
        }
    }
}

/// Every length from 0 to 2000 from block 0 and across the 2^32 carry.
#[test]
fn every_rung_matches_reference_for_every_length() {
    let key = bytes(7, 32);
    let nonce = [3u8; 8];
    let data = bytes(8, 2000);
    for imp in rungs("every_rung_matches_reference_for_every_length") {
        for len in 0..=2000 {
            check::<10>(imp, Xor::Simd128, &key, &nonce, 0, &data[..len], 0);
            check::<10>(
                imp,
                Xor::Bytewise,
                &key,
                &nonce,
                ((1u128 << 32) - 3) * 64,
                &data[..len],
                len,
            );
        }
    }
}

fn counter_strategy() -> impl Strategy<Value = u64> {
    prop_oneof![
        any::<u64>(),
        0u64..1000,
        ((1u64 << 32) - 40)..((1u64 << 32) + 40),
        (u64::MAX - 1000)..=u64::MAX - 40,
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 192, ..ProptestConfig::default() })]

    #[test]
    fn random_inputs_match_reference(
        key in prop_oneof![prop::collection::vec(any::<u8>(), 32), prop::collection::vec(any::<u8>(), 16)],
        nonce in any::<[u8; 8]>(),
        counter in counter_strategy(),
        byte in 0u128..64,
        data in prop::collection::vec(any::<u8>(), 0..=2000),
        split in 0usize..=2000,
        rounds in 0usize..3,
        bytewise in any::<bool>(),
    ) {
        let xor = if bytewise { Xor::Bytewise } else { Xor::Simd128 };
        let offset = u128::from(counter) * 64 + byte;
        for imp in Impl::available() {
            match rounds {
                0 => check::<10>(imp, xor, &key, &nonce, offset, &data, split),
                1 => check::<6>(imp, xor, &key, &nonce, offset, &data, split),
                _ => check::<4>(imp, xor, &key, &nonce, offset, &data, split),
            }
        }
    }

    /// Encrypt on one rung, decrypt on another.
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
                XSalsa20::new(&key, &nonce).with_impl(enc).unwrap().apply_keystream(&mut buf).unwrap();
                XSalsa20::new(&key, &nonce).with_impl(dec).unwrap().apply_keystream(&mut buf).unwrap();
                prop_assert_eq!(&buf, &data, "{} then {}", enc, dec);
            }
        }
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

common::stream_api_tests!(
    |imp| Salsa20::new(&[9; 32], &[4; 8]).with_impl(imp).unwrap(),
    rungs
);

/// The last block, 2^64 − 1, is usable; one byte past it is refused, with
/// nothing written and the position unchanged; the counter never wraps.
#[test]
fn keystream_end_is_an_error_not_a_wrap() {
    let key = [5u8; 32];
    let nonce = [6u8; 8];
    let end = 1u128 << 70;
    for imp in rungs("keystream_end_is_an_error_not_a_wrap") {
        let mut c = Salsa20::new(&key, &nonce).with_impl(imp).unwrap();
        c.seek(end - 100).unwrap();
        let mut last = [0u8; 100];
        c.apply_keystream(&mut last).unwrap();
        let mut want = [0u8; 100];
        reference_xor(&key, &nonce, end - 100, &mut want, 10);
        assert_eq!(last, want, "{imp}: the last 100 bytes");
        assert_eq!(c.position(), end);
        c.apply_keystream(&mut []).unwrap();
        let mut one = [0u8; 1];
        assert!(matches!(
            c.apply_keystream(&mut one),
            Err(Error::KeystreamExhausted { .. })
        ));

        let mut c = Salsa20::new(&key, &nonce).with_impl(imp).unwrap();
        c.seek(end - 10).unwrap();
        let mut buf = [0xaau8; 11];
        let err = c.apply_keystream(&mut buf).unwrap_err();
        assert_eq!(buf, [0xaa; 11], "{imp}: nothing written");
        assert_eq!(c.position(), end - 10, "{imp}: position unchanged");
        assert!(err.to_string().contains("exhausted"), "{err}");
        let mut out = [0u8; 11];
        assert!(c.xor_into(&[0u8; 11], &mut out).is_err());
        assert_eq!(out, [0u8; 11]);
    }
    let mut c = Salsa20::new(&key, &nonce);
    assert!(c.seek(end).is_ok());
    assert!(c.seek(end + 1).is_err());
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
