//! Poly1305: every rung on the RFC 8439 vectors; against the RFC's own
//! bignum arithmetic (`poly1305::reference::mac`) on every length up to
//! 1100 bytes cut into random `update` and `update_padded` calls, on call
//! patterns across the scalar/vector switch point, on keys, messages and
//! accumulators at their extremes, and on 64 KiB in chunks; and tags made
//! on one rung verified on every other (also with the rung switched
//! mid-message).

use crate::harness::Call;
use crate::harness::data::{Data, data};
use crate::harness::vectors::{hex_array, hex_field, label, records};
use crate::harness::{BLOCK_EDGES, Check, Outcome, Report, Rng, Tally, others};
use crate::poly1305::{self, Rung, Poly1305, TAG_LEN, reference};

/// Every message length up to this is cross-checked, once per rung.
const MAX_CROSS_LEN: usize = 1100;
/// Long messages (2–6 KiB) per rung: many full groups of the vector rungs.
/// (The reference's bignum, the oracle, is most of the run time.)
const LONG_CASES: u64 = 8;
/// Round trips per other rung and direction.
const ROUND_TRIPS: u64 = 6;

/// The one row per rung.
pub(crate) fn run(report: &mut Report) {
    let data = data();
    report.primitive("poly1305", |imp: Rung, seeds| {
        seeds.each(|check| match check {
            Check::Vectors => vectors(data, imp).vectors(),
            Check::CrossCheck => {
                let mut t = cross_check(imp, &mut seeds.rng(1));
                switch_point_patterns(imp, &mut seeds.rng(3), &mut t);
                extremes(imp, &mut t);
                long_message_in_chunks(imp, &mut seeds.rng(4), &mut t);
                Outcome::Ran(t)
            }
            Check::RoundTrip => round_trips(imp, &mut seeds.rng(2)),
        })
    });
}

/// A MAC of `key` on `imp`.
fn mac_on(imp: Rung, key: &[u8; 32]) -> Result<Poly1305, String> {
    Poly1305::new(key).with_rung(imp).map_err(|e| e.to_string())
}

/// The tag of the message `pieces` on `imp`, one `update` per piece.
fn tag_of(imp: Rung, key: &[u8; 32], pieces: &[&[u8]]) -> Result<[u8; TAG_LEN], String> {
    let mut mac = mac_on(imp, key)?;
    for piece in pieces {
        mac.update(piece);
    }
    Ok(mac.finalize())
}

/// The tag of `msg` fed as `calls` (lengths taken in turn, the rest in one
/// last `update`) on `imp`.
fn tag_of_calls(imp: Rung, key: &[u8; 32], msg: &[u8], calls: &[Call]) -> Result<[u8; 16], String> {
    let mut mac = mac_on(imp, key)?;
    let mut rest = msg;
    for &call in calls {
        let (piece, tail) = rest.split_at(call.len().min(rest.len()));
        match call {
            Call::Update(_) => mac.update(piece),
            Call::Padded(_) => mac.update_padded(piece),
        }
        rest = tail;
    }
    mac.update(rest);
    Ok(mac.finalize())
}

/// The message `calls` amount to: each `update_padded` zero-pads all that
/// came before it to a 16-byte boundary (RFC 8439 §2.8's pad16).
fn effective(msg: &[u8], calls: &[Call]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut rest = msg;
    for &call in calls {
        let (piece, tail) = rest.split_at(call.len().min(rest.len()));
        out.extend_from_slice(piece);
        if let Call::Padded(_) = call {
            out.resize(out.len().next_multiple_of(16), 0);
        }
        rest = tail;
    }
    out.extend_from_slice(rest);
    out
}

/// `msg` fed as `calls` on `imp` against the reference's tag of what the
/// calls amount to; `what` names the case in a failure.
fn check_calls(
    imp: Rung,
    (key, msg, calls): (&[u8; 32], &[u8], &[Call]),
    t: &mut Tally,
    what: impl FnOnce() -> String,
) {
    let want = reference::mac(key, &effective(msg, calls));
    t.check(tag_of_calls(imp, key, msg, calls) == Ok(want), || {
        format!("{}: {} bytes as {calls:?}", what(), msg.len())
    });
}

/// `message` fed as `calls` on every rung this CPU runs, against the
/// reference's tag of what the calls amount to.
pub(crate) fn mac_case(key: &[u8; 32], message: &[u8], calls: &[Call]) -> Tally {
    let mut t = Tally::default();
    for imp in Rung::available() {
        check_calls(imp, (key, message, calls), &mut t, || format!("rung {imp}"));
    }
    t
}

