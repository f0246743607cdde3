//! `simdcrypt encrypt` and `simdcrypt decrypt`: age files, with age's flags,
//! on every core.
//!
//! A file output is written to a temporary file beside it and renamed into
//! place only when the whole file is done (decryption: when the last chunk
//! verified); on any failure the temporary file is removed and an existing
//! file of that name is untouched. On standard output, decryption writes a
//! chunk only after its own tag verified and, on a later failure, says how
//! many bytes went out before it.

use std::fs::File;
use std::io::{self, BufRead, BufReader, IsTerminal, Read, Seek, SeekFrom, Write};
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::time::Instant;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use simdcrypt_age::armor::{self, ArmoredReader, ArmoredWriter};
use simdcrypt_age::keys::{self, AnyIdentity, AnyRecipient};
use simdcrypt_age::{
    Decryptor, Encryptor, FileKey, Identity, Recipient, Threads, plugin, scrypt, ssh,
};
use zeroize::Zeroizing;

use crate::cli::{AgeCommon, DecryptArgs, EncryptArgs, KeyFlag};
use crate::error::CliError;
use crate::io::Input;
use crate::output::{Content, Output};

/// Inputs at least this long get a progress bar on a terminal.
const PROGRESS_FROM: u64 = 8 << 20;
/// The largest identity or recipients file read, as age's 16 MiB: a bound on
/// what `-R /dev/urandom` can make the tool hold.
const MAX_KEY_FILE: u64 = 16 << 20;
/// A passphrase-encrypted file meets identities (as age says it).
const IDENTITIES_FOR_PASSPHRASE: &str = "file is passphrase-encrypted but identities were specified with -i/--identity or -j: drop them to be asked for the passphrase, or pass --passphrase-file";
/// The plugin `-j` runs in the tool itself (age's
/// `age-plugin-batchpass`, the same scrypt stanza).
const BATCHPASS: &str = "batchpass";
/// The longest passphrase read from a file or descriptor, as age's
/// batchpass plugin.
const MAX_PASSPHRASE: u64 = 1 << 20;

/// Runs `simdcrypt encrypt`.
///
/// # Errors
///
/// Bad recipients or key files, no recipient, a passphrase that cannot be
/// read, I/O failures.
pub fn encrypt(args: &EncryptArgs) -> Result<(), CliError> {
    let common = &args.common;
    check_plugin(common)?;
    refuse_output_in_use(common, args.recipients_files.iter().chain(&args.identities))?;
    // The input and output first: an existing output or a missing input is
    // refused before a passphrase is asked for or scrypt runs.
    let input = open_input(common.input.as_deref())?;
    let content = if args.armor {
        Content::Text
    } else {
        Content::Binary
    };
    let output = open_output(common, content)?;
    let mut recipients: Vec<Box<dyn Recipient>> = Vec::new();
    warn_duplicates("recipient", args.recipients.iter().map(String::as_str));
    warn_duplicates(
        "recipients file",
        args.recipients_files.iter().map(|p| p.to_string_lossy()),
    );
    warn_duplicates(
        "identity file",
        args.identities.iter().map(|p| p.to_string_lossy()),
    );
    for r in &args.recipients {
        recipients.push(Box::new(with_ui(
            r.parse::<AnyRecipient>().map_err(|e| age_arg("-r", e))?,
        )));
    }
    for path in &args.recipients_files {
        let text = read_key_file(path)?;
        let (parsed, skipped) =
            keys::parse_recipients(&text).map_err(|e| key_file_error(path, e))?;
        for s in skipped {
            crate::diag::warning!(
                "recipients file \"{}\": ignoring {} at line {}",
                path.display(),
                s.reason,
                s.line
            );
        }
        if parsed.is_empty() {
            return Err(CliError::KeyFile {
                path: path.clone(),
                line: None,
                source: simdcrypt_age::Error::Recipient(
                    String::new(),
                    "no recipients found (every key in it was left out, as the warnings say)"
                        .into(),
                ),
            });
        }
        recipients.extend(
            parsed
                .into_iter()
                .map(|r| Box::new(with_ui(r)) as Box<dyn Recipient>),
        );
    }
    for path in &args.identities {
        for key in read_identities(path)? {
            recipients.extend(key.recipients()?);
        }
    }
    for identity in plugin_identities(common)? {
        recipients.push(Box::new(plugin::Recipient::from_identity(&identity)));
    }
    let passphrase = match (
        args.passphrase,
        &common.passphrase_file,
        batchpass_given(common),
    ) {
        (false, None, false) => None,
        (true, None, false) => Some(prompt_new_passphrase()?),
        (false, Some(path), false) => Some(passphrase_from_file(path)?),
        (false, None, true) => Some(batchpass()?),
        _ => {
            return Err(CliError::Usage(
                "give one of -p, --passphrase-file and -j batchpass",
            ));
        }
    };
    if let Some(passphrase) = passphrase {
        if !recipients.is_empty() {
            return Err(CliError::Usage(
                "incompatible recipients: a passphrase cannot be mixed with -r, -R, -i or -j: an age file with a passphrase has no other recipient",
            ));
        }
        let log_n = match (args.work_factor, batchpass_given(common)) {
            (Some(n), _) => n,
            (None, true) => env_work_factor("AGE_PASSPHRASE_WORK_FACTOR")?
                .unwrap_or(scrypt::DEFAULT_WORK_FACTOR),
            (None, false) => scrypt::DEFAULT_WORK_FACTOR,
        };
        recipients.push(Box::new(scrypt::Recipient::new(
            passphrase.as_bytes(),
            log_n,
        )));
    } else if args.work_factor.is_some() {
        return Err(CliError::Usage(
            "--work-factor applies to a passphrase (-p, --passphrase-file, -j batchpass)",
        ));
    }
    if recipients.is_empty() {
        return Err(CliError::Usage(
            "no recipients: pass -r RECIPIENT, -R FILE, -i IDENTITY_FILE or -p",
        ));
    }
    let refs: Vec<&dyn Recipient> = recipients.iter().map(|r| r.as_ref()).collect();
    let encryptor = Encryptor::new(&refs).map_err(CliError::Age)?;

    let progress = Progress::new(input.len(), common.progress, "encrypted");
    let reader = progress.reader(input.named());
    let threads = threads(common.threads);
    let output = if args.armor {
        let mut armored = ArmoredWriter::new(output);
        encryptor
            .encrypt(reader, &mut armored, threads)
            .map_err(CliError::Age)?;
        armored.finish().map_err(|e| CliError::Age(e.into()))?
    } else {
        let mut output = output;
        encryptor
            .encrypt(reader, &mut output, threads)
            .map_err(CliError::Age)?;
        output
    };
    progress.finish();
    output.finish()
}

