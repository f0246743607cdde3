//! The age v1 file format ([c2sp.org/age](https://c2sp.org/age)) on
//! simdcrypt's own primitives.
//!
//! An age file is a textual header that wraps a 16-byte *file key* for one
//! or more recipients, then a binary payload: a 16-byte nonce and the
//! plaintext in 64 KiB chunks sealed with ChaCha20-Poly1305 (the STREAM
//! construction). simdcrypt's ChaCha20-Poly1305, HKDF-SHA-256,
//! HMAC-SHA-256 and scrypt do all of the symmetric work; X25519, P-256,
//! ML-KEM-768, SHA-3, Bech32 and base64 come from their well-kept crates.
//!
//! Files written here are read by `age` and `rage`, and theirs here.
//!
//! ```
//! use simdcrypt_age::{decrypt, encrypt, x25519};
//!
//! let identity = x25519::Identity::generate()?;
//! let recipient = identity.to_public();
//! let mut sealed = Vec::new();
//! encrypt(&[&recipient], &b"attack at dawn"[..], &mut sealed)?;
//!
//! let mut opened = Vec::new();
//! decrypt(&[&identity], &sealed[..], &mut opened)?;
//! assert_eq!(opened, b"attack at dawn");
//! # Ok::<(), simdcrypt_age::Error>(())
//! ```

#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod armor;
mod bech32;
mod error;
pub mod format;
mod hpke;
pub mod keys;
pub mod pipe;
pub mod plugin;
pub mod pq;
pub mod scrypt;
pub mod seekable;
pub mod ssh;
pub mod stream;
pub mod tag;
#[cfg_attr(docsrs, doc(cfg(feature = "testkit")))]
pub mod testkit;
pub mod x25519;

use std::io::{BufRead, BufReader, Read, Write};

use zeroize::{Zeroize, ZeroizeOnDrop};

pub use error::{Error, KeyFileError};
pub use format::{Header, Stanza};
pub use pipe::{DecryptingReader, EncryptingWriter};
pub use seekable::SeekableDecryptor;
pub use stream::Threads;

/// The 128-bit symmetric key a file's payload is derived from (c2sp.org/age,
/// "File key"): 16 bytes from the CSPRNG, never reused, wiped on drop.
#[derive(Clone, Zeroize, ZeroizeOnDrop)]
pub struct FileKey([u8; FileKey::LEN]);

impl FileKey {
    /// The length of a file key in bytes.
    pub const LEN: usize = 16;

    /// A fresh file key from the operating system's CSPRNG.
    ///
    /// # Errors
    ///
    /// [`Error::Random`] when the operating system cannot give randomness.
    pub fn generate() -> Result<Self, Error> {
        Ok(FileKey(random()?))
    }

    /// A file key from its bytes (for unwrapping and for tests).
    pub fn from_bytes(bytes: [u8; FileKey::LEN]) -> Self {
        FileKey(bytes)
    }

    /// The key's bytes.
    pub fn expose(&self) -> &[u8; FileKey::LEN] {
        &self.0
    }
}

/// Something a file can be encrypted to: wraps the file key into one or
/// more recipient stanzas (c2sp.org/age, "Recipient stanza").
pub trait Recipient {
    /// The stanzas that carry `file_key` to this recipient.
    ///
    /// # Errors
    ///
    /// When randomness or a key derivation fails.
    fn wrap(&self, file_key: &FileKey) -> Result<Vec<Stanza>, Error>;

    /// Whether this recipient's stanza must be the only one in a header
    /// (scrypt's rule, c2sp.org/age "scrypt recipient stanza").
    fn must_be_alone(&self) -> bool {
        false
    }

    /// Whether the stanza resists a quantum computer. A file is encrypted
    /// to quantum-resistant recipients only or to none, as age does: one
    /// classic recipient would undo the others' protection (c2sp.org/age,
    /// "SHOULD NOT be encrypted to both").
    fn is_post_quantum(&self) -> bool {
        false
    }

    /// The stanzas that carry `file_key` to this recipient, and the
    /// recipient's labels (c2sp.org/age-plugin, "labels"): a file is only
    /// encrypted to recipients of one set of labels, as age does. By
    /// default [`wrap`](Recipient::wrap) and `postquantum` when
    /// [`is_post_quantum`](Recipient::is_post_quantum); a plugin recipient
    /// gives the labels its plugin sent.
    ///
    /// # Errors
    ///
    /// As [`wrap`](Recipient::wrap).
    fn wrap_with_labels(&self, file_key: &FileKey) -> Result<(Vec<Stanza>, Vec<String>), Error> {
        let labels = if self.is_post_quantum() {
            vec![POSTQUANTUM_LABEL.to_owned()]
        } else {
            Vec::new()
        };
        Ok((self.wrap(file_key)?, labels))
    }
}

