//! NEON (aarch64 Advanced SIMD), four blocks a register pair: the S-box
//! by `tbl` on four registers (`vqtbl4q_u8`), which looks each byte of an
//! index up in a 64-byte table, as the `avx512` rung's `vpermb` does. The
//! tables are [`SBox::byte_tables`], indexed by a nibble and its byte's
//! position (`n | j << 4`), so two lookups substitute all eight nibbles of
//! `x = N + K`: the low nibbles' indexes by one bit select (`bsl`) of `x`
//! and the positions, the high nibbles' by one shift right and insert
//! (`sri`) of `x` into them; the rotation by 11 is `shl` and `sri`.
//! (RFC 5830 §5.1's round: `N2 ^= (S(N1 + K) <<< 11)`.)
//!
//! Blocks are loaded 16 bytes at a time (two blocks), their halves
//! gathered with `uzp1`/`uzp2` (Magma's big-endian blocks byte-reversed
//! first by `rev64`) and scattered back with `zip1`/`zip2`. Four groups of
//! four blocks are interleaved to hide the round's latency: their eight
//! halves, the two tables (eight registers) and the constants fit the 32
//! vector registers. The single-block rounds of the chained modes run the
//! same round on one lane.

use core::arch::aarch64::{
    uint8x16_t, uint8x16x4_t, uint32x4_t, vaddq_u32, vbslq_u8, vdupq_n_u8, vdupq_n_u32, veorq_u32,
    vgetq_lane_u32, vld1q_u8, vld1q_u8_x4, vorrq_u8, vqtbl4q_u8, vreinterpretq_u8_u32,
    vreinterpretq_u32_u8, vrev64q_u8, vsriq_n_u8, vst1q_u8, vuzp1q_u32, vuzp2q_u32, vzip1q_u32,
    vzip2q_u32,
};

use super::{Order, SBox};
use crate::simd::rotl_neon;
use crate::xor::InOut;

/// Groups of four blocks interleaved in the bulk loop.
const GROUPS: usize = 4;

/// Blocks a register pair holds.
const LANES: usize = 4;

/// Four groups of four blocks.
pub(super) const PAR_BLOCKS: usize = GROUPS * LANES;

/// The two 64-byte tables of [`SBox::byte_tables`].
#[derive(Clone)]
pub(super) struct Tables {
    lo: [u8; 64],
    hi: [u8; 64],
}

impl Tables {
    pub(super) fn new(sbox: &SBox) -> Tables {
        let [lo, hi] = sbox.byte_tables();
        Tables { lo, hi }
    }
}

/// The tables and constants in registers.
#[derive(Clone, Copy)]
struct Regs {
    lo: uint8x16x4_t,
    hi: uint8x16x4_t,
    /// `0x0f` in every byte.
    nibble: uint8x16_t,
    /// Each byte's position in its word, in its high nibble: `j << 4`.
    position: uint8x16_t,
}

#[target_feature(enable = "neon")]
#[inline]
fn regs(t: &Tables) -> Regs {
    // SAFETY: each table is 64 readable bytes.
    let (lo, hi) = unsafe { (vld1q_u8_x4(t.lo.as_ptr()), vld1q_u8_x4(t.hi.as_ptr())) };
    Regs {
        lo,
        hi,
        nibble: vdupq_n_u8(0x0f),
        position: vreinterpretq_u8_u32(vdupq_n_u32(0x3020_1000)),
    }
}

/// `f(x)`: each nibble through its S-box, rotated left by 11.
#[target_feature(enable = "neon")]
#[inline]
fn f(c: &Regs, x: uint32x4_t) -> uint32x4_t {
    let x = vreinterpretq_u8_u32(x);
    // Low nibbles: `(x & 0x0f) | j << 4`; high nibbles: `x >> 4 | j << 4`.
    let lo = vbslq_u8(c.nibble, x, c.position);
    let hi = vsriq_n_u8::<4>(c.position, x);
    let s = vorrq_u8(vqtbl4q_u8(c.lo, lo), vqtbl4q_u8(c.hi, hi));
    rotl_neon!(vreinterpretq_u32_u8(s), 11)
}

/// Two blocks' 16 bytes at `p` as the little-endian words `N1, N2, N1',
/// N2'` (the blocks as 64-bit integers `N2 ‖ N1` in their order).
///
/// # Safety
///
/// `p` is readable for 16 bytes.
#[target_feature(enable = "neon")]
#[inline]
unsafe fn load<const BIG: bool>(p: *const u8) -> uint32x4_t {
    // SAFETY: the caller's promise; `ld1` of bytes needs no alignment.
    let r = unsafe { vld1q_u8(p) };
    vreinterpretq_u32_u8(if BIG { vrev64q_u8(r) } else { r })
}

