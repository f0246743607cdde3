//! The ChaCha20 ladder's checks, each taking the rungs to check: the
//! ordinary tests (`chacha20_rungs`, `chacha20_vectors`) give them every
//! rung this CPU runs, `avx512_emu` the AVX-512 rungs alone.

use super::{
    EDGE_COUNTERS, EDGE_LENGTHS, Stretch, bytes, field, hex, hex_array, json, number, out_of_place,
    records, stretch, words,
};
use ::chacha20::cipher::{StreamCipher, StreamCipherSeek};
use proptest::prelude::*;
use simdcrypt::chacha20::{ChaCha20, ChaCha20Legacy, Impl, XChaCha20, reference};
use simdcrypt::{KeyStream, Xor};

/// One past the last byte of RFC 8439's keystream: 2^32 blocks.
const RFC_END: u128 = 1 << 38;

/// The two forms of the block counter.
#[derive(Clone, Copy, Debug)]
pub enum Form {
    /// RFC 8439: 32-bit counter, 96-bit nonce.
    Rfc,
    /// The original: 64-bit counter, 64-bit nonce (the first 8 nonce bytes).
    Legacy,
}

/// The reference keystream XOR at any byte offset, from RFC 8439 §2.4
/// directly.
pub fn reference_xor(form: Form, key: &[u8; 32], nonce: &[u8; 12], offset: u128, data: &mut [u8]) {
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

/// `imp` equals the reference at `offset` over `data`, applied in two
/// calls split at `split`: in place, and out of place (`xor_into`) from
/// and to addresses shifted by amounts taken from the length and the split,
/// so every alignment comes up.
#[allow(clippy::too_many_arguments)] // the parameters of one case
pub fn check(
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
    let what = format!(
        "rung {imp} ({xor}), {form:?}, offset {offset} (block {}), length {}, split {split}",
        offset / 64,
        data.len()
    );
    // Our cipher of `form` at `offset`.
    let cipher = || -> Box<dyn KeyStream> {
        let mut c: Box<dyn KeyStream> = match form {
            Form::Rfc => Box::new(
                ChaCha20::new(key, nonce)
                    .with_impl(imp)
                    .unwrap()
                    .with_xor(xor),
            ),
            Form::Legacy => Box::new(
                ChaCha20Legacy::new(key, nonce[..8].try_into().unwrap())
                    .with_impl(imp)
                    .unwrap()
                    .with_xor(xor),
            ),
        };
        c.seek(offset).unwrap();
        c
    };
    let end = offset + data.len() as u128;
    let at = split.min(data.len());
    let mut got = data.to_vec();
    let mut c = cipher();
    let (a, b) = got.split_at_mut(at);
    c.apply_keystream(a).unwrap();
    c.apply_keystream(b).unwrap();
    assert_eq!(c.position(), end, "{what}");
    assert!(got == want, "{what}");
    let (in_shift, out_shift) = (data.len() % 37, split % 31);
    let got = out_of_place(data, in_shift, out_shift, |input, output| {
        let mut c = cipher();
        let ((ia, ib), (oa, ob)) = (input.split_at(at), output.split_at_mut(at));
        c.xor_into(ia, oa).unwrap();
        c.xor_into(ib, ob).unwrap();
        assert_eq!(c.position(), end, "{what}");
    });
    assert!(
        got == want,
        "{what}, out of place (shifts {in_shift}, {out_shift})"
    );
}

/// RFC 8439's offset for the same block number modulo 2^32, moved back so
/// that `len` bytes end within its keystream.
pub fn rfc_offset(offset: u128, len: usize) -> u128 {
    (offset % RFC_END).min(RFC_END - len as u128)
}

/// Every edge length at every edge counter, both XOR forms, both counter
/// forms.
pub fn matches_reference_at_the_edges(rungs: &[Impl]) {
    for &imp in rungs {
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
                let rfc = rfc_offset(offset, len);
                check(Form::Rfc, imp, xor, &key, &nonce, rfc, &data, len / 2);
            }
        }
    }
}

/// A ChaCha20 cipher on `imp`, for the stream API's tests.
pub fn cipher_on(imp: Impl) -> ChaCha20 {
    ChaCha20::new(&[9; 32], &[4; 12]).with_impl(imp).unwrap()
}

