//! The Salsa20 ladder's checks, each taking the rungs to check: the
//! ordinary tests (`salsa20_rungs`, `salsa20_vectors`) give them every rung
//! this CPU runs, `avx512_emu` the AVX-512 rung alone.

use super::{
    EDGE_COUNTERS, EDGE_LENGTHS, Stretch, bytes, field, hex, hex_array, json, number, out_of_place,
    records, stretch,
};
use proptest::prelude::*;
use sha2::{Digest, Sha256};
use simdcrypt::Xor;
use simdcrypt::salsa20::{Impl, Salsa, Salsa20, XSalsa20, reference};

/// The reference keystream XOR at any byte offset, from spec §10 directly.
pub fn reference_xor(
    key: &[u8],
    nonce: &[u8; 8],
    offset: u128,
    data: &mut [u8],
    double_rounds: usize,
) {
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
        16 => Salsa::<DR>::new_128(key.try_into().unwrap(), nonce),
        n => panic!("a {n}-byte Salsa20 key"),
    };
    c.with_impl(imp).unwrap().with_xor(xor)
}

/// `imp` equals the reference at `offset` over `data`, applied in two calls
/// split at `split`, for `DR` double-rounds: in place, and out of place
/// (`xor_into`) from and to addresses shifted by amounts taken from the
/// length and the split, so every alignment comes up.
pub fn check<const DR: usize>(
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
    let what = format!(
        "rung {imp} ({xor}), Salsa20/{}, key {} bytes, offset {offset}, length {}, split {split}",
        2 * DR,
        key.len(),
        data.len()
    );
    let at = split.min(data.len());
    let mut got = data.to_vec();
    let mut c = cipher::<DR>(key, nonce, imp, xor);
    c.seek(offset).unwrap();
    let (a, b) = got.split_at_mut(at);
    c.apply_keystream(a).unwrap();
    c.apply_keystream(b).unwrap();
    assert_eq!(c.position(), offset + data.len() as u128, "{what}");
    assert!(got == want, "{what}");
    let (in_shift, out_shift) = (data.len() % 37, split % 31);
    let got = out_of_place(data, in_shift, out_shift, |input, output| {
        let mut c = cipher::<DR>(key, nonce, imp, xor);
        c.seek(offset).unwrap();
        let ((ia, ib), (oa, ob)) = (input.split_at(at), output.split_at_mut(at));
        c.xor_into(ia, oa).unwrap();
        c.xor_into(ib, ob).unwrap();
        assert_eq!(c.position(), offset + data.len() as u128, "{what}");
    });
    assert!(
        got == want,
        "{what}, out of place (shifts {in_shift}, {out_shift})"
    );
}

