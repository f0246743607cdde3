//! `simdcrypt hash`: file digests in the formats of GNU coreutils'
//! `sha256sum`, `sha224sum`, `sha512sum`, `sha384sum`, `sha1sum` and
//! `md5sum` (version 9.1), and `--check` of their lists.

mod check;
mod engine;
pub(crate) mod format;

use std::cell::RefCell;
use std::ffi::{OsStr, OsString};
use std::io::{self, Write};
use std::num::NonZeroUsize;
use std::path::PathBuf;

use simdcrypt::dynamic::{DynHash, ManyConstructor};
use simdcrypt::ladder::{self, Construct, Kind};

use crate::command::{Context, Subcommand};
use crate::error::CliError;
use engine::{Job, Outcome};
use format::{LineStyle, push_line, quotef, strerror};

/// Print or check file digests, as coreutils' sha256sum, md5sum, ...
#[derive(Debug, clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// The hash: a hash of the library's table (listed here at run time)
    /// [default: the table's first]
    ///
    /// MD5 and SHA-1 are broken for collision resistance: use them only
    /// to compare with old checksum lists.
    #[arg(long, value_name = "NAME", verbatim_doc_comment)]
    pub algo: Option<String>,

    /// Force a rung by name (default: the fastest this CPU runs).
    #[arg(long, visible_alias = "impl", value_name = "NAME")]
    pub rung: Option<String>,

    /// Read checksum lists from the FILEs and check the files they name.
    #[arg(short = 'c', long)]
    pub check: bool,

    /// Write BSD-style lines: `SHA256 (NAME) = HEX`.
    #[arg(long)]
    pub tag: bool,

    /// Read in binary mode (marks lines with `*`; no other difference).
    #[arg(short = 'b', long, overrides_with = "text")]
    pub binary: bool,

    /// Read in text mode (the default; no difference from binary).
    #[arg(short = 't', long, overrides_with = "binary")]
    pub text: bool,

    /// End each output line with NUL, not newline, and do not escape names.
    #[arg(short = 'z', long)]
    pub zero: bool,

    /// With --check: do not fail or report for missing files.
    #[arg(long)]
    pub ignore_missing: bool,

    /// With --check: do not print OK for each verified file.
    #[arg(long, overrides_with_all = ["status", "warn"])]
    pub quiet: bool,

    /// With --check: print nothing; the exit status tells.
    #[arg(long, overrides_with_all = ["quiet", "warn"])]
    pub status: bool,

    /// With --check: fail on improperly formatted checksum lines.
    #[arg(long)]
    pub strict: bool,

    /// With --check: warn about improperly formatted checksum lines.
    #[arg(short = 'w', long, overrides_with_all = ["quiet", "status"])]
    pub warn: bool,

    /// The files (with --check: the lists); `-` or none for stdin.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
}

impl Subcommand for Args {
    fn customize(command: clap::Command) -> clap::Command {
        let hashes = ladder::names_of(Kind::Hash);
        command.mut_arg("algo", |a| {
            let help = format!(
                "The hash: {hashes} [default: the first, {}]",
                hashes.split(", ").next().unwrap_or_default()
            );
            a.long_help(format!(
                "{help}\n\nMD5 and SHA-1 are broken for collision resistance: use them only\n\
                 to compare with old checksum lists."
            ))
            .help(help)
        })
    }

    fn run(self, _: &clap::ArgMatches, _: &Context) -> Result<(), CliError> {
        run(&self)
    }
}

/// A running hash, of whichever hash of the table the run uses.
pub struct Hasher {
    inner: Box<dyn DynHash>,
    output_len: usize,
}

impl Clone for Hasher {
    fn clone(&self) -> Hasher {
        Hasher {
            inner: self.inner.box_clone(),
            output_len: self.output_len,
        }
    }
}

impl Hasher {
    /// Absorbs `data`.
    pub fn update(&mut self, data: &[u8]) {
        self.inner.update(data);
    }

    /// The digest.
    pub fn finalize(self) -> Vec<u8> {
        let mut digest = vec![0; self.output_len];
        self.inner.finalize_into(&mut digest);
        digest
    }
}

/// The hash and rung a run uses.
pub struct Hashing {
    /// The tag of BSD-style lines.
    tag: String,
    /// A fresh hasher on the chosen rung, cloned for each file.
    fresh: Hasher,
    /// The hash's multi-buffer form, for many small files, when it has one
    /// and `--impl` did not choose a rung (the multi-buffer rungs are
    /// others).
    many: Option<ManyConstructor>,
}

impl Hashing {
    /// The hash of the table named `name`, on the rung named `imp`.
    fn new(name: &str, imp: Option<&str>) -> Result<Hashing, CliError> {
        let Some((primitive, new)) = ladder::primitives().find_map(|(_, p)| match p.construct {
            Construct::Hash(new) if p.name == name => Some((p, new)),
            _ => None,
        }) else {
            return Err(CliError::bad_arg(
                "--algo",
                format!(
                    "unknown hash `{name}`: expected one of {}",
                    ladder::names_of(Kind::Hash)
                ),
            ));
        };
        let many = ladder::primitives().find_map(|(_, p)| match p.construct {
            Construct::Many { of, new } if of == name && imp.is_none() => Some(new),
            _ => None,
        });
        Ok(Hashing {
            // As coreutils writes it: the specification's name without its
            // hyphen (`SHA256`, `MD5`; `SHA512/256` as Perl's `shasum --tag`).
            tag: primitive.display.replace('-', ""),
            fresh: Hasher {
                inner: new(imp)?,
                output_len: primitive.output_len.unwrap_or(0),
            },
            many,
        })
    }

