//! The ChaCha20 family: ChaCha20 (RFC 8439), the original 64-bit-counter
//! form, XChaCha20, and the block function with HChaCha20 — on the RFC 8439
//! and draft-irtf-cfrg-xchacha-03 vectors, against the RFC's own functions
//! (`chacha20::reference`), and in round trips.

use serde_json::Value;

use crate::Xor;
use crate::chacha20::{self, ChaCha20, ChaCha20Legacy, Rung, XChaCha20, hchacha20, reference};
use crate::harness::data::{Data, data};
use crate::harness::stream::{
    Shape, StreamAlgo, cipher, function_primitive,
    stream_primitives, xor_in_chunks,
};
use crate::harness::vectors::{
    bytes_le, hex_array, hex_field, label, number_field, records, word_list,
};
use crate::harness::{BLOCK_EDGES, Outcome, Report, Rng, Tally};

/// Random cases per rung of a cipher against the reference, besides one
/// of every length up to 2100 bytes.
const CROSS_CASES: u64 = 800;
/// Random states per rung of the block function.
const BLOCK_CASES: u64 = 800;
/// Random HChaCha20 inputs per rung.
const HCHACHA_CASES: u64 = 200;
/// Round trips per other rung and direction.
const ROUND_TRIPS: u64 = 6;

/// The rows of the family: the three ciphers, then the block function.
pub(crate) fn run(report: &mut Report) {
    let algos = Algo::ALL.map(|a| (a.name(), a));
    let counts = (CROSS_CASES, ROUND_TRIPS);
    let data = data();
    stream_primitives(report, &algos, counts, |algo, imp| {
        stream_vectors(data, algo, imp)
    });
    function_primitive(
        report,
        "hchacha20/block",
        |imp| block_vectors(data, imp),
        block_cross_check,
    );
}

/// The ladder's fuzz case: one of its ciphers on a case the fuzzer's bytes
/// steer, on every rung ([`crate::harness::stream::fuzz`]).
pub(crate) fn fuzz(input: &[u8]) -> Tally {
    crate::harness::stream::fuzz(&Algo::ALL, input)
}

/// A ChaCha20 cipher.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Algo {
    /// RFC 8439: 96-bit nonce, 32-bit counter.
    Rfc,
    /// The original: 64-bit nonce, 64-bit counter.
    Legacy,
    /// XChaCha20: 192-bit nonce through HChaCha20, 64-bit counter.
    X,
}

impl Algo {
    const ALL: [Algo; 3] = [Algo::Rfc, Algo::Legacy, Algo::X];

    fn name(self) -> &'static str {
        match self {
            Algo::Rfc => "chacha20",
            Algo::Legacy => "chacha20-legacy",
            Algo::X => "xchacha20",
        }
    }
}

impl StreamAlgo for Algo {
    type Rung = Rung;

