//! The hashes: every rung of each on the NIST CAVP byte-oriented files,
//! the FIPS 180 examples (RFC 6234 §8.4) and RFC 1321's suite, in one
//! `update` and split in two; cross-checked against the family's reference
//! rung on every length up to 1000 bytes and on longer messages, fed in
//! random `update` calls (the reference row against itself in one call,
//! which checks the buffering). The multi-buffer hashes (which `hash` uses
//! for small files): every rung on the same answers, one message per lane,
//! all at once, in groups of 17 and alone; against one-message hashing on
//! message counts around the lane widths with lengths at the padding
//! boundaries, and on random batches.

use serde_json::Value;

use crate::hash::{self, Md5, Sha1, Sha224, Sha256, Sha384, Sha512, Sha512_256, many};
use crate::harness::data::{Data, data};
use crate::harness::vectors::{hex, hex_field, records};
use crate::harness::{BLOCK_EDGES, Check, Outcome, Report, Rng, Tally};
use crate::table::{Construct, Ladder, Primitive};

const SHA1_SHORT: &str = include_str!("../../tests/data/sha/SHA1ShortMsg.rsp");
const SHA1_LONG: &str = include_str!("../../tests/data/sha/SHA1LongMsg.rsp");
const SHA256_SHORT: &str = include_str!("../../tests/data/sha/SHA256ShortMsg.rsp");
const SHA256_LONG: &str = include_str!("../../tests/data/sha/SHA256LongMsg.rsp");
const SHA512_SHORT: &str = include_str!("../../tests/data/sha/SHA512ShortMsg.rsp");
const SHA512_LONG: &str = include_str!("../../tests/data/sha/SHA512LongMsg.rsp");

/// Every message length up to this is cross-checked, once per rung.
const MAX_CROSS_LEN: usize = 1000;
/// Longer messages (up to 4000 bytes, up to 8 `update` calls) per rung.
const LONG_CASES: usize = 64;

/// A known answer: message and digest.
type Answer = (Vec<u8>, Vec<u8>);

/// One row per rung of the hash `$Hash` (rungs `$Rung`), named `$name`,
/// on the known answers `$answers(data)`.
macro_rules! hash_rows {
    ($v:expr, $name:literal, $Hash:ty, $Rung:ty, $answers:expr) => {{
        fn digest(imp: $Rung, pieces: &[&[u8]]) -> Result<Vec<u8>, String> {
            let mut h = <$Hash>::new().with_rung(imp).map_err(|e| e.to_string())?;
            for piece in pieces {
                h.update(piece);
            }
            Ok(h.finalize().to_vec())
        }
        let answers: fn(&Data) -> Vec<Answer> = $answers;
        let data = data();
        $v.primitive($name, |imp: $Rung, seeds| {
            seeds.each(|check| match check {
                Check::Vectors => known_answers(&answers(data), |p| digest(imp, p)).vectors(),
                Check::CrossCheck => Outcome::Ran(cross_check(&mut seeds.rng(1), |p| {
                    (digest(imp, p), digest(<$Rung>::ALL[0], &[&p.concat()]))
                })),
                Check::RoundTrip => Outcome::NotApplicable("a hash: no round trip"),
            })
        });
    }};
}

/// SHA-256's ladder: SHA-256 and SHA-224.
pub(crate) fn sha256(report: &mut Report) {
    hash_rows!(report, "sha256", Sha256, hash::sha256::Rung, |d| {
        [cavp(SHA256_SHORT), cavp(SHA256_LONG), fips180(d, "SHA-256")].concat()
    });
    hash_rows!(report, "sha224", Sha224, hash::sha256::Rung, |d| {
        examples(d, "SHA-224")
    });
}

