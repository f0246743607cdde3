//! TLS handshakes in memory, for counting their instructions under
//! callgrind: `tls_handshake CLIENT SERVER KIND COUNT` runs COUNT
//! handshakes (after one untimed one that fills the session cache) between
//! a client on provider CLIENT and a server on SERVER (`simdcrypt`, this
//! workspace's provider over aws-lc-rs, or `aws-lc-rs`), KIND `full` or
//! `resumed` (TLS 1.3 tickets), AES-128-GCM, an ECDSA P-256 certificate.
//! The instructions a side costs are the difference between runs that
//! change only that side's provider (bench/NOTES.md, `tls-handshake`):
//!
//! ```sh
//! cargo bench -p simdcrypt-bench --bench tls_handshake --no-run
//! SIMDCRYPT_MAX_ISA=avx2 valgrind --tool=callgrind --callgrind-out-file=/dev/null \
//!     target/release/deps/tls_handshake-* simdcrypt aws-lc-rs full 20
//! ```
//!
//! Without arguments (as `cargo bench` runs it) it runs 100 full handshakes
//! of each pair and prints their time.

use std::sync::Arc;
use std::time::Instant;

use rustls::crypto::CryptoProvider;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use rustls::{ClientConfig, ClientConnection, RootCertStore, ServerConfig, ServerConnection};

fn provider(name: &str) -> Arc<CryptoProvider> {
    let p = match name {
        "simdcrypt" => simdcrypt_rustls::default_provider(),
        "aws-lc-rs" => rustls::crypto::aws_lc_rs::default_provider(),
        other => panic!("unknown provider {other:?}; expected simdcrypt or aws-lc-rs"),
    };
    let suite = p
        .cipher_suites
        .iter()
        .copied()
        .find(|s| s.suite() == rustls::CipherSuite::TLS13_AES_128_GCM_SHA256)
        .unwrap();
    Arc::new(CryptoProvider {
        cipher_suites: vec![suite],
        ..p
    })
}

/// One handshake to its end, tickets delivered.
fn handshake(client: &Arc<ClientConfig>, server: &Arc<ServerConfig>) {
    let mut c = ClientConnection::new(client.clone(), "localhost".try_into().unwrap()).unwrap();
    let mut s = ServerConnection::new(server.clone()).unwrap();
    let mut wire = Vec::new();
    loop {
        wire.clear();
        c.write_tls(&mut wire).unwrap();
        s.read_tls(&mut &wire[..]).unwrap();
        s.process_new_packets().unwrap();
        wire.clear();
        s.write_tls(&mut wire).unwrap();
        c.read_tls(&mut &wire[..]).unwrap();
        c.process_new_packets().unwrap();
        if !c.is_handshaking() && !s.is_handshaking() && !c.wants_write() && !s.wants_write() {
            break;
        }
    }
}

fn configs(client: &str, server: &str, resumed: bool) -> (Arc<ClientConfig>, Arc<ServerConfig>) {
    let key = rcgen::KeyPair::generate_for(&rcgen::PKCS_ECDSA_P256_SHA256).unwrap();
    let cert = rcgen::CertificateParams::new(vec!["localhost".into()])
        .unwrap()
        .self_signed(&key)
        .unwrap();
    let der: CertificateDer<'static> = cert.der().clone();
    let mut roots = RootCertStore::empty();
    roots.add(der.clone()).unwrap();
    let mut cc = ClientConfig::builder_with_provider(provider(client))
        .with_protocol_versions(&[&rustls::version::TLS13])
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
    let mut sc = ServerConfig::builder_with_provider(provider(server))
        .with_protocol_versions(&[&rustls::version::TLS13])
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(
            vec![der],
            PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(key.serialize_der())),
        )
        .unwrap();
    if !resumed {
        cc.resumption = rustls::client::Resumption::disabled();
        sc.send_tls13_tickets = 0;
    }
    (Arc::new(cc), Arc::new(sc))
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    if let [client, server, kind, count] = &args[..] {
        let resumed = match kind.as_str() {
            "full" => false,
            "resumed" => true,
            other => panic!("unknown kind {other:?}; expected full or resumed"),
        };
        let count: usize = count.parse().expect("a count");
        let (cc, sc) = configs(client, server, resumed);
        handshake(&cc, &sc);
        for _ in 0..count {
            handshake(&cc, &sc);
        }
        return;
    }
    for (client, server) in [
        ("aws-lc-rs", "aws-lc-rs"),
        ("simdcrypt", "aws-lc-rs"),
        ("aws-lc-rs", "simdcrypt"),
        ("simdcrypt", "simdcrypt"),
    ] {
        let (cc, sc) = configs(client, server, false);
        handshake(&cc, &sc);
        let t = Instant::now();
        for _ in 0..100 {
            handshake(&cc, &sc);
        }
        println!(
            "client {client:10} server {server:10}: {:.1} µs a full handshake",
            t.elapsed().as_secs_f64() * 1e4
        );
    }
}
