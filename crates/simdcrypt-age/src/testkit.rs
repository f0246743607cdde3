//! The age testkit (C2SP CCTV, <https://github.com/C2SP/CCTV/tree/main/age>)
//! as a checking kit: its 143 vectors embedded, the parser of a vector, the
//! testkit's outcome classes, and [`Vector::check`], which runs one vector
//! and says whether this crate gives the outcome it expects.
//!
//! Only with the cargo feature **`testkit`** (off by default; it embeds
//! about 650 KB of vectors and pulls in `flate2` for the compressed ones).
//! The crate's own test (`tests/testkit.rs`) and `simdcrypt verify` both
//! run every vector through this module. The files, their source and
//! licence are in the crate's `tests/data/testkit/` and its README.
//!
//! ```
//! use std::num::NonZeroUsize;
//! use simdcrypt_age::Threads;
//! use simdcrypt_age::testkit::{self, Vector};
//!
//! for &(name, bytes) in testkit::FILES {
//!     let vector = Vector::parse(name, bytes)?;
//!     if let Err(failure) = vector.check(Threads::Count(NonZeroUsize::MIN)) {
//!         panic!("{name}: {failure}");
//!     }
//! }
//! # Ok::<(), testkit::Malformed>(())
//! ```

#![cfg(feature = "testkit")]

use std::fmt;
use std::io::{BufReader, Read};

use simdcrypt::aead::ChaCha20Poly1305;
use simdcrypt::hash::Sha256;
use simdcrypt::kdf::hkdf_sha256;

use crate::armor::ArmoredReader;
use crate::keys::AnyIdentity;
use crate::stream::{CHUNK_LEN, NONCE_LEN, SEALED_CHUNK_LEN};
use crate::{Decryptor, Error, FileKey, Identity, Threads, scrypt};

/// Every vector file of the testkit as `(file name, contents)`, sorted by
/// name.
pub const FILES: &[(&str, &[u8])] = include!(concat!(env!("OUT_DIR"), "/testkit_files.rs"));

/// The outcome classes of the testkit (its `expect` key), and one more for
/// an error the testkit has no class for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Class {
    /// The file decrypts (`success`).
    Success,
    /// The ASCII armor is malformed (`armor failure`).
    ArmorFailure,
    /// The header is malformed or unsupported (`header failure`).
    HeaderFailure,
    /// No identity opens any stanza (`no match`).
    NoMatch,
    /// The header MAC does not match (`HMAC failure`).
    HmacFailure,
    /// The payload is damaged or truncated (`payload failure`).
    PayloadFailure,
    /// An error outside the testkit's classes; never expected.
    Unclassified,
}

impl Class {
    /// The testkit's classes, those an `expect` key may name.
    pub const EXPECTED: [Class; 6] = [
        Class::Success,
        Class::ArmorFailure,
        Class::HeaderFailure,
        Class::NoMatch,
        Class::HmacFailure,
        Class::PayloadFailure,
    ];

    /// The class as the testkit writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            Class::Success => "success",
            Class::ArmorFailure => "armor failure",
            Class::HeaderFailure => "header failure",
            Class::NoMatch => "no match",
            Class::HmacFailure => "HMAC failure",
            Class::PayloadFailure => "payload failure",
            Class::Unclassified => "an error outside the testkit's classes",
        }
    }

    /// The class an `expect` key names.
    pub fn from_expect(expect: &str) -> Option<Class> {
        Class::EXPECTED.into_iter().find(|c| c.as_str() == expect)
    }

    /// The class of an error of this crate.
    pub fn of(error: &Error) -> Class {
        match error {
            Error::Armor(_) => Class::ArmorFailure,
            Error::Header(_)
            | Error::UnsupportedVersion(_)
            | Error::ScryptNotAlone
            | Error::WorkFactorTooLarge { .. } => Class::HeaderFailure,
            Error::NoMatch | Error::WrongPassphrase => Class::NoMatch,
            Error::HeaderMac => Class::HmacFailure,
            Error::Truncated
            | Error::Chunk(_)
            | Error::LastChunk(_)
            | Error::EmptyFinalChunk(_)
            | Error::TrailingData(_) => Class::PayloadFailure,
            _ => Class::Unclassified,
        }
    }
}

impl fmt::Display for Class {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A vector file that cannot be read as one: which, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Malformed {
    /// The vector's name.
    pub vector: String,
    /// What is wrong with it.
    pub reason: String,
}

impl fmt::Display for Malformed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "testkit vector {}: malformed: {}",
            self.vector, self.reason
        )
    }
}

impl std::error::Error for Malformed {}

