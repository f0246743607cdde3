//! Output files, owned in one place: every command that writes a file
//! opens it here, so every one keeps the same promises.
//!
//! - `-` (and `/dev/stdout`, or any path naming descriptor 1) is standard
//!   output; binary data is not written to a terminal.
//! - A path is followed through its symbolic links; a link itself is never
//!   replaced.
//! - A regular file (new, or existing with `--force`) is built in its own
//!   directory and put in place only when whole: unnamed (`O_TMPFILE`,
//!   linked into place at the end, so nothing is left even after SIGKILL)
//!   where the filesystem allows, under a hidden temporary name that the
//!   signal handler removes otherwise. A replaced file's mode (and owner,
//!   where the process may) carries over; a new file follows the umask; a
//!   secret key file is 0600.
//! - A character device, FIFO or terminal (`/dev/null`, `<(…)`), or another
//!   descriptor of ours named by path, is written in place, as a shell's
//!   `>` would; an existing block device only with `--force`.
//!
//! Everything that can be checked before the work starts is checked when
//! the output is opened, so a command refuses an existing file or a missing
//! directory before it asks for a passphrase or reads its input.
//!
//! Unnamed files are Linux's (`O_TMPFILE` and `/proc`); other Unix systems
//! always use a temporary name. Off Unix (Windows) a file is still built
//! under a hidden temporary name and renamed into place when whole, but
//! modes and owners are Unix's: a new file, a secret key file included,
//! gets the permissions its directory gives (on Windows, the ACL it
//! inherits), a replaced file's do not carry over, and nothing is a block
//! device.

#[cfg(unix)]
use std::fs::Permissions;
use std::fs::{self, File, Metadata};
use std::io::{self, Write};
#[cfg(target_os = "linux")]
use std::os::fd::AsRawFd;
#[cfg(unix)]
use std::os::unix::fs::{FileTypeExt, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

#[cfg(target_os = "linux")]
use rustix::fs::{AtFlags, CWD, Mode, OFlags};
use tempfile::TempPath;

use crate::error::CliError;
use crate::signals::with_staged;

/// Symbolic links followed before giving up, as the kernel's `ELOOP`.
const MAX_LINKS: usize = 40;

/// The mode of a new file before the umask (Unix only).
const NEW_FILE_MODE: u32 = 0o666;

/// The mode of a file holding a secret key, whatever the umask (Unix
/// only).
const SECRET_FILE_MODE: u32 = 0o600;

/// What the output will hold, which decides where it may go and with what
/// mode.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Content {
    /// Binary data: refused on a terminal.
    Binary,
    /// Text a person may read on a terminal.
    Text,
    /// A secret key as text: a file of mode 0600.
    Secret,
    /// Decrypted data: on a terminal, written only while it is printable
    /// text; unprintable data (binary, or escape sequences) is refused
    /// there, as rage refuses it.
    Plaintext,
}

/// Where data goes.
pub enum Output {
    /// Standard output.
    Stdout(crate::io::Stdout),
    /// Standard output on a terminal, for [`Content::Plaintext`]: every
    /// write is checked to be printable first.
    Terminal(crate::io::Stdout),
    /// Something that is not a regular file, written as it is.
    InPlace {
        /// The open file.
        file: File,
        /// Its path, for messages.
        path: PathBuf,
    },
    /// A regular file built aside and put in place by [`Output::finish`];
    /// dropped unfinished, it leaves nothing.
    File(Staged),
}

/// A regular file being built beside its final name.
pub struct Staged {
    file: io::BufWriter<File>,
    /// How the file is named while it is built.
    name: StagedName,
    /// The name given, for messages.
    shown: PathBuf,
    /// The final name, links resolved.
    target: PathBuf,
    /// Whether an existing file may be replaced.
    force: bool,
}

/// How a file under construction is named.
enum StagedName {
    /// Not at all (`O_TMPFILE`): linked into place at the end.
    #[cfg(target_os = "linux")]
    Unnamed,
    /// A hidden temporary name, listed for the signal handler, removed on
    /// drop.
    Temporary(Listed),
}

/// A temporary file listed for removal on a signal; removed and unlisted
/// when dropped.
struct Listed(Option<TempPath>);

impl Drop for Listed {
    fn drop(&mut self) {
        if let Some(temp) = self.0.take() {
            with_staged(|list| {
                list.remove(&temp);
                drop(temp);
            });
        }
    }
}

/// A path after its symbolic links.
enum Resolved {
    /// A descriptor of this process (`/dev/stdout`, `/dev/fd/N`,
    /// `/proc/self/fd/N`), numbered.
    Descriptor(u32, PathBuf),
    /// Anything else: the path of what it names (which may not exist).
    Path(PathBuf),
}

