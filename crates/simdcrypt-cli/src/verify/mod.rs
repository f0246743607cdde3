//! `simdcrypt verify`: every rung of every primitive against (a) the official
//! vectors, (b) the specification's own functions on random inputs and
//! (c) every other rung in encrypt/decrypt round trips.
//!
//! This file holds what every family shares: the table and its printing,
//! the tallies, the row driver (generic over a primitive's rungs), the
//! vector-file helpers, the random generator and the stream-cipher checks
//! (random cases against a reference keystream, round trips between rungs).
//! The families — [`salsa20`], [`chacha20`], [`poly1305`], [`aead`] — say
//! which vectors to run and what the reference is.

mod aead;
mod age;
mod chacha20;
mod hash;
mod kdf;
mod poly1305;
mod salsa20;

use std::io::Write;

use serde_json::{Value, json};
use simdcrypt::{Error, Rung, Xor};

use crate::cli::VerifyArgs;
use crate::error::CliError;
use crate::key::hex_bytes;

/// The seed of the random cases when `--seed` is not given.
pub const DEFAULT_SEED: u64 = 1;

const SALSA20_SPEC: &str = include_str!("../../../simdcrypt/tests/data/salsa20/salsa20_spec.json");
const SALSA20_ESTREAM: &str =
    include_str!("../../../simdcrypt/tests/data/salsa20/salsa20_estream_subset.json");
const NACL: &str = include_str!("../../../simdcrypt/tests/data/salsa20/xsalsa20_nacl.json");
const RFC7914: &str = include_str!("../../../simdcrypt/tests/data/salsa20/salsa20_8_rfc7914.json");
const FIPS180: &str = include_str!("../../../simdcrypt/tests/data/sha/fips180_examples.json");
const SHA_EXAMPLES: &str =
    include_str!("../../../simdcrypt/tests/data/sha/sha2_truncated_examples.json");
const MD5: &str = include_str!("../../../simdcrypt/tests/data/sha/md5_rfc1321.json");
const RFC8439: &str = include_str!("../../../simdcrypt/tests/data/rfc8439/rfc8439.json");
const XCHACHA: &str =
    include_str!("../../../simdcrypt/tests/data/xchacha/draft-irtf-cfrg-xchacha-03.json");
const WYCHEPROOF_CHACHA: &str =
    include_str!("../../../simdcrypt/tests/data/wycheproof/chacha20_poly1305_test.json");
const WYCHEPROOF_XCHACHA: &str =
    include_str!("../../../simdcrypt/tests/data/wycheproof/xchacha20_poly1305_test.json");

/// The three checks, the columns of the table.
const CHECKS: [(&str, &str); 3] = [
    ("vectors", "vectors"),
    ("cross-check", "cross_check"),
    ("round-trip", "round_trip"),
];

/// The vector files, parsed.
struct Data {
    salsa20_spec: Value,
    estream: Value,
    nacl: Value,
    rfc7914: Value,
    rfc8439: Value,
    xchacha: Value,
    wycheproof_chacha: Value,
    wycheproof_xchacha: Value,
    fips180: Value,
    sha_examples: Value,
    md5: Value,
}

// ------------------------------------------------------------------ rungs

/// The rungs other than `rung` that this CPU runs.
fn others<R: Rung>(rung: R) -> Vec<R> {
    R::all()
        .iter()
        .copied()
        .filter(|&r| r != rung && r.is_available())
        .collect()
}

/// The one "rung" of an AEAD (and of HMAC and HKDF): each primitive inside
/// on its best rung.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct BestRungs;

impl std::fmt::Display for BestRungs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl Rung for BestRungs {
    const PRIMITIVE: &'static str = "composition";
    fn all() -> &'static [Self] {
        &[BestRungs]
    }
    fn name(self) -> &'static str {
        "default"
    }
    fn needs(self) -> &'static str {
        "nothing"
    }
    fn is_available(self) -> bool {
        true
    }
    fn is_constant_time(self) -> bool {
        true
    }
}

