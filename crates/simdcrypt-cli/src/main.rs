//! `simdcrypt`, the command-line tool of the simdcrypt library: raw keystream
//! (`stream`), block-cipher modes as `openssl enc` (`enc`), MACs (`mac`),
//! AEADs (`aead`), file digests as coreutils' `sha256sum` (`hash`), age
//! files (`encrypt`, `decrypt`, `keygen`, and the `age`/`age-keygen`
//! links), self-checks of every rung (`verify`), measurements (`bench`) and
//! what this CPU runs (`info`), and the tool's own completion scripts
//! (`completions`) and manual pages (`man`). Each subcommand is a module
//! with its arguments and its run, listed once below.

// `unsafe` is denied everywhere but in `stdio_guard`, whose constructor
// must run before the Rust runtime starts.
#![deny(unsafe_code)]
// Diagnostics go through `diag`, which cannot panic; printing goes through
// writers whose errors are reported.
#![deny(clippy::print_stderr, clippy::print_stdout)]

mod aead;
mod age;
mod bench;
mod command;
mod diag;
mod enc;
mod error;
mod hash;
mod info;
mod io;
mod key;
mod mac;
mod multicall;
mod output;
mod package;
mod params;
mod signals;
#[cfg(target_os = "linux")]
mod stdio_guard;
mod stream;
mod verify;

use std::io::Write;
use std::process::ExitCode;

use crate::command::Context;
use crate::diag::Diag;
use crate::error::CliError;
use crate::multicall::Personality;

// Every subcommand, in the order `--help` lists them: the one list.
command::commands! {
    "stream" => stream,
    "enc" => enc,
    "mac" => mac,
    "aead" => aead,
    "verify" => verify,
    "bench" => bench,
    "info" => info,
    "hash" => hash,
    "encrypt" => age::encrypt,
    "decrypt" => age::decrypt,
    "keygen" => age::keygen,
    "completions" => package::completions,
    "man" => package::man,
}

/// The subcommands that run no primitive (installing completions or
/// pages), which a bad `SIMDCRYPT_MAX_ISA` does not stop.
const NO_PRIMITIVE: [&str; 2] = ["completions", "man"];

fn main() -> ExitCode {
    let argv: Vec<std::ffi::OsString> = std::env::args_os().collect();
    // Called as `age` or `age-keygen`, their command lines and their name
    // in messages.
    let personality = Personality::of(&argv);
    let diag = Diag::new(personality.program());
    diag.install_panic_hook();
    signals::install();
    let args = match multicall::arguments(personality, argv) {
        Ok(args) => args,
        Err(exit) => {
            if let Some(message) = exit.message {
                diag.line(format_args!("error: {message}"));
            }
            if let Some(usage) = exit.usage {
                diag::raw(format_args!("{usage}"));
            }
            return ExitCode::from(exit.status);
        }
    };
    // Usage errors, --help and --version: clap's words, then 2 (or 0).
    let matches = match command().try_get_matches_from(args) {
        Ok(matches) => matches,
        Err(e) => return clap_exit(&e, diag),
    };
    let context = Context { diag, command };
    let result = run(&matches, &context);
    // What is still buffered for stdout must reach it, or the command failed.
    exit(
        diag,
        result.and_then(|()| io::stdout().flush().map_err(CliError::Stdout)),
    )
}

/// Runs the subcommand `matches` name.
fn run(matches: &clap::ArgMatches, context: &Context) -> Result<(), CliError> {
    // A cap nobody can parse makes the library fall back to scalar code;
    // the tool says so instead of running slowly in silence.
    if !matches
        .subcommand_name()
        .is_some_and(|name| NO_PRIMITIVE.contains(&name))
    {
        simdcrypt::cpu::max_isa()?;
    }
    dispatch(matches, context)
}

/// The status of a command's `result`, its error said first.
fn exit(diag: Diag, result: Result<(), CliError>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // A reader that stops early (`simdcrypt verify | head`) is not an
        // error worth a message: the tool ends by SIGPIPE, as coreutils do.
        Err(e) if e.is_broken_pipe() => signals::die_of_broken_pipe(),
        // `hash` printed what failed, as coreutils does.
        Err(CliError::Reported) => ExitCode::FAILURE,
        Err(e) => {
            diag.line(format_args!("error: {e}"));
            ExitCode::FAILURE
        }
    }
}

/// What clap has to say instead of a command: a usage error on stderr
/// (status 2), or `--help` and `--version` on stdout (status 0) — which,
/// when stdout cannot take them (`simdcrypt --help >&-`), fail as any
/// output does and as coreutils' do.
fn clap_exit(e: &clap::Error, diag: Diag) -> ExitCode {
    if e.use_stderr() {
        e.exit()
    }
    let mut stdout = io::stdout();
    let text = if stdout.is_terminal() {
        e.render().ansi().to_string()
    } else {
        e.render().to_string()
    };
    let written = stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush());
    exit(diag, written.map_err(CliError::Stdout))
}
