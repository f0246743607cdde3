//! Scalar, one lane, RFC 7914 §4–§5 literally: words in their natural
//! order, Salsa20/8 on the double-rounds of Salsa20's `no-transpose` rung
//! (sixteen scalar variables), V filled by copies and `T = X ⊕ V_j`
//! computed whole before each BlockMix. The reference the other rungs are
//! tested against.

use super::{Block, Layout, Scratch};
use crate::salsa20::no_transpose;

/// scryptBlockMix (RFC 7914 §4) of the `2r` sub-blocks of `b` into `out`.
pub(super) fn block_mix(b: &[Block], out: &mut [Block]) {
    let r = b.len() / 2;
    // 1. X = B_{2r−1}
    let mut x = b[b.len() - 1].0;
    // 2. for i = 0 to 2r − 1: T = X xor B_i; X = Salsa(T); Y_i = X
    // 3. B' = (Y_0, Y_2, …, Y_{2r−2}, Y_1, Y_3, …, Y_{2r−1})
    for (i, b_i) in b.iter().enumerate() {
        let t: [u32; 16] = std::array::from_fn(|k| x[k] ^ b_i.0[k]);
        // Salsa20/8 (RFC 7914 §3): four double-rounds and the final addition.
        let z = no_transpose::double_rounds(&t, 4);
        x = std::array::from_fn(|k| z[k].wrapping_add(t[k]));
        out[i / 2 + (i % 2) * r] = Block(x);
    }
}

/// scryptROMix (RFC 7914 §5) of the lane `b` (`2r` sub-blocks) in place,
/// with `N = n`.
pub(super) fn ro_mix(b: &mut [Block], scratch: &mut Scratch, n: usize) {
    let two_r = b.len();
    let (v, t) = scratch.parts();
    // 1. X = B
    let x = b;
    // 2. for i = 0 to N − 1: V_i = X; X = scryptBlockMix(X)
    for v_i in v.chunks_exact_mut(two_r).take(n) {
        v_i.copy_from_slice(x);
        block_mix(v_i, x);
    }
    // 3. for i = 0 to N − 1: j = Integerify(X) mod N; T = X xor V_j;
    //    X = scryptBlockMix(T)
    for _ in 0..n {
        let j = Layout::NATURAL.integerify(x, n);
        for (t, (x, v_j)) in t.iter_mut().zip(x.iter().zip(&v[j * two_r..])) {
            *t = Block(std::array::from_fn(|k| x.0[k] ^ v_j.0[k]));
        }
        block_mix(t, x);
    }
    // 4. B' = X: `x` is `b`.
}