/// The rungs the AEADs run on, for the note under the table.
fn best_rungs() -> String {
    format!(
        "chacha20 {}, poly1305 {}, salsa20 {}",
        simdcrypt::chacha20::Impl::best(),
        simdcrypt::poly1305::Impl::best(),
        simdcrypt::salsa20::Impl::best()
    )
}

// ---------------------------------------------------------------- outcomes

/// Cases run and the first few failures of one check.
#[derive(Debug, Default)]
struct Tally {
    cases: usize,
    failed: usize,
    failures: Vec<String>,
}

impl Tally {
    fn check(&mut self, ok: bool, what: impl FnOnce() -> String) {
        self.cases += 1;
        if !ok {
            self.failed += 1;
            if self.failures.len() < 3 {
                self.failures.push(what());
            }
        }
    }

    /// A record whose fields are missing or malformed.
    fn malformed(&mut self, what: impl std::fmt::Display) {
        self.check(false, || format!("{what}: malformed record"));
    }

    fn passed(&self) -> bool {
        self.failed == 0 && self.cases > 0
    }

    /// The tally as the outcome of a vector check: one that found no
    /// vectors fails, since the embedded files must hold some.
    fn vectors(mut self) -> Outcome {
        if self.cases == 0 {
            self.check(false, || {
                "no vectors found in the embedded files".to_owned()
            });
        }
        Outcome::Ran(self)
    }
}

/// The outcome of one check on one rung.
#[derive(Debug)]
enum Outcome {
    Ran(Tally),
    Skipped(String),
    NotApplicable(&'static str),
}

impl Outcome {
    fn cell(&self) -> String {
        match self {
            Outcome::Ran(t) if t.passed() => format!("pass ({})", t.cases),
            Outcome::Ran(t) => format!("FAIL ({} of {})", t.failed.max(1), t.cases),
            Outcome::Skipped(_) => "skipped".to_owned(),
            Outcome::NotApplicable(_) => "n/a".to_owned(),
        }
    }

    fn to_json(&self) -> Value {
        match self {
            Outcome::Ran(t) => json!({
                "status": if t.passed() { "pass" } else { "fail" },
                "cases": t.cases,
                "failed": t.failed,
                "failures": t.failures,
            }),
            Outcome::Skipped(why) => json!({ "status": "skipped", "reason": why }),
            Outcome::NotApplicable(why) => json!({ "status": "n/a", "reason": why }),
        }
    }
}

/// One line of the table: a primitive on one rung.
struct Row {
    primitive: &'static str,
    rung: &'static str,
    available: bool,
    needs: &'static str,
    checks: [Outcome; 3],
}

// ------------------------------------------------------------- the driver

/// The random streams of one (primitive, rung): each check draws from its
/// own, so that a failure reproduces from the seed alone.
struct Streams {
    seed: u64,
    primitive: u64,
    rung: u64,
}

impl Streams {
    fn rng(&self, check: u64) -> Rng {
        Rng::new(
            self.seed
                ^ (self.primitive << 48 | self.rung << 40 | check << 32)
                    .wrapping_mul(0x9e37_79b9_7f4a_7c15),
        )
    }
}

/// Collects the rows, primitive by primitive.
struct Verifier<'a> {
    data: &'a Data,
    seed: u64,
    rows: Vec<Row>,
    primitives: u64,
}

impl Verifier<'_> {
    /// One row per rung of `R` for the primitive `name`: the three checks
    /// of `checks` on each rung this CPU runs, "skipped" on the others.
    fn primitive<R: Rung>(
        &mut self,
        name: &'static str,
        checks: impl Fn(&Data, R, &Streams) -> [Outcome; 3],
    ) {
        let primitive = self.primitives;
        self.primitives += 1;
        for (i, &rung) in R::all().iter().enumerate() {
            let checks = if rung.is_available() {
                let streams = Streams {
                    seed: self.seed,
                    primitive,
                    rung: i as u64,
                };
                checks(self.data, rung, &streams)
            } else {
                let why = format!("needs {}", rung.needs());
                [
                    Outcome::Skipped(why.clone()),
                    Outcome::Skipped(why.clone()),
                    Outcome::Skipped(why),
                ]
            };
            self.rows.push(Row {
                primitive: name,
                rung: rung.name(),
                available: rung.is_available(),
                needs: rung.needs(),
                checks,
            });
        }
    }
}

