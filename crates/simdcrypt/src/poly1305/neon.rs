//! NEON (aarch64 Advanced SIMD): radix 2^26, two lanes, 8 blocks per step
//! with one carry (lazy reduction: the technique of OpenSSL's
//! `poly1305-armv8` NEON path, and of Goll and Gueron, "Vectorization of
//! Poly1305 message authentication code", 2015).
//!
//! The accumulator is two 64-bit lanes of five 26-bit limbs: the chain of
//! the even blocks and that of the odd ones, weighted r^2 and r^1 when
//! they are folded (RFC 8439 §2.5: `Acc = (Acc + block)·r mod p`,
//! p = 2^130 − 5). A step of 8 blocks `m_0 … m_7` is
//!
//! ```text
//! h ← h·r^8 + (m_0, m_1)·r^6 + (m_2, m_3)·r^4 + (m_4, m_5)·r^2 + (m_6, m_7)
//! ```
//!
//! four multiplications summed into the same five 64-bit limbs, 100
//! `umull`/`umlal`/`umlal2` in all, then one carry for the step (`usra`,
//! about sixteen instructions). The multipliers' limbs are taken by element
//! from a table of r^8, r^6, r^4, r^2 and their `5·r_i` (the products
//! at and above 2^130 fold back times 5), nine registers. `ld4` loads four
//! blocks de-interleaved by 32-bit words; the limbs are cut from them in
//! 32-bit lanes (`shl`, `sri`, `and`), block `j` in lane `j`, which is what
//! `umlal` (lanes 0–1) and `umlal2` (lanes 2–3) consume. About 160
//! instructions per 128 bytes. Short runs use the scalar arithmetic
//! ([`super::scalar64`]), as the other vector rungs do.
//!
//! Bounds. After a carry ([`carry`]) the limbs are below 2^26 + 2^13; the
//! scalar accumulator entering the lanes, with a first block (below 2^131,
//! see [`enter`]), has limbs below 2^26 but limb 4, below 2^27. A message
//! limb is below 2^26 (limb 4 below 2^25, the 2^128 bit included). The
//! powers' limbs are carried too, so `5·r_i` < 2^29. Every factor fits the
//! 32 bits `umull` takes, every product is below 2^27 · 2^29 = 2^56, and a
//! limb of the step's sum, twenty products and one message limb, is below
//! 20·2^56 + 2^26 < 2^61: no 64-bit lane overflows before the carry.

use core::arch::aarch64::{
    uint32x2_t, uint32x4_t, uint64x2_t, vaddq_u32, vaddvq_u64, vaddw_high_u32, vandq_u32, vandq_u64,
    vbicq_u64, vcombine_u32, vdupq_laneq_u32, vdupq_n_u32, vdupq_n_u64, vget_low_u32, vld1q_u32,
    vld1q_u64, vld4q_u32, vmlal_high_u32, vmlal_u32, vmovn_u64, vshlq_n_u32, vsraq_n_u32,
    vsraq_n_u64, vsriq_n_u32, vst1q_u64,
};

use zeroize::Zeroize;

use super::lanes::{LANES, Lanes, Powers, carry_chain, from_radix, padded_group, to_radix};
use super::scalar64;

/// Lanes of the accumulator: two 64-bit limbs per register.
const WIDTH: usize = 2;

/// Blocks per `ld4`: four 32-bit lanes.
const QUAD: usize = 4;

/// Five limbs of two lanes: the accumulator, or a sum of products.
type Pair = [uint64x2_t; 5];

/// Five 26-bit limbs of four blocks in 32-bit lanes, block `j` in lane `j`.
type Quad = [uint32x4_t; 5];

/// The 8 blocks of a step.
type Group = [[u8; 16]; LANES];

/// The 8 blocks of a step as limbs: blocks 0–3 and 4–7.
type Message = [Quad; 2];

