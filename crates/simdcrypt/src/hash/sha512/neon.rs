//! Advanced SIMD for the message schedule, general-purpose registers for
//! the rounds, for cores without the SHA-512 instructions (Cortex-A72,
//! A53): FIPS 180-4 §6.4.2 step 1 two words to a 128-bit register, σ0 and
//! σ1 (§4.1.3, (4.12), (4.13)) as shifts, shift-right-and-insert for the
//! rotations and a byte permute (`tbl`) for ROTR⁸; `K_t + W_t` of the
//! next 16 rounds computed beside the current 16 ([`super::scalar`]'s
//! rounds, on renamed variables) and read from a small buffer, so the
//! integer units do the rounds alone. A pair W_t, W_{t+1} (t even) needs
//! no word of its own: W_{t-2} and W_{t-1} are the previous pair.

use core::arch::aarch64::{
    uint8x16_t, uint64x2_t, vaddq_u64, veorq_u64, vextq_u64, vld1q_u8, vld1q_u64,
    vqtbl1q_u8, vreinterpretq_u8_u64, vreinterpretq_u64_u8, vrev64q_u8, vshlq_n_u64,
    vshrq_n_u64, vsriq_n_u64, vst1q_u64,
};

use super::K512;
use super::scalar::sixteen_rounds;

/// ROTR^N (§3.2) of both lanes: shift left, then insert the right shift.
#[inline]
#[target_feature(enable = "neon")]
fn rotr2<const L: i32, const N: i32>(x: uint64x2_t) -> uint64x2_t {
    const { assert!(L + N == 64) };
    vsriq_n_u64::<N>(vshlq_n_u64::<L>(x), x)
}

/// σ0 (§4.1.3, (4.12)) of both lanes: ROTR¹ ^ ROTR⁸ ^ SHR⁷, ROTR⁸ a
/// permute of each lane's bytes by `rotr8` ([`ROTR8`]).
#[inline]
#[target_feature(enable = "neon")]
fn small_sigma0(x: uint64x2_t, rotr8: uint8x16_t) -> uint64x2_t {
    let r8 = vreinterpretq_u64_u8(vqtbl1q_u8(vreinterpretq_u8_u64(x), rotr8));
    veorq_u64(veorq_u64(rotr2::<63, 1>(x), r8), vshrq_n_u64::<7>(x))
}

/// σ1 (§4.1.3, (4.13)) of both lanes: ROTR¹⁹ ^ ROTR⁶¹ ^ SHR⁶.
#[inline]
#[target_feature(enable = "neon")]
fn small_sigma1(x: uint64x2_t) -> uint64x2_t {
    veorq_u64(veorq_u64(rotr2::<45, 19>(x), rotr2::<3, 61>(x)), vshrq_n_u64::<6>(x))
}

/// The byte indices of ROTR⁸ on little-endian 64-bit lanes: byte `i`
/// of a lane takes byte `i + 1`, the top byte takes byte 0.
const ROTR8: [u8; 16] = [1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8];

/// K (§4.2.3) as pairs, eight pairs for each 16 rounds.
const K_GROUPS: [[[u64; 2]; 8]; 5] = {
    let mut groups = [[[0; 2]; 8]; 5];
    let mut t = 0;
    while t < 80 {
        groups[t / 16][t % 16 / 2][t % 2] = K512[t];
        t += 1;
    }
    groups
};

/// Two words in a register, word 0 in lane 0.
#[inline]
#[target_feature(enable = "neon")]
pub(super) fn load_words(src: &[u64; 2]) -> uint64x2_t {
    // SAFETY: `src` is 16 readable bytes; Advanced SIMD is part of the
    // aarch64 baseline.
    unsafe { vld1q_u64(src.as_ptr()) }
}

/// Writes a register to `dst`.
#[inline]
#[target_feature(enable = "neon")]
pub(super) fn store(dst: &mut [u64; 2], v: uint64x2_t) {
    // SAFETY: `dst` is 16 writable bytes, and any bits are valid `u64`s;
    // Advanced SIMD is part of the aarch64 baseline.
    unsafe { vst1q_u64(dst.as_mut_ptr(), v) }
}

/// The 16 bytes `src` of a block as two big-endian words (§3.1).
#[inline]
#[target_feature(enable = "neon")]
pub(super) fn load_be(src: &[u8; 16]) -> uint64x2_t {
    // SAFETY: `src` is 16 readable bytes; Advanced SIMD is part of the
    // aarch64 baseline.
    vreinterpretq_u64_u8(vrev64q_u8(unsafe { vld1q_u8(src.as_ptr()) }))
}

/// Hashes whole 1024-bit blocks into the hash value `state` (§6.4.2).
#[target_feature(enable = "neon")]
pub(super) fn compress(state: &mut [u64; 8], blocks: &[[u8; 128]]) {
    let [k_first, k_groups @ ..] = &K_GROUPS;
    // SAFETY: `ROTR8` is 16 readable bytes.
    let rotr8 = unsafe { vld1q_u8(ROTR8.as_ptr()) };
    for block in blocks {
        let (chunks, _) = block.as_chunks::<16>();
        // `s[j % 8]`: the pair W_{2j}, W_{2j+1} of the latest 16 words.
        let mut s: [uint64x2_t; 8] = core::array::from_fn(|j| load_be(&chunks[j]));
        // K_t + W_t of the 16 rounds under way (`now`) and of the 16 to
        // come (`next`), as pairs; the two buffers swap every 16 rounds.
        let mut buffers = [[[0u64; 2]; 8]; 2];
        let [mut now, mut next] = buffers.each_mut();
        for (j, pair) in now.iter_mut().enumerate() {
            store(pair, vaddq_u64(s[j], load_words(&k_first[j])));
        }
        let mut v = *state;
        for kg in k_groups {
            // Round `i` of these 16 reads its K_t + W_t and, at even `i`,
            // computes the pair 16 words on (W_t = σ1(W_{t-2}) + W_{t-7} +
            // σ0(W_{t-15}) + W_{t-16}) in place of the pair 16 words back.
            macro_rules! scheduled {
                ($i:literal) => {{
                    if $i % 2 == 0 {
                        let j = $i / 2;
                        s[j] = vaddq_u64(
                            vaddq_u64(s[j], small_sigma0(vextq_u64::<1>(s[j], s[(j + 1) % 8]), rotr8)),
                            vaddq_u64(
                                vextq_u64::<1>(s[(j + 4) % 8], s[(j + 5) % 8]),
                                small_sigma1(s[(j + 7) % 8]),
                            ),
                        );
                        store(&mut next[j], vaddq_u64(s[j], load_words(&kg[j])));
                    }
                    now[$i / 2][$i % 2]
                }};
            }
            sixteen_rounds!(rotr; v, scheduled);
            core::mem::swap(&mut now, &mut next);
        }
        // The last 16 rounds: their words are all there.
        macro_rules! last {
            ($i:literal) => {
                now[$i / 2][$i % 2]
            };
        }
        sixteen_rounds!(rotr; v, last);
        // Step 4.
        for (h, x) in state.iter_mut().zip(v) {
            *h = h.wrapping_add(x);
        }
    }
}
