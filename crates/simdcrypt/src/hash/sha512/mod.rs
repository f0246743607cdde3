//! The SHA-512 compression function (FIPS 180-4 §6.4.2), which SHA-384
//! (§6.5) and SHA-512/256 (§6.7) share, as a ladder of implementations.
//!
//! | rung | CPU | technique | constant-time |
//! |---|---|---|---|
//! | `reference` | any | §6.4.2 literally: the 80-word schedule, then 80 rounds | yes |
//! | `scalar` | any | unrolled rounds on renamed variables, 16-word circular schedule | yes |
//! | `avx2` | AVX2, BMI2 | the schedule of two blocks at once in ymm, interleaved in `asm!` with the first block's `rorx` rounds | yes |
//! | `avx512` | AVX-512F/BW, BMI2 | the schedule of four blocks at once in zmm (`vprorq`, `vpternlogq`) | yes |
//! | `neon` | aarch64 Advanced SIMD | the schedule two words to a register (σ0, σ1 as shifts, `sri`, `tbl`), 16 rounds ahead of the scalar rounds, which read K + W from a buffer | yes |
//! | `sha512` | aarch64 SHA-512 (FEAT_SHA512) | `sha512h`/`sha512h2`, `sha512su0`/`su1`; state as AB/CD/EF/GH, registers renamed each double round | yes |
//!
//! Rough SHA-512 throughput at 16 KiB on an AMD EPYC (Zen 3) shared with
//! other builds, best of 40 runs in one process beside OpenSSL 3.0's
//! `SHA512()`: `reference` 0.36 GB/s, `scalar` 0.51, `avx2` 0.70
//! (0.667 before its steps went into `asm!`), OpenSSL 0.745. The rounds
//! alone (schedule left out, wrong digests) ran at 0.74: the 22 integer
//! operations of a round bound both.

#[cfg(target_arch = "aarch64")]
mod armv8;
#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;
#[cfg(target_arch = "aarch64")]
mod neon;
mod reference;
mod scalar;

use super::md::{self, Family};
use crate::table::{Kind, Primitive, Rungs, rung_infos};
use crate::rung::rungs;

rungs! {
    primitive = "sha512";
    /// The implementations of the SHA-512 compression function, slowest first.
    pub enum Rung {
        /// FIPS 180-4 §6.4.2 literally.
        Reference = "reference", needs "nothing", if |_f| true, arch = any;
        /// Unrolled scalar rounds, the schedule computed as they go.
        Scalar = "scalar", needs "nothing", if |_f| true, arch = any;
        /// The schedule of two blocks at once in AVX2, scalar rounds with
        /// BMI2's `rorx`.
        Avx2 = "avx2", needs "AVX2 and BMI2", if |f| f.avx2 && f.bmi2, arch = "x86_64";
        /// The schedule of four blocks at once in AVX-512, scalar rounds
        /// with BMI2's `rorx`.
        Avx512 = "avx512", needs "AVX-512F, AVX-512BW and BMI2",
            if |f| f.avx512f && f.avx512bw && f.bmi2, arch = "x86_64";
        /// The schedule in Advanced SIMD beside scalar rounds.
        Neon = "neon", needs "Advanced SIMD", if |f| f.neon, arch = "aarch64";
        /// The Armv8.2 SHA-512 instructions (Rust's `sha3` target
        /// feature, `sha512` in `/proc/cpuinfo`).
        Sha512 = "sha512", needs "the SHA-512 instructions (FEAT_SHA512)",
            if |f| f.sha3, arch = "aarch64";
    }
}

impl Rung {
    /// The fastest rung this CPU runs: `avx2`, else `scalar`. `avx512`
    /// (four blocks' schedule at once) is never faster: on Zen 5 `avx2`
    /// leads it at every length (64 B 6.95 against 8.73 TSC ticks a byte,
    /// 16 KiB 2.17 against 2.24: its first block's rounds are the
    /// interleaved `asm!`, and it initialises half the buffer); on Zen 4
    /// they were the same within noise (bench/NOTES.md, hash-short-zen5).
    /// On aarch64: `sha512`, else `scalar`: `neon` takes more
    /// instructions than `scalar` (about 556 against 490 for 16 rounds
    /// with their schedule, from the disassembly), as its vector σ0 and σ1
    /// cost as much as the scalar ones plus a store and a load.
    pub fn best() -> Rung {
        [Rung::Sha512, Rung::Avx2]
            .into_iter()
            .find(|i| i.is_available())
            .unwrap_or(Rung::Scalar)
    }
}