/// A multiplier: limbs `r_0 … r_4` and `s` = `5·r_1 … 5·r_4`, as 32-bit
/// lanes. A multiplier of the step is the same value in every lane; one
/// that differs lane by lane uses lanes 0 and 1 only.
#[derive(Clone, Copy)]
struct Multiplier {
    r: [uint32x4_t; 5],
    s: [uint32x4_t; 4],
}

/// The multipliers of a step: of `h` (r^8, or r^k for a last group of
/// `k`), then r^6, r^4, r^2 for the blocks; for each, limbs `r_0 … r_4`
/// then `5·r_1 … 5·r_4`, nine values a power, packed four to a register.
type Table = [uint32x4_t; 9];

const MASK26: u32 = (1 << 26) - 1;

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

/// Four 32-bit values as a vector, lane 0 first.
#[target_feature(enable = "neon")]
#[inline]
fn from_u32s(v: &[u32; QUAD]) -> uint32x4_t {
    // SAFETY: `v` is 16 readable bytes.
    unsafe { vld1q_u32(v.as_ptr()) }
}

/// The accumulator's two lanes are the last two of [`Lanes`], blocks 6 and
/// 7 of a step, weighted r^2 and r^1; the others stay zero.
#[target_feature(enable = "neon")]
#[inline]
fn load(lanes: &Lanes) -> Pair {
    std::array::from_fn(|i| from_array([lanes[i][LANES - 2], lanes[i][LANES - 1]]))
}

#[target_feature(enable = "neon")]
#[inline]
fn store(h: Pair, lanes: &mut Lanes) {
    for (row, &v) in lanes.iter_mut().zip(&h) {
        row[LANES - WIDTH..].copy_from_slice(&to_array(v));
    }
}

/// Lane `l` of `v` in every lane (`l` a constant once inlined, so that
/// the `dup` folds into the multiplication that takes it by element).
#[target_feature(enable = "neon")]
#[inline]
fn splat(v: uint32x4_t, l: usize) -> uint32x4_t {
    match l {
        0 => vdupq_laneq_u32::<0>(v),
        1 => vdupq_laneq_u32::<1>(v),
        2 => vdupq_laneq_u32::<2>(v),
        _ => vdupq_laneq_u32::<3>(v),
    }
}

/// The multiplier of limbs `r` (below 2^27, so that `5·r` fits 32 bits).
#[target_feature(enable = "neon")]
#[inline]
fn multiplier(r: [uint32x4_t; 5]) -> Multiplier {
    Multiplier {
        r,
        s: std::array::from_fn(|i| vaddq_u32(r[i + 1], vshlq_n_u32::<2>(r[i + 1]))),
    }
}

/// The multiplier of two lanes of limbs, lane by lane.
#[target_feature(enable = "neon")]
#[inline]
fn multiplier_of(p: Pair) -> Multiplier {
    multiplier(p.map(|v| {
        let n = vmovn_u64(v);
        vcombine_u32(n, n)
    }))
}

/// The powers `exponents` and their `5·r_i`, packed.
#[target_feature(enable = "neon")]
#[inline]
fn table(powers: &Powers, exponents: [usize; 4]) -> Table {
    let mut flat = [0u32; 36];
    for (values, k) in flat.chunks_exact_mut(9).zip(exponents) {
        for (i, row) in powers.iter().enumerate() {
            let r = row[k - 1] as u32;
            values[i] = r;
            if i > 0 {
                values[4 + i] = 5 * r;
            }
        }
    }
    let (quads, _) = flat.as_chunks::<QUAD>();
    let table = std::array::from_fn(|q| from_u32s(&quads[q]));
    flat.zeroize();
    table
}

/// Power `p` of the table in every lane.
#[target_feature(enable = "neon")]
#[inline]
fn from_table(t: &Table, p: usize) -> Multiplier {
    let at = |e: usize| splat(t[(9 * p + e) / QUAD], (9 * p + e) % QUAD);
    Multiplier {
        r: std::array::from_fn(at),
        s: std::array::from_fn(|i| at(5 + i)),
    }
}

