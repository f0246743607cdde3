//! The subcommands: each is a module holding its clap `Args` (whose doc
//! comment is its help) and its [`Subcommand::run`], listed once, in
//! `main.rs`'s [`commands!`] call, which builds the command line and
//! dispatches to them. Adding a subcommand is its module and one line
//! there.

use clap::{ArgMatches, Command, FromArgMatches};

use crate::diag::Diag;
use crate::error::CliError;

/// What a subcommand is run with besides its arguments.
#[derive(Clone, Copy)]
pub struct Context {
    /// Where its messages go, under the program's name.
    pub diag: Diag,
    /// The whole command line, for those that describe it (completions and
    /// manual pages).
    pub command: fn() -> Command,
}

/// A subcommand: its arguments, what the table adds to them, and what it
/// does.
pub trait Subcommand: clap::Args + FromArgMatches {
    /// Its command line once the library's table is known: the names a
    /// flag takes in its help, a flag for each parameter the primitives
    /// declare. As the derive made it, unless the subcommand says more.
    fn customize(command: Command) -> Command {
        command
    }

    /// Runs it; `matches` are its own, for what the derived arguments do
    /// not hold (the order of flags, the parameters' flags).
    ///
    /// # Errors
    ///
    /// What went wrong, for `main` to say (or [`CliError::Reported`] when
    /// the subcommand said it).
    fn run(self, matches: &ArgMatches, context: &Context) -> Result<(), CliError>;
}

/// The subcommand `T` named `name`, as the table customizes it.
pub fn subcommand<T: Subcommand>(name: &'static str) -> Command {
    T::customize(T::augment_args(Command::new(name)))
}

/// Runs the subcommand `T` with its `matches`.
///
/// # Errors
///
/// As [`Subcommand::run`]; a parse error clap could not report (a bug).
pub fn run<T: Subcommand>(matches: &ArgMatches, context: &Context) -> Result<(), CliError> {
    let args =
        T::from_arg_matches(matches).map_err(|_| CliError::Internal("arguments clap checked"))?;
    args.run(matches, context)
}

/// The tool's command line without its subcommands.
pub fn top() -> Command {
    Command::new("simdcrypt")
        .version(env!("CARGO_PKG_VERSION"))
        .about("Fast, verified symmetric cryptography")
        .long_about(
            "Fast, verified symmetric cryptography\n\
             \n\
             Every primitive is a ladder of implementations (\"rungs\"), from the\n\
             specification to the widest SIMD this CPU runs.\n\
             \n\
             SIMDCRYPT_MAX_ISA caps the instruction sets used: scalar|sse2|avx2|avx512\n\
             on x86-64, scalar|neon|crypto|sha3 on aarch64.",
        )
        .subcommand_required(true)
        .arg_required_else_help(true)
}

/// Declares the subcommands, each `"name" => module`, in the order `--help`
/// lists them: `command()`, the whole command line, and `dispatch()`, which
/// runs the subcommand the matches name.
macro_rules! commands {
    ($($name:literal => $($module:ident)::+),+ $(,)?) => {
        /// The whole command line.
        fn command() -> clap::Command {
            crate::command::top().subcommands([
                $(crate::command::subcommand::<$($module)::+::Args>($name),)+
            ])
        }

        /// Runs the subcommand `matches` name.
        fn dispatch(
            matches: &clap::ArgMatches,
            context: &crate::command::Context,
        ) -> Result<(), crate::error::CliError> {
            match matches.subcommand() {
                $(Some(($name, sub)) => crate::command::run::<$($module)::+::Args>(sub, context),)+
                _ => Err(crate::error::CliError::Internal("a subcommand clap required")),
            }
        }
    };
}
pub(crate) use commands;