/// The label of a quantum-resistant recipient (age's `postquantum`).
const POSTQUANTUM_LABEL: &str = "postquantum";

/// Something that can unwrap a file key from a header's stanzas.
pub trait Identity {
    /// The file key carried by `stanza`, `Ok(None)` when the stanza is not
    /// addressed to this identity (another type, or another key of this
    /// type), and an error when a stanza of this identity's type is
    /// malformed: the specification's "MUST reject".
    ///
    /// # Errors
    ///
    /// [`Error::Header`] for a malformed stanza of this identity's type.
    fn unwrap(&self, stanza: &Stanza) -> Result<Option<FileKey>, Error>;

    /// The file key carried by one of a header's `stanzas` (all of them, in
    /// file order), `Ok(None)` when none is addressed to this identity. By
    /// default [`unwrap`](Identity::unwrap) on each in turn; a plugin
    /// identity hands them all to its plugin at once.
    ///
    /// # Errors
    ///
    /// As [`unwrap`](Identity::unwrap).
    fn unwrap_stanzas(&self, stanzas: &[Stanza]) -> Result<Option<FileKey>, Error> {
        for stanza in stanzas {
            if let Some(file_key) = self.unwrap(stanza)? {
                return Ok(Some(file_key));
            }
        }
        Ok(None)
    }
}

/// Fills an array from the operating system's CSPRNG (`getrandom`).
pub(crate) fn random<const N: usize>() -> Result<[u8; N], Error> {
    let mut bytes = [0u8; N];
    getrandom::fill(&mut bytes).map_err(|e| Error::Random(e.to_string()))?;
    Ok(bytes)
}

/// Encrypts everything `input` gives to `recipients`, writing the age file
/// to `output`, on every core ([`Threads::Auto`]).
///
/// # Errors
///
/// As [`Encryptor::new`] and [`stream::encrypt`].
pub fn encrypt(
    recipients: &[&dyn Recipient],
    input: impl Read + Send,
    output: impl Write,
) -> Result<u64, Error> {
    Encryptor::new(recipients)?.encrypt(input, output, Threads::Auto)
}

/// Decrypts the age file `input` (binary or armored) with the first of
/// `identities` that matches, writing the plaintext to `output`.
///
/// # Errors
///
/// As [`Decryptor::new`], [`Decryptor::file_key`] and [`stream::decrypt`].
pub fn decrypt(
    identities: &[&dyn Identity],
    input: impl Read + Send,
    output: impl Write,
) -> Result<u64, Error> {
    let decryptor = Decryptor::new(armor::ArmoredReader::new(BufReader::new(input)))?;
    let file_key = decryptor.file_key(identities)?;
    decryptor.decrypt(&file_key, output, Threads::Auto)
}

/// The header side of encryption: a fresh file key wrapped for every
/// recipient, and the MACed header.
pub struct Encryptor {
    file_key: FileKey,
    header: Header,
}

impl Encryptor {
    /// A new file key wrapped for `recipients`.
    ///
    /// # Errors
    ///
    /// [`Error::NoRecipients`] for none, [`Error::ScryptNotAlone`] when a
    /// passphrase is mixed with other recipients, [`Error::MixedPostQuantum`]
    /// when post-quantum recipients are mixed with classic ones,
    /// [`Error::IncompatibleRecipients`] when other labels differ,
    /// [`Error::TooManyRecipients`] past
    /// [`MAX_RECIPIENT_STANZAS`](format::MAX_RECIPIENT_STANZAS) stanzas,
    /// and what wrapping gives.
    ///
    /// Labels are compared as age does, sorted, each recipient's against
    /// the first's as it is wrapped: a plugin's are only known from its
    /// answer, so the recipients before a mismatch have run.
    pub fn new(recipients: &[&dyn Recipient]) -> Result<Self, Error> {
        if recipients.is_empty() {
            return Err(Error::NoRecipients);
        }
        if recipients.len() > 1 && recipients.iter().any(|r| r.must_be_alone()) {
            return Err(Error::ScryptNotAlone);
        }
        // Each recipient wraps at least one stanza: too many are refused
        // before any is wrapped (a plugin run, an RSA encryption).
        if recipients.len() > format::MAX_RECIPIENT_STANZAS {
            return Err(Error::TooManyRecipients(recipients.len()));
        }
        let file_key = FileKey::generate()?;
        let mut stanzas = Vec::new();
        let mut first_labels: Option<Vec<String>> = None;
        for recipient in recipients {
            let (wrapped, mut labels) = recipient.wrap_with_labels(&file_key)?;
            labels.sort();
            match &first_labels {
                None => first_labels = Some(labels),
                Some(first) if *first != labels => {
                    let pq = |l: &[String]| l.iter().any(|label| label == POSTQUANTUM_LABEL);
                    return Err(if pq(first) == pq(&labels) {
                        Error::IncompatibleRecipients(first.clone(), labels)
                    } else {
                        Error::MixedPostQuantum
                    });
                }
                Some(_) => {}
            }
            stanzas.extend(wrapped);
        }
        if stanzas.len() > format::MAX_RECIPIENT_STANZAS {
            return Err(Error::TooManyRecipients(stanzas.len()));
        }
        let header = Header::new(stanzas, &file_key)?;
        Ok(Encryptor { file_key, header })
    }

