//! SSH keys as age recipients and identities (c2sp.org/age, "The
//! ssh-rsa recipient type" and "The ssh-ed25519 recipient type", as
//! `age`'s `agessh` package writes them).
//!
//! A recipient is an OpenSSH public key line, `ssh-ed25519 AAAA… comment`
//! or `ssh-rsa AAAA… comment` (an `authorized_keys` line, options
//! included). An identity is the private key file: OpenSSH's own format
//! (passphrase-protected ones decrypted, with simdcrypt's AES, only when a
//! stanza is addressed to them), PKCS#1 (`BEGIN RSA PRIVATE KEY`) or PKCS#8
//! (`BEGIN PRIVATE KEY`).
//!
//! Every stanza starts with the key's *tag*, `base64(SHA-256(SSH key)[..4])`
//! over the key's SSH wire encoding (RFC 4253 §6.6), so that an identity
//! skips stanzas for other keys without trying them.
//!
//! ```
//! use simdcrypt_age::ssh;
//!
//! // `ssh-keygen -t ed25519 -N ''`'s two files (made for the tests).
//! let private = include_str!("../../tests/data/ssh/ed25519");
//! let public = include_str!("../../tests/data/ssh/ed25519.pub");
//!
//! let recipient: ssh::Recipient = public.parse()?;
//! let identity = ssh::Identity::from_pem(private, None, ssh::no_passphrase())?;
//! assert_eq!(identity.to_public(), recipient);
//!
//! let mut sealed = Vec::new();
//! simdcrypt_age::encrypt(&[&recipient], &b"hello"[..], &mut sealed)?;
//! let mut opened = Vec::new();
//! simdcrypt_age::decrypt(&[&identity], &sealed[..], &mut opened)?;
//! assert_eq!(opened, b"hello");
//! # Ok::<(), simdcrypt_age::Error>(())
//! ```

mod ed25519;
mod private_key;
mod rsa;

use std::fmt;
use std::str::FromStr;
use std::sync::{Arc, OnceLock};

use simdcrypt::hash::Sha256;
use ssh_key::PublicKey;
use ssh_key::public::KeyData;
use zeroize::Zeroizing;

use crate::format::b64_encode;
use crate::{Error, FileKey, Stanza};

/// The `ssh-ed25519` stanza's tag (its first word).
pub const ED25519_TAG: &str = "ssh-ed25519";
/// The `ssh-rsa` stanza's tag.
pub const RSA_TAG: &str = "ssh-rsa";

/// Asks for the passphrase of an encrypted private key, when a stanza is
/// addressed to it; called at most once.
pub type Passphrase = Arc<dyn Fn() -> Result<Zeroizing<String>, Error> + Send + Sync>;

/// A [`Passphrase`] for callers that never decrypt a protected key: it
/// refuses.
pub fn no_passphrase() -> Passphrase {
    Arc::new(|| {
        Err(Error::Identity(
            "the SSH key is passphrase-protected and no passphrase can be asked for".into(),
        ))
    })
}

/// The stanza tag's first argument: `base64(SHA-256(SSH key)[..4])`, the
/// SSH key in its wire encoding.
fn fingerprint(wire: &[u8]) -> String {
    b64_encode(&Sha256::digest(wire)[..4])
}

/// An SSH public key age encrypts to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Recipient {
    /// `ssh-ed25519 …`
    Ed25519(ed25519::Recipient),
    /// `ssh-rsa …`, at least 2048 bits.
    Rsa(rsa::Recipient),
}

impl Recipient {
    /// The recipient of an OpenSSH public key.
    fn from_key(key: &KeyData) -> Result<Self, String> {
        match key {
            KeyData::Ed25519(k) => ed25519::Recipient::new(k.0).map(Recipient::Ed25519),
            KeyData::Rsa(k) => rsa::Recipient::from_ssh(k).map(Recipient::Rsa),
            other => Err(unsupported(other.algorithm())),
        }
    }

    /// The key's SSH wire encoding.
    fn wire(&self) -> &[u8] {
        match self {
            Recipient::Ed25519(r) => r.wire(),
            Recipient::Rsa(r) => r.wire(),
        }
    }

    /// The stanza tag this key's stanzas have.
    fn stanza_tag(&self) -> &'static str {
        match self {
            Recipient::Ed25519(_) => ED25519_TAG,
            Recipient::Rsa(_) => RSA_TAG,
        }
    }
}

/// The type of an OpenSSH public key line whose type word is the one its
/// base64 key starts with (`ecdsa-sha2-nistp256 AAAA…`): a well-formed SSH
/// key, perhaps of a type age does not take (age skips those in recipient
/// files with a warning).
pub fn key_type(line: &str) -> Option<&str> {
    let mut fields = line.split(' ');
    let (name, key) = (fields.next()?, fields.next()?);
    let key = base64::Engine::decode(&base64::engine::general_purpose::STANDARD, key).ok()?;
    let len = u32::from_be_bytes(key.get(..4)?.try_into().ok()?) as usize;
    (key.get(4..)?.get(..len)? == name.as_bytes()).then_some(name)
}

/// Why a key of another algorithm is refused.
fn unsupported(algorithm: impl fmt::Debug) -> String {
    format!("SSH key type {algorithm:?} is not supported: age takes ssh-ed25519 and ssh-rsa keys")
}

impl FromStr for Recipient {
    type Err = Error;

