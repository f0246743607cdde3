//! `simdcrypt bench`: TSC ticks per byte and GB/s of every rung of a cipher,
//! of Poly1305, of an AEAD's seal or of a hash at several message sizes, and
//! for the ciphers the time of one block.
//!
//! Method: a warm-up, then many timed repetitions (as many as fit in about
//! 0.2 s per cell, or `--reps`); each repetition times a few calls between two
//! serialised TSC reads, minus the measured cost of an empty timed region.
//! The minimum and the median per call are reported; GB/s comes from the
//! median and the TSC frequency measured against the system clock.

use std::hint::black_box;
use std::io::Write;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use simdcrypt::aead::{ChaCha20Poly1305, XChaCha20Poly1305, XSalsa20Poly1305};
use simdcrypt::poly1305::{self, Poly1305};
use simdcrypt::timer::{self, UNIT, Unit};
use simdcrypt::{Error, aead};
use zeroize::Zeroizing;

use crate::cipher::{Algo, Cipher};
use crate::cli::BenchArgs;
use crate::error::CliError;
use crate::hash;
use crate::key::Key;

/// Message sizes when `--size` is not given.
const DEFAULT_SIZES: [u64; 5] = [64, 1024, 8192, 16384, 1 << 20];
/// Time spent measuring one cell when `--reps` is not given.
const CELL_TIME: Duration = Duration::from_millis(200);
/// Time spent warming up before each cell.
const WARM_UP: Duration = Duration::from_millis(20);
/// Bytes processed per repetition, at least: short messages are timed a
/// few calls at a time so that one repetition is well above the clock's
/// resolution.
const BYTES_PER_REP: u64 = 4096;

/// Minimum and median of one measurement, in ticks per call.
#[derive(Clone, Copy, Debug)]
struct Stats {
    min: f64,
    median: f64,
    reps: usize,
}

/// What is measured: a cipher, Poly1305, an AEAD's seal, or a hash.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Subject {
    Stream(Algo),
    Poly1305,
    Aead(AeadAlgo),
    Hash(hash::Algo),
}

/// The AEADs, sealed in place with a detached tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum AeadAlgo {
    ChaCha20Poly1305,
    XChaCha20Poly1305,
    XSalsa20Poly1305,
}

/// Every name `--algo` takes: the ciphers, Poly1305, the AEADs and the
/// hashes.
const ALGO_NAMES: &str = "salsa20, salsa20/12, salsa20/8, xsalsa20, chacha20, chacha20-legacy, \
    xchacha20, poly1305, chacha20-poly1305, xchacha20-poly1305, xsalsa20-poly1305, \
    sha256, sha224, sha512, sha384, sha512-256, sha1, md5";

/// The associated data of an AEAD seal: a TLS 1.2 record header's length.
const AAD: [u8; 13] = [0x17; 13];

/// The operation timed: one whole call on a message in place.
type Op = Box<dyn FnMut(&mut [u8]) -> Result<(), Error>>;

/// One implementation of the subject: a rung, or for the AEADs the
/// library's default composition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Rung {
    name: &'static str,
    needs: &'static str,
    available: bool,
    /// Blocks a stream cipher's rung computes at once; 0 for MACs and AEADs.
    par_blocks: usize,
}

impl Subject {
    fn from_name(name: &str) -> Result<Subject, CliError> {
        Ok(match name {
            "poly1305" => Subject::Poly1305,
            "chacha20-poly1305" => Subject::Aead(AeadAlgo::ChaCha20Poly1305),
            "xchacha20-poly1305" => Subject::Aead(AeadAlgo::XChaCha20Poly1305),
            "xsalsa20-poly1305" => Subject::Aead(AeadAlgo::XSalsa20Poly1305),
            _ if hash::NAMES.contains(&name) => Subject::Hash(hash::Algo::from_name(name)?),
            _ => Subject::Stream(Algo::from_name("--algo", name).map_err(|_| {
                CliError::UnknownCipher {
                    flag: "--algo",
                    name: name.to_owned(),
                    expected: ALGO_NAMES,
                }
            })?),
        })
    }

