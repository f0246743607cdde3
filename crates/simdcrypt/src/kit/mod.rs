//! The checking kit (the `kit` feature): every rung of every ladder on the
//! official vectors, cross-checked against the specification's own
//! functions on random inputs, and in round trips with every other rung.
//!
//! Each ladder declares its checks in its own folder, beside its entry in
//! the table (`Ladder::check`); a [`Report`] collects their rows, one per
//! primitive and rung, each with the three [`Check`]s. `simdcrypt verify`
//! prints it:
//!
//! ```no_run
//! let report = simdcrypt::kit::run(1);
//! let totals = report.totals();
//! println!("{} passed, {} failed", totals.passed, totals.failed);
//! ```
//!
//! The library's tests run the same checks one ladder and one check at a
//! time, and the AVX-512 emulator's test on those rungs alone:
//!
//! ```no_run
//! use simdcrypt::kit::{self, Check, Report};
//!
//! let mut report = Report::new(kit::DEFAULT_SEED)
//!     .only(&[Check::CrossCheck])
//!     .only_rungs(|rung| rung.starts_with("avx512"));
//! kit::check_ladder("chacha20", &mut report)?;
//! assert!(report.failures().is_empty(), "{:#?}", report.failures());
//! # Ok::<(), String>(())
//! ```
//!
//! The fuzz targets run one case of a check on inputs the fuzzer chooses,
//! through [`cases`].
//!
//! The kit also holds what every family's checks share: the seeded
//! generator [`Rng`], the edge lengths [`BLOCK_EDGES`], the vector-file
//! helpers of [`vectors`], and the stream-cipher checks (random cases
//! against a reference keystream, in place and out of place, the end of
//! the keystream, round trips between rungs).
//!
//! The vector files are the library's own `tests/data/`, built in with
//! `include_str!`, so the kit runs from the binary alone.

pub mod cases;
pub(crate) mod data;
mod rng;
pub(crate) mod stream;
pub mod vectors;

pub use rng::{BLOCK_EDGES, Rng};

use crate::ladder::{Kind, Ladder};
use crate::{RungSet, ladders};

/// The seed of the random cases when none is given.
pub const DEFAULT_SEED: u64 = 1;

/// One of the three checks every row has: a column of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Check {
    /// The official vectors.
    Vectors,
    /// Random cases against the specification's own functions.
    CrossCheck,
    /// Made on one rung, undone on every other.
    RoundTrip,
}

impl Check {
    /// The three checks, in the order of [`Row::checks`].
    pub const ALL: [Check; 3] = [Check::Vectors, Check::CrossCheck, Check::RoundTrip];

    /// Its name in the table's header.
    pub fn name(self) -> &'static str {
        match self {
            Check::Vectors => "vectors",
            Check::CrossCheck => "cross-check",
            Check::RoundTrip => "round-trip",
        }
    }

    /// Its key in a row of the JSON report.
    pub fn key(self) -> &'static str {
        match self {
            Check::Vectors => "vectors",
            Check::CrossCheck => "cross_check",
            Check::RoundTrip => "round_trip",
        }
    }

    /// Its column: its place in [`Check::ALL`] and [`Row::checks`].
    fn column(self) -> usize {
        self as usize
    }
}