/// The RFC's tags (§2.5.2, A.3 #1–#11, and the §2.8.2 and A.5 AEAD inputs)
/// on `imp`: in one `update`, byte by byte, split in two at every point;
/// `verify` takes the tag and refuses every bit flip of it. On the
/// reference rung also `reference::mac` and `reference::clamp`, and on the
/// best rung `poly1305::mac`.
fn vectors(data: &Data, imp: Rung) -> Tally {
    let mut t = Tally::default();
    let rfc = &data.rfc8439;
    let macs = records(rfc, "poly1305")
        .iter()
        .map(|r| (r, "message"))
        .chain(
            records(rfc, "aead_chacha20_poly1305")
                .iter()
                .map(|r| (r, "poly1305_input")),
        );
    for (r, message) in macs {
        let key_field = if r["poly1305_key"].is_null() {
            "key"
        } else {
            "poly1305_key"
        };
        let fields = (
            hex_array::<32>(r, key_field),
            hex_field(r, message),
            hex_array::<TAG_LEN>(r, "tag"),
        );
        let (Some(key), Some(msg), Some(want)) = fields else {
            t.malformed(label(r));
            continue;
        };
        let name = label(r);
        let at = |t: &mut Tally, what: &str, ok: bool| t.check(ok, || format!("{name}: {what}"));
        at(&mut t, "one update", tag_of(imp, &key, &[&msg]) == Ok(want));
        let bytes: Vec<&[u8]> = msg.chunks(1).collect();
        at(
            &mut t,
            "byte by byte",
            tag_of(imp, &key, &bytes) == Ok(want),
        );
        let splits = (0..=msg.len()).all(|i| {
            let (a, b) = msg.split_at(i);
            tag_of(imp, &key, &[a, b]) == Ok(want)
        });
        at(&mut t, "split in two at every point", splits);
        let verify = |tag: &[u8; TAG_LEN]| {
            mac_on(imp, &key).and_then(|mut m| {
                m.update(&msg);
                m.verify(tag).map_err(|e| e.to_string())
            })
        };
        let flips_refused = (0..8 * TAG_LEN).all(|bit| {
            let mut bad = want;
            bad[bit / 8] ^= 1 << (bit % 8);
            verify(&bad).is_err()
        });
        at(
            &mut t,
            "verify takes the tag and refuses every bit flip of it",
            verify(&want).is_ok() && flips_refused,
        );
        if imp == Rung::best() {
            at(&mut t, "poly1305::mac", poly1305::mac(&key, &msg) == want);
        }
        if imp == Rung::Reference {
            at(&mut t, "reference::mac", reference::mac(&key, &msg) == want);
        }
    }
    if imp == Rung::Reference {
        for r in records(rfc, "poly1305") {
            let Some(want) = r["clamped_r_as_number_hex"].as_str() else {
                continue;
            };
            let key = hex_array::<32>(r, "key");
            let clamped = key.map(|k| {
                let mut r: [u8; 16] = std::array::from_fn(|i| k[i]);
                reference::clamp(&mut r);
                u128::from_le_bytes(r)
            });
            t.check(clamped == u128::from_str_radix(want, 16).ok(), || {
                format!("{}: clamp", label(r))
            });
        }
    }
    t
}

/// A random key; every eighth with the largest clamped `r` and `s`, the
/// message then all ones: the carries of every limb.
fn key_and_message(rng: &mut Rng, i: u64, len: usize) -> ([u8; 32], Vec<u8>) {
    if i % 8 == 7 {
        ([0xff; 32], vec![0xff; len])
    } else {
        (rng.array(), rng.bytes(len))
    }
}

/// Every length 0..=1100 and some long messages on `imp`, cut into random
/// pieces (one piece, pieces up to 40 bytes, up to 400 bytes, or random
/// `update` and `update_padded` calls), against `reference::mac`.
fn cross_check(imp: Rung, rng: &mut Rng) -> Tally {
    let mut t = Tally::default();
    let long: Vec<usize> = (0..LONG_CASES)
        .map(|_| 2048 + rng.index(4 * 1024))
        .collect();
    for (i, len) in (0..=MAX_CROSS_LEN).chain(long).enumerate() {
        let i = i as u64;
        let (key, msg, calls) = random_case(rng, i, len);
        check_calls(imp, (&key, &msg, &calls), &mut t, || format!("case {i}"));
    }
    t
}

