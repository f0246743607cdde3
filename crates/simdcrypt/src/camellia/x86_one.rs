//! One block at a time on the x86-64 rungs: the path of the chained modes
//! (CBC and CFB encryption, OFB, CMAC), where each block waits for the one
//! before it and a byte-sliced batch would carry one block in sixteen.
//!
//! Each 64-bit half of the state is an xmm register holding the RFC's
//! number (the block's bytes read big-endian, so byte t_n of §2.4.1 is
//! byte 8 − n of the 64-bit word) in both of its 64-bit words, or a
//! bytewise linear image of it that a form works in. F (§2.4.1) is then:
//! the subkey, likewise in both words, XORed in (with the round before,
//! beside its own output, not after it); the s-boxes of
//! all eight bytes at once into a few registers of s-box outputs ([`Form`]);
//! and the P-function as eight `pshufb`s, each picking for every output
//! byte one of the s-box outputs P XORs into it, XORed together and into
//! the other half. The shuffle controls are worked out at compile time
//! from the P-function's table and from where a form leaves which s-box of
//! which byte ([`gather_plan`]). FL and FL^-1 (§2.4.2, §2.4.3) are shifts
//! and logic on the 32-bit words of each half.
//!
//! The forms:
//! - [`GfniF`]: each byte of a half held as its s-box's input map (the
//!   linear part) of it, so that with the key the input of the inversion;
//!   an F-function's s-boxes are then three `vgf2p8affineinvqb` side by
//!   side (inversion and an output map, another in each 64-bit word),
//!   their outputs already in the representation of the byte P sends them
//!   to; the XORs three at a time by `vpternlogq`. The representation is
//!   taken off around FL and FL^-1 and at the ends (`vgf2p8affineqb` and
//!   a `pshufb`).
//! - [`AesNiF`]: the batch kernels' s-boxes ([`AesRound`]) on the one
//!   register: two `aesenclast` (SBOX1–3's input map, SBOX4's) between
//!   `pshufb` nibble lookups; ShiftRows is left in the bytes and undone by
//!   the P-function's shuffles.
//!
//! Everything is constant-time: no load or branch depends on the data or
//! the key.

use core::arch::x86_64::{
    __m128i, _mm_and_si128, _mm_gf2p8affine_epi64_epi8, _mm_gf2p8affineinv_epi64_epi8,
    _mm_loadu_si128, _mm_or_si128, _mm_set_epi64x, _mm_set1_epi64x, _mm_shuffle_epi8,
    _mm_slli_epi32, _mm_slli_epi64, _mm_srli_epi32, _mm_srli_epi64, _mm_storeu_si128,
    _mm_ternarylogic_epi64, _mm_unpacklo_epi64, _mm_xor_si128,
};

use super::key_schedule::Subkeys;
use super::sliced::{A, AesRound, Linear, SBoxes, SHIFT_ROWS, control, input_map, output_map};

// ---------------------------------------------------------------------------
// The P-function as shuffles.

/// The P-function (§2.4.1): `P[i - 1]` lists the j of the z_j XORed into
/// y_i.
const P: [&[usize]; 8] = [
    &[1, 3, 4, 6, 7, 8],
    &[1, 2, 4, 5, 7, 8],
    &[1, 2, 3, 5, 6, 8],
    &[2, 3, 4, 5, 6, 7],
    &[1, 2, 6, 7, 8],
    &[2, 3, 5, 7, 8],
    &[3, 4, 5, 6, 8],
    &[1, 4, 5, 6, 7],
];

/// The s-box that makes z_j of t_j (§2.4.1): `SBOX_OF[j - 1]`.
const SBOX_OF: [u8; 8] = [1, 2, 3, 4, 2, 3, 4, 1];

