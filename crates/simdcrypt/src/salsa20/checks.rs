//! The Salsa20 family: Salsa20/20, /12, /8, XSalsa20, and the core with
//! HSalsa20 — on the eSTREAM, specification, NaCl and RFC 7914 vectors,
//! against the specification's functions, and in round trips.

use serde_json::Value;

use crate::Xor;
use crate::hash::Sha256;
use crate::harness::data::{Data, data};
use crate::harness::stream::{
    Shape, StreamAlgo, encrypt, function_primitive, keystream,
    stream_primitives,
};
use crate::harness::vectors::{
    bytes_le, hex_array, hex_field, label, number_field, records, same, word_list, words_le,
};
use crate::harness::{BLOCK_EDGES, Outcome, Report, Rng, Tally};
use crate::salsa20::{self, Rung, Salsa20, Salsa20_8, Salsa20_12, XSalsa20, reference};

/// Random cases per rung of a cipher against the specification, besides
/// one of every length up to 2000 bytes.
const CROSS_CASES: u64 = 800;
/// Random core inputs per rung.
const CORE_CASES: u64 = 800;
/// Round trips per other rung and direction.
const ROUND_TRIPS: u64 = 6;

/// The rows of the family: the four ciphers, then the core.
pub(crate) fn run(report: &mut Report) {
    let algos = Algo::ALL.map(|a| (a.name(), a));
    let counts = (CROSS_CASES, ROUND_TRIPS);
    let data = data();
    stream_primitives(report, &algos, counts, |algo, imp| {
        stream_vectors(data, algo, imp)
    });
    function_primitive(
        report,
        "hsalsa20/core",
        |imp| core_vectors(data, imp),
        core_cross_check,
    );
}

/// The ladder's fuzz case: one of its ciphers on a case the fuzzer's bytes
/// steer, on every rung ([`crate::harness::stream::fuzz`]).
pub(crate) fn fuzz(input: &[u8]) -> Tally {
    crate::harness::stream::fuzz(&Algo::ALL, input)
}

/// A Salsa20 cipher.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Algo {
    Salsa20,
    Salsa20_12,
    Salsa20_8,
    XSalsa20,
}

impl Algo {
    const ALL: [Algo; 4] = [
        Algo::Salsa20,
        Algo::Salsa20_12,
        Algo::Salsa20_8,
        Algo::XSalsa20,
    ];

    fn name(self) -> &'static str {
        match self {
            Algo::Salsa20 => "salsa20",
            Algo::Salsa20_12 => "salsa20/12",
            Algo::Salsa20_8 => "salsa20/8",
            Algo::XSalsa20 => "xsalsa20",
        }
    }

    fn double_rounds(self) -> usize {
        match self {
            Algo::Salsa20 | Algo::XSalsa20 => 10,
            Algo::Salsa20_12 => 6,
            Algo::Salsa20_8 => 4,
        }
    }
}

impl StreamAlgo for Algo {
    type Rung = Rung;

    fn shape(self) -> Shape {
        Shape {
            key_128: self != Algo::XSalsa20,
            nonce_len: match self {
                Algo::XSalsa20 => salsa20::XNONCE_LEN,
                _ => salsa20::NONCE_LEN,
            },
            // 2^31 catches signed comparisons, 2^32 the carry into the
            // counter's high word, 2^64 is the end.
            carries: &[1 << 31, 1 << 32, 1 << 64],
            last_block: u64::MAX,
            edge_lengths: &BLOCK_EDGES,
            max_len: 2000,
        }
    }

