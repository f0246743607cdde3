//! The Baikal-T1 article's table code: the eight 4-bit S-boxes merged into
//! four 256-entry tables of 32-bit words, one per byte of the round
//! function's input, each entry already shifted to its byte and rotated
//! left by 11 bits. A round is four byte extractions, four loads, three
//! ORs and an XOR: `f(x) = T0[x0] | T1[x1] | T2[x2] | T3[x3]`, because the
//! rotation of an OR is the OR of the rotations.
//!
//! A round of one block is a chain of dependent loads, so whole-block
//! calls run [`PAR_BLOCKS`] blocks side by side, their rounds interleaved:
//! the loads of one block issue while another waits for its own.
//!
//! **Not constant-time.** Every load is indexed by a byte of secret state,
//! so which cache lines are touched depends on the key and the data (the
//! cache-timing attacks on AES's T-tables apply as they are). Never a
//! default; chosen by name, with the `hazmat` feature, to measure.

use super::{BLOCK_LEN, Order, SBox};
use crate::xor::InOut;

/// Blocks whose rounds run interleaved.
pub(super) const PAR_BLOCKS: usize = 4;

/// `t[j][b]`: the substitution of byte `b` standing at byte `j` of the
/// input (S-box rows `2j` and `2j + 1`), in place and rotated left by 11.
#[derive(Clone)]
pub(super) struct Tables {
    t: [[u32; 256]; 4],
}

impl Tables {
    pub(super) fn new(sbox: &SBox) -> Tables {
        let rows = sbox.rows();
        let mut t = [[0u32; 256]; 4];
        for (j, table) in t.iter_mut().enumerate() {
            for (b, entry) in table.iter_mut().enumerate() {
                let lo = u32::from(rows[2 * j][b & 0xf]);
                let hi = u32::from(rows[2 * j + 1][b >> 4]);
                *entry = ((hi << 4 | lo) << (8 * j)).rotate_left(11);
            }
        }
        Tables { t }
    }

    /// The round function of `x = n + k`.
    #[inline(always)]
    fn f(&self, x: u32) -> u32 {
        let [b0, b1, b2, b3] = x.to_le_bytes();
        self.t[0][usize::from(b0)]
            | self.t[1][usize::from(b1)]
            | self.t[2][usize::from(b2)]
            | self.t[3][usize::from(b3)]
    }
}

/// The rounds under `rk` of one block `[N1, N2]`, alternating halves
/// (the form [`super::Engine::rounds`] describes).
pub(super) fn rounds(t: &Tables, rk: &[u32], [mut n1, mut n2]: [u32; 2]) -> [u32; 2] {
    let mut pairs = rk.chunks_exact(2);
    for k in &mut pairs {
        n2 ^= t.f(n1.wrapping_add(k[0]));
        n1 ^= t.f(n2.wrapping_add(k[1]));
    }
    if let [k] = pairs.remainder() {
        n2 ^= t.f(n1.wrapping_add(*k));
    }
    [n1, n2]
}

/// The 32 rounds under `rk` on whole blocks, [`PAR_BLOCKS`] at a time with
/// their rounds interleaved (a shorter last group computes its unused
/// lanes on zeros).
pub(super) fn crypt(t: &Tables, rk: &[u32; 32], order: Order, blocks: InOut<'_>) {
    for group in blocks.chunks(PAR_BLOCKS * BLOCK_LEN) {
        let mut n = [[0u32; 2]; PAR_BLOCKS];
        for (s, block) in n.iter_mut().zip(group.input().chunks_exact(BLOCK_LEN)) {
            let v = order.load(block);
            *s = [v as u32, (v >> 32) as u32];
        }
        for k in rk.chunks_exact(2) {
            for [n1, n2] in &mut n {
                *n2 ^= t.f(n1.wrapping_add(k[0]));
            }
            for [n1, n2] in &mut n {
                *n1 ^= t.f(n2.wrapping_add(k[1]));
            }
        }
        for (block, [n1, n2]) in group.into_output().chunks_exact_mut(BLOCK_LEN).zip(n) {
            order.store(u64::from(n1) << 32 | u64::from(n2), block);
        }
    }
}
