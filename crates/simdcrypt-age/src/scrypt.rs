//! The scrypt recipient type (c2sp.org/age, "The scrypt recipient type"):
//! the file key sealed under a key that scrypt derives from a passphrase.
//!
//! ```
//! use simdcrypt_age::{decrypt, encrypt, scrypt};
//!
//! // A real file takes scrypt::DEFAULT_WORK_FACTOR (2^18, 256 MiB); 2^10
//! // keeps the example quick.
//! let mut sealed = Vec::new();
//! encrypt(&[&scrypt::Recipient::new(b"correct horse", 10)], &b"a secret"[..], &mut sealed)?;
//!
//! let mut opened = Vec::new();
//! let identity = scrypt::Identity::new(b"correct horse", scrypt::DEFAULT_MAX_WORK_FACTOR);
//! decrypt(&[&identity], &sealed[..], &mut opened)?;
//! assert_eq!(opened, b"a secret");
//!
//! let wrong = scrypt::Identity::new(b"battery staple", scrypt::DEFAULT_MAX_WORK_FACTOR);
//! assert!(decrypt(&[&wrong], &sealed[..], &mut Vec::new()).is_err());
//! # Ok::<(), simdcrypt_age::Error>(())
//! ```

use simdcrypt::kdf::scrypt;
use zeroize::{Zeroize, ZeroizeOnDrop, Zeroizing};

use crate::format::b64_encode;
use crate::x25519::{open_file_key, seal_file_key};
use crate::{Error, FileKey, Stanza, random};

/// The stanza tag, the first argument.
pub const TAG: &str = "scrypt";
/// The label prefixed to the salt: `S = "age-encryption.org/v1/scrypt" ||
/// salt`.
const LABEL: &[u8] = b"age-encryption.org/v1/scrypt";
/// age's default work factor for encryption, 2^18.
pub const DEFAULT_WORK_FACTOR: u8 = 18;
/// The largest work factor read without being told otherwise, 2^22 (about
/// 4 GiB of memory and several seconds).
pub const DEFAULT_MAX_WORK_FACTOR: u8 = 22;

/// The wrap key: `scrypt(N = 2^log_n, r = 8, p = 1, dkLen = 32, S = label
/// || salt, P = passphrase)`.
fn wrap_key(passphrase: &[u8], salt: &[u8; 16], log_n: u8) -> Result<Zeroizing<[u8; 32]>, Error> {
    let mut s = LABEL.to_vec();
    s.extend_from_slice(salt);
    let mut key = Zeroizing::new([0u8; 32]);
    scrypt(passphrase, &s, log_n, 8, 1, &mut *key)?;
    Ok(key)
}

/// A passphrase as a recipient, with the work factor it is stretched by.
#[derive(Zeroize, ZeroizeOnDrop)]
pub struct Recipient {
    passphrase: Vec<u8>,
    log_n: u8,
}

impl Recipient {
    /// `passphrase` stretched by 2^`log_n` (age's default is
    /// [`DEFAULT_WORK_FACTOR`]); a `log_n` outside RFC 7914's bounds is
    /// refused when wrapping.
    pub fn new(passphrase: &[u8], log_n: u8) -> Self {
        Recipient {
            passphrase: passphrase.to_vec(),
            log_n,
        }
    }
}

impl crate::Recipient for Recipient {
    fn wrap(&self, file_key: &FileKey) -> Result<Vec<Stanza>, Error> {
        let salt = random::<16>()?;
        let key = wrap_key(&self.passphrase, &salt, self.log_n)?;
        Ok(vec![Stanza {
            tag: TAG.into(),
            args: vec![b64_encode(&salt), self.log_n.to_string()],
            body: seal_file_key(&key, file_key),
        }])
    }

    fn must_be_alone(&self) -> bool {
        true
    }
}

/// A passphrase as an identity, with the largest work factor it will pay.
#[derive(Zeroize, ZeroizeOnDrop)]
pub struct Identity {
    passphrase: Vec<u8>,
    max_log_n: u8,
}

impl Identity {
    /// `passphrase`, refusing files whose work factor is above
    /// 2^`max_log_n` (age's default limit is [`DEFAULT_MAX_WORK_FACTOR`]).
    pub fn new(passphrase: &[u8], max_log_n: u8) -> Self {
        Identity {
            passphrase: passphrase.to_vec(),
            max_log_n,
        }
    }
}

/// The work factor argument: decimal, no leading zero, no sign
/// (`^[1-9][0-9]*$`).
fn parse_work_factor(arg: &str) -> Option<u8> {
    let digits = arg.as_bytes();
    if digits.first().is_some_and(|&d| (b'1'..=b'9').contains(&d))
        && digits.iter().all(u8::is_ascii_digit)
    {
        // Anything above 255 is far above every limit: keep it as 255.
        Some(arg.parse().unwrap_or(u8::MAX))
    } else {
        None
    }
}

impl crate::Identity for Identity {
    fn unwrap(&self, stanza: &Stanza) -> Result<Option<FileKey>, Error> {
        if stanza.tag != TAG {
            return Ok(None);
        }
        stanza.expect_args(2)?;
        let salt = stanza.arg_bytes::<16>(0, "salt")?;
        let log_n = parse_work_factor(&stanza.args[1]).ok_or_else(|| {
            Error::header(format!(
                "scrypt work factor {:?} is not a decimal number without leading zeros",
                stanza.args[1]
            ))
        })?;
        let body = stanza.body_bytes::<32>()?;
        if log_n > self.max_log_n {
            return Err(Error::WorkFactorTooLarge {
                found: log_n,
                limit: self.max_log_n,
            });
        }
        let key = wrap_key(&self.passphrase, &salt, log_n)?;
        Ok(open_file_key(&key, body))
    }
}
