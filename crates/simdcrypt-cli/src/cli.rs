//! The command line, declared with clap's derive API.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

/// Fast, verified symmetric cryptography
///
/// Every primitive is a ladder of implementations ("rungs"), from the
/// specification to the widest SIMD this CPU runs.
///
/// SIMDCRYPT_MAX_ISA=scalar|sse2|avx2|avx512 caps the instruction sets used.
#[derive(Debug, Parser)]
#[command(name = "simdcrypt", version, verbatim_doc_comment)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// XOR a file or stdin with raw keystream (unauthenticated)
    Stream(StreamArgs),
    /// Encrypt or decrypt with a block-cipher mode, as `openssl enc` (unauthenticated)
    Enc(EncArgs),
    /// Print or check the MAC of files, one line each, as `hash` prints digests
    Mac(MacArgs),
    /// Seal or open one message with an AEAD (held in memory, up to 1 GiB)
    Aead(AeadArgs),
    /// Check every rung on official vectors, the reference and each other
    Verify(VerifyArgs),
    /// Measure every rung: TSC ticks per byte and GB/s
    Bench(BenchArgs),
    /// Show the CPU features, the SIMDCRYPT_MAX_ISA cap and every ladder's rungs
    Info(InfoArgs),
    /// Print or check file digests, as coreutils' sha256sum, md5sum, ...
    Hash(HashArgs),
    /// Encrypt a file in the age format (age-encryption.org/v1)
    Encrypt(EncryptArgs),
    /// Decrypt an age file
    Decrypt(DecryptArgs),
    /// Make an age identity (X25519, or ML-KEM-768 + X25519 with --pq)
    Keygen(KeygenArgs),
    /// Print a shell's completion script on standard output
    ///
    /// Save it where the shell looks for completions: for bash,
    /// ~/.local/share/bash-completion/completions/simdcrypt; for fish,
    /// ~/.config/fish/completions/simdcrypt.fish; for zsh, a file _simdcrypt
    /// in a directory of $fpath.
    Completions(CompletionsArgs),
    /// Write the manual pages: simdcrypt.1 and one per subcommand
    ///
    /// simdcrypt-stream.1, simdcrypt-hash.1, ...: each is written whole or
    /// not at all, and none is written if one exists, unless --force.
    /// `man -l simdcrypt.1` reads a page in place; in a man1 directory of
    /// the manual path (~/.local/share/man/man1) `man simdcrypt` finds it.
    Man(ManArgs),
}

/// `simdcrypt stream`.
#[derive(Debug, Args)]
pub struct StreamArgs {
    /// The cipher: a stream cipher of the library's table (listed here at
    /// run time; `simdcrypt info` shows each with its rungs)
    #[arg(long, value_name = "NAME")]
    pub cipher: String,

    /// The key: 64 hex digits, 32 for 128 bits, or int:NUMBER
    ///
    /// Hex is in byte order as written, as `openssl enc -K`; 32 digits select
    /// the 128-bit form of a cipher that has one (Salsa20's "expand 16-byte
    /// k").
    /// `int:` and an unsigned number (decimal, 0x hex, 0o octal, 0b binary)
    /// of at most 256 bits is stored little-endian: key byte 0 is the least
    /// significant byte of the number.
    #[arg(
        long,
        value_name = "KEY",
        allow_hyphen_values = true,
        verbatim_doc_comment
    )]
    pub key: String,

    /// The nonce in hex: twice the cipher's nonce length in bytes.
    #[arg(long, value_name = "HEX", allow_hyphen_values = true)]
    pub nonce: String,

    /// The first 64-byte keystream block (output byte 0 = keystream byte 64·C)
    ///
    /// As libsodium's crypto_stream_*_xor_ic. For RFC 8439's ChaCha20 this
    /// is the 32-bit counter that `openssl enc -chacha20` takes as the
    /// first 4 bytes (little-endian) of its 16-byte -iv, the nonce being
    /// the other 12.
    #[arg(long, value_name = "C", default_value_t = 0, verbatim_doc_comment)]
    pub counter: u64,

    /// Force a rung by name (default: the fastest this CPU runs).
    #[arg(long = "impl", value_name = "NAME")]
    pub imp: Option<String>,

    /// XOR form of single-block rungs: c0 (byte-wise) or c1 (16-byte SIMD)
    #[arg(long, value_name = "FORM")]
    pub xor: Option<String>,

    /// Input file, `-` for stdin.
    #[arg(short, long, value_name = "FILE", default_value = "-")]
    pub input: PathBuf,

    /// Output file, `-` for stdout; written whole or not at all.
    #[arg(short, long, value_name = "FILE", default_value = "-")]
    pub output: PathBuf,

    /// Overwrite an existing output file.
    #[arg(long)]
    pub force: bool,

    /// The parameters the cipher's table entry declares, from the flags
    /// made of the declarations (`crate::params`).
    #[arg(skip)]
    pub params: Vec<(String, String)>,
}

