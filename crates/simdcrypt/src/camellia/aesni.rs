//! AES-NI with SSSE3: Camellia byte-sliced, 16 blocks in the 16 xmm
//! registers of a batch, the s-boxes through `aesenclast` between
//! `pshufb` nibble lookups; the rest of a message (fewer than 16 blocks,
//! CTR's partial block) as one zero-padded batch on the stack. The
//! kernels are the shared ones of `x86.rs`.

/// Blocks per batch: 16 registers of one block's byte.
pub(super) const PAR_BLOCKS: usize = 16;

super::x86::rung!("aes,ssse3", AesNi, [__m128i]);

super::x86_one::one_block!("aes,ssse3", AesNiF);
