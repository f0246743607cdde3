//! Poly1305's vector lanes, shared by the vector rungs (`avx2`,
//! `avx512ifma`, `neon`): the accumulator as 8 lanes of limbs and the key powers
//! r^1…r^8 in a rung's radix, the body of the x86 rungs' multi-block
//! function (`vector_blocks!`; `neon` sums its lanes' products before it
//! carries, and has its own), the carries in radix 2^26, the conversions
//! between the scalar accumulator and limbs, and moving the accumulator
//! into the lanes and back.

use zeroize::Zeroize;

use super::Poly1305;

/// Blocks per vector step: logical lanes of the x86 vector rungs. Lane
/// `j` of a step holds block `j` of 8 consecutive blocks; the accumulator
/// is the sum over the lanes of lane `j` times r^(8−j) (`neon` keeps its
/// two lanes in the last two, the others zero).
pub(super) const LANES: usize = 8;

/// A vector rung's accumulator: limb `i` of every lane, in the rung's radix
/// and the rung's lane order.
pub(super) type Lanes = [[u64; LANES]; 5];

/// `r^1 … r^8` as limbs in a vector rung's radix: limb `i` of r^k at
/// `[i][k − 1]`, so that a row loads as a vector of the powers (unused
/// limbs zero).
pub(super) type Powers = [[u64; LANES]; 5];

