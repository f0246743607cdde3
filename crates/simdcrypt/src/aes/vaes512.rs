//! VAES on zmm with AVX-512F (and AVX-512BW for the counter blocks' byte
//! swap): four blocks per instruction, 32 blocks in flight (8 registers,
//! round `r` of all before round `r + 1` of any), for ECB, CTR and CBC
//! decryption; then at most one batch of 16 blocks, and the rest on
//! `vaes` (ymm), which ends on `aesni`.
//!
//! FIPS 197 §5.1 and §5.3.5 as `vaesenc`/`vaesdec` on each 128-bit lane;
//! the kernels are the shared ones of `x86.rs`.

use core::arch::x86_64::__m512i;

/// Blocks per batch: 8 registers of 4.
pub(super) const PAR_BLOCKS: usize = 32;

super::x86::wide_rung!("vaes,avx512f,avx512bw,avx2,aes,ssse3", __m512i, hands down to vaes);
