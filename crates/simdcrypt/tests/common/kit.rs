//! Running one ladder's checks of the kit, as `simdcrypt verify` does,
//! and failing with every failed row.

use simdcrypt::kit::{CHECKS, DEFAULT_SEED, Outcome, Report};

/// Runs the checks of the ladder that holds the primitive `primitive`:
/// every failure listed, skipped checks printed, and at least `min_ran`
/// checks run.
pub fn every_check_passes(primitive: &str, min_ran: usize) {
    let (ladder, _) = simdcrypt::ladder::find(primitive).expect("the primitive is in the table");
    let mut report = Report::new(DEFAULT_SEED);
    ladder.check(&mut report);
    let mut failures = Vec::new();
    let mut ran = 0;
    for row in report.rows() {
        for (check, outcome) in CHECKS.iter().zip(&row.checks) {
            match outcome {
                Outcome::Ran(t) if t.passed() => ran += 1,
                Outcome::Ran(t) => failures.push(format!(
                    "{} on {}: {}: {} of {} failed: {:?}",
                    row.primitive, row.rung, check.name, t.failed, t.cases, t.failures
                )),
                Outcome::Skipped(why) => println!(
                    "{} on {}: {} skipped: {why}",
                    row.primitive, row.rung, check.name
                ),
                Outcome::NotApplicable(_) => {}
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(ran >= min_ran, "only {ran} checks ran");
}
