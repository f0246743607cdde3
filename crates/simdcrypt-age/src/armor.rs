//! ASCII armor (c2sp.org/age, "ASCII armor"): the strict PEM encoding of
//! RFC 7468, Section 3 (Figure 3), with the case-sensitive label
//! `AGE ENCRYPTED FILE`, standard base64 *with* `=` padding, and lines of
//! exactly 64 columns but the last.
//!
//! [`ArmoredReader`] tells an armored file from a binary one and decodes the
//! former as it streams. It refuses every non-canonical encoding, as the
//! specification asks ("age implementations SHOULD reject non-canonical
//! ASCII armor encodings except for whitespace before and after the PEM
//! block"): no headers, no empty or short lines but the last, no whitespace
//! inside the block, padding only at the very end, zero trailing bits. LF
//! and CRLF line endings are both accepted ("MAY choose to accept both").
//! [`ArmoredWriter`] writes the one canonical form, with LF. Both hold a
//! batch of at most a few dozen KiB, whatever the size of the file.
//!
//! ```
//! use simdcrypt_age::armor::{ArmoredWriter, BEGIN};
//! use simdcrypt_age::{decrypt, encrypt, x25519};
//!
//! let identity = x25519::Identity::generate()?;
//! let mut armored = ArmoredWriter::new(Vec::new());
//! encrypt(&[&identity.to_public()], &b"attack at dawn"[..], &mut armored)?;
//! let text = String::from_utf8(armored.finish()?).expect("base64");
//! assert!(text.starts_with(BEGIN));
//!
//! // decrypt tells armor from binary by itself.
//! let mut opened = Vec::new();
//! decrypt(&[&identity], text.as_bytes(), &mut opened)?;
//! assert_eq!(opened, b"attack at dawn");
//! # Ok::<(), simdcrypt_age::Error>(())
//! ```

use std::io::{self, BufRead, Read, Write};

use base64::Engine;
use base64::engine::general_purpose::STANDARD;

use crate::Error;
use crate::format::COLUMNS;

/// The PEM pre-encapsulation boundary (RFC 7468, Section 2) of an armored
/// age file.
pub const BEGIN: &str = "-----BEGIN AGE ENCRYPTED FILE-----";
/// The PEM post-encapsulation boundary of an armored age file.
pub const END: &str = "-----END AGE ENCRYPTED FILE-----";
/// Bytes one full line of 64 base64 columns encodes.
const LINE_BYTES: usize = COLUMNS / 4 * 3;
/// The most whitespace accepted before the BEGIN line or after the END line
/// (1 KiB, as Go age): bounds what a hostile file makes the reader consume.
const MAX_WHITESPACE: usize = 1024;
/// The longest line the reader buffers: a full line with CRLF fits, with
/// room to quote an overlong line in an error.
const MAX_LINE: usize = 80;
/// Whole lines the reader decodes, and the writer encodes, per batch.
const BATCH_LINES: usize = 1024;
/// Bytes per batch: 48 KiB.
const BATCH_BYTES: usize = BATCH_LINES * LINE_BYTES;

/// Malformed armor as an `io::Error`, so that it travels through `Read`;
/// `From<io::Error> for Error` turns it back into [`Error::Armor`].
fn armor_error(reason: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, Error::Armor(reason))
}