    fn shape(self) -> Shape {
        // 2^31 catches signed comparisons, 2^32 is the end of RFC 8439's
        // keystream and the carry into word 13 of the others', 2^64 their
        // end.
        let (nonce_len, carries, last_block): (_, &[u128], _) = match self {
            Algo::Rfc => (
                chacha20::NONCE_LEN,
                &[1 << 31, 1 << 32],
                u64::from(u32::MAX),
            ),
            Algo::Legacy => (
                chacha20::LEGACY_NONCE_LEN,
                &[1 << 31, 1 << 32, 1 << 64],
                u64::MAX,
            ),
            Algo::X => (chacha20::XNONCE_LEN, &[1 << 31, 1 << 32, 1 << 64], u64::MAX),
        };
        Shape {
            key_128: false,
            nonce_len,
            carries,
            last_block,
            edge_lengths: &BLOCK_EDGES,
            max_len: 2100,
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
        let key: &[u8; 32] = key.try_into().map_err(|_| bad())?;
        macro_rules! chacha {
            ($t:ty) => {
                Box::new(
                    <$t>::new(key, nonce.try_into().map_err(|_| bad())?)
                        .with_rung(imp)
                        .map_err(e)?
                        .with_xor(xor),
                )
            };
        }
        Ok(match self {
            Algo::Rfc => chacha!(ChaCha20),
            Algo::Legacy => chacha!(ChaCha20Legacy),
            Algo::X => chacha!(XChaCha20),
        })
    }

    /// `reference::encrypt` (RFC 8439 §2.4.1) or `encrypt_legacy`; for
    /// XChaCha20 keyed with `reference::hchacha20`.
    fn reference(self, key: &[u8], nonce: &[u8], block: u64, len: usize) -> Option<Vec<u8>> {
        let key: &[u8; 32] = key.try_into().ok()?;
        let mut ks = vec![0u8; len];
        match self {
            Algo::Rfc => {
                let counter = u32::try_from(block).ok()?;
                reference::encrypt(key, counter, nonce.try_into().ok()?, &mut ks);
            }
            Algo::Legacy => {
                reference::encrypt_legacy(key, block, nonce.try_into().ok()?, &mut ks);
            }
            Algo::X => {
                let subkey = reference::hchacha20(key, nonce.get(..16)?.try_into().ok()?);
                let n = nonce.get(16..)?.try_into().ok()?;
                reference::encrypt_legacy(&subkey, block, n, &mut ks);
            }
        }
        Some(ks)
    }
}

// ---------------------------------------------------------------- vectors

/// A known encryption: `message` XORed with the keystream from block
/// `counter` is `want`.
struct Known {
    name: String,
    key: Vec<u8>,
    nonce: Vec<u8>,
    counter: u64,
    message: Vec<u8>,
    want: Vec<u8>,
}

impl Known {
    /// The keystream from block `counter` is the record's field `want`.
    fn keystream(r: &Value, nonce: Option<Vec<u8>>, counter: u64, want: &str) -> Option<Known> {
        let want = hex_field(r, want)?;
        Some(Known {
            name: format!(
                "{} {want_len} bytes of keystream",
                label(r),
                want_len = want.len()
            ),
            key: hex_field(r, "key")?,
            nonce: nonce?,
            counter,
            message: vec![0; want.len()],
            want,
        })
    }

    /// `plaintext` encrypts to `ciphertext` from block `counter`.
    fn encryption(r: &Value, nonce: Option<Vec<u8>>, counter: u64) -> Option<Known> {
        Some(Known {
            name: format!("{} encryption", label(r)),
            key: hex_field(r, "key")?,
            nonce: nonce?,
            counter,
            message: hex_field(r, "plaintext")?,
            want: hex_field(r, "ciphertext")?,
        })
    }

