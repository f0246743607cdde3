//! GFNI on zmm with AVX-512F, AVX-512BW and AVX-512VL: Camellia byte-sliced, 64
//! blocks in the 16 zmm registers of a batch, each s-box two instructions
//! (`vgf2p8affineqb` into AES's field, `vgf2p8affineinvqb` inverting and
//! mapping back); then at most one batch each of 32 (ymm) and 16 (xmm),
//! GFNI too, and the rest as one zero-padded xmm batch on the stack. The
//! kernels are the shared ones of `sliced.rs`, the s-boxes `x86.rs`'s.

use core::arch::x86_64::{__m128i, __m256i, __m512i};

use super::x86::Gfni;

/// Blocks per batch: 16 registers of four blocks' bytes.
pub(super) const PAR_BLOCKS: usize = 64;

super::sliced::rung!(
    "gfni,avx512f,avx512bw,avx512vl,avx2,ssse3",
    Gfni,
    [__m512i, __m256i, __m128i],
    __m128i
);

super::x86_one::one_block!("gfni,avx512f,avx512bw,avx512vl,avx2,ssse3", GfniF);
