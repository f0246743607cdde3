//! `simdcrypt encrypt`, `decrypt` and `keygen`: age files, with age's
//! flags, on every core; also what the tool does called as `age` and
//! `age-keygen` (`crate::multicall` rewrites their command lines into
//! these subcommands). One module a concern: the subcommands
//! (`encrypt`, `decrypt`, `keygen`), identities and recipients' key files
//! (`identities`, `key_file`), passphrases (`passphrase`), what age does
//! differently on a terminal (`terminal`), and plugins (`plugins`); here,
//! what `encrypt` and `decrypt` share.
//!
//! A file output is written to a temporary file beside it and renamed into
//! place only when the whole file is done (decryption: when the last chunk
//! verified); on any failure the temporary file is removed and an existing
//! file of that name is untouched. On standard output, decryption writes a
//! chunk only after its own tag verified and, on a later failure, says how
//! many bytes went out before it.

pub mod decrypt;
pub mod encrypt;
mod identities;
mod key_file;
pub mod keygen;
mod passphrase;
mod plugins;
mod terminal;

use std::io::{self, IsTerminal, Read, Write};
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::time::Instant;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use simdcrypt_age::Threads;
use simdcrypt_age::armor;

use crate::diag::Diag;
use crate::error::CliError;
use crate::io::Input;

/// Inputs at least this long get a progress bar on a terminal.
pub(super) const PROGRESS_FROM: u64 = 8 << 20;

/// What `encrypt` and `decrypt` share: output, threads, progress,
/// passphrases for scripts.
#[derive(Debug, clap::Args)]
pub struct Common {
    /// Write to OUTPUT (default: standard output). A file is written to a
    /// temporary file beside it and renamed into place when complete.
    #[arg(short, long, value_name = "OUTPUT")]
    pub output: Option<PathBuf>,

    /// Replace an existing OUTPUT file.
    #[arg(long)]
    pub force: bool,

    /// Threads sealing or opening chunks [default: one per core].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Option<u32>,

    /// Show a progress bar on stderr even for a pipe or a small input.
    #[arg(long)]
    pub progress: bool,

    /// Read the passphrase from the first line of FILE (for scripts).
    #[arg(long, value_name = "FILE")]
    pub passphrase_file: Option<PathBuf>,

    /// Plugin: its identity without data, as age's -j, run by
    /// age-plugin-PLUGIN from PATH; may be repeated. `batchpass` is built
    /// in: the passphrase from AGE_PASSPHRASE or AGE_PASSPHRASE_FD.
    #[arg(short = 'j', value_name = "PLUGIN")]
    pub plugins: Vec<String>,

    /// The input (default: standard input).
    #[arg(value_name = "INPUT")]
    pub input: Option<PathBuf>,
}

/// Refuses an output file that is one of the files read (`read`: the
/// input, key and recipients files), as age does: it would be replaced by
/// what is made from it. The same file under another name (a link, `..`)
/// counts.
pub(super) fn refuse_output_in_use<'a>(
    common: &'a Common,
    read: impl IntoIterator<Item = &'a PathBuf>,
) -> Result<(), CliError> {
    let Some(output) = common.output.as_deref().filter(|o| *o != Path::new("-")) else {
        return Ok(());
    };
    let Ok(target) = std::fs::canonicalize(output) else {
        return Ok(()); // a new file is none of the inputs
    };
    let inputs = read
        .into_iter()
        .chain(&common.input)
        .chain(&common.passphrase_file);
    for input in inputs {
        if std::fs::canonicalize(input).is_ok_and(|i| i == target) {
            return Err(CliError::OutputInUse {
                path: output.to_path_buf(),
            });
        }
    }
    Ok(())
}

/// The input file, or standard input.
pub(super) fn open_input(path: Option<&Path>) -> Result<Input, CliError> {
    Input::open(path.unwrap_or(Path::new("-")))
}

/// The `--threads` setting.
pub(super) fn threads(n: Option<u32>) -> Threads {
    n.and_then(|n| NonZeroUsize::new(n as usize))
        .map_or(Threads::Auto, Threads::Count)
}

/// Warns, as age does, about a recipient or key file given twice: harmless,
/// but likely not what was meant.
pub(super) fn warn_duplicates<S: AsRef<str> + Ord>(
    diag: Diag,
    what: &str,
    values: impl Iterator<Item = S>,
) {
    let mut seen = std::collections::BTreeSet::new();
    let mut warned = std::collections::BTreeSet::new();
    for value in values {
        if !seen.insert(value.as_ref().to_owned()) && warned.insert(value.as_ref().to_owned()) {
            diag.warning(format_args!("duplicate {what} \"{}\"", value.as_ref()));
        }
    }
}

/// Whether the bytes that start a file are age's armor (its BEGIN line
/// after any whitespace).
pub(super) fn armored(start: &[u8]) -> bool {
    start
        .trim_ascii_start()
        .starts_with(armor::BEGIN.as_bytes())
}

/// A writer that counts what went through, for "N bytes were written
/// before the error".
pub(super) struct Counted<W> {
    inner: W,
    written: u64,
}

impl<W: Write> Write for Counted<W> {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(data)?;
        self.written += n as u64;
        Ok(n)
    }

    fn write_vectored(&mut self, bufs: &[io::IoSlice<'_>]) -> io::Result<usize> {
        let n = self.inner.write_vectored(bufs)?;
        self.written += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// A byte-count bar on stderr: on a terminal for inputs over a few MiB, or
/// always with `--progress` (then, off a terminal, one summary line).
pub(super) struct Progress {
    /// Drawn on a terminal when wanted, hidden otherwise (it still counts).
    bar: ProgressBar,
    /// With `--progress` off a terminal: the start, the verb and where the
    /// summary line goes.
    summary: Option<(Instant, &'static str, Diag)>,
}

impl Progress {
    /// The bar of an input of `len` bytes (if known), `forced` by
    /// `--progress`, its summary line saying `verb`.
    pub(super) fn new(len: Option<u64>, forced: bool, verb: &'static str, diag: Diag) -> Progress {
        let terminal = io::stderr().is_terminal();
        let wanted = forced || len.is_some_and(|l| l >= PROGRESS_FROM);
        let bar = if wanted && terminal {
            let bar = ProgressBar::with_draw_target(len, ProgressDrawTarget::stderr());
            if let Ok(style) = ProgressStyle::with_template(
                "{bar:40} {bytes}/{total_bytes} {binary_bytes_per_sec} eta {eta}",
            ) {
                bar.set_style(style);
            }
            bar
        } else {
            ProgressBar::hidden()
        };
        let summary = (forced && !terminal).then(|| (Instant::now(), verb, diag));
        Progress { bar, summary }
    }

    /// `input`, counting into the bar as it is read.
    pub(super) fn reader<R: Read + Send>(&self, input: R) -> impl Read + Send + use<R> {
        self.bar.wrap_read(input)
    }

    /// Ends the bar, and says the summary where one is due.
    pub(super) fn finish(self) {
        self.bar.finish_and_clear();
        if let Some((start, verb, diag)) = self.summary {
            let secs = start.elapsed().as_secs_f64();
            let bytes = self.bar.position();
            diag.line(format_args!(
                "{verb} {bytes} bytes of input in {secs:.2} s ({:.0} MB/s)",
                bytes as f64 / secs.max(1e-9) / 1e6
            ));
        }
    }
}

impl Drop for Progress {
    /// A command that fails leaves no half-drawn bar above its message.
    fn drop(&mut self) {
        self.bar.finish_and_clear();
    }
}