/// The round constants K (FIPS 180-4 §4.2.3): the first 64 bits of the
/// fractional parts of the cube roots of the first 80 primes.
pub(crate) const K512: [u64; 80] = [
    0x428a2f98d728ae22,
    0x7137449123ef65cd,
    0xb5c0fbcfec4d3b2f,
    0xe9b5dba58189dbbc,
    0x3956c25bf348b538,
    0x59f111f1b605d019,
    0x923f82a4af194f9b,
    0xab1c5ed5da6d8118,
    0xd807aa98a3030242,
    0x12835b0145706fbe,
    0x243185be4ee4b28c,
    0x550c7dc3d5ffb4e2,
    0x72be5d74f27b896f,
    0x80deb1fe3b1696b1,
    0x9bdc06a725c71235,
    0xc19bf174cf692694,
    0xe49b69c19ef14ad2,
    0xefbe4786384f25e3,
    0x0fc19dc68b8cd5b5,
    0x240ca1cc77ac9c65,
    0x2de92c6f592b0275,
    0x4a7484aa6ea6e483,
    0x5cb0a9dcbd41fbd4,
    0x76f988da831153b5,
    0x983e5152ee66dfab,
    0xa831c66d2db43210,
    0xb00327c898fb213f,
    0xbf597fc7beef0ee4,
    0xc6e00bf33da88fc2,
    0xd5a79147930aa725,
    0x06ca6351e003826f,
    0x142929670a0e6e70,
    0x27b70a8546d22ffc,
    0x2e1b21385c26c926,
    0x4d2c6dfc5ac42aed,
    0x53380d139d95b3df,
    0x650a73548baf63de,
    0x766a0abb3c77b2a8,
    0x81c2c92e47edaee6,
    0x92722c851482353b,
    0xa2bfe8a14cf10364,
    0xa81a664bbc423001,
    0xc24b8b70d0f89791,
    0xc76c51a30654be30,
    0xd192e819d6ef5218,
    0xd69906245565a910,
    0xf40e35855771202a,
    0x106aa07032bbd1b8,
    0x19a4c116b8d2d0c8,
    0x1e376c085141ab53,
    0x2748774cdf8eeb99,
    0x34b0bcb5e19b48a8,
    0x391c0cb3c5c95a63,
    0x4ed8aa4ae3418acb,
    0x5b9cca4f7763e373,
    0x682e6ff3d6b2b8a3,
    0x748f82ee5defb2fc,
    0x78a5636f43172f60,
    0x84c87814a1f0ab72,
    0x8cc702081a6439ec,
    0x90befffa23631e28,
    0xa4506cebde82bde9,
    0xbef9a3f7b2c67915,
    0xc67178f2e372532b,
    0xca273eceea26619c,
    0xd186b8c721c0c207,
    0xeada7dd6cde0eb1e,
    0xf57d4f7fee6ed178,
    0x06f067aa72176fba,
    0x0a637dc5a2c898a6,
    0x113f9804bef90dae,
    0x1b710b35131c471b,
    0x28db77f523047d84,
    0x32caab7b40c72493,
    0x3c9ebe0a15c9bebc,
    0x431d67c49c100d4c,
    0x4cc5d4becb3e42b6,
    0x597f299cfc657e2a,
    0x5fcb6fab3ad6faec,
    0x6c44198c4a475817,
];

/// The chaining value H of §6.4: eight 64-bit words.
pub(crate) type State = md::Words<u64, 8>;

/// SHA-512's initial hash value (§5.3.5): the first 64 bits of the
/// fractional parts of the square roots of the first 8 primes.
pub(crate) const H512: State = md::Words([
    0x6a09e667f3bcc908,
    0xbb67ae8584caa73b,
    0x3c6ef372fe94f82b,
    0xa54ff53a5f1d36f1,
    0x510e527fade682d1,
    0x9b05688c2b3e6c1f,
    0x1f83d9abfb41bd6b,
    0x5be0cd19137e2179,
]);