/// Runs `simdcrypt decrypt`.
///
/// # Errors
///
/// A malformed or tampered file, no matching identity, a wrong passphrase,
/// I/O failures; the message says how much went to standard output first.
pub fn decrypt(args: &DecryptArgs) -> Result<(), CliError> {
    let common = &args.common;
    check_plugin(common)?;
    refuse_output_in_use(common, &args.identities)?;
    warn_duplicates(
        "identity file",
        args.identities.iter().map(|p| p.to_string_lossy()),
    );
    // As age: the -i and -j keys in the order given, then its native keys
    // moved first; SSH keys, encrypted identity files and plugins keep
    // their order, so that one that asks the user is reached only when the
    // quiet ones did not match.
    let mut files = Vec::new();
    for path in &args.identities {
        files.push(Some(read_identities(path)?));
    }
    let mut plugins = (common.plugins.iter())
        .map(|name| plugin_identity(name))
        .collect::<Result<Vec<_>, _>>()?;
    let mut keys = Vec::new();
    for flag in &args.key_order {
        match *flag {
            KeyFlag::Identity(n) => keys.extend(files[n].take().into_iter().flatten()),
            KeyFlag::Plugin(n) => keys.extend(
                plugins[n]
                    .take()
                    .map(|i| IdentityKey::Age(AnyIdentity::Plugin(i))),
            ),
        }
    }
    keys.sort_by_key(|key| !key.is_native());
    let identities = Identities {
        plugins: keys.iter().any(IdentityKey::is_plugin),
        keys: keys.into_iter().map(IdentityKey::into_identity).collect(),
    };
    let input = open_input(common.input.as_deref())?;
    if args.offset.is_some() || args.length.is_some() {
        return decrypt_range(args, input, identities);
    }
    let output = open_output(common, Content::Plaintext)?;
    let progress = Progress::new(input.len(), common.progress, "decrypted");
    let input = typed_armor(input)?;
    let reader = ArmoredReader::new(BufReader::with_capacity(1 << 16, progress.reader(input)));
    let decryptor = Decryptor::new(reader).map_err(CliError::Age)?;
    let file_key = file_key(args, &decryptor, identities)?;
    release(output, |out| {
        decryptor.decrypt(&file_key, out, threads(common.threads))?;
        progress.finish();
        Ok(())
    })
}

