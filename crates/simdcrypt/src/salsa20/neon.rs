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

use core::arch::aarch64::{
    uint32x4_t, vaddq_u32, vcltq_u32, vdupq_n_u32, veorq_u32, vld1q_u8, vld1q_u32,
    vreinterpretq_u8_u32, vreinterpretq_u32_u8, vreinterpretq_u32_u64, vreinterpretq_u64_u32,
    vst1q_u8, vsubq_u32, vzip1q_u32, vzip1q_u64, vzip2q_u32, vzip2q_u64,
};

use super::vertical::{COUNTER, doubleround};
use super::{SINGLE_BLOCK, xor_blocks};
use crate::Xor;
use crate::simd::rotl_neon;
use crate::vertical::vertical_batches;
use crate::xor::InOut;

/// Word `w` in every lane (the batch loop passes the word as an `i32`).
#[inline]
#[target_feature(enable = "neon")]
fn splat(w: i32) -> uint32x4_t {
    vdupq_n_u32(w as u32)
}

/// 16 bytes at `p`, unaligned, as four little-endian words.
///
/// # Safety
///
/// `p` is readable for 16 bytes.
#[inline]
#[target_feature(enable = "neon")]
unsafe fn loadu(p: *const u8) -> uint32x4_t {
    // SAFETY: the caller's promise; `ld1` of bytes needs no alignment.
    vreinterpretq_u32_u8(unsafe { vld1q_u8(p) })
}

/// Stores the four words of `v` little-endian at `p`, unaligned.
///
/// # Safety
///
/// `p` is writable for 16 bytes.
#[inline]
#[target_feature(enable = "neon")]
unsafe fn storeu(p: *mut u8, v: uint32x4_t) {
    // SAFETY: the caller's promise; `st1` of bytes needs no alignment.
    unsafe { vst1q_u8(p, vreinterpretq_u8_u32(v)) }
}

/// Lane counters for 4 blocks from the counter words `(lo, hi)`: `lo + j`
/// in the low word of block `j`, and in the next word `hi`, plus the
/// carry out of `lo + j` when the counter is `wide`.
#[inline]
#[target_feature(enable = "neon")]
fn counters(lo: u32, hi: u32, wide: bool) -> (uint32x4_t, uint32x4_t) {
    const LANE: [u32; 4] = [0, 1, 2, 3];
    // SAFETY: `LANE` is four readable words.
    let lane = unsafe { vld1q_u32(LANE.as_ptr()) };
    let lo = vaddq_u32(vdupq_n_u32(lo), lane);
    let hi = vdupq_n_u32(hi);
    if !wide {
        return (lo, hi);
    }
    // Carried where `lo + j < j` (unsigned): all-ones there, so
    // subtracting adds 1.
    (lo, vsubq_u32(hi, vcltq_u32(lo, lane)))
}

/// 4×4 words four times: from `z[i]` = word `i` of blocks 0–3 to block `j`
/// = four registers of four words, with `zip1`/`zip2` on 32-bit then
/// 64-bit elements.
#[inline]
#[target_feature(enable = "neon")]
fn transpose(z: [uint32x4_t; 16]) -> [[uint32x4_t; 4]; 4] {
    let zip64 = |a: uint32x4_t, b: uint32x4_t, high: bool| {
        let (a, b) = (vreinterpretq_u64_u32(a), vreinterpretq_u64_u32(b));
        vreinterpretq_u32_u64(if high {
            vzip2q_u64(a, b)
        } else {
            vzip1q_u64(a, b)
        })
    };
    // q[g][r]: words 4g..4g+4 of block r.
    let q: [[uint32x4_t; 4]; 4] = std::array::from_fn(|g| {
        let [a, b, c, d] = [z[4 * g], z[4 * g + 1], z[4 * g + 2], z[4 * g + 3]];
        let (ab0, ab1) = (vzip1q_u32(a, b), vzip2q_u32(a, b));
        let (cd0, cd1) = (vzip1q_u32(c, d), vzip2q_u32(c, d));
        [
            zip64(ab0, cd0, false),
            zip64(ab0, cd0, true),
            zip64(ab1, cd1, false),
            zip64(ab1, cd1, true),
        ]
    });
    std::array::from_fn(|r| [q[0][r], q[1][r], q[2][r], q[3][r]])
}

vertical_batches! {
    /// Batches of 4 blocks in NEON registers.
    fn xor_batches("neon"): 4 lanes of uint32x4_t;
    splat = splat,
    add = vaddq_u32,
    xor = veorq_u32,
    double_round = doubleround,
    rotl = rotl_neon,
    loadu = loadu,
    storeu = storeu,
    counters = counters,
    transpose = transpose,
    counter_word = 8,
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
