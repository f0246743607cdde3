//! GOST 28147-89 and its modes for the checking kit, and what Magma's
//! checks (`magma/checks.rs`) share with them over the rungs both run:
//! every rung on the official vectors (RFC 5831's 28 encryptions,
//! gost-engine's CryptoPro-A…D records with key meshing), against the
//! `reference` rung on random keys, S-box sets (published and random
//! permutations), IVs, lengths past several widest batches and pieces, and
//! in round trips with every other rung.
//!
//! The vectors pin the modes to the standards; the cross-checks pin every
//! rung to the reference through the same mode code, pieces included.

use std::sync::OnceLock;

use serde_json::Value;

use super::{Gost28147, Gost28147Cfb, Gost28147Cnt, Gost28147Mac, Rung, SBox};
use crate::block::Ecb;
use crate::harness::vectors::{hex_field, label, parse, records};
use crate::harness::{Outcome, Report, Rng, Tally, others};

const GOST: &str = include_str!("../../tests/data/gost/gost28147_89.json");

/// Random cases per rung and check.
const CASES: u64 = 96;
/// The longest random message, in bytes: past several widest batches and
/// three 1 KiB key-meshing sections.
const MAX_LEN: u64 = 3300;

/// What a row runs: an operation of GOST 28147-89 (here) or of Magma
/// (`magma/checks.rs`), on the rungs they share.
pub(crate) trait Op: Copy + PartialEq + 'static {
    /// The primitive, as the table names it.
    fn name(self) -> &'static str;
    /// How its cases are shaped.
    fn shape(self) -> Shape;
    /// `case` through it on `imp`: encrypted (or decrypted), or its MAC.
    fn apply(self, imp: Rung, case: &Case, decrypt: bool) -> Result<Vec<u8>, String>;
    /// Its official vectors on `imp`, each through [`expect`].
    fn vectors(self, imp: Rung) -> Tally;
}

/// How an operation's cases are shaped.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Shape {
    /// The IV's length, or `None` for a register of one to three blocks.
    pub(crate) iv_len: Option<usize>,
    /// Whole blocks only (ECB, CBC): messages and pieces.
    pub(crate) blocks_only: bool,
    /// Whether it streams in pieces (not MGM, which takes a message whole).
    pub(crate) pieces: bool,
    /// Whether it has a decryption to round-trip.
    pub(crate) invertible: bool,
    /// Whether the nonce's first bit must be clear (MGM, RFC 9058 §4).
    pub(crate) nonce_msb_clear: bool,
}

impl Shape {
    /// A mode that streams, with an IV of `iv_len` bytes (random bytes
    /// that a mode without one leaves alone).
    pub(crate) const fn streaming(iv_len: usize) -> Shape {
        Shape {
            iv_len: Some(iv_len),
            blocks_only: false,
            pieces: true,
            invertible: true,
            nonce_msb_clear: false,
        }
    }

    /// The same, of whole blocks only.
    pub(crate) const fn blocks(self) -> Shape {
        Shape {
            blocks_only: true,
            ..self
        }
    }

    /// The same, without a decryption (a MAC).
    pub(crate) const fn mac(self) -> Shape {
        Shape {
            invertible: false,
            ..self
        }
    }
}

/// The operations of GOST 28147-89.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Gost {
    Ecb,
    Cfb,
    Cnt,
    Mac,
}

