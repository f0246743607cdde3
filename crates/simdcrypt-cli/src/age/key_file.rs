//! Identity and recipients files as age reads them: at most 16 MiB, from a
//! path or standard input, as UTF-8 text, wiped when dropped; their errors
//! name the file and the line.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

use zeroize::Zeroizing;

use crate::error::CliError;

/// The largest identity or recipients file read, as age's 16 MiB: a bound on
/// what `-R /dev/urandom` can make the tool hold.
pub(super) const MAX_KEY_FILE: u64 = 16 << 20;

/// A key file's text (`-` for standard input), wiped when dropped; at most
/// [`MAX_KEY_FILE`] bytes.
pub(super) fn read_key_file(path: &Path) -> Result<Zeroizing<String>, CliError> {
    text_of(path, read_key_bytes(path)?)
}

/// A key file's bytes (`-` for standard input), wiped when dropped; at
/// most [`MAX_KEY_FILE`] bytes.
pub(super) fn read_key_bytes(path: &Path) -> Result<Zeroizing<Vec<u8>>, CliError> {
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
pub(super) fn text_of(
    path: &Path,
    mut bytes: Zeroizing<Vec<u8>>,
) -> Result<Zeroizing<String>, CliError> {
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
pub(super) fn key_file_error(path: &Path, e: simdcrypt_age::KeyFileError) -> CliError {
    CliError::KeyFile {
        path: path.to_path_buf(),
        line: e.line,
        source: e.error,
    }
}

/// A bad command-line key.
pub(super) fn age_arg(flag: &'static str, e: simdcrypt_age::Error) -> CliError {
    CliError::bad_arg(flag, e.to_string())
}