/// The body of a vector rung's `blocks` function, shared by the rungs: it
/// calls the rung's own `zero`, `load`, `store`, `power`, `mul`, `hibits`,
/// `add_group`, `add_to_lane` and `full_groups` (the groups of 8 after the
/// first: `lanes · r^8 + group`, one after the other or several at once),
/// all compiled with the rung's features.
///
/// Full groups of 8 blocks: `lanes = lanes · r^8 + blocks`. A last group of
/// `k < 8` blocks goes in the last `k` lanes, the others zero (and without
/// the 2^128 bit): `lanes = lanes · r^k + blocks`, which keeps the sum
/// `Σ lane_j · r^(8−j)` the accumulator. A scalar accumulator `entering`
/// the lanes is added to the lane of the first block instead of the
/// multiplication.
#[cfg(target_arch = "x86_64")]
macro_rules! vector_blocks {
    ($(#[$meta:meta])* fn $name:ident($features:literal)) => {
        $(#[$meta])*
        #[target_feature(enable = $features)]
        pub(super) fn $name(
            lanes: &mut super::lanes::Lanes,
            powers: &super::lanes::Powers,
            entering: Option<[u64; 3]>,
            blocks: &[[u8; 16]],
        ) {
            use super::lanes::LANES;
            let mut entering = entering;
            let mut state = if entering.is_some() { zero() } else { load(lanes) };
            let (mut groups, tail) = blocks.as_chunks::<LANES>();
            let step = power(powers, LANES);
            let all = hibits(0);
            if let (Some(acc), [first, rest @ ..]) = (entering, groups) {
                state = add_group(add_to_lane(state, 0, acc), first, &all);
                (entering, groups) = (None, rest);
            }
            state = full_groups(state, groups, &step, &all);
            if !tail.is_empty() {
                let k = tail.len();
                let group = super::lanes::padded_group(tail);
                state = match entering.take() {
                    Some(acc) => add_to_lane(state, LANES - k, acc),
                    None => mul(state, &power(powers, k)),
                };
                state = add_group(state, &group, &hibits(LANES - k));
            }
            store(state, lanes);
        }
    };
}
#[cfg(target_arch = "x86_64")]
pub(super) use vector_blocks;

/// The carries of an accumulator in radix 2^26, in two interleaved chains
/// (OpenSSL's order): `carry(from, to, times_five)` moves the bits of limb
/// `from` above 26 into limb `to`, times 5 from limb 4 into limb 0 (2^130 ≡
/// 5). From limbs below 2^62 the limbs end below 2^26, limbs 1 and 4 below
/// 2^26 + 2^13: limb 4 sends limb 0 below 2^26 + 5·2^36, whose carry into
/// limb 1 is below 2^13, and the last carry into limb 4 below 2^11.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
#[inline(always)]
pub(super) fn carry_chain<V>(d: [V; 5], mut carry: impl FnMut(&mut V, &mut V, bool)) -> [V; 5] {
    let [mut d0, mut d1, mut d2, mut d3, mut d4] = d;
    carry(&mut d3, &mut d4, false);
    carry(&mut d0, &mut d1, false);
    carry(&mut d4, &mut d0, true);
    carry(&mut d1, &mut d2, false);
    carry(&mut d2, &mut d3, false);
    carry(&mut d0, &mut d1, false);
    carry(&mut d3, &mut d4, false);
    [d0, d1, d2, d3, d4]
}

/// The last `k < 8` blocks of a run at the end of a zeroed group of 8, so
/// that block `j` sits in lane `8 − k + j`.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
pub(super) fn padded_group(tail: &[[u8; 16]]) -> [[u8; 16]; LANES] {
    let mut group = [[0u8; 16]; LANES];
    group[LANES - tail.len()..].copy_from_slice(tail);
    group
}

/// `h` (three 64-bit words, below 2^136) as `N` limbs of `bits` bits, least
/// significant first; the last limb takes all the bits that remain.
#[inline(always)]
pub(super) fn to_radix<const N: usize>(h: [u64; 3], bits: u32) -> [u64; N] {
    let bits_at = |shift: u32| -> u64 {
        let (word, off) = ((shift / 64) as usize, shift % 64);
        let low = h.get(word).map_or(0, |w| w >> off);
        let high = match (off, h.get(word + 1)) {
            (0, _) | (_, None) => 0,
            (_, Some(w)) => w << (64 - off),
        };
        low | high
    };
    std::array::from_fn(|i| {
        let limb = bits_at(bits * i as u32);
        if i + 1 < N {
            limb & ((1 << bits) - 1)
        } else {
            limb
        }
    })
}

/// `Σ limbs[i] · 2^(bits·i)` reduced to below 2^130 + 2^64 (the bits at and
/// above 2^130 folded back times 5): a scalar accumulator again. Limbs may
/// exceed `bits` bits (sums of lanes).
#[inline(always)]
pub(super) fn from_radix<const N: usize>(limbs: &[u64; N], bits: u32) -> [u64; 3] {
    let mut acc = [0u64; 4];
    for (i, &limb) in limbs.iter().enumerate() {
        let shift = bits * i as u32;
        let (word, off) = ((shift / 64) as usize, shift % 64);
        let mut carry = u128::from(limb) << off;
        for w in &mut acc[word..] {
            let t = u128::from(*w) + (carry & u128::from(u64::MAX));
            *w = t as u64;
            carry = (carry >> 64) + (t >> 64);
        }
    }
    // The limbs of the rungs sum to below 2^170, so `high` < 2^40.
    let high = u128::from(acc[2] >> 2) | u128::from(acc[3]) << 62;
    let low = u128::from(acc[0]) | u128::from(acc[1]) << 64;
    let (sum, c1) = low.overflowing_add(high * 5);
    let top = (acc[2] & 3) + u64::from(c1);
    [sum as u64, (sum >> 64) as u64, top]
}

/// A vector rung's state, made the first time a run goes vector: the key
/// powers in the rung's radix and the accumulator lanes. Zeroized on drop.
pub(super) struct Vector {
    pub(super) lanes: Lanes,
    pub(super) powers: Powers,
    /// The accumulator is in `lanes`, not in the scalar `h`.
    pub(super) active: bool,
}

impl Drop for Vector {
    fn drop(&mut self) {
        // Lanes not in use were zeroized when the accumulator left them.
        if self.active {
            self.lanes.zeroize();
        }
        self.powers.zeroize();
    }
}

impl Poly1305 {
    /// Before a vector run: the key powers in the rung's radix the first
    /// time (from `powers`), and the scalar accumulator to hand over if the
    /// lanes are not in use yet.
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    pub(super) fn enter_lanes(
        &mut self,
        powers: impl FnOnce(&[u64; 2]) -> Powers,
    ) -> (&mut Vector, Option<[u64; 3]>) {
        let r = &self.r;
        let v = self.vector.get_or_insert_with(|| {
            Box::new(Vector {
                lanes: [[0; LANES]; 5],
                powers: powers(r),
                active: false,
            })
        });
        if v.active {
            return (v, None);
        }
        v.active = true;
        let h = self.h;
        self.h = [0; 3];
        (v, Some(h))
    }

    /// Folds the lanes back into the scalar accumulator with `fold` (the
    /// vector rung's, given the lanes and the key powers), if they hold it,
    /// and zeroizes them.
    pub(super) fn leave_lanes_with(&mut self, fold: impl FnOnce(&Lanes, &Powers) -> [u64; 3]) {
        let Some(v) = self.vector.as_mut().filter(|v| v.active) else {
            return;
        };
        v.active = false;
        self.h = fold(&v.lanes, &v.powers);
        v.lanes.zeroize();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::poly1305::scalar64;

    #[test]
    fn radix_round_trips() {
        let values = [
            [0, 0, 0],
            [1, 2, 3],
            [u64::MAX, u64::MAX, 3],
            [0x0123_4567_89ab_cdef, 0xfedc_ba98_7654_3210, 2],
        ];
        for h in values {
            let l26 = to_radix::<5>(h, 26);
            assert!(l26[..4].iter().all(|&l| l < 1 << 26));
            assert_eq!(from_radix(&l26, 26), h, "radix 2^26 of {h:x?}");
            let l44 = to_radix::<3>(h, 44);
            assert!(l44[..2].iter().all(|&l| l < 1 << 44));
            assert_eq!(from_radix(&l44, 44), h, "radix 2^44 of {h:x?}");
        }
    }

    #[test]
    fn from_radix_folds_oversized_limbs() {
        // 2^130 as a limb 4 of 2^26 (radix 2^26) is 5 mod p.
        assert_eq!(from_radix(&[0, 0, 0, 0, 1 << 26], 26), [5, 0, 0]);
        // Limbs over their width carry: 2^26 in limb 0 is limb 1's 1.
        assert_eq!(from_radix(&[1 << 26, 0, 0, 0, 0], 26), [1 << 26, 0, 0]);
        // Lane sums: 8 lanes of 2^26 − 1 in every limb make
        // 8·(2^130 − 1) ≡ 8·5 − 8 = 32.
        let l = [8 * ((1u64 << 26) - 1); 5];
        assert_eq!(scalar64::reduce(from_radix(&l, 26)), [32, 0, 0]);
        let l = [
            8 * ((1u64 << 44) - 1),
            8 * ((1u64 << 44) - 1),
            8 * ((1u64 << 42) - 1),
        ];
        assert_eq!(scalar64::reduce(from_radix(&l, 44)), [32, 0, 0]);
    }
}
