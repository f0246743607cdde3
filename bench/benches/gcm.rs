//! AES-128-GCM, AES-256-GCM and AES-GCM-SIV, sealing and opening, out of
//! place, at 64 B, 1 KiB, 16 KiB and 1 MiB: simdcrypt (its default
//! kernel, and the ymm kernel `simdcrypt-vaes` where the default is
//! another, so that one run shows which is faster on the CPU) beside
//! aws-lc-rs, OpenSSL's EVP, ring and RustCrypto (`bench/src/gcm.rs` says
//! which of them must copy first).
//!
//! The conventions every contender follows: keyed once, outside the timed
//! loop; a new nonce per message; no associated data; out of place; each
//! call's input address depends on the last byte the call before wrote
//! (`input[last & mask]`, `mask` a `black_box`ed zero), so that no two
//! messages overlap in the out-of-order core; inputs and outputs through
//! `black_box`. Opening cycles through messages sealed beforehand under
//! their own nonces. Before anything is timed, every contender seals
//! what RustCrypto seals, opens it, and refuses it with a bit flipped.
//!
//! `SIMDCRYPT_MAX_ISA=avx2` with `OPENSSL_ia32cap=:~0xd0230000` (AWS-LC's
//! and OpenSSL's AVX-512 bits cleared) simulates a CPU with VAES but
//! without AVX-512: `bench/NOTES.md`, `aes-gcm-zmm`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use simdcrypt::aead::{Aes128Gcm, Aes128GcmSiv, Aes256Gcm, Aes256GcmSiv, GcmKernel};
use simdcrypt_bench::gcm::{AwsLc, Gcm, OpenSsl, Ring, RustCrypto};
use simdcrypt_bench::{SIZES, config, pattern};

/// The nonce of message `i`.
fn nonce(i: u64) -> [u8; 12] {
    let mut n = [0xa5; 12];
    n[4..].copy_from_slice(&i.to_le_bytes());
    n
}

/// One contender: its id in the bench names and its keyed AEAD.
struct Contender {
    name: &'static str,
    aead: Box<dyn Gcm>,
}

fn contender(name: &'static str, aead: impl Gcm + 'static) -> Contender {
    Contender {
        name,
        aead: Box::new(aead),
    }
}

/// The AES-GCM contenders under `key` (16 or 32 bytes), RustCrypto's
/// first (the reference of the checks).
fn gcm(key: &[u8]) -> Vec<Contender> {
    let mut list = Vec::new();
    macro_rules! ours {
        ($t:ty, $theirs:ty) => {{
            list.push(contender("rustcrypto", RustCrypto::<$theirs>::new(key)));
            let aead = <$t>::new(key.try_into().expect("the key length"));
            let vaes = (aead.kernel() != Some(GcmKernel::Vaes) && GcmKernel::Vaes.is_available())
                .then(|| {
                    aead.clone()
                        .with_kernel(GcmKernel::Vaes)
                        .expect("available")
                });
            list.push(contender("simdcrypt", aead));
            if let Some(vaes) = vaes {
                list.push(contender("simdcrypt-vaes", vaes));
            }
        }};
    }
    match key.len() {
        16 => ours!(Aes128Gcm, aes_gcm::Aes128Gcm),
        _ => ours!(Aes256Gcm, aes_gcm::Aes256Gcm),
    }
    list.push(contender("aws-lc-rs", AwsLc::new(key, false)));
    list.push(contender("openssl", OpenSsl::new(key)));
    list.push(contender("ring", Ring::new(key)));
    list
}

/// The AES-GCM-SIV contenders under `key`, RustCrypto's first.
fn gcm_siv(key: &[u8]) -> Vec<Contender> {
    let k = key.try_into();
    let (theirs, ours) = match key.len() {
        16 => (
            contender(
                "rustcrypto",
                RustCrypto::<aes_gcm_siv::Aes128GcmSiv>::new(key),
            ),
            contender("simdcrypt", Aes128GcmSiv::new(k.expect("16 bytes"))),
        ),
        _ => (
            contender(
                "rustcrypto",
                RustCrypto::<aes_gcm_siv::Aes256GcmSiv>::new(key),
            ),
            contender(
                "simdcrypt",
                Aes256GcmSiv::new(key.try_into().expect("32 bytes")),
            ),
        ),
    };
    vec![theirs, ours, contender("aws-lc-rs", AwsLc::new(key, true))]
}

