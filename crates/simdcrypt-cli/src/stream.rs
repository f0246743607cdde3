//! `simdcrypt stream`: raw keystream XOR of a file or of stdin, in bounded
//! memory.

use std::io::IsTerminal;
use std::str::FromStr;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use simdcrypt::Xor;
use simdcrypt::dynamic::{DynStreamCipher, Params, StreamOptions};
use simdcrypt::ladder::{self, Construct, Primitive};

use crate::command::{Context, Subcommand};
use crate::diag::Diag;
use crate::error::CliError;
use crate::io::Input;
use crate::key::{parse_key, parse_nonce};
use crate::output::{Content, Output};

/// XOR a file or stdin with raw keystream (unauthenticated)
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The cipher: a stream cipher of the library's table (listed here at
    /// run time; `simdcrypt info` shows each with its rungs)
    #[arg(long, value_name = "NAME")]
    pub cipher: String,

    /// The key: 64 hex digits, 32 for 128 bits, or int:NUMBER
    ///
    /// Hex is in byte order as written, as `openssl enc -K`; 32 digits select
    /// the 128-bit form of a cipher that has one (Salsa20's "expand 16-byte
    /// k").
    /// `int:` and an unsigned number (decimal, 0x hex, 0o octal, 0b binary)
    /// of at most 256 bits is stored little-endian: key byte 0 is the least
    /// significant byte of the number.
    #[arg(
        long,
        value_name = "KEY",
        allow_hyphen_values = true,
        verbatim_doc_comment
    )]
    pub key: String,

    /// The nonce in hex: twice the cipher's nonce length in bytes.
    #[arg(long, value_name = "HEX", allow_hyphen_values = true)]
    pub nonce: String,

    /// The first 64-byte keystream block (output byte 0 = keystream byte 64·C)
    ///
    /// As libsodium's crypto_stream_*_xor_ic. For RFC 8439's ChaCha20 this
    /// is the 32-bit counter that `openssl enc -chacha20` takes as the
    /// first 4 bytes (little-endian) of its 16-byte -iv, the nonce being
    /// the other 12.
    #[arg(long, value_name = "C", default_value_t = 0, verbatim_doc_comment)]
    pub counter: u64,

    /// Force a rung by name (default: the fastest this CPU runs).
    #[arg(long, visible_alias = "impl", value_name = "NAME")]
    pub rung: Option<String>,

    /// XOR form of single-block rungs: c0 (byte-wise) or c1 (16-byte SIMD)
    #[arg(long, value_name = "FORM")]
    pub xor: Option<String>,

    #[command(flatten)]
    pub files: crate::io::Files,
}

impl Subcommand for Args {
    fn customize(command: clap::Command) -> clap::Command {
        let streams = ladder::names_of(ladder::Kind::StreamCipher);
        let command = command.mut_arg("cipher", |a| a.help(format!("The cipher: {streams}")));
        crate::params::flags(command, ladder::Kind::StreamCipher)
    }

    fn run(self, matches: &clap::ArgMatches, context: &Context) -> Result<(), CliError> {
        let params = crate::params::given(matches, ladder::Kind::StreamCipher);
        run(&self, &params, context.diag)
    }
}

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
fn run(args: &Args, params: &[(String, String)], diag: Diag) -> Result<(), CliError> {
    let primitive = stream_cipher(&args.cipher)?;
    let key = parse_key(&args.key, primitive.key_lens.contains(&16), primitive.name)?;
    let nonce = parse_nonce(
        &args.nonce,
        primitive.nonce_len.unwrap_or(0),
        primitive.name,
    )?;
    let xor = args.xor.as_deref().map(Xor::from_str).transpose()?;
    let params = crate::params::as_params(params);
    let options = StreamOptions {
        rung: args.rung.as_deref(),
        xor,
        params: Params(&params),
    };
    let mut cipher = primitive.new_stream(key.bytes(), &nonce, &options)?;
    let start = u128::from(args.counter) * primitive.block_len as u128;
    cipher.seek(start)?;

    let mut input = Input::open(&args.files.input)?;
    if let Some(len) = input.len() {
        // Refuse a file that runs past the end of the keystream up front,
        // rather than after writing part of the output.
        cipher.seek(start + u128::from(len))?;
        cipher.seek(start)?;
    }
    let mut output = Output::open(&args.files.output, args.files.force, Content::Binary)?;

    diag.warning(format_args!(
        "raw stream output is not authenticated; anyone can flip bits undetected"
    ));
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
