//! `simdcrypt man`: the manual pages, `simdcrypt.1` and one per
//! subcommand.

use std::path::PathBuf;

use clap_mangen::Man;

use super::BIN;
use crate::command::{Context, Subcommand};
use crate::error::CliError;
use crate::output::{Content, Output};

/// Write the manual pages: simdcrypt.1 and one per subcommand
///
/// simdcrypt-stream.1, simdcrypt-hash.1, ...: each is written whole or
/// not at all, and none is written if one exists, unless --force.
/// `man -l simdcrypt.1` reads a page in place; in a man1 directory of
/// the manual path (~/.local/share/man/man1) `man simdcrypt` finds it.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Write the pages in DIR, which must exist.
    #[arg(short = 'o', long = "out-dir", value_name = "DIR", default_value = ".")]
    pub dir: PathBuf,

    /// Replace existing pages.
    #[arg(long)]
    pub force: bool,
}

impl Subcommand for Args {
    fn run(self, _: &clap::ArgMatches, context: &Context) -> Result<(), CliError> {
        write_pages(&self, (context.command)())
    }
}

/// Writes `simdcrypt.1` and one page per subcommand (`simdcrypt-stream.1`,
/// …) in `args.dir`, each whole or not at all. Every page is opened before
/// any is written, so an existing page (without `--force`) or a missing
/// directory leaves the directory as it was.
///
/// # Errors
///
/// An existing page without `--force`, a missing directory, I/O failures.
fn write_pages(args: &Args, command: clap::Command) -> Result<(), CliError> {
    let mut command = command.disable_help_subcommand(true);
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
