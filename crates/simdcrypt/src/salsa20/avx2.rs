//! AVX2, 8 blocks vertical, transposed on output: register `i` holds word `i`
//! of 8 consecutive blocks, rotates are shift/shift/or, and the keystream is
//! XORed from the registers, the input read and the output written in one
//! pass.
//!
//! Inputs that do not fill 8 blocks take one 4-block batch in xmm registers
//! (VEX-encoded, the same shift/or rotates), and the last 0–3 blocks go to
//! the shared tail (one block scalar, 2 or 3 as interleaved SSE2 states), so
//! no block is computed in vain.

use super::vertical::{COUNTER, doubleround};
use crate::simd::{rotl_sse2, rotl_ymm};
use crate::vertical::vertical_batches;

vertical_batches! {
    /// Batches of 8 blocks in ymm registers.
    fn xor_batches_8("avx2") on ymm, double_round = doubleround, rotl = rotl_ymm, counter_word = 8
}

vertical_batches! {
    /// At most one batch of 4 blocks in xmm registers.
    fn xor_batches_4("avx2") on xmm, double_round = doubleround, rotl = rotl_sse2, counter_word = 8
}

/// XORs the keystream from the block whose state is `input` on into `data`:
/// 8 blocks at a time, then 4, then single blocks.
///
/// # Safety
///
/// The CPU must have AVX2.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn xor_keystream(
    input: &[u32; 16],
    double_rounds: usize,
    data: crate::xor::InOut<'_>,
) {
    let mut block = COUNTER.get(input);
    let rest = xor_batches_8(input, COUNTER, &mut block, double_rounds, data);
    let rest = xor_batches_4(input, COUNTER, &mut block, double_rounds, rest);
    let mut state = *input;
    COUNTER.set(&mut state, block);
    // The last 0–3 blocks are handed down to the shared tail: one block on
    // the fastest single-block rung, 2 or 3 as interleaved SSE2 states.
    super::xor_tail(&state, double_rounds, rest);
}