/// The P-function of `z` (z1 first), as a number (y1 its most
/// significant byte).
const fn p_function(z: [u8; 8]) -> u64 {
    let mut y = 0;
    let mut i = 0;
    while i < 8 {
        let mut yi = 0;
        let mut r = 0;
        while r < P[i].len() {
            yi ^= z[P[i][r] - 1];
            r += 1;
        }
        y = y << 8 | yi as u64;
        i += 1;
    }
    y
}

/// What each byte of a register of s-box outputs holds: `(n, j, r)` for
/// SBOX`n` of t_j (n = 0: nothing of use) in the form's representation
/// `r` ([`Form`]).
type Holding = [(u8, usize, u8); 16];

/// The P-function's eight shuffles: the source register (an index into
/// the form's s-box outputs) and the `pshufb` control; XORed together the
/// shuffled registers are P of the s-box outputs, y_i in byte 8 − i of
/// both 64-bit words.
type Gather = [(usize, [u8; 16]); 8];

/// The shuffles of P over registers holding `sources`, y_i wanted in
/// representation `rep[i - 1]`: each source gets as many shuffles as an
/// output byte needs terms from it, each term taken where the source
/// first holds it in the representation wanted, 0x80 (a zero byte) where
/// a shuffle has nothing for a byte. Fails to compile unless every term
/// is found and eight shuffles suffice.
const fn gather_plan<const N: usize>(sources: [Holding; N], rep: [u8; 8]) -> Gather {
    let mut plan = [(0, [0x80; 16]); 8];
    let mut found = [0; 16];
    let mut base = 0;
    let mut s = 0;
    while s < N {
        let mut width = 0;
        let mut d = 0;
        while d < 16 {
            let (row, r_want) = (P[7 - d % 8], rep[7 - d % 8]);
            let mut k = 0;
            let mut r = 0;
            while r < row.len() {
                let j = row[r];
                let mut b = 0;
                while b < 16 && {
                    let (n, jb, r) = sources[s][b];
                    !(n == SBOX_OF[j - 1] && jb == j && r == r_want)
                } {
                    b += 1;
                }
                if b < 16 {
                    assert!(base + k < 8, "more than eight shuffles");
                    plan[base + k] = (s, plan[base + k].1);
                    plan[base + k].1[d] = b as u8;
                    k += 1;
                }
                r += 1;
            }
            found[d] += k;
            if k > width {
                width = k;
            }
            d += 1;
        }
        base += width;
        s += 1;
    }
    let mut d = 0;
    while d < 16 {
        assert!(found[d] == P[7 - d % 8].len(), "a term in no source");
        d += 1;
    }
    plan
}

/// The eight shuffles of `plan` on `sources`.
#[inline(always)]
unsafe fn gather<const N: usize>(sources: [__m128i; N], plan: &Gather) -> [__m128i; 8] {
    let mut terms = [sources[0]; 8];
    for (term, (s, c)) in terms.iter_mut().zip(plan) {
        // SAFETY: the caller promises SSSE3.
        *term = unsafe { _mm_shuffle_epi8(sources[*s], control(*c)) };
    }
    terms
}

// ---------------------------------------------------------------------------
// The forms.

/// A way to compute F's s-boxes on one block, and the representation of
/// the halves it works in: a linear map on each byte, the same on every
/// round (XORs, so the key additions and P, pass through it), taken off
/// around FL and FL^-1 and at the ends.
///
/// # Safety
///
/// The methods need the form's CPU features; they are `#[inline(always)]`,
/// compiled into a function that enables them.
pub(super) trait Form {
    /// P of the output maps' constants the s-boxes leave out, in the
    /// representation.
    const CONSTANT: u64;
    /// The form's constants in registers.
    unsafe fn new() -> Self;
    /// A half (a number in both 64-bit words) in the representation.
    unsafe fn enter(&self, x: __m128i) -> __m128i;
    /// And back.
    unsafe fn leave(&self, x: __m128i) -> __m128i;
    /// The subkey `k` of an F-function in the representation, with what
    /// the s-boxes' input maps add.
    unsafe fn key(&self, k: u64) -> __m128i;
    /// The eight terms whose XOR, with [`Form::CONSTANT`], is P of the
    /// s-boxes of `t`, a half with its key (F's output, §2.4.1).
    unsafe fn terms(&self, t: __m128i) -> [__m128i; 8];
    /// `a ⊕ b ⊕ c`.
    unsafe fn xor3(a: __m128i, b: __m128i, c: __m128i) -> __m128i;
}

