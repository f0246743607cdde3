//! QUIC packet and header protection (RFC 9001 §5.3, §5.4) byte for byte
//! against RFC 9001 Appendix A (`tests/data/rfc9001-appendix-a.txt`):
//! the client and server Initial packets (AES-128-GCM, keys from this
//! provider's HKDF) and the ChaCha20-Poly1305 short header packet;
//! §6.6's limits; and whole QUIC handshakes through `rustls::quic` with
//! aws-lc-rs on the other side.

use std::collections::HashMap;

use std::sync::Arc;

use rustls::crypto::CryptoProvider;
use rustls::crypto::cipher::{AeadKey, Iv};
use rustls::quic::{
    self, Algorithm, DirectionalKeys, HeaderProtectionKey, KeyChange, Keys, PacketKey, Version,
};
use rustls::{Side, SupportedCipherSuite};

mod common;

use common::{Pki, configs, narrowed, ours};

/// The appendix's values by name.
fn vectors() -> HashMap<String, String> {
    include_str!("data/rfc9001-appendix-a.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (name, value) = l.split_once(" = ").expect("name = value");
            (name.to_string(), value.split_whitespace().collect())
        })
        .collect()
}

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
        .collect()
}

fn quic(
    suite: SupportedCipherSuite,
) -> (&'static rustls::Tls13CipherSuite, &'static dyn Algorithm) {
    let SupportedCipherSuite::Tls13(s) = suite else {
        unreachable!("TLS 1.3")
    };
    (s, s.quic.expect("the suite has QUIC keys"))
}

/// Protects sample packet `name` with `keys` (§5.3, then §5.4.1) and checks
/// it against the appendix, then removes the protection and checks the
/// frames come back.
fn check(v: &HashMap<String, String>, name: &str, keys: &DirectionalKeys) {
    let get = |k: &str| v[&format!("{name}.{k}")].clone();
    let header = hex(&get("header"));
    let pn: u64 = get("pn").parse().unwrap();
    let mut payload = hex(&get("frames"));
    payload.resize(get("payload_len").parse().unwrap(), 0);
    let frames = payload.clone();
    let tag = keys
        .packet
        .encrypt_in_place(pn, &header, &mut payload)
        .expect("seal");
    let mut packet = [&header[..], &payload, tag.as_ref()].concat();
    // The packet number is the header's last `pn_len` bytes; the sample
    // starts 4 bytes after the packet number's first (§5.4.2).
    let pn_len = usize::from(header[0] & 3) + 1;
    let pn_at = header.len() - pn_len;
    let sample = packet[pn_at + 4..pn_at + 4 + keys.header.sample_len()].to_vec();
    assert_eq!(sample, hex(&get("sample")), "{name}: sample");
    let (first, rest) = packet.split_at_mut(1);
    keys.header
        .encrypt_in_place(
            &sample,
            &mut first[0],
            &mut rest[pn_at - 1..pn_at - 1 + pn_len],
        )
        .expect("protect header");
    assert_eq!(packet, hex(&get("packet")), "{name}: protected packet");
    // And back.
    let (first, rest) = packet.split_at_mut(1);
    keys.header
        .decrypt_in_place(
            &sample,
            &mut first[0],
            &mut rest[pn_at - 1..pn_at - 1 + pn_len],
        )
        .expect("unprotect header");
    assert_eq!(packet[..header.len()], header[..], "{name}: header");
    let (head, body) = packet.split_at_mut(header.len());
    assert_eq!(
        keys.packet.decrypt_in_place(pn, head, body).expect("open"),
        &frames[..],
        "{name}: frames"
    );
    // A flipped bit anywhere in the ciphertext or tag, or in the header
    // (the additional data), is refused.
    for at in [0, body.len() / 2, body.len() - 1] {
        let mut bad = [&header[..], &payload, tag.as_ref()].concat();
        let (head, body) = bad.split_at_mut(header.len());
        body[at] ^= 1;
        assert!(
            keys.packet.decrypt_in_place(pn, head, body).is_err(),
            "{name}: byte {at} flipped"
        );
    }
    let mut bad_header = header.clone();
    bad_header[1] ^= 1;
    let mut body = [&payload[..], tag.as_ref()].concat();
    assert!(
        keys.packet
            .decrypt_in_place(pn, &bad_header, &mut body)
            .is_err(),
        "{name}: header flipped"
    );
}

