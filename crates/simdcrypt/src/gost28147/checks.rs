//! GOST 28147-89, Magma and their modes for the checking kit: every rung on
//! the official vectors (RFC 5831's 28 encryptions, gost-engine's
//! CryptoPro-A…D records with key meshing, RFC 8891 Appendix A, GOST R
//! 34.13-2015 A.2, RFC 9058), against the `reference` rung on random keys,
//! S-box sets (published and random permutations), IVs, lengths past
//! several widest batches and pieces, and in round trips with every other
//! rung.
//!
//! The vectors pin the modes to the standards; the cross-checks pin every
//! rung to the reference through the same mode code, pieces included.

use serde_json::Value;

use super::{Gost28147, Gost28147Cfb, Gost28147Cnt, Gost28147Mac, Rung, SBox};
use crate::KeyStream;
use crate::block::{Cbc, Cfb, Ecb, Ofb};
use crate::kit::vectors::{hex_field, label, parse, records};
use crate::kit::{Outcome, Report, Rng, Tally, others};
use crate::magma::{Magma, MagmaCtr, MagmaCtrAcpkm, MagmaMac, MagmaMgm, MagmaOmacAcpkm};

const GOST: &str = include_str!("../../tests/data/gost/gost28147_89.json");
const RFC8891: &str = include_str!("../../tests/data/gost/rfc8891_magma.json");
const A2: &str = include_str!("../../tests/data/gost/gost_r_34_13_2015_magma_modes.json");
const RFC9058: &str = include_str!("../../tests/data/gost/rfc9058_mgm_magma.json");
const RFC8645: &str = include_str!("../../tests/data/gost/rfc8645_acpkm_magma.json");

/// Random cases per rung and check.
const CASES: u64 = 96;
/// The longest random message, in bytes: past several widest batches and
/// three 1 KiB key-meshing sections.
const MAX_LEN: u64 = 3300;

/// What a row runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    Ecb,
    Cfb,
    Cnt,
    Mac,
    MagmaEcb,
    MagmaCtr,
    MagmaCbc,
    MagmaCfb,
    MagmaOfb,
    MagmaMac,
    MagmaMgm,
    MagmaCtrAcpkm,
    MagmaOmacAcpkm,
}

impl Op {
    fn name(self) -> &'static str {
        match self {
            Op::Ecb => "gost28147",
            Op::Cfb => "gost89",
            Op::Cnt => "gost89-cnt",
            Op::Mac => "gost-mac",
            Op::MagmaEcb => "magma",
            Op::MagmaCtr => "magma-ctr",
            Op::MagmaCbc => "magma-cbc",
            Op::MagmaCfb => "magma-cfb",
            Op::MagmaOfb => "magma-ofb",
            Op::MagmaMac => "magma-mac",
            Op::MagmaMgm => "magma-mgm",
            Op::MagmaCtrAcpkm => "magma-ctr-acpkm",
            Op::MagmaOmacAcpkm => "magma-omac-acpkm",
        }
    }

    /// Whether it has a decryption to round-trip.
    fn invertible(self) -> bool {
        !matches!(self, Op::Mac | Op::MagmaMac | Op::MagmaOmacAcpkm)
    }
}

/// The GOST 28147-89 rows.
pub(crate) fn run(report: &mut Report) {
    rows(report, &[Op::Ecb, Op::Cfb, Op::Cnt, Op::Mac]);
}

/// The Magma rows.
pub(crate) fn run_magma(report: &mut Report) {
    rows(
        report,
        &[
            Op::MagmaEcb,
            Op::MagmaCtr,
            Op::MagmaCbc,
            Op::MagmaCfb,
            Op::MagmaOfb,
            Op::MagmaMac,
            Op::MagmaMgm,
            Op::MagmaCtrAcpkm,
            Op::MagmaOmacAcpkm,
        ],
    );
}

fn rows(report: &mut Report, ops: &[Op]) {
    let files = Files {
        gost: parse(GOST),
        rfc8891: parse(RFC8891),
        a2: parse(A2),
        rfc9058: parse(RFC9058),
        rfc8645: parse(RFC8645),
    };
    for &op in ops {
        report.primitive(op.name(), |imp: Rung, seeds| {
            [
                vectors(&files, op, imp).vectors(),
                Outcome::Ran(cross_check(op, imp, &mut seeds.rng(1))),
                round_trips(op, imp, &mut seeds.rng(2)),
            ]
        });
    }
}

struct Files {
    gost: Value,
    rfc8891: Value,
    a2: Value,
    rfc9058: Value,
    rfc8645: Value,
}

