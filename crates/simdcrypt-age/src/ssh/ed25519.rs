//! The `ssh-ed25519` recipient type (c2sp.org/age, "The ssh-ed25519
//! recipient type"): X25519 with the Ed25519 key converted to Montgomery
//! form, the shared secret multiplied again by a *tweak* that binds it to
//! the SSH key, then HKDF-SHA-256 and ChaCha20-Poly1305 as the X25519 type.
//!
//! ```text
//! tweak       = HKDF-SHA-256(ikm = "", salt = SSH key, info = LABEL)
//! shared      = X25519(tweak, X25519(ephemeral, converted key))
//! wrap key    = HKDF-SHA-256(ikm = shared, salt = share || converted key, info = LABEL)
//! stanza      = ssh-ed25519 tag share / ChaCha20-Poly1305(wrap key, file key)
//! ```

use curve25519_dalek::edwards::CompressedEdwardsY;
use simdcrypt::hash::Sha512;
use simdcrypt::kdf::hkdf_sha256;
use x25519_dalek::x25519;
use zeroize::Zeroizing;

use super::{ED25519_TAG, fingerprint, is_for};
use crate::format::b64_encode;
use crate::x25519::{open_file_key, public_key, seal_file_key};
use crate::{Error, FileKey, Stanza, random};

/// HKDF's info for the tweak and the wrap key.
const LABEL: &[u8] = b"age-encryption.org/v1/ssh-ed25519";

/// The SSH wire encoding of an Ed25519 public key (RFC 8709 §4):
/// `string "ssh-ed25519" || string key`.
fn wire(key: &[u8; 32]) -> Vec<u8> {
    let mut wire = Vec::with_capacity(51);
    for field in [ED25519_TAG.as_bytes(), key] {
        wire.extend_from_slice(&(field.len() as u32).to_be_bytes());
        wire.extend_from_slice(field);
    }
    wire
}

/// `HKDF-SHA-256(ikm = "", salt = SSH key, info = LABEL)`.
fn tweak(wire: &[u8]) -> Result<Zeroizing<[u8; 32]>, Error> {
    let mut tweak = Zeroizing::new([0u8; 32]);
    hkdf_sha256(wire, &[], LABEL, &mut *tweak)?;
    Ok(tweak)
}

/// The tweaked shared secret's wrap key: `HKDF-SHA-256(ikm =
/// X25519(tweak, shared), salt = share || converted key, info = LABEL)`.
fn wrap_key(
    wire: &[u8],
    shared: &[u8; 32],
    share: &[u8; 32],
    converted: &[u8; 32],
) -> Result<Zeroizing<[u8; 32]>, Error> {
    let tweaked = Zeroizing::new(x25519(*tweak(wire)?, *shared));
    let mut salt = [0u8; 64];
    salt[..32].copy_from_slice(share);
    salt[32..].copy_from_slice(converted);
    let mut key = Zeroizing::new([0u8; 32]);
    hkdf_sha256(&salt, &*tweaked, LABEL, &mut *key)?;
    Ok(key)
}

/// An Ed25519 SSH public key as a recipient.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Recipient {
    /// The SSH wire encoding (the tag's and the tweak's input).
    wire: Vec<u8>,
    /// The key on the Montgomery curve: `u = (1 + y) / (1 − y)`.
    converted: [u8; 32],
}

impl Recipient {
    /// The recipient of the Ed25519 public key `key` (RFC 8032 encoding).
    pub(super) fn new(key: [u8; 32]) -> Result<Self, String> {
        let point = CompressedEdwardsY(key)
            .decompress()
            .ok_or("invalid Ed25519 public key: not a point of the curve")?;
        Ok(Recipient {
            wire: wire(&key),
            converted: point.to_montgomery().to_bytes(),
        })
    }

    pub(super) fn wire(&self) -> &[u8] {
        &self.wire
    }

    pub(super) fn wrap(&self, file_key: &FileKey) -> Result<Vec<Stanza>, Error> {
        let ephemeral = Zeroizing::new(random::<32>()?);
        let share = public_key(&ephemeral);
        let shared = Zeroizing::new(x25519(*ephemeral, self.converted));
        if shared.iter().all(|&b| b == 0) {
            return Err(Error::Recipient(
                super::Recipient::Ed25519(self.clone()).to_string(),
                "the Ed25519 key is a low-order point".into(),
            ));
        }
        let key = wrap_key(&self.wire, &shared, &share, &self.converted)?;
        Ok(vec![Stanza {
            tag: ED25519_TAG.into(),
            args: vec![fingerprint(&self.wire), b64_encode(&share)],
            body: seal_file_key(&key, file_key),
        }])
    }
}

/// An Ed25519 SSH private key as an identity.
pub struct Identity {
    /// The SSH wire encoding of the public key.
    wire: Vec<u8>,
    /// The X25519 scalar: `SHA-512(seed)[..32]` (clamped by X25519), the
    /// Ed25519 secret scalar.
    scalar: Zeroizing<[u8; 32]>,
}

impl Identity {
    /// The identity of the Ed25519 private key `seed` (RFC 8032 §5.1.5)
    /// whose public key is `public`.
    pub(super) fn new(seed: &[u8; 32], public: [u8; 32]) -> Self {
        let digest = Zeroizing::new(Sha512::digest(seed));
        let mut scalar = Zeroizing::new([0u8; 32]);
        scalar.copy_from_slice(&digest[..32]);
        Identity {
            wire: wire(&public),
            scalar,
        }
    }

    /// The identity of a bare seed: its public key is `[s]B`, computed from
    /// the secret scalar (RFC 8032 §5.1.5).
    pub(super) fn from_seed(seed: &[u8; 32]) -> Self {
        let digest = Zeroizing::new(Sha512::digest(seed));
        let mut clamped = Zeroizing::new([0u8; 32]);
        clamped.copy_from_slice(&digest[..32]);
        let public = curve25519_dalek::EdwardsPoint::mul_base_clamped(*clamped)
            .compress()
            .to_bytes();
        Identity::new(seed, public)
    }

    /// The recipient whose stanzas this identity opens.
    pub(super) fn to_public(&self) -> Recipient {
        Recipient {
            wire: self.wire.clone(),
            converted: public_key(&self.scalar),
        }
    }

    pub(super) fn unwrap(&self, stanza: &Stanza) -> Result<Option<FileKey>, Error> {
        if stanza.tag != ED25519_TAG {
            return Ok(None);
        }
        stanza.expect_args(2)?;
        let share = stanza.arg_bytes::<32>(1, "ephemeral share")?;
        if !is_for(stanza, &self.wire) {
            return Ok(None);
        }
        let body = stanza.body_bytes::<32>()?;
        let shared = Zeroizing::new(x25519(*self.scalar, share));
        if shared.iter().all(|&b| b == 0) {
            return Err(Error::header(
                "ssh-ed25519 ephemeral share is a low-order point (all-zero shared secret)",
            ));
        }
        let key = wrap_key(&self.wire, &shared, &share, &public_key(&self.scalar))?;
        open_file_key(&key, body).map(Some).ok_or_else(|| {
            Error::header("the ssh-ed25519 stanza addressed to this key does not open with it")
        })
    }
}
