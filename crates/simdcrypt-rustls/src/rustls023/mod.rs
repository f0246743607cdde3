//! Everything that speaks rustls 0.23's provider API (`rustls::crypto`):
//! a port to another rustls line is a sibling of this module.

mod hash;
mod quic;
mod record;
pub(crate) mod suites;

use rustls::crypto::CryptoProvider;

/// `base` with each cipher suite this crate implements replaced by
/// simdcrypt's ([`suites::ALL_CIPHER_SUITES`], matched by suite id), in
/// `base`'s order; suites it does not implement are kept as `base` has
/// them, and so are the key exchange groups, signature verification,
/// randomness and key loading.
pub fn provider_over(base: CryptoProvider) -> CryptoProvider {
    let cipher_suites = base
        .cipher_suites
        .iter()
        .map(|theirs| {
            suites::ALL_CIPHER_SUITES
                .iter()
                .find(|ours| ours.suite() == theirs.suite())
                .copied()
                .unwrap_or(*theirs)
        })
        .collect();
    CryptoProvider {
        cipher_suites,
        ..base
    }
}
