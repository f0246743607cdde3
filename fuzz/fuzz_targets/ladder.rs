//! Differential fuzzing of every ladder of the table: the fuzzer's bytes
//! make one case of a ladder's checks (`Ladder::fuzz`: the first byte picks
//! a primitive or mode, the rest steers every choice the checks' random
//! cases make), run on every rung or path this CPU runs against the
//! specification's own functions or the `reference` rung; a failure panics
//! with what differed.
//!
//! `SIMDCRYPT_FUZZ_LADDER=NAME` picks the ladder (as `simdcrypt info`
//! names it), so that each ladder can keep a corpus of its own (give its
//! directory: `cargo fuzz run ladder fuzz/corpus/ladder-NAME`); without it,
//! the input's first byte picks one. A ladder added to the table is fuzzed
//! here without a change.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use simdcrypt::ladder::Ladder;

/// The variable naming the ladder to fuzz.
const VAR: &str = "SIMDCRYPT_FUZZ_LADDER";

/// The ladder `SIMDCRYPT_FUZZ_LADDER` names, if it is set.
fn chosen() -> Option<&'static Ladder> {
    static CHOSEN: OnceLock<Option<&'static Ladder>> = OnceLock::new();
    *CHOSEN.get_or_init(|| {
        let name = std::env::var(VAR).ok()?;
        let ladders = simdcrypt::ladders();
        let found = ladders.iter().find(|l| l.name == name);
        if found.is_none() {
            let names: Vec<&str> = ladders.iter().map(|l| l.name).collect();
            panic!("{VAR}={name:?} names no ladder; the ladders: {}", names.join(", "));
        }
        found
    })
}

fuzz_target!(|input: &[u8]| {
    let (ladder, input) = match chosen() {
        Some(ladder) => (ladder, input),
        None => {
            let Some((&first, rest)) = input.split_first() else {
                return;
            };
            let ladders = simdcrypt::ladders();
            (&ladders[usize::from(first) % ladders.len()], rest)
        }
    };
    let tally = ladder.fuzz(input);
    assert!(
        tally.failures.is_empty(),
        "{}: {} of {} cases failed: {:#?}",
        ladder.name,
        tally.failed,
        tally.cases,
        tally.failures
    );
});
