//! Camellia and its modes: every rung on the official vectors (RFC 3713
//! Appendix A; NTT's known-answer tests, all 3,840; OpenSSL's CBC, CFB
//! and OFB vectors; RFC 5528's CTR vectors; CMAC tags from OpenSSL),
//! against the modes written out from the standards over `reference` on
//! random keys of every size, lengths, pieces, offsets and counters, and
//! in round trips with every other rung (the shared block-cipher checks
//! of [`crate::harness::block`]).

use super::key_schedule::Subkeys;
use super::{Bits128, Bits192, Bits256, Camellia, Rung, reference};
use crate::harness::block::{self, BlockAlgo, Known, Mode, Run};
use crate::harness::vectors::hex;
use crate::harness::{Outcome, Report, Tally};

const RFC3713: &str = include_str!("../../tests/data/camellia/rfc3713.txt");
const NTT_128: &str = include_str!("../../tests/data/camellia/camellia-128-ecb.txt");
const NTT_192: &str = include_str!("../../tests/data/camellia/camellia-192-ecb.txt");
const NTT_256: &str = include_str!("../../tests/data/camellia/camellia-256-ecb.txt");
const CBC: &str = include_str!("../../tests/data/camellia/camellia-cbc.txt");
const CFB: &str = include_str!("../../tests/data/camellia/camellia-cfb.txt");
const OFB: &str = include_str!("../../tests/data/camellia/camellia-ofb.txt");
const CTR: &str = include_str!("../../tests/data/camellia/rfc5528-ctr.txt");
const CMAC: &str = include_str!("../../tests/data/camellia/cmac-openssl.txt");

/// Camellia as the shared block-cipher checks see it.
struct Algo;

impl BlockAlgo for Algo {
    type Rung = Rung;
    const KEY_LENS: &'static [usize] = &[16, 24, 32];

    fn run(key: &[u8], rung: Rung, run: &Run<'_>) -> Result<Vec<u8>, String> {
        fn on<K: super::KeySize>(key: &[u8], rung: Rung, run: &Run<'_>) -> Result<Vec<u8>, String> {
            let camellia = Camellia::<K>::from_slice(key)
                .and_then(|c| c.with_rung(rung))
                .map_err(|e| e.to_string())?;
            block::run_on(camellia, run)
        }
        match key.len() {
            16 => on::<Bits128>(key, rung, run),
            24 => on::<Bits192>(key, rung, run),
            32 => on::<Bits256>(key, rung, run),
            len => Err(format!("a key of {len} bytes")),
        }
    }

    fn reference(key: &[u8]) -> impl Fn(&[u8; 16], bool) -> [u8; 16] {
        let enc = Subkeys::new(key);
        let dec = enc.inverse();
        move |block, decrypt| {
            let mut b = *block;
            reference::encrypt_block(if decrypt { &dec } else { &enc }, &mut b);
            b
        }
    }
}

/// The rows' names.
fn name(mode: Mode) -> &'static str {
    match mode {
        Mode::Ecb => "camellia-ecb",
        Mode::Cbc => "camellia-cbc",
        Mode::Cfb => "camellia-cfb",
        Mode::Ofb => "camellia-ofb",
        Mode::Ctr => "camellia-ctr",
        Mode::Cmac => "camellia-cmac",
    }
}

/// Every mode on every rung.
pub(crate) fn run(report: &mut Report) {
    for mode in Mode::ALL {
        report.primitive(name(mode), |rung: Rung, seeds| {
            [
                vectors(mode, rung).vectors(),
                Outcome::Ran(cross_check(mode, rung, &mut seeds.rng(1))),
                block::round_trips::<Algo>(mode, rung, &mut seeds.rng(2)),
            ]
        });
    }
}

/// The cross-check on `rung`; for CTR also the end of the keystream.
fn cross_check(mode: Mode, rung: Rung, rng: &mut crate::harness::Rng) -> Tally {
    let mut t = block::cross_check::<Algo>(mode, rung, rng);
    if mode == Mode::Ctr {
        let key = [7u8; 16];
        match Camellia::<Bits128>::from_slice(&key).and_then(|c| c.with_rung(rung)) {
            Ok(c) => block::keystream_end(c, &Algo::reference(&key), &mut t),
            Err(e) => t.check(false, || e.to_string()),
        }
    }
    t
}

/// The records of a file in NIST vector form: `NAME = hex` lines, records
/// apart at `COUNT`, `#` comments and `[ENCRYPT]` headers skipped.
fn nist(text: &str) -> Vec<Vec<(&str, &str)>> {
    let mut records: Vec<Vec<(&str, &str)>> = Vec::new();
    for line in text.lines().map(str::trim) {
        let Some((name, value)) = line.split_once('=') else {
            continue;
        };
        let (name, value) = (name.trim(), value.trim());
        if name == "COUNT" || records.is_empty() {
            records.push(Vec::new());
        }
        if let Some(record) = records.last_mut() {
            record.push((name, value));
        }
    }
    records
}

/// One of NTT's known answers: its label, key, plaintext and ciphertext.
struct Kat {
    label: String,
    key: Vec<u8>,
    pt: Vec<u8>,
    ct: Vec<u8>,
}