/// One row per rung of each cipher of `algos`: its vectors (by
/// `vectors`), `cases` random cases against the reference keystream (and
/// the end of the keystream with `end_cases`), `per_pair` round trips with
/// every other rung.
fn stream_primitives<A: StreamAlgo>(
    v: &mut Verifier<'_>,
    algos: &[(&'static str, A)],
    (cases, per_pair, end_cases): (u64, u64, bool),
    vectors: fn(&Data, A, A::Rung) -> Outcome,
) {
    for &(name, algo) in algos {
        v.primitive(name, |data, rung: A::Rung, streams| {
            let mut rng = streams.rng(1);
            let mut cross = stream_cross_check(algo, rung, &mut rng, cases);
            if end_cases {
                keystream_end(algo, rung, &mut rng, &mut cross);
            }
            [
                vectors(data, algo, rung),
                Outcome::Ran(cross),
                round_trips(algo, rung, &mut streams.rng(2), per_pair),
            ]
        });
    }
}

/// One row per rung of a function (a core, a block function): its vectors
/// and its cross-check; no round trip.
fn function_primitive<R: Rung>(
    v: &mut Verifier<'_>,
    name: &'static str,
    vectors: fn(&Data, R) -> Tally,
    cross_check: fn(R, &mut Rng) -> Tally,
) {
    v.primitive(name, |data, rung: R, streams| {
        [
            vectors(data, rung).vectors(),
            Outcome::Ran(cross_check(rung, &mut streams.rng(1))),
            Outcome::NotApplicable("a function, not a cipher: no round trip"),
        ]
    });
}

/// Runs the command.
///
/// # Errors
///
/// [`CliError::VerifyFailed`] when any check fails; stdout closed.
pub fn run(args: &VerifyArgs) -> Result<(), CliError> {
    let parse = |text: &str| serde_json::from_str(text).unwrap_or(Value::Null);
    let data = Data {
        salsa20_spec: parse(SALSA20_SPEC),
        estream: parse(SALSA20_ESTREAM),
        nacl: parse(NACL),
        rfc7914: parse(RFC7914),
        rfc8439: parse(RFC8439),
        xchacha: parse(XCHACHA),
        wycheproof_chacha: parse(WYCHEPROOF_CHACHA),
        wycheproof_xchacha: parse(WYCHEPROOF_XCHACHA),
        fips180: parse(FIPS180),
        sha_examples: parse(SHA_EXAMPLES),
        md5: parse(MD5),
    };
    let mut verifier = Verifier {
        data: &data,
        seed: args.seed,
        rows: Vec::new(),
        primitives: 0,
    };
    // Salsa20 first: its primitives keep the random streams they always had.
    salsa20::verify(&mut verifier);
    chacha20::verify(&mut verifier);
    poly1305::verify(&mut verifier);
    aead::verify(&mut verifier);
    hash::verify(&mut verifier);
    kdf::verify(&mut verifier);
    age::verify(&mut verifier);
    let rows = verifier.rows;

    let (mut passed, mut failed, mut skipped) = (0, 0, 0);
    for outcome in rows.iter().flat_map(|r| &r.checks) {
        match outcome {
            Outcome::Ran(t) if t.passed() => passed += 1,
            Outcome::Ran(_) => failed += 1,
            Outcome::Skipped(_) => skipped += 1,
            Outcome::NotApplicable(_) => {}
        }
    }
    let summary = if skipped > 0 {
        format!("{passed} passed, {failed} failed, {skipped} skipped")
    } else {
        format!("{passed} passed, {failed} failed")
    };
    let mut out = crate::io::stdout();
    if args.json {
        print_json(&mut out, &rows, args.seed, (passed, failed, skipped))?;
    } else {
        print_table(&mut out, &rows, args.seed)?;
        writeln!(out, "verify: {summary}")?;
    }
    out.flush()?;
    if failed > 0 {
        return Err(CliError::VerifyFailed { failed });
    }
    Ok(())
}

/// Width of the primitive column: the longest name, `xchacha20-poly1305`.
const PRIMITIVE_WIDTH: usize = 18;

fn print_table(out: &mut impl Write, rows: &[Row], seed: u64) -> std::io::Result<()> {
    writeln!(
        out,
        "simdcrypt verify: each rung on the official vectors; cross-checked against the\n\
         specification's own functions on random inputs (seed {seed}); round trips with\n\
         every other rung"
    )?;
    writeln!(out)?;
    let header = format!(
        "{:<PRIMITIVE_WIDTH$} {:<15} {:<16} {:<16} {}",
        "primitive", "rung", CHECKS[0].0, CHECKS[1].0, CHECKS[2].0
    );
    writeln!(out, "{header}")?;
    writeln!(out, "{}", "-".repeat(header.len()))?;
    for row in rows {
        write!(out, "{:<PRIMITIVE_WIDTH$} {:<15} ", row.primitive, row.rung)?;
        if !row.available {
            writeln!(out, "skipped (needs {})", row.needs)?;
        } else {
            let [a, b, c] = &row.checks;
            writeln!(out, "{:<16} {:<16} {}", a.cell(), b.cell(), c.cell())?;
        }
    }
    writeln!(out)?;
    for row in rows {
        for (outcome, (check, _)) in row.checks.iter().zip(CHECKS) {
            if let Outcome::Ran(t) = outcome {
                for f in &t.failures {
                    writeln!(out, "FAILED {} {} {check}: {f}", row.primitive, row.rung)?;
                }
            }
        }
    }
    let mut na: Vec<String> = Vec::new();
    for row in rows.iter().filter(|r| r.available) {
        for (outcome, (check, _)) in row.checks.iter().zip(CHECKS) {
            let why: &str = match outcome {
                Outcome::NotApplicable(why) => why,
                Outcome::Skipped(why) => why,
                Outcome::Ran(_) => continue,
            };
            let line = format!("{} {check}: {why}", row.primitive);
            if !na.contains(&line) {
                na.push(line);
            }
        }
    }
    for line in na {
        writeln!(out, "n/a: {line}")?;
    }
    writeln!(
        out,
        "default: the AEADs run on the best rungs: {}",
        best_rungs()
    )
}

fn print_json(
    out: &mut impl Write,
    rows: &[Row],
    seed: u64,
    (passed, failed, skipped): (usize, usize, usize),
) -> std::io::Result<()> {
    let rows: Vec<Value> = rows
        .iter()
        .map(|row| {
            let mut v = json!({
                "primitive": row.primitive,
                "rung": row.rung,
                "available": row.available,
                "needs": row.needs,
            });
            for (outcome, (_, key)) in row.checks.iter().zip(CHECKS) {
                v[key] = outcome.to_json();
            }
            v
        })
        .collect();
    let doc = json!({
        "seed": seed,
        "rows": rows,
        "default_rungs": best_rungs(),
        "passed": passed,
        "failed": failed,
        "skipped": skipped,
    });
    serde_json::to_writer_pretty(&mut *out, &doc)?;
    writeln!(out)
}

// ---------------------------------------------------------------- records

fn records<'a>(v: &'a Value, key: &str) -> &'a [Value] {
    v[key].as_array().map_or(&[], Vec::as_slice)
}

