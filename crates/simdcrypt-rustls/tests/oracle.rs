//! An independent record oracle: the secrets of connections on this
//! provider (rustls's `KeyLog`) give keys through aws-lc-rs — HKDF for
//! TLS 1.3 (RFC 8446 §7.1, §7.3), the PRF over its HMAC for TLS 1.2 (RFC
//! 5246 §5, §6.3) — and aws-lc-rs's AEADs open the records captured on the
//! wire: nonce, additional data and TLS 1.3's inner content type are
//! checked outside rustls and outside simdcrypt.

use std::io::Write;
use std::sync::{Arc, Mutex};

use aws_lc_rs::aead::{
    AES_128_GCM, AES_256_GCM, Aad, Algorithm, CHACHA20_POLY1305, LessSafeKey, Nonce, UnboundKey,
};
use aws_lc_rs::hkdf::{self, HKDF_SHA256, HKDF_SHA384, KeyType, Prk};
use aws_lc_rs::hmac;
use rustls::{ClientConnection, KeyLog, ServerConnection, SupportedCipherSuite};

mod common;

use common::{Pki, configs, narrowed, ours};

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

/// A connected pair on this provider, narrowed to `suite` and its
/// protocol version, the client logging its secrets to `secrets`; with the
/// client's and server's randoms (RFC 5246 §7.4.1.2: bytes 2..34 of the
/// Hello's body, after the record and handshake headers) and the client's
/// 40,000 bytes of application data sealed into records on the wire.
struct Captured {
    client_random: [u8; 32],
    server_random: [u8; 32],
    data: Vec<u8>,
    wire: Vec<u8>,
}

fn capture(suite: SupportedCipherSuite, secrets: Arc<Secrets>) -> Captured {
    let provider = || narrowed(ours(), suite);
    let (mut cc, sc) = configs(suite, provider(), provider(), &Pki::ecdsa());
    cc.key_log = secrets;
    let mut client = ClientConnection::new(Arc::new(cc), "localhost".try_into().unwrap()).unwrap();
    let mut server = ServerConnection::new(Arc::new(sc)).unwrap();
    let random = |flight: &[u8]| -> [u8; 32] { flight[11..43].try_into().unwrap() };
    let (mut client_random, mut server_random) = (None, None);
    while client.is_handshaking() || server.is_handshaking() {
        let mut wire = Vec::new();
        client.write_tls(&mut wire).unwrap();
        client_random.get_or_insert_with(|| random(&wire));
        server.read_tls(&mut &wire[..]).unwrap();
        server.process_new_packets().unwrap();
        wire.clear();
        server.write_tls(&mut wire).unwrap();
        server_random.get_or_insert_with(|| random(&wire));
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
    Captured {
        client_random: client_random.unwrap(),
        server_random: server_random.unwrap(),
        data,
        wire,
    }
}

/// The records of `wire`: each header, and its payload.
fn records(wire: &[u8]) -> impl Iterator<Item = ([u8; 5], Vec<u8>)> + '_ {
    let mut at = 0;
    std::iter::from_fn(move || {
        let header: [u8; 5] = wire.get(at..at + 5)?.try_into().unwrap();
        let len = usize::from(u16::from_be_bytes([header[3], header[4]]));
        let payload = wire[at + 5..at + 5 + len].to_vec();
        at += 5 + len;
        Some((header, payload))
    })
}

/// The secret logged under `label`.
fn logged(secrets: &Secrets, label: &str) -> Vec<u8> {
    secrets
        .0
        .lock()
        .unwrap()
        .iter()
        .find(|(l, _)| l == label)
        .unwrap_or_else(|| panic!("no {label} logged"))
        .1
        .clone()
}

#[test]
fn aws_lc_rs_opens_the_records_on_the_wire() {
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
        let captured = capture(suite, secrets.clone());
        let secret = logged(&secrets, "CLIENT_TRAFFIC_SECRET_0");
        let key = expand_label(hash, &secret, "key", aead.key_len());
        let iv = expand_label(hash, &secret, "iv", 12);
        let opener = LessSafeKey::new(UnboundKey::new(aead, &key).unwrap());
        let mut got = Vec::new();
        let mut seq = 0u64;
        for (header, mut payload) in records(&captured.wire) {
            assert_eq!(
                header[..3],
                [23, 3, 3],
                "{:?}: outer type and version (RFC 8446 §5.2)",
                suite.suite()
            );
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
            seq += 1;
        }
        assert!(
            got == captured.data,
            "{:?}: the records carry other bytes",
            suite.suite()
        );
        assert_eq!(seq, 3, "{:?}: 16 KiB records", suite.suite());
    }
}

