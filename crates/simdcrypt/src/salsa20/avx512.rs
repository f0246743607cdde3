//! AVX-512F/VL, 16 blocks vertical in zmm registers, `vprold` rotates,
//! transposed on output (16×16 words) and XORed straight into the data.
//!
//! Inputs that do not fill 16 blocks take one 8-block batch in ymm and one
//! 4-block batch in xmm registers (AVX-512VL forms, `vprold` still), and the
//! last 0–3 blocks go to the shared tail (one block scalar, 2 or 3 as
//! interleaved SSE2 states), so no block is computed in vain.

use core::arch::x86_64::{
    __m512i, _mm_rol_epi32, _mm256_rol_epi32, _mm512_add_epi32, _mm512_cmplt_epu32_mask,
    _mm512_mask_add_epi32, _mm512_rol_epi32, _mm512_set1_epi32, _mm512_setr_epi32,
    _mm512_shuffle_i32x4, _mm512_unpackhi_epi32, _mm512_unpackhi_epi64, _mm512_unpacklo_epi32,
    _mm512_unpacklo_epi64,
};

use super::vertical::vertical_batches;

/// `x <<< n` on each 32-bit lane of a zmm register (`vprold`).
macro_rules! rotl_zmm {
    ($x:expr, $n:literal) => {
        _mm512_rol_epi32::<$n>($x)
    };
}

/// `x <<< n` on each 32-bit lane of a ymm register (`vprold`, AVX-512VL).
macro_rules! rotl_ymm {
    ($x:expr, $n:literal) => {
        _mm256_rol_epi32::<$n>($x)
    };
}

/// `x <<< n` on each 32-bit lane of an xmm register (`vprold`, AVX-512VL).
macro_rules! rotl_xmm {
    ($x:expr, $n:literal) => {
        _mm_rol_epi32::<$n>($x)
    };
}

/// Lane counters for 16 blocks: words 8 (`lo + j`) and 9 (`hi`, plus the
/// carry out of `lo + j`) of blocks `j = 0..16`.
#[inline]
#[target_feature(enable = "avx512f")]
fn counters_16(lo: u32, hi: u32) -> (__m512i, __m512i) {
    let lane = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    let lo = _mm512_add_epi32(_mm512_set1_epi32(lo as i32), lane);
    // Carried where `lo + j < j`, unsigned.
    let carry = _mm512_cmplt_epu32_mask(lo, lane);
    let hi = _mm512_set1_epi32(hi as i32);
    (
        lo,
        _mm512_mask_add_epi32(hi, carry, hi, _mm512_set1_epi32(1)),
    )
}

/// 16×16 words: from `z[i]` = word `i` of blocks 0–15 to one register per
/// block. Within each 128-bit lane `unpack*_epi32` and `unpack*_epi64` turn
/// four word-registers into four block-quarters; two rounds of
/// `vshufi32x4` then gather each block's four quarters from the four
/// word-groups.
#[inline]
#[target_feature(enable = "avx512f")]
fn transpose_16(z: [__m512i; 16]) -> [[__m512i; 1]; 16] {
    // q[r][g]: in 128-bit lane `l`, words 4g..4g+4 of block 4l + r.
    let mut q = [[z[0]; 4]; 4];
    for g in 0..4 {
        let [a, b, c, d] = [z[4 * g], z[4 * g + 1], z[4 * g + 2], z[4 * g + 3]];
        let (ab0, ab1) = (_mm512_unpacklo_epi32(a, b), _mm512_unpackhi_epi32(a, b));
        let (cd0, cd1) = (_mm512_unpacklo_epi32(c, d), _mm512_unpackhi_epi32(c, d));
        q[0][g] = _mm512_unpacklo_epi64(ab0, cd0);
        q[1][g] = _mm512_unpackhi_epi64(ab0, cd0);
        q[2][g] = _mm512_unpacklo_epi64(ab1, cd1);
        q[3][g] = _mm512_unpackhi_epi64(ab1, cd1);
    }
    // Lanes (l0, l2) and (l1, l3) of two registers side by side.
    const EVEN: i32 = 0b10_00_10_00;
    const ODD: i32 = 0b11_01_11_01;
    let mut out = [[z[0]]; 16];
    for (r, [q0, q1, q2, q3]) in q.into_iter().enumerate() {
        // e01 = (q0.l0, q0.l2, q1.l0, q1.l2), o01 = (q0.l1, q0.l3, q1.l1, q1.l3) …
        let (e01, o01) = (
            _mm512_shuffle_i32x4::<EVEN>(q0, q1),
            _mm512_shuffle_i32x4::<ODD>(q0, q1),
        );
        let (e23, o23) = (
            _mm512_shuffle_i32x4::<EVEN>(q2, q3),
            _mm512_shuffle_i32x4::<ODD>(q2, q3),
        );
        // … so block 4l + r is (q0.l, q1.l, q2.l, q3.l).
        out[r] = [_mm512_shuffle_i32x4::<EVEN>(e01, e23)];
        out[4 + r] = [_mm512_shuffle_i32x4::<EVEN>(o01, o23)];
        out[8 + r] = [_mm512_shuffle_i32x4::<ODD>(e01, e23)];
        out[12 + r] = [_mm512_shuffle_i32x4::<ODD>(o01, o23)];
    }
    out
}

vertical_batches! {
    /// Batches of 16 blocks in zmm registers.
    fn xor_batches_16("avx512f"): 16 lanes of __m512i;
    splat = _mm512_set1_epi32,
    add = _mm512_add_epi32,
    xor = core::arch::x86_64::_mm512_xor_si512,
    rotl = rotl_zmm,
    loadu = core::arch::x86_64::_mm512_loadu_si512,
    storeu = core::arch::x86_64::_mm512_storeu_si512,
    counters = counters_16,
    transpose = transpose_16,
}

vertical_batches! {
    /// At most one batch of 8 blocks in ymm registers.
    fn xor_batches_8("avx512f,avx512vl") on ymm, rotl = rotl_ymm
}

vertical_batches! {
    /// At most one batch of 4 blocks in xmm registers.
    fn xor_batches_4("avx512f,avx512vl") on xmm, rotl = rotl_xmm
}

/// XORs the keystream from the block whose state is `input` on into `data`:
/// 16 blocks at a time, then 8, then 4, then single blocks.
///
/// # Safety
///
/// The CPU must have AVX-512F and AVX-512VL.
#[target_feature(enable = "avx512f,avx512vl")]
pub(super) unsafe fn xor_keystream(input: &[u32; 16], double_rounds: usize, data: &mut [u8]) {
    let mut state = *input;
    let rest = xor_batches_16(&mut state, double_rounds, data);
    let rest = xor_batches_8(&mut state, double_rounds, rest);
    let rest = xor_batches_4(&mut state, double_rounds, rest);
    // The last 0–3 blocks are handed down to the shared tail: one block on
    // the fastest single-block rung, 2 or 3 as interleaved SSE2 states.
    super::xor_tail(&state, double_rounds, rest);
}
