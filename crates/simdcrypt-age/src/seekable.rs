//! Random access to an age payload (c2sp.org/age, "Payload"): any byte range
//! of the plaintext without reading what comes before it. Chunks are sealed
//! independently, chunk `i`'s nonce is its counter, and every chunk but the
//! last holds 64 KiB, so byte `n` lies in chunk `n / 64 KiB`, at a known
//! place in the file.
//!
//! A [`SeekableDecryptor`] authenticates the final chunk first, when it is
//! made: that fixes the plaintext's length, and a file cut at a chunk
//! boundary (whose last chunk then fails as final) or extended is refused
//! before any byte is released. Each other chunk is opened as a read first
//! reaches it, and none of its bytes is released unless its tag verified.
//! Age's Go library has the same thing (`DecryptReaderAt`).

use std::io::{self, Read, Seek, SeekFrom};

use simdcrypt::aead::{ChaCha20Poly1305, TAG_LEN};
use zeroize::Zeroizing;

use crate::stream::{CHUNK_LEN, NONCE_LEN, SEALED_CHUNK_LEN, open_chunk, payload_aead};
use crate::{Error, FileKey};

/// A `Read + Seek` view of the plaintext of an age payload held in a
/// `Read + Seek` input.
pub struct SeekableDecryptor<R> {
    input: R,
    aead: ChaCha20Poly1305,
    /// Where the first sealed chunk starts in `input`.
    chunks_start: u64,
    /// The number of chunks, the final one included.
    chunks: u64,
    /// The plaintext's length.
    len: u64,
    /// The plaintext position of the next read.
    pos: u64,
    /// The last chunk opened: its index and plaintext.
    opened: Option<(u64, Zeroizing<Vec<u8>>)>,
}

impl<R: Read + Seek> SeekableDecryptor<R> {
    /// The payload that starts (with its nonce) at `input`'s current
    /// position and runs to its end, opened with `file_key`; its final
    /// chunk is authenticated now.
    ///
    /// # Errors
    ///
    /// [`Error::Truncated`] when the payload cannot hold its nonce and a
    /// final chunk, or ends with a full chunk that opens only as a
    /// non-final one (a file cut at a chunk boundary);
    /// [`Error::LastChunk`] when the final chunk fails its tag;
    /// [`Error::EmptyFinalChunk`]; [`Error::Io`].
    pub fn new(file_key: &FileKey, mut input: R) -> Result<Self, Error> {
        let payload_start = input.stream_position()?;
        let end = input.seek(SeekFrom::End(0))?;
        let sealed = end
            .checked_sub(payload_start)
            .and_then(|n| n.checked_sub(NONCE_LEN as u64))
            .filter(|&n| n >= TAG_LEN as u64)
            .ok_or(Error::Truncated)?;
        input.seek(SeekFrom::Start(payload_start))?;
        let mut nonce = [0u8; NONCE_LEN];
        input.read_exact(&mut nonce)?;
        let chunks = sealed.div_ceil(SEALED_CHUNK_LEN as u64);
        let last_sealed = sealed - (chunks - 1) * SEALED_CHUNK_LEN as u64;
        if last_sealed < TAG_LEN as u64 {
            // A cut inside the last chunk's tag.
            return Err(Error::Truncated);
        }
        let mut reader = SeekableDecryptor {
            input,
            aead: payload_aead(file_key, &nonce)?,
            chunks_start: payload_start + NONCE_LEN as u64,
            chunks,
            len: (chunks - 1) * CHUNK_LEN as u64 + (last_sealed - TAG_LEN as u64),
            pos: 0,
            opened: None,
        };
        reader.open(chunks - 1)?;
        Ok(reader)
    }

    /// The plaintext's length, in bytes.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether the plaintext is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Gives the input back.
    pub fn into_inner(self) -> R {
        self.input
    }

    /// Reads sealed chunk `index` (as long as `sealed`) from the input.
    fn read_sealed(&mut self, index: u64, sealed: &mut [u8]) -> io::Result<()> {
        self.input.seek(SeekFrom::Start(
            self.chunks_start + index * SEALED_CHUNK_LEN as u64,
        ))?;
        self.input.read_exact(sealed)
    }

    /// Reads, opens and keeps chunk `index` (less than `chunks`), unless it
    /// is the one kept already.
    fn open(&mut self, index: u64) -> Result<(), Error> {
        if self.opened.as_ref().is_some_and(|(i, _)| *i == index) {
            return Ok(());
        }
        let last = index + 1 == self.chunks;
        let sealed_len = if last {
            self.len - index * CHUNK_LEN as u64 + TAG_LEN as u64
        } else {
            SEALED_CHUNK_LEN as u64
        };
        // At most a sealed chunk: fits a usize.
        let mut sealed = Zeroizing::new(vec![0u8; sealed_len as usize]);
        self.read_sealed(index, &mut sealed)?;
        if !open_chunk(&self.aead, index, last, &mut sealed) {
            // A full final chunk that opens as a non-final one: the file
            // was cut after it. (A failed open zeroes the chunk, so the
            // check reads it again.)
            if last && sealed.len() == SEALED_CHUNK_LEN {
                self.read_sealed(index, &mut sealed)?;
                if open_chunk(&self.aead, index, false, &mut sealed) {
                    sealed.fill(0);
                    return Err(Error::Truncated);
                }
            }
            return Err(if last {
                Error::LastChunk(index)
            } else {
                Error::Chunk(index)
            });
        }
        let plain_len = sealed.len() - TAG_LEN;
        if last && plain_len == 0 && index > 0 {
            return Err(Error::EmptyFinalChunk(index));
        }
        sealed.truncate(plain_len);
        self.opened = Some((index, sealed));
        Ok(())
    }
}

impl<R: Read + Seek> Read for SeekableDecryptor<R> {
    /// Reads from the current position; a chunk that fails its tag is an
    /// error of kind `InvalidData` carrying the [`Error`], and releases
    /// nothing.
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.pos >= self.len || buf.is_empty() {
            return Ok(0);
        }
        let index = self.pos / CHUNK_LEN as u64;
        self.open(index).map_err(Error::into_io)?;
        let (_, plain) = self.opened.as_ref().expect("opened above");
        let at = (self.pos - index * CHUNK_LEN as u64) as usize;
        let n = buf.len().min(plain.len() - at);
        buf[..n].copy_from_slice(&plain[at..at + n]);
        self.pos += n as u64;
        Ok(n)
    }
}

impl<R: Read + Seek> Seek for SeekableDecryptor<R> {
    /// Moves the plaintext position; past the end is allowed (reads there
    /// give nothing), before the start is an error.
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        let target = match to {
            SeekFrom::Start(n) => Some(n),
            SeekFrom::End(d) => self.len.checked_add_signed(d),
            SeekFrom::Current(d) => self.pos.checked_add_signed(d),
        };
        let target = target.ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::InvalidInput,
                "seek to a negative or overflowing position",
            )
        })?;
        self.pos = target;
        Ok(target)
    }
}
