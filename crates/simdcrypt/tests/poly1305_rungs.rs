//! Every Poly1305 rung against the reference reading of RFC 8439 §2.5.1:
//! every length to 1100 bytes, random splits of the incremental calls
//! (across the scalar/vector switch point both ways, with `update_padded`
//! in between), keys at the extremes, accumulators that reach p and beyond
//! just before the final reduction, long messages; the RustCrypto
//! `poly1305` crate as an independent peer; `verify`.

// The specifications' `reference` modules are `hazmat` items.
#![cfg(feature = "hazmat")]

mod common;

use common::{EDGE_LENGTHS, bytes};
use poly1305::universal_hash::KeyInit;
use proptest::prelude::*;
use simdcrypt::Error;
use simdcrypt::poly1305::{Impl, Poly1305, mac, reference};

/// The rungs this CPU runs, and in the log the ones a test exercised and
/// the ones it skipped (the CPU lacks them or `SIMDCRYPT_MAX_ISA` caps them).
fn rungs(test: &str) -> Vec<Impl> {
    common::rungs(test)
}

/// The rungs other than the reference, which the tests compare against it.
fn fast_rungs(test: &str) -> Vec<Impl> {
    rungs(test)
        .into_iter()
        .filter(|&i| i != Impl::Reference)
        .collect()
}

fn key(seed: u64) -> [u8; 32] {
    bytes(seed, 32).try_into().unwrap()
}

/// One call of the incremental API.
#[derive(Clone, Debug)]
enum Call {
    Update(usize),
    Padded(usize),
}

