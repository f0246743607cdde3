//! The AEADs — ChaCha20-Poly1305, XChaCha20-Poly1305, XSalsa20-Poly1305 —
//! as the library builds them, on the best rung of each primitive inside
//! (one "default" row each): on the RFC 8439, draft-irtf-cfrg-xchacha-03,
//! Wycheproof and NaCl vectors (a valid one refused once its tag is
//! altered); against the construction written out here from the
//! primitives' reference functions (RFC 8439 §2.8, draft §2.3, NaCl's
//! `crypto_secretbox`), combined, detached and into buffers of one's own
//! at any alignment; and sealed then opened, tampered with and refused.

use serde_json::Value;

use crate::aead::{ChaCha20Poly1305, TAG_LEN, XChaCha20Poly1305, XSalsa20Poly1305};
use crate::harness::data::{Data, data};
use crate::harness::stream::StreamAlgo;
use crate::harness::vectors::{hex_array, hex_field, label, records, same, wycheproof_tests, xor_in};
use crate::harness::{BLOCK_EDGES, Check, ChosenRungs, Outcome, Report, Rng, Tally};
use crate::table::Construct;
use crate::{Error, chacha20, poly1305};

/// Random cases per AEAD against the written-out construction.
const CROSS_CASES: u64 = 300;
/// Seal, open and tamper cases per AEAD.
const ROUND_TRIPS: u64 = 300;

/// One row per AEAD.
pub(crate) fn run(report: &mut Report) {
    let data = data();
    for kind in Kind::ALL {
        report.primitive(kind.name(), |ChosenRungs, seeds| {
            seeds.each(|check| match check {
                Check::Vectors => vectors(data, kind).vectors(),
                Check::CrossCheck => Outcome::Ran(cross_check(kind, &mut seeds.rng(1))),
                Check::RoundTrip => Outcome::Ran(round_trips(kind, &mut seeds.rng(2))),
            })
        });
    }
}

/// An AEAD.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    ChaCha20Poly1305,
    XChaCha20Poly1305,
    XSalsa20Poly1305,
}

/// XSalsa20-Poly1305 with the signatures of the other two, for
/// [`with_aead!`]: its own methods take no associated data, and
/// [`with_aead!`] refuses any before one of these is called.
struct Secretbox(XSalsa20Poly1305);

/// Declares each method `$name` of [`Secretbox`]: the other AEADs'
/// signature, its associated data dropped, then XSalsa20-Poly1305's.
macro_rules! without_aad {
    ($($name:ident($($arg:ident: $t:ty),+) -> $ret:ty;)+) => {
        impl Secretbox {
            $(
                fn $name(&self, nonce: &[u8; 24], _aad: &[u8], $($arg: $t),+) -> $ret {
                    self.0.$name(nonce, $($arg),+)
                }
            )+
        }
    };
}

without_aad! {
    encrypt(pt: &[u8]) -> Vec<u8>;
    decrypt(sealed: &[u8]) -> Result<Vec<u8>, Error>;
    encrypt_into(pt: &[u8], sealed: &mut [u8]) -> Result<(), Error>;
    decrypt_into(sealed: &[u8], pt: &mut [u8]) -> Result<(), Error>;
    try_encrypt_in_place_detached(data: &mut [u8]) -> Result<[u8; TAG_LEN], Error>;
    decrypt_in_place_detached(data: &mut [u8], tag: &[u8; TAG_LEN]) -> Result<(), Error>;
}