    fn cipher(
        self,
        key: &[u8],
        nonce: &[u8],
        imp: Rung,
        xor: Xor,
    ) -> Result<Box<dyn crate::KeyStream>, String> {
        let e = |e: crate::Error| e.to_string();
        let bad = || format!("a {}-byte key or a {}-byte nonce", key.len(), nonce.len());
        macro_rules! salsa {
            ($t:ty) => {{
                let n = nonce.try_into().map_err(|_| bad())?;
                let c = if let Ok(k) = key.try_into() {
                    <$t>::new(k, n)
                } else {
                    <$t>::new_128(key.try_into().map_err(|_| bad())?, n)
                };
                Box::new(c.with_rung(imp).map_err(e)?.with_xor(xor))
            }};
        }
        Ok(match self {
            Algo::Salsa20 => salsa!(Salsa20),
            Algo::Salsa20_12 => salsa!(Salsa20_12),
            Algo::Salsa20_8 => salsa!(Salsa20_8),
            Algo::XSalsa20 => {
                let (k, n) = key
                    .try_into()
                    .ok()
                    .zip(nonce.try_into().ok())
                    .ok_or_else(bad)?;
                Box::new(XSalsa20::new(k, n).with_rung(imp).map_err(e)?.with_xor(xor))
            }
        })
    }

    /// `reference::encrypt` block by block; for XSalsa20 keyed with the
    /// specification's HSalsa20.
    fn reference(self, key: &[u8], nonce: &[u8], block: u64, len: usize) -> Option<Vec<u8>> {
        let subkey;
        let (key, v): (&[u8], &[u8]) = if self == Algo::XSalsa20 {
            subkey = reference_hsalsa20(key, nonce.get(..16)?)?;
            (&subkey, nonce.get(16..)?)
        } else {
            (key, nonce)
        };
        let v: &[u8; 8] = v.try_into().ok()?;
        let key = match key.len() {
            32 => reference::Key::Bits256(key.try_into().ok()?),
            _ => reference::Key::Bits128(key.try_into().ok()?),
        };
        let mut ks = vec![0u8; len];
        reference::encrypt(key, v, block, &mut ks, self.double_rounds());
        Some(ks)
    }
}

/// The eSTREAM, specification and NaCl vectors of `algo`, in both XOR forms.
fn stream_vectors(data: &Data, algo: Algo, imp: Rung) -> Outcome {
    let mut t = Tally::default();
    match algo {
        Algo::Salsa20 => {
            for xor in Xor::ALL {
                estream(&data.estream, imp, xor, &mut t);
                salsa20_expansions(data, imp, xor, &mut t);
                keystream_digests(&data.nacl, "salsa20_stream_hash", algo, (imp, xor), &mut t);
            }
        }
        Algo::XSalsa20 => {
            for xor in Xor::ALL {
                xsalsa20_records(&data.nacl, imp, xor, &mut t);
                keystream_digests(&data.nacl, "xsalsa20_stream_hash", algo, (imp, xor), &mut t);
            }
        }
        Algo::Salsa20_8 => salsa20_8_cores(&data.rfc7914, imp, &mut t),
        Algo::Salsa20_12 => {
            return Outcome::NotApplicable("no official Salsa20/12 vectors in tests/data yet");
        }
    }
    t.vectors()
}

/// eSTREAM: keystream slices at their offsets, and the XOR of all 64-byte
/// blocks up to the end of the last slice.
fn estream(file: &Value, imp: Rung, xor: Xor, t: &mut Tally) {
    for v in records(file, "vectors") {
        let name = format!(
            "eSTREAM {}-bit set {} vector {}",
            v["key_bits"], v["set"], v["vector"]
        );
        let (Some(key), Some(iv), Some(digest)) = (
            hex_field(v, "key"),
            hex_field(v, "iv"),
            hex_field(v, "xor_digest"),
        ) else {
            t.check(false, || format!("{name}: malformed record"));
            continue;
        };
        let mut end = 0;
        for s in records(v, "stream") {
            let (Some(from), Some(to), Some(want)) =
                (s["from"].as_u64(), s["to"].as_u64(), hex_field(s, "hex"))
            else {
                t.check(false, || format!("{name}: malformed slice"));
                continue;
            };
            end = end.max(to + 1);
            let len = (to + 1).saturating_sub(from) as usize;
            let got = keystream(Algo::Salsa20, &key, &iv, (imp, xor), from.into(), len);
            t.check(same(&got, &want), || {
                format!("{name} bytes {from}..={to} ({xor})")
            });
        }
        let got = keystream(Algo::Salsa20, &key, &iv, (imp, xor), 0, end as usize).map(|ks| {
            let mut d = vec![0u8; 64];
            for block in ks.chunks(64) {
                for (d, k) in d.iter_mut().zip(block) {
                    *d ^= k;
                }
            }
            d
        });
        t.check(same(&got, &digest), || format!("{name} xor_digest ({xor})"));
    }
}

