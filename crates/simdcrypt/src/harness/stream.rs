//! The stream-cipher checks every family of stream ciphers runs: random
//! cases against a reference keystream (every length up to a bound, the
//! edge lengths, carries and the end of the keystream included; in place
//! and out of place at any alignment), the end of the keystream itself, and
//! round trips between every pair of rungs; one case on every rung, for a
//! fuzzer; and the rows of a function (a core, a block function) with its
//! vectors and cross-check.

use super::vectors::xor_in;
use super::{Check, Outcome, Report, Rng, Tally, others};
use crate::{KeyStream, RungSet, Xor};

/// One row per rung of each cipher of `algos`: its vectors (by
/// `vectors`); every length up to the shape's bound and `cases` more
/// random cases against the reference keystream, and the end of the
/// keystream; `per_pair` round trips with every other rung.
pub(crate) fn stream_primitives<A: StreamAlgo>(
    report: &mut Report,
    algos: &[(&'static str, A)],
    (cases, per_pair): (u64, u64),
    vectors: impl Fn(A, A::Rung) -> Outcome,
) {
    for &(name, algo) in algos {
        report.primitive(name, |rung: A::Rung, seeds| {
            seeds.each(|check| match check {
                Check::Vectors => vectors(algo, rung),
                Check::CrossCheck => {
                    let mut rng = seeds.rng(1);
                    let mut cross = stream_cross_check(algo, rung, &mut rng, cases);
                    keystream_end(algo, rung, &mut rng, &mut cross);
                    Outcome::Ran(cross)
                }
                Check::RoundTrip => round_trips(algo, rung, &mut seeds.rng(2), per_pair),
            })
        });
    }
}

/// One row per rung of a function (a core, a block function): its vectors
/// and its cross-check; no round trip.
pub(crate) fn function_primitive<R: RungSet>(
    report: &mut Report,
    name: &'static str,
    vectors: impl Fn(R) -> Tally,
    cross_check: fn(R, &mut Rng) -> Tally,
) {
    report.primitive(name, |rung: R, seeds| {
        seeds.each(|check| match check {
            Check::Vectors => vectors(rung).vectors(),
            Check::CrossCheck => Outcome::Ran(cross_check(rung, &mut seeds.rng(1))),
            Check::RoundTrip => Outcome::NotApplicable("a function, not a cipher: no round trip"),
        })
    });
}

/// The random cases of a cipher: key and nonce lengths, counters, lengths.
pub(crate) struct Shape {
    /// A quarter of the keys are 128-bit.
    pub(crate) key_128: bool,
    pub(crate) nonce_len: usize,
    /// Most counters sit just below one of these blocks (a carry, a signed
    /// comparison's edge, or the end of the keystream).
    pub(crate) carries: &'static [u128],
    /// The last block of the keystream.
    pub(crate) last_block: u64,
    /// Every length up to `max_len` is one case; of the other cases, half
    /// the lengths are one of `edge_lengths`, half uniform up to `max_len`.
    pub(crate) edge_lengths: &'static [usize],
    pub(crate) max_len: u64,
}

impl Shape {
    /// One past the last keystream byte.
    fn end(&self) -> u128 {
        (u128::from(self.last_block) + 1) * 64
    }
}

/// A stream cipher of a family, on the rungs `Rung`.
pub(crate) trait StreamAlgo: Copy {
    /// The rungs it runs on.
    type Rung: RungSet;

    /// Its random cases.
    fn shape(self) -> Shape;

    /// The cipher keyed with `key` and `nonce` on `rung`, XORing with `xor`.
    fn cipher(
        self,
        key: &[u8],
        nonce: &[u8],
        rung: Self::Rung,
        xor: Xor,
    ) -> Result<Box<dyn KeyStream>, String>;

    /// `len` bytes of keystream from block `block`, made by the
    /// specification's own functions; `None` for a malformed key or nonce.
    fn reference(self, key: &[u8], nonce: &[u8], block: u64, len: usize) -> Option<Vec<u8>>;
}

/// `algo` on `rung` with XOR form `xor`, at keystream byte `start`.
pub(crate) fn cipher<A: StreamAlgo>(
    algo: A,
    key: &[u8],
    nonce: &[u8],
    (rung, xor): (A::Rung, Xor),
    start: u128,
) -> Result<Box<dyn KeyStream>, String> {
    let mut c = algo.cipher(key, nonce, rung, xor)?;
    c.seek(start).map_err(|e| e.to_string())?;
    Ok(c)
}

/// `message` XORed by the cipher `c`, in calls of `chunk` bytes (the last
/// one shorter; one call for the whole message with `usize::MAX`).
pub(crate) fn xor_in_chunks(
    mut c: Box<dyn KeyStream>,
    message: &[u8],
    chunk: usize,
) -> Result<Vec<u8>, String> {
    let mut buf = message.to_vec();
    for piece in buf.chunks_mut(chunk.max(1)) {
        c.apply_keystream(piece).map_err(|e| e.to_string())?;
    }
    Ok(buf)
}

/// `message` XORed with the keystream from byte `start`.
pub(crate) fn encrypt<A: StreamAlgo>(
    algo: A,
    key: &[u8],
    nonce: &[u8],
    rung: (A::Rung, Xor),
    start: u128,
    message: &[u8],
) -> Result<Vec<u8>, String> {
    xor_in_chunks(cipher(algo, key, nonce, rung, start)?, message, usize::MAX)
}

/// `len` bytes of keystream from byte `start`.
pub(crate) fn keystream<A: StreamAlgo>(
    algo: A,
    key: &[u8],
    nonce: &[u8],
    rung: (A::Rung, Xor),
    start: u128,
    len: usize,
) -> Result<Vec<u8>, String> {
    encrypt(algo, key, nonce, rung, start, &vec![0; len])
}

/// How a case's message meets the cipher.
#[derive(Clone, Copy, Debug)]
enum Form {
    /// `apply_keystream` on the message.
    InPlace,
    /// `xor_into` from an input `in_shift` bytes into its allocation to an
    /// output `out_shift` bytes into its own, both guarded.
    OutOfPlace { in_shift: usize, out_shift: usize },
}

impl std::fmt::Display for Form {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Form::InPlace => f.write_str("in place"),
            Form::OutOfPlace {
                in_shift,
                out_shift,
            } => write!(
                f,
                "out of place, input at +{in_shift}, output at +{out_shift}"
            ),
        }
    }
}

