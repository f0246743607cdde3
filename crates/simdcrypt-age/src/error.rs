//! What can go wrong reading and writing age files, in words a user can act
//! on.

use std::{fmt, io};

/// An error of the age format or of the I/O around it.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The header breaks c2sp.org/age's grammar or a stanza's rules.
    #[error("header is malformed: {0}")]
    Header(String),
    /// The version line names a version other than v1.
    #[error("unsupported age version {0:?}: only age-encryption.org/v1 is known")]
    UnsupportedVersion(String),
    /// The ASCII armor is not strict RFC 7468 PEM with canonical base64.
    #[error("armor is malformed: {0}")]
    Armor(String),
    /// No identity unwrapped any stanza.
    #[error("no identity matched any of the recipients")]
    NoMatch,
    /// The passphrase did not unwrap the scrypt stanza.
    #[error("incorrect passphrase")]
    WrongPassphrase,
    /// A scrypt stanza sits beside other stanzas, or a passphrase beside
    /// other recipients.
    #[error(
        "incompatible recipients: a passphrase (scrypt) recipient must be the only recipient of a file"
    )]
    ScryptNotAlone,
    /// Post-quantum recipients are mixed with classic ones.
    #[error(
        "incompatible recipients: can't mix post-quantum (age1pq1…, age1tagpq1…) and classic recipients, or the file would be vulnerable to quantum computers"
    )]
    MixedPostQuantum,
    /// Recipients whose labels differ (c2sp.org/age-plugin, "labels"): one
    /// meant to be alone, or of properties the others would undo. (A
    /// post-quantum label against none is [`Error::MixedPostQuantum`].)
    #[error(
        "incompatible recipients: those labelled {0:?} and those labelled {1:?} can't be mixed"
    )]
    IncompatibleRecipients(Vec<String>, Vec<String>),
    /// An age plugin ([`plugin`](crate::plugin)) reported an error, broke
    /// the protocol, or exited before the end of the exchange.
    #[error("age-plugin-{name}: {message}")]
    Plugin {
        /// The plugin's name (`age-plugin-NAME`).
        name: String,
        /// What it said, or what went wrong.
        message: String,
    },
    /// The plugin program `age-plugin-NAME` is not on `PATH`.
    #[error(
        "age-plugin-{0} not found: the {0:?} plugin must be installed as a program named age-plugin-{0} in a directory on PATH (visit https://age-encryption.org/awesome#plugins for a list of available plugins)"
    )]
    PluginNotFound(String),
    /// The scrypt work factor is above the limit the reader accepts.
    #[error(
        "scrypt work factor 2^{found} is above the limit 2^{limit} (raise it with --max-work-factor if you trust the file)"
    )]
    WorkFactorTooLarge {
        /// The file's log2 N.
        found: u8,
        /// The largest accepted log2 N.
        limit: u8,
    },
    /// The header MAC does not match the header under the unwrapped key.
    #[error("header MAC does not match: the header was modified or corrupted")]
    HeaderMac,
    /// The payload ends before its final chunk.
    #[error("file is truncated")]
    Truncated,
    /// A payload chunk failed its tag.
    #[error("chunk {0} failed authentication: the file was modified or corrupted")]
    Chunk(u64),
    /// The chunk at the end of the file failed its tag: as final chunk and
    /// as any other. A cut inside a chunk looks the same as damage to it.
    #[error(
        "chunk {0}, the last in the file, failed authentication: the file was truncated, modified or corrupted"
    )]
    LastChunk(u64),
    /// A final chunk is followed by more data.
    #[error("trailing data after the final chunk {0}: the file was modified")]
    TrailingData(u64),
    /// The final chunk is empty after a full chunk, which a writer never
    /// produces.
    #[error("chunk {0} is an empty final chunk after a full one: the file was modified")]
    EmptyFinalChunk(u64),
    /// Encryption was asked for no recipients.
    #[error("no recipients given")]
    NoRecipients,
    /// Encryption was asked for more recipient stanzas than
    /// [`MAX_RECIPIENT_STANZAS`](crate::format::MAX_RECIPIENT_STANZAS):
    /// a file age 1.3.2 and later would refuse to read.
    #[error(
        "too many recipients: {0} recipient stanzas, and age (from 1.3.2) opens no file with more than {max}",
        max = crate::format::MAX_RECIPIENT_STANZAS
    )]
    TooManyRecipients(usize),
    /// A recipient string could not be parsed.
    #[error("invalid recipient{quoted}: {1}", quoted = quoted(.0))]
    Recipient(String, String),
    /// An identity string could not be parsed.
    #[error("invalid identity: {0}")]
    Identity(String),
    /// The operating system gave no randomness.
    #[error("the operating system's random number generator failed: {0}")]
    Random(String),
    /// A primitive refused its input (scrypt memory, for one).
    #[error(transparent)]
    Crypto(#[from] simdcrypt::Error),
    /// Reading or writing failed.
    #[error("{0}")]
    Io(#[source] io::Error),
}

/// An identity or recipients file that does not parse
/// ([`keys::parse_identities`](crate::keys::parse_identities),
/// [`keys::parse_recipients`](crate::keys::parse_recipients)): the line it
/// is on and what is wrong there.
///
/// Its message is the line and the error's own (`line 2: invalid identity:
/// …`), or the error's alone when it concerns the whole file. Since the
/// message already holds the error's, `source()` is not that error but
/// the error's own source (as a transparent wrapper's is), so that a chain
/// of causes says each thing once; the error itself is the field
/// [`error`](Self::error).
///
/// ```
/// use simdcrypt_age::keys::parse_identities;
///
/// // (`.err()`: identities have no `Debug`, so `unwrap_err` cannot show them.)
/// let e = parse_identities("# a comment\nAGE-SECRET-KEY-1NOPE\n").err().unwrap();
/// assert_eq!(e.line, Some(2));
/// assert!(matches!(e.error, simdcrypt_age::Error::Identity(_)));
/// assert!(e.to_string().starts_with("line 2: invalid identity: "));
///
/// let e = parse_identities("# nothing but comments\n").err().unwrap();
/// assert_eq!(e.line, None);
/// assert_eq!(e.to_string(), "invalid identity: the file holds no identity");
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub struct KeyFileError {
    /// The line the error is on, counted from 1; `None` when the file as
    /// a whole is wrong (it holds no key).
    pub line: Option<usize>,
    /// What is wrong: [`Error::Identity`] or [`Error::Recipient`] (or what
    /// a key's own parser says).
    pub error: Error,
}

impl KeyFileError {
    /// The error on line `line` (counted from 1).
    pub(crate) fn at(line: usize, error: Error) -> Self {
        KeyFileError {
            line: Some(line),
            error,
        }
    }

    /// The error of the file as a whole.
    pub(crate) fn whole(error: Error) -> Self {
        KeyFileError { line: None, error }
    }
}

impl fmt::Display for KeyFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(line) = self.line {
            write!(f, "line {line}: ")?;
        }
        self.error.fmt(f)
    }
}

impl std::error::Error for KeyFileError {
    /// The error's own source: its message is already in this one's.
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.error.source()
    }
}

/// An I/O error back to the age error it carries, if any: the armor reader
/// reports malformed armor through `io::Read` as an `io::Error` wrapping
/// [`Error::Armor`], which `?` turns back into that variant here.
impl From<io::Error> for Error {
    fn from(error: io::Error) -> Self {
        error.downcast::<Error>().unwrap_or_else(Error::Io)
    }
}

/// ` "value"` for a message, or nothing for an empty one (an error of a
/// whole file has no recipient to quote).
fn quoted(value: &str) -> String {
    if value.is_empty() {
        String::new()
    } else {
        format!(" {value:?}")
    }
}

impl Error {
    /// A header error with its reason.
    pub(crate) fn header(reason: impl Into<String>) -> Self {
        Error::Header(reason.into())
    }

    /// The error as an `io::Read` or `io::Write` reports it: an I/O error
    /// as itself, any other as `InvalidData` carrying it (which `From`
    /// above turns back).
    pub(crate) fn into_io(self) -> io::Error {
        match self {
            Error::Io(error) => error,
            other => io::Error::new(io::ErrorKind::InvalidData, other),
        }
    }
}