    /// The header this file starts with.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// Writes the header and the payload of everything `input` gives.
    /// Returns the number of plaintext bytes.
    ///
    /// # Errors
    ///
    /// As [`stream::encrypt`].
    pub fn encrypt(
        &self,
        input: impl Read + Send,
        mut output: impl Write,
        threads: Threads,
    ) -> Result<u64, Error> {
        self.header.write(&mut output)?;
        stream::encrypt(&self.file_key, input, output, threads)
    }

    /// Writes the header to `output` and gives an [`EncryptingWriter`]:
    /// the payload of what is written to it, sealed on `threads` as it
    /// comes; [`EncryptingWriter::finish`] ends it.
    ///
    /// # Errors
    ///
    /// [`Error::Io`] when writing the header fails.
    pub fn writer<W: Write + Send + 'static>(
        &self,
        mut output: W,
        threads: Threads,
    ) -> Result<EncryptingWriter<W>, Error> {
        self.header.write(&mut output)?;
        Ok(EncryptingWriter::new(
            self.file_key.clone(),
            output,
            threads,
        ))
    }
}

/// The header side of decryption: the parsed header, then the payload.
pub struct Decryptor<R> {
    header: Header,
    input: R,
}

impl<R: BufRead + Send> Decryptor<R> {
    /// Reads and parses the header from `input` (binary; wrap armored input
    /// in [`armor::ArmoredReader`] first).
    ///
    /// # Errors
    ///
    /// [`Error::Header`] (or [`Error::UnsupportedVersion`]) when the header
    /// breaks c2sp.org/age's grammar, [`Error::Io`] when reading fails.
    pub fn new(mut input: R) -> Result<Self, Error> {
        let header = Header::read(&mut input)?;
        Ok(Decryptor { header, input })
    }

    /// The parsed header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// Whether the file is passphrase-encrypted: its one stanza is scrypt.
    pub fn is_passphrase(&self) -> bool {
        self.header.stanzas().iter().any(|s| s.tag == scrypt::TAG)
    }

    /// Unwraps the file key with the first identity that matches a stanza,
    /// then checks the header MAC with it.
    ///
    /// # Errors
    ///
    /// [`Error::ScryptNotAlone`] for a scrypt stanza beside others,
    /// [`Error::Header`] for a malformed stanza, [`Error::WrongPassphrase`]
    /// or [`Error::NoMatch`] when nothing unwraps, [`Error::HeaderMac`] when
    /// the MAC does not match.
    pub fn file_key(&self, identities: &[&dyn Identity]) -> Result<FileKey, Error> {
        let stanzas = self.header.stanzas();
        if stanzas.len() > 1 && self.is_passphrase() {
            return Err(Error::ScryptNotAlone);
        }
        for identity in identities {
            if let Some(file_key) = identity.unwrap_stanzas(stanzas)? {
                self.header.verify_mac(&file_key)?;
                return Ok(file_key);
            }
        }
        Err(if self.is_passphrase() {
            Error::WrongPassphrase
        } else {
            Error::NoMatch
        })
    }

    /// The plaintext as an `io::Read` ([`DecryptingReader`]), decrypted on
    /// `threads` ahead of the reads; only verified chunks are read out.
    pub fn reader(self, file_key: &FileKey, threads: Threads) -> DecryptingReader
    where
        R: 'static,
    {
        DecryptingReader::new(file_key.clone(), self.input, threads)
    }

    /// The payload as a [`SeekableDecryptor`]: random access to the
    /// plaintext, the final chunk authenticated first. `R` must be the
    /// binary file itself (a `BufReader` over it, not armor), positioned by
    /// [`Decryptor::new`] right after the header.
    ///
    /// # Errors
    ///
    /// As [`SeekableDecryptor::new`].
    pub fn seekable(self, file_key: &FileKey) -> Result<SeekableDecryptor<R>, Error>
    where
        R: std::io::Seek,
    {
        SeekableDecryptor::new(file_key, self.input)
    }

    /// Decrypts the payload with `file_key` to `output`, releasing each
    /// chunk only after its tag verified. Returns the plaintext length.
    ///
    /// # Errors
    ///
    /// As [`stream::decrypt`].
    pub fn decrypt(
        self,
        file_key: &FileKey,
        output: impl Write,
        threads: Threads,
    ) -> Result<u64, Error> {
        stream::decrypt(file_key, self.input, output, threads)
    }
}
