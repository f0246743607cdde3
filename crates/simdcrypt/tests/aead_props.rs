//! The AEADs against RustCrypto's independent `chacha20poly1305` and
//! `xsalsa20poly1305` on random keys, nonces, associated data and messages
//! whose lengths cross every switch point (ChaCha20's 4/8/16-block batches,
//! Poly1305's scalar/vector switch, the one-pass chunk, every 512-byte
//! batch of a stitched kernel), in place and into buffers of one's own
//! (`encrypt_into`/`decrypt_into`) at every alignment; and the refusal of
//! every altered bit and every wrong length, with the output zeroed.

mod common;

use chacha20poly1305::aead::{AeadInOut, KeyInit};
use common::{BLOCK_EDGES, GUARD, bytes, into_buffer};
use proptest::prelude::*;
use simdcrypt::Error;
use simdcrypt::aead::{ChaCha20Poly1305, XChaCha20Poly1305, XSalsa20Poly1305};

/// Lengths around the one-pass chunk (256 KiB), a multiple of it, and the
/// former chunk (4 KiB).
const CHUNK_EDGES: &[usize] = &[
    4095,
    4096,
    4097,
    8193,
    (256 << 10) - 1,
    256 << 10,
    (256 << 10) + 1,
    2 * (256 << 10) + 17,
];

/// Offsets around a multiple of a stitched kernel's 512-byte batch: the
/// boundary itself, a Poly1305 block either side, and 32 bytes (where a
/// secretbox message reaches a keystream block boundary).
const BATCH_OFFSETS: [isize; 11] = [-33, -32, -17, -16, -1, 0, 1, 16, 31, 32, 33];

/// Lengths around every multiple of 512 bytes up to 8 batches (4 KiB),
/// beyond the short path: a stitched kernel's first, last and only batch,
/// with and without a partial batch after it.
fn batch_edges() -> impl Iterator<Item = usize> {
    (1..=8usize)
        .flat_map(|n| BATCH_OFFSETS.map(|d| (n * 512).checked_add_signed(d)))
        .flatten()
}

fn peer_chacha(key: &[u8; 32], nonce: &[u8; 12], aad: &[u8], pt: &[u8]) -> Vec<u8> {
    let mut data = pt.to_vec();
    let tag = chacha20poly1305::ChaCha20Poly1305::new(key.into())
        .encrypt_inout_detached(nonce.into(), aad, data.as_mut_slice().into())
        .expect("RustCrypto seal");
    data.extend_from_slice(&tag);
    data
}

fn peer_xchacha(key: &[u8; 32], nonce: &[u8; 24], aad: &[u8], pt: &[u8]) -> Vec<u8> {
    let mut data = pt.to_vec();
    let tag = chacha20poly1305::XChaCha20Poly1305::new(key.into())
        .encrypt_inout_detached(nonce.into(), aad, data.as_mut_slice().into())
        .expect("RustCrypto seal");
    data.extend_from_slice(&tag);
    data
}

fn peer_secretbox(key: &[u8; 32], nonce: &[u8; 24], pt: &[u8]) -> Vec<u8> {
    use xsalsa20poly1305::aead::{AeadInPlace, KeyInit};
    let mut data = pt.to_vec();
    let tag = xsalsa20poly1305::XSalsa20Poly1305::new(key.into())
        .encrypt_in_place_detached(nonce.into(), &[], &mut data)
        .expect("RustCrypto seal");
    [&tag[..], &data].concat()
}

