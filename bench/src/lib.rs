//! Shared code for simdcrypt's criterion benches: the peers simdcrypt is
//! measured against, the message sizes and the harness configuration, so
//! that every bench file compares the same way.

use std::time::Duration;

use criterion::Criterion;

pub mod peers;

/// The message sizes every bench runs, with ids that sort in size order.
pub const SIZES: [(&str, usize); 4] = [
    ("0064b", 64),
    ("01kib", 1 << 10),
    ("16kib", 16 << 10),
    ("01mib", 1 << 20),
];

/// The harness configuration: short enough that a whole bench file finishes
/// in a few minutes on a small machine. Criterion's command-line options
/// (`--measurement-time`, `--warm-up-time`, `--sample-size`) override it.
pub fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(30)
}

/// `len` bytes of a fixed, non-trivial pattern, for messages and checks.
pub fn pattern(len: usize) -> Vec<u8> {
    (0..len)
        .map(|i| (i.wrapping_mul(31) ^ (i >> 8)) as u8)
        .collect()
}
