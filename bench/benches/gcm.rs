//! AES-128-GCM and AES-256-GCM sealing in place with a detached tag:
//! simdcrypt (its default path — the stitched VAES/VPCLMULQDQ kernel where
//! the CPU has it — and, where it differs, the unstitched path on AES's
//! and GHASH's best rungs) beside OpenSSL's EVP, RustCrypto's `aes-gcm`
//! 0.10 and ring, at 64 B, 1 KiB and 16 KiB, with 13 bytes of associated
//! data.
//!
//! Every contender is keyed once, outside the timed loop (an AEAD key
//! seals many records: what is timed is a seal, not a key setup; the
//! `-keyed` groups of `aead.rs` time the setup too). Before anything is
//! timed, every ciphertext and tag is checked against RustCrypto's.

use criterion::{Criterion, criterion_group, criterion_main};
use simdcrypt::aead::{Aes128Gcm, Aes256Gcm};
use simdcrypt_bench::gcm::{OpenSsl, Ring, RustCrypto};
use simdcrypt_bench::{Contender, SIZES, config, run};

const NONCE: [u8; 12] = [
    0xca, 0xfe, 0xba, 0xbe, 0xfa, 0xce, 0xdb, 0xad, 0xde, 0xca, 0xf8, 0x88,
];
const AAD: [u8; 13] = *b"record header";
const SIZES3: [(&str, usize); 3] = [SIZES[0], SIZES[1], SIZES[2]];

/// A keyed seal: the message in place, the tag out.
type Seal = Box<dyn Fn(&mut [u8]) -> [u8; 16]>;

/// The contenders under a `LEN`-byte key.
fn contenders<const LEN: usize>(
    ours: impl Fn(&[u8; LEN]) -> Seal,
    unstitched: impl Fn(&[u8; LEN]) -> Seal,
) -> (Contender<[u8; 16]>, Vec<Contender<[u8; 16]>>) {
    let key: [u8; LEN] = std::array::from_fn(|i| 0x80 + i as u8);
    let keyed = |name: &str, op: Seal| Contender::new(name, op);
    let rustcrypto = RustCrypto::new(&key);
    let reference = keyed(
        "rustcrypto",
        Box::new(move |d| rustcrypto.seal(&NONCE, &AAD, d)),
    );
    let (openssl, ring, rustcrypto) = (OpenSsl::new(&key), Ring::new(&key), RustCrypto::new(&key));
    let mut list = vec![keyed("simdcrypt", ours(&key))];
    // Off the kernel, AES runs on its own best rung: worth timing once AES
    // has a constant-time one (its AES-NI and bitsliced rungs), not on the
    // table-driven reference alone.
    if simdcrypt::aes::Rung::best().is_constant_time() {
        list.push(keyed("simdcrypt-unstitched", unstitched(&key)));
    }
    list.extend([
        keyed("openssl", Box::new(move |d| openssl.seal(&NONCE, &AAD, d))),
        keyed("ring", Box::new(move |d| ring.seal(&NONCE, &AAD, d))),
        keyed(
            "rustcrypto",
            Box::new(move |d| rustcrypto.seal(&NONCE, &AAD, d)),
        ),
    ]);
    (reference, list)
}

/// Our AEAD keyed once, as the default builds it or on the best rungs off
/// the stitched kernel.
macro_rules! ours {
    ($t:ty, $stitched:expr) => {
        |key| {
            let aead = <$t>::new(key);
            let aead = if $stitched {
                aead
            } else {
                aead.with_rung(simdcrypt::aes::Rung::best(), simdcrypt::ghash::Rung::best())
                    .expect("the best rungs")
            };
            Box::new(move |d: &mut [u8]| aead.encrypt_in_place_detached(&NONCE, &AAD, d))
        }
    };
}

fn gcm(c: &mut Criterion) {
    let (reference, list) = contenders::<16>(ours!(Aes128Gcm, true), ours!(Aes128Gcm, false));
    run(c, "aes128gcm", &SIZES3, &reference, &list);
    let (reference, list) = contenders::<32>(ours!(Aes256Gcm, true), ours!(Aes256Gcm, false));
    run(c, "aes256gcm", &SIZES3, &reference, &list);
}

criterion_group! {
    name = benches;
    config = config();
    targets = gcm
}
criterion_main!(benches);
