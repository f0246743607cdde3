//! The tool as a package: `simdcrypt completions SHELL` prints a shell's
//! completion script (`completions`), `simdcrypt man` writes the manual
//! pages (`man`). Both start from the whole command line the context hands
//! them, so the names of the library's table that the help lists at run
//! time are in them too.

pub mod completions;
pub mod man;

/// The name the scripts and pages call the tool by.
const BIN: &str = "simdcrypt";