fn hex_field(v: &Value, key: &str) -> Option<Vec<u8>> {
    v[key].as_str().and_then(hex_bytes)
}

/// A hex field of exactly `N` bytes.
fn hex_array<const N: usize>(v: &Value, key: &str) -> Option<[u8; N]> {
    hex_field(v, key).and_then(|b| b.try_into().ok())
}

/// A number written as a decimal string or a JSON number.
fn number_field(v: &Value, key: &str) -> Option<u64> {
    v[key]
        .as_u64()
        .or_else(|| v[key].as_str().and_then(|s| s.parse().ok()))
}

/// A record's name for messages.
fn label(v: &Value) -> String {
    let name = ["name", "section", "comment"]
        .iter()
        .find_map(|k| v[*k].as_str())
        .unwrap_or("record");
    let name: String = name.chars().take(60).collect();
    match v["tcId"].as_u64() {
        Some(id) => format!("tcId {id} ({name})"),
        None => name,
    }
}

/// The test cases of a Wycheproof file, all groups together.
fn wycheproof_tests(file: &Value) -> impl Iterator<Item = &Value> {
    records(file, "testGroups")
        .iter()
        .flat_map(|g| records(g, "tests"))
}

/// Compares a result with the expected bytes.
fn same(got: &Result<Vec<u8>, String>, want: &[u8]) -> bool {
    matches!(got, Ok(g) if g == want)
}

