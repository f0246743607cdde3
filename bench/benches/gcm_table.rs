//! The AES-GCM and AES-GCM-SIV figures as tables of ratios: the same
//! contenders and conventions as `benches/gcm.rs` (keyed once, a new nonce
//! per message, no associated data, out of place, calls chained, checked
//! against RustCrypto first), timed so that a machine shared with other
//! jobs still gives repeatable figures.
//!
//! A criterion sample lasts milliseconds, long enough that another job's
//! time slice on the same CPU lands in most samples; here each contender
//! runs in bursts of about 512 KiB (one to 8,192 calls, tens of
//! microseconds to a millisecond), and a round keeps a contender's
//! fastest burst of [`BURSTS`] (as Monocypher's speed tests keep the
//! fastest of many runs): the speed when nothing else ran. The contenders
//! take turns burst by burst, so that a slow stretch of the machine falls
//! on all of them; the rounds (five unless `GCM_TABLE_ROUNDS` says) give
//! the spread. Each row: GB/s, the median of the rounds (min–max), and
//! the ratio to aws-lc-rs (to RustCrypto for AES-GCM-SIV) per round,
//! median (min–max).
//!
//! ```sh
//! taskset -c 1 cargo bench -p simdcrypt-bench --bench gcm_table [-- aes128gcm-seal …]
//! ```
//!
//! Arguments are substrings of the table names (`aes128gcm-seal`,
//! `aes256gcmsiv-open` …): only the tables that contain one run.

use std::time::Duration;

use simdcrypt_bench::SIZES;
use simdcrypt_bench::gcm::{Contender, Timer, check, gcm, gcm_siv};

/// Bursts per contender per round; the round keeps the fastest.
const BURSTS: usize = 24;
/// About this many bytes per burst.
const BURST_BYTES: usize = 512 << 10;

/// The CPU's name and family/model, from `/proc/cpuinfo` where there is one.
fn cpu_name() -> String {
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

/// The median and the range of `v`.
fn spread(v: &mut [f64]) -> (f64, f64, f64) {
    v.sort_by(f64::total_cmp);
    (v[v.len() / 2], v[0], v[v.len() - 1])
}

/// One table: `list` sealing (or opening) at every size, `rounds` rounds,
/// ratios to the contender named `against`.
fn table(name: &str, list: &[Contender], open: bool, against: &str, rounds: usize) {
    let base = list
        .iter()
        .position(|c| c.name == against)
        .expect("the contender the ratios are to");
    let names: Vec<&str> = list.iter().map(|c| c.name).collect();
    println!(
        "\n| {name} | {} | simdcrypt ÷ {against} |",
        names.join(" | ")
    );
    println!("|---|{}---|", "---|".repeat(list.len()));
    for &(label, len) in &SIZES {
        let calls = (BURST_BYTES / len).max(1) as u64;
        let mut timers: Vec<_> = list.iter().map(|c| Timer::new(c, len)).collect();
        // The fastest burst of each contender, round by round.
        let mut best: Vec<Vec<Duration>> = Vec::new();
        for _ in 0..rounds {
            let mut fastest = vec![Duration::MAX; list.len()];
            for burst in 0..=BURSTS {
                for ((c, timer), fastest) in list.iter().zip(&mut timers).zip(&mut fastest) {
                    // One call untimed first: the contender's buffers back
                    // in cache after the others' bursts.
                    let t = if open {
                        timer.open(c, 1);
                        timer.open(c, calls)
                    } else {
                        timer.seal(c, 1);
                        timer.seal(c, calls)
                    };
                    // The first burst of a round warms up.
                    if burst > 0 {
                        *fastest = (*fastest).min(t);
                    }
                }
            }
            best.push(fastest);
        }
        let gbs = |t: Duration| (len as u64 * calls) as f64 / t.as_secs_f64() / 1e9;
        let mut row = format!("| {label} |");
        for i in 0..list.len() {
            let (med, lo, hi) = spread(&mut best.iter().map(|r| gbs(r[i])).collect::<Vec<_>>());
            row += &format!(" {med:.2} ({lo:.2}–{hi:.2}) |");
        }
        let ours = names.iter().position(|&n| n == "simdcrypt").expect("ours");
        let mut ratios: Vec<f64> = best
            .iter()
            .map(|r| r[base].as_secs_f64() / r[ours].as_secs_f64())
            .collect();
        let (med, lo, hi) = spread(&mut ratios);
        row += &format!(" **{med:.2}** ({lo:.2}–{hi:.2}) |");
        println!("{row}");
    }
}

fn main() {
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let wanted =
        |name: &str| filters.is_empty() || filters.iter().any(|f| name.contains(f.as_str()));
    let rounds = std::env::var("GCM_TABLE_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .filter(|&r| r > 0)
        .unwrap_or(5);
    println!(
        "{}; {rounds} rounds of the fastest of {BURSTS} bursts of about {} KiB; GB/s",
        cpu_name(),
        BURST_BYTES >> 10
    );
    let key: [u8; 32] = std::array::from_fn(|i| 0x80 + i as u8);
    for (group, list, against) in [
        ("aes128gcm", gcm(&key[..16]), "aws-lc-rs"),
        ("aes256gcm", gcm(&key), "aws-lc-rs"),
        ("aes128gcmsiv", gcm_siv(&key[..16]), "rustcrypto"),
        ("aes256gcmsiv", gcm_siv(&key), "rustcrypto"),
    ] {
        let (seal, open) = (format!("{group}-seal"), format!("{group}-open"));
        if !wanted(&seal) && !wanted(&open) {
            continue;
        }
        check(group, &list);
        for (name, open) in [(seal, false), (open, true)] {
            if wanted(&name) {
                table(&name, &list, open, against, rounds);
            }
        }
    }
}
