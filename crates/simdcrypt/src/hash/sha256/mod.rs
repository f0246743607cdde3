//! The SHA-256 compression function (FIPS 180-4 §6.2.2), which SHA-224
//! shares (§6.3), as a ladder of implementations.
//!
//! | rung | CPU | technique |
//! |---|---|---|
//! | `reference` | any | §6.2.2 literally: the 64-word schedule, then 64 rounds |
//! | `scalar` | any | 64 rounds unrolled, variables renamed, schedule in a 16-word window |
//! | `avx2` | AVX2, BMI1, BMI2 | schedule of 2 blocks in ymm lanes beside the first block's rounds; `rorx`, `andn` |
//! | `shani` | SHA-NI, SSSE3, SSE4.1 | `sha256rnds2`, `sha256msg1`/`msg2`; state as ABEF/CDGH once per call |
//! | `sha2` | aarch64 SHA-256 (FEAT_SHA256) | `sha256h`/`sha256h2`, `sha256su0`/`su1`; state as ABCD/EFGH, the hash value's own order |
//!
//! Every rung is constant-time: no branch or memory index depends on the
//! message or the state.
//!
//! TSC ticks per byte of a one-shot SHA-256 (`with_rung`, `update`,
//! `finalize`) on an AMD EPYC (Zen 3, TSC 2.445 GHz), the best of 30 runs
//! on a machine shared with other builds (a few per cent of noise):
//!
//! | rung | 64 B | 1 KiB | 16 KiB |
//! |---|---:|---:|---:|
//! | `reference` | 22.7 | 10.5 | 9.7 |
//! | `scalar` | 19.2 | 8.5 | 7.7 |
//! | `avx2` | 14.4 | 6.2 | 5.6 |
//! | `shani` | 6.1 | 1.81 | 1.54 |
//!
//! Beside them, `openssl speed -evp sha256` (OpenSSL 3.0) at 16 KiB: 1.5–1.6
//! on its SHA-NI path, 5.8 on its AVX2 path, 8.9 on its scalar one (paths
//! chosen with `OPENSSL_ia32cap`); RustCrypto `sha2` 0.10: 1.53 (SHA-NI),
//! 9.0 (`force-soft`). With SHA-NI a block is one chain of 32 dependent
//! `sha256rnds2` (about 98 ticks), whoever schedules it. At 64 B (two
//! blocks, the message and its padding) about half of the time was the
//! hash's buffering and padding, not the rung; the one-shot `digest` now
//! hands both blocks to the rung in one call (77 ns on Zen 5 against
//! RustCrypto's 79–80: bench/NOTES.md, hash-short-zen5).

#[cfg(target_arch = "aarch64")]
mod armv8;
#[cfg(target_arch = "x86_64")]
mod avx2;
mod reference;
mod scalar;
#[cfg(target_arch = "x86_64")]
mod shani;

use super::md::{self, Family};
use crate::table::{Kind, Primitive, Rungs, rung_infos};
use crate::rung::rungs;

rungs! {
    primitive = "sha256";
    /// The implementations of the SHA-256 compression function, slowest first.
    pub enum Rung {
        /// FIPS 180-4 §6.2.2 literally.
        Reference = "reference", needs "nothing", if |_f| true, arch = any;
        /// Tuned portable code: rounds unrolled with renamed variables.
        Scalar = "scalar", needs "nothing", if |_f| true, arch = any;
        /// The message schedule of two blocks in AVX2, scalar rounds with BMI.
        Avx2 = "avx2", needs "AVX2, BMI1 and BMI2",
            if |f| f.avx2 && f.bmi1 && f.bmi2, arch = "x86_64";
        /// The SHA extensions.
        Shani = "shani", needs "SHA-NI, SSSE3 and SSE4.1",
            if |f| f.sha && f.ssse3 && f.sse41, arch = "x86_64";
        /// The Armv8 SHA-256 instructions.
        Sha2 = "sha2", needs "the SHA-256 instructions (FEAT_SHA256)",
            if |f| f.sha2, arch = "aarch64";
    }
}

