//! Poly1305: every simdcrypt rung this CPU runs, simdcrypt's default,
//! OpenSSL (EVP_MAC), libsodium and RustCrypto's `poly1305`, in one harness.
//!
//! Each iteration is one whole MAC from a fresh key. Before anything is
//! timed, every implementation's tag is checked against simdcrypt's
//! `reference` rung.

use criterion::{Criterion, criterion_group, criterion_main};
use simdcrypt::poly1305::{Poly1305, Rung};
use simdcrypt_bench::{Contender, SIZES, config, ladder, peers, run};

const KEY: [u8; 32] = [
    0x85, 0xd6, 0xbe, 0x78, 0x57, 0x55, 0x6d, 0x33, 0x7f, 0x44, 0x52, 0xfe, 0x42, 0xd5, 0x06, 0xa8,
    0x01, 0x03, 0x80, 0x8a, 0xfb, 0x0d, 0xb2, 0xfd, 0x4a, 0xbf, 0xf6, 0xaf, 0x41, 0x49, 0xf5, 0x1b,
];

/// Poly1305 of `msg` from a fresh key, on rung `imp` (`None`: the default).
fn mac_on(imp: Option<Rung>, msg: &mut [u8]) -> [u8; 16] {
    let mac = Poly1305::new(&KEY);
    let mut mac = match imp {
        Some(i) => mac.with_rung(i).expect("an available rung"),
        None => mac,
    };
    mac.update(msg);
    mac.finalize()
}

fn poly1305(c: &mut Criterion) {
    let mut contenders = ladder(Rung::available(), Rung::name, mac_on);
    contenders.extend([
        Contender::new("openssl", |m: &mut [u8]| {
            peers::openssl::poly1305_mac(&KEY, m)
        }),
        Contender::new("libsodium", |m: &mut [u8]| {
            peers::libsodium::poly1305_mac(&KEY, m)
        }),
        Contender::new("rustcrypto", |m: &mut [u8]| {
            peers::rustcrypto::poly1305_mac(&KEY, m)
        }),
    ]);
    eprintln!("poly1305: simdcrypt-best = {}", Rung::best().name());
    let reference = Contender::new("reference", |m: &mut [u8]| mac_on(Some(Rung::Reference), m));
    run(c, "poly1305", &SIZES, &reference, &contenders);
}

criterion_group! {
    name = benches;
    config = config();
    targets = poly1305
}
criterion_main!(benches);
