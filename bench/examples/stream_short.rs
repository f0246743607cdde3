//! Per-message cost of the stream ciphers beside their peers: for each
//! message, a new cipher (key and nonce set) and one out-of-place XOR of
//! `len` bytes, calls chained (the next input address depends on the
//! previous output's last byte). Contenders are interleaved burst by burst;
//! the fastest burst of each is kept.
//!
//! For Salsa20 and XSalsa20 it also prints the bound a message of one block
//! cannot beat on this CPU: the latency of Salsa20's block function (20
//! rounds, the final addition) as one dependent chain, its next input its
//! last output, through `salsa20::core` (the fastest single-block form); an
//! XSalsa20 message is two such chains, HSalsa20 then the block.
//!
//! `cargo run --release --example stream_short [len] [bursts]`; with
//! `calls N PRIM [len] [who]` it runs only contender `who` (0: simdcrypt)
//! of PRIM N times (for callgrind).

use std::hint::black_box;
use std::time::Instant;

use simdcrypt::chacha20::{ChaCha20, XChaCha20};
use simdcrypt::salsa20::{Salsa20, XSalsa20};
use simdcrypt_bench::peers::{libsodium, rustcrypto};

const KEY: [u8; 32] = [7; 32];

type Fn3 = fn(&[u8], &mut [u8]);

fn sc_salsa(i: &[u8], o: &mut [u8]) {
    Salsa20::new(black_box(&KEY), black_box(&[1; 8]))
        .xor_into(i, o)
        .unwrap();
}
fn sc_xsalsa(i: &[u8], o: &mut [u8]) {
    XSalsa20::new(black_box(&KEY), black_box(&[1; 24]))
        .xor_into(i, o)
        .unwrap();
}
fn sc_chacha(i: &[u8], o: &mut [u8]) {
    ChaCha20::new(black_box(&KEY), black_box(&[1; 12]))
        .xor_into(i, o)
        .unwrap();
}
fn sc_xchacha(i: &[u8], o: &mut [u8]) {
    XChaCha20::new(black_box(&KEY), black_box(&[1; 24]))
        .xor_into(i, o)
        .unwrap();
}

fn table() -> Vec<(&'static str, Vec<(&'static str, Fn3)>)> {
    vec![
        (
            "salsa20",
            vec![
                ("simdcrypt", sc_salsa as Fn3),
                ("sc-scalar", |i, o| {
                    Salsa20::new(black_box(&KEY), black_box(&[1; 8]))
                        .with_rung(simdcrypt::salsa20::Rung::NoTranspose)
                        .unwrap()
                        .xor_into(i, o)
                        .unwrap()
                }),
                ("rustcrypto", |i, o| {
                    rustcrypto::salsa20_xor_into(black_box(&KEY), black_box(&[1; 8]), i, o)
                }),
                ("libsodium", |i, o| {
                    libsodium::salsa20_xor_into(black_box(&KEY), black_box(&[1; 8]), i, o)
                }),
            ],
        ),
        (
            "xsalsa20",
            vec![
                ("simdcrypt", sc_xsalsa as Fn3),
                ("rustcrypto", |i, o| {
                    rustcrypto::xsalsa20_xor_into(black_box(&KEY), black_box(&[1; 24]), i, o)
                }),
                ("libsodium", |i, o| {
                    libsodium::xsalsa20_xor_into(black_box(&KEY), black_box(&[1; 24]), i, o)
                }),
            ],
        ),
        (
            "chacha20",
            vec![
                ("simdcrypt", sc_chacha as Fn3),
                ("sc-scalar", |i, o| {
                    ChaCha20::new(black_box(&KEY), black_box(&[1; 12]))
                        .with_rung(simdcrypt::chacha20::Rung::Reference)
                        .unwrap()
                        .xor_into(i, o)
                        .unwrap()
                }),
                ("rustcrypto", |i, o| {
                    rustcrypto::chacha20_xor_into(black_box(&KEY), black_box(&[1; 12]), i, o)
                }),
                ("libsodium", |i, o| {
                    libsodium::chacha20_xor_into(black_box(&KEY), black_box(&[1; 12]), i, o)
                }),
            ],
        ),
        (
            "xchacha20",
            vec![
                ("simdcrypt", sc_xchacha as Fn3),
                ("rustcrypto", |i, o| {
                    rustcrypto::xchacha20_xor_into(black_box(&KEY), black_box(&[1; 24]), i, o)
                }),
                ("libsodium", |i, o| {
                    libsodium::xchacha20_xor_into(black_box(&KEY), black_box(&[1; 24]), i, o)
                }),
            ],
        ),
    ]
}

