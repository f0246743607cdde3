//! NEON (aarch64 Advanced SIMD): radix 2^26, 8 blocks per step as four
//! independent chains of 2 lanes (the technique of OpenSSL's
//! `poly1305-armv8` NEON path, and of Goll and Gueron, "Vectorization of
//! Poly1305 message authentication code", 2015).
//!
//! Each 64-bit lane holds one limb of one block's accumulator, five limbs
//! of 26 bits; a limb product is `umull` (`vmull_u32`) of the limbs
//! narrowed to 32 bits (`xtn`), and the other four of a sum `umlal`, so
//! the 25 limb products of a 2-lane multiplication are 25 instructions,
//! with `5·r_i` precomputed to fold the products at and above 2^130
//! (RFC 8439 §2.5: p = 2^130 − 5). A step multiplies the four chains by
//! r^8 and adds the next 8 blocks; the chains' latencies (multiply-add,
//! carry) overlap. Short runs use the scalar arithmetic
//! ([`super::scalar64`]), as the other vector rungs do.

use core::arch::aarch64::{
    uint32x2_t, uint64x2_t, vadd_u32, vaddq_u64, vaddvq_u64, vandq_u64, vdup_n_u32, vdupq_n_u64,
    vld1_u32, vld1q_u8, vld1q_u64, vmlal_u32, vmovn_u64, vmull_u32, vorrq_u64,
    vreinterpretq_u64_u8, vshl_n_u32, vshlq_n_u64, vshrq_n_u64, vsriq_n_u64, vst1q_u64, vzip1q_u64,
    vzip2q_u64,
};

use super::lanes::{LANES, Lanes, Powers, from_radix, to_radix, vector_blocks};

/// Lanes per register: two 64-bit limbs.
const WIDTH: usize = 2;

/// Independent chains per step: `LANES / WIDTH`; chain `c` holds blocks
/// `2c` and `2c + 1` of a step.
const CHAINS: usize = LANES / WIDTH;

/// Five limbs of two lanes.
type Pair = [uint64x2_t; 5];

/// The accumulator lanes, chain by chain.
type State = [Pair; CHAINS];

/// A multiplier, lane by lane: its limbs `r` and `5·r` (limb 0 of `s`
/// unused), narrowed to 32 bits for `umull`.
#[derive(Clone, Copy)]
struct Power {
    r: [uint32x2_t; 5],
    s: [uint32x2_t; 5],
}

const MASK26: u64 = (1 << 26) - 1;

/// Two values as a vector, lane 0 first.
#[target_feature(enable = "neon")]
#[inline]
fn from_array(v: [u64; WIDTH]) -> uint64x2_t {
    // SAFETY: `v` is 16 readable bytes.
    unsafe { vld1q_u64(v.as_ptr()) }
}

/// The two lanes of a vector.
#[target_feature(enable = "neon")]
#[inline]
fn to_array(v: uint64x2_t) -> [u64; WIDTH] {
    let mut out = [0u64; WIDTH];
    // SAFETY: `out` is 16 writable bytes.
    unsafe { vst1q_u64(out.as_mut_ptr(), v) };
    out
}

#[target_feature(enable = "neon")]
#[inline]
fn zero() -> State {
    [[vdupq_n_u64(0); 5]; CHAINS]
}

/// The lanes as stored in [`Lanes`] (block `j` of a step at index `j`).
#[target_feature(enable = "neon")]
#[inline]
fn load(lanes: &Lanes) -> State {
    std::array::from_fn(|c| {
        std::array::from_fn(|i| {
            let (pairs, _) = lanes[i].as_chunks::<WIDTH>();
            from_array(pairs[c])
        })
    })
}

#[target_feature(enable = "neon")]
#[inline]
fn store(state: State, lanes: &mut Lanes) {
    for (c, limbs) in state.iter().enumerate() {
        for (row, &v) in lanes.iter_mut().zip(limbs) {
            row[WIDTH * c..WIDTH * (c + 1)].copy_from_slice(&to_array(v));
        }
    }
}

/// The multiplier whose lane `l` is the value in lane `l` of `limbs`
/// (limbs below 2^27, so that `5·r` fits 32 bits).
#[target_feature(enable = "neon")]
#[inline]
fn multiplier(limbs: [uint32x2_t; 5]) -> Power {
    Power {
        r: limbs,
        s: limbs.map(|x| vadd_u32(x, vshl_n_u32::<2>(x))),
    }
}

/// The multiplier of two lanes of limbs (each below 2^27).
#[target_feature(enable = "neon")]
#[inline]
fn multiplier_of(p: Pair) -> Power {
    multiplier(p.map(|v| vmovn_u64(v)))
}

/// r^k in every lane.
#[target_feature(enable = "neon")]
#[inline]
fn power(powers: &Powers, k: usize) -> Power {
    multiplier(std::array::from_fn(|i| vdup_n_u32(powers[i][k - 1] as u32)))
}

