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
//! The first block's rounds and the steps are one `asm!` per two rounds
//! (`two_rounds!`), a vector instruction after every two scalar ones,
//! as OpenSSL's `sha512_block_data_order_avx2` interleaves them (it too
//! schedules a pair of blocks during the first one's rounds, and nothing
//! across pairs). Written in Rust, the compiler gathers the steps in runs
//! of vector instructions ahead of the rounds, and the rounds wait behind
//! them in the out-of-order window: at 16 KiB here (Zen 3, 3.2 GHz, best
//! of runs, beside OpenSSL's 0.746 GB/s in one process) that ran at
//! 0.667 GB/s (0.70 in some processes, by the stack's address), the same
//! rounds with no schedule at 0.741, the whole schedule first and then
//! the rounds at 0.626; the `asm!` steps run at 0.70–0.705.
//!
//! Tried and dropped (same measure): K loaded with `vbroadcasti128`
//! rather than from a table of doubled rows, 0.655 GB/s against 0.707;
//! the rounds and steps of the first block unrolled in full, 0.66; each
//! block's K + W contiguous (two 128-bit stores a step) and one loop of
//! rounds for all, 0.645; the schedule software-pipelined (the next pair's
//! first rows beside the second block's rounds), 0.657; rounds in `asm!`
//! in OpenSSL's order with the steps left to the compiler, no faster than
//! the compiler's; the next pair's whole schedule spread over both blocks'
//! rounds (in Rust: the compiler gathers it the same way), 0.56–0.61;
//! Ch as `(e & f) + (!e & g)` with BMI1's `andn`, 0.64; e = d + T1 summed
//! as (d + h + K + W + Ch) + Σ1 for a shorter path, 0.67–0.69 (and the
//! scalar rung slower); an empty `asm!` after each Rust step to keep them
//! apart, 0.666; the buffer 64-byte aligned, no change.

use core::arch::x86_64::{
    __m256i, _mm256_add_epi64, _mm256_loadu_si256, _mm256_loadu2_m128i, _mm256_setr_epi8,
    _mm256_shuffle_epi8, _mm256_storeu_si256,
};