/// `simdcrypt enc`.
#[derive(Debug, Args)]
pub struct EncArgs {
    /// The cipher and mode: a block-cipher mode of the library's table
    /// (listed here at run time)
    #[arg(long, value_name = "NAME")]
    pub cipher: String,

    /// The key in hex, as `openssl enc -K`: twice the key length in digits
    #[arg(short = 'K', long, value_name = "HEX", allow_hyphen_values = true)]
    pub key: String,

    /// The IV (CTR: the initial counter block) in hex, as `openssl enc -iv`;
    /// modes with an IV register (GOST R 34.13-2015's, `iv_register` in
    /// `info --json`) take any whole number of blocks
    #[arg(long, value_name = "HEX", allow_hyphen_values = true)]
    pub iv: Option<String>,

    /// Decrypt (the default is to encrypt).
    #[arg(short, long)]
    pub decrypt: bool,

    /// ECB and CBC without PKCS#7 padding: the input must be whole blocks.
    #[arg(long)]
    pub no_pad: bool,

    /// Force a rung by name (default: the fastest constant-time one).
    #[arg(long = "impl", value_name = "NAME")]
    pub imp: Option<String>,

    /// The parameters the primitive's table entry declares, from the flags
    /// made of the declarations (`crate::params`).
    #[arg(skip)]
    pub params: Vec<(String, String)>,

    /// Input file, `-` for stdin.
    #[arg(short, long, value_name = "FILE", default_value = "-")]
    pub input: PathBuf,

    /// Output file, `-` for stdout; written whole or not at all.
    #[arg(short, long, value_name = "FILE", default_value = "-")]
    pub output: PathBuf,

    /// Overwrite an existing output file.
    #[arg(long)]
    pub force: bool,
}

/// `simdcrypt aead`.
#[derive(Debug, Args)]
pub struct AeadArgs {
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

    /// Input file, `-` for stdin.
    #[arg(short, long, value_name = "FILE", default_value = "-")]
    pub input: PathBuf,

    /// Output file, `-` for stdout; written whole or not at all.
    #[arg(short, long, value_name = "FILE", default_value = "-")]
    pub output: PathBuf,

    /// Overwrite an existing output file.
    #[arg(long)]
    pub force: bool,
}

/// `simdcrypt mac`.
#[derive(Debug, Args)]
pub struct MacArgs {
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

    /// The parameters the primitive's table entry declares, from the flags
    /// made of the declarations (`crate::params`).
    #[arg(skip)]
    pub params: Vec<(String, String)>,

    /// The files, `-` for stdin (the default).
    #[arg(value_name = "FILE", default_value = "-")]
    pub files: Vec<PathBuf>,
}

/// `simdcrypt verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// Print the results as one JSON document on stdout.
    #[arg(long)]
    pub json: bool,

    /// Seed of the random inputs of the cross-checks and round trips.
    #[arg(long, value_name = "N", default_value_t = crate::verify::DEFAULT_SEED)]
    pub seed: u64,
}

/// `simdcrypt info`.
#[derive(Debug, Args)]
pub struct InfoArgs {
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
}