/// Spec §9 expansions and NaCl's core4: the block whose 16-byte input `n` is
/// the nonce and the little-endian block counter.
fn salsa20_expansions(data: &Data, imp: Rung, xor: Xor, t: &mut Tally) {
    let sigma = reference::SIGMA.concat();
    let nacl = records(&data.nacl, "salsa20_core")
        .iter()
        .filter(|r| hex_field(r, "constant").as_deref() == Some(&sigma[..]))
        .map(|r| (r, "input"));
    let spec = records(&data.salsa20_spec, "salsa20_expansion")
        .iter()
        .map(|r| (r, "n"));
    for (r, n_key) in spec.chain(nacl) {
        let (Some(key), Some(n), Some(want)) = (
            hex_field(r, "key"),
            hex_field(r, n_key),
            hex_field(r, "output"),
        ) else {
            t.malformed(label(r));
            continue;
        };
        let got = match <[u8; 16]>::try_from(n) {
            Ok(n) => {
                let counter = u64::from_le_bytes(std::array::from_fn(|i| n[8 + i]));
                keystream(
                    Algo::Salsa20,
                    &key,
                    &n[..8],
                    (imp, xor),
                    u128::from(counter) * 64,
                    64,
                )
            }
            Err(_) => Err("n is not 16 bytes".to_owned()),
        };
        t.check(same(&got, &want), || format!("{} ({xor})", label(r)));
    }
}

/// NaCl's SHA-256 digests of the first 4 MiB of keystream (the records
/// `list` of `file`), with simdcrypt's own SHA-256 on its best rung.
fn keystream_digests(file: &Value, list: &str, algo: Algo, rung: (Rung, Xor), t: &mut Tally) {
    for r in records(file, list) {
        let fields = (
            hex_field(r, "key"),
            hex_field(r, "nonce"),
            number_field(r, "length").and_then(|n| usize::try_from(n).ok()),
            hex_field(r, "sha256"),
        );
        let (Some(key), Some(nonce), Some(len), Some(want)) = fields else {
            t.malformed(label(r));
            continue;
        };
        let got =
            keystream(algo, &key, &nonce, rung, 0, len).map(|ks| Sha256::digest(&ks).to_vec());
        t.check(same(&got, &want), || format!("{} ({})", label(r), rung.1));
    }
}

/// NaCl's XSalsa20 keystream and XOR records.
fn xsalsa20_records(file: &Value, imp: Rung, xor: Xor, t: &mut Tally) {
    for r in records(file, "xsalsa20_stream") {
        let (Some(key), Some(nonce), Some(want)) = (
            hex_field(r, "key"),
            hex_field(r, "nonce"),
            hex_field(r, "keystream"),
        ) else {
            t.malformed(label(r));
            continue;
        };
        let got = keystream(Algo::XSalsa20, &key, &nonce, (imp, xor), 0, want.len());
        t.check(same(&got, &want), || format!("{} ({xor})", label(r)));
    }
    for r in records(file, "xsalsa20_xor") {
        let (Some(key), Some(nonce), Some(message), Some(want)) = (
            hex_field(r, "key"),
            hex_field(r, "nonce"),
            hex_field(r, "message"),
            hex_field(r, "ciphertext_full"),
        ) else {
            t.malformed(label(r));
            continue;
        };
        let got = encrypt(Algo::XSalsa20, &key, &nonce, (imp, xor), 0, &message);
        t.check(same(&got, &want), || format!("{} ({xor})", label(r)));
    }
}

