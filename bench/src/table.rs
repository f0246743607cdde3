//! Tables of per-message figures that a machine shared with other jobs
//! still repeats: the harness of `benches/messages.rs` and
//! `benches/gcm_table.rs`.
//!
//! Every contender is a [`Message`]: keyed once when it is made, outside
//! the timed loop; each call is one message, its nonce or IV made from the
//! message's number. The [`Timer`] chains the calls: each call's input
//! address depends on the last byte the call before wrote
//! (`input[usize::from(last) & mask..]`, `mask` a `black_box`ed zero), so
//! that no two messages overlap in the out-of-order core, and inputs and
//! outputs pass through `black_box`.
//!
//! A criterion sample lasts milliseconds, long enough that another job's
//! time slice on the same CPU lands in most samples; [`table`] runs each
//! contender in bursts of about [`BURST_BYTES`] (one to 8,192 calls, tens
//! of microseconds to a millisecond), and a round keeps a contender's
//! fastest burst (as Monocypher's speed tests keep the fastest of many
//! runs): the speed when nothing else ran. The contenders take turns burst
//! by burst, so that a slow stretch of the machine falls on all of them;
//! the rounds give the spread.

use std::hint::black_box;
use std::time::{Duration, Instant};

use crate::pattern;

/// Bursts per contender per round in a [`Row::bytes`] row; the round
/// keeps the fastest.
pub const BURSTS: usize = 24;
/// About this many bytes of message per burst in a [`Row::bytes`] row.
pub const BURST_BYTES: usize = 512 << 10;

/// What a contender does to one message: message number `i` (its nonce
/// or IV is made from `i`) from `input` into `output`.
pub trait Message {
    /// Processes message `i`.
    fn run(&mut self, i: u64, input: &[u8], output: &mut [u8]);
}

impl<F: FnMut(u64, &[u8], &mut [u8])> Message for F {
    fn run(&mut self, i: u64, input: &[u8], output: &mut [u8]) {
        self(i, input, output);
    }
}

/// One contender of a table: its name (simdcrypt's start with
/// `simdcrypt`, the rest are peers) and its keyed state.
pub struct Contender<'a> {
    /// Its name in the tables.
    pub name: &'static str,
    /// What it does to a message.
    pub message: Box<dyn Message + 'a>,
}

impl<'a> Contender<'a> {
    /// `message` named `name`.
    pub fn new(name: &'static str, message: impl Message + 'a) -> Self {
        Contender {
            name,
            message: Box::new(message),
        }
    }

    /// Whether it is a peer (its name does not start with `simdcrypt`).
    pub fn is_peer(&self) -> bool {
        !self.name.starts_with("simdcrypt")
    }
}

/// One row of a table: the messages and how they are timed.
pub struct Row {
    /// The row's label (`64 B`, `N = 2^14` …).
    pub label: String,
    /// The message length in bytes, for GB/s.
    pub len: usize,
    /// The inputs: message `i` reads input `i` modulo their number.
    pub inputs: Vec<Vec<u8>>,
    /// The output length.
    pub output_len: usize,
    /// Calls per burst.
    pub calls: u64,
    /// Bursts per contender per round.
    pub bursts: usize,
}

impl Row {
    /// Messages of `len` bytes of [`pattern`] into outputs of
    /// `output_len` bytes, in bursts of about [`BURST_BYTES`].
    pub fn bytes(label: &str, len: usize, output_len: usize) -> Row {
        Row {
            label: label.to_owned(),
            len,
            inputs: vec![pattern(len)],
            output_len,
            calls: (BURST_BYTES / len.max(1)).max(1) as u64,
            bursts: BURSTS,
        }
    }
}

/// One contender's output buffer for a row, allocated and touched once,
/// outside the timed calls, and the number of its next message.
pub struct Timer<'r> {
    row: &'r Row,
    output: Vec<u8>,
    next: u64,
}

impl<'r> Timer<'r> {
    /// A timer of `row`'s messages.
    pub fn new(row: &'r Row) -> Self {
        assert!(row.output_len > 0, "an output to chain the calls through");
        Timer {
            row,
            output: vec![0xff; row.output_len],
            next: 0,
        }
    }