/// 16 little-endian words from 64 bytes.
fn words_le(bytes: &[u8]) -> Option<[u32; 16]> {
    let (words, rest) = bytes.as_chunks::<4>();
    if words.len() != 16 || !rest.is_empty() {
        return None;
    }
    Some(std::array::from_fn(|i| u32::from_le_bytes(words[i])))
}

fn bytes_le(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// Words written as 8-digit hex strings (the round examples of the specs).
fn word_list<const N: usize>(v: &Value) -> Option<[u32; N]> {
    let list = v.as_array()?;
    if list.len() != N {
        return None;
    }
    let mut out = [0u32; N];
    for (o, w) in out.iter_mut().zip(list) {
        *o = u32::from_str_radix(w.as_str()?, 16).ok()?;
    }
    Some(out)
}

/// `data ^= keystream`, byte by byte.
fn xor_in(data: &mut [u8], keystream: &[u8]) {
    for (d, k) in data.iter_mut().zip(keystream) {
        *d ^= k;
    }
}

// ------------------------------------------------------------ random cases

/// xoshiro256** seeded through splitmix64: small, fast, reproducible.
struct Rng([u64; 4]);

impl Rng {
    fn new(seed: u64) -> Rng {
        let mut s = seed;
        let mut next = || {
            s = s.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = s;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        Rng([next(), next(), next(), next()])
    }

    fn next_u64(&mut self) -> u64 {
        let s = &mut self.0;
        let result = s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }

    /// Uniform in `0..n` (`n > 0`), by rejection.
    fn below(&mut self, n: u64) -> u64 {
        let zone = u64::MAX - u64::MAX % n;
        loop {
            let x = self.next_u64();
            if x < zone {
                return x % n;
            }
        }
    }

    /// Uniform in `0..n` for `n ≤ usize::MAX`.
    fn index(&mut self, n: usize) -> usize {
        self.below(n as u64) as usize
    }

    fn bytes(&mut self, len: usize) -> Vec<u8> {
        let mut v = Vec::with_capacity(len + 8);
        while v.len() < len {
            v.extend_from_slice(&self.next_u64().to_le_bytes());
        }
        v.truncate(len);
        v
    }

    fn array<const N: usize>(&mut self) -> [u8; N] {
        let mut a = [0u8; N];
        a.copy_from_slice(&self.bytes(N));
        a
    }

    /// A message length: half the time one of `edges`, else uniform in
    /// `0..=max`.
    fn length(&mut self, edges: &[usize], max: u64) -> usize {
        if self.below(2) == 0 {
            edges[self.index(edges.len())]
        } else {
            self.below(max + 1) as usize
        }
    }

    /// `data` cut at random points into pieces of at most `max_piece`
    /// bytes (some empty).
    fn pieces<'a>(&mut self, data: &'a [u8], max_piece: usize) -> Vec<&'a [u8]> {
        let mut pieces = Vec::new();
        let mut rest = data;
        while !rest.is_empty() {
            let (piece, tail) = rest.split_at(self.index(max_piece.min(rest.len()) + 1));
            pieces.push(piece);
            rest = tail;
        }
        pieces
    }
}

