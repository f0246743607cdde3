//! The payload as `io::Write` and `io::Read`, for callers that produce or
//! consume the plaintext piece by piece (`tar`, a compressor, a socket): the
//! same multi-core pipeline as [`stream::encrypt`] and [`stream::decrypt`],
//! run on a thread of its own and fed, or drained, through a bounded channel
//! of buffers. Memory stays bounded: the channel holds 4 buffers beside
//! the pipeline's own batches (pieces of 256 KiB of plaintext on the way
//! in; a batch's verified plaintext, at most 1 MiB, on the way out).

use std::io::{self, IoSlice, Read, Write};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::thread::{self, JoinHandle};

use crate::stream::{self, Threads};
use crate::{Error, FileKey};

/// Plaintext gathered before it is handed to the pipeline's thread.
const PIECE: usize = 256 * 1024;
/// Buffers the channel holds before the side that fills it waits.
const QUEUED: usize = 4;

/// A buffer received from a channel, read out from `at` on.
#[derive(Default)]
struct Received {
    data: Vec<u8>,
    at: usize,
}

impl Received {
    /// Whether all of it has been read out.
    fn is_done(&self) -> bool {
        self.at == self.data.len()
    }

    /// Copies what fits of the rest into `buf`.
    fn read_into(&mut self, buf: &mut [u8]) -> usize {
        let n = buf.len().min(self.data.len() - self.at);
        buf[..n].copy_from_slice(&self.data[self.at..self.at + n]);
        self.at += n;
        n
    }
}

/// What the writing side sends the pipeline's reader.
enum Piece {
    Data(Vec<u8>),
    /// The plaintext is complete: the next chunk sealed is the final one.
    End,
}

/// The pipeline's input: the pieces an [`EncryptingWriter`] sends. A channel
/// that closes without [`Piece::End`] (the writer dropped without
/// [`EncryptingWriter::finish`]) is an error, so that the encryption stops
/// without writing a final chunk: the output is then not a valid age file,
/// rather than a valid one of a cut plaintext.
struct PieceReader {
    pieces: Receiver<Piece>,
    current: Received,
    ended: bool,
}

impl Read for PieceReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.current.is_done() {
            if self.ended {
                return Ok(0);
            }
            match self.pieces.recv() {
                Ok(Piece::Data(data)) => self.current = Received { data, at: 0 },
                Ok(Piece::End) => self.ended = true,
                Err(_) => {
                    return Err(io::Error::other(
                        "the encrypting writer was dropped before finish(): no final chunk",
                    ));
                }
            }
        }
        Ok(self.current.read_into(buf))
    }
}

/// An age payload encrypted from what is written to it, on every core;
/// made by [`crate::Encryptor::writer`], which has written the header.
/// Call [`EncryptingWriter::finish`] at the end: it seals the final chunk
/// and gives the output back. Dropped without it, the output is left
/// without a final chunk (age refuses it as truncated).
pub struct EncryptingWriter<W: Write + Send + 'static> {
    pending: Vec<u8>,
    pieces: Option<SyncSender<Piece>>,
    pipeline: Option<JoinHandle<Result<W, Error>>>,
    /// What stopped the pipeline, once a call reported it.
    failed: Option<String>,
}

impl<W: Write + Send + 'static> EncryptingWriter<W> {
    /// Starts the pipeline's thread, encrypting under `file_key` to
    /// `output` (where the header is already written).
    pub(crate) fn new(file_key: FileKey, mut output: W, threads: Threads) -> Self {
        let (sender, pieces) = sync_channel(QUEUED);
        let pipeline = thread::spawn(move || {
            let input = PieceReader {
                pieces,
                current: Received::default(),
                ended: false,
            };
            stream::encrypt(&file_key, input, &mut output, threads).map(|_| output)
        });
        EncryptingWriter {
            pending: Vec::with_capacity(PIECE),
            pieces: Some(sender),
            pipeline: Some(pipeline),
            failed: None,
        }
    }

    /// Hands the pending plaintext to the pipeline's thread; when that
    /// thread has stopped (an error writing the output), its error.
    fn hand_over(&mut self) -> io::Result<()> {
        let piece = std::mem::replace(&mut self.pending, Vec::with_capacity(PIECE));
        let sent = self
            .pieces
            .as_ref()
            .is_some_and(|s| s.send(Piece::Data(piece)).is_ok());
        if sent {
            Ok(())
        } else {
            Err(self.stopped().map_or_else(Error::into_io, |_| {
                io::Error::other("the encryption pipeline stopped")
            }))
        }
    }

    /// Waits for the pipeline's thread and gives its result; once it has
    /// been given, the same error again.
    fn stopped(&mut self) -> Result<W, Error> {
        self.pieces = None;
        let result = match self.pipeline.take().map(JoinHandle::join) {
            Some(Ok(result)) => result,
            Some(Err(panic)) => std::panic::resume_unwind(panic),
            None => Err(Error::Io(io::Error::other(
                self.failed
                    .clone()
                    .unwrap_or_else(|| "the encryption pipeline stopped".to_owned()),
            ))),
        };
        if let Err(e) = &result {
            self.failed.get_or_insert_with(|| e.to_string());
        }
        result
    }

    /// Seals the rest of the plaintext, the final chunk last, and gives
    /// the output back (flushed).
    ///
    /// # Errors
    ///
    /// [`Error::Io`] when writing the output failed, now or before.
    pub fn finish(mut self) -> Result<W, Error> {
        if !self.pending.is_empty() {
            self.hand_over()?;
        }
        if let Some(pieces) = self.pieces.take() {
            // A send fails only when the thread stopped: its result says why.
            let _ = pieces.send(Piece::End);
        }
        self.stopped()
    }
}

