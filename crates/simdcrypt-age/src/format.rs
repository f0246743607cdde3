//! The textual header of an age file (c2sp.org/age, "Header"): the version
//! line, the recipient stanzas and the header MAC, parsed to the letter of
//! the specification's ABNF and written in its one canonical form.

use std::io::{BufRead, Read, Write};

use base64::Engine;
use base64::engine::general_purpose::STANDARD_NO_PAD;
use simdcrypt::hash::Sha256;
use simdcrypt::hmac::Hmac;
use simdcrypt::kdf::hkdf_sha256;
use subtle::ConstantTimeEq;
use zeroize::Zeroizing;

use crate::{Error, FileKey};

/// The version line's prefix; what follows names the version.
const VERSION_PREFIX: &[u8] = b"age-encryption.org/";
/// The one version this crate reads and writes.
const V1_LINE: &[u8] = b"age-encryption.org/v1\n";
/// The start of a stanza's argument line.
const STANZA_PREFIX: &[u8] = b"-> ";
/// The start of the MAC line; the MAC covers the header up to and including
/// it.
const MAC_PREFIX: &[u8] = b"---";
/// Base64 characters in a full body line ("full-line = 64base64char LF").
pub const COLUMNS: usize = 64;
/// The longest header line accepted: far above any native stanza (the
/// post-quantum argument line is 1,516 bytes), and a bound on what a hostile
/// file can make the reader buffer.
const MAX_LINE: u64 = 1 << 16;
/// The most stanzas a header may hold, for the same reason.
const MAX_STANZAS: usize = 1 << 12;

/// The canonical, unpadded base64 of c2sp.org/age ("Conventions").
pub fn b64_encode(bytes: &[u8]) -> String {
    STANDARD_NO_PAD.encode(bytes)
}

/// Decodes canonical unpadded base64: padding, stray characters and
/// non-zero trailing bits are refused ("decoders MUST reject non-canonical
/// encodings").
pub fn b64_decode(text: &[u8]) -> Option<Vec<u8>> {
    STANDARD_NO_PAD.decode(text).ok()
}

/// One recipient stanza (c2sp.org/age, "Recipient stanza"): `-> ` then
/// space-separated arguments, then a base64 body wrapped at 64 columns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stanza {
    /// The first argument, naming the recipient type (`X25519`, `scrypt`,
    /// `mlkem768x25519`, …).
    pub tag: String,
    /// The arguments after the first.
    pub args: Vec<String>,
    /// The decoded body.
    pub body: Vec<u8>,
}

impl Stanza {
    /// Writes the stanza in its canonical form.
    fn write_to(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(STANZA_PREFIX);
        out.extend_from_slice(self.tag.as_bytes());
        for arg in &self.args {
            out.push(b' ');
            out.extend_from_slice(arg.as_bytes());
        }
        out.push(b'\n');
        let body = b64_encode(&self.body);
        let mut lines = body.as_bytes().chunks(COLUMNS);
        // The body always ends with a line shorter than 64 columns, empty
        // when the encoding fills its last line.
        loop {
            let line = lines.next().unwrap_or_default();
            out.extend_from_slice(line);
            out.push(b'\n');
            if line.len() < COLUMNS {
                break;
            }
        }
    }

    /// Checks that the stanza has exactly `count` arguments after its tag,
    /// for the identity implementations' "MUST reject any stanza that has
    /// more or less than N arguments".
    pub fn expect_args(&self, count: usize) -> Result<(), Error> {
        if self.args.len() == count {
            Ok(())
        } else {
            Err(Error::header(format!(
                "{} stanza has {} arguments, expected {}",
                self.tag,
                self.args.len() + 1,
                count + 1
            )))
        }
    }

    /// Argument `index` (after the tag) as canonical base64 of exactly `N`
    /// bytes.
    pub fn arg_bytes<const N: usize>(&self, index: usize, what: &str) -> Result<[u8; N], Error> {
        self.args
            .get(index)
            .and_then(|arg| b64_decode(arg.as_bytes()))
            .and_then(|bytes| bytes.try_into().ok())
            .ok_or_else(|| {
                Error::header(format!(
                    "{} stanza's {what} is not canonical base64 of {N} bytes",
                    self.tag
                ))
            })
    }

    /// The body as exactly `N` bytes ("MUST check that the body length is
    /// exactly 32 bytes before attempting to decrypt it").
    pub fn body_bytes<const N: usize>(&self) -> Result<&[u8; N], Error> {
        self.body.as_slice().try_into().map_err(|_| {
            Error::header(format!(
                "{} stanza's body is {} bytes, expected {N}",
                self.tag,
                self.body.len()
            ))
        })
    }
}