/// SHA-512's ladder: SHA-512, SHA-384 and SHA-512/256.
pub(crate) fn sha512(report: &mut Report) {
    hash_rows!(report, "sha512", Sha512, hash::sha512::Rung, |d| {
        [cavp(SHA512_SHORT), cavp(SHA512_LONG), fips180(d, "SHA-512")].concat()
    });
    hash_rows!(report, "sha384", Sha384, hash::sha512::Rung, |d| {
        examples(d, "SHA-384")
    });
    hash_rows!(report, "sha512-256", Sha512_256, hash::sha512::Rung, |d| {
        examples(d, "SHA-512/256")
    });
}

/// SHA-1's ladder.
pub(crate) fn sha1(report: &mut Report) {
    hash_rows!(report, "sha1", Sha1, hash::sha1::Rung, |d| {
        [cavp(SHA1_SHORT), cavp(SHA1_LONG), fips180(d, "SHA-1")].concat()
    });
}

/// MD5's ladder.
pub(crate) fn md5(report: &mut Report) {
    hash_rows!(report, "md5", Md5, hash::md5::Rung, |d| answers(
        &d.md5, "vectors", "MD5", "md5"
    ));
}

/// The multi-buffer ladder: SHA-256 and MD5 of many messages.
pub(crate) fn many(report: &mut Report) {
    many_rows(
        report,
        "sha256-many",
        many::sha256_many_with,
        Sha256::digest,
        |d| [cavp(SHA256_SHORT), cavp(SHA256_LONG), fips180(d, "SHA-256")].concat(),
    );
    many_rows(report, "md5-many", many::md5_many_with, Md5::digest, |d| {
        answers(&d.md5, "vectors", "MD5", "md5")
    });
}

/// A multi-buffer hash on a rung: `sha256_many_with`, `md5_many_with`.
type ManyFn<const N: usize> = fn(many::Rung, &[&[u8]]) -> Result<Vec<[u8; N]>, crate::Error>;

/// Random batches of messages per multi-buffer rung.
const MANY_BATCHES: usize = 64;

/// One row per multi-buffer rung of the hash `name` (`many` with a rung,
/// `one` a message at a time): the known answers `answers(data)` hashed
/// all at once, one message per lane, then in groups of 17 and alone;
/// against `one` on message counts around every lane width (mixed lengths
/// at the padding boundaries), 16 messages of one length, and random
/// batches (1 to 40 messages of 0 to 300 bytes).
fn many_rows<const N: usize>(
    report: &mut Report,
    name: &'static str,
    many: ManyFn<N>,
    one: fn(&[u8]) -> [u8; N],
    answers: fn(&Data) -> Vec<Answer>,
) {
    let data = data();
    report.primitive(name, |imp: many::Rung, seeds| {
        seeds.each(|check| match check {
            Check::Vectors => many_known_answers(imp, many, &answers(data)).vectors(),
            Check::CrossCheck => {
                let mut t = Tally::default();
                let mut rng = seeds.rng(1);
                let batches = fixed_batches().chain(random_batches(&mut rng));
                for (what, msgs) in batches {
                    let refs: Vec<&[u8]> = msgs.iter().map(Vec::as_slice).collect();
                    let want: Vec<[u8; N]> = refs.iter().map(|m| one(m)).collect();
                    t.check(many(imp, &refs).is_ok_and(|got| got == want), || what);
                }
                Outcome::Ran(t)
            }
            Check::RoundTrip => Outcome::NotApplicable("a hash: no round trip"),
        })
    });
}

/// The known answers hashed on `imp` all at once (lanes of every length
/// sharing the registers), in groups of 17 and one at a time.
fn many_known_answers<const N: usize>(
    imp: many::Rung,
    many: ManyFn<N>,
    answers: &[Answer],
) -> Tally {
    let mut t = Tally::default();
    for group in [answers.len().max(1), 17, 1] {
        for (g, part) in answers.chunks(group).enumerate() {
            let msgs: Vec<&[u8]> = part.iter().map(|(m, _)| &m[..]).collect();
            match many(imp, &msgs) {
                Ok(digests) => {
                    for (i, ((_, want), got)) in part.iter().zip(&digests).enumerate() {
                        t.check(got[..] == want[..], || {
                            format!("answer {} in a lane, in groups of {group}", g * group + i)
                        });
                    }
                }
                Err(e) => t.check(false, || e.to_string()),
            }
        }
    }
    t
}

