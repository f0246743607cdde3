//! AES and its modes: every rung on the official vectors (FIPS 197; SP
//! 800-38A's ECB, CBC, CFB, OFB and CTR examples; RFC 4493; Wycheproof's
//! CBC with PKCS#5 padding and CMAC), against the modes written out from
//! the standards over `reference::cipher` on random keys of every size,
//! lengths, pieces, offsets and counters (carries across 2^32, 2^64 and
//! the wrap at 2^128 included), and in round trips with every other rung
//! (the shared block-cipher checks of [`crate::harness::block`], whose
//! oracles do not use the library's mode layer: a fault in it shows on
//! every rung, the reference's included).

use serde_json::Value;

use super::reference::{cipher, inv_cipher, key_expansion};
use super::{Aes, Bits128, Bits192, Bits256, Rung};
use crate::Error;
use crate::block::padding::Padding;
use crate::block::{BlockCipher, Cbc, Cmac};
use crate::harness::block::{self, BlockAlgo, Known, Mode, Run};
use crate::harness::vectors::{hex_field, label, parse, records, wycheproof_tests};
use crate::harness::{Outcome, Report, Rng, Tally};

const FIPS197: &str = include_str!("../../tests/data/aes/fips197.json");
const SP800_38A: &str = include_str!("../../tests/data/aes/sp800_38a.json");
const CFB_OFB: &str = include_str!("../../tests/data/aes/sp800_38a_cfb_ofb.json");
const RFC4493: &str = include_str!("../../tests/data/aes/rfc4493.json");
const WYCHEPROOF_CBC: &str = include_str!("../../tests/data/wycheproof/aes_cbc_pkcs5_test.json");
const WYCHEPROOF_CMAC: &str = include_str!("../../tests/data/wycheproof/aes_cmac_test.json");

struct Files {
    fips197: Value,
    sp800_38a: Value,
    cfb_ofb: Value,
    rfc4493: Value,
    cbc: Value,
    cmac: Value,
}

impl Files {
    fn parse() -> Files {
        Files {
            fips197: parse(FIPS197),
            sp800_38a: parse(SP800_38A),
            cfb_ofb: parse(CFB_OFB),
            rfc4493: parse(RFC4493),
            cbc: parse(WYCHEPROOF_CBC),
            cmac: parse(WYCHEPROOF_CMAC),
        }
    }
}

/// Runs `$body` with `$K` the key size of a `$len`-byte key; `$none` for
/// any other length.
macro_rules! by_size {
    ($len:expr, $K:ident => $body:expr, _ => $none:expr) => {
        match $len {
            16 => {
                type $K = Bits128;
                $body
            }
            24 => {
                type $K = Bits192;
                $body
            }
            32 => {
                type $K = Bits256;
                $body
            }
            _ => $none,
        }
    };
}

/// AES under `key` (its size checked by the caller) on `imp`.
fn aes<K: super::KeySize>(key: &[u8], imp: Rung) -> Result<Aes<K>, String> {
    Aes::<K>::from_slice(key)
        .and_then(|a| a.with_rung(imp))
        .map_err(|e| e.to_string())
}

/// AES as the shared block-cipher checks see it.
struct Algo;

impl BlockAlgo for Algo {
    type Rung = Rung;
    const KEY_LENS: &'static [usize] = &[16, 24, 32];

    fn run(key: &[u8], rung: Rung, run: &Run<'_>) -> Result<Vec<u8>, String> {
        by_size!(key.len(), K => block::run_on(aes::<K>(key, rung)?, run),
            _ => Err(format!("a key of {} bytes", key.len())))
    }

    fn reference(key: &[u8]) -> impl Fn(&[u8; 16], bool) -> [u8; 16] {
        let w = key_expansion(key);
        move |block, decrypt| {
            if decrypt {
                inv_cipher(block, &w)
            } else {
                cipher(block, &w)
            }
        }
    }
}

/// The rows' names.
fn name(mode: Mode) -> &'static str {
    match mode {
        Mode::Ecb => "aes-ecb",
        Mode::Cbc => "aes-cbc",
        Mode::Cfb => "aes-cfb",
        Mode::Ofb => "aes-ofb",
        Mode::Ctr => "aes-ctr",
        Mode::Cmac => "aes-cmac",
    }
}

