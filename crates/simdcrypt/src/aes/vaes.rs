//! VAES on ymm with AVX2: two blocks per instruction, 16 blocks in flight
//! (8 registers, round `r` of all before round `r + 1` of any), for ECB,
//! CTR and CBC decryption; then at most one batch of 8 blocks, and the
//! last 0–7 blocks (and CTR's partial block) on `aesni`, which also does
//! the single-block forms and CBC encryption.
//!
//! FIPS 197 §5.1 and §5.3.5 as `vaesenc`/`vaesdec` (Intel's VAES extension
//! applies `aesenc` to each 128-bit lane); the kernels are the shared ones
//! of `x86.rs`.

use core::arch::x86_64::__m256i;

/// Blocks per batch: 8 registers of 2.
pub(super) const PAR_BLOCKS: usize = 16;

super::x86::wide_rung!("vaes,avx2,aes,ssse3", __m256i, hands down to aesni);
