//! Magma and its modes for the checking kit, on the rungs it shares with
//! GOST 28147-89 and through the same checks (`gost28147/checks.rs`):
//! every rung on the official vectors (RFC 8891 Appendix A, GOST R
//! 34.13-2015 A.2, RFC 8645, RFC 9058), against the `reference` rung on
//! random keys, IVs (registers of one to three blocks for CBC, CFB and
//! OFB), lengths and pieces, and in round trips with every other rung.

use std::sync::OnceLock;

use serde_json::Value;

use super::{Magma, MagmaCtr, MagmaCtrAcpkm, MagmaMac, MagmaMgm, MagmaOmacAcpkm};
use crate::KeyStream;
use crate::block::{Cbc, Cfb, Ecb, Ofb};
use crate::gost28147::Rung;
use crate::gost28147::checks::{Case, Op, Shape, expect, fuzz_ops, rows, text};
use crate::harness::vectors::{hex_field, label, parse, records};
use crate::harness::{Report, Tally};

const RFC8891: &str = include_str!("../../tests/data/gost/rfc8891_magma.json");
const A2: &str = include_str!("../../tests/data/gost/gost_r_34_13_2015_magma_modes.json");
const RFC9058: &str = include_str!("../../tests/data/gost/rfc9058_mgm_magma.json");
const RFC8645: &str = include_str!("../../tests/data/gost/rfc8645_acpkm_magma.json");

/// The vector files, parsed once.
struct Files {
    rfc8891: Value,
    a2: Value,
    rfc9058: Value,
    rfc8645: Value,
}

fn files() -> &'static Files {
    static FILES: OnceLock<Files> = OnceLock::new();
    FILES.get_or_init(|| Files {
        rfc8891: parse(RFC8891),
        a2: parse(A2),
        rfc9058: parse(RFC9058),
        rfc8645: parse(RFC8645),
    })
}

/// The operations of Magma.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Magmas {
    Ecb,
    Ctr,
    Cbc,
    Cfb,
    Ofb,
    Mac,
    Mgm,
    CtrAcpkm,
    OmacAcpkm,
}