/// Lengths around the padding boundaries (55/56 bytes: one padding block
/// or two; 63, 64; 119, 120 one block later) and a few of several KiB.
const PADDING_EDGES: [usize; 11] = [55, 56, 63, 64, 119, 120, 0, 1, 4096, 5000, 9000];

/// Batches of a fixed shape: no message, one, each lane width (8, 16) and
/// one either side, and more, of mixed lengths (the [`PADDING_EDGES`]
/// first); 16 of one length, so that no lane idles.
fn fixed_batches() -> impl Iterator<Item = (String, Vec<Vec<u8>>)> {
    let mut rng = Rng::new(0x6d61_6e79);
    let mixed: Vec<(String, Vec<Vec<u8>>)> = [0, 1, 2, 7, 8, 9, 15, 16, 17, 33]
        .into_iter()
        .map(|count| {
            let msgs = (0..count)
                .map(|i| {
                    let len = PADDING_EDGES.get(i).copied().unwrap_or(i * 97 % 301);
                    rng.bytes(len)
                })
                .collect();
            (format!("{count} messages of mixed lengths"), msgs)
        })
        .collect();
    let same = [0, 1024].map(|len| {
        (
            format!("16 messages of {len} bytes"),
            vec![vec![0x61; len]; 16],
        )
    });
    mixed.into_iter().chain(same)
}

/// Random batches: 1 to 40 messages of 0 to 300 bytes.
fn random_batches(rng: &mut Rng) -> impl Iterator<Item = (String, Vec<Vec<u8>>)> + '_ {
    (0..MANY_BATCHES).map(|batch| {
        let count = 1 + rng.index(40);
        let msgs = (0..count)
            .map(|_| {
                let len = rng.index(301);
                rng.bytes(len)
            })
            .collect();
        (format!("batch {batch} of {count} messages"), msgs)
    })
}

/// The primitives of the hash family's ladders, with their ladder.
fn primitives() -> impl Iterator<Item = (&'static Ladder, &'static Primitive)> {
    const LADDERS: [&Ladder; 5] = [
        &super::sha256::LADDER,
        &super::sha512::LADDER,
        &super::sha1::LADDER,
        &super::md5::LADDER,
        &super::many::LADDER,
    ];
    LADDERS
        .into_iter()
        .flat_map(|l| l.primitives.iter().map(move |p| (l, p)))
}

/// The primitive of the hash family named `name`, with its ladder.
fn find(name: &str) -> Option<(&'static Ladder, &'static Primitive)> {
    primitives().find(|(_, p)| p.name == name)
}

/// `message` fed to the hash named `name` (as the table names it) in
/// `pieces` of these lengths and the rest in one last `update`, on every
/// rung of its ladder this CPU runs: each digest must be the ladder's
/// reference rung's of the whole message in one call. `None` if `name` is
/// no hash of the table.
pub(crate) fn hash_case(name: &str, message: &[u8], pieces: &[usize]) -> Option<Tally> {
    let (ladder, primitive) = find(name)?;
    let (Construct::Hash(new), Some(len)) = (primitive.construct, primitive.output_len) else {
        return None;
    };
    let digest = |rung: &str, pieces: &[&[u8]]| -> Result<Vec<u8>, String> {
        let mut h = new(Some(rung)).map_err(|e| e.to_string())?;
        for piece in pieces {
            h.update(piece);
        }
        let mut out = vec![0; len];
        h.finalize_into(&mut out);
        Ok(out)
    };
    let rungs = ladder.rungs();
    let want = digest(rungs.first()?.name, &[message]);
    let mut cut = Vec::new();
    let mut rest = message;
    for &n in pieces {
        let (piece, tail) = rest.split_at(n.min(rest.len()));
        cut.push(piece);
        rest = tail;
    }
    cut.push(rest);
    let mut t = Tally::default();
    for rung in rungs.iter().filter(|r| r.available) {
        t.check(want.is_ok() && digest(rung.name, &cut) == want, || {
            format!(
                "{name} on {}: {} bytes in pieces {pieces:?}",
                rung.name,
                message.len()
            )
        });
    }
    Some(t)
}

