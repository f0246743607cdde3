//! `simdcrypt encrypt`: an age file to recipients (`-r`, `-R`, `-i`,
//! `-j`) or a passphrase, as age encrypts.

use std::path::PathBuf;

use simdcrypt_age::armor::ArmoredWriter;
use simdcrypt_age::keys::{self, AnyRecipient};
use simdcrypt_age::{Encryptor, Recipient, plugin, scrypt};

use super::identities::read_identities;
use super::key_file::{age_arg, key_file_error, read_key_file};
use super::passphrase::{batchpass, env_work_factor, passphrase_from_file, prompt_new_passphrase};
use super::plugins::{batchpass_given, check_plugin, plugin_identities, with_ui};
use super::terminal::open_output;
use super::{Common, Progress, open_input, refuse_output_in_use, threads, warn_duplicates};
use crate::command::{Context, Subcommand};
use crate::diag::Diag;
use crate::error::CliError;
use crate::output::Content;

/// Encrypt a file in the age format (age-encryption.org/v1)
#[derive(Debug, clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// Encrypt to RECIPIENT: age1… (X25519) or age1pq1… (post-quantum
    /// hybrid). May be repeated.
    #[arg(short, long = "recipient", value_name = "RECIPIENT")]
    pub recipients: Vec<String>,

    /// Encrypt to the recipients listed in PATH, one a line (# comments).
    /// May be repeated.
    #[arg(short = 'R', long = "recipients-file", value_name = "PATH")]
    pub recipients_files: Vec<PathBuf>,

    /// Encrypt to the recipients of the identities in PATH. May be repeated.
    #[arg(short, long = "identity", value_name = "PATH")]
    pub identities: Vec<PathBuf>,

    /// Encrypt with a passphrase, read from the terminal twice.
    #[arg(short, long)]
    pub passphrase: bool,

    /// scrypt work factor of a passphrase, log2 N [default: 18, or
    /// AGE_PASSPHRASE_WORK_FACTOR with -j batchpass].
    #[arg(long, value_name = "LOG2N", value_parser = clap::value_parser!(u8).range(1..=30))]
    pub work_factor: Option<u8>,

    /// Write PEM-armored text (-----BEGIN AGE ENCRYPTED FILE-----).
    #[arg(short, long)]
    pub armor: bool,

    /// Accepted as age takes it (`-e`, `--encrypt`); the subcommand says it
    /// already.
    #[arg(short = 'e', long = "encrypt", hide = true)]
    pub encrypt: bool,

    /// Output, threads, input.
    #[command(flatten)]
    pub common: Common,
}

impl Subcommand for Args {
    fn run(self, _: &clap::ArgMatches, context: &Context) -> Result<(), CliError> {
        encrypt(&self, context.diag)
    }
}

/// Runs `simdcrypt encrypt`.
///
/// # Errors
///
/// Bad recipients or key files, no recipient, a passphrase that cannot be
/// read, I/O failures.
fn encrypt(args: &Args, diag: Diag) -> Result<(), CliError> {
    let common = &args.common;
    check_plugin(common, diag)?;
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
    warn_duplicates(
        diag,
        "recipient",
        args.recipients.iter().map(String::as_str),
    );
    warn_duplicates(
        diag,
        "recipients file",
        args.recipients_files.iter().map(|p| p.to_string_lossy()),
    );
    warn_duplicates(
        diag,
        "identity file",
        args.identities.iter().map(|p| p.to_string_lossy()),
    );
    for r in &args.recipients {
        recipients.push(Box::new(with_ui(
            r.parse::<AnyRecipient>().map_err(|e| age_arg("-r", e))?,
            diag,
        )));
    }
    for path in &args.recipients_files {
        let text = read_key_file(path)?;
        let (parsed, skipped) =
            keys::parse_recipients(&text).map_err(|e| key_file_error(path, e))?;
        for s in skipped {
            diag.warning(format_args!(
                "recipients file \"{}\": ignoring {} at line {}",
                path.display(),
                s.reason,
                s.line
            ));
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
                .map(|r| Box::new(with_ui(r, diag)) as Box<dyn Recipient>),
        );
    }
    for path in &args.identities {
        for key in read_identities(path, diag)? {
            recipients.extend(key.recipients()?);
        }
    }
    for identity in plugin_identities(common, diag)? {
        recipients.push(Box::new(plugin::Recipient::from_identity(&identity)));
    }
    let passphrase = match (
        args.passphrase,
        &common.passphrase_file,
        batchpass_given(common),
    ) {
        (false, None, false) => None,
        (true, None, false) => Some(prompt_new_passphrase(diag)?),
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

    let progress = Progress::new(input.len(), common.progress, "encrypted", diag);
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
