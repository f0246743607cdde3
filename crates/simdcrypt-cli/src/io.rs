//! Input files shared by the commands: `-` means stdin; a regular file, a
//! FIFO or a device (`<(…)`, `/dev/stdin`) is read as it comes. Output
//! files are [`crate::output`]'s.

use std::fs::File;
use std::io::{self, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};

use crate::error::CliError;

/// Where data comes from.
pub enum Input {
    /// Standard input.
    Stdin(Stdin),
    /// A file: a regular one (of known length), a FIFO or a device.
    File {
        /// The open file.
        file: File,
        /// Its path, for messages.
        path: PathBuf,
        /// A regular file's length in bytes when opened.
        len: Option<u64>,
    },
}

impl Input {
    /// Opens `path`, or stdin for `-`.
    ///
    /// # Errors
    ///
    /// When the file cannot be opened or is a directory.
    pub fn open(path: &Path) -> Result<Input, CliError> {
        if is_dash(path) {
            return Ok(Input::Stdin(stdin()));
        }
        let open_err = |source| CliError::OpenInput {
            path: path.to_path_buf(),
            source,
        };
        let file = File::open(path).map_err(open_err)?;
        let meta = file.metadata().map_err(open_err)?;
        if meta.is_dir() {
            return Err(CliError::InputNotFile {
                path: path.to_path_buf(),
            });
        }
        Ok(Input::File {
            file,
            path: path.to_path_buf(),
            len: meta.is_file().then_some(meta.len()),
        })
    }

    /// The length, when the input is a regular file.
    pub fn len(&self) -> Option<u64> {
        match self {
            Input::Stdin(_) => None,
            Input::File { len, .. } => *len,
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
                Input::Stdin(s) => s.read(&mut buf[filled..]),
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

    /// The input with read errors that name it as [`CliError::Read`] does
    /// ("cannot read standard input: …"), for a reader handed to a library
    /// that passes its errors on as they come (the age crate's).
    pub fn named(self) -> Named {
        Named(self)
    }

    fn path(&self) -> Option<&Path> {
        match self {
            Input::Stdin(_) => None,
            Input::File { path, .. } => Some(path),
        }
    }
}

impl Read for Input {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Input::Stdin(s) => s.read(buf),
            Input::File { file, .. } => file.read(buf),
        }
    }
}

/// An [`Input`] whose read errors name it (see [`Input::named`]).
pub struct Named(Input);

impl Read for Named {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.0.read(buf).map_err(|e| match e.kind() {
            io::ErrorKind::Interrupted => e,
            kind => io::Error::new(kind, CliError::read(self.0.path(), e).to_string()),
        })
    }
}

/// Whether `path` is `-`, standing for stdin.
fn is_dash(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// Standard output as the tool writes it: a descriptor closed at start
/// fails every write with `EBADF` ("Bad file descriptor"), as it would in
/// C, where std's `Stdout` would report success.
pub struct Stdout(io::Stdout);

/// Standard output.
pub fn stdout() -> Stdout {
    Stdout(io::stdout())
}

impl Stdout {
    /// Whether standard output is a terminal.
    pub fn is_terminal(&self) -> bool {
        !closed_at_start(1) && self.0.is_terminal()
    }
}

impl Write for Stdout {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        refuse_if_closed(1)?;
        self.0.write(data)
    }

    fn write_vectored(&mut self, bufs: &[io::IoSlice<'_>]) -> io::Result<usize> {
        refuse_if_closed(1)?;
        self.0.write_vectored(bufs)
    }

    fn flush(&mut self) -> io::Result<()> {
        refuse_if_closed(1)?;
        self.0.flush()
    }
}

/// Standard input as the tool reads it: closed at start, every read fails
/// with `EBADF`, where std's `Stdin` would report an empty input.
pub struct Stdin(io::Stdin);

/// Standard input.
pub fn stdin() -> Stdin {
    Stdin(io::stdin())
}

impl Stdin {
    /// Whether standard input is a terminal.
    pub fn is_terminal(&self) -> bool {
        !closed_at_start(0) && self.0.is_terminal()
    }
}

impl Read for Stdin {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        refuse_if_closed(0)?;
        self.0.read(buf)
    }
}

