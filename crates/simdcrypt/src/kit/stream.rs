//! The stream-cipher checks every family of stream ciphers runs: random
//! cases against a reference keystream (carries and the end of the
//! keystream included), the end of the keystream itself, and round trips
//! between every pair of rungs; and the rows of a function (a core, a
//! block function) with its vectors and cross-check.

use super::vectors::xor_in;
use super::{Outcome, Report, Rng, Tally, others};
use crate::{KeyStream, Rung, Xor};

/// One row per rung of each cipher of `algos`: its vectors (by
/// `vectors`), `cases` random cases against the reference keystream (and
/// the end of the keystream with `end_cases`), `per_pair` round trips with
/// every other rung.
pub(crate) fn stream_primitives<A: StreamAlgo>(
    report: &mut Report,
    algos: &[(&'static str, A)],
    (cases, per_pair, end_cases): (u64, u64, bool),
    vectors: impl Fn(A, A::Rung) -> Outcome,
) {
    for &(name, algo) in algos {
        report.primitive(name, |rung: A::Rung, streams| {
            let mut rng = streams.rng(1);
            let mut cross = stream_cross_check(algo, rung, &mut rng, cases);
            if end_cases {
                keystream_end(algo, rung, &mut rng, &mut cross);
            }
            [
                vectors(algo, rung),
                Outcome::Ran(cross),
                round_trips(algo, rung, &mut streams.rng(2), per_pair),
            ]
        });
    }
}

/// One row per rung of a function (a core, a block function): its vectors
/// and its cross-check; no round trip.
pub(crate) fn function_primitive<R: Rung>(
    report: &mut Report,
    name: &'static str,
    vectors: impl Fn(R) -> Tally,
    cross_check: fn(R, &mut Rng) -> Tally,
) {
    report.primitive(name, |rung: R, streams| {
        [
            vectors(rung).vectors(),
            Outcome::Ran(cross_check(rung, &mut streams.rng(1))),
            Outcome::NotApplicable("a function, not a cipher: no round trip"),
        ]
    });
}

/// The random cases of a cipher: key and nonce lengths, counters, lengths.
pub(crate) struct Shape {
    /// A quarter of the keys are 128-bit.
    pub(crate) key_128: bool,
    pub(crate) nonce_len: usize,
    /// Half the counters sit just below one of these blocks (a carry or
    /// the end of the keystream).
    pub(crate) carries: [u128; 2],
    /// The last block of the keystream.
    pub(crate) last_block: u64,
    /// Half the lengths are one of these, the others uniform up to `max_len`.
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
    type Rung: Rung;

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

/// `message` XORed with the keystream from byte `start`.
pub(crate) fn encrypt<A: StreamAlgo>(
    algo: A,
    key: &[u8],
    nonce: &[u8],
    rung: (A::Rung, Xor),
    start: u128,
    message: &[u8],
) -> Result<Vec<u8>, String> {
    let mut buf = message.to_vec();
    cipher(algo, key, nonce, rung, start)?
        .apply_keystream(&mut buf)
        .map_err(|e| e.to_string())?;
    Ok(buf)
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
        c.apply_keystream(a).map_err(|e| e.to_string())?;
        c.apply_keystream(b).map_err(|e| e.to_string())
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
pub(crate) fn stream_cross_check<A: StreamAlgo>(
    algo: A,
    rung: A::Rung,
    rng: &mut Rng,
    cases: u64,
) -> Tally {
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
            .and_then(|mut c| c.apply_keystream(&mut data).map_err(|e| e.to_string()))
            .is_err();
        at(t, "one byte past the last block", refused && data == before);
        let split = cipher(algo, &key, &nonce, r, end - 64).is_ok_and(|mut c| {
            let mut a = vec![0u8; 64];
            let mut b = [0u8; 1];
            c.apply_keystream(&mut a).is_ok() && c.apply_keystream(&mut b).is_err() && b == [0]
        });
        at(t, "the last block, then one byte more", split);
        let at_end = cipher(algo, &key, &nonce, r, end).map(|mut c| {
            c.apply_keystream(&mut []).is_ok() && c.apply_keystream(&mut [0]).is_err()
        });
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
