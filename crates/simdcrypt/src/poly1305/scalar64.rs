//! Any CPU: radix 2^64, the accumulator in three 64-bit words, products in
//! `u128` (`mul`/`mulx`), one block at a time. The fast path for short
//! messages, and the arithmetic the vector rungs use for theirs.
//!
//! The accumulator is `h = h0 + h1·2^64 + h2·2^128` with `h2` a few bits,
//! kept below 2^130 + 2^66 between blocks (partially reduced); `r` is
//! `r0 + r1·2^64` after clamping (RFC 8439 §2.5), so `r0, r1 < 2^60` and
//! `4 | r1`, which makes `s1 = r1 + r1/4 = 5·r1/4` exact: the factor that
//! folds `2^128·r1 = 2^130·(r1/4) ≡ 5·(r1/4) (mod p)` back into the low words.

/// `2^128`, the bit the RFC's appended 0x01 byte sets in a full block,
/// as it sits in `h2`.
pub(super) const HIBIT: u64 = 1;

/// The clamped `r` as two 64-bit words (RFC 8439 §2.5).
pub(super) fn clamp(key: &[u8; 32]) -> [u64; 2] {
    let w = |i: usize| u64::from_le_bytes(std::array::from_fn(|j| key[8 * i + j]));
    [w(0) & 0x0fff_fffc_0fff_ffff, w(1) & 0x0fff_fffc_0fff_fffc]
}

/// `s`, the second half of the key, as two 64-bit words.
pub(super) fn s(key: &[u8; 32]) -> [u64; 2] {
    let w = |i: usize| u64::from_le_bytes(std::array::from_fn(|j| key[8 * i + j]));
    [w(2), w(3)]
}

/// `h · r mod p`, partially reduced, for `h2 ≤ 7` (which every caller
/// keeps: `h2 ≤ 4` after a multiplication, plus the 2^128 bit and a carry):
/// the result is below 2^130 + 2^63.
#[inline(always)]
pub(super) fn mul(h: [u64; 3], r: &[u64; 2]) -> [u64; 3] {
    let [h0, h1, h2] = h;
    let [r0, r1] = *r;
    let s1 = r1 + (r1 >> 2);
    let wide = |a: u64, b: u64| u128::from(a) * u128::from(b);
    // (h0 + h1·2^64 + h2·2^128)(r0 + r1·2^64), with 2^128·r1 ≡ 2^0·s1 and
    // 2^192·r1 ≡ 2^64·s1 (mod p); h2·s1 < 2^64 and h2·r0 < 2^63. The
    // products of h0 first, then those of h1: `mulx` takes one factor in
    // rdx, which then holds h0 and h1 in turn (one move per block, not
    // four).
    let (h0r0, h0r1) = (wide(h0, r0), wide(h0, r1));
    let (h1s1, h1r0) = (wide(h1, s1), wide(h1, r0));
    let d0 = h0r0 + h1s1;
    let d1 = h0r1 + h1r0 + u128::from(h2 * s1) + (d0 >> 64);
    let d2 = h2 * r0 + (d1 >> 64) as u64;
    // Fold the bits at and above 2^130: 2^130·c ≡ 5·c, and d2 < 0.69·2^64
    // so that 5·(d2 >> 2) fits (a shift and an `lea`).
    let c = (d2 >> 2) * 5;
    let t0 = u128::from(d0 as u64) + u128::from(c);
    let t1 = u128::from(d1 as u64) + (t0 >> 64);
    // The new h2 through `ct::opaque`: seen through, LLVM merges its carry with
    // the next block's carry and 2^128 bit (`setb`, `movzx`, `adc`, `inc`
    // instead of two `adc`s).
    [t0 as u64, t1 as u64, crate::ct::opaque((d2 & 3) + (t1 >> 64) as u64)]
}

