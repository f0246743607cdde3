//! The checking kit's core: what every family's checks share, naming no
//! family — the [`Report`] of rows and their [`Check`]s, the [`Tally`] of a
//! check's cases, the seeded generator [`Rng`] and the edge lengths
//! [`BLOCK_EDGES`], the vector-file helpers of [`vectors`], and the
//! stream-cipher checks. It sits at the bottom of the library's layers
//! (docs/architecture.md), below the families whose checks use it;
//! [`crate::harness`], at the top, runs the table's ladders through it and
//! re-exports it.

pub(crate) mod block;
pub(crate) mod data;
mod rng;
pub(crate) mod stream;
pub mod vectors;

pub use rng::{BLOCK_EDGES, Rng};

use crate::RungSet;

/// One call of an incremental MAC: `update` with the next `n` bytes of the
/// message, or `update_padded` with them (which also zero-pads everything
/// absorbed so far to a 16-byte boundary, RFC 8439 §2.8's pad16).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Call {
    /// `update` with the next `n` bytes (what is left, if fewer).
    Update(usize),
    /// `update_padded` with the next `n` bytes (what is left, if fewer).
    Padded(usize),
}

impl Call {
    /// The bytes the call asks for.
    pub fn len(self) -> usize {
        match self {
            Call::Update(n) | Call::Padded(n) => n,
        }
    }
}

/// The fuzz case of a family whose checks make a case from a generator
/// and check it on one rung: the first byte of `input` picks one of
/// `items` (its primitives or modes), and on every rung of `R` this CPU
/// runs, `case` checks that item on that rung, drawing its case from the
/// rest of `input` ([`Rng::from_bytes`]): the same case on every rung.
pub(crate) fn fuzz_rungs<T: Copy, R: RungSet>(
    input: &[u8],
    items: &[T],
    mut case: impl FnMut(T, R, &mut Rng, &mut Tally),
) -> Tally {
    let (item, bytes) = pick(input, items);
    let mut t = Tally::default();
    for &rung in R::all().iter().filter(|r| r.is_available()) {
        case(item, rung, &mut Rng::from_bytes(bytes), &mut t);
    }
    t
}

/// An AEAD as its fuzz case makes inputs for it: what its table entry
/// declares ([`crate::ladder::Primitive`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct AeadShape {
    pub(crate) name: &'static str,
    pub(crate) key_lens: &'static [usize],
    pub(crate) nonce_len: usize,
    /// Whether it authenticates associated data.
    pub(crate) aad: bool,
}

/// A family's AEAD case: the AEAD named, under a key, nonce and
/// associated data, sealing a message, and the bit of the sealed form to
/// flip; `None` for a name not of the family.
pub(crate) type AeadCase = fn(&str, (&[u8], &[u8], &[u8]), &[u8], usize) -> Option<Tally>;

/// The AEADs' fuzz case: the first byte of `input` picks one of `aeads`,
/// the rest steers its key (of any of its lengths), nonce, associated
/// data, message (an edge length or up to 1,100 bytes) and the bit to
/// flip ([`Rng::from_bytes`]), checked by the family's `case`.
pub(crate) fn fuzz_aead(input: &[u8], aeads: &[AeadShape], case: AeadCase) -> Tally {
    let (aead, bytes) = pick(input, aeads);
    let mut rng = Rng::from_bytes(bytes);
    let key_len = aead.key_lens[rng.index(aead.key_lens.len())];
    let key = rng.bytes(key_len);
    let nonce = rng.bytes(aead.nonce_len);
    let aad = if aead.aad {
        rng.bytes_below(80)
    } else {
        Vec::new()
    };
    let len = rng.length(&BLOCK_EDGES, 1100);
    let pt = rng.bytes(len);
    let flip = rng.next_u64() as usize;
    case(aead.name, (&key, &nonce, &aad), &pt, flip).unwrap_or_else(|| {
        let mut t = Tally::default();
        t.check(false, || format!("{}: no case in its family", aead.name));
        t
    })
}

/// The item of `items` the first byte of `input` picks, and the rest.
pub(crate) fn pick<'a, T: Copy>(input: &'a [u8], items: &[T]) -> (T, &'a [u8]) {
    let (&first, rest) = input.split_first().unwrap_or((&0, &[]));
    (items[usize::from(first) % items.len()], rest)
}

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
    /// The ladder whose checks made the row (empty outside a ladder's
    /// checks).
    pub ladder: &'static str,
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
    /// The ladder whose checks run now.
    ladder: &'static str,
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
            ladder: "",
            rows: Vec::new(),
            primitives: 0,
            checks: [true; 3],
            rungs: |_| true,
        }
    }

    /// Names the ladder whose checks add the rows that follow
    /// ([`Ladder::check`](crate::ladder::Ladder::check) does).
    pub fn enter(&mut self, ladder: &'static str) {
        self.ladder = ladder;
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
                let seeds = Seeds {
                    seed: self.seed,
                    primitive,
                    rung: i as u64,
                    checks: self.checks,
                };
                let mut outcomes = checks(rung, &seeds);
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
                ladder: self.ladder,
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