#[test]
fn initial_packets_of_appendix_a_2_and_a_3() {
    let v = vectors();
    let (suite, alg) = quic(simdcrypt_rustls::TLS13_AES_128_GCM_SHA256);
    let dcid = hex(&v["dcid"]);
    let client = Keys::initial(Version::V1, suite, alg, &dcid, Side::Client);
    let server = Keys::initial(Version::V1, suite, alg, &dcid, Side::Server);
    check(&v, "a2", &client.local);
    check(&v, "a3", &server.local);
    // Each side opens what the other sealed: the client's remote keys are
    // the server's local ones.
    check(&v, "a3", &client.remote);
    check(&v, "a2", &server.remote);
}

#[test]
fn chacha20_short_header_packet_of_appendix_a_5() {
    let v = vectors();
    let (_, alg) = quic(simdcrypt_rustls::TLS13_CHACHA20_POLY1305_SHA256);
    let key = |name: &str| AeadKey::from(<[u8; 32]>::try_from(hex(&v[name])).expect("32 bytes"));
    let keys = DirectionalKeys {
        header: alg.header_protection_key(key("a5.hp")),
        packet: alg.packet_key(key("a5.key"), Iv::copy(&hex(&v["a5.iv"]))),
    };
    check(&v, "a5", &keys);
}

#[test]
fn header_protection_masks_four_bits_of_a_long_header_and_five_of_a_short() {
    let v = vectors();
    let (_, alg) = quic(simdcrypt_rustls::TLS13_CHACHA20_POLY1305_SHA256);
    let hp = alg.header_protection_key(AeadKey::from(
        <[u8; 32]>::try_from(hex(&v["a5.hp"])).unwrap(),
    ));
    let sample = hex(&v["a5.sample"]);
    let mask = hex(&v["a5.mask"]);
    for (first, bits) in [(0xc0u8, 0x0f), (0x40, 0x1f)] {
        let (mut f, mut pn) = (first, [0u8; 4]);
        hp.encrypt_in_place(&sample, &mut f, &mut pn).unwrap();
        assert_eq!(f, first ^ (mask[0] & bits));
        // The packet number's length is the unprotected first byte's low
        // bits plus one: here one byte.
        assert_eq!(pn, [mask[1], 0, 0, 0]);
    }
    // A sample of the wrong length, or a packet number field longer than
    // four bytes, is refused and nothing is changed.
    let (mut f, mut pn) = (0x43u8, [0u8; 5]);
    assert!(
        hp.encrypt_in_place(&sample[..15], &mut f, &mut pn[..4])
            .is_err()
    );
    assert!(hp.encrypt_in_place(&sample, &mut f, &mut pn).is_err());
    assert_eq!((f, pn), (0x43, [0; 5]));
}

#[test]
fn the_limits_of_section_6_6() {
    let key = || AeadKey::from([7u8; 32]);
    let (_, chacha) = quic(simdcrypt_rustls::TLS13_CHACHA20_POLY1305_SHA256);
    let (_, aes256) = quic(simdcrypt_rustls::TLS13_AES_256_GCM_SHA384);
    let k = chacha.packet_key(key(), Iv::new([0; 12]));
    assert_eq!(
        (k.confidentiality_limit(), k.integrity_limit(), k.tag_len()),
        (u64::MAX, 1 << 36, 16)
    );
    let k = aes256.packet_key(key(), Iv::new([0; 12]));
    assert_eq!(
        (k.confidentiality_limit(), k.integrity_limit(), k.tag_len()),
        (1 << 23, 1 << 52, 16)
    );
    assert_eq!(aes256.aead_key_len(), 32);
    let (_, aes128) = quic(simdcrypt_rustls::TLS13_AES_128_GCM_SHA256);
    assert_eq!(aes128.aead_key_len(), 16);
}