    fn name(self) -> &'static str {
        match self {
            Subject::Stream(a) => a.name(),
            Subject::Poly1305 => "poly1305",
            Subject::Aead(AeadAlgo::ChaCha20Poly1305) => "chacha20-poly1305",
            Subject::Aead(AeadAlgo::XChaCha20Poly1305) => "xchacha20-poly1305",
            Subject::Aead(AeadAlgo::XSalsa20Poly1305) => "xsalsa20-poly1305",
            Subject::Hash(a) => a.name(),
        }
    }

    /// What the header says is measured.
    fn describe(self) -> String {
        match self {
            Subject::Stream(a) => format!("{} ({} double-rounds)", a.name(), a.double_rounds()),
            Subject::Poly1305 => "poly1305 (one-shot MAC from a fresh key)".to_owned(),
            Subject::Hash(a) => format!("{} (one-shot digest)", a.name()),
            Subject::Aead(AeadAlgo::XSalsa20Poly1305) => {
                "xsalsa20-poly1305 (seal in place, detached tag, from a fresh key)".to_owned()
            }
            Subject::Aead(_) => format!(
                "{} (seal in place with {} bytes of associated data, detached tag, from a fresh key)",
                self.name(),
                AAD.len()
            ),
        }
    }

    /// Every implementation, slowest first.
    fn rungs(self) -> Vec<Rung> {
        match self {
            Subject::Stream(a) => a
                .family()
                .rungs()
                .into_iter()
                .map(|r| Rung {
                    name: r.name(),
                    needs: r.needs(),
                    available: r.is_available(),
                    par_blocks: r.par_blocks(),
                })
                .collect(),
            Subject::Poly1305 => poly1305::Impl::ALL
                .iter()
                .map(|i| Rung {
                    name: i.name(),
                    needs: i.needs(),
                    available: i.is_available(),
                    par_blocks: 0,
                })
                .collect(),
            Subject::Aead(_) => vec![Rung {
                name: "default",
                needs: "nothing",
                available: true,
                par_blocks: 0,
            }],
            Subject::Hash(a) => a
                .rungs()
                .into_iter()
                .map(|(name, needs, available)| Rung {
                    name,
                    needs,
                    available,
                    par_blocks: 0,
                })
                .collect(),
        }
    }

    /// The operation on `rung`, keyed with fixed bytes.
    fn op(self, rung: &str) -> Result<Op, CliError> {
        const KEY: [u8; 32] = [0x42; 32];
        Ok(match self {
            Subject::Stream(algo) => {
                let key = Key::K256(Zeroizing::new(KEY));
                let nonce = vec![0x24; algo.nonce_len()];
                let mut cipher = Cipher::new(algo, &key, &nonce)?.with_impl(rung)?;
                Box::new(move |buf| {
                    cipher.seek(0)?;
                    cipher.apply_keystream(buf)
                })
            }
            Subject::Poly1305 => {
                let imp = poly1305::Impl::from_name(rung)?.require()?;
                Box::new(move |buf| {
                    let mut mac = Poly1305::new(&KEY).with_impl(imp)?;
                    mac.update(buf);
                    black_box(mac.finalize());
                    Ok(())
                })
            }
            Subject::Hash(algo) => {
                let fresh = algo.with_impl(rung)?;
                Box::new(move |buf| {
                    let mut h = fresh.clone();
                    h.update(buf);
                    black_box(h.finalize());
                    Ok(())
                })
            }
            Subject::Aead(algo) => {
                const NONCE: [u8; aead::XNONCE_LEN] = [0x24; aead::XNONCE_LEN];
                let n12: &[u8; aead::NONCE_LEN] = NONCE[..12].try_into().expect("12 bytes");
                match algo {
                    AeadAlgo::ChaCha20Poly1305 => Box::new(move |buf| {
                        let tag = ChaCha20Poly1305::new(&KEY)
                            .try_encrypt_in_place_detached(n12, &AAD, buf)?;
                        black_box(tag);
                        Ok(())
                    }),
                    AeadAlgo::XChaCha20Poly1305 => Box::new(move |buf| {
                        let tag = XChaCha20Poly1305::new(&KEY)
                            .try_encrypt_in_place_detached(&NONCE, &AAD, buf)?;
                        black_box(tag);
                        Ok(())
                    }),
                    AeadAlgo::XSalsa20Poly1305 => Box::new(move |buf| {
                        let tag = XSalsa20Poly1305::new(&KEY).try_encrypt_in_place_detached(
                            &NONCE,
                            &[],
                            buf,
                        )?;
                        black_box(tag);
                        Ok(())
                    }),
                }
            }
        })
    }
}

