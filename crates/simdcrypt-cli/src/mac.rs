//! `simdcrypt mac`: the MAC of each file under one key, one line each as
//! `hash` prints digests (`HEX  NAME`), or with `--verify` each file
//! checked against a given tag in constant time (`NAME: OK` or
//! `NAME: FAILED`, exit 1 if any failed).

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use simdcrypt::dynamic::{MacOptions, Params};
use simdcrypt::ladder::{self, Construct, Kind, Primitive};
use subtle::ConstantTimeEq;
use zeroize::Zeroizing;

use crate::command::{Context, Subcommand};
use crate::diag::Diag;
use crate::error::CliError;
use crate::hash::format::{LineStyle, push_line, quotef, strerror};
use crate::io::Input;
use crate::key::{parse_hex, parse_table_key};

/// Print or check the MAC of files, one line each, as `hash` prints digests
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The MAC: one of the library's table (listed here at run time)
    #[arg(long, value_name = "NAME")]
    pub algo: String,

    /// The key in hex.
    #[arg(
        long,
        value_name = "HEX",
        allow_hyphen_values = true,
        conflicts_with = "key_file",
        required_unless_present = "key_file"
    )]
    pub key: Option<String>,

    /// A file holding the key's raw bytes.
    #[arg(long, value_name = "FILE")]
    pub key_file: Option<PathBuf>,

    /// Compare each file's tag with this one (hex) in constant time;
    /// exit 1 on a mismatch.
    #[arg(long, value_name = "HEX")]
    pub verify: Option<String>,

    /// The files, `-` for stdin (the default).
    #[arg(value_name = "FILE", default_value = "-")]
    pub files: Vec<PathBuf>,
}

impl Subcommand for Args {
    fn customize(command: clap::Command) -> clap::Command {
        let command = command.mut_arg("algo", |a| {
            a.help(format!("The MAC: {}", ladder::names_of(Kind::Mac)))
        });
        crate::params::flags(command, Kind::Mac)
    }

    fn run(self, matches: &clap::ArgMatches, context: &Context) -> Result<(), CliError> {
        let params = crate::params::given(matches, Kind::Mac);
        run(&self, &params, context.diag)
    }
}

/// The longest key file read for a MAC that takes keys of any length
/// (HMAC hashes a key longer than its block, RFC 2104 §2): far above any
/// real key, and a bound on what `--key-file /dev/zero` makes the tool
/// read.
const MAX_KEY_FILE: usize = 1 << 16;

/// Runs the command.
///
/// # Errors
///
/// Bad arguments or key; [`CliError::Reported`] when a file could not be
/// read or (with `--verify`) a tag did not match, after saying which.
fn run(args: &Args, params: &[(String, String)], diag: Diag) -> Result<(), CliError> {
    let primitive = mac(&args.algo)?;
    let key = match (&args.key, &args.key_file) {
        (Some(hex), _) => parse_table_key(hex, primitive)?,
        (None, Some(path)) => read_key_file(path, primitive)?,
        (None, None) => {
            return Err(CliError::bad_arg(
                "--key",
                "missing: give --key or --key-file",
            ));
        }
    };
    let tag_len = primitive.output_len.unwrap_or(0);
    let expected = args
        .verify
        .as_deref()
        .map(|hex| {
            parse_hex(
                "--verify",
                hex,
                &[tag_len],
                &format!("{} tag", primitive.name),
            )
        })
        .transpose()?;
    // Every file's MAC is computed with a fresh instance: the key and
    // parameters are checked (and a rung chosen) once, up front.
    let params = crate::params::as_params(params);
    let options = MacOptions {
        rung: None,
        params: Params(&params),
    };
    primitive.new_mac(&key, &options)?;
    let mut stdout = crate::io::stdout();
    let mut failed = false;
    let mut buf = vec![0u8; 1 << 16];
    for path in &args.files {
        let name = path.as_os_str().as_encoded_bytes();
        let tag = tag_of(primitive, &key, &options, path, tag_len, &mut buf);
        let mut line = Vec::new();
        match tag {
            Ok(tag) => match &expected {
                None => push_line(
                    &mut line,
                    LineStyle {
                        tag: None,
                        binary: false,
                        zero: false,
                    },
                    name,
                    &tag,
                ),
                Some(want) => {
                    let ok = bool::from(tag.ct_eq(want));
                    failed |= !ok;
                    line.extend_from_slice(name);
                    line.extend_from_slice(if ok { b": OK\n" } else { b": FAILED\n" });
                }
            },
            Err(e) => {
                failed = true;
                diag.line(format_args!("{}: {}", quotef(name), e));
                continue;
            }
        }
        stdout.write_all(&line).map_err(CliError::Stdout)?;
    }
    if failed {
        Err(CliError::Reported)
    } else {
        Ok(())
    }
}

/// The key in the file at `path` (`-`: stdin): one of `primitive`'s key
/// lengths, or at most [`MAX_KEY_FILE`] bytes for a MAC of any key length.
/// No more than one byte past the bound is read.
fn read_key_file(path: &Path, primitive: &Primitive) -> Result<Zeroizing<Vec<u8>>, CliError> {
    let lens = primitive.key_lens;
    let bound = lens.iter().copied().max().unwrap_or(MAX_KEY_FILE);
    let mut bytes = Zeroizing::new(Vec::new());
    Input::open(path)?
        .take(bound as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| CliError::read(Some(path), e))?;
    let held = match bytes.len() {
        n if n > bound => format!("more than {bound}"),
        n if !lens.is_empty() && !lens.contains(&n) => n.to_string(),
        _ => return Ok(bytes),
    };
    let expected = match lens {
        [] => format!("at most {bound} bytes here"),
        [one] => format!("{one} bytes"),
        [rest @ .., last] => {
            let rest: Vec<String> = rest.iter().map(usize::to_string).collect();
            format!("{} or {last} bytes", rest.join(", "))
        }
    };
    Err(CliError::bad_arg(
        "--key-file",
        format!(
            "the file holds {held} bytes: the {} key is {expected}",
            primitive.name
        ),
    ))
}

/// The MAC of the file at `path` (`-`: stdin), or why it could not be read.
fn tag_of(
    primitive: &Primitive,
    key: &[u8],
    options: &MacOptions<'_>,
    path: &std::path::Path,
    tag_len: usize,
    buf: &mut [u8],
) -> Result<Vec<u8>, String> {
    let mut mac = primitive.new_mac(key, options).map_err(|e| e.to_string())?;
    let mut input = Input::open(path).map_err(|e| e.to_string())?;
    loop {
        match input.read(buf) {
            Ok(0) => break,
            Ok(n) => mac.update(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(strerror(&e)),
        }
    }
    let mut tag = vec![0; tag_len];
    mac.finalize_into(&mut tag);
    Ok(tag)
}

/// The MAC of the table named `name`.
fn mac(name: &str) -> Result<&'static Primitive, CliError> {
    ladder::primitives()
        .map(|(_, p)| p)
        .find(|p| p.name == name && matches!(p.construct, Construct::Mac(_)))
        .ok_or_else(|| CliError::UnknownCipher {
            flag: "--algo",
            name: name.to_owned(),
            expected: ladder::names_of(Kind::Mac),
        })
}