/// The representation of byte t_j for GFNI, `GFNI_REP[j - 1]`: 1 if its
/// s-box is SBOX4, else 0 (SBOX1–3 share their input map).
const GFNI_REP: [u8; 8] = {
    let mut r = [0; 8];
    let mut j = 0;
    while j < 8 {
        r[j] = (SBOX_OF[j] == 4) as u8;
        j += 1;
    }
    r
};

/// The linear map of GFNI's representation `r`: the linear part of the
/// input map of SBOX1 (r = 0) or SBOX4 (r = 1).
const fn gfni_map(r: u8) -> Linear {
    input_map(if r == 1 { 4 } else { 1 }).linear
}

/// The `pshufb` control that keeps byte p of both 64-bit words from the
/// low word where t_(8 − p) is in representation 0, from the high word
/// where in 1: what makes a register of a byte map in the low word and
/// another in the high one the map of each byte's representation.
const GFNI_SELECT: [u8; 16] = {
    let mut c = [0; 16];
    let mut b = 0;
    while b < 16 {
        let p = b % 8;
        c[b] = (p + 8 * GFNI_REP[7 - p] as usize) as u8;
        b += 1;
    }
    c
};

/// The matrices (low word, high word) of [`GfniF`]: the representations'
/// maps; their inverses; for SBOX`n` (n = 1, 2, 3), its output map's
/// linear part, then the representation's map.
const GFNI_ONE: [[i64; 2]; 5] = {
    let [r0, r1] = [gfni_map(0), gfni_map(1)];
    let [o1, o2, o3] = [output_map(1).linear, output_map(2).linear, output_map(3).linear];
    [
        [r0.gfni_matrix(), r1.gfni_matrix()],
        [r0.inverse().gfni_matrix(), r1.inverse().gfni_matrix()],
        [r0.after(o1).gfni_matrix(), r1.after(o1).gfni_matrix()],
        [r0.after(o2).gfni_matrix(), r1.after(o2).gfni_matrix()],
        [r0.after(o3).gfni_matrix(), r1.after(o3).gfni_matrix()],
    ]
};

/// The s-boxes through GFNI, each byte t_j held as its s-box's input map
/// (the linear part) of t_j: with the key's image and the map's constant
/// XORed in, the input of the inversion, so an F-function's s-boxes are
/// one `vgf2p8affineinvqb` per output map (inversion, the output map's
/// linear part, and the representation's map of the byte P sends the
/// output to: one in each 64-bit word). The output maps' constants,
/// different from word to word while the instruction takes one, come as
/// [`Form::CONSTANT`]. AVX-512VL for `vpternlogq`.
pub(super) struct GfniF {
    /// The matrices of `GFNI_ONE`, in that order.
    m: [__m128i; 5],
}

/// What [`GfniF`]'s output register `n` (1, 2, 3) holds: in byte p of
/// the 64-bit word r, the inversion of byte t_j (j = 8 − p) through
/// SBOX`n`'s output map into representation r: SBOX`n` of t_j if t_j is in
/// representation 0, SBOX4 of t_j if in 1 and n = 1 (SBOX4's output map is
/// SBOX1's), else nothing of use.
const fn gfni_holding(n: u8) -> Holding {
    let mut h = [(0, 0, 0); 16];
    let mut b = 0;
    while b < 16 {
        let j = 8 - b % 8;
        let sbox = match (GFNI_REP[j - 1], n) {
            (0, _) => n,
            (_, 1) => 4,
            _ => 0,
        };
        h[b] = (sbox, j, (b / 8) as u8);
        b += 1;
    }
    h
}