/// Case `i` of `len` bytes: a key, a message and how it is fed (one call,
/// pieces up to 40 or 400 bytes, or random `update` and `update_padded`
/// calls).
fn random_case(rng: &mut Rng, i: u64, len: usize) -> ([u8; 32], Vec<u8>, Vec<Call>) {
    let (key, msg) = key_and_message(rng, i, len);
    let calls: Vec<Call> = match i % 4 {
        0 => Vec::new(),
        1 => pieces(rng, len, 40),
        2 => pieces(rng, len, 400),
        _ => (0..rng.index(8))
            .map(|_| {
                let n = match rng.index(4) {
                    0 => rng.index(40),
                    1 => 16 * rng.index(9),
                    _ => rng.index(len + 1),
                };
                if rng.below(2) == 0 {
                    Call::Update(n)
                } else {
                    Call::Padded(n)
                }
            })
            .collect(),
    };
    (key, msg, calls)
}

/// The ladder's fuzz case: a case of the cross-check the fuzzer's bytes
/// steer ([`Rng::from_bytes`]), on every rung ([`mac_case`]).
pub(crate) fn fuzz(input: &[u8]) -> Tally {
    let mut rng = Rng::from_bytes(input);
    let i = rng.below(8);
    let len = rng.length(&BLOCK_EDGES, 4 * 1024);
    let (key, msg, calls) = random_case(&mut rng, i, len);
    mac_case(&key, &msg, &calls)
}

/// `len` bytes cut at random points into `update` calls of at most
/// `max_piece` bytes.
fn pieces(rng: &mut Rng, len: usize, max_piece: usize) -> Vec<Call> {
    let mut calls = Vec::new();
    let mut left = len;
    while left > 0 {
        let n = rng.index(max_piece.min(left) + 1);
        calls.push(Call::Update(n));
        left -= n;
    }
    calls
}

/// The message length at which `imp` moves into its vector lanes; for a
/// scalar rung, the lowest of any rung's.
fn switch_point(imp: Rung) -> usize {
    let lowest = Rung::ALL
        .iter()
        .map(|i| i.min_vector_blocks())
        .filter(|&m| m < usize::MAX)
        .min()
        .unwrap_or(16);
    16 * match imp.min_vector_blocks() {
        usize::MAX => lowest,
        blocks => blocks,
    }
}

/// Call patterns that cross `imp`'s switch point both ways: short runs on
/// the scalar path, long ones into the lanes, short ones after (staying in
/// the lanes), partial blocks and pads in between; each with a few bytes
/// more in a last call.
fn switch_point_patterns(imp: Rung, rng: &mut Rng, t: &mut Tally) {
    use Call::{Padded, Update};
    let s = switch_point(imp);
    let patterns: Vec<Vec<Call>> = vec![
        vec![Update(s - 16), Update(s), Update(16)],
        vec![Update(5), Update(s + 11), Update(3)],
        vec![Padded(13), Padded(s * 2 + 1), Update(16)],
        vec![Update(s), Update(1), Update(s + 15)],
        vec![Update(16 * 7), Update(s * 3), Update(16 * 9)],
        vec![Update(s * 4), Padded(20), Update(64)],
        vec![Update(s + 8), Update(8), Update(s - 1)],
        vec![Padded(0), Update(s * 2), Padded(7), Update(16)],
        (0..40)
            .map(|i| Update([1, 17, s, 31, 16 * 8][i % 5]))
            .collect(),
        (0..40).map(|i| Padded([3, s + 5, 16][i % 3])).collect(),
    ];
    for (n, calls) in patterns.iter().enumerate() {
        for extra in [0, 1, 15, 16, 17, 100] {
            let len = calls.iter().map(|c| c.len()).sum::<usize>() + extra;
            let (key, msg) = (rng.array(), rng.bytes(len));
            check_calls(imp, (&key, &msg, calls), t, || {
                format!("switch-point pattern {n}, {extra} bytes more")
            });
        }
    }
}

