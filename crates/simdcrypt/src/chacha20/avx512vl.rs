//! AVX-512F/VL on 256- and 128-bit registers: 8 blocks vertical in ymm
//! registers, every rotate one `vprold`; the last 1–7 blocks take the
//! horizontal form (pairs in ymm, an odd block in xmm, interleaved),
//! `vprold` too. These are also the `avx512` rung's forms for what does not
//! fill 16 blocks.
//!
//! As on AVX2 (see `super::avx2`), the horizontal pairs beat a 4-block
//! vertical batch in xmm, which this rung had: 4 to 7 blocks went through
//! the batch and then the rest through the pairs, two latency chains one
//! after the other. Measured on Zen 4 (bench/NOTES.md, section
//! chacha20-avx512vl-no-batch-4).

use super::horizontal::horizontal;
use super::{double_round, rung_xor_keystream};
use crate::simd::{vprold_xmm, vprold_ymm};
use crate::vertical::vertical_batches;

horizontal!("avx512f,avx512vl" on xmm, rotl = vprold_xmm);
horizontal!("avx512f,avx512vl" on ymm, rotl = vprold_ymm);

vertical_batches! {
    /// Batches of 8 blocks in ymm registers.
    fn xor_batches_8("avx512f,avx512vl") on ymm, double_round = double_round, rotl = vprold_ymm, counter_word = 12
}

rung_xor_keystream! {
    /// XORs the keystream into `data`: 8 blocks at a time vertically, then
    /// 1–7 horizontally.
    "avx512f,avx512vl" needs "AVX-512F and AVX-512VL": [xor_batches_8] => xor_tail_pairs
}
