//! Every ChaCha20 rung against the reference reading of RFC 8439: random
//! keys, nonces, counters (near 2^32 for the original form's carry and for
//! the end of RFC 8439's keystream), lengths, offsets and split points, in
//! place and out of place at every alignment; the API's promises (resumable
//! calls, `xor_into`, the end of the keystream); and the three ciphers
//! against RustCrypto's `chacha20` as an independent peer.

// The specifications' `reference` modules are `hazmat` items.
#![cfg(feature = "hazmat")]

mod common;

use chacha20::cipher::{KeyIvInit as _, StreamCipher as _, StreamCipherSeek as _};
use common::{EDGE_COUNTERS, EDGE_LENGTHS, bytes, out_of_place};
use proptest::prelude::*;
use simdcrypt::chacha20::{ChaCha20, ChaCha20Legacy, Impl, XChaCha20, hchacha20, reference};
use simdcrypt::{Error, Xor};

/// The rungs this CPU runs, printed once per test so the log shows what was
/// exercised and what was skipped.
fn rungs(test: &str) -> Vec<Impl> {
    common::rungs(test)
}

/// The two forms of the block counter.
#[derive(Clone, Copy, Debug)]
enum Form {
    /// RFC 8439: 32-bit counter, 96-bit nonce.
    Rfc,
    /// The original: 64-bit counter, 64-bit nonce (the first 8 nonce bytes).
    Legacy,
}

/// The reference keystream XOR at any byte offset, from RFC 8439 §2.4
/// directly.
fn reference_xor(form: Form, key: &[u8; 32], nonce: &[u8; 12], offset: u128, data: &mut [u8]) {
    let first_block = (offset / 64) as u64;
    let skip = (offset % 64) as usize;
    let mut buf = vec![0u8; skip + data.len()];
    buf[skip..].copy_from_slice(data);
    match form {
        Form::Rfc => reference::encrypt(key, first_block as u32, nonce, &mut buf),
        Form::Legacy => {
            reference::encrypt_legacy(key, first_block, nonce[..8].try_into().unwrap(), &mut buf)
        }
    }
    data.copy_from_slice(&buf[skip..]);
}

/// Our cipher of `form` on `imp`, at `offset`, applied to `data` in two
/// calls split at `split`; returns the position after.
#[allow(clippy::too_many_arguments)] // the parameters of one case, as `check` has them
fn ours(
    form: Form,
    imp: Impl,
    xor: Xor,
    key: &[u8; 32],
    nonce: &[u8; 12],
    offset: u128,
    data: &mut [u8],
    split: usize,
) -> u128 {
    let (a, b) = data.split_at_mut(split.min(data.len()));
    // The same calls on either type.
    macro_rules! run {
        ($cipher:expr) => {{
            let mut c = $cipher.with_impl(imp).unwrap().with_xor(xor);
            c.seek(offset).unwrap();
            c.apply_keystream(a).unwrap();
            c.apply_keystream(b).unwrap();
            c.position()
        }};
    }
    match form {
        Form::Rfc => run!(ChaCha20::new(key, nonce)),
        Form::Legacy => run!(ChaCha20Legacy::new(key, nonce[..8].try_into().unwrap())),
    }
}

/// [`ours`] out of place: `xor_into` from `input` into `output`, in two
/// calls split at `split`; returns the position after.
#[allow(clippy::too_many_arguments)] // the parameters of one case, as `check` has them
fn ours_into(
    form: Form,
    imp: Impl,
    xor: Xor,
    key: &[u8; 32],
    nonce: &[u8; 12],
    offset: u128,
    (input, output): (&[u8], &mut [u8]),
    split: usize,
) -> u128 {
    let at = split.min(input.len());
    let ((ia, ib), (oa, ob)) = (input.split_at(at), output.split_at_mut(at));
    macro_rules! run {
        ($cipher:expr) => {{
            let mut c = $cipher.with_impl(imp).unwrap().with_xor(xor);
            c.seek(offset).unwrap();
            c.xor_into(ia, oa).unwrap();
            c.xor_into(ib, ob).unwrap();
            c.position()
        }};
    }
    match form {
        Form::Rfc => run!(ChaCha20::new(key, nonce)),
        Form::Legacy => run!(ChaCha20Legacy::new(key, nonce[..8].try_into().unwrap())),
    }
}

