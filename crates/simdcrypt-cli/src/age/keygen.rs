//! `simdcrypt keygen`: a new age identity, as `age-keygen` writes it, or
//! (`-y`) the recipients of an identity file.

use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use simdcrypt_age::keys::{self, AnyIdentity};
use simdcrypt_age::{pq, x25519};

use super::key_file::{key_file_error, read_key_file};
use crate::command::{Context, Subcommand};
use crate::error::CliError;
use crate::output::{Content, Output};

/// Make an age identity (X25519, or ML-KEM-768 + X25519 with --pq)
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Make a post-quantum hybrid identity (ML-KEM-768 + X25519).
    #[arg(long)]
    pub pq: bool,

    /// Print the recipients of the identities in INPUT instead.
    #[arg(short = 'y')]
    pub convert: bool,

    /// Write to OUTPUT (default: standard output): a new identity file gets
    /// mode 0600, recipients follow the umask.
    #[arg(short, long, value_name = "OUTPUT")]
    pub output: Option<PathBuf>,

    /// Replace an existing OUTPUT.
    #[arg(long, requires = "output")]
    pub force: bool,

    /// With -y: the identity file (default: standard input).
    #[arg(value_name = "INPUT", requires = "convert")]
    pub input: Option<PathBuf>,
}

impl Subcommand for Args {
    fn run(self, _: &clap::ArgMatches, _: &Context) -> Result<(), CliError> {
        run(&self)
    }
}

/// Runs the command.
///
/// # Errors
///
/// An output file that exists, an identity file that does not parse,
/// I/O failures.
fn run(args: &Args) -> Result<(), CliError> {
    if args.convert {
        return convert(args);
    }
    let identity = if args.pq {
        AnyIdentity::Hybrid(pq::Identity::generate().map_err(CliError::Age)?)
    } else {
        AnyIdentity::X25519(x25519::Identity::generate().map_err(CliError::Age)?)
    };
    let recipient = identity.to_public();
    let text = format!(
        "# created: {}\n# public key: {recipient}\n{}\n",
        rfc3339_now(),
        identity.to_bech32().as_str()
    );
    let text = zeroize::Zeroizing::new(text);
    let path = args.output.as_deref().unwrap_or(Path::new("-"));
    let mut output = Output::open(path, args.force, Content::Secret)?;
    let to_terminal = matches!(&output, Output::Stdout(s) if s.is_terminal());
    output.write_all(text.as_bytes())?;
    output.finish()?;
    // As age-keygen: the recipient on stderr when the identity went
    // somewhere the user does not see (and only once it is there).
    if !to_terminal {
        crate::diag::raw(format_args!("Public key: {recipient}"));
    }
    Ok(())
}

/// `-y`: the recipient of every identity in the input, one a line.
fn convert(args: &Args) -> Result<(), CliError> {
    let path = args.input.as_deref().unwrap_or(Path::new("-"));
    let text = read_key_file(path)?;
    let identities = keys::parse_identities(&text).map_err(|e| key_file_error(path, e))?;
    if identities
        .iter()
        .any(|i| matches!(i, AnyIdentity::Plugin(_)))
    {
        return Err(CliError::bad_arg(
            "-y",
            "a plugin identity (AGE-PLUGIN-…) has no recipient here: its plugin gives it",
        ));
    }
    let lines: String = identities
        .iter()
        .map(|i| format!("{}\n", i.to_public()))
        .collect();
    let out = args.output.as_deref().unwrap_or(Path::new("-"));
    let mut output = Output::open(out, args.force, Content::Text)?;
    output.write_all(lines.as_bytes())?;
    output.finish()
}

/// The current time as RFC 3339 in UTC, as age-keygen's `# created:` line.
fn rfc3339_now() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (days, rem) = (secs / 86_400, secs % 86_400);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    )
}
