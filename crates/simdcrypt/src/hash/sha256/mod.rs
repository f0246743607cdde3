//! The SHA-256 compression function (FIPS 180-4 §6.2.2), which SHA-224
//! shares (§6.3), as a ladder of implementations.
//!
//! | rung | CPU | technique |
//! |---|---|---|
//! | `reference` | any | §6.2.2 literally: the 64-word schedule, then 64 rounds |

mod reference;

use zeroize::Zeroize;

use super::md::{self, Family};
use crate::rung::rungs;

rungs! {
    primitive = "sha256";
    /// The implementations of the SHA-256 compression function, slowest first.
    pub enum Impl {
        /// FIPS 180-4 §6.2.2 literally.
        Reference = "reference", needs "nothing", if |_f| true, simd = false;
    }
}

impl Impl {
    /// The fastest rung this CPU runs.
    pub fn best() -> Impl {
        Impl::Reference
    }
}

/// The round constants K (FIPS 180-4 §4.2.2): the first 32 bits of the
/// fractional parts of the cube roots of the first 64 primes.
pub(crate) const K: [u32; 64] = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
];

/// The chaining value H of §6.2: eight 32-bit words.
#[derive(Clone, Copy)]
pub(crate) struct State(pub(crate) [u32; 8]);

/// SHA-256's initial hash value (§5.3.3).
pub(crate) const H256: State = State([
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
]);

/// SHA-224's initial hash value (§5.3.2).
pub(crate) const H224: State = State([
    0xc1059ed8, 0x367cd507, 0x3070dd17, 0xf70e5939, 0xffc00b31, 0x68581511, 0x64f98fa7, 0xbefa4fa4,
]);

impl Zeroize for State {
    fn zeroize(&mut self) {
        self.0.zeroize();
    }
}

impl Family<64> for State {
    type Impl = Impl;
    const LENGTH_LEN: usize = 8;
    const LITTLE_ENDIAN: bool = false;

    fn best() -> Impl {
        Impl::best()
    }

    fn compress(&mut self, imp: Impl, blocks: &[[u8; 64]]) {
        match imp {
            Impl::Reference => blocks
                .iter()
                .for_each(|b| reference::compress(&mut self.0, b)),
        }
    }

    fn write_output(&self, out: &mut [u8]) {
        md::write_be32(&self.0, out);
    }
}
