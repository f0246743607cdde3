//! AVX2, 8 blocks vertical in ymm registers (register `i` holds word `i` of
//! 8 consecutive blocks), transposed on output and XORed from the input into
//! the output; `vpshufb` rotates by 16 and 8 bits, shifts and an or by 12
//! and 7.
//!
//! What does not fill 8 blocks (1–7 blocks) takes the horizontal form:
//! pairs of blocks in ymm registers (one block per 128-bit lane), an odd
//! block in xmm registers, all interleaved in one loop; no block is
//! computed in vain. Two pairs beat a 4-block vertical batch in xmm at
//! every count from 4 to 7 (see bench/NOTES.md, section chacha20-avx2-tail).
//!
//! The same 8-block batches with a hook after every double round
//! ([`ChaCha20::xor_whole_batches_8_hooked`]) are the keystream of the
//! stitched AEAD kernel, which runs Poly1305 on the integer units in the
//! hook.

use core::arch::x86_64::__m256i;

use super::horizontal::horizontal;
use super::ssse3::{ROT16_BYTES, rotl_ssse3};
use super::{ChaCha20, Core, NONCE_LEN, double_round, rung_xor_keystream};
use crate::vertical::{Counter, Hook, vertical_batches};
use crate::xor::InOut;

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

vertical_batches! {
    /// Batches of 8 blocks in ymm registers with a hook after every double
    /// round: the stitched AEAD kernel's keystream.
    fn xor_batches_8_hooked("avx2,bmi2") on ymm, double_round = double_round, rotl = rotl_avx2,
        counter_word = 12, hook = hook
}

impl ChaCha20 {
    /// Where RFC 8439's form keeps its block counter: word 12, 32 bits.
    pub(crate) const BLOCK_COUNTER: Counter = Core::<NONCE_LEN>::COUNTER;

    /// The input state at the cipher's position, when that position is at
    /// the start of a block: where a hooked batch starts.
    pub(crate) fn input_at_block_start(&self) -> Option<[u32; 16]> {
        const BLOCK_LEN: u128 = crate::stream::BLOCK_LEN as u128;
        let position = self.position();
        let block = u64::try_from(position / BLOCK_LEN).ok()?;
        position
            .is_multiple_of(BLOCK_LEN)
            .then(|| self.core.at(block))
    }

    /// XORs the keystream blocks from `*block` on of `input` (its counter
    /// word ignored) into the whole 8-block batches of `data` (in place or
    /// from an input into an output) and steps `*block` by 8 a batch,
    /// calling `hook` after every double round (0 to 9): the 8-block batch
    /// of this rung, with work for the integer units (the stitched AEAD
    /// kernel's Poly1305) in the hook. Returns the rest of `data`, shorter
    /// than a batch.
    ///
    /// # Safety
    ///
    /// The CPU must have AVX2 and BMI2.
    #[inline]
    pub(crate) unsafe fn xor_whole_batches_8_hooked<'a>(
        input: &[u32; 16],
        block: &mut u64,
        data: InOut<'a>,
        hook: &mut impl Hook<{ 8 * crate::stream::BLOCK_LEN }>,
    ) -> InOut<'a> {
        // SAFETY: the caller promises AVX2 and BMI2.
        unsafe { xor_batches_8_hooked(input, Self::BLOCK_COUNTER, block, 10, data, hook) }
    }
}