/// NTT's known-answer tests: `K No.n : bytes` sets the key for the
/// `P`/`C` pairs after it.
fn ntt(text: &str) -> Vec<Kat> {
    let mut out = Vec::new();
    let (mut key, mut key_no, mut pt) = (Vec::new(), "", Vec::new());
    for line in text.lines() {
        let Some((tag, bytes)) = line.split_once(':') else {
            continue;
        };
        let bytes: String = bytes.split_whitespace().collect();
        let bytes = hex(&bytes).unwrap_or_default();
        match tag.split_whitespace().collect::<Vec<_>>()[..] {
            ["K", no] => (key, key_no) = (bytes, no),
            ["P", _] => pt = bytes,
            ["C", no] => out.push(Kat {
                label: format!("NTT key {key_no} {no}"),
                key: key.clone(),
                pt: pt.clone(),
                ct: bytes,
            }),
            _ => {}
        }
    }
    out
}

/// The official vectors of `mode` on `rung`.
fn vectors(mode: Mode, rung: Rung) -> Tally {
    let mut t = Tally::default();
    let field = |r: &[(&str, &str)], k: &str| {
        r.iter().find(|(n, _)| *n == k).and_then(|(_, v)| hex(v))
    };
    let files: &[&str] = match mode {
        Mode::Ecb => &[RFC3713],
        Mode::Cbc => &[CBC],
        Mode::Cfb => &[CFB],
        Mode::Ofb => &[OFB],
        Mode::Ctr => &[CTR],
        Mode::Cmac => &[CMAC],
    };
    for (f, file) in files.iter().enumerate() {
        for (i, r) in nist(file).iter().enumerate() {
            let label = format!("{} file {f} record {i}", name(mode));
            let (out_field, in_field) = match mode {
                Mode::Cmac => ("TAG", "MESSAGE"),
                _ => ("CIPHERTEXT", "PLAINTEXT"),
            };
            let (Some(key), Some(input), Some(output)) =
                (field(r, "KEY"), field(r, in_field), field(r, out_field))
            else {
                t.malformed(label);
                continue;
            };
            let iv = field(r, "IV").and_then(|iv| iv.try_into().ok()).unwrap_or([0; 16]);
            let v = Known {
                name: &label,
                key: &key,
                iv,
                pt: &input,
                ct: &output,
            };
            block::known::<Algo>(&mut t, rung, mode, &v);
        }
    }
    if mode == Mode::Ecb {
        for file in [NTT_128, NTT_192, NTT_256] {
            for kat in ntt(file) {
                let v = Known {
                    name: &kat.label,
                    key: &kat.key,
                    iv: [0; 16],
                    pt: &kat.pt,
                    ct: &kat.ct,
                };
                block::known::<Algo>(&mut t, rung, mode, &v);
            }
        }
    }
    if mode == Mode::Cmac {
        cmac_verify(&mut t, rung);
    }
    t
}

/// CMAC's `verify`: the first CMAC vector's tag accepted, and refused with
/// any one bit of it flipped.
fn cmac_verify(t: &mut Tally, rung: Rung) {
    let records = nist(CMAC);
    let Some(r) = records.first() else {
        t.malformed("camellia-cmac: no record");
        return;
    };
    let field = |k: &str| r.iter().find(|(n, _)| *n == k).and_then(|(_, v)| hex(v));
    let (Some(key), Some(msg), Some(tag)) = (field("KEY"), field("MESSAGE"), field("TAG")) else {
        t.malformed("camellia-cmac record 0");
        return;
    };
    let verify = |tag: &[u8]| {
        Camellia::<Bits128>::from_slice(&key)
            .and_then(|c| c.with_rung(rung))
            .and_then(|c| {
                let mut mac = crate::block::Cmac::from_cipher(c);
                mac.update(&msg);
                mac.verify(tag)
            })
    };
    t.check(verify(&tag).is_ok(), || "camellia-cmac: verify".to_owned());
    for bit in [0, 77, 127] {
        let mut bad = tag.clone();
        bad[bit / 8] ^= 1 << (bit % 8);
        t.check(verify(&bad).is_err(), || format!("camellia-cmac: bit {bit} flipped"));
    }
}

/// The ladder's fuzz case: one mode on a case the fuzzer's bytes steer,
/// on every rung, against the oracle over the reference.
pub(crate) fn fuzz(input: &[u8]) -> Tally {
    block::fuzz::<Algo>(input)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::block::BlockCipher;

    #[test]
    fn every_file_parses_to_its_count() {
        assert_eq!(nist(RFC3713).len(), 3);
        assert_eq!(nist(CBC).len(), 12);
        assert_eq!(nist(CFB).len(), 12);
        assert_eq!(nist(OFB).len(), 12);
        assert_eq!(nist(CTR).len(), 9);
        assert_eq!(nist(CMAC).len(), 12);
        for file in [NTT_128, NTT_192, NTT_256] {
            assert_eq!(ntt(file).len(), 1280);
        }
    }

    #[test]
    fn the_cipher_is_a_block_cipher_of_16_bytes() {
        assert_eq!(<Camellia<Bits256> as BlockCipher>::BLOCK_LEN, 16);
    }
}
