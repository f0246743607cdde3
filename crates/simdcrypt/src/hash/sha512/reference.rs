//! SHA-512's compression function as FIPS 180-4 §6.4.2 writes it: prepare
//! the 80-word message schedule W, initialise the eight working variables,
//! 80 rounds, then add them into the hash value (the algorithm, shared with
//! SHA-256, in [`crate::hash::sha2_reference`]).

use super::K512;

crate::hash::sha2_reference::compression! {
    /// Hashes one 1024-bit block `M(i)` into the hash value `h` (§6.4.2).
    word: u64, block: 128, rounds: 80, k: K512,
    big_sigma0: (28, 34, 39),
    big_sigma1: (14, 18, 41),
    small_sigma0: (1, 8, 7),
    small_sigma1: (19, 61, 6),
}
