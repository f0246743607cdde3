//! AES-GCM and AES-GCM-SIV as the library builds them, on each path a
//! message can take — AES and GHASH/POLYVAL both on their `reference`
//! rungs; AES on its best rung with GHASH/POLYVAL on `soft64`, `pclmul`,
//! `vpclmul`, `neon` or `pmull`; each stitched kernel of GCM (`vaes` on
//! ymm, `vaes512` on zmm, `armv8` with ARMv8's AES instructions and
//! PMULL; GCM-SIV on AES's and POLYVAL's ymm rungs, with both on zmm, or
//! with POLYVAL on `pmull`); and the type as `new` builds it: on the GCM
//! specification's 18 cases, all of Wycheproof's `aes_gcm_test.json` and
//! `aes_gcm_siv_test.json` (every invalid case refused, the output
//! zeroed) and RFC 8452's Appendix C; against both constructions written
//! out here over the reference AES and the documents' GHASH and POLYVAL,
//! on random keys, IVs, associated data and lengths (GCM's 32-bit counter
//! also started just below its wrap); and sealed on one path, opened on
//! every other, and refused once tampered with.

use serde_json::Value;

use super::{AesGcm, AesGcmSiv, GcmKernel, SivKeySize, TAG_LEN};
use crate::aes::reference::{cipher, key_expansion};
use crate::aes::{self, KeySize};
use crate::ghash::{self, reference};
use crate::harness::vectors::{hex_field, label, parse, records, wycheproof_tests};
use crate::harness::{BLOCK_EDGES, Outcome, Report, Rng, Tally, others};
use crate::xor::InOut;
use crate::{Error, RungSet};

const GCM_SPEC: &str = include_str!("../../tests/data/aes/gcm_spec_test_cases.json");
const RFC8452: &str = include_str!("../../tests/data/aes/rfc8452.json");
const WYCHEPROOF_GCM: &str = include_str!("../../tests/data/wycheproof/aes_gcm_test.json");
const WYCHEPROOF_SIV: &str = include_str!("../../tests/data/wycheproof/aes_gcm_siv_test.json");

/// Random cases per AEAD and path against the written-out construction.
const CASES: u64 = 120;
/// Round trips per other path.
const ROUND_TRIPS: u64 = 12;
/// The longest random message: past several 8-block steps and the tail.
const MAX_LEN: u64 = 2100;
/// Longer messages, across the 16 KiB chunks of the unstitched path.
const LONG: [usize; 2] = [16 * 1024 + 37, 40 * 1024 + 5];
/// The stitched kernels' sweep: every length to here, past two of the
/// zmm kernel's 512-byte steps and every length of their tails.
const EVERY: usize = 1100;
/// Past the sweep: three to five of the zmm kernel's 512-byte steps (its
/// loops take them two at a time, one GHASH reduction per pair), with no
/// tail and with tails of 1, 17 and 511 bytes.
const STEPS: [usize; 12] = [
    1536, 1537, 1553, 2047, 2048, 2049, 2065, 2559, 2560, 2561, 2577, 3071,
];
/// Its lengths of associated data, around the kernels' 16- and 32-block
/// groups and their short-message path.
const EVERY_AAD: [usize; 16] = [
    0, 1, 13, 15, 16, 17, 100, 255, 256, 257, 300, 495, 511, 512, 513, 600,
];

/// The path a message takes through an AEAD: the "rungs" of its rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Path {
    /// AES and GHASH/POLYVAL on their `reference` rungs.
    Reference,
    /// AES on its best rung, GHASH/POLYVAL on `soft64`.
    Soft64,
    /// The same with `pclmul`.
    Pclmul,
    /// The same with `vpclmul`.
    Vpclmul,
    /// The same with `neon`.
    Neon,
    /// The same with `pmull`.
    Pmull,
    /// GCM's stitched ymm kernel; GCM-SIV with AES on `vaes` and POLYVAL
    /// on `vpclmul`.
    Vaes,
    /// GCM's stitched zmm kernel; GCM-SIV with POLYVAL and CTR on zmm
    /// (`gcm_vaes512`).
    Vaes512,
    /// GCM's stitched ARMv8 kernel (AES instructions and PMULL); GCM-SIV
    /// with AES on its best rung and POLYVAL on `pmull`.
    Armv8,
    /// The type as `new` builds it: for GCM the stitched kernel where the
    /// CPU runs it.
    Default,
}