/// One case: key, S-box set (GOST 28147-89 only), IV or nonce, associated
/// data (MGM), the message and how it is cut into calls.
struct Case {
    key: Vec<u8>,
    sbox: SBox,
    iv: Vec<u8>,
    aad: Vec<u8>,
    data: Vec<u8>,
    pieces: Vec<usize>,
    meshing: bool,
    /// ACPKM's section and (OMAC-ACPKM) key section lengths.
    sections: (usize, usize),
}

/// `case` through `op` on `imp`: encrypted (or decrypted), or its MAC.
fn apply(op: Op, imp: Rung, case: &Case, decrypt: bool) -> Result<Vec<u8>, String> {
    let e = |e: crate::Error| e.to_string();
    let key: &[u8; 32] = case
        .key
        .as_slice()
        .try_into()
        .map_err(|_| "a 32-byte key")?;
    let gost = || {
        Gost28147::with_sbox(key, case.sbox)
            .with_rung(imp)
            .map_err(e)
    };
    let magma = || Magma::new(key).with_rung(imp).map_err(e);
    let iv8 = || -> Result<[u8; 8], String> {
        case.iv
            .as_slice()
            .try_into()
            .map_err(|_| "an 8-byte IV".into())
    };
    let mut out = case.data.clone();
    // Each piece in place, in turn: what the streaming forms promise.
    let mut each = |f: &mut dyn FnMut(&mut [u8]) -> Result<(), String>| {
        let mut at = 0;
        for &len in &case.pieces {
            f(&mut out[at..at + len])?;
            at += len;
        }
        Ok::<_, String>(())
    };
    match op {
        Op::Ecb => {
            let ecb = Ecb::from_cipher(gost()?);
            each(&mut |p| {
                if decrypt {
                    ecb.decrypt(p)
                } else {
                    ecb.encrypt(p)
                }
                .map_err(e)
            })?;
        }
        Op::MagmaEcb => {
            let ecb = Ecb::from_cipher(magma()?);
            each(&mut |p| {
                if decrypt {
                    ecb.decrypt(p)
                } else {
                    ecb.encrypt(p)
                }
                .map_err(e)
            })?;
        }
        Op::Cfb => {
            let mut cfb =
                Gost28147Cfb::from_cipher(gost()?, &iv8()?).with_key_meshing(case.meshing);
            each(&mut |p| {
                if decrypt {
                    cfb.decrypt(p);
                } else {
                    cfb.encrypt(p);
                }
                Ok(())
            })?;
        }
        Op::Cnt => {
            let mut cnt =
                Gost28147Cnt::from_cipher(gost()?, &iv8()?).with_key_meshing(case.meshing);
            each(&mut |p| cnt.apply_keystream(p).map_err(e))?;
        }
        Op::MagmaCtr => {
            let mut ctr = MagmaCtr::from_cipher_half_iv(magma()?, &case.iv).map_err(e)?;
            each(&mut |p| KeyStream::apply_keystream(&mut ctr, p).map_err(e))?;
        }
        Op::MagmaCbc => {
            let mut cbc = Cbc::from_cipher_with_iv_register(magma()?, &case.iv).map_err(e)?;
            each(&mut |p| {
                if decrypt {
                    cbc.decrypt(p)
                } else {
                    cbc.encrypt(p)
                }
                .map_err(e)
            })?;
        }
        Op::MagmaCfb => {
            let mut cfb = Cfb::from_cipher_with_iv_register(magma()?, &case.iv).map_err(e)?;
            each(&mut |p| {
                if decrypt {
                    cfb.decrypt(p);
                } else {
                    cfb.encrypt(p);
                }
                Ok(())
            })?;
        }
        Op::MagmaOfb => {
            let mut ofb = Ofb::from_cipher_with_iv_register(magma()?, &case.iv).map_err(e)?;
            each(&mut |p| {
                ofb.apply_keystream(p);
                Ok(())
            })?;
        }
        Op::Mac => {
            let mut mac = Gost28147Mac::from_cipher(gost()?).with_key_meshing(case.meshing);
            each(&mut |p| {
                mac.update(p);
                Ok(())
            })?;
            return Ok(mac.finalize().to_vec());
        }
        Op::MagmaCtrAcpkm => {
            let iv: [u8; 4] = case.iv.as_slice().try_into().map_err(|_| "a 4-byte IV")?;
            let mut ctr = MagmaCtrAcpkm::from_cipher(magma()?, &iv, case.sections.0).map_err(e)?;
            each(&mut |p| ctr.apply_keystream(p).map_err(e))?;
        }
        Op::MagmaOmacAcpkm => {
            let (n, t) = case.sections;
            let mut mac = MagmaOmacAcpkm::from_cipher(magma()?, n, t).map_err(e)?;
            each(&mut |p| mac.update(p).map_err(e))?;
            return Ok(mac.finalize().to_vec());
        }
        Op::MagmaMac => {
            let mut mac = MagmaMac::from_cipher(magma()?);
            each(&mut |p| {
                mac.update(p);
                Ok(())
            })?;
            return Ok(mac.finalize().to_vec());
        }
        Op::MagmaMgm => {
            let mgm = MagmaMgm::from_cipher(magma()?);
            let nonce = iv8()?;
            return if decrypt {
                let mut plain = vec![0u8; case.data.len().saturating_sub(super::BLOCK_LEN)];
                mgm.decrypt_into(&nonce, &case.aad, &case.data, &mut plain)
                    .map_err(e)?;
                Ok(plain)
            } else {
                let mut sealed = vec![0u8; case.data.len() + super::BLOCK_LEN];
                mgm.encrypt_into(&nonce, &case.aad, &case.data, &mut sealed)
                    .map_err(e)?;
                Ok(sealed)
            };
        }
    }
    Ok(out)
}

