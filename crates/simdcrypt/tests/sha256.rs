//! SHA-256 and SHA-224 (FIPS 180-4 §6.2, §6.3): the API's promises, and
//! every rung against RustCrypto's `sha2` on large inputs and odd block
//! counts. (Every rung on the vectors and against the reference rung is the
//! checking kit's: `tests/kit.rs`.)

mod common;

mod sha256 {
    use simdcrypt::hash::{Sha256, sha256::Rung};

    crate::common::hash::hash_api_tests!(Sha256, Rung);
}

mod sha224 {
    use simdcrypt::hash::{Sha224, sha256::Rung};

    crate::common::hash::hash_api_tests!(Sha224, Rung);
}

/// Every rung against an independent implementation, RustCrypto's `sha2`,
/// on inputs longer than the vectors' and on block counts the two-block
/// AVX2 rung must finish alone.
mod against_sha2 {
    use sha2::Digest;
    use simdcrypt::hash::{Sha224, Sha256, sha256::Rung};

    /// The rungs this CPU runs, saying in the log which were skipped.
    fn rungs(test: &str) -> Vec<Rung> {
        crate::common::rungs(test)
    }

    /// SHA-256 and SHA-224 of `data` on `imp`, fed in pieces of `splits`
    /// bytes (cycled, so at least one must not be 0; the last piece takes
    /// what is left).
    fn both(imp: Rung, data: &[u8], splits: &[usize]) -> ([u8; 32], [u8; 28]) {
        let mut h256 = Sha256::new().with_rung(imp).expect("available rung");
        let mut h224 = Sha224::new().with_rung(imp).expect("available rung");
        let mut rest = data;
        for &n in splits.iter().cycle() {
            if rest.is_empty() {
                break;
            }
            let (piece, tail) = rest.split_at(n.min(rest.len()));
            h256.update(piece);
            h224.update(piece);
            rest = tail;
        }
        (h256.finalize(), h224.finalize())
    }

    #[test]
    fn large_inputs_in_odd_pieces_equal_sha2() {
        // Pieces of odd byte counts and of odd and even block counts, so
        // the rungs see every number of whole blocks from several offsets.
        let splits: &[usize] = &[1, 3 * 64, 61, 64, 5 * 64 + 1, 127, 7 * 64, 4099, 65, 1000];
        for imp in rungs("large_inputs_in_odd_pieces_equal_sha2") {
            for (seed, len) in [(1, 1 << 20), (2, (1 << 20) + 37), (3, 3 * 64 * 1001 + 5)] {
                let data = crate::common::bytes(seed, len);
                let want = (sha2::Sha256::digest(&data), sha2::Sha224::digest(&data));
                let (got256, got224) = both(imp, &data, splits);
                assert_eq!(got256[..], want.0[..], "{imp}: SHA-256 of {len} bytes");
                assert_eq!(got224[..], want.1[..], "{imp}: SHA-224 of {len} bytes");
                let (got256, _) = both(imp, &data, &[len]);
                assert_eq!(
                    got256[..],
                    want.0[..],
                    "{imp}: SHA-256 of {len} bytes at once"
                );
            }
        }
    }

    #[test]
    fn odd_block_counts_in_one_update_equal_sha2() {
        for imp in rungs("odd_block_counts_in_one_update_equal_sha2") {
            for blocks in [1, 3, 5] {
                // `head` bytes wait in the buffer first; the second piece
                // completes that block, then hands `blocks` whole blocks to
                // the rung in one call, then leaves `tail` bytes.
                for (head, tail) in [(0, 0), (0, 9), (1, 0), (63, 55), (32, 63)] {
                    let len = head + (64 - head) % 64 + 64 * blocks + tail;
                    let data = crate::common::bytes((blocks * 100 + head) as u64, len);
                    let want = (sha2::Sha256::digest(&data), sha2::Sha224::digest(&data));
                    let (got256, got224) = both(imp, &data, &[head, len]);
                    let what = format!("{imp}: {blocks} blocks after {head} bytes, {tail} after");
                    assert_eq!(got256[..], want.0[..], "SHA-256, {what}");
                    assert_eq!(got224[..], want.1[..], "SHA-224, {what}");
                }
            }
        }
    }
}