/// The byte around an out-of-place input and output that nothing may
/// change.
const GUARD: u8 = 0xa5;

/// One encryption: key, nonce, starting byte, message, the point where it
/// is split between two calls, the XOR form, and the alignments of an
/// out-of-place call.
struct Case {
    key: Vec<u8>,
    nonce: Vec<u8>,
    start: u128,
    data: Vec<u8>,
    split: usize,
    xor: Xor,
    out_of_place: Form,
}

impl Case {
    /// A random case whose message is `len` bytes if given, else an edge
    /// length or uniform: its counter small, just below one of the shape's
    /// carries (some running past the end, unless `within_keystream`), or
    /// anywhere.
    fn random(rng: &mut Rng, shape: &Shape, len: Option<usize>, within_keystream: bool) -> Case {
        let key_len = if shape.key_128 && rng.below(4) == 0 {
            16
        } else {
            32
        };
        let below = |rng: &mut Rng, carry: u128| (carry - 1) as u64 - rng.below(40);
        let class = rng.index(shape.carries.len() + 2);
        let counter = if class == 0 {
            rng.below(1024)
        } else if let Some(&carry) = shape.carries.get(class - 1) {
            below(rng, carry)
        } else if shape.last_block == u64::MAX {
            rng.next_u64()
        } else {
            rng.below(shape.last_block + 1)
        };
        let offset = if rng.below(2) == 0 { 0 } else { rng.below(64) };
        let start = u128::from(counter) * 64 + u128::from(offset);
        let mut len = len.unwrap_or_else(|| rng.length(shape.edge_lengths, shape.max_len));
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
            xor: Xor::ALL[rng.index(2)],
            out_of_place: Form::OutOfPlace {
                in_shift: rng.index(64),
                out_shift: rng.index(64),
            },
        }
    }

    fn describe(&self) -> String {
        format!(
            "{}-bit key, byte {} (block {:#x} + {}), {} bytes split at {}, {}",
            self.key.len() * 8,
            self.start,
            self.start / 64,
            self.start % 64,
            self.data.len(),
            self.split,
            self.xor
        )
    }

    /// `data` XORed on `rung` in two calls, split at `split`, in `form`;
    /// an error if a call is refused, the position after is not the end of
    /// the message, or an out-of-place call writes outside its output or
    /// changes its input.
    fn run<A: StreamAlgo>(
        &self,
        algo: A,
        rung: A::Rung,
        (data, split): (&[u8], usize),
        form: Form,
    ) -> Result<Vec<u8>, String> {
        let mut c = cipher(algo, &self.key, &self.nonce, (rung, self.xor), self.start)?;
        let split = split.min(data.len());
        let e = |e: crate::Error| e.to_string();
        let out = match form {
            Form::InPlace => {
                let mut buf = data.to_vec();
                let (a, b) = buf.split_at_mut(split);
                c.apply_keystream(a).map_err(e)?;
                c.apply_keystream(b).map_err(e)?;
                buf
            }
            Form::OutOfPlace {
                in_shift,
                out_shift,
            } => {
                let input = [&vec![GUARD; in_shift][..], data, &[GUARD; 7]].concat();
                let mut output = vec![GUARD; out_shift + data.len() + 7];
                let at = out_shift..out_shift + data.len();
                let (ia, ib) = input[in_shift..in_shift + data.len()].split_at(split);
                let (oa, ob) = output[at.clone()].split_at_mut(split);
                c.xor_into(ia, oa).map_err(e)?;
                c.xor_into(ib, ob).map_err(e)?;
                let guarded = |b: &[u8]| b.iter().all(|&b| b == GUARD);
                if !guarded(&output[..at.start]) || !guarded(&output[at.end..]) {
                    return Err("written outside the output".to_owned());
                }
                if input[in_shift..in_shift + data.len()] != *data
                    || !guarded(&input[..in_shift])
                    || !guarded(&input[in_shift + data.len()..])
                {
                    return Err("the input changed".to_owned());
                }
                output[at].to_vec()
            }
        };
        let end = self.start + data.len() as u128;
        if c.position() != end {
            return Err(format!("position {} after, not {end}", c.position()));
        }
        Ok(out)
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

    /// The case on `rung` in place and out of place against the oracle
    /// `want`: the same bytes, or past the end of the keystream refused.
    fn check<A: StreamAlgo>(
        &self,
        algo: A,
        rung: A::Rung,
        want: Option<&[u8]>,
        t: &mut Tally,
        what: impl Fn() -> String,
    ) {
        for form in [Form::InPlace, self.out_of_place] {
            let got = self.run(algo, rung, (&self.data, self.split), form);
            let ok = match (want, &got) {
                (Some(w), Ok(g)) => w == &g[..],
                (None, Err(_)) => true,
                _ => false,
            };
            t.check(ok, || {
                let (past, error) = match (want, &got) {
                    (None, _) => (" (past the end: must be refused)", String::new()),
                    (Some(_), Err(e)) => ("", format!(": {e}")),
                    (Some(_), Ok(_)) => ("", ": wrong bytes".to_owned()),
                };
                format!("{}, {}, {form}{past}{error}", what(), self.describe())
            });
        }
    }
}

