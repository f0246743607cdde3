//! The rustls provider's record decrypters fed arbitrary records: TLS 1.3
//! and TLS 1.2, AES-256-GCM and ChaCha20-Poly1305, under a fixed key, at a
//! fuzzer-chosen sequence number and record version. An arbitrary record
//! is refused (it cannot carry a valid tag) without a panic; the same
//! bytes sealed as a record's plaintext open back to themselves, and with
//! one fuzzer-chosen bit flipped are refused.
#![no_main]

use libfuzzer_sys::fuzz_target;
use simdcrypt_rustls::rustls::crypto::cipher::{
    AeadKey, InboundOpaqueMessage, Iv, MessageDecrypter, MessageEncrypter, OutboundChunks,
    OutboundPlainMessage,
};
use simdcrypt_rustls::rustls::{ContentType, Error, ProtocolVersion, SupportedCipherSuite};

/// A sender and receiver of `suite` under a fixed key.
fn pair(suite: SupportedCipherSuite) -> (Box<dyn MessageEncrypter>, Box<dyn MessageDecrypter>) {
    let key = || AeadKey::from([0x42; 32]);
    match suite {
        SupportedCipherSuite::Tls13(s) => (
            s.aead_alg.encrypter(key(), Iv::new([7; 12])),
            s.aead_alg.decrypter(key(), Iv::new([7; 12])),
        ),
        SupportedCipherSuite::Tls12(s) => {
            let iv_len = s.aead_alg.key_block_shape().fixed_iv_len;
            let iv = &[7; 12][..iv_len];
            (
                s.aead_alg.encrypter(key(), iv, &[3; 8]),
                s.aead_alg.decrypter(key(), iv),
            )
        }
    }
}

fuzz_target!(|input: &[u8]| {
    if input.len() < 12 {
        return;
    }
    let suites = [
        simdcrypt_rustls::TLS13_AES_256_GCM_SHA384,
        simdcrypt_rustls::TLS13_CHACHA20_POLY1305_SHA256,
        simdcrypt_rustls::TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,
        simdcrypt_rustls::TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256,
    ];
    let suite = suites[usize::from(input[0]) % suites.len()];
    let version = if input[1] & 1 == 0 {
        ProtocolVersion::TLSv1_2
    } else {
        ProtocolVersion::TLSv1_0
    };
    let seq = u64::from_le_bytes(input[2..10].try_into().unwrap());
    let flip = usize::from(u16::from_le_bytes([input[10], input[11]]));
    let body = &input[12..];
    let (mut enc, mut dec) = pair(suite);

    // Arbitrary bytes as a record: refused, nothing else.
    let mut record = body.to_vec();
    let msg = InboundOpaqueMessage::new(ContentType::ApplicationData, version, &mut record);
    assert!(
        dec.decrypt(msg, seq).is_err(),
        "{:?}: an arbitrary record opened",
        suite.suite()
    );

    // The same bytes as plaintext: sealed, opened, and refused when touched.
    if body.len() > 1 << 14 {
        return;
    }
    let plain = OutboundPlainMessage {
        typ: ContentType::ApplicationData,
        version,
        payload: OutboundChunks::Single(body),
    };
    let sealed = enc.encrypt(plain, seq).expect("seal").encode();
    let mut payload = sealed[5..].to_vec();
    let outer = if matches!(suite, SupportedCipherSuite::Tls13(_)) {
        ProtocolVersion::TLSv1_2
    } else {
        version
    };
    let mut opened = payload.clone();
    let msg = InboundOpaqueMessage::new(ContentType::ApplicationData, outer, &mut opened);
    assert_eq!(
        dec.decrypt(msg, seq).expect("open what was sealed").payload,
        body,
        "{:?}",
        suite.suite()
    );
    let at = flip % (payload.len() * 8);
    payload[at / 8] ^= 1 << (at % 8);
    let msg = InboundOpaqueMessage::new(ContentType::ApplicationData, outer, &mut payload);
    assert_eq!(
        dec.decrypt(msg, seq).err(),
        Some(Error::DecryptError),
        "{:?}: bit {at} flipped",
        suite.suite()
    );
});
