//! `simdcrypt hash --check`: verifies checksum lists as `sha256sum -c`
//! does (coreutils 9.1 `digest_check`), with the same lines, warnings and
//! exit status; the listed files are hashed by [`super::engine`].

use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::PathBuf;

use super::Args;
use super::engine::{self, Job, Outcome};
use super::format::{LineParser, hex_matches, push_name, quotef, strerror};
use super::{Hashing, Out, quote_os, threads};
use crate::error::CliError;

/// One line of a list, as the printer sees it.
enum Event {
    /// Line `n` is not a checksum line.
    Misformatted(u64),
    /// A file to check: its name (unescaped) and the expected hex digest.
    Check { name: Vec<u8>, hex: Vec<u8> },
    /// Reading the list failed.
    ReadError,
}

/// The tallies of one list (`digest_check`'s counters).
#[derive(Default)]
struct Tally {
    misformatted: u64,
    mismatched: u64,
    unreadable: u64,
    properly_formatted: bool,
    matched: bool,
    read_error: bool,
}

/// Checks every list of `lists`; `false` if anything failed.
pub fn run(
    lists: &[OsString],
    hashing: &Hashing,
    args: &Args,
    out: &Out,
) -> Result<bool, CliError> {
    // Whether lines are GNU or "BSD reversed" is decided once for the run.
    let mut parser = LineParser::new(hashing.tag(), hashing.output_len());
    let mut ok = true;
    for list in lists {
        ok &= check_list(list, hashing, args, &mut parser, out)?;
    }
    Ok(ok)
}

/// Checks one list.
fn check_list(
    list: &OsStr,
    hashing: &Hashing,
    args: &Args,
    parser: &mut LineParser<'_>,
    out: &Out,
) -> Result<bool, CliError> {
    let is_stdin = list == "-";
    let list_name = if is_stdin {
        quotef(b"standard input")
    } else {
        quote_os(list)
    };
    let input: Box<dyn Read + Send> = if is_stdin {
        Box::new(crate::io::stdin())
    } else {
        match File::open(list) {
            Ok(f) => Box::new(f),
            Err(e) => {
                out.error(&format!("{list_name}: {}", strerror(&e)))?;
                return Ok(false);
            }
        }
    };
    let jobs = Lines {
        input: BufReader::with_capacity(1 << 16, input),
        line: Vec::new(),
        number: 0,
        parser,
        is_stdin,
        ended: false,
    };

    let mut tally = Tally::default();
    let mut text = Vec::new();
    engine::run(
        jobs,
        hashing,
        threads(None),
        |event, outcome| {
            match event {
                Event::Misformatted(n) => {
                    tally.misformatted += 1;
                    if args.warn {
                        out.error(&format!(
                            "{list_name}: {n}: improperly formatted {} checksum line",
                            hashing.tag()
                        ))?;
                    }
                }
                Event::ReadError => tally.read_error = true,
                Event::Check { name, hex } => {
                    tally.properly_formatted = true;
                    // Coreutils 9.1 escapes a name here only for a newline
                    // (then `\\`, `\n` and `\r` as in its digest lines).
                    let escape = !args.status && name.contains(&b'\n');
                    text.clear();
                    if escape {
                        text.push(b'\\');
                    }
                    push_name(&mut text, &name, escape);
                    match outcome {
                        Some(Outcome::Failed(e))
                            if args.ignore_missing && e.kind() == io::ErrorKind::NotFound => {}
                        Some(Outcome::Failed(e)) => {
                            out.error(&format!("{}: {}", quotef(&name), strerror(&e)))?;
                            tally.unreadable += 1;
                            if !args.status {
                                text.extend_from_slice(b": FAILED open or read\n");
                                out.write(&text)?;
                            }
                        }
                        Some(Outcome::Digest(digest)) => {
                            let matched = hex_matches(&hex, &digest);
                            if matched {
                                tally.matched = true;
                            } else {
                                tally.mismatched += 1;
                            }
                            if !(args.status || matched && args.quiet) {
                                text.extend_from_slice(if matched {
                                    b": OK\n"
                                } else {
                                    b": FAILED\n"
                                });
                                out.write(&text)?;
                            }
                        }
                        None => {}
                    }
                }
            }
            Ok(())
        },
        || out.flush(),
    )?;
    report(&tally, &list_name, args, out)
}