/// The rung over `$blocks` blocks at once: their schedule in vectors of
/// type `Vector` (two words of each block per 128-bit lane, block j in
/// lane j), the rounds in scalar code, the first block's beside the
/// schedule's steps, the others' reading the stored K + W alone. The
/// invoking module defines `Vector`, the lane operations `load_words`,
/// `add`, `load` and `store`, and `first_block_group!(v, x, buffer,
/// group)`: sixteen rounds of the first block on the working variables
/// `v` with the eight steps, on `x`, that store group `group + 1` of the
/// K + W in `buffer` (the rounds read group `group`, and `store_row`
/// stores a row); `others` lists the blocks 1 … `$blocks` − 1.
macro_rules! multi_block_rung {
    (features = $features:literal, blocks = $blocks:literal, others = [$($other:literal),+]) => {
        use $crate::hash::sha512::K512;
        use $crate::hash::sha512::scalar::sixteen_rounds;

        /// K_t + W_t for the 80 rounds of the blocks, as the schedule steps
        /// store them: in five groups of sixteen rounds, per pair of rounds
        /// t, t + 1 two words of each block in turn; then a copy of
        /// [`K_ROWS`], next to them (one register addresses both).
        #[repr(C, align(32))]
        struct Scheduled([[u64; 16 * $blocks]; 5], [[u64; 2 * $blocks]; 40]);

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
            let sum = add(x, load(&buffer.1[t / 2]));
            store(&mut buffer.0[group][2 * $blocks * k..2 * $blocks * (k + 1)], sum);
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
            let mut v = *state;
            for group in 0..4 {
                first_block_group!(v, x, buffer, group);
            }
            sixteen_rounds!(rotr_bmi2; v, read, buffer.0[4], 0);
            for (h, x) in state.iter_mut().zip(v) {
                *h = h.wrapping_add(x);
            }
            $(
                if count > $other {
                    let mut v = *state;
                    for group in &buffer.0 {
                        sixteen_rounds!(rotr_bmi2; v, read, group, $other);
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
            let mut buffer = Scheduled([[0; 16 * $blocks]; 5], K_ROWS);
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

/// Rounds 2k and 2k + 1 of a group of sixteen (`$k` is k) of the first
/// block, as [`super::scalar::round!`] writes them, on `$a` … `$h` and the
/// carried `b ^ c` in `$bc`, interleaved instruction by instruction with
/// the schedule step on `x[k]` (W_t, W_{t+1} of both blocks, t sixteen
/// rounds on), which adds K and stores the row one group ahead. `$p`
/// points at the group's K + W in the `Scheduled` buffer.
/// The scalar lines are the rounds (T1 into h, then e = d + T1, then
/// a = T1 + Maj + Σ0 into h; Ch as ((f ^ g) & e) ^ g and Maj as
/// ((a ^ b) & (b ^ c)) ^ b); the vector lines are the step: W_{t−16} +
/// W_{t−7} + σ0(W_{t−15}) + σ1(W_{t−2}), σ0's ROTR^8 as a byte shuffle
/// (`rot8`), the other rotations as two shifts.
macro_rules! two_rounds {
    ($x:ident, $p:ident, $rot8:ident, $bc:ident => $next:tt, $k:literal; $a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident) => {
        // SAFETY: the CPU has AVX2 and BMI2 (the caller's features). `$p`
        // points at group g ≤ 3 of a `Scheduled`: the rounds read its row
        // k, the step reads row 8 (g + 1) + k of the K copy and writes
        // row k of group g + 1, all inside the buffer (`ko` and `so` are
        // these offsets from `$p`); it uses no stack.
        unsafe {
            core::arch::asm!(
                // h += K + W; t1 = Σ1(e); t0 = Ch(e, f, g);
                // w15 = W_{t−15}, W_{t−14}; w7 = W_{t−7}, W_{t−6}.
                "add {h}, qword ptr [{p} + {w0}]",
                "rorx {t1}, {e}, 14",
                "vpalignr {w15}, {x1}, {x0}, 8",
                "mov {t0}, {f}",
                "rorx {t2}, {e}, 18",
                "vpalignr {w7}, {x5}, {x4}, 8",
                "xor {t0}, {g}",
                "xor {t1}, {t2}",
                "vpaddq {x0}, {x0}, {w7}",
                "and {t0}, {e}",
                "rorx {t2}, {e}, 41",
                "vpsrlq {vt}, {w15}, 1",
                "xor {t0}, {g}",
                "xor {t1}, {t2}",
                "vpsllq {vu}, {w15}, 63",
                // h = T1; d += T1; t0 = a ^ b; bc = Maj(a, b, c);
                // t1 = Σ0(a); h = T1 + Maj + Σ0; vt = σ0(w15).
                "add {h}, {t0}",
                "mov {t0}, {a}",
                "vpxor {vt}, {vt}, {vu}",
                "add {h}, {t1}",
                "xor {t0}, {b}",
                "vpsrlq {vu}, {w15}, 7",
                "rorx {t1}, {a}, 28",
                "add {d}, {h}",
                "vpxor {vt}, {vt}, {vu}",
                "and {bc}, {t0}",
                "rorx {t2}, {a}, 34",
                "vpshufb {w15}, {w15}, {rot8}",
                "xor {bc}, {b}",
                "xor {t1}, {t2}",
                "vpxor {vt}, {vt}, {w15}",
                "add {h}, {bc}",
                "rorx {t2}, {a}, 39",
                "vpaddq {x0}, {x0}, {vt}",
                "xor {t1}, {t2}",
                "add {h}, {t1}",
                // vt = σ1(W_{t−2}, W_{t−1}), finished in the second round.
                "vpsrlq {vt}, {x7}, 19",
                // The second round: a … h are h, a, …, g; b ^ c in t0,
                // and bc the temporary that t0 was.
                "add {g}, qword ptr [{p} + {w1}]",
                "rorx {t1}, {d}, 14",
                "vpsllq {vu}, {x7}, 45",
                "mov {bc}, {e}",
                "rorx {t2}, {d}, 18",
                "vpxor {vt}, {vt}, {vu}",
                "xor {bc}, {f}",
                "xor {t1}, {t2}",
                "vpsrlq {vu}, {x7}, 61",
                "and {bc}, {d}",
                "rorx {t2}, {d}, 41",
                "vpxor {vt}, {vt}, {vu}",
                "xor {bc}, {f}",
                "xor {t1}, {t2}",
                "vpsllq {vu}, {x7}, 3",
                "add {g}, {bc}",
                "mov {bc}, {h}",
                "vpxor {vt}, {vt}, {vu}",
                "add {g}, {t1}",
                "xor {bc}, {a}",
                "vpsrlq {vu}, {x7}, 6",
                "rorx {t1}, {h}, 28",
                "add {c}, {g}",
                "vpxor {vt}, {vt}, {vu}",
                "and {t0}, {bc}",
                "rorx {t2}, {h}, 34",
                "vpaddq {x0}, {x0}, {vt}",
                "xor {t0}, {a}",
                "xor {t1}, {t2}",
                // The row: K + W_t, K + W_{t+1} of both blocks.
                "vpaddq {vt}, {x0}, ymmword ptr [{p} + {ko}]",
                "add {g}, {t0}",
                "rorx {t2}, {h}, 39",
                "vmovdqu ymmword ptr [{p} + {so}], {vt}",
                "xor {t1}, {t2}",
                "add {g}, {t1}",
                a = inout(reg) $a,
                b = inout(reg) $b,
                c = inout(reg) $c,
                d = inout(reg) $d,
                e = inout(reg) $e,
                f = inout(reg) $f,
                g = inout(reg) $g,
                h = inout(reg) $h,
                bc = inout(reg) $bc => $next,
                t0 = out(reg) _,
                t1 = out(reg) _,
                t2 = out(reg) _,
                p = in(reg) $p,
                x0 = inout(ymm_reg) $x[$k],
                x1 = in(ymm_reg) $x[($k + 1) % 8],
                x4 = in(ymm_reg) $x[($k + 4) % 8],
                x5 = in(ymm_reg) $x[($k + 5) % 8],
                x7 = in(ymm_reg) $x[($k + 7) % 8],
                rot8 = in(ymm_reg) $rot8,
                w15 = out(ymm_reg) _,
                w7 = out(ymm_reg) _,
                vt = out(ymm_reg) _,
                vu = out(ymm_reg) _,
                w0 = const ROW * $k,
                w1 = const ROW * $k + 8,
                ko = const core::mem::offset_of!(Scheduled, 1) + GROUP + ROW * $k,
                so = const GROUP + ROW * $k,
                options(nostack),
            );
        }
    };
}

/// Bytes of a row of K + W in the `Scheduled` buffer: one vector.
const ROW: usize = size_of::<__m256i>();

/// Bytes of a group of sixteen rounds' K + W: eight rows.
const GROUP: usize = 8 * ROW;

/// Sixteen rounds of the first block with the eight steps that make the
/// next group's K + W, in `two_rounds!`; the rounds renamed as in
/// [`super::scalar::sixteen_rounds!`].
macro_rules! first_block_group {
    ($v:ident, $x:ident, $buffer:ident, $group:ident) => {{
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = $v;
        let mut bc = b ^ c;
        let p = core::ptr::from_mut($buffer)
            .cast::<u8>()
            .wrapping_add(GROUP * $group);
        let rot8 = _mm256_setr_epi8(
            1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8, //
            1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8,
        );
        two_rounds!($x, p, rot8, bc => bc, 0; a, b, c, d, e, f, g, h);
        two_rounds!($x, p, rot8, bc => bc, 1; g, h, a, b, c, d, e, f);
        two_rounds!($x, p, rot8, bc => bc, 2; e, f, g, h, a, b, c, d);
        two_rounds!($x, p, rot8, bc => bc, 3; c, d, e, f, g, h, a, b);
        two_rounds!($x, p, rot8, bc => bc, 4; a, b, c, d, e, f, g, h);
        two_rounds!($x, p, rot8, bc => bc, 5; g, h, a, b, c, d, e, f);
        two_rounds!($x, p, rot8, bc => bc, 6; e, f, g, h, a, b, c, d);
        two_rounds!($x, p, rot8, bc => _, 7; c, d, e, f, g, h, a, b);
        $v = [a, b, c, d, e, f, g, h];
    }};
}

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

/// Addition modulo 2^64 on each lane.
#[target_feature(enable = "avx2")]
fn add(a: __m256i, b: __m256i) -> __m256i {
    _mm256_add_epi64(a, b)
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
