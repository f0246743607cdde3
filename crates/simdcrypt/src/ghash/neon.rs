//! Advanced SIMD (NEON) without PMULL: the 64×64 carry-less product built
//! from `vmull_p8`, eight 8×8-bit products a register, as Câmara,
//! Gouvêa, López and Dahab do (*Fast Software Polynomial Multiplication
//! on ARM Processors Using the NEON Engine*, CD-ARES 2013; the same
//! technique as OpenSSL's NEON GHASH and the Linux kernel's `pmull_ghash`
//! 8-bit fallback), written here from the paper. Karatsuba's three
//! products per block, and one reduction per 8 blocks with `H^8 … H^1`
//! (aggregated reduction, as the `pclmul` rung), the reduction by shifts.
//!
//! With `a` and `b` as bytes `a_i`, `b_j` (the coefficients of `x^8i`
//! and up), `a · b` sums `a_i · b_j · x^(8(i+j))`. `vmull_p8(a, b)` gives
//! the diagonal `a_i · b_i` in 16-bit lane `i`, where it belongs
//! (`x^16i`); with `b` rotated by `k` bytes it gives `a_i · b_(i+k mod
//! 8)`, one diagonal `i − j = −k` shifted `8k` bits down, and the lanes
//! that wrapped (`i + k ≥ 8`, the diagonal `i − j = 8 − k`) `64 − 8k`
//! bits up from where they belong. Rotating `a` instead gives the
//! diagonals `k` and `k − 8`. So the 8 products of `b`, `a` rotated by
//! 1, 2, 3, and of `b` rotated by 4 (which takes both diagonals ±4) cover
//! the 15 diagonals; each sum's wrapped lanes are folded from the high
//! half onto the low one (where they stand as far below their places as
//! the lanes that did not wrap), and one byte rotation puts each in place.
//! Every step is a fixed sequence of register operations: constant-time.
//!
//! The multiplication-independent parts — the sums before reduction, the
//! byte order, the 8-block aggregation — are shared with the `pmull` rung.
//!
//! Everything is POLYVAL's field (RFC 8452 §3); GHASH's blocks are
//! byte-reversed on loading (RFC 8452 Appendix A). The reduction by
//! `x^-128` is Montgomery's one 64-bit word at a time, as `soft64`'s, by
//! shifts: adding the low word `c0` times `P = x^128 + x^127 + x^126 +
//! x^121 + 1` clears it; the same with the next word.

use core::arch::aarch64::{
    uint8x8_t, uint8x16_t, uint64x2_t, vandq_u8, vcombine_u64, vcreate_u64, vdupq_n_u8, veor_u8,
    veorq_u8, vext_u8, vextq_u8, vget_high_u8, vget_low_u8, vld1q_u8, vmull_p8, vqtbl1q_u8,
    vreinterpret_p8_u8, vreinterpretq_u8_p16, vreinterpretq_u8_u64, vreinterpretq_u64_u8,
    vshlq_n_u64, vshrq_n_u64, vst1q_u8,
};

/// A sum of products before reduction, as Karatsuba's three parts: the
/// products of the low words, of the high words, and of the XORs of the
/// two words (still holding the other two).
#[derive(Clone, Copy)]
pub(crate) struct Wide {
    pub(crate) lo: uint8x16_t,
    pub(crate) mid: uint8x16_t,
    pub(crate) hi: uint8x16_t,
}

impl Wide {
    /// The empty sum.
    #[target_feature(enable = "neon")]
    #[inline]
    pub(crate) fn zero() -> Wide {
        let z = vdupq_n_u8(0);
        Wide {
            lo: z,
            mid: z,
            hi: z,
        }
    }

    /// The 256-bit sum as two 128-bit halves (low, high): Karatsuba's
    /// middle term `mid ⊕ lo ⊕ hi` added at `x^64`.
    #[target_feature(enable = "neon")]
    #[inline]
    pub(crate) fn halves(self) -> (uint8x16_t, uint8x16_t) {
        let z = vdupq_n_u8(0);
        let mid = veorq_u8(self.mid, veorq_u8(self.lo, self.hi));
        (
            veorq_u8(self.lo, vextq_u8::<8>(z, mid)),
            veorq_u8(self.hi, vextq_u8::<8>(mid, z)),
        )
    }
}

/// The `vqtbl1q_u8` index that leaves a block as it is (POLYVAL) or
/// reverses it (GHASH).
#[target_feature(enable = "neon")]
#[inline]
pub(crate) fn byte_order(reversed: bool) -> uint8x16_t {
    const SAME: [u8; 16] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];
    const REVERSED: [u8; 16] = [15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0];
    let index = if reversed { &REVERSED } else { &SAME };
    // SAFETY: the index is 16 bytes, the size of the load.
    unsafe { vld1q_u8(index.as_ptr()) }
}