/// The input, or, when it is typed (standard input a terminal), what is
/// typed up to armor's END line, as age reads it: the input ends there, so
/// that a passphrase can then be asked for on the same terminal.
fn typed_armor(input: Input) -> Result<Box<dyn Read + Send>, CliError> {
    let Input::Stdin(stdin) = input else {
        return Ok(Box::new(input.named()));
    };
    if !stdin.is_terminal() {
        return Ok(Box::new(Input::Stdin(stdin).named()));
    }
    // A line at a time (a terminal gives one a read), up to END or EOF.
    let mut typed = Vec::new();
    let mut lines = BufReader::with_capacity(1, stdin);
    loop {
        let start = typed.len();
        if lines
            .read_until(b'\n', &mut typed)
            .map_err(|e| CliError::read(None, e))?
            == 0
        {
            break;
        }
        if typed[start..].trim_ascii() == armor::END.as_bytes() {
            break;
        }
    }
    Ok(Box::new(io::Cursor::new(typed)))
}

/// Writes verified plaintext to `output` with `write`, then puts the output
/// in place. On a failure, a file output is left out entirely; standard
/// output has already had what went before, so the error says how much.
fn release(
    output: Output,
    write: impl FnOnce(&mut Counted<Output>) -> Result<(), simdcrypt_age::Error>,
) -> Result<(), CliError> {
    let to_file = output.is_file();
    let place = output.describe();
    let mut counted = Counted {
        inner: output,
        written: 0,
    };
    match write(&mut counted) {
        Ok(()) => counted.inner.finish(),
        Err(e) if to_file => Err(CliError::Age(e)),
        Err(e) => Err(CliError::AgeAfterOutput {
            source: e,
            written: counted.written,
            place,
        }),
    }
}

/// `decrypt --offset/--length`: the plaintext range through a
/// [`SeekableDecryptor`](simdcrypt_age::SeekableDecryptor), which reads the
/// final chunk (authenticating it first) and the chunks of the range, and
/// nothing else.
fn decrypt_range(args: &DecryptArgs, input: Input, identities: Identities) -> Result<(), CliError> {
    let Input::File {
        file, len: Some(_), ..
    } = input
    else {
        return Err(CliError::bad_arg(
            "--offset",
            "needs a regular file to seek in, not standard input or a pipe",
        ));
    };
    let mut reader = BufReader::with_capacity(1 << 16, file);
    let start = reader
        .fill_buf()
        .map_err(|e| CliError::read(args.common.input.as_deref(), e))?;
    if armored(start) {
        return Err(CliError::bad_arg(
            "--offset",
            "needs a binary age file: armored text cannot be read at an offset (decrypt it whole)",
        ));
    }
    let decryptor = Decryptor::new(reader).map_err(CliError::Age)?;
    let file_key = file_key(args, &decryptor, identities)?;
    let mut plain = decryptor.seekable(&file_key).map_err(CliError::Age)?;
    let offset = args.offset.unwrap_or(0);
    let length = args
        .length
        .unwrap_or_else(|| plain.len().saturating_sub(offset));
    if offset
        .checked_add(length)
        .is_none_or(|end| end > plain.len())
    {
        return Err(CliError::bad_arg(
            if args.length.is_some() {
                "--length"
            } else {
                "--offset"
            },
            format!(
                "the range {offset}..{} is past the end: the plaintext is {} bytes",
                offset.saturating_add(length),
                plain.len()
            ),
        ));
    }
    let output = open_output(&args.common, Content::Plaintext)?;
    release(output, |out| {
        plain.seek(SeekFrom::Start(offset))?;
        io::copy(&mut (&mut plain).take(length), out)?;
        Ok(())
    })
}

/// The file key of `decryptor`'s file from `identities`, or from a
/// passphrase (asked for, from a file, or from `-j batchpass`) when the
/// file is passphrase-encrypted.
fn file_key<R: BufRead + Send>(
    args: &DecryptArgs,
    decryptor: &Decryptor<R>,
    identities: Identities,
) -> Result<FileKey, CliError> {
    let common = &args.common;
    // As age: a passphrase is asked for, or read, only for a file that has
    // one; the -i identities are tried for it too, and for any other file
    // they are what opens it (so `-j batchpass -i KEY` opens both kinds).
    let passphrase = match (&common.passphrase_file, batchpass_given(common)) {
        (Some(_), true) => {
            return Err(CliError::Usage(
                "give one of --passphrase-file and -j batchpass",
            ));
        }
        _ if !decryptor.is_passphrase() => {
            if identities.keys.is_empty() {
                return Err(CliError::Usage(
                    if common.passphrase_file.is_some() || batchpass_given(common) {
                        "the file is not passphrase-encrypted, identities are required: pass -i IDENTITY_FILE for its recipients"
                    } else {
                        "the file is not passphrase-encrypted, identities are required: pass -i IDENTITY_FILE (the file is encrypted to recipients)"
                    },
                ));
            }
            None
        }
        (None, false) if identities.keys.is_empty() => Some(prompt_passphrase()?),
        // A plugin may open it (age-plugin-batchpass), as age lets it try.
        (None, false) if identities.plugins => None,
        (None, false) => {
            return Err(CliError::Usage(IDENTITIES_FOR_PASSPHRASE));
        }
        (Some(path), false) => Some(passphrase_from_file(path)?),
        (None, true) => Some(batchpass()?),
    };
    let mut identities = identities.keys;
    let passphrase_given = passphrase.as_ref().map(drop);
    if let Some(passphrase) = passphrase {
        let max = match (args.max_work_factor, batchpass_given(common)) {
            (Some(n), _) => n,
            (None, true) => env_work_factor("AGE_PASSPHRASE_MAX_WORK_FACTOR")?
                .unwrap_or(scrypt::DEFAULT_MAX_WORK_FACTOR),
            (None, false) => scrypt::DEFAULT_MAX_WORK_FACTOR,
        };
        identities.push(Box::new(scrypt::Identity::new(passphrase.as_bytes(), max)));
    }
    let refs: Vec<&dyn Identity> = identities.iter().map(|i| i.as_ref()).collect();
    decryptor.file_key(&refs).map_err(|e| match e {
        // Plugins were tried on a passphrase file and none opened it.
        simdcrypt_age::Error::WrongPassphrase if passphrase_given.is_none() => {
            CliError::Usage(IDENTITIES_FOR_PASSPHRASE)
        }
        e => CliError::Age(e),
    })
}

