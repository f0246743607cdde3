//! AVX-512 IFMA: radix 2^44 (limbs of 44, 44 and 42 bits), 8 blocks per
//! step in zmm registers, products with `vpmadd52luq`/`vpmadd52huq`.
//!
//! A 52 × 52-bit product splits into its low 52 bits, which stay at the
//! limb position `k` of the product, and its high bits, worth `2^52 =
//! 2^44 · 2^8` there: they go to position `k + 1` shifted left by 8. The
//! products at and above 2^132 (limb position 3) fold back times 20
//! (`2^132 = 4 · 2^130 ≡ 20 mod p`), through `20·r` precomputed for the
//! wrapped terms and `20 · 2^8` for the high half of position 2. Lane `j`
//! holds block `j` of each group of 8, in order. Short runs use the scalar
//! arithmetic.

use core::arch::x86_64::{
    __m512i, _mm512_add_epi64, _mm512_and_si512, _mm512_madd52hi_epu64, _mm512_madd52lo_epu64,
    _mm512_mask_blend_epi64, _mm512_or_si512, _mm512_permutex2var_epi64, _mm512_permutexvar_epi64,
    _mm512_reduce_add_epi64, _mm512_set_epi64, _mm512_set1_epi64, _mm512_setzero_si512,
    _mm512_slli_epi64, _mm512_srli_epi64, _mm512_storeu_si512,
};

use super::lanes::{LANES, Lanes, Powers, from_radix, to_radix, vector_blocks};

/// Three limbs of eight lanes.
type State = [__m512i; 3];

/// A multiplier in every lane: its limbs `r` and `20·r` (limb 0 of `s`
/// unused).
#[derive(Clone, Copy)]
struct Power {
    r: State,
    s: State,
}

const MASK44: i64 = (1 << 44) - 1;
const MASK42: i64 = (1 << 42) - 1;

/// A vector from eight lane values, lane 0 first.
#[target_feature(enable = "avx512f")]
#[inline]
fn from_lanes(v: [u64; 8]) -> __m512i {
    let l = v.map(|x| x as i64);
    _mm512_set_epi64(l[7], l[6], l[5], l[4], l[3], l[2], l[1], l[0])
}

#[target_feature(enable = "avx512f")]
#[inline]
fn zero() -> State {
    [_mm512_setzero_si512(); 3]
}

#[target_feature(enable = "avx512f")]
#[inline]
fn load(lanes: &Lanes) -> State {
    std::array::from_fn(|i| from_lanes(lanes[i]))
}

#[target_feature(enable = "avx512f")]
#[inline]
fn store(state: State, lanes: &mut Lanes) {
    for (limb, &v) in lanes.iter_mut().zip(&state) {
        // SAFETY: each row of `lanes` is 64 bytes, the size of the store.
        unsafe { _mm512_storeu_si512(limb.as_mut_ptr().cast(), v) };
    }
}

/// `limbs` and `20·limbs`, lane by lane.
#[target_feature(enable = "avx512f")]
#[inline]
fn with_twenties(r: State) -> Power {
    Power {
        r,
        s: r.map(|x| _mm512_add_epi64(_mm512_slli_epi64::<4>(x), _mm512_slli_epi64::<2>(x))),
    }
}

/// r^k in every lane.
#[target_feature(enable = "avx512f")]
#[inline]
fn power(powers: &Powers, k: usize) -> Power {
    with_twenties(std::array::from_fn(|i| {
        _mm512_set1_epi64(powers[i][k - 1] as i64)
    }))
}

/// `h · p mod p`, lane by lane, carried: limbs end below 2^44 (2^42 for
/// the last), limb 1 at most a few units above. Inputs must be below
/// 2^52, which `vpmadd52*` reads.
#[target_feature(enable = "avx512f,avx512ifma")]
#[inline]
fn mul(h: State, p: &Power) -> State {
    carry(product(h, p))
}