impl Rung {
    /// The fastest rung this CPU runs: `shani`, else `avx2`, else
    /// `scalar` (figures in the [module documentation](self)); on aarch64
    /// `sha2`, else `scalar`.
    pub fn best() -> Rung {
        [Rung::Sha2, Rung::Shani, Rung::Avx2]
            .into_iter()
            .find(|i| i.is_available())
            .unwrap_or(Rung::Scalar)
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

/// Σ0 (FIPS 180-4 §4.1.2, (4.4)) as three independent rotations: the
/// shortest path with BMI2's three-operand `rorx`.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn big_sigma0(x: u32) -> u32 {
    x.rotate_right(2) ^ x.rotate_right(13) ^ x.rotate_right(22)
}

/// Σ1 (§4.1.2, (4.5)) as three independent rotations, for `rorx`.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn big_sigma1(x: u32) -> u32 {
    x.rotate_right(6) ^ x.rotate_right(11) ^ x.rotate_right(25)
}

/// Σ0 (§4.1.2, (4.4)) as `((x ⋙ 9 ^ x) ⋙ 11 ^ x) ⋙ 2`: a longer path, but
/// without `rorx` (whose `ror` overwrites its operand) two fewer copies.
#[inline(always)]
fn big_sigma0_nested(x: u32) -> u32 {
    ((x.rotate_right(9) ^ x).rotate_right(11) ^ x).rotate_right(2)
}

/// Σ1 (§4.1.2, (4.5)) as `((x ⋙ 14 ^ x) ⋙ 5 ^ x) ⋙ 6`, for plain `ror`.
#[inline(always)]
fn big_sigma1_nested(x: u32) -> u32 {
    ((x.rotate_right(14) ^ x).rotate_right(5) ^ x).rotate_right(6)
}

/// Ch(x, y, z) (§4.1.2, (4.2)) in three operations: where a bit of `x` is
/// set, `(y ^ z) ^ z = y`, else `z`. With BMI1 the compiler turns it back
/// into `(x & y) | andn(x, z)`, one operation shorter on `x`'s path.
#[inline(always)]
fn ch(x: u32, y: u32, z: u32) -> u32 {
    ((y ^ z) & x) ^ z
}

/// One round of §6.2.2 step 3 on working variables that are renamed
/// instead of shifted: the caller's `d` and `h` are updated in place (`h`
/// becomes the new `a`, `d` the new `e`) and the next round is called with
/// the names rotated right by one.
///
/// `wk` is `K_t + W_t`, added to `h` first, before `e` is known. Maj(a, b,
/// c) (§4.1.2, (4.3)) is `b ^ ((a ^ b) & (b ^ c))`: with the variables
/// renamed, this round's `b ^ c` is the previous round's `a ^ b`, which
/// the compiler sees and reuses.
macro_rules! round {
    ($a:ident $b:ident $c:ident $d:ident $e:ident $f:ident $g:ident $h:ident,
        $s0:ident, $s1:ident, $wk:expr) => {
        $h = $h.wrapping_add($wk);
        $h = $h
            .wrapping_add($crate::hash::sha256::$s1($e))
            .wrapping_add($crate::hash::sha256::ch($e, $f, $g));
        $d = $d.wrapping_add($h);
        $h = $h
            .wrapping_add($crate::hash::sha256::$s0($a))
            .wrapping_add($b ^ (($a ^ $b) & ($b ^ $c)));
    };
}