/// Every length from 0 to the shape's `max_len`, then `cases` more random
/// messages, on `rung`: split in two calls, in place and out of place,
/// against the reference keystream in one; past the end of the keystream
/// both refuse.
pub(crate) fn stream_cross_check<A: StreamAlgo>(
    algo: A,
    rung: A::Rung,
    rng: &mut Rng,
    cases: u64,
) -> Tally {
    let mut t = Tally::default();
    let shape = algo.shape();
    let every_length = shape.max_len + 1;
    for i in 0..every_length + cases {
        let len = (i < every_length).then_some(i as usize);
        let case = Case::random(rng, &shape, len, false);
        let want = case.oracle(algo);
        case.check(algo, rung, want.as_deref(), &mut t, || format!("case {i}"));
    }
    t
}

/// The fuzz case of the stream ciphers `algos` (a family's): the first byte
/// of `input` picks one, the rest steers the random case the cross-check
/// would make ([`Rng::from_bytes`]), run on every rung as
/// [`case_on_every_rung`] runs one.
pub(crate) fn fuzz<A: StreamAlgo>(algos: &[A], input: &[u8]) -> Tally {
    let (algo, bytes) = super::pick(input, algos);
    let c = Case::random(&mut Rng::from_bytes(bytes), &algo.shape(), None, false);
    let case = StreamCase {
        key: &c.key,
        nonce: &c.nonce,
        start: c.start,
        data: &c.data,
        split: c.split,
    };
    case_on_every_rung(algo, &case)
}

/// A stream-cipher case chosen by its caller (a fuzz target): the cipher
/// keyed with `key` and `nonce`, `data` XORed from keystream byte `start`
/// in two calls cut at `split`.
#[derive(Clone, Copy, Debug)]
pub struct StreamCase<'a> {
    /// The key: 32 bytes, or 16 for the ciphers that take a 128-bit key.
    pub key: &'a [u8],
    /// The nonce, of the cipher's length.
    pub nonce: &'a [u8],
    /// The first keystream byte: the block counter times 64 plus the
    /// offset in that block.
    pub start: u128,
    /// The message.
    pub data: &'a [u8],
    /// Where the message is cut between the two calls (at its end if
    /// larger).
    pub split: usize,
}