/// A parsed or freshly made header: its stanzas and its MAC.
#[derive(Clone, Debug)]
pub struct Header {
    stanzas: Vec<Stanza>,
    /// The header's bytes up to and including `---`: what the MAC covers.
    /// For a parsed header these are the bytes as read, which the strict
    /// grammar makes equal to the canonical encoding.
    maced: Vec<u8>,
    mac: [u8; 32],
}

/// The HMAC-SHA-256 of the header (c2sp.org/age, "Header MAC"), keyed by
/// `HKDF-SHA-256(ikm = file key, salt = empty, info = "header")`.
fn header_mac(file_key: &FileKey, maced: &[u8]) -> Result<[u8; 32], Error> {
    let mut key = Zeroizing::new([0u8; 32]);
    hkdf_sha256(&[], file_key.expose(), b"header", &mut *key)?;
    Ok(Hmac::<Sha256>::mac(&*key, maced))
}

impl Header {
    /// The header carrying `stanzas`, MACed under `file_key`.
    ///
    /// # Errors
    ///
    /// [`Error::Header`] when a stanza could not be read back (an argument
    /// that is empty or holds a character outside VCHAR).
    pub fn new(stanzas: Vec<Stanza>, file_key: &FileKey) -> Result<Self, Error> {
        let mut maced = V1_LINE.to_vec();
        for stanza in &stanzas {
            let well_formed = std::iter::once(&stanza.tag)
                .chain(&stanza.args)
                .all(|arg| !arg.is_empty() && arg.bytes().all(|b| b.is_ascii_graphic()));
            if !well_formed {
                return Err(Error::header(format!(
                    "stanza argument {:?} is not printable ASCII",
                    stanza.tag
                )));
            }
            stanza.write_to(&mut maced);
        }
        maced.extend_from_slice(MAC_PREFIX);
        let mac = header_mac(file_key, &maced)?;
        Ok(Header {
            stanzas,
            maced,
            mac,
        })
    }

    /// The recipient stanzas, in file order.
    pub fn stanzas(&self) -> &[Stanza] {
        &self.stanzas
    }

    /// Checks the header MAC under `file_key`, in constant time.
    ///
    /// # Errors
    ///
    /// [`Error::HeaderMac`] when it does not match.
    pub fn verify_mac(&self, file_key: &FileKey) -> Result<(), Error> {
        let expected = header_mac(file_key, &self.maced)?;
        if bool::from(expected.ct_eq(&self.mac)) {
            Ok(())
        } else {
            Err(Error::HeaderMac)
        }
    }

    /// Writes the header, MAC line included.
    ///
    /// # Errors
    ///
    /// [`Error::Io`] when writing fails.
    pub fn write(&self, output: &mut impl Write) -> Result<(), Error> {
        let mut text = self.maced.clone();
        text.push(b' ');
        text.extend_from_slice(b64_encode(&self.mac).as_bytes());
        text.push(b'\n');
        output.write_all(&text)?;
        Ok(())
    }

    /// Reads a header from `input`, leaving `input` at the first byte of
    /// the payload. Every rule of the ABNF is enforced.
    ///
    /// # Errors
    ///
    /// [`Error::Header`] naming the rule broken, [`Error::UnsupportedVersion`],
    /// [`Error::Io`] when reading fails.
    pub fn read(input: &mut impl BufRead) -> Result<Self, Error> {
        let mut maced = Vec::new();
        let version = read_line(input, &mut maced)?;
        if version != V1_LINE {
            return Err(match version.strip_prefix(VERSION_PREFIX) {
                Some(b"v1\r\n") => Error::header(
                    "the header has CRLF line endings: was the file converted as text?",
                ),
                Some(v) if !v.is_empty() => {
                    Error::UnsupportedVersion(String::from_utf8_lossy(v).trim_end().to_owned())
                }
                _ => Error::header(
                    "the file does not start with the age version line (is it an age file?)",
                ),
            });
        }
        let mut stanzas = Vec::new();
        loop {
            let start = maced.len();
            let line = read_line(input, &mut maced)?;
            if let Some(args) = line.strip_prefix(STANZA_PREFIX) {
                if stanzas.len() == MAX_STANZAS {
                    return Err(Error::header(format!("more than {MAX_STANZAS} stanzas")));
                }
                let args = parse_args(args)?;
                let body = read_body(input, &mut maced)?;
                let mut args = args.into_iter();
                let tag = args.next().unwrap_or_default();
                stanzas.push(Stanza {
                    tag,
                    args: args.collect(),
                    body,
                });
            } else if let Some(rest) = line.strip_prefix(MAC_PREFIX) {
                if stanzas.is_empty() {
                    return Err(Error::header("no recipient stanza"));
                }
                let mac = rest
                    .strip_prefix(b" ")
                    .and_then(|m| m.strip_suffix(b"\n"))
                    .filter(|m| m.len() == 43)
                    .and_then(b64_decode)
                    .and_then(|m| <[u8; 32]>::try_from(m).ok())
                    .ok_or_else(|| {
                        Error::header(
                            "the MAC line is not \"--- \" and 43 characters of canonical base64",
                        )
                    })?;
                maced.truncate(start + MAC_PREFIX.len());
                return Ok(Header {
                    stanzas,
                    maced,
                    mac,
                });
            } else {
                return Err(Error::header(
                    "expected a stanza (\"-> \") or the MAC line (\"---\")",
                ));
            }
        }
    }
}

