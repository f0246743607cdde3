//! ChaCha20 (RFC 8439) and XChaCha20: every simdcrypt rung this CPU runs,
//! simdcrypt's default, OpenSSL's EVP ChaCha20, libsodium and RustCrypto's
//! `chacha20`, in one harness.
//!
//! Each iteration is one whole encryption from a fresh cipher (key setup
//! included): in place in the groups `chacha20` and `xchacha20`, from an
//! input into a separate output in `chacha20-out-of-place` and
//! `xchacha20-out-of-place` (simdcrypt's `xor_into`, OpenSSL's
//! `EVP_EncryptUpdate` with `out != in`, libsodium's `c != m`, RustCrypto's
//! `apply_keystream_b2b`), beside simdcrypt's default in place on the same
//! output buffer (`simdcrypt-best-in-place`). Before anything is timed,
//! every implementation's output is checked against simdcrypt's `reference`
//! rung.

use criterion::{Criterion, criterion_group, criterion_main};
use simdcrypt::chacha20::{ChaCha20, Rung, XChaCha20};
use simdcrypt_bench::{
    Contender, OutContender, Pad, SHORT_SIZES, SIZES, config, ladder, ladder_out_of_place, peers,
    run, run_out_of_place,
};

const KEY: [u8; 32] = [
    0x80, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f,
    0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f,
];
const NONCE: [u8; 12] = [0, 0, 0, 0x09, 0, 0, 0, 0x4a, 0, 0, 0, 0];
const XNONCE: [u8; 24] = [
    0x69, 0x69, 0x6e, 0xe9, 0x55, 0xb6, 0x2b, 0x73, 0xcd, 0x62, 0xbd, 0xa8, 0x75, 0xfc, 0x73, 0xd6,
    0x82, 0x19, 0xe0, 0x03, 0x6b, 0x7a, 0x0b, 0x37,
];

/// The XChaCha20 sizes: a one-shot API is for messages, not bulk streams.
const XSIZES: [(&str, usize); 3] = [SIZES[0], SIZES[1], SIZES[2]];

/// ChaCha20 of `data` in place from a fresh cipher, on rung `imp` (`None`:
/// the default).
fn chacha20_on(imp: Option<Rung>, data: &mut [u8]) {
    let cipher = ChaCha20::new(&KEY, &NONCE);
    match imp {
        Some(i) => cipher.with_rung(i),
        None => Ok(cipher),
    }
    .and_then(|mut s| s.apply_keystream(data))
    .expect("an available rung, within the keystream")
}

/// XChaCha20 of `data` in place from a fresh cipher (the subkey derivation
/// included), on rung `imp` (`None`: the default).
fn xchacha20_on(imp: Option<Rung>, data: &mut [u8]) {
    let cipher = XChaCha20::new(&KEY, &XNONCE);
    match imp {
        Some(i) => cipher.with_rung(i),
        None => Ok(cipher),
    }
    .and_then(|mut s| s.apply_keystream(data))
    .expect("an available rung, within the keystream")
}

/// ChaCha20 of `input` into `output` from a fresh cipher (`xor_into`), on
/// rung `imp` (`None`: the default).
fn chacha20_into(imp: Option<Rung>, input: &[u8], output: &mut [u8]) {
    let cipher = ChaCha20::new(&KEY, &NONCE);
    match imp {
        Some(i) => cipher.with_rung(i),
        None => Ok(cipher),
    }
    .and_then(|mut s| s.xor_into(input, output))
    .expect("an available rung, within the keystream")
}

/// XChaCha20 of `input` into `output` from a fresh cipher (`xor_into`), on
/// rung `imp` (`None`: the default).
fn xchacha20_into(imp: Option<Rung>, input: &[u8], output: &mut [u8]) {
    let cipher = XChaCha20::new(&KEY, &XNONCE);
    match imp {
        Some(i) => cipher.with_rung(i),
        None => Ok(cipher),
    }
    .and_then(|mut s| s.xor_into(input, output))
    .expect("an available rung, within the keystream")
}

