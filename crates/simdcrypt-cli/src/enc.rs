//! `simdcrypt enc`: a block-cipher mode over a file or stdin, byte for byte
//! what `openssl enc -K … -iv …` writes (PKCS#7 padding for ECB and CBC
//! unless `--no-pad`), streaming in bounded memory.

use simdcrypt::block::Padding;
use simdcrypt::dynamic::{Direction, ModeConstructor, ModeOptions};
use simdcrypt::ladder::{self, Construct, Kind, Primitive};

use crate::cli::EncArgs;
use crate::error::CliError;
use crate::io::Input;
use crate::key::parse_hex;
use crate::output::{Content, Output};

/// Bytes read and processed at a time.
const BUFFER: usize = 1 << 20;

/// Runs the command.
///
/// # Errors
///
/// Bad arguments, files that cannot be read or written, a rung the CPU
/// lacks; decrypting, bad padding (then no output file is left).
pub fn run(args: &EncArgs) -> Result<(), CliError> {
    let (primitive, new) = mode(&args.cipher)?;
    let key = parse_hex(
        "--key",
        &args.key,
        primitive.key_lens,
        &format!("{} key", primitive.name),
    )?;
    let iv = match (primitive.nonce_len, &args.iv) {
        (Some(len), Some(iv)) => parse_hex("--iv", iv, &[len], &format!("{} IV", primitive.name))?,
        (Some(len), None) => {
            return Err(CliError::bad_arg(
                "--iv",
                format!(
                    "missing: {} needs a {}-hex-digit IV",
                    primitive.name,
                    2 * len
                ),
            ));
        }
        (None, Some(_)) => {
            crate::diag::warning!("{} uses no IV: --iv is ignored", primitive.name);
            Default::default()
        }
        (None, None) => Default::default(),
    };
    let options = ModeOptions {
        direction: if args.decrypt {
            Direction::Decrypt
        } else {
            Direction::Encrypt
        },
        padding: if args.no_pad {
            Padding::None
        } else {
            Padding::Pkcs7
        },
        imp: args.imp.as_deref(),
    };
    let mut mode = new(&key, &iv, &options)?;
    drop(key);

    let mut input = Input::open(&args.input)?;
    let mut output = Output::open(&args.output, args.force, Content::Binary)?;
    crate::diag::warning!(
        "{} output is not authenticated; anyone can change it undetected (use an AEAD or `encrypt`)",
        primitive.name
    );
    let mut buf = vec![0u8; BUFFER];
    let mut out = vec![0u8; BUFFER + primitive.block_len];
    loop {
        let n = input.read_full(&mut buf)?;
        if n == 0 {
            break;
        }
        let written = mode.update(&buf[..n], &mut out)?;
        output.write_all(&out[..written])?;
        if n < buf.len() {
            break;
        }
    }
    // On a failure here the output file is dropped unfinished: nothing is
    // left of it.
    let written = mode.finalize(&mut out)?;
    output.write_all(&out[..written])?;
    buf.fill(0);
    out.fill(0);
    output.finish()
}

/// The block-cipher mode of the table named `name`, and its constructor.
fn mode(name: &str) -> Result<(&'static Primitive, ModeConstructor), CliError> {
    ladder::primitives()
        .find_map(|(_, p)| match p.construct {
            Construct::Mode(new) if p.name == name => Some((p, new)),
            _ => None,
        })
        .ok_or_else(|| CliError::UnknownCipher {
            flag: "--cipher",
            name: name.to_owned(),
            expected: ladder::names_of(Kind::Mode),
        })
}
