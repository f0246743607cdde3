//! The registers of the Camellia rungs on x86-64 (`aesni`, `vaes`,
//! `gfni`) for the byte-sliced kernels of `sliced.rs` (Kivilinna's): xmm,
//! ymm and zmm as [`Slice`]s of 16, 32 and 64 blocks a batch, and the
//! s-boxes through GFNI ([`Gfni`]): each the two instructions
//! `vgf2p8affineqb` (the input map, [`A`] or SBOX4's) and
//! `vgf2p8affineinvqb` (inversion in AES's field, then the output map).
//! `aesni` and `vaes` take the s-boxes of `sliced.rs` through
//! `aesenclast`/`aesdeclast` ([`AesRound`](super::sliced::AesRound)).
//! Everything here is `#[inline(always)]` and `unsafe`: it is compiled
//! inside the rung's `#[target_feature]` function, whose features the
//! caller of each function promises.

use core::arch::x86_64::{
    __m128i, __m256i, __m512i, _mm_add_epi8, _mm_add_epi64, _mm_aesdeclast_si128,
    _mm_aesenclast_si128, _mm_and_si128, _mm_cmpgt_epi8, _mm_gf2p8affine_epi64_epi8,
    _mm_gf2p8affineinv_epi64_epi8, _mm_loadu_si128, _mm_or_si128, _mm_set_epi64x, _mm_set1_epi32,
    _mm_set1_epi64x, _mm_setzero_si128, _mm_shuffle_epi8, _mm_srli_epi16, _mm_storeu_si128,
    _mm_sub_epi8, _mm_unpackhi_epi32, _mm_unpackhi_epi64, _mm_unpacklo_epi32, _mm_unpacklo_epi64,
    _mm_xor_si128, _mm256_add_epi8, _mm256_add_epi64, _mm256_aesdeclast_epi128,
    _mm256_aesenclast_epi128, _mm256_and_si256, _mm256_broadcastsi128_si256, _mm256_cmpgt_epi8,
    _mm256_extracti128_si256, _mm256_gf2p8affine_epi64_epi8, _mm256_gf2p8affineinv_epi64_epi8,
    _mm256_loadu_si256, _mm256_or_si256, _mm256_permute2x128_si256, _mm256_set_epi64x,
    _mm256_set1_epi32, _mm256_set1_epi64x, _mm256_setzero_si256, _mm256_shuffle_epi8,
    _mm256_srli_epi16, _mm256_storeu_si256, _mm256_sub_epi8, _mm256_unpackhi_epi32,
    _mm256_unpackhi_epi64, _mm256_unpacklo_epi32, _mm256_unpacklo_epi64, _mm256_xor_si256,
    _mm512_add_epi8, _mm512_add_epi64, _mm512_aesdeclast_epi128, _mm512_aesenclast_epi128,
    _mm512_alignr_epi64, _mm512_and_si512, _mm512_broadcast_i32x4, _mm512_cmpgt_epi8_mask,
    _mm512_extracti32x4_epi32, _mm512_gf2p8affine_epi64_epi8, _mm512_gf2p8affineinv_epi64_epi8,
    _mm512_loadu_si512, _mm512_movm_epi8, _mm512_or_si512, _mm512_set_epi64, _mm512_set1_epi32,
    _mm512_set1_epi64, _mm512_setzero_si512, _mm512_shuffle_epi8, _mm512_srli_epi16,
    _mm512_storeu_si512, _mm512_sub_epi8, _mm512_unpackhi_epi32, _mm512_unpackhi_epi64,
    _mm512_unpacklo_epi32, _mm512_unpacklo_epi64, _mm512_xor_si512,
};

use super::sliced::{A, Linear, SBoxes, Slice, input_map, output_map};

impl Linear {
    /// The inverse of the map, which must be invertible: the preimage of
    /// each bit, found among the 256 bytes.
    pub(super) const fn inverse(self) -> Linear {
        let mut c = [0; 8];
        let mut x = 0;
        while x < 256 {
            let y = self.apply(x as u8);
            if y.is_power_of_two() {
                c[y.trailing_zeros() as usize] = x as u8;
            }
            x += 1;
        }
        Linear(c)
    }

