//! AES and its modes through the checking kit: every rung this CPU runs
//! on the official vectors, against the standards' modes written out over
//! the reference cipher, and in round trips with the other rungs.

#![cfg(feature = "kit")]

use simdcrypt::kit::{CHECKS, DEFAULT_SEED, Outcome, Report};

#[test]
fn every_aes_rung_passes_every_check() {
    let (ladder, _) = simdcrypt::ladder::find("aes-128").expect("AES is in the table");
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
    assert!(ran >= 12, "only {ran} checks ran");
}
