//! Hashing a sequence of files on every core, results in the order given.
//!
//! Workers take batches of consecutive jobs from one queue; small regular
//! files of a batch are read whole and hashed together (the multi-buffer
//! path, [`super::digest_many`]), larger ones streamed in bounded memory
//! (from 4 MiB with a reader thread, so that reading overlaps hashing).
//! The calling thread prints each result as soon as all before it are
//! printed; workers stay at most [`WINDOW`] jobs ahead of it. Standard input
//! is read while holding the queue, so `-` given twice reads it in order,
//! as coreutils does.

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::fs::File;
use std::io::{self, IsTerminal, Read};
use std::path::Path;
use std::sync::mpsc;
use std::sync::{Condvar, Mutex, MutexGuard};
use std::thread;

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::{Hasher, Hashing};
use crate::error::CliError;

/// Jobs taken by a worker at once: the widest multi-buffer rung's lanes.
const BATCH: usize = 16;

/// Files up to this size are read whole and hashed in batches.
const SMALL: u64 = 64 << 10;

/// Bytes read at a time from a larger file.
const CHUNK: usize = 256 << 10;

/// Chunks in flight between a file's reader thread and its hasher.
const DEPTH: usize = 4;

/// Files at least this long are read by a second thread.
const OVERLAP_FROM: u64 = 4 << 20;

/// Files at least this long get a progress bar (on a terminal).
const PROGRESS_FROM: u64 = 8 << 20;

/// How many jobs workers may finish ahead of the printed one.
const WINDOW: usize = 4096;

/// One thing to hash, or to pass through in order.
pub enum Job<T> {
    /// Hash the file at this path (`-`: stdin); `T` goes along.
    File(Box<Path>, T),
    /// Nothing to hash: `T` is handed on in its place in the order.
    Note(T),
}

/// What became of a file.
pub enum Outcome {
    /// Its digest.
    Digest(Vec<u8>),
    /// It could not be opened or read.
    Failed(io::Error),
}

/// The queue and the finished results, under one lock.
struct State<I, T> {
    /// The jobs not taken yet; `None` once exhausted.
    jobs: Option<I>,
    /// The index the next job taken gets.
    next: usize,
    /// The index of the next result to print.
    printed: usize,
    /// Finished results not printed yet, by index.
    done: BTreeMap<usize, (T, Option<Outcome>)>,
    /// Workers still running.
    alive: usize,
    /// Set when printing failed: workers stop.
    stop: bool,
}

struct Shared<I, T> {
    state: Mutex<State<I, T>>,
    changed: Condvar,
}

impl<I, T> Shared<I, T> {
    fn lock(&self) -> MutexGuard<'_, State<I, T>> {
        // A worker that panicked is reported by its thread; the state
        // itself stays consistent.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn wait<'a>(&self, guard: MutexGuard<'a, State<I, T>>) -> MutexGuard<'a, State<I, T>> {
        self.changed.wait(guard).unwrap_or_else(|e| e.into_inner())
    }
}

/// Counts a worker out when it ends, even by a panic, so that the printer
/// never waits for it.
struct Alive<'a, I, T>(&'a Shared<I, T>);

impl<I, T> Drop for Alive<'_, I, T> {
    fn drop(&mut self) {
        self.0.lock().alive -= 1;
        self.0.changed.notify_all();
    }
}

/// Hashes the files of `jobs` on `threads` workers with `hashing`, calling
/// `emit` for every job in order, with the outcome for files.
///
/// # Errors
///
/// The first error of `emit` (which stops the run), or an internal error
/// when a worker died.
pub fn run<I, T>(
    jobs: I,
    hashing: &Hashing,
    threads: usize,
    mut emit: impl FnMut(T, Option<Outcome>) -> Result<(), CliError>,
    mut flush: impl FnMut() -> Result<(), CliError>,
) -> Result<(), CliError>
where
    I: Iterator<Item = Job<T>> + Send,
    T: Send,
{
    let threads = threads.max(1);
    let progress = Progress::new();
    let shared = Shared {
        state: Mutex::new(State {
            jobs: Some(jobs),
            next: 0,
            printed: 0,
            done: BTreeMap::new(),
            alive: threads,
            stop: false,
        }),
        changed: Condvar::new(),
    };
    thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                let _alive = Alive(&shared);
                worker(&shared, hashing, &progress);
            });
        }
        let result = print_in_order(&shared, &progress, &mut emit, &mut flush);
        if result.is_err() {
            shared.lock().stop = true;
            shared.changed.notify_all();
        }
        result
    })
}

