//! AVX2 + BMI2: the message schedule of two blocks at once in ymm
//! registers, the rounds in scalar code (`rorx` for the rotations).
//!
//! Register `x[k]` holds two consecutive schedule words W_t, W_{t+1} of
//! the first block in its low 128 bits and the same two words of the
//! second block in its high 128 bits. W_t and W_{t+1} depend on W_{t−2}
//! and W_{t−1} but not on each other (§6.4.2 step 1), so one step makes
//! two words of both blocks; `vpalignr` works within 128-bit lanes, which
//! is exactly the split between the blocks. Each step adds K and stores
//! K_t + W_t to a stack buffer. The first block's rounds run beside the
//! steps (eight steps per sixteen rounds, on the vector units while the
//! rounds hold the integer ones); the second block's rounds then read the
//! buffer alone. An odd last block takes the same path with itself as the
//! second block, whose rounds are skipped.

use core::arch::x86_64::{
    __m256i, _mm256_add_epi64, _mm256_alignr_epi8, _mm256_loadu_si256, _mm256_loadu2_m128i,
    _mm256_setr_epi8, _mm256_shuffle_epi8, _mm256_slli_epi64, _mm256_srli_epi64,
    _mm256_storeu_si256, _mm256_xor_si256,
};

use super::K512;
use super::scalar::sixteen_rounds;

/// K_t + W_t for the 80 rounds of two blocks, as the schedule steps store
/// them: in five groups of sixteen rounds, per pair of rounds t, t + 1 the
/// first block's two words, then the second block's.
#[repr(align(32))]
struct Scheduled([[u64; 32]; 5]);

/// The big-endian words of `block` at 16-byte offset `k` (W_{2k},
/// W_{2k+1}) in the low lane, those of `second` in the high lane.
#[target_feature(enable = "avx2")]
fn load_words(first: &[u8; 128], second: &[u8; 128], k: usize) -> __m256i {
    let (first, second) = (&first[16 * k..16 * k + 16], &second[16 * k..16 * k + 16]);
    // SAFETY: both slices are 16 bytes, the size of each unaligned load.
    let x = unsafe { _mm256_loadu2_m128i(second.as_ptr().cast(), first.as_ptr().cast()) };
    let bswap64 = _mm256_setr_epi8(
        7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8, //
        7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8,
    );
    _mm256_shuffle_epi8(x, bswap64)
}

/// σ0 (§4.1.3, (4.12)) on each 64-bit lane: ROTR^8 as a byte shuffle,
/// ROTR^1 as two shifts.
#[target_feature(enable = "avx2")]
fn small_sigma0(x: __m256i) -> __m256i {
    let rotr8 = _mm256_setr_epi8(
        1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8, //
        1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8,
    );
    let shifts = _mm256_xor_si256(
        _mm256_xor_si256(_mm256_srli_epi64::<1>(x), _mm256_slli_epi64::<63>(x)),
        _mm256_srli_epi64::<7>(x),
    );
    _mm256_xor_si256(shifts, _mm256_shuffle_epi8(x, rotr8))
}

/// σ1 (§4.1.3, (4.13)) on each 64-bit lane.
#[target_feature(enable = "avx2")]
fn small_sigma1(x: __m256i) -> __m256i {
    let rotr19 = _mm256_xor_si256(_mm256_srli_epi64::<19>(x), _mm256_slli_epi64::<45>(x));
    let rotr61 = _mm256_xor_si256(_mm256_srli_epi64::<61>(x), _mm256_slli_epi64::<3>(x));
    _mm256_xor_si256(_mm256_xor_si256(rotr19, rotr61), _mm256_srli_epi64::<6>(x))
}

/// K_t, K_{t+1} for both blocks, as the schedule steps add them: one
/// 32-byte row per pair of rounds, so the addition reads it from memory.
static K_PAIRS: [[u64; 4]; 40] = {
    let mut rows = [[0; 4]; 40];
    let mut i = 0;
    while i < 40 {
        rows[i] = [K512[2 * i], K512[2 * i + 1], K512[2 * i], K512[2 * i + 1]];
        i += 1;
    }
    rows
};

