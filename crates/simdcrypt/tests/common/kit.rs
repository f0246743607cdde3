//! The tests' side of the checking kit (`simdcrypt::kit`, what `simdcrypt
//! verify` runs): one check of one ladder through the kit, the rungs it
//! ran on and skipped in the log, every failure (rung, check, case) in the
//! panic message.

use simdcrypt::kit::{self, Check, Outcome, Report};

/// The check whose key ([`Check::key`]) is `key`: `vectors`,
/// `cross_check`, `round_trip`.
pub fn check(key: &str) -> Check {
    Check::ALL
        .into_iter()
        .find(|c| c.key() == key)
        .unwrap_or_else(|| panic!("no check {key:?}"))
}

/// The kit's `check` of the ladder named `ladder`, on the rungs whose names
/// `rungs` takes, with the kit's default seed (so `simdcrypt verify`
/// draws the same cases): every rung that ran it passed. The log lists the
/// rungs it ran on and those it skipped; with `require_every_rung`, a rung
/// skipped (this CPU lacks it, or no other rung to meet) fails the test.
pub fn passes(ladder: &str, check: Check, rungs: fn(&str) -> bool, require_every_rung: bool) {
    let mut report = Report::new(kit::DEFAULT_SEED)
        .only(&[check])
        .only_rungs(rungs);
    kit::check_ladder(ladder, &mut report).unwrap_or_else(|e| panic!("{e}"));
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
    eprintln!("{ladder} {check}: ran on {ran:?}; skipped {skipped:?}");
    let failures = report.failures();
    assert!(
        failures.is_empty(),
        "{ladder} {check}: {} failed (seed {}):\n{}",
        failures.len(),
        report.seed(),
        failures.join("\n")
    );
    assert!(
        !ran.is_empty() || !skipped.is_empty(),
        "{ladder}: no row has the {check} check"
    );
    assert!(
        !require_every_rung || skipped.is_empty(),
        "{ladder} {check}: rungs required but skipped: {skipped:?}"
    );
}

/// For each `module => "ladder": [checks]`, a module of tests named after
/// the checks (`vectors`, `cross_check`, `round_trip`), each [`passes`] on
/// the rungs `rungs` takes; and `LADDERS`, the ladders listed.
macro_rules! kit_tests {
    (
        rungs: $rungs:expr, require_every_rung: $require:expr;
        $($module:ident => $ladder:literal: [$($check:ident),+ $(,)?]),+ $(,)?
    ) => {
        /// The ladders these tests check.
        const LADDERS: &[&str] = &[$($ladder),+];
        $(
            mod $module {
                $(
                    #[test]
                    fn $check() {
                        let check = $crate::common::kit::check(stringify!($check));
                        $crate::common::kit::passes($ladder, check, $rungs, $require);
                    }
                )+
            }
        )+
    };
}
pub(crate) use kit_tests;