impl<W: Write + Send + 'static> Write for EncryptingWriter<W> {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        let n = data.len().min(PIECE - self.pending.len());
        self.pending.extend_from_slice(&data[..n]);
        if self.pending.len() == PIECE {
            self.hand_over()?;
        }
        Ok(n)
    }

    /// Hands what is pending to the pipeline; the output itself is flushed
    /// by [`EncryptingWriter::finish`] (a chunk is sealed only once the
    /// 64 KiB after it, or the end, are known).
    fn flush(&mut self) -> io::Result<()> {
        if self.pending.is_empty() {
            Ok(())
        } else {
            self.hand_over()
        }
    }
}

impl<W: Write + Send + 'static> Drop for EncryptingWriter<W> {
    /// Closes the channel without its end mark, so the pipeline stops
    /// without a final chunk, and waits for it.
    fn drop(&mut self) {
        self.pieces = None;
        if let Some(pipeline) = self.pipeline.take() {
            let _ = pipeline.join();
        }
    }
}

/// What the pipeline's writer sends a [`DecryptingReader`].
enum Opened {
    /// Plaintext whose chunks verified.
    Data(Vec<u8>),
    /// The pipeline's end: the plaintext's length, or what stopped it.
    Done(Result<u64, Error>),
}

/// The pipeline's output: each write, verified plaintext, goes to the
/// reader as one buffer.
struct OpenedWriter {
    opened: SyncSender<Opened>,
}

impl Write for OpenedWriter {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        self.write_vectored(&[IoSlice::new(data)])
    }

    /// A batch's chunks in one buffer.
    fn write_vectored(&mut self, bufs: &[IoSlice<'_>]) -> io::Result<usize> {
        let mut data = Vec::with_capacity(bufs.iter().map(|b| b.len()).sum());
        for buf in bufs {
            data.extend_from_slice(buf);
        }
        let n = data.len();
        self.opened
            .send(Opened::Data(data))
            .map_err(|_| io::Error::from(io::ErrorKind::BrokenPipe))?;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The plaintext of an age payload as an `io::Read`, decrypted on every
/// core ahead of the reads; made by [`crate::Decryptor::reader`]. Only
/// chunks whose tags verified are read out; a damaged, cut or extended
/// payload ends with an error of kind `InvalidData` carrying the [`Error`]
/// (after the verified plaintext before it), never with a clean end.
pub struct DecryptingReader {
    opened: Receiver<Opened>,
    current: Received,
    /// The plaintext ended, verified.
    ended: bool,
    /// What stopped the pipeline, once reported.
    failed: Option<String>,
}

impl DecryptingReader {
    /// Starts the pipeline's thread, decrypting the payload that `input`
    /// holds (after the header) under `file_key`.
    pub(crate) fn new<R: Read + Send + 'static>(
        file_key: FileKey,
        input: R,
        threads: Threads,
    ) -> Self {
        let (sender, opened) = sync_channel(QUEUED);
        // Not joined: once this reader is dropped, the thread's next write
        // fails and it ends by itself (waiting for it could wait on an
        // input that never comes).
        thread::spawn(move || {
            let mut output = OpenedWriter {
                opened: sender.clone(),
            };
            let result = stream::decrypt(&file_key, input, &mut output, threads);
            // The reader may be gone: nothing to tell then.
            let _ = sender.send(Opened::Done(result));
        });
        DecryptingReader {
            opened,
            current: Received::default(),
            ended: false,
            failed: None,
        }
    }
}

impl Read for DecryptingReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.current.is_done() {
            if self.ended {
                return Ok(0);
            }
            if let Some(failed) = &self.failed {
                return Err(io::Error::new(io::ErrorKind::InvalidData, failed.clone()));
            }
            match self.opened.recv() {
                Ok(Opened::Data(data)) => self.current = Received { data, at: 0 },
                Ok(Opened::Done(Ok(_))) => self.ended = true,
                Ok(Opened::Done(Err(e))) => {
                    self.failed = Some(e.to_string());
                    return Err(e.into_io());
                }
                Err(_) => self.failed = Some("the decryption pipeline stopped".to_owned()),
            }
        }
        Ok(self.current.read_into(buf))
    }
}
