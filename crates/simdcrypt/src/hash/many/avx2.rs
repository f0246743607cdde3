//! AVX2, 8 messages vertical: ymm register `i` holds word `i` of the 8
//! messages' current blocks (or state words). Each lane's block is loaded
//! as two rows of 8 words and the 8×8 words transposed
//! ([`crate::vertical::transpose_8`]); SHA-256 byte-swaps the words with
//! `vpshufb`. Rotates are two shifts and an OR. MD5 runs 16 messages, as
//! two groups of 8 side by side.

use core::arch::x86_64::{
    __m256i, _mm_cvtsi32_si128, _mm256_add_epi32, _mm256_and_si256, _mm256_andnot_si256,
    _mm256_loadu_si256, _mm256_or_si256, _mm256_set1_epi32, _mm256_setr_epi8, _mm256_shuffle_epi8,
    _mm256_sll_epi32, _mm256_srl_epi32, _mm256_storeu_si256, _mm256_xor_si256,
};

use super::lane_kernels;

/// A vector of 8 lanes.
type V = __m256i;
/// Messages at once, for SHA-256.
const LANES: usize = 8;
/// MD5 runs two groups of 8 lanes side by side: one MD5 step is a chain
/// of some 6 instructions, each waiting on the last, so one group leaves
/// the vector pipes mostly idle.
const MD5_GROUPS: usize = 2;

/// `x` in every lane.
#[target_feature(enable = "avx2")]
#[inline]
fn splat(x: u32) -> V {
    _mm256_set1_epi32(x as i32)
}

/// Lane-wise addition modulo 2^32.
#[target_feature(enable = "avx2")]
#[inline]
fn add(a: V, b: V) -> V {
    _mm256_add_epi32(a, b)
}

/// `a ^ b ^ c`.
#[target_feature(enable = "avx2")]
#[inline]
fn xor3(a: V, b: V, c: V) -> V {
    _mm256_xor_si256(_mm256_xor_si256(a, b), c)
}

/// `x >> N` in each lane (the count folds to an immediate).
#[target_feature(enable = "avx2")]
#[inline]
fn shr<const N: i32>(x: V) -> V {
    _mm256_srl_epi32(x, _mm_cvtsi32_si128(N))
}

/// `x << N` in each lane.
#[target_feature(enable = "avx2")]
#[inline]
fn shl<const N: i32>(x: V) -> V {
    _mm256_sll_epi32(x, _mm_cvtsi32_si128(N))
}

/// `x >>> N` in each lane: two shifts and an OR.
#[target_feature(enable = "avx2")]
#[inline]
fn rotr<const N: i32>(x: V) -> V {
    _mm256_or_si256(shr::<N>(x), _mm256_sll_epi32(x, _mm_cvtsi32_si128(32 - N)))
}

/// `x <<< N` in each lane.
#[target_feature(enable = "avx2")]
#[inline]
fn rotl<const N: i32>(x: V) -> V {
    _mm256_or_si256(shl::<N>(x), _mm256_srl_epi32(x, _mm_cvtsi32_si128(32 - N)))
}

/// Ch(e, f, g) (FIPS 180-4 (4.2)) as `((f ^ g) & e) ^ g`.
#[target_feature(enable = "avx2")]
#[inline]
fn ch(e: V, f: V, g: V) -> V {
    _mm256_xor_si256(_mm256_and_si256(_mm256_xor_si256(f, g), e), g)
}

/// Maj(a, b, c) (FIPS 180-4 (4.3)) as `((a ^ b) & (b ^ c)) ^ b`; the next
/// round's `b ^ c` is this round's `a ^ b`, which the compiler reuses.
#[target_feature(enable = "avx2")]
#[inline]
fn maj(a: V, b: V, c: V) -> V {
    _mm256_xor_si256(
        _mm256_and_si256(_mm256_xor_si256(a, b), _mm256_xor_si256(b, c)),
        b,
    )
}

/// `a + F(b, c, d)` (RFC 1321 §3.4), F as `((c ^ d) & b) ^ d`.
#[target_feature(enable = "avx2")]
#[inline]
fn md5_f(a: V, b: V, c: V, d: V) -> V {
    add(a, ch(b, c, d))
}

/// `a + G(b, c, d)`: `(c & !d)` added first, then `(b & d)` (disjoint
/// bits, so `+` is the OR).
#[target_feature(enable = "avx2")]
#[inline]
fn md5_g(a: V, b: V, c: V, d: V) -> V {
    add(add(a, _mm256_andnot_si256(d, c)), _mm256_and_si256(b, d))
}

/// `a + H(b, c, d)`.
#[target_feature(enable = "avx2")]
#[inline]
fn md5_h(a: V, b: V, c: V, d: V) -> V {
    add(a, xor3(b, c, d))
}

/// `a + I(b, c, d)`, I as `c ^ (b | !d)`.
#[target_feature(enable = "avx2")]
#[inline]
fn md5_i(a: V, b: V, c: V, d: V) -> V {
    let not_d = _mm256_xor_si256(d, splat(u32::MAX));
    add(a, _mm256_xor_si256(c, _mm256_or_si256(b, not_d)))
}

/// The byte order of each 32-bit lane reversed (`vpshufb`).
#[target_feature(enable = "avx2")]
#[inline]
fn bswap(x: V) -> V {
    _mm256_shuffle_epi8(
        x,
        _mm256_setr_epi8(
            3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12, //
            3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12,
        ),
    )
}

/// One state word of every lane.
#[target_feature(enable = "avx2")]
#[inline]
fn load_lanes(row: &[u32; LANES]) -> V {
    // SAFETY: `row` is 32 bytes, the size of the unaligned load.
    unsafe { _mm256_loadu_si256(row.as_ptr().cast()) }
}

/// Stores one state word of every lane.
#[target_feature(enable = "avx2")]
#[inline]
fn store_lanes(row: &mut [u32; LANES], v: V) {
    // SAFETY: `row` is 32 bytes, the size of the unaligned store.
    unsafe { _mm256_storeu_si256(row.as_mut_ptr().cast(), v) }
}

/// Word `i` (little-endian) of block `j` of every lane, in `words[i]`:
/// each block as two rows of 8 words, transposed.
#[target_feature(enable = "avx2")]
#[inline]
fn load_words(blocks: &[&[[u8; 64]]; LANES], j: usize) -> [V; 16] {
    let rows: [V; 16] = core::array::from_fn(|r| {
        let half: &[u8; 32] = blocks[r % 8][j][32 * (r / 8)..][..32]
            .try_into()
            .expect("32 bytes");
        // SAFETY: `half` is 32 bytes, the size of the unaligned load.
        unsafe { _mm256_loadu_si256(half.as_ptr().cast()) }
    });
    let t = crate::vertical::transpose_8(rows);
    core::array::from_fn(|i| t[i % 8][i / 8])
}

lane_kernels!("avx2");