/// The multiplier that folds the lanes of chain `c`: block `j` (of 8)
/// times r^(8−j), so r^(8−2c) and r^(7−2c).
#[target_feature(enable = "neon")]
#[inline]
fn fold_power(powers: &Powers, c: usize) -> Power {
    multiplier(std::array::from_fn(|i| {
        let pair = [powers[i][7 - 2 * c] as u32, powers[i][6 - 2 * c] as u32];
        // SAFETY: `pair` is 8 readable bytes.
        unsafe { vld1_u32(pair.as_ptr()) }
    }))
}

/// One carry: the bits of `from` above 26 move into `to` (times 5 when
/// `from` is limb 4, whose carry is worth 2^130 ≡ 5).
#[target_feature(enable = "neon")]
#[inline]
fn carry_into(from: &mut uint64x2_t, to: &mut uint64x2_t, times_five: bool) {
    let mut c = vshrq_n_u64::<26>(*from);
    if times_five {
        c = vaddq_u64(c, vshlq_n_u64::<2>(c));
    }
    *from = vandq_u64(*from, vdupq_n_u64(MASK26));
    *to = vaddq_u64(*to, c);
}

/// Carries every limb into the next, 2^130 folded into limb 0 times 5, in
/// two interleaved chains (OpenSSL's order): limbs end below 2^26, limbs 1
/// and 4 at most a few units above.
#[target_feature(enable = "neon")]
#[inline]
fn carry(d: Pair) -> Pair {
    let [mut d0, mut d1, mut d2, mut d3, mut d4] = d;
    carry_into(&mut d3, &mut d4, false);
    carry_into(&mut d0, &mut d1, false);
    carry_into(&mut d4, &mut d0, true);
    carry_into(&mut d1, &mut d2, false);
    carry_into(&mut d2, &mut d3, false);
    carry_into(&mut d0, &mut d1, false);
    carry_into(&mut d3, &mut d4, false);
    [d0, d1, d2, d3, d4]
}

/// `h · p mod p`, lane by lane, carried. With `h` limbs below 2^28 and
/// `r` limbs below 2^27, each product is below 2^58 (with `5·r`), and each
/// sum of five below 2^61.
#[target_feature(enable = "neon")]
#[inline]
fn mul_pair(h: Pair, p: &Power) -> Pair {
    let mut narrow = [vdup_n_u32(0); 5];
    for (n, &v) in narrow.iter_mut().zip(&h) {
        *n = vmovn_u64(v);
    }
    let h = narrow;
    let [r0, r1, r2, r3, r4] = p.r;
    let [_, s1, s2, s3, s4] = p.s;
    // d_k = Σ h_i · r_(k−i), where r_(k−i) for i > k wraps past 2^130 and
    // comes as 5·r_(5+k−i).
    let dot = |b: [uint32x2_t; 5]| {
        let mut d = vmull_u32(h[0], b[0]);
        for i in 1..5 {
            d = vmlal_u32(d, h[i], b[i]);
        }
        d
    };
    carry([
        dot([r0, s4, s3, s2, s1]),
        dot([r1, r0, s4, s3, s2]),
        dot([r2, r1, r0, s4, s3]),
        dot([r3, r2, r1, r0, s4]),
        dot([r4, r3, r2, r1, r0]),
    ])
}

/// Every chain times `p`.
#[target_feature(enable = "neon")]
#[inline]
fn mul(state: State, p: &Power) -> State {
    // Loops here and in `add_group`, not `map` or `from_fn`: the closures
    // of those stayed out of line in the step (a call per chain, the state
    // copied through memory each time).
    let mut out = state;
    for chain in &mut out {
        *chain = mul_pair(*chain, p);
    }
    out
}

/// The 2^128 bit (bit 24 of limb 4) for the lanes of blocks `first..8`.
#[target_feature(enable = "neon")]
#[inline]
fn hibits(first: usize) -> [uint64x2_t; CHAINS] {
    let bit = |j: usize| if j >= first { 1 << 24 } else { 0 };
    std::array::from_fn(|c| from_array([bit(WIDTH * c), bit(WIDTH * c + 1)]))
}

/// Two blocks split into limbs of 26 bits, one block per lane, plus the
/// 2^128 bits `hibit`.
#[target_feature(enable = "neon")]
#[inline]
fn load_blocks(blocks: &[[u8; 16]; WIDTH], hibit: uint64x2_t) -> Pair {
    // SAFETY: each block is 16 readable bytes; `ld1` of bytes needs no
    // alignment.
    let (x, y) = unsafe {
        (
            vreinterpretq_u64_u8(vld1q_u8(blocks[0].as_ptr())),
            vreinterpretq_u64_u8(vld1q_u8(blocks[1].as_ptr())),
        )
    };
    // The low and the high 64 bits of both blocks.
    let (lo, hi) = (vzip1q_u64(x, y), vzip2q_u64(x, y));
    let mask = vdupq_n_u64(MASK26);
    [
        vandq_u64(lo, mask),
        vandq_u64(vshrq_n_u64::<26>(lo), mask),
        // Bits 52–63 of `lo` inserted under bits 0–51 of `hi` moved up.
        vandq_u64(vsriq_n_u64::<52>(vshlq_n_u64::<12>(hi), lo), mask),
        vandq_u64(vshrq_n_u64::<14>(hi), mask),
        vorrq_u64(vshrq_n_u64::<40>(hi), hibit),
    ]
}

