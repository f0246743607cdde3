//! The MD5 compression function (RFC 1321 §3.4) as a ladder of
//! implementations.
//!
//! **MD5 is broken**: collisions, and chosen-prefix collisions, take
//! seconds on a laptop. It is kept for compatibility and checksums
//! (`md5sum` files, legacy protocols), never for signatures, certificates,
//! or anything an adversary may choose the input of.
//!
//! | rung | CPU | technique |
//! |---|---|---|
//! | `reference` | any | §3.4 literally: F, G, H, I and the four rounds as written |
//! | `scalar` | any | fully unrolled; the boolean functions in the forms with the shortest path from `b`, `X[k] + T[i]` added ahead of it |
//!
//! MD5 is one long chain of dependent steps, so a single message cannot go
//! wider than the scalar rung; many messages at once go through
//! [`crate::hash::md5_many`], one message per SIMD lane.

mod reference;
mod scalar;

use super::md::{self, Family};
use crate::table::{Kind, Primitive, Rungs, rung_infos};
use crate::rung::rungs;

rungs! {
    primitive = "md5";
    /// The implementations of the MD5 compression function, slowest first.
    pub enum Rung {
        /// RFC 1321 §3.4 literally.
        Reference = "reference", needs "nothing", if |_f| true, arch = any;
        /// Fully unrolled, the boolean functions in their cheapest forms.
        Scalar = "scalar", needs "nothing", if |_f| true, arch = any;
    }
}

impl Rung {
    /// The fastest rung this CPU runs.
    pub fn best() -> Rung {
        Rung::Scalar
    }
}

/// The table T of RFC 1321 §3.4: `T[i - 1]` is the RFC's `T[i]`, the
/// integer part of 4294967296 · |sin(i)| (i in radians).
pub(crate) const T: [u32; 64] = [
    0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
    0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
    0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
    0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
    0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
    0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
    0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
    0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
];

/// The left-rotation amounts s of RFC 1321 §3.4: `S[r][j]` is the amount
/// of the `j`-th step (modulo 4) of round `r + 1`.
pub(crate) const S: [[u32; 4]; 4] = [
    [7, 12, 17, 22],
    [5, 9, 14, 20],
    [4, 11, 16, 23],
    [6, 10, 15, 21],
];

/// The chaining value of RFC 1321 §3.3–3.4: the words A, B, C, D.
pub(crate) type State = md::Words<u32, 4>;

/// MD5's initial value (RFC 1321 §3.3: "word A: 01 23 45 67", low-order
/// bytes first).
pub(crate) const IV: State = md::Words([0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476]);

impl Family<64> for State {
    type Rung = Rung;
    const LENGTH_LEN: usize = 8;
    const LITTLE_ENDIAN: bool = true;

    fn best() -> Rung {
        Rung::best()
    }

    fn compress(&mut self, imp: Rung, blocks: &[[u8; 64]]) {
        match imp {
            Rung::Reference => blocks
                .iter()
                .for_each(|b| reference::compress(&mut self.0, b)),
            Rung::Scalar => scalar::compress(&mut self.0, blocks),
        }
    }

    fn write_output(&self, out: &mut [u8]) {
        md::write_le32(&self.0, out);
    }
}

/// The 64 steps of RFC 1321 §3.4 for the rungs that unroll them:
/// `md5_steps!(step!(pre...) [a b c d])` calls
/// `step!(pre... f, a, b, c, d, k, s, i)` for each step, where `f` is `F`,
/// `G`, `H` or `I`, `a`…`d` the caller's working variables in the step's
/// order (`[ABCD ...]`, `[DABC ...]`, …), `k` the message word, `s` the
/// rotation and `i` the index into [`T`] (zero-based), both parenthesised
/// constant expressions.
macro_rules! md5_steps {
    ($step:ident! ($($pre:tt)*) [$a:ident $b:ident $c:ident $d:ident]) => {
        $crate::hash::md5::md5_steps!(@round $step ($($pre)*) [$a $b $c $d] F, 0,
            [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15]);
        $crate::hash::md5::md5_steps!(@round $step ($($pre)*) [$a $b $c $d] G, 1,
            [1 6 11 0 5 10 15 4 9 14 3 8 13 2 7 12]);
        $crate::hash::md5::md5_steps!(@round $step ($($pre)*) [$a $b $c $d] H, 2,
            [5 8 11 14 1 4 7 10 13 0 3 6 9 12 15 2]);
        $crate::hash::md5::md5_steps!(@round $step ($($pre)*) [$a $b $c $d] I, 3,
            [0 7 14 5 12 3 10 1 8 15 6 13 4 11 2 9]);
    };
    (@round $step:ident ($($pre:tt)*) $v:tt $f:ident, $r:literal,
        [$k0:literal $k1:literal $k2:literal $k3:literal $k4:literal $k5:literal $k6:literal $k7:literal
         $k8:literal $k9:literal $k10:literal $k11:literal $k12:literal $k13:literal $k14:literal $k15:literal]) => {
        $crate::hash::md5::md5_steps!(@four $step ($($pre)*) $v $f, $r, 0, [$k0 $k1 $k2 $k3]);
        $crate::hash::md5::md5_steps!(@four $step ($($pre)*) $v $f, $r, 4, [$k4 $k5 $k6 $k7]);
        $crate::hash::md5::md5_steps!(@four $step ($($pre)*) $v $f, $r, 8, [$k8 $k9 $k10 $k11]);
        $crate::hash::md5::md5_steps!(@four $step ($($pre)*) $v $f, $r, 12, [$k12 $k13 $k14 $k15]);
    };
    (@four $step:ident ($($pre:tt)*) [$a:ident $b:ident $c:ident $d:ident] $f:ident, $r:literal, $j:literal,
        [$k0:literal $k1:literal $k2:literal $k3:literal]) => {
        $step!($($pre)* $f, $a, $b, $c, $d, $k0, ($crate::hash::md5::S[$r][0]), (16 * $r + $j));
        $step!($($pre)* $f, $d, $a, $b, $c, $k1, ($crate::hash::md5::S[$r][1]), (16 * $r + $j + 1));
        $step!($($pre)* $f, $c, $d, $a, $b, $k2, ($crate::hash::md5::S[$r][2]), (16 * $r + $j + 2));
        $step!($($pre)* $f, $b, $c, $d, $a, $k3, ($crate::hash::md5::S[$r][3]), (16 * $r + $j + 3));
    };
}
pub(crate) use md5_steps;

/// MD5's entry in the table of ladders.
pub(crate) const LADDER: crate::table::Ladder = crate::table::Ladder {
    name: Rung::PRIMITIVE,
    primitives: &[Primitive::hash(
        "md5",
        Kind::Hash,
        "MD5 (RFC 1321): broken for collision resistance",
        64,
        16,
        crate::table::Construct::Hash(dyn_md5),
    )
    .display("MD5")],
    rungs: Rungs::Own(|| rung_infos(Rung::best(), |_| 1)),
    #[cfg(feature = "kit")]
    checks: crate::hash::checks::md5,
    #[cfg(feature = "kit")]
    fuzz: |input| crate::hash::checks::fuzz(&LADDER, input),
};

crate::dynamic::dyn_hash! {
    super::Md5: Rung => dyn_md5;
}
