//! Shared code for simdcrypt's criterion benches: the peers simdcrypt is
//! measured against, the message sizes and the harness configuration, so
//! that every bench file compares the same way. Two shapes of contender:
//! in place ([`Contender`], [`run`]) and out of place ([`OutContender`],
//! [`run_out_of_place`]: the message read from one buffer, the result
//! written to another). Their contenders include the key set-up in every
//! call (a fresh key schedule, nonce set-up, HMAC pads …, as the one-shot
//! C APIs do); the consecutive calls are chained as in [`table`], whose
//! harness keys each contender once instead.

use std::fmt::Debug;
use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput};

pub mod gcm;
pub mod peers;
pub mod table;

/// The message sizes every bench runs, with ids that sort in size order.
pub const SIZES: [(&str, usize); 4] = [
    ("0064b", 64),
    ("01kib", 1 << 10),
    ("16kib", 16 << 10),
    ("01mib", 1 << 20),
];

/// The short messages of the callers that send them one at a time (a
/// record, a packet, a token): the AEAD and ChaCha20 benches' `-short`
/// groups, where the per-call set-up is most of the cost.
pub const SHORT_SIZES: [(&str, usize); 5] = [
    ("0000b", 0),
    ("0016b", 16),
    ("0064b", 64),
    ("0256b", 256),
    ("01kib", 1 << 10),
];

/// The harness configuration: short enough that a whole bench file finishes
/// in a few minutes on a small machine. Criterion's command-line options
/// (`--measurement-time`, `--warm-up-time`, `--sample-size`) override it.
pub fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(30)
}

/// `len` bytes of a fixed, non-trivial pattern, for messages and checks.
pub fn pattern(len: usize) -> Vec<u8> {
    (0..len)
        .map(|i| (i.wrapping_mul(31) ^ (i >> 8)) as u8)
        .collect()
}

/// What one contender does to a message in place: encrypts it (returning
/// `()`), or encrypts and returns a tag, or leaves it and returns a MAC.
pub type Op<R> = Box<dyn Fn(&mut [u8]) -> R>;

/// One implementation under test: its id in the bench names and its
/// operation, which includes key setup (every call keys afresh).
pub struct Contender<R> {
    /// A rung's CLI name, `simdcrypt-best`, or the peer's name.
    pub name: String,
    /// The operation.
    pub op: Op<R>,
}

impl<R> Contender<R> {
    /// A contender named `name` doing `op`.
    pub fn new(name: impl Into<String>, op: impl Fn(&mut [u8]) -> R + 'static) -> Self {
        Contender {
            name: name.into(),
            op: Box::new(op),
        }
    }
}

/// The contenders of a primitive's ladder: every rung this CPU runs, by
/// its name, then the library's default choice as `simdcrypt-best`.
/// `op(Some(rung), message)` runs on a rung, `op(None, message)` on the
/// default.
pub fn ladder<I: Copy + 'static, R: 'static>(
    rungs: impl Iterator<Item = I>,
    name: fn(I) -> &'static str,
    op: fn(Option<I>, &mut [u8]) -> R,
) -> Vec<Contender<R>> {
    rungs
        .map(|i| Contender::new(name(i), move |d: &mut [u8]| op(Some(i), d)))
        .chain([Contender::new("simdcrypt-best", move |d: &mut [u8]| {
            op(None, d)
        })])
        .collect()
}

/// Panics unless every contender leaves the same bytes and returns the same
/// value as `reference` at each of `sizes` and at a ragged length that ends
/// inside a block. Run once per group, before anything is timed.
pub fn check<R: PartialEq + Debug>(
    group: &str,
    sizes: &[(&str, usize)],
    reference: &Contender<R>,
    contenders: &[Contender<R>],
) {
    let lengths = sizes.iter().map(|&(_, len)| len).chain([1000 + 7]);
    for len in lengths {
        let mut expected = pattern(len);
        let expected_out = (reference.op)(&mut expected);
        for c in contenders {
            let mut got = pattern(len);
            let out = (c.op)(&mut got);
            assert!(
                got == expected && out == expected_out,
                "{group}: {} differs from {} at {len} bytes",
                c.name,
                reference.name
            );
        }
    }
    let names: Vec<_> = contenders.iter().map(|c| c.name.as_str()).collect();
    eprintln!(
        "{group}: {} agree with {}",
        names.join(", "),
        reference.name
    );
}

/// A contender's result, through which consecutive calls are chained:
/// its last byte, if it has bytes.
pub trait Chained {
    /// The last byte, if any.
    fn last_byte(&self) -> Option<u8>;
}

impl Chained for () {
    fn last_byte(&self) -> Option<u8> {
        None
    }
}

impl<const N: usize> Chained for [u8; N] {
    fn last_byte(&self) -> Option<u8> {
        self.last().copied()
    }
}

impl Chained for Vec<u8> {
    fn last_byte(&self) -> Option<u8> {
        self.last().copied()
    }
}

/// Checks `contenders` against `reference`, then benches each in group
/// `group` at `sizes`, ids `group/size/name`, so that a filter such as
/// `^chacha20/16kib` selects one size. Each call's buffer address depends
/// on the last byte of the call before (its result's, else the buffer's):
/// `&mut buf[usize::from(last) & mask..]`, `mask` a `black_box`ed zero.
pub fn run<R: PartialEq + Debug + Chained>(
    c: &mut Criterion,
    group: &str,
    sizes: &[(&str, usize)],
    reference: &Contender<R>,
    contenders: &[Contender<R>],
) {
    check(group, sizes, reference, contenders);
    let mut g = c.benchmark_group(group);
    for &(label, len) in sizes {
        g.throughput(Throughput::Bytes(len as u64));
        let mut buf = pattern(len);
        for contender in contenders {
            let mask = black_box(0usize);
            let mut last = 0u8;
            g.bench_function(BenchmarkId::new(label, &contender.name), |b| {
                b.iter(|| {
                    let at = usize::from(last) & mask;
                    let r = (contender.op)(black_box(&mut buf[at..]));
                    last = r.last_byte().or_else(|| buf.last().copied()).unwrap_or(0);
                    r
                })
            });
        }
    }
    g.finish();
}

