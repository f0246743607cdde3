//! GHASH and POLYVAL: every rung on RFC 8452's POLYVAL values (Appendix
//! A, the `dot` of §7, and the POLYVAL of every Appendix C record), and
//! on the GHASH of the GCM specification's 18 test cases and Wycheproof's
//! valid AES-GCM cases (the tag minus `E(K, J0)`, from the reference AES);
//! against the documents' own algorithms (`reference::ghash`,
//! `reference::polyval`) on random keys and messages cut into random
//! pieces; and the same message hashed on every other rung, also with the
//! rung switched mid-message.

use serde_json::Value;

use super::{Ghash, Rung, Polyval, reference};
use crate::aes::reference::{cipher, key_expansion};
use crate::harness::vectors::{hex_field, label, parse, records, wycheproof_tests};
use crate::harness::{BLOCK_EDGES, Outcome, Report, Rng, Tally, fuzz_rungs, others};

const RFC8452: &str = include_str!("../../tests/data/aes/rfc8452.json");
const GCM_SPEC: &str = include_str!("../../tests/data/aes/gcm_spec_test_cases.json");
const WYCHEPROOF_GCM: &str = include_str!("../../tests/data/wycheproof/aes_gcm_test.json");

/// Random cases per rung and hash.
const CASES: u64 = 200;
/// The longest random message.
const MAX_LEN: u64 = 1100;

/// The two hashes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Which {
    Ghash,
    Polyval,
}

impl Which {
    const BOTH: [Which; 2] = [Which::Ghash, Which::Polyval];

    fn name(self) -> &'static str {
        match self {
            Which::Ghash => "ghash",
            Which::Polyval => "polyval",
        }
    }

    /// The hash of `pieces` under `h` on `imp`, one `update` per piece,
    /// the rung switched to `then` after `switch_at` pieces.
    fn hash(
        self,
        imp: Rung,
        h: &[u8; 16],
        pieces: &[&[u8]],
        then: Option<(usize, Rung)>,
    ) -> Result<[u8; 16], String> {
        let e = |e: crate::Error| e.to_string();
        macro_rules! run {
            ($t:ident) => {{
                let mut hash = $t::new(h).with_rung(imp).map_err(e)?;
                for (i, piece) in pieces.iter().enumerate() {
                    if let Some((at, other)) = then
                        && at == i
                    {
                        hash = hash.with_rung(other).map_err(e)?;
                    }
                    hash.update(piece);
                }
                Ok(hash.finalize())
            }};
        }
        match self {
            Which::Ghash => run!(Ghash),
            Which::Polyval => run!(Polyval),
        }
    }

    /// The document's own function of `message` zero-padded to blocks.
    fn reference(self, h: &[u8; 16], message: &[u8]) -> [u8; 16] {
        let mut padded = message.to_vec();
        padded.resize(message.len().next_multiple_of(16), 0);
        match self {
            Which::Ghash => reference::ghash(h, &padded),
            Which::Polyval => reference::polyval(h, &padded),
        }
    }
}

/// The rows: each hash on each rung.
pub(crate) fn run(report: &mut Report) {
    let files = [parse(RFC8452), parse(GCM_SPEC), parse(WYCHEPROOF_GCM)];
    for which in Which::BOTH {
        report.primitive(which.name(), |imp: Rung, seeds| {
            [
                vectors(&files, which, imp).vectors(),
                Outcome::Ran(cross_check(which, imp, &mut seeds.rng(1))),
                round_trips(which, imp, &mut seeds.rng(2)),
            ]
        });
    }
}

/// A 16-byte field.
fn block(v: &Value, key: &str) -> Option<[u8; 16]> {
    hex_field(v, key).and_then(|b| b.try_into().ok())
}

/// `x` zero-padded to whole blocks.
fn pad(x: &[u8]) -> Vec<u8> {
    let mut p = x.to_vec();
    p.resize(x.len().next_multiple_of(16), 0);
    p
}

/// GCM's and GCM-SIV's hash input: the padded associated data, the padded
/// text, and the two lengths in bits, 64-bit big-endian (GCM) or
/// little-endian (GCM-SIV).
fn hash_input(aad: &[u8], text: &[u8], big_endian: bool) -> Vec<u8> {
    let (a, c) = ((aad.len() as u64) * 8, (text.len() as u64) * 8);
    let mut input = pad(aad);
    input.extend(pad(text));
    if big_endian {
        input.extend(a.to_be_bytes());
        input.extend(c.to_be_bytes());
    } else {
        input.extend(a.to_le_bytes());
        input.extend(c.to_le_bytes());
    }
    input
}