/// The end-of-list messages; whether the list passed.
fn report(tally: &Tally, list_name: &str, args: &Args, out: &Out) -> Result<bool, CliError> {
    if tally.read_error {
        out.error(&format!("{list_name}: read error"))?;
        return Ok(false);
    }
    if !tally.properly_formatted {
        out.error(&format!(
            "{list_name}: no properly formatted checksum lines found"
        ))?;
    } else if !args.status {
        let plural = |n: u64, one: &str, many: &str| {
            if n == 1 {
                format!("WARNING: {n} {one}")
            } else {
                format!("WARNING: {n} {many}")
            }
        };
        if tally.misformatted != 0 {
            out.error(&plural(
                tally.misformatted,
                "line is improperly formatted",
                "lines are improperly formatted",
            ))?;
        }
        if tally.unreadable != 0 {
            out.error(&plural(
                tally.unreadable,
                "listed file could not be read",
                "listed files could not be read",
            ))?;
        }
        if tally.mismatched != 0 {
            out.error(&plural(
                tally.mismatched,
                "computed checksum did NOT match",
                "computed checksums did NOT match",
            ))?;
        }
        if args.ignore_missing && !tally.matched {
            out.error(&format!("{list_name}: no file was verified"))?;
        }
    }
    Ok(tally.properly_formatted
        && tally.matched
        && tally.mismatched == 0
        && tally.unreadable == 0
        && (!args.strict || tally.misformatted == 0))
}

/// The longest checksum line read: far above any real one (a name of
/// `PATH_MAX` bytes, escaped, and a SHA-512 digest), and a bound on what a
/// list can make the tool hold.
const MAX_LINE: u64 = 1 << 20;

/// The lines of a list as jobs, read as the workers take them.
struct Lines<'p, 't> {
    input: BufReader<Box<dyn Read + Send>>,
    line: Vec<u8>,
    number: u64,
    parser: &'p mut LineParser<'t>,
    is_stdin: bool,
    ended: bool,
}

impl Iterator for Lines<'_, '_> {
    type Item = Job<Event>;

    fn next(&mut self) -> Option<Job<Event>> {
        loop {
            if self.ended {
                return None;
            }
            self.line.clear();
            match (&mut self.input)
                .take(MAX_LINE + 1)
                .read_until(b'\n', &mut self.line)
            {
                Ok(0) => return None,
                // A line no checksum list holds (`-c /dev/zero`): it counts
                // as improperly formatted and the list ends there, where
                // coreutils' `getline` would run out of memory.
                Ok(n) if n as u64 > MAX_LINE => {
                    self.ended = true;
                    self.number += 1;
                    return Some(Job::Note(Event::Misformatted(self.number)));
                }
                Ok(_) => {}
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(_) => {
                    self.ended = true;
                    return Some(Job::Note(Event::ReadError));
                }
            }
            self.number += 1;
            // Comments; then the line end, a CR before it, empty lines.
            if self.line.first() == Some(&b'#') {
                continue;
            }
            let mut s = &self.line[..];
            s = s.strip_suffix(b"\n").unwrap_or(s);
            s = s.strip_suffix(b"\r").unwrap_or(s);
            if s.is_empty() {
                continue;
            }
            return Some(match self.parser.parse(s) {
                Some(l) if !(self.is_stdin && &*l.name == b"-") => {
                    let path = path_of(&l.name).into_boxed_path();
                    Job::File(
                        path,
                        Event::Check {
                            name: l.name.into_owned(),
                            hex: l.hex.to_vec(),
                        },
                    )
                }
                _ => Job::Note(Event::Misformatted(self.number)),
            });
        }
    }
}

/// The path a name of a list spells.
fn path_of(name: &[u8]) -> PathBuf {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        PathBuf::from(OsStr::from_bytes(name))
    }
    #[cfg(not(unix))]
    {
        PathBuf::from(String::from_utf8_lossy(name).into_owned())
    }
}