/// Runs `$body` with `$aead` the library's AEAD of `$kind` keyed with
/// `$key`, and `$nonce` the nonce as its fixed-size array; a nonce of
/// another length is refused with an error, as the types cannot take it,
/// and so is associated data `$aad` given to `crypto_secretbox`.
macro_rules! with_aead {
    ($kind:expr, $key:expr, $nonce:expr, $aad:expr, |$aead:ident, $n:ident| $body:expr) => {{
        let nonce: &[u8] = $nonce;
        let bad = || format!("a {}-byte nonce: refused by the type", nonce.len());
        if !$kind.takes_aad() && !$aad.is_empty() {
            return Err("associated data: crypto_secretbox's type takes none".to_owned());
        }
        match $kind {
            Kind::ChaCha20Poly1305 => {
                let $n: &[u8; 12] = nonce.try_into().map_err(|_| bad())?;
                let $aead = ChaCha20Poly1305::new($key);
                $body
            }
            Kind::XChaCha20Poly1305 => {
                let $n: &[u8; 24] = nonce.try_into().map_err(|_| bad())?;
                let $aead = XChaCha20Poly1305::new($key);
                $body
            }
            Kind::XSalsa20Poly1305 => {
                let $n: &[u8; 24] = nonce.try_into().map_err(|_| bad())?;
                let $aead = Secretbox(XSalsa20Poly1305::new($key));
                $body
            }
        }
    }};
}

impl Kind {
    const ALL: [Kind; 3] = [
        Kind::ChaCha20Poly1305,
        Kind::XChaCha20Poly1305,
        Kind::XSalsa20Poly1305,
    ];