/// `h · p`, lane by lane, folded mod p into three limb positions but not
/// carried: limb 0 below 2^59, limbs 1 and 2 below 2^55 when `h`'s limbs
/// are below 2^47 and `p`'s carried. Inputs must be below 2^52, which
/// `vpmadd52*` reads.
#[target_feature(enable = "avx512f,avx512ifma")]
#[inline]
fn product(h: State, p: &Power) -> State {
    let [h0, h1, h2] = h;
    let [r0, r1, r2] = p.r;
    let [_, s1, s2] = p.s;
    let z = _mm512_setzero_si512();
    let lo = |a: [__m512i; 3], b: [__m512i; 3]| {
        let x = _mm512_madd52lo_epu64(z, a[0], b[0]);
        let x = _mm512_madd52lo_epu64(x, a[1], b[1]);
        _mm512_madd52lo_epu64(x, a[2], b[2])
    };
    let hi = |a: [__m512i; 3], b: [__m512i; 3]| {
        let x = _mm512_madd52hi_epu64(z, a[0], b[0]);
        let x = _mm512_madd52hi_epu64(x, a[1], b[1]);
        _mm512_madd52hi_epu64(x, a[2], b[2])
    };
    let h = [h0, h1, h2];
    // Position 0: h0·r0 + h1·20r2 + h2·20r1; 1: h0·r1 + h1·r0 + h2·20r2;
    // 2: h0·r2 + h1·r1 + h2·r0.
    let (b0, b1, b2) = ([r0, s2, s1], [r1, r0, s2], [r2, r1, r0]);
    let (x0, x1, x2) = (lo(h, b0), lo(h, b1), lo(h, b2));
    let (y0, y1, y2) = (hi(h, b0), hi(h, b1), hi(h, b2));
    // High halves move up one limb, times 2^8; position 3 folds times 20.
    let y2 = _mm512_add_epi64(_mm512_slli_epi64::<12>(y2), _mm512_slli_epi64::<10>(y2));
    let d0 = _mm512_add_epi64(x0, y2);
    let d1 = _mm512_add_epi64(x1, _mm512_slli_epi64::<8>(y0));
    let d2 = _mm512_add_epi64(x2, _mm512_slli_epi64::<8>(y1));
    [d0, d1, d2]
}

/// Carries limb 0 into 1 into 2, the bits of limb 2 from 2^130 on into limb
/// 0 times 5, and limb 0 into 1 once more.
#[target_feature(enable = "avx512f")]
#[inline]
fn carry(d: State) -> State {
    let [mut d0, mut d1, mut d2] = d;
    let (m44, m42) = (_mm512_set1_epi64(MASK44), _mm512_set1_epi64(MASK42));
    let c = _mm512_srli_epi64::<44>(d0);
    d0 = _mm512_and_si512(d0, m44);
    d1 = _mm512_add_epi64(d1, c);
    let c = _mm512_srli_epi64::<44>(d1);
    d1 = _mm512_and_si512(d1, m44);
    d2 = _mm512_add_epi64(d2, c);
    let c = _mm512_srli_epi64::<42>(d2);
    d2 = _mm512_and_si512(d2, m42);
    d0 = _mm512_add_epi64(d0, _mm512_add_epi64(c, _mm512_slli_epi64::<2>(c)));
    let c = _mm512_srli_epi64::<44>(d0);
    d0 = _mm512_and_si512(d0, m44);
    d1 = _mm512_add_epi64(d1, c);
    [d0, d1, d2]
}

/// The 2^128 bit (bit 40 of limb 2) for the lanes of blocks `first..8`.
#[target_feature(enable = "avx512f")]
#[inline]
fn hibits(first: usize) -> __m512i {
    from_lanes(std::array::from_fn(
        |j| if j >= first { 1 << 40 } else { 0 },
    ))
}

/// `state + group`, block `j` of the group into lane `j`, split into limbs
/// of 44 bits, plus the 2^128 bits `hibit`.
#[target_feature(enable = "avx512f,avx512ifma")]
#[inline]
fn add_group(state: State, group: &[[u8; 16]; LANES], hibit: &__m512i) -> State {
    let (x, y) = (&group[..4], &group[4..]);
    // SAFETY: `x` and `y` are 64 bytes each, the size of the loads.
    let (x, y) = unsafe {
        (
            core::arch::x86_64::_mm512_loadu_si512(x.as_ptr().cast()),
            core::arch::x86_64::_mm512_loadu_si512(y.as_ptr().cast()),
        )
    };
    // The low and the high 64 bits of blocks 0…7.
    let lo = _mm512_permutex2var_epi64(x, from_lanes([0, 2, 4, 6, 8, 10, 12, 14]), y);
    let hi = _mm512_permutex2var_epi64(x, from_lanes([1, 3, 5, 7, 9, 11, 13, 15]), y);
    let mask = _mm512_set1_epi64(MASK44);
    let m = [
        _mm512_and_si512(lo, mask),
        _mm512_and_si512(
            _mm512_or_si512(_mm512_srli_epi64::<44>(lo), _mm512_slli_epi64::<20>(hi)),
            mask,
        ),
        _mm512_or_si512(_mm512_srli_epi64::<24>(hi), *hibit),
    ];
    std::array::from_fn(|i| _mm512_add_epi64(state[i], m[i]))
}