impl Path {
    /// The GHASH rung of a path that forces one, and with it the AES rung.
    fn rungs(self) -> Option<(aes::Rung, ghash::Rung)> {
        let best = aes::Rung::best();
        match self {
            Path::Reference => Some((aes::Rung::Reference, ghash::Rung::Reference)),
            Path::Soft64 => Some((best, ghash::Rung::Soft64)),
            Path::Pclmul => Some((best, ghash::Rung::Pclmul)),
            Path::Vpclmul => Some((best, ghash::Rung::Vpclmul)),
            Path::Neon => Some((best, ghash::Rung::Neon)),
            Path::Pmull => Some((best, ghash::Rung::Pmull)),
            Path::Vaes => Some((aes::Rung::Vaes, ghash::Rung::Vpclmul)),
            Path::Vaes512 => Some((aes::Rung::Vaes512, ghash::Rung::Vpclmul)),
            Path::Armv8 => Some((best, ghash::Rung::Pmull)),
            Path::Default => None,
        }
    }

    /// GCM's stitched kernel of a path that forces one.
    fn kernel(self) -> Option<GcmKernel> {
        match self {
            Path::Vaes => Some(GcmKernel::Vaes),
            Path::Vaes512 => Some(GcmKernel::Vaes512),
            Path::Armv8 => Some(GcmKernel::Armv8),
            _ => None,
        }
    }
}

impl std::fmt::Display for Path {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl RungSet for Path {
    const PRIMITIVE: &'static str = "aes-gcm";
    fn all() -> &'static [Self] {
        &[
            Path::Reference,
            Path::Soft64,
            Path::Pclmul,
            Path::Vpclmul,
            Path::Neon,
            Path::Pmull,
            Path::Vaes,
            Path::Vaes512,
            Path::Armv8,
            Path::Default,
        ]
    }
    fn name(self) -> &'static str {
        match (self.kernel(), self.rungs()) {
            (Some(k), _) => k.name(),
            (None, Some((_, g))) => g.name(),
            (None, None) => "default",
        }
    }
    fn needs(self) -> &'static str {
        match (self.kernel(), self.rungs()) {
            (Some(k), _) => k.needs(),
            (None, Some((_, g))) => g.needs(),
            (None, None) => "nothing",
        }
    }
    fn is_available(self) -> bool {
        // A kernel's CPU features cover those of its GCM-SIV rungs.
        match (self.kernel(), self.rungs()) {
            (Some(k), _) => k.is_available(),
            (None, Some((a, g))) => a.is_available() && g.is_available(),
            (None, None) => true,
        }
    }
    fn is_constant_time(self) -> bool {
        self.rungs()
            .is_none_or(|(a, g)| a.is_constant_time() && g.is_constant_time())
    }
}

/// The five AEADs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Gcm128,
    Gcm192,
    Gcm256,
    Siv128,
    Siv256,
}

impl Kind {
    const ALL: [Kind; 5] = [
        Kind::Gcm128,
        Kind::Gcm192,
        Kind::Gcm256,
        Kind::Siv128,
        Kind::Siv256,
    ];

    fn name(self) -> &'static str {
        match self {
            Kind::Gcm128 => "aes-128-gcm",
            Kind::Gcm192 => "aes-192-gcm",
            Kind::Gcm256 => "aes-256-gcm",
            Kind::Siv128 => "aes-128-gcm-siv",
            Kind::Siv256 => "aes-256-gcm-siv",
        }
    }

    fn key_len(self) -> usize {
        match self {
            Kind::Gcm128 | Kind::Siv128 => 16,
            Kind::Gcm192 => 24,
            Kind::Gcm256 | Kind::Siv256 => 32,
        }
    }

    fn siv(self) -> bool {
        matches!(self, Kind::Siv128 | Kind::Siv256)
    }

    /// The AEAD under `key` on `path`.
    fn build(self, key: &[u8], path: Path) -> Result<Box<dyn Sealer>, String> {
        match self {
            Kind::Gcm128 => gcm::<aes::Bits128>(key, path),
            Kind::Gcm192 => gcm::<aes::Bits192>(key, path),
            Kind::Gcm256 => gcm::<aes::Bits256>(key, path),
            Kind::Siv128 => siv::<aes::Bits128>(key, path),
            Kind::Siv256 => siv::<aes::Bits256>(key, path),
        }
    }
}

