//! age plugins, the client side ([c2sp.org/age-plugin](https://c2sp.org/age-plugin)):
//! recipients `age1NAME1…` and identities `AGE-PLUGIN-NAME-1…` are handled
//! by the program `age-plugin-NAME`, found on `PATH`, run once per wrap or
//! unwrap and spoken to over its standard input and output in stanzas (the
//! header's stanza format), as age 1.3 does.
//!
//! The plugin may talk to the user through the client: a [`Ui`] the caller
//! gives shows its messages and answers its questions; the default,
//! [`NonInteractive`], refuses them, which the plugin is told.
//!
//! ```no_run
//! use simdcrypt_age::{decrypt, encrypt, plugin};
//!
//! // Encrypting to what `age-plugin-yubikey` (say) printed, …
//! let recipient: plugin::Recipient = "age1yubikey1q…".parse()?;
//! let mut sealed = Vec::new();
//! encrypt(&[&recipient], &b"attack at dawn"[..], &mut sealed)?;
//! // … and decrypting with its identity.
//! let identity: plugin::Identity = "AGE-PLUGIN-YUBIKEY-1…".parse()?;
//! let mut opened = Vec::new();
//! decrypt(&[&identity], &sealed[..], &mut opened)?;
//! # Ok::<(), simdcrypt_age::Error>(())
//! ```

use std::fmt;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::str::FromStr;
use std::sync::mpsc::RecvTimeoutError;
use std::sync::{Arc, Mutex, mpsc};
use std::thread;

use zeroize::{Zeroize, Zeroizing};

use crate::format::b64_decode;
use crate::{Error, FileKey, Stanza, bech32, random};

/// The prefix of a plugin recipient's Bech32 human-readable part, which
/// the plugin's name follows (c2sp.org/age-plugin, "Recipients").
const RECIPIENT_PREFIX: &str = "age1";
/// The prefix of a plugin identity's human-readable part: the name in upper
/// case and `-` follow (c2sp.org/age-plugin, "Identities").
const IDENTITY_PREFIX: &str = "AGE-PLUGIN-";
/// The most of a plugin's standard error kept for the error when it fails.
const MAX_STDERR: u64 = 4096;
/// How long a failed plugin's standard error is waited for after it
/// exited (a helper it started may hold the pipe open for longer).
const STDERR_GRACE: std::time::Duration = std::time::Duration::from_millis(200);
/// How long a plugin that said `done` has to exit once its input is
/// closed before it is killed.
const EXIT_GRACE: std::time::Duration = std::time::Duration::from_secs(2);

/// Whether `name` is a plugin name as age accepts one: not empty, of ASCII
/// letters, digits and `+-._` (so it cannot name a path).
fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"+-._".contains(&b))
}

/// How a plugin talks to the user (c2sp.org/age-plugin, the `msg`,
/// `confirm`, `request-public` and `request-secret` commands), as age's
/// `ClientUI`. Each method's default refuses, and the plugin is told the
/// request failed; `plugin` is the plugin's name, for the user.
pub trait Ui: Send + Sync {
    /// Shows `message` (lower-case initial, no final period); whether it
    /// was shown.
    fn display_message(&self, _plugin: &str, _message: &str) -> bool {
        false
    }

    /// Asks the user for a value with `prompt`, not echoed when `secret`;
    /// `None` when it cannot be asked or the user declines.
    fn request_value(
        &self,
        _plugin: &str,
        _prompt: &str,
        _secret: bool,
    ) -> Option<Zeroizing<String>> {
        None
    }

    /// Asks the user to choose `yes` or `no` (`no` may be absent: then
    /// only to acknowledge) with `prompt`; whether they chose `yes`, `None`
    /// when it cannot be asked.
    fn confirm(&self, _plugin: &str, _prompt: &str, _yes: &str, _no: Option<&str>) -> Option<bool> {
        None
    }

    /// Called once when the plugin has kept the user waiting for
    /// [`WAIT_NOTICE`] (a hardware key waiting for a touch, say), as age's
    /// `WaitTimer`; from another thread, while the plugin still runs.
    fn waiting(&self, _plugin: &str) {}
}

/// How long a plugin may keep the user waiting before [`Ui::waiting`] is
/// called: age's 5 seconds.
pub const WAIT_NOTICE: std::time::Duration = std::time::Duration::from_secs(5);

/// The [`Ui`] of a program with no user at hand: every request refused.
#[derive(Clone, Copy, Debug, Default)]
pub struct NonInteractive;