/// Warns, as age does, about a recipient or key file given twice: harmless,
/// but likely not what was meant.
fn warn_duplicates<S: AsRef<str> + Ord>(what: &str, values: impl Iterator<Item = S>) {
    let mut seen = std::collections::BTreeSet::new();
    let mut warned = std::collections::BTreeSet::new();
    for value in values {
        if !seen.insert(value.as_ref().to_owned()) && warned.insert(value.as_ref().to_owned()) {
            crate::diag::warning!("duplicate {what} \"{}\"", value.as_ref());
        }
    }
}

/// Whether `-j batchpass` was given: the built-in passphrase plugin.
fn batchpass_given(common: &AgeCommon) -> bool {
    common.plugins.iter().any(|p| p == BATCHPASS)
}

/// The identities of the `-j` plugins other than `batchpass` (built in):
/// each plugin's identity without data, as age's `-j`, talking to the user
/// on the terminal.
fn plugin_identities(common: &AgeCommon) -> Result<Vec<plugin::Identity>, CliError> {
    let identities = common.plugins.iter().map(|name| plugin_identity(name));
    identities.filter_map(Result::transpose).collect()
}

/// The identity of `-j NAME`, talking to the user on the terminal; `None`
/// for the built-in `batchpass`.
fn plugin_identity(name: &str) -> Result<Option<plugin::Identity>, CliError> {
    if name == BATCHPASS {
        return Ok(None);
    }
    plugin::Identity::without_data(name)
        .map(|i| Some(i.with_ui(terminal_ui())))
        .map_err(|e| age_arg("-j", e))
}

/// Checks the `-j` names before anything is read.
fn check_plugin(common: &AgeCommon) -> Result<(), CliError> {
    plugin_identities(common).map(drop)
}

/// The plugins' way to the user: the terminal.
fn terminal_ui() -> std::sync::Arc<dyn plugin::Ui> {
    std::sync::Arc::new(crate::plugin_ui::TerminalUi)
}

/// A recipient, a plugin's talking to the user on the terminal.
fn with_ui(recipient: AnyRecipient) -> AnyRecipient {
    match recipient {
        AnyRecipient::Plugin(r) => AnyRecipient::Plugin(r.with_ui(terminal_ui())),
        other => other,
    }
}

/// Refuses an output file that is one of the files read (`read`: the
/// input, key and recipients files), as age does: it would be replaced by
/// what is made from it. The same file under another name (a link, `..`)
/// counts.
fn refuse_output_in_use<'a>(
    common: &'a AgeCommon,
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
fn open_input(path: Option<&Path>) -> Result<Input, CliError> {
    Input::open(path.unwrap_or(Path::new("-")))
}

/// The output file or standard output. On a terminal, unless `-o -` asks
/// for it: a binary age file is refused, armor written, plaintext written
/// only while it is printable.
fn open_output(common: &AgeCommon, content: Content) -> Result<Output, CliError> {
    let (path, content) = match common.output.as_deref() {
        None => (Path::new("-"), content),
        // `-o -` asks for standard output whatever it is, as age takes it.
        Some(dash) if dash == Path::new("-") => (dash, Content::Text),
        Some(path) => (path, content),
    };
    Output::open(path, common.force, content).map_err(|e| match e {
        CliError::OutputIsTerminal => CliError::Usage(
            "refusing to output binary to the terminal: did you mean to use -a/--armor? Force with '-o -'",
        ),
        other => other,
    })
}

