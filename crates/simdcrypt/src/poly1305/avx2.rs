//! AVX2: radix 2^26, 8 blocks per step as two independent chains of 4
//! lanes in ymm registers (Goll and Gueron, "Vectorization of Poly1305
//! message authentication code", 2015; OpenSSL's `poly1305-x86_64`).
//!
//! Each 64-bit lane holds one limb of one block's accumulator, five limbs of
//! 26 bits per lane; `vpmuludq` multiplies the low 32 bits of lanes, so the
//! 25 limb products of a 4-lane multiplication are 25 instructions, with
//! `5·r_i` precomputed to fold the products at and above 2^130. A step
//! multiplies both halves (blocks 0–3 and 4–7 of the last group) by r^8 and
//! adds the next 8 blocks: two chains whose latencies (multiply, sum,
//! carry: about 17 cycles) overlap, so the loop runs at the throughput of
//! the vector units (about 170 operations per 8 blocks) rather than at one
//! chain's latency. Short runs use the scalar arithmetic, compiled here
//! with BMI2 (`mulx`).

use core::arch::x86_64::{
    __m256i, _mm256_add_epi64, _mm256_and_si256, _mm256_blend_epi32, _mm256_loadu_si256,
    _mm256_mul_epu32, _mm256_or_si256, _mm256_permute4x64_epi64, _mm256_set_epi64x,
    _mm256_set1_epi64x, _mm256_setzero_si256, _mm256_slli_epi64, _mm256_srli_epi64,
    _mm256_storeu_si256, _mm256_unpackhi_epi64, _mm256_unpacklo_epi64,
};

use super::lanes::{LANES, Lanes, Powers, carry_chain, from_radix, to_radix, vector_blocks};
use super::scalar64;

/// Five limbs of four lanes.
type Half = [__m256i; 5];

/// The accumulator lanes: blocks 0–3 and 4–7 of a step.
type State = [Half; 2];

/// A multiplier in every lane: its limbs `r` and `5·r` (limb 0 of `s` unused).
#[derive(Clone, Copy)]
struct Power {
    r: Half,
    s: Half,
}

/// The physical lane of block `j` of 4: the loads interleave 64-bit words
/// (`vpunpcklqdq` works within 128-bit halves), so blocks 0, 1, 2, 3 sit in
/// lanes 0, 2, 1, 3. The map is its own inverse.
const PHYS: [usize; 4] = [0, 2, 1, 3];

const MASK26: i64 = (1 << 26) - 1;

/// The scalar arithmetic for short runs, with BMI2's `mulx`.
#[target_feature(enable = "bmi2")]
pub(super) fn scalar_blocks(h: &mut [u64; 3], r: &[u64; 2], blocks: &[[u8; 16]]) {
    scalar64::blocks_inline(h, r, blocks, scalar64::HIBIT);
}

/// A vector of four lanes from values in logical block order.
#[target_feature(enable = "avx2")]
#[inline]
fn from_logical(v: [u64; 4]) -> __m256i {
    let p = |phys: usize| v[PHYS[phys]] as i64;
    _mm256_set_epi64x(p(3), p(2), p(1), p(0))
}

/// The four lanes of a vector, in physical order.
#[target_feature(enable = "avx2")]
#[inline]
fn to_array(v: __m256i) -> [u64; 4] {
    let mut out = [0u64; 4];
    // SAFETY: `out` is 32 bytes, the size of the store.
    unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), v) };
    out
}

#[target_feature(enable = "avx2")]
#[inline]
fn zero() -> State {
    [[_mm256_setzero_si256(); 5]; 2]
}

/// Four consecutive values as a vector.
#[target_feature(enable = "avx2")]
#[inline]
fn load4(v: &[u64; 4]) -> __m256i {
    // SAFETY: `v` is 32 bytes, the size of the load.
    unsafe { _mm256_loadu_si256(v.as_ptr().cast()) }
}

/// The lanes as stored in [`Lanes`] (physical order, 4 per half).
#[target_feature(enable = "avx2")]
#[inline]
fn load(lanes: &Lanes) -> State {
    std::array::from_fn(|half| {
        std::array::from_fn(|i| {
            let (quads, _) = lanes[i].as_chunks::<4>();
            load4(&quads[half])
        })
    })
}

#[target_feature(enable = "avx2")]
#[inline]
fn store(state: State, lanes: &mut Lanes) {
    for (half, limbs) in state.iter().enumerate() {
        for (row, &v) in lanes.iter_mut().zip(limbs) {
            row[4 * half..4 * half + 4].copy_from_slice(&to_array(v));
        }
    }
}

/// `limbs` and `5·limbs`, lane by lane.
#[target_feature(enable = "avx2")]
#[inline]
fn with_fives(r: Half) -> Power {
    Power {
        r,
        s: r.map(|x| _mm256_add_epi64(x, _mm256_slli_epi64::<2>(x))),
    }
}