impl Op for Gost {
    fn name(self) -> &'static str {
        match self {
            Gost::Ecb => "gost28147",
            Gost::Cfb => "gost89",
            Gost::Cnt => "gost89-cnt",
            Gost::Mac => "gost-mac",
        }
    }

    fn shape(self) -> Shape {
        match self {
            Gost::Ecb => Shape::streaming(8).blocks(),
            Gost::Cfb | Gost::Cnt => Shape::streaming(8),
            Gost::Mac => Shape::streaming(8).mac(),
        }
    }

    fn apply(self, imp: Rung, case: &Case, decrypt: bool) -> Result<Vec<u8>, String> {
        let gost = Gost28147::with_sbox(case.key()?, case.sbox)
            .with_rung(imp)
            .map_err(text)?;
        let mut out = case.data.clone();
        match self {
            Gost::Ecb => {
                let ecb = Ecb::from_cipher(gost);
                case.each(&mut out, |p| {
                    if decrypt {
                        ecb.decrypt(p)
                    } else {
                        ecb.encrypt(p)
                    }
                    .map_err(text)
                })?;
            }
            Gost::Cfb => {
                let mut cfb =
                    Gost28147Cfb::from_cipher(gost, &case.iv8()?).with_key_meshing(case.meshing);
                case.each(&mut out, |p| {
                    if decrypt {
                        cfb.decrypt(p);
                    } else {
                        cfb.encrypt(p);
                    }
                    Ok(())
                })?;
            }
            Gost::Cnt => {
                let mut cnt =
                    Gost28147Cnt::from_cipher(gost, &case.iv8()?).with_key_meshing(case.meshing);
                case.each(&mut out, |p| cnt.apply_keystream(p).map_err(text))?;
            }
            Gost::Mac => {
                let mut mac = Gost28147Mac::from_cipher(gost).with_key_meshing(case.meshing);
                case.each(&mut out, |p| {
                    mac.update(p);
                    Ok(())
                })?;
                return Ok(mac.finalize().to_vec());
            }
        }
        Ok(out)
    }

    /// RFC 5831's and gost-engine's records of its mode.
    fn vectors(self, imp: Rung) -> Tally {
        static FILE: OnceLock<Value> = OnceLock::new();
        let file = FILE.get_or_init(|| parse(GOST));
        let mode = match self {
            Gost::Ecb => "ecb",
            Gost::Cfb => "cfb",
            Gost::Cnt => "cnt",
            Gost::Mac => "mac",
        };
        let mut tally = Tally::default();
        for r in records(file, "vectors")
            .iter()
            .filter(|r| r["mode"] == mode)
        {
            let (Some(key), Some(data), Some(sbox)) = (
                hex_field(r, "key"),
                hex_field(r, "plaintext"),
                r["sbox"].as_str().and_then(|s| SBox::from_name(s).ok()),
            ) else {
                tally.malformed(label(r));
                continue;
            };
            let want = if self == Gost::Mac {
                hex_field(r, "mac32")
            } else {
                hex_field(r, "ciphertext")
            };
            let case = Case {
                sbox,
                iv: hex_field(r, "iv").unwrap_or_default(),
                meshing: true,
                ..Case::new(key, data)
            };
            expect(&mut tally, self, imp, r, case, want);
        }
        tally
    }
}

/// Every operation of GOST 28147-89.
const OPS: [Gost; 4] = [Gost::Ecb, Gost::Cfb, Gost::Cnt, Gost::Mac];

/// The GOST 28147-89 rows.
pub(crate) fn run(report: &mut Report) {
    rows(report, &OPS);
}

/// The rows of `ops`, each on every rung: vectors, the cross-check against
/// `reference`, round trips.
pub(crate) fn rows<O: Op>(report: &mut Report, ops: &[O]) {
    for &op in ops {
        report.primitive(op.name(), |imp: Rung, seeds| {
            [
                op.vectors(imp).vectors(),
                Outcome::Ran(cross_check(op, imp, &mut seeds.rng(1))),
                round_trips(op, imp, &mut seeds.rng(2)),
            ]
        });
    }
}