/// GHASH's value in a GCM case: `H = E(K, 0)`, and the tag minus
/// `E(K, J0)` for a 96-bit IV (`J0 = IV ‖ 0^31 ‖ 1`) or, for another
/// length, `J0 = GHASH_H(IV ‖ 0^(s+64) ‖ [len(IV)]_64)` — itself checked
/// first against the reference.
fn gcm_case(v: &Value, ct_key: &str) -> Option<GcmCase> {
    let key = hex_field(v, "key")?;
    let iv = hex_field(v, "iv")?;
    let aad = hex_field(v, "aad")?;
    let ct = hex_field(v, ct_key)?;
    let tag = block(v, "tag")?;
    if !matches!(key.len(), 16 | 24 | 32) || iv.is_empty() {
        return None;
    }
    let w = key_expansion(&key);
    let h = cipher(&[0; 16], &w);
    let j0 = if iv.len() == 12 {
        let mut j0 = [0u8; 16];
        j0[..12].copy_from_slice(&iv);
        j0[15] = 1;
        j0
    } else {
        let mut input = pad(&iv);
        input.extend([0u8; 8]);
        input.extend(((iv.len() as u64) * 8).to_be_bytes());
        reference::ghash(&h, &input)
    };
    let ek_j0 = cipher(&j0, &w);
    let want: [u8; 16] = std::array::from_fn(|i| tag[i] ^ ek_j0[i]);
    Some(GcmCase {
        h,
        input: hash_input(&aad, &ct, true),
        want,
        iv,
    })
}

/// What a GCM case gives GHASH: the key, the input, the hash, the IV.
struct GcmCase {
    h: [u8; 16],
    input: Vec<u8>,
    want: [u8; 16],
    iv: Vec<u8>,
}

/// The published values on `imp`: in one `update`, byte by byte, and
/// split in two at a random point.
fn vectors(files: &[Value; 3], which: Which, imp: Rung) -> Tally {
    let mut t = Tally::default();
    let [rfc, spec, wycheproof] = files;
    let mut rng = Rng::new(0x9a54);
    let mut check = |t: &mut Tally, name: String, h: &[u8; 16], input: &[u8], want: &[u8; 16]| {
        let cut = rng.index(input.len() + 1);
        let bytes: Vec<&[u8]> = input.chunks(1).collect();
        let ok = which.hash(imp, h, &[input], None) == Ok(*want)
            && which.hash(imp, h, &bytes, None) == Ok(*want)
            && which.hash(imp, h, &[&input[..cut], &input[cut..]], None) == Ok(*want);
        t.check(ok, || {
            format!("{name}: {} of {} bytes", which.name(), input.len())
        });
    };
    match which {
        Which::Polyval => {
            for r in records(rfc, "polyval") {
                let (Some(h), Some(x), Some(want)) =
                    (block(r, "h"), hex_field(r, "input"), block(r, "polyval"))
                else {
                    t.malformed(label(r));
                    continue;
                };
                check(&mut t, label(r), &h, &x, &want);
            }
            // dot(a, b) is POLYVAL(b, a) of one block.
            for r in records(rfc, "dot") {
                let (Some(a), Some(b), Some(want)) =
                    (block(r, "a"), block(r, "b"), block(r, "dot"))
                else {
                    t.malformed(label(r));
                    continue;
                };
                check(&mut t, label(r), &b, &a, &want);
            }
            for section in ["aes_128_gcm_siv", "aes_256_gcm_siv", "counter_wrap"] {
                for (i, r) in records(rfc, section).iter().enumerate() {
                    let fields = (
                        block(r, "record_authentication_key"),
                        hex_field(r, "aad"),
                        hex_field(r, "plaintext"),
                        block(r, "polyval_result"),
                    );
                    let (Some(h), Some(aad), Some(pt), Some(want)) = fields else {
                        t.malformed(format!("{section} #{i}"));
                        continue;
                    };
                    let input = hash_input(&aad, &pt, false);
                    check(
                        &mut t,
                        format!("RFC 8452 {section} #{i}"),
                        &h,
                        &input,
                        &want,
                    );
                }
            }
        }
        Which::Ghash => {
            // Appendix A through GHASH: key mulX_GHASH(ByteReverse(H)),
            // blocks and result byte-reversed.
            for r in records(rfc, "polyval") {
                let (Some(h), Some(x), Some(want), Some(key)) = (
                    block(r, "h"),
                    hex_field(r, "input"),
                    block(r, "polyval"),
                    block(r, "ghash_key"),
                ) else {
                    t.malformed(label(r));
                    continue;
                };
                t.check(
                    reference::mulx_ghash(&reference::byte_reverse(&h)) == key,
                    || format!("{}: mulX_GHASH(ByteReverse(H))", label(r)),
                );
                let reversed: Vec<u8> =
                    x.chunks(16).flat_map(|b| b.iter().rev().copied()).collect();
                check(
                    &mut t,
                    label(r),
                    &key,
                    &reversed,
                    &reference::byte_reverse(&want),
                );
            }
            let cases = records(spec, "test_cases")
                .iter()
                .map(|r| (r, "ciphertext"));
            let valid = wycheproof_tests(wycheproof)
                .filter(|r| r["result"] == "valid")
                .map(|r| (r, "ct"));
            for (r, ct_key) in cases.chain(valid) {
                let Some(GcmCase { h, input, want, iv }) = gcm_case(r, ct_key) else {
                    t.malformed(label(r));
                    continue;
                };
                check(&mut t, label(r), &h, &input, &want);
                if iv.len() != 12 {
                    let mut j0_input = pad(&iv);
                    j0_input.extend([0u8; 8]);
                    j0_input.extend(((iv.len() as u64) * 8).to_be_bytes());
                    let want = reference::ghash(&h, &j0_input);
                    check(&mut t, format!("{}: J0", label(r)), &h, &j0_input, &want);
                }
            }
        }
    }
    t
}

