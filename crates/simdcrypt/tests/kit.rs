//! Every ladder of the table through the checking kit (`simdcrypt::kit`,
//! the checks `simdcrypt verify` runs), on every rung this CPU runs: the
//! official vectors, the cross-check against the specification's own
//! functions on random inputs (every length to a bound, the edge lengths,
//! carries and the end of the keystream, in place and out of place), and
//! round trips between rungs; one test per check over every ladder of the
//! table (a new ladder is checked without a line here). A failure names
//! the ladder, the primitive, the rung, the check and the case; the cases
//! come from the kit's default seed, so `simdcrypt verify` draws the same.
//!
//! The other test files hold what the kit does not check: the API's
//! promises, errors, and independent peers (RustCrypto).

#![cfg(feature = "kit")]

mod common;

use simdcrypt::kit::Check;

/// Every ladder on the official vectors.
#[test]
fn vectors() {
    common::kit::every_ladder(Check::Vectors, |_| true, |_| true, false);
}

/// Every ladder against the specification's own functions.
#[test]
fn cross_check() {
    common::kit::every_ladder(Check::CrossCheck, |_| true, |_| true, false);
}

/// Every ladder in round trips between its rungs.
#[test]
fn round_trip() {
    common::kit::every_ladder(Check::RoundTrip, |_| true, |_| true, false);
}

/// Every ladder of the table has a differential fuzz case
/// (`Ladder::fuzz`, what the `ladder` fuzz target runs on the fuzzer's
/// bytes) that checks something and passes, whatever its first byte picks
/// (a primitive or mode of the ladder): a new ladder cannot go unfuzzed.
#[test]
fn every_ladder_has_a_fuzz_case_that_passes() {
    let body: Vec<u8> = (0..600u32).map(|i| (i * 37 % 251) as u8 ^ 0x5c).collect();
    for ladder in simdcrypt::ladders() {
        for pick in 0..12u8 {
            let input = [&[pick][..], &body].concat();
            let tally = ladder.fuzz(&input);
            assert!(
                tally.passed(),
                "{} (first byte {pick}): {} cases, {:#?}",
                ladder.name,
                tally.cases,
                tally.failures
            );
        }
        // An empty input makes a case too (the shortest): it must not panic.
        assert!(
            ladder.fuzz(&[]).failures.is_empty(),
            "{}: empty input",
            ladder.name
        );
    }
}
