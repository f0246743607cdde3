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

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use simdcrypt_bench::gcm::{Contender, check, gcm, gcm_siv, open_row, opening, seal_row, sealing};
use simdcrypt_bench::table::Timer;
use simdcrypt_bench::{SIZES, config};

/// Checks `list`, then benches sealing in `{name}-seal` and opening in
/// `{name}-open`, ids `group/size/contender`.
fn run(c: &mut Criterion, name: &str, list: &[Contender]) {
    check(name, list);
    for (what, open) in [("seal", false), ("open", true)] {
        let mut g = c.benchmark_group(format!("{name}-{what}"));
        for &(label, len) in &SIZES {
            g.throughput(Throughput::Bytes(len as u64));
            let (row, contenders) = if open {
                (open_row(&list[0], label, len), opening(list))
            } else {
                (seal_row(label, len), sealing(list))
            };
            for mut contender in contenders {
                let mut timer = Timer::new(&row);
                g.bench_function(BenchmarkId::new(label, contender.name), |b| {
                    b.iter_custom(|iters| timer.time(&mut *contender.message, iters))
                });
            }
        }
        g.finish();
    }
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
