//! age plugins from the command line: `-j NAME` (an identity without data;
//! `batchpass` is built in), and the plugins' talk with the user at the
//! terminal (c2sp.org/age-plugin, `msg`, `request-public`,
//! `request-secret`, `confirm`), as age's `TerminalUI`: messages on
//! standard error as `age: NAME plugin: …` (with the tool's name), values
//! read from the terminal itself, not from standard input, which carries
//! the data.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::sync::Arc;

use simdcrypt_age::keys::{AnyIdentity, AnyRecipient};
use simdcrypt_age::plugin::{self, Ui};
use zeroize::Zeroizing;

use super::Common;
use super::key_file::age_arg;
use crate::diag::Diag;
use crate::error::CliError;

/// The plugin `-j` runs in the tool itself (age's
/// `age-plugin-batchpass`, the same scrypt stanza).
pub(super) const BATCHPASS: &str = "batchpass";

/// Whether `-j batchpass` was given: the built-in passphrase plugin.
pub(super) fn batchpass_given(common: &Common) -> bool {
    common.plugins.iter().any(|p| p == BATCHPASS)
}

/// The identities of the `-j` plugins other than `batchpass` (built in):
/// each plugin's identity without data, as age's `-j`, talking to the user
/// on the terminal.
pub(super) fn plugin_identities(
    common: &Common,
    diag: Diag,
) -> Result<Vec<plugin::Identity>, CliError> {
    let identities = common
        .plugins
        .iter()
        .map(|name| plugin_identity(name, diag));
    identities.filter_map(Result::transpose).collect()
}

/// The identity of `-j NAME`, talking to the user on the terminal; `None`
/// for the built-in `batchpass`.
pub(super) fn plugin_identity(
    name: &str,
    diag: Diag,
) -> Result<Option<plugin::Identity>, CliError> {
    if name == BATCHPASS {
        return Ok(None);
    }
    plugin::Identity::without_data(name)
        .map(|i| Some(i.with_ui(terminal_ui(diag))))
        .map_err(|e| age_arg("-j", e))
}

/// Checks the `-j` names before anything is read.
pub(super) fn check_plugin(common: &Common, diag: Diag) -> Result<(), CliError> {
    plugin_identities(common, diag).map(drop)
}

/// The plugins' way to the user: the terminal.
fn terminal_ui(diag: Diag) -> Arc<dyn plugin::Ui> {
    Arc::new(TerminalUi { diag })
}

/// A recipient, a plugin's talking to the user on the terminal.
pub(super) fn with_ui(recipient: AnyRecipient, diag: Diag) -> AnyRecipient {
    match recipient {
        AnyRecipient::Plugin(r) => AnyRecipient::Plugin(r.with_ui(terminal_ui(diag))),
        other => other,
    }
}

/// An identity, a plugin's talking to the user on the terminal.
pub(super) fn with_ui_identity(identity: AnyIdentity, diag: Diag) -> AnyIdentity {
    match identity {
        AnyIdentity::Plugin(i) => AnyIdentity::Plugin(i.with_ui(terminal_ui(diag))),
        other => other,
    }
}

/// The terminal's input and output, apart from the redirected standard
/// streams.
#[cfg(unix)]
const TERMINAL: (&str, &str) = ("/dev/tty", "/dev/tty");
#[cfg(windows)]
const TERMINAL: (&str, &str) = ("CONIN$", "CONOUT$");

/// The plugins' [`Ui`] at the terminal, saying what it says through
/// `diag`.
struct TerminalUi {
    diag: Diag,
}

/// Warns that a value for plugin `name` could not be read, as age does;
/// `None`, what the plugin is then told.
fn could_not_read<T>(diag: Diag, name: &str, why: io::Error) -> Option<T> {
    diag.warning(format_args!(
        "could not read value for age-plugin-{name}: {why}"
    ));
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
        self.diag
            .line(format_args!("waiting on {plugin} plugin..."));
    }

    fn display_message(&self, plugin: &str, message: &str) -> bool {
        self.diag.line(format_args!("{plugin} plugin: {message}"));
        true
    }

    fn request_value(&self, plugin: &str, prompt: &str, secret: bool) -> Option<Zeroizing<String>> {
        let prompt = format!("{prompt} ");
        let read: fn(&str) -> io::Result<Zeroizing<String>> =
            if secret { read_secret } else { read_public };
        match read(&prompt) {
            Ok(value) => Some(value),
            Err(e) => could_not_read(self.diag, plugin, e),
        }
    }

    fn confirm(&self, plugin: &str, prompt: &str, yes: &str, no: Option<&str>) -> Option<bool> {
        let Some(no) = no else {
            return match read_secret(&format!("{prompt} (press enter for {yes:?}) ")) {
                Ok(_) => Some(true),
                Err(e) => could_not_read(self.diag, plugin, e),
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
                    other => self.diag.warning(format_args!(
                        "reading value for age-plugin-{plugin}: invalid selection {other:?}"
                    )),
                },
                Err(e) => return could_not_read(self.diag, plugin, e),
            }
        }
    }
}