/// The three AEADs' forms side by side, for one message: the combined,
/// allocating pair, the pair into buffers of one's own, and the detached
/// in-place pair. `[aad]` is the associated data every method gets after
/// the nonce, `[]` none (secretbox, whose methods take none).
macro_rules! each_form {
    ($what:expr, $aead:expr, $nonce:expr, [$($aad:expr)?], $pt:expr, $seed:expr, $want:expr, $tag_first:expr) => {{
        let (aead, nonce, pt, want) = ($aead, $nonce, $pt, $want);
        let what = $what;
        let len = pt.len();
        let sealed = aead.encrypt(nonce, $($aad,)? pt);
        assert_eq!(sealed, want, "{what} len {len}: encrypt");
        assert_eq!(
            aead.decrypt(nonce, $($aad,)? &sealed).as_deref(),
            Ok(pt),
            "{what} len {len}"
        );
        // Into buffers at shifted addresses, shifts from the seed.
        let (s1, s2) = (($seed % 23) as usize, ($seed / 23 % 19) as usize);
        let into = into_buffer(pt, s1, s2, len + 16, |i, o| {
            aead.encrypt_into(nonce, $($aad,)? i, o).expect("sealed")
        });
        assert_eq!(into, want, "{what} len {len}: encrypt_into");
        let opened = into_buffer(&want, s2, s1, len, |i, o| {
            aead.decrypt_into(nonce, $($aad,)? i, o).expect("opened")
        });
        assert_eq!(opened, pt, "{what} len {len}: decrypt_into");
        // Detached in place.
        let mut data = pt.to_vec();
        let tag = aead.encrypt_in_place_detached(nonce, $($aad,)? &mut data);
        let (t, c) = if $tag_first {
            (&want[..16], &want[16..])
        } else {
            (&want[len..], &want[..len])
        };
        assert_eq!((&tag[..], &data[..]), (t, c), "{what} len {len}: in place");
        aead.decrypt_in_place_detached(nonce, $($aad,)? &mut data, &tag)
            .expect("opened in place");
        assert_eq!(data, pt, "{what} len {len}: decrypt in place");
    }};
}

/// Seals with all three AEADs in every form, compares with the peers, and
/// opens again.
fn agree(seed: u64, len: usize, aad_len: usize) {
    let key: [u8; 32] = bytes(seed, 32).try_into().expect("32");
    let nonce: [u8; 24] = bytes(seed ^ 1, 24).try_into().expect("24");
    let n12: [u8; 12] = nonce[..12].try_into().expect("12");
    let aad = bytes(seed ^ 2, aad_len);
    let pt = bytes(seed ^ 3, len);

    let want = peer_chacha(&key, &n12, &aad, &pt);
    let a = ChaCha20Poly1305::new(&key);
    each_form!(
        "chacha20-poly1305",
        &a,
        &n12,
        [&aad[..]],
        &pt[..],
        seed,
        want,
        false
    );

    let want = peer_xchacha(&key, &nonce, &aad, &pt);
    let x = XChaCha20Poly1305::new(&key);
    each_form!(
        "xchacha20-poly1305",
        &x,
        &nonce,
        [&aad[..]],
        &pt[..],
        seed,
        want,
        false
    );

    let want = peer_secretbox(&key, &nonce, &pt);
    let s = XSalsa20Poly1305::new(&key);
    each_form!(
        "xsalsa20-poly1305",
        &s,
        &nonce,
        [],
        &pt[..],
        seed,
        want,
        true
    );
}

#[test]
fn every_short_length_and_every_edge() {
    for len in (0..=300)
        .chain(BLOCK_EDGES.iter().copied())
        .chain(CHUNK_EDGES.iter().copied())
    {
        agree(len as u64, len, len % 37);
    }
}

#[test]
fn around_every_batch_with_every_short_aad() {
    for len in batch_edges() {
        agree(len as u64, len, len % 41);
    }
    for len in [512, 1024 + 1, 8 * 512 - 1] {
        for aad_len in 0..=40 {
            agree((len * 41 + aad_len) as u64, len, aad_len);
        }
    }
}

