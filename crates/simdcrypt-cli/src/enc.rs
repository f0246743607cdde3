//! `simdcrypt enc`: a block-cipher mode over a file or stdin, byte for byte
//! what `openssl enc -K … -iv …` writes (PKCS#7 padding for ECB and CBC
//! unless `--no-pad`), streaming in bounded memory.

use simdcrypt::block::Padding;
use simdcrypt::dynamic::{Direction, DynMode, ModeOptions, Params};
use simdcrypt::ladder::{self, Construct, Kind, Primitive};

use crate::command::{Context, Subcommand};
use crate::diag::Diag;
use crate::error::CliError;
use crate::io::Input;
use crate::key::{parse_iv, parse_table_key};
use crate::output::{Content, Output};

/// Encrypt or decrypt with a block-cipher mode, as `openssl enc` (unauthenticated)
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The cipher and mode: a block-cipher mode of the library's table
    /// (listed here at run time)
    #[arg(long, value_name = "NAME")]
    pub cipher: String,

    /// The key in hex, as `openssl enc -K`: twice the key length in digits
    #[arg(short = 'K', long, value_name = "HEX", allow_hyphen_values = true)]
    pub key: String,

    /// The IV (CTR: the initial counter block) in hex, as `openssl enc -iv`;
    /// modes with an IV register (GOST R 34.13-2015's, `iv_register` in
    /// `info --json`) take any whole number of blocks
    #[arg(long, value_name = "HEX", allow_hyphen_values = true)]
    pub iv: Option<String>,

    /// Decrypt (the default is to encrypt).
    #[arg(short, long)]
    pub decrypt: bool,

    /// ECB and CBC without PKCS#7 padding: the input must be whole blocks.
    #[arg(long)]
    pub no_pad: bool,

    /// Force a rung by name (default: the fastest constant-time one).
    #[arg(long, visible_alias = "impl", value_name = "NAME")]
    pub rung: Option<String>,

    #[command(flatten)]
    pub files: crate::io::Files,
}

impl Subcommand for Args {
    fn customize(command: clap::Command) -> clap::Command {
        let command = command.mut_arg("cipher", |a| {
            a.help(format!(
                "The cipher and mode: {}",
                ladder::names_of(Kind::Mode)
            ))
        });
        crate::params::flags(command, Kind::Mode)
    }

    fn run(self, matches: &clap::ArgMatches, context: &Context) -> Result<(), CliError> {
        let params = crate::params::given(matches, Kind::Mode);
        run(&self, &params, context.diag)
    }
}

/// Bytes read and processed at a time, per thread.
const BUFFER: usize = 1 << 20;

/// Runs the command.
///
/// # Errors
///
/// Bad arguments, files that cannot be read or written, a rung the CPU
/// lacks; decrypting, bad padding (then no output file is left).
fn run(args: &Args, params: &[(String, String)], diag: Diag) -> Result<(), CliError> {
    let primitive = mode(&args.cipher)?;
    let key = parse_table_key(&args.key, primitive)?;
    let iv = match (primitive.nonce_len, &args.iv) {
        (Some(_), Some(iv)) => parse_iv(iv, primitive)?,
        (Some(len), None) => {
            return Err(CliError::bad_arg(
                "--iv",
                format!(
                    "missing: {} needs a {}-hex-digit IV",
                    primitive.name,
                    2 * len
                ),
            ));
        }
        (None, Some(_)) => {
            diag.warning(format_args!(
                "{} uses no IV: --iv is ignored",
                primitive.name
            ));
            Default::default()
        }
        (None, None) => Default::default(),
    };
    let options = ModeOptions {
        direction: if args.decrypt {
            Direction::Decrypt
        } else {
            Direction::Encrypt
        },
        padding: if args.no_pad {
            Padding::None
        } else {
            Padding::Pkcs7
        },
        rung: args.rung.as_deref(),
        params: Params(&crate::params::as_params(params)),
    };
    let mut mode = primitive.new_mode(&key, &iv, &options)?;
    drop(key);

    let mut input = Input::open(&args.files.input)?;
    let mut output = Output::open(&args.files.output, args.files.force, Content::Binary)?;
    diag.warning(format_args!(
        "{} output is not authenticated; anyone can change it undetected (use an AEAD or `encrypt`)",
        primitive.name
    ));
    let bl = primitive.block_len;
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    // A first block carried from the last read (so that a padded
    // decryption never ends a parallel stretch on the block that may be
    // the padding), then what is read.
    let mut buf = vec![0u8; bl + threads * BUFFER];
    let mut out = vec![0u8; buf.len() + bl];
    let mut carried = 0;
    loop {
        let n = input.read_full(&mut buf[bl..])?;
        let full = bl + n == buf.len();
        let region = bl - carried..bl + n;
        let len = region.len();
        // Whole blocks side by side where the mode can be cut, all but the
        // last block of a full read; the rest through `mode` itself.
        let parallel = if full && threads > 1 && mode.fork(&[]).is_some() {
            len - bl
        } else {
            0
        };
        let (head, tail) = buf[region].split_at(parallel);
        run_parallel(&*mode, head, &mut out[..parallel], threads, bl)?;
        if parallel > 0 && !mode.advance(head) {
            return Err(CliError::Internal("a mode that forks but cannot advance"));
        }
        let keep = if full { bl } else { 0 };
        let (now, later) = tail.split_at(tail.len() - keep);
        let written = parallel + mode.update(now, &mut out[parallel..])?;
        output.write_all(&out[..written])?;
        if !full {
            break;
        }
        let mut carry = [0u8; 16];
        carry[..bl].copy_from_slice(later);
        buf[..bl].copy_from_slice(&carry[..bl]);
        carried = bl;
    }
    // On a failure here the output file is dropped unfinished: nothing is
    // left of it.
    let written = mode.finalize(&mut out)?;
    output.write_all(&out[..written])?;
    buf.fill(0);
    out.fill(0);
    output.finish()
}

/// Runs `input` (whole blocks of `block_len` bytes) through forks of `mode`
/// on `threads` threads, each on its own stretch, into `output`.
fn run_parallel(
    mode: &dyn DynMode,
    input: &[u8],
    output: &mut [u8],
    threads: usize,
    block_len: usize,
) -> Result<(), CliError> {
    if input.is_empty() {
        return Ok(());
    }
    let stretch = input.len().div_ceil(threads).next_multiple_of(block_len);
    std::thread::scope(|scope| {
        let workers: Vec<_> = input
            .chunks(stretch)
            .zip(output.chunks_mut(stretch))
            .enumerate()
            .map(|(i, (piece, out))| {
                let skip = &input[..i * stretch];
                let fork = mode.fork(skip);
                scope.spawn(move || -> Result<(), CliError> {
                    let mut fork = fork.ok_or(CliError::Internal("a mode that cannot fork"))?;
                    fork.update(piece, out)?;
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

/// The block-cipher mode of the table named `name`.
fn mode(name: &str) -> Result<&'static Primitive, CliError> {
    ladder::primitives()
        .map(|(_, p)| p)
        .find(|p| p.name == name && matches!(p.construct, Construct::Mode(_)))
        .ok_or_else(|| CliError::UnknownCipher {
            flag: "--cipher",
            name: name.to_owned(),
            expected: ladder::names_of(Kind::Mode),
        })
}
