//! Poly1305: every rung on the RFC 8439 vectors, against the RFC's own
//! bignum arithmetic (`poly1305::reference::mac`) on every length up to
//! 1100 bytes cut into random `update` calls, and tags made on one rung
//! verified on every other (also with the rung switched mid-message).

use crate::kit::data::{Data, data};
use crate::kit::vectors::{hex_array, hex_field, label, records};
use crate::kit::{Outcome, Report, Rng, Tally, others};
use crate::poly1305::{self, Impl, Poly1305, TAG_LEN, reference};

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
    report.primitive("poly1305", |imp: Impl, streams| {
        [
            vectors(data, imp).vectors(),
            Outcome::Ran(cross_check(imp, &mut streams.rng(1))),
            round_trips(imp, &mut streams.rng(2)),
        ]
    });
}

/// A MAC of `key` on `imp`.
fn mac_on(imp: Impl, key: &[u8; 32]) -> Result<Poly1305, String> {
    Poly1305::new(key).with_impl(imp).map_err(|e| e.to_string())
}

/// The tag of the message `pieces` on `imp`, one `update` per piece.
fn tag_of(imp: Impl, key: &[u8; 32], pieces: &[&[u8]]) -> Result<[u8; TAG_LEN], String> {
    let mut mac = mac_on(imp, key)?;
    for piece in pieces {
        mac.update(piece);
    }
    Ok(mac.finalize())
}

/// The RFC's tags (§2.5.2, A.3 #1–#11, and the §2.8.2 and A.5 AEAD inputs)
/// on `imp`: in one `update`, byte by byte, split in two at every point;
/// `verify` takes the tag and refuses it with a bit flipped. On the
/// reference rung also `reference::mac` and `reference::clamp`, and on the
/// best rung `poly1305::mac`.
fn vectors(data: &Data, imp: Impl) -> Tally {
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
        let mut bad = want;
        bad[msg.len() % TAG_LEN] ^= 1 << (msg.len() % 8);
        at(
            &mut t,
            "verify",
            verify(&want).is_ok() && verify(&bad).is_err(),
        );
        if imp == Impl::best() {
            at(&mut t, "poly1305::mac", poly1305::mac(&key, &msg) == want);
        }
        if imp == Impl::Reference {
            at(&mut t, "reference::mac", reference::mac(&key, &msg) == want);
        }
    }
    if imp == Impl::Reference {
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
/// pieces (one piece, pieces up to 40 bytes, up to 400 bytes, or the first
/// piece closed with `update_padded`), against `reference::mac`.
fn cross_check(imp: Impl, rng: &mut Rng) -> Tally {
    let mut t = Tally::default();
    let long: Vec<usize> = (0..LONG_CASES)
        .map(|_| 2048 + rng.index(4 * 1024))
        .collect();
    for (i, len) in (0..=MAX_CROSS_LEN).chain(long).enumerate() {
        let i = i as u64;
        let (key, msg) = key_and_message(rng, i, len);
        let (pieces, padded): (Vec<&[u8]>, Option<usize>) = match i % 4 {
            0 => (vec![&msg[..]], None),
            1 => (rng.pieces(&msg, 40), None),
            2 => (rng.pieces(&msg, 400), None),
            _ => {
                let cut = rng.index(len + 1);
                (vec![&msg[..cut], &msg[cut..]], Some(cut))
            }
        };
        let got = mac_on(imp, &key).map(|mut mac| {
            for (j, piece) in pieces.iter().enumerate() {
                if j == 0 && padded.is_some() {
                    mac.update_padded(piece);
                } else {
                    mac.update(piece);
                }
            }
            mac.finalize()
        });
        let want = match padded {
            Some(cut) => {
                let mut m = msg[..cut].to_vec();
                m.resize(cut.next_multiple_of(16), 0);
                m.extend_from_slice(&msg[cut..]);
                reference::mac(&key, &m)
            }
            None => reference::mac(&key, &msg),
        };
        t.check(got == Ok(want), || {
            let how = match padded {
                Some(cut) => format!("update_padded of the first {cut} bytes, then the rest"),
                None => format!("{} update calls", pieces.len()),
            };
            format!("case {i}: {len} bytes, {how}")
        });
    }
    t
}

/// Tags made on `imp` verified on every other rung and the other way
/// round (a flipped bit refused); and the rung switched mid-message
/// (`with_impl` carries the absorbed data over), against `reference::mac`.
fn round_trips(imp: Impl, rng: &mut Rng) -> Outcome {
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
                    let mut mac = mac.with_impl(b).map_err(|e| e.to_string())?;
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
