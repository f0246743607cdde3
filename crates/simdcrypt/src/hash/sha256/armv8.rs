//! The Armv8 SHA-256 instructions (FEAT_SHA256, Arm ARM C7.2: `SHA256H`,
//! `SHA256H2`, `SHA256SU0`, `SHA256SU1`): `sha256h` and `sha256h2` do four
//! rounds of FIPS 180-4 §6.2.2 step 3, the first giving the new A–D and
//! the second the new E–H, from the state held as ABCD and EFGH in two
//! vector registers (A in lane 0: the hash value's own order, so the state
//! is loaded and stored as it is); `sha256su0` and `sha256su1` compute the
//! schedule (step 1) four words at a time, beside the rounds, as in the
//! Arm Cryptography Extension's reference and OpenSSL's
//! `sha256_block_armv8`. All blocks run in one loop.

use core::arch::aarch64::{
    uint32x4_t, vaddq_u32, vld1q_u8, vld1q_u32, vreinterpretq_u32_u8, vrev32q_u8,
    vsha256h2q_u32, vsha256hq_u32, vsha256su0q_u32, vsha256su1q_u32, vst1q_u32,
};

use super::K;

/// Rounds `4i … 4i+3` on `abcd`/`efgh`: `m[i % 4]` holds W_{4i} …
/// W_{4i+3}, and the group then computes, in its place, W_{4i+16} …
/// W_{4i+19} (groups 0–11): `sha256su0` adds σ0(W_{t-15}) to W_{t-16},
/// `sha256su1` adds W_{t-7} and σ1(W_{t-2}).
macro_rules! group {
    ($i:literal, $m:ident, $k:ident, $abcd:ident, $efgh:ident) => {
        let wk = vaddq_u32($m[$i % 4], load_words(&$k[$i]));
        if $i < 12 {
            $m[$i % 4] = vsha256su1q_u32(
                vsha256su0q_u32($m[$i % 4], $m[($i + 1) % 4]),
                $m[($i + 2) % 4],
                $m[($i + 3) % 4],
            );
        }
        let abcd = $abcd;
        $abcd = vsha256hq_u32($abcd, $efgh, wk);
        $efgh = vsha256h2q_u32($efgh, abcd, wk);
    };
}

/// Four words in a register, word 0 in lane 0.
#[inline]
#[target_feature(enable = "neon")]
fn load_words(src: &[u32; 4]) -> uint32x4_t {
    // SAFETY: `src` is 16 readable bytes; Advanced SIMD is part of the
    // aarch64 baseline; the load needs no alignment beyond `u32`'s.
    unsafe { vld1q_u32(src.as_ptr()) }
}

/// The 16 bytes `src` of a block as four big-endian words (§3.1).
#[inline]
#[target_feature(enable = "neon")]
fn load_be(src: &[u8; 16]) -> uint32x4_t {
    // SAFETY: `src` is 16 readable bytes; Advanced SIMD is part of the
    // aarch64 baseline.
    vreinterpretq_u32_u8(vrev32q_u8(unsafe { vld1q_u8(src.as_ptr()) }))
}

/// Writes a register to `dst`.
#[inline]
#[target_feature(enable = "neon")]
fn store(dst: &mut [u32; 4], v: uint32x4_t) {
    // SAFETY: `dst` is 16 writable bytes, and any bits are valid `u32`s;
    // Advanced SIMD is part of the aarch64 baseline.
    unsafe { vst1q_u32(dst.as_mut_ptr(), v) }
}

/// Hashes the blocks `M(i)` into the hash value `h`, one after another.
#[target_feature(enable = "neon,sha2")]
pub(super) fn compress(h: &mut [u32; 8], blocks: &[[u8; 64]]) {
    let (k, _) = K.as_chunks::<4>();
    let (halves, _) = h.as_chunks_mut::<4>();
    let (mut abcd, mut efgh) = (load_words(&halves[0]), load_words(&halves[1]));
    for block in blocks {
        let (saved_abcd, saved_efgh) = (abcd, efgh);
        let (quarters, _) = block.as_chunks::<16>();
        let mut m = [0, 1, 2, 3].map(|i| load_be(&quarters[i]));
        group!(0, m, k, abcd, efgh);
        group!(1, m, k, abcd, efgh);
        group!(2, m, k, abcd, efgh);
        group!(3, m, k, abcd, efgh);
        group!(4, m, k, abcd, efgh);
        group!(5, m, k, abcd, efgh);
        group!(6, m, k, abcd, efgh);
        group!(7, m, k, abcd, efgh);
        group!(8, m, k, abcd, efgh);
        group!(9, m, k, abcd, efgh);
        group!(10, m, k, abcd, efgh);
        group!(11, m, k, abcd, efgh);
        group!(12, m, k, abcd, efgh);
        group!(13, m, k, abcd, efgh);
        group!(14, m, k, abcd, efgh);
        group!(15, m, k, abcd, efgh);
        // Step 4: the intermediate hash value.
        abcd = vaddq_u32(abcd, saved_abcd);
        efgh = vaddq_u32(efgh, saved_efgh);
    }
    store(&mut halves[0], abcd);
    store(&mut halves[1], efgh);
}