/// Which 32-bit lanes of the factors a product takes.
#[derive(Clone, Copy)]
enum Half {
    /// Lanes 0 and 1 (`umlal`).
    Low,
    /// Lanes 2 and 3 (`umlal2`).
    High,
}

/// `d_k += Σ h_i · c_(k,i)` where `c_(k,i)` is `r_(k−i)`, or `5·r_(5+k−i)`
/// for `i > k` (the product wraps past 2^130), on the `half` of the lanes.
#[target_feature(enable = "neon")]
#[inline]
fn product(d: &mut Pair, h: &[uint32x4_t; 5], m: &Multiplier, half: Half) {
    let [r0, r1, r2, r3, r4] = m.r;
    let [s1, s2, s3, s4] = m.s;
    let rows = [
        [r0, s4, s3, s2, s1],
        [r1, r0, s4, s3, s2],
        [r2, r1, r0, s4, s3],
        [r3, r2, r1, r0, s4],
        [r4, r3, r2, r1, r0],
    ];
    for (d, row) in d.iter_mut().zip(&rows) {
        for (&h, &c) in h.iter().zip(row) {
            *d = match half {
                Half::Low => vmlal_u32(*d, vget_low_u32(h), vget_low_u32(c)),
                Half::High => vmlal_high_u32(*d, h, c),
            };
        }
    }
}

/// The limbs of `h` narrowed to 32 bits (`xtn`), in lanes 0 and 1, each
/// through an empty `asm!` block (`ct::opaque_in!`, no
/// instruction): a carried limb is known to fit 32 bits, and LLVM then
/// turned `umull` of it into 64-bit multiplications, which NEON lacks (two
/// scalar `mul` and moves each).
#[target_feature(enable = "neon")]
#[inline]
fn narrow(h: &Pair) -> [uint32x4_t; 5] {
    let mut out = [vdupq_n_u32(0); 5];
    for (o, &v) in out.iter_mut().zip(h) {
        let n: uint32x2_t = crate::ct::opaque_in!(vreg, "/* {0:d} */", vmovn_u64(v));
        *o = vcombine_u32(n, n);
    }
    out
}

/// Carries every limb into the next, 2^130 folded into limb 0 times 5:
/// limbs end below 2^26, limbs 1 and 4 below 2^26 + 2^13 (from limbs
/// below 2^62).
#[target_feature(enable = "neon")]
#[inline]
fn carry(d: Pair) -> Pair {
    let mask = vdupq_n_u64(u64::from(MASK26));
    carry_chain(d, |from, to, times_five| {
        if times_five {
            // The bits from 2^26 up, `c·2^26`: `to += c + 4c`.
            let high = vbicq_u64(*from, mask);
            *to = vsraq_n_u64::<24>(vsraq_n_u64::<26>(*to, high), high);
        } else {
            *to = vsraq_n_u64::<26>(*to, *from);
        }
        *from = vandq_u64(*from, mask);
    })
}

/// `h · p mod p`, lane by lane, carried.
#[target_feature(enable = "neon")]
#[inline]
fn mul(h: Pair, p: &Multiplier) -> Pair {
    let mut d = [vdupq_n_u64(0); 5];
    product(&mut d, &narrow(&h), p, Half::Low);
    carry(d)
}

/// The 2^128 bit (bit 24 of limb 4) for the lanes of blocks `first..8`.
#[target_feature(enable = "neon")]
#[inline]
fn hibits(first: usize) -> [uint32x4_t; 2] {
    let bit = |j: usize| if j >= first { 1 << 24 } else { 0 };
    std::array::from_fn(|q| from_u32s(&std::array::from_fn(|l| bit(QUAD * q + l))))
}