    /// The 64-bit matrix operand of `vgf2p8affineqb`: byte `7 - i` holds
    /// the bits that output bit `i` sums (row `i` of the matrix).
    pub(super) const fn gfni_matrix(self) -> i64 {
        let mut m = 0u64;
        let mut i = 0;
        while i < 8 {
            let mut row = 0u8;
            let mut j = 0;
            while j < 8 {
                row |= (self.0[j] >> i & 1) << j;
                j += 1;
            }
            m |= (row as u64) << (8 * (7 - i));
            i += 1;
        }
        m as i64
    }
}

impl Slice for __m128i {
    const BLOCKS: usize = 1;

    #[inline(always)]
    unsafe fn load(src: *const u8) -> Self {
        // SAFETY: the caller promises 16 readable bytes.
        unsafe { _mm_loadu_si128(src.cast()) }
    }
    #[inline(always)]
    unsafe fn store(self, dst: *mut u8) {
        // SAFETY: the caller promises 16 writable bytes.
        unsafe { _mm_storeu_si128(dst.cast(), self) }
    }
    #[inline(always)]
    unsafe fn lanes(lane: &[u8; 16]) -> Self {
        // SAFETY: `lane` is 16 readable bytes; SSE2 is part of x86-64.
        unsafe { _mm_loadu_si128(lane.as_ptr().cast()) }
    }
    #[inline(always)]
    unsafe fn store_last(self, dst: &mut [u8; 16]) {
        // SAFETY: `dst` is 16 writable bytes; SSE2 is part of x86-64.
        unsafe { _mm_storeu_si128(dst.as_mut_ptr().cast(), self) }
    }
    #[inline(always)]
    unsafe fn splat(word: u32) -> Self {
        // SAFETY: SSE2 is part of x86-64.
        unsafe { _mm_set1_epi32(word as i32) }
    }
    #[inline(always)]
    unsafe fn xor(self, other: Self) -> Self {
        // SAFETY: SSE2 is part of x86-64.
        unsafe { _mm_xor_si128(self, other) }
    }
    #[inline(always)]
    unsafe fn and(self, other: Self) -> Self {
        // SAFETY: SSE2 is part of x86-64.
        unsafe { _mm_and_si128(self, other) }
    }
    #[inline(always)]
    unsafe fn or(self, other: Self) -> Self {
        // SAFETY: SSE2 is part of x86-64.
        unsafe { _mm_or_si128(self, other) }
    }
    #[inline(always)]
    unsafe fn add8(self, other: Self) -> Self {
        // SAFETY: SSE2 is part of x86-64.
        unsafe { _mm_add_epi8(self, other) }
    }
    #[inline(always)]
    unsafe fn sub8(self, other: Self) -> Self {
        // SAFETY: SSE2 is part of x86-64.
        unsafe { _mm_sub_epi8(self, other) }
    }
    #[inline(always)]
    unsafe fn greater(self, other: Self) -> Self {
        // SAFETY: SSE2 is part of x86-64.
        unsafe { _mm_cmpgt_epi8(self, other) }
    }
    #[inline(always)]
    unsafe fn shr4(self) -> Self {
        // SAFETY: SSE2 is part of x86-64.
        unsafe { _mm_srli_epi16::<4>(self) }
    }
    #[inline(always)]
    unsafe fn shuffle(self, index: Self) -> Self {
        // SAFETY: the caller promises SSSE3.
        unsafe { _mm_shuffle_epi8(self, index) }
    }
    #[inline(always)]
    unsafe fn unpack_lo32(self, other: Self) -> Self {
        // SAFETY: SSE2 is part of x86-64.
        unsafe { _mm_unpacklo_epi32(self, other) }
    }
    #[inline(always)]
    unsafe fn unpack_hi32(self, other: Self) -> Self {
        // SAFETY: SSE2 is part of x86-64.
        unsafe { _mm_unpackhi_epi32(self, other) }
    }
    #[inline(always)]
    unsafe fn unpack_lo64(self, other: Self) -> Self {
        // SAFETY: SSE2 is part of x86-64.
        unsafe { _mm_unpacklo_epi64(self, other) }
    }
    #[inline(always)]
    unsafe fn unpack_hi64(self, other: Self) -> Self {
        // SAFETY: SSE2 is part of x86-64.
        unsafe { _mm_unpackhi_epi64(self, other) }
    }
    #[inline(always)]
    unsafe fn sub_bytes(self) -> Self {
        // SAFETY: the caller promises AES-NI.
        unsafe { _mm_aesenclast_si128(self, _mm_setzero_si128()) }
    }
    #[inline(always)]
    unsafe fn inv_sub_bytes(self) -> Self {
        // SAFETY: the caller promises AES-NI.
        unsafe { _mm_aesdeclast_si128(self, _mm_setzero_si128()) }
    }
    #[inline(always)]
    unsafe fn counters(first: u128) -> Self {
        // SAFETY: SSE2 is part of x86-64.
        unsafe { _mm_set_epi64x((first >> 64) as i64, first as i64) }
    }
    #[inline(always)]
    unsafe fn add_low(self, n: u64) -> Self {
        // SAFETY: SSE2 is part of x86-64.
        unsafe { _mm_add_epi64(self, _mm_set_epi64x(0, n as i64)) }
    }
    #[inline(always)]
    unsafe fn shift_in(self, prev: Self) -> Self {
        prev
    }
}

