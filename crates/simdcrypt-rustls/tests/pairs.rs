//! In-memory TLS connections between this provider and rustls's own
//! (aws-lc-rs, ring) and itself: every suite, as client and as server,
//! handshakes, data both ways across record boundaries, key updates,
//! resumption, confidentiality limits and tampered records.

use std::io::{Read, Write};
use std::sync::Arc;

use rustls::crypto::CryptoProvider;
use rustls::{
    ClientConfig, ClientConnection, Connection, HandshakeKind, ServerConfig, ServerConnection,
    SupportedCipherSuite,
};

mod common;

use common::{Pki, configs as configured, narrowed, ours};

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
        let provider = narrowed(base, suite);
        if self == Side::Ours {
            assert!(
                same(provider.cipher_suites[0], suite),
                "default_provider() carries simdcrypt's {:?}",
                suite.suite()
            );
        }
        provider
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

/// The certificates a suite's server needs: TLS 1.2's suites name their
/// key type; TLS 1.3's take either (ECDSA here).
fn pki_for<'a>(
    suite: SupportedCipherSuite,
    ecdsa: &'a (&'static str, Pki),
    rsa: &'a (&'static str, Pki),
) -> &'a (&'static str, Pki) {
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
    let (client, server) = configured(suite, client.provider(suite), server.provider(suite), pki);
    (Arc::new(client), Arc::new(server))
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
    let ecdsa = ("ECDSA P-256", Pki::ecdsa());
    let rsa = ("RSA 2048", Pki::new(&rcgen::PKCS_RSA_SHA256));
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
        for ((kind, pki), (client_side, server_side)) in
            pkis.into_iter().flat_map(|p| pairs.map(|pair| (p, pair)))
        {
            let what = format!(
                "{:?}, {kind}, client {client_side:?}, server {server_side:?}",
                suite.suite(),
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
            if suite.version() == &rustls::version::TLS13 {
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
        let (cc, sc) = configured(suite, provider(), provider(), &pki);
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
