//! The SHA-1 compression function (FIPS 180-4 §6.1.2) as a ladder of
//! implementations.
//!
//! **SHA-1 is broken for collision resistance**: SHAttered (Stevens et al.,
//! 2017) produced two different PDF files with the same SHA-1, and
//! Leurent–Peyrin (2020) a chosen-prefix collision, cheap enough to forge
//! PGP keys. It is here for compatibility and checksums (`sha1sum`, old
//! protocols, HMAC-SHA-1), never for signatures, certificates or anything an
//! adversary may choose the input of.
//!
//! | rung | CPU | technique |
//! |---|---|---|
//! | `reference` | any | §6.1.2 literally: the 80-word schedule, then 80 rounds |
//! | `scalar` | any | unrolled rounds, variables renamed instead of moved, a 16-word circular schedule, cheapest Boolean functions |
//! | `ssse3` | SSSE3 | the schedule 4 words at a time in xmm (`pshufb` byte swap), W + K through a stack buffer, interleaved with the scalar rounds |
//! | `avx2` | AVX2, BMI2 | the same schedule for 2 blocks at once, one per 128-bit lane of ymm |
//! | `shani` | SHA-NI, SSSE3 | `sha1rnds4`, `sha1nexte`, `sha1msg1`, `sha1msg2` |
//! | `sha2` | aarch64 SHA-1 (FEAT_SHA1, with FEAT_SHA256) | `sha1c`/`sha1p`/`sha1m`, `sha1h`, `sha1su0`/`su1`; A–D in a vector register, E in a scalar |
//!
//! Every rung is constant-time: no branch or memory index depends on the
//! message or the state.

mod reference;
mod scalar;

#[cfg(target_arch = "aarch64")]
mod armv8;
#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod schedule;
#[cfg(target_arch = "x86_64")]
mod shani;
#[cfg(target_arch = "x86_64")]
mod ssse3;

use super::md::{self, Family};
use crate::table::{Kind, Primitive, Rungs, rung_infos};
use crate::rung::rungs;

rungs! {
    primitive = "sha1";
    /// The implementations of the SHA-1 compression function, slowest first.
    pub enum Rung {
        /// FIPS 180-4 §6.1.2 literally.
        Reference = "reference", needs "nothing", if |_f| true, arch = any;
        /// Unrolled rounds with renamed variables and a 16-word schedule.
        Scalar = "scalar", needs "nothing", if |_f| true, arch = any;
        /// The message schedule in SSSE3, interleaved with scalar rounds.
        Ssse3 = "ssse3", needs "SSSE3", if |f| f.ssse3, arch = "x86_64";
        /// The message schedule of two blocks at once in AVX2.
        Avx2 = "avx2", needs "AVX2 and BMI2", if |f| f.avx2 && f.bmi2, arch = "x86_64";
        /// The SHA extensions.
        Shani = "shani", needs "SHA-NI and SSSE3", if |f| f.sha && f.ssse3, arch = "x86_64";
        /// The Armv8 SHA-1 instructions, which come with the SHA-256 ones
        /// (Rust's `sha2` target feature, `sha1` and `sha2` in
        /// `/proc/cpuinfo`).
        Sha2 = "sha2", needs "the SHA-1 and SHA-256 instructions (FEAT_SHA1, FEAT_SHA256)",
            if |f| f.sha2, arch = "aarch64";
    }
}