/// Reads one line, LF included, appending it to `maced`; returns it.
fn read_line<'a>(input: &mut impl BufRead, maced: &'a mut Vec<u8>) -> Result<&'a [u8], Error> {
    let start = maced.len();
    input.take(MAX_LINE).read_until(b'\n', maced)?;
    let line = &maced[start..];
    if line.last() != Some(&b'\n') {
        return Err(if line.len() as u64 == MAX_LINE {
            Error::header(format!("a header line is longer than {MAX_LINE} bytes"))
        } else {
            Error::header("the header ends before its MAC line (is the file truncated?)")
        });
    }
    Ok(line)
}

/// The arguments of an arg-line after `-> `:
/// `argument *(SP argument) LF`, `argument = 1*VCHAR`.
fn parse_args(line: &[u8]) -> Result<Vec<String>, Error> {
    let line = &line[..line.len() - 1];
    line.split(|&b| b == b' ')
        .map(|arg| {
            if arg.is_empty() {
                Err(Error::header(
                    "a stanza argument is empty (two spaces, or a space at the end)",
                ))
            } else if !arg.iter().all(u8::is_ascii_graphic) {
                Err(Error::header(
                    "a stanza argument holds a character outside printable ASCII",
                ))
            } else {
                Ok(String::from_utf8_lossy(arg).into_owned())
            }
        })
        .collect()
}

/// A stanza body: `*full-line final-line`, decoded as one canonical base64
/// string.
fn read_body(input: &mut impl BufRead, maced: &mut Vec<u8>) -> Result<Vec<u8>, Error> {
    let mut text = Vec::new();
    loop {
        let line = read_line(input, maced)?;
        let chars = &line[..line.len() - 1];
        if chars.len() > COLUMNS {
            return Err(Error::header(format!(
                "a stanza body line is longer than {COLUMNS} columns"
            )));
        }
        if !chars
            .iter()
            .all(|&b| b.is_ascii_alphanumeric() || b == b'+' || b == b'/')
        {
            return Err(Error::header(
                "a stanza body line holds a character outside base64",
            ));
        }
        text.extend_from_slice(chars);
        if chars.len() < COLUMNS {
            break;
        }
    }
    b64_decode(&text).ok_or_else(|| Error::header("a stanza body is not canonical base64"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stanza(body_len: usize) -> Stanza {
        Stanza {
            tag: "test".into(),
            args: vec!["a".into(), "b+/=".into()],
            body: vec![7; body_len],
        }
    }

    #[test]
    fn round_trip_every_body_length_around_the_line_width() {
        let key = FileKey::from_bytes([1; 16]);
        for len in 0..200 {
            let header = Header::new(vec![stanza(len), stanza(len / 2)], &key).unwrap();
            let mut text = Vec::new();
            header.write(&mut text).unwrap();
            text.extend_from_slice(b"payload");
            let mut input = &text[..];
            let parsed = Header::read(&mut input).unwrap();
            assert_eq!(parsed.stanzas(), header.stanzas(), "body length {len}");
            assert_eq!(input, b"payload");
            parsed.verify_mac(&key).unwrap();
            assert!(matches!(
                parsed.verify_mac(&FileKey::from_bytes([2; 16])),
                Err(Error::HeaderMac)
            ));
        }
    }

    #[test]
    fn a_full_last_line_is_followed_by_an_empty_one() {
        let key = FileKey::from_bytes([1; 16]);
        let mut text = Vec::new();
        Header::new(vec![stanza(48)], &key)
            .unwrap()
            .write(&mut text)
            .unwrap();
        let text = String::from_utf8(text).unwrap();
        let lines: Vec<_> = text.lines().collect();
        assert_eq!(lines[2].len(), 64);
        assert_eq!(lines[3], "");
        assert!(lines[4].starts_with("--- "));
    }
}
