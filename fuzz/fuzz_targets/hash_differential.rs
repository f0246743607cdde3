//! Differential fuzzing through the checking kit: every rung of every hash
//! of the table against its ladder's reference rung (`kit::cases::hash`),
//! at fuzzer-chosen messages and splits of the `update` calls; and every
//! multi-buffer rung against one message at a time (`kit::cases::many`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use simdcrypt::kit::cases;
use simdcrypt::ladder::{self, Kind};

fuzz_target!(|input: &[u8]| {
    let Some((&selector, rest)) = input.split_first() else {
        return;
    };
    if rest.len() < 4 {
        return;
    }
    let (head, msg) = rest.split_at(4);
    // Four calls, of up to 127 bytes or (high bit) up to 127 blocks.
    let pieces: Vec<usize> = head
        .iter()
        .map(|&b| usize::from(b & 0x7f) * if b & 0x80 != 0 { 64 } else { 1 })
        .collect();
    let hashes: Vec<&str> = ladder::primitives()
        .filter(|(_, p)| p.kind == Kind::Hash)
        .map(|(_, p)| p.name)
        .collect();
    let tally = match hashes.get(usize::from(selector) % (hashes.len() + 1)) {
        Some(name) => cases::hash(name, msg, &pieces).expect("a hash of the table"),
        None => {
            // Multi-buffer: the messages are `msg` cut into the pieces.
            let mut msgs = Vec::new();
            let mut rest = msg;
            for &n in &pieces {
                let (piece, tail) = rest.split_at(n.min(rest.len()));
                msgs.push(piece);
                rest = tail;
            }
            msgs.push(rest);
            cases::many(&msgs)
        }
    };
    assert!(tally.passed(), "{:#?}", tally.failures);
});