/// `simdcrypt bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// What to measure: a stream cipher, MAC, AEAD (sealing) or hash of the
    /// library's table (listed here at run time) [default: the table's
    /// first stream cipher]
    #[arg(long, value_name = "NAME")]
    pub algo: Option<String>,

    /// `all` (every rung this CPU runs) or one rung's name.
    #[arg(long = "impl", value_name = "NAME", default_value = "all")]
    pub imp: String,

    /// Message sizes in bytes [default: 64 1024 8192 16384 1048576].
    #[arg(
        long,
        value_name = "BYTES",
        num_args = 1..,
        value_parser = clap::value_parser!(u64).range(1..=1 << 30),
    )]
    pub size: Vec<u64>,

    /// Timed repetitions per cell [default: as many as fit in about 0.2 s].
    #[arg(
        long,
        value_name = "N",
        value_parser = clap::value_parser!(u64).range(1..=100_000_000),
    )]
    pub reps: Option<u64>,

    /// Print JSON on stdout.
    #[arg(long, conflicts_with = "csv")]
    pub json: bool,

    /// Print CSV on stdout.
    #[arg(long)]
    pub csv: bool,

    /// Run exactly N untimed calls per rung and size, and print nothing:
    /// for instruction counts under `valgrind --tool=callgrind`, which
    /// repeat exactly (bench/callgrind.sh divides two of them).
    #[arg(
        long,
        value_name = "N",
        conflicts_with_all = ["reps", "json", "csv", "plot"],
        value_parser = clap::value_parser!(u64).range(1..=100_000_000),
    )]
    pub calls: Option<u64>,

    /// Also draw each rung's GB/s against message size as an SVG plot in
    /// FILE (without --size: every power of two from 64 B to 1 MiB).
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,

    /// Replace an existing --plot file.
    #[arg(long, requires = "plot")]
    pub force: bool,

    /// Instead of speed, test each rung for timing leaks (dudect's
    /// fixed-against-random Welch t-test) with N calls per class; --algo
    /// also takes a ladder's name (`--leak --algo aes`)
    #[arg(
        long,
        value_name = "N",
        num_args = 0..=1,
        default_missing_value = "1000000",
        conflicts_with_all = ["calls", "plot", "json", "csv", "size"],
        value_parser = clap::value_parser!(u64).range(1000..=100_000_000),
    )]
    pub leak: Option<u64>,
}

/// `simdcrypt hash`: the options of coreutils' `sha256sum` family.
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct HashArgs {
    /// The hash: a hash of the library's table (listed here at run time)
    /// [default: the table's first]
    ///
    /// MD5 and SHA-1 are broken for collision resistance: use them only
    /// to compare with old checksum lists.
    #[arg(long, value_name = "NAME", verbatim_doc_comment)]
    pub algo: Option<String>,

    /// Force a rung by name (default: the fastest this CPU runs).
    #[arg(long = "impl", value_name = "NAME")]
    pub imp: Option<String>,

    /// Read checksum lists from the FILEs and check the files they name.
    #[arg(short = 'c', long)]
    pub check: bool,

    /// Write BSD-style lines: `SHA256 (NAME) = HEX`.
    #[arg(long)]
    pub tag: bool,

    /// Read in binary mode (marks lines with `*`; no other difference).
    #[arg(short = 'b', long, overrides_with = "text")]
    pub binary: bool,

    /// Read in text mode (the default; no difference from binary).
    #[arg(short = 't', long, overrides_with = "binary")]
    pub text: bool,

    /// End each output line with NUL, not newline, and do not escape names.
    #[arg(short = 'z', long)]
    pub zero: bool,

    /// With --check: do not fail or report for missing files.
    #[arg(long)]
    pub ignore_missing: bool,

    /// With --check: do not print OK for each verified file.
    #[arg(long, overrides_with_all = ["status", "warn"])]
    pub quiet: bool,

    /// With --check: print nothing; the exit status tells.
    #[arg(long, overrides_with_all = ["quiet", "warn"])]
    pub status: bool,

    /// With --check: fail on improperly formatted checksum lines.
    #[arg(long)]
    pub strict: bool,

    /// With --check: warn about improperly formatted checksum lines.
    #[arg(short = 'w', long, overrides_with_all = ["quiet", "status"])]
    pub warn: bool,

    /// The files (with --check: the lists); `-` or none for stdin.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
}

/// What `encrypt` and `decrypt` share: output, threads, progress,
/// passphrases for scripts.
#[derive(Debug, Args)]
pub struct AgeCommon {
    /// Write to OUTPUT (default: standard output). A file is written to a
    /// temporary file beside it and renamed into place when complete.
    #[arg(short, long, value_name = "OUTPUT")]
    pub output: Option<PathBuf>,

    /// Replace an existing OUTPUT file.
    #[arg(long)]
    pub force: bool,

    /// Threads sealing or opening chunks [default: one per core].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Option<u32>,

    /// Show a progress bar on stderr even for a pipe or a small input.
    #[arg(long)]
    pub progress: bool,

    /// Read the passphrase from the first line of FILE (for scripts).
    #[arg(long, value_name = "FILE")]
    pub passphrase_file: Option<PathBuf>,