/// The key as `K`'s key array.
fn key_of<K: KeySize>(key: &[u8]) -> Result<&K::Key, String>
where
    for<'a> &'a K::Key: TryFrom<&'a [u8]>,
{
    key.try_into()
        .map_err(|_| format!("a {}-byte key", key.len()))
}

fn gcm<K: KeySize>(key: &[u8], path: Path) -> Result<Box<dyn Sealer>, String>
where
    for<'a> &'a K::Key: TryFrom<&'a [u8]>,
{
    let aead = AesGcm::<K>::new(key_of::<K>(key)?);
    let aead = match (path.kernel(), path.rungs()) {
        (Some(k), _) => aead.with_kernel(k),
        (None, Some((a, g))) => aead.with_rung(a, g),
        (None, None) => Ok(aead),
    };
    Ok(Box::new(aead.map_err(|e| e.to_string())?))
}

fn siv<K: SivKeySize>(key: &[u8], path: Path) -> Result<Box<dyn Sealer>, String>
where
    for<'a> &'a K::Key: TryFrom<&'a [u8]>,
{
    let aead = AesGcmSiv::<K>::new(key_of::<K>(key)?);
    let aead = match (path.kernel(), path.rungs()) {
        (Some(k), _) => aead.with_kernel(k),
        (None, Some((a, g))) => aead.with_rung(a, g),
        (None, None) => Ok(aead),
    };
    Ok(Box::new(aead.map_err(|e| e.to_string())?))
}

/// What the checks ask of either AEAD, errors as text.
trait Sealer {
    /// Seals with the allocating form (any IV length for GCM).
    fn seal(&self, iv: &[u8], aad: &[u8], pt: &[u8]) -> Result<Vec<u8>, String>;
    /// Opens with the allocating form.
    fn open(&self, iv: &[u8], aad: &[u8], sealed: &[u8]) -> Result<Vec<u8>, String>;
    /// Opens in place (detached); the data after the call, zeros or not.
    fn open_in_place(&self, iv: &[u8], aad: &[u8], sealed: &[u8]) -> (Result<(), String>, Vec<u8>);
    /// Seals in place (detached) under a 12-byte nonce: ciphertext ‖ tag.
    fn seal_in_place(&self, nonce: &[u8; 12], aad: &[u8], pt: &[u8]) -> Vec<u8>;
    /// GCM with a chosen pre-counter block, in place: ciphertext ‖ tag.
    fn seal_j0(&self, _j0: &[u8; 16], _aad: &[u8], _pt: &[u8]) -> Option<Vec<u8>> {
        None
    }
}

/// Splits a sealed message into its ciphertext and tag.
fn split(sealed: &[u8]) -> Result<(&[u8], [u8; TAG_LEN]), String> {
    let at = sealed
        .len()
        .checked_sub(TAG_LEN)
        .ok_or("shorter than a tag")?;
    let tag = sealed[at..].try_into().expect("TAG_LEN bytes");
    Ok((&sealed[..at], tag))
}

fn text(e: Error) -> String {
    e.to_string()
}

