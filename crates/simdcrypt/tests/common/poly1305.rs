//! The Poly1305 ladder's checks, each taking the rungs to check against the
//! reference reading of RFC 8439 §2.5.1 (and RustCrypto's `poly1305` as an
//! independent peer): the ordinary tests (`poly1305_rungs`,
//! `poly1305_vectors`) give them every rung this CPU runs, `avx512_emu` the
//! AVX-512 rung alone.

use super::{EDGE_LENGTHS, bytes, field, hex, hex_array, json, records};
use ::poly1305::universal_hash::KeyInit;
use proptest::prelude::*;
use simdcrypt::Error;
use simdcrypt::poly1305::{Impl, Poly1305, reference};

/// A key from a seed.
pub fn key(seed: u64) -> [u8; 32] {
    bytes(seed, 32).try_into().unwrap()
}

/// One call of the incremental API.
#[derive(Clone, Copy, Debug)]
pub enum Call {
    Update(usize),
    Padded(usize),
}

/// The tag of `msg` fed as `calls` (lengths taken in turn, the rest in one
/// last `update`) on `imp`.
pub fn incremental(imp: Impl, key: &[u8; 32], msg: &[u8], calls: &[Call]) -> [u8; 16] {
    let mut p = Poly1305::new(key).with_impl(imp).unwrap();
    let mut rest = msg;
    for &call in calls {
        let (Call::Update(n) | Call::Padded(n)) = call;
        let (piece, tail) = rest.split_at(n.min(rest.len()));
        match call {
            Call::Update(_) => p.update(piece),
            Call::Padded(_) => p.update_padded(piece),
        }
        rest = tail;
    }
    p.update(rest);
    p.finalize()
}

/// The message the calls amount to: each `update_padded` zero-pads all that
/// came before it to a 16-byte boundary (RFC 8439 §2.8's pad16).
fn effective(msg: &[u8], calls: &[Call]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut rest = msg;
    for &call in calls {
        let (Call::Update(n) | Call::Padded(n)) = call;
        let (piece, tail) = rest.split_at(n.min(rest.len()));
        out.extend_from_slice(piece);
        if let Call::Padded(_) = call {
            out.resize(out.len().next_multiple_of(16), 0);
        }
        rest = tail;
    }
    out.extend_from_slice(rest);
    out
}

/// RustCrypto's tag.
fn rustcrypto(key: &[u8; 32], msg: &[u8]) -> [u8; 16] {
    ::poly1305::Poly1305::new(key.into())
        .compute_unpadded(msg)
        .into()
}

/// RFC 8439 §2.5.2 and A.3 #1–#11 (the reduction edge cases): one-shot,
/// byte by byte, in every two-piece split, and through `verify`.
pub fn rfc8439_vectors(rungs: &[Impl]) {
    let v = json(include_str!("../data/rfc8439/rfc8439.json"));
    let vectors = records(&v, "poly1305");
    assert_eq!(vectors.len(), 12, "2.5.2 and A.3 #1–#11");
    for &imp in rungs {
        for r in vectors {
            let key: [u8; 32] = hex_array(field(r, "key"));
            let msg = hex(field(r, "message"));
            let want: [u8; 16] = hex_array(field(r, "tag"));
            let section = field(r, "section");
            assert_eq!(incremental(imp, &key, &msg, &[]), want, "{imp}: {section}");
            let mut p = Poly1305::new(&key).with_impl(imp).unwrap();
            msg.chunks(1).for_each(|b| p.update(b));
            assert_eq!(p.finalize(), want, "{imp}: {section}, bytewise");
            for split in 0..=msg.len() {
                assert_eq!(
                    incremental(imp, &key, &msg, &[Call::Update(split)]),
                    want,
                    "{imp}: {section}, split {split}"
                );
            }
            let mut p = Poly1305::new(&key).with_impl(imp).unwrap();
            p.update(&msg);
            assert_eq!(p.verify(&want), Ok(()), "{imp}: {section}, verify");
        }
    }
}

/// Every length to 1100 bytes (past the switch into the lanes) against the
/// reference, which RustCrypto's tags equal: one-shot and split at a third.
pub fn every_length_to_1100(rungs: &[Impl]) {
    for len in 0..=1100usize {
        let k = key(len as u64);
        let msg = bytes(1_000_000 + len as u64, len);
        let want = reference::mac(&k, &msg);
        assert_eq!(rustcrypto(&k, &msg), want, "RustCrypto, length {len}");
        for &imp in rungs {
            assert_eq!(incremental(imp, &k, &msg, &[]), want, "rung {imp}, {len}");
            let calls = [Call::Update(len / 3)];
            assert_eq!(
                incremental(imp, &k, &msg, &calls),
                want,
                "rung {imp}, {len}/3"
            );
        }
    }
}