/// Where [`GfniF`] leaves the s-boxes.
const GFNI_GATHER: Gather = gather_plan(
    [gfni_holding(1), gfni_holding(2), gfni_holding(3)],
    GFNI_REP,
);

impl GfniF {
    /// `x` with the matrices `m` (low word, high word) applied to each byte,
    /// each byte then taken from the word of its representation.
    #[inline(always)]
    unsafe fn map<const C: i32>(x: __m128i, m: __m128i) -> __m128i {
        // SAFETY: the caller promises GFNI and SSSE3.
        unsafe { _mm_shuffle_epi8(_mm_gf2p8affine_epi64_epi8::<C>(x, m), control(GFNI_SELECT)) }
    }
}

impl Form for GfniF {
    const CONSTANT: u64 = {
        let mut z = [0; 8];
        let mut j = 0;
        while j < 8 {
            z[j] = output_map(SBOX_OF[j] as usize).constant;
            j += 1;
        }
        let c = p_function(z).to_be_bytes();
        let mut y = [0; 8];
        let mut i = 0;
        while i < 8 {
            y[i] = gfni_map(GFNI_REP[i]).apply(c[i]);
            i += 1;
        }
        u64::from_be_bytes(y)
    };

    #[inline(always)]
    unsafe fn new() -> Self {
        // SAFETY: SSE2 is part of x86-64.
        let mut m = [unsafe { both(0) }; 5];
        for (m, [lo, hi]) in m.iter_mut().zip(GFNI_ONE) {
            // SAFETY: as above.
            *m = unsafe { _mm_set_epi64x(hi, lo) };
        }
        GfniF { m }
    }

    #[inline(always)]
    unsafe fn enter(&self, x: __m128i) -> __m128i {
        // SAFETY: the caller promises the features.
        unsafe { Self::map::<0>(x, self.m[0]) }
    }

    #[inline(always)]
    unsafe fn leave(&self, x: __m128i) -> __m128i {
        // SAFETY: the caller promises the features.
        unsafe { Self::map::<0>(x, self.m[1]) }
    }

    #[inline(always)]
    unsafe fn key(&self, k: u64) -> __m128i {
        const IN: i32 = A.constant as i32;
        // SAFETY: the caller promises the features.
        unsafe { Self::map::<IN>(both(k), self.m[0]) }
    }

    #[inline(always)]
    unsafe fn terms(&self, t: __m128i) -> [__m128i; 8] {
        // SAFETY: the caller promises GFNI and SSSE3.
        unsafe {
            let s1 = _mm_gf2p8affineinv_epi64_epi8::<0>(t, self.m[2]);
            let s2 = _mm_gf2p8affineinv_epi64_epi8::<0>(t, self.m[3]);
            let s3 = _mm_gf2p8affineinv_epi64_epi8::<0>(t, self.m[4]);
            gather([s1, s2, s3], &GFNI_GATHER)
        }
    }

    #[inline(always)]
    unsafe fn xor3(a: __m128i, b: __m128i, c: __m128i) -> __m128i {
        // SAFETY: the caller promises AVX-512F and AVX-512VL.
        unsafe { _mm_ternarylogic_epi64::<0x96>(a, b, c) }
    }
}

/// The s-boxes through AES-NI: [`AesRound`]'s on xmm, whose `aesenclast`
/// leaves its output in ShiftRows order. SBOX1–3 share the lookup and
/// `aesenclast` of their input map (the compiler computes them once).
pub(super) struct AesNiF(AesRound<__m128i>);

/// Where [`AesNiF`] leaves the s-boxes: SBOX1, 2, 3, 4 of every byte in
/// a register each, in ShiftRows order.
const AESNI_GATHER: Gather = gather_plan(
    [
        aesni_holding(1),
        aesni_holding(2),
        aesni_holding(3),
        aesni_holding(4),
    ],
    [0; 8],
);