/// Altered bits in the first batch, the last whole batch, the partial
/// batch after it, the associated data or the tag of messages around batch
/// boundaries are refused, and the buffer is zeroed.
#[test]
fn altered_long_messages_are_refused_and_zeroed() {
    let key = [0x3c; 32];
    let aad = bytes(8, 13);
    for len in batch_edges() {
        let pt = bytes(len as u64, len);
        let flips = [
            0,
            7 * 8 + 3,
            (len / 512 * 512).saturating_sub(1) * 8,
            len * 8 - 1,
        ];
        let a = ChaCha20Poly1305::new(&key);
        let x = XChaCha20Poly1305::new(&key);
        let s = XSalsa20Poly1305::new(&key);
        let mut ct = [pt.clone(), pt.clone(), pt.clone()];
        let tags = [
            a.encrypt_in_place_detached(&[1; 12], &aad, &mut ct[0]),
            x.encrypt_in_place_detached(&[1; 24], &aad, &mut ct[1]),
            s.encrypt_in_place_detached(&[1; 24], &mut ct[2]),
        ];
        let open = |which: usize, aad: &[u8], data: &mut [u8], tag: &[u8; 16]| match which {
            0 => a.decrypt_in_place_detached(&[1; 12], aad, data, tag),
            1 => x.decrypt_in_place_detached(&[1; 24], aad, data, tag),
            _ => s.decrypt_in_place_detached(&[1; 24], data, tag),
        };
        for which in 0..3 {
            let aad: &[u8] = if which == 2 { &[] } else { &aad };
            let mut data = ct[which].clone();
            assert_eq!(open(which, aad, &mut data, &tags[which]), Ok(()));
            assert_eq!(data, pt, "aead {which} len {len}");
            for bit in flips {
                let mut data = ct[which].clone();
                data[bit / 8] ^= 1 << (bit % 8);
                let r = open(which, aad, &mut data, &tags[which]);
                assert_eq!(
                    r,
                    Err(Error::AuthenticationFailed),
                    "aead {which} len {len} bit {bit}"
                );
                assert!(
                    data.iter().all(|&b| b == 0),
                    "aead {which} len {len} bit {bit}"
                );
            }
            // Into a buffer of one's own: refused, the output all zeros.
            for bit in flips {
                let mut sealed = if which == 2 {
                    [&tags[which][..], &ct[which]].concat()
                } else {
                    [&ct[which][..], &tags[which]].concat()
                };
                let at = if which == 2 { 16 + bit / 8 } else { bit / 8 };
                sealed[at] ^= 1 << (bit % 8);
                let mut out = vec![GUARD; len];
                let r = match which {
                    0 => a.decrypt_into(&[1; 12], aad, &sealed, &mut out),
                    1 => x.decrypt_into(&[1; 24], aad, &sealed, &mut out),
                    _ => s.decrypt_into(&[1; 24], &sealed, &mut out),
                };
                assert_eq!(
                    r,
                    Err(Error::AuthenticationFailed),
                    "aead {which} len {len} bit {bit}: into"
                );
                assert!(
                    out.iter().all(|&b| b == 0),
                    "aead {which} len {len} bit {bit}: into"
                );
            }
            let mut tag = tags[which];
            tag[15] ^= 0x80;
            let mut data = ct[which].clone();
            assert_eq!(
                open(which, aad, &mut data, &tag),
                Err(Error::AuthenticationFailed)
            );
            assert!(data.iter().all(|&b| b == 0), "aead {which} len {len} tag");
            if which < 2 {
                let mut data = ct[which].clone();
                let r = open(which, &aad[1..], &mut data, &tags[which]);
                assert_eq!(r, Err(Error::AuthenticationFailed));
                assert!(data.iter().all(|&b| b == 0), "aead {which} len {len} aad");
            }
        }
    }
}

#[test]
fn long_messages() {
    for (i, len) in [65536, 65536 + 15, 1 << 20].into_iter().enumerate() {
        agree(1000 + i as u64, len, 13);
    }
}

proptest! {
    #[test]
    fn random_lengths_agree_with_rustcrypto(seed in any::<u64>(), len in 0usize..20_000, aad_len in 0usize..200) {
        agree(seed, len, aad_len);
    }
}

/// Every single-bit change to the associated data, the ciphertext or the
/// tag is refused, the buffer is zeroed, and no plaintext is returned.
#[test]
fn every_altered_bit_is_refused() {
    let key = [9u8; 32];
    let aad = bytes(5, 21);
    let pt = bytes(6, 77);
    let a = ChaCha20Poly1305::new(&key);
    let nonce = [3u8; 12];
    let mut ct = pt.clone();
    let tag = a.encrypt_in_place_detached(&nonce, &aad, &mut ct);
    let refused = |aad: &[u8], ct: &[u8], tag: &[u8; 16]| {
        let mut data = ct.to_vec();
        let r = a.decrypt_in_place_detached(&nonce, aad, &mut data, tag);
        r == Err(Error::AuthenticationFailed) && data.iter().all(|&b| b == 0)
    };
    for bit in 0..aad.len() * 8 {
        let mut bad = aad.clone();
        bad[bit / 8] ^= 1 << (bit % 8);
        assert!(refused(&bad, &ct, &tag), "aad bit {bit}");
    }
    for bit in 0..ct.len() * 8 {
        let mut bad = ct.clone();
        bad[bit / 8] ^= 1 << (bit % 8);
        assert!(refused(&aad, &bad, &tag), "ciphertext bit {bit}");
    }
    for bit in 0..128 {
        let mut bad = tag;
        bad[bit / 8] ^= 1 << (bit % 8);
        assert!(refused(&aad, &ct, &bad), "tag bit {bit}");
    }
    // Moving bytes between the associated data and the ciphertext changes
    // the lengths block, so it is refused too.
    let joined = [&aad[..], &ct[..]].concat();
    assert!(refused(&joined[..20], &joined[20..], &tag));
    // Truncation and extension.
    assert!(refused(&aad, &ct[..ct.len() - 1], &tag));
    assert!(refused(&aad, &[&ct[..], &[0]].concat(), &tag));

    let s = XSalsa20Poly1305::new(&key);
    let sealed = s.encrypt(&[4; 24], &pt);
    for bit in 0..sealed.len() * 8 {
        let mut bad = sealed.clone();
        bad[bit / 8] ^= 1 << (bit % 8);
        assert_eq!(
            s.decrypt(&[4; 24], &bad),
            Err(Error::AuthenticationFailed),
            "secretbox bit {bit}"
        );
    }
}