/// One call on the whole message.
fn whole(len: usize) -> Vec<usize> {
    vec![len]
}

/// Every vector of `op` on `imp`, whole and (where it streams) cut at
/// random-looking points.
fn vectors(files: &Files, op: Op, imp: Rung) -> Tally {
    let mut tally = Tally::default();
    let zeros = SBox::PARAM_Z;
    match op {
        Op::Ecb | Op::Cfb | Op::Cnt | Op::Mac => {
            let mode = match op {
                Op::Ecb => "ecb",
                Op::Cfb => "cfb",
                Op::Cnt => "cnt",
                _ => "mac",
            };
            for r in records(&files.gost, "vectors")
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
                let want = if op == Op::Mac {
                    hex_field(r, "mac32")
                } else {
                    hex_field(r, "ciphertext")
                };
                let iv = hex_field(r, "iv").unwrap_or_default();
                let case = Case {
                    key,
                    sbox,
                    iv,
                    aad: Vec::new(),
                    pieces: whole(data.len()),
                    data,
                    meshing: true,
                    sections: (0, 0),
                };
                expect(&mut tally, op, imp, r, case, want);
            }
        }
        Op::MagmaEcb => {
            for r in records(&files.rfc8891, "encryption")
                .iter()
                .chain([&files.a2])
            {
                let data = hex_field(r, "plaintext");
                let want =
                    hex_field(r, "ciphertext").or_else(|| hex_field(&r["ecb"], "ciphertext"));
                let (Some(key), Some(data)) = (hex_field(r, "key"), data) else {
                    tally.malformed(label(r));
                    continue;
                };
                let case = Case {
                    key,
                    sbox: zeros,
                    iv: Vec::new(),
                    aad: Vec::new(),
                    pieces: whole(data.len()),
                    data,
                    meshing: false,
                    sections: (0, 0),
                };
                expect(&mut tally, op, imp, r, case, want);
            }
        }
        Op::MagmaCtr | Op::MagmaCbc | Op::MagmaCfb | Op::MagmaOfb | Op::MagmaMac => {
            let section = match op {
                Op::MagmaCtr => "ctr",
                Op::MagmaCbc => "cbc",
                Op::MagmaCfb => "cfb",
                Op::MagmaOfb => "ofb",
                _ => "mac",
            };
            let r = &files.a2[section];
            let (Some(key), Some(data)) = (
                hex_field(&files.a2, "key"),
                hex_field(&files.a2, "plaintext"),
            ) else {
                tally.malformed(section);
                return tally;
            };
            let want = if op == Op::MagmaMac {
                hex_field(r, "mac_64_bits_informative")
            } else {
                hex_field(r, "ciphertext")
            };
            let iv = hex_field(r, "iv").unwrap_or_default();
            let case = Case {
                key,
                sbox: zeros,
                iv,
                aad: Vec::new(),
                pieces: whole(data.len()),
                data,
                meshing: false,
                sections: (0, 0),
            };
            expect(&mut tally, op, imp, r, case, want);
        }
        Op::MagmaCtrAcpkm => {
            let r = &files.rfc8645["ctr_acpkm"];
            let fields = ["key", "iv", "plaintext", "ciphertext"].map(|k| hex_field(r, k));
            let (Some(section), [Some(key), Some(iv), Some(data), Some(ct)]) =
                (r["section_len"].as_u64(), fields)
            else {
                tally.malformed("rfc8645 ctr_acpkm");
                return tally;
            };
            let sections = (section as usize, 0);
            let case = Case {
                key,
                sbox: zeros,
                iv,
                aad: Vec::new(),
                pieces: whole(data.len()),
                data,
                meshing: false,
                sections,
            };
            expect(&mut tally, op, imp, r, case, Some(ct));
        }
        Op::MagmaOmacAcpkm => {
            for r in records(&files.rfc8645, "omac_acpkm") {
                let (Some(key), Some(data), Some(n), Some(t)) = (
                    hex_field(r, "key"),
                    hex_field(r, "message"),
                    r["section_len"].as_u64(),
                    r["key_section_len"].as_u64(),
                ) else {
                    tally.malformed(label(r));
                    continue;
                };
                let sections = (n as usize, t as usize);
                let case = Case {
                    key,
                    sbox: zeros,
                    iv: Vec::new(),
                    aad: Vec::new(),
                    pieces: whole(data.len()),
                    data,
                    meshing: false,
                    sections,
                };
                expect(&mut tally, op, imp, r, case, hex_field(r, "tag"));
            }
        }
        Op::MagmaMgm => {
            let r = &files.rfc9058;
            let fields = [
                "key",
                "nonce",
                "associated_data",
                "plaintext",
                "ciphertext",
                "tag",
            ]
            .map(|k| hex_field(r, k));
            let [
                Some(key),
                Some(iv),
                Some(aad),
                Some(data),
                Some(ct),
                Some(tag),
            ] = fields
            else {
                tally.malformed("rfc9058");
                return tally;
            };
            let case = Case {
                key,
                sbox: zeros,
                iv,
                aad,
                pieces: whole(data.len()),
                data,
                meshing: false,
                sections: (0, 0),
            };
            expect(&mut tally, op, imp, r, case, Some([ct, tag].concat()));
        }
    }
    tally
}