/// `state` plus the scalar accumulator `acc` in lane `j`.
#[target_feature(enable = "avx512f")]
#[inline]
fn add_to_lane(state: State, j: usize, acc: [u64; 3]) -> State {
    let limbs = to_radix::<3>(acc, 44);
    std::array::from_fn(|i| {
        let one = from_lanes(std::array::from_fn(|l| if l == j { limbs[i] } else { 0 }));
        _mm512_add_epi64(state[i], one)
    })
}

/// r^1 … r^8 in radix 2^44, three multiplications deep: `r·r`, then
/// `[r, r², r, r², …]·[1, 1, r², r², …] = [r, r², r³, r⁴, …]`, then that
/// times `[1, 1, 1, 1, r⁴, r⁴, r⁴, r⁴]`. Limbs end carried, values not
/// necessarily below p.
#[target_feature(enable = "avx512f,avx512ifma")]
pub(super) fn powers(r: &[u64; 2]) -> Powers {
    let splat = |l: [u64; 3]| l.map(|x| _mm512_set1_epi64(x as i64));
    let r1 = splat(to_radix::<3>([r[0], r[1], 0], 44));
    let one = splat([1, 0, 0]);
    let r2 = mul(r1, &with_twenties(r1));
    let x: State = std::array::from_fn(|i| _mm512_mask_blend_epi64(0xaa, r1[i], r2[i]));
    let y: State = std::array::from_fn(|i| _mm512_mask_blend_epi64(0xcc, one[i], r2[i]));
    let low = mul(x, &with_twenties(y));
    let lane3 = _mm512_set1_epi64(3);
    let z: State = std::array::from_fn(|i| {
        _mm512_mask_blend_epi64(0xf0, one[i], _mm512_permutexvar_epi64(lane3, low[i]))
    });
    let all = mul(low, &with_twenties(z));
    let mut table = [[0u64; LANES]; 5];
    store(all, &mut table);
    table
}

/// The groups of four at once, when there are enough of them to pay for
/// r^16, r^24 and r^32: by measurement (bench/NOTES.md, section
/// poly1305-ifma-four).
const MIN_FOUR_GROUP_RUNS: usize = 2;

/// `state · r^8 + group` for each group in turn (`step` is r^8, `hibit`
/// the 2^128 bits), four groups at once while there are enough:
/// `state · r^32 + g0 · r^24 + g1 · r^16 + g2 · r^8 + g3`, whose four
/// products are independent, so the chain from one state to the next is
/// one multiplication per 512 bytes instead of four (the loop is bound by
/// that chain's latency, not by the multiplier's throughput). The four
/// products are summed before one carry (their limbs stay below 2^61),
/// and the state then stays below 2^45 a limb, inside what [`product`]
/// takes.
#[target_feature(enable = "avx512f,avx512ifma")]
#[inline]
fn full_groups(
    mut state: State,
    groups: &[[[u8; 16]; LANES]],
    step: &Power,
    hibit: &__m512i,
) -> State {
    let (fours, rest) = match groups.as_chunks::<4>() {
        (fours, rest) if fours.len() >= MIN_FOUR_GROUP_RUNS => (fours, rest),
        _ => (&[][..], groups),
    };
    if !fours.is_empty() {
        let r16 = with_twenties(mul(step.r, step));
        let r24 = with_twenties(mul(r16.r, step));
        let r32 = with_twenties(mul(r16.r, &r16));
        for [g0, g1, g2, g3] in fours {
            let products = [
                product(state, &r32),
                product(add_group(zero(), g0, hibit), &r24),
                product(add_group(zero(), g1, hibit), &r16),
                product(add_group(zero(), g2, hibit), step),
            ];
            let sum = std::array::from_fn(|i| {
                let a = _mm512_add_epi64(products[0][i], products[1][i]);
                _mm512_add_epi64(a, _mm512_add_epi64(products[2][i], products[3][i]))
            });
            state = add_group(carry(sum), g3, hibit);
        }
    }
    for group in rest {
        state = add_group(mul(state, step), group, hibit);
    }
    state
}

vector_blocks! {
    /// Full blocks into the lanes, 8 per step (see `vector_blocks!`).
    fn blocks("avx512f,avx512ifma")
}

/// The accumulator the lanes hold, `Σ lane_j · r^(8−j)`, as a scalar one.
#[target_feature(enable = "avx512f,avx512ifma")]
pub(super) fn fold(lanes: &Lanes, powers: &Powers) -> [u64; 3] {
    let p = with_twenties(std::array::from_fn(|i| {
        from_lanes(std::array::from_fn(|j| powers[i][LANES - j - 1]))
    }));
    let folded = mul(load(lanes), &p);
    let sums: [u64; 3] = folded.map(|v| _mm512_reduce_add_epi64(v) as u64);
    from_radix(&sums, 44)
}
