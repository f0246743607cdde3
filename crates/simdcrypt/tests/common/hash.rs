//! What the hash tests share beyond the checking kit: one macro of API
//! tests every hash type runs, and the SHA-512 family against RustCrypto's
//! `sha2`, an independent peer (`sha512` on every rung this CPU runs,
//! `avx512_emu` on the AVX-512 rung alone).

use super::bytes;
use simdcrypt::hash::{Sha384, Sha512, Sha512_256, sha512};

/// The API tests of one hash type `$Hash` whose rungs are `$Rung`: `reset`
/// and `finalize_reset` start over, on every rung this CPU runs; defines
/// `rungs(test)` and `on(imp)` for the file's other tests. (Every rung
/// against the vectors and the reference rung is the checking kit's:
/// `tests/kit.rs`.)
macro_rules! hash_api_tests {
    ($Hash:ty, $Rung:ty) => {
        /// The rungs this CPU runs, saying in the log which were skipped.
        fn rungs(test: &str) -> Vec<$Rung> {
            $crate::common::rungs(test)
        }

        fn on(imp: $Rung) -> $Hash {
            <$Hash>::new().with_rung(imp).expect("available rung")
        }

        #[test]
        fn reset_and_finalize_reset_start_over() {
            for imp in rungs("reset_and_finalize_reset_start_over") {
                let mut h = on(imp);
                h.update(b"something else");
                h.reset();
                h.update(b"abc");
                let first = h.finalize_reset();
                h.update(b"abc");
                assert_eq!(first, h.finalize(), "{imp}");
                let mut once = on(imp);
                once.update(b"abc");
                assert_eq!(first, once.finalize(), "{imp}");
                assert_eq!(<$Hash>::digest(b"abc"), first, "{imp}: digest");
            }
        }

        /// At every length from 0 to 300 (across the padding's one- and
        /// two-block cases and the one-shot path's whole blocks), the
        /// one-shot `digest` and every rung fed whole or in two pieces,
        /// reused through `finalize_reset`, equal the reference rung.
        #[test]
        fn one_shot_and_split_equal_the_reference_at_every_length() {
            let data = $crate::common::bytes(300, 300);
            let reference = |msg: &[u8]| {
                let mut h = on(<$Rung>::ALL[0]);
                h.update(msg);
                h.finalize()
            };
            for imp in rungs("one_shot_and_split_equal_the_reference_at_every_length") {
                let mut reused = on(imp);
                for len in 0..=data.len() {
                    let msg = &data[..len];
                    let want = reference(msg);
                    assert_eq!(<$Hash>::digest(msg), want, "digest, {len} bytes");
                    reused.update(msg);
                    assert_eq!(reused.finalize_reset(), want, "{imp}: {len} bytes");
                    let (first, second) = msg.split_at(len / 3);
                    let mut h = on(imp);
                    h.update(first);
                    h.update(second);
                    assert_eq!(h.finalize(), want, "{imp}: {len} bytes split");
                }
            }
        }
    };
}
pub(crate) use hash_api_tests;

/// The SHA-384, SHA-512 and SHA-512/256 digests of `data` on `imp`, fed
/// in pieces of `pieces` bytes (the rest at the end).
fn sha512_family(imp: sha512::Rung, data: &[u8], pieces: &[usize]) -> [Vec<u8>; 3] {
    let mut h384 = Sha384::new().with_rung(imp).unwrap();
    let mut h512 = Sha512::new().with_rung(imp).unwrap();
    let mut h256 = Sha512_256::new().with_rung(imp).unwrap();
    let mut rest = data;
    for &n in pieces.iter().chain(&[usize::MAX]) {
        let (piece, tail) = rest.split_at(n.min(rest.len()));
        h384.update(piece);
        h512.update(piece);
        h256.update(piece);
        rest = tail;
    }
    [
        h384.finalize().to_vec(),
        h512.finalize().to_vec(),
        h256.finalize().to_vec(),
    ]
}

/// RustCrypto's `sha2` agrees on the `(seed, length)` inputs, fed in a
/// first piece of each of `firsts` bytes and then pieces growing by 129
/// (which leave partial blocks buffered and odd numbers of whole blocks for
/// the multi-block rungs).
pub fn sha2_crate_agrees_on_large_inputs(
    rungs: &[sha512::Rung],
    inputs: &[(u64, usize)],
    firsts: &[usize],
) {
    use sha2::Digest;
    for &(seed, len) in inputs {
        let data = bytes(seed, len);
        let want = [
            sha2::Sha384::digest(&data).to_vec(),
            sha2::Sha512::digest(&data).to_vec(),
            sha2::Sha512_256::digest(&data).to_vec(),
        ];
        for &first in firsts {
            let (mut pieces, mut at) = (Vec::new(), 0);
            while at < len {
                pieces.push(first + 129 * pieces.len());
                at += pieces[pieces.len() - 1];
            }
            for &imp in rungs {
                let got = sha512_family(imp, &data, &pieces);
                assert_eq!(got, want, "{imp}: {len} bytes, first piece {first}");
            }
        }
    }
}
