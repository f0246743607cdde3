//! Portable 64-bit and constant-time: 64 blocks bitsliced. The blocks'
//! 64 × 64 bits are transposed once on the way in and once on the way
//! out, so that word `j` of the state holds bit `j` of the integer
//! `N2 ‖ N1` of every block (one block a bit position). A round of RFC 5830
//! §5.1 is then logic on whole words, the same for all 64 blocks:
//!
//! - the addition of the key word modulo 2^32 is a ripple-carry adder over
//!   the 32 bit planes of the half, each key bit an all-ones or all-zeros
//!   mask (computed, never branched on);
//! - each 4-bit S-box `K(i)` is a Boolean function of its four input
//!   planes, written as a multiplexer: the four minterms of the two high
//!   inputs each select one of the 16 Boolean functions of the two low
//!   inputs (computed once per S-box per round), and which one is read from
//!   [`Tables`], built from the public S-box (indices that depend on the
//!   S-box set only, never on the key or the data);
//! - the rotation left by 11 bits is a renaming of planes.
//!
//! Fewer than 64 blocks run as a partial batch: the missing lanes are zero
//! and never stored.
//!
//! The single-block path ([`rounds`], the chained modes) works on one
//! 32-bit word with its eight nibbles side by side ("SIMD within a
//! register"): each output bit of each S-box is its algebraic normal form,
//! the 15 monomials of the four input bits evaluated for all eight nibbles
//! at once and selected by per-nibble coefficient masks. No lookup, no
//! branch: constant-time too.

use zeroize::Zeroize;

use super::{BLOCK_LEN, Order, SBox};
use crate::vertical::transpose_64x64;
use crate::xor::InOut;

/// How many blocks the rung processes at once: one per bit of a word.
pub(super) const PAR_BLOCKS: usize = 64;

/// The S-box set as the two circuits read it.
#[derive(Clone)]
pub(super) struct Tables {
    /// `select[i][b][h]`: output bit `b` of `K(i+1)`, for the high input
    /// bits `(x2, x3) = h`, as a function of the low ones: its truth table
    /// over `(x0, x1)` (bit `x0 + 2·x1`), the index of that function in
    /// [`functions_of_two`].
    select: [[[u8; 4]; 4]; 8],
    /// `anf[m]`: bit `4i + b` is the coefficient of the monomial `m` (a
    /// subset of the input bits `x0`…`x3`, as a mask) in output bit `b` of
    /// `K(i+1)`. The monomial `x0·x1·x2·x3` never occurs: each output bit of
    /// a permutation is balanced, so of degree at most 3.
    anf: [u32; 15],
}

impl Tables {
    pub(super) fn new(sbox: &SBox) -> Tables {
        let rows = sbox.rows();
        let mut select = [[[0u8; 4]; 4]; 8];
        let mut anf = [0u32; 15];
        for (i, (row, row_select)) in rows.iter().zip(&mut select).enumerate() {
            for (b, bit_select) in row_select.iter_mut().enumerate() {
                let bit = |v: usize| (row[v] >> b) & 1;
                for (h, sel) in bit_select.iter_mut().enumerate() {
                    *sel = (0..4).map(|l| bit(l + 4 * h) << l).sum();
                }
                // The Möbius transform of the truth table: its ANF.
                let mut coef: [u8; 16] = std::array::from_fn(bit);
                for s in 0..4 {
                    for v in 0..16 {
                        if v & (1 << s) != 0 {
                            coef[v] ^= coef[v ^ (1 << s)];
                        }
                    }
                }
                debug_assert_eq!(coef[15], 0, "a permutation's output bit has degree ≤ 3");
                for (m, c) in anf.iter_mut().enumerate() {
                    *c |= u32::from(coef[m]) << (4 * i + b);
                }
            }
        }
        Tables { select, anf }
    }

    /// `S(x)` for the eight nibbles of `x` at once, from the ANF.
    #[inline(always)]
    fn substitute_word(&self, x: u32) -> u32 {
        // Input bit `s` of every nibble, filling its nibble.
        let spread = |s: u32| ((x >> s) & 0x1111_1111).wrapping_mul(0xf);
        let p = [spread(0), spread(1), spread(2), spread(3)];
        let mut mono = [u32::MAX; 15];
        let mut y = self.anf[0];
        for m in 1..15 {
            mono[m] = mono[m & (m - 1)] & p[m.trailing_zeros() as usize];
            y ^= mono[m] & self.anf[m];
        }
        y
    }
}