fn chacha20(c: &mut Criterion) {
    let mut contenders = ladder(Rung::available(), Rung::name, chacha20_on);
    contenders.extend([
        Contender::new("openssl", |d: &mut [u8]| {
            peers::openssl::chacha20_xor(&KEY, &NONCE, d)
        }),
        Contender::new("libsodium", |d: &mut [u8]| {
            peers::libsodium::chacha20_xor(&KEY, &NONCE, d)
        }),
        Contender::new("rustcrypto", |d: &mut [u8]| {
            peers::rustcrypto::chacha20_xor(&KEY, &NONCE, d)
        }),
    ]);
    eprintln!("chacha20: simdcrypt-best = {}", Rung::best().name());
    let reference = Contender::new("reference", |d: &mut [u8]| {
        chacha20_on(Some(Rung::Reference), d)
    });
    run(c, "chacha20", &SIZES, &reference, &contenders);
    run(c, "chacha20-short", &SHORT_SIZES, &reference, &contenders);
}

fn xchacha20(c: &mut Criterion) {
    let reference = Contender::new("reference", |d: &mut [u8]| {
        xchacha20_on(Some(Rung::Reference), d)
    });
    let contenders = [
        Contender::new("simdcrypt-best", |d: &mut [u8]| xchacha20_on(None, d)),
        Contender::new("libsodium", |d: &mut [u8]| {
            peers::libsodium::xchacha20_xor(&KEY, &XNONCE, d)
        }),
        Contender::new("rustcrypto", |d: &mut [u8]| {
            peers::rustcrypto::xchacha20_xor(&KEY, &XNONCE, d)
        }),
    ];
    run(c, "xchacha20", &XSIZES, &reference, &contenders);
}

fn chacha20_out_of_place(c: &mut Criterion) {
    let mut contenders = ladder_out_of_place(Rung::available(), Rung::name, chacha20_into);
    contenders.extend([
        OutContender::new("simdcrypt-best-in-place", |_: &[u8], out: &mut [u8]| {
            chacha20_on(None, out)
        }),
        OutContender::new("openssl", |i: &[u8], o: &mut [u8]| {
            peers::openssl::chacha20_xor_into(&KEY, &NONCE, i, o)
        }),
        OutContender::new("libsodium", |i: &[u8], o: &mut [u8]| {
            peers::libsodium::chacha20_xor_into(&KEY, &NONCE, i, o)
        }),
        OutContender::new("rustcrypto", |i: &[u8], o: &mut [u8]| {
            peers::rustcrypto::chacha20_xor_into(&KEY, &NONCE, i, o)
        }),
    ]);
    let reference = OutContender::new("reference", |i: &[u8], o: &mut [u8]| {
        chacha20_into(Some(Rung::Reference), i, o)
    });
    run_out_of_place(
        c,
        "chacha20-out-of-place",
        &SIZES,
        Pad::NONE,
        &reference,
        &contenders,
    );
}

fn xchacha20_out_of_place(c: &mut Criterion) {
    let reference = OutContender::new("reference", |i: &[u8], o: &mut [u8]| {
        xchacha20_into(Some(Rung::Reference), i, o)
    });
    let contenders = [
        OutContender::new("simdcrypt-best", |i: &[u8], o: &mut [u8]| {
            xchacha20_into(None, i, o)
        }),
        OutContender::new("simdcrypt-best-in-place", |_: &[u8], out: &mut [u8]| {
            xchacha20_on(None, out)
        }),
        OutContender::new("libsodium", |i: &[u8], o: &mut [u8]| {
            peers::libsodium::xchacha20_xor_into(&KEY, &XNONCE, i, o)
        }),
        OutContender::new("rustcrypto", |i: &[u8], o: &mut [u8]| {
            peers::rustcrypto::xchacha20_xor_into(&KEY, &XNONCE, i, o)
        }),
    ];
    run_out_of_place(
        c,
        "xchacha20-out-of-place",
        &SIZES,
        Pad::NONE,
        &reference,
        &contenders,
    );
}

criterion_group! {
    name = benches;
    config = config();
    targets = chacha20, xchacha20, chacha20_out_of_place, xchacha20_out_of_place
}
criterion_main!(benches);