impl Slice for __m256i {
    const BLOCKS: usize = 2;

    #[inline(always)]
    unsafe fn load(src: *const u8) -> Self {
        // SAFETY: the caller promises AVX and 32 readable bytes.
        unsafe { _mm256_loadu_si256(src.cast()) }
    }
    #[inline(always)]
    unsafe fn store(self, dst: *mut u8) {
        // SAFETY: the caller promises AVX and 32 writable bytes.
        unsafe { _mm256_storeu_si256(dst.cast(), self) }
    }
    #[inline(always)]
    unsafe fn lanes(lane: &[u8; 16]) -> Self {
        // SAFETY: `lane` is 16 readable bytes; the caller promises AVX2.
        unsafe { _mm256_broadcastsi128_si256(_mm_loadu_si128(lane.as_ptr().cast())) }
    }
    #[inline(always)]
    unsafe fn store_last(self, dst: &mut [u8; 16]) {
        // SAFETY: `dst` is 16 writable bytes; the caller promises AVX2.
        unsafe { _mm_storeu_si128(dst.as_mut_ptr().cast(), _mm256_extracti128_si256::<1>(self)) }
    }
    #[inline(always)]
    unsafe fn splat(word: u32) -> Self {
        // SAFETY: the caller promises AVX.
        unsafe { _mm256_set1_epi32(word as i32) }
    }
    #[inline(always)]
    unsafe fn xor(self, other: Self) -> Self {
        // SAFETY: the caller promises AVX2.
        unsafe { _mm256_xor_si256(self, other) }
    }
    #[inline(always)]
    unsafe fn and(self, other: Self) -> Self {
        // SAFETY: the caller promises AVX2.
        unsafe { _mm256_and_si256(self, other) }
    }
    #[inline(always)]
    unsafe fn or(self, other: Self) -> Self {
        // SAFETY: the caller promises AVX2.
        unsafe { _mm256_or_si256(self, other) }
    }
    #[inline(always)]
    unsafe fn add8(self, other: Self) -> Self {
        // SAFETY: the caller promises AVX2.
        unsafe { _mm256_add_epi8(self, other) }
    }
    #[inline(always)]
    unsafe fn sub8(self, other: Self) -> Self {
        // SAFETY: the caller promises AVX2.
        unsafe { _mm256_sub_epi8(self, other) }
    }
    #[inline(always)]
    unsafe fn greater(self, other: Self) -> Self {
        // SAFETY: the caller promises AVX2.
        unsafe { _mm256_cmpgt_epi8(self, other) }
    }
    #[inline(always)]
    unsafe fn shr4(self) -> Self {
        // SAFETY: the caller promises AVX2.
        unsafe { _mm256_srli_epi16::<4>(self) }
    }
    #[inline(always)]
    unsafe fn shuffle(self, index: Self) -> Self {
        // SAFETY: the caller promises AVX2.
        unsafe { _mm256_shuffle_epi8(self, index) }
    }
    #[inline(always)]
    unsafe fn unpack_lo32(self, other: Self) -> Self {
        // SAFETY: the caller promises AVX2.
        unsafe { _mm256_unpacklo_epi32(self, other) }
    }
    #[inline(always)]
    unsafe fn unpack_hi32(self, other: Self) -> Self {
        // SAFETY: the caller promises AVX2.
        unsafe { _mm256_unpackhi_epi32(self, other) }
    }
    #[inline(always)]
    unsafe fn unpack_lo64(self, other: Self) -> Self {
        // SAFETY: the caller promises AVX2.
        unsafe { _mm256_unpacklo_epi64(self, other) }
    }
    #[inline(always)]
    unsafe fn unpack_hi64(self, other: Self) -> Self {
        // SAFETY: the caller promises AVX2.
        unsafe { _mm256_unpackhi_epi64(self, other) }
    }
    #[inline(always)]
    unsafe fn sub_bytes(self) -> Self {
        // SAFETY: the caller promises VAES and AVX.
        unsafe { _mm256_aesenclast_epi128(self, _mm256_setzero_si256()) }
    }
    #[inline(always)]
    unsafe fn inv_sub_bytes(self) -> Self {
        // SAFETY: the caller promises VAES and AVX.
        unsafe { _mm256_aesdeclast_epi128(self, _mm256_setzero_si256()) }
    }
    #[inline(always)]
    unsafe fn counters(first: u128) -> Self {
        let next = first.wrapping_add(1);
        // SAFETY: the caller promises AVX.
        unsafe {
            _mm256_set_epi64x(
                (next >> 64) as i64,
                next as i64,
                (first >> 64) as i64,
                first as i64,
            )
        }
    }
    #[inline(always)]
    unsafe fn add_low(self, n: u64) -> Self {
        let n = n as i64;
        // SAFETY: the caller promises AVX2.
        unsafe { _mm256_add_epi64(self, _mm256_set_epi64x(0, n, 0, n)) }
    }
    #[inline(always)]
    unsafe fn shift_in(self, prev: Self) -> Self {
        // SAFETY: the caller promises AVX2. Lane 0 ← prev's lane 1, lane 1
        // ← self's lane 0.
        unsafe { _mm256_permute2x128_si256::<0x21>(prev, self) }
    }
}