/// The 16 Boolean functions of two input planes `x0`, `x1`: entry `t` is
/// the one whose truth table is `t` (bit `x0 + 2·x1`), the XOR of the
/// minterms it contains.
#[inline(always)]
fn functions_of_two(x0: u64, x1: u64) -> [u64; 16] {
    let both = x0 & x1;
    let minterms = [!(x0 | x1), x0 ^ both, x1 ^ both, both];
    let mut g = [0u64; 16];
    for t in 1..16 {
        g[t] = g[t & (t - 1)] ^ minterms[t.trailing_zeros() as usize];
    }
    g
}

/// One round on the planes: `other ^= f(half + k)`, `keys[j]` the mask of
/// bit `j` of the key word.
#[inline(always)]
fn round(t: &Tables, keys: &[u64; 32], half: &[u64; 32], other: &mut [u64; 32]) {
    // The ripple-carry adder: sum = a ⊕ k ⊕ c, carry = majority(a, k, c)
    // = a·k ∨ c·(a ⊕ k), two gates deep from one carry to the next.
    let mut x = [0u64; 32];
    let mut carry = 0u64;
    for j in 0..32 {
        let (a, k) = (half[j], keys[j]);
        let propagate = a ^ k;
        x[j] = propagate ^ carry;
        carry = (a & k) | (carry & propagate);
    }
    // Each S-box `K(i+1)` on planes 4i..4i+3, its output bit b going to
    // plane 4i + b + 11 (mod 32) of the other half.
    for (i, select) in t.select.iter().enumerate() {
        let [x0, x1, x2, x3] = [x[4 * i], x[4 * i + 1], x[4 * i + 2], x[4 * i + 3]];
        let g = functions_of_two(x0, x1);
        let both = x2 & x3;
        let high = [!(x2 | x3), x2 ^ both, x3 ^ both, both];
        for (b, sel) in select.iter().enumerate() {
            // (`& 15`: a truth table of two inputs; no bounds check.)
            let pick = |h: usize| high[h] & g[usize::from(sel[h] & 15)];
            let y = pick(0) ^ pick(1) ^ pick(2) ^ pick(3);
            other[(4 * i + b + 11) % 32] ^= y;
        }
    }
}

/// The 32 rounds on up to 64 blocks in `data`, read from its input and
/// written to its output.
fn batch(t: &Tables, keys: &[[u64; 32]; 32], order: Order, data: InOut<'_>) {
    let mut planes = [0u64; 64];
    for (w, block) in planes.iter_mut().zip(data.input().chunks_exact(BLOCK_LEN)) {
        *w = order.load(block);
    }
    transpose_64x64(&mut planes);
    let (n1, n2) = planes.split_at_mut(32);
    let n1: &mut [u64; 32] = n1.try_into().expect("32 planes");
    let n2: &mut [u64; 32] = n2.try_into().expect("32 planes");
    for pair in keys.chunks_exact(2) {
        round(t, &pair[0], n1, n2);
        round(t, &pair[1], n2, n1);
    }
    // The output is N1 ‖ N2 read as N1 << 32 | N2: the halves trade places.
    planes.rotate_left(32);
    transpose_64x64(&mut planes);
    for (w, block) in planes
        .iter()
        .zip(data.into_output().chunks_exact_mut(BLOCK_LEN))
    {
        order.store(*w, block);
    }
    planes.zeroize();
}

/// The 32 rounds under `rk` on whole blocks, 64 at a time.
pub(super) fn crypt(t: &Tables, rk: &[u32; 32], order: Order, blocks: InOut<'_>) {
    if blocks.is_empty() {
        return;
    }
    // Each key bit as a mask, written in place: built by `from_fn` the
    // 8 KiB went through a memcpy on every call, as slow as the rounds of
    // a kilobyte where the stack copies alias (`rep movsb`).
    let mut keys = [[0u64; 32]; 32];
    for (masks, &k) in keys.iter_mut().zip(rk) {
        for (j, mask) in masks.iter_mut().enumerate() {
            *mask = 0u64.wrapping_sub(u64::from(k >> j & 1));
        }
    }
    for chunk in blocks.chunks(PAR_BLOCKS * BLOCK_LEN) {
        batch(t, &keys, order, chunk);
    }
    keys.zeroize();
}

/// The rounds under `rk` of one block `[N1, N2]` (the form
/// [`super::Engine::rounds`] describes), each S-box layer as its ANF over
/// the word.
pub(super) fn rounds(t: &Tables, rk: &[u32], [mut n1, mut n2]: [u32; 2]) -> [u32; 2] {
    let f = |x: u32| t.substitute_word(x).rotate_left(11);
    let mut pairs = rk.chunks_exact(2);
    for k in &mut pairs {
        n2 ^= f(n1.wrapping_add(k[0]));
        n1 ^= f(n2.wrapping_add(k[1]));
    }
    if let [k] = pairs.remainder() {
        n2 ^= f(n1.wrapping_add(*k));
    }
    [n1, n2]
}