/// r^k in every lane.
#[target_feature(enable = "avx2")]
#[inline]
fn power(powers: &Powers, k: usize) -> Power {
    with_fives(std::array::from_fn(|i| {
        _mm256_set1_epi64x(powers[i][k - 1] as i64)
    }))
}

/// The multipliers that fold the lanes of `half`: lane of block `j` (of 8)
/// times r^(8−j), i.e. r^8, r^7, r^6, r^5 for blocks 0–3, r^4 … r^1 for 4–7;
/// in physical lanes (see `PHYS`) that is row entries 3, 1, 2, 0 of the
/// powers r^5…r^8, or of r^1…r^4.
#[target_feature(enable = "avx2")]
#[inline]
fn fold_power(powers: &Powers, half: usize) -> Power {
    let base = 4 * (1 - half);
    with_fives(std::array::from_fn(|i| {
        let row = &powers[i][base..base + 4];
        let v = _mm256_set_epi64x(row[3] as i64, row[2] as i64, row[1] as i64, row[0] as i64);
        _mm256_permute4x64_epi64::<0b00_10_01_11>(v)
    }))
}

/// Carries every limb into the next (see [`carry_chain`]): limbs end below
/// 2^26, limbs 1 and 4 at most a few units above.
#[target_feature(enable = "avx2")]
#[inline]
fn carry(d: Half) -> Half {
    let mask = _mm256_set1_epi64x(MASK26);
    carry_chain(d, |from, to, times_five| {
        let mut c = _mm256_srli_epi64::<26>(*from);
        if times_five {
            c = _mm256_add_epi64(c, _mm256_slli_epi64::<2>(c));
        }
        *from = _mm256_and_si256(*from, mask);
        *to = _mm256_add_epi64(*to, c);
    })
}

/// `h · p mod p`, lane by lane, carried. With `h` limbs below 2^27 and
/// `r` limbs below 2^26, each product is below 2^56 (2^59 with `5·r`), and
/// each sum of five below 2^62.
#[target_feature(enable = "avx2")]
#[inline]
fn mul_half(h: Half, p: &Power) -> Half {
    let [r0, r1, r2, r3, r4] = p.r;
    let [_, s1, s2, s3, s4] = p.s;
    // d_k = Σ h_i · r_(k−i), where r_(k−i) for i > k wraps past 2^130 and
    // comes as 5·r_(5+k−i).
    carry([
        dot(&h, [r0, s4, s3, s2, s1]),
        dot(&h, [r1, r0, s4, s3, s2]),
        dot(&h, [r2, r1, r0, s4, s3]),
        dot(&h, [r3, r2, r1, r0, s4]),
        dot(&h, [r4, r3, r2, r1, r0]),
    ])
}

/// `Σ h_i · b_i`, lane by lane, as a tree of adds.
#[target_feature(enable = "avx2")]
#[inline]
fn dot(h: &Half, b: Half) -> __m256i {
    // Each multiplier operand passes through `opaque`, on purpose: held in
    // a register from outside the loop of `blocks`, LLVM no longer knows
    // that its upper 32 bits are zero and widens every `vpmuludq` with it
    // into a 64 × 32-bit multiplication (two `vpmuludq`, two shifts, an
    // add). Opaque at the product, it is masked there, where the mask folds
    // into `vpmuludq`; and it is loaded where it is used, which leaves the
    // registers to the accumulator.
    let t: Half = std::array::from_fn(|i| _mm256_mul_epu32(h[i], opaque(b[i])));
    _mm256_add_epi64(
        _mm256_add_epi64(t[0], t[1]),
        _mm256_add_epi64(_mm256_add_epi64(t[2], t[3]), t[4]),
    )
}

/// Both halves times `p`.
#[target_feature(enable = "avx2")]
#[inline]
fn mul(state: State, p: &Power) -> State {
    [mul_half(state[0], p), mul_half(state[1], p)]
}

/// `x`, unchanged, through an empty `asm!` block that hides its value from
/// the optimiser. Costs no instruction.
#[target_feature(enable = "avx2")]
#[inline]
fn opaque(x: __m256i) -> __m256i {
    crate::ct::opaque_in!(ymm_reg, "/* {0} */", x)
}

/// The 2^128 bit (bit 24 of limb 4) for the lanes of blocks `first..8`.
#[target_feature(enable = "avx2")]
#[inline]
fn hibits(first: usize) -> [__m256i; 2] {
    let bit = |j: usize| if j >= first { 1 << 24 } else { 0 };
    [
        from_logical(std::array::from_fn(bit)),
        from_logical(std::array::from_fn(|j| bit(4 + j))),
    ]
}

