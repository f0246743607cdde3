//! Portable scalar SHA-1 (FIPS 180-4 §6.1.2), tuned: the 80 rounds
//! unrolled, the working variables renamed from round to round instead of
//! moved, the schedule kept in 16 words (§6.1.3's circular form), the
//! Boolean functions in their cheapest forms and W_t + K_t added to e
//! first, off the critical path through a.
//!
//! The rounds are written once here ([`eighty_rounds!`]); the SIMD rungs
//! run the same rounds with W + K from their vector schedule.

use super::K;

/// Ch(b, c, d) (§4.1.1) as `((c ^ d) & b) ^ d`: three operations, no `not`.
#[inline(always)]
pub(super) fn ch(b: u32, c: u32, d: u32) -> u32 {
    ((c ^ d) & b) ^ d
}

/// Parity(b, c, d) (§4.1.1).
#[inline(always)]
pub(super) fn parity(b: u32, c: u32, d: u32) -> u32 {
    b ^ c ^ d
}

/// Maj(b, c, d) (§4.1.1) as `(b & c) + (d & (b ^ c))`: the two terms
/// have no bit in common, so they add, and each may go into e on its own.
#[inline(always)]
pub(super) fn maj(b: u32, c: u32, d: u32) -> u32 {
    (b & c).wrapping_add(d & (b ^ c))
}

/// Rounds of §6.1.2 step 3 with the function `$f`: `$t` is a round
/// number, whose W_t + K_t is `$wk!($t)`; `/ $g` runs `$after!($g)` (the
/// SIMD rungs' schedule work for group `$g` of 4 rounds). The variables
/// are renamed, `[a b c d e]` becoming `[e a b c d]`, instead of moved: T
/// is written into e, which the next round calls a.
macro_rules! rounds {
    ($f:ident, $wk:ident, $after:ident, [$a:ident $b:ident $c:ident $d:ident $e:ident]) => {};
    ($f:ident, $wk:ident, $after:ident, [$a:ident $b:ident $c:ident $d:ident $e:ident]
        / $g:literal $($rest:tt)*) => {
        $after!($g);
        $crate::hash::sha1::scalar::rounds!($f, $wk, $after, [$a $b $c $d $e] $($rest)*);
    };
    ($f:ident, $wk:ident, $after:ident, [$a:ident $b:ident $c:ident $d:ident $e:ident]
        $t:literal $($rest:tt)*) => {
        $e = $e
            .wrapping_add($wk!($t))
            .wrapping_add($crate::hash::sha1::scalar::$f($b, $c, $d))
            .wrapping_add($a.rotate_left(5));
        $b = $b.rotate_left(30);
        $crate::hash::sha1::scalar::rounds!($f, $wk, $after, [$e $a $b $c $d] $($rest)*);
    };
}
pub(super) use rounds;

/// The 80 rounds of one block (§6.1.2 steps 2–4) on the hash value
/// `$h: [u32; 5]`: W_t + K_t of round `t` is `$wk!(t)`, and after each
/// group `g` of 4 rounds comes `$after!(g)`.
macro_rules! eighty_rounds {
    ($h:ident, $wk:ident, $after:ident) => {{
        let [mut a, mut b, mut c, mut d, mut e] = $h;
        $crate::hash::sha1::scalar::rounds!(ch, $wk, $after, [a b c d e]
            0 1 2 3 /0 4 5 6 7 /1 8 9 10 11 /2 12 13 14 15 /3 16 17 18 19 /4);
        $crate::hash::sha1::scalar::rounds!(parity, $wk, $after, [a b c d e]
            20 21 22 23 /5 24 25 26 27 /6 28 29 30 31 /7 32 33 34 35 /8 36 37 38 39 /9);
        $crate::hash::sha1::scalar::rounds!(maj, $wk, $after, [a b c d e]
            40 41 42 43 /10 44 45 46 47 /11 48 49 50 51 /12 52 53 54 55 /13 56 57 58 59 /14);
        $crate::hash::sha1::scalar::rounds!(parity, $wk, $after, [a b c d e]
            60 61 62 63 /15 64 65 66 67 /16 68 69 70 71 /17 72 73 74 75 /18 76 77 78 79 /19);
        for (h, v) in $h.iter_mut().zip([a, b, c, d, e]) {
            *h = h.wrapping_add(v);
        }
    }};
}
#[cfg(target_arch = "x86_64")]
pub(super) use eighty_rounds;

/// W_t (§6.1.2 step 1) in the 16-word circular schedule `w` of `block`:
/// read from the block for t < 16, computed in place of W_{t-16} after.
#[inline(always)]
fn schedule(w: &mut [u32; 16], block: &[u8; 64], t: usize) -> u32 {
    let s = t % 16;
    w[s] = if t < 16 {
        let (words, _) = block.as_chunks::<4>();
        u32::from_be_bytes(words[s])
    } else {
        (w[(t + 13) % 16] ^ w[(t + 8) % 16] ^ w[(t + 2) % 16] ^ w[s]).rotate_left(1)
    };
    w[s]
}

/// Hashes the blocks into the hash value `h`, one after another.
pub(super) fn compress(h: &mut [u32; 5], blocks: &[[u8; 64]]) {
    let mut state = *h;
    for block in blocks {
        let mut w = [0u32; 16];
        macro_rules! wk {
            ($t:literal) => {
                schedule(&mut w, block, $t).wrapping_add(K[$t / 20])
            };
        }
        macro_rules! after {
            ($g:literal) => {};
        }
        eighty_rounds!(state, wk, after);
    }
    *h = state;
}