/// The Salsa20 input state: constants on the diagonal, `k0` in words 1–4,
/// the 16-byte `n` in 6–9, `k1` in 11–14 (spec §9).
fn state(constant: &[u8], k0: &[u8], n: &[u8], k1: &[u8]) -> Option<[u32; 16]> {
    if constant.len() != 16 || k0.len() != 16 || n.len() != 16 || k1.len() != 16 {
        return None;
    }
    let mut bytes = Vec::with_capacity(64);
    for (c, piece) in constant.chunks(4).zip([k0, n, k1, &[][..]]) {
        bytes.extend_from_slice(c);
        bytes.extend_from_slice(piece);
    }
    words_le(&bytes)
}

/// `x + doubleround^n(x)` on rung `imp`, as bytes.
fn core_bytes(imp: Rung, x: &[u32; 16], double_rounds: usize) -> Result<Vec<u8>, String> {
    imp.core(x, double_rounds)
        .map(|z| bytes_le(&z))
        .map_err(|e| e.to_string())
}

/// HSalsa20's output from the core: `(x + z) − x` at words 0, 5, 10, 15, 6–9.
fn hsalsa20_from_core(imp: Rung, x: &[u32; 16]) -> Result<Vec<u8>, String> {
    let y = imp.core(x, 10).map_err(|e| e.to_string())?;
    let z: Vec<u32> = [0, 5, 10, 15, 6, 7, 8, 9]
        .iter()
        .map(|&i| y[i].wrapping_sub(x[i]))
        .collect();
    Ok(bytes_le(&z))
}

/// RFC 7914 §8: the Salsa20/8 core (4 double-rounds) of one block.
fn salsa20_8_cores(file: &Value, imp: Rung, t: &mut Tally) {
    for r in records(file, "salsa20_8_core") {
        let input = hex_field(r, "input").as_deref().and_then(words_le);
        let (Some(x), Some(want)) = (input, hex_field(r, "output")) else {
            t.check(false, || format!("RFC 7914 {}: malformed record", label(r)));
            continue;
        };
        let got = imp
            .core(&x, 4)
            .map(|z| bytes_le(&z))
            .map_err(|e| e.to_string());
        t.check(same(&got, &want), || {
            format!("RFC 7914 {}: Salsa20/8 core", label(r))
        });
    }
}

/// The core's vectors through `Rung::core`: spec §8 (including the
/// million-fold iteration), §6 double-rounds, §9 expansions, NaCl's
/// HSalsa20 and core; on the reference rung also the spec's own functions
/// and the public `hsalsa20`.
fn core_vectors(data: &Data, imp: Rung) -> Tally {
    let mut t = Tally::default();
    let spec = &data.salsa20_spec;
    for r in records(spec, "salsa20_hash") {
        let input = hex_field(r, "input").as_deref().and_then(words_le);
        let (Some(x), Some(want), Some(n)) =
            (input, hex_field(r, "output"), r["iterations"].as_u64())
        else {
            t.malformed(label(r));
            continue;
        };
        let mut got = Ok(x);
        for _ in 0..n {
            got = got.and_then(|x| imp.core(&x, 10).map_err(|e| e.to_string()));
        }
        let got = got.map(|z| bytes_le(&z));
        t.check(same(&got, &want), || {
            format!("{}: salsa20 hash iterated {n} times", label(r))
        });
    }
    for r in records(spec, "doubleround") {
        let (Some(x), Some(want)) = (word_list::<16>(&r["input"]), word_list::<16>(&r["output"]))
        else {
            t.malformed(label(r));
            continue;
        };
        // core(x, 1) = x + doubleround(x).
        let got = imp.core(&x, 1).map(|y| {
            let z: Vec<u32> = y.iter().zip(&x).map(|(y, x)| y.wrapping_sub(*x)).collect();
            bytes_le(&z)
        });
        t.check(matches!(got, Ok(g) if g == bytes_le(&want)), || {
            format!("{}: doubleround", label(r))
        });
    }
    for r in records(spec, "salsa20_expansion") {
        let (Some(key), Some(n), Some(want)) = (
            hex_field(r, "key"),
            hex_field(r, "n"),
            hex_field(r, "output"),
        ) else {
            t.malformed(label(r));
            continue;
        };
        let (constants, k1) = if key.len() == 32 {
            (reference::SIGMA, &key[16..])
        } else {
            (reference::TAU, &key[..])
        };
        let x = state(&constants.concat(), &key[..key.len().min(16)], &n, k1);
        let got = x
            .ok_or_else(String::new)
            .and_then(|x| core_bytes(imp, &x, 10));
        t.check(same(&got, &want), || format!("{}: expansion", label(r)));
    }
    for (list, hsalsa) in [("hsalsa20", true), ("salsa20_core", false)] {
        for r in records(&data.nacl, list) {
            let fields = (
                hex_field(r, "constant"),
                hex_field(r, "key"),
                hex_field(r, "input"),
                hex_field(r, "output"),
            );
            let (Some(c), Some(key), Some(input), Some(want)) = fields else {
                t.malformed(label(r));
                continue;
            };
            let x = if key.len() == 32 {
                state(&c, &key[..16], &input, &key[16..])
            } else {
                None
            };
            let got = x.ok_or_else(String::new).and_then(|x| {
                if hsalsa {
                    hsalsa20_from_core(imp, &x)
                } else {
                    core_bytes(imp, &x, 10)
                }
            });
            t.check(same(&got, &want), || format!("{}: {list}", label(r)));
        }
    }
    if imp == Rung::Reference {
        spec_functions(data, &mut t);
        public_functions(data, &mut t);
    }
    t
}

