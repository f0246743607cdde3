//! The payload (c2sp.org/age, "Payload"): a 16-byte nonce, then the
//! plaintext in 64 KiB chunks, each sealed with ChaCha20-Poly1305 under the
//! payload key and the nonce `counter (11 bytes, big endian) || last flag`.
//!
//! Chunks are independent, so both directions run as a pipeline: a worker
//! on each core takes the input for as long as it reads a batch of 16
//! chunks, seals or opens them in place, and hands the batch to the calling
//! thread, which writes batches in order. The first batch runs on the
//! calling thread, so a file of up to 1 MiB starts no thread. Memory stays
//! bounded by a fixed pool of batch buffers whatever the file's size.
//! Decryption writes a chunk only after its own tag verified, and on a
//! failure writes the chunks before it and nothing after.

use std::collections::BTreeMap;
use std::io::{self, IoSlice, Read, Write};
use std::num::NonZeroUsize;
use std::sync::{Mutex, OnceLock, mpsc};
use std::thread;

use simdcrypt::aead::{ChaCha20Poly1305, TAG_LEN};
use simdcrypt::kdf::hkdf_sha256;
use zeroize::Zeroizing;

use crate::{Error, FileKey, random};

/// Plaintext bytes in every chunk but the last.
pub const CHUNK_LEN: usize = 64 * 1024;
/// A full chunk once sealed: plaintext and tag.
pub const SEALED_CHUNK_LEN: usize = CHUNK_LEN + TAG_LEN;
/// The payload nonce that starts the payload.
pub const NONCE_LEN: usize = 16;
/// Chunks handed to a worker at once: 1 MiB, enough to make the hand-over
/// negligible and few enough to keep every core busy on small files.
const BATCH_CHUNKS: usize = 16;

/// Where a batch's data starts in its buffer. Chunks read at a page offset
/// of 0 into a buffer at a page offset of 0 make the kernel's copy alias
/// every load with a store 4 KiB back ("4K aliasing"): on this Zen 3 a
/// 1 GiB file took 0.42 s of system time to read that way against 0.12 s
/// skewed by a few cache lines.
const SKEW: usize = 192;

/// The cores this process may use, asked once.
static CORES: OnceLock<usize> = OnceLock::new();

/// How many threads seal or open chunks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Threads {
    /// One per core the operating system gives this process.
    #[default]
    Auto,
    /// Exactly this many; one runs everything on the calling thread.
    Count(NonZeroUsize),
}

impl Threads {
    /// The number of worker threads this stands for.
    fn count(self) -> usize {
        match self {
            // Asking costs a few system calls (cgroup limits): once.
            Threads::Auto => {
                *CORES.get_or_init(|| thread::available_parallelism().map_or(1, NonZeroUsize::get))
            }
            Threads::Count(n) => n.get(),
        }
    }
}

/// The payload key: `HKDF-SHA-256(ikm = file key, salt = nonce, info =
/// "payload")`, as its AEAD.
pub(crate) fn payload_aead(
    file_key: &FileKey,
    nonce: &[u8; NONCE_LEN],
) -> Result<ChaCha20Poly1305, Error> {
    let mut key = Zeroizing::new([0u8; 32]);
    hkdf_sha256(nonce, file_key.expose(), b"payload", &mut *key)?;
    Ok(ChaCha20Poly1305::new(&key))
}

/// The nonce of chunk `counter`: an 11-byte big-endian counter, then 0x01
/// for the final chunk and 0x00 before it. A `u64` counter is 2^80 bytes of
/// payload, so the 88-bit field never fills.
fn chunk_nonce(counter: u64, last: bool) -> [u8; 12] {
    let mut nonce = [0u8; 12];
    nonce[3..11].copy_from_slice(&counter.to_be_bytes());
    nonce[11] = u8::from(last);
    nonce
}

/// A run of consecutive chunks end to end in one buffer, chunk `i` at
/// `i * stride`: plaintext chunks when sealing (their tags kept apart, so
/// that a batch is one read), sealed chunks when opening.
struct Batch {
    /// The batch's place in the stream.
    sequence: u64,
    buf: Vec<u8>,
    /// Where each chunk starts: [`CHUNK_LEN`] or [`SEALED_CHUNK_LEN`].
    stride: usize,
    /// Length of each chunk as read.
    lens: Vec<usize>,
    /// The tags of sealed chunks.
    tags: Vec<[u8; TAG_LEN]>,
    /// Whether the batch's last chunk ends the stream.
    at_end: bool,
    /// Chunks verified, and the error that stopped the batch early.
    verified: usize,
    error: Option<Error>,
}