/// Nanoseconds per Salsa20 block function when each call's input is the
/// previous call's output: the latency of one block's dependent chain.
fn block_chain(calls: usize) -> f64 {
    let mut x: [u32; 16] = std::array::from_fn(|i| (i as u32).wrapping_mul(0x9e37_79b9));
    let start = Instant::now();
    for _ in 0..calls {
        x = simdcrypt::salsa20::core(black_box(&x), 10);
    }
    black_box(x);
    start.elapsed().as_nanos() as f64 / calls as f64
}

/// `calls` chained calls of `f` on `len` bytes; nanoseconds per call.
fn burst(f: Fn3, len: usize, calls: usize, input: &[u8], output: &mut [u8]) -> f64 {
    let start = Instant::now();
    let mut at = 0;
    for _ in 0..calls {
        f(
            black_box(&input[at..at + len]),
            black_box(&mut output[..len]),
        );
        at = usize::from(output[len - 1]) & black_box(0);
    }
    start.elapsed().as_nanos() as f64 / calls as f64
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let input = vec![0x5au8; 1 << 16];
    let mut output = vec![0u8; 1 << 16];
    if args.get(1).map(String::as_str) == Some("calls") {
        let n: usize = args[2].parse().unwrap();
        let prim = &args[3];
        let len: usize = args.get(4).map_or(64, |s| s.parse().unwrap());
        let who: usize = args.get(5).map_or(0, |s| s.parse().unwrap());
        let t = table();
        let f = t.iter().find(|(p, _)| p == prim).unwrap().1[who].1;
        // (who: index in the table, 0 simdcrypt)
        burst(f, len, n, &input, &mut output);
        println!("{}", output[0]);
        return;
    }
    let len: usize = args.get(1).map_or(64, |s| s.parse().unwrap());
    let bursts: usize = args.get(2).map_or(300, |s| s.parse().unwrap());
    let calls = (200_000 / len.max(64)).max(50);
    for (prim, cs) in table() {
        // Block chains a message of at most one block is bounded by.
        let chains = match prim {
            "salsa20" if len <= 64 => 1.0,
            "xsalsa20" if len <= 64 => 2.0,
            _ => 0.0,
        };
        let mut best = vec![f64::INFINITY; cs.len()];
        let mut bound = f64::INFINITY;
        for _ in 0..bursts {
            for (b, (_, f)) in best.iter_mut().zip(&cs) {
                *b = b.min(burst(*f, len, calls, &input, &mut output));
            }
            if chains > 0.0 {
                bound = bound.min(chains * block_chain(calls));
            }
        }
        let peer = cs
            .iter()
            .zip(&best)
            .skip(1)
            .filter(|((n, _), _)| !n.starts_with("sc-"))
            .map(|(_, t)| *t)
            .fold(f64::INFINITY, f64::min);
        let line: Vec<String> = cs
            .iter()
            .zip(&best)
            .map(|((n, _), t)| format!("{n} {t:.1}"))
            .collect();
        println!(
            "{prim:9} {len:5} B: {}  ratio best-peer/simdcrypt {:.2}",
            line.join("  "),
            peer / best[0]
        );
        if chains > 0.0 {
            println!(
                "{prim:9} {len:5} B: bound {bound:.1} ({chains} block chains), simdcrypt / bound {:.2}",
                best[0] / bound
            );
        }
    }
}