/// `case` through `op` on `imp`, whole and (where it streams) cut in two,
/// against `want`.
fn expect(tally: &mut Tally, op: Op, imp: Rung, r: &Value, case: Case, want: Option<Vec<u8>>) {
    let Some(want) = want else {
        return tally.malformed(label(r));
    };
    let mut cuts = vec![whole(case.data.len())];
    if op != Op::MagmaMgm && case.data.len() > 3 {
        let n = case.data.len();
        let block = if matches!(op, Op::Ecb | Op::MagmaEcb | Op::MagmaCbc) {
            8
        } else {
            3
        };
        let first = (n / 2) / block * block;
        cuts.push(vec![first, n - first]);
    }
    for pieces in cuts {
        let case = Case {
            pieces: pieces.clone(),
            ..clone_case(&case)
        };
        let got = apply(op, imp, &case, false);
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

fn clone_case(c: &Case) -> Case {
    Case {
        key: c.key.clone(),
        sbox: c.sbox,
        iv: c.iv.clone(),
        aad: c.aad.clone(),
        data: c.data.clone(),
        pieces: c.pieces.clone(),
        meshing: c.meshing,
        sections: c.sections,
    }
}

/// A random case for `op`: a published or random S-box set, an IV of the
/// mode's length (one to three blocks for Magma's registers), a message of
/// whole blocks for ECB and CBC, cut at random (block) points.
fn random_case(op: Op, rng: &mut Rng) -> Case {
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
    let blocks_only = matches!(op, Op::Ecb | Op::MagmaEcb | Op::MagmaCbc);
    let mut len = rng.below(MAX_LEN + 1) as usize;
    if blocks_only {
        len -= len % 8;
    }
    let iv_len = match op {
        Op::MagmaCtr | Op::MagmaCtrAcpkm => 4,
        Op::MagmaCbc | Op::MagmaCfb | Op::MagmaOfb => 8 * (1 + rng.index(3)),
        _ => 8,
    };
    let mut iv = rng.bytes(iv_len);
    if op == Op::MagmaMgm {
        iv[0] &= 0x7f;
    }
    let mut pieces = Vec::new();
    let mut left = len;
    while left > 0 {
        let mut p = 1 + rng.index(left);
        if blocks_only {
            p = (p.div_ceil(8) * 8).min(left);
        }
        pieces.push(p);
        left -= p;
    }
    if op == Op::MagmaMgm {
        pieces = whole(len);
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
fn cross_check(op: Op, imp: Rung, rng: &mut Rng) -> Tally {
    let mut tally = Tally::default();
    for _ in 0..CASES {
        let case = random_case(op, rng);
        let want = apply(op, Rung::Reference, &case, false);
        let got = apply(op, imp, &case, false);
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
fn round_trips(op: Op, imp: Rung, rng: &mut Rng) -> Outcome {
    if !op.invertible() {
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
        let sealed = match apply(op, imp, &case, false) {
            Ok(s) => s,
            Err(e) => {
                tally.check(false, || format!("{}: {e}", op.name()));
                continue;
            }
        };
        let back = Case {
            data: sealed,
            pieces: Vec::new(),
            ..clone_case(&case)
        };
        let back = Case {
            pieces: whole(back.data.len()),
            ..back
        };
        let opened = apply(op, other, &back, true);
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
