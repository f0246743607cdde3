//! AES-NI with SSSE3: Camellia byte-sliced, 16 blocks in the 16 xmm
//! registers of a batch, the s-boxes through `aesenclast` between
//! `pshufb` nibble lookups; the rest of a message (fewer than 16 blocks,
//! CTR's partial block) as one zero-padded batch on the stack. The
//! kernels are the shared ones of `sliced.rs`.

use core::arch::x86_64::__m128i;

use super::sliced::AesRound;

/// Blocks per batch: 16 registers of one block's byte.
pub(super) const PAR_BLOCKS: usize = 16;

super::sliced::rung!("aes,ssse3", AesRound, [__m128i], __m128i);

super::x86_one::one_block!("aes,ssse3", AesNiF);
