//! The tool's side of an age plugin's talk with the user (c2sp.org/age-plugin,
//! `msg`, `request-public`, `request-secret`, `confirm`), as age's
//! `TerminalUI`: messages on standard error as `age: NAME plugin: …`
//! (with the tool's name), values read from the terminal itself, not from
//! standard input, which carries the data.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};

use simdcrypt_age::plugin::Ui;
use zeroize::Zeroizing;

/// The terminal's input and output, apart from the redirected standard
/// streams.
#[cfg(unix)]
const TERMINAL: (&str, &str) = ("/dev/tty", "/dev/tty");
#[cfg(windows)]
const TERMINAL: (&str, &str) = ("CONIN$", "CONOUT$");

/// The plugins' [`Ui`] at the terminal.
pub struct TerminalUi;

/// Warns that a value for plugin `name` could not be read, as age does;
/// `None`, what the plugin is then told.
fn could_not_read<T>(name: &str, why: io::Error) -> Option<T> {
    crate::diag::warning!("could not read value for age-plugin-{name}: {why}");
    None
}

/// Writes `prompt` to the terminal and reads one line from it, echoed,
/// without its line ending.
fn read_public(prompt: &str) -> io::Result<Zeroizing<String>> {
    let mut output = OpenOptions::new().write(true).open(TERMINAL.1)?;
    output.write_all(prompt.as_bytes())?;
    output.flush()?;
    crate::io::terminal_line(&mut File::open(TERMINAL.0)?)?
        .ok_or_else(|| io::Error::new(io::ErrorKind::UnexpectedEof, "the terminal's input ended"))
}

/// Reads a value from the terminal without echo, as the tool reads
/// passphrases.
fn read_secret(prompt: &str) -> io::Result<Zeroizing<String>> {
    crate::io::read_secret(prompt)
}

impl Ui for TerminalUi {
    fn waiting(&self, plugin: &str) {
        crate::diag::line(format_args!("waiting on {plugin} plugin..."));
    }

    fn display_message(&self, plugin: &str, message: &str) -> bool {
        crate::diag::line(format_args!("{plugin} plugin: {message}"));
        true
    }

    fn request_value(&self, plugin: &str, prompt: &str, secret: bool) -> Option<Zeroizing<String>> {
        let prompt = format!("{prompt} ");
        let read: fn(&str) -> io::Result<Zeroizing<String>> =
            if secret { read_secret } else { read_public };
        match read(&prompt) {
            Ok(value) => Some(value),
            Err(e) => could_not_read(plugin, e),
        }
    }

    fn confirm(&self, plugin: &str, prompt: &str, yes: &str, no: Option<&str>) -> Option<bool> {
        let Some(no) = no else {
            return match read_secret(&format!("{prompt} (press enter for {yes:?}) ")) {
                Ok(_) => Some(true),
                Err(e) => could_not_read(plugin, e),
            };
        };
        // age reads one key press; a line is read here (no raw mode), so
        // the choice is typed and confirmed with enter.
        let prompt = format!("{prompt} (type 1 for {yes:?} or 2 for {no:?}, then enter) ");
        loop {
            match read_public(&prompt) {
                Ok(choice) => match choice.trim() {
                    "1" => return Some(true),
                    "2" => return Some(false),
                    other => crate::diag::warning!(
                        "reading value for age-plugin-{plugin}: invalid selection {other:?}"
                    ),
                },
                Err(e) => return could_not_read(plugin, e),
            }
        }
    }
}