/// `imp` equals the reference at `offset` over `data`, split at `split`.
#[allow(clippy::too_many_arguments)]
fn check(
    form: Form,
    imp: Impl,
    xor: Xor,
    key: &[u8; 32],
    nonce: &[u8; 12],
    offset: u128,
    data: &[u8],
    split: usize,
) {
    let mut want = data.to_vec();
    reference_xor(form, key, nonce, offset, &mut want);
    let mut got = data.to_vec();
    let end = ours(form, imp, xor, key, nonce, offset, &mut got, split);
    assert_eq!(end, offset + data.len() as u128);
    assert!(
        got == want,
        "rung {imp} ({xor}), {form:?}, offset {offset} (block {}), length {}, split {split}",
        offset / 64,
        data.len()
    );
    // Out of place, from and to addresses shifted by amounts taken from the
    // length and the split, so every alignment comes up.
    let (in_shift, out_shift) = (data.len() % 37, split % 31);
    let got = out_of_place(data, in_shift, out_shift, |input, output| {
        let end = ours_into(form, imp, xor, key, nonce, offset, (input, output), split);
        assert_eq!(end, offset + data.len() as u128);
    });
    assert!(
        got == want,
        "rung {imp} ({xor}) out of place (shifts {in_shift}, {out_shift}), {form:?}, offset {offset} (block {}), length {}, split {split}",
        offset / 64,
        data.len()
    );
}

/// The RFC form's counters: the edge counters that fit 32 bits, with the
/// request cut so that it ends within block 2^32 − 1.
fn rfc_fits(offset: u128, len: usize) -> bool {
    offset + len as u128 <= 1 << 38
}

/// Every edge length at every edge counter, every rung, both XOR forms, both
/// counter forms.
#[test]
fn every_rung_matches_reference_at_the_edges() {
    for imp in rungs("every_rung_matches_reference_at_the_edges") {
        for (i, &counter) in EDGE_COUNTERS.iter().enumerate() {
            for (j, &len) in EDGE_LENGTHS.iter().enumerate() {
                let seed = (i * 100 + j) as u64;
                let key: [u8; 32] = bytes(seed, 32).try_into().unwrap();
                let nonce: [u8; 12] = bytes(seed + 1, 12).try_into().unwrap();
                let data = bytes(seed + 2, len);
                let offset = u128::from(counter) * 64 + (j % 5) as u128 * 13 % 64;
                let xor = Xor::ALL[j % 2];
                check(Form::Legacy, imp, xor, &key, &nonce, offset, &data, len / 3);
                // The RFC form at the same block number modulo 2^32, and
                // ending at the end of its keystream where it would run past.
                let rfc_offset = offset % (1 << 38);
                let rfc_offset = if rfc_fits(rfc_offset, len) {
                    rfc_offset
                } else {
                    (1 << 38) - len as u128
                };
                check(
                    Form::Rfc,
                    imp,
                    xor,
                    &key,
                    &nonce,
                    rfc_offset,
                    &data,
                    len / 2,
                );
            }
        }
    }
}

