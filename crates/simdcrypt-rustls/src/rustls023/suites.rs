//! The cipher suites: rustls's own definitions (suite, hash, limits, key
//! exchange and signature schemes), with simdcrypt's record protection,
//! hash, HMAC and key schedule.

use rustls::crypto::tls12::PrfUsingHmac;
use rustls::crypto::tls13::HkdfUsingHmac;
use rustls::crypto::{CipherSuiteCommon, KeyExchangeAlgorithm};
use rustls::{
    CipherSuite, SignatureScheme, SupportedCipherSuite, Tls12CipherSuite, Tls13CipherSuite,
};
use simdcrypt::aead::{Aes128Gcm, Aes256Gcm, ChaCha20Poly1305};

use super::hash::{HMAC_SHA256, HMAC_SHA384, SHA256, SHA384};
use super::quic::{AesMask, ChaChaMask, Keys};
use super::record::{Tls12ChaCha, Tls12Gcm, Tls13};
use simdcrypt::aes::{Aes128, Aes256};

/// QUIC's limits for AES-GCM (RFC 9001 §6.6): packets sealed, packets
/// that failed to open.
const QUIC_AES_GCM: (u64, u64) = (1 << 23, 1 << 52);
/// QUIC's limits for ChaCha20-Poly1305 (§6.6): none on sealing.
const QUIC_CHACHA: (u64, u64) = (u64::MAX, 1 << 36);

/// AES-GCM's confidentiality limit in records, as rustls's providers set
/// it (draft-irtf-cfrg-aead-limits §5.1: 2^24.5 full-size records keep
/// an attacker's advantage below 2^-60; rustls rounds down).
const AES_GCM_LIMIT: u64 = 1 << 24;
/// ChaCha20-Poly1305 has none that a connection can reach.
const CHACHA_LIMIT: u64 = u64::MAX;

/// Declares TLS 1.3 suites: name (rustls's, of the suite), hash, HMAC,
/// limit, AEAD, QUIC keys.
macro_rules! tls13 {
    ($($(#[$doc:meta])* $name:ident: $hash:ident, $hmac:ident, $limit:ident, $aead:ty, $quic:expr;)+) => {$(
        $(#[$doc])*
        pub static $name: SupportedCipherSuite = SupportedCipherSuite::Tls13(&Tls13CipherSuite {
            common: CipherSuiteCommon {
                suite: CipherSuite::$name,
                hash_provider: &$hash,
                confidentiality_limit: $limit,
            },
            hkdf_provider: &HkdfUsingHmac(&$hmac),
            aead_alg: &Tls13::<$aead>::ALGORITHM,
            quic: Some($quic),
        });
    )+};
}

tls13! {
    /// `TLS_AES_128_GCM_SHA256` (RFC 8446 §B.4).
    TLS13_AES_128_GCM_SHA256: SHA256, HMAC_SHA256, AES_GCM_LIMIT, Aes128Gcm,
        &Keys::<Aes128Gcm, AesMask<Aes128>>::new(QUIC_AES_GCM.0, QUIC_AES_GCM.1);
    /// `TLS_AES_256_GCM_SHA384` (RFC 8446 §B.4).
    TLS13_AES_256_GCM_SHA384: SHA384, HMAC_SHA384, AES_GCM_LIMIT, Aes256Gcm,
        &Keys::<Aes256Gcm, AesMask<Aes256>>::new(QUIC_AES_GCM.0, QUIC_AES_GCM.1);
    /// `TLS_CHACHA20_POLY1305_SHA256` (RFC 8446 §B.4).
    TLS13_CHACHA20_POLY1305_SHA256: SHA256, HMAC_SHA256, CHACHA_LIMIT, ChaCha20Poly1305,
        &Keys::<ChaCha20Poly1305, ChaChaMask>::new(QUIC_CHACHA.0, QUIC_CHACHA.1);
}

/// The signature schemes of the ECDSA suites, as rustls's providers list
/// them.
static ECDSA_SCHEMES: &[SignatureScheme] = &[
    SignatureScheme::ED25519,
    SignatureScheme::ECDSA_NISTP521_SHA512,
    SignatureScheme::ECDSA_NISTP384_SHA384,
    SignatureScheme::ECDSA_NISTP256_SHA256,
];

/// The signature schemes of the RSA suites, as rustls's providers list
/// them.
static RSA_SCHEMES: &[SignatureScheme] = &[
    SignatureScheme::RSA_PSS_SHA512,
    SignatureScheme::RSA_PSS_SHA384,
    SignatureScheme::RSA_PSS_SHA256,
    SignatureScheme::RSA_PKCS1_SHA512,
    SignatureScheme::RSA_PKCS1_SHA384,
    SignatureScheme::RSA_PKCS1_SHA256,
];

/// Declares TLS 1.2 ECDHE suites: name (rustls's, of the suite), hash,
/// HMAC, limit, signature schemes, AEAD.
macro_rules! tls12 {
    ($($(#[$doc:meta])* $name:ident: $hash:ident, $hmac:ident, $limit:ident, $sign:ident, $aead:expr;)+) => {$(
        $(#[$doc])*
        pub static $name: SupportedCipherSuite = SupportedCipherSuite::Tls12(&Tls12CipherSuite {
            common: CipherSuiteCommon {
                suite: CipherSuite::$name,
                hash_provider: &$hash,
                confidentiality_limit: $limit,
            },
            kx: KeyExchangeAlgorithm::ECDHE,
            sign: $sign,
            aead_alg: $aead,
            prf_provider: &PrfUsingHmac(&$hmac),
        });
    )+};
}

tls12! {
    /// `TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256` (RFC 5289 §3.2).
    TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256: SHA256, HMAC_SHA256, AES_GCM_LIMIT, ECDSA_SCHEMES, &Tls12Gcm::<Aes128Gcm>::ALGORITHM;
    /// `TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384` (RFC 5289 §3.2).
    TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384: SHA384, HMAC_SHA384, AES_GCM_LIMIT, ECDSA_SCHEMES, &Tls12Gcm::<Aes256Gcm>::ALGORITHM;
    /// `TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256` (RFC 7905 §2).
    TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256: SHA256, HMAC_SHA256, CHACHA_LIMIT, ECDSA_SCHEMES, &Tls12ChaCha;
    /// `TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256` (RFC 5289 §3.2).
    TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256: SHA256, HMAC_SHA256, AES_GCM_LIMIT, RSA_SCHEMES, &Tls12Gcm::<Aes128Gcm>::ALGORITHM;
    /// `TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384` (RFC 5289 §3.2).
    TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384: SHA384, HMAC_SHA384, AES_GCM_LIMIT, RSA_SCHEMES, &Tls12Gcm::<Aes256Gcm>::ALGORITHM;
    /// `TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256` (RFC 7905 §2).
    TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256: SHA256, HMAC_SHA256, CHACHA_LIMIT, RSA_SCHEMES, &Tls12ChaCha;
}

/// Every suite this crate implements, TLS 1.3's first, in rustls's
/// default order.
pub static ALL_CIPHER_SUITES: &[SupportedCipherSuite] = &[
    TLS13_AES_256_GCM_SHA384,
    TLS13_AES_128_GCM_SHA256,
    TLS13_CHACHA20_POLY1305_SHA256,
    TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,
    TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,
    TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256,
    TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,
    TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,
    TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256,
];