/// `messages` hashed at once by every multi-buffer hash of the table on
/// every rung this CPU runs, against the hash they compute one message at
/// a time (on its fastest rung).
pub(crate) fn many_case(messages: &[&[u8]]) -> Tally {
    let mut t = Tally::default();
    for (ladder, primitive) in primitives() {
        let Construct::Many { of, new } = primitive.construct else {
            continue;
        };
        let one = find(of).and_then(|(_, p)| match (p.construct, p.output_len) {
            (Construct::Hash(hash), Some(len)) => Some((hash, len)),
            _ => None,
        });
        let Some((hash, len)) = one else {
            t.check(false, || format!("{}: no hash named {of}", primitive.name));
            continue;
        };
        let want: Result<Vec<Vec<u8>>, String> = messages
            .iter()
            .map(|m| {
                let mut h = hash(None).map_err(|e| e.to_string())?;
                h.update(m);
                let mut out = vec![0; len];
                h.finalize_into(&mut out);
                Ok(out)
            })
            .collect();
        for rung in ladder.rungs().iter().filter(|r| r.available) {
            let got = new(Some(rung.name), messages).map_err(|e| e.to_string());
            t.check(want.is_ok() && got == want, || {
                format!(
                    "{} on {}: {} messages",
                    primitive.name,
                    rung.name,
                    messages.len()
                )
            });
        }
    }
    t
}

/// Every answer, in one `update` and split in two at its middle.
fn known_answers(
    answers: &[Answer],
    digest: impl Fn(&[&[u8]]) -> Result<Vec<u8>, String>,
) -> Tally {
    let mut t = Tally::default();
    for (i, (msg, want)) in answers.iter().enumerate() {
        let (a, b) = msg.split_at(msg.len() / 2);
        for (how, pieces) in [("one update", vec![&msg[..]]), ("two updates", vec![a, b])] {
            let ok = digest(&pieces).as_ref() == Ok(want);
            t.check(ok, || format!("answer {i} ({} bytes, {how})", msg.len()));
        }
    }
    t
}

/// Every length up to [`MAX_CROSS_LEN`] in up to 5 random `update` calls,
/// then [`LONG_CASES`] longer messages in up to 9: `pair(pieces)` gives
/// the rung's digest and the reference's.
fn cross_check(
    rng: &mut Rng,
    pair: impl Fn(&[&[u8]]) -> (Result<Vec<u8>, String>, Result<Vec<u8>, String>),
) -> Tally {
    let mut t = Tally::default();
    let long: Vec<usize> = (0..LONG_CASES).map(|_| rng.index(4001)).collect();
    for (i, len) in (0..=MAX_CROSS_LEN).chain(long).enumerate() {
        let msg = rng.bytes(len);
        let max_calls = if i > MAX_CROSS_LEN { 8 } else { 4 };
        let mut pieces = Vec::new();
        let mut rest = &msg[..];
        while !rest.is_empty() && pieces.len() < max_calls {
            let (piece, tail) = rest.split_at(rng.index(rest.len() + 1));
            pieces.push(piece);
            rest = tail;
        }
        pieces.push(rest);
        let (got, want) = pair(&pieces);
        t.check(got.is_ok() && got == want, || {
            format!("{len} bytes in {} updates", pieces.len())
        });
    }
    t
}