/// Four blocks (64 bytes at `blocks`) split into limbs of 26 bits, one
/// block per lane, plus the 2^128 bits `hibit`.
#[target_feature(enable = "avx2")]
#[inline]
fn load_blocks(blocks: &[[u8; 16]; 4], hibit: __m256i) -> Half {
    let (x, y) = (&blocks[..2], &blocks[2..]);
    // SAFETY: `x` and `y` are 32 bytes each, the size of the loads.
    let (x, y) = unsafe {
        (
            _mm256_loadu_si256(x.as_ptr().cast()),
            _mm256_loadu_si256(y.as_ptr().cast()),
        )
    };
    // Low and high 64 bits of blocks 0, 2, 1, 3 (see `PHYS`).
    let lo = _mm256_unpacklo_epi64(x, y);
    let hi = _mm256_unpackhi_epi64(x, y);
    let mask = _mm256_set1_epi64x(MASK26);
    [
        _mm256_and_si256(lo, mask),
        _mm256_and_si256(_mm256_srli_epi64::<26>(lo), mask),
        _mm256_and_si256(
            _mm256_or_si256(_mm256_srli_epi64::<52>(lo), _mm256_slli_epi64::<12>(hi)),
            mask,
        ),
        _mm256_and_si256(_mm256_srli_epi64::<14>(hi), mask),
        _mm256_or_si256(_mm256_srli_epi64::<40>(hi), hibit),
    ]
}

/// `state + group`, block `j` of the group into lane `j`.
#[target_feature(enable = "avx2")]
#[inline]
fn add_group(state: State, group: &[[u8; 16]; LANES], hibit: &[__m256i; 2]) -> State {
    let (halves, _) = group.as_chunks::<4>();
    std::array::from_fn(|half| {
        let m = load_blocks(&halves[half], hibit[half]);
        std::array::from_fn(|i| _mm256_add_epi64(state[half][i], m[i]))
    })
}

/// `state` plus the scalar accumulator `acc` in the lane of block `j`.
#[target_feature(enable = "avx2")]
#[inline]
fn add_to_lane(state: State, j: usize, acc: [u64; 3]) -> State {
    let limbs = to_radix::<5>(acc, 26);
    let mut out = state;
    for (i, &limb) in limbs.iter().enumerate() {
        let one = from_logical(std::array::from_fn(|l| if l == j % 4 { limb } else { 0 }));
        out[j / 4][i] = _mm256_add_epi64(out[j / 4][i], one);
    }
    out
}

/// r^1 … r^8 in radix 2^26, three multiplications deep: `r·r`, then
/// `[r, r², r, r²]·[1, 1, r², r²] = [r, r², r³, r⁴]`, then that times r⁴.
/// Limbs end carried (below 2^26, a few units more in limbs 1 and 4),
/// values not necessarily below p.
#[target_feature(enable = "avx2")]
pub(super) fn powers(r: &[u64; 2]) -> Powers {
    let splat = |l: [u64; 5]| l.map(|x| _mm256_set1_epi64x(x as i64));
    let r1 = splat(to_radix::<5>([r[0], r[1], 0], 26));
    let one = splat([1, 0, 0, 0, 0]);
    let r2 = mul_half(r1, &with_fives(r1));
    // Lanes 1 and 3 (dwords 2, 3, 6, 7) from `r2`; then lanes 2 and 3.
    let x: Half = std::array::from_fn(|i| _mm256_blend_epi32::<0xcc>(r1[i], r2[i]));
    let y: Half = std::array::from_fn(|i| _mm256_blend_epi32::<0xf0>(one[i], r2[i]));
    let low = mul_half(x, &with_fives(y));
    let r4 = low.map(|v| _mm256_permute4x64_epi64::<0xff>(v));
    let high = mul_half(low, &with_fives(r4));
    let mut table = [[0u64; LANES]; 5];
    for (row, (l, h)) in table.iter_mut().zip(low.into_iter().zip(high)) {
        row[..4].copy_from_slice(&to_array(l));
        row[4..].copy_from_slice(&to_array(h));
    }
    table
}

/// `state · r^8 + group` for each group in turn (`step` is r^8, `hibit`
/// the 2^128 bits).
#[target_feature(enable = "avx2")]
#[inline]
fn full_groups(
    mut state: State,
    groups: &[[[u8; 16]; LANES]],
    step: &Power,
    hibit: &[__m256i; 2],
) -> State {
    for group in groups {
        state = add_group(mul(state, step), group, hibit);
    }
    state
}

vector_blocks! {
    /// Full blocks into the lanes, 8 per step (see `vector_blocks!`).
    fn blocks("avx2")
}

/// The accumulator the lanes hold, `Σ lane_j · r^(8−j)`, as a scalar one.
#[target_feature(enable = "avx2")]
pub(super) fn fold(lanes: &Lanes, powers: &Powers) -> [u64; 3] {
    let state = load(lanes);
    let a = mul_half(state[0], &fold_power(powers, 0));
    let b = mul_half(state[1], &fold_power(powers, 1));
    let sums: [u64; 5] =
        std::array::from_fn(|i| to_array(_mm256_add_epi64(a[i], b[i])).iter().sum());
    from_radix(&sums, 26)
}
