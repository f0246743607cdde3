//! Salsa20 and XSalsa20: every simdcrypt rung this CPU runs, the rung
//! simdcrypt picks by default, RustCrypto's `salsa20` and libsodium, in one
//! harness.
//!
//! Each iteration is one whole encryption in place from a fresh cipher (key
//! setup included), since that is what libsodium's one-shot call measures.
//! Before anything is timed, every implementation's output is checked
//! against simdcrypt's `reference` rung for the same key, nonce and message.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use simdcrypt::salsa20::{Impl, Salsa20, XSalsa20};
use simdcrypt_bench::{SIZES, config, pattern, peers};

const KEY: [u8; 32] = [
    0x80, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f,
    0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f,
];
const NONCE: [u8; 8] = [0x31, 0x41, 0x59, 0x26, 0x53, 0x58, 0x97, 0x93];
const XNONCE: [u8; 24] = [
    0x69, 0x69, 0x6e, 0xe9, 0x55, 0xb6, 0x2b, 0x73, 0xcd, 0x62, 0xbd, 0xa8, 0x75, 0xfc, 0x73, 0xd6,
    0x82, 0x19, 0xe0, 0x03, 0x6b, 0x7a, 0x0b, 0x37,
];

/// The XSalsa20 sizes: a one-shot API is for messages, not bulk streams.
const XSIZES: [(&str, usize); 3] = [SIZES[0], SIZES[1], SIZES[2]];

/// One implementation under test.
#[derive(Clone, Copy)]
enum Contender {
    /// A simdcrypt rung, forced with `with_impl`.
    Rung(Impl),
    /// simdcrypt's default, `Impl::best()`.
    Best,
    /// RustCrypto's `salsa20` crate.
    RustCrypto,
    /// The system libsodium.
    Libsodium,
}

impl Contender {
    /// The id in the bench name: the rung's CLI name, or the peer's.
    fn name(self) -> &'static str {
        match self {
            Contender::Rung(imp) => imp.name(),
            Contender::Best => "simdcrypt-best",
            Contender::RustCrypto => "rustcrypto",
            Contender::Libsodium => "libsodium",
        }
    }

    /// Salsa20/20 of `data` in place, from a fresh cipher.
    fn salsa20(self, data: &mut [u8]) {
        match self {
            Contender::Rung(imp) => Salsa20::new(&KEY, &NONCE)
                .with_impl(imp)
                .and_then(|mut s| s.apply_keystream(data))
                .expect("an available rung, within the keystream"),
            Contender::Best => Salsa20::new(&KEY, &NONCE)
                .apply_keystream(data)
                .expect("within the keystream"),
            Contender::RustCrypto => peers::rustcrypto::salsa20_xor(&KEY, &NONCE, data),
            Contender::Libsodium => peers::libsodium::salsa20_xor(&KEY, &NONCE, data),
        }
    }

    /// XSalsa20 of `data` in place, from a fresh cipher (HSalsa20 included).
    fn xsalsa20(self, data: &mut [u8]) {
        match self {
            Contender::Rung(imp) => XSalsa20::new(&KEY, &XNONCE)
                .with_impl(imp)
                .and_then(|mut s| s.apply_keystream(data))
                .expect("an available rung, within the keystream"),
            Contender::Best => XSalsa20::new(&KEY, &XNONCE)
                .apply_keystream(data)
                .expect("within the keystream"),
            Contender::RustCrypto => peers::rustcrypto::xsalsa20_xor(&KEY, &XNONCE, data),
            Contender::Libsodium => peers::libsodium::xsalsa20_xor(&KEY, &XNONCE, data),
        }
    }
}

/// The trusted output every contender is checked against.
const REFERENCE: Contender = Contender::Rung(Impl::Reference);

/// The peers, after simdcrypt's default.
const PEERS: [Contender; 3] = [Contender::Best, Contender::RustCrypto, Contender::Libsodium];

/// Panics unless every contender's `encrypt` equals the reference rung's at
/// each bench size and at a ragged length that ends in a partial block.
/// Run once, before anything is timed.
fn check(group: &str, contenders: &[Contender], encrypt: fn(Contender, &mut [u8])) {
    let lengths = SIZES.iter().map(|&(_, len)| len).chain([1000 + 7]);
    for len in lengths {
        let mut expected = pattern(len);
        encrypt(REFERENCE, &mut expected);
        for &c in contenders {
            let mut got = pattern(len);
            encrypt(c, &mut got);
            assert!(
                got == expected,
                "{group}: {} differs from simdcrypt's reference rung at {len} bytes",
                c.name()
            );
        }
    }
    let names: Vec<_> = contenders.iter().map(|c| c.name()).collect();
    eprintln!(
        "{group}: {} agree with the reference rung; simdcrypt-best = {}",
        names.join(", "),
        Impl::best().name()
    );
}

/// Benches `contenders` in group `group` at `sizes`, ids `group/size/name`
/// so that a filter such as `^salsa20/16kib` selects one size.
fn run(
    c: &mut Criterion,
    group: &str,
    sizes: &[(&str, usize)],
    contenders: &[Contender],
    encrypt: fn(Contender, &mut [u8]),
) {
    check(group, contenders, encrypt);
    let mut g = c.benchmark_group(group);
    for &(label, len) in sizes {
        g.throughput(Throughput::Bytes(len as u64));
        let mut buf = pattern(len);
        for &contender in contenders {
            g.bench_function(BenchmarkId::new(label, contender.name()), |b| {
                b.iter(|| encrypt(contender, black_box(&mut buf)))
            });
        }
    }
    g.finish();
}

fn salsa20(c: &mut Criterion) {
    let contenders: Vec<_> = Impl::available()
        .map(Contender::Rung)
        .chain(PEERS)
        .collect();
    run(c, "salsa20", &SIZES, &contenders, Contender::salsa20);
}

fn xsalsa20(c: &mut Criterion) {
    run(c, "xsalsa20", &XSIZES, &PEERS, Contender::xsalsa20);
}

criterion_group! {
    name = benches;
    config = config();
    targets = salsa20, xsalsa20
}
criterion_main!(benches);