/// Four blocks split into limbs of 26 bits, block `j` in lane `j`, plus the
/// 2^128 bits `hibit`.
#[target_feature(enable = "neon")]
#[inline]
fn load_blocks(blocks: &[[u8; 16]; QUAD], hibit: uint32x4_t) -> Quad {
    // SAFETY: `blocks` is 64 readable bytes; `ld4` of 32-bit words needs
    // no alignment. Word `w` of block `j` lands in lane `j` of `w.w`.
    let w = unsafe { vld4q_u32(blocks.as_ptr().cast::<u32>()) };
    let mask = vdupq_n_u32(MASK26);
    // Limb `i` is bits 26i … 26i + 25: the top bits of one word inserted
    // (`sri`) under the bottom bits of the next moved up (`shl`).
    [
        vandq_u32(w.0, mask),
        vandq_u32(vsriq_n_u32::<26>(vshlq_n_u32::<6>(w.1), w.0), mask),
        vandq_u32(vsriq_n_u32::<20>(vshlq_n_u32::<12>(w.2), w.1), mask),
        vandq_u32(vsriq_n_u32::<14>(vshlq_n_u32::<18>(w.3), w.2), mask),
        vsraq_n_u32::<8>(hibit, w.3),
    ]
}

/// The 8 blocks of a step as limbs.
#[target_feature(enable = "neon")]
#[inline]
fn message(group: &Group, hibit: &[uint32x4_t; 2]) -> Message {
    let (quads, _) = group.as_chunks::<QUAD>();
    [load_blocks(&quads[0], hibit[0]), load_blocks(&quads[1], hibit[1])]
}

/// One step: `h·t_0 + m_01·r^6 + m_23·r^4 + m_45·r^2 + m_67`, carried
/// once. Called from one place only, so that it is inlined into the loop:
/// as a call, it took its message and multipliers through memory.
#[target_feature(enable = "neon")]
#[inline]
fn step(h: &Pair, m: &Message, t: &Table) -> Pair {
    let mut d = [vdupq_n_u64(0); 5];
    product(&mut d, &narrow(h), &from_table(t, 0), Half::Low);
    product(&mut d, &m[0], &from_table(t, 1), Half::Low);
    product(&mut d, &m[0], &from_table(t, 2), Half::High);
    product(&mut d, &m[1], &from_table(t, 3), Half::Low);
    for (d, &m) in d.iter_mut().zip(&m[1]) {
        *d = vaddw_high_u32(*d, m);
    }
    carry(d)
}

/// Steps over whole groups of 8 blocks (`hibit`, the 2^128 bits).
#[target_feature(enable = "neon")]
#[inline]
fn full_groups(mut h: Pair, groups: &[Group], t: &Table, hibit: &[uint32x4_t; 2]) -> Pair {
    for group in groups {
        h = step(&h, &message(group, hibit), t);
    }
    h
}

/// The scalar accumulator `acc` entering the lanes with the first one or
/// two blocks, without a multiplication: `[acc + b_0, b_1]`, weighted r^2
/// and r^1, is `((acc + b_0)·r + b_1)·r`; one block alone is
/// `[0, acc + b_0]`. Returns the blocks left.
#[target_feature(enable = "neon")]
#[inline]
fn enter(acc: [u64; 3], blocks: &[[u8; 16]]) -> (Pair, &[[u8; 16]]) {
    let limbs = |v: [u64; 3]| to_radix::<5>(v, 26);
    let (lanes, rest) = match blocks {
        [first, second, rest @ ..] => (
            [
                limbs(scalar64::add_block(acc, first, scalar64::HIBIT)),
                limbs(scalar64::add_block([0; 3], second, scalar64::HIBIT)),
            ],
            rest,
        ),
        [only] => ([[0; 5], limbs(scalar64::add_block(acc, only, scalar64::HIBIT))], &[][..]),
        // `Poly1305::process` passes at least one block.
        [] => unreachable!("no block to enter the lanes with"),
    };
    (std::array::from_fn(|i| from_array([lanes[0][i], lanes[1][i]])), rest)
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
    let r2 = mul(r1, &multiplier_of(r1));
    let r1_r2: Pair = std::array::from_fn(|i| from_array([limbs[i], lane(&r2, 0)[i]]));
    let r3_r4 = mul(r1_r2, &multiplier_of(r2));
    let by_r4 = multiplier_of(both(lane(&r3_r4, 1)));
    let mut table = [[0u64; LANES]; 5];
    for (k, pair) in [r1_r2, r3_r4, mul(r1_r2, &by_r4), mul(r3_r4, &by_r4)]
        .into_iter()
        .enumerate()
    {
        for (row, v) in table.iter_mut().zip(pair) {
            row[WIDTH * k..WIDTH * (k + 1)].copy_from_slice(&to_array(v));
        }
    }
    table
}