/// One rung at one size.
struct Cell {
    imp: Rung,
    size: u64,
    stats: Stats,
}

/// One rung's time per 64-byte block.
struct PerBlock {
    imp: Rung,
    /// Blocks per timed call: 1 (a core call) or the rung's batch.
    batch: usize,
    /// Ticks per block.
    stats: Stats,
}

/// Runs the command.
///
/// # Errors
///
/// An unknown subject or rung, a rung this CPU lacks; stdout closed.
pub fn run(args: &BenchArgs) -> Result<(), CliError> {
    let subject = Subject::from_name(&args.algo)?;
    let all = subject.rungs();
    let rungs: Vec<Rung> = if args.imp == "all" {
        all
    } else {
        // The subject's own lookup gives the error that lists its rungs.
        drop(subject.op(&args.imp)?);
        all.into_iter().filter(|r| r.name == args.imp).collect()
    };
    let sizes = if args.size.is_empty() {
        DEFAULT_SIZES.to_vec()
    } else {
        args.size.clone()
    };
    let clock = Clock::calibrate();

    let mut cells = Vec::new();
    let mut per_block = Vec::new();
    let mut skipped = Vec::new();
    for &imp in &rungs {
        if !imp.available {
            skipped.push(imp);
            continue;
        }
        let mut op = subject.op(imp.name)?;
        for &size in &sizes {
            let stats = measure(&mut op, size, args.reps, &clock)?;
            cells.push(Cell { imp, size, stats });
        }
        if imp.par_blocks > 0 {
            per_block.push(measure_block(&mut op, imp, args.reps, &clock)?);
        }
    }

    let mut out = crate::io::stdout();
    if args.json {
        print_json(&mut out, subject, &clock, &cells, &per_block, &skipped)?;
    } else if args.csv {
        print_csv(&mut out, &clock, &cells, &per_block)?;
    } else {
        print_text(&mut out, subject, &clock, &cells, &per_block, &skipped)?;
    }
    out.flush()?;
    Ok(())
}

/// The timer's unit, frequency and overhead.
struct Clock {
    /// Ticks per second.
    hz: f64,
    /// Ticks of an empty timed region.
    overhead: u64,
}

impl Clock {
    fn calibrate() -> Clock {
        Clock {
            overhead: timer::overhead(),
            hz: timer::frequency(Duration::from_millis(100)),
        }
    }

    fn ns(&self, ticks: f64) -> f64 {
        ticks / self.hz * 1e9
    }

    fn gb_per_s(&self, bytes: u64, ticks: f64) -> f64 {
        if ticks <= 0.0 {
            return f64::INFINITY;
        }
        bytes as f64 / (ticks / self.hz) / 1e9
    }
}

/// Repeats `sample` (which returns the ticks of `calls` calls) after a
/// warm-up, `reps` times or for [`CELL_TIME`]; per-call statistics with
/// the overhead subtracted.
fn repeat(
    clock: &Clock,
    reps: Option<u64>,
    calls: u64,
    mut sample: impl FnMut() -> Result<u64, CliError>,
) -> Result<Stats, CliError> {
    let start = Instant::now();
    let mut warm = 0u32;
    while warm < 2 || start.elapsed() < WARM_UP {
        sample()?;
        warm += 1;
    }
    let per_sample = start.elapsed().as_secs_f64() / f64::from(warm);
    let reps = reps.unwrap_or_else(|| {
        let n = CELL_TIME.as_secs_f64() / per_sample.max(1e-9);
        (n as u64).clamp(5, 2_000_000)
    });
    let mut ticks: Vec<f64> = Vec::with_capacity(reps as usize);
    for _ in 0..reps {
        let t = sample()?.saturating_sub(clock.overhead);
        ticks.push(t as f64 / calls as f64);
    }
    ticks.sort_unstable_by(f64::total_cmp);
    Ok(Stats {
        min: ticks[0],
        median: ticks[ticks.len() / 2],
        reps: ticks.len(),
    })
}