    fn name(self) -> &'static str {
        match self {
            Kind::ChaCha20Poly1305 => "chacha20-poly1305",
            Kind::XChaCha20Poly1305 => "xchacha20-poly1305",
            Kind::XSalsa20Poly1305 => "xsalsa20-poly1305",
        }
    }

    fn nonce_len(self) -> usize {
        match self {
            Kind::ChaCha20Poly1305 => 12,
            Kind::XChaCha20Poly1305 | Kind::XSalsa20Poly1305 => 24,
        }
    }

    /// `crypto_secretbox` authenticates no associated data.
    fn takes_aad(self) -> bool {
        self != Kind::XSalsa20Poly1305
    }

    /// The sealed form puts the tag first (NaCl) or last (RFC 8439).
    fn tag_first(self) -> bool {
        self == Kind::XSalsa20Poly1305
    }

    /// The combined form of ciphertext and tag.
    fn combine(self, ct: &[u8], tag: &[u8]) -> Vec<u8> {
        if self.tag_first() {
            [tag, ct].concat()
        } else {
            [ct, tag].concat()
        }
    }

    /// Seals with the library's `encrypt` (combined form).
    fn seal(self, key: &[u8; 32], nonce: &[u8], aad: &[u8], pt: &[u8]) -> Result<Vec<u8>, String> {
        with_aead!(self, key, nonce, aad, |a, n| Ok(a.encrypt(n, aad, pt)))
    }

    /// Opens with the library's `decrypt` (combined form).
    fn open(
        self,
        key: &[u8; 32],
        nonce: &[u8],
        aad: &[u8],
        sealed: &[u8],
    ) -> Result<Vec<u8>, String> {
        with_aead!(self, key, nonce, aad, |a, n| a
            .decrypt(n, aad, sealed)
            .map_err(|e| e.to_string()))
    }

    /// Seals (`encrypt_into`) or opens (`decrypt_into`) `input` from
    /// `in_shift` bytes into its allocation into an output `out_shift`
    /// bytes into its own; an error also if it writes outside the output
    /// or changes the input.
    fn into_buffers(
        self,
        (key, nonce, aad): (&[u8; 32], &[u8], &[u8]),
        way: Way,
        input: &[u8],
        (in_shift, out_shift): (usize, usize),
    ) -> Result<Vec<u8>, String> {
        let out_len = match way {
            Way::Seal => input.len() + TAG_LEN,
            Way::Open => input.len().saturating_sub(TAG_LEN),
        };
        into_guarded(input, (in_shift, out_shift), out_len, |i, o| {
            with_aead!(self, key, nonce, aad, |a, n| match way {
                Way::Seal => a.encrypt_into(n, aad, i, o),
                Way::Open => a.decrypt_into(n, aad, i, o),
            }
            .map_err(|e| e.to_string()))
        })
    }

    /// Seals in place with `try_encrypt_in_place_detached`: the tag.
    fn seal_detached(
        self,
        key: &[u8; 32],
        nonce: &[u8],
        aad: &[u8],
        data: &mut [u8],
    ) -> Result<[u8; TAG_LEN], String> {
        with_aead!(self, key, nonce, aad, |a, n| a
            .try_encrypt_in_place_detached(n, aad, data)
            .map_err(|e| e.to_string()))
    }

    /// Opens in place with `decrypt_in_place_detached`.
    fn open_detached(
        self,
        key: &[u8; 32],
        nonce: &[u8],
        aad: &[u8],
        data: &mut [u8],
        tag: &[u8; TAG_LEN],
    ) -> Result<(), String> {
        with_aead!(self, key, nonce, aad, |a, n| a
            .decrypt_in_place_detached(n, aad, data, tag)
            .map_err(|e| e.to_string()))
    }

    /// The sealed form built from the primitives' reference functions:
    /// RFC 8439 §2.8 written out (the Poly1305 key is the first 32 bytes
    /// of ChaCha20 block 0; the message from block 1; the MAC over
    /// `aad ‖ pad16 ‖ ct ‖ pad16 ‖ le64(len aad) ‖ le64(len ct)`), keyed
    /// with HChaCha20 for XChaCha20 (draft §2.3); for `crypto_secretbox`
    /// the first 32 bytes of XSalsa20 are the key, the message XORed with
    /// the rest, the MAC over the ciphertext alone.
    fn reference_seal(
        self,
        key: &[u8; 32],
        nonce: &[u8],
        aad: &[u8],
        pt: &[u8],
    ) -> Option<Vec<u8>> {
        let (key, nonce): ([u8; 32], [u8; 12]) = match self {
            Kind::ChaCha20Poly1305 => (*key, nonce.try_into().ok()?),
            Kind::XChaCha20Poly1305 => {
                let subkey = chacha20::reference::hchacha20(key, nonce.get(..16)?.try_into().ok()?);
                let mut n = [0u8; 12];
                n[4..].copy_from_slice(nonce.get(16..24)?);
                (subkey, n)
            }
            Kind::XSalsa20Poly1305 => {
                if !aad.is_empty() {
                    return None;
                }
                let ks = crate::salsa20::checks::Algo::XSalsa20.reference(
                    key,
                    nonce,
                    0,
                    32 + pt.len(),
                )?;
                let (poly_key, ks) = ks.split_first_chunk::<32>()?;
                let mut ct = pt.to_vec();
                xor_in(&mut ct, ks);
                let tag = poly1305::reference::mac(poly_key, &ct);
                return Some(self.combine(&ct, &tag));
            }
        };
        let block0 = chacha20::reference::block(&key, 0, &nonce);
        let poly_key: &[u8; 32] = block0.first_chunk()?;
        let mut ct = pt.to_vec();
        chacha20::reference::encrypt(&key, 1, &nonce, &mut ct);
        let pad16 = |v: &mut Vec<u8>| v.resize(v.len().next_multiple_of(16), 0);
        let mut mac_data = aad.to_vec();
        pad16(&mut mac_data);
        mac_data.extend_from_slice(&ct);
        pad16(&mut mac_data);
        mac_data.extend_from_slice(&(aad.len() as u64).to_le_bytes());
        mac_data.extend_from_slice(&(ct.len() as u64).to_le_bytes());
        let tag = poly1305::reference::mac(poly_key, &mac_data);
        Some(self.combine(&ct, &tag))
    }
}

/// Sealing or opening, for [`Kind::into_buffers`].
#[derive(Clone, Copy, Debug)]
enum Way {
    Seal,
    Open,
}

/// The byte around an input and an output that nothing may change.
const GUARD: u8 = 0xa5;

/// `f(input, output)` with `data` as the input, `in_shift` bytes into its
/// allocation, and an `out_len`-byte output `out_shift` bytes into its
/// own: the output, or `f`'s error; an error also if anything outside the
/// output was written or the input changed.
fn into_guarded(
    data: &[u8],
    (in_shift, out_shift): (usize, usize),
    out_len: usize,
    f: impl FnOnce(&[u8], &mut [u8]) -> Result<(), String>,
) -> Result<Vec<u8>, String> {
    let input = [&vec![GUARD; in_shift][..], data].concat();
    let mut output = vec![GUARD; out_shift + out_len + 7];
    let at = out_shift..out_shift + out_len;
    f(&input[in_shift..], &mut output[at.clone()])?;
    let guarded = |b: &[u8]| b.iter().all(|&b| b == GUARD);
    if !guarded(&output[..at.start]) || !guarded(&output[at.end..]) {
        return Err("written outside the output".to_owned());
    }
    if input[in_shift..] != *data {
        return Err("the input changed".to_owned());
    }
    Ok(output[at].to_vec())
}

