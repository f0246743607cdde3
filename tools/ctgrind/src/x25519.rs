//! The report-only part: age's X25519 identity, its secret scalar marked
//! undefined, unwrapping a stanza — X25519 from x25519-dalek (the shared
//! secret, and the identity's public key, which the HKDF salt holds), then
//! our code on the shared secret: the all-zero check, the HKDF-SHA-256 of
//! the wrap key, the ChaCha20-Poly1305 unwrap of the file key, the header
//! MAC. The driver reports memcheck's findings in x25519-dalek and
//! curve25519-dalek without failing on them, and fails on any in ours.

use simdcrypt::ct;
use simdcrypt::kit::Rng;
use simdcrypt_age::{Header, Identity as _, Recipient as _, x25519};

use crate::coverage::{Coverage, SEED, public, same};

/// Runs the part: its failures (outputs that differ; memcheck's findings
/// are the driver's to judge).
pub fn run() -> Vec<String> {
    let mut cov = Coverage::default();
    let mut rng = Rng::new(SEED ^ 0x25519);
    let file_key: [u8; 16] = rng.array();
    cov.piece("X25519 identity unwrapping a stanza", || {
        let e = |e: simdcrypt_age::Error| e.to_string();
        let mut identity = x25519::Identity::generate().map_err(e)?;
        let stanzas = identity
            .to_public()
            .wrap(&simdcrypt_age::FileKey::from_bytes(file_key))
            .map_err(e)?;
        let header =
            Header::new(stanzas, &simdcrypt_age::FileKey::from_bytes(file_key)).map_err(e)?;
        ct::poison(&mut identity);
        let unwrapped = identity
            .unwrap(&header.stanzas()[0])
            .map_err(e)?
            .ok_or("the stanza did not unwrap")?;
        header.verify_mac(&unwrapped).map_err(e)?;
        same(
            "the unwrapped file key",
            &public(unwrapped.expose()),
            &file_key,
        )
    });
    cov.piece("X25519 public key of a secret identity", || {
        let e = |e: simdcrypt_age::Error| e.to_string();
        let mut identity = x25519::Identity::generate().map_err(e)?;
        let want = *identity.to_public().as_bytes();
        ct::poison(&mut identity);
        same(
            "the public key",
            &public(identity.to_public().as_bytes()),
            &want,
        )
    });
    cov.failures
}
