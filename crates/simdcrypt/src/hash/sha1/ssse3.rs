//! SSSE3: the message schedule 4 words at a time in xmm registers
//! (`pshufb` byte swap), W + K through a stack buffer, interleaved with the
//! scalar rounds; see [`super::schedule`].

super::schedule::schedule!(mod xmm, "ssse3", xmm);

/// Hashes the blocks into the hash value `h`.
///
/// # Safety
///
/// The CPU must have SSSE3.
#[target_feature(enable = "ssse3")]
pub(super) unsafe fn compress(h: &mut [u32; 5], blocks: &[[u8; 64]]) {
    xmm::compress(h, blocks);
}
