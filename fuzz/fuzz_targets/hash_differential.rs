//! Differential fuzzing: every rung of every hash against its family's
//! reference rung, at fuzzer-chosen messages and splits of the `update`
//! calls (each split as a whole digest, not a prefix of it).
#![no_main]

use libfuzzer_sys::fuzz_target;
use simdcrypt::hash;

/// Checks every rung of `$Hash` (rungs `$Impl`, the reference first)
/// against the reference on `msg` fed as `cuts`.
macro_rules! differential {
    ($Hash:ty, $Impl:ty, $msg:expr, $cuts:expr) => {{
        let digest = |imp: $Impl| {
            let mut h = <$Hash>::new().with_impl(imp).unwrap();
            let mut rest: &[u8] = $msg;
            for &cut in $cuts {
                let (piece, tail) = rest.split_at(cut.min(rest.len()));
                h.update(piece);
                rest = tail;
            }
            h.update(rest);
            h.finalize()
        };
        let want = <$Hash>::new()
            .with_impl(<$Impl>::ALL[0])
            .map(|mut h| {
                h.update($msg);
                h.finalize()
            })
            .unwrap();
        for imp in <$Impl>::available() {
            assert_eq!(digest(imp), want, "{} on {imp}", stringify!($Hash));
        }
    }};
}

fuzz_target!(|input: &[u8]| {
    let Some((&selector, rest)) = input.split_first() else {
        return;
    };
    if rest.len() < 4 {
        return;
    }
    let (head, msg) = rest.split_at(4);
    // Four calls, of up to 255 bytes or (high bit) up to 255 blocks.
    let cuts: Vec<usize> = head
        .iter()
        .map(|&b| usize::from(b & 0x7f) * if b & 0x80 != 0 { 64 } else { 1 })
        .collect();
    match selector % 2 {
        0 => differential!(hash::Sha256, hash::sha256::Impl, msg, &cuts),
        _ => differential!(hash::Sha224, hash::sha256::Impl, msg, &cuts),
    }
});