/// One pass of [`matches_reference_for_every_length`]: for a length, the
/// counter form, the XOR form, the byte offset and the split point.
pub type LengthPass = fn(usize) -> (Form, Xor, u128, usize);

/// Every length from 0 to `max_len`, in each of `passes`.
pub fn matches_reference_for_every_length(rungs: &[Impl], max_len: usize, passes: &[LengthPass]) {
    let key: [u8; 32] = bytes(7, 32).try_into().unwrap();
    let nonce = [3u8; 12];
    let data = bytes(8, max_len);
    for &imp in rungs {
        for len in 0..=max_len {
            for pass in passes {
                let (form, xor, offset, split) = pass(len);
                check(form, imp, xor, &key, &nonce, offset, &data[..len], split);
            }
        }
    }
}

/// One random case of [`random_inputs_match_reference`]: a key, a nonce
/// and a stretch of keystream.
pub type Case = ([u8; 32], [u8; 12], Stretch);

/// A key, a nonce and a [`Stretch`] of `data` split up to `max_split`.
pub fn case(data: impl Strategy<Value = Vec<u8>>, max_split: usize) -> impl Strategy<Value = Case> {
    (
        any::<[u8; 32]>(),
        any::<[u8; 12]>(),
        stretch(data, max_split),
    )
}

/// Each rung equals the reference on `case`: the original form at its
/// offset, RFC 8439's at [`rfc_offset`].
pub fn random_inputs_match_reference(rungs: impl IntoIterator<Item = Impl>, case: &Case) {
    let (key, nonce, s) = case;
    let rfc = rfc_offset(s.offset, s.data.len());
    for imp in rungs {
        for (form, offset) in [(Form::Legacy, s.offset), (Form::Rfc, rfc)] {
            check(form, imp, s.xor, key, nonce, offset, &s.data, s.split);
        }
    }
}

/// `block` of each rung is the reference block function on `x`.
pub fn block_matches_reference(
    rungs: impl IntoIterator<Item = Impl>,
    x: &[u32; 16],
) -> Result<(), TestCaseError> {
    let z = reference::double_rounds(x, 10);
    let want: [u32; 16] = std::array::from_fn(|i| z[i].wrapping_add(x[i]));
    for imp in rungs {
        prop_assert_eq!(imp.block(x).unwrap(), want, "{}", imp);
    }
    Ok(())
}

/// `data` through RustCrypto's cipher `peer` and through ours, `ours(imp)`
/// for each rung, from byte `offset`: the same bytes.
pub fn matches_peer<C: KeyStream>(
    rungs: impl IntoIterator<Item = Impl>,
    mut peer: impl StreamCipher + StreamCipherSeek,
    ours: impl Fn(Impl) -> C,
    offset: u64,
    data: &[u8],
) -> Result<(), TestCaseError> {
    let mut want = data.to_vec();
    peer.seek(offset);
    peer.apply_keystream(&mut want);
    for imp in rungs {
        let mut got = data.to_vec();
        let mut c = ours(imp);
        c.seek(u128::from(offset)).unwrap();
        c.apply_keystream(&mut got).unwrap();
        prop_assert_eq!(&got, &want, "{}", imp);
    }
    Ok(())
}

/// RFC 8439's keystream is 2^32 blocks: 64 bytes at block 2^32 − 1 are
/// fine, longer requests are refused with nothing written (in place and out
/// of place), and the counter never wraps into block 0 or carries into the
/// nonce; every length to `ending_up_to` that ends exactly at the end
/// equals the reference.
pub fn rfc_keystream_end(rungs: &[Impl], ending_up_to: usize) {
    let (key, nonce) = ([5u8; 32], [6u8; 12]);
    let last = RFC_END - 64;
    for &imp in rungs {
        let mut c = ChaCha20::new(&key, &nonce).with_impl(imp).unwrap();
        c.seek(last).unwrap();
        let mut block = [0u8; 64];
        c.apply_keystream(&mut block).unwrap();
        assert_eq!(
            block,
            reference::block(&key, u32::MAX, &nonce),
            "{imp}: the last block"
        );
        super::exhausted(&mut c, &imp.to_string());
        for len in [65, 64 * 17, 64 * 33 + 1] {
            let mut c = ChaCha20::new(&key, &nonce).with_impl(imp).unwrap();
            c.seek(last).unwrap();
            let err = super::refused_past_the_end(&mut c, len, &format!("{imp}, {len}"));
            assert!(err.contains(&u32::MAX.to_string()), "{err}");
        }
        for len in 1..=ending_up_to {
            let mut c = ChaCha20::new(&key, &nonce).with_impl(imp).unwrap();
            c.seek(RFC_END - len as u128).unwrap();
            let mut buf = vec![0u8; len];
            c.apply_keystream(&mut buf).unwrap();
            let mut want = vec![0u8; len];
            reference_xor(Form::Rfc, &key, &nonce, RFC_END - len as u128, &mut want);
            assert!(buf == want, "{imp}: the last {len} bytes");
        }
    }
    let mut c = ChaCha20::new(&key, &nonce);
    assert!(c.seek(RFC_END).is_ok());
    assert!(c.seek(RFC_END + 1).is_err());
}