    /// The same keystream through the original form: the RFC's first
    /// nonce word is the high half of the 64-bit counter.
    fn into_legacy(self) -> Option<Known> {
        let high: [u8; 4] = self.nonce.get(..4)?.try_into().ok()?;
        Some(Known {
            counter: self.counter | u64::from(u32::from_le_bytes(high)) << 32,
            nonce: self.nonce.get(4..)?.to_vec(),
            name: format!("{} (nonce word 0 as counter high)", self.name),
            ..self
        })
    }
}

/// RFC 8439's keystreams and encryptions: §2.3.2 and A.1 blocks, §2.4.2
/// and A.2 encryptions, §2.6.2 and A.4 Poly1305 keys (block 0), and the
/// §2.8.2 and A.5 AEAD's Poly1305 key and ciphertext (from block 1).
fn rfc8439_known(data: &Data) -> Vec<Result<Known, String>> {
    let file = &data.rfc8439;
    let nonce = |r: &Value| hex_field(r, "nonce");
    let counter = |r: &Value, key: &str| number_field(r, key).unwrap_or(0);
    let mut out = Vec::new();
    let mut push = |r: &Value, known: Option<Known>| out.push(known.ok_or_else(|| label(r)));
    for r in records(file, "chacha20_block") {
        push(
            r,
            Known::keystream(r, nonce(r), counter(r, "block_counter"), "keystream"),
        );
    }
    for r in records(file, "chacha20_encryption") {
        push(
            r,
            Known::encryption(r, nonce(r), counter(r, "initial_counter")),
        );
    }
    for r in records(file, "poly1305_key_generation") {
        let c = counter(r, "block_counter");
        push(r, Known::keystream(r, nonce(r), c, "poly1305_key"));
    }
    for r in records(file, "aead_chacha20_poly1305") {
        push(r, Known::keystream(r, nonce(r), 0, "poly1305_key"));
        push(r, Known::encryption(r, nonce(r), 1));
    }
    out
}

/// The draft's XChaCha20 keystreams (A.2, counters 0 and 1) and its
/// AEAD's Poly1305 key and ciphertext (A.3.1); with `subkey`, the AEAD
/// record through the original form keyed with the HChaCha20 subkey.
fn xchacha_known(data: &Data, subkey: bool) -> Vec<Result<Known, String>> {
    let file = &data.xchacha;
    let mut out = Vec::new();
    let mut push = |r: &Value, known: Option<Known>| out.push(known.ok_or_else(|| label(r)));
    if !subkey {
        for r in records(file, "xchacha20") {
            let counter = number_field(r, "initial_counter").unwrap_or(0);
            push(r, Known::encryption(r, hex_field(r, "nonce"), counter));
            push(
                r,
                Known::keystream(r, hex_field(r, "nonce"), counter, "keystream"),
            );
        }
    }
    for r in records(file, "aead_xchacha20_poly1305") {
        let nonce = hex_field(r, "nonce");
        let via_subkey = |known: Option<Known>| {
            let mut k = known?;
            k.key = hex_field(r, "subkey_hchacha20")?;
            k.nonce = k.nonce.get(16..)?.to_vec();
            k.name = format!("{} (HChaCha20 subkey, original form)", k.name);
            Some(k)
        };
        let key = Known::keystream(r, nonce.clone(), 0, "poly1305_key");
        let ct = Known::encryption(r, nonce, 1);
        if subkey {
            push(r, via_subkey(key));
            push(r, via_subkey(ct));
        } else {
            push(r, key);
            push(r, ct);
        }
    }
    out
}

/// Call sizes the vectors are also applied in (RustCrypto's test of the
/// streaming API): a byte at a time, and around the block.
const CHUNKS: [usize; 7] = [usize::MAX, 1, 7, 63, 64, 65, 256];

/// The vectors of `algo` on `imp`, in both XOR forms, both ways (the
/// message to the result and back), in one call and in the [`CHUNKS`].
fn stream_vectors(data: &Data, algo: Algo, imp: Rung) -> Outcome {
    let known: Vec<Result<Known, String>> = match algo {
        Algo::Rfc => rfc8439_known(data),
        Algo::Legacy => rfc8439_known(data)
            .into_iter()
            .map(|k| {
                k.and_then(|k| {
                    let name = k.name.clone();
                    k.into_legacy()
                        .ok_or_else(|| format!("{name}: a nonce shorter than 12 bytes"))
                })
            })
            .chain(xchacha_known(data, true))
            .collect(),
        Algo::X => xchacha_known(data, false),
    };
    let mut t = Tally::default();
    for xor in Xor::ALL {
        for k in &known {
            let k = match k {
                Ok(k) => k,
                Err(name) => {
                    t.malformed(name);
                    continue;
                }
            };
            for (from, to, way) in [(&k.message, &k.want, ""), (&k.want, &k.message, ", back")] {
                for chunk in CHUNKS {
                    let start = u128::from(k.counter) * 64;
                    let got = cipher(algo, &k.key, &k.nonce, (imp, xor), start)
                        .and_then(|c| xor_in_chunks(c, from, chunk));
                    t.check(matches!(&got, Ok(g) if g == to), || {
                        let calls = match chunk {
                            usize::MAX => "one call".to_owned(),
                            n => format!("calls of {n}"),
                        };
                        format!(
                            "{}{way} from block {} ({xor}, {calls}): {}",
                            k.name,
                            k.counter,
                            describe(&got)
                        )
                    });
                }
            }
        }
    }
    t.vectors()
}

/// A result for a failure message: an error, or the first bytes made.
fn describe(got: &Result<Vec<u8>, String>) -> String {
    match got {
        Ok(g) => format!(
            "got {}…",
            g.iter()
                .take(16)
                .map(|b| format!("{b:02x}"))
                .collect::<String>()
        ),
        Err(e) => e.clone(),
    }
}

/// A state (16 words) from a record's list of 8-digit hex words.
fn state(r: &Value, key: &str) -> Option<[u32; 16]> {
    word_list::<16>(&r[key])
}

/// HChaCha20 through the block function of `imp`: the block minus its
/// input (undoing the final addition), words 0–3 and 12–15.
fn hchacha20_via_block(imp: Rung, x: &[u32; 16]) -> Result<Vec<u8>, String> {
    let y = imp.block(x).map_err(|e| e.to_string())?;
    let z: Vec<u32> = [0, 1, 2, 3, 12, 13, 14, 15]
        .iter()
        .map(|&i| y[i].wrapping_sub(x[i]))
        .collect();
    Ok(bytes_le(&z))
}

/// The HChaCha20 input state of `key` and the 16-byte `input`, built by
/// the RFC's `initial_state` with the input in the counter and nonce words.
fn hchacha20_state(key: &[u8; 32], input: &[u8; 16]) -> [u32; 16] {
    let head: [u8; 4] = std::array::from_fn(|i| input[i]);
    let nonce: [u8; 12] = std::array::from_fn(|i| input[4 + i]);
    reference::initial_state(key, u32::from_le_bytes(head), &nonce)
}

/// The block function's vectors through `Rung::block`: the RFC's states
/// before and after (§2.3.2, §2.4.2, §2.6.2, §2.8.2, A.5), A.1's blocks
/// and A.4's Poly1305 keys from key, counter and nonce, and HChaCha20
/// (draft §2.2.1, A.3.1); `hchacha20()` itself on the rung it runs on; on
/// the reference rung also the RFC's own functions.
fn block_vectors(data: &Data, imp: Rung) -> Tally {
    let mut t = Tally::default();
    let rfc = &data.rfc8439;
    let states = [
        ("chacha20_block", "initial_state", "final_state"),
        (
            "chacha20_encryption",
            "first_block_setup",
            "first_block_after_block_operation",
        ),
        (
            "chacha20_encryption",
            "second_block_setup",
            "second_block_after_block_operation",
        ),
        (
            "poly1305_key_generation",
            "initial_state",
            "state_after_20_rounds_as_printed",
        ),
        (
            "aead_chacha20_poly1305",
            "poly1305_key_setup_state",
            "poly1305_key_state_after_block",
        ),
        (
            "aead_chacha20_poly1305",
            "poly1305_key_setup_state",
            "poly1305_key_state_after_20_rounds_as_printed",
        ),
    ];
    for (list, before, after) in states {
        // Only some records print their states, the "after" one under one
        // of two names; each pair must be found at least once.
        let with_states = records(rfc, list)
            .iter()
            .filter(|r| !r[before].is_null() && !r[after].is_null());
        let mut found = false;
        for r in with_states {
            found = true;
            let (Some(x), Some(want)) = (state(r, before), state(r, after)) else {
                t.malformed(label(r));
                continue;
            };
            t.check(imp.block(&x) == Ok(want), || {
                format!("{}: block of {before}", label(r))
            });
        }
        if !found {
            t.malformed(format!("{list} with {before} and {after}"));
        }
    }
    for (list, want_key) in [
        ("chacha20_block", "keystream"),
        ("poly1305_key_generation", "poly1305_key"),
    ] {
        for r in records(rfc, list) {
            let fields = (
                hex_array::<32>(r, "key"),
                hex_array::<12>(r, "nonce"),
                u32::try_from(number_field(r, "block_counter").unwrap_or(0)).ok(),
                hex_field(r, want_key),
            );
            let (Some(key), Some(nonce), Some(counter), Some(want)) = fields else {
                t.malformed(label(r));
                continue;
            };
            let got = imp.block(&reference::initial_state(&key, counter, &nonce));
            t.check(
                matches!(got, Ok(y) if bytes_le(&y).starts_with(&want)),
                || format!("{}: {want_key}", label(r)),
            );
        }
    }
    for record in hchacha20_records(data) {
        let Some((key, input, want)) = record else {
            t.malformed("HChaCha20 record");
            continue;
        };
        let x = hchacha20_state(&key, &input);
        t.check(
            hchacha20_via_block(imp, &x).as_deref() == Ok(&want[..]),
            || format!("HChaCha20 of key {:02x?}…: via the block", &key[..4]),
        );
        if imp == Rung::best() {
            t.check(hchacha20(&key, &input)[..] == want[..], || {
                format!("HChaCha20 of key {:02x?}…: hchacha20()", &key[..4])
            });
        }
        if imp == Rung::Reference {
            t.check(reference::hchacha20(&key, &input)[..] == want[..], || {
                format!("HChaCha20 of key {:02x?}…: reference::hchacha20", &key[..4])
            });
        }
    }
    for r in records(&data.xchacha, "hchacha20") {
        let (Some(x), Some(want)) = (state(r, "initial_state"), state(r, "state_after_20_rounds"))
        else {
            t.malformed(label(r));
            continue;
        };
        let got = imp
            .block(&x)
            .map(|y| std::array::from_fn(|i| y[i].wrapping_sub(x[i])));
        t.check(got == Ok(want), || format!("{}: 20 rounds", label(r)));
    }
    if imp == Rung::Reference {
        spec_functions(data, &mut t);
    }
    t
}

/// Key, 16-byte input and subkey of the draft's HChaCha20 records: §2.2.1,
/// and A.3.1's subkey of the AEAD record (nonce bytes 0–15).
fn hchacha20_records(data: &Data) -> Vec<Option<HChaCha20Record>> {
    let file = &data.xchacha;
    let record = |r: &Value, subkey: &str| {
        let input = hex_field(r, "nonce")?.get(..16)?.try_into().ok()?;
        Some((hex_array(r, "key")?, input, hex_field(r, subkey)?))
    };
    let section = records(file, "hchacha20")
        .iter()
        .map(|r| record(r, "subkey"));
    let aead = records(file, "aead_xchacha20_poly1305")
        .iter()
        .map(|r| record(r, "subkey_hchacha20"));
    section.chain(aead).collect()
}

/// Key, 16-byte input, subkey.
type HChaCha20Record = ([u8; 32], [u8; 16], Vec<u8>);

/// RFC 8439 §2.1–§2.4 through the reference rung's own functions: the
/// quarter round, the quarter round on the state, the initial state and
/// 20 rounds of §2.3.2 and of HChaCha20, the block function, encryption.
fn spec_functions(data: &Data, t: &mut Tally) {
    let rfc = &data.rfc8439;
    for r in records(rfc, "quarter_round") {
        let words = |v: &Value| -> Option<[u32; 4]> {
            let w = |k: &str| u32::from_str_radix(v[k].as_str()?, 16).ok();
            Some([w("a")?, w("b")?, w("c")?, w("d")?])
        };
        let ok = match (words(&r["input"]), words(&r["output"])) {
            (Some([a, b, c, d]), Some(want)) => {
                let (a, b, c, d) = reference::quarter_round(a, b, c, d);
                [a, b, c, d] == want
            }
            _ => false,
        };
        t.check(ok, || format!("{}: quarter_round", label(r)));
    }
    for r in records(rfc, "quarter_round_on_state") {
        let indices: Option<Vec<usize>> = r["quarterround_indices"]
            .as_array()
            .and_then(|l| l.iter().map(|i| i.as_u64().map(|i| i as usize)).collect());
        let ok = match (
            state(r, "state"),
            state(r, "output_state"),
            indices.as_deref(),
        ) {
            (Some(mut x), Some(want), Some(&[a, b, c, d]))
                if [a, b, c, d].iter().all(|&i| i < 16) =>
            {
                reference::quarter_round_on_state(&mut x, a, b, c, d);
                x == want
            }
            _ => false,
        };
        t.check(ok, || format!("{}: quarter_round_on_state", label(r)));
    }
    for r in records(rfc, "chacha20_block") {
        let fields = (
            hex_array::<32>(r, "key"),
            hex_array::<12>(r, "nonce"),
            u32::try_from(number_field(r, "block_counter").unwrap_or(0)).ok(),
            hex_field(r, "keystream"),
        );
        let (Some(key), Some(nonce), Some(counter), Some(want)) = fields else {
            t.malformed(label(r));
            continue;
        };
        t.check(
            reference::block(&key, counter, &nonce)[..] == want[..],
            || format!("{}: block", label(r)),
        );
        let x = reference::initial_state(&key, counter, &nonce);
        if let Some(s) = state(r, "initial_state") {
            t.check(x == s, || format!("{}: initial_state", label(r)));
        }
        if let Some(s) = state(r, "state_after_20_rounds") {
            t.check(reference::double_rounds(&x, 10) == s, || {
                format!("{}: 20 rounds", label(r))
            });
        }
    }
    for r in records(rfc, "chacha20_encryption") {
        let fields = (
            hex_array::<32>(r, "key"),
            hex_array::<12>(r, "nonce"),
            u32::try_from(number_field(r, "initial_counter").unwrap_or(0)).ok(),
            hex_field(r, "plaintext"),
            hex_field(r, "ciphertext"),
        );
        let (Some(key), Some(nonce), Some(counter), Some(mut m), Some(want)) = fields else {
            t.malformed(label(r));
            continue;
        };
        reference::encrypt(&key, counter, &nonce, &mut m);
        t.check(m == want, || format!("{}: encrypt", label(r)));
        if let Some(keystream) = hex_field(r, "keystream") {
            let mut zeros = vec![0u8; keystream.len()];
            reference::encrypt(&key, counter, &nonce, &mut zeros);
            t.check(zeros == keystream, || format!("{}: keystream", label(r)));
        }
        for (i, setup) in ["first_block_setup", "second_block_setup"]
            .into_iter()
            .enumerate()
        {
            if let Some(s) = state(r, setup) {
                let x = reference::initial_state(&key, counter.wrapping_add(i as u32), &nonce);
                t.check(x == s, || format!("{}: {setup}", label(r)));
            }
        }
    }
    for r in records(&data.xchacha, "hchacha20") {
        let (Some(key), Some(input), Some(want)) = (
            hex_array::<32>(r, "key"),
            hex_array::<16>(r, "nonce"),
            state(r, "initial_state"),
        ) else {
            t.malformed(label(r));
            continue;
        };
        t.check(hchacha20_state(&key, &input) == want, || {
            format!("{}: HChaCha20 initial state", label(r))
        });
        let rounds = state(r, "state_after_20_rounds");
        t.check(rounds == Some(reference::double_rounds(&want, 10)), || {
            format!("{}: HChaCha20's 20 rounds", label(r))
        });
    }
}

// ------------------------------------------------------------ random cases

/// Random states through `Rung::block` against the RFC's 20 rounds plus
/// the input; random HChaCha20 inputs through the block (and through
/// `hchacha20()` on the rung it runs on) against `reference::hchacha20`.
fn block_cross_check(imp: Rung, rng: &mut Rng) -> Tally {
    let mut t = Tally::default();
    for i in 0..BLOCK_CASES {
        let x: [u32; 16] = std::array::from_fn(|_| rng.next_u64() as u32);
        let z = reference::double_rounds(&x, 10);
        let want: [u32; 16] = std::array::from_fn(|j| z[j].wrapping_add(x[j]));
        t.check(imp.block(&x) == Ok(want), || {
            format!("case {i}: block of {x:08x?}")
        });
    }
    for i in 0..HCHACHA_CASES {
        let key: [u8; 32] = rng.array();
        let input: [u8; 16] = rng.array();
        let want = reference::hchacha20(&key, &input);
        let via_block = hchacha20_via_block(imp, &hchacha20_state(&key, &input));
        let public = imp != Rung::best() || hchacha20(&key, &input) == want;
        t.check(via_block.as_deref() == Ok(&want[..]) && public, || {
            format!("HChaCha20 case {i}: key {key:02x?}, input {input:02x?}")
        });
    }
    t
}
