//! `simdcrypt completions SHELL`: a shell's completion script.

use std::path::Path;

use super::BIN;
use crate::command::{Context, Subcommand};
use crate::error::CliError;
use crate::output::{Content, Output};

/// Print a shell's completion script on standard output
///
/// Save it where the shell looks for completions: for bash,
/// ~/.local/share/bash-completion/completions/simdcrypt; for fish,
/// ~/.config/fish/completions/simdcrypt.fish; for zsh, a file _simdcrypt
/// in a directory of $fpath.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The shell the script is for.
    #[arg(value_enum, value_name = "SHELL")]
    pub shell: clap_complete::Shell,
}

impl Subcommand for Args {
    /// Prints the completion script of `self.shell` on stdout.
    fn run(self, _: &clap::ArgMatches, context: &Context) -> Result<(), CliError> {
        let mut script = Vec::new();
        clap_complete::generate(self.shell, &mut (context.command)(), BIN, &mut script);
        let mut out = Output::open(Path::new("-"), false, Content::Text)?;
        out.write_all(&script)?;
        out.finish()
    }
}