/// The 64 rounds of §6.2.2 step 3 and the addition of step 4, unrolled,
/// on the state `v` (`[u32; 8]`, `a` to `h`), with Σ0 and Σ1 the functions
/// `s0` and `s1` of this module (the forms for `rorx` or for `ror`).
/// `|t| wk` gives `K_t + W_t` for round `t` (a constant after unrolling);
/// it may also do work that belongs beside that round, such as computing
/// later schedule words.
macro_rules! rounds {
    ($v:ident, $s0:ident, $s1:ident, |$t:ident| $wk:expr) => {{
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = $v;
        $crate::hash::sha256::rounds!(@8 a b c d e f g h, $s0, $s1, 0, |$t| $wk);
        $crate::hash::sha256::rounds!(@8 a b c d e f g h, $s0, $s1, 8, |$t| $wk);
        $crate::hash::sha256::rounds!(@8 a b c d e f g h, $s0, $s1, 16, |$t| $wk);
        $crate::hash::sha256::rounds!(@8 a b c d e f g h, $s0, $s1, 24, |$t| $wk);
        $crate::hash::sha256::rounds!(@8 a b c d e f g h, $s0, $s1, 32, |$t| $wk);
        $crate::hash::sha256::rounds!(@8 a b c d e f g h, $s0, $s1, 40, |$t| $wk);
        $crate::hash::sha256::rounds!(@8 a b c d e f g h, $s0, $s1, 48, |$t| $wk);
        $crate::hash::sha256::rounds!(@8 a b c d e f g h, $s0, $s1, 56, |$t| $wk);
        // Step 4: the intermediate hash value.
        for (x, y) in $v.iter_mut().zip([a, b, c, d, e, f, g, h]) {
            *x = x.wrapping_add(y);
        }
    }};
    (@8 $a:ident $b:ident $c:ident $d:ident $e:ident $f:ident $g:ident $h:ident,
        $s0:ident, $s1:ident, $base:literal, |$t:ident| $wk:expr) => {
        $crate::hash::sha256::round!($a $b $c $d $e $f $g $h, $s0, $s1, { let $t: usize = $base; $wk });
        $crate::hash::sha256::round!($h $a $b $c $d $e $f $g, $s0, $s1, { let $t: usize = $base + 1; $wk });
        $crate::hash::sha256::round!($g $h $a $b $c $d $e $f, $s0, $s1, { let $t: usize = $base + 2; $wk });
        $crate::hash::sha256::round!($f $g $h $a $b $c $d $e, $s0, $s1, { let $t: usize = $base + 3; $wk });
        $crate::hash::sha256::round!($e $f $g $h $a $b $c $d, $s0, $s1, { let $t: usize = $base + 4; $wk });
        $crate::hash::sha256::round!($d $e $f $g $h $a $b $c, $s0, $s1, { let $t: usize = $base + 5; $wk });
        $crate::hash::sha256::round!($c $d $e $f $g $h $a $b, $s0, $s1, { let $t: usize = $base + 6; $wk });
        $crate::hash::sha256::round!($b $c $d $e $f $g $h $a, $s0, $s1, { let $t: usize = $base + 7; $wk });
    };
}
use {round, rounds};

/// The chaining value H of §6.2: eight 32-bit words.
pub(crate) type State = md::Words<u32, 8>;

/// SHA-256's initial hash value (§5.3.3).
pub(crate) const H256: State = md::Words([
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
]);

/// SHA-224's initial hash value (§5.3.2).
pub(crate) const H224: State = md::Words([
    0xc1059ed8, 0x367cd507, 0x3070dd17, 0xf70e5939, 0xffc00b31, 0x68581511, 0x64f98fa7, 0xbefa4fa4,
]);

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
            #[cfg(target_arch = "x86_64")]
            // SAFETY: this rung passed `require()`, so the CPU has AVX2,
            // BMI1 and BMI2.
            Rung::Avx2 => unsafe { avx2::compress(&mut self.0, blocks) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: this rung passed `require()`, so the CPU has SHA-NI,
            // SSSE3 and SSE4.1.
            Rung::Shani => unsafe { shani::compress(&mut self.0, blocks) },
            #[cfg(target_arch = "aarch64")]
            // SAFETY: this rung passed `require()`, so the CPU has the
            // SHA-256 instructions.
            Rung::Sha2 => unsafe { armv8::compress(&mut self.0, blocks) },
            // Scalar, and the other architecture's rungs (never available).
            _ => scalar::compress(&mut self.0, blocks),
        }
    }

    fn write_output(&self, out: &mut [u8]) {
        md::write_be32(&self.0, out);
    }
}

/// SHA-256's entry in the table of ladders: SHA-224 and SHA-256 on the
/// compression function's rungs.
pub(crate) const LADDER: crate::table::Ladder = crate::table::Ladder {
    name: Rung::PRIMITIVE,
    primitives: &[
        Primitive::hash(
            "sha256",
            Kind::Hash,
            "SHA-256 (FIPS 180-4 §6.2)",
            64,
            32,
            crate::table::Construct::Hash(dyn_sha256),
        )
        .display("SHA-256"),
        Primitive::hash(
            "sha224",
            Kind::Hash,
            "SHA-224 (FIPS 180-4 §6.3)",
            64,
            28,
            crate::table::Construct::Hash(dyn_sha224),
        )
        .display("SHA-224"),
    ],
    rungs: Rungs::Own(|| rung_infos(Rung::best(), |_| 1)),
    #[cfg(feature = "kit")]
    checks: crate::hash::checks::sha256,
    #[cfg(feature = "kit")]
    fuzz: |input| crate::hash::checks::fuzz(&LADDER, input),
};

crate::dynamic::dyn_hash! {
    super::Sha256: Rung => dyn_sha256;
    super::Sha224: Rung => dyn_sha224;
}