/// The original form's keystream is 2^64 blocks: the last 20 end with the
/// reference's block 2^64 − 1 (the counter carries from word 12 into word
/// 13 across 2^32 on the way), and one byte more is refused; XChaCha20's
/// too, with nothing written.
pub fn legacy_keystream_end(rungs: &[Impl]) {
    let (key, nonce, end) = ([5u8; 32], [6u8; 8], 1u128 << 70);
    for &imp in rungs {
        let mut c = ChaCha20Legacy::new(&key, &nonce).with_impl(imp).unwrap();
        c.seek(end - 64 * 20).unwrap();
        let mut buf = vec![0u8; 64 * 20];
        c.apply_keystream(&mut buf).unwrap();
        assert_eq!(
            &buf[64 * 19..],
            reference::block_legacy(&key, u64::MAX, &nonce),
            "{imp}"
        );
        assert!(c.apply_keystream(&mut [0u8; 1]).is_err(), "{imp}");
        let mut c = XChaCha20::new(&key, &[1; 24]).with_impl(imp).unwrap();
        c.seek(end - 10).unwrap();
        let mut buf = [0x55u8; 11];
        assert!(c.apply_keystream(&mut buf).is_err(), "{imp}");
        assert_eq!(buf, [0x55; 11], "{imp}: nothing written");
    }
}

/// `data` through `new(imp, xor)` on each rung and XOR form, from byte
/// `offset`, whole and in chunks of 1 to 256 bytes: each must give `want`.
fn in_chunks<C: KeyStream>(
    what: &str,
    rungs: &[Impl],
    new: impl Fn(Impl, Xor) -> C,
    offset: u128,
    data: &[u8],
    want: &[u8],
) {
    for &imp in rungs {
        for xor in Xor::ALL {
            for chunk in [data.len().max(1), 1, 7, 63, 64, 65, 256] {
                let mut c = new(imp, xor);
                c.seek(offset).unwrap();
                let mut got = data.to_vec();
                for piece in got.chunks_mut(chunk) {
                    c.apply_keystream(piece).unwrap();
                }
                assert_eq!(got, want, "{what}: rung {imp} ({xor}), chunks of {chunk}");
            }
        }
    }
}

/// ChaCha20 of RFC 8439 on `key` and `nonce`.
fn rfc_cipher(key: &[u8; 32], nonce: &[u8; 12]) -> impl Fn(Impl, Xor) -> ChaCha20 {
    move |imp, xor| {
        ChaCha20::new(key, nonce)
            .with_impl(imp)
            .unwrap()
            .with_xor(xor)
    }
}

/// The vectors of RFC 8439.
fn rfc() -> serde_json::Value {
    json(include_str!("../data/rfc8439/rfc8439.json"))
}

/// All the known answers below: RFC 8439 §2.3.2, §2.4.2, A.1, A.2 and the
/// XChaCha draft's A.2.1/A.3.2.
pub fn known_answers(rungs: &[Impl]) {
    rfc_block_function(rungs);
    rfc_encryption(rungs);
    draft_xchacha20(rungs);
}

/// A record's section, key and nonce.
fn rfc_record(r: &serde_json::Value) -> (&str, [u8; 32], [u8; 12]) {
    (
        field(r, "section"),
        hex_array(field(r, "key")),
        hex_array(field(r, "nonce")),
    )
}