impl Slice for __m512i {
    const BLOCKS: usize = 4;

    #[inline(always)]
    unsafe fn load(src: *const u8) -> Self {
        // SAFETY: the caller promises AVX-512F and 64 readable bytes.
        unsafe { _mm512_loadu_si512(src.cast()) }
    }
    #[inline(always)]
    unsafe fn store(self, dst: *mut u8) {
        // SAFETY: the caller promises AVX-512F and 64 writable bytes.
        unsafe { _mm512_storeu_si512(dst.cast(), self) }
    }
    #[inline(always)]
    unsafe fn lanes(lane: &[u8; 16]) -> Self {
        // SAFETY: `lane` is 16 readable bytes; the caller promises AVX-512F.
        unsafe { _mm512_broadcast_i32x4(_mm_loadu_si128(lane.as_ptr().cast())) }
    }
    #[inline(always)]
    unsafe fn store_last(self, dst: &mut [u8; 16]) {
        // SAFETY: `dst` is 16 writable bytes; the caller promises AVX-512F.
        unsafe { _mm_storeu_si128(dst.as_mut_ptr().cast(), _mm512_extracti32x4_epi32::<3>(self)) }
    }
    #[inline(always)]
    unsafe fn splat(word: u32) -> Self {
        // SAFETY: the caller promises AVX-512F.
        unsafe { _mm512_set1_epi32(word as i32) }
    }
    #[inline(always)]
    unsafe fn xor(self, other: Self) -> Self {
        // SAFETY: the caller promises AVX-512F.
        unsafe { _mm512_xor_si512(self, other) }
    }
    #[inline(always)]
    unsafe fn and(self, other: Self) -> Self {
        // SAFETY: the caller promises AVX-512F.
        unsafe { _mm512_and_si512(self, other) }
    }
    #[inline(always)]
    unsafe fn or(self, other: Self) -> Self {
        // SAFETY: the caller promises AVX-512F.
        unsafe { _mm512_or_si512(self, other) }
    }
    #[inline(always)]
    unsafe fn add8(self, other: Self) -> Self {
        // SAFETY: the caller promises AVX-512BW.
        unsafe { _mm512_add_epi8(self, other) }
    }
    #[inline(always)]
    unsafe fn sub8(self, other: Self) -> Self {
        // SAFETY: the caller promises AVX-512BW.
        unsafe { _mm512_sub_epi8(self, other) }
    }
    #[inline(always)]
    unsafe fn greater(self, other: Self) -> Self {
        // SAFETY: the caller promises AVX-512BW.
        unsafe { _mm512_movm_epi8(_mm512_cmpgt_epi8_mask(self, other)) }
    }
    #[inline(always)]
    unsafe fn shr4(self) -> Self {
        // SAFETY: the caller promises AVX-512BW.
        unsafe { _mm512_srli_epi16::<4>(self) }
    }
    #[inline(always)]
    unsafe fn shuffle(self, index: Self) -> Self {
        // SAFETY: the caller promises AVX-512BW.
        unsafe { _mm512_shuffle_epi8(self, index) }
    }
    #[inline(always)]
    unsafe fn unpack_lo32(self, other: Self) -> Self {
        // SAFETY: the caller promises AVX-512F.
        unsafe { _mm512_unpacklo_epi32(self, other) }
    }
    #[inline(always)]
    unsafe fn unpack_hi32(self, other: Self) -> Self {
        // SAFETY: the caller promises AVX-512F.
        unsafe { _mm512_unpackhi_epi32(self, other) }
    }
    #[inline(always)]
    unsafe fn unpack_lo64(self, other: Self) -> Self {
        // SAFETY: the caller promises AVX-512F.
        unsafe { _mm512_unpacklo_epi64(self, other) }
    }
    #[inline(always)]
    unsafe fn unpack_hi64(self, other: Self) -> Self {
        // SAFETY: the caller promises AVX-512F.
        unsafe { _mm512_unpackhi_epi64(self, other) }
    }
    #[inline(always)]
    unsafe fn sub_bytes(self) -> Self {
        // SAFETY: the caller promises VAES and AVX-512F.
        unsafe { _mm512_aesenclast_epi128(self, _mm512_setzero_si512()) }
    }
    #[inline(always)]
    unsafe fn inv_sub_bytes(self) -> Self {
        // SAFETY: the caller promises VAES and AVX-512F.
        unsafe { _mm512_aesdeclast_epi128(self, _mm512_setzero_si512()) }
    }
    #[inline(always)]
    unsafe fn counters(first: u128) -> Self {
        let [(h0, l0), (h1, l1), (h2, l2), (h3, l3)] = [0, 1, 2, 3].map(|i| {
            let x = first.wrapping_add(i);
            ((x >> 64) as i64, x as i64)
        });
        // SAFETY: the caller promises AVX-512F.
        unsafe { _mm512_set_epi64(h3, l3, h2, l2, h1, l1, h0, l0) }
    }
    #[inline(always)]
    unsafe fn add_low(self, n: u64) -> Self {
        let n = n as i64;
        // SAFETY: the caller promises AVX-512F.
        unsafe { _mm512_add_epi64(self, _mm512_set_epi64(0, n, 0, n, 0, n, 0, n)) }
    }
    #[inline(always)]
    unsafe fn shift_in(self, prev: Self) -> Self {
        // SAFETY: the caller promises AVX-512F. The 64-bit words 6 and 7
        // of `prev`, then words 0–5 of `self`.
        unsafe { _mm512_alignr_epi64::<6>(self, prev) }
    }
}