/// Every multiple of 64 up to 17 blocks, one byte either side, and the
/// 16-byte edges of the first block: the tails of every SIMD width.
const BLOCK_EDGES: [usize; 60] = block_edges();

const fn block_edges() -> [usize; 60] {
    let mut out = [0usize; 60];
    let head = [1, 15, 16, 17, 31, 32, 33];
    let mut i = 0;
    while i < head.len() {
        out[i] = head[i];
        i += 1;
    }
    let mut block = 0;
    while block < 17 {
        let n = (block + 1) * 64;
        out[i] = n - 1;
        out[i + 1] = n;
        out[i + 2] = n + 1;
        i += 3;
        block += 1;
    }
    // Empty, and a block past the last edge.
    out[i] = 0;
    out[i + 1] = 18 * 64 + 1;
    out
}

// ---------------------------------------------------------- stream ciphers

/// A keyed stream cipher at a keystream position.
trait Keystream {
    fn seek_to(&mut self, byte: u128) -> Result<(), Error>;
    fn xor(&mut self, data: &mut [u8]) -> Result<(), Error>;
}

macro_rules! impl_keystream {
    ($($t:ty),*) => {$(
        impl Keystream for $t {
            fn seek_to(&mut self, byte: u128) -> Result<(), Error> {
                self.seek(byte)
            }
            fn xor(&mut self, data: &mut [u8]) -> Result<(), Error> {
                self.apply_keystream(data)
            }
        }
    )*};
}

impl_keystream!(
    simdcrypt::salsa20::Salsa20,
    simdcrypt::salsa20::Salsa20_12,
    simdcrypt::salsa20::Salsa20_8,
    simdcrypt::salsa20::XSalsa20,
    simdcrypt::chacha20::ChaCha20,
    simdcrypt::chacha20::ChaCha20Legacy,
    simdcrypt::chacha20::XChaCha20
);

/// The random cases of a cipher: key and nonce lengths, counters, lengths.
struct Shape {
    /// A quarter of the keys are 128-bit.
    key_128: bool,
    nonce_len: usize,
    /// Half the counters sit just below one of these blocks (a carry or
    /// the end of the keystream).
    carries: [u128; 2],
    /// The last block of the keystream.
    last_block: u64,
    /// Half the lengths are one of these, the others uniform up to `max_len`.
    edge_lengths: &'static [usize],
    max_len: u64,
}

impl Shape {
    /// One past the last keystream byte.
    fn end(&self) -> u128 {
        (u128::from(self.last_block) + 1) * 64
    }
}

/// A stream cipher of a family, on the rungs `Rung`.
trait StreamAlgo: Copy {
    type Rung: Rung;

    fn shape(self) -> Shape;

    /// The cipher keyed with `key` and `nonce` on `rung`, XORing with `xor`.
    fn cipher(
        self,
        key: &[u8],
        nonce: &[u8],
        rung: Self::Rung,
        xor: Xor,
    ) -> Result<Box<dyn Keystream>, String>;

    /// `len` bytes of keystream from block `block`, made by the
    /// specification's own functions; `None` for a malformed key or nonce.
    fn reference(self, key: &[u8], nonce: &[u8], block: u64, len: usize) -> Option<Vec<u8>>;
}

/// `algo` on `rung` with XOR form `xor`, at keystream byte `start`.
fn cipher<A: StreamAlgo>(
    algo: A,
    key: &[u8],
    nonce: &[u8],
    (rung, xor): (A::Rung, Xor),
    start: u128,
) -> Result<Box<dyn Keystream>, String> {
    let mut c = algo.cipher(key, nonce, rung, xor)?;
    c.seek_to(start).map_err(|e| e.to_string())?;
    Ok(c)
}

