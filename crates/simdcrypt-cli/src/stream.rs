//! `simdcrypt stream`: raw keystream XOR of a file or of stdin, in bounded
//! memory.

use std::io::IsTerminal;
use std::str::FromStr;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use simdcrypt::Xor;
use simdcrypt::dynamic::{DynStreamCipher, Params, StreamOptions};
use simdcrypt::ladder::{self, Construct, Primitive};

use crate::cli::StreamArgs;
use crate::error::CliError;
use crate::io::Input;
use crate::key::{parse_key, parse_nonce};
use crate::output::{Content, Output};

/// Bytes read, XORed and written at a time, per thread.
const BUFFER: usize = 1 << 20;

/// Inputs at least this long get a progress bar (on a terminal).
const PROGRESS_FROM: u64 = 8 << 20;

/// Runs the command.
///
/// # Errors
///
/// Bad arguments, files that cannot be read or written, a rung the CPU
/// lacks, input that runs past the end of the keystream.
pub fn run(args: &StreamArgs) -> Result<(), CliError> {
    let primitive = stream_cipher(&args.cipher)?;
    let key = parse_key(&args.key, primitive.key_lens.contains(&16), primitive.name)?;
    let nonce = parse_nonce(
        &args.nonce,
        primitive.nonce_len.unwrap_or(0),
        primitive.name,
    )?;
    let xor = args.xor.as_deref().map(Xor::from_str).transpose()?;
    let params = crate::params::as_params(&args.params);
    let options = StreamOptions {
        imp: args.imp.as_deref(),
        xor,
        params: Params(&params),
    };
    let mut cipher = primitive.new_stream(key.bytes(), &nonce, &options)?;
    let start = u128::from(args.counter) * primitive.block_len as u128;
    cipher.seek(start)?;

    let mut input = Input::open(&args.input)?;
    if let Some(len) = input.len() {
        // Refuse a file that runs past the end of the keystream up front,
        // rather than after writing part of the output.
        cipher.seek(start + u128::from(len))?;
        cipher.seek(start)?;
    }
    let mut output = Output::open(&args.output, args.force, Content::Binary)?;

    crate::diag::warning!(
        "raw stream output is not authenticated; anyone can flip bits undetected"
    );
    let progress = progress_bar(input.len());
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut buf = vec![0u8; threads * BUFFER];
    let mut at = start;
    loop {
        let n = input.read_full(&mut buf)?;
        if n == 0 {
            break;
        }
        // A long read is cut between threads, each with its own cipher
        // seeked to its stretch; a short one stays here.
        if threads > 1 && n > BUFFER {
            let build = || primitive.new_stream(key.bytes(), &nonce, &options);
            run_parallel(&build, at, &mut buf[..n], threads)?;
            cipher.seek(at + n as u128)?;
        } else {
            cipher.apply_keystream(&mut buf[..n])?;
        }
        at += n as u128;
        output.write_all(&buf[..n])?;
        if let Some(p) = &progress {
            p.inc(n as u64);
        }
        if n < buf.len() {
            break;
        }
    }
    drop(key);
    buf.fill(0);
    if let Some(p) = progress {
        p.finish_and_clear();
    }
    output.finish()
}

/// XORs `data`, which starts at byte `at` of the keystream, on `threads`
/// threads, each with a cipher of its own from `build`.
fn run_parallel(
    build: &(dyn Fn() -> Result<Box<dyn DynStreamCipher>, simdcrypt::Error> + Sync),
    at: u128,
    data: &mut [u8],
    threads: usize,
) -> Result<(), CliError> {
    let stretch = data.len().div_ceil(threads);
    std::thread::scope(|scope| {
        let workers: Vec<_> = data
            .chunks_mut(stretch)
            .enumerate()
            .map(|(i, piece)| {
                scope.spawn(move || -> Result<(), CliError> {
                    let mut cipher = build()?;
                    cipher.seek(at + (i * stretch) as u128)?;
                    cipher.apply_keystream(piece)?;
                    Ok(())
                })
            })
            .collect();
        workers.into_iter().try_for_each(|w| {
            w.join()
                .map_err(|_| CliError::Internal("a worker thread panicked"))?
        })
    })
}

/// A byte-count bar on stderr for a long file, when stderr is a terminal.
fn progress_bar(len: Option<u64>) -> Option<ProgressBar> {
    let len = len.filter(|&l| l >= PROGRESS_FROM)?;
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(
        "{bar:40} {bytes}/{total_bytes} {binary_bytes_per_sec} eta {eta}",
    ) {
        bar.set_style(style);
    }
    Some(bar)
}

/// The stream cipher of the table named `name`.
fn stream_cipher(name: &str) -> Result<&'static Primitive, CliError> {
    ladder::primitives()
        .map(|(_, p)| p)
        .find(|p| p.name == name && matches!(p.construct, Construct::Stream(_)))
        .ok_or_else(|| CliError::UnknownCipher {
            flag: "--cipher",
            name: name.to_owned(),
            expected: ladder::names_of(ladder::Kind::StreamCipher),
        })
}
