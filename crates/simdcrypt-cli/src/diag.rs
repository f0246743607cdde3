//! Every line the tool writes to standard error goes through here, and
//! none can fail the tool: a stderr on a full disk, a closed pipe or a
//! closed descriptor changes nothing else, as coreutils' `error()` does not
//! report a failed write to stderr either. (`eprintln!` would panic there;
//! the crate denies it.)

use std::fmt;
use std::io::{self, Write};

/// Standard error under the program's name: `simdcrypt`, or `age` and
/// `age-keygen` when called so (`crate::multicall`). Made once in `main`
/// and handed to what writes messages.
#[derive(Clone, Copy, Debug)]
pub struct Diag {
    program: &'static str,
}

impl Diag {
    /// Messages under `program`'s name.
    pub fn new(program: &'static str) -> Diag {
        Diag { program }
    }

    /// Writes one line, the program's name, `: ` and `args`, ignoring
    /// failure.
    pub fn line(self, args: fmt::Arguments<'_>) {
        raw(format_args!("{}: {args}", self.program));
    }

    /// `NAME: warning: …`.
    pub fn warning(self, args: fmt::Arguments<'_>) {
        self.line(format_args!("warning: {args}"));
    }

    /// The program's name.
    pub fn program(self) -> &'static str {
        self.program
    }

    /// The panic hook: a bug still ends in one line, never a backtrace, and
    /// never a second panic when stderr is gone.
    pub fn install_panic_hook(self) {
        std::panic::set_hook(Box::new(move |info| {
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
            self.line(format_args!(
                "error: internal error{at}: {what} (a bug: please report it)"
            ));
        }));
    }
}

/// Writes `args` and a newline to standard error as they are (age's
/// `Public key: …`), ignoring failure.
pub fn raw(args: fmt::Arguments<'_>) {
    // One write call for the whole line, so that lines from several
    // threads do not interleave.
    let text = format!("{args}\n");
    let _ = io::stderr().lock().write_all(text.as_bytes());
}