impl<K: KeySize> Sealer for AesGcm<K> {
    fn seal(&self, iv: &[u8], aad: &[u8], pt: &[u8]) -> Result<Vec<u8>, String> {
        match iv.try_into() {
            // The common interface for 96-bit nonces, `_with_iv` else.
            Ok(nonce) => Ok(self.encrypt(nonce, aad, pt)),
            Err(_) => self.encrypt_with_iv(iv, aad, pt).map_err(text),
        }
    }
    fn open(&self, iv: &[u8], aad: &[u8], sealed: &[u8]) -> Result<Vec<u8>, String> {
        match iv.try_into() {
            Ok(nonce) => self.decrypt(nonce, aad, sealed).map_err(text),
            Err(_) => self.decrypt_with_iv(iv, aad, sealed).map_err(text),
        }
    }
    fn open_in_place(&self, iv: &[u8], aad: &[u8], sealed: &[u8]) -> (Result<(), String>, Vec<u8>) {
        let Ok((ct, tag)) = split(sealed) else {
            return (Err("shorter than a tag".to_owned()), Vec::new());
        };
        let mut data = ct.to_vec();
        let verdict = self.decrypt_in_place_detached_with_iv(iv, aad, &mut data, &tag);
        (verdict.map_err(text), data)
    }
    fn seal_in_place(&self, nonce: &[u8; 12], aad: &[u8], pt: &[u8]) -> Vec<u8> {
        let mut data = pt.to_vec();
        let tag = self.encrypt_in_place_detached(nonce, aad, &mut data);
        data.extend_from_slice(&tag);
        data
    }
    fn seal_j0(&self, j0: &[u8; 16], aad: &[u8], pt: &[u8]) -> Option<Vec<u8>> {
        let mut data = pt.to_vec();
        let tag = self.seal_j0(j0, aad, InOut::in_place(&mut data)).ok()?;
        data.extend_from_slice(&tag);
        Some(data)
    }
}

impl<K: SivKeySize> Sealer for AesGcmSiv<K> {
    fn seal(&self, iv: &[u8], aad: &[u8], pt: &[u8]) -> Result<Vec<u8>, String> {
        let nonce = iv.try_into().map_err(|_| "not a 12-byte nonce")?;
        // Into a buffer of the caller's, as `encrypt` does.
        let mut sealed = vec![0u8; pt.len() + TAG_LEN];
        self.encrypt_into(nonce, aad, pt, &mut sealed)
            .map_err(text)?;
        Ok(sealed)
    }
    fn open(&self, iv: &[u8], aad: &[u8], sealed: &[u8]) -> Result<Vec<u8>, String> {
        let nonce = iv.try_into().map_err(|_| "not a 12-byte nonce")?;
        self.decrypt(nonce, aad, sealed).map_err(text)
    }
    fn open_in_place(&self, iv: &[u8], aad: &[u8], sealed: &[u8]) -> (Result<(), String>, Vec<u8>) {
        let (Ok(nonce), Ok((ct, tag))) = (iv.try_into(), split(sealed)) else {
            return (Err("bad nonce or sealed length".to_owned()), Vec::new());
        };
        let mut data = ct.to_vec();
        let verdict = self.decrypt_in_place_detached(nonce, aad, &mut data, &tag);
        (verdict.map_err(text), data)
    }
    fn seal_in_place(&self, nonce: &[u8; 12], aad: &[u8], pt: &[u8]) -> Vec<u8> {
        let mut data = pt.to_vec();
        let tag = self.encrypt_in_place_detached(nonce, aad, &mut data);
        data.extend_from_slice(&tag);
        data
    }
}

/// Every row: each AEAD on each path.
pub(crate) fn run(report: &mut Report) {
    let files = Files {
        spec: parse(GCM_SPEC),
        rfc8452: parse(RFC8452),
        gcm: parse(WYCHEPROOF_GCM),
        siv: parse(WYCHEPROOF_SIV),
    };
    for kind in Kind::ALL {
        report.primitive(kind.name(), |path: Path, seeds| {
            [
                vectors(&files, kind, path).vectors(),
                Outcome::Ran(cross_check(kind, path, &mut seeds.rng(1))),
                round_trips(kind, path, &mut seeds.rng(2)),
            ]
        });
    }
}

struct Files {
    spec: Value,
    rfc8452: Value,
    gcm: Value,
    siv: Value,
}

/// One published case: the inputs, and the sealed form when valid.
struct Case {
    name: String,
    key: Vec<u8>,
    iv: Vec<u8>,
    aad: Vec<u8>,
    pt: Vec<u8>,
    sealed: Vec<u8>,
    valid: bool,
}