impl Batch {
    /// A batch as read: nothing verified yet, and `error` when the reader
    /// already found the input damaged after these chunks.
    fn new(
        sequence: u64,
        buf: Vec<u8>,
        stride: usize,
        lens: Vec<usize>,
        at_end: bool,
        error: Option<Error>,
    ) -> Self {
        Batch {
            sequence,
            buf,
            stride,
            lens,
            tags: Vec::new(),
            at_end,
            verified: 0,
            error,
        }
    }

    /// Where chunk `i` lies in the buffer.
    fn range(&self, i: usize) -> std::ops::Range<usize> {
        let start = SKEW + i * self.stride;
        start..start + self.lens[i]
    }

    /// The counter of the batch's first chunk.
    fn first_counter(&self) -> u64 {
        self.sequence * BATCH_CHUNKS as u64
    }

    /// Whether chunk `i` of the batch is the stream's final chunk.
    fn is_last(&self, i: usize) -> bool {
        self.at_end && i + 1 == self.lens.len()
    }
}

/// The input side: full reads, and one byte of look-ahead to tell whether a
/// full chunk is the last.
struct Source<R> {
    input: R,
    carry: Option<u8>,
    eof: bool,
}

impl<R: Read> Source<R> {
    /// Fills `dst` as far as the input goes; short only at end of input.
    fn fill(&mut self, dst: &mut [u8]) -> io::Result<usize> {
        let mut n = 0;
        if let (Some(byte), Some(first)) = (self.carry, dst.first_mut()) {
            *first = byte;
            self.carry = None;
            n = 1;
        }
        while n < dst.len() && !self.eof {
            match self.input.read(&mut dst[n..]) {
                Ok(0) => self.eof = true,
                Ok(k) => n += k,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(n)
    }

    /// Reads a batch: up to [`BATCH_CHUNKS`] pieces of `stride` bytes end
    /// to end in `buf`, which grows a piece at a time as the input goes (a
    /// file of a few chunks never touches a whole batch's memory). Returns
    /// each piece's length (one empty piece for an empty input) and whether
    /// the input ended within the batch.
    fn fill_batch(&mut self, buf: &mut Vec<u8>, stride: usize) -> io::Result<(Vec<usize>, bool)> {
        let end = BATCH_CHUNKS * stride;
        let mut n = 0;
        while n < end {
            let at = SKEW + n;
            if buf.len() < at + stride {
                // Room for the whole batch at once (not touched until
                // filled), so the buffer moves at most once.
                buf.reserve_exact(SKEW + end - buf.len());
                buf.resize(at + stride, 0);
            }
            let k = self.fill(&mut buf[at..at + stride])?;
            n += k;
            if k < stride {
                break;
            }
        }
        let mut lens: Vec<usize> = (0..n)
            .step_by(stride)
            .map(|at| (n - at).min(stride))
            .collect();
        if lens.is_empty() {
            lens.push(0);
        }
        Ok((lens, n < end))
    }

    /// Whether the input is exhausted, reading one byte ahead if need be.
    fn at_end(&mut self) -> io::Result<bool> {
        if self.carry.is_none() && !self.eof {
            let mut byte = [0u8];
            if self.fill(&mut byte)? == 1 {
                self.carry = Some(byte[0]);
            }
        }
        Ok(self.carry.is_none() && self.eof)
    }
}

/// Runs `read → work → write` over batches, on `threads` workers, writing
/// in stream order; stops at the first error, the reader's or the writer's.
/// Every batch buffer comes from a pool of fixed size, so memory is bounded.
fn pipeline(
    threads: Threads,
    mut read: impl FnMut(Vec<u8>, u64) -> Result<Option<Batch>, Error> + Send,
    work: impl Fn(&mut Batch) + Sync,
    mut write: impl FnMut(&mut Batch) -> Result<(), Error>,
) -> Result<(), Error> {
    // The first batch runs on the calling thread: a file of one batch (up
    // to 1 MiB) never pays for starting threads.
    let Some(mut first) = read(Vec::new(), 0)? else {
        return Ok(());
    };
    work(&mut first);
    write(&mut first)?;
    if first.at_end {
        return Ok(());
    }
    let workers = threads.count();
    if workers == 1 {
        let (mut buf, mut sequence) = (first.buf, 1);
        loop {
            let Some(mut batch) = read(buf, sequence)? else {
                return Ok(());
            };
            work(&mut batch);
            write(&mut batch)?;
            (buf, sequence) = (batch.buf, sequence + 1);
        }
    }
    let (pool_tx, pool_rx) = mpsc::channel::<Vec<u8>>();
    let _ = pool_tx.send(first.buf);
    for _ in 1..2 * workers + 1 {
        // Buffers are allocated by their first reader.
        let _ = pool_tx.send(Vec::new());
    }
    let pool_rx = Mutex::new(pool_rx);
    // Each worker reads its own batch, holding the input only while it
    // reads: no thread moves data between cores that did not need to.
    let source = Mutex::new((read, 1u64, false));
    let (done_tx, done_rx) = mpsc::channel::<Result<Batch, (u64, Error)>>();
    thread::scope(|scope| {
        // Dropped when the writer stops, which wakes a worker waiting for
        // a buffer: an early error never leaves a thread behind.
        let pool_tx = pool_tx;
        for _ in 0..workers {
            let (source, pool_rx, done_tx, work) = (&source, &pool_rx, done_tx.clone(), &work);
            scope.spawn(move || {
                loop {
                    let buf = pool_rx
                        .lock()
                        .map_err(drop)
                        .and_then(|rx| rx.recv().map_err(drop));
                    let (Ok(buf), Ok(mut input)) = (buf, source.lock()) else {
                        return;
                    };
                    let (read, next, finished) = &mut *input;
                    if *finished {
                        return;
                    }
                    let sequence = *next;
                    *next += 1;
                    let item = match read(buf, sequence) {
                        Ok(Some(batch)) => Ok(batch),
                        Ok(None) => {
                            *finished = true;
                            return;
                        }
                        Err(e) => {
                            *finished = true;
                            Err((sequence, e))
                        }
                    };
                    drop(input);
                    let item = item.map(|mut batch| {
                        work(&mut batch);
                        batch
                    });
                    if done_tx.send(item).is_err() {
                        return;
                    }
                }
            });
        }
        drop(done_tx);
        let mut pending = BTreeMap::new();
        let mut next = 1u64;
        for done in done_rx {
            let (sequence, item) = match done {
                Ok(batch) => (batch.sequence, Ok(batch)),
                Err((sequence, e)) => (sequence, Err(e)),
            };
            pending.insert(sequence, item);
            while let Some(item) = pending.remove(&next) {
                let mut batch = item?;
                write(&mut batch)?;
                next += 1;
                let _ = pool_tx.send(batch.buf);
            }
        }
        Ok(())
    })
}

/// Writes all of `bufs` with vectored writes (`Write::write_all_vectored`
/// is not stable): one system call for a batch where the output takes it.
fn write_all_vectored(output: &mut impl Write, mut bufs: &mut [IoSlice<'_>]) -> io::Result<()> {
    IoSlice::advance_slices(&mut bufs, 0);
    while !bufs.is_empty() {
        match output.write_vectored(bufs) {
            Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
            Ok(n) => IoSlice::advance_slices(&mut bufs, n),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// Encrypts everything `input` gives as an age payload (nonce, then
/// chunks) to `output`. Returns the number of plaintext bytes.
///
/// # Errors
///
/// [`Error::Io`] when reading or writing fails, [`Error::Random`] without
/// randomness for the nonce.
pub fn encrypt(
    file_key: &FileKey,
    input: impl Read + Send,
    mut output: impl Write,
    threads: Threads,
) -> Result<u64, Error> {
    let nonce = random::<NONCE_LEN>()?;
    let aead = payload_aead(file_key, &nonce)?;
    output.write_all(&nonce)?;
    let mut source = Source {
        input,
        carry: None,
        eof: false,
    };
    let mut total = 0u64;
    let read = |mut buf: Vec<u8>, sequence| -> Result<Option<Batch>, Error> {
        if sequence > 0 && source.at_end()? {
            return Ok(None);
        }
        // A full chunk is the last when the input ends right after it: at
        // a batch's end, a byte of look-ahead tells.
        let (lens, at_end) = source.fill_batch(&mut buf, CHUNK_LEN)?;
        let at_end = at_end || source.at_end()?;
        Ok(Some(Batch::new(
            sequence, buf, CHUNK_LEN, lens, at_end, None,
        )))
    };
    let seal = |batch: &mut Batch| {
        let first = batch.first_counter();
        batch.tags.clear();
        for i in 0..batch.lens.len() {
            let nonce = chunk_nonce(first + i as u64, batch.is_last(i));
            let range = batch.range(i);
            let tag = aead.encrypt_in_place_detached(&nonce, &[], &mut batch.buf[range]);
            batch.tags.push(tag);
        }
        batch.verified = batch.lens.len();
    };
    pipeline(threads, read, seal, |batch| {
        let mut sealed: Vec<IoSlice> = Vec::with_capacity(2 * batch.lens.len());
        for (i, tag) in batch.tags.iter().enumerate() {
            let range = batch.range(i);
            total += range.len() as u64;
            sealed.push(IoSlice::new(&batch.buf[range]));
            sealed.push(IoSlice::new(tag));
        }
        write_all_vectored(&mut output, &mut sealed)?;
        Ok(())
    })?;
    output.flush()?;
    Ok(total)
}

/// Opens sealed chunk `counter` in place; false when its tag does not match
/// (the AEAD then zeroes it).
pub(crate) fn open_chunk(
    aead: &ChaCha20Poly1305,
    counter: u64,
    last: bool,
    slot: &mut [u8],
) -> bool {
    let (data, tag) = slot.split_at_mut(slot.len() - TAG_LEN);
    let tag: &[u8; TAG_LEN] = (&*tag).try_into().unwrap_or(&[0; TAG_LEN]);
    aead.decrypt_in_place_detached(&chunk_nonce(counter, last), &[], data, tag)
        .is_ok()
}

/// Decrypts an age payload from `input` to `output`, writing each chunk
/// only after its tag verified. Returns the number of plaintext bytes.
///
/// # Errors
///
/// [`Error::Truncated`] when the payload ends before a final chunk,
/// [`Error::Chunk`] for a chunk that fails its tag (trailing data included),
/// [`Error::LastChunk`] when that chunk ends the file, [`Error::TrailingData`]
/// after a final chunk,
/// [`Error::EmptyFinalChunk`], [`Error::Io`]. The chunks before the failing
/// one have been written.
pub fn decrypt(
    file_key: &FileKey,
    input: impl Read + Send,
    mut output: impl Write,
    threads: Threads,
) -> Result<u64, Error> {
    let mut source = Source {
        input,
        carry: None,
        eof: false,
    };
    let mut nonce = [0u8; NONCE_LEN];
    if source.fill(&mut nonce)? < NONCE_LEN {
        return Err(Error::Truncated);
    }
    let aead = payload_aead(file_key, &nonce)?;
    let mut total = 0u64;
    let read = |mut buf: Vec<u8>, sequence| -> Result<Option<Batch>, Error> {
        if sequence > 0 && source.at_end()? {
            return Ok(None);
        }
        let (mut lens, at_end) = source.fill_batch(&mut buf, SEALED_CHUNK_LEN)?;
        let at_end = at_end || source.at_end()?;
        match lens.last() {
            // Too short to hold even a tag: the payload stops after its
            // nonce, or a cut inside the last chunk. The chunks before it
            // are still opened and written.
            Some(&last) if last < TAG_LEN => {
                lens.pop();
                let truncated = Some(Error::Truncated);
                Ok(Some(Batch::new(
                    sequence,
                    buf,
                    SEALED_CHUNK_LEN,
                    lens,
                    false,
                    truncated,
                )))
            }
            _ => Ok(Some(Batch::new(
                sequence,
                buf,
                SEALED_CHUNK_LEN,
                lens,
                at_end,
                None,
            ))),
        }
    };
    let open = |batch: &mut Batch| {
        let first = batch.first_counter();
        let count = batch.lens.len();
        for i in 0..count {
            let counter = first + i as u64;
            let last = batch.is_last(i);
            let range = batch.range(i);
            let slot = &mut batch.buf[range];
            // A full chunk may carry the other flag than its place says: at
            // the end of the file it may be a non-final chunk of a cut file;
            // before a short tail (or at a batch's end, where the tail is
            // not yet seen) it may be a final chunk with data after it.
            // Those few are kept, so that a failure can try the other flag:
            // when that opens, the chunk is authentic and is released, as
            // age does, before the error says which.
            let ambiguous = slot.len() == SEALED_CHUNK_LEN
                && (i + 1 == count || (batch.at_end && i + 2 == count));
            let mut kept = ambiguous.then(|| slot.to_vec());
            if !open_chunk(&aead, counter, last, slot) {
                let other = kept
                    .as_mut()
                    .is_some_and(|k| open_chunk(&aead, counter, !last, k));
                batch.error = Some(match (other, kept) {
                    (true, Some(kept)) => {
                        slot.copy_from_slice(&kept);
                        batch.verified = i + 1;
                        if last {
                            Error::Truncated
                        } else {
                            Error::TrailingData(counter)
                        }
                    }
                    _ if last => Error::LastChunk(counter),
                    _ => Error::Chunk(counter),
                });
                break;
            }
            if last && slot.len() == TAG_LEN && counter > 0 {
                batch.error = Some(Error::EmptyFinalChunk(counter));
                break;
            }
            batch.verified = i + 1;
        }
    };
    pipeline(threads, read, open, |batch| {
        let mut plain: Vec<IoSlice> = Vec::with_capacity(batch.verified);
        for i in 0..batch.verified {
            let range = batch.range(i);
            let plain_len = range.len() - TAG_LEN;
            total += plain_len as u64;
            plain.push(IoSlice::new(&batch.buf[range][..plain_len]));
        }
        write_all_vectored(&mut output, &mut plain)?;
        batch.error.take().map_or(Ok(()), Err)
    })?;
    output.flush()?;
    Ok(total)
}
