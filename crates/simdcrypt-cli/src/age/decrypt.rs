//! `simdcrypt decrypt`: an age file with identities (`-i`, `-j`, tried in
//! the order given, age's native ones first) or its passphrase, whole or a
//! range of it (`--offset`, `--length`).

use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom};
use std::path::PathBuf;

use simdcrypt_age::armor::ArmoredReader;
use simdcrypt_age::keys::AnyIdentity;
use simdcrypt_age::{Decryptor, FileKey, Identity, scrypt};

use super::identities::{IdentityKey, read_identities};
use super::passphrase::{batchpass, env_work_factor, passphrase_from_file, prompt_passphrase};
use super::plugins::{batchpass_given, check_plugin, plugin_identity};
use super::terminal::{open_output, typed_armor};
use super::{
    Common, Counted, Progress, armored, open_input, refuse_output_in_use, threads, warn_duplicates,
};
use crate::command::{Context, Subcommand};
use crate::diag::Diag;
use crate::error::CliError;
use crate::io::Input;
use crate::output::{Content, Output};

/// A passphrase-encrypted file meets identities (as age says it).
const IDENTITIES_FOR_PASSPHRASE: &str = "file is passphrase-encrypted but identities were specified with -i/--identity or -j: drop them to be asked for the passphrase, or pass --passphrase-file";

/// Decrypt an age file
#[derive(Debug, clap::Args)]
pub struct Args {
    /// An identity file (AGE-SECRET-KEY-1…, AGE-SECRET-KEY-PQ-1…, one a
    /// line, # comments), or one encrypted with a passphrase (an age file,
    /// asked for on the terminal). May be repeated. A passphrase-encrypted
    /// input file asks for its passphrase instead.
    #[arg(short, long = "identity", value_name = "PATH")]
    pub identities: Vec<PathBuf>,

    /// Refuse scrypt work factors above 2^LOG2N [default: 22, or
    /// AGE_PASSPHRASE_MAX_WORK_FACTOR with -j batchpass].
    #[arg(long, value_name = "LOG2N", value_parser = clap::value_parser!(u8).range(1..=63))]
    pub max_work_factor: Option<u8>,

    /// Decrypt only the plaintext from byte N on, reading only the chunks
    /// that hold it (and the final one, authenticated first). Needs a
    /// binary age file, not standard input or armor.
    #[arg(long, value_name = "N")]
    pub offset: Option<u64>,

    /// Decrypt only M bytes of plaintext (from --offset, or the start); a
    /// range past the end is an error.
    #[arg(long, value_name = "M")]
    pub length: Option<u64>,

    /// Accepted as age takes it (`-d`, `--decrypt`); the subcommand says it
    /// already.
    #[arg(short = 'd', long = "decrypt", hide = true)]
    pub decrypt: bool,

    /// Output, threads, input.
    #[command(flatten)]
    pub common: Common,
}

impl Subcommand for Args {
    fn run(self, matches: &clap::ArgMatches, context: &Context) -> Result<(), CliError> {
        decrypt(&self, &key_order(matches), context.diag)
    }
}

/// Which of `decrypt`'s key flags came at a place of the command line: the
/// `n`th `-i` or the `n`th `-j`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum KeyFlag {
    /// The `n`th `-i PATH`.
    Identity(usize),
    /// The `n`th `-j PLUGIN`.
    Plugin(usize),
}

/// The order of `-i` and `-j` in `decrypt`'s matches.
fn key_order(matches: &clap::ArgMatches) -> Vec<KeyFlag> {
    let at = |id: &str| {
        matches
            .indices_of(id)
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
    };
    let mut order: Vec<(usize, KeyFlag)> = at("identities")
        .into_iter()
        .enumerate()
        .map(|(n, index)| (index, KeyFlag::Identity(n)))
        .chain(
            at("plugins")
                .into_iter()
                .enumerate()
                .map(|(n, index)| (index, KeyFlag::Plugin(n))),
        )
        .collect();
    order.sort_by_key(|&(index, _)| index);
    order.into_iter().map(|(_, flag)| flag).collect()
}

/// Runs `simdcrypt decrypt`.
///
/// # Errors
///
/// A malformed or tampered file, no matching identity, a wrong passphrase,
/// I/O failures; the message says how much went to standard output first.
fn decrypt(args: &Args, key_order: &[KeyFlag], diag: Diag) -> Result<(), CliError> {
    let common = &args.common;
    check_plugin(common, diag)?;
    refuse_output_in_use(common, &args.identities)?;
    warn_duplicates(
        diag,
        "identity file",
        args.identities.iter().map(|p| p.to_string_lossy()),
    );
    // As age: the -i and -j keys in the order given, then its native keys
    // moved first; SSH keys, encrypted identity files and plugins keep
    // their order, so that one that asks the user is reached only when the
    // quiet ones did not match.
    let mut files = Vec::new();
    for path in &args.identities {
        files.push(Some(read_identities(path, diag)?));
    }
    let mut plugins = (common.plugins.iter())
        .map(|name| plugin_identity(name, diag))
        .collect::<Result<Vec<_>, _>>()?;
    let mut keys = Vec::new();
    for flag in key_order {
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
    let progress = Progress::new(input.len(), common.progress, "decrypted", diag);
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
fn decrypt_range(args: &Args, input: Input, identities: Identities) -> Result<(), CliError> {
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
    args: &Args,
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

/// What `decrypt` tries: the `-i` keys, native ones first, then the `-j`
/// plugins' identities.
struct Identities {
    keys: Vec<Box<dyn Identity>>,
    /// Whether a plugin is among them: one may open a passphrase-encrypted
    /// file (`age-plugin-batchpass`), as age lets it.
    plugins: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `-i` and `-j` keep the order they were given in, as age tries them.
    #[test]
    fn key_flags_keep_their_order() {
        let matches = crate::command().get_matches_from([
            "simdcrypt",
            "decrypt",
            "-j",
            "a",
            "-i",
            "x",
            "-j",
            "b",
            "-i",
            "y",
            "-i",
            "z",
        ]);
        let (_, sub) = matches.subcommand().unwrap();
        assert_eq!(
            key_order(sub),
            [
                KeyFlag::Plugin(0),
                KeyFlag::Identity(0),
                KeyFlag::Plugin(1),
                KeyFlag::Identity(1),
                KeyFlag::Identity(2),
            ]
        );
    }
}
