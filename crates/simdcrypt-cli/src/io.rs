//! Input and output files shared by the commands: `-` means stdin or
//! stdout; an output file is written to a temporary file beside it and
//! renamed into place at the end, so it appears whole or not at all.

use std::fs::File;
use std::io::{self, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};

use tempfile::NamedTempFile;

use crate::error::CliError;

/// Where data comes from.
pub enum Input {
    /// Standard input.
    Stdin(io::Stdin),
    /// A regular file of known length.
    File {
        /// The open file.
        file: File,
        /// Its path, for messages.
        path: PathBuf,
        /// Its length in bytes when opened.
        len: u64,
    },
}

impl Input {
    /// Opens `path`, or stdin for `-`.
    ///
    /// # Errors
    ///
    /// When the file cannot be opened or is not a regular file.
    pub fn open(path: &Path) -> Result<Input, CliError> {
        if is_dash(path) {
            return Ok(Input::Stdin(io::stdin()));
        }
        let open_err = |source| CliError::OpenInput {
            path: path.to_path_buf(),
            source,
        };
        let file = File::open(path).map_err(open_err)?;
        let meta = file.metadata().map_err(open_err)?;
        if !meta.is_file() {
            return Err(CliError::InputNotFile {
                path: path.to_path_buf(),
            });
        }
        Ok(Input::File {
            file,
            path: path.to_path_buf(),
            len: meta.len(),
        })
    }

    /// The length, when the input is a file.
    pub fn len(&self) -> Option<u64> {
        match self {
            Input::Stdin(_) => None,
            Input::File { len, .. } => Some(*len),
        }
    }

    /// Fills `buf` as far as the input goes; returns how many bytes were
    /// read, fewer than `buf.len()` only at the end.
    ///
    /// # Errors
    ///
    /// A read error, naming the file.
    pub fn read_full(&mut self, buf: &mut [u8]) -> Result<usize, CliError> {
        let mut filled = 0;
        while filled < buf.len() {
            let r = match self {
                Input::Stdin(s) => s.lock().read(&mut buf[filled..]),
                Input::File { file, .. } => file.read(&mut buf[filled..]),
            };
            match r {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(CliError::read(self.path(), e)),
            }
        }
        Ok(filled)
    }

    fn path(&self) -> Option<&Path> {
        match self {
            Input::Stdin(_) => None,
            Input::File { path, .. } => Some(path),
        }
    }
}

/// Where data goes.
pub enum Output {
    /// Standard output.
    Stdout(io::Stdout),
    /// An existing file that is not a regular file (`/dev/null`, a FIFO, a
    /// terminal): written directly, as a shell's `>` would.
    Device {
        /// The open file.
        file: File,
        /// Its path, for messages.
        path: PathBuf,
    },
    /// A temporary file beside `path`, renamed onto it by [`Output::finish`];
    /// dropped unfinished, it is deleted.
    File {
        /// The temporary file.
        temp: io::BufWriter<NamedTempFile>,
        /// The final name.
        path: PathBuf,
        /// Whether an existing file may be replaced.
        force: bool,
    },
}

impl Output {
    /// Prepares `path` (stdout for `-`): refuses an existing file unless
    /// `force`, and creates the temporary file in the same directory.
    ///
    /// # Errors
    ///
    /// When the output exists without `force`, is a directory, or its
    /// directory takes no temporary file; when stdout is a terminal.
    pub fn create(path: &Path, force: bool) -> Result<Output, CliError> {
        Self::open(path, force, false)
    }

    /// As [`Output::create`], for text that may go to a terminal.
    ///
    /// # Errors
    ///
    /// As [`Output::create`], but for the terminal.
    pub fn create_text(path: &Path, force: bool) -> Result<Output, CliError> {
        Self::open(path, force, true)
    }

