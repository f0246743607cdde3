//! AVX-512F/VL on 256- and 128-bit registers: 8 blocks vertical in ymm
//! registers, then one batch of 4 in xmm, every rotate one `vprold`; the
//! last 1–3 blocks take the horizontal form (a pair in ymm, an odd block in
//! xmm, interleaved), `vprold` too. These are also the `avx512` rung's forms
//! for what does not fill 16 blocks.
//!
//! Not measured (no AVX-512 hardware here; checked for correctness under
//! emulation): on AVX2 two horizontal pairs beat the 4-block vertical batch
//! (see `super::avx2`), which may hold here too.

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

vertical_batches! {
    /// At most one batch of 4 blocks in xmm registers.
    fn xor_batches_4("avx512f,avx512vl") on xmm, double_round = double_round, rotl = vprold_xmm, counter_word = 12
}

rung_xor_keystream! {
    /// XORs the keystream into `data`: 8 blocks at a time vertically, then
    /// 4, then 1–3 horizontally.
    "avx512f,avx512vl" needs "AVX-512F and AVX-512VL": [xor_batches_8, xor_batches_4] => xor_tail_pairs
}
