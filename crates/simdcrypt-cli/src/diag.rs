//! Every line the tool writes to standard error goes through here, and
//! none can fail the tool: a stderr on a full disk, a closed pipe or a
//! closed descriptor changes nothing else, as coreutils' `error()` does not
//! report a failed write to stderr either. (`eprintln!` would panic there;
//! the crate denies it.)

use std::fmt;
use std::io::{self, Write};

/// Writes one line, the program's name (`simdcrypt`, or `age` when called
/// so), `: ` and `args`, to standard error, ignoring failure.
pub fn line(args: fmt::Arguments<'_>) {
    raw(format_args!("{}: {args}", crate::multicall::program()));
}

/// Writes `args` and a newline to standard error as they are (age's
/// `Public key: …`), ignoring failure.
pub fn raw(args: fmt::Arguments<'_>) {
    // One write call for the whole line, so that lines from several
    // threads do not interleave.
    let text = format!("{args}\n");
    let _ = io::stderr().lock().write_all(text.as_bytes());
}

/// `simdcrypt: warning: …` on standard error.
macro_rules! warning {
    ($($arg:tt)*) => {
        $crate::diag::line(format_args!("warning: {}", format_args!($($arg)*)))
    };
}
pub(crate) use warning;

/// The panic hook: a bug still ends in one line, never a backtrace, and
/// never a second panic when stderr is gone.
pub fn install_panic_hook() {
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
        line(format_args!(
            "error: internal error{at}: {what} (a bug: please report it)"
        ));
    }));
}