impl Case {
    /// A case from fields named `key`, `iv`/`nonce`, `aad`, `pt`, and the
    /// ciphertext and tag (or the two together).
    fn from(v: &Value, names: [&str; 6]) -> Option<Case> {
        let [iv, pt, ct, tag, ..] = names;
        let mut sealed = hex_field(v, ct)?;
        if !tag.is_empty() {
            sealed.extend(hex_field(v, tag)?);
        }
        Some(Case {
            name: label(v),
            key: hex_field(v, "key")?,
            iv: hex_field(v, iv)?,
            aad: hex_field(v, "aad")?,
            pt: hex_field(v, pt)?,
            sealed,
            valid: v["result"].as_str().is_none_or(|r| r != "invalid"),
        })
    }
}

/// The published cases of `kind`.
fn cases(files: &Files, kind: Kind) -> Vec<Option<Case>> {
    let wycheproof = |file: &Value| {
        wycheproof_tests(file)
            .map(|v| Case::from(v, ["iv", "msg", "ct", "tag", "", ""]))
            .collect::<Vec<_>>()
    };
    let mut all = Vec::new();
    if kind.siv() {
        for section in ["aes_128_gcm_siv", "aes_256_gcm_siv", "counter_wrap"] {
            for (i, v) in records(&files.rfc8452, section).iter().enumerate() {
                all.push(
                    Case::from(v, ["nonce", "plaintext", "result", "", "", ""]).map(|mut c| {
                        c.name = format!("RFC 8452 {section} #{i}");
                        c
                    }),
                );
            }
        }
        all.extend(wycheproof(&files.siv));
    } else {
        let spec = records(&files.spec, "test_cases").iter();
        all.extend(spec.map(|v| {
            Case::from(v, ["iv", "plaintext", "ciphertext", "tag", "", ""]).map(|mut c| {
                c.name = format!("GCM spec test case {}", v["test_case"]);
                c
            })
        }));
        all.extend(wycheproof(&files.gcm));
    }
    all.retain(|c| c.as_ref().is_none_or(|c| c.key.len() == kind.key_len()));
    all
}

/// The published cases on `path`: a valid one seals to the published
/// form and opens back (in place too); an invalid one is refused, in
/// place with the data zeroed, and for an empty IV sealing is refused too.
fn vectors(files: &Files, kind: Kind, path: Path) -> Tally {
    let mut t = Tally::default();
    for case in cases(files, kind) {
        let Some(c) = case else {
            t.malformed("a record with a missing or non-hex field");
            continue;
        };
        let aead = match kind.build(&c.key, path) {
            Ok(a) => a,
            Err(e) => {
                t.check(false, || format!("{}: {e}", c.name));
                continue;
            }
        };
        let (opened, (in_place, data)) = (
            aead.open(&c.iv, &c.aad, &c.sealed),
            aead.open_in_place(&c.iv, &c.aad, &c.sealed),
        );
        if c.valid {
            let sealed = aead.seal(&c.iv, &c.aad, &c.pt);
            t.check(sealed.as_ref() == Ok(&c.sealed), || {
                format!("{}: seal", c.name)
            });
            t.check(opened.as_ref() == Ok(&c.pt), || format!("{}: open", c.name));
            t.check(in_place.is_ok() && data == c.pt, || {
                format!("{}: open in place", c.name)
            });
        } else {
            t.check(opened.is_err(), || format!("{}: accepted", c.name));
            // Refused: the data zeroed after a failed tag, or left as the
            // ciphertext it was when the arguments are refused (an empty
            // IV) before anything is decrypted.
            let ct = &c.sealed[..c.sealed.len().saturating_sub(TAG_LEN)];
            let untouched = data.iter().all(|&b| b == 0) || (c.iv.is_empty() && data == ct);
            t.check(in_place.is_err() && untouched, || {
                format!("{}: accepted in place, or plaintext left", c.name)
            });
            if c.iv.is_empty() {
                t.check(aead.seal(&c.iv, &c.aad, &c.pt).is_err(), || {
                    format!("{}: an empty IV sealed with", c.name)
                });
            }
        }
    }
    t
}

/// `x` zero-padded to whole blocks.
fn pad(x: &[u8]) -> Vec<u8> {
    let mut p = x.to_vec();
    p.resize(x.len().next_multiple_of(16), 0);
    p
}

