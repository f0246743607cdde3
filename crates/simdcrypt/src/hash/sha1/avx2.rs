//! AVX2 (and BMI2's `rorx` in the rounds): the message schedule of two
//! blocks at once, one per 128-bit lane of ymm registers, computed during
//! the first block's rounds; the second block's rounds read its W + K
//! ready-made. An odd last block takes the one-block form in xmm registers
//! (VEX-encoded, with the same features); see [`super::schedule`].

super::schedule::schedule!(mod ymm, "avx2,bmi2", ymm);
super::schedule::schedule!(mod xmm, "avx2,bmi2", xmm);

/// Hashes the blocks into the hash value `h`: pairs, then an odd block.
///
/// # Safety
///
/// The CPU must have AVX2 and BMI2.
#[target_feature(enable = "avx2,bmi2")]
pub(super) unsafe fn compress(h: &mut [u32; 5], blocks: &[[u8; 64]]) {
    let (pairs, odd) = blocks.as_chunks::<2>();
    ymm::compress_pairs(h, pairs);
    xmm::compress(h, odd);
}