/// The tag of `msg` fed as `calls` (lengths taken in turn, the rest in one
/// last `update`) on `imp`.
fn incremental(imp: Impl, key: &[u8; 32], msg: &[u8], calls: &[Call]) -> [u8; 16] {
    let mut p = Poly1305::new(key).with_impl(imp).unwrap();
    let mut rest = msg;
    for call in calls {
        let (Call::Update(n) | Call::Padded(n)) = *call;
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
    for call in calls {
        let (Call::Update(n) | Call::Padded(n)) = *call;
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

fn rustcrypto(key: &[u8; 32], msg: &[u8]) -> [u8; 16] {
    poly1305::Poly1305::new(key.into())
        .compute_unpadded(msg)
        .into()
}

#[test]
fn every_length_to_1100_against_reference_and_rustcrypto() {
    let imps = fast_rungs("every_length_to_1100");
    for len in 0..=1100usize {
        let k = key(len as u64);
        let msg = bytes(1_000_000 + len as u64, len);
        let want = reference::mac(&k, &msg);
        assert_eq!(rustcrypto(&k, &msg), want, "RustCrypto, length {len}");
        for &imp in &imps {
            let got = incremental(imp, &k, &msg, &[]);
            assert_eq!(got, want, "rung {imp}, length {len}");
        }
    }
    // The reference rung through the incremental API, at the edges.
    for &len in EDGE_LENGTHS {
        let k = key(7 + len as u64);
        let msg = bytes(len as u64, len);
        let want = reference::mac(&k, &msg);
        let calls = [Call::Update(len / 3), Call::Update(1)];
        assert_eq!(
            incremental(Impl::Reference, &k, &msg, &calls),
            want,
            "length {len}"
        );
    }
}

/// Call patterns that cross the switch point both ways: short runs on the
/// scalar path, long ones into the lanes, short ones after (staying in the
/// lanes), partial blocks and pads in between.
#[test]
fn splits_across_the_switch_point() {
    let imps = fast_rungs("splits_across_the_switch_point");
    let switch = Impl::ALL
        .iter()
        .map(|i| i.min_vector_blocks())
        .filter(|&m| m < usize::MAX)
        .min()
        .unwrap_or(16)
        * 16;
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
                .map(|(Call::Update(n) | Call::Padded(n))| n)
                .sum::<usize>()
                + extra;
            let k = key(n as u64 * 31 + extra as u64);
            let msg = bytes(n as u64, total);
            let want = reference::mac(&k, &effective(&msg, calls));
            for &imp in &imps {
                let got = incremental(imp, &k, &msg, calls);
                assert_eq!(
                    got, want,
                    "rung {imp}, pattern {n} {calls:?}, extra {extra}"
                );
            }
        }
    }
}

/// Keys whose `r` is all ones after clamping or zero, and whose `s` is all
/// ones or zero, over messages of 0xff (the accumulator near its maximum
/// before every multiplication and the last reduction) and 0x00.
#[test]
fn keys_and_messages_at_the_extremes() {
    let imps = fast_rungs("keys_and_messages_at_the_extremes");
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
                for &imp in &imps {
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
/// A.3 #6–#11 show the cases; here every rung, across lengths, meets
/// h = p + small made on purpose. With r = 1 (clamping keeps it) the
/// accumulator is the plain sum of the blocks, so a block of 2^128 − 5 + 2^128
/// (0xfb ff … ff with the 0x01 bit) is p − 2^128 + 2^128 = p … and more.
#[test]
fn accumulator_at_p_before_the_last_reduction() {
    let imps = fast_rungs("accumulator_at_p_before_the_last_reduction");
    let mut k = [0u8; 32];
    k[0] = 1; // r = 1
    let block = |low: u8| {
        let mut b = [0xffu8; 16];
        b[0] = low;
        b
    };
    // One full block m adds m + 2^128; with h = 2^128 + m and two more
    // blocks of 0xff…ff the sum goes past 2^130.
    for first in [0xf9u8, 0xfa, 0xfb, 0xfc, 0xfd, 0xfe, 0xff] {
        for extra_blocks in 0..3 {
            let mut msg = Vec::new();
            msg.extend_from_slice(&block(first));
            for _ in 0..extra_blocks {
                msg.extend_from_slice(&[0xff; 16]);
            }
            let want = reference::mac(&k, &msg);
            for &imp in &imps {
                assert_eq!(incremental(imp, &k, &msg, &[]), want, "rung {imp}");
            }
        }
    }
    // r = 1 with long runs: the vector lanes' sums too.
    for len in [16 * 16, 16 * 17, 16 * 33 + 1, 16 * 64] {
        for fill in [0xfbu8, 0xff] {
            let msg = vec![fill; len];
            let want = reference::mac(&k, &msg);
            for &imp in &imps {
                assert_eq!(incremental(imp, &k, &msg, &[]), want, "rung {imp}, {len}");
            }
        }
    }
}

#[test]
fn long_messages_in_chunks() {
    let imps = fast_rungs("long_messages_in_chunks");
    let len = 64 * 1024 + 21;
    let msg = bytes(42, len);
    let k = key(42);
    let want = reference::mac(&k, &msg);
    assert_eq!(rustcrypto(&k, &msg), want);
    for &imp in &imps {
        for chunk in [len, 4096, 4096 + 16, 1000, 129, 16, 15] {
            let mut p = Poly1305::new(&k).with_impl(imp).unwrap();
            for piece in msg.chunks(chunk) {
                p.update(piece);
            }
            assert_eq!(p.finalize(), want, "rung {imp}, chunks of {chunk}");
        }
    }
    // A MiB one-shot against RustCrypto (the reference would take a while).
    let big = bytes(43, 1 << 20);
    for &imp in &imps {
        let mut p = Poly1305::new(&k).with_impl(imp).unwrap();
        p.update(&big);
        assert_eq!(p.finalize(), rustcrypto(&k, &big), "rung {imp}, 1 MiB");
    }
}

/// Changing rung in the middle of a message carries the state over.
#[test]
fn with_impl_mid_message() {
    let imps = rungs("with_impl_mid_message");
    let k = key(5);
    let msg = bytes(5, 1500);
    let want = reference::mac(&k, &msg);
    for &a in &imps {
        for &b in &imps {
            let mut p = Poly1305::new(&k).with_impl(a).unwrap();
            p.update(&msg[..700]);
            let mut p = p.with_impl(b).unwrap();
            assert_eq!(p.implementation(), b);
            p.update(&msg[700..]);
            assert_eq!(p.finalize(), want, "{a} then {b}");
        }
    }
}

#[test]
fn verify_accepts_the_tag_and_rejects_every_bit_flip() {
    for imp in rungs("verify_accepts_the_tag_and_rejects_every_bit_flip") {
        for len in [0, 15, 64, 300, 1025] {
            let k = key(len as u64 + 99);
            let msg = bytes(len as u64, len);
            let tag = mac(&k, &msg);
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
    assert_eq!(
        Error::AuthenticationFailed.to_string(),
        "authentication failed"
    );
}

/// A long run moves a vector rung's accumulator into its lanes (the
/// `Debug` form says so), and a short one does not.
#[test]
fn vector_rungs_switch_to_the_lanes() {
    for imp in rungs("vector_rungs_switch_to_the_lanes") {
        let vector = imp.min_vector_blocks() < usize::MAX;
        let mut p = Poly1305::new(&[1; 32]).with_impl(imp).unwrap();
        p.update(&[7; 64]);
        assert!(format!("{p:?}").contains("vector_lanes_in_use: false"));
        p.update(&vec![7; 16 * 64]);
        let lanes = format!("{p:?}").contains("vector_lanes_in_use: true");
        assert_eq!(lanes, vector, "rung {imp}: {p:?}");
    }
}

#[test]
fn unavailable_rungs_are_errors() {
    for imp in Impl::ALL.iter().filter(|i| !i.is_available()) {
        let err = Poly1305::new(&[0; 32]).with_impl(*imp).unwrap_err();
        assert!(matches!(err, Error::ImplUnavailable { .. }), "{err}");
    }
    assert_eq!(Impl::from_name("avx2").unwrap(), Impl::Avx2);
    assert!(Impl::from_name("avx3").is_err());
    assert!(Impl::best().is_available());
}

fn calls() -> impl Strategy<Value = Vec<Call>> {
    let len = prop_oneof![0usize..40, 200usize..700, Just(16), Just(128), Just(256)];
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

proptest! {
    #[test]
    fn random_splits_equal_the_reference(
        k in any::<[u8; 32]>(),
        msg in prop::collection::vec(any::<u8>(), 0..3000),
        calls in calls(),
    ) {
        let want = reference::mac(&k, &effective(&msg, &calls));
        for imp in Impl::available().filter(|&i| i != Impl::Reference) {
            prop_assert_eq!(incremental(imp, &k, &msg, &calls), want, "rung {}", imp);
        }
    }
}
