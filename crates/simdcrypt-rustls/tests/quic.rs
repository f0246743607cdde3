//! QUIC packet and header protection (RFC 9001 §5.3, §5.4) byte for byte
//! against RFC 9001 Appendix A (`tests/data/rfc9001-appendix-a.txt`):
//! the client and server Initial packets (AES-128-GCM, keys from this
//! provider's HKDF) and the ChaCha20-Poly1305 short header packet; and
//! §6.6's limits.

use std::collections::HashMap;

use rustls::crypto::cipher::{AeadKey, Iv};
use rustls::quic::{Algorithm, DirectionalKeys, Keys, Version};
use rustls::{Side, SupportedCipherSuite};

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
