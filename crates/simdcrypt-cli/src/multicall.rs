//! Called by the name `age` or `age-keygen` (a link to the binary), the tool
//! takes age 1.3's command line and behaves as age does: its arguments are
//! read the way Go's `flag` package reads them (one or two dashes, `-o x`
//! or `-o=x`, flags and operands in any order until `--`) and rewritten into
//! the `encrypt`, `decrypt` or `keygen` subcommand, which share age's flags,
//! with age's differences applied (as `age`, `-o` replaces an existing file,
//! as age does; as `simdcrypt`, that takes `--force`). Messages then start
//! with the name it was called by.

use std::ffi::{OsStr, OsString};
use std::path::Path;

/// Which command line the tool takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Personality {
    /// simdcrypt's own, with subcommands.
    Simdcrypt,
    /// age's.
    Age,
    /// age-keygen's.
    AgeKeygen,
}

impl Personality {
    /// The personality of the process called with `args` (by the file
    /// name of `args[0]`, without a `.exe`).
    pub fn of(args: &[OsString]) -> Personality {
        let name = args
            .first()
            .and_then(|a| Path::new(a).file_stem())
            .and_then(OsStr::to_str);
        match name {
            Some("age") => Personality::Age,
            Some("age-keygen") => Personality::AgeKeygen,
            _ => Personality::Simdcrypt,
        }
    }

    /// The name messages start with: `simdcrypt`, `age` or `age-keygen`.
    pub fn program(self) -> &'static str {
        match self {
            Personality::Simdcrypt => "simdcrypt",
            Personality::Age => "age",
            Personality::AgeKeygen => "age-keygen",
        }
    }
}

/// The command line as simdcrypt's parser takes it: the process's own, or,
/// for `personality`, age's and age-keygen's rewritten; an error is age's
/// own message for a command line it refuses (to be ended with exit status
/// 1, or 2 for a flag Go's parser refuses, as age's exit statuses are).
pub fn arguments(personality: Personality, args: Vec<OsString>) -> Result<Vec<OsString>, Exit> {
    match personality {
        Personality::Simdcrypt => Ok(args),
        Personality::Age => age(&args[1..]).map_err(|e| Exit::new(e, AGE_USAGE)),
        Personality::AgeKeygen => {
            age_keygen(&args[1..]).map_err(|e| Exit::new(e, AGE_KEYGEN_USAGE))
        }
    }
}

/// The exit status of a refused command line: 2 for what Go's `flag`
/// package refuses (it exits with 2), 1 for age's own checks.
/// How a command line that runs nothing ends, as Go's `flag` package and
/// age end it: its status, a message, and whether the usage follows (on
/// standard error).
#[derive(Debug)]
pub struct Exit {
    /// The exit status.
    pub status: u8,
    /// The error, if any (`-h` has none).
    pub message: Option<String>,
    /// The usage text to print after it, if any.
    pub usage: Option<&'static str>,
}

/// Why an age command line runs nothing.
#[derive(Debug, PartialEq, Eq)]
enum Stop {
    /// `-h`/`-help`: the usage, exit status 0.
    Help,
    /// No arguments at all: the usage, exit status 1.
    Nothing,
    /// An error: its message (with the usage after a flag error, exit
    /// status 2, as Go's `flag` package).
    Error(String),
}

impl From<String> for Stop {
    fn from(message: String) -> Self {
        Stop::Error(message)
    }
}

impl Exit {
    fn new(stop: Stop, usage: &'static str) -> Self {
        match stop {
            Stop::Help => Exit {
                status: 0,
                message: None,
                usage: Some(usage),
            },
            Stop::Nothing => Exit {
                status: 1,
                message: None,
                usage: Some(usage),
            },
            Stop::Error(message) => {
                let status = exit_status(&message);
                Exit {
                    status,
                    usage: (status == 2).then_some(usage),
                    message: Some(message),
                }
            }
        }
    }
}

fn exit_status(message: &str) -> u8 {
    if message.starts_with("flag ") || message.starts_with("invalid boolean") {
        2
    } else {
        1
    }
}

/// A flag as Go's `flag` package reads it: one or two dashes, a name, and
/// maybe `=value`.
struct Flag<'a> {
    name: &'a str,
    value: Option<OsString>,
}

/// Splits `arg` into a flag, or `None` for an operand (`-` alone included).
fn flag(arg: &OsStr) -> Option<Flag<'_>> {
    let text = arg.to_str()?;
    let body = text.strip_prefix("--").or_else(|| text.strip_prefix('-'))?;
    if body.is_empty() || body.starts_with('-') {
        return None;
    }
    Some(match body.split_once('=') {
        Some((name, value)) => Flag {
            name,
            value: Some(value.into()),
        },
        None => Flag {
            name: body,
            value: None,
        },
    })
}

