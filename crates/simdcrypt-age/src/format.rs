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
/// Body bytes one full body line encodes.
const LINE_BYTES: usize = COLUMNS / 4 * 3;
/// The longest header line accepted: far above any native stanza (the
/// post-quantum argument line is 1,516 bytes), and a bound on what a hostile
/// file can make the reader buffer.
const MAX_LINE: usize = 1 << 16;
/// The most stanzas a header may hold, for the same reason.
pub const MAX_STANZAS: usize = 1 << 12;
/// The most recipient stanzas a file this crate writes carries: the most
/// Go age reads from 1.3.2 on (1.3.1 and rage read any number), so that
/// every file written opens in age; the reader takes up to
/// [`MAX_STANZAS`], for files others wrote.
pub const MAX_RECIPIENT_STANZAS: usize = 1 << 10;
/// The most arguments, tags included, all the stanzas of a header may hold
/// together: 8 a stanza on average at [`MAX_STANZAS`], where native stanzas
/// have 2 or 3. Each argument is held as a `String`, 24 bytes before its
/// text, so without this bound a header of one-character arguments would
/// cost a dozen times its length in memory.
pub const MAX_ARGS: usize = 1 << 15;
/// The longest header accepted, in bytes from the version line through the
/// MAC line: 8 MiB. The largest native stanza, the post-quantum one, takes
/// about 1.56 KB (its argument line and a 44-byte body), so a header of
/// [`MAX_STANZAS`] of them (6.4 MB) still fits, and a file this crate writes
/// for that many recipients reads back; an X25519 stanza takes 98 bytes.
/// Only a file that is not an age file, or a hostile one, comes near the
/// cap. The reader counts the bytes as it reads them: it reads at most one
/// byte past the cap, and holds one line and the decoded stanzas, not the
/// text.
pub const MAX_HEADER: usize = 8 << 20;

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
    /// Gives the stanza's canonical form to `out`, piece by piece: the
    /// argument line, then the body wrapped at 64 columns, which always ends
    /// with a line shorter than that, empty when the encoding fills its last
    /// line (a body of 0, 48, 96, … bytes).
    fn write_to(&self, out: &mut impl FnMut(&[u8])) {
        out(STANZA_PREFIX);
        out(self.tag.as_bytes());
        for arg in &self.args {
            out(b" ");
            out(arg.as_bytes());
        }
        out(b"\n");
        let mut line = String::with_capacity(COLUMNS + 1);
        let chunks = self.body.chunks_exact(LINE_BYTES);
        let last = chunks.remainder();
        for chunk in chunks.chain([last]) {
            line.clear();
            STANDARD_NO_PAD.encode_string(chunk, &mut line);
            line.push('\n');
            out(line.as_bytes());
        }
    }

    /// Writes the stanza in its canonical form, which is also how the age
    /// plugin protocol exchanges its messages (c2sp.org/age-plugin, "Wire
    /// format").
    ///
    /// # Errors
    ///
    /// [`Error::Io`] when writing fails.
    pub fn write(&self, output: &mut impl Write) -> Result<(), Error> {
        let mut result = Ok(());
        self.write_to(&mut |bytes| {
            if result.is_ok() {
                result = output.write_all(bytes);
            }
        });
        Ok(result?)
    }

    /// Reads one stanza as [`Header::read`] reads those of a header, to the
    /// same rules and limits: how the age plugin protocol reads its
    /// messages (c2sp.org/age-plugin, "Wire format").
    ///
    /// # Errors
    ///
    /// [`Error::Header`] naming the rule broken (the input ending included),
    /// [`Error::Io`] when reading fails.
    pub fn read(input: &mut impl BufRead) -> Result<Self, Error> {
        let mut lines = Lines {
            input,
            line: Vec::new(),
            read: 0,
            cut_short: "the stanza is cut short",
        };
        let args = lines
            .next()?
            .strip_prefix(STANZA_PREFIX)
            .ok_or_else(|| Error::header("expected a stanza (\"-> \")"))?;
        let (tag, args) = parse_args(args, &mut 0)?;
        let body = read_body(&mut lines)?;
        Ok(Stanza { tag, args, body })
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
///
/// The header's text is not kept: the grammar is enforced so strictly that
/// a parsed header's bytes are exactly the canonical serialization of its
/// stanzas, which the MAC and [`Header::write`] recompute from them.
#[derive(Clone, Debug)]
pub struct Header {
    stanzas: Vec<Stanza>,
    mac: [u8; 32],
}

/// Gives the canonical header text that the MAC covers, the version line
/// through `---`, to `out` piece by piece.
fn serialize(stanzas: &[Stanza], mut out: impl FnMut(&[u8])) {
    out(V1_LINE);
    for stanza in stanzas {
        stanza.write_to(&mut out);
    }
    out(MAC_PREFIX);
}

/// The HMAC-SHA-256 of the header (c2sp.org/age, "Header MAC"), keyed by
/// `HKDF-SHA-256(ikm = file key, salt = empty, info = "header")`, over the
/// header's canonical text, computed as it is serialized.
fn header_mac(file_key: &FileKey, stanzas: &[Stanza]) -> Result<[u8; 32], Error> {
    let mut key = Zeroizing::new([0u8; 32]);
    hkdf_sha256(&[], file_key.expose(), b"header", &mut *key)?;
    let mut mac = Hmac::<Sha256>::new(&*key);
    serialize(stanzas, |bytes| mac.update(bytes));
    Ok(mac.finalize())
}

impl Header {
    /// The header carrying `stanzas`, MACed under `file_key`.
    ///
    /// # Errors
    ///
    /// [`Error::Header`] when a stanza could not be read back (an argument
    /// that is empty or holds a character outside VCHAR).
    pub fn new(stanzas: Vec<Stanza>, file_key: &FileKey) -> Result<Self, Error> {
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
        }
        let mac = header_mac(file_key, &stanzas)?;
        Ok(Header { stanzas, mac })
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
        let expected = header_mac(file_key, &self.stanzas)?;
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
        let mut text = Vec::new();
        serialize(&self.stanzas, |bytes| text.extend_from_slice(bytes));
        text.push(b' ');
        text.extend_from_slice(b64_encode(&self.mac).as_bytes());
        text.push(b'\n');
        output.write_all(&text)?;
        Ok(())
    }

    /// Reads a header from `input`, leaving `input` at the first byte of
    /// the payload. Every rule of the ABNF is enforced, and the limits
    /// [`MAX_HEADER`], [`MAX_STANZAS`] and [`MAX_ARGS`]: at most
    /// [`MAX_HEADER`] + 1 bytes are read.
    ///
    /// # Errors
    ///
    /// [`Error::Header`] naming the rule broken, [`Error::UnsupportedVersion`],
    /// [`Error::Io`] when reading fails.
    pub fn read(input: &mut impl BufRead) -> Result<Self, Error> {
        let mut lines = Lines {
            input,
            line: Vec::new(),
            read: 0,
            cut_short: "the header ends before its MAC line (is the file truncated?)",
        };
        let version = lines.next()?;
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
        let mut arg_count = 0;
        loop {
            let line = lines.next()?;
            if let Some(args) = line.strip_prefix(STANZA_PREFIX) {
                if stanzas.len() == MAX_STANZAS {
                    return Err(Error::header(format!("more than {MAX_STANZAS} stanzas")));
                }
                let (tag, args) = parse_args(args, &mut arg_count)?;
                let body = read_body(&mut lines)?;
                stanzas.push(Stanza { tag, args, body });
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
                return Ok(Header { stanzas, mac });
            } else {
                return Err(Error::header(
                    "expected a stanza (\"-> \") or the MAC line (\"---\")",
                ));
            }
        }
    }
}

