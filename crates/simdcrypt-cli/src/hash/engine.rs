//! Hashing a sequence of files on every core, results in the order given.
//!
//! Workers take jobs one at a time from one queue. Small regular files are
//! read whole and hashed [`BATCH`] at a time (the multi-buffer path,
//! [`super::digest_many`]); larger ones are streamed in bounded memory
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

/// Small files hashed together: the widest multi-buffer rung's lanes.
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

/// What a worker finds when it goes to the queue.
enum Take<T> {
    /// Printing failed: stop.
    Stop,
    /// No more jobs.
    Done,
    /// The window is full while this worker holds unfinished small files:
    /// finish them first (the printer may be waiting for one).
    Finish,
    /// A result already known (a note, or stdin, hashed while taking it).
    Known(usize, T, Option<Outcome>),
    /// A file to hash.
    File(usize, Box<Path>, T),
}

/// Takes the next job; `holding`: whether the worker holds small files.
fn take<I, T>(
    shared: &Shared<I, T>,
    holding: bool,
    hashing: &Hashing,
    chunk: &mut Vec<u8>,
) -> Take<T>
where
    I: Iterator<Item = Job<T>>,
{
    let mut state = shared.lock();
    loop {
        if state.stop {
            return Take::Stop;
        }
        if state.jobs.is_none() {
            return Take::Done;
        }
        if state.next < state.printed + WINDOW {
            break;
        }
        if holding {
            return Take::Finish;
        }
        state = shared.wait(state);
    }
    let Some(job) = state.jobs.as_mut().and_then(Iterator::next) else {
        state.jobs = None;
        drop(state);
        // The printer may be waiting for the end.
        shared.changed.notify_all();
        return Take::Done;
    };
    let index = state.next;
    state.next += 1;
    match job {
        // Stdin in order: read it now, holding the queue.
        Job::File(path, t) if path.as_os_str() == OsStr::new("-") => {
            Take::Known(index, t, Some(hash_stdin(hashing, chunk)))
        }
        Job::File(path, t) => Take::File(index, path, t),
        Job::Note(t) => Take::Known(index, t, None),
    }
}

/// Hands finished results to the printer.
fn publish<I, T>(
    shared: &Shared<I, T>,
    results: impl IntoIterator<Item = (usize, T, Option<Outcome>)>,
) {
    let mut state = shared.lock();
    for (index, t, outcome) in results {
        state.done.insert(index, (t, outcome));
    }
    drop(state);
    shared.changed.notify_all();
}

/// A worker: takes jobs one at a time until the queue is empty. Small
/// files are read whole and kept until [`BATCH`] of them are hashed
/// together; they are finished early when the worker meets a larger file,
/// the end of the queue, or a full window.
fn worker<I, T>(shared: &Shared<I, T>, hashing: &Hashing, progress: &Progress)
where
    I: Iterator<Item = Job<T>>,
{
    // The small files held: the k-th is in `buffers[k]`.
    let mut held: Vec<(usize, T)> = Vec::with_capacity(BATCH);
    let mut buffers: Vec<Vec<u8>> = Vec::new();
    let mut chunk = Vec::new();
    let finish = |held: &mut Vec<(usize, T)>, buffers: &[Vec<u8>]| {
        if held.is_empty() {
            return;
        }
        let messages: Vec<&[u8]> = buffers[..held.len()].iter().map(Vec::as_slice).collect();
        let digests = hashing.many(&messages);
        publish(
            shared,
            held.drain(..)
                .zip(digests)
                .map(|((index, t), d)| (index, t, Some(Outcome::Digest(d)))),
        );
    };
    loop {
        match take(shared, !held.is_empty(), hashing, &mut chunk) {
            Take::Stop => return,
            Take::Done => {
                finish(&mut held, &buffers);
                return;
            }
            Take::Finish => finish(&mut held, &buffers),
            Take::Known(index, t, outcome) => publish(shared, [(index, t, outcome)]),
            Take::File(index, path, t) => {
                if buffers.len() == held.len() {
                    buffers.push(Vec::new());
                }
                let outcome = match open(&path) {
                    Ok((mut file, Some(len))) if len <= SMALL => {
                        match read_whole(&mut file, len, &mut buffers[held.len()]) {
                            Ok(()) => {
                                held.push((index, t));
                                if held.len() == BATCH {
                                    finish(&mut held, &buffers);
                                }
                                continue;
                            }
                            Err(e) => Outcome::Failed(e),
                        }
                    }
                    Ok((mut file, len)) => {
                        // Long work: let the printer have the small files.
                        finish(&mut held, &buffers);
                        match hash_long(&mut file, len, hashing, progress, &mut chunk) {
                            Ok(digest) => Outcome::Digest(digest),
                            Err(e) => Outcome::Failed(e),
                        }
                    }
                    Err(e) => Outcome::Failed(e),
                };
                publish(shared, [(index, t, Some(outcome))]);
            }
        }
    }
}

/// Opens a file to hash; its length if it is a regular file.
fn open(path: &Path) -> io::Result<(File, Option<u64>)> {
    let file = File::open(path)?;
    let meta = file.metadata()?;
    let len = meta.is_file().then_some(meta.len());
    Ok((file, len))
}

/// Reads a file of about `len` bytes whole into `buffer` (to its real end,
/// should it have grown). Unlike `File::read_to_end`, this asks the system
/// for nothing but reads.
fn read_whole(file: &mut File, len: u64, buffer: &mut Vec<u8>) -> io::Result<()> {
    let expected = usize::try_from(len).unwrap_or(0);
    buffer.resize(expected + 1, 0);
    let n = read_full(file, buffer)?;
    buffer.truncate(n);
    if n > expected {
        file.read_to_end(buffer)?;
    }
    Ok(())
}

/// Hashes a file that is not small (or not a regular file) in chunks.
fn hash_long(
    file: &mut File,
    len: Option<u64>,
    hashing: &Hashing,
    progress: &Progress,
    chunk: &mut Vec<u8>,
) -> io::Result<Vec<u8>> {
    let mut hasher = hashing.hasher();
    let bar = len.and_then(|l| progress.bar(l));
    let streamed = if len.is_some_and(|l| l >= OVERLAP_FROM) {
        stream_overlapped(file, &mut hasher, bar.as_ref())
    } else {
        stream(file, &mut hasher, bar.as_ref(), chunk)
    };
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    streamed.map(|()| hasher.finalize())
}

/// Hashes standard input.
fn hash_stdin(hashing: &Hashing, chunk: &mut Vec<u8>) -> Outcome {
    let mut hasher = hashing.hasher();
    match stream(&mut crate::io::stdin(), &mut hasher, None, chunk) {
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
