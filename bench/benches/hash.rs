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

/// Benches the hash type `$Hash` with rungs `$Impl` in group `$group`,
/// beside the peers' one-shot functions named `$peer::$fn`.
macro_rules! hash_group {
    ($c:expr, $group:literal, $Hash:ty, $Impl:ty, [$($peer:ident::$fn:ident),*]) => {{
        fn on(imp: Option<$Impl>, msg: &mut [u8]) -> Vec<u8> {
            let h = <$Hash>::new();
            let mut h = match imp {
                Some(i) => h.with_impl(i).expect("an available rung"),
                None => h,
            };
            h.update(msg);
            h.finalize().to_vec()
        }
        let mut contenders = ladder(<$Impl>::available(), <$Impl>::name, on);
        contenders.extend([
            $(Contender::new(stringify!($peer), |m: &mut [u8]| peers::$peer::$fn(m)),)*
        ]);
        eprintln!("{}: simdcrypt-best = {}", $group, <$Impl>::best().name());
        let reference = Contender::new("reference", |m: &mut [u8]| on(Some(<$Impl>::ALL[0]), m));
        run($c, $group, &SIZES, &reference, &contenders);
    }};
}

fn hashes(c: &mut Criterion) {
    hash_group!(
        c,
        "sha256",
        hash::Sha256,
        hash::sha256::Impl,
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
        hash::sha512::Impl,
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
        hash::sha1::Impl,
        [openssl::sha1, ring::sha1, rustcrypto::sha1]
    );
    hash_group!(
        c,
        "md5",
        hash::Md5,
        hash::md5::Impl,
        [openssl::md5, rustcrypto::md5]
    );
}

criterion_group! {
    name = benches;
    config = config();
    targets = hashes
}
criterion_main!(benches);
