//! The signals that end the tool (SIGINT, SIGTERM, SIGHUP, SIGQUIT, and
//! SIGPIPE on a closed output) leave no temporary file behind.
//!
//! An output file is built unnamed where the filesystem allows it
//! (`O_TMPFILE`), which leaves nothing even after SIGKILL; otherwise, and
//! for the instant a replaced file needs a name before the rename, its
//! temporary name is listed here. A thread waits for the signals; on one it
//! removes the listed files and ends the process by the same signal with
//! its default action, so the parent sees how the tool ended (a shell's
//! `$?` is 128 + the signal).
//!
//! Off Unix (Windows) there is no such thread: Ctrl-C and the console's
//! close end the tool at once, and an output being written may leave its
//! hidden temporary file (`.simdcrypt-*.tmp`) beside the output's name;
//! the output itself is never left half-written. A closed output pipe ends
//! the tool with status 1 and no message, its temporary files removed.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, PoisonError};

#[cfg(unix)]
use signal_hook::consts::{SIGHUP, SIGINT, SIGPIPE, SIGQUIT, SIGTERM};
#[cfg(unix)]
use signal_hook::iterator::Signals;

/// Temporary names of unfinished outputs.
static STAGED: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// The list, whatever a panicking holder left (it only ever holds paths).
fn staged() -> MutexGuard<'static, Vec<PathBuf>> {
    STAGED.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Starts the thread that cleans up on SIGINT, SIGTERM, SIGHUP and
/// SIGQUIT. Without it (no thread could be had) the signals keep their
/// default action: a named temporary file may then be left, as before.
#[cfg(unix)]
pub fn install() {
    let Ok(mut signals) = Signals::new([SIGINT, SIGTERM, SIGHUP, SIGQUIT]) else {
        return;
    };
    let _ = std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            if let Some(signal) = signals.forever().next() {
                die_by(signal);
            }
        });
}

/// Off Unix the signals keep their default action (see the module's
/// documentation).
#[cfg(not(unix))]
pub fn install() {}

/// Removes every listed temporary file and returns the list locked, so that
/// no output can be renamed into place before the process ends.
fn remove_staged() -> MutexGuard<'static, Vec<PathBuf>> {
    let files = staged();
    for path in files.iter() {
        let _ = std::fs::remove_file(path);
    }
    files
}

/// Removes every listed temporary file, then ends the process by `signal`
/// with its default action (SIGPIPE included, which Rust's runtime
/// ignores).
#[cfg(unix)]
pub fn die_by(signal: i32) -> ! {
    let _locked = remove_staged();
    let _ = signal_hook::low_level::emulate_default_handler(signal);
    std::process::exit(128 + signal);
}

/// Ends the process as a write to a pipe with no reader would have ended
/// it had SIGPIPE its default action: as `coreutils` does on `… | head`.
#[cfg(unix)]
pub fn die_of_broken_pipe() -> ! {
    die_by(SIGPIPE)
}

/// Off Unix, where there is no SIGPIPE: the temporary files removed, the
/// process ends with status 1 and no message.
#[cfg(not(unix))]
pub fn die_of_broken_pipe() -> ! {
    let _locked = remove_staged();
    std::process::exit(1);
}

/// Runs `f` with the list locked, so that no signal cleans up meanwhile: a
/// temporary file created in `f` is listed before any signal can miss it,
/// and a rename in `f` is not raced by the cleanup.
pub fn with_staged<T>(f: impl FnOnce(&mut Staging<'_>) -> T) -> T {
    let mut list = staged();
    f(&mut Staging { list: &mut list })
}

/// The locked list of temporary names.
pub struct Staging<'a> {
    list: &'a mut Vec<PathBuf>,
}

impl Staging<'_> {
    /// Lists `path` for removal on a signal.
    pub fn add(&mut self, path: &Path) {
        self.list.push(path.to_path_buf());
    }

    /// Takes `path` off the list (it was renamed or removed).
    pub fn remove(&mut self, path: &Path) {
        self.list.retain(|p| p != path);
    }
}