// ---------------------------------------------------------------- vectors

/// A known AEAD case: `valid` ones seal to `ct ‖ tag` and open; the
/// others must be refused.
struct Known {
    name: String,
    key: [u8; 32],
    nonce: Vec<u8>,
    aad: Vec<u8>,
    pt: Vec<u8>,
    ct: Vec<u8>,
    /// 16 bytes, except in Wycheproof's cases of a wrong nonce length.
    tag: Vec<u8>,
    valid: bool,
}

/// The known cases of `kind`, or the names of malformed records.
fn known(data: &Data, kind: Kind) -> Vec<Result<Known, String>> {
    let aead_record = |r: &Value, valid: bool, keys: [&str; 4]| -> Result<Known, String> {
        let [pt, ct, tag, nonce] = keys;
        let known = || {
            Some(Known {
                name: label(r),
                key: hex_array(r, "key")?,
                nonce: hex_field(r, nonce)?,
                aad: if r["aad"].is_null() {
                    Vec::new()
                } else {
                    hex_field(r, "aad")?
                },
                pt: hex_field(r, pt)?,
                ct: hex_field(r, ct)?,
                tag: hex_field(r, tag)?,
                valid,
            })
        };
        known().ok_or_else(|| label(r))
    };
    let rfc = ["plaintext", "ciphertext", "tag", "nonce"];
    let wycheproof = ["msg", "ct", "tag", "iv"];
    let wycheproof_cases = |file: &Value| -> Vec<Result<Known, String>> {
        wycheproof_tests(file)
            .map(|r| {
                let valid = match r["result"].as_str() {
                    Some("valid") => true,
                    Some("invalid") => false,
                    _ => return Err(label(r)),
                };
                aead_record(r, valid, wycheproof)
            })
            .collect()
    };
    match kind {
        Kind::ChaCha20Poly1305 => records(&data.rfc8439, "aead_chacha20_poly1305")
            .iter()
            .map(|r| aead_record(r, true, rfc))
            .chain(wycheproof_cases(&data.wycheproof_chacha))
            .collect(),
        Kind::XChaCha20Poly1305 => records(&data.xchacha, "aead_xchacha20_poly1305")
            .iter()
            .map(|r| aead_record(r, true, rfc))
            .chain(wycheproof_cases(&data.wycheproof_xchacha))
            .collect(),
        Kind::XSalsa20Poly1305 => records(&data.nacl, "secretbox_xsalsa20poly1305")
            .iter()
            .map(|r| {
                let k = aead_record(r, true, rfc)?;
                // The record's combined form must be tag ‖ ciphertext.
                let combined =
                    hex_field(r, "combined_tag_then_ciphertext").ok_or_else(|| label(r))?;
                if combined != kind.combine(&k.ct, &k.tag) {
                    return Err(format!("{}: combined form is not tag ‖ ciphertext", k.name));
                }
                Ok(k)
            })
            .collect(),
    }
}

