//! Magma (GOST R 34.12-2015) and GOST 28147-89: every simdcrypt rung this
//! CPU runs and simdcrypt's default, beside RustCrypto's `magma` 0.9 (with
//! `ctr` 0.9's `Ctr64BE` and `cbc` 0.1) and OpenSSL's GOST provider
//! (`gostprov`, Debian's `libengine-gost-openssl`: `magma-ctr`,
//! `magma-cbc`, `gost89-cnt`), in one harness; and the chained modes'
//! latency bound measured in the same run: a chain of dependent block
//! encryptions on each rung's single-block path (`magma-bound`).
//!
//! Each iteration is one whole operation on the message in place, from a
//! fresh key schedule. ECB and CBC take whole blocks: every contender works
//! on the longest whole-block prefix. Before anything is timed, every
//! implementation's output is checked against simdcrypt's `reference`
//! rung. Without the GOST provider its contenders are left out, with a
//! message.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use simdcrypt::block::{BlockCipher, Cbc, Cfb, Ecb};
use simdcrypt::gost28147::{Gost28147, Gost28147Cnt, Gost28147Mac, SBox};
use simdcrypt::magma::{Magma, MagmaCtr, MagmaMac, Rung};
use simdcrypt_bench::{Contender, SIZES, config, ladder, peers, run};

/// RFC 8891's key (GOST R 34.13-2015 A.2).
const KEY: [u8; 32] = [
    0xff, 0xee, 0xdd, 0xcc, 0xbb, 0xaa, 0x99, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11, 0x00,
    0xf0, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8, 0xf9, 0xfa, 0xfb, 0xfc, 0xfd, 0xfe, 0xff,
];
/// GOST R 34.13-2015 A.2.2's CTR IV (half a block), and a CBC IV.
const IV4: [u8; 4] = [0x12, 0x34, 0x56, 0x78];
const IV8: [u8; 8] = [0x12, 0x34, 0x56, 0x78, 0x90, 0xab, 0xce, 0xf0];

/// Magma keyed by `KEY`, on rung `imp` (`None`: the default).
fn magma(imp: Option<Rung>) -> Magma {
    let cipher = Magma::new(&KEY);
    match imp {
        Some(i) => cipher.with_rung(i).expect("an available rung"),
        None => cipher,
    }
}

/// The whole blocks of `data`.
fn whole_blocks(data: &mut [u8]) -> &mut [u8] {
    let len = data.len() / 8 * 8;
    &mut data[..len]
}

fn ecb_encrypt_on(imp: Option<Rung>, data: &mut [u8]) {
    Ecb::from_cipher(magma(imp))
        .encrypt(whole_blocks(data))
        .expect("whole blocks");
}

fn ecb_decrypt_on(imp: Option<Rung>, data: &mut [u8]) {
    Ecb::from_cipher(magma(imp))
        .decrypt(whole_blocks(data))
        .expect("whole blocks");
}

fn ctr_on(imp: Option<Rung>, data: &mut [u8]) {
    MagmaCtr::from_cipher_half_iv(magma(imp), &IV4)
        .expect("a 4-byte IV")
        .apply_keystream(data)
        .expect("within the keystream");
}

fn cfb_encrypt_on(imp: Option<Rung>, data: &mut [u8]) {
    Cfb::from_cipher(magma(imp), &IV8).encrypt(data);
}

fn mac_on(imp: Option<Rung>, data: &mut [u8]) {
    let mut mac = MagmaMac::from_cipher(magma(imp));
    mac.update(data);
    black_box(mac.finalize());
}

fn gost_mac_on(imp: Option<Rung>, data: &mut [u8]) {
    let mut mac = Gost28147Mac::from_cipher(gost(imp)).with_key_meshing(false);
    mac.update(data);
    black_box(mac.finalize());
}

/// GOST 28147-89 keyed by `KEY` with param-Z, on rung `imp`.
fn gost(imp: Option<Rung>) -> Gost28147 {
    let cipher = Gost28147::with_sbox(&KEY, SBox::PARAM_Z);
    match imp {
        Some(i) => cipher.with_rung(i).expect("an available rung"),
        None => cipher,
    }
}

fn cbc_encrypt_on(imp: Option<Rung>, data: &mut [u8]) {
    Cbc::from_cipher(magma(imp), &IV8)
        .encrypt(whole_blocks(data))
        .expect("whole blocks");
}

fn cnt_on(imp: Option<Rung>, data: &mut [u8]) {
    Gost28147Cnt::from_cipher(gost(imp), &IV8)
        .apply_keystream(data)
        .expect("within the keystream");
}

/// RustCrypto: `magma` 0.9 with `ctr` and `cbc`.
mod rustcrypto {
    use magma::cipher::block_padding::NoPadding;
    use magma::cipher::{
        BlockDecrypt, BlockEncrypt, BlockEncryptMut, KeyInit, KeyIvInit, StreamCipher,
    };

    use super::{IV4, IV8, KEY, whole_blocks};

    fn cipher() -> magma::Magma {
        magma::Magma::new(&KEY.into())
    }

    pub fn ecb_encrypt(data: &mut [u8]) {
        let c = cipher();
        for block in whole_blocks(data).chunks_exact_mut(8) {
            c.encrypt_block(block.into());
        }
    }

