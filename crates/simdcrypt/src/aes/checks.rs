//! AES and its modes: every rung on the official vectors (FIPS 197; SP
//! 800-38A's ECB, CBC, CFB, OFB and CTR examples; RFC 4493; Wycheproof's
//! CBC with PKCS#5 padding and CMAC), against the modes written out here
//! from the standards over `reference::cipher` on random keys of every
//! size, lengths, pieces, offsets and counters (carries across 2^32, 2^64
//! and the wrap at 2^128 included), and in round trips with every other
//! rung.
//!
//! The oracles below do not use the library's mode layer: a fault in it
//! shows on every rung, the reference's included.

use serde_json::Value;

use super::reference::{cipher, inv_cipher, key_expansion};
use super::{Aes, Bits128, Bits192, Bits256, Rung};
use crate::Error;
use crate::block::padding::Padding;
use crate::block::{BlockCipher, Cbc, Cfb, Cmac, Ctr, Ecb, Ofb};
use crate::harness::vectors::{hex_field, label, parse, records, wycheproof_tests};
use crate::harness::{BLOCK_EDGES, Outcome, Report, Rng, Tally, fuzz_rungs, others};

const FIPS197: &str = include_str!("../../tests/data/aes/fips197.json");
const SP800_38A: &str = include_str!("../../tests/data/aes/sp800_38a.json");
const CFB_OFB: &str = include_str!("../../tests/data/aes/sp800_38a_cfb_ofb.json");
const RFC4493: &str = include_str!("../../tests/data/aes/rfc4493.json");
const WYCHEPROOF_CBC: &str = include_str!("../../tests/data/wycheproof/aes_cbc_pkcs5_test.json");
const WYCHEPROOF_CMAC: &str = include_str!("../../tests/data/wycheproof/aes_cmac_test.json");

/// Random cases per rung and check.
const CASES: u64 = 160;
/// The longest random message, in bytes: past several widest batches.
const MAX_LEN: u64 = 4200;

/// The modes, one row each per rung.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Ecb,
    Cbc,
    Cfb,
    Ofb,
    Ctr,
    Cmac,
}

impl Mode {
    const ALL: [Mode; 6] = [
        Mode::Ecb,
        Mode::Cbc,
        Mode::Cfb,
        Mode::Ofb,
        Mode::Ctr,
        Mode::Cmac,
    ];

    fn name(self) -> &'static str {
        match self {
            Mode::Ecb => "aes-ecb",
            Mode::Cbc => "aes-cbc",
            Mode::Cfb => "aes-cfb",
            Mode::Ofb => "aes-ofb",
            Mode::Ctr => "aes-ctr",
            Mode::Cmac => "aes-cmac",
        }
    }
}

/// Every mode on every rung.
pub(crate) fn run(report: &mut Report) {
    let files = Files::parse();
    for mode in Mode::ALL {
        report.primitive(mode.name(), |imp: Rung, seeds| {
            [
                vectors(&files, mode, imp).vectors(),
                Outcome::Ran(cross_check(mode, imp, &mut seeds.rng(1))),
                round_trips(mode, imp, &mut seeds.rng(2)),
            ]
        });
    }
}

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

/// What a mode computes on one message: `data` encrypted (or for CMAC,
/// its tag), on `imp`, fed in `pieces` (lengths summing to the message's;
/// whole blocks for ECB and CBC), from an input into an output, or with
/// `shift` in place in a buffer `shift` bytes into its allocation (an odd
/// address for odd shifts) between guard bytes that must stay as they are.
#[allow(clippy::too_many_arguments)]
fn run_mode(
    mode: Mode,
    imp: Rung,
    key: &[u8],
    iv: &[u8; 16],
    data: &[u8],
    pieces: &[usize],
    decrypt: bool,
    shift: Option<usize>,
) -> Result<Vec<u8>, String> {
    by_size!(key.len(), K => run_sized::<K>(mode, imp, key, iv, data, pieces, decrypt, shift),
        _ => Err(format!("key of {} bytes", key.len())))
}