/// Spec §3–§9 through the specification's own functions (`reference`):
/// the quarter, row, column and double rounds, `littleendian`, the hash
/// (§8, RFC 7914's Salsa20/8 core) and the expansion (§9, NaCl's core).
fn spec_functions(data: &Data, t: &mut Tally) {
    let spec = &data.salsa20_spec;
    for r in records(spec, "quarterround") {
        let ok = match (word_list::<4>(&r["input"]), word_list::<4>(&r["output"])) {
            (Some(x), Some(want)) => reference::quarterround(x) == want,
            _ => false,
        };
        t.check(ok, || format!("{}: quarterround", label(r)));
    }
    type Round = fn(&[u32; 16]) -> [u32; 16];
    for (list, f) in [
        ("rowround", reference::rowround as Round),
        ("columnround", reference::columnround),
    ] {
        for r in records(spec, list) {
            let ok = match (word_list::<16>(&r["input"]), word_list::<16>(&r["output"])) {
                (Some(x), Some(want)) => f(&x) == want,
                _ => false,
            };
            t.check(ok, || format!("{}: {list}", label(r)));
        }
    }
    for r in records(spec, "doubleround") {
        let ok = match (word_list::<16>(&r["input"]), word_list::<16>(&r["output"])) {
            (Some(x), Some(want)) => {
                reference::doubleround(&x) == want && reference::double_rounds(&x, 1) == want
            }
            _ => false,
        };
        t.check(ok, || format!("{}: doubleround", label(r)));
    }
    let hashes = records(spec, "salsa20_hash")
        .iter()
        .map(|r| (r, 10, r["iterations"].as_u64()))
        .chain(
            records(&data.rfc7914, "salsa20_8_core")
                .iter()
                .map(|r| (r, 4, Some(1))),
        );
    for (r, double_rounds, iterations) in hashes {
        let fields = (
            hex_field(r, "input").and_then(|b| <[u8; 64]>::try_from(b).ok()),
            hex_field(r, "output"),
            iterations,
        );
        let ok = match fields {
            (Some(mut x), Some(want), Some(n)) => {
                for _ in 0..n {
                    x = reference::hash(&x, double_rounds);
                }
                x[..] == want[..]
            }
            _ => false,
        };
        t.check(ok, || format!("{}: reference::hash", label(r)));
    }
    let sigma = reference::SIGMA.concat();
    let nacl = records(&data.nacl, "salsa20_core")
        .iter()
        .filter(|r| hex_field(r, "constant").as_deref() == Some(&sigma[..]))
        .map(|r| (r, "input"));
    let expansions = records(spec, "salsa20_expansion")
        .iter()
        .map(|r| (r, "n"))
        .chain(nacl);
    for (r, n_key) in expansions {
        let fields = (
            hex_field(r, "key"),
            hex_field(r, n_key).and_then(|n| <[u8; 16]>::try_from(n).ok()),
            hex_field(r, "output"),
        );
        let ok = match fields {
            (Some(key), Some(n), Some(want)) => {
                let key = match key.len() {
                    32 => key.as_slice().try_into().ok().map(reference::Key::Bits256),
                    _ => key.as_slice().try_into().ok().map(reference::Key::Bits128),
                };
                key.is_some_and(|k| reference::expansion(k, &n, 10)[..] == want[..])
            }
            _ => false,
        };
        t.check(ok, || format!("{}: reference::expansion", label(r)));
    }
    for r in records(spec, "littleendian") {
        let input = hex_field(r, "input_bytes").and_then(|b| <[u8; 4]>::try_from(b).ok());
        let want = r["output"]
            .as_str()
            .and_then(|s| u32::from_str_radix(s, 16).ok());
        let ok = match (input, want) {
            (Some(b), Some(w)) => {
                reference::littleendian(b) == w && reference::littleendian_inverse(w) == b
            }
            _ => false,
        };
        t.check(ok, || format!("{}: littleendian", label(r)));
    }
}

