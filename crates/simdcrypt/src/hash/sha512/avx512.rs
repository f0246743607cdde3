//! AVX-512F/BW + BMI2: the message schedule of four blocks at once in zmm
//! registers, the rounds in scalar code (`rorx`), as [`super::avx2`]
//! does for two (the same [`multi_block_rung!`]; the first block's rounds
//! beside the steps here in plain Rust, not `asm!`): block j in 128-bit
//! lane j. AVX-512 makes a step cheap: `vprorq` rotates, and one
//! `vpternlogq` is a three-way XOR, so σ0 and σ1 take four instructions
//! each. The first block's rounds run beside the steps, the other three
//! blocks' read the stored K + W alone; the last one to three blocks of a
//! call fill the empty lanes with the last block again.
//!
//! On Zen 5 it is slower than `avx2` at every length (its first block's
//! rounds are plain Rust, not `asm!`, and its buffer twice as large), so
//! it is not the default (bench/NOTES.md, hash-short-zen5).

use core::arch::x86_64::{
    __m128i, __m512i, _mm_loadu_si128, _mm512_add_epi64, _mm512_alignr_epi8,
    _mm512_castsi128_si512, _mm512_inserti32x4, _mm512_loadu_si512, _mm512_ror_epi64,
    _mm512_set_epi64, _mm512_shuffle_epi8, _mm512_srli_epi64, _mm512_storeu_si512,
    _mm512_ternarylogic_epi64,
};

use super::avx2::multi_block_rung;

/// Two words of each of four blocks.
type Vector = __m512i;

/// The words W_{2k}, W_{2k+1} of `block`, as they lie (big-endian).
#[target_feature(enable = "avx512f")]
fn lane(block: &[u8; 128], k: usize) -> __m128i {
    let words = &block[16 * k..16 * k + 16];
    // SAFETY: `words` is 16 bytes, the size of the unaligned load.
    unsafe { _mm_loadu_si128(words.as_ptr().cast()) }
}

/// The big-endian words W_{2k}, W_{2k+1} of each block, block j in lane j.
#[target_feature(enable = "avx512f,avx512bw")]
fn load_words(blocks: [&[u8; 128]; 4], k: usize) -> __m512i {
    let x = _mm512_castsi128_si512(lane(blocks[0], k));
    let x = _mm512_inserti32x4::<1>(x, lane(blocks[1], k));
    let x = _mm512_inserti32x4::<2>(x, lane(blocks[2], k));
    let x = _mm512_inserti32x4::<3>(x, lane(blocks[3], k));
    // Reverses the bytes of each 64-bit word.
    let bswap64 = _mm512_set_epi64(
        0x08090a0b0c0d0e0f,
        0x0001020304050607,
        0x08090a0b0c0d0e0f,
        0x0001020304050607,
        0x08090a0b0c0d0e0f,
        0x0001020304050607,
        0x08090a0b0c0d0e0f,
        0x0001020304050607,
    );
    _mm512_shuffle_epi8(x, bswap64)
}

/// x ^ y ^ z in one `vpternlogq`.
#[target_feature(enable = "avx512f")]
fn xor3(x: __m512i, y: __m512i, z: __m512i) -> __m512i {
    _mm512_ternarylogic_epi64::<0x96>(x, y, z)
}

/// σ0 (§4.1.3, (4.12)) on each 64-bit lane.
#[target_feature(enable = "avx512f")]
fn small_sigma0(x: __m512i) -> __m512i {
    xor3(
        _mm512_ror_epi64::<1>(x),
        _mm512_ror_epi64::<8>(x),
        _mm512_srli_epi64::<7>(x),
    )
}

/// σ1 (§4.1.3, (4.13)) on each 64-bit lane.
#[target_feature(enable = "avx512f")]
fn small_sigma1(x: __m512i) -> __m512i {
    xor3(
        _mm512_ror_epi64::<19>(x),
        _mm512_ror_epi64::<61>(x),
        _mm512_srli_epi64::<6>(x),
    )
}

/// Addition modulo 2^64 on each lane.
#[target_feature(enable = "avx512f")]
fn add(a: __m512i, b: __m512i) -> __m512i {
    _mm512_add_epi64(a, b)
}

/// Within each 128-bit lane, the high word of `lo` then the low word of
/// `hi`: W_{t+1}, W_{t+2} from W_t, W_{t+1} and W_{t+2}, W_{t+3}.
#[target_feature(enable = "avx512bw")]
fn alignr(hi: __m512i, lo: __m512i) -> __m512i {
    _mm512_alignr_epi8::<8>(hi, lo)
}

/// A row of eight words.
#[target_feature(enable = "avx512f")]
fn load(row: &[u64; 8]) -> __m512i {
    // SAFETY: `row` is 64 bytes, the size of the unaligned load.
    unsafe { _mm512_loadu_si512(row.as_ptr().cast()) }
}

/// Stores a row of eight words.
#[target_feature(enable = "avx512f")]
fn store(row: &mut [u64], x: __m512i) {
    let row = &mut row[..8];
    // SAFETY: `row` is 64 bytes, the size of the unaligned store.
    unsafe { _mm512_storeu_si512(row.as_mut_ptr().cast(), x) };
}

/// Sixteen rounds of the first block (on `$v`) with, before every even
/// round i = 2k, one schedule step: W_t, W_{t+1} of every block for
/// t = 16 (`group` + 1) + 2k, in `x[k]`, which held W_{t−16}, W_{t−15}.
macro_rules! first_block_group {
    ($v:ident, $x:ident, $buffer:ident, $group:ident) => {{
        macro_rules! scheduling {
            ($i:literal) => {{
                if $i % 2 == 0 {
                    let k = $i / 2;
                    let w15 = alignr($x[(k + 1) % 8], $x[k]);
                    let w7 = alignr($x[(k + 5) % 8], $x[(k + 4) % 8]);
                    let sum = add($x[k], small_sigma0(w15));
                    let sum = add(sum, w7);
                    $x[k] = add(sum, small_sigma1($x[(k + 7) % 8]));
                    store_row($buffer, $group + 1, k, $x[k]);
                }
                read!($buffer.0[$group], 0, $i)
            }};
        }
        sixteen_rounds!(rotr_bmi2; $v, scheduling);
    }};
}

multi_block_rung!(
    features = "avx512f,avx512bw,bmi2",
    blocks = 4,
    others = [1, 2, 3]
);