/// What one contender does out of place: reads the message from `input`
/// and writes the result to `output`, which is as long or (an AEAD's sealed
/// form) longer by the tag ([`Pad`]), and which holds a copy of the input
/// where the message goes (zeros around it) before the first call, so that
/// an in-place contender can stand beside the others by working on
/// `output` alone.
pub type OutOp = Box<dyn Fn(&[u8], &mut [u8])>;

/// One out-of-place implementation under test: its id and its operation,
/// key setup included in every call.
pub struct OutContender {
    /// A rung's CLI name, `simdcrypt-best`, or the peer's name; in-place
    /// forms end in `-in-place`.
    pub name: String,
    /// The operation.
    pub op: OutOp,
}

impl OutContender {
    /// A contender named `name` doing `op`.
    pub fn new(name: impl Into<String>, op: impl Fn(&[u8], &mut [u8]) + 'static) -> Self {
        OutContender {
            name: name.into(),
            op: Box::new(op),
        }
    }
}

/// [`ladder`] out of place: every rung this CPU runs, then the default as
/// `simdcrypt-best`; `op(Some(rung), input, output)` runs on a rung.
pub fn ladder_out_of_place<I: Copy + 'static>(
    rungs: impl Iterator<Item = I>,
    name: fn(I) -> &'static str,
    op: fn(Option<I>, &[u8], &mut [u8]),
) -> Vec<OutContender> {
    rungs
        .map(|i| OutContender::new(name(i), move |a: &[u8], b: &mut [u8]| op(Some(i), a, b)))
        .chain([OutContender::new(
            "simdcrypt-best",
            move |a: &[u8], b: &mut [u8]| op(None, a, b),
        )])
        .collect()
}

/// How much longer an output is than its input: bytes before the message
/// and after it (a tag's 16 after the ciphertext, or before it for
/// secretbox; none for a stream cipher).
#[derive(Clone, Copy, Debug)]
pub struct Pad {
    /// Bytes before the message.
    pub before: usize,
    /// Bytes after the message.
    pub after: usize,
}

impl Pad {
    /// A stream cipher's output: as long as the input.
    pub const NONE: Pad = Pad {
        before: 0,
        after: 0,
    };
    /// Ciphertext ‖ 16-byte tag.
    pub const TAG_AFTER: Pad = Pad {
        before: 0,
        after: 16,
    };
    /// 16-byte tag ‖ ciphertext.
    pub const TAG_BEFORE: Pad = Pad {
        before: 16,
        after: 0,
    };
}

/// A fresh output buffer for `input`: zeros, the input, zeros, as `pad`
/// says (see [`OutOp`]). Allocated on its own, apart from the input, as a
/// caller's two buffers are.
fn output_for(input: &[u8], pad: Pad) -> Vec<u8> {
    let mut out = vec![0; pad.before];
    out.extend_from_slice(input);
    out.resize(pad.before + input.len() + pad.after, 0);
    out
}

/// [`check`] out of place: every contender writes what `reference` writes
/// into a fresh output, at each of `sizes` and a ragged length.
pub fn check_out_of_place(
    group: &str,
    sizes: &[(&str, usize)],
    pad: Pad,
    reference: &OutContender,
    contenders: &[OutContender],
) {
    let lengths = sizes.iter().map(|&(_, len)| len).chain([1000 + 7]);
    for len in lengths {
        let input = pattern(len);
        let mut expected = output_for(&input, pad);
        (reference.op)(&input, &mut expected);
        for c in contenders {
            let mut got = output_for(&input, pad);
            (c.op)(&input, &mut got);
            assert!(
                got == expected,
                "{group}: {} differs from {} at {len} bytes",
                c.name,
                reference.name
            );
        }
    }
    let names: Vec<_> = contenders.iter().map(|c| c.name.as_str()).collect();
    eprintln!(
        "{group}: {} agree with {}",
        names.join(", "),
        reference.name
    );
}

/// [`run`] out of place: checks `contenders` against `reference`, then
/// benches each in `group` at `sizes`, the input and the output (longer
/// by `pad`) two separate allocations, ids `group/size/name`; each call's
/// input address depends on the last byte of the output the call before
/// wrote, as in [`run`].
pub fn run_out_of_place(
    c: &mut Criterion,
    group: &str,
    sizes: &[(&str, usize)],
    pad: Pad,
    reference: &OutContender,
    contenders: &[OutContender],
) {
    check_out_of_place(group, sizes, pad, reference, contenders);
    let mut g = c.benchmark_group(group);
    for &(label, len) in sizes {
        g.throughput(Throughput::Bytes(len as u64));
        let input = pattern(len);
        let mut output = output_for(&input, pad);
        for contender in contenders {
            let mask = black_box(0usize);
            let mut last = 0u8;
            g.bench_function(BenchmarkId::new(label, &contender.name), |b| {
                b.iter(|| {
                    let at = usize::from(last) & mask;
                    (contender.op)(black_box(&input[at..]), black_box(&mut output));
                    last = output.last().copied().unwrap_or(0);
                })
            });
        }
    }
    g.finish();
}