/// Every known case of `kind`: a valid one seals to its ciphertext and
/// tag (combined and detached) and opens to its plaintext (both forms),
/// and once a bit of its tag is flipped is refused, the detached buffer
/// zeroed; an invalid one is refused by both forms, the detached buffer
/// zeroed.
fn vectors(data: &Data, kind: Kind) -> Tally {
    let mut t = Tally::default();
    for k in known(data, kind) {
        let k = match k {
            Ok(k) => k,
            Err(name) => {
                t.malformed(name);
                continue;
            }
        };
        let sealed = kind.combine(&k.ct, &k.tag);
        let opened = kind.open(&k.key, &k.nonce, &k.aad, &sealed);
        let mut buf = k.ct.clone();
        let tag: Option<[u8; TAG_LEN]> = k.tag.as_slice().try_into().ok();
        // A tag of another length cannot be passed: refused by the type.
        let opened_detached = tag.map_or(Err(String::new()), |tag| {
            kind.open_detached(&k.key, &k.nonce, &k.aad, &mut buf, &tag)
        });
        if k.valid {
            let Some(tag) = tag else {
                t.malformed(&k.name);
                continue;
            };
            let seal = kind.seal(&k.key, &k.nonce, &k.aad, &k.pt);
            let mut detached = k.pt.clone();
            let got_tag = kind.seal_detached(&k.key, &k.nonce, &k.aad, &mut detached);
            let mut bad_tag = tag;
            bad_tag[k.ct.len() % TAG_LEN] ^= 1 << (k.ct.len() % 8);
            let mut altered = k.ct.clone();
            let refused = kind
                .open_detached(&k.key, &k.nonce, &k.aad, &mut altered, &bad_tag)
                .is_err()
                && altered.iter().all(|&b| b == 0);
            let ok = same(&seal, &sealed)
                && got_tag == Ok(tag)
                && detached == k.ct
                && same(&opened, &k.pt)
                && opened_detached.is_ok()
                && buf == k.pt
                && refused;
            t.check(ok, || {
                format!(
                    "{}: seal {}, open {}",
                    k.name,
                    if same(&seal, &sealed) {
                        "ok"
                    } else {
                        "differs"
                    },
                    match &opened {
                        Ok(_) => "ok".to_owned(),
                        Err(e) => e.clone(),
                    }
                )
            });
        } else {
            // A nonce the type cannot take is refused before any byte is
            // touched, sealing included; otherwise the buffer must come
            // back zeroed.
            let wrong_nonce = k.nonce.len() != kind.nonce_len();
            let refused = if wrong_nonce {
                kind.seal(&k.key, &k.nonce, &k.aad, &k.pt).is_err()
            } else {
                tag.is_none() || buf.iter().all(|&b| b == 0)
            };
            t.check(
                opened.is_err() && opened_detached.is_err() && refused,
                || format!("{}: an invalid case was not refused", k.name),
            );
        }
    }
    t
}

// ------------------------------------------------------------ random cases

/// A random case: key, nonce, associated data (none for
/// `crypto_secretbox`), plaintext of an edge or random length.
fn random_case(rng: &mut Rng, kind: Kind) -> ([u8; 32], Vec<u8>, Vec<u8>, Vec<u8>) {
    let key = rng.array();
    let nonce = rng.bytes(kind.nonce_len());
    let aad_len = if kind.takes_aad() { rng.index(80) } else { 0 };
    let aad = rng.bytes(aad_len);
    let len = rng.length(&BLOCK_EDGES, 2100);
    (key, nonce, aad, rng.bytes(len))
}

/// Random seals by the library, combined and into a buffer at random
/// alignments, against the construction written out from the reference
/// functions, and the library opening the latter's seal both ways.
fn cross_check(kind: Kind, rng: &mut Rng) -> Tally {
    let mut t = Tally::default();
    for i in 0..CROSS_CASES {
        let (key, nonce, aad, pt) = random_case(rng, kind);
        let shifts = (rng.index(64), rng.index(64));
        check_case(kind, (&key, &nonce, &aad), &pt, shifts, &mut t, || {
            format!("case {i}")
        });
    }
    t
}

