//! SHA-256's compression function as FIPS 180-4 §6.2.2 writes it: prepare
//! the 64-word message schedule W, initialise the eight working variables,
//! 64 rounds, then add them into the hash value (the algorithm, shared with
//! SHA-512, in [`crate::hash::sha2_reference`]).

use super::K;

crate::hash::sha2_reference::compression! {
    /// Hashes one 512-bit block `M(i)` into the hash value `h` (§6.2.2).
    word: u32, block: 64, rounds: 64, k: K,
    big_sigma0: (2, 13, 22),
    big_sigma1: (6, 11, 25),
    small_sigma0: (7, 18, 3),
    small_sigma1: (17, 19, 10),
}
