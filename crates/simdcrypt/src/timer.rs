//! Timing for benchmarks: a serialised read of the time-stamp counter on
//! x86-64 (a monotonic nanosecond clock elsewhere), the overhead of an empty
//! timed region, and the counter's frequency measured against the system
//! clock.
//!
//! The TSC ticks at a constant rate on every CPU of the last fifteen years
//! (`constant_tsc`), whatever the core clock does under turbo or power
//! saving: its figures are *TSC ticks*, not core cycles. They equal cycles
//! only when the core runs at the TSC's nominal frequency.
//!
//! ```
//! use simdcrypt::timer;
//!
//! let overhead = timer::overhead();
//! let t0 = timer::now();
//! std::hint::black_box((0..1000u64).sum::<u64>());
//! let ticks = timer::now().saturating_sub(t0).saturating_sub(overhead);
//! let seconds = ticks as f64 / timer::frequency(std::time::Duration::from_millis(5));
//! assert!(seconds < 1.0);
//! ```

use std::time::{Duration, Instant};

/// What [`now`] counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Unit {
    /// Ticks of the x86-64 time-stamp counter (a constant rate, not core
    /// cycles).
    TscTicks,
    /// Nanoseconds of [`std::time::Instant`], where there is no TSC.
    Nanoseconds,
}

impl Unit {
    /// The unit for people: `TSC ticks` or `ns`.
    pub fn name(self) -> &'static str {
        match self {
            Unit::TscTicks => "TSC ticks",
            Unit::Nanoseconds => "ns",
        }
    }

    /// The unit as a prefix of machine-readable field names: `tsc_ticks` or
    /// `ns`.
    pub fn field(self) -> &'static str {
        match self {
            Unit::TscTicks => "tsc_ticks",
            Unit::Nanoseconds => "ns",
        }
    }
}

/// The unit of [`now`] on this target.
pub const UNIT: Unit = if cfg!(target_arch = "x86_64") {
    Unit::TscTicks
} else {
    Unit::Nanoseconds
};

/// The current time in [`UNIT`]s: on x86-64 the time-stamp counter, read
/// between two `lfence`s so that the read waits for every earlier
/// instruction and no later one starts before it (Intel SDM, `RDTSC`).
#[inline(always)]
pub fn now() -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::{_mm_lfence, _rdtsc};
        // SAFETY: `lfence` needs SSE2, part of the x86-64 baseline; `rdtsc`
        // only reads the time-stamp counter and touches no memory.
        unsafe {
            _mm_lfence();
            let t = _rdtsc();
            _mm_lfence();
            t
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
        let start = *START.get_or_init(Instant::now);
        u64::try_from(start.elapsed().as_nanos()).unwrap_or(u64::MAX)
    }
}

/// The [`UNIT`]s an empty timed region costs (`now(); now()`): the median of
/// a few thousand tries after a warm-up, to subtract from measurements.
pub fn overhead() -> u64 {
    const TRIES: usize = 4001;
    for _ in 0..100 {
        std::hint::black_box(now());
    }
    let mut samples: Vec<u64> = (0..TRIES)
        .map(|_| {
            let t0 = now();
            let t1 = now();
            t1.saturating_sub(t0)
        })
        .collect();
    samples.sort_unstable();
    samples[TRIES / 2]
}

/// [`UNIT`]s per second: on x86-64 the TSC frequency, found by counting ticks
/// while [`Instant`] runs for `over` (spinning, not sleeping, so that the two
/// clocks are read back to back); 10⁹ for nanoseconds.
pub fn frequency(over: Duration) -> f64 {
    if UNIT == Unit::Nanoseconds {
        return 1e9;
    }
    let start = Instant::now();
    let t0 = now();
    let mut elapsed = start.elapsed();
    let mut t1 = now();
    while elapsed < over {
        elapsed = start.elapsed();
        t1 = now();
    }
    let seconds = elapsed.as_secs_f64();
    if seconds > 0.0 {
        t1.saturating_sub(t0) as f64 / seconds
    } else {
        1e9
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clock_advances_and_the_frequency_is_plausible() {
        let t0 = now();
        std::thread::sleep(Duration::from_millis(2));
        assert!(now() > t0);
        let hz = frequency(Duration::from_millis(10));
        // Between 100 MHz and 10 GHz: a TSC, or the nanosecond clock.
        assert!((1e8..1e10).contains(&hz), "{hz}");
        assert!(overhead() < 100_000);
    }
}