/// How a vector's run differs from what it expects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The outcome is of another class.
    Class {
        /// The class the vector expects.
        expected: Class,
        /// The class of the outcome.
        got: Class,
        /// The error, when decryption failed.
        error: Option<String>,
    },
    /// The outcome has the expected class, but the plaintext released
    /// (failures included) is not the one whose SHA-256 the vector gives.
    Payload {
        /// The number of plaintext bytes released.
        released: usize,
    },
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Class {
                expected,
                got,
                error: Some(e),
            } => write!(f, "expected {expected}, got {got} ({e})"),
            Failure::Class { expected, got, .. } => write!(f, "expected {expected}, got {got}"),
            Failure::Payload { released } => write!(
                f,
                "released plaintext has the wrong hash ({released} bytes)"
            ),
        }
    }
}

impl std::error::Error for Failure {}

/// One vector: its header keys and its age file.
#[derive(Clone, Debug)]
pub struct Vector {
    /// The file's name.
    pub name: String,
    /// The outcome class it expects (`expect`).
    pub expect: Class,
    /// The SHA-256 of every plaintext byte decryption releases, failures
    /// included (`payload`), when the vector gives it.
    pub payload: Option<[u8; 32]>,
    /// The identities to try, in order (`identity`, one a key).
    pub identities: Vec<String>,
    /// The passphrases to try after them (`passphrase`).
    pub passphrases: Vec<String>,
    /// Whether the file is armored (`armored: yes`).
    pub armored: bool,
    /// The age file, decompressed where `compressed: zlib`.
    pub file: Vec<u8>,
}

impl Vector {
    /// Parses a vector file: `key: value` lines, an empty line, the age
    /// file. Keys other than `expect`, `payload`, `identity`,
    /// `passphrase`, `armored` and `compressed` (`file key`, `comment`) are
    /// ignored.
    ///
    /// # Errors
    ///
    /// [`Malformed`] when the keys do not end with an empty line, are not
    /// UTF-8, a line is not `key: value`, `expect` is missing or names no
    /// class of the testkit, `payload` is not 32 bytes of hex, `armored` is
    /// neither `yes` nor `no`, the compression is not zlib or its stream is
    /// broken.
    pub fn parse(name: &str, bytes: &[u8]) -> Result<Vector, Malformed> {
        let malformed = |reason: String| Malformed {
            vector: name.to_owned(),
            reason,
        };
        let split = bytes
            .windows(2)
            .position(|w| w == b"\n\n")
            .ok_or_else(|| malformed("no empty line after the keys".into()))?;
        let keys = std::str::from_utf8(&bytes[..split])
            .map_err(|e| malformed(format!("the keys are not UTF-8: {e}")))?;
        let mut file = bytes[split + 2..].to_vec();
        let mut expect = None;
        let mut v = Vector {
            name: name.to_owned(),
            expect: Class::Unclassified,
            payload: None,
            identities: vec![],
            passphrases: vec![],
            armored: false,
            file: vec![],
        };
        for line in keys.lines() {
            let (key, value) = line
                .split_once(": ")
                .ok_or_else(|| malformed(format!("{line:?} is not `key: value`")))?;
            match key {
                "expect" => {
                    expect = Some(Class::from_expect(value).ok_or_else(|| {
                        malformed(format!("expect: {value:?} is no class of the testkit"))
                    })?);
                }
                "payload" => {
                    v.payload =
                        Some(sha256_hex(value).ok_or_else(|| {
                            malformed(format!("payload: {value:?} is no SHA-256"))
                        })?);
                }
                "identity" => v.identities.push(value.into()),
                "passphrase" => v.passphrases.push(value.into()),
                "armored" => {
                    v.armored = match value {
                        "yes" => true,
                        "no" => false,
                        _ => return Err(malformed(format!("armored: {value:?}"))),
                    };
                }
                "compressed" => {
                    if value != "zlib" {
                        return Err(malformed(format!("compressed: {value:?}, not zlib")));
                    }
                    let mut out = Vec::new();
                    flate2::read::ZlibDecoder::new(&file[..])
                        .read_to_end(&mut out)
                        .map_err(|e| malformed(format!("the zlib stream: {e}")))?;
                    file = out;
                }
                _ => {}
            }
        }
        v.expect = expect.ok_or_else(|| malformed("no `expect` key".into()))?;
        v.file = file;
        Ok(v)
    }

    /// Decrypts the vector's file on `threads` with its identities, then
    /// its passphrases: the plaintext released (failures included) and
    /// the outcome.
    ///
    /// Armored vectors are read as armor (as the testkit's own harness
    /// does); the others through the detection the command line uses.
    pub fn run(&self, threads: Threads) -> (Vec<u8>, Result<(), Error>) {
        let mut out = Vec::new();
        let result = (|| {
            let input = BufReader::new(&self.file[..]);
            let reader = if self.armored {
                ArmoredReader::armored(input)
            } else {
                ArmoredReader::new(input)
            };
            let decryptor = Decryptor::new(reader)?;
            let ids: Vec<AnyIdentity> = self
                .identities
                .iter()
                .map(|s| s.parse())
                .collect::<Result<_, _>>()?;
            let pass: Vec<scrypt::Identity> = self
                .passphrases
                .iter()
                .map(|p| scrypt::Identity::new(p.as_bytes(), scrypt::DEFAULT_MAX_WORK_FACTOR))
                .collect();
            let all: Vec<&dyn Identity> = ids
                .iter()
                .map(|i| i as &dyn Identity)
                .chain(pass.iter().map(|p| p as &dyn Identity))
                .collect();
            let file_key = decryptor.file_key(&all)?;
            decryptor.decrypt(&file_key, &mut out, threads)?;
            Ok(())
        })();
        (out, result)
    }

