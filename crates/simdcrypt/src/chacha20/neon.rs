//! NEON (aarch64 Advanced SIMD), RFC 8439 §2.3 in two forms.
//!
//! - Vertical, 4 blocks a batch: register `i` holds word `i` of 4
//!   consecutive blocks, the double round runs on the 16 registers lane by
//!   lane, and the registers are transposed into blocks (`zip1`/`zip2`)
//!   only for the final XOR, which reads the input and writes the output
//!   in the one pass of the shared [`crate::vertical`] batch loop.
//! - Horizontal, one block in four registers (a row of the 4×4 state
//!   each), so that the column round is one quarter round on whole
//!   registers; `ext` word rotations bring the diagonals into the columns
//!   and back. What does not fill a batch (1–3 blocks) runs so, up to three
//!   blocks as interleaved states (each block's chain of steps is
//!   sequential, so three chains side by side cost little more than one);
//!   so does a one-block call.
//!
//! The rotates: by 16 bits `rev32` on 16-bit elements, by 8 bits a `tbl`
//! byte permute (both one instruction), by 12 and 7 a shift left and a
//! shift right and insert (`shl`, `sri`). A double round of a batch is 112
//! instructions for 4 blocks, with no spill: the 16 state registers and
//! the `tbl` index fit the 32 vector registers with room for temporaries.
//! Two batches in flight (8 blocks) would need 32 registers for the states
//! alone, and spill on every round.

use core::arch::aarch64::{
    uint8x16_t, uint32x4_t, vaddq_u32, veorq_u32, vextq_u32, vld1q_u8, vld1q_u32, vst1q_u32,
};

use super::{double_round, rung_xor_keystream};
use crate::vertical::{Counter, loadu_neon, storeu_neon, vertical_batches, xor_block_fn};

/// One block of the state as four registers, a row of words each.
type Rows = [uint32x4_t; 4];

/// The `tbl` index that rotates each 32-bit lane left by 8 bits: byte `i`
/// of the result is byte `ROT8[i]` of the input (little-endian lanes).
const ROT8: [u8; 16] = [3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14];

/// [`ROT8`] in a register.
#[inline]
#[target_feature(enable = "neon")]
pub(super) fn rot8_index() -> uint8x16_t {
    // SAFETY: `ROT8` is 16 readable bytes.
    unsafe { vld1q_u8(ROT8.as_ptr()) }
}

/// `x <<< n` on each 32-bit lane of a `uint32x4_t`: `rev32` of halfwords
/// for 16, a `tbl` byte permute for 8, otherwise the shared shift and
/// insert ([`crate::simd::rotl_neon`]).
macro_rules! rotl_neon {
    ($x:expr, 16) => {
        ::core::arch::aarch64::vreinterpretq_u32_u16(::core::arch::aarch64::vrev32q_u16(
            ::core::arch::aarch64::vreinterpretq_u16_u32($x),
        ))
    };
    ($x:expr, 8) => {
        ::core::arch::aarch64::vreinterpretq_u32_u8(::core::arch::aarch64::vqtbl1q_u8(
            ::core::arch::aarch64::vreinterpretq_u8_u32($x),
            $crate::chacha20::neon::rot8_index(),
        ))
    };
    ($x:expr, $n:literal) => {
        $crate::simd::rotl_neon!($x, $n)
    };
}

vertical_batches! {
    /// Batches of 4 blocks in NEON registers.
    fn xor_batches_4("neon") on neon, double_round = double_round, rotl = rotl_neon, counter_word = 12
}

rung_xor_keystream! {
    /// XORs the keystream into `data`: 4 blocks at a time vertically, then
    /// 1–3 as interleaved horizontal states.
    "neon" needs "NEON": [xor_batches_4] => xor_tail
}

xor_block_fn!(fn xor_block("neon", uint32x4_t, loadu_neon, storeu_neon, veorq_u32));

/// `inner_block` (RFC 8439 §2.3.1) of `N` states held as rows, interleaved.
#[inline]
#[target_feature(enable = "neon")]
fn double_round_rows<const N: usize>(sets: &mut [Rows; N]) {
    use super::quarter_round;
    for set in sets.iter_mut() {
        let [mut a, mut b, mut c, mut d] = *set;
        // The column round: the lanes of (a, b, c, d) are the four columns.
        quarter_round!(vaddq_u32, veorq_u32, rotl_neon; a, b, c, d);
        // The diagonal round: rows 0, 2 and 3 rotated by 3, 1 and 2 words
        // (`ext` of a register with itself) bring the diagonals into the
        // columns; row 1, the last the column round writes, stays.
        a = vextq_u32::<3>(a, a);
        c = vextq_u32::<1>(c, c);
        d = vextq_u32::<2>(d, d);
        quarter_round!(vaddq_u32, veorq_u32, rotl_neon; a, b, c, d);
        a = vextq_u32::<1>(a, a);
        c = vextq_u32::<3>(c, c);
        d = vextq_u32::<2>(d, d);
        *set = [a, b, c, d];
    }
}

/// The 20 rounds of `N` states held as rows, interleaved; no final addition.
#[inline]
#[target_feature(enable = "neon")]
fn rounds<const N: usize>(rows: [Rows; N]) -> [Rows; N] {
    let mut r = rows;
    for _ in 0..super::DOUBLE_ROUNDS {
        double_round_rows(&mut r);
    }
    r
}

/// Four words as a register.
#[inline]
#[target_feature(enable = "neon")]
fn load_row(words: &[u32; 4]) -> uint32x4_t {
    // SAFETY: `words` is 16 readable bytes.
    unsafe { vld1q_u32(words.as_ptr()) }
}

/// The four rows of a state.
#[inline]
#[target_feature(enable = "neon")]
fn load_rows(x: &[u32; 16]) -> Rows {
    let (rows, _) = x.as_chunks::<4>();
    std::array::from_fn(|i| load_row(&rows[i]))
}

/// The 20 rounds of one block, without the final addition.
#[inline]
#[target_feature(enable = "neon")]
pub(super) fn double_rounds(x: &[u32; 16]) -> [u32; 16] {
    let [rows] = rounds([load_rows(x)]);
    let mut out = [0u32; 16];
    for (o, r) in out.as_chunks_mut::<4>().0.iter_mut().zip(rows) {
        // SAFETY: `o` is 16 writable bytes.
        unsafe { vst1q_u32(o.as_mut_ptr(), r) };
    }
    out
}

/// The rows of blocks `block .. block + S` of `state` (its counter words
/// ignored): row 3 holds the counter in word 12 (and 13 when it is wide),
/// the nonce words after it.
#[inline]
#[target_feature(enable = "neon")]
fn single_rows<const S: usize>(state: &[u32; 16], counter: Counter, block: u64) -> [Rows; S] {
    debug_assert_eq!(counter.word, 12);
    let mut first = *state;
    counter.set(&mut first, block);
    let [r0, r1, r2, _] = load_rows(state);
    std::array::from_fn(|n| {
        let x = counter.plus(&first, n as u64);
        let (rows, _) = x.as_chunks::<4>();
        [r0, r1, r2, load_row(&rows[3])]
    })
}

super::horizontal::horizontal!(@blocks "neon", uint32x4_t, add = vaddq_u32);
super::horizontal::horizontal!(@tail "neon");