/// The fuzz case of a ladder of `ops`: one (the first byte) on a random
/// case the fuzzer's bytes steer ([`Rng::from_bytes`]: S-box set, key, IV,
/// message, pieces), on every rung against `reference`, and decrypted back
/// on the same rung where it has a decryption.
pub(crate) fn fuzz_ops<O: Op>(input: &[u8], ops: &[O]) -> Tally {
    let (op, bytes) = crate::harness::pick(input, ops);
    let case = random_case(op, &mut Rng::from_bytes(bytes));
    let want = op.apply(Rung::Reference, &case, false);
    let mut tally = Tally::default();
    for imp in Rung::available() {
        let got = op.apply(imp, &case, false);
        tally.check(got == want, || {
            format!(
                "{} on {imp}: {} bytes, pieces {:?}: differs from the reference",
                op.name(),
                case.data.len(),
                case.pieces
            )
        });
        if let (Ok(sealed), true) = (got, op.shape().invertible) {
            let back = Case {
                pieces: vec![sealed.len()],
                data: sealed,
                ..case.clone()
            };
            tally.check(op.apply(imp, &back, true).as_deref() == Ok(&case.data[..]), || {
                format!("{} on {imp}: not decrypted back", op.name())
            });
        }
    }
    tally
}

/// The ladder's fuzz case ([`fuzz_ops`]).
pub(crate) fn fuzz(input: &[u8]) -> Tally {
    fuzz_ops(input, &OPS)
}

/// An error as text.
pub(crate) fn text(e: crate::Error) -> String {
    e.to_string()
}

/// One case: key, S-box set (GOST 28147-89 only), IV or nonce, associated
/// data (MGM), the message and how it is cut into calls.
#[derive(Clone)]
pub(crate) struct Case {
    pub(crate) key: Vec<u8>,
    pub(crate) sbox: SBox,
    pub(crate) iv: Vec<u8>,
    pub(crate) aad: Vec<u8>,
    pub(crate) data: Vec<u8>,
    pub(crate) pieces: Vec<usize>,
    pub(crate) meshing: bool,
    /// ACPKM's section and (OMAC-ACPKM) key section lengths.
    pub(crate) sections: (usize, usize),
}

impl Case {
    /// `data` under `key` in one piece, with param-Z, no IV, no associated
    /// data, no key meshing.
    pub(crate) fn new(key: Vec<u8>, data: Vec<u8>) -> Case {
        Case {
            key,
            sbox: SBox::PARAM_Z,
            iv: Vec::new(),
            aad: Vec::new(),
            pieces: vec![data.len()],
            data,
            meshing: false,
            sections: (0, 0),
        }
    }

    /// The key as the ciphers take it.
    pub(crate) fn key(&self) -> Result<&[u8; 32], String> {
        self.key
            .as_slice()
            .try_into()
            .map_err(|_| "a 32-byte key".into())
    }

    /// The IV as an 8-byte array.
    pub(crate) fn iv8(&self) -> Result<[u8; 8], String> {
        self.iv
            .as_slice()
            .try_into()
            .map_err(|_| "an 8-byte IV".into())
    }

    /// `f` on each piece of `out` in turn, in place: what the streaming
    /// forms promise.
    pub(crate) fn each(
        &self,
        out: &mut [u8],
        mut f: impl FnMut(&mut [u8]) -> Result<(), String>,
    ) -> Result<(), String> {
        let mut at = 0;
        for &len in &self.pieces {
            f(&mut out[at..at + len])?;
            at += len;
        }
        Ok(())
    }
}

/// `case` through `op` on `imp`, whole and (where it streams) cut in two,
/// against `want`.
pub(crate) fn expect<O: Op>(
    tally: &mut Tally,
    op: O,
    imp: Rung,
    r: &Value,
    case: Case,
    want: Option<Vec<u8>>,
) {
    let Some(want) = want else {
        return tally.malformed(label(r));
    };
    let shape = op.shape();
    let mut cuts = vec![vec![case.data.len()]];
    if shape.pieces && case.data.len() > 3 {
        let n = case.data.len();
        let block = if shape.blocks_only { 8 } else { 3 };
        let first = (n / 2) / block * block;
        cuts.push(vec![first, n - first]);
    }
    for pieces in cuts {
        let case = Case {
            pieces: pieces.clone(),
            ..case.clone()
        };
        let got = op.apply(imp, &case, false);
        tally.check(got.as_deref() == Ok(&want[..]), || {
            format!(
                "{} {}: {:?} in pieces {pieces:?}",
                op.name(),
                label(r),
                got.err()
            )
        });
    }
}