impl Op for Magmas {
    fn name(self) -> &'static str {
        match self {
            Magmas::Ecb => "magma",
            Magmas::Ctr => "magma-ctr",
            Magmas::Cbc => "magma-cbc",
            Magmas::Cfb => "magma-cfb",
            Magmas::Ofb => "magma-ofb",
            Magmas::Mac => "magma-mac",
            Magmas::Mgm => "magma-mgm",
            Magmas::CtrAcpkm => "magma-ctr-acpkm",
            Magmas::OmacAcpkm => "magma-omac-acpkm",
        }
    }

    fn shape(self) -> Shape {
        let register = Shape {
            iv_len: None,
            ..Shape::streaming(0)
        };
        match self {
            Magmas::Ecb => Shape::streaming(8).blocks(),
            Magmas::Ctr | Magmas::CtrAcpkm => Shape::streaming(4),
            Magmas::Cbc => register.blocks(),
            Magmas::Cfb | Magmas::Ofb => register,
            Magmas::Mac | Magmas::OmacAcpkm => Shape::streaming(8).mac(),
            Magmas::Mgm => Shape {
                pieces: false,
                nonce_msb_clear: true,
                ..Shape::streaming(8)
            },
        }
    }

    fn apply(self, imp: Rung, case: &Case, decrypt: bool) -> Result<Vec<u8>, String> {
        let magma = Magma::new(case.key()?).with_rung(imp).map_err(text)?;
        let mut out = case.data.clone();
        match self {
            Magmas::Ecb => {
                let ecb = Ecb::from_cipher(magma);
                case.each(&mut out, |p| {
                    if decrypt {
                        ecb.decrypt(p)
                    } else {
                        ecb.encrypt(p)
                    }
                    .map_err(text)
                })?;
            }
            Magmas::Ctr => {
                let mut ctr = MagmaCtr::from_cipher_half_iv(magma, &case.iv).map_err(text)?;
                case.each(&mut out, |p| {
                    KeyStream::apply_keystream(&mut ctr, p).map_err(text)
                })?;
            }
            Magmas::Cbc => {
                let mut cbc = Cbc::from_cipher_with_iv_register(magma, &case.iv).map_err(text)?;
                case.each(&mut out, |p| {
                    if decrypt {
                        cbc.decrypt(p)
                    } else {
                        cbc.encrypt(p)
                    }
                    .map_err(text)
                })?;
            }
            Magmas::Cfb => {
                let mut cfb = Cfb::from_cipher_with_iv_register(magma, &case.iv).map_err(text)?;
                case.each(&mut out, |p| {
                    if decrypt {
                        cfb.decrypt(p);
                    } else {
                        cfb.encrypt(p);
                    }
                    Ok(())
                })?;
            }
            Magmas::Ofb => {
                let mut ofb = Ofb::from_cipher_with_iv_register(magma, &case.iv).map_err(text)?;
                case.each(&mut out, |p| {
                    ofb.apply_keystream(p);
                    Ok(())
                })?;
            }
            Magmas::Mac => {
                let mut mac = MagmaMac::from_cipher(magma);
                case.each(&mut out, |p| {
                    mac.update(p);
                    Ok(())
                })?;
                return Ok(mac.finalize().to_vec());
            }
            Magmas::CtrAcpkm => {
                let iv: [u8; 4] = case.iv.as_slice().try_into().map_err(|_| "a 4-byte IV")?;
                let mut ctr =
                    MagmaCtrAcpkm::from_cipher(magma, &iv, case.sections.0).map_err(text)?;
                case.each(&mut out, |p| ctr.apply_keystream(p).map_err(text))?;
            }
            Magmas::OmacAcpkm => {
                let (n, t) = case.sections;
                let mut mac = MagmaOmacAcpkm::from_cipher(magma, n, t).map_err(text)?;
                case.each(&mut out, |p| mac.update(p).map_err(text))?;
                return Ok(mac.finalize().to_vec());
            }
            Magmas::Mgm => {
                let mgm = MagmaMgm::from_cipher(magma);
                let nonce = case.iv8()?;
                return if decrypt {
                    let mut plain = vec![0u8; case.data.len().saturating_sub(super::BLOCK_LEN)];
                    mgm.decrypt_into(&nonce, &case.aad, &case.data, &mut plain)
                        .map_err(text)?;
                    Ok(plain)
                } else {
                    let mut sealed = vec![0u8; case.data.len() + super::BLOCK_LEN];
                    mgm.encrypt_into(&nonce, &case.aad, &case.data, &mut sealed)
                        .map_err(text)?;
                    Ok(sealed)
                };
            }
        }
        Ok(out)
    }

    /// RFC 8891's encryptions, the examples of GOST R 34.13-2015 A.2,
    /// RFC 8645's ACPKM and RFC 9058's MGM.
    fn vectors(self, imp: Rung) -> Tally {
        let files = files();
        let mut tally = Tally::default();
        match self {
            Magmas::Ecb => {
                for r in records(&files.rfc8891, "encryption")
                    .iter()
                    .chain([&files.a2])
                {
                    let want =
                        hex_field(r, "ciphertext").or_else(|| hex_field(&r["ecb"], "ciphertext"));
                    let (Some(key), Some(data)) = (hex_field(r, "key"), hex_field(r, "plaintext"))
                    else {
                        tally.malformed(label(r));
                        continue;
                    };
                    expect(&mut tally, self, imp, r, Case::new(key, data), want);
                }
            }
            Magmas::Ctr | Magmas::Cbc | Magmas::Cfb | Magmas::Ofb | Magmas::Mac => {
                let section = match self {
                    Magmas::Ctr => "ctr",
                    Magmas::Cbc => "cbc",
                    Magmas::Cfb => "cfb",
                    Magmas::Ofb => "ofb",
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
                let want = if self == Magmas::Mac {
                    hex_field(r, "mac_64_bits_informative")
                } else {
                    hex_field(r, "ciphertext")
                };
                let case = Case {
                    iv: hex_field(r, "iv").unwrap_or_default(),
                    ..Case::new(key, data)
                };
                expect(&mut tally, self, imp, r, case, want);
            }
            Magmas::CtrAcpkm => {
                let r = &files.rfc8645["ctr_acpkm"];
                let fields = ["key", "iv", "plaintext", "ciphertext"].map(|k| hex_field(r, k));
                let (Some(section), [Some(key), Some(iv), Some(data), Some(ct)]) =
                    (r["section_len"].as_u64(), fields)
                else {
                    tally.malformed("rfc8645 ctr_acpkm");
                    return tally;
                };
                let case = Case {
                    iv,
                    sections: (section as usize, 0),
                    ..Case::new(key, data)
                };
                expect(&mut tally, self, imp, r, case, Some(ct));
            }
            Magmas::OmacAcpkm => {
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
                    let case = Case {
                        sections: (n as usize, t as usize),
                        ..Case::new(key, data)
                    };
                    expect(&mut tally, self, imp, r, case, hex_field(r, "tag"));
                }
            }
            Magmas::Mgm => {
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
                    iv,
                    aad,
                    ..Case::new(key, data)
                };
                expect(&mut tally, self, imp, r, case, Some([ct, tag].concat()));
            }
        }
        tally
    }
}

