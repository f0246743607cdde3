//! Differential fuzzing: every Poly1305 rung against the reference reading
//! of RFC 8439 §2.5.1, at fuzzer-chosen keys (clamped `r` and `s` at the
//! extremes too), messages and splits of the incremental calls, with
//! `update_padded` between them.
#![no_main]

use libfuzzer_sys::fuzz_target;
use simdcrypt::poly1305::{Impl, Poly1305, reference};

fuzz_target!(|input: &[u8]| {
    if input.len() < 32 + 8 {
        return;
    }
    let (head, msg) = input.split_at(40);
    let mut key: [u8; 32] = head[..32].try_into().unwrap();
    // Steer some keys to r and s of all ones or zeros.
    match head[32] % 8 {
        0 => key[..16].fill(0xff),
        1 => key[16..].fill(0xff),
        2 => key[..16].fill(0),
        _ => {}
    }
    // Up to 7 calls: the length of each (scaled so that runs cross the
    // vector rungs' switch point) and whether it pads to 16 bytes.
    let calls: Vec<(usize, bool)> = head[33..40]
        .iter()
        .map(|&b| {
            (
                usize::from(b & 0x7f) * if b & 0x40 != 0 { 16 } else { 1 },
                b & 0x80 != 0,
            )
        })
        .collect();
    // The message the calls amount to: each padded call zero-pads all that
    // came before it to a 16-byte boundary (RFC 8439 §2.8's pad16).
    let mut effective = Vec::new();
    let mut rest = msg;
    for &(n, padded) in &calls {
        let (piece, tail) = rest.split_at(n.min(rest.len()));
        effective.extend_from_slice(piece);
        if padded {
            effective.resize(effective.len().next_multiple_of(16), 0);
        }
        rest = tail;
    }
    effective.extend_from_slice(rest);
    let want = reference::mac(&key, &effective);
    for imp in Impl::available() {
        let mut p = Poly1305::new(&key).with_impl(imp).unwrap();
        let mut rest = msg;
        for &(n, padded) in &calls {
            let (piece, tail) = rest.split_at(n.min(rest.len()));
            if padded {
                p.update_padded(piece);
            } else {
                p.update(piece);
            }
            rest = tail;
        }
        p.update(rest);
        assert_eq!(p.finalize(), want, "rung {imp}");
    }
});
