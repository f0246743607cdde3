//! SHA-1 (FIPS 180-4 §6.1): the API's promises, and every rung against
//! RustCrypto's `sha1` (an independent implementation) on large inputs fed
//! in odd pieces and on odd block counts in one call, which the two-block
//! `avx2` rung must finish with a single block. (Every rung on the vectors
//! and against the reference rung is the checking kit's: `tests/kit.rs`.)

mod common;

use ::sha1::Digest as _;
use simdcrypt::hash::{Sha1, sha1::Rung};

common::hash::hash_api_tests!(Sha1, Rung);

/// RustCrypto's SHA-1 of `data`.
fn rustcrypto(data: &[u8]) -> [u8; 20] {
    ::sha1::Sha1::digest(data).into()
}

#[test]
fn large_inputs_in_odd_pieces_equal_rustcrypto() {
    // Piece sizes around the block and pair sizes, cycled through.
    const PIECES: &[usize] = &[
        1,
        63,
        65,
        127,
        129,
        3 * 64 + 1,
        4095,
        5 * 64,
        7,
        64,
        2 * 64,
        1000,
    ];
    for seed in 0..3u64 {
        let data = common::bytes(seed, 200_000 + 977 * seed as usize);
        let want = rustcrypto(&data);
        for imp in rungs("large_inputs_in_odd_pieces_equal_rustcrypto") {
            let mut h = on(imp);
            let mut rest = &data[..];
            for &size in PIECES.iter().cycle().skip(seed as usize) {
                if rest.is_empty() {
                    break;
                }
                let (piece, tail) = rest.split_at(size.min(rest.len()));
                h.update(piece);
                rest = tail;
            }
            assert_eq!(h.finalize(), want, "{imp}: seed {seed}");
        }
    }
}

#[test]
fn odd_block_counts_in_one_update_equal_rustcrypto() {
    let data = common::bytes(11, 7 * 64 + 9);
    for imp in rungs("odd_block_counts_in_one_update_equal_rustcrypto") {
        for blocks in [1, 3, 5, 7] {
            for tail in [0, 9] {
                let msg = &data[..blocks * 64 + tail];
                let mut h = on(imp);
                h.update(msg);
                assert_eq!(
                    h.finalize(),
                    rustcrypto(msg),
                    "{imp}: {blocks} blocks + {tail}"
                );
                // The same blocks after a buffered byte: one block through
                // the buffer, the others in one call.
                let mut h = on(imp);
                h.update(&msg[..1]);
                h.update(&msg[1..]);
                assert_eq!(
                    h.finalize(),
                    rustcrypto(msg),
                    "{imp}: 1 + {blocks} blocks + {tail}"
                );
            }
        }
    }
}
