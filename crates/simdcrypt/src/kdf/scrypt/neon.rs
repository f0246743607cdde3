//! NEON (aarch64 Advanced SIMD), one lane: the `sse2` rung's form on
//! `uint32x4_t`. Each 64-byte sub-block lives in four registers in the
//! diagonal layout ([`crate::salsa20::diagonal`]) for the whole ROMix;
//! the row round's lane rotations are `ext` of a register with itself
//! (`vextq_u32`), each 32-bit rotation a shift left and a shift right and
//! insert (`shl`, `sri`). BlockMix and ROMix are the shared [`simd_rung!`]:
//! BlockMix writes straight into V, and `V_j` is prefetched (`prfm`).

use core::arch::aarch64::{uint32x4_t, vaddq_u32, veorq_u32, vextq_u32, vld1q_u32, vst1q_u32};

use super::simd::simd_rung;
use crate::salsa20::diagonal::{ROT1, ROT2, ROT3};
use crate::simd::rotl_neon;

/// The sub-block `blocks[at[0]]` in four registers.
#[inline]
#[target_feature(enable = "neon")]
fn load(blocks: &[Block], at: [usize; 1]) -> [uint32x4_t; 4] {
    let p = blocks[at[0]].0.as_ptr();
    // SAFETY: a `Block` is sixteen readable words: four rows of four.
    std::array::from_fn(|row| unsafe { vld1q_u32(p.add(4 * row)) })
}

/// Stores four registers to the sub-block `blocks[at[0]]`.
#[inline]
#[target_feature(enable = "neon")]
fn store(x: [uint32x4_t; 4], blocks: &mut [Block], at: [usize; 1]) {
    let p = blocks[at[0]].0.as_mut_ptr();
    for (row, x) in x.into_iter().enumerate() {
        // SAFETY: a `Block` is sixteen words, borrowed mutably: four
        // writable rows of four.
        unsafe { vst1q_u32(p.add(4 * row), x) };
    }
}

/// The diagonal layout's lane rotations, named by the `pshufd`
/// immediates the shared double-round passes ([`ROT1`], [`ROT2`],
/// [`ROT3`]: lane `i` of the result is lane `i + k` of `x`), as `ext` of
/// `x` with itself by `k` lanes. The match is on a constant: it compiles
/// to the one instruction.
#[inline]
#[target_feature(enable = "neon")]
fn rotate_lanes<const IMM: i32>(x: uint32x4_t) -> uint32x4_t {
    match IMM {
        ROT1 => vextq_u32::<1>(x, x),
        ROT2 => vextq_u32::<2>(x, x),
        ROT3 => vextq_u32::<3>(x, x),
        _ => unreachable!("not a lane rotation of the diagonal layout"),
    }
}

simd_rung! {
    feature = "neon", lanes = 1, reg = uint32x4_t,
    add = vaddq_u32, xor = veorq_u32, rotl = rotl_neon, shuffle = rotate_lanes,
    load = load, store = store,
}

/// Asks for all the cache lines of `blocks` (one per sub-block) at once,
/// so that they arrive in parallel rather than one by one as BlockMix
/// reaches them: `V_j` in ROMix's second loop, for every rung.
#[inline(always)]
pub(super) fn prefetch(blocks: &[Block]) {
    for block in blocks {
        // SAFETY: `prfm` is a hint (the prefetch intrinsics are unstable
        // on aarch64): it loads nothing into a register, writes nothing and
        // never faults.
        unsafe {
            core::arch::asm!(
                "prfm pldl1keep, [{p}]",
                p = in(reg) block.0.as_ptr(),
                options(nostack, readonly, preserves_flags)
            );
        }
    }
}
