//! The AEADs, sealing in place with a detached tag: ChaCha20-Poly1305 beside
//! OpenSSL, ring, libsodium and RustCrypto; XChaCha20-Poly1305 and
//! XSalsa20-Poly1305 (NaCl's secretbox) beside libsodium and RustCrypto.
//! The `-out-of-place` groups seal from the plaintext into a separate
//! buffer 16 bytes longer (simdcrypt's `encrypt_into`; the peers' detached
//! seals with separate buffers, the tag written after the ciphertext, or
//! before it for secretbox; ring, which seals only in place, copies
//! first), beside simdcrypt sealing the same output buffer in place
//! (`simdcrypt-in-place`).
//!
//! Each iteration is one whole seal from a fresh key (key setup included),
//! with 13 bytes of associated data where the AEAD has any (a TLS 1.2
//! record header's worth). Before anything is timed, every implementation's
//! ciphertext and tag are checked against RustCrypto's, an independent
//! implementation.

use criterion::{Criterion, criterion_group, criterion_main};
use simdcrypt::aead::{ChaCha20Poly1305, XChaCha20Poly1305, XSalsa20Poly1305};
use simdcrypt::chacha20::ChaCha20;
use simdcrypt::poly1305::Poly1305;
use simdcrypt_bench::{
    Contender, OutContender, Pad, SHORT_SIZES, SIZES, config, peers, run, run_out_of_place,
};

const KEY: [u8; 32] = [
    0x80, 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8a, 0x8b, 0x8c, 0x8d, 0x8e, 0x8f,
    0x90, 0x91, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9a, 0x9b, 0x9c, 0x9d, 0x9e, 0x9f,
];
const NONCE: [u8; 12] = [
    0x07, 0x00, 0x00, 0x00, 0x40, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47,
];
const XNONCE: [u8; 24] = [
    0x40, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49, 0x4a, 0x4b, 0x4c, 0x4d, 0x4e, 0x4f,
    0x50, 0x51, 0x52, 0x53, 0x54, 0x55, 0x56, 0x57,
];
const AAD: [u8; 13] = *b"record header";

/// The sizes: an AEAD seals messages and records, not bulk streams.
const ASIZES: [(&str, usize); 3] = [SIZES[0], SIZES[1], SIZES[2]];

/// RFC 8439 §2.8 in the simple two-pass form, from simdcrypt's public
/// primitives: the whole message through ChaCha20, then the whole
/// ciphertext through Poly1305. What the library's one-pass form is
/// measured against.
fn two_pass_seal(data: &mut [u8]) -> [u8; 16] {
    let mut chacha = ChaCha20::new(&KEY, &NONCE);
    let mut block0 = [0u8; 64];
    chacha.apply_keystream(&mut block0).expect("block 0");
    let mut mac = Poly1305::new(block0[..32].try_into().expect("32 bytes"));
    chacha.apply_keystream(data).expect("within the keystream");
    mac.update_padded(&AAD);
    mac.update_padded(data);
    let mut lengths = [0u8; 16];
    lengths[..8].copy_from_slice(&(AAD.len() as u64).to_le_bytes());
    lengths[8..].copy_from_slice(&(data.len() as u64).to_le_bytes());
    mac.update(&lengths);
    mac.finalize()
}

fn chacha20poly1305(c: &mut Criterion) {
    let reference = Contender::new("rustcrypto", |d: &mut [u8]| {
        peers::rustcrypto::chacha20poly1305_seal(&KEY, &NONCE, &AAD, d)
    });
    let contenders = [
        Contender::new("simdcrypt", |d: &mut [u8]| {
            ChaCha20Poly1305::new(&KEY).encrypt_in_place_detached(&NONCE, &AAD, d)
        }),
        Contender::new("simdcrypt-two-pass", two_pass_seal),
        Contender::new("openssl", |d: &mut [u8]| {
            peers::openssl::chacha20poly1305_seal(&KEY, &NONCE, &AAD, d)
        }),
        Contender::new("ring", |d: &mut [u8]| {
            peers::ring::chacha20poly1305_seal(&KEY, &NONCE, &AAD, d)
        }),
        Contender::new("libsodium", |d: &mut [u8]| {
            peers::libsodium::chacha20poly1305_seal(&KEY, &NONCE, &AAD, d)
        }),
        Contender::new("rustcrypto", |d: &mut [u8]| {
            peers::rustcrypto::chacha20poly1305_seal(&KEY, &NONCE, &AAD, d)
        }),
    ];
    run(c, "chacha20poly1305", &ASIZES, &reference, &contenders);
    run(
        c,
        "chacha20poly1305-short",
        &SHORT_SIZES,
        &reference,
        &contenders,
    );
}

