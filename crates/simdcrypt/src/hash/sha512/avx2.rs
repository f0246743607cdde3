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
//! second block, whose rounds are skipped. [`multi_block_rung!`] writes
//! this once for this rung and for `avx512` (four blocks in zmm).
//!
//! Tried and dropped (16 KiB, beside OpenSSL's 0.746 GB/s in one
//! process): K loaded with `vbroadcasti128` rather than from a table of
//! doubled rows, 0.655 GB/s against 0.707; the rounds and steps of the
//! first block unrolled in full, 0.66; each block's K + W contiguous
//! (two 128-bit stores a step) and one loop of rounds for all, 0.645;
//! the schedule software-pipelined (the next pair's first rows beside the
//! second block's rounds), 0.657; rounds in `asm!` in OpenSSL's order,
//! no faster than the compiler's.

use core::arch::x86_64::{
    __m256i, _mm256_add_epi64, _mm256_alignr_epi8, _mm256_loadu_si256, _mm256_loadu2_m128i,
    _mm256_setr_epi8, _mm256_shuffle_epi8, _mm256_slli_epi64, _mm256_srli_epi64,
    _mm256_storeu_si256, _mm256_xor_si256,
};

/// The rung over `$blocks` blocks at once: their schedule in vectors of
/// type `Vector` (two words of each block per 128-bit lane, block j in
/// lane j), the rounds in scalar code, the first block's beside the
/// schedule's steps, the others' reading the stored K + W alone. The
/// invoking module defines `Vector` and the lane operations `load_words`,
/// `small_sigma0`, `small_sigma1`, `add`, `alignr`, `load` and `store`;
/// `others` lists the blocks 1 … `$blocks` − 1.
macro_rules! multi_block_rung {
    (features = $features:literal, blocks = $blocks:literal, others = [$($other:literal),+]) => {
        use $crate::hash::sha512::K512;
        use $crate::hash::sha512::scalar::sixteen_rounds;

        /// K_t + W_t for the 80 rounds of the blocks, as the schedule steps
        /// store them: in five groups of sixteen rounds, per pair of rounds
        /// t, t + 1 two words of each block in turn.
        #[repr(align(32))]
        struct Scheduled([[u64; 16 * $blocks]; 5]);

        /// K_t, K_{t+1} for every block, as the schedule steps add them:
        /// one row per pair of rounds, so the addition reads it from memory
        /// (a broadcast of K_t, K_{t+1} costs more).
        static K_ROWS: [[u64; 2 * $blocks]; 40] = {
            let mut rows = [[0; 2 * $blocks]; 40];
            let mut i = 0;
            while i < 40 {
                let mut j = 0;
                while j < $blocks {
                    rows[i][2 * j] = K512[2 * i];
                    rows[i][2 * j + 1] = K512[2 * i + 1];
                    j += 1;
                }
                i += 1;
            }
            rows
        };

        /// Stores K_t + W_t, K_{t+1} + W_{t+1} of every block (`x` holds
        /// the W) for t = 16 `group` + 2 `k`.
        #[target_feature(enable = $features)]
        fn store_row(buffer: &mut Scheduled, group: usize, k: usize, x: Vector) {
            let t = 16 * group + 2 * k;
            let row = &mut buffer.0[group][2 * $blocks * k..2 * $blocks * (k + 1)];
            store(row, add(x, load(&K_ROWS[t / 2])));
        }

        /// Hashes the first `count` of `blocks` into `state` (§6.4.2); the
        /// others only fill lanes.
        #[target_feature(enable = $features)]
        fn blocks_at_once(
            state: &mut [u64; 8],
            buffer: &mut Scheduled,
            blocks: [&[u8; 128]; $blocks],
            count: usize,
        ) {
            let mut x: [Vector; 8] = core::array::from_fn(|k| load_words(blocks, k));
            for (k, &xk) in x.iter().enumerate() {
                store_row(buffer, 0, k, xk);
            }
            // K_t + W_t of round 16 `group` + `i` of block `j`.
            macro_rules! read {
                ($group:expr, $j:expr, $i:literal) => {
                    $group[2 * $blocks * ($i / 2) + 2 * $j + ($i & 1)]
                };
            }
            // As `read` for the first block, and before every even round
            // one schedule step: W_t, W_{t+1} of every block for t = 16
            // (`group` + 1) + 2k, in `x[k]`, which held W_{t−16}, W_{t−15}.
            macro_rules! scheduling {
                ($group:expr, $i:literal) => {{
                    if $i % 2 == 0 {
                        let k = $i / 2;
                        let w15 = alignr(x[(k + 1) % 8], x[k]);
                        let w7 = alignr(x[(k + 5) % 8], x[(k + 4) % 8]);
                        let sum = add(x[k], small_sigma0(w15));
                        let sum = add(sum, w7);
                        x[k] = add(sum, small_sigma1(x[(k + 7) % 8]));
                        store_row(buffer, $group + 1, k, x[k]);
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
            $(
                if count > $other {
                    let mut v = *state;
                    for group in &buffer.0 {
                        sixteen_rounds!(v, read, group, $other);
                    }
                    for (h, x) in state.iter_mut().zip(v) {
                        *h = h.wrapping_add(x);
                    }
                }
            )+
        }

        /// Hashes whole 1024-bit blocks into the hash value `state`
        /// (§6.4.2), several at a time; the last one to three blocks with
        /// the last repeated in the empty lanes.
        ///
        /// # Safety
        ///
        /// The CPU must have the features of the rung.
        #[target_feature(enable = $features)]
        pub(super) unsafe fn compress(state: &mut [u64; 8], blocks: &[[u8; 128]]) {
            // One buffer for the whole call: initialising it is not free.
            let mut buffer = Scheduled([[0; 16 * $blocks]; 5]);
            let (groups, rest) = blocks.as_chunks::<$blocks>();
            for group in groups {
                blocks_at_once(state, &mut buffer, group.each_ref(), $blocks);
            }
            if let Some(last) = rest.last() {
                let group = core::array::from_fn(|j| rest.get(j).unwrap_or(last));
                blocks_at_once(state, &mut buffer, group, rest.len());
            }
        }
    };
}

pub(super) use multi_block_rung;

/// Two words of each of two blocks.
type Vector = __m256i;

/// The big-endian words W_{2k}, W_{2k+1} of each block, the first in the
/// low lane.
#[target_feature(enable = "avx2")]
fn load_words(blocks: [&[u8; 128]; 2], k: usize) -> __m256i {
    let (first, second) = (
        &blocks[0][16 * k..16 * k + 16],
        &blocks[1][16 * k..16 * k + 16],
    );
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

/// Addition modulo 2^64 on each lane.
#[target_feature(enable = "avx2")]
fn add(a: __m256i, b: __m256i) -> __m256i {
    _mm256_add_epi64(a, b)
}

/// Within each 128-bit lane, the high word of `lo` then the low word of
/// `hi`: W_{t+1}, W_{t+2} from W_t, W_{t+1} and W_{t+2}, W_{t+3}.
#[target_feature(enable = "avx2")]
fn alignr(hi: __m256i, lo: __m256i) -> __m256i {
    _mm256_alignr_epi8::<8>(hi, lo)
}

/// A row of four words.
#[target_feature(enable = "avx2")]
fn load(row: &[u64; 4]) -> __m256i {
    // SAFETY: `row` is 32 bytes, the size of the unaligned load.
    unsafe { _mm256_loadu_si256(row.as_ptr().cast()) }
}

/// Stores a row of four words.
#[target_feature(enable = "avx2")]
fn store(row: &mut [u64], x: __m256i) {
    let row = &mut row[..4];
    // SAFETY: `row` is 32 bytes, the size of the unaligned store.
    unsafe { _mm256_storeu_si256(row.as_mut_ptr().cast(), x) };
}

multi_block_rung!(features = "avx2,bmi2", blocks = 2, others = [1]);