/// P_hash of RFC 5246 §5 by aws-lc-rs's HMAC: `len` bytes of
/// HMAC(secret, A(1) + seed) + HMAC(secret, A(2) + seed) + …, where
/// A(0) = seed and A(i) = HMAC(secret, A(i-1)).
fn p_hash(alg: hmac::Algorithm, secret: &[u8], seed: &[u8], len: usize) -> Vec<u8> {
    let key = hmac::Key::new(alg, secret);
    let (mut a, mut out) = (hmac::sign(&key, seed), Vec::new());
    while out.len() < len {
        out.extend_from_slice(hmac::sign(&key, &[a.as_ref(), seed].concat()).as_ref());
        a = hmac::sign(&key, a.as_ref());
    }
    out.truncate(len);
    out
}

/// TLS 1.2 ECDHE suites on this provider: the master secret rustls logs
/// (`CLIENT_RANDOM`) gives the key block through aws-lc-rs's HMAC (RFC 5246
/// §6.3, "key expansion" over the server's random then the client's), and
/// aws-lc-rs's AEADs open the client's application records: AES-GCM's
/// nonce from the 4-byte salt and the record's 8-byte explicit nonce (RFC
/// 5288 §3), ChaCha20-Poly1305's from the 12-byte IV and the sequence
/// number (RFC 7905 §2), and the additional data of RFC 5246 §6.2.3.3 —
/// sequence number, type, version and the plaintext's length.
#[test]
fn aws_lc_rs_opens_the_tls12_records_on_the_wire() {
    let suites: [(SupportedCipherSuite, hmac::Algorithm, &'static Algorithm); 3] = [
        (
            simdcrypt_rustls::TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,
            hmac::HMAC_SHA256,
            &AES_128_GCM,
        ),
        (
            simdcrypt_rustls::TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,
            hmac::HMAC_SHA384,
            &AES_256_GCM,
        ),
        (
            simdcrypt_rustls::TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256,
            hmac::HMAC_SHA256,
            &CHACHA20_POLY1305,
        ),
    ];
    for (suite, prf, aead) in suites {
        let what = suite.suite();
        let secrets = Arc::new(Secrets::default());
        let captured = capture(suite, secrets.clone());
        let master = logged(&secrets, "CLIENT_RANDOM");
        let iv_len = if aead == &CHACHA20_POLY1305 { 12 } else { 4 };
        let seed = [
            &b"key expansion"[..],
            &captured.server_random,
            &captured.client_random,
        ]
        .concat();
        // client_write_key, server_write_key, client_write_IV, … (AEAD
        // suites have no MAC keys).
        let block = p_hash(prf, &master, &seed, 2 * aead.key_len() + 2 * iv_len);
        let key = &block[..aead.key_len()];
        let iv = &block[2 * aead.key_len()..2 * aead.key_len() + iv_len];
        let opener = LessSafeKey::new(UnboundKey::new(aead, key).unwrap());
        let mut got = Vec::new();
        // The client's Finished was record 0 under these keys.
        let mut seq = 1u64;
        for (header, mut payload) in records(&captured.wire) {
            assert_eq!(header[..3], [23, 3, 3], "{what:?}: type and version");
            let nonce: [u8; 12] = if iv_len == 4 {
                let (explicit, sealed) = payload.split_at(8);
                let nonce = [iv, explicit].concat().try_into().unwrap();
                payload = sealed.to_vec();
                nonce
            } else {
                let mut nonce: [u8; 12] = iv.try_into().unwrap();
                for (n, s) in nonce[4..].iter_mut().zip(seq.to_be_bytes()) {
                    *n ^= s;
                }
                nonce
            };
            let plain_len = (payload.len() - aead.tag_len()) as u16;
            let aad = [
                &seq.to_be_bytes()[..],
                &header[..3],
                &plain_len.to_be_bytes(),
            ]
            .concat();
            let content = opener
                .open_in_place(
                    Nonce::assume_unique_for_key(nonce),
                    Aad::from(&aad),
                    &mut payload,
                )
                .unwrap_or_else(|_| panic!("{what:?}: aws-lc-rs cannot open record {seq}"));
            got.extend_from_slice(content);
            seq += 1;
        }
        assert!(
            got == captured.data,
            "{what:?}: the records carry other bytes"
        );
        assert_eq!(seq, 4, "{what:?}: 16 KiB records");
    }
}
