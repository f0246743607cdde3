//! The bound of AES-GCM's stitched zmm kernel (`gcm_vaes512`) on this
//! CPU: its instructions on the vector units, without the data.
//!
//! - `vaes-zmm/N`, `vpclmulqdq-zmm/N`, `vpclmulqdq-ymm/N`: one instruction
//!   on `N` independent registers, as instructions per second (criterion's
//!   `elem/s`): their throughput, and with `N = 1` their latency.
//! - `aes-gcm-mix-128` and `-256`: a step of the kernel's arithmetic — for
//!   512 bytes, 8 registers through the 10 (or 14) AES rounds, GHASH's 26
//!   carry-less products (Karatsuba's three for each of 8 registers, two
//!   for the reduction) and 8 `vpshufb` (the ciphertext into GHASH's byte
//!   order) — on independent registers, as bytes per second: what the
//!   kernel would reach if nothing but those instructions' ports held it
//!   (no loads, stores, XORs, dependencies or branches).
//! - `aes-ctr-mix-128`: the AES rounds alone, the same way.
//!
//! `bench/NOTES.md` (`aes-gcm-zmm`) puts the kernel's figures beside these.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use simdcrypt_bench::config;

#[cfg(target_arch = "x86_64")]
mod x86 {
    use core::arch::x86_64::{
        __m256i, __m512i, _mm256_clmulepi64_epi128, _mm256_set1_epi32, _mm256_xor_si256,
        _mm512_aesenc_epi128, _mm512_clmulepi64_epi128, _mm512_set1_epi32, _mm512_shuffle_epi8,
        _mm512_xor_si512,
    };

    /// Whether the CPU runs what this file measures.
    pub fn available() -> bool {
        std::is_x86_feature_detected!("avx512f")
            && std::is_x86_feature_detected!("avx512bw")
            && std::is_x86_feature_detected!("vaes")
            && std::is_x86_feature_detected!("vpclmulqdq")
    }

    /// `N` registers from `seed`, each different.
    #[target_feature(enable = "avx512f")]
    fn regs<const N: usize>(seed: i32) -> [__m512i; N] {
        std::array::from_fn(|i| _mm512_set1_epi32(seed.wrapping_add(i as i32)))
    }

    /// The registers XORed into one.
    #[target_feature(enable = "avx512f")]
    fn fold(regs: &[__m512i]) -> __m512i {
        regs.iter()
            .fold(_mm512_set1_epi32(0), |a, x| _mm512_xor_si512(a, *x))
    }

    /// `iters` × 10 rounds of `vaesenc` on `N` independent registers.
    #[target_feature(enable = "avx512f,vaes")]
    pub fn vaes<const N: usize>(iters: u64, seed: i32) -> __m512i {
        let mut x = regs::<N>(seed);
        let k = _mm512_set1_epi32(seed ^ 0x5a5a);
        for _ in 0..iters {
            for _ in 0..10 {
                for x in x.iter_mut() {
                    *x = _mm512_aesenc_epi128(*x, k);
                }
            }
        }
        fold(&x)
    }

    /// `iters` × 10 zmm `vpclmulqdq` on `N` independent registers.
    #[target_feature(enable = "avx512f,vpclmulqdq")]
    pub fn clmul_zmm<const N: usize>(iters: u64, seed: i32) -> __m512i {
        let mut x = regs::<N>(seed);
        let k = _mm512_set1_epi32(seed ^ 0x5a5a);
        for _ in 0..iters {
            for _ in 0..10 {
                for x in x.iter_mut() {
                    *x = _mm512_clmulepi64_epi128::<0x01>(*x, k);
                }
            }
        }
        fold(&x)
    }

