//! ctgrind: simdcrypt's constant-time check under valgrind's memcheck
//! (docs/constant-time.md).
//!
//! The primitives run under memcheck with their secrets — keys, plaintexts,
//! nonces, passwords, MAC keys, the age file key — marked undefined
//! (`simdcrypt::ct::poison`), so that memcheck reports every conditional
//! jump and every memory address computed from a secret. The library marks
//! the few results that are public by design (a tag comparison's verdict,
//! a padding check's, a ciphertext leaving the age code) at named points
//! (`simdcrypt::ct::declassify`); there are no suppression files.
//!
//! Run without arguments, outside valgrind, it is the driver: it runs each
//! part below under `valgrind --tool=memcheck --error-exitcode=1` in a
//! child process of its own and reads memcheck's log:
//!
//! - `control NAME`, one per positive control ([`controls::ALL`]): code
//!   that leaks on purpose, which memcheck must flag, at the place and in
//!   the way the control names: a check that cannot fail proves nothing;
//! - `part check`: every constant-time rung of every ladder that this CPU
//!   (as valgrind presents it) runs, taken from the table at run time, and
//!   the constructions over them; it must pass with no error at all, and
//!   it fails by itself when such a rung or a primitive went unchecked;
//! - `part variable-time`: every rung the table marks variable-time
//!   that this CPU runs, through the gated part's own code: memcheck must
//!   flag each one (the registry's positive control);
//! - `part x25519`: X25519 from x25519-dalek, with the identity secret,
//!   run once and reported; memcheck's findings inside x25519-dalek and
//!   curve25519-dalek do not fail the check, those in our code do.
//!
//! Environment: `CTGRIND_VALGRIND` (the valgrind to run, `valgrind` by
//! default), `CTGRIND_LOGS` (the folder of memcheck's logs, a fresh one
//! under the temporary folder by default).

mod age;
mod checks;
mod controls;
mod coverage;
mod driver;
mod memcheck;
mod x25519;

use std::process::ExitCode;

/// The exit status of a part that ran but found its own failure (an
/// output that differs, a rung left unchecked): not memcheck's 1.
pub const PART_FAILED: u8 = 3;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    match args.as_slice() {
        [] => driver::main(),
        ["part", "check"] => part(checks::run),
        ["part", "x25519"] => part(x25519::run),
        ["part", "variable-time"] => part(checks::run_variable_time),
        ["control", name] => match controls::find(name) {
            Some(control) => {
                (control.run)();
                ExitCode::SUCCESS
            }
            None => usage(&format!("no control named {name:?}")),
        },
        ["list"] => {
            for control in controls::ALL {
                println!("{:<16} {}", control.name, control.what);
            }
            ExitCode::SUCCESS
        }
        ["-h" | "--help"] => {
            println!("{}", USAGE);
            ExitCode::SUCCESS
        }
        _ => usage("unexpected arguments"),
    }
}

/// The command line.
const USAGE: &str = "\
usage: ctgrind                 run every part under valgrind and judge them
       ctgrind part check      the constant-time rungs (run under valgrind)
       ctgrind part x25519     X25519, reported (run under valgrind)
       ctgrind part variable-time
                               the variable-time rungs, each must be flagged
       ctgrind control NAME    one positive control (run under valgrind)
       ctgrind list            the positive controls";

/// The usage error.
fn usage(why: &str) -> ExitCode {
    eprintln!("ctgrind: {why}\n{USAGE}");
    ExitCode::from(2)
}

/// Runs a part, which returns its own failures.
fn part(run: fn() -> Vec<String>) -> ExitCode {
    if !simdcrypt::ct::running_on_valgrind() {
        println!("(not under valgrind: outputs and coverage are checked, constant time is not)");
    }
    let failures = run();
    if failures.is_empty() {
        ExitCode::SUCCESS
    } else {
        for failure in &failures {
            println!("FAILED: {failure}");
        }
        ExitCode::from(PART_FAILED)
    }
}