    /// Times `calls` chained messages of `m`, each under the next number.
    pub fn time(&mut self, m: &mut dyn Message, calls: u64) -> Duration {
        let inputs = &self.row.inputs;
        let count = inputs.len() as u64;
        let mask = black_box(0usize);
        let mut last = 0u8;
        let start = Instant::now();
        for _ in 0..calls {
            let at = usize::from(last) & mask;
            let input = &inputs[(self.next % count) as usize];
            m.run(
                self.next,
                black_box(&input[at..]),
                black_box(&mut self.output),
            );
            self.next += 1;
            last = self.output[self.row.output_len - 1];
        }
        start.elapsed()
    }
}

/// The median and the range of `v`.
fn spread(v: &mut [f64]) -> (f64, f64, f64) {
    v.sort_by(f64::total_cmp);
    (v[v.len() / 2], v[0], v[v.len() - 1])
}

/// How [`table`] shows a contender's figure.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// Message bytes per second, 10^9.
    GbPerSecond,
    /// Time per message, in ns, µs or ms as the row's fastest figure
    /// needs (the unit follows the row's label).
    PerMessage,
}

/// The unit of a row whose fastest time per message is `seconds`: its
/// name and its seconds.
fn time_unit(seconds: f64) -> (&'static str, f64) {
    match seconds {
        s if s < 1e-6 => ("ns", 1e-9),
        s if s < 1e-3 => ("µs", 1e-6),
        _ => ("ms", 1e-3),
    }
}

/// `v` to three significant digits (more left of the point).
fn digits(v: f64) -> String {
    match v {
        v if v < 10.0 => format!("{v:.2}"),
        v if v < 100.0 => format!("{v:.1}"),
        v => format!("{v:.0}"),
    }
}

/// Whether [`table`] also prints each round's figures as tab-separated
/// `raw` lines (`TABLE_RAW=1`), for `bench/both-builds.sh`.
fn raw() -> bool {
    std::env::var_os("TABLE_RAW").is_some_and(|v| v == "1")
}

/// Prints the table `title`: `list` at every row, `rounds` rounds; per
/// row each contender's median (min–max) and simdcrypt ÷ the best peer
/// (the fastest peer of each round; above 1 simdcrypt is ahead), median
/// (min–max), naming the peer of the lowest median. A table of peers
/// alone (no contender named `simdcrypt`) has no ratio column.
pub fn table(title: &str, list: &mut [Contender], rows: &[Row], unit: Unit, rounds: usize) {
    let ours = list.iter().position(|c| c.name == "simdcrypt");
    assert!(list.iter().any(Contender::is_peer), "{title}: no peer");
    let names: Vec<&str> = list.iter().map(|c| c.name).collect();
    let (ratio_head, ratio_rule) = match ours {
        Some(_) => (" simdcrypt ÷ best peer |", "---|"),
        None => ("", ""),
    };
    println!(
        "\n| {title} | {} |{ratio_head} best peer |",
        names.join(" | ")
    );
    println!("|---|{}{ratio_rule}---|", "---|".repeat(list.len()));
    for row in rows {
        let mut timers: Vec<_> = list.iter().map(|_| Timer::new(row)).collect();
        // Seconds per message of each contender's fastest burst, round by
        // round.
        let mut best: Vec<Vec<f64>> = Vec::new();
        for round in 0..rounds {
            let mut fastest = vec![Duration::MAX; list.len()];
            for burst in 0..=row.bursts {
                for ((c, timer), fastest) in list.iter_mut().zip(&mut timers).zip(&mut fastest) {
                    // One call untimed first (unless a call is a burst):
                    // the contender's buffers back in cache after the
                    // others' bursts.
                    if row.calls > 1 {
                        timer.time(&mut *c.message, 1);
                    }
                    let t = timer.time(&mut *c.message, row.calls);
                    // The first burst of a round warms up.
                    if burst > 0 {
                        *fastest = (*fastest).min(t);
                    }
                }
            }
            let per_message: Vec<f64> = fastest
                .iter()
                .map(|t| t.as_secs_f64() / row.calls as f64)
                .collect();
            if raw() {
                for (name, s) in names.iter().zip(&per_message) {
                    println!("raw\t{title}\t{}\t{name}\t{round}\t{s:e}", row.label);
                }
            }
            best.push(per_message);
        }
        let fastest = best.iter().flatten().copied().fold(f64::MAX, f64::min);
        let (name, seconds) = time_unit(fastest);
        let mut line = match unit {
            Unit::PerMessage => format!("| {}, {name} |", row.label),
            Unit::GbPerSecond => format!("| {} |", row.label),
        };
        let mut medians = Vec::new();
        for i in 0..list.len() {
            let mut v: Vec<f64> = best.iter().map(|r| r[i]).collect();
            let (med, lo, hi) = spread(&mut v);
            medians.push(med);
            let show = |s: f64| match unit {
                Unit::PerMessage => digits(s / seconds),
                Unit::GbPerSecond => format!("{:.2}", row.len as f64 / s / 1e9),
            };
            line += &match unit {
                Unit::PerMessage => format!(" {} ({}–{}) |", show(med), show(lo), show(hi)),
                Unit::GbPerSecond => format!(" {} ({}–{}) |", show(med), show(hi), show(lo)),
            };
        }
        let peers: Vec<usize> = (0..list.len()).filter(|&i| list[i].is_peer()).collect();
        if let Some(ours) = ours {
            let mut ratios: Vec<f64> = best
                .iter()
                .map(|r| peers.iter().map(|&p| r[p]).fold(f64::MAX, f64::min) / r[ours])
                .collect();
            let (med, lo, hi) = spread(&mut ratios);
            line += &format!(" **{med:.2}** ({lo:.2}–{hi:.2}) |");
        }
        let fastest_peer = peers
            .iter()
            .copied()
            .min_by(|&a, &b| medians[a].total_cmp(&medians[b]))
            .expect("a peer");
        line += &format!(" {} |", list[fastest_peer].name);
        println!("{line}");
    }
}

