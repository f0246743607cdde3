//! SHA-NI: `sha1rnds4` does 4 rounds on A–D held in one xmm register (A
//! in the top lane), `sha1nexte` derives E of the next 4 rounds and adds it
//! to their W, `sha1msg1` and `sha1msg2` compute the schedule 4 words at a
//! time (Intel, "Intel SHA Extensions", 2013). The state is loaded and
//! stored once per call, every block in one loop.

use core::arch::x86_64::{
    __m128i, _mm_add_epi32, _mm_cvtsi128_si32, _mm_loadu_si128, _mm_set_epi32, _mm_set_epi64x,
    _mm_sha1msg1_epu32, _mm_sha1msg2_epu32, _mm_sha1nexte_epu32, _mm_sha1rnds4_epu32,
    _mm_shuffle_epi8, _mm_shuffle_epi32, _mm_srli_si128, _mm_storeu_si128, _mm_xor_si128,
};

/// Group `$i` of 4 rounds (4i … 4i + 3) on `$abcd` with `$msg[$i % 4]` =
/// W_{4i} … W_{4i+3}; `$prev` is A–D before the previous group, from which
/// `sha1nexte` takes this group's E (group 0 adds W to the block's E,
/// `$e`). Then the schedule moves on ([`schedule`]).
macro_rules! group {
    (@e 0, $e:ident, $prev:ident, $w:ident) => {
        _mm_add_epi32($e, $w)
    };
    (@e $i:tt, $e:ident, $prev:ident, $w:ident) => {
        _mm_sha1nexte_epu32($prev, $w)
    };
    ($abcd:ident, $e:ident, $prev:ident, $msg:ident; $($i:tt)*) => {$(
        let w = $msg[$i % 4];
        let e = group!(@e $i, $e, $prev, w);
        $prev = $abcd;
        $abcd = _mm_sha1rnds4_epu32::<{ $i / 5 }>($abcd, e);
        schedule(&mut $msg, $i);
    )*};
}

/// The schedule's steps that group `i`'s W (in `msg[i % 4]`) takes part
/// in: the groups 1, 2 and 3 ahead take their `sha1msg2`, XOR and
/// `sha1msg1` steps (group j = sha1msg2(sha1msg1(group j−4, group j−3) ⊕
/// group j−2, group j−1), each in the place of group j − 4).
#[inline]
#[target_feature(enable = "sha,ssse3")]
fn schedule(msg: &mut [__m128i; 4], i: usize) {
    let w = msg[i % 4];
    if i >= 1 && i + 3 < 20 {
        msg[(i + 3) % 4] = _mm_sha1msg1_epu32(msg[(i + 3) % 4], w);
    }
    if i >= 2 && i + 2 < 20 {
        msg[(i + 2) % 4] = _mm_xor_si128(msg[(i + 2) % 4], w);
    }
    if i >= 3 && i + 1 < 20 {
        msg[(i + 1) % 4] = _mm_sha1msg2_epu32(msg[(i + 1) % 4], w);
    }
}

/// Words `4g … 4g + 3` of `block`, byte-swapped to big-endian words (§3.1).
#[inline]
#[target_feature(enable = "sha,ssse3")]
fn load(block: &[u8; 64], g: usize, bswap: __m128i) -> __m128i {
    let (chunks, _) = block.as_chunks::<16>();
    // SAFETY: `chunks[g]` is 16 readable bytes; the load is unaligned.
    _mm_shuffle_epi8(unsafe { _mm_loadu_si128(chunks[g].as_ptr().cast()) }, bswap)
}

/// Hashes the blocks into the hash value `h`.
///
/// # Safety
///
/// The CPU must have SHA-NI and SSSE3.
#[target_feature(enable = "sha,ssse3")]
pub(super) unsafe fn compress(h: &mut [u32; 5], blocks: &[[u8; 64]]) {
    // Reverses the 16 bytes: big-endian words, and word 0 in the top lane.
    let bswap = _mm_set_epi64x(0x0001_0203_0405_0607, 0x0809_0a0b_0c0d_0e0f);
    let (abcd_words, _) = h.as_chunks::<4>();
    // SAFETY: `abcd_words[0]` is 16 readable bytes; the load is unaligned.
    let abcd = unsafe { _mm_loadu_si128(abcd_words[0].as_ptr().cast()) };
    // A in the top lane, D in the bottom one; E in the top lane of `e`.
    let mut abcd = _mm_shuffle_epi32::<0x1b>(abcd);
    let mut e = _mm_set_epi32(h[4] as i32, 0, 0, 0);
    for block in blocks {
        let (abcd_in, e_in) = (abcd, e);
        let mut msg = [
            load(block, 0, bswap),
            load(block, 1, bswap),
            load(block, 2, bswap),
            load(block, 3, bswap),
        ];
        let mut prev;
        group!(abcd, e, prev, msg; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19);
        // E after the 80 rounds is ROTL³⁰ of A four rounds before the end.
        e = _mm_sha1nexte_epu32(prev, e_in);
        abcd = _mm_add_epi32(abcd, abcd_in);
    }
    let abcd = _mm_shuffle_epi32::<0x1b>(abcd);
    let (abcd_words, _) = h.as_chunks_mut::<4>();
    // SAFETY: `abcd_words[0]` is 16 writable bytes; the store is unaligned.
    unsafe { _mm_storeu_si128(abcd_words[0].as_mut_ptr().cast(), abcd) };
    h[4] = _mm_cvtsi128_si32(_mm_srli_si128::<12>(e)) as u32;
}