/// The `(message, digest)` pairs of a CAVP SHAVS byte-oriented file
/// (`Len = bits`, `Msg = hex`, `MD = hex`; `Len = 0` carries `Msg = 00`,
/// the empty message). A malformed record is an answer no rung can give.
fn cavp(text: &str) -> Vec<Answer> {
    let mut out = Vec::new();
    let (mut len, mut msg) = (None, None);
    for line in text.lines().map(str::trim) {
        let Some((key, value)) = line.split_once(" = ") else {
            continue;
        };
        match key {
            "Len" => len = value.parse::<usize>().ok(),
            "Msg" => msg = hex(value),
            "MD" => {
                let (bits, digest) = (len.take(), hex(value));
                match (bits, msg.take(), digest) {
                    (Some(bits), Some(mut m), Some(d)) if bits % 8 == 0 && bits / 8 <= m.len() => {
                        m.truncate(bits / 8);
                        out.push((m, d));
                    }
                    _ => out.push((Vec::new(), Vec::new())),
                }
            }
            _ => {}
        }
    }
    out
}

/// The FIPS 180 examples of `algorithm` (RFC 6234 §8.4), each message its
/// unit repeated as the file says.
fn fips180(data: &Data, algorithm: &str) -> Vec<Answer> {
    answers(&data.fips180, "vectors", algorithm, "digest")
}

/// The examples of the truncated variants (SHA-224, SHA-384, SHA-512/256).
fn examples(data: &Data, algorithm: &str) -> Vec<Answer> {
    answers(&data.sha_examples, "vectors", algorithm, "digest")
}

/// The records of `list` in `file` whose `algorithm` is `algorithm`:
/// `message_ascii` repeated `repeat` times (or `message_hex`), and the
/// digest in field `digest`.
fn answers(file: &Value, list: &str, algorithm: &str, digest: &str) -> Vec<Answer> {
    records(file, list)
        .iter()
        .filter(|r| r["algorithm"].as_str().is_none_or(|a| a == algorithm))
        .map(|r| {
            let repeat = r["repeat"].as_u64().unwrap_or(1) as usize;
            let msg = match r["message_ascii"].as_str() {
                Some(unit) => unit.repeat(repeat).into_bytes(),
                None => hex_field(r, "message_hex").unwrap_or_default(),
            };
            (msg, hex_field(r, digest).unwrap_or_default())
        })
        .collect()
}

/// A hash ladder's fuzz case: one of its hashes (the first byte picks) on
/// a message cut into pieces, both steered by the fuzzer's bytes
/// ([`Rng::from_bytes`]), on every rung against the reference rung
/// ([`hash_case`]).
pub(crate) fn fuzz(ladder: &Ladder, input: &[u8]) -> Tally {
    let hashes: Vec<&str> = ladder
        .primitives
        .iter()
        .filter(|p| matches!(p.construct, Construct::Hash(_)))
        .map(|p| p.name)
        .collect();
    let (name, bytes) = crate::harness::pick(input, &hashes);
    let mut rng = Rng::from_bytes(bytes);
    let len = rng.length(&BLOCK_EDGES, 3000);
    let message = rng.bytes(len);
    let pieces: Vec<usize> = rng.pieces(&message, 300).iter().map(|p| p.len()).collect();
    hash_case(name, &message, &pieces).unwrap_or_default()
}

/// The multi-buffer ladder's fuzz case: 1 to 40 messages of up to 300
/// bytes, steered by the fuzzer's bytes, hashed at once on every rung
/// against one at a time ([`many_case`]).
pub(crate) fn fuzz_many(input: &[u8]) -> Tally {
    let mut rng = Rng::from_bytes(input);
    let count = 1 + rng.index(40);
    let messages: Vec<Vec<u8>> = (0..count).map(|_| rng.bytes_below(301)).collect();
    let refs: Vec<&[u8]> = messages.iter().map(Vec::as_slice).collect();
    many_case(&refs)
}
