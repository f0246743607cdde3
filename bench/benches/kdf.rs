//! scrypt (RFC 7914) at the two settings, N = 2^14 and N = 2^17
//! with r = 8, p = 1 (64-byte output): every simdcrypt rung this CPU runs,
//! simdcrypt's default, RustCrypto's `scrypt`, libsodium's
//! `crypto_pwhash_scryptsalsa208sha256_ll` and OpenSSL's `EVP_PBE_scrypt`.
//!
//! Each iteration is one whole derivation, the allocation of V included,
//! except for `simdcrypt-reused`: one [`Scrypt`] deriving again and again
//! (its memory kept and wiped between derivations), as a server checking
//! passwords would call it. The group `scrypt-2threads` runs two
//! derivations at once on two threads, each contender beside itself
//! (`simdcrypt-reused` with one `Scrypt` per thread). Before anything is
//! timed, every contender's output is checked against simdcrypt's `scalar`
//! rung.

use std::sync::Mutex;
use std::thread;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use simdcrypt::kdf::scrypt::{self, Rung, Scrypt};
use simdcrypt_bench::peers;

const PASSWORD: &[u8] = b"pleaseletmein";
const SALT: &[u8] = b"SodiumChloride";

/// A derivation: password, salt, log2 N, r, p, output.
type Kdf = fn(&[u8], &[u8], u8, u32, u32, &mut [u8]);
/// A named contender: a rung of ours or a peer.
type Contender = (
    String,
    Box<dyn Fn(&[u8], &[u8], u8, u32, u32, &mut [u8]) + Sync>,
);

fn on(imp: Rung) -> impl Fn(&[u8], &[u8], u8, u32, u32, &mut [u8]) + Sync {
    move |pw, salt, log_n, r, p, out| {
        scrypt::scrypt_with_impl(imp, pw, salt, log_n, r, p, out).expect("valid parameters")
    }
}

fn kdf(c: &mut Criterion) {
    let mut contenders: Vec<Contender> = Rung::available()
        .map(|i| (i.name().to_owned(), Box::new(on(i)) as Box<_>))
        .collect();
    contenders.push(("simdcrypt-best".to_owned(), Box::new(on(Rung::best()))));
    contenders.push(("simdcrypt-reused".to_owned(), Box::new(reused())));
    let peers: [(&str, Kdf); 3] = [
        ("rustcrypto", peers::rustcrypto::scrypt),
        ("libsodium", peers::libsodium::scrypt),
        ("openssl", peers::openssl::scrypt),
    ];
    for (name, f) in peers {
        contenders.push((name.to_owned(), Box::new(f)));
    }
    eprintln!("scrypt: simdcrypt-best = {}", Rung::best().name());
    for (label, log_n) in [("n2e14", 14u8), ("n2e17", 17)] {
        let mut want = [0u8; 64];
        on(Rung::Scalar)(PASSWORD, SALT, log_n, 8, 1, &mut want);
        for (name, f) in &contenders {
            let mut got = [0u8; 64];
            f(PASSWORD, SALT, log_n, 8, 1, &mut got);
            assert_eq!(got, want, "scrypt {label}: {name} differs from scalar");
        }
        let mut g = c.benchmark_group("scrypt");
        g.sample_size(10)
            .warm_up_time(Duration::from_secs(1))
            .measurement_time(Duration::from_secs(if log_n > 14 { 8 } else { 3 }));
        for (name, f) in &contenders {
            g.bench_function(format!("{label}/{name}"), |b| {
                b.iter(|| {
                    let mut out = [0u8; 64];
                    f(PASSWORD, SALT, log_n, 8, 1, &mut out);
                    out
                })
            });
        }
        g.finish();
    }
    two_threads(c, &contenders);
}

/// scrypt's parameters: log2 N, r, p.
type Params = (u8, u32, u32);

/// A derivation on one of a few kept [`Scrypt`]s (one per thread that
/// derives at once, at most two), made for the parameters on first use.
fn reused() -> impl Fn(&[u8], &[u8], u8, u32, u32, &mut [u8]) + Sync {
    let kept: [Mutex<Option<(Params, Scrypt)>>; 2] = Default::default();
    move |pw, salt, log_n, r, p, out| {
        let mut slot = kept
            .iter()
            .find_map(|k| k.try_lock().ok())
            .expect("at most two threads at once");
        let (params, scrypt) = slot.get_or_insert_with(|| {
            let made = Scrypt::new(log_n, r, p).expect("valid parameters");
            ((log_n, r, p), made)
        });
        if *params != (log_n, r, p) {
            *params = (log_n, r, p);
            *scrypt = Scrypt::new(log_n, r, p).expect("valid parameters");
        }
        scrypt.derive(pw, salt, out).expect("valid parameters");
    }
}

/// Each contender on two threads at once, one derivation each.
fn two_threads(c: &mut Criterion, contenders: &[Contender]) {
    for (label, log_n) in [("n2e14", 14u8), ("n2e17", 17)] {
        let mut g = c.benchmark_group("scrypt-2threads");
        g.sample_size(10)
            .warm_up_time(Duration::from_secs(1))
            .measurement_time(Duration::from_secs(if log_n > 14 { 8 } else { 3 }));
        for (name, f) in contenders {
            g.bench_function(format!("{label}/{name}"), |b| {
                b.iter(|| {
                    thread::scope(|s| {
                        for _ in 0..2 {
                            s.spawn(|| {
                                let mut out = [0u8; 64];
                                f(PASSWORD, SALT, log_n, 8, 1, &mut out);
                                out
                            });
                        }
                    })
                })
            });
        }
        g.finish();
    }
}

criterion_group!(benches, kdf);
criterion_main!(benches);