/// `message` XORed with the keystream from byte `start`.
fn encrypt<A: StreamAlgo>(
    algo: A,
    key: &[u8],
    nonce: &[u8],
    rung: (A::Rung, Xor),
    start: u128,
    message: &[u8],
) -> Result<Vec<u8>, String> {
    let mut buf = message.to_vec();
    cipher(algo, key, nonce, rung, start)?
        .xor(&mut buf)
        .map_err(|e| e.to_string())?;
    Ok(buf)
}

/// `len` bytes of keystream from byte `start`.
fn keystream<A: StreamAlgo>(
    algo: A,
    key: &[u8],
    nonce: &[u8],
    rung: (A::Rung, Xor),
    start: u128,
    len: usize,
) -> Result<Vec<u8>, String> {
    encrypt(algo, key, nonce, rung, start, &vec![0; len])
}

/// One random encryption: key, nonce, starting byte, message, the point
/// where it is split between two calls, the XOR form.
struct Case {
    key: Vec<u8>,
    nonce: Vec<u8>,
    start: u128,
    data: Vec<u8>,
    split: usize,
    xor: Xor,
}

impl Case {
    /// Case `i` of a series: counters cycle through small, just below each
    /// of the shape's two carries (some running past the end, unless
    /// `within_keystream`), and anywhere; lengths are edge lengths or
    /// uniform.
    fn random(rng: &mut Rng, shape: &Shape, i: u64, within_keystream: bool) -> Case {
        let key_len = if shape.key_128 && rng.below(4) == 0 {
            16
        } else {
            32
        };
        let below = |rng: &mut Rng, carry: u128| (carry - 1) as u64 - rng.below(40);
        let counter = match i % 4 {
            0 => rng.below(1024),
            1 => below(rng, shape.carries[0]),
            2 => below(rng, shape.carries[1]),
            _ if shape.last_block == u64::MAX => rng.next_u64(),
            _ => rng.below(shape.last_block + 1),
        };
        let offset = if rng.below(2) == 0 { 0 } else { rng.below(64) };
        let start = u128::from(counter) * 64 + u128::from(offset);
        let mut len = rng.length(shape.edge_lengths, shape.max_len);
        if within_keystream {
            len = len.min((shape.end() - start) as usize);
        }
        let split = rng.index(len + 1);
        Case {
            key: rng.bytes(key_len),
            nonce: rng.bytes(shape.nonce_len),
            start,
            data: rng.bytes(len),
            split,
            xor: Xor::ALL[(i / 4 % 2) as usize],
        }
    }

    fn describe(&self, i: u64) -> String {
        format!(
            "case {i}: {}-bit key, byte {} (block {:#x} + {}), {} bytes split at {}, {}",
            self.key.len() * 8,
            self.start,
            self.start / 64,
            self.start % 64,
            self.data.len(),
            self.split,
            self.xor
        )
    }

    /// The message XORed on `rung` in two calls, split at `split`.
    fn run<A: StreamAlgo>(
        &self,
        algo: A,
        rung: A::Rung,
        data: &mut [u8],
        split: usize,
    ) -> Result<(), String> {
        let mut c = cipher(algo, &self.key, &self.nonce, (rung, self.xor), self.start)?;
        let (a, b) = data.split_at_mut(split);
        c.xor(a).map_err(|e| e.to_string())?;
        c.xor(b).map_err(|e| e.to_string())
    }

    /// The message XORed by the specification's own functions, or `None`
    /// where the keystream ends first.
    fn oracle<A: StreamAlgo>(&self, algo: A) -> Option<Vec<u8>> {
        let len = self.data.len();
        if self.start + len as u128 > algo.shape().end() {
            return None;
        }
        let offset = (self.start % 64) as usize;
        let first_block = (self.start / 64) as u64;
        let ks = algo.reference(&self.key, &self.nonce, first_block, offset + len)?;
        let mut out = self.data.clone();
        xor_in(&mut out, &ks[offset..]);
        Some(out)
    }
}