/// `state + group`, block `j` of the group into lane `j`.
#[target_feature(enable = "neon")]
#[inline]
fn add_group(state: State, group: &[[u8; 16]; LANES], hibit: &[uint64x2_t; CHAINS]) -> State {
    let (pairs, _) = group.as_chunks::<WIDTH>();
    let mut out = state;
    for ((chain, pair), &hibit) in out.iter_mut().zip(pairs).zip(hibit) {
        *chain = add_pair(*chain, pair, hibit);
    }
    out
}

/// One chain plus its two blocks of a group.
#[target_feature(enable = "neon")]
#[inline]
fn add_pair(chain: Pair, pair: &[[u8; 16]; WIDTH], hibit: uint64x2_t) -> Pair {
    let m = load_blocks(pair, hibit);
    let mut out = chain;
    for (limb, m) in out.iter_mut().zip(m) {
        *limb = vaddq_u64(*limb, m);
    }
    out
}

/// `state` plus the scalar accumulator `acc` in the lane of block `j`.
#[target_feature(enable = "neon")]
#[inline]
fn add_to_lane(state: State, j: usize, acc: [u64; 3]) -> State {
    let limbs = to_radix::<5>(acc, 26);
    let mut out = state;
    for (i, &limb) in limbs.iter().enumerate() {
        let one = from_array(std::array::from_fn(
            |l| if l == j % WIDTH { limb } else { 0 },
        ));
        out[j / WIDTH][i] = vaddq_u64(out[j / WIDTH][i], one);
    }
    out
}

/// r^1 … r^8 in radix 2^26, three multiplications deep on lane pairs:
/// `[r, r]²`, then `[r, r²]·r² = [r³, r⁴]`, then `[r, r²]·r⁴` and
/// `[r³, r⁴]·r⁴`. Limbs end carried (below 2^26, a few units more in limbs
/// 1 and 4), values not necessarily below p.
#[target_feature(enable = "neon")]
pub(super) fn powers(r: &[u64; 2]) -> Powers {
    let limbs = to_radix::<5>([r[0], r[1], 0], 26);
    let both = |l: [u64; 5]| l.map(|x| vdupq_n_u64(x));
    let lane = |p: &Pair, l: usize| p.map(|v| to_array(v)[l]);
    let r1 = both(limbs);
    let r2 = mul_pair(r1, &multiplier_of(r1));
    let r1_r2: Pair = std::array::from_fn(|i| from_array([limbs[i], lane(&r2, 0)[i]]));
    let r3_r4 = mul_pair(r1_r2, &multiplier_of(r2));
    let r4 = both(lane(&r3_r4, 1));
    let by_r4 = multiplier_of(r4);
    let mut table = [[0u64; LANES]; 5];
    for (k, pair) in [
        r1_r2,
        r3_r4,
        mul_pair(r1_r2, &by_r4),
        mul_pair(r3_r4, &by_r4),
    ]
    .into_iter()
    .enumerate()
    {
        for (row, v) in table.iter_mut().zip(pair) {
            row[WIDTH * k..WIDTH * (k + 1)].copy_from_slice(&to_array(v));
        }
    }
    table
}

/// `state · r^8 + group` for each group in turn (`step` is r^8, `hibit`
/// the 2^128 bits).
#[target_feature(enable = "neon")]
#[inline]
fn full_groups(
    mut state: State,
    groups: &[[[u8; 16]; LANES]],
    step: &Power,
    hibit: &[uint64x2_t; CHAINS],
) -> State {
    // Chain by chain in place: through `mul` and `add_group`, whole
    // states passed by value were copied (`memcpy`) three times a step.
    for group in groups {
        let (pairs, _) = group.as_chunks::<WIDTH>();
        for ((chain, pair), &hibit) in state.iter_mut().zip(pairs).zip(hibit) {
            *chain = add_pair(mul_pair(*chain, step), pair, hibit);
        }
    }
    state
}

vector_blocks! {
    /// Full blocks into the lanes, 8 per step (see `vector_blocks!`).
    fn blocks("neon")
}

/// The accumulator the lanes hold, `Σ lane_j · r^(8−j)`, as a scalar one.
#[target_feature(enable = "neon")]
pub(super) fn fold(lanes: &Lanes, powers: &Powers) -> [u64; 3] {
    let state = load(lanes);
    let mut sums = [vdupq_n_u64(0); 5];
    for (c, chain) in state.into_iter().enumerate() {
        let folded = mul_pair(chain, &fold_power(powers, c));
        for (s, v) in sums.iter_mut().zip(folded) {
            *s = vaddq_u64(*s, v);
        }
    }
    from_radix(&sums.map(|s| vaddvq_u64(s)), 26)
}