/// The header's lines, read one at a time into one reusable buffer and
/// counted against [`MAX_HEADER`].
struct Lines<'a, R> {
    input: &'a mut R,
    /// The current line, LF included.
    line: Vec<u8>,
    /// The header's bytes read so far, the current line's included.
    read: usize,
    /// What the error says when the input ends before a line does.
    cut_short: &'static str,
}

impl<R: BufRead> Lines<'_, R> {
    /// Reads the next line, LF included; returns it. Reads no further than
    /// one byte past [`MAX_HEADER`] or [`MAX_LINE`].
    fn next(&mut self) -> Result<&[u8], Error> {
        self.line.clear();
        let limit = MAX_LINE.min(MAX_HEADER + 1 - self.read);
        (&mut *self.input)
            .take(limit as u64)
            .read_until(b'\n', &mut self.line)?;
        self.read += self.line.len();
        if self.read > MAX_HEADER {
            return Err(Error::header(format!(
                "the header is longer than {MAX_HEADER} bytes: not an age file, or a hostile one"
            )));
        }
        if self.line.last() != Some(&b'\n') {
            return Err(if self.read == 0 {
                Error::header("the file is empty: not an age file")
            } else if self.line.len() == MAX_LINE {
                Error::header(format!("a header line is longer than {MAX_LINE} bytes"))
            } else {
                Error::header(self.cut_short)
            });
        }
        Ok(&self.line)
    }
}

/// The tag and the further arguments of an arg-line after `-> `:
/// `argument *(SP argument) LF`, `argument = 1*VCHAR`. `count` is the
/// number of arguments in the header so far, held to [`MAX_ARGS`].
fn parse_args(line: &[u8], count: &mut usize) -> Result<(String, Vec<String>), Error> {
    let line = &line[..line.len() - 1];
    let here = line.iter().filter(|&&b| b == b' ').count() + 1;
    *count += here;
    if *count > MAX_ARGS {
        return Err(Error::header(format!(
            "the stanzas hold more than {MAX_ARGS} arguments together"
        )));
    }
    let mut args = line.split(|&b| b == b' ').map(|arg| {
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
    });
    let tag = args.next().unwrap_or_else(|| Ok(String::new()))?;
    let mut rest = Vec::with_capacity(here - 1);
    for arg in args {
        rest.push(arg?);
    }
    Ok((tag, rest))
}

/// A stanza body: `*full-line final-line`, one canonical base64 string.
/// Each full line is 16 whole base64 quantums, so the string is decoded a
/// line at a time: only the final line can be non-canonical.
fn read_body(lines: &mut Lines<'_, impl BufRead>) -> Result<Vec<u8>, Error> {
    let mut body = Vec::new();
    loop {
        let left = MAX_HEADER - lines.read;
        let line = lines.next()?;
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
        if body.capacity() - body.len() < LINE_BYTES {
            // Doubling, but never past what the header's bytes left under
            // the cap could decode to (3 for every 4, and room for this
            // line's 48): however long the body, its buffer stays under
            // 3/4 of the cap.
            let most = LINE_BYTES + left / 4 * 3;
            body.reserve_exact(body.capacity().max(LINE_BYTES).min(most));
        }
        STANDARD_NO_PAD
            .decode_vec(chars, &mut body)
            .map_err(|_| Error::header("a stanza body is not canonical base64"))?;
        if chars.len() < COLUMNS {
            // Held without the slack of its growth.
            body.shrink_to_fit();
            return Ok(body);
        }
    }
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