/// Panics unless every contender writes what `reference` writes, for two
/// messages in a row (numbers 7 and 8, so that state left by one message
/// shows in the next), at each of `lengths`; `input(len)` makes the
/// message and `output_len(len)` says its output's length.
pub fn check(
    group: &str,
    reference: &mut Contender,
    list: &mut [Contender],
    lengths: &[usize],
    output_len: impl Fn(usize) -> usize,
) {
    for &len in lengths {
        let input = pattern(len);
        let mut want = [vec![0; output_len(len)], vec![0; output_len(len)]];
        for (i, want) in (7..).zip(&mut want) {
            reference.message.run(i, &input, want);
        }
        for c in list.iter_mut() {
            for (i, want) in (7..).zip(&want) {
                let mut got = vec![0xff; want.len()];
                c.message.run(i, &input, &mut got);
                assert!(
                    &got == want,
                    "{group}: {} differs from {} at {len} bytes, message {i}",
                    c.name,
                    reference.name
                );
            }
        }
    }
    let names: Vec<_> = list.iter().map(|c| c.name).collect();
    eprintln!(
        "{group}: {} agree with {}",
        names.join(", "),
        reference.name
    );
}

/// The CPU's name and family/model, from `/proc/cpuinfo` where there is one.
pub fn cpu_name() -> String {
    let info = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let field = |key: &str| {
        info.lines()
            .find(|l| l.split(':').next().is_some_and(|k| k.trim() == key))
            .and_then(|l| l.split_once(':'))
            .map_or("?", |(_, v)| v.trim())
            .to_owned()
    };
    format!(
        "{} (family {}, model {})",
        field("model name"),
        field("cpu family"),
        field("model")
    )
}

/// A table bench's command line and environment: the filters (arguments
/// not starting with `--`, substrings of table names) and the rounds
/// (`rounds_var`, else `default_rounds`).
pub struct Args {
    filters: Vec<String>,
    /// Rounds per row.
    pub rounds: usize,
}

impl Args {
    /// Reads the arguments and `rounds_var`.
    pub fn new(rounds_var: &str, default_rounds: usize) -> Args {
        Args {
            filters: std::env::args()
                .skip(1)
                .filter(|a| !a.starts_with("--"))
                .collect(),
            rounds: std::env::var(rounds_var)
                .ok()
                .and_then(|r| r.parse().ok())
                .filter(|&r| r > 0)
                .unwrap_or(default_rounds),
        }
    }

    /// Whether the table `name` runs: no filters, or one is in its name.
    pub fn wanted(&self, name: &str) -> bool {
        self.filters.is_empty() || self.filters.iter().any(|f| name.contains(f.as_str()))
    }
}
