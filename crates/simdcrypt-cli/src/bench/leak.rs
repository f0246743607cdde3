//! `simdcrypt bench --leak`: a statistical timing test in the style of
//! dudect (Reparaz, Balasch and Verbauwhede, "Dude, is my code constant
//! time?", DATE 2017). One call of the subject is timed again and again,
//! on one block, under one fixed key, its input either a fixed block or a
//! fresh random one (the class drawn at random before each call); Welch's
//! t statistic then compares the two classes' mean times, on all the
//! measurements and on those below several percentiles (cropping the
//! long tail that interrupts and the other tenant add). |t| above 4.5
//! counts as a leak.
//!
//! What it shows is what this CPU shows under this load: a rung that
//! leaks through the cache (AES's T-tables) may time alike while its
//! tables stay in L1, and a test that finds no leak proves nothing. The
//! figure is reported as measured; it is not a CI test.

use std::io::Write;

use simdcrypt::timer;

use super::{Op, Rung, Subject};
use crate::error::CliError;

/// |t| above this counts as a leak (dudect's threshold).
pub const THRESHOLD: f64 = 4.5;

/// Calls timed first, to find the percentiles the crops cut at.
const WARM_UP: usize = 10_000;

/// The crops: measurements below these percentiles of the warm-up's
/// times, and all of them.
const PERCENTILES: [f64; 6] = [0.5, 0.75, 0.9, 0.95, 0.99, 1.0];

/// Running mean and variance of one class (Welford).
#[derive(Clone, Copy, Default)]
struct Moments {
    n: f64,
    mean: f64,
    m2: f64,
}

impl Moments {
    fn push(&mut self, x: f64) {
        self.n += 1.0;
        let delta = x - self.mean;
        self.mean += delta / self.n;
        self.m2 += delta * (x - self.mean);
    }

    fn variance(&self) -> f64 {
        if self.n > 1.0 {
            self.m2 / (self.n - 1.0)
        } else {
            0.0
        }
    }
}

/// Welch's t of two classes; 0 while either is too small.
fn welch_t(a: &Moments, b: &Moments) -> f64 {
    if a.n < 2.0 || b.n < 2.0 {
        return 0.0;
    }
    let se = (a.variance() / a.n + b.variance() / b.n).sqrt();
    if se == 0.0 {
        0.0
    } else {
        (a.mean - b.mean) / se
    }
}

/// xorshift64*: the class coin and the random inputs (not secret, only
/// unpredictable to the code under test).
struct Xorshift(u64);

impl Xorshift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
}

/// One rung's result.
pub struct Leak {
    /// The rung.
    pub rung: Rung,
    /// Whether the library says it is constant-time.
    pub constant_time: bool,
    /// Measurements in the smaller class.
    pub per_class: u64,
    /// The largest |t| over the crops.
    pub max_t: f64,
    /// The crop it was found at (a percentile, 1.0 for all).
    pub at: f64,
}

/// Calls prepared and timed together: the inputs of both classes are
/// written, the same way, long before they are used, so that nothing
/// about their preparation (stores still in flight, a copy against a
/// fill) differs by class when the call is timed.
const BATCH: usize = 4096;

/// One batch: the class of each call (true: random) and its times.
fn batch(
    op: &mut Op,
    len: usize,
    rng: &mut Xorshift,
    times: &mut Vec<(bool, f64)>,
) -> Result<(), CliError> {
    let classes: Vec<bool> = (0..BATCH).map(|_| rng.next() & 1 == 1).collect();
    let mut inputs = vec![0u8; BATCH * len];
    for (input, &random) in inputs.chunks_mut(len).zip(&classes) {
        // The fixed input is all zeros: the same stores, with a zero word.
        for chunk in input.chunks_mut(8) {
            let word = if random { rng.next() } else { 0 }.to_le_bytes();
            chunk.copy_from_slice(&word[..chunk.len()]);
        }
    }
    let overhead = timer::overhead();
    times.clear();
    for (input, &random) in inputs.chunks_mut(len).zip(&classes) {
        let start = timer::now();
        op(input)?;
        let ticks = timer::now().saturating_sub(start).saturating_sub(overhead);
        times.push((random, ticks as f64));
    }
    Ok(())
}

