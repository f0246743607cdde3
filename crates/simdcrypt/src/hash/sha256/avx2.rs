//! AVX2 and BMI: the message schedule (FIPS 180-4 §6.2.2 step 1) of two
//! blocks at once in ymm registers — block `i` in the low 128-bit half,
//! block `i + 1` in the high one, four words of each per register — beside
//! the scalar rounds of block `i`; `W_t + K_t` of both goes to a buffer on
//! the stack, from which block `i + 1`'s rounds then read theirs (Gulley
//! et al., "Fast SHA-256 Implementations on Intel Architecture
//! Processors", 2012; OpenSSL's `sha256-x86_64` AVX2 path). The rounds are
//! the scalar rung's ([`super::rounds`]), compiled with BMI2's `rorx` and
//! BMI1's `andn`. An odd last block is loaded into both halves and only
//! its own rounds run.

use core::arch::x86_64::{
    __m256i, _mm256_add_epi32, _mm256_alignr_epi8, _mm256_broadcastsi128_si256,
    _mm256_castsi128_si256, _mm256_inserti128_si256, _mm256_or_si256, _mm256_set_epi32,
    _mm256_setr_epi8, _mm256_shuffle_epi8, _mm256_shuffle_epi32, _mm256_slli_epi32,
    _mm256_srli_epi32, _mm256_srli_epi64, _mm256_storeu_si256, _mm256_xor_si256,
};

use super::shani::load;
use super::{K, rounds};

/// `W_t + K_t` of two blocks: group `g` (words `4g … 4g+3`) of the first
/// block at `8g`, of the second at `8g + 4`, as one ymm register stores it.
#[repr(C, align(32))]
struct Schedule([[u32; 8]; 16]);

impl Schedule {
    /// `W_t + K_t` of the first block (`half` 0) or the second (1), read
    /// from memory: a plain read the compiler would take straight from the
    /// register it stored, with `vpextrd` (two operations, where a load
    /// folds into the round's first `add`).
    #[inline(always)]
    fn get(&self, half: usize, t: usize) -> u32 {
        // SAFETY: a reference is valid and aligned for the read.
        unsafe { core::ptr::read_volatile(&self.0[t / 4][4 * half + t % 4]) }
    }

    /// Stores group `g` of both blocks.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn put(&mut self, g: usize, v: __m256i) {
        let dst = &mut self.0[g];
        // SAFETY: `dst` is 32 writable bytes, and any bits are valid `u32`s;
        // the store is unaligned (in fact aligned, by `Schedule`'s).
        unsafe { _mm256_storeu_si256(dst.as_mut_ptr().cast(), v) }
    }
}

/// `x ⋙ n` on each 32-bit lane, `n + m = 32` (AVX2 has no rotate).
macro_rules! rotr {
    ($x:expr, $n:literal, $m:literal) => {
        _mm256_or_si256(_mm256_srli_epi32::<$n>($x), _mm256_slli_epi32::<$m>($x))
    };
}

/// σ0 (§4.1.2, (4.6)) on each 32-bit lane.
#[target_feature(enable = "avx2")]
#[inline]
fn small_sigma0(x: __m256i) -> __m256i {
    _mm256_xor_si256(
        _mm256_xor_si256(rotr!(x, 7, 25), rotr!(x, 18, 14)),
        _mm256_srli_epi32::<3>(x),
    )
}

/// σ1 (§4.1.2, (4.7)) of `x` and `y` given as lanes `x, x, y, y`: a 64-bit
/// shift of `x:x` by `n` leaves `x ⋙ n` in its low half, so the results
/// are lanes 0 and 2 (lanes 1 and 3 are garbage).
#[target_feature(enable = "avx2")]
#[inline]
fn small_sigma1_pairs(xxyy: __m256i) -> __m256i {
    _mm256_xor_si256(
        _mm256_xor_si256(_mm256_srli_epi64::<17>(xxyy), _mm256_srli_epi64::<19>(xxyy)),
        _mm256_srli_epi32::<10>(xxyy),
    )
}

