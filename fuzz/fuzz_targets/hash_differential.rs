//! Differential fuzzing: every rung of every hash against its family's
//! reference rung, at fuzzer-chosen messages and splits of the `update`
//! calls (each split as a whole digest, not a prefix of it); and every
//! multi-buffer rung against single-message digests of the pieces.
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
    match selector % 8 {
        0 => differential!(hash::Sha256, hash::sha256::Impl, msg, &cuts),
        1 => differential!(hash::Sha224, hash::sha256::Impl, msg, &cuts),
        2 => differential!(hash::Sha512, hash::sha512::Impl, msg, &cuts),
        3 => differential!(hash::Sha384, hash::sha512::Impl, msg, &cuts),
        4 => differential!(hash::Sha512_256, hash::sha512::Impl, msg, &cuts),
        5 => differential!(hash::Sha1, hash::sha1::Impl, msg, &cuts),
        6 => differential!(hash::Md5, hash::md5::Impl, msg, &cuts),
        _ => {
            // Multi-buffer: the messages are `msg` cut at the cuts, every
            // rung against one message at a time.
            let mut msgs = Vec::new();
            let mut rest = msg;
            for &cut in &cuts {
                let (piece, tail) = rest.split_at(cut.min(rest.len()));
                msgs.push(piece);
                rest = tail;
            }
            msgs.push(rest);
            let want256: Vec<_> = msgs.iter().map(|m| hash::Sha256::digest(m)).collect();
            let want5: Vec<_> = msgs.iter().map(|m| hash::Md5::digest(m)).collect();
            for imp in hash::many::Impl::available() {
                assert_eq!(
                    hash::many::sha256_many_with(imp, &msgs).unwrap(),
                    want256,
                    "{imp}"
                );
                assert_eq!(
                    hash::many::md5_many_with(imp, &msgs).unwrap(),
                    want5,
                    "{imp}"
                );
            }
        }
    }
});
