//! `simdcrypt aead`: one message sealed or opened with an AEAD of the
//! table, in the library's `encrypt` layout (ciphertext ‖ tag; tag ‖
//! ciphertext for XSalsa20-Poly1305). The message is held in memory, so
//! inputs above 1 GiB are refused (`encrypt` streams files of any size);
//! opening writes nothing unless the tag verifies.

use std::io::Read;

use simdcrypt::dynamic::AeadConstructor;
use simdcrypt::ladder::{self, Construct, Kind, Primitive};

use crate::command::{Context, Subcommand};
use crate::error::CliError;
use crate::io::Input;
use crate::key::{parse_hex, parse_table_key};
use crate::output::{Content, Output};

/// Seal or open one message with an AEAD (held in memory, up to 1 GiB)
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The AEAD: one of the library's table (listed here at run time)
    #[arg(long, value_name = "NAME")]
    pub cipher: String,

    /// The key in hex.
    #[arg(short = 'K', long, value_name = "HEX", allow_hyphen_values = true)]
    pub key: String,

    /// The nonce in hex: twice the AEAD's nonce length in digits. Never
    /// use one twice with the same key.
    #[arg(long, value_name = "HEX", allow_hyphen_values = true)]
    pub nonce: String,

    /// Associated data in hex: authenticated, not encrypted, not written.
    #[arg(long, value_name = "HEX")]
    pub aad: Option<String>,

    /// Open (decrypt and verify) instead of sealing; nothing is written
    /// unless the tag verifies.
    #[arg(short, long)]
    pub decrypt: bool,

    #[command(flatten)]
    pub files: crate::io::Files,
}

impl Subcommand for Args {
    fn customize(command: clap::Command) -> clap::Command {
        command.mut_arg("cipher", |a| {
            a.help(format!("The AEAD: {}", ladder::names_of(Kind::Aead)))
        })
    }

    fn run(self, _: &clap::ArgMatches, _: &Context) -> Result<(), CliError> {
        run(&self)
    }
}

/// The largest message `aead` holds in memory.
const MAX_MESSAGE: u64 = 1 << 30;

/// Runs the command.
///
/// # Errors
///
/// Bad arguments, an input too large, files that cannot be read or
/// written; opening, a tag that does not verify (then nothing is written).
fn run(args: &Args) -> Result<(), CliError> {
    let (primitive, new) = aead(&args.cipher)?;
    let key = parse_table_key(&args.key, primitive)?;
    let nonce_len = primitive.nonce_len.unwrap_or(0);
    let nonce = parse_hex(
        "--nonce",
        &args.nonce,
        &[nonce_len],
        &format!("{} nonce", primitive.name),
    )?;
    let aad = match &args.aad {
        Some(hex) => parse_hex("--aad", hex, &[], "associated data")?.to_vec(),
        None => Vec::new(),
    };
    let aead = new(&key)?;
    drop(key);

    let mut message = Vec::new();
    let mut input = Input::open(&args.files.input)?;
    let path = (args.files.input.as_os_str() != "-").then_some(args.files.input.as_path());
    // One byte past the limit tells a message that is too long.
    (&mut input)
        .take(MAX_MESSAGE + 1)
        .read_to_end(&mut message)
        .map_err(|e| CliError::read(path, e))?;
    if message.len() as u64 > MAX_MESSAGE {
        return Err(CliError::bad_arg(
            "--input",
            format!(
                "the message is over {} bytes: `aead` holds one message in memory; use `simdcrypt encrypt` for large files",
                MAX_MESSAGE
            ),
        ));
    }
    let tag_first = aead.tag_first();
    let tag_len = aead.tag_len();
    let result = if args.decrypt {
        if message.len() < tag_len {
            return Err(simdcrypt::Error::SealedTooShort {
                len: message.len(),
                tag_len,
            }
            .into());
        }
        let at = if tag_first {
            0
        } else {
            message.len() - tag_len
        };
        let tag = message[at..at + tag_len].to_vec();
        let data = if tag_first {
            &mut message[tag_len..]
        } else {
            &mut message[..at]
        };
        aead.decrypt_in_place_detached(&nonce, &aad, data, &tag)?;
        if tag_first {
            tag_len..message.len()
        } else {
            0..at
        }
    } else {
        let mut tag = vec![0u8; tag_len];
        if tag_first {
            message.splice(0..0, std::iter::repeat_n(0, tag_len));
        }
        let data = if tag_first {
            &mut message[tag_len..]
        } else {
            &mut message[..]
        };
        aead.encrypt_in_place_detached(&nonce, &aad, data, &mut tag)?;
        if tag_first {
            message[..tag_len].copy_from_slice(&tag);
        } else {
            message.extend_from_slice(&tag);
        }
        0..message.len()
    };
    let mut output = Output::open(&args.files.output, args.files.force, Content::Binary)?;
    output.write_all(&message[result])?;
    zeroize::Zeroize::zeroize(&mut message);
    output.finish()
}

/// The AEAD of the table named `name`, and its constructor.
fn aead(name: &str) -> Result<(&'static Primitive, AeadConstructor), CliError> {
    ladder::primitives()
        .find_map(|(_, p)| match p.construct {
            Construct::Aead { new, .. } if p.name == name => Some((p, new)),
            _ => None,
        })
        .ok_or_else(|| CliError::UnknownCipher {
            flag: "--cipher",
            name: name.to_owned(),
            expected: ladder::names_of(Kind::Aead),
        })
}