/// `W_t … W_{t+3}` of both blocks from `W_{t-16} … W_{t-1}` (§6.2.2
/// step 1), four words to a register, oldest first. `W_{t+2}` and
/// `W_{t+3}` need `W_t` and `W_{t+1}`, so σ1 comes in two halves.
#[target_feature(enable = "avx2")]
#[inline]
fn schedule(w: [__m256i; 4]) -> __m256i {
    let w15 = _mm256_alignr_epi8::<4>(w[1], w[0]);
    let w7 = _mm256_alignr_epi8::<4>(w[3], w[2]);
    let partial = _mm256_add_epi32(_mm256_add_epi32(w[0], w7), small_sigma0(w15));
    // Lanes 0, 2 → 0, 1 and lanes 0, 2 → 2, 3; the other bytes zeroed.
    let to_01 = _mm256_setr_epi8(
        0, 1, 2, 3, 8, 9, 10, 11, -1, -1, -1, -1, -1, -1, -1, -1, //
        0, 1, 2, 3, 8, 9, 10, 11, -1, -1, -1, -1, -1, -1, -1, -1,
    );
    let to_23 = _mm256_setr_epi8(
        -1, -1, -1, -1, -1, -1, -1, -1, 0, 1, 2, 3, 8, 9, 10, 11, //
        -1, -1, -1, -1, -1, -1, -1, -1, 0, 1, 2, 3, 8, 9, 10, 11,
    );
    // W_t, W_{t+1}: σ1(W_{t-2}), σ1(W_{t-1}).
    let s = small_sigma1_pairs(_mm256_shuffle_epi32::<0xfa>(w[3]));
    let low = _mm256_add_epi32(partial, _mm256_shuffle_epi8(s, to_01));
    // W_{t+2}, W_{t+3}: σ1(W_t), σ1(W_{t+1}).
    let s = small_sigma1_pairs(_mm256_shuffle_epi32::<0x50>(low));
    _mm256_add_epi32(low, _mm256_shuffle_epi8(s, to_23))
}

/// `K_{4g} … K_{4g+3}` in both halves.
#[target_feature(enable = "avx2")]
#[inline]
fn k(g: usize) -> __m256i {
    let k = |i: usize| K[4 * g + i] as i32;
    _mm256_set_epi32(k(3), k(2), k(1), k(0), k(3), k(2), k(1), k(0))
}

/// Hashes the blocks `M(i)` into the hash value `h`, one after another.
#[target_feature(enable = "avx2,bmi1,bmi2")]
pub(super) fn compress(h: &mut [u32; 8], blocks: &[[u8; 64]]) {
    // Big-endian words (§3.1): reverse the bytes of each 32-bit lane.
    let be = _mm256_broadcastsi128_si256(load(&[
        3u8, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12,
    ]));
    let mut v = *h;
    let mut wk = Schedule([[0; 8]; 16]);
    for pair in blocks.chunks(2) {
        let (first, second) = (&pair[0], pair.get(1));
        let (lows, _) = first.as_chunks::<16>();
        let (highs, _) = second.unwrap_or(first).as_chunks::<16>();
        let mut w = [0, 1, 2, 3].map(|g| {
            let both = _mm256_inserti128_si256::<1>(
                _mm256_castsi128_si256(load(&lows[g])),
                load(&highs[g]),
            );
            _mm256_shuffle_epi8(both, be)
        });
        for (g, &x) in w.iter().enumerate() {
            wk.put(g, _mm256_add_epi32(x, k(g)));
        }
        // The first block's rounds; every fourth computes the group of
        // words sixteen rounds ahead, until round 44 has words 60–63.
        rounds!(v, big_sigma0, big_sigma1, |t| {
            if t.is_multiple_of(4) && t < 48 {
                let g = t / 4 + 4;
                let next = schedule([0, 1, 2, 3].map(|i| w[(g + i) % 4]));
                w[g % 4] = next;
                wk.put(g, _mm256_add_epi32(next, k(g)));
            }
            wk.get(0, t)
        });
        if second.is_some() {
            rounds!(v, big_sigma0, big_sigma1, |t| wk.get(1, t));
        }
    }
    *h = v;
}