/// `case` on every rung of `algo` this CPU runs, in both XOR forms, in
/// place and out of place (at alignments taken from the lengths), against
/// the specification's own functions; a case that runs past the end of
/// the keystream must be refused.
pub(crate) fn case_on_every_rung<A: StreamAlgo>(algo: A, case: &StreamCase<'_>) -> Tally {
    let mut t = Tally::default();
    for xor in Xor::ALL {
        let c = Case {
            key: case.key.to_vec(),
            nonce: case.nonce.to_vec(),
            start: case.start,
            data: case.data.to_vec(),
            split: case.split.min(case.data.len()),
            xor,
            out_of_place: Form::OutOfPlace {
                in_shift: case.data.len() % 37,
                out_shift: case.split % 31,
            },
        };
        let want = c.oracle(algo);
        for &rung in A::Rung::all().iter().filter(|r| r.is_available()) {
            c.check(algo, rung, want.as_deref(), &mut t, || {
                format!("rung {rung}")
            });
        }
    }
    t
}

/// The end of the keystream on `rung`, for random keys and nonces: the last
/// block is served whole, from any byte of it, and equals the reference's;
/// one byte more is refused, in place and out of place, with nothing
/// written and the position unchanged; seeking to the end is allowed, one
/// byte past it is not.
pub(crate) fn keystream_end<A: StreamAlgo>(algo: A, rung: A::Rung, rng: &mut Rng, t: &mut Tally) {
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
        let from = end - 64 + offset as u128;
        let got = keystream(algo, &key, &nonce, r, from, 64 - offset);
        at(
            t,
            &format!("the last block from byte {offset} of it"),
            matches!((&got, &last), (Ok(g), Some(l)) if g[..] == l[offset..]),
        );
        let data = rng.bytes(65 - offset);
        let refused_in_place = cipher(algo, &key, &nonce, r, from).is_ok_and(|mut c| {
            let mut buf = data.clone();
            c.apply_keystream(&mut buf).is_err() && buf == data && c.position() == from
        });
        at(
            t,
            "one byte past the last block, in place",
            refused_in_place,
        );
        let refused_out_of_place = cipher(algo, &key, &nonce, r, from).is_ok_and(|mut c| {
            let mut out = vec![GUARD; data.len()];
            c.xor_into(&data, &mut out).is_err()
                && out.iter().all(|&b| b == GUARD)
                && c.position() == from
        });
        at(
            t,
            "one byte past the last block, out of place",
            refused_out_of_place,
        );
        let split = cipher(algo, &key, &nonce, r, end - 64).is_ok_and(|mut c| {
            let mut a = vec![0u8; 64];
            let mut b = [0u8; 1];
            c.apply_keystream(&mut a).is_ok()
                && c.position() == end
                && c.apply_keystream(&mut b).is_err()
                && b == [0]
        });
        at(t, "the last block, then one byte more", split);
        let at_end = cipher(algo, &key, &nonce, r, end).map(|mut c| {
            c.keystream_len() == end
                && c.apply_keystream(&mut []).is_ok()
                && c.apply_keystream(&mut [0]).is_err()
        });
        at(t, "seek to the end, 0 bytes then 1", at_end == Ok(true));
        at(
            t,
            "seek one byte past the end",
            cipher(algo, &key, &nonce, r, end + 1).is_err(),
        );
    }
}

/// Encrypt on `rung` in place, decrypt on every other rung this CPU runs
/// out of place, and the other way round, each split at a different point.
pub(crate) fn round_trips<A: StreamAlgo>(
    algo: A,
    rung: A::Rung,
    rng: &mut Rng,
    per_pair: u64,
) -> Outcome {
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
                let case = Case::random(rng, &shape, None, true);
                let second_split = rng.index(case.data.len() + 1);
                let result = case
                    .run(algo, enc, (&case.data, case.split), Form::InPlace)
                    .and_then(|sealed| {
                        case.run(algo, dec, (&sealed, second_split), case.out_of_place)
                    });
                t.check(result.as_ref() == Ok(&case.data), || {
                    let why = match &result {
                        Err(e) => e.clone(),
                        Ok(_) => "not the message".to_owned(),
                    };
                    format!(
                        "case {i}: {} -> {}, {}: {why}",
                        enc.name(),
                        dec.name(),
                        case.describe()
                    )
                });
                i += 1;
            }
        }
    }
    Outcome::Ran(t)
}
