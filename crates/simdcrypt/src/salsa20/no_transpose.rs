//! Scalar, one block, no transpose: the sixteen words live in sixteen
//! variables; each double-round is the column round then the row round,
//! spelled out word by word (spec §5, §4), so nothing is ever moved.

/// One Salsa20 quarter-round on four named words (spec §3), in place.
macro_rules! quarterround {
    ($y0:ident, $y1:ident, $y2:ident, $y3:ident) => {
        $y1 ^= $y0.wrapping_add($y3).rotate_left(7);
        $y2 ^= $y1.wrapping_add($y0).rotate_left(9);
        $y3 ^= $y2.wrapping_add($y1).rotate_left(13);
        $y0 ^= $y3.wrapping_add($y2).rotate_left(18);
    };
}
pub(crate) use quarterround;

/// One double-round (spec §6) on sixteen named words, in place: the column
/// round then the row round, spelled out word by word.
macro_rules! double_round {
    (
        $x0:ident, $x1:ident, $x2:ident, $x3:ident, $x4:ident, $x5:ident, $x6:ident, $x7:ident,
        $x8:ident, $x9:ident, $x10:ident, $x11:ident, $x12:ident, $x13:ident, $x14:ident, $x15:ident
    ) => {
        // columnround
        $crate::salsa20::no_transpose::quarterround!($x0, $x4, $x8, $x12);
        $crate::salsa20::no_transpose::quarterround!($x5, $x9, $x13, $x1);
        $crate::salsa20::no_transpose::quarterround!($x10, $x14, $x2, $x6);
        $crate::salsa20::no_transpose::quarterround!($x15, $x3, $x7, $x11);
        // rowround
        $crate::salsa20::no_transpose::quarterround!($x0, $x1, $x2, $x3);
        $crate::salsa20::no_transpose::quarterround!($x5, $x6, $x7, $x4);
        $crate::salsa20::no_transpose::quarterround!($x10, $x11, $x8, $x9);
        $crate::salsa20::no_transpose::quarterround!($x15, $x12, $x13, $x14);
    };
}
pub(crate) use double_round;

/// `double_rounds` double-rounds of the state, without the final addition.
#[inline]
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
