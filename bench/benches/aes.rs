//! AES (FIPS 197) in CTR and CBC: every simdcrypt rung this CPU runs,
//! simdcrypt's default, OpenSSL's EVP ciphers (`AES-128-CTR`,
//! `AES-256-CTR`, `AES-128-CBC`) and RustCrypto's `aes` 0.8 with `ctr` 0.9
//! (`Ctr128BE`) and `cbc` 0.1, in one harness; and, for CBC encryption,
//! its latency bound measured in the same run: a chain of 10 dependent
//! `aesenc` per 16 bytes (`aes-128-cbc-bound`).
//!
//! Each iteration is one whole operation on the message in place, from a
//! fresh key schedule (key setup included). CBC takes whole blocks: every
//! contender works on the longest whole-block prefix (the ragged length
//! that `check` adds). Before anything is timed, every implementation's
//! output is checked against simdcrypt's `reference` rung.

use std::hint::black_box;

use aes::cipher::block_padding::NoPadding;
use aes::cipher::{BlockDecryptMut, BlockEncryptMut, KeyIvInit, StreamCipher};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use simdcrypt::aes::{Aes128, Aes128Cbc, Aes128Ctr, Aes256, Aes256Ctr, Rung};
use simdcrypt::block::BlockCipher;
use simdcrypt_bench::{Contender, SIZES, config, ladder, pattern, peers, run};

const KEY: [u8; 32] = [
    0x60, 0x3d, 0xeb, 0x10, 0x15, 0xca, 0x71, 0xbe, 0x2b, 0x73, 0xae, 0xf0, 0x85, 0x7d, 0x77, 0x81,
    0x1f, 0x35, 0x2c, 0x07, 0x3b, 0x61, 0x08, 0xd7, 0x2d, 0x98, 0x10, 0xa3, 0x09, 0x14, 0xdf, 0xf4,
];
/// The initial counter block of SP 800-38A F.5, also the CBC IV.
const IV: [u8; 16] = [
    0xf0, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8, 0xf9, 0xfa, 0xfb, 0xfc, 0xfd, 0xfe, 0xff,
];

fn key16() -> &'static [u8; 16] {
    KEY[..16].try_into().expect("16 bytes")
}

/// The cipher `C` keyed by `key`, on rung `imp` (`None`: the default).
fn keyed<C: BlockCipher<Rung = Rung>>(key: &C::Key, imp: Option<Rung>) -> C {
    let cipher = C::new(key);
    match imp {
        Some(i) => cipher.with_rung(i).expect("an available rung"),
        None => cipher,
    }
}

/// The whole blocks of `data`.
fn whole_blocks(data: &mut [u8]) -> &mut [u8] {
    let len = data.len() / 16 * 16;
    &mut data[..len]
}

fn ctr128_on(imp: Option<Rung>, data: &mut [u8]) {
    Aes128Ctr::from_cipher(keyed::<Aes128>(key16(), imp), &IV)
        .apply_keystream(data)
        .expect("within the keystream");
}

fn ctr256_on(imp: Option<Rung>, data: &mut [u8]) {
    Aes256Ctr::from_cipher(keyed::<Aes256>(&KEY, imp), &IV)
        .apply_keystream(data)
        .expect("within the keystream");
}

fn cbc128_encrypt_on(imp: Option<Rung>, data: &mut [u8]) {
    Aes128Cbc::from_cipher(keyed::<Aes128>(key16(), imp), &IV)
        .encrypt(whole_blocks(data))
        .expect("whole blocks");
}

fn cbc128_decrypt_on(imp: Option<Rung>, data: &mut [u8]) {
    Aes128Cbc::from_cipher(keyed::<Aes128>(key16(), imp), &IV)
        .decrypt(whole_blocks(data))
        .expect("whole blocks");
}

/// RustCrypto: `aes` 0.8 (AES-NI detected at run time) with `ctr` and
/// `cbc`.
mod rustcrypto {
    use super::*;

    pub fn ctr128(data: &mut [u8]) {
        ctr::Ctr128BE::<aes::Aes128>::new(super::key16().into(), &IV.into()).apply_keystream(data);
    }

    pub fn ctr256(data: &mut [u8]) {
        ctr::Ctr128BE::<aes::Aes256>::new(&KEY.into(), &IV.into()).apply_keystream(data);
    }