/// Every operation of Magma.
const MAGMA: [Magmas; 9] = [
    Magmas::Ecb,
    Magmas::Ctr,
    Magmas::Cbc,
    Magmas::Cfb,
    Magmas::Ofb,
    Magmas::Mac,
    Magmas::Mgm,
    Magmas::CtrAcpkm,
    Magmas::OmacAcpkm,
];

/// The Magma rows.
pub(crate) fn run(report: &mut Report) {
    rows(report, &MAGMA);
}

/// The ladder's fuzz case: one operation on a random case the fuzzer's
/// bytes steer, on every rung ([`fuzz_ops`]); MGM as an AEAD, also with a
/// bit of the sealed form flipped and refused ([`mgm_case`]).
pub(crate) fn fuzz(input: &[u8]) -> Tally {
    if crate::harness::pick(input, &MAGMA).0 == Magmas::Mgm {
        let aeads = crate::table::Primitive::aead_shapes(&super::LADDER);
        return crate::harness::fuzz_aead(input, &aeads, mgm_case);
    }
    fuzz_ops(input, &MAGMA)
}

/// One case of MGM (`magma-mgm`, RFC 9058) for the fuzz targets: sealed on
/// every Magma rung this CPU runs as on `reference` (a nonce whose first
/// bit is set refused by all), opened back, and refused once the bit
/// `flip` (modulo the sealed length) is flipped, the output zeroed.
/// `None` for another name.
pub(crate) fn mgm_case(
    name: &str,
    (key, nonce, aad): (&[u8], &[u8], &[u8]),
    pt: &[u8],
    flip: usize,
) -> Option<Tally> {
    let op = Magmas::Mgm;
    if name != op.name() {
        return None;
    }
    let case = Case {
        iv: nonce.to_vec(),
        aad: aad.to_vec(),
        ..Case::new(key.to_vec(), pt.to_vec())
    };
    let want = op.apply(Rung::Reference, &case, false);
    let mut t = Tally::default();
    for imp in Rung::available() {
        let sealed = op.apply(imp, &case, false);
        t.check(sealed == want, || {
            format!("{name} on {imp}: {} bytes: differs from the reference", pt.len())
        });
        let Ok(sealed) = sealed else { continue };
        let back = Case {
            pieces: vec![sealed.len()],
            data: sealed.clone(),
            ..case.clone()
        };
        t.check(op.apply(imp, &back, true).as_deref() == Ok(pt), || {
            format!("{name} on {imp}: not opened")
        });
        let mut tampered = sealed;
        let bit = flip % (8 * tampered.len());
        tampered[bit / 8] ^= 1 << (bit % 8);
        let refused = (|| {
            let mgm = MagmaMgm::from_cipher(Magma::new(key.try_into().ok()?).with_rung(imp).ok()?);
            let mut plain = vec![0xa5; pt.len()];
            let verdict = mgm.decrypt_into(nonce.try_into().ok()?, aad, &tampered, &mut plain);
            Some(verdict.is_err() && plain.iter().all(|&b| b == 0))
        })();
        t.check(refused == Some(true), || {
            format!("{name} on {imp}: bit {bit} flipped: not refused, or not zeroed")
        });
    }
    Some(t)
}