    /// Parses an OpenSSH public key line (`authorized_keys` format: options,
    /// type, base64 key, comment; the type must be the key's own).
    fn from_str(s: &str) -> Result<Self, Error> {
        let bad = |why: String| Error::Recipient(s.to_owned(), why);
        let entry = ssh_key::authorized_keys::Entry::from_str(s.trim()).map_err(|e| {
            bad(match key_type(s) {
                Some(t) if t != ED25519_TAG && t != RSA_TAG => unsupported(t),
                _ => format!("malformed SSH public key: {e}"),
            })
        })?;
        Recipient::from_key(entry.public_key().key_data()).map_err(bad)
    }
}

impl fmt::Display for Recipient {
    /// The key as an OpenSSH public key line without a comment.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let key = PublicKey::from_bytes(self.wire()).map_err(|_| fmt::Error)?;
        f.write_str(&key.to_openssh().map_err(|_| fmt::Error)?)
    }
}

impl crate::Recipient for Recipient {
    fn wrap(&self, file_key: &FileKey) -> Result<Vec<Stanza>, Error> {
        match self {
            Recipient::Ed25519(r) => r.wrap(file_key),
            Recipient::Rsa(r) => r.wrap(file_key),
        }
    }
}

/// An SSH private key age decrypts with.
pub enum Identity {
    /// An Ed25519 key.
    Ed25519(ed25519::Identity),
    /// An RSA key.
    Rsa(rsa::Identity),
    /// A passphrase-protected key (OpenSSH, or legacy PEM encryption),
    /// decrypted the first time a stanza is addressed to it.
    Encrypted(Encrypted),
}

impl Identity {
    /// Parses a private key file: OpenSSH (`BEGIN OPENSSH PRIVATE KEY`,
    /// `passphrase` asked for later if it is protected), PKCS#1 (`BEGIN RSA
    /// PRIVATE KEY`) or PKCS#8 (`BEGIN PRIVATE KEY`).
    ///
    /// A PKCS#1 key under legacy PEM encryption (`Proc-Type: 4,ENCRYPTED`,
    /// as `ssh-keygen -m PEM` writes one with a passphrase) does not say
    /// its public key: that is `public`, which age reads from the key's
    /// `.pub` file beside it; without it, such a key is refused.
    ///
    /// # Errors
    ///
    /// [`Error::Identity`] for a file that is none of these, a key type
    /// other than Ed25519 and RSA, an RSA key under 2048 bits, or a
    /// protection this crate does not open (encrypted PKCS#8, legacy PEM
    /// encryption other than AES-CBC or without `public`, an OpenSSH
    /// cipher other than AES-CTR/CBC).
    pub fn from_pem(
        pem: &str,
        public: Option<Recipient>,
        passphrase: Passphrase,
    ) -> Result<Self, Error> {
        private_key::parse(pem, public, passphrase)
    }

    /// Whether `pem` is a key under legacy PEM encryption, whose public key
    /// [`from_pem`](Self::from_pem) must be given.
    pub fn needs_public_key(pem: &str) -> bool {
        private_key::is_legacy_encrypted(pem)
    }

    /// The recipient whose stanzas this identity opens.
    pub fn to_public(&self) -> Recipient {
        match self {
            Identity::Ed25519(i) => Recipient::Ed25519(i.to_public()),
            Identity::Rsa(i) => Recipient::Rsa(i.to_public()),
            Identity::Encrypted(i) => i.public.clone(),
        }
    }
}

impl crate::Identity for Identity {
    fn unwrap(&self, stanza: &Stanza) -> Result<Option<FileKey>, Error> {
        match self {
            Identity::Ed25519(i) => i.unwrap(stanza),
            Identity::Rsa(i) => i.unwrap(stanza),
            Identity::Encrypted(i) => i.unwrap(stanza),
        }
    }
}

/// A passphrase-protected private key: its public key (stored in the
/// clear by OpenSSH, given beside a legacy PEM key) to recognise its
/// stanzas, decrypted once one comes.
pub struct Encrypted {
    public: Recipient,
    key: private_key::Protected,
    passphrase: Passphrase,
    decrypted: OnceLock<Box<Identity>>,
}

impl Encrypted {
    /// Whether `stanza` is addressed to this key: its type and tag; a
    /// stanza of its type without a tag is malformed.
    fn is_addressed(&self, stanza: &Stanza) -> Result<bool, Error> {
        if stanza.tag != self.public.stanza_tag() {
            return Ok(false);
        }
        if stanza.args.is_empty() {
            return Err(Error::header(format!(
                "{} stanza has no arguments",
                stanza.tag
            )));
        }
        Ok(is_for(stanza, self.public.wire()))
    }

    fn unwrap(&self, stanza: &Stanza) -> Result<Option<FileKey>, Error> {
        if let Some(identity) = self.decrypted.get() {
            return crate::Identity::unwrap(&**identity, stanza);
        }
        if !self.is_addressed(stanza)? {
            return Ok(None);
        }
        self.key.check()?;
        let passphrase = (self.passphrase)()?;
        let identity = self.key.decrypt(passphrase.as_bytes())?;
        if identity.to_public() != self.public {
            return Err(Error::Identity(
                "mismatched private and public SSH key: the key file's private key is not its public key's".into(),
            ));
        }
        crate::Identity::unwrap(&**self.decrypted.get_or_init(|| Box::new(identity)), stanza)
    }
}

/// Whether a stanza of this key's type carries `wire`'s tag as its first
/// argument (checked by the caller to exist).
fn is_for(stanza: &Stanza, wire: &[u8]) -> bool {
    stanza.args[0] == fingerprint(wire)
}