    /// The testkit class of an outcome of [`Vector::run`].
    ///
    /// One alias: the testkit counts a payload cut inside its 16-byte nonce
    /// (the vectors whose name ends in `_nonce`) as a header failure, since
    /// Go age reads the nonce with the header; the nonce is the payload's,
    /// and this crate says the file is truncated.
    pub fn class_of(&self, result: &Result<(), Error>) -> Class {
        match result {
            Ok(()) => Class::Success,
            Err(Error::Truncated) if self.name.ends_with("_nonce") => Class::HeaderFailure,
            Err(e) => Class::of(e),
        }
    }

    /// Runs the vector on `threads` and checks its outcome: the class it
    /// expects (see [`Vector::class_of`] for the one alias) and, when it
    /// gives `payload`, the SHA-256 of every plaintext byte released.
    ///
    /// # Errors
    ///
    /// [`Failure`] saying what differs.
    pub fn check(&self, threads: Threads) -> Result<(), Failure> {
        let (out, result) = self.run(threads);
        let got = self.class_of(&result);
        if got != self.expect {
            return Err(Failure::Class {
                expected: self.expect,
                got,
                error: result.err().map(|e| format!("{e:?}")),
            });
        }
        match self.payload {
            Some(hash) if Sha256::digest(&out) != hash => Err(Failure::Payload {
                released: out.len(),
            }),
            _ => Ok(()),
        }
    }
}

/// Every embedded vector, parsed, in [`FILES`]' order.
pub fn vectors() -> impl Iterator<Item = Result<Vector, Malformed>> {
    FILES
        .iter()
        .map(|&(name, bytes)| Vector::parse(name, bytes))
}

/// 32 bytes from 64 hex digits.
fn sha256_hex(hex: &str) -> Option<[u8; 32]> {
    let digits = hex.as_bytes();
    if digits.len() != 64 || !digits.iter().all(u8::is_ascii_hexdigit) {
        return None;
    }
    let mut out = [0u8; 32];
    for (byte, pair) in out.iter_mut().zip(digits.chunks_exact(2)) {
        let pair = std::str::from_utf8(pair).ok()?;
        *byte = u8::from_str_radix(pair, 16).ok()?;
    }
    Some(out)
}

// The payload as c2sp.org/age's "Payload" section describes it, written
// out chunk by chunk: what the STREAM pipeline is checked against.

/// The payload key (c2sp.org/age, "Payload").
fn payload_aead(file_key: &FileKey, nonce: &[u8]) -> Option<ChaCha20Poly1305> {
    let mut key = [0u8; 32];
    hkdf_sha256(nonce, file_key.expose(), b"payload", &mut key).ok()?;
    Some(ChaCha20Poly1305::new(&key))
}

/// The nonce of chunk `counter`, the last one flagged.
fn chunk_nonce(counter: u64, last: bool) -> [u8; 12] {
    let mut n = [0u8; 12];
    n[3..11].copy_from_slice(&counter.to_be_bytes());
    n[11] = u8::from(last);
    n
}

/// The payload sealed as the specification says: the nonce, then the
/// chunks, the last one flagged (a single empty one for no plaintext).
pub fn reference_seal(file_key: &FileKey, nonce: [u8; NONCE_LEN], plain: &[u8]) -> Option<Vec<u8>> {
    let aead = payload_aead(file_key, &nonce)?;
    let mut out = nonce.to_vec();
    let mut chunks: Vec<&[u8]> = plain.chunks(CHUNK_LEN).collect();
    if chunks.is_empty() {
        chunks.push(&[]);
    }
    let last = chunks.len() - 1;
    for (i, chunk) in chunks.into_iter().enumerate() {
        out.extend(aead.encrypt(&chunk_nonce(i as u64, i == last), &[], chunk));
    }
    Some(out)
}

/// The payload opened as the specification says, chunk by chunk; `None`
/// for anything it refuses.
pub fn reference_open(file_key: &FileKey, payload: &[u8]) -> Option<Vec<u8>> {
    let (nonce, mut rest) = payload.split_at_checked(NONCE_LEN)?;
    let aead = payload_aead(file_key, nonce)?;
    let mut out = Vec::new();
    for counter in 0u64.. {
        let take = rest.len().min(SEALED_CHUNK_LEN);
        let last = take == rest.len();
        let plain = aead
            .decrypt(&chunk_nonce(counter, last), &[], &rest[..take])
            .ok()?;
        if last && plain.is_empty() && counter > 0 {
            return None;
        }
        out.extend_from_slice(&plain);
        rest = &rest[take..];
        if last {
            return Some(out);
        }
    }
    None
}
