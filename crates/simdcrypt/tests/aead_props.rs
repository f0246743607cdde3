//! The AEADs against RustCrypto's independent `chacha20poly1305` and
//! `xsalsa20poly1305` on random keys, nonces, associated data and messages
//! whose lengths cross every switch point (ChaCha20's 4/8/16-block batches,
//! Poly1305's scalar/vector switch, the one-pass chunk, every 512-byte
//! batch of a stitched kernel); and the refusal of every altered bit, with
//! the buffer zeroed.

mod common;

use chacha20poly1305::aead::{AeadInOut, KeyInit};
use common::{EDGE_LENGTHS, bytes};
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

/// Seals with all three AEADs, compares with the peers, and opens again.
fn agree(seed: u64, len: usize, aad_len: usize) {
    let key: [u8; 32] = bytes(seed, 32).try_into().expect("32");
    let nonce: [u8; 24] = bytes(seed ^ 1, 24).try_into().expect("24");
    let n12: [u8; 12] = nonce[..12].try_into().expect("12");
    let aad = bytes(seed ^ 2, aad_len);
    let pt = bytes(seed ^ 3, len);

    let a = ChaCha20Poly1305::new(&key);
    let sealed = a.encrypt(&n12, &aad, &pt);
    assert_eq!(
        sealed,
        peer_chacha(&key, &n12, &aad, &pt),
        "chacha20-poly1305 len {len} aad {aad_len}"
    );
    assert_eq!(a.decrypt(&n12, &aad, &sealed).as_deref(), Ok(&pt[..]));

    let x = XChaCha20Poly1305::new(&key);
    let sealed = x.encrypt(&nonce, &aad, &pt);
    assert_eq!(
        sealed,
        peer_xchacha(&key, &nonce, &aad, &pt),
        "xchacha20-poly1305 len {len} aad {aad_len}"
    );
    assert_eq!(x.decrypt(&nonce, &aad, &sealed).as_deref(), Ok(&pt[..]));

    let s = XSalsa20Poly1305::new(&key);
    let sealed = s.encrypt(&nonce, &[], &pt);
    assert_eq!(
        sealed,
        peer_secretbox(&key, &nonce, &pt),
        "xsalsa20-poly1305 len {len}"
    );
    assert_eq!(s.decrypt(&nonce, &[], &sealed).as_deref(), Ok(&pt[..]));
}

#[test]
fn every_short_length_and_every_edge() {
    for len in (0..=300)
        .chain(EDGE_LENGTHS.iter().copied())
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
            s.encrypt_in_place_detached(&[1; 24], &[], &mut ct[2]),
        ];
        let open = |which: usize, aad: &[u8], data: &mut [u8], tag: &[u8; 16]| match which {
            0 => a.decrypt_in_place_detached(&[1; 12], aad, data, tag),
            1 => x.decrypt_in_place_detached(&[1; 24], aad, data, tag),
            _ => s.decrypt_in_place_detached(&[1; 24], &[], data, tag),
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
    let sealed = s.encrypt(&[4; 24], &[], &pt);
    for bit in 0..sealed.len() * 8 {
        let mut bad = sealed.clone();
        bad[bit / 8] ^= 1 << (bit % 8);
        assert_eq!(
            s.decrypt(&[4; 24], &[], &bad),
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