/// Panics unless every contender seals what the first seals, at each size
/// and a ragged length, opens it, and refuses it with a bit flipped.
fn check(group: &str, list: &[Contender]) {
    for len in SIZES.iter().map(|&(_, len)| len).chain([1000 + 7]) {
        let pt = pattern(len);
        let mut want = vec![0; len + 16];
        list[0].aead.seal(&nonce(7), &pt, &mut want);
        for c in list {
            let mut sealed = vec![0; len + 16];
            c.aead.seal(&nonce(7), &pt, &mut sealed);
            assert!(
                sealed == want,
                "{group}: {} seals otherwise at {len} bytes",
                c.name
            );
            let mut opened = vec![0; len];
            assert!(c.aead.open(&nonce(7), &want, &mut opened) && opened == pt);
            want[len / 2] ^= 1;
            assert!(!c.aead.open(&nonce(7), &want, &mut opened), "{}", c.name);
            want[len / 2] ^= 1;
        }
    }
    let names: Vec<_> = list.iter().map(|c| c.name).collect();
    eprintln!("{group}: {} agree", names.join(", "));
}

/// Messages sealed beforehand for the opening loop: as many as fit in
/// 256 KiB, at least 2 and at most 64.
fn sealed_messages(c: &Contender, len: usize) -> Vec<Vec<u8>> {
    let count = ((256 << 10) / len).clamp(2, 64);
    (0..count as u64)
        .map(|i| {
            let mut sealed = vec![0; len + 16];
            c.aead.seal(&nonce(i), &pattern(len), &mut sealed);
            sealed
        })
        .collect()
}

/// Times `iters` chained seals of `len` bytes, each under a new nonce.
fn time_seal(c: &Contender, len: usize, next: &mut u64, iters: u64) -> Duration {
    let input = pattern(len);
    let mut sealed = vec![0; len + 16];
    let mask = black_box(0usize);
    let mut last = 0u8;
    let start = Instant::now();
    for _ in 0..iters {
        let at = usize::from(last) & mask;
        c.aead.seal(
            &nonce(*next),
            black_box(&input[at..at + len]),
            black_box(&mut sealed),
        );
        *next += 1;
        last = sealed[len + 15];
    }
    start.elapsed()
}

/// Times `iters` chained opens of the messages of `messages` in turn.
fn time_open(c: &Contender, messages: &[Vec<u8>], iters: u64) -> Duration {
    let len = messages[0].len() - 16;
    let mut pt = vec![0; len];
    let mask = black_box(0usize);
    let mut last = 0u8;
    let start = Instant::now();
    for i in 0..iters {
        let k = (i % messages.len() as u64) as usize;
        let at = usize::from(last) & mask;
        let ok = c.aead.open(
            &nonce(k as u64),
            black_box(&messages[k][at..]),
            black_box(&mut pt),
        );
        last = pt[len - 1] ^ u8::from(!ok);
    }
    start.elapsed()
}

/// Checks `list`, then benches sealing in `{name}-seal` and opening in
/// `{name}-open`, ids `group/size/contender`.
fn run(c: &mut Criterion, name: &str, list: &[Contender]) {
    check(name, list);
    let mut g = c.benchmark_group(format!("{name}-seal"));
    for &(label, len) in &SIZES {
        g.throughput(Throughput::Bytes(len as u64));
        for contender in list {
            let mut next = 1 << 32;
            g.bench_function(BenchmarkId::new(label, contender.name), |b| {
                b.iter_custom(|iters| time_seal(contender, len, &mut next, iters))
            });
        }
    }
    g.finish();
    let mut g = c.benchmark_group(format!("{name}-open"));
    for &(label, len) in &SIZES {
        g.throughput(Throughput::Bytes(len as u64));
        for contender in list {
            let messages = sealed_messages(contender, len);
            g.bench_function(BenchmarkId::new(label, contender.name), |b| {
                b.iter_custom(|iters| time_open(contender, &messages, iters))
            });
        }
    }
    g.finish();
}

fn benches_gcm(c: &mut Criterion) {
    let key: [u8; 32] = std::array::from_fn(|i| 0x80 + i as u8);
    run(c, "aes128gcm", &gcm(&key[..16]));
    run(c, "aes256gcm", &gcm(&key));
    run(c, "aes128gcmsiv", &gcm_siv(&key[..16]));
    run(c, "aes256gcmsiv", &gcm_siv(&key));
}

criterion_group! {
    name = benches;
    config = config();
    targets = benches_gcm
}
criterion_main!(benches);