/// `EBADF` for a standard descriptor that was closed at start.
fn refuse_if_closed(fd: u8) -> io::Result<()> {
    if closed_at_start(fd) {
        Err(io::Error::from_raw_os_error(libc::EBADF))
    } else {
        Ok(())
    }
}

#[cfg(target_os = "linux")]
use crate::stdio_guard::closed_at_start;

/// Elsewhere the runtime's `/dev/null` is not told apart.
#[cfg(not(target_os = "linux"))]
fn closed_at_start(_fd: u8) -> bool {
    false
}

/// Asks for a secret on the terminal (`/dev/tty`), not echoed: `prompt`,
/// then one line read a byte at a time with the terminal kept in its line
/// mode (only echo off), as age reads one. What is typed after the line
/// (answers typed ahead, the end of the input) stays for the next reader;
/// a terminal put in raw mode, as some libraries do, would lose it.
///
/// # Errors
///
/// When there is no terminal, or reading it fails.
#[cfg(unix)]
pub fn read_secret(prompt: &str) -> io::Result<zeroize::Zeroizing<String>> {
    use rustix::termios::{LocalModes, OptionalActions, tcgetattr, tcsetattr};

    let mut tty = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/tty")?;
    tty.write_all(prompt.as_bytes())?;
    let saved = tcgetattr(&tty).ok();
    if let Some(saved) = &saved {
        let mut quiet = saved.clone();
        quiet.local_modes.remove(LocalModes::ECHO);
        quiet.local_modes.insert(LocalModes::ICANON);
        tcsetattr(&tty, OptionalActions::Now, &quiet)?;
    }
    let line = terminal_line(&mut tty);
    if let Some(saved) = &saved {
        let _ = tcsetattr(&tty, OptionalActions::Now, saved);
    }
    // The line the user ended was not echoed: end it.
    let _ = tty.write_all(b"\n");
    Ok(line?.unwrap_or_default())
}

/// One line from a terminal, without its line ending, read a byte at a
/// time: what the terminal holds after it (answers typed ahead, the end of
/// the input) stays for the next reader. `None` when the input ended
/// before anything was typed.
///
/// # Errors
///
/// When reading fails, or the line is not UTF-8.
pub fn terminal_line(terminal: &mut impl Read) -> io::Result<Option<zeroize::Zeroizing<String>>> {
    let mut line = zeroize::Zeroizing::new(Vec::new());
    let mut byte = [0u8];
    let ended = loop {
        match terminal.read(&mut byte) {
            Ok(0) => break true,
            Ok(_) if byte[0] == b'\n' => break false,
            Ok(_) => line.push(byte[0]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    };
    if ended && line.is_empty() {
        return Ok(None);
    }
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    String::from_utf8(std::mem::take(&mut *line))
        .map(|text| Some(zeroize::Zeroizing::new(text)))
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
}

/// Asks for a secret on the console, not echoed (rpassword's reading).
///
/// # Errors
///
/// When there is no console, or reading it fails.
#[cfg(not(unix))]
pub fn read_secret(prompt: &str) -> io::Result<zeroize::Zeroizing<String>> {
    rpassword::prompt_password(prompt).map(zeroize::Zeroizing::new)
}

/// The input and output files of `stream`, `enc` and `aead`: their
/// `--input`, `--output` and `--force`, one declaration for the three.
#[derive(Debug, clap::Args)]
pub struct Files {
    /// Input file, `-` for stdin.
    #[arg(short, long, value_name = "FILE", default_value = "-")]
    pub input: PathBuf,

    /// Output file, `-` for stdout; written whole or not at all.
    #[arg(short, long, value_name = "FILE", default_value = "-")]
    pub output: PathBuf,

    /// Overwrite an existing output file.
    #[arg(long)]
    pub force: bool,
}