/// A random case for `op`: a published or random S-box set, an IV of the
/// mode's length (one to three blocks for Magma's registers), a message of
/// whole blocks for ECB and CBC, cut at random (block) points.
fn random_case<O: Op>(op: O, rng: &mut Rng) -> Case {
    let shape = op.shape();
    let sbox = if rng.below(2) == 0 {
        let names: Vec<&str> = SBox::names().collect();
        SBox::from_name(names[rng.index(names.len())]).expect("a published set")
    } else {
        let rows = std::array::from_fn(|_| {
            let mut row: [u8; 16] = std::array::from_fn(|i| i as u8);
            for i in (1..16).rev() {
                row.swap(i, rng.index(i + 1));
            }
            row
        });
        SBox::from_rows(rows).expect("permutations")
    };
    let mut len = rng.below(MAX_LEN + 1) as usize;
    if shape.blocks_only {
        len -= len % 8;
    }
    let iv_len = shape.iv_len.unwrap_or_else(|| 8 * (1 + rng.index(3)));
    let mut iv = rng.bytes(iv_len);
    if shape.nonce_msb_clear {
        iv[0] &= 0x7f;
    }
    let mut pieces = Vec::new();
    let mut left = len;
    while left > 0 {
        let mut p = 1 + rng.index(left);
        if shape.blocks_only {
            p = (p.div_ceil(8) * 8).min(left);
        }
        pieces.push(p);
        left -= p;
    }
    if !shape.pieces {
        pieces = vec![len];
    }
    let aad_len = rng.index(70);
    Case {
        key: rng.bytes(32),
        sbox,
        iv,
        aad: rng.bytes(aad_len),
        data: rng.bytes(len),
        pieces,
        meshing: rng.below(4) != 0,
        // Sections of 1 to 160 blocks (the engine's 1 KiB among them), key
        // sections of 5 to 40 blocks (whole section keys, 40 bytes each).
        sections: (8 * (1 + rng.index(160)), 40 * (1 + rng.index(8))),
    }
}

/// `imp` against the reference rung on random cases.
fn cross_check<O: Op>(op: O, imp: Rung, rng: &mut Rng) -> Tally {
    let mut tally = Tally::default();
    for _ in 0..CASES {
        let case = random_case(op, rng);
        let want = op.apply(Rung::Reference, &case, false);
        let got = op.apply(imp, &case, false);
        tally.check(want.is_ok() && got == want, || {
            format!(
                "{} {} bytes, pieces {:?}: differs from the reference",
                op.name(),
                case.data.len(),
                case.pieces
            )
        });
    }
    tally
}

/// Encrypted on `imp`, decrypted on each other rung.
fn round_trips<O: Op>(op: O, imp: Rung, rng: &mut Rng) -> Outcome {
    if !op.shape().invertible {
        return Outcome::NotApplicable("a MAC has no inverse");
    }
    let rungs = others(imp);
    if rungs.is_empty() {
        return Outcome::Skipped("no other rung here".to_owned());
    }
    let mut tally = Tally::default();
    for i in 0..CASES {
        let case = random_case(op, rng);
        let other = rungs[i as usize % rungs.len()];
        let sealed = match op.apply(imp, &case, false) {
            Ok(s) => s,
            Err(e) => {
                tally.check(false, || format!("{}: {e}", op.name()));
                continue;
            }
        };
        let back = Case {
            pieces: vec![sealed.len()],
            data: sealed,
            ..case.clone()
        };
        let opened = op.apply(other, &back, true);
        tally.check(opened.as_deref() == Ok(&case.data[..]), || {
            format!(
                "{} {} bytes: not opened by {other}",
                op.name(),
                case.data.len()
            )
        });
    }
    Outcome::Ran(tally)
}
