//! AVX-512F/VL, 16 blocks vertical in zmm registers, `vprold` rotates,
//! transposed on output (16×16 words) and XORed from the input into the output.
//!
//! Inputs that do not fill 16 blocks take one 8-block batch in ymm and one
//! 4-block batch in xmm registers (AVX-512VL forms, `vprold` still), and the
//! last 0–3 blocks go to the shared tail (one block scalar, 2 or 3 as
//! interleaved SSE2 states), so no block is computed in vain.

use super::vertical::{COUNTER, doubleround};
use crate::simd::{vprold_xmm, vprold_ymm, vprold_zmm};
use crate::vertical::vertical_batches;

vertical_batches! {
    /// Batches of 16 blocks in zmm registers.
    fn xor_batches_16("avx512f") on zmm, double_round = doubleround, rotl = vprold_zmm, counter_word = 8
}

vertical_batches! {
    /// At most one batch of 8 blocks in ymm registers.
    fn xor_batches_8("avx512f,avx512vl") on ymm, double_round = doubleround, rotl = vprold_ymm, counter_word = 8
}

vertical_batches! {
    /// At most one batch of 4 blocks in xmm registers.
    fn xor_batches_4("avx512f,avx512vl") on xmm, double_round = doubleround, rotl = vprold_xmm, counter_word = 8
}

/// XORs the keystream from the block whose state is `input` on into `data`:
/// 16 blocks at a time, then 8, then 4, then single blocks.
///
/// # Safety
///
/// The CPU must have AVX-512F and AVX-512VL.
#[target_feature(enable = "avx512f,avx512vl")]
pub(super) unsafe fn xor_keystream(
    input: &[u32; 16],
    double_rounds: usize,
    data: crate::xor::InOut<'_>,
) {
    let mut block = COUNTER.get(input);
    let rest = xor_batches_16(input, COUNTER, &mut block, double_rounds, data);
    let rest = xor_batches_8(input, COUNTER, &mut block, double_rounds, rest);
    let rest = xor_batches_4(input, COUNTER, &mut block, double_rounds, rest);
    let mut state = *input;
    COUNTER.set(&mut state, block);
    // The last 0–3 blocks are handed down to the shared tail: one block on
    // the fastest single-block rung, 2 or 3 as interleaved SSE2 states.
    super::xor_tail(&state, double_rounds, rest);
}