fn xchacha20poly1305(c: &mut Criterion) {
    let reference = Contender::new("rustcrypto", |d: &mut [u8]| {
        peers::rustcrypto::xchacha20poly1305_seal(&KEY, &XNONCE, &AAD, d)
    });
    let contenders = [
        Contender::new("simdcrypt", |d: &mut [u8]| {
            XChaCha20Poly1305::new(&KEY).encrypt_in_place_detached(&XNONCE, &AAD, d)
        }),
        Contender::new("libsodium", |d: &mut [u8]| {
            peers::libsodium::xchacha20poly1305_seal(&KEY, &XNONCE, &AAD, d)
        }),
        Contender::new("rustcrypto", |d: &mut [u8]| {
            peers::rustcrypto::xchacha20poly1305_seal(&KEY, &XNONCE, &AAD, d)
        }),
    ];
    run(c, "xchacha20poly1305", &ASIZES, &reference, &contenders);
}

fn xsalsa20poly1305(c: &mut Criterion) {
    let reference = Contender::new("rustcrypto", |d: &mut [u8]| {
        peers::rustcrypto::xsalsa20poly1305_seal(&KEY, &XNONCE, d)
    });
    let contenders = [
        Contender::new("simdcrypt", |d: &mut [u8]| {
            XSalsa20Poly1305::new(&KEY).encrypt_in_place_detached(&XNONCE, d)
        }),
        Contender::new("libsodium", |d: &mut [u8]| {
            peers::libsodium::xsalsa20poly1305_seal(&KEY, &XNONCE, d)
        }),
        Contender::new("rustcrypto", |d: &mut [u8]| {
            peers::rustcrypto::xsalsa20poly1305_seal(&KEY, &XNONCE, d)
        }),
    ];
    run(c, "xsalsa20poly1305", &ASIZES, &reference, &contenders);
}

/// An in-place detached seal of `out`'s first `len - 16` bytes, the tag
/// written after them: the in-place form beside the out-of-place ones.
fn in_place_then_tag(out: &mut [u8], seal: impl Fn(&mut [u8]) -> [u8; 16]) {
    let (data, tag) = out.split_at_mut(out.len() - 16);
    tag.copy_from_slice(&seal(data));
}

fn chacha20poly1305_out_of_place(c: &mut Criterion) {
    let reference = OutContender::new("rustcrypto", |i: &[u8], o: &mut [u8]| {
        peers::rustcrypto::chacha20poly1305_seal_into(&KEY, &NONCE, &AAD, i, o)
    });
    let contenders = [
        OutContender::new("simdcrypt", |i: &[u8], o: &mut [u8]| {
            ChaCha20Poly1305::new(&KEY)
                .encrypt_into(&NONCE, &AAD, i, o)
                .expect("a sealed buffer 16 bytes longer")
        }),
        OutContender::new("simdcrypt-in-place", |_: &[u8], o: &mut [u8]| {
            in_place_then_tag(o, |d| {
                ChaCha20Poly1305::new(&KEY).encrypt_in_place_detached(&NONCE, &AAD, d)
            })
        }),
        OutContender::new("openssl", |i: &[u8], o: &mut [u8]| {
            peers::openssl::chacha20poly1305_seal_into(&KEY, &NONCE, &AAD, i, o)
        }),
        OutContender::new("ring", |i: &[u8], o: &mut [u8]| {
            peers::ring::chacha20poly1305_seal_into(&KEY, &NONCE, &AAD, i, o)
        }),
        OutContender::new("libsodium", |i: &[u8], o: &mut [u8]| {
            peers::libsodium::chacha20poly1305_seal_into(&KEY, &NONCE, &AAD, i, o)
        }),
        OutContender::new("rustcrypto", |i: &[u8], o: &mut [u8]| {
            peers::rustcrypto::chacha20poly1305_seal_into(&KEY, &NONCE, &AAD, i, o)
        }),
    ];
    run_out_of_place(
        c,
        "chacha20poly1305-out-of-place",
        &ASIZES,
        Pad::TAG_AFTER,
        &reference,
        &contenders,
    );
}