/// A wrong key or nonce is refused like an altered message.
#[test]
fn wrong_key_or_nonce_is_refused() {
    let sealed = XChaCha20Poly1305::new(&[1; 32]).encrypt(&[2; 24], b"ad", b"hello");
    assert_eq!(
        XChaCha20Poly1305::new(&[1; 32]).decrypt(&[3; 24], b"ad", &sealed),
        Err(Error::AuthenticationFailed)
    );
    assert_eq!(
        XChaCha20Poly1305::new(&[7; 32]).decrypt(&[2; 24], b"ad", &sealed),
        Err(Error::AuthenticationFailed)
    );
}

/// The buffers of `encrypt_into` and `decrypt_into` must differ by exactly
/// the tag: anything else is an error naming the lengths, with nothing
/// written by `encrypt_into` and the plaintext buffer zeroed by
/// `decrypt_into`; so is a tampered message, short or long, whatever the
/// output held.
#[test]
fn into_forms_refuse_wrong_lengths_and_tampering() {
    let key = [0x11; 32];
    let a = ChaCha20Poly1305::new(&key);
    let s = XSalsa20Poly1305::new(&key);
    for len in [0, 1, 63, 64, 448, 449, 1000, 4096 + 3] {
        let pt = bytes(len as u64, len);
        for sealed_len in [len + 15, len + 17, len, 0] {
            if sealed_len == len + 16 {
                continue;
            }
            let mut sealed = vec![GUARD; sealed_len];
            let err = a
                .encrypt_into(&[2; 12], b"ad", &pt, &mut sealed)
                .unwrap_err();
            let want = if sealed_len < 16 {
                Error::SealedTooShort {
                    len: sealed_len,
                    tag_len: 16,
                }
            } else {
                Error::SealedLength {
                    sealed: sealed_len,
                    plaintext: len,
                    tag_len: 16,
                }
            };
            assert_eq!(err, want, "len {len}, sealed {sealed_len}");
            assert!(sealed.iter().all(|&b| b == GUARD), "nothing written");
            let err = s.encrypt_into(&[2; 24], &pt, &mut sealed).unwrap_err();
            assert_eq!(err, want);
            assert!(err.to_string().contains(&sealed_len.to_string()), "{err}");
        }
        let sealed = a.encrypt(&[2; 12], b"ad", &pt);
        for pt_len in [len + 1, len.saturating_sub(1), len + 16] {
            if pt_len == len {
                continue;
            }
            let mut out = vec![GUARD; pt_len];
            let err = a
                .decrypt_into(&[2; 12], b"ad", &sealed, &mut out)
                .unwrap_err();
            assert_eq!(
                err,
                Error::SealedLength {
                    sealed: len + 16,
                    plaintext: pt_len,
                    tag_len: 16,
                }
            );
            assert!(out.iter().all(|&b| b == 0), "len {len}: plaintext zeroed");
        }
        for short in 0..16 {
            let mut out = vec![GUARD; 3];
            let err = a.decrypt_into(&[2; 12], b"ad", &sealed[..short], &mut out);
            assert!(matches!(err, Err(Error::SealedTooShort { .. })), "{err:?}");
            assert_eq!(out, [0; 3]);
        }
        // Tampered: the tag, the first and the last ciphertext byte.
        for at in [len, len + 15, 0, len.saturating_sub(1)] {
            let mut bad = sealed.clone();
            bad[at] ^= 4;
            let mut out = vec![GUARD; len];
            assert_eq!(
                a.decrypt_into(&[2; 12], b"ad", &bad, &mut out),
                Err(Error::AuthenticationFailed),
                "len {len}, byte {at}"
            );
            assert!(out.iter().all(|&b| b == 0), "len {len}, byte {at}: zeroed");
        }
    }
}