/// What [`AesNiF`]'s register of SBOX`n` holds: in byte b, SBOX`n` of
/// byte `SHIFT_ROWS[b]` of the state, t_j for j = 8 − that byte's place
/// in its 64-bit word; one representation, the number itself.
const fn aesni_holding(n: u8) -> Holding {
    let mut h = [(0, 0, 0); 16];
    let mut b = 0;
    while b < 16 {
        h[b] = (n, 8 - SHIFT_ROWS[b] as usize % 8, 0);
        b += 1;
    }
    h
}

impl Form for AesNiF {
    /// The nibble tables carry the output maps' constants.
    const CONSTANT: u64 = 0;

    #[inline(always)]
    unsafe fn new() -> Self {
        // SAFETY: the caller promises SSSE3.
        AesNiF(unsafe { AesRound::new() })
    }

    /// The number itself: the s-boxes' nibble lookups map it.
    #[inline(always)]
    unsafe fn enter(&self, x: __m128i) -> __m128i {
        x
    }

    #[inline(always)]
    unsafe fn leave(&self, x: __m128i) -> __m128i {
        x
    }

    #[inline(always)]
    unsafe fn key(&self, k: u64) -> __m128i {
        // SAFETY: SSE2 is part of x86-64.
        unsafe { both(k) }
    }

    #[inline(always)]
    unsafe fn terms(&self, t: __m128i) -> [__m128i; 8] {
        let s = &self.0;
        // SAFETY: the caller promises AES-NI and SSSE3.
        unsafe {
            gather(
                [
                    s.s::<1, false>(t),
                    s.s::<2, false>(t),
                    s.s::<3, false>(t),
                    s.s::<4, false>(t),
                ],
                &AESNI_GATHER,
            )
        }
    }

    #[inline(always)]
    unsafe fn xor3(a: __m128i, b: __m128i, c: __m128i) -> __m128i {
        // SAFETY: SSE2 is part of x86-64.
        unsafe { _mm_xor_si128(_mm_xor_si128(a, b), c) }
    }
}

// ---------------------------------------------------------------------------
// The cipher on one block.

/// `word` in both 64-bit words (`movddup` or `vpbroadcastq` from memory).
#[inline(always)]
unsafe fn both(word: u64) -> __m128i {
    // SAFETY: SSE2 is part of x86-64.
    unsafe { _mm_set1_epi64x(word as i64) }
}

/// `y ⊕ F(x, k)` (§2.4.1) from `t = x ⊕ k`; and that result ⊕ `next`,
/// the next round's input with its key, in parallel rather than after.
#[inline(always)]
unsafe fn round<F: Form>(
    form: &F,
    t: __m128i,
    y: __m128i,
    next: __m128i,
) -> (__m128i, __m128i) {
    // SAFETY: the caller promises the form's features.
    unsafe {
        let [t0, t1, t2, t3, t4, t5, t6, t7] = form.terms(t);
        let y = _mm_xor_si128(y, both(F::CONSTANT));
        let (a, b) = (F::xor3(t0, t1, t2), F::xor3(t3, t4, t5));
        (
            F::xor3(a, b, F::xor3(t6, t7, y)),
            F::xor3(a, b, F::xor3(t6, t7, _mm_xor_si128(y, next))),
        )
    }
}

/// FL's and FL^-1's `x2 ^= (x1 & k1) <<< 1` (§2.4.2, §2.4.3), x1 the
/// high 32 bits of each 64-bit word of `x`, x2 the low ones.
#[inline(always)]
unsafe fn x2_step(x: __m128i, k: __m128i) -> __m128i {
    // SAFETY: SSE2 is part of x86-64.
    unsafe {
        let a = _mm_and_si128(x, k);
        let rotated = _mm_or_si128(_mm_slli_epi32::<1>(a), _mm_srli_epi32::<31>(a));
        _mm_xor_si128(x, _mm_srli_epi64::<32>(rotated))
    }
}

