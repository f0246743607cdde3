//! In-memory TLS connections between this provider and rustls's own
//! (aws-lc-rs, ring) and itself: every suite, as client and as server,
//! handshakes, data both ways across record boundaries, key updates,
//! resumption, confidentiality limits and tampered records.

use std::io::{Read, Write};
use std::sync::Arc;

use rustls::crypto::CryptoProvider;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use rustls::{
    ClientConfig, ClientConnection, Connection, HandshakeKind, RootCertStore, ServerConfig,
    ServerConnection, SupportedCipherSuite, SupportedProtocolVersion,
};

/// A CA and a server certificate under it, for `localhost`.
struct Pki {
    kind: &'static str,
    ca: CertificateDer<'static>,
    chain: Vec<CertificateDer<'static>>,
    key: PrivatePkcs8KeyDer<'static>,
}

impl Pki {
    fn new(kind: &'static str, alg: &'static rcgen::SignatureAlgorithm) -> Pki {
        let ca_key = rcgen::KeyPair::generate_for(alg).expect("CA key");
        let mut ca_params = rcgen::CertificateParams::new(Vec::<String>::new()).expect("CA params");
        ca_params
            .distinguished_name
            .push(rcgen::DnType::CommonName, "simdcrypt-rustls test CA");
        ca_params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
        let ca = ca_params.self_signed(&ca_key).expect("CA certificate");
        let issuer = rcgen::Issuer::new(ca_params, ca_key);
        let key = rcgen::KeyPair::generate_for(alg).expect("server key");
        let mut params = rcgen::CertificateParams::new(vec!["localhost".into()]).expect("params");
        params
            .distinguished_name
            .push(rcgen::DnType::CommonName, "localhost");
        let cert = params.signed_by(&key, &issuer).expect("server certificate");
        Pki {
            kind,
            ca: ca.der().clone(),
            chain: vec![cert.der().clone()],
            key: PrivatePkcs8KeyDer::from(key.serialize_der()),
        }
    }

    fn ecdsa() -> Pki {
        Pki::new("ECDSA P-256", &rcgen::PKCS_ECDSA_P256_SHA256)
    }

    fn rsa() -> Pki {
        Pki::new("RSA 2048", &rcgen::PKCS_RSA_SHA256)
    }
}

/// This crate's provider over aws-lc-rs (what `default_provider()` is with
/// the default features; the tests need it whatever the features).
fn ours() -> CryptoProvider {
    simdcrypt_rustls::provider_over(rustls::crypto::aws_lc_rs::default_provider())
}

/// The providers the tests pair.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Side {
    Ours,
    AwsLc,
    Ring,
}

impl Side {
    fn provider(self, suite: SupportedCipherSuite) -> CryptoProvider {
        let base = match self {
            Side::Ours => ours(),
            Side::AwsLc => rustls::crypto::aws_lc_rs::default_provider(),
            Side::Ring => rustls::crypto::ring::default_provider(),
        };
        let chosen = base
            .cipher_suites
            .iter()
            .copied()
            .find(|s| s.suite() == suite.suite())
            .expect("the provider has the suite");
        if self == Side::Ours {
            assert!(
                same(chosen, suite),
                "default_provider() carries simdcrypt's {:?}",
                suite.suite()
            );
        }
        CryptoProvider {
            cipher_suites: vec![chosen],
            ..base
        }
    }
}

/// Whether `a` and `b` are the same definition (not only the same id).
fn same(a: SupportedCipherSuite, b: SupportedCipherSuite) -> bool {
    match (a, b) {
        (SupportedCipherSuite::Tls13(a), SupportedCipherSuite::Tls13(b)) => std::ptr::eq(a, b),
        (SupportedCipherSuite::Tls12(a), SupportedCipherSuite::Tls12(b)) => std::ptr::eq(a, b),
        _ => false,
    }
}

fn version(suite: SupportedCipherSuite) -> &'static SupportedProtocolVersion {
    match suite {
        SupportedCipherSuite::Tls13(_) => &rustls::version::TLS13,
        SupportedCipherSuite::Tls12(_) => &rustls::version::TLS12,
    }
}

/// The certificates a suite's server needs: TLS 1.2's suites name their
/// key type; TLS 1.3's take either (ECDSA here).
fn pki_for<'a>(suite: SupportedCipherSuite, ecdsa: &'a Pki, rsa: &'a Pki) -> &'a Pki {
    if format!("{:?}", suite.suite()).contains("_RSA_") {
        rsa
    } else {
        ecdsa
    }
}

fn configs(
    suite: SupportedCipherSuite,
    client: Side,
    server: Side,
    pki: &Pki,
) -> (Arc<ClientConfig>, Arc<ServerConfig>) {
    let mut roots = RootCertStore::empty();
    roots.add(pki.ca.clone()).expect("CA");
    let client_config = ClientConfig::builder_with_provider(Arc::new(client.provider(suite)))
        .with_protocol_versions(&[version(suite)])
        .expect("version")
        .with_root_certificates(roots)
        .with_no_client_auth();
    let server_config = ServerConfig::builder_with_provider(Arc::new(server.provider(suite)))
        .with_protocol_versions(&[version(suite)])
        .expect("version")
        .with_no_client_auth()
        .with_single_cert(pki.chain.clone(), PrivateKeyDer::Pkcs8(pki.key.clone_key()))
        .expect("server certificate");
    (Arc::new(client_config), Arc::new(server_config))
}