/// The `--threads` setting.
fn threads(n: Option<u32>) -> Threads {
    n.and_then(|n| NonZeroUsize::new(n as usize))
        .map_or(Threads::Auto, Threads::Count)
}

/// A key file's text (`-` for standard input), wiped when dropped; at most
/// [`MAX_KEY_FILE`] bytes.
pub fn read_key_file(path: &Path) -> Result<Zeroizing<String>, CliError> {
    text_of(path, read_key_bytes(path)?)
}

/// What `decrypt` tries: the `-i` keys, native ones first, then the `-j`
/// plugins' identities.
struct Identities {
    keys: Vec<Box<dyn Identity>>,
    /// Whether a plugin is among them: one may open a passphrase-encrypted
    /// file (`age-plugin-batchpass`), as age lets it.
    plugins: bool,
}

/// A key given with `-i`: age's own identities, or an SSH private key.
pub enum IdentityKey {
    /// An identity of an age identity file.
    Age(AnyIdentity),
    /// An SSH private key file (boxed: an RSA key is large).
    Ssh(Box<ssh::Identity>),
    /// An identity file encrypted with a passphrase, opened when it is
    /// first needed.
    Encrypted(EncryptedIdentityFile),
}

impl IdentityKey {
    /// The recipients `encrypt -i` encrypts to (an encrypted identity file
    /// is opened for them).
    fn recipients(&self) -> Result<Vec<Box<dyn Recipient>>, CliError> {
        Ok(match self {
            IdentityKey::Age(i) => vec![Box::new(i.to_public())],
            IdentityKey::Ssh(i) => vec![Box::new(i.to_public())],
            IdentityKey::Encrypted(file) => file
                .identities()?
                .iter()
                .map(|i| Box::new(i.to_public()) as Box<dyn Recipient>)
                .collect(),
        })
    }

    /// Whether a plugin unwraps for this key.
    fn is_plugin(&self) -> bool {
        matches!(self, IdentityKey::Age(AnyIdentity::Plugin(_)))
    }

    /// Whether it is one of age's own quiet keys (X25519, the hybrid),
    /// which age tries first.
    fn is_native(&self) -> bool {
        matches!(
            self,
            IdentityKey::Age(AnyIdentity::X25519(_) | AnyIdentity::Hybrid(_))
        )
    }

    /// The key as what opens stanzas.
    fn into_identity(self) -> Box<dyn Identity> {
        match self {
            IdentityKey::Age(i) => Box::new(i),
            IdentityKey::Ssh(i) => i,
            IdentityKey::Encrypted(file) => Box::new(file),
        }
    }
}

/// An identity file encrypted with a passphrase (`age-keygen | age -p`),
/// as age's `EncryptedIdentity`: its passphrase is asked for, and the file
/// opened, only when a file's stanzas reach it; a warning says so when its
/// identities then match none.
pub struct EncryptedIdentityFile {
    path: PathBuf,
    sealed: Zeroizing<Vec<u8>>,
    opened: std::sync::OnceLock<Vec<AnyIdentity>>,
}

impl EncryptedIdentityFile {
    /// Its identities, once its passphrase opened it.
    fn identities(&self) -> Result<&[AnyIdentity], CliError> {
        if let Some(identities) = self.opened.get() {
            return Ok(identities);
        }
        let text = decrypt_identity_file(&self.path, &self.sealed)?;
        let parsed = keys::parse_identities(&text).map_err(|e| key_file_error(&self.path, e))?;
        Ok(self
            .opened
            .get_or_init(|| parsed.into_iter().map(with_ui_identity).collect()))
    }
}

impl Identity for EncryptedIdentityFile {
    fn unwrap(
        &self,
        stanza: &simdcrypt_age::Stanza,
    ) -> Result<Option<FileKey>, simdcrypt_age::Error> {
        self.unwrap_stanzas(std::slice::from_ref(stanza))
    }

    fn unwrap_stanzas(
        &self,
        stanzas: &[simdcrypt_age::Stanza],
    ) -> Result<Option<FileKey>, simdcrypt_age::Error> {
        let identities = self
            .identities()
            .map_err(|e| simdcrypt_age::Error::Identity(e.to_string()))?;
        for identity in identities {
            if let Some(file_key) = identity.unwrap_stanzas(stanzas)? {
                return Ok(Some(file_key));
            }
        }
        crate::diag::warning!(
            "encrypted identity file \"{}\" didn't match file's recipients",
            self.path.display()
        );
        Ok(None)
    }
}

/// An identity, a plugin's talking to the user on the terminal.
fn with_ui_identity(identity: AnyIdentity) -> AnyIdentity {
    match identity {
        AnyIdentity::Plugin(i) => AnyIdentity::Plugin(i.with_ui(terminal_ui())),
        other => other,
    }
}