    /// Plugin: its identity without data, as age's -j, run by
    /// age-plugin-PLUGIN from PATH; may be repeated. `batchpass` is built
    /// in: the passphrase from AGE_PASSPHRASE or AGE_PASSPHRASE_FD.
    #[arg(short = 'j', value_name = "PLUGIN")]
    pub plugins: Vec<String>,

    /// The input (default: standard input).
    #[arg(value_name = "INPUT")]
    pub input: Option<PathBuf>,
}

/// `simdcrypt encrypt`: flags as `age` spells them.
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct EncryptArgs {
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
    pub common: AgeCommon,
}

/// `simdcrypt decrypt`: flags as `age -d` spells them.
#[derive(Debug, Args)]
pub struct DecryptArgs {
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
    pub common: AgeCommon,

    /// The order `-i` and `-j` came in on the command line (filled after
    /// parsing, from clap's indices): identities are tried in it.
    #[arg(skip)]
    pub key_order: Vec<KeyFlag>,
}

/// Which of `decrypt`'s key flags came at a place of the command line: the
/// `n`th `-i` or the `n`th `-j`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyFlag {
    /// The `n`th `-i PATH`.
    Identity(usize),
    /// The `n`th `-j PLUGIN`.
    Plugin(usize),
}

/// The order of `-i` and `-j` in `decrypt`'s matches.
pub fn key_order(matches: &clap::ArgMatches) -> Vec<KeyFlag> {
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

/// `simdcrypt keygen`: as `age-keygen`.
#[derive(Debug, Args)]
pub struct KeygenArgs {
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

/// `simdcrypt completions`.
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell the script is for.
    #[arg(value_enum, value_name = "SHELL")]
    pub shell: clap_complete::Shell,
}

/// `simdcrypt man`.
#[derive(Debug, Args)]
pub struct ManArgs {
    /// Write the pages in DIR, which must exist.
    #[arg(short = 'o', long = "out-dir", value_name = "DIR", default_value = ".")]
    pub dir: PathBuf,

    /// Replace existing pages.
    #[arg(long)]
    pub force: bool,
}

/// The command line, with the names of the library's table of ladders in
/// the help of the options that take them (clap's derive help is fixed at
/// compile time; the table is the one place the names live).
pub fn command() -> clap::Command {
    use simdcrypt::ladder::{Kind, names_of};
    let streams = names_of(Kind::StreamCipher);
    let hashes = names_of(Kind::Hash);
    let benchable = [
        Kind::StreamCipher,
        Kind::Mode,
        Kind::Mac,
        Kind::Aead,
        Kind::Hash,
    ]
    .map(names_of)
    .join(", ");
    <Cli as clap::CommandFactory>::command()
        .mut_subcommand("stream", |c| {
            let c = c.mut_arg("cipher", |a| a.help(format!("The cipher: {streams}")));
            crate::params::flags(c, Kind::StreamCipher)
        })
        .mut_subcommand("enc", |c| {
            let c = c.mut_arg("cipher", |a| {
                a.help(format!("The cipher and mode: {}", names_of(Kind::Mode)))
            });
            crate::params::flags(c, Kind::Mode)
        })
        .mut_subcommand("aead", |c| {
            c.mut_arg("cipher", |a| {
                a.help(format!("The AEAD: {}", names_of(Kind::Aead)))
            })
        })
        .mut_subcommand("mac", |c| {
            let c = c.mut_arg("algo", |a| {
                a.help(format!("The MAC: {}", names_of(Kind::Mac)))
            });
            crate::params::flags(c, Kind::Mac)
        })
        .mut_subcommand("hash", |c| {
            c.mut_arg("algo", |a| {
                let help = format!(
                    "The hash: {hashes} [default: the first, {}]",
                    hashes.split(", ").next().unwrap_or_default()
                );
                a.long_help(format!(
                    "{help}\n\nMD5 and SHA-1 are broken for collision resistance: use them only\n\
                     to compare with old checksum lists."
                ))
                .help(help)
            })
        })
        .mut_subcommand("bench", |c| {
            c.mut_arg("algo", |a| {
                a.help(format!(
                    "What to measure: {benchable} [default: the first, {}]",
                    streams.split(", ").next().unwrap_or_default()
                ))
            })
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `-i` and `-j` keep the order they were given in, as age tries them.
    #[test]
    fn key_flags_keep_their_order() {
        let matches = command().get_matches_from([
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