/// The GFNI instructions on a register (GFNI, with AVX on ymm and
/// AVX-512F on zmm), for [`Gfni`].
///
/// # Safety
///
/// As [`Slice`], with GFNI.
pub(super) trait Gf2p8: Slice {
    /// The 64-bit word `word` in every word.
    unsafe fn splat64(word: i64) -> Self;
    /// `vgf2p8affineqb`: each byte `x` mapped to `M · x ⊕ C`, `matrix`
    /// holding `M` in each 64-bit word.
    unsafe fn affine<const C: i32>(self, matrix: Self) -> Self;
    /// `vgf2p8affineinvqb`: each byte `x` mapped to `M · inv(x) ⊕ C`.
    unsafe fn affine_inverse<const C: i32>(self, matrix: Self) -> Self;
}

/// [`Gf2p8`] for a register: its broadcast and its two GFNI
/// instructions.
macro_rules! gf2p8 {
    ($v:ty, $set1:ident, $affine:ident, $affine_inverse:ident) => {
        impl Gf2p8 for $v {
            #[inline(always)]
            unsafe fn splat64(word: i64) -> Self {
                // SAFETY: the caller promises the register's features
                // (SSE2, part of x86-64, on xmm; AVX on ymm; AVX-512F on
                // zmm).
                unsafe { $set1(word) }
            }
            #[inline(always)]
            unsafe fn affine<const C: i32>(self, matrix: Self) -> Self {
                // SAFETY: the caller promises GFNI and the register's
                // features.
                unsafe { $affine::<C>(self, matrix) }
            }
            #[inline(always)]
            unsafe fn affine_inverse<const C: i32>(self, matrix: Self) -> Self {
                // SAFETY: as `affine`.
                unsafe { $affine_inverse::<C>(self, matrix) }
            }
        }
    };
}