impl Output {
    /// Opens `path` (stdout for `-`) for `content`: refuses an existing
    /// regular file unless `force`, follows links, and prepares the file
    /// aside.
    ///
    /// # Errors
    ///
    /// An existing output without `force`, a directory, a missing
    /// directory, a path ending in `/`, a link loop, a directory that takes
    /// no file; binary data for a terminal.
    pub fn open(path: &Path, force: bool, content: Content) -> Result<Output, CliError> {
        if path.as_os_str() == "-" {
            return Self::stdout(content);
        }
        if path.as_os_str().as_encoded_bytes().ends_with(b"/") {
            return Err(CliError::OutputIsDir {
                path: path.to_path_buf(),
            });
        }
        let target = match resolve(path)? {
            Resolved::Descriptor(1, _) => return Self::stdout(content),
            Resolved::Descriptor(_, named) => {
                return Self::in_place(path, &named, File::options().append(true));
            }
            Resolved::Path(target) => target,
        };
        let existing = match fs::metadata(&target) {
            Ok(meta) => Some(meta),
            Err(e) if e.kind() == io::ErrorKind::NotFound => None,
            Err(e) => return Err(CliError::write(Some(path), e)),
        };
        let replaced = match existing {
            Some(meta) if meta.is_dir() => {
                return Err(CliError::OutputIsDir {
                    path: path.to_path_buf(),
                });
            }
            Some(meta) if meta.is_file() || is_block_device(&meta) => {
                if !force {
                    return Err(CliError::OutputExists {
                        path: path.to_path_buf(),
                    });
                }
                if !meta.is_file() {
                    return Self::in_place(path, &target, File::options().write(true));
                }
                Some(meta)
            }
            Some(_) => return Self::in_place(path, &target, File::options().write(true)),
            None => None,
        };
        let dir = match target.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        if !dir.is_dir() {
            return Err(CliError::OutputDirMissing { dir });
        }
        let mode = if content == Content::Secret {
            SECRET_FILE_MODE
        } else {
            NEW_FILE_MODE
        };
        let (file, name) = stage(&dir, mode).map_err(|e| CliError::TempFile {
            dir: dir.clone(),
            // The error's text would name the random temporary name; its
            // kind says what matters ("permission denied").
            source: e.kind().into(),
        })?;
        if let Some(old) = replaced {
            keep_owner_and_mode(&file, &old, content);
        }
        Ok(Output::File(Staged {
            file: io::BufWriter::with_capacity(1 << 16, file),
            name,
            shown: path.to_path_buf(),
            target,
            force,
        }))
    }

    fn stdout(content: Content) -> Result<Output, CliError> {
        let stdout = crate::io::stdout();
        if !stdout.is_terminal() {
            return Ok(Output::Stdout(stdout));
        }
        match content {
            Content::Binary => Err(CliError::OutputIsTerminal),
            Content::Plaintext => Ok(Output::Terminal(stdout)),
            Content::Text | Content::Secret => Ok(Output::Stdout(stdout)),
        }
    }

    fn in_place(shown: &Path, path: &Path, options: &fs::OpenOptions) -> Result<Output, CliError> {
        let file = options
            .open(path)
            .map_err(|e| CliError::write(Some(shown), e))?;
        Ok(Output::InPlace {
            file,
            path: shown.to_path_buf(),
        })
    }

    /// Where the output goes, for messages: `standard output` or the quoted
    /// path.
    pub fn describe(&self) -> String {
        match self.path() {
            None => "standard output".to_owned(),
            Some(path) => format!("'{}'", path.display()),
        }
    }

    /// Whether the output is a regular file, which appears only when whole.
    pub fn is_file(&self) -> bool {
        matches!(self, Output::File(_))
    }

    fn path(&self) -> Option<&Path> {
        match self {
            Output::Stdout(_) | Output::Terminal(_) => None,
            Output::InPlace { path, .. } => Some(path),
            Output::File(staged) => Some(&staged.shown),
        }
    }

    /// Writes all of `data`.
    ///
    /// # Errors
    ///
    /// A write error, naming the output.
    pub fn write_all(&mut self, data: &[u8]) -> Result<(), CliError> {
        self.check(&[data])
            .and_then(|()| self.sink().write_all(data))
            .map_err(|e| CliError::write(self.path(), e))
    }