/// The guard bytes around an in-place buffer.
const GUARD: u8 = 0x3c;

#[allow(clippy::too_many_arguments)]
fn run_sized<K: super::KeySize>(
    mode: Mode,
    imp: Rung,
    key: &[u8],
    iv: &[u8; 16],
    data: &[u8],
    pieces: &[usize],
    decrypt: bool,
    shift: Option<usize>,
) -> Result<Vec<u8>, String> {
    let aes = aes::<K>(key, imp)?;
    let start = shift.unwrap_or(0);
    let mut buf = vec![GUARD; start + data.len() + 16];
    if shift.is_some() {
        buf[start..start + data.len()].copy_from_slice(data);
    }
    let e = |e: Error| e.to_string();
    let mut at = 0;
    let mut each = |f: &mut PieceFn<'_>| {
        for &len in pieces {
            let out = &mut buf[start + at..start + at + len];
            let input = shift.is_none().then(|| &data[at..at + len]);
            f(input, out).map_err(e)?;
            at += len;
        }
        Ok::<(), String>(())
    };
    match mode {
        Mode::Ecb => {
            let ecb = Ecb::from_cipher(aes);
            each(&mut |i, o| match (i, decrypt) {
                (Some(i), true) => ecb.decrypt_into(i, o),
                (Some(i), false) => ecb.encrypt_into(i, o),
                (None, true) => ecb.decrypt(o),
                (None, false) => ecb.encrypt(o),
            })?;
        }
        Mode::Cbc => {
            let mut cbc = Cbc::from_cipher(aes, iv);
            each(&mut |i, o| match (i, decrypt) {
                (Some(i), true) => cbc.decrypt_into(i, o),
                (Some(i), false) => cbc.encrypt_into(i, o),
                (None, true) => cbc.decrypt(o),
                (None, false) => cbc.encrypt(o),
            })?;
        }
        Mode::Cfb => {
            let mut cfb = Cfb::from_cipher(aes, iv);
            each(&mut |i, o| match (i, decrypt) {
                (Some(i), true) => cfb.decrypt_into(i, o),
                (Some(i), false) => cfb.encrypt_into(i, o),
                (None, true) => {
                    cfb.decrypt(o);
                    Ok(())
                }
                (None, false) => {
                    cfb.encrypt(o);
                    Ok(())
                }
            })?;
        }
        Mode::Ofb => {
            let mut ofb = Ofb::from_cipher(aes, iv);
            each(&mut |i, o| match i {
                Some(i) => ofb.xor_into(i, o),
                None => {
                    ofb.apply_keystream(o);
                    Ok(())
                }
            })?;
        }
        Mode::Ctr => {
            let mut ctr = Ctr::from_cipher(aes, iv);
            each(&mut |i, o| match i {
                Some(i) => ctr.xor_into(i, o),
                None => ctr.apply_keystream(o),
            })?;
        }
        Mode::Cmac => {
            let mut cmac = Cmac::from_cipher(aes);
            for &len in pieces {
                cmac.update(&data[at..at + len]);
                at += len;
            }
            return Ok(cmac.finalize().to_vec());
        }
    }
    let end = start + data.len();
    if buf[..start].iter().chain(&buf[end..]).any(|&b| b != GUARD) {
        return Err("wrote outside its buffer".to_owned());
    }
    Ok(buf[start..end].to_vec())
}

/// One call of a mode on a piece: from an input into the output, or (no
/// input) in place on the output.
type PieceFn<'a> = dyn FnMut(Option<&[u8]>, &mut [u8]) -> Result<(), Error> + 'a;

/// The standards' modes, written out over the reference cipher.
mod oracle {
    use super::{Mode, cipher, inv_cipher, key_expansion};

    fn xor(a: &[u8; 16], b: &[u8]) -> [u8; 16] {
        std::array::from_fn(|i| a[i] ^ b.get(i).copied().unwrap_or(0))
    }