/// SHA-384's initial hash value (§5.3.4): from the 9th to the 16th primes.
pub(crate) const H384: State = md::Words([
    0xcbbb9d5dc1059ed8,
    0x629a292a367cd507,
    0x9159015a3070dd17,
    0x152fecd8f70e5939,
    0x67332667ffc00b31,
    0x8eb44a8768581511,
    0xdb0c2e0d64f98fa7,
    0x47b5481dbefa4fa4,
]);

/// SHA-512/256's initial hash value (§5.3.6.2): the SHA-512/t IV
/// generation function (§5.3.6) on "SHA-512/256".
pub(crate) const H512_256: State = md::Words([
    0x22312194fc2bf72c,
    0x9f555fa3c84c64c2,
    0x2393b86b6f53b151,
    0x963877195940eabd,
    0x96283ee2a88effe3,
    0xbe5e1e2553863992,
    0x2b0199fc2c85b8aa,
    0x0eb72ddc81c52ca2,
]);

impl Family<128> for State {
    type Rung = Rung;
    const LENGTH_LEN: usize = 16;
    const LITTLE_ENDIAN: bool = false;

    fn best() -> Rung {
        Rung::best()
    }

    fn compress(&mut self, imp: Rung, blocks: &[[u8; 128]]) {
        match imp {
            Rung::Reference => blocks
                .iter()
                .for_each(|b| reference::compress(&mut self.0, b)),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: this rung passed `require()`, so the CPU has AVX2 and BMI2.
            Rung::Avx2 => unsafe { avx2::compress(&mut self.0, blocks) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: this rung passed `require()`, so the CPU has
            // AVX-512F, AVX-512BW and BMI2.
            Rung::Avx512 => unsafe { avx512::compress(&mut self.0, blocks) },
            #[cfg(target_arch = "aarch64")]
            // SAFETY: this rung passed `require()`, so the CPU has the
            // SHA-512 instructions.
            Rung::Sha512 => unsafe { armv8::compress(&mut self.0, blocks) },
            #[cfg(target_arch = "aarch64")]
            // SAFETY: this rung passed `require()`, so the CPU has
            // Advanced SIMD.
            Rung::Neon => unsafe { neon::compress(&mut self.0, blocks) },
            // The scalar rung, and the other architecture's rungs (never
            // available).
            _ => scalar::compress(&mut self.0, blocks),
        }
    }

    fn write_output(&self, out: &mut [u8]) {
        md::write_be64(&self.0, out);
    }
}

/// SHA-512's entry in the table of ladders: SHA-384, SHA-512 and
/// SHA-512/256 on the compression function's rungs.
pub(crate) const LADDER: crate::table::Ladder = crate::table::Ladder {
    name: Rung::PRIMITIVE,
    primitives: &[
        Primitive::hash(
            "sha512",
            Kind::Hash,
            "SHA-512 (FIPS 180-4 §6.4)",
            128,
            64,
            crate::table::Construct::Hash(dyn_sha512),
        )
        .display("SHA-512"),
        Primitive::hash(
            "sha384",
            Kind::Hash,
            "SHA-384 (FIPS 180-4 §6.5)",
            128,
            48,
            crate::table::Construct::Hash(dyn_sha384),
        )
        .display("SHA-384"),
        Primitive::hash(
            "sha512-256",
            Kind::Hash,
            "SHA-512/256 (FIPS 180-4 §6.7)",
            128,
            32,
            crate::table::Construct::Hash(dyn_sha512_256),
        )
        .display("SHA-512/256"),
    ],
    rungs: Rungs::Own(|| rung_infos(Rung::best(), |_| 1)),
    #[cfg(feature = "kit")]
    checks: crate::hash::checks::sha512,
    #[cfg(feature = "kit")]
    fuzz: |input| crate::hash::checks::fuzz(&LADDER, input),
};

crate::dynamic::dyn_hash! {
    super::Sha512: Rung => dyn_sha512;
    super::Sha384: Rung => dyn_sha384;
    super::Sha512_256: Rung => dyn_sha512_256;
}