    pub fn cbc128_encrypt(data: &mut [u8]) {
        let data = whole_blocks(data);
        let len = data.len();
        cbc::Encryptor::<aes::Aes128>::new(super::key16().into(), &IV.into())
            .encrypt_padded_mut::<NoPadding>(data, len)
            .expect("whole blocks");
    }

    pub fn cbc128_decrypt(data: &mut [u8]) {
        cbc::Decryptor::<aes::Aes128>::new(super::key16().into(), &IV.into())
            .decrypt_padded_mut::<NoPadding>(whole_blocks(data))
            .expect("whole blocks");
    }
}

/// The ladder of `op`, then OpenSSL and RustCrypto, checked against the
/// reference rung and run in group `group`.
fn group(
    c: &mut Criterion,
    group: &str,
    op: fn(Option<Rung>, &mut [u8]),
    openssl: impl Fn(&mut [u8]) + 'static,
    rustcrypto: fn(&mut [u8]),
) {
    let mut contenders = ladder(Rung::available(), Rung::name, op);
    contenders.extend([
        Contender::new("openssl", openssl),
        Contender::new("rustcrypto", rustcrypto),
    ]);
    let reference = Contender::new("reference", move |d: &mut [u8]| {
        op(Some(Rung::Reference), d)
    });
    run(c, group, &SIZES, &reference, &contenders);
}

fn aes_ctr(c: &mut Criterion) {
    eprintln!("aes: simdcrypt-best = {}", Rung::best().name());
    group(
        c,
        "aes-128-ctr",
        ctr128_on,
        |d| peers::openssl::aes_ctr_xor(key16(), &IV, d),
        rustcrypto::ctr128,
    );
    group(
        c,
        "aes-256-ctr",
        ctr256_on,
        |d| peers::openssl::aes_ctr_xor(&KEY, &IV, d),
        rustcrypto::ctr256,
    );
}

fn aes_cbc(c: &mut Criterion) {
    group(
        c,
        "aes-128-cbc-encrypt",
        cbc128_encrypt_on,
        |d| peers::openssl::aes_cbc_encrypt(key16(), &IV, whole_blocks(d)),
        rustcrypto::cbc128_encrypt,
    );
    group(
        c,
        "aes-128-cbc-decrypt",
        cbc128_decrypt_on,
        |d| peers::openssl::aes_cbc_decrypt(key16(), &IV, whole_blocks(d)),
        rustcrypto::cbc128_decrypt,
    );
    cbc_bound(c);
}

/// CBC encryption's latency bound with AES-128: 10 dependent `aesenc` per
/// 16 bytes, nothing else on the chain (no load, XOR or store).
fn cbc_bound(c: &mut Criterion) {
    if !std::is_x86_feature_detected!("aes") {
        eprintln!("aes-128-cbc-bound: no AES-NI, skipped");
        return;
    }
    let mut g = c.benchmark_group("aes-128-cbc-bound");
    for &(label, len) in &SIZES {
        g.throughput(Throughput::Bytes(len as u64));
        let mut buf = pattern(len);
        g.bench_function(BenchmarkId::new(label, "aesenc-chain"), |b| {
            // SAFETY: the CPU has AES-NI (checked above).
            b.iter(|| unsafe { aesenc_chain(black_box(&mut buf)) })
        });
    }
    g.finish();
}

/// Runs 10 dependent `aesenc` for each 16 bytes of `data` on one register,
/// starting from and ending in its first block.
///
/// # Safety
///
/// The CPU must have AES-NI.
#[target_feature(enable = "aes")]
unsafe fn aesenc_chain(data: &mut [u8]) {
    use std::arch::x86_64::{_mm_aesenc_si128, _mm_loadu_si128, _mm_storeu_si128};
    if data.len() < 16 {
        return;
    }
    let p = data.as_mut_ptr().cast();
    // SAFETY: `data` has at least 16 bytes, readable and writable.
    let mut x = unsafe { _mm_loadu_si128(p) };
    let k = x;
    for _ in 0..data.len() / 16 {
        for _ in 0..10 {
            x = _mm_aesenc_si128(x, k);
        }
    }
    // SAFETY: as above.
    unsafe { _mm_storeu_si128(p, x) };
}

criterion_group! {
    name = benches;
    config = config();
    targets = aes_ctr, aes_cbc
}
criterion_main!(benches);