/// K_t, K_{t+1} in both 128-bit lanes.
#[target_feature(enable = "avx2")]
fn k_pair(t: usize) -> __m256i {
    let row = &K_PAIRS[t / 2];
    // SAFETY: `row` is four words, the 32 bytes of the unaligned load.
    unsafe { _mm256_loadu_si256(row.as_ptr().cast()) }
}

/// Stores K_t + W_t, K_{t+1} + W_{t+1} of both blocks (`x` holds the W)
/// for t = 16 `group` + 2 `k`.
#[target_feature(enable = "avx2")]
fn store_pair(buffer: &mut Scheduled, group: usize, k: usize, x: __m256i) {
    let t = 16 * group + 2 * k;
    let slot = &mut buffer.0[group][4 * k..4 * k + 4];
    // SAFETY: `slot` is four words, the 32 bytes of the unaligned store.
    unsafe { _mm256_storeu_si256(slot.as_mut_ptr().cast(), _mm256_add_epi64(x, k_pair(t))) };
}

/// Hashes `first`, then `second` if given, into `state` (§6.4.2).
#[target_feature(enable = "avx2,bmi2")]
fn two_blocks(
    state: &mut [u64; 8],
    buffer: &mut Scheduled,
    first: &[u8; 128],
    second: Option<&[u8; 128]>,
) {
    let mut x: [__m256i; 8] =
        core::array::from_fn(|k| load_words(first, second.unwrap_or(first), k));
    for (k, &xk) in x.iter().enumerate() {
        store_pair(buffer, 0, k, xk);
    }
    // K_t + W_t of round 16 `group` + `i` of the block in lane `lane` (0
    // or 2) of the buffer.
    macro_rules! read {
        ($group:expr, $lane:expr, $i:literal) => {
            $group[4 * ($i / 2) + $lane + ($i & 1)]
        };
    }
    // As `read` for the first block, and before every even round one
    // schedule step: W_t, W_{t+1} of both blocks for t = 16 (`group` + 1)
    // + 2k, in `x[k]`, which held W_{t−16}, W_{t−15}.
    macro_rules! scheduling {
        ($group:expr, $i:literal) => {{
            if $i % 2 == 0 {
                let k = $i / 2;
                let w15 = _mm256_alignr_epi8::<8>(x[(k + 1) % 8], x[k]);
                let w7 = _mm256_alignr_epi8::<8>(x[(k + 5) % 8], x[(k + 4) % 8]);
                let sum = _mm256_add_epi64(x[k], small_sigma0(w15));
                let sum = _mm256_add_epi64(sum, w7);
                x[k] = _mm256_add_epi64(sum, small_sigma1(x[(k + 7) % 8]));
                store_pair(buffer, $group + 1, k, x[k]);
            }
            read!(buffer.0[$group], 0, $i)
        }};
    }
    let mut v = *state;
    for group in 0..4 {
        sixteen_rounds!(v, scheduling, group);
    }
    sixteen_rounds!(v, read, buffer.0[4], 0);
    for (h, x) in state.iter_mut().zip(v) {
        *h = h.wrapping_add(x);
    }
    if second.is_some() {
        let mut v = *state;
        for group in &buffer.0 {
            sixteen_rounds!(v, read, group, 2);
        }
        for (h, x) in state.iter_mut().zip(v) {
            *h = h.wrapping_add(x);
        }
    }
}

/// Hashes whole 1024-bit blocks into the hash value `state` (§6.4.2), two
/// at a time.
///
/// # Safety
///
/// The CPU must have AVX2 and BMI2.
#[target_feature(enable = "avx2,bmi2")]
pub(super) unsafe fn compress(state: &mut [u64; 8], blocks: &[[u8; 128]]) {
    // One buffer for the whole call: initialising it is not free.
    let mut buffer = Scheduled([[0; 32]; 5]);
    let (pairs, odd) = blocks.as_chunks::<2>();
    for [first, second] in pairs {
        two_blocks(state, &mut buffer, first, Some(second));
    }
    if let [last] = odd {
        two_blocks(state, &mut buffer, last, None);
    }
}