/// A field element from memory.
#[target_feature(enable = "neon")]
#[inline]
pub(crate) fn load(value: &u128) -> uint8x16_t {
    // SAFETY: a u128 is 16 bytes, the size of the (unaligned) load.
    unsafe { vld1q_u8((value as *const u128).cast()) }
}

/// A field element to memory.
#[target_feature(enable = "neon")]
#[inline]
pub(crate) fn store(value: uint8x16_t) -> u128 {
    let mut out = 0u128;
    // SAFETY: a u128 is 16 bytes, the size of the (unaligned) store.
    unsafe { vst1q_u8((&mut out as *mut u128).cast(), value) };
    out
}

/// Block `i` of `blocks`, in field order (`order` from [`byte_order`]).
#[target_feature(enable = "neon")]
#[inline]
pub(crate) fn load_block(blocks: &[u8], i: usize, order: uint8x16_t) -> uint8x16_t {
    let block = &blocks[16 * i..16 * i + 16];
    // SAFETY: `block` is 16 bytes, the size of the (unaligned) load.
    vqtbl1q_u8(unsafe { vld1q_u8(block.as_ptr()) }, order)
}

/// `s` after absorbing the `n ≤ 8` blocks of `blocks` (`16·n` bytes) in
/// one reduction (`s` itself when there are none): block `i` times
/// `H^(n−i)`, `powers` holding `H^8` first and `H^1` last, each product
/// added by `mul_add`, the sum reduced by `reduce` (the rung's own).
#[target_feature(enable = "neon")]
#[inline]
pub(crate) fn absorb(
    powers: &[u128; 8],
    s: uint8x16_t,
    blocks: &[u8],
    order: uint8x16_t,
    mul_add: impl Fn(&mut Wide, uint8x16_t, uint8x16_t),
    reduce: impl Fn(Wide) -> uint8x16_t,
) -> uint8x16_t {
    let n = blocks.len() / 16;
    if n == 0 {
        return s;
    }
    let mut w = Wide::zero();
    for i in 0..n {
        let mut x = load_block(blocks, i, order);
        if i == 0 {
            x = veorq_u8(x, s);
        }
        mul_add(&mut w, x, load(&powers[8 - n + i]));
    }
    reduce(w)
}

/// Absorbs whole `blocks` into `acc`, 8 at a time, the rest in one last
/// reduction, with the rung's `mul_add` and `reduce`; `reversed` for
/// GHASH's byte order.
#[target_feature(enable = "neon")]
#[inline]
pub(crate) fn update_with(
    powers: &[u128; 8],
    acc: &mut u128,
    blocks: &[u8],
    reversed: bool,
    mul_add: impl Fn(&mut Wide, uint8x16_t, uint8x16_t),
    reduce: impl Fn(Wide) -> uint8x16_t,
) {
    let order = byte_order(reversed);
    let mut s = load(acc);
    for group in blocks.chunks(128) {
        s = absorb(powers, s, group, order, &mul_add, &reduce);
    }
    *acc = store(s);
}

/// The 16-bit lanes of a product's sum that wrapped (the top lanes that
/// `wrapped`, a mask of the high 64-bit half, selects) moved to the same
/// lanes of the low half, where they stand as far below their places as
/// the other lanes do.
#[target_feature(enable = "neon")]
#[inline]
fn fold(v: uint8x16_t, wrapped: u64) -> uint8x16_t {
    let mask = vreinterpretq_u8_u64(vcombine_u64(vcreate_u64(0), vcreate_u64(wrapped)));
    let t = vandq_u8(v, mask);
    veorq_u8(veorq_u8(v, t), vextq_u8::<8>(t, vdupq_n_u8(0)))
}