/// Every mode on every rung.
pub(crate) fn run(report: &mut Report) {
    let files = Files::parse();
    for mode in Mode::ALL {
        report.primitive(name(mode), |imp: Rung, seeds| {
            [
                vectors(&files, mode, imp).vectors(),
                Outcome::Ran(cross_check(mode, imp, &mut seeds.rng(1))),
                block::round_trips::<Algo>(mode, imp, &mut seeds.rng(2)),
            ]
        });
    }
}

/// The cross-check on `imp`; for CTR also the end of the keystream.
fn cross_check(mode: Mode, imp: Rung, rng: &mut Rng) -> Tally {
    let mut t = block::cross_check::<Algo>(mode, imp, rng);
    if mode == Mode::Ctr {
        let key = [7u8; 16];
        match aes::<Bits128>(&key, imp) {
            Ok(a) => block::keystream_end(a, &Algo::reference(&key), &mut t),
            Err(e) => t.check(false, || e),
        }
    }
    t
}

/// A record's hex fields, or a malformed-record failure.
fn fields<const N: usize>(t: &mut Tally, r: &Value, keys: [&str; N]) -> Option<[Vec<u8>; N]> {
    let got: Option<Vec<Vec<u8>>> = keys.iter().map(|k| hex_field(r, k)).collect();
    match got {
        Some(v) => v.try_into().ok(),
        None => {
            t.malformed(label(r));
            None
        }
    }
}

/// The IV field of a record, or zeros (ECB).
fn iv_of(iv: &[u8]) -> [u8; 16] {
    iv.try_into().unwrap_or([0; 16])
}

/// The official vectors of `mode` on `imp`, in one call and in pieces of
/// every block-aligned split; for CMAC the tags verified too.
fn vectors(files: &Files, mode: Mode, imp: Rung) -> Tally {
    let mut t = Tally::default();
    let known = |t: &mut Tally, r: &Value, key: &[u8], iv: &[u8], pt: &[u8], ct: &[u8]| {
        let name = label(r);
        let v = Known {
            name: &name,
            key,
            iv: iv_of(iv),
            pt,
            ct,
        };
        block::known::<Algo>(t, imp, mode, &v);
    };
    match mode {
        Mode::Ecb => {
            for r in records(&files.fips197, "vectors") {
                if let Some([k, p, c]) = fields(&mut t, r, ["key", "plaintext", "ciphertext"]) {
                    known(&mut t, r, &k, &[], &p, &c);
                }
            }
        }
        Mode::Cbc | Mode::Ctr | Mode::Cfb | Mode::Ofb => {}
        Mode::Cmac => {
            for r in records(&files.rfc4493, "vectors") {
                if let Some([k, m, tag]) = fields(&mut t, r, ["key", "message", "tag"]) {
                    known(&mut t, r, &k, &[], &m, &tag);
                    cmac_verify(&mut t, imp, r, &k, &m, &tag, true);
                }
            }
            for r in wycheproof_tests(&files.cmac) {
                if let Some([k, m, tag]) = fields(&mut t, r, ["key", "msg", "tag"]) {
                    let valid = r["result"] == "valid";
                    if valid {
                        known(&mut t, r, &k, &[], &m, &tag);
                    }
                    cmac_verify(&mut t, imp, r, &k, &m, &tag, valid);
                }
            }
        }
    }
    let file_mode = match mode {
        Mode::Ecb => Some("ecb"),
        Mode::Cbc => Some("cbc"),
        Mode::Ctr => Some("ctr"),
        _ => None,
    };
    if let Some(m) = file_mode {
        for r in records(&files.sp800_38a, "vectors")
            .iter()
            .filter(|r| r["mode"] == m)
        {
            let iv_field = if m == "ctr" {
                "initial_counter_block"
            } else {
                "iv"
            };
            if m == "ecb" {
                if let Some([k, p, c]) = fields(&mut t, r, ["key", "plaintext", "ciphertext"]) {
                    known(&mut t, r, &k, &[], &p, &c);
                }
            } else if let Some([k, iv, p, c]) =
                fields(&mut t, r, ["key", iv_field, "plaintext", "ciphertext"])
            {
                known(&mut t, r, &k, &iv, &p, &c);
            }
        }
    }
    let cfb_ofb = match mode {
        Mode::Cfb => Some("cfb"),
        Mode::Ofb => Some("ofb"),
        _ => None,
    };
    if let Some(m) = cfb_ofb {
        for r in records(&files.cfb_ofb, "vectors")
            .iter()
            .filter(|r| r["mode"] == m)
        {
            if let Some([k, iv, p, c]) = fields(&mut t, r, ["key", "iv", "plaintext", "ciphertext"])
            {
                known(&mut t, r, &k, &iv, &p, &c);
            }
        }
    }
    if mode == Mode::Cbc {
        for r in wycheproof_tests(&files.cbc) {
            if let Some([k, iv, m, c]) = fields(&mut t, r, ["key", "iv", "msg", "ct"]) {
                cbc_padded_case(&mut t, imp, r, &k, &iv, &m, &c);
            }
        }
    }
    t
}

