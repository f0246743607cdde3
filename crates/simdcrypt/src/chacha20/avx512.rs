//! AVX-512F, 16 blocks vertical in zmm registers (register `i` holds word
//! `i` of 16 consecutive blocks), `vprold` rotates, transposed on output
//! (16×16 words) and XORed from the input into the output.
//!
//! What does not fill 16 blocks is handed down to the `avx512vl` forms: at
//! most one batch of 8 in ymm, then 1–7 blocks horizontal.

use super::{double_round, rung_xor_keystream};
use crate::simd::vprold_zmm;
use crate::vertical::vertical_batches;

vertical_batches! {
    /// Batches of 16 blocks in zmm registers.
    fn xor_batches_16("avx512f") on zmm, double_round = double_round, rotl = vprold_zmm, counter_word = 12
}

rung_xor_keystream! {
    /// XORs the keystream into `data`: 16 blocks at a time vertically, then
    /// the `avx512vl` forms: at most one batch of 8, then 1–7 horizontally.
    "avx512f,avx512vl" needs "AVX-512F and AVX-512VL": [
        xor_batches_16,
        super::avx512vl::xor_batches_8
    ] => super::avx512vl::xor_tail_pairs
}