    /// `data` encrypted (or decrypted) in `mode`, or its CMAC tag.
    pub(super) fn run(
        mode: Mode,
        key: &[u8],
        iv: &[u8; 16],
        data: &[u8],
        decrypt: bool,
    ) -> Vec<u8> {
        let w = key_expansion(key);
        let e = |b: &[u8; 16]| cipher(b, &w);
        let mut out = Vec::with_capacity(data.len());
        let mut register = *iv;
        match mode {
            // SP 800-38A §6.1.
            Mode::Ecb => {
                for block in data.chunks(16) {
                    let b = xor(&[0; 16], block);
                    out.extend(if decrypt { inv_cipher(&b, &w) } else { e(&b) });
                }
            }
            // §6.2: C_j = CIPH(P_j ⊕ C_{j−1}); P_j = CIPH⁻¹(C_j) ⊕ C_{j−1}.
            Mode::Cbc => {
                for block in data.chunks(16) {
                    let b = xor(&[0; 16], block);
                    if decrypt {
                        out.extend(xor(&inv_cipher(&b, &w), &register));
                        register = b;
                    } else {
                        register = e(&xor(&register, block));
                        out.extend(register);
                    }
                }
            }
            // §6.3 with s = 128: C_j = P_j ⊕ CIPH(C_{j−1}), the last block
            // cut to its length.
            Mode::Cfb => {
                for block in data.chunks(16) {
                    let o = xor(&e(&register), block);
                    out.extend(&o[..block.len()]);
                    register = xor(&[0; 16], if decrypt { block } else { &o[..] });
                }
            }
            // §6.4: O_j = CIPH(O_{j−1}).
            Mode::Ofb => {
                for block in data.chunks(16) {
                    register = e(&register);
                    out.extend(&xor(&register, block)[..block.len()]);
                }
            }
            // §6.5, the counter block the whole 128-bit big-endian integer.
            Mode::Ctr => {
                let t0 = u128::from_be_bytes(*iv);
                for (j, block) in data.chunks(16).enumerate() {
                    let t = t0.wrapping_add(j as u128).to_be_bytes();
                    out.extend(&xor(&e(&t), block)[..block.len()]);
                }
            }
            // SP 800-38B §6.1–6.2.
            Mode::Cmac => {
                let dbl = |x: u128| (x << 1) ^ if x >> 127 == 1 { 0x87 } else { 0 };
                let l = u128::from_be_bytes(e(&[0; 16]));
                let (k1, k2) = (dbl(l), dbl(dbl(l)));
                let n = data.len().div_ceil(16).max(1);
                let mut c = [0u8; 16];
                for (j, block) in data.chunks(16).enumerate().take(n - 1) {
                    c = e(&xor(&c, block));
                    debug_assert!(j < n - 1);
                }
                let last = &data[(n - 1) * 16..];
                let m_n = if last.len() == 16 {
                    u128::from_be_bytes(xor(&[0; 16], last)) ^ k1
                } else {
                    let mut padded = [0u8; 16];
                    padded[..last.len()].copy_from_slice(last);
                    padded[last.len()] = 0x80;
                    u128::from_be_bytes(padded) ^ k2
                };
                out.extend(e(&xor(&c, &m_n.to_be_bytes())));
            }
        }
        out
    }
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
        let iv = iv_of(iv);
        let name = label(r);
        for decrypt in [false, true] {
            let (input, want) = if decrypt { (ct, pt) } else { (pt, ct) };
            let whole = run_mode(mode, imp, key, &iv, input, &[input.len()], decrypt, None);
            t.check(whole.as_deref() == Ok(want), || {
                format!("{name}: decrypt {decrypt}: {whole:02x?}")
            });
            let split = (16..input.len()).step_by(16).all(|cut| {
                let pieces = [cut, input.len() - cut];
                run_mode(mode, imp, key, &iv, input, &pieces, decrypt, Some(cut % 16)).as_deref()
                    == Ok(want)
            });
            t.check(split, || {
                format!("{name}: decrypt {decrypt}, split at a block")
            });
        }
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
                    cmac_case(&mut t, imp, r, &k, &m, &tag, true);
                }
            }
            for r in wycheproof_tests(&files.cmac) {
                if let Some([k, m, tag]) = fields(&mut t, r, ["key", "msg", "tag"]) {
                    cmac_case(&mut t, imp, r, &k, &m, &tag, r["result"] == "valid");
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

/// A CMAC vector: the tag computed, and verified (or refused, for an
/// invalid case: a modified tag or a key of no AES size).
fn cmac_case(t: &mut Tally, imp: Rung, r: &Value, key: &[u8], msg: &[u8], tag: &[u8], valid: bool) {
    let name = label(r);
    let verified = by_size!(key.len(), K => aes::<K>(key, imp).and_then(|a| {
        let mut mac = Cmac::from_cipher(a);
        mac.update(msg);
        mac.verify(tag).map_err(|e| e.to_string())
    }), _ => Err("no AES key size".to_owned()));
    t.check(verified.is_ok() == valid, || {
        format!("{name}: verify gave {verified:?}")
    });
    if valid {
        let got = run_mode(
            Mode::Cmac,
            imp,
            key,
            &[0; 16],
            msg,
            &[msg.len()],
            false,
            None,
        );
        t.check(got.as_deref() == Ok(tag), || format!("{name}: tag"));
    }
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

/// A random case: key (every size), IV (a quarter of them just below a
/// carry of the low 32 or 64 bits or the 2^128 wrap), message, and
/// pieces (whole blocks for ECB and CBC).
fn case(mode: Mode, rng: &mut Rng) -> (Vec<u8>, [u8; 16], Vec<u8>, Vec<usize>) {
    let key_len = [16, 24, 32][rng.index(3)];
    let key = rng.bytes(key_len);
    let mut iv: [u8; 16] = rng.array();
    let below = 1 + rng.below(40) as u128;
    match rng.below(8) {
        0 => iv[12..].copy_from_slice(&(u32::MAX - below as u32).to_be_bytes()),
        1 => iv[8..].copy_from_slice(&(u64::MAX - below as u64).to_be_bytes()),
        2 => iv = (u128::MAX - below).to_be_bytes(),
        _ => {}
    }
    let mut len = rng.length(&BLOCK_EDGES, MAX_LEN);
    let whole = matches!(mode, Mode::Ecb | Mode::Cbc);
    if whole {
        len -= len % 16;
    }
    let msg = rng.bytes(len);
    let mut pieces: Vec<usize> = rng.pieces(&msg, 700).iter().map(|p| p.len()).collect();
    if whole {
        // Whole blocks only: fold each piece's odd bytes into the next.
        let mut carry = 0;
        for p in &mut pieces {
            let all = *p + carry;
            *p = all - all % 16;
            carry = all % 16;
        }
    }
    (key, iv, msg, pieces)
}

/// Random cases on `imp` against the oracle, both directions; CTR also
/// from a random byte offset reached by `seek`.
fn cross_check(mode: Mode, imp: Rung, rng: &mut Rng) -> Tally {
    let mut t = Tally::default();
    for i in 0..CASES {
        check_case(mode, imp, i, rng, &mut t);
    }
    if mode == Mode::Ctr {
        keystream_end(imp, &mut t);
    }
    t
}

/// Case `i` of the cross-check on `imp`, both directions; CTR also from
/// a random byte offset reached by `seek`.
fn check_case(mode: Mode, imp: Rung, i: u64, rng: &mut Rng, t: &mut Tally) {
    let (key, iv, msg, pieces) = case(mode, rng);
    let directions: &[bool] = if mode == Mode::Cmac {
        &[false]
    } else {
        &[false, true]
    };
    for &decrypt in directions {
        // Half the cases in place, at any address.
        let shift = (rng.below(2) == 0).then(|| rng.index(16));
        let got = run_mode(mode, imp, &key, &iv, &msg, &pieces, decrypt, shift);
        let want = oracle::run(mode, &key, &iv, &msg, decrypt);
        t.check(got.as_deref() == Ok(&want[..]), || {
            format!(
                "case {i}: {}-byte key, iv {:032x}, {} bytes in {} pieces, decrypt {decrypt}, in place at {shift:?}",
                key.len(),
                u128::from_be_bytes(iv),
                msg.len(),
                pieces.len()
            )
        });
    }
    if mode == Mode::Ctr {
        let at = rng.index(msg.len() + 1);
        let got = by_size!(key.len(), K => aes::<K>(&key, imp).and_then(|a| {
            let mut ctr = Ctr::from_cipher(a, &iv);
            let mut out = msg[at..].to_vec();
            ctr.seek(at as u128).map_err(|e| e.to_string())?;
            ctr.apply_keystream(&mut out).map_err(|e| e.to_string())?;
            Ok(out)
        }), _ => unreachable!("every key size"));
        let want = oracle::run(mode, &key, &iv, &msg, false);
        t.check(got.as_deref() == Ok(&want[at..]), || {
            format!("case {i}: seek to {at} of {} bytes", msg.len())
        });
    }
}

/// The ladder's fuzz case: one mode (picked by the first byte) on a case
/// of the cross-check the fuzzer's bytes steer, on every rung against the
/// oracle over the reference rung.
pub(crate) fn fuzz(input: &[u8]) -> Tally {
    fuzz_rungs(input, &Mode::ALL, |mode, imp, rng, t| check_case(mode, imp, 0, rng, t))
}

/// The end of CTR's keystream: the last bytes below 2^128 − 1 can be
/// reached and used; one more is refused, not wrapped.
fn keystream_end(imp: Rung, t: &mut Tally) {
    let key = [7u8; 16];
    let iv = [0x5a; 16];
    let end = u128::MAX;
    let got = aes::<Bits128>(&key, imp).map(|a| {
        let mut ctr = Ctr::from_cipher(a, &iv);
        let seek_ok = ctr.seek(end - 20).is_ok();
        let mut tail = [0u8; 20];
        let last_ok = ctr.apply_keystream(&mut tail).is_ok();
        let mut one = [0u8; 1];
        let refused = ctr.apply_keystream(&mut one).is_err();
        (seek_ok && last_ok && refused, tail)
    });
    // Block (2^128 − 21) / 16 and the next: counters IV + that, wrapped.
    let ok = got.is_ok_and(|(ok, tail)| {
        let first = (end - 20) / 16;
        let mut want = Vec::new();
        let w = key_expansion(&key);
        for j in first..=first + 2 {
            let t = u128::from_be_bytes(iv).wrapping_add(j).to_be_bytes();
            want.extend(cipher(&t, &w));
        }
        let skip = ((end - 20) % 16) as usize;
        ok && tail[..] == want[skip..skip + 20]
    });
    t.check(ok, || {
        "the last 20 bytes of the keystream, then a refusal".to_owned()
    });
}

/// Messages processed on `imp` and undone on every other rung, and the
/// other way round; CMAC tags verified across rungs.
fn round_trips(mode: Mode, imp: Rung, rng: &mut Rng) -> Outcome {
    let others = others(imp);
    if others.is_empty() {
        return Outcome::Skipped("no other rung available".to_owned());
    }
    let mut t = Tally::default();
    for other in others {
        for (a, b) in [(imp, other), (other, imp)] {
            for i in 0..8 {
                let (key, iv, msg, pieces) = case(mode, rng);
                let sealed = run_mode(mode, a, &key, &iv, &msg, &pieces, false, None);
                let ok = match (mode, &sealed) {
                    (Mode::Cmac, Ok(tag)) => {
                        run_mode(mode, b, &key, &iv, &msg, &[msg.len()], false, None).as_ref()
                            == Ok(tag)
                    }
                    (_, Ok(sealed)) => {
                        let whole = [sealed.len()];
                        run_mode(mode, b, &key, &iv, sealed, &whole, true, Some(1)).as_deref()
                            == Ok(&msg[..])
                    }
                    (_, Err(_)) => false,
                };
                t.check(ok, || {
                    format!("case {i}: {} bytes on {a}, undone on {b}", msg.len())
                });
            }
        }
    }
    Outcome::Ran(t)
}