impl Ui for NonInteractive {}

/// A plugin recipient: `age1NAME1…`, or an identity `AGE-PLUGIN-NAME-1…`
/// encrypted to ([`Recipient::from_identity`]), wrapped by `age-plugin-NAME
/// --age-plugin=recipient-v1`.
#[derive(Clone)]
pub struct Recipient {
    name: String,
    /// The recipient's or the identity's string, as given to the plugin.
    encoding: Zeroizing<String>,
    /// Whether `encoding` is an identity (`add-identity`, and secret).
    identity: bool,
    ui: Arc<dyn Ui>,
}

impl Recipient {
    /// The recipient that encrypts to `identity` (age's `-i`/`-j` when
    /// encrypting): the plugin is given the identity (`add-identity`). It
    /// talks to the user through `identity`'s [`Ui`].
    pub fn from_identity(identity: &Identity) -> Self {
        Recipient {
            name: identity.name.clone(),
            encoding: identity.encoding.clone(),
            identity: true,
            ui: Arc::clone(&identity.ui),
        }
    }

    /// The recipient talking to the user through `ui` (by default
    /// [`NonInteractive`]).
    pub fn with_ui(mut self, ui: Arc<dyn Ui>) -> Self {
        self.ui = ui;
        self
    }

    /// The plugin's name: the program is `age-plugin-NAME`.
    pub fn name(&self) -> &str {
        &self.name
    }
}

impl FromStr for Recipient {
    type Err = Error;

    /// Parses `age1NAME1…`: lower-case Bech32 whose prefix is `age1` and a
    /// plugin name.
    fn from_str(s: &str) -> Result<Self, Error> {
        let invalid = |why: String| Error::Recipient(s.to_owned(), why);
        if s.bytes().any(|b| b.is_ascii_uppercase()) {
            return Err(invalid("recipients are lower case".into()));
        }
        let (hrp, _) = bech32::decode_any(s).map_err(invalid)?;
        let name = hrp
            .strip_prefix(RECIPIENT_PREFIX)
            .ok_or_else(|| invalid("not a plugin recipient (age1NAME1…)".into()))?;
        if !valid_name(name) {
            return Err(invalid(format!("invalid plugin name {name:?}")));
        }
        Ok(Recipient {
            name: name.to_owned(),
            encoding: Zeroizing::new(s.to_owned()),
            identity: false,
            ui: Arc::new(NonInteractive),
        })
    }
}

impl fmt::Display for Recipient {
    /// The recipient's string; an identity's is secret, so it is not shown.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.identity {
            f.write_str("<identity-based recipient>")
        } else {
            f.write_str(&self.encoding)
        }
    }
}

/// Recipients are equal when they are the same key for the same plugin,
/// whatever their [`Ui`].
impl PartialEq for Recipient {
    fn eq(&self, other: &Self) -> bool {
        (&self.name, &*self.encoding, self.identity)
            == (&other.name, &*other.encoding, other.identity)
    }
}

impl Eq for Recipient {}

impl fmt::Debug for Recipient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "plugin::Recipient({self})")
    }
}

impl crate::Recipient for Recipient {
    fn wrap(&self, file_key: &FileKey) -> Result<Vec<Stanza>, Error> {
        Ok(self.wrap_with_labels(file_key)?.0)
    }

    /// Runs the plugin's recipient-v1 state machine (c2sp.org/age-plugin,
    /// "Wrapping with recipient-v1") for one file key.
    fn wrap_with_labels(&self, file_key: &FileKey) -> Result<(Vec<Stanza>, Vec<String>), Error> {
        let mut plugin = Connection::start(&self.name, "recipient-v1")?;
        let add = if self.identity {
            "add-identity"
        } else {
            "add-recipient"
        };
        plugin.send(add, &[&self.encoding], &[])?;
        plugin.grease()?;
        plugin.send("wrap-file-key", &[], file_key.expose())?;
        plugin.send("extension-labels", &[], &[])?;
        plugin.send("done", &[], &[])?;
        let mut stanzas = Vec::new();
        let mut labels = None;
        plugin.respond(&*self.ui, |command| match command.tag.as_str() {
            "recipient-stanza" => {
                let [index, tag, args @ ..] = command.args.as_slice() else {
                    return Err("recipient-stanza has fewer than 2 arguments".into());
                };
                first_file(index, "recipient-stanza")?;
                stanzas.push(Stanza {
                    tag: tag.clone(),
                    args: args.to_vec(),
                    body: command.body.clone(),
                });
                Ok(true)
            }
            "labels" if labels.is_some() => Err("labels sent twice".into()),
            "labels" => {
                labels = Some(command.args.clone());
                Ok(true)
            }
            _ => Ok(false),
        })?;
        if stanzas.is_empty() {
            return Err(plugin.error("it sent no recipient stanza"));
        }
        Ok((stanzas, labels.unwrap_or_default()))
    }
}