impl std::fmt::Display for Check {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The three checks, in the order of [`Row::checks`] (as
/// [`Check::ALL`]).
pub const CHECKS: [Check; 3] = Check::ALL;

/// Cases run and the first few failures of one check.
#[derive(Debug, Default)]
pub struct Tally {
    /// Cases run.
    pub cases: usize,
    /// Cases that failed.
    pub failed: usize,
    /// The first three failures, described.
    pub failures: Vec<String>,
}

impl Tally {
    /// Counts one case: a failure unless `ok`, described by `what`.
    pub fn check(&mut self, ok: bool, what: impl FnOnce() -> String) {
        self.cases += 1;
        if !ok {
            self.failed += 1;
            if self.failures.len() < 3 {
                self.failures.push(what());
            }
        }
    }

    /// A record whose fields are missing or malformed: a failure.
    pub fn malformed(&mut self, what: impl std::fmt::Display) {
        self.check(false, || format!("{what}: malformed record"));
    }

    /// Whether some case ran and none failed.
    pub fn passed(&self) -> bool {
        self.failed == 0 && self.cases > 0
    }

    /// The tally as the outcome of a vector check: one that found no
    /// vectors fails, since the embedded files must hold some.
    pub fn vectors(mut self) -> Outcome {
        if self.cases == 0 {
            self.check(false, || {
                "no vectors found in the embedded files".to_owned()
            });
        }
        Outcome::Ran(self)
    }
}

/// The outcome of one check on one rung.
#[derive(Debug)]
pub enum Outcome {
    /// It ran: passed if [`Tally::passed`].
    Ran(Tally),
    /// It could not run here (a rung this CPU lacks, no other rung).
    Skipped(String),
    /// It does not apply to the primitive, and why.
    NotApplicable(&'static str),
}

impl Outcome {
    /// Whether it ran and passed.
    pub fn passed(&self) -> bool {
        matches!(self, Outcome::Ran(t) if t.passed())
    }
}

/// One line of the report: a primitive on one rung.
#[derive(Debug)]
pub struct Row {
    /// The primitive, as the report names it.
    pub primitive: &'static str,
    /// The rung's name.
    pub rung: &'static str,
    /// Whether this CPU runs the rung.
    pub available: bool,
    /// What the rung needs from the CPU.
    pub needs: &'static str,
    /// The outcomes of the three [`CHECKS`].
    pub checks: [Outcome; 3],
}

/// Checks passed, failed and skipped in a report.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    /// Checks that ran and passed.
    pub passed: usize,
    /// Checks that ran and failed.
    pub failed: usize,
    /// Checks skipped (not counting those that do not apply).
    pub skipped: usize,
}

/// The random streams of one (primitive, rung): each check draws from its
/// own, so that a failure reproduces from the seed alone; and which checks
/// the report runs.
#[derive(Debug)]
pub struct Seeds {
    seed: u64,
    primitive: u64,
    rung: u64,
    checks: [bool; 3],
}

impl Seeds {
    /// The generator of check number `check` (1 the cross-check, 2 the
    /// round trips, by convention).
    pub fn rng(&self, check: u64) -> Rng {
        Rng::new(
            self.seed
                ^ (self.primitive << 48 | self.rung << 40 | check << 32)
                    .wrapping_mul(0x9e37_79b9_7f4a_7c15),
        )
    }

    /// The outcomes of the three checks, each made by `check` only if the
    /// report runs it (see [`Report::only`]), "skipped" otherwise.
    pub fn each(&self, mut check: impl FnMut(Check) -> Outcome) -> [Outcome; 3] {
        Check::ALL.map(|c| {
            if self.checks[c.column()] {
                check(c)
            } else {
                not_selected()
            }
        })
    }
}

/// The outcome of a check the report does not run.
fn not_selected() -> Outcome {
    Outcome::Skipped("not selected in this run".to_owned())
}

/// The rows of the checks run so far, primitive by primitive.
#[derive(Debug)]
pub struct Report {
    seed: u64,
    rows: Vec<Row>,
    primitives: u64,
    checks: [bool; 3],
    rungs: fn(&str) -> bool,
}

impl Report {
    /// An empty report whose random cases derive from `seed`, running
    /// every check on every rung.
    pub fn new(seed: u64) -> Report {
        Report {
            seed,
            rows: Vec::new(),
            primitives: 0,
            checks: [true; 3],
            rungs: |_| true,
        }
    }

    /// The report running only `checks` (the others are "skipped"), for a
    /// test of one check.
    #[must_use]
    pub fn only(self, checks: &[Check]) -> Report {
        Report {
            checks: Check::ALL.map(|c| checks.contains(&c)),
            ..self
        }
    }

    /// The report giving rows only to the rungs whose names `keep` takes
    /// (for a test of the AVX-512 rungs alone); each still meets every
    /// other rung in the round trips, and draws the random cases it would
    /// draw in a full report.
    #[must_use]
    pub fn only_rungs(self, keep: fn(&str) -> bool) -> Report {
        Report {
            rungs: keep,
            ..self
        }
    }

    /// The seed of the random cases.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The rows, in the order they were checked.
    pub fn rows(&self) -> &[Row] {
        &self.rows
    }

    /// One row per rung of `R` for the primitive `name`: the three checks
    /// of `checks` on each rung this CPU runs, "skipped" on the others and
    /// where the report does not run them (made through [`Seeds::each`],
    /// those are not even made).
    pub fn primitive<R: RungSet>(
        &mut self,
        name: &'static str,
        checks: impl Fn(R, &Seeds) -> [Outcome; 3],
    ) {
        let primitive = self.primitives;
        self.primitives += 1;
        for (i, &rung) in R::all().iter().enumerate() {
            if !(self.rungs)(rung.name()) {
                continue;
            }
            let checks = if rung.is_available() {
                let streams = Seeds {
                    seed: self.seed,
                    primitive,
                    rung: i as u64,
                    checks: self.checks,
                };
                let mut outcomes = checks(rung, &streams);
                // A row made without `Seeds::each` made every check:
                // those not selected are dropped.
                for (outcome, selected) in outcomes.iter_mut().zip(self.checks) {
                    if !selected {
                        *outcome = not_selected();
                    }
                }
                outcomes
            } else {
                let why = format!("needs {}", rung.needs());
                [
                    Outcome::Skipped(why.clone()),
                    Outcome::Skipped(why.clone()),
                    Outcome::Skipped(why),
                ]
            };
            self.rows.push(Row {
                primitive: name,
                rung: rung.name(),
                available: rung.is_available(),
                needs: rung.needs(),
                checks,
            });
        }
    }

    /// Checks passed, failed and skipped.
    pub fn totals(&self) -> Totals {
        let mut totals = Totals::default();
        for outcome in self.rows.iter().flat_map(|r| &r.checks) {
            match outcome {
                Outcome::Ran(t) if t.passed() => totals.passed += 1,
                Outcome::Ran(_) => totals.failed += 1,
                Outcome::Skipped(_) => totals.skipped += 1,
                Outcome::NotApplicable(_) => {}
            }
        }
        totals
    }

    /// Every check that ran and failed, one line each: the primitive, the
    /// rung, the check, how many cases failed, and the first failures.
    pub fn failures(&self) -> Vec<String> {
        let mut lines = Vec::new();
        for row in &self.rows {
            for (outcome, check) in row.checks.iter().zip(Check::ALL) {
                if let Outcome::Ran(t) = outcome
                    && !t.passed()
                {
                    lines.push(format!(
                        "{} on {}, {check}: {} of {} cases failed: {}",
                        row.primitive,
                        row.rung,
                        t.failed,
                        t.cases,
                        t.failures.join("; ")
                    ));
                }
            }
        }
        lines
    }
}

/// Every ladder of the table checked, in the table's order.
pub fn run(seed: u64) -> Report {
    let mut report = Report::new(seed);
    for ladder in ladders() {
        ladder.check(&mut report);
    }
    report
}

/// Adds the rows of the ladder named `name` (as [`Ladder::name`] has it)
/// to `report`.
///
/// # Errors
///
/// No ladder of the table has that name; the message lists those that do.
pub fn check_ladder(name: &str, report: &mut Report) -> Result<(), String> {
    let ladder = ladders().iter().find(|l| l.name == name).ok_or_else(|| {
        let names: Vec<&str> = ladders().iter().map(|l| l.name).collect();
        format!(
            "no ladder named {name:?}; the ladders: {}",
            names.join(", ")
        )
    })?;
    ladder.check(report);
    Ok(())
}

/// The rungs other than `rung` that this CPU runs.
pub fn others<R: RungSet>(rung: R) -> Vec<R> {
    R::all()
        .iter()
        .copied()
        .filter(|&r| r != rung && r.is_available())
        .collect()
}

/// The one "rung" of a composed primitive (an AEAD, HMAC, a KDF): each
/// primitive inside on its best rung.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChosenRungs;

impl std::fmt::Display for ChosenRungs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl RungSet for ChosenRungs {
    const PRIMITIVE: &'static str = "composition";
    fn all() -> &'static [Self] {
        &[ChosenRungs]
    }
    fn name(self) -> &'static str {
        "default"
    }
    fn needs(self) -> &'static str {
        "nothing"
    }
    fn is_available(self) -> bool {
        true
    }
    fn is_constant_time(self) -> bool {
        true
    }
}

