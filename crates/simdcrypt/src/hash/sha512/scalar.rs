//! Portable scalar, tuned: the 80 rounds unrolled by a macro that renames
//! the working variables instead of moving them, the schedule kept in a
//! 16-word circular buffer and computed as the rounds need it, Ch and Maj
//! in their cheapest forms (three operations each).

use super::K512;

/// One round of FIPS 180-4 §6.4.2 step 3 with the variables renamed
/// rather than shifted: `$h` becomes the new `a` and `$d` the new `e`,
/// so the next round names them `h, a, …, g`. `$wk` is `K_t + W_t`;
/// `$rotr` names ROTR (§3.2) in this module: [`rotr`], or [`rotr_bmi2`] in
/// a rung with BMI2.
///
/// Ch(e, f, g) is taken as `((f ^ g) & e) ^ g` and Maj(a, b, c) as
/// `((a ^ b) & (b ^ c)) ^ b`, whose `b ^ c` (`$bc`) is the previous
/// round's `a ^ b`: three operations each. The round's value is its
/// `a ^ b`, the next round's `$bc`.
macro_rules! round {
    ($rotr:ident; $bc:ident; $a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident, $wk:expr) => {{
        // T1 = h + Σ1(e) + Ch(e, f, g) + K_t + W_t (§4.1.3).
        $h = $h
            .wrapping_add($wk)
            .wrapping_add((($f ^ $g) & $e) ^ $g)
            .wrapping_add(
                $crate::hash::sha512::scalar::$rotr::<14>($e)
                    ^ $crate::hash::sha512::scalar::$rotr::<18>($e)
                    ^ $crate::hash::sha512::scalar::$rotr::<41>($e),
            );
        // e = d + T1.
        $d = $d.wrapping_add($h);
        // a = T1 + T2, T2 = Σ0(a) + Maj(a, b, c).
        let ab = $a ^ $b;
        $h = $h
            .wrapping_add((ab & $bc) ^ $b)
            .wrapping_add(
                $crate::hash::sha512::scalar::$rotr::<28>($a)
                    ^ $crate::hash::sha512::scalar::$rotr::<34>($a)
                    ^ $crate::hash::sha512::scalar::$rotr::<39>($a),
            );
        // The next round's b ^ c.
        ab
    }};
}

/// Sixteen rounds on the working variables `$v: [u64; 8]` (a … h), the
/// `i`-th taking `K_t + W_t` from `$wk!(args…, i)`, rotating with `$rotr`.
/// After 16 renamings the names are back where they started.
macro_rules! sixteen_rounds {
    ($rotr:ident; $v:ident, $wk:ident $(, $arg:expr)*) => {{
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = $v;
        let mut bc = b ^ c;
        bc = $crate::hash::sha512::scalar::round!($rotr; bc; a, b, c, d, e, f, g, h, $wk!($($arg,)* 0));
        bc = $crate::hash::sha512::scalar::round!($rotr; bc; h, a, b, c, d, e, f, g, $wk!($($arg,)* 1));
        bc = $crate::hash::sha512::scalar::round!($rotr; bc; g, h, a, b, c, d, e, f, $wk!($($arg,)* 2));
        bc = $crate::hash::sha512::scalar::round!($rotr; bc; f, g, h, a, b, c, d, e, $wk!($($arg,)* 3));
        bc = $crate::hash::sha512::scalar::round!($rotr; bc; e, f, g, h, a, b, c, d, $wk!($($arg,)* 4));
        bc = $crate::hash::sha512::scalar::round!($rotr; bc; d, e, f, g, h, a, b, c, $wk!($($arg,)* 5));
        bc = $crate::hash::sha512::scalar::round!($rotr; bc; c, d, e, f, g, h, a, b, $wk!($($arg,)* 6));
        bc = $crate::hash::sha512::scalar::round!($rotr; bc; b, c, d, e, f, g, h, a, $wk!($($arg,)* 7));
        bc = $crate::hash::sha512::scalar::round!($rotr; bc; a, b, c, d, e, f, g, h, $wk!($($arg,)* 8));
        bc = $crate::hash::sha512::scalar::round!($rotr; bc; h, a, b, c, d, e, f, g, $wk!($($arg,)* 9));
        bc = $crate::hash::sha512::scalar::round!($rotr; bc; g, h, a, b, c, d, e, f, $wk!($($arg,)* 10));
        bc = $crate::hash::sha512::scalar::round!($rotr; bc; f, g, h, a, b, c, d, e, $wk!($($arg,)* 11));
        bc = $crate::hash::sha512::scalar::round!($rotr; bc; e, f, g, h, a, b, c, d, $wk!($($arg,)* 12));
        bc = $crate::hash::sha512::scalar::round!($rotr; bc; d, e, f, g, h, a, b, c, $wk!($($arg,)* 13));
        bc = $crate::hash::sha512::scalar::round!($rotr; bc; c, d, e, f, g, h, a, b, $wk!($($arg,)* 14));
        let _ = $crate::hash::sha512::scalar::round!($rotr; bc; b, c, d, e, f, g, h, a, $wk!($($arg,)* 15));
        $v = [a, b, c, d, e, f, g, h];
    }};
}