/// `op` on `size` bytes, a few calls per repetition.
fn measure(op: &mut Op, size: u64, reps: Option<u64>, clock: &Clock) -> Result<Stats, CliError> {
    let mut buf = Vec::new();
    usize::try_from(size)
        .ok()
        .and_then(|len| buf.try_reserve_exact(len).ok())
        .ok_or(CliError::OutOfMemory {
            what: "a message of --size",
            bytes: size,
        })?;
    buf.resize(size as usize, 0);
    let calls = (BYTES_PER_REP / size).max(1);
    repeat(clock, reps, calls, || {
        let t0 = timer::now();
        for _ in 0..calls {
            op(black_box(&mut buf[..]))?;
        }
        let t1 = timer::now();
        black_box(&buf);
        Ok(t1.saturating_sub(t0))
    })
}

/// One batch of `par_blocks` 64-byte blocks through `op`: a single block
/// on the one-block rungs.
fn measure_block(
    op: &mut Op,
    imp: Rung,
    reps: Option<u64>,
    clock: &Clock,
) -> Result<PerBlock, CliError> {
    let batch = imp.par_blocks;
    let stats = measure(op, (batch * 64) as u64, reps, clock)?;
    let per = |t: f64| t / batch as f64;
    Ok(PerBlock {
        imp,
        batch,
        stats: Stats {
            min: per(stats.min),
            median: per(stats.median),
            reps: stats.reps,
        },
    })
}

fn size_label(size: u64) -> String {
    match size {
        s if s >= 1 << 20 && s % (1 << 20) == 0 => format!("{} MiB", s >> 20),
        s if s >= 1 << 10 && s % (1 << 10) == 0 => format!("{} KiB", s >> 10),
        s => format!("{s} B"),
    }
}

fn block_label(batch: usize) -> String {
    if batch == 1 {
        "ns per one-block call".to_owned()
    } else {
        format!("ns per block (one call of {batch})")
    }
}

fn print_text(
    out: &mut impl Write,
    subject: Subject,
    clock: &Clock,
    cells: &[Cell],
    per_block: &[PerBlock],
    skipped: &[Rung],
) -> std::io::Result<()> {
    let unit = UNIT.name();
    writeln!(out, "simdcrypt bench: {}, one thread", subject.describe())?;
    match UNIT {
        Unit::TscTicks => writeln!(
            out,
            "timer: TSC at {:.3} GHz (measured against the system clock); {} ticks of an\n\
             empty timed region subtracted. TSC ticks run at a constant rate: they are not\n\
             core cycles unless the core runs at the TSC frequency. GB/s from the median.",
            clock.hz / 1e9,
            clock.overhead
        )?,
        Unit::Nanoseconds => writeln!(
            out,
            "timer: no time-stamp counter on this target: a monotonic clock in ns; {} ns of\n\
             an empty timed region subtracted. GB/s from the median.",
            clock.overhead
        )?,
    }
    writeln!(out)?;
    let h1 = format!("{unit}/byte");
    writeln!(
        out,
        "{:<15} {:>8}  {:^21}  {:>8}  {:>8}",
        "rung", "size", h1, "GB/s", "reps"
    )?;
    writeln!(
        out,
        "{:<15} {:>8}  {:>10} {:>10}  {:>8}",
        "", "", "min", "median", "(median)"
    )?;
    let mut last = None;
    for c in cells {
        if last.is_some() && last != Some(c.imp) {
            writeln!(out)?;
        }
        last = Some(c.imp);
        let size = c.size as f64;
        writeln!(
            out,
            "{:<15} {:>8}  {:>10.2} {:>10.2}  {:>8.3}  {:>8}",
            c.imp.name,
            size_label(c.size),
            c.stats.min / size,
            c.stats.median / size,
            clock.gb_per_s(c.size, c.stats.median),
            c.stats.reps
        )?;
    }
    if !per_block.is_empty() {
        writeln!(out)?;
        writeln!(out, "one 64-byte block, key setup included:")?;
        writeln!(
            out,
            "{:<15} {:>10} {:>10}  what",
            "rung", "ns min", "ns median"
        )?;
    }
    for b in per_block {
        writeln!(
            out,
            "{:<15} {:>10.1} {:>10.1}  {}",
            b.imp.name,
            clock.ns(b.stats.min),
            clock.ns(b.stats.median),
            block_label(b.batch)
        )?;
    }
    for imp in skipped {
        writeln!(out, "{}: skipped (needs {})", imp.name, imp.needs)?;
    }
    Ok(())
}