    fn open(path: &Path, force: bool, terminal_ok: bool) -> Result<Output, CliError> {
        if is_dash(path) {
            let stdout = io::stdout();
            if stdout.is_terminal() && !terminal_ok {
                return Err(CliError::OutputIsTerminal);
            }
            return Ok(Output::Stdout(stdout));
        }
        if path.metadata().is_ok_and(|m| !m.is_file() && !m.is_dir()) {
            let device = File::options()
                .write(true)
                .open(path)
                .map_err(|e| CliError::write(Some(path), e))?;
            return Ok(Output::Device {
                file: device,
                path: path.to_path_buf(),
            });
        }
        if path.is_dir() {
            return Err(CliError::OutputIsDir {
                path: path.to_path_buf(),
            });
        }
        if !force && path.symlink_metadata().is_ok() {
            return Err(CliError::OutputExists {
                path: path.to_path_buf(),
            });
        }
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        if !dir.is_dir() {
            return Err(CliError::OutputDirMissing { dir });
        }
        let temp = tempfile::Builder::new()
            .prefix(".simdcrypt-")
            .suffix(".tmp")
            .tempfile_in(&dir)
            // The error's text names the random temporary name; its kind
            // says what matters ("permission denied").
            .map_err(|e| CliError::TempFile {
                dir,
                source: e.kind().into(),
            })?;
        Ok(Output::File {
            temp: io::BufWriter::with_capacity(1 << 16, temp),
            path: path.to_path_buf(),
            force,
        })
    }

    /// Writes all of `data`.
    ///
    /// # Errors
    ///
    /// A write error, naming the file.
    pub fn write_all(&mut self, data: &[u8]) -> Result<(), CliError> {
        match self {
            Output::Stdout(s) => s
                .lock()
                .write_all(data)
                .map_err(|e| CliError::write(None, e)),
            Output::Device { file, path } => file
                .write_all(data)
                .map_err(|e| CliError::write(Some(path), e)),
            Output::File { temp, path, .. } => temp
                .write_all(data)
                .map_err(|e| CliError::write(Some(path), e)),
        }
    }

    /// Flushes, and moves a finished file into place (without replacing a
    /// file that appeared meanwhile, unless `force`). The file is not
    /// synced to the disk first, as `age`, `cp` and `sha256sum` do not:
    /// waiting for the disk tripled the time to encrypt 1 GiB to a file, and
    /// what the rename guarantees (a failed run leaves nothing half-written)
    /// does not depend on it.
    ///
    /// # Errors
    ///
    /// When flushing or the rename fails; the temporary file is removed.
    pub fn finish(self) -> Result<(), CliError> {
        match self {
            Output::Stdout(s) => s.lock().flush().map_err(|e| CliError::write(None, e)),
            Output::Device { mut file, path } => {
                file.flush().map_err(|e| CliError::write(Some(&path), e))
            }
            Output::File { temp, path, force } => {
                let temp = temp
                    .into_inner()
                    .map_err(|e| CliError::write(Some(&path), e.into_error()))?;
                let persisted = if force {
                    temp.persist(&path)
                } else {
                    temp.persist_noclobber(&path)
                };
                match persisted {
                    Ok(_) => Ok(()),
                    Err(e) if e.error.kind() == io::ErrorKind::AlreadyExists => {
                        Err(CliError::OutputExists { path })
                    }
                    Err(e) => Err(CliError::Persist {
                        path,
                        source: e.error,
                    }),
                }
            }
        }
    }
}

impl Write for Output {
    /// Plain `io::Write`, for the age pipeline (which reports its own
    /// errors).
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        match self {
            Output::Stdout(s) => s.lock().write(data),
            Output::Device { file, .. } => file.write(data),
            Output::File { temp, .. } => temp.write(data),
        }
    }

    fn write_vectored(&mut self, bufs: &[io::IoSlice<'_>]) -> io::Result<usize> {
        match self {
            Output::Stdout(s) => s.lock().write_vectored(bufs),
            Output::Device { file, .. } => file.write_vectored(bufs),
            Output::File { temp, .. } => temp.write_vectored(bufs),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Output::Stdout(s) => s.lock().flush(),
            Output::Device { file, .. } => file.flush(),
            Output::File { temp, .. } => temp.flush(),
        }
    }
}

impl Read for Input {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Input::Stdin(s) => s.lock().read(buf),
            Input::File { file, .. } => file.read(buf),
        }
    }
}

/// Whether `path` is `-`, standing for stdin or stdout.
fn is_dash(path: &Path) -> bool {
    path.as_os_str() == "-"
}
