//! Everything the tool reports as `simdcrypt: error: …`: one line that says
//! what was wrong and what was expected.

use std::io;
use std::path::{Path, PathBuf};

use thiserror::Error;

/// A failure of one command; `main` prints it on one line and exits with 1.
#[derive(Debug, Error)]
pub enum CliError {
    /// A command-line value that does not parse (a key, a nonce, a name).
    #[error("{flag}: {message}")]
    BadArg {
        /// The option, e.g. `--key`.
        flag: &'static str,
        /// What was wrong and what was expected.
        message: String,
    },
    /// A cipher name no cipher has.
    #[error("{flag}: unknown cipher `{name}`: expected one of {expected}")]
    UnknownCipher {
        /// The option, `--cipher` or `--algo`.
        flag: &'static str,
        /// The name given.
        name: String,
        /// The names that exist.
        expected: String,
    },
    /// The library refused (an unknown or unavailable rung, an exhausted
    /// keystream, a malformed `SIMDCRYPT_MAX_ISA`).
    #[error(transparent)]
    Library(#[from] simdcrypt::Error),
    /// The input file cannot be opened.
    #[error("cannot open input file '{}': {source}", .path.display())]
    OpenInput {
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// The input is a directory.
    #[error("input '{}' is a directory: expected a file", .path.display())]
    InputNotFile {
        /// The path.
        path: PathBuf,
    },
    /// Reading the input failed.
    #[error("cannot read {}: {source}", describe(.path, "standard input"))]
    Read {
        /// The input, `None` for stdin.
        path: Option<PathBuf>,
        /// Why.
        source: io::Error,
    },
    /// Writing the output failed.
    #[error("cannot write {}: {source}", describe(.path, "standard output"))]
    Write {
        /// The output, `None` for stdout.
        path: Option<PathBuf>,
        /// Why.
        source: io::Error,
    },
    /// The output exists and `--force` was not given.
    #[error("output file '{}' exists: pass --force to overwrite", .path.display())]
    OutputExists {
        /// The file.
        path: PathBuf,
    },
    /// The output is also an input (the data, a key file), as age refuses.
    #[error("input and output file are the same: '{}' is read and would be replaced", .path.display())]
    OutputInUse {
        /// The output, which is also an input.
        path: PathBuf,
    },
    /// The output is a directory, or a name ending in `/`.
    #[error("output '{}' is a directory: expected a file name", .path.display())]
    OutputIsDir {
        /// The path.
        path: PathBuf,
    },
    /// The output's directory does not exist.
    #[error("the directory '{}' of the output file does not exist", .dir.display())]
    OutputDirMissing {
        /// The directory.
        dir: PathBuf,
    },
    /// The temporary file beside the output cannot be created.
    #[error("cannot create a temporary file in '{}' for the output: {source}", .dir.display())]
    TempFile {
        /// The directory.
        dir: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// The finished temporary file cannot be renamed onto the output.
    #[error("cannot move the finished output into place as '{}': {source}", .path.display())]
    Persist {
        /// The output file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// Binary output would go to a terminal.
    #[error(
        "refusing to write binary output to a terminal: pass -o FILE or redirect standard output"
    )]
    OutputIsTerminal,
    /// Some checks of `verify` failed.
    #[error("verify: {failed} check(s) failed (see the report on standard output)")]
    VerifyFailed {
        /// How many.
        failed: usize,
    },
    /// Options that do not go together (in coreutils' words).
    #[error("{0}")]
    Usage(&'static str),
    /// Something failed and was reported already (`hash`: a file that
    /// could not be read, a checksum that did not match); exit status 1.
    #[error("see the messages above")]
    Reported,
    /// An age file could not be made or read: the library's message says
    /// what and why.
    #[error("{0}")]
    Age(#[source] simdcrypt_age::Error),
    /// Decryption to standard output or a device failed after some
    /// plaintext went out.
    #[error(
        "{source} ({written} bytes of verified plaintext were written to {place} before the error; discard them)"
    )]
    AgeAfterOutput {
        /// What failed.
        source: simdcrypt_age::Error,
        /// Bytes written before it.
        written: u64,
        /// Where they went: `standard output` or a quoted path.
        place: String,
    },
    /// A line of an identity or recipients file does not parse.
    #[error("{}{}: {source}", .path.display(), line_of(*.line))]
    KeyFile {
        /// The file.
        path: PathBuf,
        /// The line, 1-based; `None` for the file as a whole.
        line: Option<usize>,
        /// Why.
        source: simdcrypt_age::Error,
    },
    /// An identity or recipients file is larger than age reads.
    #[error("'{}' is larger than {limit} bytes: not a key file", .path.display())]
    KeyFileTooLarge {
        /// The file.
        path: PathBuf,
        /// The most read.
        limit: u64,
    },
    /// Memory for input-sized data could not be had.
    #[error("out of memory: {what} needs {bytes} bytes")]
    OutOfMemory {
        /// What wanted it.
        what: &'static str,
        /// How much.
        bytes: u64,
    },
    /// A passphrase could not be had.
    #[error("passphrase: {why}")]
    Passphrase {
        /// Why.
        why: String,
    },
    /// A bug, caught without a panic.
    #[error("internal error: {0} (a bug: please report it)")]
    Internal(&'static str),
    /// Printing a report failed (a closed pipe, a full disk).
    #[error("cannot write standard output: {0}")]
    Stdout(#[source] io::Error),
}

impl CliError {
    /// Whether the failure is a write to a pipe with no reader left, at any
    /// depth of its sources: such a command ends silently by SIGPIPE, as
    /// coreutils' do.
    pub fn is_broken_pipe(&self) -> bool {
        let mut cause: Option<&(dyn std::error::Error + 'static)> = Some(self);
        while let Some(e) = cause {
            if let Some(io) = e.downcast_ref::<io::Error>()
                && io.kind() == io::ErrorKind::BrokenPipe
            {
                return true;
            }
            cause = e.source();
        }
        false
    }
}

fn line_of(line: Option<usize>) -> String {
    line.map_or_else(String::new, |n| format!(" line {n}"))
}

fn describe(path: &Option<PathBuf>, stream: &str) -> String {
    match path {
        Some(p) => format!("'{}'", p.display()),
        None => stream.to_owned(),
    }
}

impl CliError {
    /// A bad value of `flag`.
    pub fn bad_arg(flag: &'static str, message: impl Into<String>) -> CliError {
        CliError::BadArg {
            flag,
            message: message.into(),
        }
    }

    /// Reading `path` (or stdin) failed.
    pub fn read(path: Option<&Path>, source: io::Error) -> CliError {
        CliError::Read {
            path: path.map(Path::to_path_buf),
            source,
        }
    }

    /// Writing `path` (or stdout) failed.
    pub fn write(path: Option<&Path>, source: io::Error) -> CliError {
        CliError::Write {
            path: path.map(Path::to_path_buf),
            source,
        }
    }
}

impl From<io::Error> for CliError {
    /// Report output (tables, JSON) goes to stdout.
    fn from(e: io::Error) -> CliError {
        CliError::Stdout(e)
    }
}
