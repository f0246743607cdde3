//! SSSE3, 4 blocks vertical in xmm registers (register `i` holds word `i`
//! of 4 consecutive blocks), transposed on output; `pshufb` byte shuffles
//! rotate by 16 and 8 bits, shifts and an or by 12 and 7.
//!
//! What does not fill 4 blocks is handed down to the horizontal form with
//! the same rotates: 1–3 blocks as interleaved one-block states.

use core::arch::x86_64::__m128i;

use super::horizontal::horizontal;
use super::{double_round, rung_xor_keystream};
use crate::vertical::vertical_batches;

/// The `pshufb` control that rotates each 32-bit lane left by 16 bits.
///
/// Read through a volatile load (off the critical path: its address is
/// known): seeing a constant, LLVM turns this byte shuffle into `pshuflw` +
/// `pshufhw`, two dependent instructions for one. Measured on Zen 3: one
/// horizontal block 250 → 235 TSC ticks, 16 KiB with `avx2` from 1.07× to
/// 1.00× OpenSSL's time.
pub(super) static ROT16: __m128i =
    // SAFETY: `__m128i` is 16 bytes, and every bit pattern is a valid one.
    unsafe { core::mem::transmute::<[u8; 16], __m128i>(ROT16_BYTES) };

/// Byte `i` of the rotated lane is byte `ROT16_BYTES[i]` of the input.
pub(super) const ROT16_BYTES: [u8; 16] = [2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13];

/// `x <<< n` on each 32-bit lane of an xmm register: a byte shuffle
/// (`pshufb`) for 16 and 8, two shifts and an or otherwise.
macro_rules! rotl_ssse3 {
    ($x:expr, 16) => {
        ::core::arch::x86_64::_mm_shuffle_epi8(
            $x,
            // SAFETY: `ROT16` is a static, valid and aligned for the read.
            unsafe { ::core::ptr::read_volatile(&$crate::chacha20::ssse3::ROT16) },
        )
    };
    ($x:expr, 8) => {
        ::core::arch::x86_64::_mm_shuffle_epi8(
            $x,
            ::core::arch::x86_64::_mm_setr_epi8(
                3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14,
            ),
        )
    };
    ($x:expr, $n:literal) => {
        $crate::simd::rotl_sse2!($x, $n)
    };
}
pub(super) use rotl_ssse3;

horizontal!("ssse3" on xmm with tail, rotl = rotl_ssse3);

vertical_batches! {
    /// Batches of 4 blocks in xmm registers.
    fn xor_batches_4("ssse3") on xmm, double_round = double_round, rotl = rotl_ssse3, counter_word = 12
}

rung_xor_keystream! {
    /// XORs the keystream into `data`: 4 blocks at a time vertically, then
    /// 1–3 as interleaved horizontal states.
    "ssse3" needs "SSSE3": [xor_batches_4] => xor_tail
}