gf2p8!(
    __m128i,
    _mm_set1_epi64x,
    _mm_gf2p8affine_epi64_epi8,
    _mm_gf2p8affineinv_epi64_epi8
);
gf2p8!(
    __m256i,
    _mm256_set1_epi64x,
    _mm256_gf2p8affine_epi64_epi8,
    _mm256_gf2p8affineinv_epi64_epi8
);
gf2p8!(
    __m512i,
    _mm512_set1_epi64,
    _mm512_gf2p8affine_epi64_epi8,
    _mm512_gf2p8affineinv_epi64_epi8
);

/// The s-boxes through GFNI: `vgf2p8affineqb` with the input map, then
/// `vgf2p8affineinvqb` (inversion, then the output map).
pub(super) struct Gfni<V> {
    /// The input maps' matrices: SBOX1–3's, SBOX4's.
    input: [V; 2],
    /// The output maps' matrices: SBOX1 and 4's, SBOX2's, SBOX3's.
    output: [V; 3],
}

/// The matrices of [`Gfni`]: the input maps' (SBOX1–3, SBOX4), then the
/// output maps' (SBOX1 and 4, SBOX2, SBOX3).
const GFNI_MATRICES: [i64; 5] = [
    input_map(1).linear.gfni_matrix(),
    input_map(4).linear.gfni_matrix(),
    output_map(1).linear.gfni_matrix(),
    output_map(2).linear.gfni_matrix(),
    output_map(3).linear.gfni_matrix(),
];

impl<V: Gf2p8> SBoxes<V> for Gfni<V> {
    #[inline(always)]
    unsafe fn new() -> Self {
        let [a1, a4, b1, b2, b3] = GFNI_MATRICES;
        // SAFETY: the caller promises `V`'s features.
        unsafe {
            Gfni {
                input: [V::splat64(a1), V::splat64(a4)],
                output: [V::splat64(b1), V::splat64(b2), V::splat64(b3)],
            }
        }
    }

