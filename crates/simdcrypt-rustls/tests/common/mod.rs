//! What the connection tests share: certificates, providers narrowed to
//! one suite, and a client and server configured for each other.

use rustls::crypto::CryptoProvider;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use rustls::{ClientConfig, RootCertStore, ServerConfig, SupportedCipherSuite};
use std::sync::Arc;

/// A CA and a server certificate under it, for `localhost`.
pub struct Pki {
    pub ca: CertificateDer<'static>,
    pub chain: Vec<CertificateDer<'static>>,
    pub key: PrivatePkcs8KeyDer<'static>,
}

impl Pki {
    pub fn new(alg: &'static rcgen::SignatureAlgorithm) -> Pki {
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
            ca: ca.der().clone(),
            chain: vec![cert.der().clone()],
            key: PrivatePkcs8KeyDer::from(key.serialize_der()),
        }
    }

    pub fn ecdsa() -> Pki {
        Pki::new(&rcgen::PKCS_ECDSA_P256_SHA256)
    }
}

/// This crate's provider over aws-lc-rs (what `default_provider()` is with
/// the default features; the tests need it whatever the features).
pub fn ours() -> CryptoProvider {
    simdcrypt_rustls::provider_over(rustls::crypto::aws_lc_rs::default_provider())
}

/// `provider` with only its own suite of `suite`'s name.
pub fn narrowed(provider: CryptoProvider, suite: SupportedCipherSuite) -> CryptoProvider {
    let chosen = provider
        .cipher_suites
        .iter()
        .copied()
        .find(|s| s.suite() == suite.suite())
        .expect("the provider has the suite");
    CryptoProvider {
        cipher_suites: vec![chosen],
        ..provider
    }
}

/// A client trusting `pki`'s CA and a server with its certificate, on
/// the given providers and `suite`'s protocol version only.
pub fn configs(
    suite: SupportedCipherSuite,
    client: CryptoProvider,
    server: CryptoProvider,
    pki: &Pki,
) -> (ClientConfig, ServerConfig) {
    let mut roots = RootCertStore::empty();
    roots.add(pki.ca.clone()).expect("CA");
    let client = ClientConfig::builder_with_provider(Arc::new(client))
        .with_protocol_versions(&[suite.version()])
        .expect("version")
        .with_root_certificates(roots)
        .with_no_client_auth();
    let server = ServerConfig::builder_with_provider(Arc::new(server))
        .with_protocol_versions(&[suite.version()])
        .expect("version")
        .with_no_client_auth()
        .with_single_cert(pki.chain.clone(), PrivateKeyDer::Pkcs8(pki.key.clone_key()))
        .expect("server certificate");
    (client, server)
}
