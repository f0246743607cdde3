//! Random access to a payload (`SeekableDecryptor`): every byte range it
//! gives equals the plaintext, whatever the length around the chunk edges;
//! the final chunk is authenticated before anything is released, so cuts
//! and appended bytes are refused when it is made; a damaged chunk fails
//! only the reads that reach it.

use simdcrypt_testsupport::bytes;
use std::io::{BufReader, Cursor, Read, Seek, SeekFrom};

use simdcrypt_age::stream::{self, CHUNK_LEN, SEALED_CHUNK_LEN};
use simdcrypt_age::{Decryptor, Encryptor, Error, FileKey, SeekableDecryptor, Threads, x25519};

/// The payload (nonce and chunks) of `plain` under `key`.
fn payload(key: &FileKey, plain: &[u8]) -> Vec<u8> {
    let mut sealed = Vec::new();
    stream::encrypt(key, plain, &mut sealed, Threads::Auto).unwrap();
    sealed
}

/// A reader over `sealed` behind a prefix, positioned at the payload.
fn at_payload(sealed: &[u8]) -> Cursor<Vec<u8>> {
    let mut file = b"a header stands here".to_vec();
    let start = file.len() as u64;
    file.extend_from_slice(sealed);
    let mut cursor = Cursor::new(file);
    cursor.set_position(start);
    cursor
}

#[test]
fn every_range_equals_the_plaintext() {
    let key = FileKey::from_bytes([7; 16]);
    for len in [
        0,
        1,
        CHUNK_LEN - 1,
        CHUNK_LEN,
        CHUNK_LEN + 1,
        3 * CHUNK_LEN,
        3 * CHUNK_LEN + 17,
    ] {
        let plain = bytes(len as u64, len);
        let mut reader = SeekableDecryptor::new(&key, at_payload(&payload(&key, &plain))).unwrap();
        assert_eq!(reader.len(), len as u64);
        let mut whole = Vec::new();
        reader.read_to_end(&mut whole).unwrap();
        assert!(whole == plain, "length {len}");
        // Ranges across every chunk edge, backwards, and past the end.
        let mut x = len as u64 + 1;
        for _ in 0..40 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let start = (x >> 33) as usize % (len + 2);
            let want = (x >> 13) as usize % (2 * CHUNK_LEN + 3);
            reader.seek(SeekFrom::Start(start as u64)).unwrap();
            let mut got = vec![0; want];
            let n = read_fully(&mut reader, &mut got);
            let expected = plain
                .get(start..)
                .map_or(&[][..], |rest| &rest[..want.min(rest.len())]);
            assert!(
                &got[..n] == expected,
                "length {len}, {want} bytes at {start}"
            );
        }
        assert_eq!(
            reader.seek(SeekFrom::End(-1)).ok(),
            (len as u64).checked_sub(1)
        );
        assert!(reader.seek(SeekFrom::Current(-(len as i64) - 2)).is_err());
    }
}

/// Reads until `buf` is full or the end.
fn read_fully(reader: &mut impl Read, buf: &mut [u8]) -> usize {
    let mut n = 0;
    while n < buf.len() {
        match reader.read(&mut buf[n..]).unwrap() {
            0 => break,
            k => n += k,
        }
    }
    n
}

#[test]
fn cuts_and_appended_bytes_are_refused_when_made() {
    let key = FileKey::from_bytes([8; 16]);
    let plain = bytes(3, 3 * CHUNK_LEN + 5);
    let sealed = payload(&key, &plain);
    let error = |bytes: &[u8]| SeekableDecryptor::new(&key, at_payload(bytes)).err();
    // At a chunk edge: the last whole chunk opens only as a non-final one.
    for chunks in [1, 2, 3] {
        let cut = 16 + chunks * SEALED_CHUNK_LEN;
        assert!(
            matches!(error(&sealed[..cut]), Some(Error::Truncated)),
            "{chunks}"
        );
    }
    // Inside a chunk or its tag, before the nonce ends, or nothing at all.
    for cut in [
        0,
        15,
        16,
        17,
        16 + 15,
        sealed.len() - 1,
        16 + SEALED_CHUNK_LEN + 9,
    ] {
        assert!(
            matches!(
                error(&sealed[..cut]),
                Some(Error::Truncated | Error::LastChunk(_))
            ),
            "cut at {cut}"
        );
    }
    // A byte more: the final chunk is no longer where it was.
    let mut longer = sealed.clone();
    longer.push(0);
    assert!(matches!(error(&longer), Some(Error::LastChunk(_))));
    // The final chunk damaged.
    let mut damaged = sealed.clone();
    *damaged.last_mut().unwrap() ^= 1;
    assert!(matches!(error(&damaged), Some(Error::LastChunk(3))));
}

#[test]
fn a_damaged_chunk_fails_only_the_reads_that_reach_it() {
    let key = FileKey::from_bytes([9; 16]);
    let plain = bytes(4, 4 * CHUNK_LEN + 100);
    let mut sealed = payload(&key, &plain);
    sealed[16 + SEALED_CHUNK_LEN + 7] ^= 0x40;
    let mut reader = SeekableDecryptor::new(&key, at_payload(&sealed)).unwrap();
    let mut buf = vec![0; 1000];
    reader
        .seek(SeekFrom::Start(2 * CHUNK_LEN as u64 + 5))
        .unwrap();
    assert_eq!(read_fully(&mut reader, &mut buf), 1000);
    assert!(buf == plain[2 * CHUNK_LEN + 5..2 * CHUNK_LEN + 1005]);
    reader.seek(SeekFrom::Start(CHUNK_LEN as u64 + 3)).unwrap();
    let err = reader.read(&mut buf).unwrap_err();
    assert!(matches!(Error::from(err), Error::Chunk(1)));
    // The chunk before it still reads, up to the damaged one.
    reader.seek(SeekFrom::Start(CHUNK_LEN as u64 - 10)).unwrap();
    assert_eq!(reader.read(&mut buf).unwrap(), 10);
    assert!(buf[..10] == plain[CHUNK_LEN - 10..CHUNK_LEN]);
}

#[test]
fn a_whole_file_through_the_decryptor() {
    let identity = x25519::Identity::generate().unwrap();
    let recipient = identity.to_public();
    let plain = bytes(5, 2 * CHUNK_LEN + 1234);
    let mut file = Vec::new();
    Encryptor::new(&[&recipient])
        .unwrap()
        .encrypt(&plain[..], &mut file, Threads::Auto)
        .unwrap();
    let decryptor = Decryptor::new(BufReader::new(Cursor::new(file))).unwrap();
    let file_key = decryptor.file_key(&[&identity]).unwrap();
    let mut reader = decryptor.seekable(&file_key).unwrap();
    assert_eq!(reader.len(), plain.len() as u64);
    reader.seek(SeekFrom::Start(CHUNK_LEN as u64 - 3)).unwrap();
    let mut buf = [0; 9];
    assert_eq!(read_fully(&mut reader, &mut buf), 9);
    assert!(buf == plain[CHUNK_LEN - 3..CHUNK_LEN + 6]);
}