    /// Flushes, and puts a finished file in place (without replacing a file
    /// that appeared meanwhile, unless `force`). The file is not synced to
    /// the disk first, as `age`, `cp` and `sha256sum` do not: waiting for
    /// the disk tripled the time to encrypt 1 GiB to a file, and what the
    /// rename guarantees (a failed run leaves nothing half-written) does
    /// not depend on it.
    ///
    /// # Errors
    ///
    /// When flushing or the rename fails; nothing is left.
    pub fn finish(self) -> Result<(), CliError> {
        match self {
            Output::File(staged) => staged.finish(),
            mut other => other
                .sink()
                .flush()
                .map_err(|e| CliError::write(other.path(), e)),
        }
    }
}

impl Staged {
    fn finish(self) -> Result<(), CliError> {
        let Staged {
            file,
            name,
            shown,
            target,
            force,
        } = self;
        let file = file
            .into_inner()
            .map_err(|e| CliError::write(Some(&shown), e.into_error()))?;
        // Off Linux a file is only ever placed by its name: closed first.
        #[cfg(not(target_os = "linux"))]
        drop(file);
        let placed = with_staged(|_| match &name {
            #[cfg(target_os = "linux")]
            StagedName::Unnamed => link_into_place(&file, &target, force),
            StagedName::Temporary(Listed(Some(temp))) => {
                if force {
                    fs::rename(temp, &target)
                } else {
                    // A hard link fails on an existing name; the temporary
                    // name is dropped (removed) after.
                    fs::hard_link(temp, &target)
                }
            }
            StagedName::Temporary(Listed(None)) => Ok(()),
        });
        drop(name);
        match placed {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                Err(CliError::OutputExists { path: shown })
            }
            Err(source) => Err(CliError::Persist {
                path: shown,
                source,
            }),
        }
    }
}

/// Follows `path`'s symbolic links to what it names, stopping at a name of
/// one of this process's descriptors.
fn resolve(path: &Path) -> Result<Resolved, CliError> {
    let mut current = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        if let Some(fd) = descriptor_number(&current) {
            return Ok(Resolved::Descriptor(fd, current));
        }
        match current.symlink_metadata() {
            Ok(meta) if meta.file_type().is_symlink() => {
                let link = fs::read_link(&current).map_err(|e| CliError::write(Some(path), e))?;
                current = match current.parent() {
                    Some(dir) if link.is_relative() => dir.join(link),
                    _ => link,
                };
            }
            _ => return Ok(Resolved::Path(current)),
        }
    }
    #[cfg(unix)]
    let too_many = io::Error::from_raw_os_error(libc::ELOOP);
    #[cfg(not(unix))]
    let too_many = io::Error::other("too many levels of symbolic links");
    Err(CliError::write(Some(path), too_many))
}

/// Whether `meta` is a block device's (never off Unix).
fn is_block_device(meta: &Metadata) -> bool {
    #[cfg(unix)]
    return meta.file_type().is_block_device();
    #[cfg(not(unix))]
    return {
        let _ = meta;
        false
    };
}

/// The descriptor a path names, if it is one of ours: `/dev/stdout`,
/// `/dev/fd/N`, `/proc/self/fd/N`, `/proc/PID/fd/N` with our PID.
fn descriptor_number(path: &Path) -> Option<u32> {
    let text = path.to_str()?;
    match text {
        "/dev/stdin" => return Some(0),
        "/dev/stdout" => return Some(1),
        "/dev/stderr" => return Some(2),
        _ => {}
    }
    let own = format!("/proc/{}/fd/", std::process::id());
    ["/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/", &own]
        .iter()
        .find_map(|prefix| text.strip_prefix(prefix)?.parse().ok())
}

/// Creates the file under construction in `dir` with `mode` (before the
/// umask; ignored off Unix): unnamed where the system, the filesystem and
/// `/proc` allow, else under a listed temporary name.
fn stage(dir: &Path, mode: u32) -> io::Result<(File, StagedName)> {
    with_staged(|list| {
        #[cfg(target_os = "linux")]
        if unnamed_files_wanted() {
            let unnamed = rustix::fs::open(
                dir,
                OFlags::WRONLY | OFlags::TMPFILE | OFlags::CLOEXEC,
                Mode::from_raw_mode(mode),
            );
            if let Ok(fd) = unnamed {
                return Ok((File::from(fd), StagedName::Unnamed));
            }
        }
        let mut builder = tempfile::Builder::new();
        builder.prefix(".simdcrypt-").suffix(".tmp");
        #[cfg(unix)]
        builder.permissions(Permissions::from_mode(mode));
        #[cfg(not(unix))]
        let _ = mode;
        let named = builder.tempfile_in(dir)?;
        let (file, temp) = named.into_parts();
        list.add(&temp);
        Ok((file, StagedName::Temporary(Listed(Some(temp)))))
    })
}

