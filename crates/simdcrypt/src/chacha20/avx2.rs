//! AVX2, 8 blocks vertical in ymm registers (register `i` holds word `i` of
//! 8 consecutive blocks), transposed on output and XORed straight into the
//! data; `vpshufb` rotates by 16 and 8 bits, shifts and an or by 12 and 7.
//!
//! What does not fill 8 blocks (1–7 blocks) takes the horizontal form:
//! pairs of blocks in ymm registers (one block per 128-bit lane), an odd
//! block in xmm registers, all interleaved in one loop; no block is
//! computed in vain. Two pairs beat a 4-block vertical batch in xmm at
//! every count from 4 to 7 (see bench/NOTES.md, section chacha20-avx2-tail).

use core::arch::x86_64::__m256i;

use super::horizontal::horizontal;
use super::ssse3::{ROT16_BYTES, rotl_ssse3};
use super::{double_round, rung_xor_keystream};
use crate::vertical::vertical_batches;

/// The `vpshufb` control that rotates each 32-bit lane left by 16 bits,
/// read through a volatile load as [`super::ssse3::ROT16`] is.
pub(super) static ROT16: __m256i =
    // SAFETY: `__m256i` is 32 bytes, and every bit pattern is a valid one.
    unsafe { core::mem::transmute::<[[u8; 16]; 2], __m256i>([ROT16_BYTES; 2]) };

/// `x <<< n` on each 32-bit lane of a ymm register: a byte shuffle
/// (`vpshufb`) for 16 and 8, two shifts and an or otherwise.
macro_rules! rotl_avx2 {
    ($x:expr, 16) => {
        ::core::arch::x86_64::_mm256_shuffle_epi8(
            $x,
            // SAFETY: `ROT16` is a static, valid and aligned for the read.
            unsafe { ::core::ptr::read_volatile(&$crate::chacha20::avx2::ROT16) },
        )
    };
    ($x:expr, 8) => {
        ::core::arch::x86_64::_mm256_shuffle_epi8(
            $x,
            ::core::arch::x86_64::_mm256_setr_epi8(
                3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14, //
                3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14,
            ),
        )
    };
    ($x:expr, $n:literal) => {
        $crate::simd::rotl_ymm!($x, $n)
    };
}

horizontal!("avx2" on xmm, rotl = rotl_ssse3);
horizontal!("avx2" on ymm, rotl = rotl_avx2);

vertical_batches! {
    /// Batches of 8 blocks in ymm registers.
    fn xor_batches_8("avx2") on ymm, double_round = double_round, rotl = rotl_avx2, counter_word = 12
}

rung_xor_keystream! {
    /// XORs the keystream into `data`: 8 blocks at a time vertically, then
    /// 1–7 as interleaved horizontal pairs.
    "avx2" needs "AVX2": [xor_batches_8] => xor_tail_pairs
}

crate::aead::avx2_stitched::hooked_batch! {
    impl for super::ChaCha20, core = |c| c.core,
    counter = crate::vertical::Counter { word: 12, wide: false },
    double_round = double_round, rotl = rotl_avx2, counter_word = 12
}
