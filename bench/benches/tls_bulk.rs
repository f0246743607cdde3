//! TLS bulk transfer through rustls, in the shape of rustls's own `bulk`
//! benchmark: an in-memory client and server (TLS 1.3, an ECDSA P-256
//! certificate), the client writing 1 MiB at a time in the default 16 KiB
//! records; **send** is the client's `writer().write_all` and `write_tls`
//! (the records sealed), **receive** the server's `read_tls`,
//! `process_new_packets` and `reader().read` (the records opened), timed
//! apart. Contenders: `simdcrypt` (this workspace's provider over
//! aws-lc-rs), rustls's `aws-lc-rs` and `ring` providers; jemalloc is the
//! allocator for all of them (without it page faults halve the send
//! rate, rustls's notes say).
//!
//! A round times every contender on every suite, the contenders taking
//! turns transfer by transfer (16 MiB each), and keeps each one's fastest
//! of 8 transfers; the rounds (three unless `TLS_BULK_ROUNDS` says) give
//! the median and spread. MB/s are 10^6 bytes per second of plaintext.
//!
//! ```sh
//! taskset -c 1 cargo bench -p simdcrypt-bench --bench tls_bulk [-- chacha …]
//! ```

use std::io::{Read, Write};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rustls::crypto::CryptoProvider;
use rustls::pki_types::{PrivateKeyDer, PrivatePkcs8KeyDer};
use rustls::{ClientConfig, ClientConnection, RootCertStore, ServerConfig, ServerConnection};
use simdcrypt_bench::table::{Args, cpu_name};

#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// A provider's constructor.
type MakeProvider = fn() -> CryptoProvider;

/// Plaintext per write.
const WRITE: usize = 1 << 20;
/// Writes per timed transfer.
const WRITES: usize = 16;
/// Transfers per contender per round (the round keeps the fastest).
const TRANSFERS: usize = 8;

/// A connected pair and the buffers between them.
struct Pair {
    client: ClientConnection,
    server: ServerConnection,
    wire: Vec<u8>,
    plain: Vec<u8>,
    got: Vec<u8>,
}

impl Pair {
    fn new(client: Arc<ClientConfig>, server: Arc<ServerConfig>) -> Pair {
        let mut p = Pair {
            client: ClientConnection::new(client, "localhost".try_into().unwrap()).unwrap(),
            server: ServerConnection::new(server).unwrap(),
            wire: Vec::with_capacity(WRITE + WRITE / 8),
            plain: (0..WRITE).map(|i| i as u8).collect(),
            got: vec![0; WRITE],
        };
        // Whole 1 MiB writes sealed at once, as rustls's bulk mode does.
        p.client.set_buffer_limit(None);
        p.server.set_buffer_limit(None);
        while p.client.is_handshaking() || p.server.is_handshaking() {
            p.wire.clear();
            p.client.write_tls(&mut p.wire).unwrap();
            p.server.read_tls(&mut &p.wire[..]).unwrap();
            p.server.process_new_packets().unwrap();
            p.wire.clear();
            p.server.write_tls(&mut p.wire).unwrap();
            p.client.read_tls(&mut &p.wire[..]).unwrap();
            p.client.process_new_packets().unwrap();
        }
        p
    }

    /// One transfer of `WRITES` MiB: the time sealing and the time opening.
    fn transfer(&mut self) -> (Duration, Duration) {
        let (mut send, mut receive) = (Duration::ZERO, Duration::ZERO);
        for _ in 0..WRITES {
            self.wire.clear();
            let t = Instant::now();
            self.client.writer().write_all(&self.plain).unwrap();
            while self.client.wants_write() {
                self.client.write_tls(&mut self.wire).unwrap();
            }
            send += t.elapsed();
            let t = Instant::now();
            let mut at = &self.wire[..];
            let mut got = 0;
            while !at.is_empty() {
                self.server.read_tls(&mut at).unwrap();
                self.server.process_new_packets().unwrap();
                while let Ok(n) = self.server.reader().read(&mut self.got[got..]) {
                    if n == 0 {
                        break;
                    }
                    got += n;
                }
            }
            receive += t.elapsed();
            assert_eq!(got, WRITE);
        }
        (send, receive)
    }
}

