//! VAES on ymm with AVX2: Camellia byte-sliced, 32 blocks in the 16 ymm
//! registers of a batch, the s-boxes through `vaesenclast` between
//! `vpshufb` nibble lookups; then at most one xmm batch of 16 (AES-NI) and
//! the rest as one zero-padded xmm batch on the stack. The kernels are the
//! shared ones of `sliced.rs`.

use core::arch::x86_64::{__m128i, __m256i};

use super::sliced::AesRound;

/// Blocks per batch: 16 registers of two blocks' bytes.
pub(super) const PAR_BLOCKS: usize = 32;

super::sliced::rung!("vaes,avx2,aes,ssse3", AesRound, [__m256i, __m128i], __m128i);

/// One block: AES-NI's, on xmm (a wider register holds nothing more of
/// one block).
pub(super) use super::aesni::encrypt_one;