/// Sends what `from` has to say in the handshake to `to`; the key change
/// it made, if any.
fn step(from: &mut quic::Connection, to: &mut quic::Connection) -> Option<KeyChange> {
    let mut flight = Vec::new();
    let change = from.write_hs(&mut flight);
    to.read_hs(&flight).expect("the peer reads the flight");
    change
}

/// One direction's keys: header protection and packet protection.
type Protection<'a> = (&'a dyn HeaderProtectionKey, &'a dyn PacketKey);

/// A short-header packet (RFC 9000 §17.3.1) with a 4-byte packet number,
/// protected (RFC 9001 §5.3, §5.4).
fn protect((header, packet_key): Protection<'_>, pn: u64, frames: &[u8]) -> Vec<u8> {
    let mut packet = vec![0x43, 0xc1, 0xd2, 0xe3, 0xf4];
    packet.extend_from_slice(&(pn as u32).to_be_bytes());
    let header_len = packet.len();
    let mut body = frames.to_vec();
    let tag = packet_key
        .encrypt_in_place(pn, &packet, &mut body)
        .expect("seal");
    packet.extend_from_slice(&body);
    packet.extend_from_slice(tag.as_ref());
    let (head, rest) = packet.split_at_mut(header_len);
    let (first, pn_bytes) = head.split_first_mut().expect("a header");
    header
        .encrypt_in_place(&rest[..16], first, &mut pn_bytes[4..])
        .expect("protect header");
    packet
}

/// The frames of a packet from [`protect`], or the error opening it.
fn unprotect(
    (header, packet_key): Protection<'_>,
    mut packet: Vec<u8>,
) -> Result<Vec<u8>, rustls::Error> {
    let (head, rest) = packet.split_at_mut(9);
    let (first, pn_bytes) = head.split_first_mut().expect("a header");
    header.decrypt_in_place(&rest[..16], first, &mut pn_bytes[4..])?;
    let pn = u64::from(u32::from_be_bytes(pn_bytes[4..].try_into().unwrap()));
    Ok(packet_key.decrypt_in_place(pn, head, rest)?.to_vec())
}

/// Packets protected by `sender` open under `receiver`, and a flipped bit
/// in any of them is refused.
fn exchange(what: &str, sender: Protection<'_>, receiver: Protection<'_>) {
    for (pn, len) in [(0, 1), (1, 100), (0x1234_5678, 1200)] {
        let frames: Vec<u8> = (0..len).map(|i| (i * 7 + 3) as u8).collect();
        let packet = protect(sender, pn, &frames);
        assert_eq!(
            unprotect(receiver, packet.clone()).expect(what),
            frames,
            "{what}: packet {pn}"
        );
        for at in [1, 9, packet.len() - 1] {
            let mut bad = packet.clone();
            bad[at] ^= 0x10;
            assert!(unprotect(receiver, bad).is_err(), "{what}: byte {at}");
        }
    }
}

fn both(keys: &DirectionalKeys) -> Protection<'_> {
    (&*keys.header, &*keys.packet)
}