/// The keys of an `-i` file, told apart as age tells them: an SSH private
/// key (PEM other than age's armor; a protected one asks for its
/// passphrase on the terminal when a stanza is addressed to it), or an age
/// identity file, plain or passphrase-encrypted.
pub fn read_identities(path: &Path) -> Result<Vec<IdentityKey>, CliError> {
    let bytes = read_key_bytes(path)?;
    if bytes.starts_with(b"-----BEGIN") && !armored(&bytes) {
        let text = text_of(path, bytes)?;
        let name = path.display().to_string();
        let passphrase: ssh::Passphrase = std::sync::Arc::new(move || {
            prompt(&format!("Enter passphrase for \"{name}\": "))
                .map_err(|e| simdcrypt_age::Error::Identity(e.to_string()))
        });
        let public = if ssh::Identity::needs_public_key(&text) {
            Some(legacy_pem_public_key(path)?)
        } else {
            None
        };
        let key =
            ssh::Identity::from_pem(&text, public, passphrase).map_err(|e| CliError::KeyFile {
                path: path.to_path_buf(),
                line: None,
                source: e,
            })?;
        return Ok(vec![IdentityKey::Ssh(Box::new(key))]);
    }
    if bytes.starts_with(b"age-encryption.org/") || armored(&bytes) {
        return Ok(vec![IdentityKey::Encrypted(EncryptedIdentityFile {
            path: path.to_path_buf(),
            sealed: bytes,
            opened: std::sync::OnceLock::new(),
        })]);
    }
    let text = text_of(path, bytes)?;
    let parsed = keys::parse_identities(&text).map_err(|e| key_file_error(path, e))?;
    Ok(parsed
        .into_iter()
        .map(with_ui_identity)
        .map(IdentityKey::Age)
        .collect())
}

/// The public key of an SSH key under legacy PEM encryption, which does
/// not hold it: from `PATH.pub`, as age reads it.
fn legacy_pem_public_key(path: &Path) -> Result<ssh::Recipient, CliError> {
    let hint = |why: String| {
        CliError::bad_arg(
            "-i",
            format!(
                "failed to obtain the public key of the SSH key '{}' ({why}): ensure '{}.pub' exists, or convert the key to a modern format with \"ssh-keygen -p -m RFC4716\"",
                path.display(),
                path.display()
            ),
        )
    };
    if path.as_os_str() == "-" {
        return Err(hint("it was read from standard input".into()));
    }
    let mut pub_path = path.as_os_str().to_owned();
    pub_path.push(".pub");
    let text = std::fs::read_to_string(&pub_path).map_err(|e| hint(e.to_string()))?;
    text.trim()
        .parse()
        .map_err(|e: simdcrypt_age::Error| hint(e.to_string()))
}

/// The text of an identity file encrypted with a passphrase (an age file,
/// binary or armored, as `age-keygen | age -p` makes it), once its
/// passphrase is typed on the terminal, as age reads one.
fn decrypt_identity_file(path: &Path, sealed: &[u8]) -> Result<Zeroizing<String>, CliError> {
    let passphrase = prompt(&format!(
        "Enter passphrase for identity file \"{}\": ",
        path.display()
    ))?;
    let identity = scrypt::Identity::new(passphrase.as_bytes(), scrypt::DEFAULT_MAX_WORK_FACTOR);
    let mut plain = Zeroizing::new(Vec::new());
    simdcrypt_age::decrypt(&[&identity], sealed, &mut *plain).map_err(|e| {
        CliError::bad_arg(
            "-i",
            format!("encrypted identity file '{}': {e}", path.display()),
        )
    })?;
    text_of(path, std::mem::take(&mut *plain).into())
}

/// Whether the bytes that start a file are age's armor (its BEGIN line
/// after any whitespace).
fn armored(start: &[u8]) -> bool {
    start
        .trim_ascii_start()
        .starts_with(armor::BEGIN.as_bytes())
}

/// A key file's bytes (`-` for standard input), wiped when dropped; at
/// most [`MAX_KEY_FILE`] bytes.
fn read_key_bytes(path: &Path) -> Result<Zeroizing<Vec<u8>>, CliError> {
    let mut bytes = Zeroizing::new(Vec::new());
    let limit = MAX_KEY_FILE + 1;
    let result = if path.as_os_str() == "-" {
        crate::io::stdin().take(limit).read_to_end(&mut bytes)
    } else {
        File::open(path)
            .map_err(|source| CliError::OpenInput {
                path: path.to_path_buf(),
                source,
            })?
            .take(limit)
            .read_to_end(&mut bytes)
    };
    result.map_err(|e| CliError::read(Some(path), e))?;
    if bytes.len() as u64 > MAX_KEY_FILE {
        return Err(CliError::KeyFileTooLarge {
            path: path.to_path_buf(),
            limit: MAX_KEY_FILE,
        });
    }
    Ok(bytes)
}