    pub fn ecb_decrypt(data: &mut [u8]) {
        let c = cipher();
        for block in whole_blocks(data).chunks_exact_mut(8) {
            c.decrypt_block(block.into());
        }
    }

    pub fn ctr(data: &mut [u8]) {
        let mut iv = [0u8; 8];
        iv[..4].copy_from_slice(&IV4);
        ctr::Ctr64BE::<magma::Magma>::new(&KEY.into(), &iv.into()).apply_keystream(data);
    }

    pub fn cbc_encrypt(data: &mut [u8]) {
        let data = whole_blocks(data);
        let len = data.len();
        cbc::Encryptor::<magma::Magma>::new(&KEY.into(), &IV8.into())
            .encrypt_padded_mut::<NoPadding>(data, len)
            .expect("whole blocks");
    }
}

/// The ladder of `op`, then the peers that are there, checked against
/// the reference rung and run in group `group`.
fn group<I: Copy + 'static>(
    c: &mut Criterion,
    group: &str,
    rungs: impl Iterator<Item = I>,
    name: fn(I) -> &'static str,
    reference: I,
    op: fn(Option<I>, &mut [u8]),
    peers: Vec<Contender<()>>,
) {
    let mut contenders = ladder(rungs, name, op);
    contenders.extend(peers);
    let reference = Contender::new("reference", move |d: &mut [u8]| op(Some(reference), d));
    run(c, group, &SIZES, &reference, &contenders);
}

/// OpenSSL's GOST provider's cipher `name` as a contender, if the provider
/// is installed.
fn openssl(name: &'static str, iv: &'static [u8], cbc: bool) -> Option<Contender<()>> {
    if !peers::openssl::gost_available() {
        eprintln!("{name}: OpenSSL's GOST provider is not installed; its contender is left out");
        return None;
    }
    Some(Contender::new("openssl-gost", move |d: &mut [u8]| {
        let d = if cbc { whole_blocks(d) } else { d };
        peers::openssl::gost(name, &KEY, iv, d);
    }))
}

fn magma_ecb(c: &mut Criterion) {
    eprintln!("magma: simdcrypt-best = {}", Rung::best().name());
    let rungs = || Rung::available();
    group(
        c,
        "magma-ecb-encrypt",
        rungs(),
        Rung::name,
        Rung::Reference,
        ecb_encrypt_on,
        vec![Contender::new("rustcrypto", rustcrypto::ecb_encrypt)],
    );
    group(
        c,
        "magma-ecb-decrypt",
        rungs(),
        Rung::name,
        Rung::Reference,
        ecb_decrypt_on,
        vec![Contender::new("rustcrypto", rustcrypto::ecb_decrypt)],
    );
}

fn magma_ctr(c: &mut Criterion) {
    let mut peers = vec![Contender::new("rustcrypto", rustcrypto::ctr)];
    peers.extend(openssl("magma-ctr", &IV4, false));
    group(
        c,
        "magma-ctr",
        Rung::available(),
        Rung::name,
        Rung::Reference,
        ctr_on,
        peers,
    );
    let peers = openssl("gost89-cnt-12", &IV8, false).into_iter().collect();
    group(
        c,
        "gost89-cnt",
        Rung::available(),
        Rung::name,
        Rung::Reference,
        cnt_on,
        peers,
    );
}

fn magma_chained(c: &mut Criterion) {
    let rungs = Rung::available;
    let mut peers = vec![Contender::new("rustcrypto", rustcrypto::cbc_encrypt)];
    peers.extend(openssl("magma-cbc", &IV8, true));
    let r = Rung::Reference;
    group(
        c,
        "magma-cbc-encrypt",
        rungs(),
        Rung::name,
        r,
        cbc_encrypt_on,
        peers,
    );
    group(
        c,
        "magma-cfb-encrypt",
        rungs(),
        Rung::name,
        r,
        cfb_encrypt_on,
        Vec::new(),
    );
    group(c, "magma-mac", rungs(), Rung::name, r, mac_on, Vec::new());
    group(
        c,
        "gost-mac",
        rungs(),
        Rung::name,
        r,
        gost_mac_on,
        Vec::new(),
    );
    cbc_bound(c);
}

/// The chained modes' latency bound on each rung: one block encrypted
/// again and again, each encryption waiting for the last (nothing else on
/// the chain), once per 8 bytes of the message: 32 dependent rounds per
/// block, the bound of CBC and CFB encryption and of Magma's MAC; GOST
/// 28147-89's MAC runs 16 rounds a block, so its bound is half this.
fn cbc_bound(c: &mut Criterion) {
    let mut g = c.benchmark_group("magma-bound");
    for &(label, len) in &SIZES {
        g.throughput(Throughput::Bytes(len as u64));
        for imp in Rung::available() {
            let cipher = magma(Some(imp));
            g.bench_function(BenchmarkId::new(label, imp.name()), |b| {
                b.iter(|| {
                    let mut block = black_box(IV8);
                    for _ in 0..len / 8 {
                        cipher.encrypt_block(&mut block);
                    }
                    black_box(block)
                })
            });
        }
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = config();
    targets = magma_ecb, magma_ctr, magma_chained
}
criterion_main!(benches);