/// One sealing of `pt` by the library, combined and into a buffer at
/// `shifts`, against the construction written out from the reference
/// functions, and the latter's seal opened by the library both ways;
/// `what` names the case in a failure.
fn check_case(
    kind: Kind,
    (key, nonce, aad): (&[u8; 32], &[u8], &[u8]),
    pt: &[u8],
    shifts: (usize, usize),
    t: &mut Tally,
    what: impl FnOnce() -> String,
) {
    let Some(want) = kind.reference_seal(key, nonce, aad, pt) else {
        t.check(false, || format!("{}: no reference seal", what()));
        return;
    };
    let args = (key, nonce, aad);
    let sealed = kind.seal(key, nonce, aad, pt);
    let sealed_into = kind.into_buffers(args, Way::Seal, pt, shifts);
    let opened = kind.open(key, nonce, aad, &want);
    let opened_into = kind.into_buffers(args, Way::Open, &want, (shifts.1, shifts.0));
    let wrong = [
        (!same(&sealed, &want)).then_some("encrypt"),
        (!same(&sealed_into, &want)).then_some("encrypt_into"),
        (!same(&opened, pt)).then_some("decrypt"),
        (!same(&opened_into, pt)).then_some("decrypt_into"),
    ];
    let wrong: Vec<&str> = wrong.into_iter().flatten().collect();
    t.check(wrong.is_empty(), || {
        format!(
            "{}: {} bytes, {} bytes of associated data, shifts {shifts:?}: {} differ from \
             the reference construction{}",
            what(),
            pt.len(),
            aad.len(),
            wrong.join(", "),
            [&sealed_into, &opened_into]
                .iter()
                .find_map(|r| r.as_ref().err().map(|e| format!(" ({e})")))
                .unwrap_or_default()
        )
    });
}

/// `pt` sealed by the AEAD named `name` under `key`, `nonce` and `aad`:
/// the combined form and into a buffer against the reference
/// construction, opened back both ways; then the bit `flip` of the sealed
/// form flipped: refused, the detached buffer zeroed. `None` if no AEAD
/// here has that name and a 32-byte key.
pub(crate) fn aead_case(
    name: &str,
    (key, nonce, aad): (&[u8], &[u8], &[u8]),
    pt: &[u8],
    flip: usize,
) -> Option<Tally> {
    let kind = Kind::ALL.into_iter().find(|k| k.name() == name)?;
    let key: &[u8; 32] = key.try_into().ok()?;
    let mut t = Tally::default();
    let shifts = (pt.len() % 37, flip % 31);
    check_case(kind, (key, nonce, aad), pt, shifts, &mut t, || {
        format!("{name} case")
    });
    let Ok(mut sealed) = kind.seal(key, nonce, aad, pt) else {
        return Some(t);
    };
    let bit = flip % (8 * sealed.len());
    sealed[bit / 8] ^= 1 << (bit % 8);
    let (tag, ct) = if kind.tag_first() {
        sealed.split_at(TAG_LEN)
    } else {
        let (ct, tag) = sealed.split_at(pt.len());
        (tag, ct)
    };
    let (tag, mut data): ([u8; TAG_LEN], _) = (tag.try_into().ok()?, ct.to_vec());
    let refused = kind.open(key, nonce, aad, &sealed).is_err();
    let detached = kind
        .open_detached(key, nonce, aad, &mut data, &tag)
        .is_err()
        && data.iter().all(|&b| b == 0);
    t.check(refused && detached, || {
        format!("{name}: bit {bit} of the sealed form flipped: not refused, or not zeroed")
    });
    Some(t)
}

/// Whether the table says `kind` authenticates no associated data, and
/// its [`DynAead`](crate::dynamic::DynAead), whose methods have a place
/// for some (the type's have none), refuses any: sealing writes nothing,
/// and a message sealed without opens only without.
fn dyn_refuses_aad(kind: Kind, key: &[u8; 32], nonce: &[u8], pt: &[u8]) -> bool {
    let construct = crate::aead::LADDER
        .primitives
        .iter()
        .find(|p| p.name == kind.name())
        .map(|p| p.construct);
    let Some(Construct::Aead {
        new,
        associated_data: false,
    }) = construct
    else {
        return false;
    };
    let Ok(aead) = new(key) else {
        return false;
    };
    let unsupported = |e: Option<Error>| matches!(e, Some(Error::AssociatedDataUnsupported { .. }));
    let mut buf = pt.to_vec();
    let mut tag = vec![0u8; aead.tag_len()];
    if !unsupported(
        aead.encrypt_in_place_detached(nonce, &[0], &mut buf, &mut tag)
            .err(),
    ) || buf != pt
    {
        return false;
    }
    if aead
        .encrypt_in_place_detached(nonce, &[], &mut buf, &mut tag)
        .is_err()
    {
        return false;
    }
    unsupported(
        aead.decrypt_in_place_detached(nonce, &[0], &mut buf, &tag)
            .err(),
    ) && aead
        .decrypt_in_place_detached(nonce, &[], &mut buf, &tag)
        .is_ok()
        && buf == pt
}

