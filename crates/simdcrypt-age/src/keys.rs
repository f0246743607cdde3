//! Identity and recipient files as age reads them: one key a line, `#`
//! comments and empty lines ignored; and the enums that hold a key of any
//! native type.

use std::fmt;
use std::str::FromStr;

use zeroize::Zeroizing;

use crate::{Error, FileKey, KeyFileError, Stanza, plugin, pq, ssh, tag, x25519};

/// An identity of any type this crate reads.
pub enum AnyIdentity {
    /// `AGE-SECRET-KEY-1…`
    X25519(x25519::Identity),
    /// `AGE-SECRET-KEY-PQ-1…`
    Hybrid(pq::Identity),
    /// `AGE-PLUGIN-NAME-1…`, unwrapped by `age-plugin-NAME`.
    Plugin(plugin::Identity),
}

impl AnyIdentity {
    /// The recipient files are encrypted to for this identity.
    pub fn to_public(&self) -> AnyRecipient {
        match self {
            AnyIdentity::X25519(i) => AnyRecipient::X25519(i.to_public()),
            AnyIdentity::Hybrid(i) => AnyRecipient::Hybrid(i.to_public()),
            AnyIdentity::Plugin(i) => AnyRecipient::Plugin(plugin::Recipient::from_identity(i)),
        }
    }

    /// The identity in its Bech32 form.
    pub fn to_bech32(&self) -> Zeroizing<String> {
        match self {
            AnyIdentity::X25519(i) => i.to_bech32(),
            AnyIdentity::Hybrid(i) => i.to_bech32(),
            AnyIdentity::Plugin(i) => i.to_bech32(),
        }
    }
}

impl FromStr for AnyIdentity {
    type Err = Error;

    /// Parses an identity by its prefix.
    fn from_str(s: &str) -> Result<Self, Error> {
        if s.starts_with("AGE-SECRET-KEY-PQ-1") {
            Ok(AnyIdentity::Hybrid(s.parse()?))
        } else if s.starts_with("AGE-SECRET-KEY-1") {
            Ok(AnyIdentity::X25519(s.parse()?))
        } else if s.starts_with("AGE-PLUGIN-") {
            Ok(AnyIdentity::Plugin(s.parse()?))
        } else {
            Err(Error::Identity(
                "expected an identity starting with AGE-SECRET-KEY-1, AGE-SECRET-KEY-PQ-1 or AGE-PLUGIN-".into(),
            ))
        }
    }
}

impl crate::Identity for AnyIdentity {
    fn unwrap(&self, stanza: &Stanza) -> Result<Option<FileKey>, Error> {
        match self {
            AnyIdentity::X25519(i) => i.unwrap(stanza),
            AnyIdentity::Hybrid(i) => i.unwrap(stanza),
            AnyIdentity::Plugin(i) => i.unwrap(stanza),
        }
    }

    fn unwrap_stanzas(&self, stanzas: &[Stanza]) -> Result<Option<FileKey>, Error> {
        match self {
            AnyIdentity::X25519(i) => i.unwrap_stanzas(stanzas),
            AnyIdentity::Hybrid(i) => i.unwrap_stanzas(stanzas),
            AnyIdentity::Plugin(i) => i.unwrap_stanzas(stanzas),
        }
    }
}

/// A recipient of any type this crate writes to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnyRecipient {
    /// `age1…`
    X25519(x25519::Recipient),
    /// `age1pq1…`
    Hybrid(pq::Recipient),
    /// `ssh-ed25519 …` or `ssh-rsa …`
    Ssh(ssh::Recipient),
    /// `age1tag1…` or `age1tagpq1…` (a hardware key's recipient)
    Tag(tag::Recipient),
    /// `age1NAME1…`, wrapped by `age-plugin-NAME` (or an identity
    /// `AGE-PLUGIN-NAME-1…` encrypted to).
    Plugin(plugin::Recipient),
}

impl FromStr for AnyRecipient {
    type Err = Error;

    /// Parses a recipient by its prefix.
    fn from_str(s: &str) -> Result<Self, Error> {
        if s.starts_with("age1tag1") || s.starts_with("age1tagpq1") {
            Ok(AnyRecipient::Tag(s.parse()?))
        } else if s.starts_with("age1pq1") {
            Ok(AnyRecipient::Hybrid(s.parse()?))
        } else if s.starts_with("age1") && s.matches('1').count() > 1 {
            // Bech32's data has no `1`: a second one ends a plugin's name.
            Ok(AnyRecipient::Plugin(s.parse()?))
        } else if s.starts_with("age1") {
            Ok(AnyRecipient::X25519(s.parse()?))
        } else if s.starts_with("ssh-") {
            Ok(AnyRecipient::Ssh(s.parse()?))
        } else {
            Err(Error::Recipient(
                s.to_owned(),
                "expected a recipient starting with age1, age1pq1, age1tag1, age1tagpq1, ssh-ed25519 or ssh-rsa".into(),
            ))
        }
    }
}

impl fmt::Display for AnyRecipient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnyRecipient::X25519(r) => r.fmt(f),
            AnyRecipient::Hybrid(r) => r.fmt(f),
            AnyRecipient::Ssh(r) => r.fmt(f),
            AnyRecipient::Tag(r) => r.fmt(f),
            AnyRecipient::Plugin(r) => r.fmt(f),
        }
    }
}