    #[inline(always)]
    unsafe fn s<const N: usize, const RIGHT: bool>(&self, x: V) -> V {
        const IN: i32 = A.constant as i32;
        const OUT1: i32 = output_map(1).constant as i32;
        const OUT2: i32 = output_map(2).constant as i32;
        const OUT3: i32 = output_map(3).constant as i32;
        // SAFETY: the caller promises `V`'s features and GFNI.
        unsafe {
            let y = x.affine::<IN>(self.input[(N == 4) as usize]);
            match N {
                2 => y.affine_inverse::<OUT2>(self.output[1]),
                3 => y.affine_inverse::<OUT3>(self.output[2]),
                _ => y.affine_inverse::<OUT1>(self.output[0]),
            }
        }
    }

    #[inline(always)]
    unsafe fn right_in(&self, x: V) -> V {
        x
    }

    #[inline(always)]
    unsafe fn right_out(&self, x: V) -> V {
        x
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::camellia::sliced::tests::{MAPS, inv};

    #[test]
    fn matrices_compute_the_maps() {
        for map in MAPS {
            // The 8 × 8 matrix as `vgf2p8affineqb` reads it.
            let m = map.linear.gfni_matrix() as u64;
            for x in 0..=255u8 {
                let gf = (0..8).fold(0u8, |y, i| {
                    let row = (m >> (8 * (7 - i))) as u8;
                    y | (((row & x).count_ones() & 1) as u8) << i
                });
                assert_eq!(gf, map.linear.apply(x));
            }
        }
    }

    /// `vgf2p8affineqb` and `vgf2p8affineinvqb` on `V` (GFNI, with AVX
    /// on ymm and AVX-512 on zmm) on all 256 bytes, each way, against the
    /// maps and inversion computed here.
    ///
    /// # Safety
    ///
    /// The CPU has GFNI and `V`'s features.
    #[inline(always)]
    unsafe fn check_gfni<V: Gf2p8>() {
        let maps = [
            input_map(1),
            input_map(4),
            output_map(1),
            output_map(2),
            output_map(3),
        ];
        for map in maps {
            let mut bytes = [0u8; 256];
            for (i, b) in bytes.iter_mut().enumerate() {
                *b = i as u8;
            }
            let (mut fwd, mut back) = ([0u8; 256], [0u8; 256]);
            for at in (0..256).step_by(V::BYTES) {
                // SAFETY: `V::BYTES` ≤ 64 bytes at `at` < 256 of each
                // array; the caller promises the features.
                unsafe {
                    let m = V::splat64(map.linear.gfni_matrix());
                    let x = V::load(bytes[at..].as_ptr());
                    x.affine::<0x45>(m).store(fwd[at..].as_mut_ptr());
                    x.affine_inverse::<0x6e>(m).store(back[at..].as_mut_ptr());
                }
            }
            for x in 0..=255u8 {
                let want = map.linear.apply(x) ^ 0x45;
                assert_eq!(
                    fwd[usize::from(x)],
                    want,
                    "affine of {x:#04x}, {} lanes",
                    V::BLOCKS
                );
                let want = map.linear.apply(inv(x)) ^ 0x6e;
                assert_eq!(
                    back[usize::from(x)],
                    want,
                    "affine-inverse of {x:#04x}, {} lanes",
                    V::BLOCKS
                );
            }
        }
    }

    #[target_feature(enable = "gfni,avx512f,avx512bw,avx2,ssse3")]
    fn check_gfni_all_widths() {
        // SAFETY: this function has the features; the caller checked the CPU.
        unsafe {
            check_gfni::<__m128i>();
            check_gfni::<__m256i>();
            check_gfni::<__m512i>();
        }
    }

    #[test]
    fn gfni_instructions_compute_the_maps() {
        let f = crate::cpu::features();
        if !(f.gfni && f.avx512f && f.avx512bw && f.avx2) {
            eprintln!("no GFNI with AVX-512: skipped");
            return;
        }
        // SAFETY: the CPU has the features (checked above).
        unsafe { check_gfni_all_widths() };
    }
}
