//! The age file format (`simdcrypt-age`): every vector of the C2SP age
//! testkit at one thread and at three, through the crate's own checking kit
//! (`simdcrypt_age::testkit`: the outcome class each expects, the SHA-256 of
//! the plaintext it releases); its STREAM payload against c2sp.org/age's
//! "Payload" section written out chunk by chunk, both ways; and files
//! encrypted to a fresh X25519 recipient and decrypted, around the 64 KiB
//! chunk edges.

use std::num::NonZeroUsize;

use simdcrypt_age::stream::{self, CHUNK_LEN};
use simdcrypt_age::{Decryptor, Encryptor, FileKey, Threads, testkit, x25519};

use simdcrypt::kit::{ChosenRungs, Outcome, Report, Rng, Tally};

/// The thread counts every vector runs at: everything on the calling
/// thread, and a pipeline.
const THREADS: [usize; 2] = [1, 3];

/// The lengths every payload check covers: empty, one byte, and one chunk
/// with a byte either side.
const EDGES: [usize; 5] = [0, 1, CHUNK_LEN - 1, CHUNK_LEN, CHUNK_LEN + 1];

/// Random lengths added to [`EDGES`], up to this many chunks (past one
/// 16-chunk batch of the pipeline).
const RANDOM_LENGTHS: usize = 3;
const MAX_CHUNKS: u64 = 18;

/// The row.
pub(super) fn verify(report: &mut Report) {
    report.enter("age");
    report.primitive("age", |ChosenRungs, seeds| {
        [
            testkit_vectors().vectors(),
            Outcome::Ran(payload_cross_check(&mut seeds.rng(1))),
            Outcome::Ran(round_trips(&mut seeds.rng(2))),
        ]
    });
}

fn threads(n: usize) -> Threads {
    Threads::Count(NonZeroUsize::new(n).unwrap_or(NonZeroUsize::MIN))
}

/// Every testkit vector at each of [`THREADS`]: one case per vector per
/// thread count.
fn testkit_vectors() -> Tally {
    let mut t = Tally::default();
    for vector in testkit::vectors() {
        for n in THREADS {
            match &vector {
                Ok(v) => {
                    let result = v.check(threads(n));
                    t.check(result.is_ok(), || match result {
                        Err(failure) => format!("testkit {} ({n} threads): {failure}", v.name),
                        Ok(()) => String::new(),
                    });
                }
                Err(malformed) => t.check(false, || malformed.to_string()),
            }
        }
    }
    t
}

/// [`EDGES`] and a few random lengths.
fn lengths(rng: &mut Rng) -> Vec<usize> {
    let mut lengths = EDGES.to_vec();
    for _ in 0..RANDOM_LENGTHS {
        lengths.push(rng.below(MAX_CHUNKS * CHUNK_LEN as u64 + 1) as usize);
    }
    lengths
}

/// `stream::encrypt` opened by [`testkit::reference_open`], and
/// [`testkit::reference_seal`]
/// opened by `stream::decrypt`, at each of [`THREADS`], for random file
/// keys and the lengths of [`lengths`].
fn payload_cross_check(rng: &mut Rng) -> Tally {
    let mut t = Tally::default();
    for len in lengths(rng) {
        let plain = rng.bytes(len);
        let file_key = FileKey::from_bytes(rng.array());
        let nonce = rng.array();
        for n in THREADS {
            let mut sealed = Vec::new();
            let ok = stream::encrypt(&file_key, &plain[..], &mut sealed, threads(n))
                .is_ok_and(|written| written == len as u64)
                && testkit::reference_open(&file_key, &sealed).is_some_and(|open| open == plain);
            t.check(ok, || {
                format!("{len} bytes sealed on {n} threads, opened by the specification")
            });

            let mut opened = Vec::new();
            let ok = testkit::reference_seal(&file_key, nonce, &plain).is_some_and(|sealed| {
                stream::decrypt(&file_key, &sealed[..], &mut opened, threads(n))
                    .is_ok_and(|read| read == len as u64)
            }) && opened == plain;
            t.check(ok, || {
                format!("{len} bytes sealed by the specification, opened on {n} threads")
            });
        }
    }
    t
}

/// Random files of the lengths of [`lengths`], encrypted to a fresh X25519
/// recipient on one thread count and decrypted with its identity on the
/// other, compared byte for byte.
fn round_trips(rng: &mut Rng) -> Tally {
    let mut t = Tally::default();
    let identity = match x25519::Identity::generate() {
        Ok(identity) => identity,
        Err(e) => {
            t.check(false, || format!("generating an X25519 identity: {e}"));
            return t;
        }
    };
    let recipient = identity.to_public();
    for len in lengths(rng) {
        let plain = rng.bytes(len);
        for (enc, dec) in [(THREADS[0], THREADS[1]), (THREADS[1], THREADS[0])] {
            let result = (|| {
                let mut sealed = Vec::new();
                Encryptor::new(&[&recipient])?.encrypt(&plain[..], &mut sealed, threads(enc))?;
                let decryptor = Decryptor::new(&sealed[..])?;
                let file_key = decryptor.file_key(&[&identity])?;
                let mut opened = Vec::new();
                decryptor.decrypt(&file_key, &mut opened, threads(dec))?;
                Ok::<_, simdcrypt_age::Error>(opened)
            })();
            let ok = matches!(&result, Ok(opened) if *opened == plain);
            t.check(ok, || {
                let what = match &result {
                    Ok(_) => "the plaintext differs".to_owned(),
                    Err(e) => e.to_string(),
                };
                format!("{len} bytes encrypted on {enc} threads, decrypted on {dec}: {what}")
            });
        }
    }
    t
}
