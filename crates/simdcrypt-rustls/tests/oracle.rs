//! An independent record oracle: the traffic secrets of TLS 1.3
//! connections on this provider (rustls's `KeyLog`) give keys through
//! aws-lc-rs's HKDF (RFC 8446 §7.1, §7.3), and aws-lc-rs's AEADs open the
//! records captured on the wire: nonce, additional data and inner content
//! type are checked outside rustls and outside simdcrypt.

use std::io::Write;
use std::sync::{Arc, Mutex};

use aws_lc_rs::aead::{
    AES_128_GCM, AES_256_GCM, Aad, Algorithm, CHACHA20_POLY1305, LessSafeKey, Nonce, UnboundKey,
};
use aws_lc_rs::hkdf::{self, HKDF_SHA256, HKDF_SHA384, KeyType, Prk};
use rustls::crypto::CryptoProvider;
use rustls::pki_types::{PrivateKeyDer, PrivatePkcs8KeyDer};
use rustls::{
    ClientConfig, ClientConnection, KeyLog, RootCertStore, ServerConfig, ServerConnection,
    SupportedCipherSuite,
};

/// The secrets rustls logs, by label.
#[derive(Debug, Default)]
struct Secrets(Mutex<Vec<(String, Vec<u8>)>>);

impl KeyLog for Secrets {
    fn log(&self, label: &str, _client_random: &[u8], secret: &[u8]) {
        self.0
            .lock()
            .unwrap()
            .push((label.to_string(), secret.to_vec()));
    }
}

struct Len(usize);

impl KeyType for Len {
    fn len(&self) -> usize {
        self.0
    }
}

/// HKDF-Expand-Label(secret, label, "", len) (RFC 8446 §7.1), by aws-lc-rs.
fn expand_label(alg: hkdf::Algorithm, secret: &[u8], label: &str, len: usize) -> Vec<u8> {
    let full = format!("tls13 {label}");
    let mut info = (len as u16).to_be_bytes().to_vec();
    info.push(full.len() as u8);
    info.extend_from_slice(full.as_bytes());
    info.push(0);
    let mut out = vec![0; len];
    Prk::new_less_safe(alg, secret)
        .expand(&[&info], Len(len))
        .unwrap()
        .fill(&mut out)
        .unwrap();
    out
}

fn ours(suite: SupportedCipherSuite) -> Arc<CryptoProvider> {
    let base = simdcrypt_rustls::provider_over(rustls::crypto::aws_lc_rs::default_provider());
    let chosen = base
        .cipher_suites
        .iter()
        .copied()
        .find(|s| s.suite() == suite.suite())
        .unwrap();
    Arc::new(CryptoProvider {
        cipher_suites: vec![chosen],
        ..base
    })
}

#[test]
fn aws_lc_rs_opens_the_records_on_the_wire() {
    let key = rcgen::KeyPair::generate_for(&rcgen::PKCS_ECDSA_P256_SHA256).unwrap();
    let cert = rcgen::CertificateParams::new(vec!["localhost".into()])
        .unwrap()
        .self_signed(&key)
        .unwrap();
    let suites: [(SupportedCipherSuite, hkdf::Algorithm, &'static Algorithm); 3] = [
        (
            simdcrypt_rustls::TLS13_AES_128_GCM_SHA256,
            HKDF_SHA256,
            &AES_128_GCM,
        ),
        (
            simdcrypt_rustls::TLS13_AES_256_GCM_SHA384,
            HKDF_SHA384,
            &AES_256_GCM,
        ),
        (
            simdcrypt_rustls::TLS13_CHACHA20_POLY1305_SHA256,
            HKDF_SHA256,
            &CHACHA20_POLY1305,
        ),
    ];
    for (suite, hash, aead) in suites {
        let secrets = Arc::new(Secrets::default());
        let mut roots = RootCertStore::empty();
        roots.add(cert.der().clone()).unwrap();
        let mut cc = ClientConfig::builder_with_provider(ours(suite))
            .with_protocol_versions(&[&rustls::version::TLS13])
            .unwrap()
            .with_root_certificates(roots)
            .with_no_client_auth();
        cc.key_log = secrets.clone();
        let sc = ServerConfig::builder_with_provider(ours(suite))
            .with_protocol_versions(&[&rustls::version::TLS13])
            .unwrap()
            .with_no_client_auth()
            .with_single_cert(
                vec![cert.der().clone()],
                PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(key.serialize_der())),
            )
            .unwrap();
        let mut client =
            ClientConnection::new(Arc::new(cc), "localhost".try_into().unwrap()).unwrap();
        let mut server = ServerConnection::new(Arc::new(sc)).unwrap();
        while client.is_handshaking() || server.is_handshaking() {
            let mut wire = Vec::new();
            client.write_tls(&mut wire).unwrap();
            server.read_tls(&mut &wire[..]).unwrap();
            server.process_new_packets().unwrap();
            wire.clear();
            server.write_tls(&mut wire).unwrap();
            client.read_tls(&mut &wire[..]).unwrap();
            client.process_new_packets().unwrap();
        }
        // The client's application records: 40,000 bytes, three records.
        let data: Vec<u8> = (0..40_000u32).map(|i| (i * 31 % 251) as u8).collect();
        client.writer().write_all(&data).unwrap();
        let mut wire = Vec::new();
        while client.wants_write() {
            client.write_tls(&mut wire).unwrap();
        }
        let logged = secrets.0.lock().unwrap();
        let secret = &logged
            .iter()
            .find(|(l, _)| l == "CLIENT_TRAFFIC_SECRET_0")
            .expect("the client's traffic secret")
            .1;
        let key = expand_label(hash, secret, "key", aead.key_len());
        let iv = expand_label(hash, secret, "iv", 12);
        let opener = LessSafeKey::new(UnboundKey::new(aead, &key).unwrap());
        let (mut at, mut seq, mut got) = (0, 0u64, Vec::new());
        while at < wire.len() {
            let header: [u8; 5] = wire[at..at + 5].try_into().unwrap();
            assert_eq!(
                header[..3],
                [23, 3, 3],
                "{:?}: outer type and version (RFC 8446 §5.2)",
                suite.suite()
            );
            let len = usize::from(u16::from_be_bytes([header[3], header[4]]));
            let mut payload = wire[at + 5..at + 5 + len].to_vec();
            // The nonce: the IV with the sequence number XORed into its end.
            let mut nonce: [u8; 12] = iv.clone().try_into().unwrap();
            for (n, s) in nonce[4..].iter_mut().zip(seq.to_be_bytes()) {
                *n ^= s;
            }
            let inner = opener
                .open_in_place(
                    Nonce::assume_unique_for_key(nonce),
                    Aad::from(header),
                    &mut payload,
                )
                .unwrap_or_else(|_| {
                    panic!("{:?}: aws-lc-rs cannot open record {seq}", suite.suite())
                });
            // TLSInnerPlaintext: the content, its type (application data),
            // no padding.
            let (&typ, content) = inner.split_last().unwrap();
            assert_eq!(typ, 23, "{:?}: inner content type", suite.suite());
            got.extend_from_slice(content);
            at += 5 + len;
            seq += 1;
        }
        assert!(
            got == data,
            "{:?}: the records carry other bytes",
            suite.suite()
        );
        assert_eq!(seq, 3, "{:?}: 16 KiB records", suite.suite());
    }
}
