//! The tests' side of the checking kit (`simdcrypt::kit`, what `simdcrypt
//! verify` runs): one check of every ladder of the table through the kit,
//! the rungs it ran on and skipped in the log, every failure (ladder, rung,
//! check, case) in the panic message.

use simdcrypt::kit::{self, Check, Outcome, Report};
use simdcrypt::ladder::Ladder;

/// The kit's `check` of every ladder `ladders` takes, each on its own
/// thread, on the rungs whose names `rungs` takes, with the kit's default
/// seed (so `simdcrypt verify` draws the same cases): every rung that ran
/// it passed, and every ladder has rows. The log lists, per ladder, the
/// rungs it ran on and those it skipped; with `require_every_rung`, a rung
/// skipped (this CPU lacks it, or no other rung to meet) fails the test.
/// The ladders come from the table: a new one is checked without a line
/// here.
pub fn every_ladder(
    check: Check,
    ladders: fn(&Ladder) -> bool,
    rungs: fn(&str) -> bool,
    require_every_rung: bool,
) {
    let chosen: Vec<&Ladder> = simdcrypt::ladders().iter().filter(|l| ladders(l)).collect();
    assert!(!chosen.is_empty(), "{check}: no ladder to check");
    let results: Vec<Result<String, String>> = std::thread::scope(|scope| {
        let workers: Vec<_> = chosen
            .iter()
            .map(|ladder| scope.spawn(move || one_ladder(ladder, check, rungs, require_every_rung)))
            .collect();
        workers
            .into_iter()
            .map(|w| {
                w.join()
                    .unwrap_or_else(|_| Err("the check panicked".to_owned()))
            })
            .collect()
    });
    let mut failures = Vec::new();
    for (ladder, result) in chosen.iter().zip(results) {
        match result {
            Ok(log) => eprintln!("{log}"),
            Err(failure) => failures.push(format!("{}: {failure}", ladder.name)),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The kit's `check` of `ladder`, as [`every_ladder`] runs it: the log of
/// what ran, or why it failed.
fn one_ladder(
    ladder: &Ladder,
    check: Check,
    rungs: fn(&str) -> bool,
    require_every_rung: bool,
) -> Result<String, String> {
    let mut report = Report::new(kit::DEFAULT_SEED)
        .only(&[check])
        .only_rungs(rungs);
    ladder.check(&mut report);
    let (mut ran, mut skipped) = (Vec::new(), Vec::new());
    for row in report.rows() {
        let at = |what: &str| format!("{} {} ({what})", row.primitive, row.rung);
        for (outcome, c) in row.checks.iter().zip(Check::ALL) {
            match outcome {
                _ if c != check => {}
                Outcome::Ran(t) => ran.push(at(&format!("{} cases", t.cases))),
                Outcome::Skipped(why) => skipped.push(at(why)),
                Outcome::NotApplicable(_) => {}
            }
        }
    }
    let failures = report.failures();
    if !failures.is_empty() {
        return Err(format!(
            "{check}: {} failed (seed {}):\n{}",
            failures.len(),
            report.seed(),
            failures.join("\n")
        ));
    }
    if report.rows().is_empty() {
        return Err(format!("{check}: no rows (no rung taken, or no checks)"));
    }
    if require_every_rung && !skipped.is_empty() {
        return Err(format!("{check}: rungs required but skipped: {skipped:?}"));
    }
    Ok(format!(
        "{} {check}: ran on {ran:?}; skipped {skipped:?}",
        ladder.name
    ))
}

/// [`every_ladder`]'s check of the one ladder named `name`.
pub fn passes(name: &str, check: Check, rungs: fn(&str) -> bool, require_every_rung: bool) {
    let ladder = simdcrypt::ladders()
        .iter()
        .find(|l| l.name == name)
        .unwrap_or_else(|| panic!("no ladder {name:?}"));
    match one_ladder(ladder, check, rungs, require_every_rung) {
        Ok(log) => eprintln!("{log}"),
        Err(failure) => panic!("{name}: {failure}"),
    }
}