/// The rungs the AEADs run on: each ladder they are composed of with the
/// rung chosen on this CPU ("chacha20 avx2, poly1305 avx2, …").
pub fn default_rungs() -> String {
    let aeads = ladders()
        .iter()
        .find(|l| l.primitives.iter().any(|p| p.kind == Kind::Aead));
    aeads
        .map(|l| l.composed_of())
        .unwrap_or_default()
        .iter()
        .map(|&name| {
            let chosen = ladders()
                .iter()
                .find(|l| l.name == name)
                .and_then(Ladder::chosen)
                .unwrap_or("none");
            format!("{name} {chosen}")
        })
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A failing tally of one case.
    fn failing() -> Outcome {
        let mut t = Tally::default();
        t.check(false, || "case 0".to_owned());
        Outcome::Ran(t)
    }

    /// A report makes only the checks it runs (through `Seeds::each`),
    /// drops the others of a row made at once, gives rows only to the
    /// rungs it keeps, and lists each failure with its row and check.
    /// (Every ladder's own checks run in `tests/kit.rs`.)
    #[test]
    fn a_report_runs_what_it_selects_and_lists_the_failures() {
        let made = std::cell::RefCell::new(Vec::new());
        let mut report = Report::new(DEFAULT_SEED).only(&[Check::CrossCheck]);
        report.primitive("lazy", |ChosenRungs, seeds| {
            seeds.each(|check| {
                made.borrow_mut().push(check);
                failing()
            })
        });
        report.primitive("eager", |ChosenRungs, _| [failing(), failing(), failing()]);
        assert_eq!(made.into_inner(), [Check::CrossCheck]);
        assert_eq!(
            report.failures(),
            [
                "lazy on default, cross-check: 1 of 1 cases failed: case 0",
                "eager on default, cross-check: 1 of 1 cases failed: case 0",
            ]
        );
        let totals = report.totals();
        assert_eq!((totals.passed, totals.failed, totals.skipped), (0, 2, 4));
        let mut none = Report::new(DEFAULT_SEED).only_rungs(|_| false);
        none.primitive("lazy", |ChosenRungs, _| [failing(), failing(), failing()]);
        assert!(none.rows().is_empty());
        let mut unknown = Report::new(DEFAULT_SEED);
        let err = check_ladder("no-such-ladder", &mut unknown).unwrap_err();
        assert!(err.contains("salsa20"), "{err}");
    }

    #[test]
    fn block_edges_cover_every_simd_width() {
        for blocks in 1..=17 {
            let n = blocks * 64;
            assert!([n - 1, n, n + 1].iter().all(|l| BLOCK_EDGES.contains(l)));
        }
        assert!(BLOCK_EDGES.contains(&0));
    }

    #[test]
    fn the_generator_repeats_from_its_seed() {
        let (mut a, mut b) = (Rng::new(7), Rng::new(7));
        assert_eq!(a.bytes(100), b.bytes(100));
        assert_ne!(Rng::new(7).next_u64(), Rng::new(8).next_u64());
        assert!((0..1000).all(|_| a.below(10) < 10));
    }
}