/// Call patterns that cross the switch point both ways, `switch(imp)`
/// bytes for the rung `imp`: short runs on the scalar path, long ones into
/// the lanes, short ones after (staying in the lanes), partial blocks and
/// pads in between.
pub fn splits_across_the_switch_point(rungs: &[Impl], switch: fn(Impl) -> usize) {
    for &imp in rungs {
        let switch = switch(imp);
        let patterns: Vec<Vec<Call>> = vec![
            vec![
                Call::Update(switch - 16),
                Call::Update(switch),
                Call::Update(16),
            ],
            vec![Call::Update(5), Call::Update(switch + 11), Call::Update(3)],
            vec![
                Call::Padded(13),
                Call::Padded(switch * 2 + 1),
                Call::Update(16),
            ],
            vec![
                Call::Update(switch),
                Call::Update(1),
                Call::Update(switch + 15),
            ],
            vec![
                Call::Update(16 * 7),
                Call::Update(switch * 3),
                Call::Update(16 * 9),
            ],
            vec![Call::Update(switch * 4), Call::Padded(20), Call::Update(64)],
            vec![
                Call::Update(switch + 8),
                Call::Update(8),
                Call::Update(switch - 1),
            ],
            vec![
                Call::Padded(0),
                Call::Update(switch * 2),
                Call::Padded(7),
                Call::Update(16),
            ],
            (0..40)
                .map(|i| Call::Update([1, 17, switch, 31, 16 * 8][i % 5]))
                .collect(),
            (0..40)
                .map(|i| Call::Padded([3, switch + 5, 16][i % 3]))
                .collect(),
        ];
        for (n, calls) in patterns.iter().enumerate() {
            for extra in [0, 1, 15, 16, 17, 100] {
                let total = calls
                    .iter()
                    .map(|&(Call::Update(n) | Call::Padded(n))| n)
                    .sum::<usize>()
                    + extra;
                let k = key(n as u64 * 31 + extra as u64);
                let msg = bytes(n as u64, total);
                let want = reference::mac(&k, &effective(&msg, calls));
                assert_eq!(
                    incremental(imp, &k, &msg, calls),
                    want,
                    "rung {imp}, pattern {n} {calls:?}, extra {extra}"
                );
            }
        }
    }
}

/// Keys whose `r` is all ones after clamping or zero, and whose `s` is all
/// ones or zero, over messages of 0xff (the accumulator near its maximum
/// before every multiplication and the last reduction) and 0x00: one-shot
/// and split in half, and RustCrypto's tags the same.
pub fn keys_and_messages_at_the_extremes(rungs: &[Impl]) {
    let mut keys = Vec::new();
    for r in [0x00, 0xff] {
        for s in [0x00, 0xff] {
            let mut k = [r; 32];
            k[16..].fill(s);
            keys.push(k);
        }
    }
    for &len in EDGE_LENGTHS.iter().chain(&[16 * 64, 16 * 129, 4096 + 16]) {
        for fill in [0x00, 0xff] {
            let msg = vec![fill; len];
            for k in &keys {
                let want = reference::mac(k, &msg);
                assert_eq!(rustcrypto(k, &msg), want, "RustCrypto, length {len}");
                for &imp in rungs {
                    let calls = [Call::Update(len / 2)];
                    assert_eq!(incremental(imp, k, &msg, &[]), want, "rung {imp}, {len}");
                    assert_eq!(
                        incremental(imp, k, &msg, &calls),
                        want,
                        "rung {imp}, {len}/2"
                    );
                }
            }
        }
    }
}

/// Accumulators at or just above p before the final reduction: the RFC's
/// A.3 #6–#11 show the cases; here, across lengths, h = p + small made on
/// purpose. With r = 1 (clamping keeps it) the accumulator is the plain sum
/// of the blocks, so a block of 2^128 − 5 + 2^128 (0xfb ff … ff with the
/// 0x01 bit) is p − 2^128 + 2^128 = p … and more.
pub fn accumulator_at_p_before_the_last_reduction(rungs: &[Impl]) {
    let mut k = [0u8; 32];
    k[0] = 1; // r = 1
    // One full block m adds m + 2^128; with h = 2^128 + m and two more
    // blocks of 0xff…ff the sum goes past 2^130.
    for first in [0xf9u8, 0xfa, 0xfb, 0xfc, 0xfd, 0xfe, 0xff] {
        for extra_blocks in 0..3 {
            let mut msg = vec![0xffu8; 16 * (1 + extra_blocks)];
            msg[0] = first;
            let want = reference::mac(&k, &msg);
            for &imp in rungs {
                assert_eq!(incremental(imp, &k, &msg, &[]), want, "rung {imp}");
            }
        }
    }
    // r = 1 with long runs: the vector lanes' sums too.
    for len in [16 * 16, 16 * 17, 16 * 33 + 1, 16 * 64, 16 * 200 + 3] {
        for fill in [0xfbu8, 0xff] {
            let msg = vec![fill; len];
            let want = reference::mac(&k, &msg);
            for &imp in rungs {
                assert_eq!(incremental(imp, &k, &msg, &[]), want, "rung {imp}, {len}");
            }
        }
    }
}