/// FL's and FL^-1's `x1 ^= x2 | k2`.
#[inline(always)]
unsafe fn x1_step(x: __m128i, k: __m128i) -> __m128i {
    // SAFETY: SSE2 is part of x86-64.
    unsafe { _mm_xor_si128(x, _mm_slli_epi64::<32>(_mm_or_si128(x, k))) }
}

/// The `pshufb` control that makes D1 of a block (its first 8 bytes,
/// big-endian) a number in both 64-bit words.
const D1: [u8; 16] = [7, 6, 5, 4, 3, 2, 1, 0, 7, 6, 5, 4, 3, 2, 1, 0];
/// Likewise D2, the last 8 bytes.
const D2: [u8; 16] = [15, 14, 13, 12, 11, 10, 9, 8, 15, 14, 13, 12, 11, 10, 9, 8];
/// And back: the numbers D2 and D1 in the low and high words to the
/// block D2 ‖ D1.
const BIG_ENDIAN: [u8; 16] = [7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8];

/// Encrypts `block` under `sk` (decrypts under `sk.inverse()`) with the
/// s-boxes of `F`, as §2.3.1 and §2.3.2 do: prewhitening with kw1, kw2;
/// six rounds of F, then FL and FL^-1, three times (four with 24 rounds);
/// postwhitening with kw3, kw4, the halves swapped.
///
/// # Safety
///
/// The CPU features of `F`.
#[inline(always)]
pub(super) unsafe fn encrypt_one<F: Form>(sk: &Subkeys, block: &mut [u8; 16]) {
    // SAFETY: `block` is 16 bytes; the caller promises the features.
    unsafe {
        let form = F::new();
        let m = _mm_loadu_si128(block.as_ptr().cast());
        let mut d1 = form.enter(_mm_xor_si128(_mm_shuffle_epi8(m, control(D1)), both(sk.kw[0])));
        let mut d2 = form.enter(_mm_xor_si128(_mm_shuffle_epi8(m, control(D2)), both(sk.kw[1])));
        for (six, k) in sk.k[..sk.rounds].chunks_exact(6).enumerate() {
            if six > 0 {
                let (ke1, ke2) = (both(sk.ke[2 * six - 2]), both(sk.ke[2 * six - 1]));
                d1 = form.enter(x1_step(x2_step(form.leave(d1), ke1), ke1));
                d2 = form.enter(x2_step(x1_step(form.leave(d2), ke2), ke2));
            }
            let mut t = _mm_xor_si128(d1, form.key(k[0]));
            (d2, t) = round(&form, t, d2, form.key(k[1]));
            (d1, t) = round(&form, t, d1, form.key(k[2]));
            (d2, t) = round(&form, t, d2, form.key(k[3]));
            (d1, t) = round(&form, t, d1, form.key(k[4]));
            (d2, t) = round(&form, t, d2, form.key(k[5]));
            (d1, _) = round(&form, t, d1, both(0));
        }
        d2 = _mm_xor_si128(form.leave(d2), both(sk.kw[2]));
        d1 = _mm_xor_si128(form.leave(d1), both(sk.kw[3]));
        let c = _mm_shuffle_epi8(_mm_unpacklo_epi64(d2, d1), control(BIG_ENDIAN));
        _mm_storeu_si128(block.as_mut_ptr().cast(), c);
    }
}