/// GCM written out (SP 800-38D §7.1) over the reference AES and GHASH:
/// from the pre-counter block `j0`, ciphertext ‖ tag.
fn gcm_written_out(key: &[u8], j0: &[u8; 16], aad: &[u8], pt: &[u8]) -> Vec<u8> {
    let w = key_expansion(key);
    let mut cb = *j0;
    let mut out = Vec::with_capacity(pt.len() + 16);
    for block in pt.chunks(16) {
        // inc32: the last 32 bits, modulo 2^32.
        let low = u32::from_be_bytes(cb[12..].try_into().expect("4 bytes")).wrapping_add(1);
        cb[12..].copy_from_slice(&low.to_be_bytes());
        let ks = cipher(&cb, &w);
        out.extend(block.iter().zip(ks).map(|(p, k)| p ^ k));
    }
    let h = cipher(&[0; 16], &w);
    let mut input = pad(aad);
    input.extend(pad(&out));
    input.extend(((aad.len() as u64) * 8).to_be_bytes());
    input.extend(((pt.len() as u64) * 8).to_be_bytes());
    let s = reference::ghash(&h, &input);
    let ek = cipher(j0, &w);
    out.extend(s.iter().zip(ek).map(|(s, k)| s ^ k));
    out
}

/// `J0` written out (§7.1 step 2).
fn j0_written_out(key: &[u8], iv: &[u8]) -> [u8; 16] {
    if iv.len() == 12 {
        let mut j0 = [0u8; 16];
        j0[..12].copy_from_slice(iv);
        j0[15] = 1;
        return j0;
    }
    let h = cipher(&[0; 16], &key_expansion(key));
    let mut input = pad(iv);
    input.extend([0u8; 8]);
    input.extend(((iv.len() as u64) * 8).to_be_bytes());
    reference::ghash(&h, &input)
}

/// AES-GCM-SIV written out (RFC 8452 §4) over the reference AES and
/// POLYVAL: ciphertext ‖ tag.
fn siv_written_out(key: &[u8], nonce: &[u8], aad: &[u8], pt: &[u8]) -> Vec<u8> {
    let w = key_expansion(key);
    let mut derived = Vec::new();
    for i in 0..(2 + key.len() / 8) as u32 {
        let mut block = [0u8; 16];
        block[..4].copy_from_slice(&i.to_le_bytes());
        block[4..].copy_from_slice(nonce);
        derived.extend_from_slice(&cipher(&block, &w)[..8]);
    }
    let auth: [u8; 16] = derived[..16].try_into().expect("16 bytes");
    let enc = key_expansion(&derived[16..]);
    let mut input = pad(aad);
    input.extend(pad(pt));
    input.extend(((aad.len() as u64) * 8).to_le_bytes());
    input.extend(((pt.len() as u64) * 8).to_le_bytes());
    let mut s = reference::polyval(&auth, &input);
    for (s, n) in s.iter_mut().zip(nonce) {
        *s ^= n;
    }
    s[15] &= 0x7f;
    let tag = cipher(&s, &enc);
    let mut cb = tag;
    cb[15] |= 0x80;
    let mut out = Vec::with_capacity(pt.len() + 16);
    for block in pt.chunks(16) {
        let ks = cipher(&cb, &enc);
        out.extend(block.iter().zip(ks).map(|(p, k)| p ^ k));
        let counter = u32::from_le_bytes(cb[..4].try_into().expect("4 bytes")).wrapping_add(1);
        cb[..4].copy_from_slice(&counter.to_le_bytes());
    }
    out.extend_from_slice(&tag);
    out
}