/// A random key and message; every eighth with all bits set.
fn key_and_message(rng: &mut Rng, i: u64) -> ([u8; 16], Vec<u8>) {
    let len = rng.length(&BLOCK_EDGES, MAX_LEN);
    if i % 8 == 7 {
        ([0xff; 16], vec![0xff; len])
    } else {
        (rng.array(), rng.bytes(len))
    }
}

/// Random keys and messages on `imp`, in random pieces (one piece, pieces
/// up to 40 bytes, up to 300 bytes), against the reference function.
fn cross_check(which: Which, imp: Rung, rng: &mut Rng) -> Tally {
    let mut t = Tally::default();
    for i in 0..CASES {
        check_case(which, imp, i, rng, &mut t);
    }
    t
}

/// Case `i` of the cross-check on `imp`: a key and a message in pieces
/// (one, up to 40 bytes, up to 300 bytes by `i`), against the reference
/// function.
fn check_case(which: Which, imp: Rung, i: u64, rng: &mut Rng, t: &mut Tally) {
    let (h, msg) = key_and_message(rng, i);
    let pieces = match i % 3 {
        0 => vec![&msg[..]],
        1 => rng.pieces(&msg, 40),
        _ => rng.pieces(&msg, 300),
    };
    let got = which.hash(imp, &h, &pieces, None);
    t.check(got == Ok(which.reference(&h, &msg)), || {
        format!("case {i}: {} bytes in {} pieces", msg.len(), pieces.len())
    });
}

/// The ladder's fuzz case: GHASH or POLYVAL (the first byte) on a case of
/// the cross-check the fuzzer's bytes steer (its piece style among them),
/// on every rung.
pub(crate) fn fuzz(input: &[u8]) -> Tally {
    fuzz_rungs(input, &Which::BOTH, |which, imp, rng, t| {
        let i = rng.below(8);
        check_case(which, imp, i, rng, t);
    })
}

/// The same messages on every other rung, and switched to it midway.
fn round_trips(which: Which, imp: Rung, rng: &mut Rng) -> Outcome {
    let others = others(imp);
    if others.is_empty() {
        return Outcome::Skipped("no other rung available".to_owned());
    }
    let mut t = Tally::default();
    for other in others {
        for i in 0..20 {
            let (h, msg) = key_and_message(rng, i);
            let pieces = rng.pieces(&msg, 200);
            let here = which.hash(imp, &h, &pieces, None);
            let there = which.hash(other, &h, &pieces, None);
            let at = rng.index(pieces.len() + 1);
            let switched = which.hash(imp, &h, &pieces, Some((at, other)));
            t.check(here.is_ok() && here == there && here == switched, || {
                format!(
                    "case {i}: {} bytes on {imp} and {other} (switched at piece {at})",
                    msg.len()
                )
            });
        }
    }
    Outcome::Ran(t)
}