/// `encrypt_one` of a rung compiled for `$features` with the s-boxes of
/// the form `$form`.
macro_rules! one_block {
    ($features:literal, $form:ident) => {
        /// Encrypts one block under `sk` (decrypts under `sk.inverse()`):
        /// the chained modes' path.
        ///
        /// # Safety
        ///
        /// The CPU has the rung's features.
        #[target_feature(enable = $features)]
        pub(in $crate::camellia) unsafe fn encrypt_one(
            sk: &$crate::camellia::key_schedule::Subkeys,
            block: &mut [u8; 16],
        ) {
            // SAFETY: this function is compiled for the form's features,
            // which the caller promises.
            unsafe {
                $crate::camellia::x86_one::encrypt_one::<$crate::camellia::x86_one::$form>(
                    sk, block,
                )
            }
        }
    };
}
pub(super) use one_block;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::camellia::reference::{self, APPENDIX_A, hex};
    use crate::camellia::{aesni, gfni, vaes};

    /// The P-function's table is the reference's P: F with the s-boxes
    /// replaced by linear maps of known output is P of those outputs.
    #[test]
    fn p_is_the_references() {
        let mut x = 0x0123_4567_89ab_cdefu64;
        for _ in 0..100 {
            x = x.rotate_left(13).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 1;
            let t = x.to_be_bytes();
            // SBOX1 the identity: SBOX2, 3 rotate left by 1, 7; SBOX4
            // rotates its input by 1.
            let z = [
                t[0],
                t[1].rotate_left(1),
                t[2].rotate_left(7),
                t[3].rotate_left(1),
                t[4].rotate_left(1),
                t[5].rotate_left(7),
                t[6].rotate_left(1),
                t[7],
            ];
            assert_eq!(p_function(z), reference::f_with(x, 0, |b| b), "{x:#x}");
        }
    }

    /// A rung's `encrypt_one`.
    type EncryptOne = unsafe fn(&Subkeys, &mut [u8; 16]);

    /// The rungs' `encrypt_one` this CPU runs.
    fn rungs() -> Vec<(&'static str, EncryptOne)> {
        let f = crate::cpu::features();
        let all: [(&str, bool, EncryptOne); 3] = [
            ("aesni", f.aes && f.ssse3, aesni::encrypt_one),
            ("vaes", f.vaes && f.aes && f.avx2 && f.ssse3, vaes::encrypt_one),
            (
                "gfni",
                f.gfni && f.avx512f && f.avx512bw && f.avx512vl && f.avx2 && f.ssse3,
                gfni::encrypt_one,
            ),
        ];
        let run: Vec<_> = all
            .into_iter()
            .filter(|r| r.1)
            .map(|(name, _, f)| (name, f))
            .collect();
        eprintln!(
            "rungs exercised: {:?}",
            run.iter().map(|r| r.0).collect::<Vec<_>>()
        );
        run
    }

    #[test]
    fn appendix_a() {
        let plaintext: [u8; 16] = hex("0123456789abcdeffedcba9876543210")
            .try_into()
            .expect("16 bytes");
        for (name, encrypt_one) in rungs() {
            for (key, ciphertext) in APPENDIX_A {
                let sk = Subkeys::new(&hex(key));
                let mut block = plaintext;
                // SAFETY: the CPU has the rung's features.
                unsafe { encrypt_one(&sk, &mut block) };
                assert_eq!(block.to_vec(), hex(ciphertext), "{name} {key}");
                // SAFETY: as above.
                unsafe { encrypt_one(&sk.inverse(), &mut block) };
                assert_eq!(block, plaintext, "{name} {key} decrypted");
            }
        }
    }

    #[test]
    fn encrypt_one_is_the_reference() {
        // SplitMix64, so failures reproduce.
        let mut state = 5u64;
        let mut next = || {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        for (name, encrypt_one) in rungs() {
            for trial in 0..300 {
                let key: Vec<u8> = (0..[16, 24, 32][trial % 3]).map(|_| next() as u8).collect();
                let sk = Subkeys::new(&key);
                let plain = (u128::from(next()) << 64 | u128::from(next())).to_be_bytes();
                let mut want = plain;
                reference::encrypt_block(&sk, &mut want);
                let mut got = plain;
                // SAFETY: the CPU has the rung's features.
                unsafe { encrypt_one(&sk, &mut got) };
                assert_eq!(got, want, "{name} {}-byte key", key.len());
                // SAFETY: as above.
                unsafe { encrypt_one(&sk.inverse(), &mut got) };
                assert_eq!(got, plain, "{name} {}-byte key decrypted", key.len());
            }
        }
    }
}
