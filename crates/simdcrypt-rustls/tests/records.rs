//! Records sealed and opened one at a time through the suites' AEAD
//! algorithms: TLS 1.2 AES-GCM's nonce taken from the record, records
//! sealed by aws-lc-rs opened here and the reverse, every flipped bit
//! refused with nothing released, and the length limits.

use aws_lc_rs::aead::{AES_256_GCM, Aad, CHACHA20_POLY1305, LessSafeKey, Nonce, UnboundKey};
use rustls::crypto::cipher::{
    AeadKey, InboundOpaqueMessage, Iv, MessageDecrypter, MessageEncrypter, OutboundChunks,
    OutboundPlainMessage, make_tls12_aad, make_tls13_aad,
};
use rustls::{ContentType, Error, ProtocolVersion, SupportedCipherSuite};
use simdcrypt_rustls::{
    TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384, TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256,
    TLS13_AES_256_GCM_SHA384, TLS13_CHACHA20_POLY1305_SHA256,
};

const KEY: [u8; 32] = [0x42; 32];

fn key() -> AeadKey {
    AeadKey::from(KEY)
}

/// A sender and a receiver of `suite` under [`KEY`], with `iv` (TLS 1.3:
/// the 12-byte IV; TLS 1.2: the key block's IV, then its explicit part).
fn pair(
    suite: SupportedCipherSuite,
    iv: &[u8],
    explicit: &[u8],
) -> (Box<dyn MessageEncrypter>, Box<dyn MessageDecrypter>) {
    match suite {
        SupportedCipherSuite::Tls13(s) => (
            s.aead_alg.encrypter(key(), Iv::copy(iv)),
            s.aead_alg.decrypter(key(), Iv::copy(iv)),
        ),
        SupportedCipherSuite::Tls12(s) => (
            s.aead_alg.encrypter(key(), iv, explicit),
            s.aead_alg.decrypter(key(), iv),
        ),
    }
}

fn plain(data: &[u8]) -> OutboundPlainMessage<'_> {
    OutboundPlainMessage {
        typ: ContentType::ApplicationData,
        version: ProtocolVersion::TLSv1_2,
        payload: OutboundChunks::Single(data),
    }
}

/// Seals `data` as record `seq`: the record's payload.
fn seal(enc: &mut dyn MessageEncrypter, data: &[u8], seq: u64) -> Vec<u8> {
    let record = enc.encrypt(plain(data), seq).expect("seal").encode();
    record[5..].to_vec()
}

/// Opens `payload` as record `seq`: the plaintext, or the error (with the
/// payload as the failure left it).
fn open(
    dec: &mut dyn MessageDecrypter,
    payload: &mut [u8],
    seq: u64,
    version: ProtocolVersion,
) -> Result<Vec<u8>, Error> {
    let msg = InboundOpaqueMessage::new(ContentType::ApplicationData, version, payload);
    dec.decrypt(msg, seq).map(|m| m.payload.to_vec())
}

#[test]
fn tls12_aes_gcm_takes_the_nonce_from_the_record() {
    // aws-lc-rs seals record 5 under an explicit nonce unrelated to 5.
    let (salt, explicit) = (
        [1, 2, 3, 4],
        [0xee, 0xdd, 0xcc, 0xbb, 0xaa, 0x99, 0x88, 0x77],
    );
    let text = b"explicit nonce, not the sequence number".to_vec();
    let aws = LessSafeKey::new(UnboundKey::new(&AES_256_GCM, &KEY).unwrap());
    let mut nonce = [0u8; 12];
    nonce[..4].copy_from_slice(&salt);
    nonce[4..].copy_from_slice(&explicit);
    let aad = make_tls12_aad(
        5,
        ContentType::ApplicationData,
        ProtocolVersion::TLSv1_2,
        text.len(),
    );
    let mut sealed = text.clone();
    aws.seal_in_place_append_tag(
        Nonce::assume_unique_for_key(nonce),
        Aad::from(aad),
        &mut sealed,
    )
    .unwrap();
    let mut payload = [&explicit[..], &sealed].concat();
    let (_, mut dec) = pair(TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384, &salt, &[0; 8]);
    assert_eq!(
        open(
            dec.as_mut(),
            &mut payload.clone(),
            5,
            ProtocolVersion::TLSv1_2
        )
        .unwrap(),
        text
    );
    // The sequence number is in the additional data: record 6 it is not.
    assert_eq!(
        open(dec.as_mut(), &mut payload, 6, ProtocolVersion::TLSv1_2),
        Err(Error::DecryptError)
    );
}