pub(super) use {round, sixteen_rounds};

/// ROTR^N(x) (§3.2), on x86-64 one `ror` the compiler cannot take apart.
///
/// With AVX-512 enabled where the rounds are compiled (`-C
/// target-cpu=native` on an AVX-512 CPU), LLVM's SLP vectoriser packs the
/// independent rotations of Σ0, Σ1, σ0 and σ1 into `vprolvq`, moving the
/// words between integer and vector registers (`vmovq`, `vpextrq`,
/// `vpinsrq`) on the rounds' dependency chain: SHA-512 ran at 0.67× the
/// default build on the `avx2` rung and 0.59× on `scalar` (Zen 5, 16 KiB;
/// bench/NOTES.md, hash-short-zen5). An `asm!` rotation is opaque to it.
#[inline(always)]
pub(crate) fn rotr<const N: u32>(x: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        let rotated;
        // SAFETY: one register rotation of a copy of `x`; no memory, no
        // stack.
        unsafe {
            core::arch::asm!(
                "ror {x}, {n}",
                x = inout(reg) x => rotated,
                n = const N,
                options(pure, nomem, nostack),
            );
        }
        rotated
    }
    #[cfg(not(target_arch = "x86_64"))]
    x.rotate_right(N)
}

/// ROTR^N(x) (§3.2) as BMI2's `rorx`, for the rungs that have it: opaque
/// to the vectoriser as [`rotr`] is, and it leaves `x` in place, where
/// `ror` needs a copy of `e` (of `a`) before each of Σ1's (Σ0's) three
/// rotations: 34 instructions a round instead of OpenSSL's 30 (valgrind,
/// 64 KiB; bench/NOTES.md, sha512-rorx).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
#[inline]
pub(crate) fn rotr_bmi2<const N: u32>(x: u64) -> u64 {
    let rotated;
    // SAFETY: BMI2, which `rorx` needs, is enabled here and in every
    // caller; one register rotation into another register; no memory, no
    // stack.
    unsafe {
        core::arch::asm!(
            "rorx {r}, {x}, {n}",
            r = lateout(reg) rotated,
            x = in(reg) x,
            n = const N,
            options(pure, nomem, nostack),
        );
    }
    rotated
}

/// σ0 (§4.1.3, (4.12)).
#[inline(always)]
fn small_sigma0(x: u64) -> u64 {
    rotr::<1>(x) ^ rotr::<8>(x) ^ (x >> 7)
}

/// σ1 (§4.1.3, (4.13)).
#[inline(always)]
fn small_sigma1(x: u64) -> u64 {
    rotr::<19>(x) ^ rotr::<61>(x) ^ (x >> 6)
}

/// Hashes whole 1024-bit blocks into the hash value `state` (§6.4.2).
pub(super) fn compress(state: &mut [u64; 8], blocks: &[[u8; 128]]) {
    for block in blocks {
        let (words, _) = block.as_chunks::<8>();
        // W_0 … W_15 (§6.4.2 step 1), then W_t in place of W_{t−16}.
        let mut w: [u64; 16] = core::array::from_fn(|t| u64::from_be_bytes(words[t]));
        let mut v = *state;
        macro_rules! first {
            ($i:literal) => {
                w[$i].wrapping_add(K512[$i])
            };
        }
        sixteen_rounds!(rotr; v, first);
        for t0 in (16..80).step_by(16) {
            macro_rules! scheduled {
                ($i:literal) => {{
                    w[$i] = small_sigma1(w[($i + 14) & 15])
                        .wrapping_add(w[($i + 9) & 15])
                        .wrapping_add(small_sigma0(w[($i + 1) & 15]))
                        .wrapping_add(w[$i]);
                    w[$i].wrapping_add(K512[t0 + $i])
                }};
            }
            sixteen_rounds!(rotr; v, scheduled);
        }
        // Step 4.
        for (h, x) in state.iter_mut().zip(v) {
            *h = h.wrapping_add(x);
        }
    }
}