/// Full blocks into the lanes, 8 per step; a last group of `k < 8` blocks
/// is a step with its blocks in the last `k` lanes, the others zero and
/// without the 2^128 bit, and `h` times r^k. A scalar accumulator
/// `entering` the lanes comes in with the first blocks (see [`enter`]).
#[target_feature(enable = "neon")]
pub(super) fn blocks(
    lanes: &mut Lanes,
    powers: &Powers,
    entering: Option<[u64; 3]>,
    blocks: &[[u8; 16]],
) {
    let (h, blocks) = match entering {
        Some(acc) => enter(acc, blocks),
        None => (load(lanes), blocks),
    };
    let (groups, tail) = blocks.as_chunks::<LANES>();
    let mut h = full_groups(h, groups, &table(powers, [8, 6, 4, 2]), &hibits(0));
    if !tail.is_empty() {
        let k = tail.len();
        let t = table(powers, [k, 6, 4, 2]);
        h = full_groups(h, &[padded_group(tail)], &t, &hibits(LANES - k));
    }
    store(h, lanes);
}

/// The accumulator the lanes hold, `Σ lane_j · r^(8−j)`, as a scalar one:
/// lanes 6 and 7 times r^2 and r^1, summed.
#[target_feature(enable = "neon")]
pub(super) fn fold(lanes: &Lanes, powers: &Powers) -> [u64; 3] {
    let weights = multiplier(std::array::from_fn(|i| {
        from_u32s(&[powers[i][1] as u32, powers[i][0] as u32, 0, 0])
    }));
    let folded = mul(load(lanes), &weights);
    from_radix(&folded.map(|s| vaddvq_u64(s)), 26)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every split of a run into the lanes, from one block up (the entry
    /// with one or two blocks, a last group of every size, runs while the
    /// lanes are in use), equals the scalar arithmetic.
    #[test]
    fn runs_of_every_length_equal_scalar64() {
        if !std::arch::is_aarch64_feature_detected!("neon") {
            return;
        }
        let r = scalar64::clamp(&[0x5a; 32]);
        let msg: Vec<[u8; 16]> = (0..40u8)
            .map(|i| std::array::from_fn(|j| i.wrapping_mul(29) ^ (j as u8).wrapping_mul(151)))
            .collect();
        let acc = [0x0123_4567_89ab_cdef, 0xfedc_ba98_7654_3210, 3];
        // SAFETY: the CPU has NEON (checked above).
        let powers = unsafe { powers(&r) };
        for first in 1..=20 {
            for second in [0, 1, 7, 8, 9, 20] {
                let (a, b) = msg[..first + second].split_at(first);
                let mut lanes = [[0u64; LANES]; 5];
                // SAFETY: as above.
                unsafe {
                    blocks(&mut lanes, &powers, Some(acc), a);
                    if !b.is_empty() {
                        blocks(&mut lanes, &powers, None, b);
                    }
                }
                // SAFETY: as above.
                let got = scalar64::reduce(unsafe { fold(&lanes, &powers) });
                let mut want = acc;
                scalar64::blocks(&mut want, &r, &msg[..first + second], scalar64::HIBIT);
                assert_eq!(got, scalar64::reduce(want), "{first} + {second} blocks");
            }
        }
    }
}
