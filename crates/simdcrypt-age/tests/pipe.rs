//! The payload as `io::Write` and `io::Read` (`EncryptingWriter`,
//! `DecryptingReader`): what goes in, in writes of any size, comes out of
//! the other tools' path and of the reader unchanged; a writer dropped
//! without `finish` leaves a file age refuses; the reader releases only
//! verified plaintext and ends a damaged or cut file with its error.

use simdcrypt_testsupport::bytes;
use std::io::{self, BufReader, Cursor, Read, Write};
use std::num::NonZeroUsize;

use simdcrypt_age::stream::{CHUNK_LEN, SEALED_CHUNK_LEN};
use simdcrypt_age::{Decryptor, Encryptor, Error, Threads, x25519};

fn threads(n: usize) -> Threads {
    Threads::Count(NonZeroUsize::new(n).unwrap())
}

/// `plain` through an `EncryptingWriter` in writes of `step` bytes.
fn written(identity: &x25519::Identity, plain: &[u8], step: usize, n: usize) -> Vec<u8> {
    let recipient = identity.to_public();
    let encryptor = Encryptor::new(&[&recipient]).unwrap();
    let mut writer = encryptor.writer(Vec::new(), threads(n)).unwrap();
    for piece in plain.chunks(step) {
        writer.write_all(piece).unwrap();
    }
    writer.flush().unwrap();
    writer.finish().unwrap()
}

/// The plaintext of `file` through a `DecryptingReader`, read in pieces of
/// `step` bytes; the error that ended it, if any, beside what came before.
fn read(identity: &x25519::Identity, file: Vec<u8>, step: usize) -> (Vec<u8>, Option<io::Error>) {
    let decryptor = Decryptor::new(BufReader::new(Cursor::new(file))).unwrap();
    let file_key = decryptor.file_key(&[identity]).unwrap();
    let mut reader = decryptor.reader(&file_key, threads(2));
    let mut out = Vec::new();
    let mut buf = vec![0; step];
    loop {
        match reader.read(&mut buf) {
            Ok(0) => return (out, None),
            Ok(n) => out.extend_from_slice(&buf[..n]),
            Err(e) => return (out, Some(e)),
        }
    }
}

#[test]
fn round_trips_at_the_edges_in_writes_of_any_size() {
    let identity = x25519::Identity::generate().unwrap();
    for (i, len) in [
        0,
        1,
        CHUNK_LEN - 1,
        CHUNK_LEN,
        CHUNK_LEN + 1,
        16 * CHUNK_LEN,
        16 * CHUNK_LEN + 1,
        40 * CHUNK_LEN + 3,
    ]
    .into_iter()
    .enumerate()
    {
        let plain = bytes(i as u64, len);
        for (step, n) in [(1 << 20, 1), (7, 2), (CHUNK_LEN + 13, 3)] {
            if step < 1000 && len > 4 * CHUNK_LEN {
                continue;
            }
            let file = written(&identity, &plain, step, n);
            let mut whole = Vec::new();
            simdcrypt_age::decrypt(&[&identity], &file[..], &mut whole).unwrap();
            assert!(
                whole == plain,
                "length {len}, writes of {step}, {n} threads"
            );
            let (got, error) = read(&identity, file, 5000);
            assert!(error.is_none() && got == plain, "reader: length {len}");
        }
    }
}

#[test]
fn a_writer_dropped_without_finish_leaves_a_truncated_file() {
    let identity = x25519::Identity::generate().unwrap();
    let recipient = identity.to_public();
    let encryptor = Encryptor::new(&[&recipient]).unwrap();
    let file = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    struct Shared(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);
    impl Write for Shared {
        fn write(&mut self, data: &[u8]) -> io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(data);
            Ok(data.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }
    let mut writer = encryptor.writer(Shared(file.clone()), threads(2)).unwrap();
    writer.write_all(&bytes(1, 3 * CHUNK_LEN + 5)).unwrap();
    drop(writer);
    let file = file.lock().unwrap().clone();
    let mut out = Vec::new();
    let err = simdcrypt_age::decrypt(&[&identity], &file[..], &mut out).unwrap_err();
    assert!(matches!(err, Error::Truncated), "{err}");
}

#[test]
fn the_reader_releases_only_verified_chunks_and_ends_with_the_error() {
    let identity = x25519::Identity::generate().unwrap();
    let plain = bytes(2, 40 * CHUNK_LEN + 9);
    let file = written(&identity, &plain, 1 << 20, 2);
    let payload = file.len() - (16 + 40 * SEALED_CHUNK_LEN + 9 + 16);
    // A damaged chunk: the chunks before it, then its error.
    let mut damaged = file.clone();
    damaged[payload + 16 + 21 * SEALED_CHUNK_LEN + 5] ^= 1;
    let (got, error) = read(&identity, damaged, 70_000);
    assert!(got == plain[..21 * CHUNK_LEN]);
    assert!(matches!(Error::from(error.unwrap()), Error::Chunk(21)));
    // Cut at a chunk edge: truncated, never a clean end.
    let cut = file[..payload + 16 + 17 * SEALED_CHUNK_LEN].to_vec();
    let (got, error) = read(&identity, cut, 4096);
    assert!(got == plain[..17 * CHUNK_LEN]);
    assert!(matches!(Error::from(error.unwrap()), Error::Truncated));
    // Dropped half way: nothing waits for it.
    let decryptor = Decryptor::new(BufReader::new(Cursor::new(file))).unwrap();
    let file_key = decryptor.file_key(&[&identity]).unwrap();
    let mut reader = decryptor.reader(&file_key, threads(2));
    let mut buf = [0; 100];
    reader.read_exact(&mut buf).unwrap();
    assert!(buf[..] == plain[..100]);
    drop(reader);
}

#[test]
fn an_output_that_fails_is_the_writers_error() {
    struct Failing(usize);
    impl Write for Failing {
        fn write(&mut self, data: &[u8]) -> io::Result<usize> {
            if self.0 < data.len() {
                return Err(io::Error::other("disk full"));
            }
            self.0 -= data.len();
            Ok(data.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }
    let identity = x25519::Identity::generate().unwrap();
    let recipient = identity.to_public();
    let encryptor = Encryptor::new(&[&recipient]).unwrap();
    let mut writer = encryptor.writer(Failing(2 << 20), threads(2)).unwrap();
    let plain = bytes(3, 8 << 20);
    let wrote = plain.chunks(100_000).try_for_each(|p| writer.write_all(p));
    let finished = writer.finish();
    assert!(wrote.is_err() || finished.is_err());
    if let Err(e) = finished {
        assert!(e.to_string().contains("disk full"), "{e}");
    }
}