fn main() {
    let args = Args::new("TLS_BULK_ROUNDS", 3);
    println!(
        "{}; TLS 1.3, 1 MiB writes, 16 KiB records, jemalloc; {} rounds of the fastest of {TRANSFERS} transfers of {WRITES} MiB; MB/s",
        cpu_name(),
        args.rounds
    );
    let key = rcgen::KeyPair::generate_for(&rcgen::PKCS_ECDSA_P256_SHA256).unwrap();
    let cert = rcgen::CertificateParams::new(vec!["localhost".into()])
        .unwrap()
        .self_signed(&key)
        .unwrap();
    let mut roots = RootCertStore::empty();
    roots.add(cert.der().clone()).unwrap();
    let contenders: [(&str, MakeProvider); 3] = [
        ("simdcrypt", simdcrypt_rustls::default_provider),
        ("aws-lc-rs", rustls::crypto::aws_lc_rs::default_provider),
        ("ring", rustls::crypto::ring::default_provider),
    ];
    for suite in [
        simdcrypt_rustls::TLS13_AES_128_GCM_SHA256,
        simdcrypt_rustls::TLS13_AES_256_GCM_SHA384,
        simdcrypt_rustls::TLS13_CHACHA20_POLY1305_SHA256,
    ] {
        let name = format!("{:?}", suite.suite());
        if !args.wanted(&name.to_lowercase()) && !args.wanted(&name) {
            continue;
        }
        let mut pairs: Vec<Pair> = contenders
            .iter()
            .map(|&(_, make)| {
                let provider = || {
                    let p = make();
                    let chosen = p
                        .cipher_suites
                        .iter()
                        .copied()
                        .find(|s| s.suite() == suite.suite())
                        .unwrap();
                    Arc::new(CryptoProvider {
                        cipher_suites: vec![chosen],
                        ..p
                    })
                };
                let client = ClientConfig::builder_with_provider(provider())
                    .with_protocol_versions(&[&rustls::version::TLS13])
                    .unwrap()
                    .with_root_certificates(roots.clone())
                    .with_no_client_auth();
                let server = ServerConfig::builder_with_provider(provider())
                    .with_protocol_versions(&[&rustls::version::TLS13])
                    .unwrap()
                    .with_no_client_auth()
                    .with_single_cert(
                        vec![cert.der().clone()],
                        PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(key.serialize_der())),
                    )
                    .unwrap();
                Pair::new(Arc::new(client), Arc::new(server))
            })
            .collect();
        // rounds × contenders × (send, receive) in MB/s.
        let mut figures = vec![vec![(0f64, 0f64); contenders.len()]; args.rounds];
        for round in figures.iter_mut() {
            let mut best = vec![(Duration::MAX, Duration::MAX); contenders.len()];
            for _ in 0..TRANSFERS {
                for (pair, best) in pairs.iter_mut().zip(&mut best) {
                    let (s, r) = pair.transfer();
                    *best = (best.0.min(s), best.1.min(r));
                }
            }
            let mb = (WRITE * WRITES) as f64 / 1e6;
            for (figure, (s, r)) in round.iter_mut().zip(best) {
                *figure = (mb / s.as_secs_f64(), mb / r.as_secs_f64());
            }
        }
        for (direction, pick) in [("send", 0), ("receive", 1)] {
            let value =
                |round: &Vec<(f64, f64)>, c: usize| if pick == 0 { round[c].0 } else { round[c].1 };
            println!(
                "\n| {name} {direction} | {} | simdcrypt ÷ aws-lc-rs |",
                contenders.map(|c| c.0).join(" | ")
            );
            println!("|---|{}---|", "---|".repeat(contenders.len()));
            let cells: Vec<String> = (0..contenders.len())
                .map(|c| spread(figures.iter().map(|r| value(r, c)).collect()))
                .collect();
            let ratio = spread(figures.iter().map(|r| value(r, 0) / value(r, 1)).collect());
            println!("| 1 MiB writes | {} | **{ratio}** |", cells.join(" | "));
        }
    }
}

/// The median and range of `v`, printed.
fn spread(mut v: Vec<f64>) -> String {
    v.sort_by(f64::total_cmp);
    let fmt = |x: f64| {
        if x < 10.0 {
            format!("{x:.2}")
        } else {
            format!("{x:.0}")
        }
    };
    format!(
        "{} ({}–{})",
        fmt(v[v.len() / 2]),
        fmt(v[0]),
        fmt(v[v.len() - 1])
    )
}