/// Keys whose clamped `r` is all ones or zero and whose `s` is all ones or
/// zero, over messages of 0xff (the accumulator near its maximum before
/// every multiplication and the last reduction) and 0x00, at the edge
/// lengths, one-shot and split in half; then `r` = 1, so that the
/// accumulator is the plain sum of the blocks, with sums at p = 2^130 − 5
/// and just past it before the final reduction (RFC 8439 A.3 #6–#11 show
/// the cases), in short messages and long runs through the lanes.
fn extremes(imp: Rung, t: &mut Tally) {
    let keys = [(0x00, 0x00), (0x00, 0xff), (0xff, 0x00), (0xff, 0xff)].map(|(r, s)| {
        let mut k = [r; 32];
        k[16..].fill(s);
        k
    });
    let lengths = BLOCK_EDGES.iter().chain(&[16 * 64, 16 * 129, 4096 + 16]);
    for &len in lengths {
        for fill in [0x00, 0xff] {
            let msg = vec![fill; len];
            for key in &keys {
                for calls in [vec![], vec![Call::Update(len / 2)]] {
                    check_calls(imp, (key, &msg, &calls), t, || {
                        format!("key {:02x}…{:02x}, message of {fill:#04x}", key[0], key[31])
                    });
                }
            }
        }
    }
    let mut r1 = [0u8; 32];
    r1[0] = 1;
    // One full block m adds m + 2^128: with h = 2^128 + m and more blocks of
    // 0xff…ff the sum goes past 2^130.
    for first in [0xf9u8, 0xfa, 0xfb, 0xfc, 0xfd, 0xfe, 0xff] {
        for blocks in 1..=3 {
            let mut msg = vec![0xffu8; 16 * blocks];
            msg[0] = first;
            check_calls(imp, (&r1, &msg, &[]), t, || {
                format!("r = 1, {blocks} blocks of 0xff from {first:#04x}")
            });
        }
    }
    for len in [16 * 16, 16 * 17, 16 * 33 + 1, 16 * 64, 16 * 200 + 3] {
        for fill in [0xfbu8, 0xff] {
            check_calls(imp, (&r1, &vec![fill; len], &[]), t, || {
                format!("r = 1, message of {fill:#04x}")
            });
        }
    }
}

/// 64 KiB and a bit, whole and in chunks of sizes around the block and
/// the lanes, against one reference tag.
fn long_message_in_chunks(imp: Rung, rng: &mut Rng, t: &mut Tally) {
    let (key, msg) = (rng.array(), rng.bytes(64 * 1024 + 21));
    let want = reference::mac(&key, &msg);
    for chunk in [msg.len(), 4096, 4096 + 16, 1000, 129, 16, 15] {
        let pieces: Vec<&[u8]> = msg.chunks(chunk).collect();
        t.check(tag_of(imp, &key, &pieces) == Ok(want), || {
            format!("{} bytes in chunks of {chunk}", msg.len())
        });
    }
}

/// Tags made on `imp` verified on every other rung and the other way
/// round (a flipped bit refused); and the rung switched mid-message
/// (`with_rung` carries the absorbed data over), against `reference::mac`.
fn round_trips(imp: Rung, rng: &mut Rng) -> Outcome {
    let others = others(imp);
    if others.is_empty() {
        return Outcome::Skipped("no other rung available".to_owned());
    }
    let mut t = Tally::default();
    let mut i = 0;
    for other in others {
        for (a, b) in [(imp, other), (other, imp)] {
            for _ in 0..ROUND_TRIPS {
                let len = rng.index(2101);
                let (key, msg) = key_and_message(rng, i, len);
                let cut = rng.index(len + 1);
                let tag = tag_of(a, &key, &[&msg]);
                let verify = |tag: &[u8; TAG_LEN]| {
                    mac_on(b, &key).and_then(|mut m| {
                        m.update(&msg);
                        m.verify(tag).map_err(|e| e.to_string())
                    })
                };
                let flip = rng.index(8 * TAG_LEN);
                let ok = tag.is_ok_and(|tag| {
                    let mut bad = tag;
                    bad[flip / 8] ^= 1 << (flip % 8);
                    verify(&tag).is_ok() && verify(&bad).is_err()
                });
                t.check(ok, || {
                    format!("case {i}: {len} bytes tagged on {a}, verified on {b}")
                });
                let switched = mac_on(a, &key).and_then(|mut mac| {
                    mac.update(&msg[..cut]);
                    let mut mac = mac.with_rung(b).map_err(|e| e.to_string())?;
                    mac.update(&msg[cut..]);
                    Ok(mac.finalize())
                });
                t.check(switched == Ok(reference::mac(&key, &msg)), || {
                    format!("case {i}: {len} bytes, {cut} on {a}, the rest on {b}")
                });
                i += 1;
            }
        }
    }
    Outcome::Ran(t)
}