/// `h += m` for a 16-byte block `m` plus `hibit · 2^128`.
#[inline(always)]
pub(super) fn add_block(h: [u64; 3], block: &[u8; 16], hibit: u64) -> [u64; 3] {
    let m = u128::from_le_bytes(*block);
    let low = u128::from(h[0]) | u128::from(h[1]) << 64;
    let (sum, carry) = low.overflowing_add(m);
    [
        sum as u64,
        (sum >> 64) as u64,
        h[2] + hibit + u64::from(carry),
    ]
}

/// The loop of RFC 8439 §2.5.1 over full blocks: `h = (h + m)·r`.
#[inline(always)]
pub(super) fn blocks_inline(h: &mut [u64; 3], r: &[u64; 2], blocks: &[[u8; 16]], hibit: u64) {
    let mut acc = *h;
    for block in blocks {
        acc = mul(add_block(acc, block, hibit), r);
    }
    *h = acc;
}

/// [`blocks_inline`] compiled for the baseline CPU: the `scalar64` rung.
pub(super) fn blocks(h: &mut [u64; 3], r: &[u64; 2], blocks: &[[u8; 16]], hibit: u64) {
    blocks_inline(h, r, blocks, hibit);
}

/// `h mod p`, fully reduced, for a partially reduced `h` (below 2p):
/// `h − p = h + 5 − 2^130` is chosen in constant time when it does not go
/// negative.
pub(super) fn reduce(h: [u64; 3]) -> [u64; 3] {
    // Carry h2's excess first so that h < 2^130 + 2^66 < 2p.
    let c = (h[2] >> 2) * 5;
    let (h0, c0) = h[0].overflowing_add(c);
    let (h1, c1) = h[1].overflowing_add(u64::from(c0));
    let h2 = (h[2] & 3) + u64::from(c1);
    let (g0, c0) = h0.overflowing_add(5);
    let (g1, c1) = h1.overflowing_add(u64::from(c0));
    let g2 = h2 + u64::from(c1);
    // All ones when g ≥ 2^130, i.e. h ≥ p.
    let mask = 0u64.wrapping_sub(g2 >> 2);
    [
        (g0 & mask) | (h0 & !mask),
        (g1 & mask) | (h1 & !mask),
        (g2 & 3 & mask) | (h2 & !mask),
    ]
}

/// The tag: `(h mod p) + s`, its low 128 bits little-endian (§2.5.1).
pub(super) fn tag(h: [u64; 3], s: &[u64; 2]) -> [u8; 16] {
    let h = reduce(h);
    let a = u128::from(h[0]) | u128::from(h[1]) << 64;
    let b = u128::from(s[0]) | u128::from(s[1]) << 64;
    a.wrapping_add(b).to_le_bytes()
}

/// `r^1, r^2, …, r^N mod p`, fully reduced: what the vector rungs' power
/// tables must hold.
#[cfg(test)]
pub(super) fn powers<const N: usize>(r: &[u64; 2]) -> [[u64; 3]; N] {
    let mut out = [[0u64; 3]; N];
    let mut x = [r[0], r[1], 0];
    for slot in out.iter_mut() {
        *slot = reduce(x);
        x = mul(*slot, r);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `2^130 − 5` as three words.
    const P: [u64; 3] = [0xffff_ffff_ffff_fffb, 0xffff_ffff_ffff_ffff, 3];

    #[test]
    fn reduce_picks_h_minus_p_at_and_above_p() {
        assert_eq!(reduce(P), [0, 0, 0]);
        assert_eq!(reduce([P[0] + 1, P[1], P[2]]), [1, 0, 0]);
        assert_eq!(reduce([P[0] - 1, P[1], P[2]]), [P[0] - 1, P[1], P[2]]);
        // 2^130 + 3 ≡ 8.
        assert_eq!(reduce([3, 0, 4]), [8, 0, 0]);
    }

    #[test]
    fn powers_multiply_up() {
        let r = clamp(&[0xff; 32]);
        let pw = powers::<4>(&r);
        assert_eq!(pw[0], [r[0], r[1], 0]);
        for i in 1..4 {
            assert_eq!(pw[i], reduce(mul(pw[i - 1], &r)));
        }
    }
}