/// Every length from 0 to 2100 from block 0 (every path of the 16/8/4/1–3
/// cascade and every partial last block), across the 2^32 carry of the
/// original form, and up to the very end of RFC 8439's keystream.
#[test]
fn every_rung_matches_reference_for_every_length() {
    let key: [u8; 32] = bytes(7, 32).try_into().unwrap();
    let nonce = [3u8; 12];
    let data = bytes(8, 2100);
    for imp in rungs("every_rung_matches_reference_for_every_length") {
        for len in 0..=2100 {
            let d = &data[..len];
            check(Form::Rfc, imp, Xor::Simd128, &key, &nonce, 0, d, 0);
            for below in [3u128, 17] {
                let carry = ((1u128 << 32) - below) * 64 + 5;
                check(
                    Form::Legacy,
                    imp,
                    Xor::Bytewise,
                    &key,
                    &nonce,
                    carry,
                    d,
                    len,
                );
            }
            check(
                Form::Rfc,
                imp,
                Xor::Simd128,
                &key,
                &nonce,
                (1 << 38) - len as u128,
                d,
                len / 2,
            );
        }
    }
}

/// `data` through RustCrypto's cipher `$peer` and through ours, `$ours`,
/// on every rung, from byte `$offset`: the same bytes (in a proptest body).
macro_rules! matches_peer {
    ($peer:expr, $ours:expr, $offset:expr, $data:expr) => {{
        let mut want = $data.clone();
        let mut peer = $peer;
        peer.seek($offset);
        peer.apply_keystream(&mut want);
        for imp in Impl::available() {
            let mut got = $data.clone();
            let mut c = $ours.with_impl(imp).unwrap();
            c.seek(u128::from($offset)).unwrap();
            c.apply_keystream(&mut got).unwrap();
            prop_assert_eq!(&got, &want, "{}", imp);
        }
    }};
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

    /// Random keys, nonces, counters, offsets, lengths (0 to 20 blocks and a
    /// bit, past the 16-block width) and split points, both forms.
    #[test]
    fn random_inputs_match_reference(
        key in any::<[u8; 32]>(),
        nonce in any::<[u8; 12]>(),
        counter in counter_strategy(),
        byte in 0u128..64,
        data in prop::collection::vec(any::<u8>(), 0..=20 * 64 + 40),
        split in 0usize..=1400,
        bytewise in any::<bool>(),
    ) {
        let xor = if bytewise { Xor::Bytewise } else { Xor::Simd128 };
        let offset = u128::from(counter) * 64 + byte;
        let rfc_offset = offset % (1 << 38);
        let rfc_offset = if rfc_fits(rfc_offset, data.len()) { rfc_offset } else { (1 << 38) - data.len() as u128 };
        for imp in Impl::available() {
            check(Form::Legacy, imp, xor, &key, &nonce, offset, &data, split);
            check(Form::Rfc, imp, xor, &key, &nonce, rfc_offset, &data, split);
        }
    }

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
        let z = reference::double_rounds(&x, 10);
        let want: [u32; 16] = std::array::from_fn(|i| z[i].wrapping_add(x[i]));
        for imp in Impl::available() {
            prop_assert_eq!(imp.block(&x).unwrap(), want, "{}", imp);
        }
    }

    /// XChaCha20 against RustCrypto's, at random offsets and lengths.
    #[test]
    fn xchacha20_matches_rustcrypto(
        key in any::<[u8; 32]>(),
        nonce in any::<[u8; 24]>(),
        offset in prop_oneof![0u64..100_000, any::<u64>().prop_map(|o| o >> 27)],
        data in prop::collection::vec(any::<u8>(), 0..=1500),
    ) {
        matches_peer!(
            chacha20::XChaCha20::new(&key.into(), &nonce.into()),
            XChaCha20::new(&key, &nonce),
            offset,
            data
        );
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
        matches_peer!(
            chacha20::ChaCha20::new(&key.into(), &nonce.into()),
            ChaCha20::new(&key, &nonce),
            offset,
            data
        );
        matches_peer!(
            chacha20::ChaCha20Legacy::new(&key.into(), &legacy_nonce.into()),
            ChaCha20Legacy::new(&key, &legacy_nonce),
            offset,
            data
        );
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

common::stream_api_tests!(
    |imp| ChaCha20::new(&[9; 32], &[4; 12]).with_impl(imp).unwrap(),
    rungs
);

/// RFC 8439's keystream is 2^32 blocks: 64 bytes at block 2^32 − 1 are
/// fine, 65 are refused with nothing written, and the counter never wraps
/// into block 0 or carries into the nonce.
#[test]
fn rfc_keystream_ends_at_block_2_pow_32() {
    let key = [5u8; 32];
    let nonce = [6u8; 12];
    let end = 1u128 << 38;
    let last = end - 64;
    for imp in rungs("rfc_keystream_ends_at_block_2_pow_32") {
        let mut c = ChaCha20::new(&key, &nonce).with_impl(imp).unwrap();
        c.seek(last).unwrap();
        let mut block = [0u8; 64];
        c.apply_keystream(&mut block).unwrap();
        assert_eq!(
            block,
            reference::block(&key, u32::MAX, &nonce),
            "{imp}: the last block"
        );
        assert_eq!(c.position(), end);
        c.apply_keystream(&mut []).unwrap();
        let mut one = [0u8; 1];
        assert!(matches!(
            c.apply_keystream(&mut one),
            Err(Error::KeystreamExhausted { .. })
        ));

        for len in [65, 64 * 17, 64 * 33 + 1] {
            let mut c = ChaCha20::new(&key, &nonce).with_impl(imp).unwrap();
            c.seek(last).unwrap();
            let mut buf = vec![0xaau8; len];
            let err = c.apply_keystream(&mut buf).unwrap_err();
            assert!(buf.iter().all(|&b| b == 0xaa), "{imp}: nothing written");
            assert_eq!(c.position(), last, "{imp}: position unchanged");
            assert!(err.to_string().contains("exhausted"), "{err}");
            assert!(err.to_string().contains(&u32::MAX.to_string()), "{err}");
            let mut out = vec![0u8; len];
            assert!(c.xor_into(&vec![1u8; len], &mut out).is_err());
            assert!(out.iter().all(|&b| b == 0), "{imp}: xor_into wrote nothing");
        }
        // Every length ending exactly at the end, on every rung.
        for len in 1..=40 * 64 {
            let mut c = ChaCha20::new(&key, &nonce).with_impl(imp).unwrap();
            c.seek(end - len as u128).unwrap();
            let mut buf = vec![0u8; len];
            c.apply_keystream(&mut buf).unwrap();
            let mut want = vec![0u8; len];
            reference_xor(Form::Rfc, &key, &nonce, end - len as u128, &mut want);
            assert!(buf == want, "{imp}: the last {len} bytes");
        }
    }
    let mut c = ChaCha20::new(&key, &nonce);
    assert!(c.seek(end).is_ok());
    assert!(c.seek(end + 1).is_err());
}

/// The original form's keystream is 2^64 blocks; the counter carries from
/// word 12 into word 13 across 2^32 on every rung.
#[test]
fn legacy_keystream_ends_at_block_2_pow_64() {
    let key = [5u8; 32];
    let nonce = [6u8; 8];
    let end = 1u128 << 70;
    for imp in rungs("legacy_keystream_ends_at_block_2_pow_64") {
        let mut c = ChaCha20Legacy::new(&key, &nonce).with_impl(imp).unwrap();
        c.seek(end - 64 * 20).unwrap();
        let mut buf = vec![0u8; 64 * 20];
        c.apply_keystream(&mut buf).unwrap();
        assert_eq!(
            &buf[64 * 19..],
            reference::block_legacy(&key, u64::MAX, &nonce)
        );
        assert!(c.apply_keystream(&mut [0u8; 1]).is_err());
        let mut c = XChaCha20::new(&key, &[1; 24]).with_impl(imp).unwrap();
        c.seek(end - 10).unwrap();
        let mut buf = [0x55u8; 11];
        assert!(c.apply_keystream(&mut buf).is_err());
        assert_eq!(buf, [0x55; 11]);
    }
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
