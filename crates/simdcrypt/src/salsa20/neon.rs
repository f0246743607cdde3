//! NEON (aarch64 Advanced SIMD), 4 blocks vertical: register `i` holds word
//! `i` of 4 consecutive blocks, the doubleround of spec §6 runs on the 16
//! registers lane by lane, and each rotation is a shift left and a shift
//! right and insert (`shl`, `sri`). The final addition of spec §8 is done
//! in registers, the registers are transposed into blocks (`zip1`/`zip2`
//! on 32- then 64-bit elements), and the keystream is XORed from them: the
//! input read and the output written in one pass, by the shared
//! [`crate::vertical`] batch loop.
//!
//! The last 0–3 blocks, too few for a batch, are computed one by one on
//! the fastest single-block rung, so that no block is computed in vain.

use super::vertical::{COUNTER, doubleround};
use super::{SINGLE_BLOCK, xor_blocks};
use crate::Xor;
use crate::simd::rotl_neon;
use crate::vertical::vertical_batches;
use crate::xor::InOut;

vertical_batches! {
    /// Batches of 4 blocks in NEON registers.
    fn xor_batches("neon") on neon, double_round = doubleround, rotl = rotl_neon, counter_word = 8
}

/// XORs the keystream from the block whose state is `input` on into `data`:
/// 4 blocks at a time, then single blocks.
///
/// # Safety
///
/// The CPU must have NEON.
#[target_feature(enable = "neon")]
pub(super) unsafe fn xor_keystream(input: &[u32; 16], double_rounds: usize, data: InOut<'_>) {
    let mut block = COUNTER.get(input);
    let rest = xor_batches(input, COUNTER, &mut block, double_rounds, data);
    let mut state = *input;
    COUNTER.set(&mut state, block);
    // The last 0–3 blocks, one by one on the fastest single-block rung.
    xor_blocks(
        |x| SINGLE_BLOCK.permute(x, double_rounds),
        Xor::Simd128,
        &state,
        rest,
    );
}