/// Random seals opened again, combined and detached; then one bit flipped
/// in the ciphertext, the tag, the associated data or the nonce, or the
/// sealed form cut short: refused, and the detached buffer zeroed.
/// `crypto_secretbox`'s type takes no associated data; through the dynamic
/// layer, which can pass some, it refuses it instead of ignoring it.
fn round_trips(kind: Kind, rng: &mut Rng) -> Tally {
    let mut t = Tally::default();
    for i in 0..ROUND_TRIPS {
        let (key, mut nonce, mut aad, pt) = random_case(rng, kind);
        let sealed = kind.seal(&key, &nonce, &aad, &pt);
        let mut data = pt.clone();
        let tag = kind.seal_detached(&key, &nonce, &aad, &mut data);
        let ok = match (&sealed, &tag) {
            (Ok(s), Ok(tag)) => {
                let mut back = data.clone();
                *s == kind.combine(&data, tag)
                    && same(&kind.open(&key, &nonce, &aad, s), &pt)
                    && kind
                        .open_detached(&key, &nonce, &aad, &mut back, tag)
                        .is_ok()
                    && back == pt
            }
            _ => false,
        };
        t.check(ok, || {
            format!("case {i}: {} bytes do not round-trip", pt.len())
        });
        let (Ok(mut sealed), Ok(mut tag)) = (sealed, tag) else {
            continue;
        };
        // What to tamper with: 0 ciphertext, 1 tag, 2 associated data,
        // 3 nonce (ciphertext or tag when there is nothing else).
        let mut what = rng.index(4);
        if (what == 2 && aad.is_empty()) || (what == 0 && pt.is_empty()) {
            what = 1;
        }
        let flip = |bytes: &mut [u8], rng: &mut Rng| {
            let bit = rng.index(8 * bytes.len());
            bytes[bit / 8] ^= 1 << (bit % 8);
        };
        let ct_at = if kind.tag_first() { TAG_LEN } else { 0 };
        let tag_at = if kind.tag_first() { 0 } else { pt.len() };
        match what {
            0 => {
                let bit = rng.index(8 * pt.len());
                sealed[ct_at + bit / 8] ^= 1 << (bit % 8);
                data[bit / 8] ^= 1 << (bit % 8);
            }
            1 => {
                let bit = rng.index(8 * TAG_LEN);
                sealed[tag_at + bit / 8] ^= 1 << (bit % 8);
                tag[bit / 8] ^= 1 << (bit % 8);
            }
            2 => flip(&mut aad, rng),
            _ => flip(&mut nonce, rng),
        }
        let refused = kind.open(&key, &nonce, &aad, &sealed).is_err();
        let detached = kind.open_detached(&key, &nonce, &aad, &mut data, &tag);
        let zeroed = data.iter().all(|&b| b == 0);
        let short = kind
            .open(&key, &nonce, &aad, &sealed[..rng.index(TAG_LEN)])
            .is_err();
        t.check(refused && detached.is_err() && zeroed && short, || {
            let what = ["ciphertext", "tag", "associated data", "nonce"][what];
            format!(
                "case {i}: {} bytes, a bit of the {what} flipped: not refused",
                pt.len()
            )
        });
        if !kind.takes_aad() {
            let refused = dyn_refuses_aad(kind, &key, &nonce, &pt);
            t.check(refused, || format!("case {i}: associated data not refused"));
        }
    }
    t
}

/// The ladder's fuzz case: one of its AEADs on a case the fuzzer's bytes
/// steer ([`crate::harness::fuzz_aead`]), through [`aead_case`].
pub(crate) fn fuzz(input: &[u8]) -> Tally {
    let aeads = crate::table::Primitive::aead_shapes(&super::LADDER);
    crate::harness::fuzz_aead(input, &aeads, aead_case)
}