/// The printing side of [`run`].
fn print_in_order<I, T>(
    shared: &Shared<I, T>,
    progress: &Progress,
    emit: &mut impl FnMut(T, Option<Outcome>) -> Result<(), CliError>,
    flush: &mut impl FnMut() -> Result<(), CliError>,
) -> Result<(), CliError> {
    loop {
        let mut state = shared.lock();
        let mut ready = Vec::new();
        loop {
            let at = state.printed;
            match state.done.remove(&at) {
                Some(r) => {
                    ready.push(r);
                    state.printed += 1;
                }
                None => break,
            }
        }
        if ready.is_empty() {
            if state.jobs.is_none() && state.printed == state.next {
                return Ok(());
            }
            if state.alive == 0 {
                return Err(CliError::Internal("a hashing thread ended early"));
            }
            drop(shared.wait(state));
            continue;
        }
        drop(state);
        shared.changed.notify_all();
        progress.suspend(|| {
            for (t, outcome) in ready {
                emit(t, outcome)?;
            }
            flush()
        })?;
    }
}

/// A worker: takes batches until the queue is empty.
fn worker<I, T>(shared: &Shared<I, T>, hashing: &Hashing, progress: &Progress)
where
    I: Iterator<Item = Job<T>>,
{
    let mut buffers: Vec<Vec<u8>> = Vec::new();
    let mut chunk = Vec::new();
    loop {
        let mut batch = Vec::with_capacity(BATCH);
        let first;
        {
            let mut state = shared.lock();
            while !state.stop && state.jobs.is_some() && state.next >= state.printed + WINDOW {
                state = shared.wait(state);
            }
            if state.stop {
                return;
            }
            first = state.next;
            while batch.len() < BATCH {
                let Some(job) = state.jobs.as_mut().and_then(Iterator::next) else {
                    state.jobs = None;
                    break;
                };
                state.next += 1;
                match job {
                    Job::File(path, t) if path.as_os_str() == OsStr::new("-") => {
                        // Stdin in order: read it now, holding the queue.
                        let outcome = hash_stdin(hashing, &mut chunk);
                        batch.push((t, Some(Taken::Known(outcome))));
                    }
                    Job::File(path, t) => batch.push((t, Some(Taken::Path(path)))),
                    Job::Note(t) => batch.push((t, None)),
                }
            }
            if batch.is_empty() {
                return;
            }
        }
        let results = hash_batch(batch, hashing, progress, &mut buffers, &mut chunk);
        let mut state = shared.lock();
        for (k, r) in results.into_iter().enumerate() {
            state.done.insert(first + k, r);
        }
        drop(state);
        shared.changed.notify_all();
    }
}

/// A job of a batch: stdin is hashed when taken, a file afterwards.
enum Taken {
    /// Already hashed.
    Known(Outcome),
    /// To hash.
    Path(Box<Path>),
}

/// Hashes one batch: small files together, the others one by one.
fn hash_batch<T>(
    batch: Vec<(T, Option<Taken>)>,
    hashing: &Hashing,
    progress: &Progress,
    buffers: &mut Vec<Vec<u8>>,
    chunk: &mut Vec<u8>,
) -> Vec<(T, Option<Outcome>)> {
    let mut results = Vec::with_capacity(batch.len());
    let mut small = Vec::new();
    for (at, (t, taken)) in batch.into_iter().enumerate() {
        let outcome = match taken {
            None => None,
            Some(Taken::Known(o)) => Some(o),
            Some(Taken::Path(path)) => {
                if buffers.len() <= small.len() {
                    buffers.push(Vec::new());
                }
                let buffer = &mut buffers[small.len()];
                match hash_or_read(&path, hashing, progress, buffer, chunk) {
                    Ok(Some(digest)) => Some(Outcome::Digest(digest)),
                    Ok(None) => {
                        small.push(at);
                        // Filled in below.
                        Some(Outcome::Digest(Vec::new()))
                    }
                    Err(e) => Some(Outcome::Failed(e)),
                }
            }
        };
        results.push((t, outcome));
    }
    if !small.is_empty() {
        // The k-th small file is in `buffers[k]`.
        let messages: Vec<&[u8]> = buffers[..small.len()].iter().map(Vec::as_slice).collect();
        let digests = hashing.many(&messages);
        for (&at, digest) in small.iter().zip(digests) {
            results[at].1 = Some(Outcome::Digest(digest));
        }
    }
    results
}