/// Random cases on `path` against the written-out construction; every
/// sixth GCM case with an IV of another length, and for GCM every
/// seventh from a pre-counter block just below the 32-bit wrap.
fn cross_check(kind: Kind, path: Path, rng: &mut Rng) -> Tally {
    let mut t = Tally::default();
    if path.kernel().is_some() || path == Path::Default {
        every_length(kind, path, rng, &mut t);
    }
    for i in 0..CASES + LONG.len() as u64 {
        let len = match i.checked_sub(CASES) {
            Some(j) => LONG[j as usize],
            None => rng.length(&BLOCK_EDGES, MAX_LEN),
        };
        let key = rng.bytes(kind.key_len());
        let iv_len = if !kind.siv() && i % 6 == 5 {
            1 + rng.index(40)
        } else {
            12
        };
        let iv = rng.bytes(iv_len);
        let aad_len = rng.index(70);
        let aad = rng.bytes(aad_len);
        let pt = rng.bytes(len);
        let aead = match kind.build(&key, path) {
            Ok(a) => a,
            Err(e) => {
                t.check(false, || format!("case {i}: {e}"));
                continue;
            }
        };
        if kind.siv() {
            let want = siv_written_out(&key, &iv, &aad, &pt);
            t.check(aead.seal(&iv, &aad, &pt) == Ok(want), || {
                format!("case {i}: {len} bytes, {} of associated data", aad.len())
            });
            continue;
        }
        let want = gcm_written_out(&key, &j0_written_out(&key, &iv), &aad, &pt);
        t.check(aead.seal(&iv, &aad, &pt) == Ok(want), || {
            format!(
                "case {i}: {len} bytes, a {iv_len}-byte IV, {} of associated data",
                aad.len()
            )
        });
        if i % 7 == 6 {
            let mut j0: [u8; 16] = rng.array();
            let below = rng.index(40) as u32;
            j0[12..].copy_from_slice(&u32::MAX.wrapping_sub(below).to_be_bytes());
            let want = gcm_written_out(&key, &j0, &aad, &pt);
            t.check(aead.seal_j0(&j0, &aad, &pt) == Some(want), || {
                format!("case {i}: {len} bytes, the counter starting {below} below its wrap")
            });
        }
    }
    t
}

/// Sealed on `path`, opened on every other path and the other way round;
/// then a bit of the ciphertext, the tag or the associated data flipped
/// and the message refused, with nothing but zeros left in place.
fn round_trips(kind: Kind, path: Path, rng: &mut Rng) -> Outcome {
    let others = others(path);
    if others.is_empty() {
        return Outcome::Skipped("no other path available".to_owned());
    }
    let mut t = Tally::default();
    let mut i = 0;
    for other in others {
        for (a, b) in [(path, other), (other, path)] {
            for _ in 0..ROUND_TRIPS {
                let len = rng.length(&BLOCK_EDGES, MAX_LEN);
                let key = rng.bytes(kind.key_len());
                let iv = rng.bytes(12);
                let aad_len = rng.index(40);
                let mut aad = rng.bytes(aad_len);
                let pt = rng.bytes(len);
                let (Ok(sealer), Ok(opener)) = (kind.build(&key, a), kind.build(&key, b)) else {
                    t.check(false, || format!("case {i}: not built on {a} or {b}"));
                    continue;
                };
                let Ok(mut sealed) = sealer.seal(&iv, &aad, &pt) else {
                    t.check(false, || format!("case {i}: not sealed on {a}"));
                    continue;
                };
                t.check(opener.open(&iv, &aad, &sealed) == Ok(pt.clone()), || {
                    format!("case {i}: {len} bytes sealed on {a}, opened on {b}")
                });
                let flip = rng.index(8 * (sealed.len() + aad.len()));
                if flip < 8 * sealed.len() {
                    sealed[flip / 8] ^= 1 << (flip % 8);
                } else {
                    let at = flip - 8 * sealed.len();
                    aad[at / 8] ^= 1 << (at % 8);
                }
                let (verdict, data) = opener.open_in_place(&iv, &aad, &sealed);
                let refused = opener.open(&iv, &aad, &sealed).is_err()
                    && verdict.is_err()
                    && data.iter().all(|&x| x == 0);
                t.check(refused, || {
                    format!("case {i}: {len} bytes, bit {flip} flipped, opened on {b}")
                });
                i += 1;
            }
        }
    }
    Outcome::Ran(t)
}

