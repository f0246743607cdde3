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
//! The fuzz target `ladder` runs one case of a ladder's checks on inputs
//! the fuzzer chooses, through [`Ladder::fuzz`](crate::ladder::Ladder::fuzz),
//! for every ladder of the table.
//!
//! The kit also holds what every family's checks share: the seeded
//! generator [`Rng`], the edge lengths [`BLOCK_EDGES`], the vector-file
//! helpers of [`vectors`], and the stream-cipher checks (random cases
//! against a reference keystream, in place and out of place, the end of
//! the keystream, round trips between rungs).
//!
//! The vector files are the library's own `tests/data/`, built in with
//! `include_str!`, so the kit runs from the binary alone.

pub use crate::harness::{
    BLOCK_EDGES, CHECKS, Check, ChosenRungs, DEFAULT_SEED, Outcome, Report, Rng, Row, Seeds, Tally,
    Totals, others, vectors,
};

use crate::ladder::{Kind, Ladder};
use crate::ladders;

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

    #[test]
    fn an_unknown_ladder_is_named_with_those_there_are() {
        let mut unknown = Report::new(DEFAULT_SEED);
        let err = check_ladder("no-such-ladder", &mut unknown).unwrap_err();
        assert!(err.contains("salsa20"), "{err}");
    }
}
