//! The AES-GCM and AES-GCM-SIV figures as tables of ratios: the same
//! contenders and conventions as `benches/gcm.rs` (keyed once, a new nonce
//! per message, no associated data, out of place, calls chained, checked
//! against RustCrypto first), timed so that a machine shared with other
//! jobs still gives repeatable figures.
//!
//! The harness is `src/table.rs` (shared with `benches/messages.rs`):
//! each contender runs in bursts of about 512 KiB, a round keeps its
//! fastest burst, the contenders take turns burst by burst; the rounds
//! (five unless `GCM_TABLE_ROUNDS` says) give the spread. Each row: GB/s,
//! the median of the rounds (min–max), and simdcrypt ÷ the best peer
//! (`simdcrypt-vaes` is not a peer) per round, median (min–max).
//!
//! ```sh
//! taskset -c 1 cargo bench -p simdcrypt-bench --bench gcm_table [-- aes128gcm-seal …]
//! ```
//!
//! Arguments are substrings of the table names (`aes128gcm-seal`,
//! `aes256gcmsiv-open` …): only the tables that contain one run.

use simdcrypt_bench::SIZES;
use simdcrypt_bench::gcm::{check, gcm, gcm_siv, open_row, opening, seal_row, sealing};
use simdcrypt_bench::table::{Args, BURST_BYTES, BURSTS, Unit, cpu_name, table};

fn main() {
    let args = Args::new("GCM_TABLE_ROUNDS", 5);
    println!(
        "{}; {} rounds of the fastest of {BURSTS} bursts of about {} KiB; GB/s",
        cpu_name(),
        args.rounds,
        BURST_BYTES >> 10
    );
    let key: [u8; 32] = std::array::from_fn(|i| 0x80 + i as u8);
    for (group, list) in [
        ("aes128gcm", gcm(&key[..16])),
        ("aes256gcm", gcm(&key)),
        ("aes128gcmsiv", gcm_siv(&key[..16])),
        ("aes256gcmsiv", gcm_siv(&key)),
    ] {
        let (seal, open) = (format!("{group}-seal"), format!("{group}-open"));
        if !args.wanted(&seal) && !args.wanted(&open) {
            continue;
        }
        check(group, &list);
        if args.wanted(&seal) {
            let rows: Vec<_> = SIZES.iter().map(|&(l, len)| seal_row(l, len)).collect();
            table(
                &seal,
                &mut sealing(&list),
                &rows,
                Unit::GbPerSecond,
                args.rounds,
            );
        }
        if args.wanted(&open) {
            let rows: Vec<_> = SIZES
                .iter()
                .map(|&(l, len)| open_row(&list[0], l, len))
                .collect();
            table(
                &open,
                &mut opening(&list),
                &rows,
                Unit::GbPerSecond,
                args.rounds,
            );
        }
    }
}