/// A plugin identity: `AGE-PLUGIN-NAME-1…`, unwrapping by `age-plugin-NAME
/// --age-plugin=identity-v1`. Its string is secret, kept and wiped as such.
#[derive(Clone)]
pub struct Identity {
    name: String,
    encoding: Zeroizing<String>,
    ui: Arc<dyn Ui>,
}

impl Identity {
    /// The identity of plugin `name` with no data (age's `-j NAME`), for
    /// plugins that need none, such as `batchpass`.
    ///
    /// # Errors
    ///
    /// [`Error::Identity`] when `name` is not a valid plugin name.
    pub fn without_data(name: &str) -> Result<Self, Error> {
        if !valid_name(name) {
            return Err(Error::Identity(format!("invalid plugin name {name:?}")));
        }
        let hrp = format!("{IDENTITY_PREFIX}{}-", name.to_ascii_uppercase());
        Ok(Identity {
            name: name.to_owned(),
            encoding: Zeroizing::new(bech32::encode(&hrp, &[], true)),
            ui: Arc::new(NonInteractive),
        })
    }

    /// The identity talking to the user through `ui` (by default
    /// [`NonInteractive`]).
    pub fn with_ui(mut self, ui: Arc<dyn Ui>) -> Self {
        self.ui = ui;
        self
    }

    /// The plugin's name: the program is `age-plugin-NAME`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The identity's string, `AGE-PLUGIN-NAME-1…` (secret).
    pub fn to_bech32(&self) -> Zeroizing<String> {
        self.encoding.clone()
    }
}

impl FromStr for Identity {
    type Err = Error;

    /// Parses `AGE-PLUGIN-NAME-1…`: upper-case Bech32 whose prefix is
    /// `AGE-PLUGIN-`, a plugin name and `-`. The name is kept in lower
    /// case.
    fn from_str(s: &str) -> Result<Self, Error> {
        let invalid = |why: String| Error::Identity(format!("plugin identity: {why}"));
        if s.bytes().any(|b| b.is_ascii_lowercase()) {
            return Err(invalid("identities are upper case".into()));
        }
        let (hrp, _) = bech32::decode_any(s).map_err(invalid)?;
        let name = hrp
            .strip_prefix(IDENTITY_PREFIX)
            .and_then(|rest| rest.strip_suffix('-'))
            .ok_or_else(|| invalid("not AGE-PLUGIN-NAME-1…".into()))?
            .to_ascii_lowercase();
        if !valid_name(&name) {
            return Err(invalid(format!("invalid plugin name {name:?}")));
        }
        Ok(Identity {
            name,
            encoding: Zeroizing::new(s.to_owned()),
            ui: Arc::new(NonInteractive),
        })
    }
}

impl fmt::Debug for Identity {
    /// The plugin's name, not the secret string.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "plugin::Identity({:?})", self.name)
    }
}

impl crate::Identity for Identity {
    fn unwrap(&self, stanza: &Stanza) -> Result<Option<FileKey>, Error> {
        self.unwrap_stanzas(std::slice::from_ref(stanza))
    }

    /// Runs the plugin's identity-v1 state machine (c2sp.org/age-plugin,
    /// "Unwrapping with identity-v1") with all the stanzas, as file 0.
    fn unwrap_stanzas(&self, stanzas: &[Stanza]) -> Result<Option<FileKey>, Error> {
        let mut plugin = Connection::start(&self.name, "identity-v1")?;
        plugin.send("add-identity", &[&self.encoding], &[])?;
        plugin.grease()?;
        for stanza in stanzas {
            let args: Vec<&str> = ["0", stanza.tag.as_str()]
                .into_iter()
                .chain(stanza.args.iter().map(String::as_str))
                .collect();
            plugin.send("recipient-stanza", &args, &stanza.body)?;
        }
        plugin.send("done", &[], &[])?;
        let mut file_key = None;
        plugin.respond(&*self.ui, |command| match command.tag.as_str() {
            "file-key" => {
                let [index] = command.args.as_slice() else {
                    return Err("file-key does not have 1 argument".into());
                };
                first_file(index, "file-key")?;
                if file_key.is_some() {
                    return Err("file-key sent twice".into());
                }
                let bytes = <[u8; FileKey::LEN]>::try_from(command.body.as_slice())
                    .map_err(|_| format!("file-key is {} bytes, not 16", command.body.len()))?;
                file_key = Some(FileKey::from_bytes(bytes));
                Ok(true)
            }
            _ => Ok(false),
        })?;
        Ok(file_key)
    }
}