/// Times `op` on `len`-byte inputs, about `per_class` times per class, and
/// returns the largest |t| and its crop.
fn measure(op: &mut Op, len: usize, per_class: u64) -> Result<(f64, f64), CliError> {
    let mut rng = Xorshift(0x9e37_79b9_7f4a_7c15);
    let mut times = Vec::with_capacity(BATCH);
    let mut warm = Vec::with_capacity(WARM_UP);
    while warm.len() < WARM_UP {
        batch(op, len, &mut rng, &mut times)?;
        warm.extend(times.iter().map(|&(_, t)| t));
    }
    warm.sort_by(f64::total_cmp);
    let cuts: Vec<f64> = PERCENTILES
        .iter()
        .map(|&p| {
            if p >= 1.0 {
                f64::INFINITY
            } else {
                warm[((warm.len() as f64 * p) as usize).min(warm.len() - 1)]
            }
        })
        .collect();
    let mut classes = vec![[Moments::default(); 2]; cuts.len()];
    let batches = (2 * per_class).div_ceil(BATCH as u64);
    for _ in 0..batches {
        batch(op, len, &mut rng, &mut times)?;
        for &(random, t) in &times {
            for (cut, class) in cuts.iter().zip(&mut classes) {
                if t <= *cut {
                    class[usize::from(random)].push(t);
                }
            }
        }
    }
    Ok(classes
        .iter()
        .zip(PERCENTILES)
        .map(|(c, p)| (welch_t(&c[0], &c[1]).abs(), p))
        .fold((0.0, 1.0), |best, x| if x.0 > best.0 { x } else { best }))
}

/// Runs the test on every rung of `rungs` this CPU runs.
///
/// # Errors
///
/// A rung that cannot be built; a call that fails.
pub fn run(subject: Subject, rungs: &[Rung], per_class: u64) -> Result<Vec<Leak>, CliError> {
    let len = subject.primitive.block_len;
    let constant_time: Vec<(&str, bool)> = subject
        .ladder
        .rungs()
        .into_iter()
        .map(|r| (r.name, r.constant_time))
        .collect();
    let mut out = Vec::new();
    for &rung in rungs.iter().filter(|r| r.available) {
        let mut op = subject.op(rung.name)?;
        let (max_t, at) = measure(&mut op, len, per_class)?;
        out.push(Leak {
            rung,
            constant_time: constant_time
                .iter()
                .find(|(n, _)| *n == rung.name)
                .is_none_or(|&(_, ct)| ct),
            per_class,
            max_t,
            at,
        });
    }
    Ok(out)
}

/// The report: one line per rung.
///
/// # Errors
///
/// Stdout closed.
pub fn print(out: &mut impl Write, subject: Subject, leaks: &[Leak]) -> Result<(), CliError> {
    let write = |e| CliError::Stdout(e);
    writeln!(
        out,
        "simdcrypt bench --leak: {}, one {}-byte input per call, fixed against random (Welch's t; |t| > {THRESHOLD} is a leak)",
        subject.name(),
        subject.primitive.block_len
    )
    .map_err(write)?;
    writeln!(
        out,
        "{:<16} {:>14} {:>12} {:>9} {:>6}  verdict",
        "rung", "constant-time", "per class", "max |t|", "crop"
    )
    .map_err(write)?;
    for l in leaks {
        let verdict = if l.max_t > THRESHOLD {
            "LEAK"
        } else {
            "no leak detected"
        };
        writeln!(
            out,
            "{:<16} {:>14} {:>12} {:>9.2} {:>5.0}%  {verdict}",
            l.rung.name,
            if l.constant_time { "claimed" } else { "no" },
            l.per_class,
            l.max_t,
            100.0 * l.at
        )
        .map_err(write)?;
    }
    Ok(())
}