/// NaCl's HSalsa20 records through the public `hsalsa20` (which runs on
/// the fastest single-block rung, whatever the row).
fn public_functions(data: &Data, t: &mut Tally) {
    for r in records(&data.nacl, "hsalsa20") {
        let fields = (
            hex_array::<32>(r, "key"),
            hex_array::<16>(r, "input"),
            hex_field(r, "output"),
        );
        let ok = match fields {
            (Some(key), Some(input), Some(want)) => salsa20::hsalsa20(&key, &input)[..] == want[..],
            _ => false,
        };
        t.check(ok, || format!("{}: hsalsa20()", label(r)));
    }
}

/// HSalsa20 from the specification's double rounds (no final addition).
fn reference_hsalsa20(key: &[u8], n: &[u8]) -> Option<Vec<u8>> {
    let x = state(
        &reference::SIGMA.concat(),
        key.get(..16)?,
        n,
        key.get(16..)?,
    )?;
    let z = reference::double_rounds(&x, 10);
    Some(bytes_le(&[
        z[0], z[5], z[10], z[15], z[6], z[7], z[8], z[9],
    ]))
}

/// Random core inputs with 10, 6, 4 or any number of double-rounds, against
/// the specification's double rounds plus the final addition; on the
/// reference row also the public `core` and `hsalsa20` (which run on the
/// fastest single-block rung), the latter against HSalsa20 from the
/// specification's double rounds.
fn core_cross_check(imp: Rung, rng: &mut Rng) -> Tally {
    let mut t = Tally::default();
    for i in 0..CORE_CASES {
        let x: [u32; 16] = std::array::from_fn(|_| rng.next_u64() as u32);
        let rounds = match i % 4 {
            0 => 10,
            1 => 6,
            2 => 4,
            _ => rng.below(21) as usize,
        };
        let z = reference::double_rounds(&x, rounds);
        let want: [u32; 16] = std::array::from_fn(|j| z[j].wrapping_add(x[j]));
        t.check(imp.core(&x, rounds) == Ok(want), || {
            format!("case {i}: {rounds} double-rounds of {x:08x?}")
        });
        if imp == Rung::Reference {
            t.check(salsa20::core(&x, rounds) == want, || {
                format!("case {i}: core(), {rounds} double-rounds of {x:08x?}")
            });
            let (key, input): ([u8; 32], [u8; 16]) = (rng.array(), rng.array());
            let want = reference_hsalsa20(&key, &input);
            t.check(
                want.as_deref() == Some(&salsa20::hsalsa20(&key, &input)[..]),
                || format!("case {i}: hsalsa20() of key {key:02x?}, input {input:02x?}"),
            );
        }
    }
    t
}
