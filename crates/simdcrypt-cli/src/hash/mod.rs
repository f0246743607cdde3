//! `simdcrypt hash`: file digests in the formats of GNU coreutils'
//! `sha256sum`, `sha224sum`, `sha512sum`, `sha384sum`, `sha1sum` and
//! `md5sum` (version 9.1), and `--check` of their lists.

mod check;
mod engine;
mod format;

use std::cell::RefCell;
use std::ffi::{OsStr, OsString};
use std::io::{self, Write};
use std::num::NonZeroUsize;
use std::path::PathBuf;

use crate::cli::HashArgs;
use crate::error::CliError;
use engine::{Job, Outcome};
use format::{LineStyle, push_line, quotef, strerror};

/// Declares the hashes `--algo` offers, one line each: the `--algo` name,
/// the tag of `--tag` lines (as coreutils writes it), the type in
/// `simdcrypt::hash` and the module of its rungs (`--impl`).
macro_rules! algorithms {
    ($( $Variant:ident: $name:literal, tag $tag:literal, $Type:ident, $family:ident; )+) => {
        /// A hash `--algo` names.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Algo {
            $( #[doc = $tag] $Variant, )+
        }

        impl Algo {
            /// Every hash built.
            const ALL: &'static [Algo] = &[$( Algo::$Variant, )+];

            /// The `--algo` name.
            pub fn name(self) -> &'static str {
                match self { $( Algo::$Variant => $name, )+ }
            }

            /// The tag of BSD-style lines.
            fn tag(self) -> &'static str {
                match self { $( Algo::$Variant => $tag, )+ }
            }

            /// Digest length in bytes.
            fn output_len(self) -> usize {
                match self { $( Algo::$Variant => simdcrypt::hash::$Type::OUTPUT_LEN, )+ }
            }

            /// A fresh hasher on the fastest rung.
            fn fresh(self) -> Hasher {
                match self { $( Algo::$Variant => Hasher::$Variant(simdcrypt::hash::$Type::new()), )+ }
            }

            /// A fresh hasher on the rung named `imp`.
            pub fn with_impl(self, imp: &str) -> Result<Hasher, CliError> {
                Ok(match self {
                    $( Algo::$Variant => Hasher::$Variant(
                        simdcrypt::hash::$Type::new()
                            .with_impl(simdcrypt::hash::$family::Impl::from_name(imp)?)?,
                    ), )+
                })
            }
        }

        /// A running hash of any [`Algo`].
        #[derive(Clone)]
        pub enum Hasher {
            $( #[doc = $tag] $Variant(simdcrypt::hash::$Type), )+
        }

        impl Hasher {
            /// Absorbs `data`.
            pub fn update(&mut self, data: &[u8]) {
                match self { $( Hasher::$Variant(h) => h.update(data), )+ }
            }

            /// The digest.
            pub fn finalize(self) -> Vec<u8> {
                match self { $( Hasher::$Variant(h) => h.finalize().to_vec(), )+ }
            }
        }
    };
}

algorithms! {
    Sha256: "sha256", tag "SHA256", Sha256, sha256;
    Sha224: "sha224", tag "SHA224", Sha224, sha256;
    Sha1: "sha1", tag "SHA1", Sha1, sha1;
    Md5: "md5", tag "MD5", Md5, md5;
    Sha512: "sha512", tag "SHA512", Sha512, sha512;
    Sha384: "sha384", tag "SHA384", Sha384, sha512;
    // SHA-512/256 has no coreutils tool: its tag is the one Perl's
    // `shasum -a 512256 --tag` writes (FreeBSD writes `SHA512t256`,
    // OpenSSL `SHA2-512/256`).
    Sha512_256: "sha512-256", tag "SHA512/256", Sha512_256, sha512;

}

/// Every name `--algo` accepts, built or not.
pub const NAMES: &[&str] = &[
    "sha256",
    "sha224",
    "sha512",
    "sha384",
    "sha512-256",
    "sha1",
    "md5",
];

impl Algo {
    /// The hash `--algo NAME` names.
    pub fn from_name(name: &str) -> Result<Algo, CliError> {
        if let Some(&algo) = Algo::ALL.iter().find(|a| a.name() == name) {
            return Ok(algo);
        }
        let message = if NAMES.contains(&name) {
            format!("{name} is not built into this version yet")
        } else {
            format!(
                "unknown hash `{name}`: expected one of {}",
                NAMES.join(", ")
            )
        };
        Err(CliError::bad_arg("--algo", message))
    }
}

/// The digests of `messages`, all of one hash, on the fastest rungs: the
/// multi-buffer functions where the hash has them.
pub fn digest_many(algo: Algo, messages: &[&[u8]]) -> Vec<Vec<u8>> {
    match algo {
        Algo::Sha256 => simdcrypt::hash::sha256_many(messages)
            .iter()
            .map(|d| d.to_vec())
            .collect(),
        Algo::Md5 => simdcrypt::hash::md5_many(messages)
            .iter()
            .map(|d| d.to_vec())
            .collect(),
        _ => one_by_one(&algo.fresh(), messages),
    }
}

/// The digests of `messages`, each by a clone of `fresh`.
fn one_by_one(fresh: &Hasher, messages: &[&[u8]]) -> Vec<Vec<u8>> {
    messages
        .iter()
        .map(|m| {
            let mut h = fresh.clone();
            h.update(m);
            h.finalize()
        })
        .collect()
}

/// The hash and rung a run uses.
pub struct Hashing {
    algo: Algo,
    /// A fresh hasher on the chosen rung, cloned for each file.
    fresh: Hasher,
    /// Whether `--impl` chose the rung (then the multi-buffer path, which
    /// has rungs of its own, is not taken).
    forced: bool,
}

impl Hashing {
    fn new(algo: Algo, imp: Option<&str>) -> Result<Hashing, CliError> {
        Ok(Hashing {
            algo,
            fresh: match imp {
                Some(name) => algo.with_impl(name)?,
                None => algo.fresh(),
            },
            forced: imp.is_some(),
        })
    }

    /// A hasher for one message.
    fn hasher(&self) -> Hasher {
        self.fresh.clone()
    }

    /// The digests of `messages`.
    fn many(&self, messages: &[&[u8]]) -> Vec<Vec<u8>> {
        if self.forced {
            one_by_one(&self.fresh, messages)
        } else {
            digest_many(self.algo, messages)
        }
    }
}

/// Runs the command.
///
/// # Errors
///
/// Bad options, an unknown hash or rung; [`CliError::Reported`] when a file
/// could not be read or a check failed (the messages are printed already);
/// a failed write to stdout.
pub fn run(args: &HashArgs) -> Result<(), CliError> {
    validate(args)?;
    let algo = Algo::from_name(&args.algo)?;
    let hashing = Hashing::new(algo, args.imp.as_deref())?;
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
fn validate(args: &HashArgs) -> Result<(), CliError> {
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
    args: &HashArgs,
    out: &Out,
) -> Result<bool, CliError> {
    let style = LineStyle {
        tag: args.tag.then(|| hashing.algo.tag()),
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
