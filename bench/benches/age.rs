//! age files in memory: simdcrypt-age's STREAM pipeline (on every core and
//! on one) beside rage's library, the `age` crate (0.11: its 0.12 needs an
//! `ml-kem` that cannot share a lock file with ours), encrypting to and
//! decrypting from an X25519 recipient, from memory to `io::sink()`, so
//! that neither the file system nor the growth of an output vector is
//! timed. (The commands themselves are compared with age and rage by
//! `bench/age.sh`.) Each iteration is a whole file: a new file key, the
//! header, the payload.

use std::io::{self, Write};
use std::iter;
use std::num::NonZeroUsize;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use simdcrypt_age::{Decryptor, Encryptor, Threads, x25519};
use simdcrypt_bench::{config, pattern};

/// File sizes: one chunk, a batch, and enough batches for every core.
const FILE_SIZES: [(&str, usize); 3] = [
    ("064kib", 64 << 10),
    ("01mib", 1 << 20),
    ("64mib", 64 << 20),
];

fn ours<W: Write>(recipient: &x25519::Recipient, plain: &[u8], mut out: W, threads: Threads) -> W {
    let encryptor = Encryptor::new(&[recipient]).expect("a file key");
    encryptor.encrypt(plain, &mut out, threads).expect("sealed");
    out
}

fn ours_open(identity: &x25519::Identity, sealed: &[u8], out: impl Write, threads: Threads) -> u64 {
    let decryptor = Decryptor::new(sealed).expect("a header");
    let file_key = decryptor.file_key(&[identity]).expect("unwrapped");
    decryptor.decrypt(&file_key, out, threads).expect("opened")
}

fn theirs<W: Write>(recipient: &age::x25519::Recipient, plain: &[u8], out: W) -> W {
    let recipients = iter::once(recipient as &dyn age::Recipient);
    let encryptor = age::Encryptor::with_recipients(recipients).expect("a recipient");
    let mut writer = encryptor.wrap_output(out).expect("a header");
    writer.write_all(plain).expect("sealed");
    writer.finish().expect("finished")
}

fn theirs_open(identity: &age::x25519::Identity, sealed: &[u8], mut out: impl Write) -> u64 {
    let decryptor = age::Decryptor::new(sealed).expect("a header");
    let mut reader = decryptor
        .decrypt(iter::once(identity as &dyn age::Identity))
        .expect("unwrapped");
    io::copy(&mut reader, &mut out).expect("opened")
}

fn age_files(c: &mut Criterion) {
    let identity = x25519::Identity::generate().expect("randomness");
    let recipient = identity.to_public();
    let their_identity: age::x25519::Identity = identity.to_bech32().parse().expect("the same key");
    let their_recipient = their_identity.to_public();
    let one = Threads::Count(NonZeroUsize::MIN);
    for (id, len) in FILE_SIZES {
        let plain = pattern(len);
        // Before timing: each side reads the other's file.
        let sealed = ours(&recipient, &plain, Vec::new(), Threads::Auto);
        let mut opened = Vec::new();
        theirs_open(&their_identity, &sealed, &mut opened);
        assert!(opened == plain, "rage's library reads our file");
        let their_sealed = theirs(&their_recipient, &plain, Vec::new());
        let mut opened = Vec::new();
        ours_open(&identity, &their_sealed, &mut opened, Threads::Auto);
        assert!(opened == plain, "we read rage's file");

        let mut group = c.benchmark_group("age-encrypt");
        group.throughput(Throughput::Bytes(len as u64));
        for (name, threads) in [("simdcrypt", Threads::Auto), ("simdcrypt-1-thread", one)] {
            group.bench_with_input(BenchmarkId::new(name, id), &plain, |b, p| {
                b.iter(|| ours(&recipient, p, io::sink(), threads))
            });
        }
        group.bench_with_input(BenchmarkId::new("rage-age-crate", id), &plain, |b, p| {
            b.iter(|| theirs(&their_recipient, p, io::sink()))
        });
        group.finish();

        let mut group = c.benchmark_group("age-decrypt");
        group.throughput(Throughput::Bytes(len as u64));
        for (name, threads) in [("simdcrypt", Threads::Auto), ("simdcrypt-1-thread", one)] {
            group.bench_with_input(BenchmarkId::new(name, id), &their_sealed, |b, s| {
                b.iter(|| ours_open(&identity, s, io::sink(), threads))
            });
        }
        group.bench_with_input(BenchmarkId::new("rage-age-crate", id), &sealed, |b, s| {
            b.iter(|| theirs_open(&their_identity, s, io::sink()))
        });
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = config().sample_size(10);
    targets = age_files
}
criterion_main!(benches);
