//! The diagonal layout of one block in four 128-bit registers, shared by
//! the horizontal SIMD forms: Salsa20's `sse2-shuffle` rung and scrypt's
//! Salsa20/8 cores (SSE2, AVX2 and AVX-512 on x86-64, NEON on aarch64).
//!
//! Registers, lane by lane (spec §5's column quarter-rounds run down the lanes):
//!
//! ```text
//! a = (x0,  x5,  x10, x15)    the words each quarter-round starts at
//! b = (x4,  x9,  x14, x3)
//! c = (x8,  x13, x2,  x7)
//! d = (x12, x1,  x6,  x11)
//! ```
//!
//! For the row round (spec §4) the second words are `d` rotated one lane
//! down, the third `c` rotated two, the fourth `b` rotated three: so the row
//! round is the column round with `b` and `d` exchanged.

/// The rotations of a register's lanes by one, two and three, named by
/// their `pshufd` immediates (lane `i` of the result is lane `i + k` of
/// the input): what [`double_round!`]'s `$shuffle` is called with. (NEON
/// rotates with `ext`, whose count scrypt's `neon` rung reads off these.)
pub(crate) const ROT1: i32 = 0b00_11_10_01;
pub(crate) const ROT2: i32 = 0b01_00_11_10;
pub(crate) const ROT3: i32 = 0b10_01_00_11;

/// One double-round (spec §4, §5) of states in the diagonal layout above,
/// on the four registers `a, b, c, d` in place, back in that layout at the
/// end. `$add`, `$xor` and `$shuffle` (a `pshufd`-like function taking
/// the immediate as a const generic) act on each 128-bit lane, `$rotl!`
/// rotates each 32-bit lane: so xmm registers hold one state, and ymm or
/// zmm registers two or four states side by side (scrypt's lanes use
/// this).
macro_rules! double_round {
    ($add:ident, $xor:ident, $rotl:ident, $shuffle:ident; $a:ident, $b:ident, $c:ident, $d:ident) => {
        // Column round: lanes of (a, b, c, d) are the columns' quarter-rounds.
        $crate::salsa20::quarterround!($add, $xor, $rotl; $a, $b, $c, $d);
        // Row round: rotate the rows into place, b and d exchange roles.
        $d = $shuffle::<{ $crate::salsa20::diagonal::ROT1 }>($d);
        $c = $shuffle::<{ $crate::salsa20::diagonal::ROT2 }>($c);
        $b = $shuffle::<{ $crate::salsa20::diagonal::ROT3 }>($b);
        $crate::salsa20::quarterround!($add, $xor, $rotl; $a, $d, $c, $b);
        // Back to the diagonal layout of the column round.
        $d = $shuffle::<{ $crate::salsa20::diagonal::ROT3 }>($d);
        $c = $shuffle::<{ $crate::salsa20::diagonal::ROT2 }>($c);
        $b = $shuffle::<{ $crate::salsa20::diagonal::ROT1 }>($b);
    };
}
pub(crate) use double_round;
