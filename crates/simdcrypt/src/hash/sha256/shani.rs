//! SHA-NI: `sha256rnds2` does two rounds of FIPS 180-4 §6.2.2 step 3 on
//! the state held as ABEF and CDGH in two xmm registers; `sha256msg1` and
//! `sha256msg2` compute the schedule (step 1) four words at a time, beside
//! the rounds, as in Intel's "SHA Extensions" paper and OpenSSL's
//! `sha256_block_data_order_shaext`. The state is rearranged into ABEF/CDGH
//! once per call and back at its end; all blocks run in one loop.

use core::arch::x86_64::{
    __m128i, _mm_add_epi32, _mm_alignr_epi8, _mm_blend_epi16, _mm_loadu_si128, _mm_set_epi32,
    _mm_set_epi64x, _mm_sha256msg1_epu32, _mm_sha256msg2_epu32, _mm_sha256rnds2_epu32,
    _mm_shuffle_epi8, _mm_shuffle_epi32, _mm_storeu_si128,
};

use super::K;

/// `K_{4i} … K_{4i+3}` in one register.
macro_rules! k4 {
    ($i:literal) => {
        _mm_set_epi32(
            K[4 * $i + 3] as i32,
            K[4 * $i + 2] as i32,
            K[4 * $i + 1] as i32,
            K[4 * $i] as i32,
        )
    };
}

/// Rounds `4i … 4i+3` on `abef`/`cdgh`, with the schedule work that goes
/// beside them: `m[i % 4]` holds `W_{4i} … W_{4i+3}`; the group computes
/// the next group's words (from group 3 on) and starts, with `sha256msg1`,
/// the group three ahead (from group 1 on).
macro_rules! group {
    ($i:literal, $m:ident, $abef:ident, $cdgh:ident) => {
        let wk = _mm_add_epi32($m[$i % 4], k4!($i));
        $cdgh = _mm_sha256rnds2_epu32($cdgh, $abef, wk);
        if (3..15).contains(&$i) {
            // W_{4i+4 …}: msg1(W_{4i-12 …}, W_{4i-8 …}) + W_{4i-3 …}, then σ1.
            let next = _mm_add_epi32(
                $m[($i + 1) % 4],
                _mm_alignr_epi8::<4>($m[$i % 4], $m[($i + 3) % 4]),
            );
            $m[($i + 1) % 4] = _mm_sha256msg2_epu32(next, $m[$i % 4]);
        }
        $abef = _mm_sha256rnds2_epu32($abef, $cdgh, _mm_shuffle_epi32::<0x0e>(wk));
        if (1..13).contains(&$i) {
            $m[($i + 3) % 4] = _mm_sha256msg1_epu32($m[($i + 3) % 4], $m[$i % 4]);
        }
    };
}

/// The 16 bytes of `src` (`[u8; 16]` or `[u32; 4]`) in a register.
#[inline(always)]
pub(super) fn load<T: Copy>(src: &T) -> __m128i {
    const { assert!(size_of::<T>() == 16) };
    // SAFETY: `src` is 16 readable bytes (asserted above); SSE2 is part of
    // the x86-64 baseline; the load is unaligned.
    unsafe { _mm_loadu_si128((src as *const T).cast()) }
}

/// Writes a register to `dst`.
#[inline(always)]
fn store(dst: &mut [u32; 4], v: __m128i) {
    // SAFETY: `dst` is 16 writable bytes, and any bits are valid `u32`s;
    // SSE2 is part of the x86-64 baseline; the store is unaligned.
    unsafe { _mm_storeu_si128(dst.as_mut_ptr().cast(), v) }
}

/// Hashes the blocks `M(i)` into the hash value `h`, one after another.
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
pub(super) fn compress(h: &mut [u32; 8], blocks: &[[u8; 64]]) {
    let (halves, _) = h.as_chunks_mut::<4>();
    let (dcba, hgfe) = (load(&halves[0]), load(&halves[1]));
    // (a, b, c, d), (e, f, g, h) as lanes 0–3 → ABEF, CDGH (a in lane 3).
    let badc = _mm_shuffle_epi32::<0xb1>(dcba);
    let efgh = _mm_shuffle_epi32::<0x1b>(hgfe);
    let mut abef = _mm_alignr_epi8::<8>(badc, efgh);
    let mut cdgh = _mm_blend_epi16::<0xf0>(efgh, badc);
    // Big-endian words (§3.1): reverse the bytes of each 32-bit lane.
    let be = _mm_set_epi64x(0x0c0d_0e0f_0809_0a0b, 0x0405_0607_0001_0203);
    for block in blocks {
        let (saved_abef, saved_cdgh) = (abef, cdgh);
        let (quarters, _) = block.as_chunks::<16>();
        let mut m = [0, 1, 2, 3].map(|i| _mm_shuffle_epi8(load(&quarters[i]), be));
        group!(0, m, abef, cdgh);
        group!(1, m, abef, cdgh);
        group!(2, m, abef, cdgh);
        group!(3, m, abef, cdgh);
        group!(4, m, abef, cdgh);
        group!(5, m, abef, cdgh);
        group!(6, m, abef, cdgh);
        group!(7, m, abef, cdgh);
        group!(8, m, abef, cdgh);
        group!(9, m, abef, cdgh);
        group!(10, m, abef, cdgh);
        group!(11, m, abef, cdgh);
        group!(12, m, abef, cdgh);
        group!(13, m, abef, cdgh);
        group!(14, m, abef, cdgh);
        group!(15, m, abef, cdgh);
        // Step 4: the intermediate hash value.
        abef = _mm_add_epi32(abef, saved_abef);
        cdgh = _mm_add_epi32(cdgh, saved_cdgh);
    }
    let feba = _mm_shuffle_epi32::<0x1b>(abef);
    let dchg = _mm_shuffle_epi32::<0xb1>(cdgh);
    let dcba = _mm_blend_epi16::<0xf0>(feba, dchg);
    let hgef = _mm_alignr_epi8::<8>(dchg, feba);
    store(&mut halves[0], dcba);
    store(&mut halves[1], hgef);
}
