//! Scalar, one lane, tuned for the latency of the chain of Salsa20/8 cores:
//! BlockMix's `X` stays in sixteen local variables (general-purpose
//! registers) from one sub-block to the next, the XORs into `X` (with `B_i`
//! and `V_j`) and the feedforward are fused around a fully unrolled core on
//! Salsa20's `no-transpose` double-round, V grows entry by entry with
//! BlockMix writing straight into it, all of `V_j` is prefetched as soon as
//! Integerify (read from the registers) gives `j`, and X alternates between
//! two buffers. (Also tried, slower or no faster: the double-rounds as a
//! loop, the core not inlined, `X ⊕ V_j` formed whole with SSE2 before each
//! BlockMix, and the last `X` carried in registers into the next BlockMix.)

use super::{Block, Scratch};
use crate::salsa20::no_transpose::double_round;
use crate::stream::in_registers;

/// `x ⊕ y`, word by word.
#[inline(always)]
fn xor(x: &[u32; 16], y: &[u32; 16]) -> [u32; 16] {
    std::array::from_fn(|k| x[k] ^ y[k])
}

/// The Salsa20/8 core (RFC 7914 §3) of `t`: four double-rounds, unrolled
/// (a few per cent faster than LLVM's own choice for a loop), then the
/// final addition.
#[inline(always)]
fn salsa20_8(t: [u32; 16]) -> [u32; 16] {
    let [
        mut x0,
        mut x1,
        mut x2,
        mut x3,
        mut x4,
        mut x5,
        mut x6,
        mut x7,
        mut x8,
        mut x9,
        mut x10,
        mut x11,
        mut x12,
        mut x13,
        mut x14,
        mut x15,
    ] = t;
    // The words in general-purpose registers (`stream::in_registers`):
    // in a build for an AVX-512 CPU, LLVM's SLP vectoriser otherwise forms
    // the XOR before this and the addition after it in vectors, moving
    // the words in and out (`vpinsrd`, `vpextrd`) on the chain of cores
    // (bench/NOTES.md, scrypt-native).
    for w in [[&mut x0, &mut x1, &mut x2, &mut x3], [&mut x4, &mut x5, &mut x6, &mut x7]] {
        in_registers(w);
    }
    in_registers([&mut x8, &mut x9, &mut x10, &mut x11]);
    in_registers([&mut x12, &mut x13, &mut x14, &mut x15]);
    double_round!(
        x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15
    );
    double_round!(
        x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15
    );
    double_round!(
        x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15
    );
    double_round!(
        x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15
    );
    let z = [
        x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15,
    ];
    let mut out: [u32; 16] = std::array::from_fn(|k| z[k].wrapping_add(t[k]));
    for w in out.as_chunks_mut::<4>().0 {
        let [a, b, c, d] = w;
        in_registers([a, b, c, d]);
    }
    out
}

/// scryptBlockMix (RFC 7914 §4) of `input` into `output`; with `XOR`, the
/// input is first XORed with `v_j` (ROMix step 3). Returns the last
/// sub-block written, for Integerify.
#[inline(always)]
fn block_mix<const XOR: bool>(input: &[Block], v_j: &[Block], output: &mut [Block]) -> [u32; 16] {
    let two_r = input.len();
    // B_i, XORed with V_j's sub-block i in ROMix step 3: independent of
    // X, so formed ahead of the core that needs it.
    let b = |i: usize| -> [u32; 16] {
        if XOR {
            xor(&input[i].0, &v_j[i].0)
        } else {
            input[i].0
        }
    };
    // 1. X = B_{2r−1}
    let mut x = b(two_r - 1);
    // 2. for i = 0 to 2r − 1: X = Salsa(X xor B_i); Y_i = X
    // 3. B' = (Y_0, Y_2, …, Y_{2r−2}, Y_1, Y_3, …, Y_{2r−1})
    let (even, odd) = output.split_at_mut(two_r / 2);
    for (i, (even, odd)) in even.iter_mut().zip(odd).enumerate() {
        x = salsa20_8(xor(&x, &b(2 * i)));
        *even = Block(x);
        x = salsa20_8(xor(&x, &b(2 * i + 1)));
        *odd = Block(x);
    }
    x
}

/// Integerify (RFC 7914 §5) of the last sub-block `x`, modulo `n` (a power
/// of two).
#[inline(always)]
fn integerify(x: &[u32; 16], n: usize) -> usize {
    // `n` fits a usize, so the bits kept do.
    let j = ((u64::from(x[0]) | u64::from(x[1]) << 32) & (n as u64 - 1)) as usize;
    // Declassified (docs/constant-time.md): scrypt reads V at this index
    // by design (RFC 7914 §5, ROMix step 3); memory-hardness is those
    // reads, and the check exempts them, and only them.
    crate::ct::declassify(j)
}

/// scryptBlockMix (RFC 7914 §4) of `input` into `output`, for the tests of
/// RFC 7914 §9.
#[cfg(feature = "hazmat")]
pub(super) fn block_mix_lanes(input: &[Block], output: &mut [Block]) {
    block_mix::<false>(input, &[], output);
}

/// scryptROMix (RFC 7914 §5) with `N = n` (even) of the lane `b` (`2r`
/// sub-blocks) in place.
pub(super) fn ro_mix(b: &mut [Block], scratch: &mut Scratch, n: usize) {
    let two_r = b.len();
    let (v, x) = scratch.parts();
    let v = &mut v[..n * two_r];
    let x = &mut x[..two_r];
    // 1–2. V_0 = B; V_{i+1} = BlockMix(V_i), written straight into V; the
    // last BlockMix goes to B.
    v[..two_r].copy_from_slice(b);
    for i in 0..n - 1 {
        let (filled, next) = v.split_at_mut((i + 1) * two_r);
        block_mix::<false>(&filled[i * two_r..], &[], &mut next[..two_r]);
    }
    let mut last = block_mix::<false>(&v[(n - 1) * two_r..], &[], b);
    // 3. j = Integerify(X) mod N; X = BlockMix(X xor V_j), X alternating
    // between B and the scratch buffer (N is even, so it ends in B).
    for k in 0..n {
        let (src, dst): (&[Block], &mut [Block]) = if k % 2 == 0 { (b, x) } else { (x, b) };
        let j = integerify(&last, n);
        let v_j = &v[j * two_r..(j + 1) * two_r];
        #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
        super::prefetch(v_j);
        last = block_mix::<true>(src, v_j, dst);
    }
}
