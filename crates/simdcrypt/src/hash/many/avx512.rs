//! AVX-512F/BW, 16 messages vertical: zmm register `i` holds word `i` of
//! the 16 messages' current blocks (or state words). Each lane's block is
//! loaded as one row of 16 words and the 16×16 words transposed
//! ([`crate::vertical::transpose_16`]); SHA-256 byte-swaps with `vpshufb`.
//! Rotates are `vprold`/`vprord`; Ch, Maj, the three-way XORs and MD5's
//! F, G, H, I are one `vpternlogd` each.

use core::arch::x86_64::{
    __m512i, _mm512_add_epi32, _mm512_loadu_si512, _mm512_rol_epi32, _mm512_ror_epi32,
    _mm512_set1_epi32, _mm512_set4_epi32, _mm512_setzero_si512, _mm512_shuffle_epi8,
    _mm512_srli_epi32, _mm512_storeu_si512, _mm512_ternarylogic_epi32,
};

use super::lane_kernels;

/// A vector of 16 lanes.
type V = __m512i;
/// Messages at once.
const LANES: usize = 16;
/// MD5's groups of 16 lanes side by side: one (`vpternlogd` makes each
/// step a chain of 4 instructions; untimed here).
const MD5_GROUPS: usize = 1;

/// The truth tables of `vpternlogd` over `(a, b, c)` = (0xf0, 0xcc, 0xaa).
mod table {
    /// `a ^ b ^ c`.
    pub(super) const XOR3: i32 = 0x96;
    /// `(a & b) | (!a & c)`: SHA-256's Ch, MD5's F.
    pub(super) const CHOOSE: i32 = 0xca;
    /// `(a & b) | (a & c) | (b & c)`: Maj.
    pub(super) const MAJORITY: i32 = 0xe8;
    /// `(a & c) | (b & !c)`: MD5's G.
    pub(super) const G: i32 = 0xe4;
    /// `b ^ (a | !c)`: MD5's I.
    pub(super) const I: i32 = 0x39;
}

/// `x` in every lane.
#[target_feature(enable = "avx512f")]
#[inline]
fn splat(x: u32) -> V {
    _mm512_set1_epi32(x as i32)
}

/// Lane-wise addition modulo 2^32.
#[target_feature(enable = "avx512f")]
#[inline]
fn add(a: V, b: V) -> V {
    _mm512_add_epi32(a, b)
}

/// `a ^ b ^ c`, one `vpternlogd`.
#[target_feature(enable = "avx512f")]
#[inline]
fn xor3(a: V, b: V, c: V) -> V {
    _mm512_ternarylogic_epi32::<{ table::XOR3 }>(a, b, c)
}

/// `x >> N` in each lane.
#[target_feature(enable = "avx512f")]
#[inline]
fn shr<const N: u32>(x: V) -> V {
    _mm512_srli_epi32::<N>(x)
}

/// `x >>> N` in each lane (`vprord`).
#[target_feature(enable = "avx512f")]
#[inline]
fn rotr<const N: i32>(x: V) -> V {
    _mm512_ror_epi32::<N>(x)
}

/// `x <<< N` in each lane (`vprold`).
#[target_feature(enable = "avx512f")]
#[inline]
fn rotl<const N: i32>(x: V) -> V {
    _mm512_rol_epi32::<N>(x)
}

/// Ch(e, f, g) (FIPS 180-4 (4.2)).
#[target_feature(enable = "avx512f")]
#[inline]
fn ch(e: V, f: V, g: V) -> V {
    _mm512_ternarylogic_epi32::<{ table::CHOOSE }>(e, f, g)
}

/// Maj(a, b, c) (FIPS 180-4 (4.3)).
#[target_feature(enable = "avx512f")]
#[inline]
fn maj(a: V, b: V, c: V) -> V {
    _mm512_ternarylogic_epi32::<{ table::MAJORITY }>(a, b, c)
}

/// `a + F(b, c, d)` (RFC 1321 §3.4).
#[target_feature(enable = "avx512f")]
#[inline]
fn md5_f(a: V, b: V, c: V, d: V) -> V {
    add(a, _mm512_ternarylogic_epi32::<{ table::CHOOSE }>(b, c, d))
}

/// `a + G(b, c, d)`.
#[target_feature(enable = "avx512f")]
#[inline]
fn md5_g(a: V, b: V, c: V, d: V) -> V {
    add(a, _mm512_ternarylogic_epi32::<{ table::G }>(b, c, d))
}

/// `a + H(b, c, d)`.
#[target_feature(enable = "avx512f")]
#[inline]
fn md5_h(a: V, b: V, c: V, d: V) -> V {
    add(a, xor3(b, c, d))
}

/// `a + I(b, c, d)`.
#[target_feature(enable = "avx512f")]
#[inline]
fn md5_i(a: V, b: V, c: V, d: V) -> V {
    add(a, _mm512_ternarylogic_epi32::<{ table::I }>(b, c, d))
}

/// The byte order of each 32-bit lane reversed (`vpshufb`, AVX-512BW).
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
fn bswap(x: V) -> V {
    _mm512_shuffle_epi8(
        x,
        _mm512_set4_epi32(0x0c0d_0e0f, 0x0809_0a0b, 0x0405_0607, 0x0001_0203),
    )
}

/// One state word of every lane.
#[target_feature(enable = "avx512f")]
#[inline]
fn load_lanes(row: &[u32; LANES]) -> V {
    // SAFETY: `row` is 64 bytes, the size of the unaligned load.
    unsafe { _mm512_loadu_si512(row.as_ptr().cast()) }
}

/// Stores one state word of every lane.
#[target_feature(enable = "avx512f")]
#[inline]
fn store_lanes(row: &mut [u32; LANES], v: V) {
    // SAFETY: `row` is 64 bytes, the size of the unaligned store.
    unsafe { _mm512_storeu_si512(row.as_mut_ptr().cast(), v) }
}

/// Word `i` (little-endian) of block `j` of every lane, in `words[i]`:
/// each block as one row of 16 words, transposed.
#[target_feature(enable = "avx512f")]
#[inline]
fn load_words(blocks: &[&[[u8; 64]]; LANES], j: usize) -> [V; 16] {
    // Loops rather than closures: a closure here was left out of line.
    let mut rows = [_mm512_setzero_si512(); 16];
    for (row, lane) in rows.iter_mut().zip(blocks) {
        let block: &[u8; 64] = &lane[j];
        // SAFETY: `block` is 64 bytes, the size of the unaligned load.
        *row = unsafe { _mm512_loadu_si512(block.as_ptr().cast()) };
    }
    let t = crate::vertical::transpose_16(rows);
    let mut words = rows;
    for (w, [v]) in words.iter_mut().zip(t) {
        *w = v;
    }
    words
}

lane_kernels!("avx512f,avx512bw");
