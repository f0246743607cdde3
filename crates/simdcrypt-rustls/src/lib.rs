//! A [rustls] [`CryptoProvider`] whose symmetric cryptography is
//! [simdcrypt]'s: record protection (AES-128-GCM, AES-256-GCM and
//! ChaCha20-Poly1305, TLS 1.3 and TLS 1.2), the transcript hashes
//! (SHA-256, SHA-384), HMAC, and the key schedules built on it (TLS 1.3's
//! HKDF, TLS 1.2's PRF). Everything else — key exchange, signatures,
//! certificate verification, randomness, session tickets — comes from a
//! base provider, chosen by cargo feature: `aws-lc-rs` (the default),
//! `ring`, or `graviola` (pure Rust and assembly: with it and without the
//! other two, nothing here needs a C compiler).
//!
//! ```
//! # #[cfg(any(feature = "aws-lc-rs", feature = "ring", feature = "graviola"))]
//! # {
//! // The process default: every ClientConfig and ServerConfig built
//! // without an explicit provider then uses it.
//! let _ = simdcrypt_rustls::default_provider().install_default();
//! # }
//! ```
//!
//! Over a provider of your own: [`provider_over`] keeps its suites in its
//! order and replaces each one this crate implements.
//!
//! What is simdcrypt's, exactly: [`ALL_CIPHER_SUITES`]'s record
//! encryption and decryption, their `extract_keys` (for kTLS), their hash
//! and HMAC, and rustls's `HkdfUsingHmac` and `PrfUsingHmac` run over that
//! HMAC. The suites' other fields (ids, limits, signature schemes, key
//! exchange) are rustls's definitions.

mod rustls023;

pub use rustls;
pub use rustls023::provider_over;
pub use rustls023::suites::{
    ALL_CIPHER_SUITES, TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,
    TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384, TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256,
    TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,
    TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256, TLS13_AES_128_GCM_SHA256,
    TLS13_AES_256_GCM_SHA384, TLS13_CHACHA20_POLY1305_SHA256,
};

#[cfg(any(feature = "aws-lc-rs", feature = "ring", feature = "graviola"))]
use rustls::crypto::CryptoProvider;

/// The base provider's `default_provider()` under [`provider_over`]: the
/// first of the features `aws-lc-rs`, `ring`, `graviola` enabled.
#[cfg(any(feature = "aws-lc-rs", feature = "ring", feature = "graviola"))]
pub fn default_provider() -> CryptoProvider {
    provider_over(base_provider().expect("a base feature is enabled"))
}

/// Session tickets for a `ServerConfig` (its `ticketer`), from the same
/// base crate as [`default_provider`]: tickets are not record protection,
/// and this crate does not make them.
///
/// # Errors
///
/// When the base crate cannot make a ticket key (no randomness).
#[cfg(any(feature = "aws-lc-rs", feature = "ring", feature = "graviola"))]
pub fn ticketer() -> Result<std::sync::Arc<dyn rustls::server::ProducesTickets>, rustls::Error> {
    #[cfg(feature = "aws-lc-rs")]
    return rustls::crypto::aws_lc_rs::Ticketer::new();
    #[cfg(all(feature = "ring", not(feature = "aws-lc-rs")))]
    return rustls::crypto::ring::Ticketer::new();
    #[cfg(all(
        feature = "graviola",
        not(any(feature = "aws-lc-rs", feature = "ring"))
    ))]
    return rustls_graviola::Ticketer::new();
}

/// The base provider the features choose — aws-lc-rs's, else ring's, else
/// graviola's `default_provider()` — or `None` when none of them is
/// enabled (then bring your own to [`provider_over`]).
pub fn base_provider() -> Option<rustls::crypto::CryptoProvider> {
    #[cfg(feature = "aws-lc-rs")]
    return Some(rustls::crypto::aws_lc_rs::default_provider());
    #[cfg(all(feature = "ring", not(feature = "aws-lc-rs")))]
    return Some(rustls::crypto::ring::default_provider());
    #[cfg(all(
        feature = "graviola",
        not(any(feature = "aws-lc-rs", feature = "ring"))
    ))]
    return Some(rustls_graviola::default_provider());
    #[cfg(not(any(feature = "aws-lc-rs", feature = "ring", feature = "graviola")))]
    None
}