/// Checks a response's file index: the client sends one file, index 0
/// (written as a decimal integer, as age parses it: `00` and `+0` too).
fn first_file(index: &str, command: &str) -> Result<(), String> {
    if index.parse::<i64>() == Ok(0) {
        Ok(())
    } else {
        Err(format!(
            "{command} for file {index:?}: only file 0 was sent"
        ))
    }
}

/// A running plugin: its standard input and output, and a thread keeping
/// the start of its standard error for the error when it fails.
struct Connection {
    name: String,
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
    /// The start of what it wrote to standard error, filled by a thread
    /// that drains the pipe.
    stderr: Arc<Mutex<Vec<u8>>>,
    /// Disconnected when that thread has read standard error to its end.
    stderr_ended: mpsc::Receiver<()>,
    /// Whether the exchange ended with `done`; otherwise the plugin is
    /// killed when the connection is dropped.
    done: bool,
}

impl Connection {
    /// Starts `age-plugin-NAME --age-plugin=STATE_MACHINE`, in the
    /// temporary directory as age does (plugins must not rely on the
    /// working directory).
    fn start(name: &str, state_machine: &str) -> Result<Self, Error> {
        let mut child = Command::new(format!("age-plugin-{name}"))
            .arg(format!("--age-plugin={state_machine}"))
            .current_dir(std::env::temp_dir())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| match e.kind() {
                io::ErrorKind::NotFound => Error::PluginNotFound(name.to_owned()),
                _ => Error::Plugin {
                    name: name.to_owned(),
                    message: format!("cannot start it: {e}"),
                },
            })?;
        let (stderr, stderr_ended) = drain_stderr(&mut child);
        // Both pipes were asked for.
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(Error::Plugin {
                name: name.to_owned(),
                message: "no pipes to it".into(),
            });
        };
        Ok(Connection {
            name: name.to_owned(),
            child,
            stdin: Some(stdin),
            stdout: BufReader::new(stdout),
            stderr,
            stderr_ended,
            done: false,
        })
    }

    /// An error of this plugin.
    fn error(&self, message: impl Into<String>) -> Error {
        Error::Plugin {
            name: self.name.clone(),
            message: message.into(),
        }
    }

    /// The error of a plugin that stopped talking: `what` happened, then
    /// how it exited and the start of what it wrote to standard error.
    fn exited(&mut self, what: &str) -> Error {
        drop(self.stdin.take());
        // It may still run (writing, or ignoring its input): it is done
        // with, as age ends a plugin it gives up on.
        let _ = self.child.kill();
        let status = match self.child.wait() {
            Ok(status) => status.to_string(),
            Err(e) => format!("its exit status is unknown: {e}"),
        };
        // What it wrote before it ended, without waiting for a helper of
        // its own that may hold the pipe open.
        let _ = self.stderr_ended.recv_timeout(STDERR_GRACE);
        let stderr = std::mem::take(&mut *self.stderr.lock().unwrap_or_else(|e| e.into_inner()));
        let stderr = String::from_utf8_lossy(&stderr);
        let stderr = stderr.trim();
        let said = if stderr.is_empty() {
            String::new()
        } else {
            format!(", saying: {stderr}")
        };
        self.error(format!("{what} ({status}{said})"))
    }

    /// Sends one stanza, flushed (secrets in it wiped from the buffer).
    fn send(&mut self, tag: &str, args: &[&str], body: &[u8]) -> Result<(), Error> {
        let mut stanza = Stanza {
            tag: tag.to_owned(),
            args: args.iter().map(|&arg| arg.to_owned()).collect(),
            body: body.to_vec(),
        };
        let mut text = Zeroizing::new(Vec::new());
        stanza.write(&mut *text)?;
        stanza.body.zeroize();
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(self.error("its input is closed"));
        };
        match stdin.write_all(&text).and_then(|()| stdin.flush()) {
            Ok(()) => Ok(()),
            Err(_) => Err(self.exited("it stopped reading before the end of the exchange")),
        }
    }

    /// Sends a `grease-…` stanza, which the plugin must ignore (c2sp.org/age-plugin,
    /// "grease"): a random name, argument and body, so that no plugin
    /// comes to depend on the commands it knows.
    fn grease(&mut self) -> Result<(), Error> {
        let bytes = random::<24>()?;
        let tag = format!(
            "grease-{:02x}{:02x}{:02x}{:02x}",
            bytes[0], bytes[1], bytes[2], bytes[3]
        );
        let arg = bytes[4].to_string();
        self.send(&tag, &[&arg], &bytes[6..6 + usize::from(bytes[5] % 19)])
    }

    /// Reads the next stanza the plugin sends.
    fn receive(&mut self) -> Result<Stanza, Error> {
        if self.stdout.fill_buf().map_or(true, <[u8]>::is_empty) {
            return Err(self.exited("it exited before the end of the exchange"));
        }
        let why = match Stanza::read(&mut self.stdout) {
            Ok(stanza) => return Ok(stanza),
            Err(Error::Header(why)) => format!("malformed response: {why}"),
            Err(e) => format!("cannot read its response: {e}"),
        };
        // A plugin that broke off: how it ended says more.
        Err(if self.stdout.fill_buf().map_or(true, <[u8]>::is_empty) {
            self.exited(&why)
        } else {
            self.error(why)
        })
    }

    /// Reads the next stanza; if that takes [`WAIT_NOTICE`], tells `ui`
    /// so (once) from a thread that waits beside the read.
    fn receive_or_notice(&mut self, ui: &dyn Ui) -> Result<Stanza, Error> {
        let (read, notice) = std::sync::mpsc::channel::<()>();
        let name = &self.name.clone();
        thread::scope(|scope| {
            scope.spawn(move || {
                if notice.recv_timeout(WAIT_NOTICE) == Err(RecvTimeoutError::Timeout) {
                    ui.waiting(name);
                }
            });
            let stanza = self.receive();
            drop(read);
            stanza
        })
    }

    /// The plugin's phase 2 until `done`: `error` ends it with that error,
    /// the interactive commands go to `ui`, and the state machine's own to
    /// `take`, which says whether it took the command (answered `ok`) or
    /// not (`unsupported`), or what is wrong with it.
    fn respond(
        &mut self,
        ui: &dyn Ui,
        mut take: impl FnMut(&Stanza) -> Result<bool, String>,
    ) -> Result<(), Error> {
        loop {
            let mut command = self.receive_or_notice(ui)?;
            let taken = match command.tag.as_str() {
                "done" => {
                    self.done = true;
                    return Ok(());
                }
                "error" => {
                    self.send("ok", &[], &[])?;
                    let message = String::from_utf8_lossy(&command.body);
                    return Err(self.error(message.trim_end().to_owned()));
                }
                "msg" | "request-public" | "request-secret" | "confirm" => {
                    self.interact(ui, &command)?;
                    continue;
                }
                _ => take(&command)
                    .map_err(|why| self.error(format!("malformed response: {why}")))?,
            };
            command.body.zeroize();
            self.send(if taken { "ok" } else { "unsupported" }, &[], &[])?;
        }
    }

    /// Answers an interactive command through `ui`: `ok` (with the value or
    /// the choice), or `fail` when the user could not be asked.
    fn interact(&mut self, ui: &dyn Ui, command: &Stanza) -> Result<(), Error> {
        let text = String::from_utf8_lossy(&command.body);
        let name = &self.name;
        match command.tag.as_str() {
            "msg" => {
                let shown = ui.display_message(name, &text);
                self.send(if shown { "ok" } else { "fail" }, &[], &[])
            }
            "confirm" => {
                let decode = |arg: &String| {
                    b64_decode(arg.as_bytes()).map(|b| String::from_utf8_lossy(&b).into_owned())
                };
                let choices = match command.args.as_slice() {
                    [yes] => decode(yes).map(|yes| (yes, None)),
                    // An empty second choice is none, as age reads it.
                    [yes, no] => decode(yes)
                        .zip(decode(no))
                        .map(|(yes, no)| (yes, Some(no).filter(|no| !no.is_empty()))),
                    _ => None,
                };
                let Some((yes, no)) = choices else {
                    return Err(self
                        .error("malformed response: confirm does not have 1 or 2 base64 choices"));
                };
                match ui.confirm(name, &text, &yes, no.as_deref()) {
                    Some(chose_yes) => {
                        self.send("ok", &[if chose_yes { "yes" } else { "no" }], &[])
                    }
                    None => self.send("fail", &[], &[]),
                }
            }
            _ => {
                let secret = command.tag == "request-secret";
                match ui.request_value(name, &text, secret) {
                    Some(value) => self.send("ok", &[], value.as_bytes()),
                    None => self.send("fail", &[], &[]),
                }
            }
        }
    }
}