/// A key file's bytes as text: UTF-8, or an error naming the file.
fn text_of(path: &Path, mut bytes: Zeroizing<Vec<u8>>) -> Result<Zeroizing<String>, CliError> {
    match String::from_utf8(std::mem::take(&mut *bytes)) {
        Ok(text) => Ok(Zeroizing::new(text)),
        Err(e) => {
            // The bytes go back to be wiped.
            *bytes = e.into_bytes();
            Err(CliError::read(
                Some(path),
                io::Error::new(
                    io::ErrorKind::InvalidData,
                    "stream did not contain valid UTF-8",
                ),
            ))
        }
    }
}

/// An error in a key file, with its line.
pub fn key_file_error(path: &Path, e: simdcrypt_age::KeyFileError) -> CliError {
    CliError::KeyFile {
        path: path.to_path_buf(),
        line: e.line,
        source: e.error,
    }
}

/// A bad command-line key.
fn age_arg(flag: &'static str, e: simdcrypt_age::Error) -> CliError {
    CliError::bad_arg(flag, e.to_string())
}

/// BIP 39's English word list (bitcoin/bips, `bip-0039/english.txt`,
/// SHA-256 2f5eed53…3b24dbda, checked by a test), from which age draws the
/// words of an autogenerated passphrase.
const BIP39_ENGLISH: &str = include_str!("bip39-english.txt");

/// Words in an autogenerated passphrase, as age draws them: 10 × 11 bits.
const AUTOGENERATED_WORDS: usize = 10;

/// A passphrase as age autogenerates one: [`AUTOGENERATED_WORDS`] words of
/// BIP 39's English list, each from two random bytes modulo 2048 (uniform,
/// since 2048 divides 65536), joined by `-`.
fn autogenerated_passphrase() -> Result<Zeroizing<String>, CliError> {
    let words: Vec<&str> = BIP39_ENGLISH.lines().collect();
    let mut random = Zeroizing::new([0u8; 2 * AUTOGENERATED_WORDS]);
    getrandom::fill(&mut *random).map_err(|e| CliError::Passphrase {
        why: format!("no random numbers from the system to make one ({e})"),
    })?;
    let mut passphrase = Zeroizing::new(String::new());
    for (i, pair) in random.chunks_exact(2).enumerate() {
        if i > 0 {
            passphrase.push('-');
        }
        passphrase
            .push_str(words[usize::from(u16::from_be_bytes([pair[0], pair[1]])) % words.len()]);
    }
    Ok(passphrase)
}

/// Tells the user on the terminal itself (`/dev/tty`), as age prints an
/// autogenerated passphrase: not on standard error, which a script may
/// keep; there only when there is no terminal.
fn to_terminal(text: &str) {
    let line = format!("{}: {text}\n", crate::multicall::program());
    let written = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/tty")
        .and_then(|mut tty| tty.write_all(line.as_bytes()));
    if written.is_err() {
        crate::diag::line(format_args!("{text}"));
    }
}

/// A passphrase typed twice at the terminal, never echoed; left empty, one
/// autogenerated and shown, as age does.
fn prompt_new_passphrase() -> Result<Zeroizing<String>, CliError> {
    let first = prompt("Enter passphrase (leave empty to autogenerate a secure one): ")?;
    if first.is_empty() {
        let passphrase = autogenerated_passphrase()?;
        to_terminal(&format!(
            "using autogenerated passphrase \"{}\"",
            passphrase.as_str()
        ));
        return Ok(passphrase);
    }
    let second = prompt("Confirm passphrase: ")?;
    if first != second {
        return Err(CliError::Usage("passphrases didn't match"));
    }
    Ok(first)
}

/// A passphrase typed once at the terminal, never echoed.
fn prompt_passphrase() -> Result<Zeroizing<String>, CliError> {
    prompt("Enter passphrase: ")
}

/// Reads a passphrase from the terminal (`/dev/tty`), not from standard
/// input, which carries the data.
fn prompt(text: &str) -> Result<Zeroizing<String>, CliError> {
    crate::io::read_secret(text).map_err(|e| CliError::Passphrase {
        why: format!(
            "cannot read it from the terminal ({e}); for scripts use --passphrase-file FILE or -j batchpass with AGE_PASSPHRASE"
        ),
    })
}

/// The first line of `path`, without its line ending.
fn passphrase_from_file(path: &Path) -> Result<Zeroizing<String>, CliError> {
    let file = File::open(path).map_err(|source| CliError::OpenInput {
        path: path.to_path_buf(),
        source,
    })?;
    let mut line = Zeroizing::new(String::new());
    BufReader::new(file.take(MAX_PASSPHRASE))
        .read_line(&mut line)
        .map_err(|e| CliError::read(Some(path), e))?;
    let len = line.trim_end_matches(['\n', '\r']).len();
    line.truncate(len);
    if line.is_empty() {
        return Err(CliError::Passphrase {
            why: format!("the first line of '{}' is empty", path.display()),
        });
    }
    Ok(line)
}