fn print_csv(
    out: &mut impl Write,
    clock: &Clock,
    cells: &[Cell],
    per_block: &[PerBlock],
) -> std::io::Result<()> {
    let u = UNIT.field();
    writeln!(
        out,
        "impl,size_bytes,{u}_per_byte_min,{u}_per_byte_median,gb_per_s_median,reps,\
         ns_per_block_median,block_batch"
    )?;
    for c in cells {
        let block = per_block.iter().find(|b| b.imp == c.imp);
        let size = c.size as f64;
        writeln!(
            out,
            "{},{},{:.4},{:.4},{:.4},{},{},{}",
            c.imp.name,
            c.size,
            c.stats.min / size,
            c.stats.median / size,
            clock.gb_per_s(c.size, c.stats.median),
            c.stats.reps,
            block.map_or(String::new(), |b| format!(
                "{:.2}",
                clock.ns(b.stats.median)
            )),
            block.map_or(String::new(), |b| b.batch.to_string()),
        )?;
    }
    Ok(())
}

fn print_json(
    out: &mut impl Write,
    subject: Subject,
    clock: &Clock,
    cells: &[Cell],
    per_block: &[PerBlock],
    skipped: &[Rung],
) -> std::io::Result<()> {
    let u = UNIT.field();
    let results: Vec<Value> = cells
        .iter()
        .map(|c| {
            let size = c.size as f64;
            let mut v = json!({
                "impl": c.imp.name,
                "size_bytes": c.size,
                "gb_per_s_median": clock.gb_per_s(c.size, c.stats.median),
                "reps": c.stats.reps,
            });
            v[format!("{u}_per_byte_min")] = json!(c.stats.min / size);
            v[format!("{u}_per_byte_median")] = json!(c.stats.median / size);
            v
        })
        .collect();
    let blocks: Vec<Value> = per_block
        .iter()
        .map(|b| {
            json!({
                "impl": b.imp.name,
                "what": block_label(b.batch),
                "block_batch": b.batch,
                "ns_per_block_min": clock.ns(b.stats.min),
                "ns_per_block_median": clock.ns(b.stats.median),
                "reps": b.stats.reps,
            })
        })
        .collect();
    let skipped: Vec<Value> = skipped
        .iter()
        .map(|i| json!({ "impl": i.name, "needs": i.needs }))
        .collect();
    let mut timer = json!({ "unit": UNIT.name() });
    timer[format!("{u}_per_s")] = json!(clock.hz);
    timer[format!("overhead_{u}")] = json!(clock.overhead);
    let double_rounds = match subject {
        Subject::Stream(a) => json!(a.double_rounds()),
        _ => Value::Null,
    };
    let doc = json!({
        "algo": subject.name(),
        "what": subject.describe(),
        "double_rounds": double_rounds,
        "timer": timer,
        "results": results,
        "per_block": blocks,
        "skipped": skipped,
    });
    serde_json::to_writer_pretty(&mut *out, &doc)?;
    writeln!(out)
}