    /// `iters` × 10 ymm `vpclmulqdq` on `N` independent registers.
    #[target_feature(enable = "avx2,vpclmulqdq")]
    pub fn clmul_ymm<const N: usize>(iters: u64, seed: i32) -> __m256i {
        let mut x: [__m256i; N] =
            std::array::from_fn(|i| _mm256_set1_epi32(seed.wrapping_add(i as i32)));
        let k = _mm256_set1_epi32(seed ^ 0x5a5a);
        for _ in 0..iters {
            for _ in 0..10 {
                for x in x.iter_mut() {
                    *x = _mm256_clmulepi64_epi128::<0x01>(*x, k);
                }
            }
        }
        x.iter()
            .fold(_mm256_set1_epi32(0), |a, x| _mm256_xor_si256(a, *x))
    }

    /// `iters` steps of the kernel's arithmetic for 512 bytes under `NR`
    /// rounds: 8 registers × `NR` `vaesenc`, with `GHASH` the 26
    /// `vpclmulqdq` (13 registers × 2) and 8 `vpshufb`, all independent.
    #[target_feature(enable = "avx512f,avx512bw,vaes,vpclmulqdq")]
    pub fn mix<const NR: usize, const GHASH: bool>(iters: u64, seed: i32) -> __m512i {
        let mut a = regs::<8>(seed);
        let mut c = regs::<13>(seed ^ 0x1111);
        let mut s = regs::<8>(seed ^ 0x2222);
        let k = _mm512_set1_epi32(seed ^ 0x5a5a);
        for _ in 0..iters {
            for _ in 0..NR {
                for x in a.iter_mut() {
                    *x = _mm512_aesenc_epi128(*x, k);
                }
            }
            if GHASH {
                for x in c.iter_mut() {
                    *x = _mm512_clmulepi64_epi128::<0x01>(*x, k);
                    *x = _mm512_clmulepi64_epi128::<0x10>(*x, k);
                }
                for x in s.iter_mut() {
                    *x = _mm512_shuffle_epi8(*x, k);
                }
            }
        }
        _mm512_xor_si512(fold(&a), _mm512_xor_si512(fold(&c), fold(&s)))
    }
}

/// Calls per timed iteration.
const ITERS: u64 = 1000;

#[cfg(target_arch = "x86_64")]
fn bound(c: &mut Criterion) {
    if !x86::available() {
        eprintln!("gcm-bound: SKIPPED: the CPU lacks AVX-512BW, VAES or VPCLMULQDQ");
        return;
    }
    let seed = black_box(0x1234_5678);
    macro_rules! each {
        ($group:literal, $per_iter:expr, $($name:literal => $f:expr),+ $(,)?) => {{
            let mut g = c.benchmark_group($group);
            $(
                g.throughput($per_iter($name));
                // SAFETY: the CPU runs AVX-512F/BW, VAES and VPCLMULQDQ
                // (checked above).
                g.bench_function($name, |b| b.iter(|| unsafe { $f(black_box(ITERS), seed) }));
            )+
            g.finish();
        }};
    }
    let instructions = |n: &str| Throughput::Elements(ITERS * 10 * n.parse::<u64>().expect("N"));
    each!("gcm-bound-vaes-zmm", instructions,
        "1" => x86::vaes::<1>, "2" => x86::vaes::<2>, "4" => x86::vaes::<4>, "8" => x86::vaes::<8>);
    each!("gcm-bound-vpclmulqdq-zmm", instructions,
        "1" => x86::clmul_zmm::<1>, "4" => x86::clmul_zmm::<4>, "8" => x86::clmul_zmm::<8>);
    each!("gcm-bound-vpclmulqdq-ymm", instructions,
        "1" => x86::clmul_ymm::<1>, "4" => x86::clmul_ymm::<4>, "8" => x86::clmul_ymm::<8>);
    let bytes = |_: &str| Throughput::Bytes(ITERS * 512);
    each!("gcm-bound-mix", bytes,
        "aes-gcm-mix-128" => x86::mix::<10, true>,
        "aes-gcm-mix-256" => x86::mix::<14, true>,
        "aes-ctr-mix-128" => x86::mix::<10, false>);
}

#[cfg(not(target_arch = "x86_64"))]
fn bound(_: &mut Criterion) {
    eprintln!("gcm-bound: SKIPPED: x86-64 only");
}

criterion_group! {
    name = benches;
    config = config();
    targets = bound
}
criterion_main!(benches);
