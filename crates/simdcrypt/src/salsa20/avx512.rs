//! PLACEHOLDER while the vertical rung is written: single blocks.

/// # Safety
/// None needed yet.
pub(super) unsafe fn xor_keystream(input: &[u32; 16], double_rounds: usize, data: &mut [u8]) {
    super::xor_blocks(
        // SAFETY: placeholder.
        |x| unsafe { super::sse2_shuffle::double_rounds(x, double_rounds) },
        crate::Xor::Simd128,
        input,
        data,
    )
}