/// Moves every pending TLS byte from `from` to `to`, processing it; the
/// bytes moved.
fn pump(from: &mut Connection, to: &mut Connection) -> Result<usize, rustls::Error> {
    let mut buf = Vec::new();
    while from.wants_write() {
        from.write_tls(&mut buf).expect("write to a Vec");
    }
    let mut at = &buf[..];
    while !at.is_empty() {
        to.read_tls(&mut at).expect("read from a slice");
        to.process_new_packets()?;
    }
    Ok(buf.len())
}

/// Runs the handshake to its end, then delivers what follows it (tickets).
fn handshake(client: &mut Connection, server: &mut Connection) {
    while client.is_handshaking() || server.is_handshaking() {
        let a = pump(client, server).expect("server accepts the handshake");
        let b = pump(server, client).expect("client accepts the handshake");
        assert!(a + b > 0, "handshake stalled");
    }
    pump(server, client).expect("client accepts");
    pump(client, server).expect("server accepts");
}

/// Reads all the plaintext `conn` has.
fn drain(conn: &mut Connection) -> Vec<u8> {
    let mut out = Vec::new();
    let mut buf = vec![0; 1 << 16];
    loop {
        match conn.reader().read(&mut buf) {
            Ok(0) => return out,
            Ok(n) => out.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => return out,
            Err(e) => panic!("read: {e}"),
        }
    }
}

/// Sends `data` from `a` to `b` and checks it arrives whole.
fn send(a: &mut Connection, b: &mut Connection, data: &[u8]) {
    let mut received = Vec::with_capacity(data.len());
    for chunk in data.chunks(32 << 10) {
        a.writer().write_all(chunk).expect("write");
        pump(a, b).expect("peer accepts the records");
        received.extend(drain(b));
    }
    assert!(
        received == data,
        "{} bytes sent, {} received, or different",
        data.len(),
        received.len()
    );
}

/// A pair on `suite`, handshaken.
fn connect(cc: &Arc<ClientConfig>, sc: &Arc<ServerConfig>) -> (Connection, Connection) {
    let mut client = Connection::from(
        ClientConnection::new(cc.clone(), "localhost".try_into().expect("name")).expect("client"),
    );
    let mut server = Connection::from(ServerConnection::new(sc.clone()).expect("server"));
    handshake(&mut client, &mut server);
    (client, server)
}

fn data(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i * 7 + i / 251) as u8).collect()
}

#[test]
fn every_suite_both_ways_against_every_peer() {
    let (ecdsa, rsa) = (Pki::ecdsa(), Pki::rsa());
    let pairs = [
        (Side::Ours, Side::AwsLc),
        (Side::AwsLc, Side::Ours),
        (Side::Ours, Side::Ring),
        (Side::Ring, Side::Ours),
        (Side::Ours, Side::Ours),
    ];
    for &suite in simdcrypt_rustls::ALL_CIPHER_SUITES {
        // TLS 1.3's suites with either key type; TLS 1.2's with theirs.
        let pkis = match suite {
            SupportedCipherSuite::Tls13(_) => vec![&ecdsa, &rsa],
            SupportedCipherSuite::Tls12(_) => vec![pki_for(suite, &ecdsa, &rsa)],
        };
        for (pki, (client_side, server_side)) in
            pkis.into_iter().flat_map(|p| pairs.map(|pair| (p, pair)))
        {
            let what = format!(
                "{:?}, {}, client {client_side:?}, server {server_side:?}",
                suite.suite(),
                pki.kind
            );
            let (cc, sc) = configs(suite, client_side, server_side, pki);
            let (mut client, mut server) = connect(&cc, &sc);
            assert_eq!(
                client.negotiated_cipher_suite().map(|s| s.suite()),
                Some(suite.suite()),
                "{what}"
            );
            let big = matches!(
                (client_side, server_side),
                (Side::Ours, Side::AwsLc) | (Side::AwsLc, Side::Ours)
            );
            let lens: &[usize] = if big {
                &[0, 1, 16383, 16384, 16385, 10 << 20]
            } else {
                &[0, 1, 16383, 16384, 16385, 100_000]
            };
            for &len in lens {
                send(&mut client, &mut server, &data(len));
                send(&mut server, &mut client, &data(len));
            }
            if version(suite) == &rustls::version::TLS13 {
                client.refresh_traffic_keys().expect("key update");
                send(&mut client, &mut server, &data(40_000));
                send(&mut server, &mut client, &data(40_000));
                server.refresh_traffic_keys().expect("key update");
                send(&mut server, &mut client, &data(40_000));
                send(&mut client, &mut server, &data(40_000));
            }
            // Resumption: a second connection on the same configurations.
            let (mut client, mut server) = connect(&cc, &sc);
            assert_eq!(
                client.handshake_kind(),
                Some(HandshakeKind::Resumed),
                "{what}"
            );
            send(&mut client, &mut server, &data(20_000));
            send(&mut server, &mut client, &data(20_000));
        }
    }
}