/// `input.fill_buf()`, retried when interrupted.
fn fill<R: BufRead>(input: &mut R) -> io::Result<&[u8]> {
    loop {
        match input.fill_buf() {
            Ok([]) => return Ok(&[]),
            Ok(_) => return input.fill_buf(),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

/// Where an [`ArmoredReader`] stands.
enum State {
    /// Nothing read yet: binary or armored is still to be told.
    Start,
    /// A binary file: the whitespace read while telling is replayed, then
    /// the input passes through unchanged.
    Binary,
    /// Inside the PEM block, after the BEGIN line and full lines only.
    Body,
    /// After the END line and the whitespace that may follow it.
    Done,
    /// The armor is malformed: every further read fails with this reason.
    Failed(String),
}

/// Reads an age file that may be armored (c2sp.org/age, "ASCII armor"),
/// giving the binary age file either way.
///
/// [`ArmoredReader::new`] tells the two forms apart as age's command line
/// does: a file whose first byte after any leading whitespace (space, tab,
/// CR, LF) is `-`, the start of a PEM boundary, is armor; anything else
/// passes through unchanged, whitespace included, for the header parser to
/// judge. [`ArmoredReader::armored`] takes armor only. The PEM block is the
/// BEGIN line at the start of a line, data lines, the END line, and at most
/// 1 KiB of whitespace on either side. Malformed armor is an `io::Error` of kind `InvalidData`
/// carrying [`Error::Armor`], which `?` into [`Error`] unwraps; the bytes
/// decoded before it are given first.
pub struct ArmoredReader<R> {
    input: R,
    /// Whether a binary file passes through.
    detect: bool,
    state: State,
    /// Bytes ready to be read: decoded lines, or the replayed whitespace
    /// of a binary file.
    ready: Vec<u8>,
    /// How far `ready` has been read.
    pos: usize,
    /// The error found after the bytes in `ready`, reported once they are
    /// read.
    pending: Option<io::Error>,
    /// The current armor line, without its LF or CRLF.
    line: Vec<u8>,
    /// The number of the current line in the file, for errors.
    line_no: u64,
}

impl<R: BufRead> ArmoredReader<R> {
    /// Wraps `input`, armored or binary; nothing is read before the first
    /// read.
    pub fn new(input: R) -> Self {
        Self::with_detection(input, true)
    }

    /// Wraps `input`, which must be armored.
    pub fn armored(input: R) -> Self {
        Self::with_detection(input, false)
    }

    fn with_detection(input: R, detect: bool) -> Self {
        ArmoredReader {
            input,
            detect,
            state: State::Start,
            ready: Vec::new(),
            pos: 0,
            pending: None,
            line: Vec::with_capacity(MAX_LINE + 1),
            line_no: 0,
        }
    }

    /// Refills the drained `ready`: tells binary from armor on the first
    /// call, decodes the next batch of lines on the later ones.
    fn refill(&mut self) -> io::Result<()> {
        if let Some(error) = self.pending.take() {
            return Err(error);
        }
        self.ready.clear();
        self.pos = 0;
        let outcome = match &self.state {
            State::Start => self.start(),
            State::Body => self.decode_lines(),
            State::Failed(reason) => Err(armor_error(reason.clone())),
            State::Binary | State::Done => Ok(()),
        };
        outcome.or_else(|error| {
            self.state = State::Failed(match error.get_ref().and_then(|e| e.downcast_ref()) {
                Some(Error::Armor(reason)) => reason.clone(),
                _ => format!("reading the armored file failed: {error}"),
            });
            if self.ready.is_empty() {
                Err(error)
            } else {
                self.pending = Some(error);
                Ok(())
            }
        })
    }

    /// Skips leading whitespace, then tells a binary file from an armored
    /// one and, for the latter, checks the BEGIN line and decodes a batch.
    fn start(&mut self) -> io::Result<()> {
        let mut space = Vec::new();
        loop {
            let avail = fill(&mut self.input)?;
            let n = avail
                .iter()
                .take_while(|b| b.is_ascii_whitespace())
                .count()
                .min(MAX_WHITESPACE + 1 - space.len());
            let done = avail.is_empty() || n < avail.len();
            space.extend_from_slice(&avail[..n]);
            self.input.consume(n);
            if space.len() > MAX_WHITESPACE {
                return Err(armor_error(format!(
                    "more than {MAX_WHITESPACE} bytes of whitespace before the BEGIN line"
                )));
            }
            if done {
                break;
            }
        }
        if self.detect && fill(&mut self.input)?.first() != Some(&b'-') {
            self.ready = space;
            self.state = State::Binary;
            return Ok(());
        }
        self.line_no = space.iter().filter(|&&b| b == b'\n').count() as u64;
        if space.last().is_some_and(|&b| b != b'\n') {
            return Err(armor_error(format!(
                "line {} starts with whitespace: the BEGIN line must start the line",
                self.line_no + 1
            )));
        }
        self.read_line()?;
        if self.line != BEGIN.as_bytes() {
            let found = String::from_utf8_lossy(&self.line);
            return Err(armor_error(if self.line.starts_with(b"-----") {
                let case = if self.line.eq_ignore_ascii_case(BEGIN.as_bytes()) {
                    " (the label is case-sensitive)"
                } else {
                    ""
                };
                format!(
                    "line {} is {found:?}, expected {BEGIN:?}{case}",
                    self.line_no
                )
            } else {
                format!(
                    "the file is neither a binary age file (which starts with \
                     \"age-encryption.org/\") nor armored: line {} is {found:?}, expected {BEGIN:?}",
                    self.line_no
                )
            }));
        }
        self.state = State::Body;
        self.decode_lines()
    }

    /// Reads the next line into `line`, without its LF or CRLF; stops after
    /// `MAX_LINE + 1` bytes so that an overlong line costs no memory.
    /// Returns `false` at the end of input with nothing read.
    fn read_line(&mut self) -> io::Result<bool> {
        self.line.clear();
        self.line_no += 1;
        loop {
            let avail = fill(&mut self.input)?;
            if avail.is_empty() {
                if self.line.is_empty() {
                    return Ok(false);
                }
                break;
            }
            let avail = &avail[..avail.len().min(MAX_LINE + 1 - self.line.len())];
            if let Some(i) = avail.iter().position(|&b| b == b'\n') {
                self.line.extend_from_slice(&avail[..i]);
                self.input.consume(i + 1);
                break;
            }
            let n = avail.len();
            self.line.extend_from_slice(avail);
            self.input.consume(n);
            if self.line.len() > MAX_LINE {
                break;
            }
        }
        if self.line.last() == Some(&b'\r') {
            self.line.pop();
        }
        Ok(true)
    }

    /// Decodes data lines into `ready` until a batch is full or the END
    /// line closes the block.
    fn decode_lines(&mut self) -> io::Result<()> {
        while self.ready.len() < BATCH_BYTES {
            if !self.read_line()? {
                return Err(armor_error(format!(
                    "the file ends after line {} without the END line {END:?}",
                    self.line_no - 1
                )));
            }
            if self.line == END.as_bytes() {
                return self.end();
            }
            let no = self.line_no;
            if self.line.is_empty() {
                return Err(armor_error(format!(
                    "line {no} is empty: no headers or blank lines may sit inside the block"
                )));
            }
            if self.line.len() > COLUMNS {
                return Err(armor_error(format!(
                    "line {no} is longer than {COLUMNS} columns"
                )));
            }
            let before = self.ready.len();
            if let Err(e) = STANDARD.decode_vec(&self.line, &mut self.ready) {
                self.ready.truncate(before);
                return Err(armor_error(format!(
                    "line {no} is not canonical padded base64 ({e})"
                )));
            }
            if self.ready.len() - before < LINE_BYTES {
                // A short or padded line is the last: the END line follows.
                if !self.read_line()? {
                    return Err(armor_error(format!(
                        "the file ends after line {no} without the END line {END:?}"
                    )));
                }
                if self.line != END.as_bytes() {
                    return Err(armor_error(format!(
                        "line {} is {:?}, expected the END line {END:?} after the short line {no}",
                        self.line_no,
                        String::from_utf8_lossy(&self.line)
                    )));
                }
                return self.end();
            }
        }
        Ok(())
    }

    /// After the END line: only whitespace, at most 1 KiB of it, may
    /// follow.
    fn end(&mut self) -> io::Result<()> {
        let mut seen = 0;
        loop {
            let avail = fill(&mut self.input)?;
            if avail.is_empty() {
                break;
            }
            let avail = &avail[..avail.len().min(MAX_WHITESPACE + 1 - seen)];
            if !avail.iter().all(u8::is_ascii_whitespace) {
                return Err(armor_error(format!(
                    "data follows the END line (line {})",
                    self.line_no
                )));
            }
            seen += avail.len();
            let n = avail.len();
            self.input.consume(n);
            if seen > MAX_WHITESPACE {
                return Err(armor_error(format!(
                    "more than {MAX_WHITESPACE} bytes of whitespace after the END line"
                )));
            }
        }
        self.state = State::Done;
        Ok(())
    }
}

impl<R: BufRead> Read for ArmoredReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.pos == self.ready.len() && matches!(self.state, State::Binary) {
            return self.input.read(buf);
        }
        let avail = self.fill_buf()?;
        let n = avail.len().min(buf.len());
        buf[..n].copy_from_slice(&avail[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for ArmoredReader<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.pos == self.ready.len() {
            self.refill()?;
        }
        match self.ready.get(self.pos..) {
            Some(rest) if !rest.is_empty() => Ok(rest),
            _ if matches!(self.state, State::Binary) => self.input.fill_buf(),
            _ => Ok(&[]),
        }
    }

    fn consume(&mut self, amt: usize) {
        if self.pos < self.ready.len() {
            self.pos = (self.pos + amt).min(self.ready.len());
        } else if matches!(self.state, State::Binary) {
            self.input.consume(amt);
        }
    }
}

/// Writes an armored age file (c2sp.org/age, "ASCII armor") in its one
/// canonical form: the BEGIN line, 64-column lines of padded base64, the
/// END line, each ending in LF.
///
/// Input is encoded in batches of 48 KiB (1,024 lines). Call
/// [`ArmoredWriter::finish`] at the end: it writes the last line and the
/// END line, which dropping the writer does not.
pub struct ArmoredWriter<W: Write> {
    output: W,
    /// Whether the BEGIN line has been written.
    begun: bool,
    /// Bytes not yet encoded: at most a batch.
    pending: Vec<u8>,
    /// The encoded batch being written.
    text: String,
}

impl<W: Write> ArmoredWriter<W> {
    /// Armors to `output`; the BEGIN line goes out with the first batch.
    pub fn new(output: W) -> Self {
        ArmoredWriter {
            output,
            begun: false,
            pending: Vec::with_capacity(BATCH_BYTES),
            text: String::new(),
        }
    }

    /// Writes the pending whole lines, and with `last` the final partial
    /// line and the END line, after the BEGIN line if it is still due.
    fn write_lines(&mut self, last: bool) -> io::Result<()> {
        self.text.clear();
        if !self.begun {
            self.text.push_str(BEGIN);
            self.text.push('\n');
        }
        let whole = if last {
            self.pending.len()
        } else {
            self.pending.len() / LINE_BYTES * LINE_BYTES
        };
        for line in self.pending[..whole].chunks(LINE_BYTES) {
            STANDARD.encode_string(line, &mut self.text);
            self.text.push('\n');
        }
        if last {
            self.text.push_str(END);
            self.text.push('\n');
        }
        self.output.write_all(self.text.as_bytes())?;
        self.begun = true;
        self.pending.drain(..whole);
        Ok(())
    }

    /// Writes the last line, padded, and the END line; returns the output,
    /// flushed.
    ///
    /// # Errors
    ///
    /// When writing to the output fails.
    pub fn finish(mut self) -> io::Result<W> {
        self.write_lines(true)?;
        self.output.flush()?;
        Ok(self.output)
    }
}

impl<W: Write> Write for ArmoredWriter<W> {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        if self.pending.len() >= BATCH_BYTES {
            self.write_lines(false)?;
        }
        let n = data.len().min(BATCH_BYTES - self.pending.len());
        self.pending.extend_from_slice(&data[..n]);
        Ok(n)
    }

    /// Flushes the output. The pending partial line stays pending: a line
    /// may end short only at the end of the file.
    fn flush(&mut self) -> io::Result<()> {
        self.output.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use simdcrypt_testsupport::bytes;

    fn armor(data: &[u8]) -> Vec<u8> {
        let mut writer = ArmoredWriter::new(Vec::new());
        writer.write_all(data).unwrap();
        writer.finish().unwrap()
    }

    fn dearmor(text: &[u8]) -> Result<Vec<u8>, Error> {
        let mut out = Vec::new();
        ArmoredReader::new(text).read_to_end(&mut out)?;
        Ok(out)
    }

    fn dearmor_only(text: &[u8]) -> Result<Vec<u8>, Error> {
        let mut out = Vec::new();
        ArmoredReader::armored(text).read_to_end(&mut out)?;
        Ok(out)
    }

    /// The canonical form, built independently: padded base64 of the whole,
    /// cut at 64 columns.
    fn expected(data: &[u8]) -> Vec<u8> {
        let b64 = STANDARD.encode(data);
        let mut text = format!("{BEGIN}\n");
        for line in b64.as_bytes().chunks(COLUMNS) {
            text.push_str(std::str::from_utf8(line).unwrap());
            text.push('\n');
        }
        text.push_str(END);
        text.push('\n');
        text.into_bytes()
    }

    fn reason(result: Result<Vec<u8>, Error>) -> String {
        match result {
            Err(Error::Armor(reason)) => reason,
            other => panic!("expected an armor error, got {other:?}"),
        }
    }

    #[test]
    fn round_trip_every_short_length_and_a_few_long_ones() {
        let long = [
            BATCH_BYTES - 1,
            BATCH_BYTES,
            BATCH_BYTES + 1,
            3 * BATCH_BYTES + 17,
        ];
        for len in (0..=200).chain(long).chain([1 << 20]) {
            let data = bytes(len as u64, len);
            let text = armor(&data);
            assert_eq!(text, expected(&data), "length {len}");
            assert_eq!(dearmor(&text).unwrap(), data, "length {len}");
        }
    }

    #[test]
    fn writes_in_small_pieces_like_in_one() {
        let data = bytes(7, BATCH_BYTES * 2 + 100);
        let mut writer = ArmoredWriter::new(Vec::new());
        for piece in data.chunks(1000) {
            writer.write_all(piece).unwrap();
        }
        assert_eq!(writer.finish().unwrap(), expected(&data));
    }

    #[test]
    fn reads_one_byte_at_a_time() {
        let data = bytes(3, 5000);
        let text = armor(&data);
        let mut reader = ArmoredReader::new(io::BufReader::with_capacity(1, &text[..]));
        let mut out = Vec::new();
        let mut byte = [0u8];
        while reader.read(&mut byte).unwrap() == 1 {
            out.push(byte[0]);
        }
        assert_eq!(out, data);
    }

    #[test]
    fn binary_input_passes_through_with_its_whitespace() {
        for input in [
            &b""[..],
            b"age-encryption.org/v1\n\x00\xff",
            b" \n\t",
            b"\n age",
        ] {
            assert_eq!(dearmor(input).unwrap(), input);
            let mut reader = ArmoredReader::new(input);
            let mut out = Vec::new();
            loop {
                let avail = reader.fill_buf().unwrap();
                if avail.is_empty() {
                    break;
                }
                let n = avail.len().min(2);
                out.extend_from_slice(&avail[..n]);
                reader.consume(n);
            }
            assert_eq!(out, input);
        }
    }

    #[test]
    fn crlf_and_surrounding_whitespace_are_accepted() {
        let data = bytes(5, 100);
        let text = String::from_utf8(armor(&data)).unwrap();
        let crlf = text.replace('\n', "\r\n");
        assert_eq!(dearmor(crlf.as_bytes()).unwrap(), data);
        let spaced = format!(" \t\r\n\n{text}\r\n \t\n");
        assert_eq!(dearmor(spaced.as_bytes()).unwrap(), data);
        let no_eol = text.trim_end();
        assert_eq!(dearmor(no_eol.as_bytes()).unwrap(), data);
    }

    #[test]
    fn whitespace_and_lines_are_bounded() {
        let text = String::from_utf8(armor(b"hello")).unwrap();
        let leading = format!("{}{text}", "\n".repeat(MAX_WHITESPACE + 1));
        assert!(reason(dearmor(leading.as_bytes())).contains("before the BEGIN"));
        let trailing = format!("{text}{}", " ".repeat(MAX_WHITESPACE + 1));
        assert!(reason(dearmor(trailing.as_bytes())).contains("after the END"));
        let long = format!("{BEGIN}\n{}\n{END}\n", "A".repeat(1 << 20));
        assert!(reason(dearmor(long.as_bytes())).contains("longer than 64"));
        let endless = format!("{BEGIN}\n{}", "QUFB\n".repeat(10));
        assert!(reason(dearmor(endless.as_bytes())).contains("expected the END"));
        let unended = format!("{BEGIN}\n{}", format!("{}\n", "A".repeat(64)).repeat(3));
        assert!(reason(dearmor(unended.as_bytes())).contains("without the END"));
    }

    #[test]
    fn decoded_bytes_come_before_a_late_error_which_sticks() {
        let data = bytes(9, 100);
        let text = [armor(&data), b"garbage\n".to_vec()].concat();
        let mut reader = ArmoredReader::new(&text[..]);
        let mut out = vec![0u8; 200];
        let mut n = 0;
        let error = loop {
            match reader.read(&mut out[n..]) {
                Ok(k) => n += k,
                Err(e) => break e,
            }
        };
        assert_eq!(&out[..n], &data[..]);
        assert!(matches!(Error::from(error), Error::Armor(_)));
        let again = reader.read(&mut out).unwrap_err();
        assert_eq!(
            Error::from(again).to_string(),
            "armor is malformed: data follows the END line (line 5)"
        );
    }

    /// One vector of the testkit (c2sp.org/CCTV/age): `key: value` lines, a
    /// blank line, the file.
    struct Vector {
        name: String,
        fields: Vec<(String, String)>,
        file: Vec<u8>,
    }

    impl Vector {
        fn field(&self, key: &str) -> Option<&str> {
            self.fields
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v.as_str())
        }
    }

    fn armor_vectors() -> Vec<Vector> {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/testkit");
        let mut vectors: Vec<Vector> = std::fs::read_dir(dir)
            .unwrap()
            .map(|entry| entry.unwrap())
            .filter_map(|entry| {
                let name = entry.file_name().into_string().unwrap();
                if !name.starts_with("armor_") {
                    return None;
                }
                let data = std::fs::read(entry.path()).unwrap();
                let split = data.windows(2).position(|w| w == b"\n\n").unwrap();
                let fields = std::str::from_utf8(&data[..split])
                    .unwrap()
                    .lines()
                    .map(|line| {
                        let (k, v) = line.split_once(": ").unwrap();
                        (k.to_owned(), v.to_owned())
                    })
                    .collect();
                let file = data[split + 2..].to_vec();
                Some(Vector { name, fields, file })
            })
            .filter(|v| v.field("compressed").is_none())
            .collect();
        vectors.sort_by(|a, b| a.name.cmp(&b.name));
        vectors
    }

    /// The testkit's well-formed armor re-encodes to itself once its
    /// tolerated variations (CRLF, outer whitespace, a missing final LF)
    /// are normalised: the writer's output is Go age's, byte for byte.
    #[test]
    fn testkit_armor_reencodes_canonically() {
        let mut checked = 0;
        for v in armor_vectors() {
            let Ok(decoded) = dearmor_only(&v.file) else {
                continue;
            };
            let text = String::from_utf8(v.file.clone()).unwrap();
            let canonical = format!("{}\n", text.trim().replace("\r\n", "\n"));
            assert_eq!(armor(&decoded), canonical.as_bytes(), "{}", v.name);
            checked += 1;
        }
        assert!(checked >= 5, "only {checked} vectors re-encoded");
    }
}
