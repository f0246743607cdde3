//! Portable scalar, fully unrolled. MD5 is a single chain of dependent
//! steps, so what counts is the path from `b` (the previous step's result)
//! to the new `a`: each auxiliary function is written so that everything
//! not depending on `b` is computed beside the previous step, and
//! `X[k] + T[i]` is added to `a` ahead of the critical path.
//!
//! | step | form | after `b` |
//! |---|---|---|
//! | F | `((c ^ d) & b) ^ d` | and, xor |
//! | G | `(c & !d)` added to `a` early, then `+ (b & d)`: the two terms are disjoint, so `+` is `\|` | and |
//! | H | `b ^ (c ^ d)`, `c ^ d` being the previous step's `b ^ c` | xor |
//! | I | `c ^ (b \| !d)`, `!d` ready early | or, xor |
//!
//! then add, rotate, add `b`.

use super::{T, md5_steps};

/// One step `[abcd k s i]` of RFC 1321 §3.4 on the message words `$x`;
/// `$hx` carries `c ^ d` from one H step to the next.
macro_rules! step {
    ($x:ident, $t:ident, $hx:ident, F, $a:ident, $b:ident, $c:ident, $d:ident, $k:literal, $s:tt, $i:tt) => {
        $a = $a.wrapping_add($x[$k].wrapping_add($t[$i]));
        $a = $a
            .wrapping_add((($c ^ $d) & $b) ^ $d)
            .rotate_left($s)
            .wrapping_add($b);
    };
    ($x:ident, $t:ident, $hx:ident, G, $a:ident, $b:ident, $c:ident, $d:ident, $k:literal, $s:tt, $i:tt) => {
        $a = $a
            .wrapping_add($x[$k].wrapping_add($t[$i]))
            .wrapping_add($c & !$d);
        $a = $a.wrapping_add($b & $d).rotate_left($s).wrapping_add($b);
    };
    ($x:ident, $t:ident, $hx:ident, H, $a:ident, $b:ident, $c:ident, $d:ident, $k:literal, $s:tt, $i:tt) => {
        if $i == 32 {
            // The first H step: no previous `b ^ c` to reuse.
            $hx = $c ^ $d;
        }
        $a = $a.wrapping_add($x[$k].wrapping_add($t[$i]));
        $a = $a.wrapping_add($b ^ $hx).rotate_left($s).wrapping_add($b);
        // The next step's `c ^ d`.
        $hx = $b ^ $c;
    };
    ($x:ident, $t:ident, $hx:ident, I, $a:ident, $b:ident, $c:ident, $d:ident, $k:literal, $s:tt, $i:tt) => {
        $a = $a.wrapping_add($x[$k].wrapping_add($t[$i]));
        $a = $a
            .wrapping_add($c ^ ($b | !$d))
            .rotate_left($s)
            .wrapping_add($b);
    };
}

/// Processes whole blocks into the chaining value `abcd` (§3.4).
pub(super) fn compress(abcd: &mut [u32; 4], blocks: &[[u8; 64]]) {
    for block in blocks {
        // T read from memory rather than as constants: LLVM adds constants
        // last, which would put `+ T[i]` on the critical path after
        // `f(b,c,d)`. Taken afresh each block, so the loads are not hoisted
        // out of the loop and spilled.
        let t = core::hint::black_box(&T);
        // The message words, loaded once.
        let (words, _) = block.as_chunks::<4>();
        let x: [u32; 16] = core::array::from_fn(|j| u32::from_le_bytes(words[j]));
        let [mut a, mut b, mut c, mut d] = *abcd;
        let mut hx = 0;
        md5_steps!(step!(x, t, hx,) [a b c d]);
        let _ = hx;
        *abcd = [
            abcd[0].wrapping_add(a),
            abcd[1].wrapping_add(b),
            abcd[2].wrapping_add(c),
            abcd[3].wrapping_add(d),
        ];
    }
}
