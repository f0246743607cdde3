//! AVX2, 8 blocks vertical in ymm registers (register `i` holds word `i` of
//! 8 consecutive blocks), transposed on output and XORed straight into the
//! data; `vpshufb` rotates by 16 and 8 bits, shifts and an or by 12 and 7.
//!
//! What does not fill 8 blocks (1–7 blocks) takes the horizontal form:
//! pairs of blocks in ymm registers (one block per 128-bit lane), an odd
//! block in xmm registers, all interleaved in one loop; no block is
//! computed in vain. Measured on an AMD EPYC (Zen 3, TSC 2.445 GHz), TSC
//! ticks per `apply_keystream` call (seek included, no key setup), the
//! best of 40 runs, on a machine shared with other builds:
//!
//! | blocks | 4 vertical in xmm, then 1–3 interleaved xmm | pairs in ymm (+ 1 xmm) |
//! |---:|---:|---:|
//! | 1 | 231 | 231 |
//! | 2 | 306 | 237 |
//! | 3 | 374 | 297 |
//! | 4 | 419 | 317 |
//! | 5 | 658 | 347 |
//! | 6 | 771 | 348 |
//! | 7 | 851 | 511 |
//! | 8 (8 vertical in ymm) | 424 | 424 |
//!
//! A horizontal block's quarter-round steps form one dependent chain (about
//! 14 cycles a round), so up to three chains interleave at little extra
//! cost; from four on the shuffle ports saturate. The cross-over to 8
//! vertical blocks is therefore at 8: 7 blocks as pairs (~510) would lose to
//! an 8-wide batch (~430) only if that batch could compute a block nobody
//! uses, which the rungs never do. The 4-block vertical batch in xmm lost to
//! two pairs at every count from 4 to 7 and is not used here.
//!
//! Tried and dropped: one scalar block beside each 8-block batch (9 blocks
//! per batch, "3×NEON+1×IALU" in OpenSSL's ARM code): 16 KiB took 1.15–1.2×
//! OpenSSL's time instead of 0.93× (register spills: the scalar block needs
//! 16 general registers beside the pointers and counters).

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