/// A copy of one of this crate's TLS 1.3 suites with a confidentiality
/// limit of `limit` records.
fn limited(suite: SupportedCipherSuite, limit: u64) -> SupportedCipherSuite {
    let SupportedCipherSuite::Tls13(ours) = suite else {
        unreachable!("a TLS 1.3 suite")
    };
    let copy = rustls::Tls13CipherSuite {
        common: rustls::crypto::CipherSuiteCommon {
            confidentiality_limit: limit,
            ..ours.common
        },
        hkdf_provider: ours.hkdf_provider,
        aead_alg: ours.aead_alg,
        quic: ours.quic,
    };
    SupportedCipherSuite::Tls13(Box::leak(Box::new(copy)))
}

#[test]
fn a_tiny_confidentiality_limit_updates_the_keys_and_goes_on() {
    // rustls sends a KeyUpdate before a TLS 1.3 sender reaches the limit
    // (and closes a TLS 1.2 connection instead): 200 records under a
    // limit of 16 arrive whole only if the keys were updated, both ways.
    let pki = Pki::ecdsa();
    for suite in [
        simdcrypt_rustls::TLS13_AES_128_GCM_SHA256,
        simdcrypt_rustls::TLS13_CHACHA20_POLY1305_SHA256,
    ] {
        let small = limited(suite, 16);
        let provider = || CryptoProvider {
            cipher_suites: vec![small],
            ..ours()
        };
        let mut roots = RootCertStore::empty();
        roots.add(pki.ca.clone()).expect("CA");
        let cc = ClientConfig::builder_with_provider(Arc::new(provider()))
            .with_protocol_versions(&[&rustls::version::TLS13])
            .expect("version")
            .with_root_certificates(roots)
            .with_no_client_auth();
        let sc = ServerConfig::builder_with_provider(Arc::new(provider()))
            .with_protocol_versions(&[&rustls::version::TLS13])
            .expect("version")
            .with_no_client_auth()
            .with_single_cert(pki.chain.clone(), PrivateKeyDer::Pkcs8(pki.key.clone_key()))
            .expect("server certificate");
        let (mut client, mut server) = connect(&Arc::new(cc), &Arc::new(sc));
        for _ in 0..200 {
            send(&mut client, &mut server, &data(100));
            send(&mut server, &mut client, &data(100));
        }
    }
}

#[test]
fn provider_over_keeps_the_base_order_and_replaces_only_ours() {
    for base in [
        rustls::crypto::aws_lc_rs::default_provider(),
        rustls::crypto::ring::default_provider(),
    ] {
        let ids: Vec<_> = base.cipher_suites.iter().map(|s| s.suite()).collect();
        let kx = base.kx_groups.len();
        let over = simdcrypt_rustls::provider_over(base);
        assert_eq!(
            over.cipher_suites
                .iter()
                .map(|s| s.suite())
                .collect::<Vec<_>>(),
            ids
        );
        for s in &over.cipher_suites {
            let mine = simdcrypt_rustls::ALL_CIPHER_SUITES
                .iter()
                .find(|m| m.suite() == s.suite());
            assert!(
                mine.is_some_and(|m| same(*m, *s)),
                "{:?} is not simdcrypt's",
                s.suite()
            );
        }
        assert_eq!(over.kx_groups.len(), kx);
    }
    // A suite the crate does not implement stays the base's.
    let mut base = rustls::crypto::aws_lc_rs::default_provider();
    let foreign = base.cipher_suites[0];
    let SupportedCipherSuite::Tls13(inner) = foreign else {
        unreachable!()
    };
    let renamed = rustls::Tls13CipherSuite {
        common: rustls::crypto::CipherSuiteCommon {
            suite: rustls::CipherSuite::Unknown(0x1399),
            ..inner.common
        },
        hkdf_provider: inner.hkdf_provider,
        aead_alg: inner.aead_alg,
        quic: inner.quic,
    };
    let kept = SupportedCipherSuite::Tls13(Box::leak(Box::new(renamed)));
    base.cipher_suites.insert(1, kept);
    let over = simdcrypt_rustls::provider_over(base);
    assert!(same(over.cipher_suites[1], kept));
}

#[cfg(any(feature = "aws-lc-rs", feature = "ring", feature = "graviola"))]
#[test]
fn default_provider_carries_every_suite_of_ours() {
    let p = simdcrypt_rustls::default_provider();
    for mine in simdcrypt_rustls::ALL_CIPHER_SUITES {
        assert!(
            p.cipher_suites.iter().any(|s| same(*s, *mine)),
            "{:?}",
            mine.suite()
        );
    }
    assert!(simdcrypt_rustls::ticketer().is_ok());
}