#[test]
fn records_sealed_here_open_in_aws_lc_rs_and_back() {
    let iv = [0x24u8; 12];
    for (suite, alg) in [
        (TLS13_AES_256_GCM_SHA384, &AES_256_GCM),
        (TLS13_CHACHA20_POLY1305_SHA256, &CHACHA20_POLY1305),
    ] {
        let aws = LessSafeKey::new(UnboundKey::new(alg, &KEY).unwrap());
        let (mut enc, mut dec) = pair(suite, &iv, &[]);
        for (seq, len) in [(0u64, 0usize), (1, 1), (2, 16383), (1 << 40, 16384)] {
            let text: Vec<u8> = (0..len).map(|i| i as u8).collect();
            // RFC 8446 §5.3: the sequence number XORed into the IV's end.
            let mut nonce = iv;
            for (n, s) in nonce[4..].iter_mut().zip(seq.to_be_bytes()) {
                *n ^= s;
            }
            let mut payload = seal(enc.as_mut(), &text, seq);
            let aad = make_tls13_aad(payload.len());
            let mut opened = payload.clone();
            let inner = aws
                .open_in_place(
                    Nonce::assume_unique_for_key(nonce),
                    Aad::from(aad),
                    &mut opened,
                )
                .expect("aws-lc-rs opens ours");
            assert_eq!(
                inner,
                [&text[..], &[ContentType::ApplicationData.into()]].concat()
            );
            // And aws-lc-rs's own sealing of the same opens here.
            let mut theirs = [&text[..], &[ContentType::ApplicationData.into()]].concat();
            aws.seal_in_place_append_tag(
                Nonce::assume_unique_for_key(nonce),
                Aad::from(aad),
                &mut theirs,
            )
            .unwrap();
            assert_eq!(theirs, payload, "the same record, sealed by either");
            assert_eq!(
                open(dec.as_mut(), &mut payload, seq, ProtocolVersion::TLSv1_2).unwrap(),
                text
            );
        }
    }
}

#[test]
fn every_flipped_bit_is_refused_and_nothing_released() {
    let suites = [
        (TLS13_AES_256_GCM_SHA384, 0),
        (TLS13_CHACHA20_POLY1305_SHA256, 0),
        (TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384, 8),
        (TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256, 0),
    ];
    let text: Vec<u8> = (0..100).map(|i| i as u8 ^ 0x5a).collect();
    for (suite, explicit) in suites {
        let iv: &[u8] = if explicit == 8 { &[7; 4] } else { &[7; 12] };
        let (mut enc, mut dec) = pair(suite, iv, &[3; 8]);
        let payload = seal(enc.as_mut(), &text, 9);
        for at in 0..payload.len() {
            for bit in [0x01, 0x80] {
                let mut bad = payload.clone();
                bad[at] ^= bit;
                assert_eq!(
                    open(dec.as_mut(), &mut bad, 9, ProtocolVersion::TLSv1_2),
                    Err(Error::DecryptError),
                    "{:?}: byte {at} bit {bit:#x}",
                    suite.suite()
                );
                // What the AEAD wrote in place is zeros, not plaintext.
                let tag_at = bad.len() - 16;
                assert!(
                    bad[explicit..tag_at].iter().all(|&b| b == 0),
                    "{:?}: released",
                    suite.suite()
                );
            }
        }
        // A TLS 1.2 record's type and version are authenticated.
        if let SupportedCipherSuite::Tls12(_) = suite {
            let mut p = payload.clone();
            assert_eq!(
                open(dec.as_mut(), &mut p, 9, ProtocolVersion::TLSv1_0),
                Err(Error::DecryptError)
            );
        }
        // Too short to hold a tag (and an explicit nonce).
        for len in 0..16 + explicit {
            let mut short = payload[..len].to_vec();
            assert_eq!(
                open(dec.as_mut(), &mut short, 9, ProtocolVersion::TLSv1_2),
                Err(Error::DecryptError)
            );
        }
    }
}

#[test]
fn the_record_length_limit() {
    // 2^14 bytes of plaintext are a record; one more is refused after
    // authentication (TLS 1.2: by the decrypter, as rustls's own providers
    // refuse it; TLS 1.3: by rustls's unpadding).
    for (suite, iv) in [
        (TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384, &[7u8; 4][..]),
        (TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256, &[7; 12][..]),
        (TLS13_AES_256_GCM_SHA384, &[7; 12][..]),
    ] {
        let (mut enc, mut dec) = pair(suite, iv, &[3; 8]);
        let mut full = seal(enc.as_mut(), &[1; 1 << 14], 0);
        let opened = open(dec.as_mut(), &mut full, 0, ProtocolVersion::TLSv1_2);
        assert_eq!(opened.unwrap().len(), 1 << 14, "{:?}", suite.suite());
        let mut over = seal(enc.as_mut(), &[1; (1 << 14) + 1], 1);
        let opened = open(dec.as_mut(), &mut over, 1, ProtocolVersion::TLSv1_2);
        assert_eq!(
            opened,
            Err(Error::PeerSentOversizedRecord),
            "{:?}",
            suite.suite()
        );
    }
}