/// Every edge length at every edge counter, both XOR forms, all three
/// round counts, both key sizes.
pub fn matches_reference_at_the_edges(rungs: &[Impl]) {
    for &imp in rungs {
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

/// A Salsa20 cipher on `imp`, for the stream API's tests.
pub fn cipher_on(imp: Impl) -> Salsa20 {
    Salsa20::new(&[9; 32], &[4; 8]).with_impl(imp).unwrap()
}

/// One pass of [`matches_reference_for_every_length`]: for a length, the
/// XOR form, the byte offset and the split point.
pub type LengthPass = fn(usize) -> (Xor, u128, usize);

/// Salsa20/20 for every length from 0 to `max_len`, in each of `passes`.
pub fn matches_reference_for_every_length(rungs: &[Impl], max_len: usize, passes: &[LengthPass]) {
    let key = bytes(7, 32);
    let nonce = [3u8; 8];
    let data = bytes(8, max_len);
    for &imp in rungs {
        for len in 0..=max_len {
            for pass in passes {
                let (xor, offset, split) = pass(len);
                check::<10>(imp, xor, &key, &nonce, offset, &data[..len], split);
            }
        }
    }
}

/// The last `lens` bytes before 2^70 are usable, and then not one more;
/// a request of `n + 1` bytes from 2^70 − `n`, for `n` in `past`, is refused
/// with nothing written and the position unchanged, in place and out of
/// place; seeking to 2^70 is allowed, past it not.
pub fn keystream_end_is_an_error_not_a_wrap(rungs: &[Impl], lens: &[usize], past: &[usize]) {
    let (key, nonce, end) = ([5u8; 32], [6u8; 8], 1u128 << 70);
    for &imp in rungs {
        for &len in lens {
            let mut c = Salsa20::new(&key, &nonce).with_impl(imp).unwrap();
            c.seek(end - len as u128).unwrap();
            let mut got = vec![0u8; len];
            c.apply_keystream(&mut got).unwrap();
            let mut want = vec![0u8; len];
            reference_xor(&key, &nonce, end - len as u128, &mut want, 10);
            assert_eq!(got, want, "{imp}: the last {len} bytes");
            super::exhausted(&mut c, &format!("{imp}, {len}"));
        }
        for &n in past {
            let mut c = Salsa20::new(&key, &nonce).with_impl(imp).unwrap();
            c.seek(end - n as u128).unwrap();
            super::refused_past_the_end(&mut c, n + 1, &format!("{imp}, {n} + 1"));
        }
        let mut c = Salsa20::new(&key, &nonce).with_impl(imp).unwrap();
        assert!(c.seek(end).is_ok());
        assert!(c.seek(end + 1).is_err());
    }
}

/// One random case of [`random_inputs_match_reference`]: a key, a nonce,
/// a number of double rounds and a stretch of keystream.
pub type Case = (Vec<u8>, [u8; 8], usize, Stretch);

/// A 32- or 16-byte key, a nonce, Salsa20/20, /12 or /8, and a
/// [`Stretch`] of `data` split up to `max_split`.
pub fn case(data: impl Strategy<Value = Vec<u8>>, max_split: usize) -> impl Strategy<Value = Case> {
    (
        prop_oneof![
            prop::collection::vec(any::<u8>(), 32),
            prop::collection::vec(any::<u8>(), 16)
        ],
        any::<[u8; 8]>(),
        (0usize..3).prop_map(|rounds| [10, 6, 4][rounds]),
        stretch(data, max_split),
    )
}

/// Each rung equals the reference on `case`.
pub fn random_inputs_match_reference(rungs: impl IntoIterator<Item = Impl>, case: &Case) {
    let (key, nonce, double_rounds, s) = case;
    for imp in rungs {
        let (xor, offset, data, split) = (s.xor, s.offset, &s.data, s.split);
        match double_rounds {
            10 => check::<10>(imp, xor, key, nonce, offset, data, split),
            6 => check::<6>(imp, xor, key, nonce, offset, data, split),
            _ => check::<4>(imp, xor, key, nonce, offset, data, split),
        }
    }
}

/// XSalsa20 encrypted on the first rung of each pair and decrypted on the
/// second gives `data` back.
pub fn round_trip(
    pairs: &[(Impl, Impl)],
    key: &[u8; 32],
    nonce: &[u8; 24],
    data: &[u8],
) -> Result<(), TestCaseError> {
    for &(enc, dec) in pairs {
        let mut buf = data.to_vec();
        let on = |imp| XSalsa20::new(key, nonce).with_impl(imp).unwrap();
        on(enc).apply_keystream(&mut buf).unwrap();
        on(dec).apply_keystream(&mut buf).unwrap();
        prop_assert_eq!(&buf, data, "{} then {}", enc, dec);
    }
    Ok(())
}

/// A Salsa20/20 cipher for a 32- or 16-byte key on `imp`.
fn salsa20(key: &[u8], nonce: &[u8; 8], imp: Impl, xor: Xor) -> Salsa20 {
    cipher::<10>(key, nonce, imp, xor)
}

/// All the known answers below: spec §9's expansion examples, eSTREAM's
/// keystream slices and XOR digests, NaCl's XSalsa20 stream and XOR, and
/// NaCl's SHA-256 of 4 MiB of Salsa20 and XSalsa20 keystream.
pub fn known_answers(rungs: &[Impl]) {
    spec_expansion(rungs);
    estream(rungs);
    nacl_xsalsa20(rungs);
    nacl_keystream_digests(rungs);
}

/// The expansion examples (spec §9) are keystream block `n[8..16]` of a
/// cipher whose nonce is `n[0..8]`; the reference expansion gives them too.
pub fn spec_expansion(rungs: &[Impl]) {
    let v = json(include_str!("../data/salsa20/salsa20_spec.json"));
    for r in records(&v, "salsa20_expansion") {
        let n = hex_array::<16>(field(r, "n"));
        let want = hex(field(r, "output"));
        let key = hex(field(r, "key"));
        let expansion = match key.len() {
            32 => {
                reference::expansion(reference::Key::Bits256(key[..].try_into().unwrap()), &n, 10)
            }
            _ => reference::expansion(reference::Key::Bits128(key[..].try_into().unwrap()), &n, 10),
        };
        assert_eq!(expansion.to_vec(), want, "reference");
        let nonce: [u8; 8] = n[..8].try_into().unwrap();
        let counter = u64::from_le_bytes(n[8..].try_into().unwrap());
        for &imp in rungs {
            let mut block = [0u8; 64];
            let mut c = salsa20(&key, &nonce, imp, Xor::Simd128);
            c.seek(u128::from(counter) * 64).unwrap();
            c.apply_keystream(&mut block).unwrap();
            assert_eq!(block.to_vec(), want, "{imp}: §9");
        }
    }
}

/// eSTREAM: keystream slices at their offsets and the XOR digest of all
/// blocks, for both key sizes and both XOR forms.
pub fn estream(rungs: &[Impl]) {
    let v = json(include_str!("../data/salsa20/salsa20_estream_subset.json"));
    for &imp in rungs {
        for xor in Xor::ALL {
            for r in records(&v, "vectors") {
                let key = hex(field(r, "key"));
                let iv = hex_array::<8>(field(r, "iv"));
                let mut end = 0;
                for slice in records(r, "stream") {
                    let (from, to) = (number(slice, "from"), number(slice, "to"));
                    let mut ks = vec![0u8; (to - from + 1) as usize];
                    let mut c = salsa20(&key, &iv, imp, xor);
                    c.seek(u128::from(from)).unwrap();
                    c.apply_keystream(&mut ks).unwrap();
                    assert_eq!(ks, hex(field(slice, "hex")), "{imp} {xor}: {r}");
                    end = end.max(to as usize + 1);
                }
                let mut ks = vec![0u8; end];
                salsa20(&key, &iv, imp, xor)
                    .apply_keystream(&mut ks)
                    .unwrap();
                let mut digest = [0u8; 64];
                for block in ks.chunks(64) {
                    digest.iter_mut().zip(block).for_each(|(d, b)| *d ^= b);
                }
                assert_eq!(
                    digest.to_vec(),
                    hex(field(r, "xor_digest")),
                    "{imp} {xor}: eSTREAM digest"
                );
            }
        }
    }
}

/// NaCl's XSalsa20 stream and XOR examples.
pub fn nacl_xsalsa20(rungs: &[Impl]) {
    let v = json(include_str!("../data/salsa20/xsalsa20_nacl.json"));
    for &imp in rungs {
        let xsalsa = |r: &serde_json::Value| {
            XSalsa20::new(&hex_array(field(r, "key")), &hex_array(field(r, "nonce")))
                .with_impl(imp)
                .unwrap()
        };
        for r in records(&v, "xsalsa20_stream") {
            let want = hex(field(r, "keystream"));
            let mut ks = vec![0u8; want.len()];
            xsalsa(r).apply_keystream(&mut ks).unwrap();
            assert_eq!(ks, want, "{imp}: NaCl XSalsa20 stream");
        }
        for r in records(&v, "xsalsa20_xor") {
            let mut m = hex(field(r, "message"));
            xsalsa(r).apply_keystream(&mut m).unwrap();
            assert_eq!(m, hex(field(r, "ciphertext_full")), "{imp}: NaCl XOR");
        }
    }
}

/// NaCl's SHA-256 digests of 4 MiB of Salsa20 and XSalsa20 keystream (the
/// same bytes: XSalsa20's subkey and nonce tail are the Salsa20 key and
/// nonce of the other record).
pub fn nacl_keystream_digests(rungs: &[Impl]) {
    let v = json(include_str!("../data/salsa20/xsalsa20_nacl.json"));
    for &imp in rungs {
        for (list, x) in [
            ("salsa20_stream_hash", false),
            ("xsalsa20_stream_hash", true),
        ] {
            for r in records(&v, list) {
                let mut ks = vec![0u8; number(r, "length") as usize];
                let (key, nonce) = (hex_array(field(r, "key")), field(r, "nonce"));
                if x {
                    XSalsa20::new(&key, &hex_array(nonce))
                        .with_impl(imp)
                        .unwrap()
                        .apply_keystream(&mut ks)
                        .unwrap();
                } else {
                    Salsa20::new(&key, &hex_array(nonce))
                        .with_impl(imp)
                        .unwrap()
                        .apply_keystream(&mut ks)
                        .unwrap();
                }
                assert_eq!(
                    Sha256::digest(&ks).to_vec(),
                    hex(field(r, "sha256")),
                    "{imp}: {list}"
                );
            }
        }
    }
}
