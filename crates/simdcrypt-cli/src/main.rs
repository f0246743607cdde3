//! `simdcrypt`, the command-line tool of the simdcrypt library: raw keystream
//! (`stream`), file digests as coreutils' `sha256sum` (`hash`), age files
//! (`encrypt`, `decrypt`, `keygen`), self-checks
//! of every rung (`verify`), measurements (`bench`) and what this CPU runs
//! (`info`).

#![forbid(unsafe_code)]

mod age;
mod bench;
mod cipher;
mod cli;
mod error;
mod hash;
mod info;
mod io;
mod key;
mod keygen;
mod stream;
mod verify;

use std::process::ExitCode;

use clap::Parser;

use crate::cli::{Cli, Command};
use crate::error::CliError;

fn main() -> ExitCode {
    // A bug must still end in one line, not a backtrace.
    std::panic::set_hook(Box::new(|info| {
        let payload = info.payload();
        let what = payload
            .downcast_ref::<&str>()
            .copied()
            .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
            .unwrap_or("unknown cause");
        let at = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        eprintln!("simdcrypt: error: internal error{at}: {what} (a bug: please report it)");
    }));
    // Usage errors, --help and --version: clap prints them and exits with 2
    // (or 0).
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        // A reader that stops early (`simdcrypt verify | head`) is not an
        // error worth a message.
        Err(CliError::Stdout(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::FAILURE,
        // `hash` printed what failed, as coreutils does.
        Err(CliError::Reported) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("simdcrypt: error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> Result<(), CliError> {
    // A cap nobody can parse makes the library fall back to scalar code;
    // the tool says so instead of running slowly in silence.
    simdcrypt::cpu::max_isa()?;
    match cli.command {
        Command::Stream(args) => stream::run(&args),
        Command::Verify(args) => verify::run(&args),
        Command::Bench(args) => bench::run(&args),
        Command::Info => info::run(),
        Command::Hash(args) => hash::run(&args),
        Command::Encrypt(args) => age::encrypt(&args),
        Command::Decrypt(args) => age::decrypt(&args),
        Command::Keygen(args) => keygen::run(&args),
    }
}
