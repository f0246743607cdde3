//! The hashes: every simdcrypt rung this CPU runs of SHA-256, SHA-512,
//! SHA-1 and MD5, simdcrypt's default, and the peers that have each (OpenSSL,
//! ring, RustCrypto, libsodium), in one harness.
//!
//! Each iteration is one whole one-shot digest. Before anything is timed,
//! every contender's digest is checked against simdcrypt's `reference`
//! rung.

use criterion::{Criterion, criterion_group, criterion_main};
use simdcrypt::hash;
use simdcrypt_bench::{Contender, SIZES, config, ladder, peers, run};

/// Benches the hash type `$Hash` with rungs `$Rung` in group `$group`,
/// beside the peers' one-shot functions named `$peer::$fn`.
macro_rules! hash_group {
    ($c:expr, $group:literal, $Hash:ty, $Rung:ty, [$($peer:ident::$fn:ident),*]) => {{
        fn on(imp: Option<$Rung>, msg: &mut [u8]) -> Vec<u8> {
            let h = <$Hash>::new();
            let mut h = match imp {
                Some(i) => h.with_rung(i).expect("an available rung"),
                None => h,
            };
            h.update(msg);
            h.finalize().to_vec()
        }
        let mut contenders = ladder(<$Rung>::available(), <$Rung>::name, on);
        contenders.extend([
            $(Contender::new(stringify!($peer), |m: &mut [u8]| peers::$peer::$fn(m)),)*
        ]);
        eprintln!("{}: simdcrypt-best = {}", $group, <$Rung>::best().name());
        let reference = Contender::new("reference", |m: &mut [u8]| on(Some(<$Rung>::ALL[0]), m));
        run($c, $group, &SIZES, &reference, &contenders);
    }};
}

fn hashes(c: &mut Criterion) {
    hash_group!(
        c,
        "sha256",
        hash::Sha256,
        hash::sha256::Rung,
        [
            openssl::sha256,
            ring::sha256,
            rustcrypto::sha256,
            libsodium::sha256
        ]
    );
    hash_group!(
        c,
        "sha512",
        hash::Sha512,
        hash::sha512::Rung,
        [
            openssl::sha512,
            ring::sha512,
            rustcrypto::sha512,
            libsodium::sha512
        ]
    );
    hash_group!(
        c,
        "sha1",
        hash::Sha1,
        hash::sha1::Rung,
        [openssl::sha1, ring::sha1, rustcrypto::sha1]
    );
    hash_group!(
        c,
        "md5",
        hash::Md5,
        hash::md5::Rung,
        [openssl::md5, rustcrypto::md5]
    );
}

/// Many messages at once: the buffer cut into messages of 1 KiB (16 of
/// them at 16 KiB), hashed by every multi-buffer rung this CPU runs and
/// one after another on the best single-message rung.
fn many(c: &mut Criterion) {
    use hash::many::Rung;
    fn messages(buf: &[u8]) -> Vec<&[u8]> {
        buf.chunks(1024).collect()
    }
    macro_rules! many_group {
        ($group:literal, $Hash:ty, $with:path) => {{
            let mut contenders: Vec<Contender<Vec<u8>>> = Rung::available()
                .map(|i| {
                    Contender::new(i.name(), move |m: &mut [u8]| {
                        $with(i, &messages(m)).expect("an available rung").concat()
                    })
                })
                .collect();
            contenders.push(Contender::new("single-best", |m: &mut [u8]| {
                messages(m)
                    .iter()
                    .flat_map(|msg| <$Hash>::digest(msg))
                    .collect()
            }));
            let reference = Contender::new("sequential", |m: &mut [u8]| {
                $with(Rung::Sequential, &messages(m))
                    .expect("sequential runs anywhere")
                    .concat()
            });
            run(c, $group, &[("16x1kib", 16 << 10)], &reference, &contenders);
        }};
    }
    many_group!("sha256-many", hash::Sha256, hash::many::sha256_many_with);
    many_group!("md5-many", hash::Md5, hash::many::md5_many_with);
}

criterion_group! {
    name = benches;
    config = config();
    targets = hashes, many
}
criterion_main!(benches);