/// `cases` random messages on `rung`, split in two calls, against the
/// reference keystream in one; past the end of the keystream both refuse.
fn stream_cross_check<A: StreamAlgo>(algo: A, rung: A::Rung, rng: &mut Rng, cases: u64) -> Tally {
    let mut t = Tally::default();
    let shape = algo.shape();
    for i in 0..cases {
        let case = Case::random(rng, &shape, i, false);
        let want = case.oracle(algo);
        let mut got = case.data.clone();
        let result = case.run(algo, rung, &mut got, case.split);
        let ok = match (&want, result) {
            (Some(w), Ok(())) => *w == got,
            (None, Err(_)) => true,
            _ => false,
        };
        t.check(ok, || {
            let what = if want.is_some() {
                ""
            } else {
                " (past the end: must be refused)"
            };
            format!("{}{what}", case.describe(i))
        });
    }
    t
}

/// The end of the keystream on `rung`, for random keys and nonces: the last
/// block is served whole, from any byte of it, and equals the reference's;
/// one byte more is refused and nothing is written; seeking to the end is
/// allowed, one byte past it is not.
fn keystream_end<A: StreamAlgo>(algo: A, rung: A::Rung, rng: &mut Rng, t: &mut Tally) {
    let shape = algo.shape();
    let end = shape.end();
    for xor in Xor::ALL {
        let key = rng.bytes(32);
        let nonce = rng.bytes(shape.nonce_len);
        let r = (rung, xor);
        let at = |t: &mut Tally, what: &str, ok: bool| {
            t.check(ok, || format!("end of keystream ({xor}): {what}"));
        };
        let last = algo.reference(&key, &nonce, shape.last_block, 64);
        let offset = rng.index(64);
        let got = keystream(
            algo,
            &key,
            &nonce,
            r,
            end - 64 + offset as u128,
            64 - offset,
        );
        at(
            t,
            &format!("the last block from byte {offset} of it"),
            matches!((&got, &last), (Ok(g), Some(l)) if g[..] == l[offset..]),
        );
        let mut data = rng.bytes(65 - offset);
        let before = data.clone();
        let refused = cipher(algo, &key, &nonce, r, end - 64 + offset as u128)
            .and_then(|mut c| c.xor(&mut data).map_err(|e| e.to_string()))
            .is_err();
        at(t, "one byte past the last block", refused && data == before);
        let split = cipher(algo, &key, &nonce, r, end - 64).is_ok_and(|mut c| {
            let mut a = vec![0u8; 64];
            let mut b = [0u8; 1];
            c.xor(&mut a).is_ok() && c.xor(&mut b).is_err() && b == [0]
        });
        at(t, "the last block, then one byte more", split);
        let at_end = cipher(algo, &key, &nonce, r, end)
            .map(|mut c| c.xor(&mut []).is_ok() && c.xor(&mut [0]).is_err());
        at(t, "seek to the end, 0 bytes then 1", at_end == Ok(true));
        at(
            t,
            "seek one byte past the end",
            cipher(algo, &key, &nonce, r, end + 1).is_err(),
        );
    }
}

/// Encrypt on `rung`, decrypt on every other rung this CPU runs, and the
/// other way round, each split at a different point.
fn round_trips<A: StreamAlgo>(algo: A, rung: A::Rung, rng: &mut Rng, per_pair: u64) -> Outcome {
    let others = others(rung);
    if others.is_empty() {
        return Outcome::Skipped("no other rung available".to_owned());
    }
    let shape = algo.shape();
    let mut t = Tally::default();
    let mut i = 0;
    for other in others {
        for (enc, dec) in [(rung, other), (other, rung)] {
            for _ in 0..per_pair {
                let case = Case::random(rng, &shape, i, true);
                let mut buf = case.data.clone();
                let second_split = rng.index(buf.len() + 1);
                let result = case
                    .run(algo, enc, &mut buf, case.split)
                    .and_then(|()| case.run(algo, dec, &mut buf, second_split));
                t.check(result.is_ok() && buf == case.data, || {
                    format!("{} -> {}, {}", enc.name(), dec.name(), case.describe(i))
                });
                i += 1;
            }
        }
    }
    Outcome::Ran(t)
}