/// 64 KiB in chunks against the reference (which RustCrypto's tag
/// equals), and 1 MiB one-shot against RustCrypto (the reference would
/// take a while).
pub fn long_messages_in_chunks(rungs: &[Impl]) {
    let len = 64 * 1024 + 21;
    let (msg, k) = (bytes(42, len), key(42));
    let want = reference::mac(&k, &msg);
    assert_eq!(rustcrypto(&k, &msg), want);
    let big = bytes(43, 1 << 20);
    let big_tag = rustcrypto(&k, &big);
    for &imp in rungs {
        for chunk in [len, 4096, 4096 + 16, 1000, 129, 16, 15] {
            let mut p = Poly1305::new(&k).with_impl(imp).unwrap();
            msg.chunks(chunk).for_each(|piece| p.update(piece));
            assert_eq!(p.finalize(), want, "rung {imp}, chunks of {chunk}");
        }
        assert_eq!(
            incremental(imp, &k, &big, &[]),
            big_tag,
            "rung {imp}, 1 MiB"
        );
    }
}

/// Changing rung in the middle of a `len`-byte message, from the first of
/// each pair to the second after `cuts` bytes, carries the state over.
pub fn rung_changes_mid_message(pairs: &[(Impl, Impl)], len: usize, cuts: &[usize]) {
    let k = key(5);
    let msg = bytes(5, len);
    let want = reference::mac(&k, &msg);
    for &(a, b) in pairs {
        for &cut in cuts {
            let mut p = Poly1305::new(&k).with_impl(a).unwrap();
            p.update(&msg[..cut]);
            let mut p = p.with_impl(b).unwrap();
            assert_eq!(p.implementation(), b);
            p.update(&msg[cut..]);
            assert_eq!(p.finalize(), want, "{a} then {b} at {cut}");
        }
    }
}

/// A long run moves a vector rung's accumulator into its lanes (the
/// `Debug` form says so), and a short one does not.
pub fn vector_rungs_switch_to_the_lanes(rungs: &[Impl]) {
    for &imp in rungs {
        let vector = imp.min_vector_blocks() < usize::MAX;
        let mut p = Poly1305::new(&[1; 32]).with_impl(imp).unwrap();
        p.update(&[7; 64]);
        assert!(
            format!("{p:?}").contains("vector_lanes_in_use: false"),
            "rung {imp}: {p:?}"
        );
        p.update(&[7; 16 * 64]);
        let lanes = format!("{p:?}").contains("vector_lanes_in_use: true");
        assert_eq!(lanes, vector, "rung {imp}: {p:?}");
    }
}

/// `verify` accepts the tag and rejects every bit flip of it.
pub fn verify_rejects_every_bit_flip(rungs: &[Impl]) {
    for &imp in rungs {
        for len in [0, 15, 64, 300, 1025] {
            let k = key(len as u64 + 99);
            let msg = bytes(len as u64, len);
            let tag = reference::mac(&k, &msg);
            let check = |t: &[u8; 16]| {
                let mut p = Poly1305::new(&k).with_impl(imp).unwrap();
                p.update(&msg);
                p.verify(t)
            };
            assert_eq!(check(&tag), Ok(()), "rung {imp}, length {len}");
            for bit in 0..128 {
                let mut bad = tag;
                bad[bit / 8] ^= 1 << (bit % 8);
                assert_eq!(check(&bad), Err(Error::AuthenticationFailed), "bit {bit}");
            }
        }
    }
}

/// Up to 8 calls, `update` or `update_padded`, of short, block-sized or
/// `long` lengths.
pub fn calls(long: std::ops::Range<usize>) -> impl Strategy<Value = Vec<Call>> {
    let len = prop_oneof![0usize..40, long, Just(16), Just(128), Just(256)];
    prop::collection::vec(
        (len, any::<bool>()).prop_map(|(n, padded)| {
            if padded {
                Call::Padded(n)
            } else {
                Call::Update(n)
            }
        }),
        0..8,
    )
}

/// `msg` fed as `calls` on each rung gives the reference's tag of what the
/// calls amount to.
pub fn random_splits_equal_the_reference(
    rungs: impl IntoIterator<Item = Impl>,
    k: &[u8; 32],
    msg: &[u8],
    calls: &[Call],
) -> Result<(), TestCaseError> {
    let want = reference::mac(k, &effective(msg, calls));
    for imp in rungs {
        prop_assert_eq!(incremental(imp, k, msg, calls), want, "rung {}", imp);
    }
    Ok(())
}
