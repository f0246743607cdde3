//! `simdcrypt verify`: every rung of every primitive against (a) the official
//! vectors, (b) the specification's own functions on random inputs and
//! (c) every other rung in encrypt/decrypt round trips.
//!
//! The checks are the library's checking kit ([`simdcrypt::kit`]): each
//! ladder of the table declares its own, in its own folder. This module
//! runs them over [`simdcrypt::ladders`], adds the age format's row
//! ([`age`], from `simdcrypt-age`'s test kit), and prints the report as a
//! table or as JSON.

mod age;

use std::io::Write;

use serde_json::{Value, json};
use simdcrypt::kit::{self, CHECKS, Outcome, Report, Row, Totals};

use crate::command::{Context, Subcommand};
use crate::error::CliError;

/// Check every rung on official vectors, the reference and each other
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print the results as one JSON document on stdout.
    #[arg(long)]
    pub json: bool,

    /// Seed of the random inputs of the cross-checks and round trips.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_SEED)]
    pub seed: u64,
}

impl Subcommand for Args {
    fn run(self, _: &clap::ArgMatches, _: &Context) -> Result<(), CliError> {
        run(&self)
    }
}

/// The seed of the random cases when `--seed` is not given.
pub const DEFAULT_SEED: u64 = kit::DEFAULT_SEED;

/// Runs the command.
///
/// # Errors
///
/// [`CliError::VerifyFailed`] when any check fails; stdout closed.
fn run(args: &Args) -> Result<(), CliError> {
    let mut report = kit::run(args.seed);
    age::verify(&mut report);
    let totals = report.totals();
    let Totals {
        passed,
        failed,
        skipped,
    } = totals;
    let summary = if skipped > 0 {
        format!("{passed} passed, {failed} failed, {skipped} skipped")
    } else {
        format!("{passed} passed, {failed} failed")
    };
    let mut out = crate::io::stdout();
    if args.json {
        print_json(&mut out, &report, totals)?;
    } else {
        print_table(&mut out, &report)?;
        writeln!(out, "verify: {summary}")?;
    }
    out.flush()?;
    if failed > 0 {
        return Err(CliError::VerifyFailed { failed });
    }
    Ok(())
}

/// A check's cell in the table.
fn cell(outcome: &Outcome) -> String {
    match outcome {
        Outcome::Ran(t) if t.passed() => format!("pass ({})", t.cases),
        Outcome::Ran(t) => format!("FAIL ({} of {})", t.failed.max(1), t.cases),
        Outcome::Skipped(_) => "skipped".to_owned(),
        Outcome::NotApplicable(_) => "n/a".to_owned(),
    }
}

/// A check in the JSON report.
fn outcome_json(outcome: &Outcome) -> Value {
    match outcome {
        Outcome::Ran(t) => json!({
            "status": if t.passed() { "pass" } else { "fail" },
            "cases": t.cases,
            "failed": t.failed,
            "failures": t.failures,
        }),
        Outcome::Skipped(why) => json!({ "status": "skipped", "reason": why }),
        Outcome::NotApplicable(why) => json!({ "status": "n/a", "reason": why }),
    }
}

fn print_table(out: &mut impl Write, report: &Report) -> std::io::Result<()> {
    let seed = report.seed();
    let rows = report.rows();
    writeln!(
        out,
        "simdcrypt verify: each rung on the official vectors; cross-checked against the\n\
         specification's own functions on random inputs (seed {seed}); round trips with\n\
         every other rung"
    )?;
    writeln!(out)?;
    // The primitive column as wide as the longest name.
    let width = rows.iter().map(|r| r.primitive.len()).max().unwrap_or(0);
    let header = format!(
        "{:<width$} {:<15} {:<16} {:<16} {}",
        "primitive",
        "rung",
        CHECKS[0].name(),
        CHECKS[1].name(),
        CHECKS[2].name()
    );
    writeln!(out, "{header}")?;
    writeln!(out, "{}", "-".repeat(header.len()))?;
    for row in rows {
        write!(out, "{:<width$} {:<15} ", row.primitive, row.rung)?;
        if !row.available {
            writeln!(out, "skipped (needs {})", row.needs)?;
        } else {
            let [a, b, c] = &row.checks;
            writeln!(out, "{:<16} {:<16} {}", cell(a), cell(b), cell(c))?;
        }
    }
    writeln!(out)?;
    for row in rows {
        for (outcome, check) in row.checks.iter().zip(CHECKS) {
            if let Outcome::Ran(t) = outcome {
                for f in &t.failures {
                    writeln!(
                        out,
                        "FAILED {} {} {}: {f}",
                        row.primitive,
                        row.rung,
                        check.name()
                    )?;
                }
            }
        }
    }
    let mut na: Vec<String> = Vec::new();
    for row in rows.iter().filter(|r| r.available) {
        for (outcome, check) in row.checks.iter().zip(CHECKS) {
            let why: &str = match outcome {
                Outcome::NotApplicable(why) => why,
                Outcome::Skipped(why) => why,
                Outcome::Ran(_) => continue,
            };
            let line = format!("{} {}: {why}", row.primitive, check.name());
            if !na.contains(&line) {
                na.push(line);
            }
        }
    }
    for line in na {
        writeln!(out, "n/a: {line}")?;
    }
    writeln!(
        out,
        "default: the AEADs run on the best rungs: {}",
        kit::default_rungs()
    )
}

fn print_json(out: &mut impl Write, report: &Report, totals: Totals) -> std::io::Result<()> {
    let rows: Vec<Value> = report.rows().iter().map(row_json).collect();
    let doc = json!({
        "seed": report.seed(),
        "rows": rows,
        "default_rungs": kit::default_rungs(),
        "passed": totals.passed,
        "failed": totals.failed,
        "skipped": totals.skipped,
    });
    serde_json::to_writer_pretty(&mut *out, &doc)?;
    writeln!(out)
}

fn row_json(row: &Row) -> Value {
    let mut v = json!({
        "ladder": row.ladder,
        "primitive": row.primitive,
        "rung": row.rung,
        "available": row.available,
        "needs": row.needs,
    });
    for (outcome, check) in row.checks.iter().zip(CHECKS) {
        v[check.key()] = outcome_json(outcome);
    }
    v
}