/// Whole QUIC handshakes through `rustls::quic` for each TLS 1.3 suite,
/// this provider on one side and aws-lc-rs (or itself) on the other: the
/// transport parameters arrive, and the handshake and 1-RTT keys each side
/// derives protect packets the other side opens, before and after key
/// updates (§6, which change the packet keys and keep the header keys).
#[test]
fn quic_connections_with_aws_lc_rs_and_with_itself() {
    let pki = Pki::ecdsa();
    type Provider = fn() -> CryptoProvider;
    let pairings: [(&str, Provider, Provider); 3] = [
        (
            "ours → aws-lc-rs",
            ours,
            rustls::crypto::aws_lc_rs::default_provider,
        ),
        (
            "aws-lc-rs → ours",
            rustls::crypto::aws_lc_rs::default_provider,
            ours,
        ),
        ("ours → ours", ours, ours),
    ];
    let suites = [
        simdcrypt_rustls::TLS13_AES_128_GCM_SHA256,
        simdcrypt_rustls::TLS13_AES_256_GCM_SHA384,
        simdcrypt_rustls::TLS13_CHACHA20_POLY1305_SHA256,
    ];
    for suite in suites {
        for (pairing, client_provider, server_provider) in pairings {
            let what = format!("{pairing}, {:?}", suite.suite());
            let (mut client_config, mut server_config) = configs(
                suite,
                narrowed(client_provider(), suite),
                narrowed(server_provider(), suite),
                &pki,
            );
            client_config.alpn_protocols = vec![b"simdcrypt-test".to_vec()];
            server_config.alpn_protocols = vec![b"simdcrypt-test".to_vec()];
            let mut client = quic::Connection::Client(
                quic::ClientConnection::new(
                    Arc::new(client_config),
                    Version::V1,
                    "localhost".try_into().unwrap(),
                    b"client transport parameters".to_vec(),
                )
                .expect(&what),
            );
            let mut server = quic::Connection::Server(
                quic::ServerConnection::new(
                    Arc::new(server_config),
                    Version::V1,
                    b"server transport parameters".to_vec(),
                )
                .expect(&what),
            );

            // The Client Hello; the server's flights up to its Finished,
            // under the handshake keys and then the 1-RTT keys; the client
            // reads them and sends its Finished.
            assert!(step(&mut client, &mut server).is_none(), "{what}");
            let Some(KeyChange::Handshake { keys: server_hs }) = step(&mut server, &mut client)
            else {
                panic!("{what}: the server's handshake keys")
            };
            let Some(KeyChange::OneRtt {
                keys: server_1rtt,
                next: mut server_next,
            }) = step(&mut server, &mut client)
            else {
                panic!("{what}: the server's 1-RTT keys")
            };
            let Some(KeyChange::Handshake { keys: client_hs }) = step(&mut client, &mut server)
            else {
                panic!("{what}: the client's handshake keys")
            };
            let Some(KeyChange::OneRtt {
                keys: client_1rtt,
                next: mut client_next,
            }) = step(&mut client, &mut server)
            else {
                panic!("{what}: the client's 1-RTT keys")
            };
            assert!(
                !client.is_handshaking() && !server.is_handshaking(),
                "{what}"
            );
            assert_eq!(
                client.negotiated_cipher_suite().map(|s| s.suite()),
                Some(suite.suite()),
                "{what}"
            );
            assert_eq!(
                client.quic_transport_parameters(),
                Some(&b"server transport parameters"[..]),
                "{what}"
            );
            assert_eq!(
                server.quic_transport_parameters(),
                Some(&b"client transport parameters"[..]),
                "{what}"
            );

            let client_sends = format!("{what}: client's handshake packets");
            exchange(
                &client_sends,
                both(&client_hs.local),
                both(&server_hs.remote),
            );
            let server_sends = format!("{what}: server's handshake packets");
            exchange(
                &server_sends,
                both(&server_hs.local),
                both(&client_hs.remote),
            );
            let client_sends = format!("{what}: client's 1-RTT packets");
            exchange(
                &client_sends,
                both(&client_1rtt.local),
                both(&server_1rtt.remote),
            );
            let server_sends = format!("{what}: server's 1-RTT packets");
            exchange(
                &server_sends,
                both(&server_1rtt.local),
                both(&client_1rtt.remote),
            );
            for phase in 1..=2 {
                let client_packets = client_next.next_packet_keys();
                let server_packets = server_next.next_packet_keys();
                exchange(
                    &format!("{client_sends}, after key update {phase}"),
                    (&*client_1rtt.local.header, &*client_packets.local),
                    (&*server_1rtt.remote.header, &*server_packets.remote),
                );
                exchange(
                    &format!("{server_sends}, after key update {phase}"),
                    (&*server_1rtt.local.header, &*server_packets.local),
                    (&*client_1rtt.remote.header, &*client_packets.remote),
                );
            }
        }
    }
}