/// The inverse of [`load`]: the words `w` back to two blocks at `p`.
///
/// # Safety
///
/// `p` is writable for 16 bytes.
#[target_feature(enable = "neon")]
#[inline]
unsafe fn store<const BIG: bool>(p: *mut u8, w: uint32x4_t) {
    let r = vreinterpretq_u8_u32(w);
    // SAFETY: the caller's promise; `st1` of bytes needs no alignment.
    unsafe { vst1q_u8(p, if BIG { vrev64q_u8(r) } else { r }) };
}

/// The 32 rounds on `G` groups of four blocks at `src`, written to `dst`.
///
/// # Safety
///
/// `src` readable and `dst` writable for `32 · G` bytes, the same address
/// or not overlapping.
#[target_feature(enable = "neon")]
#[inline]
unsafe fn groups<const G: usize, const BIG: bool>(
    c: &Regs,
    k: &[uint32x4_t; 32],
    src: *const u8,
    dst: *mut u8,
) {
    let mut n1 = [vdupq_n_u32(0); G];
    let mut n2 = [vdupq_n_u32(0); G];
    for g in 0..G {
        // SAFETY: bytes `32g..32g + 32` are within the `32 · G` readable
        // bytes (the caller).
        let (r0, r1) = unsafe {
            (
                load::<BIG>(src.add(32 * g)),
                load::<BIG>(src.add(32 * g + 16)),
            )
        };
        n1[g] = vuzp1q_u32(r0, r1);
        n2[g] = vuzp2q_u32(r0, r1);
    }
    for pair in k.chunks_exact(2) {
        for g in 0..G {
            n2[g] = veorq_u32(n2[g], f(c, vaddq_u32(n1[g], pair[0])));
        }
        for g in 0..G {
            n1[g] = veorq_u32(n1[g], f(c, vaddq_u32(n2[g], pair[1])));
        }
    }
    for g in 0..G {
        // The result is `N1 ‖ N2` as the integer `N1 << 32 | N2`: `N2` the
        // low word.
        // SAFETY: the same bytes as read, writable (the caller); all of
        // them were read above.
        unsafe {
            store::<BIG>(dst.add(32 * g), vzip1q_u32(n2[g], n1[g]));
            store::<BIG>(dst.add(32 * g + 16), vzip2q_u32(n2[g], n1[g]));
        }
    }
}

/// The 32 rounds under `rk` on whole blocks: [`GROUPS`] groups of four at
/// a time, then two and one group as they fit, then the last `< 4` blocks
/// through a stack copy of one group.
#[target_feature(enable = "neon")]
pub(super) fn crypt(t: &Tables, rk: &[u32; 32], order: Order, blocks: InOut<'_>) {
    match order {
        Order::Le => crypt_in::<false>(t, rk, blocks),
        Order::Be => crypt_in::<true>(t, rk, blocks),
    }
}

/// [`crypt`] for blocks little-endian (`BIG` false) or big-endian.
#[target_feature(enable = "neon")]
#[inline]
fn crypt_in<const BIG: bool>(t: &Tables, rk: &[u32; 32], blocks: InOut<'_>) {
    const GROUP: usize = 8 * LANES;
    let c = regs(t);
    let k = rk.map(|w| vdupq_n_u32(w));
    super::by_groups!(
        blocks.into_raw(),
        GROUP,
        [GROUPS, 2, 1],
        |N, src, dst| {
            // SAFETY: `N` groups to read at `src` and write at `dst`, the
            // same address or apart (`by_groups!`).
            unsafe { groups::<N, BIG>(&c, &k, src, dst) }
        }
    );
}

/// The rounds under `rk` of one block `[N1, N2]`, in every lane of two
/// registers (the chained modes' path: its latency is the round's).
#[target_feature(enable = "neon")]
pub(super) fn rounds(t: &Tables, rk: &[u32], [n1, n2]: [u32; 2]) -> [u32; 2] {
    let c = regs(t);
    let (mut a, mut b) = (vdupq_n_u32(n1), vdupq_n_u32(n2));
    let mut pairs = rk.chunks_exact(2);
    for k in &mut pairs {
        b = veorq_u32(b, f(&c, vaddq_u32(a, vdupq_n_u32(k[0]))));
        a = veorq_u32(a, f(&c, vaddq_u32(b, vdupq_n_u32(k[1]))));
    }
    if let [k] = pairs.remainder() {
        b = veorq_u32(b, f(&c, vaddq_u32(a, vdupq_n_u32(*k))));
    }
    [vgetq_lane_u32::<0>(a), vgetq_lane_u32::<0>(b)]
}
