//! The `ssh-rsa` recipient type (c2sp.org/age, "The ssh-rsa recipient
//! type"): the file key encrypted with RSAES-OAEP (RFC 8017 §7.1),
//! SHA-256 for the hash and MGF1, the label `age-encryption.org/v1/ssh-rsa`.
//! RSA itself is the `rsa` crate's; the SHA-256 inside OAEP is simdcrypt's.
//!
//! Decryption runs with blinding, but the `rsa` crate is not constant-time
//! (RUSTSEC-2023-0071, the Marvin attack): see SECURITY.md.

use rsa::{BoxedUint, Oaep};
use ssh_key::Mpint;
use ssh_key::public::KeyData;
use zeroize::Zeroizing;

use super::{RSA_TAG, fingerprint, is_for};
use crate::{Error, FileKey, Stanza};
use simdcrypt::hash::Sha256;

/// OAEP's label.
const LABEL: &str = "age-encryption.org/v1/ssh-rsa";
/// The smallest modulus accepted, in bytes, as age: 2048 bits.
const MIN_MODULUS_BYTES: usize = 2048 / 8;
/// The largest modulus accepted, in bits (OpenSSH's own limit).
const MAX_MODULUS_BITS: usize = 16384;

/// The OAEP padding age uses.
fn oaep() -> Oaep<Sha256> {
    Oaep::new_with_label(LABEL.as_bytes())
}

/// A big-endian unsigned integer from an SSH mpint.
fn uint(m: &Mpint) -> Result<BoxedUint, String> {
    let bytes = m
        .as_positive_bytes()
        .ok_or("RSA key has a negative integer")?;
    Ok(BoxedUint::from_be_slice_vartime(bytes))
}

/// An RSA SSH public key as a recipient.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Recipient {
    /// The SSH wire encoding (RFC 4253 §6.6: `string "ssh-rsa" || mpint e
    /// || mpint n`), the tag's input.
    wire: Vec<u8>,
    key: rsa::PublicKey,
}

impl Recipient {
    /// The recipient of an SSH RSA public key (`-r`, `-R`): at least 2048
    /// bits, as age's `NewRSARecipient`; its exponent odd, at least 3 and
    /// at most 24 bits wide, as the SSH library age parses it with.
    pub(super) fn from_ssh(key: &ssh_key::public::RsaPublicKey) -> Result<Self, String> {
        use rsa::traits::PublicKeyParts;
        let e = key.e().as_positive_bytes().unwrap_or_default();
        let e_value = e.iter().fold(0u64, |v, &b| v << 8 | u64::from(b));
        if e.len() > 3 || e_value < 3 || e_value % 2 == 0 {
            return Err("invalid RSA public key: its exponent must be odd, from 3 to 2^24".into());
        }
        let public = rsa::PublicKey::new_with_size_limits(
            uint(key.n())?,
            uint(key.e())?,
            rsa::PublicKey::MIN_SIZE..=MAX_MODULUS_BITS,
        )
        .map_err(|e| format!("invalid RSA public key: {e}"))?;
        if public.size() < MIN_MODULUS_BYTES {
            return Err(format!(
                "RSA key size is too small: {} bits, at least 2048 are needed",
                public.n().bit_width()
            ));
        }
        Recipient::new(public)
    }

    /// The recipient of an RSA public key, whatever its size: an
    /// identity's own (age takes small keys as identities, and `-i` encrypts
    /// to them).
    pub(super) fn new(key: rsa::PublicKey) -> Result<Self, String> {
        use rsa::traits::PublicKeyParts;
        let ssh = ssh_key::public::RsaPublicKey::new(
            Mpint::from_positive_bytes(&key.e().to_be_bytes_trimmed_vartime()),
            Mpint::from_positive_bytes(&key.n().to_be_bytes_trimmed_vartime()),
        )
        .map_err(|e| format!("invalid RSA public key: {e}"))?;
        let wire =
            ssh_key::encoding::Encode::encode_vec(&KeyData::Rsa(ssh)).map_err(|e| e.to_string())?;
        Ok(Recipient { wire, key })
    }

    pub(super) fn wire(&self) -> &[u8] {
        &self.wire
    }

    pub(super) fn wrap(&self, file_key: &FileKey) -> Result<Vec<Stanza>, Error> {
        let body = self
            .key
            .encrypt(&mut getrandom::SysRng, oaep(), file_key.expose())
            .map_err(|e| Error::Random(format!("RSA-OAEP encryption failed: {e}")))?;
        Ok(vec![Stanza {
            tag: RSA_TAG.into(),
            args: vec![fingerprint(&self.wire)],
            body,
        }])
    }
}

/// An RSA SSH private key as an identity.
pub struct Identity {
    public: Recipient,
    /// Boxed: several hundred bytes of CRT values.
    key: Box<rsa::PrivateKey>,
}

impl Identity {
    /// The identity of an RSA private key.
    pub(super) fn new(key: rsa::PrivateKey) -> Result<Self, String> {
        Ok(Identity {
            public: Recipient::new(key.to_public_key())?,
            key: Box::new(key),
        })
    }

    /// The identity of an OpenSSH RSA key pair.
    pub(super) fn from_ssh(pair: &ssh_key::private::RsaKeypair) -> Result<Self, String> {
        let (public, private) = (pair.public(), pair.private());
        let key = rsa::PrivateKey::from_components(
            uint(public.n())?,
            uint(public.e())?,
            uint(private.d())?,
            vec![uint(private.p())?, uint(private.q())?],
        )
        .map_err(|e| format!("invalid RSA private key: {e}"))?;
        Identity::new(key)
    }

    pub(super) fn to_public(&self) -> Recipient {
        self.public.clone()
    }

    pub(super) fn unwrap(&self, stanza: &Stanza) -> Result<Option<FileKey>, Error> {
        if stanza.tag != RSA_TAG {
            return Ok(None);
        }
        stanza.expect_args(1)?;
        if !is_for(stanza, &self.public.wire) {
            return Ok(None);
        }
        let plain = Zeroizing::new(
            self.key
                .decrypt_blinded(&mut getrandom::SysRng, oaep(), &stanza.body)
                .map_err(|_| {
                    Error::header("the ssh-rsa stanza addressed to this key does not open with it")
                })?,
        );
        let bytes: [u8; FileKey::LEN] = plain.as_slice().try_into().map_err(|_| {
            Error::header(format!(
                "the ssh-rsa stanza holds {} bytes, expected a {}-byte file key",
                plain.len(),
                FileKey::LEN
            ))
        })?;
        Ok(Some(FileKey::from_bytes(bytes)))
    }
}