/// Opens `path`: a small regular file is read whole into `buffer` (and
/// `None` returned), anything else hashed here.
fn hash_or_read(
    path: &Path,
    hashing: &Hashing,
    progress: &Progress,
    buffer: &mut Vec<u8>,
    chunk: &mut Vec<u8>,
) -> io::Result<Option<Vec<u8>>> {
    let mut file = File::open(path)?;
    let meta = file.metadata()?;
    let len = meta.is_file().then_some(meta.len());
    if let Some(len) = len.filter(|&l| l <= SMALL) {
        buffer.clear();
        // One more byte than expected: a file that grew is read to its end.
        buffer.reserve(usize::try_from(len).unwrap_or(0) + 1);
        file.read_to_end(buffer)?;
        return Ok(None);
    }
    let mut hasher = hashing.hasher();
    let bar = len.and_then(|l| progress.bar(l));
    let streamed = if len.is_some_and(|l| l >= OVERLAP_FROM) {
        stream_overlapped(&mut file, &mut hasher, bar.as_ref())
    } else {
        stream(&mut file, &mut hasher, bar.as_ref(), chunk)
    };
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    streamed.map(|()| Some(hasher.finalize()))
}

/// Hashes standard input.
fn hash_stdin(hashing: &Hashing, chunk: &mut Vec<u8>) -> Outcome {
    let mut hasher = hashing.hasher();
    match stream(&mut io::stdin().lock(), &mut hasher, None, chunk) {
        Ok(()) => Outcome::Digest(hasher.finalize()),
        Err(e) => Outcome::Failed(e),
    }
}

/// Fills `buf` as far as the input goes; fewer bytes only at the end.
fn read_full(input: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match input.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}

/// Reads and hashes in turn, a chunk at a time.
fn stream(
    input: &mut impl Read,
    hasher: &mut Hasher,
    bar: Option<&ProgressBar>,
    chunk: &mut Vec<u8>,
) -> io::Result<()> {
    chunk.resize(CHUNK, 0);
    loop {
        let n = read_full(input, chunk)?;
        hasher.update(&chunk[..n]);
        if let Some(bar) = bar {
            bar.inc(n as u64);
        }
        if n < chunk.len() {
            return Ok(());
        }
    }
}

/// Reads on a second thread while this one hashes the chunk before.
fn stream_overlapped(
    file: &mut File,
    hasher: &mut Hasher,
    bar: Option<&ProgressBar>,
) -> io::Result<()> {
    let (full_tx, full_rx) = mpsc::sync_channel::<io::Result<Vec<u8>>>(DEPTH);
    let (empty_tx, empty_rx) = mpsc::channel::<Vec<u8>>();
    for _ in 0..DEPTH {
        // The receiver lives below: this cannot fail.
        let _ = empty_tx.send(vec![0; CHUNK]);
    }
    thread::scope(|s| {
        // Owned here, so that the reader's loop ends when this side does.
        let returns = empty_tx;
        s.spawn(move || {
            // Ends at the end of the file, on an error, or when the hashing
            // side is gone (it dropped `empty_tx`).
            for mut buf in empty_rx {
                buf.resize(CHUNK, 0);
                let r = read_full(file, &mut buf);
                let last = !matches!(r, Ok(n) if n == CHUNK);
                if let Ok(n) = r {
                    buf.truncate(n);
                }
                if full_tx.send(r.map(|_| buf)).is_err() || last {
                    return;
                }
            }
        });
        for chunk in full_rx {
            let chunk = chunk?;
            hasher.update(&chunk);
            if let Some(bar) = bar {
                bar.inc(chunk.len() as u64);
            }
            let _ = returns.send(chunk);
        }
        Ok(())
    })
}

/// Progress bars on stderr for long files, when stderr is a terminal.
struct Progress(Option<MultiProgress>);

impl Progress {
    fn new() -> Progress {
        Progress(
            io::stderr()
                .is_terminal()
                .then(|| MultiProgress::with_draw_target(ProgressDrawTarget::stderr())),
        )
    }

    /// A byte-count bar for a file of `len` bytes, if long enough.
    fn bar(&self, len: u64) -> Option<ProgressBar> {
        let multi = self.0.as_ref().filter(|_| len >= PROGRESS_FROM)?;
        let bar = multi.add(ProgressBar::new(len));
        if let Ok(style) = ProgressStyle::with_template(
            "{bar:40} {bytes}/{total_bytes} {binary_bytes_per_sec} eta {eta}",
        ) {
            bar.set_style(style);
        }
        Some(bar)
    }

    /// Runs `f` (which prints) with the bars out of the way.
    fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        match &self.0 {
            Some(multi) => multi.suspend(f),
            None => f(),
        }
    }
}