    /// The tag of BSD-style lines.
    fn tag(&self) -> &str {
        &self.tag
    }

    /// The digest length in bytes.
    fn output_len(&self) -> usize {
        self.fresh.output_len
    }

    /// A hasher for one message.
    fn hasher(&self) -> Hasher {
        self.fresh.clone()
    }

    /// The digests of `messages`: at once on the multi-buffer rungs where
    /// the hash has them, else one by one.
    fn many(&self, messages: &[&[u8]]) -> Vec<Vec<u8>> {
        if let Some(Ok(digests)) = self.many.map(|many| many(None, messages)) {
            return digests;
        }
        messages
            .iter()
            .map(|m| {
                let mut h = self.hasher();
                h.update(m);
                h.finalize()
            })
            .collect()
    }
}

/// Runs the command.
///
/// # Errors
///
/// Bad options, an unknown hash or rung; [`CliError::Reported`] when a file
/// could not be read or a check failed (the messages are printed already);
/// a failed write to stdout.
fn run(args: &Args) -> Result<(), CliError> {
    validate(args)?;
    let name = match &args.algo {
        Some(name) => name.as_str(),
        None => ladder::first_of(Kind::Hash).map_or("", |p| p.name),
    };
    let hashing = Hashing::new(name, args.rung.as_deref())?;
    let mut files: Vec<OsString> = args.files.iter().map(|f| f.clone().into()).collect();
    if files.is_empty() {
        files.push("-".into());
    }
    let out = Out::new();
    let ok = if args.check {
        check::run(&files, &hashing, args, &out)?
    } else {
        hash_files(&files, &hashing, args, &out)?
    };
    out.flush()?;
    if ok { Ok(()) } else { Err(CliError::Reported) }
}

/// The option combinations coreutils refuses, with its words.
fn validate(args: &Args) -> Result<(), CliError> {
    let refuse = |what: &'static str| Err(CliError::Usage(what));
    if args.tag && args.text {
        return refuse("--tag does not support --text mode");
    }
    if args.check {
        if args.zero {
            return refuse("the --zero option is not supported when verifying checksums");
        }
        if args.tag {
            return refuse("the --tag option is meaningless when verifying checksums");
        }
        if args.binary || args.text {
            return refuse(
                "the --binary and --text options are meaningless when verifying checksums",
            );
        }
        return Ok(());
    }
    let only_check: [(bool, &'static str); 5] = [
        (
            args.ignore_missing,
            "the --ignore-missing option is meaningful only when verifying checksums",
        ),
        (
            args.status,
            "the --status option is meaningful only when verifying checksums",
        ),
        (
            args.warn,
            "the --warn option is meaningful only when verifying checksums",
        ),
        (
            args.quiet,
            "the --quiet option is meaningful only when verifying checksums",
        ),
        (
            args.strict,
            "the --strict option is meaningful only when verifying checksums",
        ),
    ];
    match only_check.iter().find(|(given, _)| *given) {
        Some((_, what)) => refuse(what),
        None => Ok(()),
    }
}

/// Workers for `jobs` jobs (`None`: unknown): one per core, at most 8.
fn threads(jobs: Option<usize>) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, NonZeroUsize::get);
    cores.min(8).min(jobs.unwrap_or(usize::MAX)).max(1)
}

/// Hashes `files`, printing a line for each; `false` if one failed.
fn hash_files(
    files: &[OsString],
    hashing: &Hashing,
    args: &Args,
    out: &Out,
) -> Result<bool, CliError> {
    let style = LineStyle {
        tag: args.tag.then(|| hashing.tag()),
        // `--tag` reads in binary mode, as in coreutils.
        binary: args.binary || args.tag,
        zero: args.zero,
    };
    let mut ok = true;
    let mut line = Vec::new();
    let jobs = files
        .iter()
        .map(|f| Job::File(PathBuf::from(f).into_boxed_path(), f.as_os_str()));
    engine::run(
        jobs,
        hashing,
        threads(Some(files.len())),
        |name, outcome| {
            match outcome {
                Some(Outcome::Digest(digest)) => {
                    line.clear();
                    push_line(&mut line, style, name.as_encoded_bytes(), &digest);
                    out.write(&line)?;
                }
                Some(Outcome::Failed(e)) => {
                    ok = false;
                    out.error(&format!("{}: {}", quote_os(name), strerror(&e)))?;
                }
                None => {}
            }
            Ok(())
        },
        || out.flush(),
    )?;
    Ok(ok)
}

/// [`quotef`] of an OS string.
fn quote_os(name: &OsStr) -> String {
    quotef(name.as_encoded_bytes())
}

/// Standard output, buffered, and messages on standard error in order with
/// it.
pub struct Out(RefCell<io::BufWriter<crate::io::Stdout>>);

impl Out {
    fn new() -> Out {
        Out(RefCell::new(io::BufWriter::with_capacity(
            1 << 16,
            crate::io::stdout(),
        )))
    }

    /// Writes `bytes` on stdout.
    fn write(&self, bytes: &[u8]) -> Result<(), CliError> {
        self.0
            .borrow_mut()
            .write_all(bytes)
            .map_err(CliError::Stdout)
    }

    /// Flushes stdout.
    fn flush(&self) -> Result<(), CliError> {
        self.0.borrow_mut().flush().map_err(CliError::Stdout)
    }

    /// Prints `simdcrypt: MESSAGE` on stderr, after what stdout holds.
    fn error(&self, message: &str) -> Result<(), CliError> {
        self.flush()?;
        // As coreutils' error(): a failed write to stderr is not reported.
        let _ = writeln!(io::stderr().lock(), "simdcrypt: {message}");
        Ok(())
    }
}