/// The stitched kernels (and the default) at every length from 0 to
/// [`EVERY`] bytes and at [`STEPS`], the associated data's length cycling
/// through [`EVERY_AAD`]: sealed in place and out of place to what the `soft64`
/// path seals (itself checked against the written-out construction), and
/// opened back in place and out of place.
fn every_length(kind: Kind, path: Path, rng: &mut Rng, t: &mut Tally) {
    let key = rng.bytes(kind.key_len());
    let (Ok(aead), Ok(partner)) = (kind.build(&key, path), kind.build(&key, Path::Soft64)) else {
        t.check(false, || format!("not built on {path} or soft64"));
        return;
    };
    let nonce: [u8; 12] = rng.array();
    let text = rng.bytes(STEPS[STEPS.len() - 1]);
    let header = rng.bytes(EVERY_AAD[EVERY_AAD.len() - 1]);
    for len in (0..=EVERY).chain(STEPS) {
        let (pt, aad) = (&text[..len], &header[..EVERY_AAD[len % EVERY_AAD.len()]]);
        let what = |how: &str| format!("{len} bytes, {} of associated data: {how}", aad.len());
        let Ok(want) = partner.seal(&nonce, aad, pt) else {
            t.check(false, || what("not sealed on soft64"));
            continue;
        };
        t.check(aead.seal(&nonce, aad, pt).as_ref() == Ok(&want), || {
            what("sealed out of place")
        });
        t.check(aead.seal_in_place(&nonce, aad, pt) == want, || {
            what("sealed in place")
        });
        t.check(aead.open(&nonce, aad, &want).as_deref() == Ok(pt), || {
            what("opened out of place")
        });
        let (verdict, data) = aead.open_in_place(&nonce, aad, &want);
        t.check(verdict.is_ok() && data == pt, || what("opened in place"));
    }
}

/// One case of the AEAD named `name` (`aes-128-gcm` …) on every path this
/// CPU runs, for the fuzz targets: sealed as the construction written out
/// over the reference AES and GHASH/POLYVAL seals it (an IV of any length
/// for GCM; GCM-SIV takes 12 bytes, and every path must refuse another),
/// opened back, and refused once the bit `flip` (modulo the sealed length)
/// is flipped, nothing but zeros left in place. `None` for another name.
pub(crate) fn aead_case(
    name: &str,
    (key, iv, aad): (&[u8], &[u8], &[u8]),
    pt: &[u8],
    flip: usize,
) -> Option<Tally> {
    let kind = Kind::ALL.into_iter().find(|k| k.name() == name)?;
    let mut t = Tally::default();
    let want = match (kind.siv(), iv.len()) {
        (true, 12) => Ok(siv_written_out(key, iv, aad, pt)),
        (true, _) => Err(()),
        (false, 0) => Err(()),
        (false, _) => Ok(gcm_written_out(key, &j0_written_out(key, iv), aad, pt)),
    };
    for path in Path::all().iter().copied().filter(|p| p.is_available()) {
        let aead = match kind.build(key, path) {
            Ok(a) => a,
            Err(e) => {
                t.check(false, || format!("{name} on {path}: {e}"));
                continue;
            }
        };
        let sealed = aead.seal(iv, aad, pt);
        let Ok(want) = &want else {
            t.check(sealed.is_err(), || {
                format!("{name} on {path}: sealed with a {}-byte IV", iv.len())
            });
            continue;
        };
        t.check(sealed.as_ref() == Ok(want), || {
            format!(
                "{name} on {path}: {} bytes, a {}-byte IV, {} of associated data: differs from the written-out construction",
                pt.len(),
                iv.len(),
                aad.len()
            )
        });
        t.check(aead.open(iv, aad, want).as_deref() == Ok(pt), || {
            format!("{name} on {path}: not opened")
        });
        let mut tampered = want.clone();
        let bit = flip % (8 * tampered.len());
        tampered[bit / 8] ^= 1 << (bit % 8);
        let (verdict, data) = aead.open_in_place(iv, aad, &tampered);
        let refused = aead.open(iv, aad, &tampered).is_err()
            && verdict.is_err()
            && data.iter().all(|&x| x == 0);
        t.check(refused, || {
            format!("{name} on {path}: bit {bit} flipped: not refused, or not zeroed")
        });
    }
    Some(t)
}

/// The ladder's fuzz case: one of its AEADs on a case the fuzzer's bytes
/// steer ([`crate::harness::fuzz_aead`]), through [`aead_case`] on every
/// path.
pub(crate) fn fuzz(input: &[u8]) -> Tally {
    let aeads = crate::table::Primitive::aead_shapes(&super::GCM_LADDER);
    crate::harness::fuzz_aead(input, &aeads, aead_case)
}