impl Rung {
    /// The fastest rung this CPU runs: `shani`, else `avx2`, else `ssse3`,
    /// else `scalar`; on aarch64 `sha2`, else `scalar`.
    ///
    /// Measured on an AMD EPYC (Zen 3, TSC 2.445 GHz), TSC ticks per
    /// `new` + `update` + `finalize`, the best of 200 runs, on a machine
    /// shared with other builds (figures moved by up to ~10% between runs;
    /// RustCrypto's `sha1` 0.10 and OpenSSL's low-level calls, both
    /// SHA-NI, alongside):
    ///
    /// | rung | 64 B | 1 KiB | 16 KiB | ticks/byte at 16 KiB |
    /// |---|---:|---:|---:|---:|
    /// | `reference` | 1250 | 9600 | 141700 | 8.65 |
    /// | `scalar` | 613 | 3725 | 52040 | 3.18 |
    /// | `ssse3` | 539 | 2916 | 40030 | 2.44 |
    /// | `avx2` | 515 | 2793 | 39520 | 2.41 |
    /// | `shani` | 368 | 1740 | 23620 | 1.44 |
    /// | RustCrypto `sha1` | 245 | 1617 | 23520 | 1.44 |
    /// | OpenSSL 3.0 `SHA1_Init/Update/Final` (C) | 245 | 1617 | 23470 | 1.43 |
    ///
    /// `shani` runs at the latency of its `sha1rnds4` chain (20 a block),
    /// as RustCrypto's and OpenSSL's SHA-NI code do; the peers' lead at
    /// 64 B and 1 KiB is spent around the compression, in the buffering
    /// engine (`md.rs`: byte-wise zeroizing, padding), not in the rung.
    /// The `ssse3` and `avx2` rungs are bound by the scalar rounds' ALU
    /// work, so carrying two blocks' schedule in ymm gains little over one
    /// in xmm.
    pub fn best() -> Rung {
        [Rung::Sha2, Rung::Shani, Rung::Avx2, Rung::Ssse3]
            .into_iter()
            .find(|i| i.is_available())
            .unwrap_or(Rung::Scalar)
    }
}

/// The constants K_t (FIPS 180-4 §4.2.1): `K[t / 20]` for rounds
/// 0–19, 20–39, 40–59 and 60–79.
pub(crate) const K: [u32; 4] = [0x5a827999, 0x6ed9eba1, 0x8f1bbcdc, 0xca62c1d6];

/// The chaining value H of §6.1: five 32-bit words.
pub(crate) type State = md::Words<u32, 5>;

/// SHA-1's initial hash value H(0) (§5.3.1).
pub(crate) const H0: State =
    md::Words([0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0]);

impl Family<64> for State {
    type Rung = Rung;
    const LENGTH_LEN: usize = 8;
    const LITTLE_ENDIAN: bool = false;

    fn best() -> Rung {
        Rung::best()
    }

    fn compress(&mut self, imp: Rung, blocks: &[[u8; 64]]) {
        match imp {
            Rung::Reference => blocks
                .iter()
                .for_each(|b| reference::compress(&mut self.0, b)),
            Rung::Scalar => scalar::compress(&mut self.0, blocks),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: this rung passed `require()`, so the CPU has SSSE3.
            Rung::Ssse3 => unsafe { ssse3::compress(&mut self.0, blocks) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: this rung passed `require()`, so the CPU has AVX2 and
            // BMI2.
            Rung::Avx2 => unsafe { avx2::compress(&mut self.0, blocks) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: this rung passed `require()`, so the CPU has SHA-NI
            // and SSSE3.
            Rung::Shani => unsafe { shani::compress(&mut self.0, blocks) },
            #[cfg(target_arch = "aarch64")]
            // SAFETY: this rung passed `require()`, so the CPU has the
            // SHA-1 and SHA-256 instructions.
            Rung::Sha2 => unsafe { armv8::compress(&mut self.0, blocks) },
            // The other architecture's rungs, never available.
            _ => scalar::compress(&mut self.0, blocks),
        }
    }

    fn write_output(&self, out: &mut [u8]) {
        md::write_be32(&self.0, out);
    }
}

/// SHA-1's entry in the table of ladders.
pub(crate) const LADDER: crate::table::Ladder = crate::table::Ladder {
    name: Rung::PRIMITIVE,
    primitives: &[Primitive::hash(
        "sha1",
        Kind::Hash,
        "SHA-1 (FIPS 180-4 §6.1): broken for collision resistance",
        64,
        20,
        crate::table::Construct::Hash(dyn_sha1),
    )
    .display("SHA-1")],
    rungs: Rungs::Own(|| rung_infos(Rung::best(), |_| 1)),
    #[cfg(feature = "kit")]
    checks: crate::hash::checks::sha1,
    #[cfg(feature = "kit")]
    fuzz: |input| crate::hash::checks::fuzz(&LADDER, input),
};

crate::dynamic::dyn_hash! {
    super::Sha1: Rung => dyn_sha1;
}