/// Whether to try `O_TMPFILE`: it needs `/proc` to be linked into place.
/// `SIMDCRYPT_NO_TMPFILE=1` turns it off, so the tests can run the named
/// fallback that filesystems without it get.
#[cfg(target_os = "linux")]
fn unnamed_files_wanted() -> bool {
    std::env::var_os("SIMDCRYPT_NO_TMPFILE").is_none_or(|v| v != "1")
        && Path::new("/proc/self/fd").is_dir()
}

/// Gives an unnamed file the name `target`: directly when nothing may be
/// replaced (failing if the name exists), else under a temporary name
/// renamed over the target. Called with the signal list locked, so the
/// temporary name cannot outlive a signal.
#[cfg(target_os = "linux")]
fn link_into_place(file: &File, target: &Path, force: bool) -> io::Result<()> {
    let proc_path = format!("/proc/self/fd/{}", file.as_raw_fd());
    let link = |name: &Path| {
        rustix::fs::linkat(CWD, &*proc_path, CWD, name, AtFlags::SYMLINK_FOLLOW)
            .map_err(io::Error::from)
    };
    if !force {
        return link(target);
    }
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let temp = tempfile::Builder::new()
        .prefix(".simdcrypt-")
        .suffix(".tmp")
        .make_in(dir, |name| link(name))?;
    temp.persist(target).map_err(|e| e.error)?;
    Ok(())
}

/// Gives the file that replaces `old` its owner (where the process may)
/// and, unless it holds a secret key, its permission bits.
#[cfg(unix)]
fn keep_owner_and_mode(file: &File, old: &Metadata, content: Content) {
    let _ = std::os::unix::fs::fchown(file, Some(old.uid()), Some(old.gid()));
    if content != Content::Secret {
        let _ = file.set_permissions(Permissions::from_mode(old.mode() & 0o777));
    }
}

/// Off Unix the new file keeps what its directory gives it (see the
/// module's documentation).
#[cfg(not(unix))]
fn keep_owner_and_mode(_file: &File, _old: &Metadata, _content: Content) {}

impl Write for Output {
    /// Plain `io::Write`, for the age pipeline: errors keep their kind and
    /// name the output.
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        self.check(&[data])?;
        self.sink().write(data).map_err(|e| self.name_error(e))
    }

    fn write_vectored(&mut self, bufs: &[io::IoSlice<'_>]) -> io::Result<usize> {
        self.check(bufs)?;
        self.sink()
            .write_vectored(bufs)
            .map_err(|e| self.name_error(e))
    }

    fn flush(&mut self) -> io::Result<()> {
        self.sink().flush().map_err(|e| self.name_error(e))
    }
}

impl Output {
    /// What the bytes are written to.
    fn sink(&mut self) -> &mut dyn Write {
        match self {
            Output::Stdout(s) | Output::Terminal(s) => s,
            Output::InPlace { file, .. } => file,
            Output::File(staged) => &mut staged.file,
        }
    }

    /// On a terminal taking [`Content::Plaintext`], an error unless every
    /// piece is printable.
    fn check<B: std::ops::Deref<Target = [u8]>>(&self, pieces: &[B]) -> io::Result<()> {
        if matches!(self, Output::Terminal(_)) && !pieces.iter().all(|p| printable(p)) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "detected unprintable data; refusing to output to the terminal (force with '-o -')",
            ));
        }
        Ok(())
    }

    /// `e`, its kind kept, with a message naming the output.
    fn name_error(&self, e: io::Error) -> io::Error {
        io::Error::new(e.kind(), format!("cannot write {}: {e}", self.describe()))
    }
}

/// Whether `data` may go to a terminal as text: UTF-8 without control
/// characters other than tab, newline and carriage return (an escape
/// sequence could rewrite the screen). A character cut between two writes
/// is allowed at either end.
fn printable(data: &[u8]) -> bool {
    let start = data
        .iter()
        .take(3)
        .take_while(|&&b| b & 0xc0 == 0x80)
        .count();
    let text = match std::str::from_utf8(&data[start..]) {
        Ok(text) => text,
        Err(e) if e.error_len().is_none() => {
            std::str::from_utf8(&data[start..start + e.valid_up_to()]).unwrap_or_default()
        }
        Err(_) => return false,
    };
    !text
        .chars()
        .any(|c| c.is_control() && !matches!(c, '\t' | '\n' | '\r'))
}
