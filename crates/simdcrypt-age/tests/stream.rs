//! The STREAM pipeline against the specification written out plainly
//! (c2sp.org/age, "Payload"): every length around the chunk and batch
//! edges, every thread count, inputs that arrive a few bytes at a time, and
//! whole files through every recipient type.

use simdcrypt_testsupport::bytes;
use std::io::{self, Read};
use std::num::NonZeroUsize;

use simdcrypt_age::stream::{self, CHUNK_LEN, SEALED_CHUNK_LEN};
use simdcrypt_age::testkit::reference_open;
use simdcrypt_age::{
    Decryptor, Encryptor, Error, FileKey, Identity, Recipient, Threads, pq, scrypt, x25519,
};

/// Chunks per batch in the pipeline; the lengths below straddle it.
const BATCH: usize = 16;

/// A reader that gives at most `step` bytes a call, and sometimes none of
/// them (an interruption).
struct Trickle<'a> {
    data: &'a [u8],
    step: usize,
    calls: usize,
}

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.calls += 1;
        if self.calls.is_multiple_of(7) {
            return Err(io::ErrorKind::Interrupted.into());
        }
        let n = buf.len().min(self.step).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

/// Who a test file is encrypted to, and who opens it.
type Recipients<'a> = Vec<&'a dyn Recipient>;
type Identities<'a> = Vec<&'a dyn Identity>;

fn threads(n: usize) -> Threads {
    Threads::Count(NonZeroUsize::new(n).unwrap())
}

#[test]
fn every_length_around_the_edges_on_every_thread_count() {
    let key = FileKey::from_bytes([3; 16]);
    let mut lengths = vec![0, 1, 15, 16, 17];
    for chunks in [1, 2, BATCH - 1, BATCH, BATCH + 1, 2 * BATCH, 3 * BATCH + 2] {
        lengths.extend([
            chunks * CHUNK_LEN - 1,
            chunks * CHUNK_LEN,
            chunks * CHUNK_LEN + 1,
        ]);
    }
    for (i, &len) in lengths.iter().enumerate() {
        let plain = bytes(i as u64, len);
        for n in [1, 2, 3, 5] {
            let step = [usize::MAX, 4093, 65536, 1009][(i + n) % 4];
            let mut sealed = Vec::new();
            let input = Trickle {
                data: &plain,
                step,
                calls: 0,
            };
            assert_eq!(
                stream::encrypt(&key, input, &mut sealed, threads(n)).unwrap(),
                len as u64
            );
            let chunks = len.div_ceil(CHUNK_LEN).max(1);
            assert_eq!(sealed.len(), 16 + len + 16 * chunks, "length {len}");
            assert!(
                reference_open(&key, &sealed).as_deref() == Some(&plain[..]),
                "length {len}, {n} threads"
            );
            let mut opened = Vec::new();
            let input = Trickle {
                data: &sealed,
                step,
                calls: 0,
            };
            assert_eq!(
                stream::decrypt(&key, input, &mut opened, threads(n)).unwrap(),
                len as u64
            );
            assert!(opened == plain, "length {len}, {n} threads");
        }
    }
}

#[test]
fn a_damaged_chunk_stops_the_output_at_the_chunk_before_it() {
    let key = FileKey::from_bytes([4; 16]);
    let plain = bytes(1, 3 * BATCH * CHUNK_LEN + 99);
    let mut sealed = Vec::new();
    stream::encrypt(&key, &plain[..], &mut sealed, threads(2)).unwrap();
    for bad in [0, 1, BATCH - 1, BATCH, 2 * BATCH + 3, 3 * BATCH] {
        let mut damaged = sealed.clone();
        damaged[16 + bad * SEALED_CHUNK_LEN + 100] ^= 4;
        for n in [1, 2, 4] {
            let mut out = Vec::new();
            let err = stream::decrypt(&key, &damaged[..], &mut out, threads(n)).unwrap_err();
            let expected = if bad == 3 * BATCH {
                Error::LastChunk(bad as u64)
            } else {
                Error::Chunk(bad as u64)
            };
            assert_eq!(err.to_string(), expected.to_string());
            assert!(out == plain[..bad * CHUNK_LEN], "chunk {bad}, {n} threads");
        }
    }
}

#[test]
fn cuts_at_chunk_edges_are_truncation() {
    let key = FileKey::from_bytes([5; 16]);
    let plain = bytes(2, 2 * BATCH * CHUNK_LEN);
    let mut sealed = Vec::new();
    stream::encrypt(&key, &plain[..], &mut sealed, threads(3)).unwrap();
    for chunks in [0, 1, BATCH - 1, BATCH, 2 * BATCH - 1] {
        let cut = 16 + chunks * SEALED_CHUNK_LEN;
        for n in [1, 3] {
            let mut out = Vec::new();
            let err = stream::decrypt(&key, &sealed[..cut], &mut out, threads(n)).unwrap_err();
            assert!(matches!(err, Error::Truncated), "{chunks} chunks: {err}");
            assert!(
                out == plain[..chunks * CHUNK_LEN],
                "{chunks} chunks, {n} threads"
            );
        }
    }
}

#[test]
fn whole_files_through_every_recipient_type() {
    let x = x25519::Identity::generate().unwrap();
    let h = pq::Identity::generate().unwrap();
    let (xr, hr) = (x.to_public(), h.to_public());
    let p = scrypt::Recipient::new(b"passphrase", 4);
    let pi = scrypt::Identity::new(b"passphrase", 4);
    let plain = bytes(3, CHUNK_LEN * 2 + 5);
    let cases: [(Recipients, Identities); 3] = [
        (vec![&xr], vec![&x]),
        (vec![&hr], vec![&h]),
        (vec![&p], vec![&pi]),
    ];
    for (recipients, identities) in &cases {
        let mut sealed = Vec::new();
        Encryptor::new(recipients)
            .unwrap()
            .encrypt(&plain[..], &mut sealed, Threads::Auto)
            .unwrap();
        let decryptor = Decryptor::new(&sealed[..]).unwrap();
        let file_key = decryptor.file_key(identities).unwrap();
        let mut opened = Vec::new();
        decryptor
            .decrypt(&file_key, &mut opened, Threads::Auto)
            .unwrap();
        assert!(opened == plain);
    }
    // A passphrase is alone or nothing.
    let both: [&dyn Recipient; 2] = [&p, &xr];
    assert!(matches!(Encryptor::new(&both), Err(Error::ScryptNotAlone)));
}
