//! What the two examples share: their command line and the cipher suite
//! by name.

use std::collections::HashMap;
use std::process::ExitCode;

use rustls::SupportedCipherSuite;

/// The options given as `--name value`, after checking each is one of
/// `known`; `Err` is the one line to print.
pub fn options(known: &[&str]) -> Result<HashMap<String, String>, String> {
    let mut args = std::env::args().skip(1);
    let mut out = HashMap::new();
    while let Some(flag) = args.next() {
        let name = flag
            .strip_prefix("--")
            .filter(|n| known.contains(n))
            .ok_or_else(|| {
                format!(
                    "unknown argument {flag:?}; expected {}",
                    known
                        .iter()
                        .map(|k| format!("--{k}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            })?;
        let value = args
            .next()
            .ok_or_else(|| format!("--{name} needs a value"))?;
        out.insert(name.to_string(), value);
    }
    Ok(out)
}

/// The provider, restricted to the suite `name` (rustls's name, e.g.
/// `TLS13_AES_128_GCM_SHA256`) when one is given.
pub fn provider(suite: Option<&String>) -> Result<rustls::crypto::CryptoProvider, String> {
    let base = simdcrypt_rustls::base_provider()
        .ok_or("built without a base provider: enable the feature aws-lc-rs, ring or graviola")?;
    let mut provider = simdcrypt_rustls::provider_over(base);
    if let Some(name) = suite {
        let chosen: Vec<SupportedCipherSuite> = provider
            .cipher_suites
            .iter()
            .copied()
            .filter(|s| format!("{:?}", s.suite()) == *name)
            .collect();
        if chosen.is_empty() {
            let names: Vec<String> = provider
                .cipher_suites
                .iter()
                .map(|s| format!("{:?}", s.suite()))
                .collect();
            return Err(format!(
                "unknown suite {name:?}; expected one of {}",
                names.join(", ")
            ));
        }
        provider.cipher_suites = chosen;
    }
    Ok(provider)
}

/// The protocol versions a suite restriction allows: the suite's, or both.
pub fn versions(
    provider: &rustls::crypto::CryptoProvider,
) -> Vec<&'static rustls::SupportedProtocolVersion> {
    let mut v = Vec::new();
    if provider.cipher_suites.iter().any(|s| s.tls13().is_some()) {
        v.push(&rustls::version::TLS13);
    }
    if provider.cipher_suites.iter().any(|s| s.tls13().is_none()) {
        v.push(&rustls::version::TLS12);
    }
    v
}

/// Runs `main`, printing its error as one line on stderr.
pub fn run(main: impl FnOnce() -> Result<(), String>) -> ExitCode {
    match main() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{}: {e}", std::env::args().next().unwrap_or_default());
            ExitCode::FAILURE
        }
    }
}

/// The base crate's session tickets, where there is a base crate.
#[cfg(any(feature = "aws-lc-rs", feature = "ring", feature = "graviola"))]
#[allow(dead_code, reason = "the server's, not the client's")]
pub fn ticketer() -> Result<std::sync::Arc<dyn rustls::server::ProducesTickets>, String> {
    simdcrypt_rustls::ticketer().map_err(|e| e.to_string())
}

/// No base crate: no tickets (sessions resume by ID only).
#[cfg(not(any(feature = "aws-lc-rs", feature = "ring", feature = "graviola")))]
#[allow(dead_code, reason = "the server's, not the client's")]
pub fn ticketer() -> Result<std::sync::Arc<dyn rustls::server::ProducesTickets>, String> {
    Err("built without a base provider".into())
}