/// The carry-less product of the 64-bit polynomials `a` and `b`, 127
/// bits in a register: eight `vmull_p8`.
#[target_feature(enable = "neon")]
#[inline]
fn clmul64(a: uint8x8_t, b: uint8x8_t) -> uint8x16_t {
    let p = |x: uint8x8_t, y: uint8x8_t| {
        vreinterpretq_u8_p16(vmull_p8(vreinterpret_p8_u8(x), vreinterpret_p8_u8(y)))
    };
    // The diagonals ±k (and ∓(8 − k)) for k = 1, 2, 3, then ±4, then 0.
    let d1 = veorq_u8(p(a, vext_u8::<1>(b, b)), p(vext_u8::<1>(a, a), b));
    let d2 = veorq_u8(p(a, vext_u8::<2>(b, b)), p(vext_u8::<2>(a, a), b));
    let d3 = veorq_u8(p(a, vext_u8::<3>(b, b)), p(vext_u8::<3>(a, a), b));
    let d4 = p(a, vext_u8::<4>(b, b));
    let d0 = p(a, b);
    let d1 = fold(d1, 0xffff_0000_0000_0000);
    let d2 = fold(d2, 0xffff_ffff_0000_0000);
    let d3 = fold(d3, 0xffff_ffff_ffff_0000);
    let d4 = fold(d4, !0);
    // Each sum `k` bytes up (its top `k` bytes are zero now).
    let up = veorq_u8(
        veorq_u8(vextq_u8::<15>(d1, d1), vextq_u8::<14>(d2, d2)),
        veorq_u8(vextq_u8::<13>(d3, d3), vextq_u8::<12>(d4, d4)),
    );
    veorq_u8(d0, up)
}

/// Adds `a · h` to `w`, unreduced: three 64×64 products (Karatsuba).
#[target_feature(enable = "neon")]
#[inline]
fn mul_add(w: &mut Wide, a: uint8x16_t, h: uint8x16_t) {
    let (a0, a1) = (vget_low_u8(a), vget_high_u8(a));
    let (h0, h1) = (vget_low_u8(h), vget_high_u8(h));
    w.lo = veorq_u8(w.lo, clmul64(a0, h0));
    w.hi = veorq_u8(w.hi, clmul64(a1, h1));
    w.mid = veorq_u8(w.mid, clmul64(veor_u8(a0, a1), veor_u8(h0, h1)));
}

/// `c0·(x^57 + x^62 + x^63)` for each 64-bit word `c0` of `v`: the part
/// of `c0·P` that lands in the word above `c0`, the shifts left.
#[target_feature(enable = "neon")]
#[inline]
fn shifted_left(v: uint64x2_t) -> uint64x2_t {
    let t = veorq_u8(
        vreinterpretq_u8_u64(vshlq_n_u64::<63>(v)),
        vreinterpretq_u8_u64(vshlq_n_u64::<62>(v)),
    );
    vreinterpretq_u64_u8(veorq_u8(t, vreinterpretq_u8_u64(vshlq_n_u64::<57>(v))))
}

/// The sum `w` times `x^-128`, reduced by shifts. With `c0 … c3` its
/// 64-bit words, `c0·P` adds `c0·(x^57 + x^62 + x^63)` to `c1` (its
/// shifts left) and `c0·(1 + x^-1 + x^-2 + x^-7)` to `c2`; the same with
/// the new `c1` into `c2` and `c3`. Both at once: `c1` takes `c0`'s
/// shifts left, then the low half `D = (c0, c1)` is added to the high
/// one as `D ⊕ D≫1 ⊕ D≫2 ⊕ D≫7` (128-bit shifts right: each word's
/// shifts right, and the high word's shifts left carried down).
#[target_feature(enable = "neon")]
#[inline]
fn reduce(w: Wide) -> uint8x16_t {
    let z = vdupq_n_u8(0);
    let (lo, hi) = w.halves();
    let left = vreinterpretq_u8_u64(shifted_left(vreinterpretq_u64_u8(lo)));
    let d = veorq_u8(lo, vextq_u8::<8>(z, left));
    let d64 = vreinterpretq_u64_u8(d);
    let right = veorq_u8(
        veorq_u8(
            vreinterpretq_u8_u64(vshrq_n_u64::<1>(d64)),
            vreinterpretq_u8_u64(vshrq_n_u64::<2>(d64)),
        ),
        vreinterpretq_u8_u64(vshrq_n_u64::<7>(d64)),
    );
    // The bits the 128-bit shifts carry from the high word to the low.
    let carried = vreinterpretq_u8_u64(shifted_left(d64));
    let carried = vextq_u8::<8>(carried, z);
    veorq_u8(veorq_u8(hi, d), veorq_u8(right, carried))
}

/// `dot(a, b)` (RFC 8452 §3): one product, one reduction.
#[target_feature(enable = "neon")]
pub(super) fn dot(a: u128, b: u128) -> u128 {
    let mut w = Wide::zero();
    mul_add(&mut w, load(&a), load(&b));
    store(reduce(w))
}

/// Absorbs whole `blocks` into `acc`, 8 at a time, the rest in one last
/// reduction; `reversed` for GHASH's byte order.
#[target_feature(enable = "neon")]
pub(crate) fn update(powers: &[u128; 8], acc: &mut u128, blocks: &[u8], reversed: bool) {
    update_with(
        powers,
        acc,
        blocks,
        reversed,
        |w, a, h| mul_add(w, a, h),
        |w| reduce(w),
    );
}