/// RFC 8439 §2.3.2 and A.1: the block function, its states, and its
/// keystream (through `Impl::block` and through the cipher, whole and in
/// chunks, both XOR forms).
pub fn rfc_block_function(rungs: &[Impl]) {
    let v = rfc();
    for r in records(&v, "chacha20_block") {
        let (section, key, nonce) = rfc_record(r);
        let counter = number(r, "block_counter");
        let state = reference::initial_state(&key, counter as u32, &nonce);
        if !r["initial_state"].is_null() {
            assert_eq!(state, words::<16>(&r["initial_state"]), "{section}");
        }
        if !r["state_after_20_rounds"].is_null() {
            assert_eq!(
                reference::double_rounds(&state, 10),
                words::<16>(&r["state_after_20_rounds"]),
                "{section}"
            );
        }
        let final_state = words::<16>(&r["final_state"]);
        for &imp in rungs {
            assert_eq!(
                imp.block(&state).unwrap(),
                final_state,
                "{section}, rung {imp}"
            );
        }
        let keystream = hex(field(r, "keystream"));
        assert_eq!(
            reference::block(&key, counter as u32, &nonce).to_vec(),
            keystream
        );
        let zeros = vec![0u8; keystream.len()];
        let offset = u128::from(counter) * 64;
        in_chunks(
            section,
            rungs,
            rfc_cipher(&key, &nonce),
            offset,
            &zeros,
            &keystream,
        );
    }
}

/// RFC 8439 §2.4.2 (the sunscreen) and A.2: encryption both ways, with the
/// block states of §2.4.2, whole and in chunks, both XOR forms.
pub fn rfc_encryption(rungs: &[Impl]) {
    let v = rfc();
    for r in records(&v, "chacha20_encryption") {
        let (section, key, nonce) = rfc_record(r);
        let counter = number(r, "initial_counter");
        let plaintext = hex(field(r, "plaintext"));
        let ciphertext = hex(field(r, "ciphertext"));
        for (i, (setup, after)) in [
            ("first_block_setup", "first_block_after_block_operation"),
            ("second_block_setup", "second_block_after_block_operation"),
        ]
        .into_iter()
        .enumerate()
        {
            if r[setup].is_null() {
                continue;
            }
            let state = reference::initial_state(&key, counter as u32 + i as u32, &nonce);
            assert_eq!(state, words::<16>(&r[setup]), "{section} {setup}");
            for &imp in rungs {
                assert_eq!(
                    imp.block(&state).unwrap(),
                    words::<16>(&r[after]),
                    "{section}, {imp}"
                );
            }
        }
        if !r["keystream"].is_null() {
            let keystream = hex(field(r, "keystream"));
            let mut got = vec![0u8; keystream.len()];
            reference::encrypt(&key, counter as u32, &nonce, &mut got);
            assert_eq!(got, keystream, "{section}: keystream");
        }
        let mut got = plaintext.clone();
        reference::encrypt(&key, counter as u32, &nonce, &mut got);
        assert_eq!(got, ciphertext, "{section}: reference");
        let offset = u128::from(counter) * 64;
        for (from, to) in [(&plaintext, &ciphertext), (&ciphertext, &plaintext)] {
            in_chunks(section, rungs, rfc_cipher(&key, &nonce), offset, from, to);
        }
    }
}

/// draft-irtf-cfrg-xchacha-03 A.2.1/A.3.2: XChaCha20's keystream and
/// ciphertext, whole and in chunks, both XOR forms.
pub fn draft_xchacha20(rungs: &[Impl]) {
    let v = json(include_str!(
        "../data/xchacha/draft-irtf-cfrg-xchacha-03.json"
    ));
    for r in records(&v, "xchacha20") {
        let section = field(r, "section");
        let key = hex_array::<32>(field(r, "key"));
        let nonce = hex_array::<24>(field(r, "nonce"));
        let offset = u128::from(number(r, "initial_counter")) * 64;
        let plaintext = hex(field(r, "plaintext"));
        let ciphertext = hex(field(r, "ciphertext"));
        let keystream = hex(field(r, "keystream"));
        let zeros = vec![0u8; keystream.len()];
        let new = |imp, xor| {
            XChaCha20::new(&key, &nonce)
                .with_impl(imp)
                .unwrap()
                .with_xor(xor)
        };
        in_chunks(section, rungs, new, offset, &plaintext, &ciphertext);
        in_chunks(section, rungs, new, offset, &zeros, &keystream);
    }
}