impl Drop for Connection {
    /// Closes the plugin's input and waits for it to exit: after `done` it
    /// ends by itself (killed if it has not within [`EXIT_GRACE`]);
    /// otherwise the exchange failed and it is killed.
    fn drop(&mut self) {
        drop(self.stdin.take());
        if self.done {
            let start = std::time::Instant::now();
            while matches!(self.child.try_wait(), Ok(None)) && start.elapsed() < EXIT_GRACE {
                thread::sleep(std::time::Duration::from_millis(5));
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Drains `child`'s standard error on a thread, so that the plugin never
/// blocks on a full pipe: the first [`MAX_STDERR`] bytes kept, for the
/// error if it fails, the rest dropped. The receiver disconnects when the
/// pipe has ended.
fn drain_stderr(child: &mut Child) -> (Arc<Mutex<Vec<u8>>>, mpsc::Receiver<()>) {
    let kept = Arc::new(Mutex::new(Vec::new()));
    let (ended, stderr_ended) = mpsc::channel();
    if let Some(mut stderr) = child.stderr.take() {
        let kept = Arc::clone(&kept);
        thread::spawn(move || {
            let _ended = ended;
            let mut chunk = [0u8; 512];
            while let Ok(n @ 1..) = stderr.read(&mut chunk) {
                let mut kept = kept.lock().unwrap_or_else(|e| e.into_inner());
                let room = (MAX_STDERR as usize).saturating_sub(kept.len());
                kept.extend_from_slice(&chunk[..n.min(room)]);
            }
        });
    }
    (kept, stderr_ended)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_checked_as_age_checks_them() {
        for good in ["yubikey", "se", "a.b_c+d-e", "X9"] {
            assert!(valid_name(good), "{good}");
        }
        for bad in ["", "a/b", "a b", "ü", "a\\b", "a:b"] {
            assert!(!valid_name(bad), "{bad:?}");
        }
        let slash = bech32::encode("age1a/b", &[1, 2, 3], false);
        let e = slash.parse::<Recipient>().unwrap_err();
        assert!(e.to_string().contains("invalid plugin name \"a/b\""), "{e}");
        let slash = bech32::encode("AGE-PLUGIN-A/B-", &[], true);
        assert!(
            slash
                .parse::<Identity>()
                .unwrap_err()
                .to_string()
                .contains("invalid plugin name")
        );
        assert!(Identity::without_data("a/b").is_err());
    }

    #[test]
    fn recipients_and_identities_name_their_plugin() {
        let recipient: Recipient = bech32::encode("age1frood", &[7; 20], false)
            .parse()
            .unwrap();
        assert_eq!(recipient.name(), "frood");
        assert!(recipient.to_string().starts_with("age1frood1"));
        let identity: Identity = bech32::encode("AGE-PLUGIN-FROOD-", &[7; 20], true)
            .parse()
            .unwrap();
        assert_eq!(identity.name(), "frood");
        assert_eq!(
            Recipient::from_identity(&identity).to_string(),
            "<identity-based recipient>"
        );
        assert!(!format!("{identity:?}").contains("AGE-PLUGIN"));
        // `-j NAME`: the identity with no data, as age encodes it.
        let empty = Identity::without_data("batchpass").unwrap();
        assert_eq!(&*empty.encoding, "AGE-PLUGIN-BATCHPASS-1JCS0Q9");
        // Native keys and mixed case are not plugin keys.
        assert!("age1pq".parse::<Recipient>().is_err());
        let native = bech32::encode("AGE-SECRET-KEY-", &[7; 32], true);
        assert!(native.parse::<Identity>().is_err());
        let upper = bech32::encode("age1frood", &[7; 20], false).to_uppercase();
        assert!(upper.parse::<Recipient>().is_err());
    }
}
