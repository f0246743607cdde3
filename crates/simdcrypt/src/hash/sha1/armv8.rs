//! The Armv8 SHA-1 instructions (FEAT_SHA1, Arm ARM C7.2: `SHA1C`,
//! `SHA1P`, `SHA1M`, `SHA1H`, `SHA1SU0`, `SHA1SU1`): `sha1c`, `sha1p` and
//! `sha1m` do four rounds of FIPS 180-4 §6.1.2 step 3 with Ch, Parity and
//! Maj (§4.1.1) on A–D held in one vector register (A in lane 0, the hash
//! value's own order) and E in a scalar; `sha1h` gives the E of the next
//! four rounds, ROTL³⁰(A); `sha1su0` and `sha1su1` compute the schedule
//! (step 1) four words at a time beside the rounds, as OpenSSL's
//! `sha1_block_armv8` does. The state is loaded and stored once per call,
//! every block in one loop.

use core::arch::aarch64::{
    uint32x4_t, vaddq_u32, vdupq_n_u32, vgetq_lane_u32, vld1q_u8, vld1q_u32,
    vreinterpretq_u32_u8, vrev32q_u8, vsha1cq_u32, vsha1h_u32, vsha1mq_u32, vsha1pq_u32,
    vsha1su0q_u32, vsha1su1q_u32, vst1q_u32,
};

use super::K;

/// Group `$i` of 4 rounds (4i … 4i + 3) with the instruction `$f` for its
/// Boolean function, on `$abcd` and `$e`, with `$m[$i % 4]` = W_{4i} …
/// W_{4i+3}; the group then computes, in its place, W_{4i+16} … W_{4i+19}
/// (groups 0–15): `sha1su0` XORs W_{t-16}, W_{t-14} and W_{t-8},
/// `sha1su1` W_{t-3} and rotates.
macro_rules! group {
    ($f:ident, $k:ident, $m:ident, $abcd:ident, $e:ident; $($i:literal)*) => {$(
        let wk = vaddq_u32($m[$i % 4], $k);
        if $i < 16 {
            $m[$i % 4] = vsha1su1q_u32(
                vsha1su0q_u32($m[$i % 4], $m[($i + 1) % 4], $m[($i + 2) % 4]),
                $m[($i + 3) % 4],
            );
        }
        let next_e = vsha1h_u32(vgetq_lane_u32::<0>($abcd));
        $abcd = $f($abcd, $e, wk);
        $e = next_e;
    )*};
}

/// The 16 bytes `src` of a block as four big-endian words (§3.1).
#[inline]
#[target_feature(enable = "neon")]
fn load_be(src: &[u8; 16]) -> uint32x4_t {
    // SAFETY: `src` is 16 readable bytes; Advanced SIMD is part of the
    // aarch64 baseline.
    vreinterpretq_u32_u8(vrev32q_u8(unsafe { vld1q_u8(src.as_ptr()) }))
}

/// Hashes the blocks into the hash value `h`, one after another.
#[target_feature(enable = "neon,sha2")]
pub(super) fn compress(h: &mut [u32; 5], blocks: &[[u8; 64]]) {
    let [k0, k1, k2, k3] = [0, 1, 2, 3].map(|i| vdupq_n_u32(K[i]));
    let (abcd_words, _) = h.as_chunks::<4>();
    // SAFETY: `abcd_words[0]` is 16 readable bytes.
    let mut abcd = unsafe { vld1q_u32(abcd_words[0].as_ptr()) };
    let mut e = h[4];
    for block in blocks {
        let (abcd_in, e_in) = (abcd, e);
        let (quarters, _) = block.as_chunks::<16>();
        let mut m = [0, 1, 2, 3].map(|i| load_be(&quarters[i]));
        group!(vsha1cq_u32, k0, m, abcd, e; 0 1 2 3 4);
        group!(vsha1pq_u32, k1, m, abcd, e; 5 6 7 8 9);
        group!(vsha1mq_u32, k2, m, abcd, e; 10 11 12 13 14);
        group!(vsha1pq_u32, k3, m, abcd, e; 15 16 17 18 19);
        // Step 4: the intermediate hash value.
        abcd = vaddq_u32(abcd, abcd_in);
        e = e.wrapping_add(e_in);
    }
    let (abcd_words, _) = h.as_chunks_mut::<4>();
    // SAFETY: `abcd_words[0]` is 16 writable bytes, and any bits are
    // valid `u32`s.
    unsafe { vst1q_u32(abcd_words[0].as_mut_ptr(), abcd) };
    h[4] = e;
}
