//! The X25519 recipient type (c2sp.org/age, "The X25519 recipient type"):
//! an ephemeral Diffie–Hellman share per stanza, the shared secret through
//! HKDF-SHA-256, and the file key sealed with ChaCha20-Poly1305.
//!
//! ```
//! use simdcrypt_age::x25519::{Identity, Recipient};
//!
//! let identity = Identity::generate()?; // AGE-SECRET-KEY-1…: keep it secret
//! let recipient = identity.to_public().to_string(); // age1…: give it out
//! assert!(recipient.starts_with("age1"));
//! let parsed: Recipient = recipient.parse()?;
//! assert_eq!(parsed, identity.to_public());
//! let again: Identity = identity.to_bech32().parse()?;
//! assert_eq!(again.to_public(), parsed);
//! # Ok::<(), simdcrypt_age::Error>(())
//! ```

use std::fmt;
use std::str::FromStr;

use simdcrypt::aead::ChaCha20Poly1305;
use simdcrypt::kdf::hkdf_sha256;
use subtle::ConstantTimeEq;
use x25519_dalek::{PublicKey, StaticSecret, x25519};
use zeroize::Zeroizing;

use crate::format::b64_encode;
use crate::{Error, FileKey, Stanza, bech32, random};

/// The stanza tag, the first argument.
pub const TAG: &str = "X25519";
/// HKDF's info string for the wrap key.
const INFO: &[u8] = b"age-encryption.org/v1/X25519";
/// The Bech32 prefix of identities (upper case when encoded).
const IDENTITY_HRP: &str = "AGE-SECRET-KEY-";
/// The Bech32 prefix of recipients.
const RECIPIENT_HRP: &str = "age";

/// `X25519(secret, basepoint)` (RFC 7748 §6.1), through the Edwards form's
/// precomputed table: the same result as the Montgomery ladder on the base
/// point, several times faster.
pub(crate) fn public_key(secret: &[u8; 32]) -> [u8; 32] {
    PublicKey::from(&StaticSecret::from(*secret)).to_bytes()
}

/// Seals or opens a 16-byte file key under a 32-byte wrap key with
/// ChaCha20-Poly1305 and the all-zero nonce, as every native stanza body is
/// made: `body = ChaCha20-Poly1305(key = wrap key, plaintext = file key)`.
pub(crate) fn seal_file_key(wrap_key: &[u8; 32], file_key: &FileKey) -> Vec<u8> {
    let mut body = ChaCha20Poly1305::new(wrap_key).encrypt(&[0; 12], &[], file_key.expose());
    // Declassified (docs/constant-time.md): the sealed file key is the
    // stanza's body, written out in the header.
    simdcrypt::ct::declassify_bytes(&mut body);
    body
}

/// Opens a 32-byte stanza body: the file key, or `None` when the tag does
/// not match (the stanza is for someone else, or the secret is wrong).
pub(crate) fn open_file_key(wrap_key: &[u8; 32], body: &[u8; 32]) -> Option<FileKey> {
    let plain = Zeroizing::new(
        ChaCha20Poly1305::new(wrap_key)
            .decrypt(&[0; 12], &[], body)
            .ok()?,
    );
    Some(FileKey::from_bytes(plain.as_slice().try_into().ok()?))
}

/// The wrap key: `HKDF-SHA-256(ikm = shared secret, salt = ephemeral share
/// || recipient, info = "age-encryption.org/v1/X25519")`.
fn wrap_key(
    shared: &[u8; 32],
    share: &[u8; 32],
    recipient: &[u8; 32],
) -> Result<Zeroizing<[u8; 32]>, Error> {
    let mut salt = [0u8; 64];
    salt[..32].copy_from_slice(share);
    salt[32..].copy_from_slice(recipient);
    let mut key = Zeroizing::new([0u8; 32]);
    hkdf_sha256(&salt, shared, INFO, &mut *key)?;
    Ok(key)
}

/// An X25519 recipient: the public key `age1…`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Recipient([u8; 32]);

impl Recipient {
    /// The public key's bytes (RFC 7748 u-coordinate).
    pub fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }
}

impl FromStr for Recipient {
    type Err = Error;

    /// Parses `age1…` (lower case Bech32 of 32 bytes).
    fn from_str(s: &str) -> Result<Self, Error> {
        bech32::decode_public(s, RECIPIENT_HRP).map(Recipient)
    }
}

impl fmt::Display for Recipient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&bech32::encode(RECIPIENT_HRP, &self.0, false))
    }
}

impl crate::Recipient for Recipient {
    fn wrap(&self, file_key: &FileKey) -> Result<Vec<Stanza>, Error> {
        let ephemeral = Zeroizing::new(random::<32>()?);
        let share = public_key(&ephemeral);
        let shared = Zeroizing::new(x25519(*ephemeral, self.0));
        let key = wrap_key(&shared, &share, &self.0)?;
        Ok(vec![Stanza {
            tag: TAG.into(),
            args: vec![b64_encode(&share)],
            body: seal_file_key(&key, file_key),
        }])
    }
}

bech32::secret_identity!(
    /// An X25519 identity: the secret scalar `AGE-SECRET-KEY-1…`, wiped on
    /// drop.
    Identity,
    IDENTITY_HRP,
    "X25519"
);

impl Identity {
    /// The recipient of this identity: `X25519(identity, basepoint)`.
    pub fn to_public(&self) -> Recipient {
        Recipient(public_key(&self.0))
    }
}

impl crate::Identity for Identity {
    fn unwrap(&self, stanza: &Stanza) -> Result<Option<FileKey>, Error> {
        if stanza.tag != TAG {
            return Ok(None);
        }
        stanza.expect_args(1)?;
        let share = stanza.arg_bytes::<32>(0, "ephemeral share")?;
        let body = stanza.body_bytes::<32>()?;
        let shared = Zeroizing::new(x25519(self.0, share));
        // RFC 7748 §6.1's all-zero check, in constant time: the shared
        // secret is secret, only the verdict is public. Declassified
        // (docs/constant-time.md): a low-order share is refused openly.
        // `Iterator::all` stopped at the first non-zero byte, a branch on
        // the secret that tools/ctgrind found.
        if simdcrypt::ct::declassify(bool::from(shared.ct_eq(&[0u8; 32]))) {
            return Err(Error::header(
                "X25519 ephemeral share is a low-order point (all-zero shared secret)",
            ));
        }
        let key = wrap_key(&shared, &share, &self.to_public().0)?;
        Ok(open_file_key(&key, body))
    }
}

#[cfg(test)]
mod tests {
    use x25519_dalek::X25519_BASEPOINT_BYTES;

    use super::*;

    fn hex32(s: &str) -> [u8; 32] {
        simdcrypt_testsupport::unhex(s).try_into().unwrap()
    }

    /// RFC 7748 §6.1's Alice and Bob, and the table form against the
    /// ladder on the base point for many secrets.
    #[test]
    fn public_key_is_x25519_of_the_base_point() {
        let alice = hex32("77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a");
        let bob = hex32("5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb");
        assert_eq!(
            public_key(&alice),
            hex32("8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a")
        );
        assert_eq!(
            public_key(&bob),
            hex32("de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f")
        );
        let mut secret = [0u8; 32];
        for i in 0..200u8 {
            secret[usize::from(i) % 32] ^= i.wrapping_mul(151).wrapping_add(7);
            assert_eq!(public_key(&secret), x25519(secret, X25519_BASEPOINT_BYTES));
        }
    }
}