/// age's batchpass plugin: the passphrase from `AGE_PASSPHRASE`, or read
/// from the descriptor `AGE_PASSPHRASE_FD` (trailing newlines stripped).
fn batchpass() -> Result<Zeroizing<String>, CliError> {
    let var = |name| std::env::var(name).ok().filter(|v: &String| !v.is_empty());
    match (var("AGE_PASSPHRASE"), var("AGE_PASSPHRASE_FD")) {
        (Some(p), None) => Ok(Zeroizing::new(p)),
        (None, Some(fd)) => {
            let fd: u32 = fd.parse().map_err(|_| CliError::Passphrase {
                why: format!("AGE_PASSPHRASE_FD={fd:?} is not a file descriptor number"),
            })?;
            let path = PathBuf::from(format!("/dev/fd/{fd}"));
            let mut text = Zeroizing::new(String::new());
            File::open(&path)
                .and_then(|f| f.take(MAX_PASSPHRASE + 1).read_to_string(&mut text))
                .map_err(|e| CliError::Passphrase {
                    why: format!("cannot read descriptor {fd}: {e}"),
                })?;
            if text.len() as u64 > MAX_PASSPHRASE {
                return Err(CliError::Passphrase {
                    why: format!("the passphrase on descriptor {fd} is over 1 MiB"),
                });
            }
            let len = text.trim_end_matches(['\n', '\r']).len();
            text.truncate(len);
            Ok(text)
        }
        (Some(_), Some(_)) => Err(CliError::Passphrase {
            why: "AGE_PASSPHRASE and AGE_PASSPHRASE_FD are mutually exclusive".into(),
        }),
        (None, None) => Err(CliError::Passphrase {
            why: "either AGE_PASSPHRASE or AGE_PASSPHRASE_FD must be set for -j batchpass".into(),
        }),
    }
}

/// A work factor from the environment, 1 to 30 as age's batchpass plugin.
fn env_work_factor(name: &str) -> Result<Option<u8>, CliError> {
    // Set but empty is unset, as age-plugin-batchpass reads it.
    let Some(value) = std::env::var(name).ok().filter(|v| !v.is_empty()) else {
        return Ok(None);
    };
    match value.parse::<u8>() {
        Ok(n @ 1..=30) => Ok(Some(n)),
        _ => Err(CliError::Passphrase {
            why: format!("{name}={value:?}: expected a number from 1 to 30"),
        }),
    }
}

/// A writer that counts what went through, for "N bytes were written
/// before the error".
struct Counted<W> {
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
struct Progress {
    /// Drawn on a terminal when wanted, hidden otherwise (it still counts).
    bar: ProgressBar,
    summary: Option<(Instant, &'static str)>,
}

impl Progress {
    fn new(len: Option<u64>, forced: bool, verb: &'static str) -> Progress {
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
        let summary = (forced && !terminal).then(|| (Instant::now(), verb));
        Progress { bar, summary }
    }

    /// `input`, counting into the bar as it is read.
    fn reader<R: Read + Send>(&self, input: R) -> impl Read + Send + use<R> {
        self.bar.wrap_read(input)
    }

    fn finish(self) {
        self.bar.finish_and_clear();
        if let Some((start, verb)) = self.summary {
            let secs = start.elapsed().as_secs_f64();
            let bytes = self.bar.position();
            crate::diag::line(format_args!(
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

#[cfg(test)]
mod tests {
    use super::{AUTOGENERATED_WORDS, BIP39_ENGLISH, autogenerated_passphrase};

    /// The word list is BIP 39's English list, byte for byte.
    #[test]
    fn the_word_list_is_bip39_english() {
        let mut h = simdcrypt::hash::Sha256::new();
        h.update(BIP39_ENGLISH.as_bytes());
        let digest: String = h.finalize().iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(
            digest,
            "2f5eed53a4727b4bf8880d8f3f199efc90e58503646d9ff8eff3a2ed3b24dbda"
        );
        assert_eq!(BIP39_ENGLISH.lines().count(), 2048);
    }

    /// Ten words of the list joined by `-`, different each time.
    #[test]
    fn autogenerated_passphrases_are_ten_listed_words() {
        let first = autogenerated_passphrase().unwrap();
        let words: Vec<&str> = first.split('-').collect();
        assert_eq!(words.len(), AUTOGENERATED_WORDS);
        assert!(words.iter().all(|w| BIP39_ENGLISH.lines().any(|l| l == *w)));
        assert_ne!(*first, *autogenerated_passphrase().unwrap());
    }
}