/// Flags as read: each by its first name, with its value (none for a
/// boolean).
type Flags = Vec<(&'static str, Option<OsString>)>;

/// Reads `args` as Go's `flag` does: `boolean` flags take no value (or
/// `=true`/`=false`), the others the next argument or `=value`; operands
/// anywhere (age reorders them), `--` ends the flags. Returns the flags in
/// order, by their first name in `names`, and the operands.
fn parse<'a>(
    args: &'a [OsString],
    names: &[(&'static str, &'static [&'static str], bool)],
) -> Result<(Flags, Vec<&'a OsStr>), String> {
    let mut flags = Vec::new();
    let mut operands = Vec::new();
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        if arg == "--" {
            operands.extend(rest.by_ref().map(OsString::as_os_str));
            break;
        }
        let Some(Flag { name, value }) = flag(arg) else {
            operands.push(arg.as_os_str());
            continue;
        };
        let Some(&(canonical, _, boolean)) =
            names.iter().find(|(_, aliases, _)| aliases.contains(&name))
        else {
            return Err(format!("flag provided but not defined: -{name}"));
        };
        if boolean {
            match value.as_ref().and_then(|v| v.to_str()) {
                None | Some("true") => flags.push((canonical, None)),
                Some("false") => {}
                Some(other) => {
                    return Err(format!("invalid boolean value \"{other}\" for -{name}"));
                }
            }
        } else {
            let value = match value {
                Some(value) => value,
                None => rest
                    .next()
                    .cloned()
                    .ok_or_else(|| format!("flag needs an argument: -{name}"))?,
            };
            flags.push((canonical, Some(value)));
        }
    }
    Ok((flags, operands))
}

/// age's flags: name, the spellings it takes, whether boolean.
const AGE_FLAGS: &[(&str, &[&str], bool)] = &[
    ("encrypt", &["e", "encrypt"], true),
    ("decrypt", &["d", "decrypt"], true),
    ("passphrase", &["p", "passphrase"], true),
    ("armor", &["a", "armor"], true),
    ("help", &["h", "help"], true),
    ("version", &["version"], true),
    ("output", &["o", "output"], false),
    ("recipient", &["r", "recipient"], false),
    ("recipients-file", &["R", "recipients-file"], false),
    ("identity", &["i", "identity"], false),
    ("plugin", &["j"], false),
];

/// age's command line as simdcrypt's `encrypt` or `decrypt`.
fn age(args: &[OsString]) -> Result<Vec<OsString>, Stop> {
    if args.is_empty() {
        return Err(Stop::Nothing);
    }
    let (flags, operands) = parse(args, AGE_FLAGS)?;
    let has = |name: &str| flags.iter().any(|(n, _)| *n == name);
    if has("help") {
        return Err(Stop::Help);
    }
    if has("version") {
        return Ok(vec!["age".into(), "--version".into()]);
    }
    if operands.len() > 1 {
        return Err(Stop::Error("too many INPUT arguments".to_owned()));
    }
    let decrypt = has("decrypt");
    if decrypt && has("encrypt") {
        return Err(Stop::Error(
            "-e/--encrypt can't be used with -d/--decrypt".to_owned(),
        ));
    }
    if decrypt {
        for (flag, what) in [
            (
                "passphrase",
                "-p/--passphrase can't be used with -d/--decrypt (passphrase-encrypted files are detected automatically)",
            ),
            (
                "armor",
                "-a/--armor can't be used with -d/--decrypt (armored files are detected automatically)",
            ),
            (
                "recipient",
                "-r/--recipient can't be used with -d/--decrypt (did you mean to use -i/--identity?)",
            ),
            (
                "recipients-file",
                "-R/--recipients-file can't be used with -d/--decrypt (did you mean to use -i/--identity?)",
            ),
        ] {
            if has(flag) {
                return Err(Stop::Error(what.to_owned()));
            }
        }
    }
    let mut out: Vec<OsString> = vec![
        "age".into(),
        if decrypt { "decrypt" } else { "encrypt" }.into(),
    ];
    for (name, value) in flags {
        let spelled = match name {
            "encrypt" | "decrypt" => continue,
            "passphrase" => "--passphrase",
            "armor" => "--armor",
            "output" => {
                // As age: an existing output file is replaced.
                out.push("--force".into());
                "--output"
            }
            "recipient" => "--recipient",
            "recipients-file" => "--recipients-file",
            "identity" => "--identity",
            _ => "-j",
        };
        out.push(spelled.into());
        out.extend(value);
    }
    if let Some(input) = operands.first() {
        out.push("--".into());
        out.push(input.into());
    }
    Ok(out)
}

/// age's usage, as `age -h` prints it (on standard error).
const AGE_USAGE: &str = "Usage:
    age [--encrypt] (-r RECIPIENT | -R PATH)... [--armor] [-o OUTPUT] [INPUT]
    age [--encrypt] --passphrase [--armor] [-o OUTPUT] [INPUT]
    age --decrypt [-i PATH | -j PLUGIN]... [-o OUTPUT] [INPUT]

Options:
    -e, --encrypt               Encrypt the input to the output. Default if omitted.
    -d, --decrypt               Decrypt the input to the output.
    -o, --output OUTPUT         Write the result to the file at path OUTPUT.
    -a, --armor                 Encrypt to a PEM encoded format.
    -p, --passphrase            Encrypt with a passphrase.
    -r, --recipient RECIPIENT   Encrypt to the specified RECIPIENT. Can be repeated.
    -R, --recipients-file PATH  Encrypt to recipients listed at PATH. Can be repeated.
    -i, --identity PATH         Use the identity file at PATH. Can be repeated.
    -j PLUGIN                   Use the plugin PLUGIN's identity. Can be repeated.

INPUT defaults to standard input, and OUTPUT defaults to standard output.
If OUTPUT exists, it will be overwritten.

RECIPIENT can be an age public key generated by age-keygen (\"age1...\"),
a post-quantum one (\"age1pq1...\"), a plugin's or a tagged one, or an SSH
public key (\"ssh-ed25519 AAAA...\", \"ssh-rsa AAAA...\").

Recipient files contain one or more recipients, one per line. Empty lines
and lines starting with \"#\" are ignored, as are SSH keys of other types.

Identity files contain one or more secret keys (\"AGE-SECRET-KEY-1...\"),
one per line, or an SSH key. Empty lines and lines starting with \"#\" are
ignored. Passphrase encrypted age files can be used as identity files.
Multiple key files can be provided, and any unused ones will be ignored.

This is simdcrypt called as age: `simdcrypt encrypt --help` and
`simdcrypt decrypt --help` tell what else it does.";

/// age-keygen's usage (on standard error).
const AGE_KEYGEN_USAGE: &str = "Usage:
    age-keygen [-pq] [-o OUTPUT]
    age-keygen -y [-o OUTPUT] [INPUT]

Options:
    -pq                       Generate a post-quantum hybrid ML-KEM-768 + X25519 key pair.
    -o, --output OUTPUT       Write the result to the file at path OUTPUT.
    -y                        Convert an identity file to a recipients file.

age-keygen generates a new native X25519 or, with -pq, post-quantum hybrid
key pair, and outputs it to standard output or to the OUTPUT file.

If an OUTPUT file is specified, the public key is printed to standard error.
If OUTPUT already exists, it is not overwritten.

In -y mode, age-keygen reads an identity file from INPUT or from standard
input and writes the corresponding recipient(s) to OUTPUT or to standard
output, one per line, with no comments.";

/// age-keygen's flags.
const AGE_KEYGEN_FLAGS: &[(&str, &[&str], bool)] = &[
    ("convert", &["y"], true),
    ("pq", &["pq"], true),
    ("help", &["h", "help"], true),
    ("version", &["version"], true),
    ("output", &["o", "output"], false),
];

/// age-keygen's command line as simdcrypt's `keygen`.
fn age_keygen(args: &[OsString]) -> Result<Vec<OsString>, Stop> {
    let (flags, operands) = parse(args, AGE_KEYGEN_FLAGS)?;
    let has = |name: &str| flags.iter().any(|(n, _)| *n == name);
    if has("help") {
        return Err(Stop::Help);
    }
    if has("version") {
        return Ok(vec!["age-keygen".into(), "--version".into()]);
    }
    if operands.len() > 1 {
        return Err(Stop::Error("too many arguments".to_owned()));
    }
    if !operands.is_empty() && !has("convert") {
        return Err(Stop::Error(
            "too many arguments (did you mean to use -y?)".to_owned(),
        ));
    }
    let mut out: Vec<OsString> = vec!["age-keygen".into(), "keygen".into()];
    for (name, value) in flags {
        out.push(
            match name {
                "convert" => "-y",
                "pq" => "--pq",
                _ => "--output",
            }
            .into(),
        );
        out.extend(value);
    }
    if let Some(input) = operands.first() {
        out.push("--".into());
        out.push(input.into());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(args: &[&str]) -> Vec<OsString> {
        args.iter().map(OsString::from).collect()
    }

    #[test]
    fn age_command_lines_become_subcommands() {
        let cases: &[(&[&str], &[&str])] = &[
            (
                &["-r", "age1x", "-o", "out", "in"],
                &[
                    "age",
                    "encrypt",
                    "--recipient",
                    "age1x",
                    "--force",
                    "--output",
                    "out",
                    "--",
                    "in",
                ],
            ),
            (
                &["in", "--armor", "-R=keys", "-e"],
                &[
                    "age",
                    "encrypt",
                    "--armor",
                    "--recipients-file",
                    "keys",
                    "--",
                    "in",
                ],
            ),
            (
                &[
                    "--decrypt",
                    "-i",
                    "k1",
                    "-identity",
                    "k2",
                    "-j",
                    "batchpass",
                ],
                &[
                    "age",
                    "decrypt",
                    "--identity",
                    "k1",
                    "--identity",
                    "k2",
                    "-j",
                    "batchpass",
                ],
            ),
            (&["-d", "--", "-in"], &["age", "decrypt", "--", "-in"]),
            (&["-p", "-"], &["age", "encrypt", "--passphrase", "--", "-"]),
        ];
        for (given, want) in cases {
            assert_eq!(age(&strings(given)).unwrap(), strings(want), "{given:?}");
        }
    }

    #[test]
    fn age_refuses_what_age_refuses() {
        for (given, says) in [
            (&["-d", "-p"][..], "can't be used with -d"),
            (&["-e", "-d"], "can't be used with -d"),
            (&["-d", "-r", "x"], "did you mean to use -i"),
            (&["a", "b"], "too many INPUT"),
            (&["-x"], "not defined: -x"),
            (&["-o"], "needs an argument: -o"),
        ] {
            let Err(Stop::Error(error)) = age(&strings(given)) else {
                panic!("{given:?} accepted");
            };
            assert!(error.contains(says), "{given:?}: {error}");
        }
    }

    /// As Go's `flag` package and age: `-h` is the usage on standard error
    /// and status 0; no arguments, the usage and status 1; an unknown flag,
    /// its error, the usage and status 2; other errors, status 1 alone.
    #[test]
    fn usage_goes_where_age_puts_it() {
        assert_eq!(age(&strings(&["-p", "-help"])), Err(Stop::Help));
        assert_eq!(age(&[]), Err(Stop::Nothing));
        let help = Exit::new(Stop::Help, AGE_USAGE);
        assert_eq!(
            (help.status, help.message, help.usage),
            (0, None, Some(AGE_USAGE))
        );
        let none = Exit::new(Stop::Nothing, AGE_USAGE);
        assert_eq!((none.status, none.usage.is_some()), (1, true));
        let flag = Exit::new(age(&strings(&["-p", "-nope"])).unwrap_err(), AGE_USAGE);
        assert_eq!((flag.status, flag.usage.is_some()), (2, true));
        let other = Exit::new(age(&strings(&["a", "b"])).unwrap_err(), AGE_USAGE);
        assert_eq!((other.status, other.usage.is_some()), (1, false));
        assert!(AGE_USAGE.starts_with("Usage:") && AGE_KEYGEN_USAGE.starts_with("Usage:"));
    }

    #[test]
    fn age_keygen_command_lines_become_keygen() {
        assert_eq!(
            age_keygen(&strings(&["-pq", "-o", "k"])).unwrap(),
            strings(&["age-keygen", "keygen", "--pq", "--output", "k"])
        );
        assert_eq!(
            age_keygen(&strings(&["-y", "k"])).unwrap(),
            strings(&["age-keygen", "keygen", "-y", "--", "k"])
        );
        assert!(age_keygen(&strings(&["k"])).is_err());
    }

    #[test]
    fn the_personality_comes_from_the_name() {
        let of = |name: &str| Personality::of(&[OsString::from(name)]);
        assert_eq!(of("/usr/bin/age"), Personality::Age);
        assert_eq!(of("age-keygen"), Personality::AgeKeygen);
        assert_eq!(of("age.exe"), Personality::Age);
        assert_eq!(of("simdcrypt"), Personality::Simdcrypt);
        assert_eq!(of("rage"), Personality::Simdcrypt);
        assert_eq!(Personality::of(&[]), Personality::Simdcrypt);
        assert_eq!(Personality::Age.program(), "age");
    }
}
