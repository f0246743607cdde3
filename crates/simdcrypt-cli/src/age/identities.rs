//! The keys `-i` gives, told apart as age tells them: age identity files,
//! plain or encrypted with a passphrase (opened when a file's stanzas
//! reach them), and SSH private keys (a protected one asks for its
//! passphrase when a stanza is addressed to it).

use std::path::{Path, PathBuf};

use simdcrypt_age::keys::{self, AnyIdentity};
use simdcrypt_age::{FileKey, Identity, Recipient, scrypt, ssh};
use zeroize::Zeroizing;

use super::armored;
use super::key_file::{key_file_error, read_key_bytes, text_of};
use super::passphrase::prompt;
use super::plugins::with_ui_identity;
use crate::diag::Diag;
use crate::error::CliError;

/// A key given with `-i`: age's own identities, or an SSH private key.
pub(super) enum IdentityKey {
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
    pub(super) fn recipients(&self) -> Result<Vec<Box<dyn Recipient>>, CliError> {
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
    pub(super) fn is_plugin(&self) -> bool {
        matches!(self, IdentityKey::Age(AnyIdentity::Plugin(_)))
    }

    /// Whether it is one of age's own quiet keys (X25519, the hybrid),
    /// which age tries first.
    pub(super) fn is_native(&self) -> bool {
        matches!(
            self,
            IdentityKey::Age(AnyIdentity::X25519(_) | AnyIdentity::Hybrid(_))
        )
    }

    /// The key as what opens stanzas.
    pub(super) fn into_identity(self) -> Box<dyn Identity> {
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
pub(super) struct EncryptedIdentityFile {
    path: PathBuf,
    sealed: Zeroizing<Vec<u8>>,
    opened: std::sync::OnceLock<Vec<AnyIdentity>>,
    /// Where its warning and its plugins' messages go.
    diag: Diag,
}

impl EncryptedIdentityFile {
    /// Its identities, once its passphrase opened it.
    fn identities(&self) -> Result<&[AnyIdentity], CliError> {
        if let Some(identities) = self.opened.get() {
            return Ok(identities);
        }
        let text = decrypt_identity_file(&self.path, &self.sealed)?;
        let parsed = keys::parse_identities(&text).map_err(|e| key_file_error(&self.path, e))?;
        Ok(self.opened.get_or_init(|| {
            parsed
                .into_iter()
                .map(|i| with_ui_identity(i, self.diag))
                .collect()
        }))
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
        self.diag.warning(format_args!(
            "encrypted identity file \"{}\" didn't match file's recipients",
            self.path.display()
        ));
        Ok(None)
    }
}

/// The keys of an `-i` file, told apart as age tells them: an SSH private
/// key (PEM other than age's armor; a protected one asks for its
/// passphrase on the terminal when a stanza is addressed to it), or an age
/// identity file, plain or passphrase-encrypted.
pub(super) fn read_identities(path: &Path, diag: Diag) -> Result<Vec<IdentityKey>, CliError> {
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
            diag,
        })]);
    }
    let text = text_of(path, bytes)?;
    let parsed = keys::parse_identities(&text).map_err(|e| key_file_error(path, e))?;
    Ok(parsed
        .into_iter()
        .map(|i| with_ui_identity(i, diag))
        .map(IdentityKey::Age)
        .collect())
}

/// The public key of an SSH key under legacy PEM encryption, which does
/// not hold it: from `PATH.pub`, as age reads it.
pub(super) fn legacy_pem_public_key(path: &Path) -> Result<ssh::Recipient, CliError> {
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
pub(super) fn decrypt_identity_file(
    path: &Path,
    sealed: &[u8],
) -> Result<Zeroizing<String>, CliError> {
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