/// A CMAC vector's tag verified (or refused, for an invalid case: a
/// modified tag or a key of no AES size).
fn cmac_verify(
    t: &mut Tally,
    imp: Rung,
    r: &Value,
    key: &[u8],
    msg: &[u8],
    tag: &[u8],
    valid: bool,
) {
    let name = label(r);
    let verified = by_size!(key.len(), K => aes::<K>(key, imp).and_then(|a| {
        let mut mac = Cmac::from_cipher(a);
        mac.update(msg);
        mac.verify(tag).map_err(|e| e.to_string())
    }), _ => Err("no AES key size".to_owned()));
    t.check(verified.is_ok() == valid, || {
        format!("{name}: verify gave {verified:?}")
    });
}

/// What a padded CBC case gives: the sealed message, and the opened one
/// whole and streamed.
type PaddedResults = (Vec<u8>, Result<Vec<u8>, Error>, Result<Vec<u8>, Error>);

/// A Wycheproof CBC-PKCS#5 case: a valid one encrypts to its ciphertext
/// and decrypts back, whole and streamed; every invalid one is refused
/// with the one [`Error::BadPadding`].
fn cbc_padded_case(
    t: &mut Tally,
    imp: Rung,
    r: &Value,
    key: &[u8],
    iv: &[u8],
    msg: &[u8],
    ct: &[u8],
) {
    let name = label(r);
    let Ok(iv) = <[u8; 16]>::try_from(iv) else {
        t.malformed(name);
        return;
    };
    let result: Result<PaddedResults, String> = by_size!(key.len(), K => aes::<K>(key, imp).map(|a| {
            let sealed = Cbc::from_cipher(a.clone(), &iv).encrypt_padded_vec(msg);
            let opened = Cbc::from_cipher(a.clone(), &iv).decrypt_padded_vec(ct);
            let streamed = streamed_open(Cbc::from_cipher(a, &iv), ct);
            (sealed, opened, streamed)
        }), _ => Err("no AES key size".to_owned()));
    let Ok((sealed, opened, streamed)) = result else {
        t.check(false, || format!("{name}: {result:?}"));
        return;
    };
    if r["result"] == "valid" {
        t.check(sealed == ct, || format!("{name}: encrypt"));
        t.check(opened.as_deref() == Ok(msg), || format!("{name}: decrypt"));
        t.check(streamed.as_deref() == Ok(msg), || {
            format!("{name}: streamed decrypt")
        });
    } else {
        t.check(opened == Err(Error::BadPadding), || {
            format!("{name}: gave {opened:?}")
        });
        t.check(streamed == Err(Error::BadPadding), || {
            format!("{name}: streamed gave {streamed:?}")
        });
    }
}

/// `ct` decrypted by a streaming [`Cbc::decryptor`] fed 7 bytes at a time.
fn streamed_open<C: BlockCipher>(cbc: Cbc<C>, ct: &[u8]) -> Result<Vec<u8>, Error> {
    let mut dec = cbc.decryptor(Padding::Pkcs7);
    let mut out = vec![0u8; ct.len() + 16];
    let mut n = 0;
    for piece in ct.chunks(7) {
        n += dec.update(piece, &mut out[n..])?;
    }
    n += dec.finalize(&mut out[n..])?;
    out.truncate(n);
    Ok(out)
}

/// The ladder's fuzz case: one mode on a case the fuzzer's bytes steer,
/// on every rung, against the oracle over the reference.
pub(crate) fn fuzz(input: &[u8]) -> Tally {
    block::fuzz::<Algo>(input)
}
