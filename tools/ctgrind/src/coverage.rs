//! What a part ran, what memcheck said of each piece, and what failed;
//! and the secrets it runs on.

use std::collections::{BTreeMap, BTreeSet};

use simdcrypt::ct;

/// The seed of every random input (keys, messages, nonces).
pub const SEED: u64 = 0x27c7_6721;

/// The lengths every primitive runs over: empty, around a 16-byte block,
/// around a 64-byte block, and past the widest batches (16 blocks of 64
/// bytes, 128 of 8, 32 of 16) with a ragged end.
pub const LENGTHS: &[usize] = &[0, 1, 15, 16, 17, 63, 64, 65, 255, 520, 1100, 2100];

/// A copy of `bytes` marked undefined.
pub fn poisoned(bytes: &[u8]) -> Vec<u8> {
    let mut copy = bytes.to_vec();
    ct::poison(&mut copy[..]);
    copy
}

/// A copy of `bytes` marked defined: an output read back to be compared
/// with what it should be (the harness's one declassification point, at
/// the end of each computation).
pub fn public(bytes: &[u8]) -> Vec<u8> {
    let mut copy = bytes.to_vec();
    ct::declassify_bytes(&mut copy);
    copy
}

/// What a part covered and found.
#[derive(Default)]
pub struct Coverage {
    /// The rungs run, by ladder and rung, with the primitives run on each.
    pub rungs: BTreeMap<(&'static str, &'static str), BTreeSet<&'static str>>,
    /// The primitives run, by name.
    pub primitives: BTreeSet<&'static str>,
    /// The pieces memcheck flagged, with the number of errors.
    pub flagged: Vec<(String, usize)>,
    /// Outputs that differ, calls that failed, rungs left unchecked.
    pub failures: Vec<String>,
    /// How many pieces ran.
    pub pieces: usize,
    /// Whether to keep quiet about flagged pieces (the variable-time
    /// part, where every piece is expected to be flagged).
    pub quiet: bool,
}

impl Coverage {
    /// Runs `piece`, named `what`, noting the memcheck errors it caused
    /// and its failure.
    pub fn piece(&mut self, what: &str, piece: impl FnOnce() -> Result<(), String>) {
        let before = ct::error_count();
        let outcome = piece();
        let errors = ct::error_count() - before;
        self.pieces += 1;
        if errors > 0 {
            if !self.quiet {
                println!("  memcheck flagged {what}: {errors} error(s)");
            }
            self.flagged.push((what.to_owned(), errors));
        }
        if let Err(why) = outcome {
            self.failures.push(format!("{what}: {why}"));
        }
    }

    /// Notes that `primitive` ran on `rung` of `ladder`.
    pub fn ran(&mut self, ladder: &'static str, rung: &'static str, primitive: &'static str) {
        self.rungs
            .entry((ladder, rung))
            .or_default()
            .insert(primitive);
        self.primitives.insert(primitive);
    }
}

/// `Err` naming `what` when `got` is not `want`.
pub fn same(what: &str, got: &[u8], want: &[u8]) -> Result<(), String> {
    if got == want {
        Ok(())
    } else {
        Err(format!(
            "{what} differs from the default rung's on defined inputs"
        ))
    }
}