impl crate::Recipient for AnyRecipient {
    fn wrap(&self, file_key: &FileKey) -> Result<Vec<Stanza>, Error> {
        match self {
            AnyRecipient::X25519(r) => r.wrap(file_key),
            AnyRecipient::Hybrid(r) => r.wrap(file_key),
            AnyRecipient::Ssh(r) => r.wrap(file_key),
            AnyRecipient::Tag(r) => r.wrap(file_key),
            AnyRecipient::Plugin(r) => r.wrap(file_key),
        }
    }

    fn wrap_with_labels(&self, file_key: &FileKey) -> Result<(Vec<Stanza>, Vec<String>), Error> {
        match self {
            AnyRecipient::Plugin(r) => r.wrap_with_labels(file_key),
            AnyRecipient::Tag(r) => r.wrap_with_labels(file_key),
            AnyRecipient::Hybrid(r) => r.wrap_with_labels(file_key),
            AnyRecipient::X25519(r) => r.wrap_with_labels(file_key),
            AnyRecipient::Ssh(r) => r.wrap_with_labels(file_key),
        }
    }

    fn is_post_quantum(&self) -> bool {
        match self {
            AnyRecipient::Hybrid(_) => true,
            AnyRecipient::Tag(r) => r.is_post_quantum(),
            AnyRecipient::X25519(_) | AnyRecipient::Ssh(_) | AnyRecipient::Plugin(_) => false,
        }
    }
}

/// The keys of a key file's text: every line that is neither empty nor a
/// `#` comment, parsed by `parse` (`None`: a line to skip, with the
/// reason); an error names the line. An empty result is `empty`, an error
/// of the whole file; a file whose every key was skipped is not, so that
/// the caller can say what was skipped before it refuses the file.
fn parse_lines<T>(
    text: &str,
    parse: impl Fn(&str) -> Result<Result<T, String>, Error>,
    empty: impl FnOnce() -> Error,
) -> Result<(Vec<T>, Vec<Skipped>), KeyFileError> {
    let (mut keys, mut skipped) = (Vec::new(), Vec::new());
    let lines = text.lines().enumerate();
    for (n, line) in lines.map(|(n, line)| (n + 1, line.trim_end_matches('\r'))) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match parse(line).map_err(|e| KeyFileError::at(n, e))? {
            Ok(key) => keys.push(key),
            Err(reason) => skipped.push(Skipped { line: n, reason }),
        }
    }
    if keys.is_empty() && skipped.is_empty() {
        return Err(KeyFileError::whole(empty()));
    }
    Ok((keys, skipped))
}

/// A line of a recipients file that is left out, as age leaves it out: a
/// well-formed SSH key that is not a recipient (a type age does not take,
/// an RSA key under 2048 bits).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skipped {
    /// The line, counted from 1.
    pub line: usize,
    /// Why, for a warning: `unsupported SSH key of type "…"`.
    pub reason: String,
}

/// The identities of an identity file (as `age-keygen` writes it, or
/// several concatenated): one a line, `#` comments and empty lines
/// ignored.
///
/// ```
/// use simdcrypt_age::keys::parse_identities;
/// use simdcrypt_age::x25519::Identity;
///
/// let identity = Identity::generate()?;
/// let file = format!("# created by a test\n{}\n", identity.to_bech32().as_str());
/// let parsed = parse_identities(&file)?;
/// assert_eq!(parsed.len(), 1);
/// assert_eq!(parsed[0].to_bech32(), identity.to_bech32());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// A [`KeyFileError`] with the line of the first line that is not an
/// identity, and the reason ([`Error::Identity`], or what the identity's
/// type says); with no line when the file holds none.
pub fn parse_identities(text: &str) -> Result<Vec<AnyIdentity>, KeyFileError> {
    let parse = |line: &str| line.parse().map(Ok);
    parse_lines(text, parse, || {
        Error::Identity("the file holds no identity".into())
    })
    .map(|(keys, _)| keys)
}

/// The recipients of a recipients file (`-R`): one a line, `#` comments
/// and empty lines ignored; an SSH key of a type age does not take (an
/// `authorized_keys` file's `ecdsa-sha2-nistp256` line, a small RSA key)
/// is left out and listed in the second part, as age warns and goes on.
///
/// # Errors
///
/// A [`KeyFileError`] with the line of the first line that is not a
/// recipient, and the reason ([`Error::Recipient`], or what the
/// recipient's type says); with no line when the file holds no key at all.
/// A file whose every key was left out gives no recipient and its list of
/// skipped lines.
pub fn parse_recipients(text: &str) -> Result<(Vec<AnyRecipient>, Vec<Skipped>), KeyFileError> {
    let parse = |line: &str| match line.parse() {
        Ok(recipient) => Ok(Ok(recipient)),
        Err(e) => match ssh::key_type(line) {
            Some(t) if t == ssh::ED25519_TAG || t == ssh::RSA_TAG => match e {
                Error::Recipient(_, why) => {
                    Ok(Err(format!("unsupported SSH key of type {t:?} ({why})")))
                }
                other => Err(other),
            },
            Some(t) => Ok(Err(format!("unsupported SSH key of type {t:?}"))),
            None => Err(e),
        },
    };
    parse_lines(text, parse, || {
        Error::Recipient(String::new(), "the file holds no recipient".into())
    })
}
