//! `simdcrypt`, the command-line tool of the simdcrypt library: raw keystream
//! (`stream`), file digests as coreutils' `sha256sum` (`hash`), age files
//! (`encrypt`, `decrypt`, `keygen`), self-checks
//! of every rung (`verify`), measurements (`bench`) and what this CPU runs
//! (`info`), and the tool's own completion scripts (`completions`) and
//! manual pages (`man`).

// `unsafe` is denied everywhere but in `stdio_guard`, whose constructor
// must run before the Rust runtime starts.
#![deny(unsafe_code)]
// Diagnostics go through `diag`, which cannot panic; printing goes through
// writers whose errors are reported.
#![deny(clippy::print_stderr, clippy::print_stdout)]

mod aead;
mod age;
mod bench;
mod cli;
mod diag;
mod enc;
mod error;
mod hash;
mod info;
mod io;
mod key;
mod keygen;
mod mac;
mod multicall;
mod output;
mod package;
mod params;
mod plugin_ui;
mod signals;
#[cfg(target_os = "linux")]
mod stdio_guard;
mod stream;
mod verify;

use std::io::Write;
use std::process::ExitCode;

use crate::cli::{Cli, Command};
use crate::error::CliError;

fn main() -> ExitCode {
    diag::install_panic_hook();
    signals::install();
    // Usage errors, --help and --version: clap prints them and exits with 2
    // (or 0).
    // Called as `age` or `age-keygen`, their command lines.
    let args = match multicall::arguments(std::env::args_os().collect()) {
        Ok(args) => args,
        Err(exit) => {
            if let Some(message) = exit.message {
                diag::line(format_args!("error: {message}"));
            }
            if let Some(usage) = exit.usage {
                diag::raw(format_args!("{usage}"));
            }
            return ExitCode::from(exit.status);
        }
    };
    let matches = match cli::command().try_get_matches_from(args) {
        Ok(matches) => matches,
        Err(e) => return clap_exit(&e),
    };
    let mut cli = match <Cli as clap::FromArgMatches>::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    match (&mut cli.command, matches.subcommand()) {
        (Command::Decrypt(args), Some((_, sub))) => args.key_order = cli::key_order(sub),
        (Command::Stream(args), Some((_, sub))) => {
            args.params = params::given(sub, simdcrypt::ladder::Kind::StreamCipher);
        }
        (Command::Enc(args), Some((_, sub))) => {
            args.params = params::given(sub, simdcrypt::ladder::Kind::Mode);
        }
        (Command::Mac(args), Some((_, sub))) => {
            args.params = params::given(sub, simdcrypt::ladder::Kind::Mac);
        }
        _ => {}
    }
    // What is still buffered for stdout must reach it, or the command failed.
    exit(run(cli).and_then(|()| io::stdout().flush().map_err(CliError::Stdout)))
}

/// The status of a command's `result`, its error said first.
fn exit(result: Result<(), CliError>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // A reader that stops early (`simdcrypt verify | head`) is not an
        // error worth a message: the tool ends by SIGPIPE, as coreutils do.
        Err(e) if e.is_broken_pipe() => signals::die_of_broken_pipe(),
        // `hash` printed what failed, as coreutils does.
        Err(CliError::Reported) => ExitCode::FAILURE,
        Err(e) => {
            diag::line(format_args!("error: {e}"));
            ExitCode::FAILURE
        }
    }
}

/// What clap has to say instead of a command: a usage error on stderr
/// (status 2), or `--help` and `--version` on stdout (status 0) — which,
/// when stdout cannot take them (`simdcrypt --help >&-`), fail as any
/// output does and as coreutils' do.
fn clap_exit(e: &clap::Error) -> ExitCode {
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
    exit(written.map_err(CliError::Stdout))
}

fn run(cli: Cli) -> Result<(), CliError> {
    // A cap nobody can parse makes the library fall back to scalar code;
    // the tool says so instead of running slowly in silence (except where
    // no primitive runs: installing completions or pages).
    if !matches!(cli.command, Command::Completions(_) | Command::Man(_)) {
        simdcrypt::cpu::max_isa()?;
    }
    match cli.command {
        Command::Stream(args) => stream::run(&args),
        Command::Enc(args) => enc::run(&args),
        Command::Mac(args) => mac::run(&args),
        Command::Aead(args) => aead::run(&args),
        Command::Verify(args) => verify::run(&args),
        Command::Bench(args) => bench::run(&args),
        Command::Info(args) => info::run(&args),
        Command::Hash(args) => hash::run(&args),
        Command::Encrypt(args) => age::encrypt(&args),
        Command::Decrypt(args) => age::decrypt(&args),
        Command::Keygen(args) => keygen::run(&args),
        Command::Completions(args) => package::completions(&args),
        Command::Man(args) => package::man(&args),
    }
}