fn xchacha20poly1305_out_of_place(c: &mut Criterion) {
    let reference = OutContender::new("rustcrypto", |i: &[u8], o: &mut [u8]| {
        peers::rustcrypto::xchacha20poly1305_seal_into(&KEY, &XNONCE, &AAD, i, o)
    });
    let contenders = [
        OutContender::new("simdcrypt", |i: &[u8], o: &mut [u8]| {
            XChaCha20Poly1305::new(&KEY)
                .encrypt_into(&XNONCE, &AAD, i, o)
                .expect("a sealed buffer 16 bytes longer")
        }),
        OutContender::new("simdcrypt-in-place", |_: &[u8], o: &mut [u8]| {
            in_place_then_tag(o, |d| {
                XChaCha20Poly1305::new(&KEY).encrypt_in_place_detached(&XNONCE, &AAD, d)
            })
        }),
        OutContender::new("libsodium", |i: &[u8], o: &mut [u8]| {
            peers::libsodium::xchacha20poly1305_seal_into(&KEY, &XNONCE, &AAD, i, o)
        }),
        OutContender::new("rustcrypto", |i: &[u8], o: &mut [u8]| {
            peers::rustcrypto::xchacha20poly1305_seal_into(&KEY, &XNONCE, &AAD, i, o)
        }),
    ];
    run_out_of_place(
        c,
        "xchacha20poly1305-out-of-place",
        &ASIZES,
        Pad::TAG_AFTER,
        &reference,
        &contenders,
    );
}

fn xsalsa20poly1305_out_of_place(c: &mut Criterion) {
    // RustCrypto's `xsalsa20poly1305` (aead 0.5) seals only in place: the
    // reference copies first.
    let reference = OutContender::new("rustcrypto", |i: &[u8], o: &mut [u8]| {
        let (tag, ct) = o.split_at_mut(16);
        ct.copy_from_slice(i);
        tag.copy_from_slice(&peers::rustcrypto::xsalsa20poly1305_seal(&KEY, &XNONCE, ct));
    });
    let contenders = [
        OutContender::new("simdcrypt", |i: &[u8], o: &mut [u8]| {
            XSalsa20Poly1305::new(&KEY)
                .encrypt_into(&XNONCE, i, o)
                .expect("a sealed buffer 16 bytes longer")
        }),
        OutContender::new("simdcrypt-in-place", |_: &[u8], o: &mut [u8]| {
            // Tag first: the in-place form works on the bytes after it,
            // which hold the plaintext before the first call.
            let (tag, data) = o.split_at_mut(16);
            tag.copy_from_slice(
                &XSalsa20Poly1305::new(&KEY).encrypt_in_place_detached(&XNONCE, data),
            );
        }),
        OutContender::new("libsodium", |i: &[u8], o: &mut [u8]| {
            peers::libsodium::xsalsa20poly1305_seal_into(&KEY, &XNONCE, i, o)
        }),
    ];
    run_out_of_place(
        c,
        "xsalsa20poly1305-out-of-place",
        &ASIZES,
        Pad::TAG_BEFORE,
        &reference,
        &contenders,
    );
}

criterion_group! {
    name = benches;
    config = config();
    targets = chacha20poly1305, xchacha20poly1305, xsalsa20poly1305,
        chacha20poly1305_out_of_place, xchacha20poly1305_out_of_place,
        xsalsa20poly1305_out_of_place
}
criterion_main!(benches);
