//! The checking kit (the `kit` feature): every rung of every ladder on the
//! official vectors, cross-checked against the specification's own
//! functions on random inputs, and in round trips with every other rung.
//!
//! Each ladder declares its checks in its own folder, beside its entry in
//! the table (`Ladder::check`); a [`Report`] collects their rows, one per
//! primitive and rung, each with the three [`CHECKS`]. `simdcrypt verify`
//! prints it:
//!
//! ```no_run
//! let report = simdcrypt::kit::run(1);
//! let totals = report.totals();
//! println!("{} passed, {} failed", totals.passed, totals.failed);
//! ```
//!
//! The kit also holds what every family's checks share: the seeded
//! generator [`Rng`], the edge lengths [`BLOCK_EDGES`], the vector-file
//! helpers of [`vectors`], and the stream-cipher checks (random cases
//! against a reference keystream, the end of the keystream, round trips
//! between rungs).
//!
//! The vector files are the library's own `tests/data/`, built in with
//! `include_str!`, so the kit runs from the binary alone.

pub(crate) mod data;
mod rng;
pub(crate) mod stream;
pub mod vectors;

pub use rng::{BLOCK_EDGES, Rng};

use crate::ladder::{Kind, Ladder};
use crate::{Rung, ladders};

/// The seed of the random cases when none is given.
pub const DEFAULT_SEED: u64 = 1;

/// One of the three checks every row has: a column of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Check {
    /// Its name in the table's header.
    pub name: &'static str,
    /// Its key in a row of the JSON report.
    pub key: &'static str,
}

/// The three checks, in the order of [`Row::checks`].
pub const CHECKS: [Check; 3] = [
    Check {
        name: "vectors",
        key: "vectors",
    },
    Check {
        name: "cross-check",
        key: "cross_check",
    },
    Check {
        name: "round-trip",
        key: "round_trip",
    },
];

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
/// own, so that a failure reproduces from the seed alone.
#[derive(Debug)]
pub struct Streams {
    seed: u64,
    primitive: u64,
    rung: u64,
}

impl Streams {
    /// The generator of check number `check` (1 the cross-check, 2 the
    /// round trips, by convention).
    pub fn rng(&self, check: u64) -> Rng {
        Rng::new(
            self.seed
                ^ (self.primitive << 48 | self.rung << 40 | check << 32)
                    .wrapping_mul(0x9e37_79b9_7f4a_7c15),
        )
    }
}

/// The rows of the checks run so far, primitive by primitive.
#[derive(Debug)]
pub struct Report {
    seed: u64,
    rows: Vec<Row>,
    primitives: u64,
}

impl Report {
    /// An empty report whose random cases derive from `seed`.
    pub fn new(seed: u64) -> Report {
        Report {
            seed,
            rows: Vec::new(),
            primitives: 0,
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
    /// of `checks` on each rung this CPU runs, "skipped" on the others.
    pub fn primitive<R: Rung>(
        &mut self,
        name: &'static str,
        checks: impl Fn(R, &Streams) -> [Outcome; 3],
    ) {
        let primitive = self.primitives;
        self.primitives += 1;
        for (i, &rung) in R::all().iter().enumerate() {
            let checks = if rung.is_available() {
                let streams = Streams {
                    seed: self.seed,
                    primitive,
                    rung: i as u64,
                };
                checks(rung, &streams)
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
}

/// Every ladder of the table checked, in the table's order.
pub fn run(seed: u64) -> Report {
    let mut report = Report::new(seed);
    for ladder in ladders() {
        ladder.check(&mut report);
    }
    report
}

/// The rungs other than `rung` that this CPU runs.
pub fn others<R: Rung>(rung: R) -> Vec<R> {
    R::all()
        .iter()
        .copied()
        .filter(|&r| r != rung && r.is_available())
        .collect()
}

/// The one "rung" of a composed primitive (an AEAD, HMAC, a KDF): each
/// primitive inside on its best rung.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Composed;

impl std::fmt::Display for Composed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl Rung for Composed {
    const PRIMITIVE: &'static str = "composition";
    fn all() -> &'static [Self] {
        &[Composed]
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

    /// Every ladder of the table declares checks that give rows, and they
    /// pass on this CPU.
    #[test]
    fn every_ladder_checks_itself() {
        for ladder in ladders() {
            let mut report = Report::new(DEFAULT_SEED);
            ladder.check(&mut report);
            assert!(!report.rows().is_empty(), "{}: no rows", ladder.name);
            let failures: Vec<&String> = report
                .rows()
                .iter()
                .flat_map(|r| &r.checks)
                .filter_map(|o| match o {
                    Outcome::Ran(t) => Some(&t.failures),
                    _ => None,
                })
                .flatten()
                .collect();
            assert_eq!(report.totals().failed, 0, "{}: {failures:?}", ladder.name);
        }
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
