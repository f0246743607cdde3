//! The tool as a package: `simdcrypt completions SHELL` prints a shell's
//! completion script, `simdcrypt man` writes the manual pages. Both start
//! from [`crate::cli::command`], so the names of the library's table that
//! the help lists at run time are in them too.

use std::path::Path;

use clap_mangen::Man;

use crate::cli::{CompletionsArgs, ManArgs};
use crate::error::CliError;
use crate::output::{Content, Output};

/// The name the scripts and pages call the tool by.
const BIN: &str = "simdcrypt";

/// Prints the completion script of `args.shell` on stdout.
///
/// # Errors
///
/// Stdout closed or failing.
pub fn completions(args: &CompletionsArgs) -> Result<(), CliError> {
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut crate::cli::command(), BIN, &mut script);
    let mut out = Output::open(Path::new("-"), false, Content::Text)?;
    out.write_all(&script)?;
    out.finish()
}

/// Writes `simdcrypt.1` and one page per subcommand (`simdcrypt-stream.1`,
/// …) in `args.dir`, each whole or not at all. Every page is opened before
/// any is written, so an existing page (without `--force`) or a missing
/// directory leaves the directory as it was.
///
/// # Errors
///
/// An existing page without `--force`, a missing directory, I/O failures.
pub fn man(args: &ManArgs) -> Result<(), CliError> {
    let mut command = crate::cli::command().disable_help_subcommand(true);
    // Names the subcommands' pages `simdcrypt-stream`, as clap_mangen's own
    // `generate_to` does.
    command.build();
    let mut pages = Vec::new();
    collect(&command, &mut pages);
    let mut outputs = Vec::with_capacity(pages.len());
    for man in &pages {
        let path = args.dir.join(man.get_filename());
        outputs.push(Output::open(&path, args.force, Content::Text)?);
    }
    for (man, output) in pages.iter().zip(&mut outputs) {
        let mut page = Vec::new();
        man.render(&mut page)
            .map_err(|_| CliError::Internal("a manual page could not be rendered"))?;
        output.write_all(&page)?;
    }
    for output in outputs {
        output.finish()?;
    }
    Ok(())
}

/// The page of `command`, then those of its visible subcommands, depth
/// first.
fn collect(command: &clap::Command, pages: &mut Vec<Man>) {
    let source = format!("{BIN} {}", env!("CARGO_PKG_VERSION"));
    pages.push(
        Man::new(command.clone())
            .source(source)
            .manual("simdcrypt manual"),
    );
    for sub in command.get_subcommands().filter(|s| !s.is_hide_set()) {
        collect(sub, pages);
    }
}
