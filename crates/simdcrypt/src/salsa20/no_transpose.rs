//! Scalar, one block, no transpose: the sixteen words live in sixteen
//! variables; each double-round is the column round then the row round,
//! spelled out word by word (spec §5, §4), so nothing is ever moved. The
//! four quarter-rounds of a round go step by step side by side, which
//! keeps the integer ALUs busy with their four independent chains (the
//! core 5–8 % faster than one quarter-round after the other, keystream
//! 3 %, on a shared AMD EPYC Zen 3; scrypt's `scalar-fused` rung 2 %).

/// Four Salsa20 quarter-rounds (spec §3) on disjoint named words, in place,
/// step by step: each of the four steps of every quarter-round before the
/// next step of any, so that the four independent chains sit side by side.
macro_rules! quarterrounds {
    ($($y0:ident $y1:ident $y2:ident $y3:ident),+) => {
        $( $y1 ^= $crate::salsa20::no_transpose::rotl::<7>($y0.wrapping_add($y3)); )+
        $( $y2 ^= $crate::salsa20::no_transpose::rotl::<9>($y1.wrapping_add($y0)); )+
        $( $y3 ^= $crate::salsa20::no_transpose::rotl::<13>($y2.wrapping_add($y1)); )+
        $( $y0 ^= $crate::salsa20::no_transpose::rotl::<18>($y3.wrapping_add($y2)); )+
    };
}

/// `x <<< N` (spec §2), on x86-64 one `rol` the compiler cannot take
/// apart. With AVX-512 enabled where the rounds are compiled (`-C
/// target-cpu=native` on an AVX-512 CPU), LLVM's SLP vectoriser packed
/// some of a round's independent steps into `vprolvd`, moving words
/// between integer and vector registers (`vpinsrd`, `vpextrd`) on the
/// chain: scrypt's `scalar-fused` lane ran at 0.76 of the default build
/// (Zen 5; bench/NOTES.md, scrypt-native). An `asm!` rotation is opaque
/// to it.
#[inline(always)]
pub(crate) fn rotl<const N: u32>(x: u32) -> u32 {
    #[cfg(target_arch = "x86_64")]
    {
        let rotated;
        // SAFETY: one register rotation of a copy of `x`; no memory, no
        // stack.
        unsafe {
            core::arch::asm!(
                "rol {x:e}, {n}",
                x = inout(reg) x => rotated,
                n = const N,
                options(pure, nomem, nostack),
            );
        }
        rotated
    }
    #[cfg(not(target_arch = "x86_64"))]
    x.rotate_left(N)
}
pub(crate) use quarterrounds;

/// One double-round (spec §6) on sixteen named words, in place: the column
/// round (spec §5) then the row round (spec §4), spelled out word by word.
macro_rules! double_round {
    (
        $x0:ident, $x1:ident, $x2:ident, $x3:ident, $x4:ident, $x5:ident, $x6:ident, $x7:ident,
        $x8:ident, $x9:ident, $x10:ident, $x11:ident, $x12:ident, $x13:ident, $x14:ident, $x15:ident
    ) => {
        // columnround
        $crate::salsa20::no_transpose::quarterrounds!(
            $x0 $x4 $x8 $x12, $x5 $x9 $x13 $x1, $x10 $x14 $x2 $x6, $x15 $x3 $x7 $x11
        );
        // rowround
        $crate::salsa20::no_transpose::quarterrounds!(
            $x0 $x1 $x2 $x3, $x5 $x6 $x7 $x4, $x10 $x11 $x8 $x9, $x15 $x12 $x13 $x14
        );
    };
}
pub(crate) use double_round;

/// One double-round like [`double_round!`], but one quarter-round after the
/// other: fewer words live at once, so fewer spills to the stack.
macro_rules! double_round_in_turn {
    (
        $x0:ident, $x1:ident, $x2:ident, $x3:ident, $x4:ident, $x5:ident, $x6:ident, $x7:ident,
        $x8:ident, $x9:ident, $x10:ident, $x11:ident, $x12:ident, $x13:ident, $x14:ident, $x15:ident
    ) => {
        // columnround
        quarterrounds!($x0 $x4 $x8 $x12);
        quarterrounds!($x5 $x9 $x13 $x1);
        quarterrounds!($x10 $x14 $x2 $x6);
        quarterrounds!($x15 $x3 $x7 $x11);
        // rowround
        quarterrounds!($x0 $x1 $x2 $x3);
        quarterrounds!($x5 $x6 $x7 $x4);
        quarterrounds!($x10 $x11 $x8 $x9);
        quarterrounds!($x15 $x12 $x13 $x14);
    };
}

/// `DOUBLE_ROUNDS` double-rounds of the state, without the final addition,
/// one quarter-round after the other.
#[inline(always)]
pub(crate) fn double_rounds_in_turn<const DOUBLE_ROUNDS: usize>(input: &[u32; 16]) -> [u32; 16] {
    let [mut x0, mut x1, mut x2, mut x3, mut x4, mut x5, mut x6, mut x7, mut x8, mut x9, mut x10, mut x11, mut x12, mut x13, mut x14, mut x15] = *input;
    for _ in 0..DOUBLE_ROUNDS {
        double_round_in_turn!(x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15);
    }
    [x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15]
}

/// `double_rounds` double-rounds of the state, without the final addition.
/// Always inlined: a short message's one block (`xor_one_block`) pays for
/// no call and no copy of the state through memory.
#[inline(always)]
pub(crate) fn double_rounds(input: &[u32; 16], double_rounds: usize) -> [u32; 16] {
    let [
        mut x0,
        mut x1,
        mut x2,
        mut x3,
        mut x4,
        mut x5,
        mut x6,
        mut x7,
        mut x8,
        mut x9,
        mut x10,
        mut x11,
        mut x12,
        mut x13,
        mut x14,
        mut x15,
    ] = *input;
    for _ in 0..double_rounds {
        double_round!(
            x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15
        );
    }
    [
        x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15,
    ]
}
