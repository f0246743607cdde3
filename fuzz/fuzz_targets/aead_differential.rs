//! Differential fuzzing of the AEADs: ChaCha20-Poly1305, XChaCha20-Poly1305
//! and XSalsa20-Poly1305 against RFC 8439 §2.8 / `crypto_secretbox` written
//! out from the `reference` rungs of ChaCha20, Salsa20 and Poly1305, at
//! fuzzer-chosen keys, nonces, associated data and messages; then every
//! sealed message must open, and a fuzzer-chosen altered bit must be
//! refused with the buffer zeroed.
#![no_main]

use libfuzzer_sys::fuzz_target;
use simdcrypt::aead::{ChaCha20Poly1305, XChaCha20Poly1305, XSalsa20Poly1305};
use simdcrypt::chacha20::{self, ChaCha20, hchacha20};
use simdcrypt::poly1305::{self, Poly1305};
use simdcrypt::salsa20::{self, XSalsa20};

/// RFC 8439 §2.8 from the reference rungs: (ciphertext, tag).
fn rfc8439(chacha: ChaCha20, aad: &[u8], pt: &[u8]) -> (Vec<u8>, [u8; 16]) {
    let mut chacha = chacha.with_impl(chacha20::Impl::Reference).unwrap();
    let mut block0 = [0u8; 64];
    chacha.apply_keystream(&mut block0).unwrap();
    let mut ct = pt.to_vec();
    chacha.apply_keystream(&mut ct).unwrap();
    let mut mac = Poly1305::new(block0[..32].try_into().unwrap())
        .with_impl(poly1305::Impl::Reference)
        .unwrap();
    let pad = |n: usize| vec![0u8; (16 - n % 16) % 16];
    mac.update(aad);
    mac.update(&pad(aad.len()));
    mac.update(&ct);
    mac.update(&pad(ct.len()));
    mac.update(&(aad.len() as u64).to_le_bytes());
    mac.update(&(ct.len() as u64).to_le_bytes());
    (ct, mac.finalize())
}

/// Checks a detached seal against `(want_ct, want_tag)`, the round trip,
/// and the refusal of the bit `flip` of the ciphertext-and-tag.
fn check(
    seal: impl Fn(&mut [u8]) -> [u8; 16],
    open: impl Fn(&mut [u8], &[u8; 16]) -> Result<(), simdcrypt::Error>,
    pt: &[u8],
    want: (Vec<u8>, [u8; 16]),
    flip: usize,
) {
    let mut data = pt.to_vec();
    let tag = seal(&mut data);
    assert_eq!((&data, tag), (&want.0, want.1));
    let mut opened = data.clone();
    open(&mut opened, &tag).unwrap();
    assert_eq!(opened, pt);
    let bit = flip % ((data.len() + 16) * 8);
    let (mut bad_ct, mut bad_tag) = (data, tag);
    if bit < bad_ct.len() * 8 {
        bad_ct[bit / 8] ^= 1 << (bit % 8);
    } else {
        let b = bit - bad_ct.len() * 8;
        bad_tag[b / 8] ^= 1 << (b % 8);
    }
    assert_eq!(
        open(&mut bad_ct, &bad_tag),
        Err(simdcrypt::Error::AuthenticationFailed)
    );
    assert!(bad_ct.iter().all(|&b| b == 0));
}

fuzz_target!(|input: &[u8]| {
    if input.len() < 32 + 24 + 4 {
        return;
    }
    let (head, rest) = input.split_at(60);
    let key: [u8; 32] = head[..32].try_into().unwrap();
    let nonce: [u8; 24] = head[32..56].try_into().unwrap();
    let n12: [u8; 12] = nonce[..12].try_into().unwrap();
    let aad_len = usize::from(head[56]).min(rest.len());
    let (aad, pt) = rest.split_at(aad_len);
    let flip = usize::from(u16::from_le_bytes([head[57], head[58]]));

    let a = ChaCha20Poly1305::new(&key);
    check(
        |d| a.encrypt_in_place_detached(&n12, aad, d),
        |d, t| a.decrypt_in_place_detached(&n12, aad, d, t),
        pt,
        rfc8439(ChaCha20::new(&key, &n12), aad, pt),
        flip,
    );

    let x = XChaCha20Poly1305::new(&key);
    let subkey = hchacha20(&key, nonce[..16].try_into().unwrap());
    let mut xn = [0u8; 12];
    xn[4..].copy_from_slice(&nonce[16..]);
    check(
        |d| x.encrypt_in_place_detached(&nonce, aad, d),
        |d, t| x.decrypt_in_place_detached(&nonce, aad, d, t),
        pt,
        rfc8439(ChaCha20::new(&subkey, &xn), aad, pt),
        flip,
    );

    // crypto_secretbox: key = keystream bytes 0..32, message from byte 32,
    // tag over the ciphertext alone.
    let s = XSalsa20Poly1305::new(&key);
    let mut xsalsa = XSalsa20::new(&key, &nonce)
        .with_impl(salsa20::Impl::Reference)
        .unwrap();
    let mut poly_key = [0u8; 32];
    xsalsa.apply_keystream(&mut poly_key).unwrap();
    let mut ct = pt.to_vec();
    xsalsa.apply_keystream(&mut ct).unwrap();
    let tag = poly1305::Poly1305::new(&poly_key)
        .with_impl(poly1305::Impl::Reference)
        .map(|mut m| {
            m.update(&ct);
            m.finalize()
        })
        .unwrap();
    check(
        |d| s.encrypt_in_place_detached(&nonce, d),
        |d, t| s.decrypt_in_place_detached(&nonce, d, t),
        pt,
        (ct, tag),
        flip,
    );
});
