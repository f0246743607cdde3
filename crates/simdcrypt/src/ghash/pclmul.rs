//! PCLMULQDQ: 64×64 carry-less products in one instruction, Karatsuba's
//! three per block, and one reduction per 8 blocks ("aggregated
//! reduction", Gueron and Kounavis, *Intel Carry-Less Multiplication
//! Instruction and its Usage for Computing the GCM Mode*, 2010): with the
//! powers `H^8 … H^1` of the key computed once, 8 blocks add up as
//! `(S ⊕ X_1)·H^8 ⊕ X_2·H^7 ⊕ … ⊕ X_8·H^1` unreduced, then reduce.
//!
//! Everything is POLYVAL's field (RFC 8452 §3), where the reduction by
//! `x^-128` takes two carry-less multiplications by `x^63 + x^62 + x^57`
//! (the constant `0xc2 << 56`); GHASH's blocks are byte-reversed on
//! loading (RFC 8452 Appendix A).

use core::arch::x86_64::{
    __m128i, _mm_clmulepi64_si128, _mm_loadu_si128, _mm_set_epi8, _mm_set_epi64x,
    _mm_setzero_si128, _mm_shuffle_epi8, _mm_shuffle_epi32, _mm_slli_si128, _mm_srli_si128,
    _mm_storeu_si128, _mm_xor_si128,
};

/// A sum of products before reduction, as Karatsuba's three parts: the
/// products of the low words, of the high words, and of the XORs of the
/// two words (still holding the other two).
#[derive(Clone, Copy)]
pub(crate) struct Wide {
    pub(crate) lo: __m128i,
    pub(crate) mid: __m128i,
    pub(crate) hi: __m128i,
}

impl Wide {
    /// The empty sum.
    #[target_feature(enable = "sse2")]
    #[inline]
    pub(crate) fn zero() -> Wide {
        let z = _mm_setzero_si128();
        Wide {
            lo: z,
            mid: z,
            hi: z,
        }
    }
}

/// The byte shuffle that leaves a block as it is (POLYVAL) or reverses it
/// (GHASH).
#[target_feature(enable = "sse2")]
#[inline]
pub(crate) fn byte_order(reversed: bool) -> __m128i {
    if reversed {
        _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
    } else {
        _mm_set_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
    }
}

/// A field element from memory.
#[target_feature(enable = "sse2")]
#[inline]
pub(crate) fn load(value: &u128) -> __m128i {
    // SAFETY: a u128 is 16 bytes, the size of the (unaligned) load.
    unsafe { _mm_loadu_si128((value as *const u128).cast()) }
}

/// A field element to memory.
#[target_feature(enable = "sse2")]
#[inline]
pub(crate) fn store(value: __m128i) -> u128 {
    let mut out = 0u128;
    // SAFETY: a u128 is 16 bytes, the size of the (unaligned) store.
    unsafe { _mm_storeu_si128((&mut out as *mut u128).cast(), value) };
    out
}

/// Block `i` of `blocks`, in field order (`order` from [`byte_order`]).
#[target_feature(enable = "sse2,ssse3")]
#[inline]
fn load_block(blocks: &[u8], i: usize, order: __m128i) -> __m128i {
    let block = &blocks[16 * i..16 * i + 16];
    // SAFETY: `block` is 16 bytes, the size of the (unaligned) load.
    let x = unsafe { _mm_loadu_si128(block.as_ptr().cast()) };
    _mm_shuffle_epi8(x, order)
}

/// Adds `a · h` to `w`, unreduced: three carry-less products (Karatsuba).
#[target_feature(enable = "pclmulqdq,sse2")]
#[inline]
pub(crate) fn mul_add(w: &mut Wide, a: __m128i, h: __m128i) {
    w.lo = _mm_xor_si128(w.lo, _mm_clmulepi64_si128::<0x00>(a, h));
    w.hi = _mm_xor_si128(w.hi, _mm_clmulepi64_si128::<0x11>(a, h));
    let a_sum = _mm_xor_si128(a, _mm_shuffle_epi32::<0x4e>(a));
    let h_sum = _mm_xor_si128(h, _mm_shuffle_epi32::<0x4e>(h));
    w.mid = _mm_xor_si128(w.mid, _mm_clmulepi64_si128::<0x00>(a_sum, h_sum));
}

/// The sum `w` times `x^-128`, reduced: Karatsuba's middle term put in
/// place, then Montgomery's reduction a 64-bit word at a time (the low
/// word `c` of the product cancelled by adding `c·P`, whose part above
/// `x^64` is `c·(x^57 + x^62 + x^63)` and `c` itself one word up).
#[target_feature(enable = "pclmulqdq,sse2")]
#[inline]
pub(crate) fn reduce(w: Wide) -> __m128i {
    let mid = _mm_xor_si128(w.mid, _mm_xor_si128(w.lo, w.hi));
    reduce_parts(Wide { mid, ..w })
}

/// As [`reduce`], the middle term already the sum of the cross products
/// (schoolbook's, not Karatsuba's).
#[target_feature(enable = "pclmulqdq,sse2")]
#[inline]
pub(crate) fn reduce_parts(w: Wide) -> __m128i {
    let mid = w.mid;
    let lo = _mm_xor_si128(w.lo, _mm_slli_si128::<8>(mid));
    let hi = _mm_xor_si128(w.hi, _mm_srli_si128::<8>(mid));
    let poly = _mm_set_epi64x(0, 0xc200_0000_0000_0000_u64 as i64);
    let t = _mm_clmulepi64_si128::<0x00>(lo, poly);
    let lo = _mm_xor_si128(_mm_shuffle_epi32::<0x4e>(lo), t);
    let t = _mm_clmulepi64_si128::<0x00>(lo, poly);
    let lo = _mm_xor_si128(_mm_shuffle_epi32::<0x4e>(lo), t);
    _mm_xor_si128(hi, lo)
}

/// `s` after absorbing the `n ≤ 8` blocks of `blocks` (`16·n` bytes) in
/// one reduction (`s` itself when there are none): block `i` times `H^(n−i)`, `powers` holding `H^8`
/// first and `H^1` last.
#[target_feature(enable = "pclmulqdq,sse2,ssse3")]
#[inline]
pub(crate) fn absorb(powers: &[u128; 8], s: __m128i, blocks: &[u8], order: __m128i) -> __m128i {
    let n = blocks.len() / 16;
    if n == 0 {
        return s;
    }
    let mut w = Wide::zero();
    for i in 0..n {
        let mut x = load_block(blocks, i, order);
        if i == 0 {
            x = _mm_xor_si128(x, s);
        }
        mul_add(&mut w, x, load(&powers[8 - n + i]));
    }
    reduce(w)
}

/// `dot(a, b)` (RFC 8452 §3): one product, one reduction.
#[target_feature(enable = "pclmulqdq,sse2")]
pub(super) fn dot(a: u128, b: u128) -> u128 {
    let mut w = Wide::zero();
    mul_add(&mut w, load(&a), load(&b));
    store(reduce(w))
}

/// Absorbs whole `blocks` into `acc`, 8 at a time, the rest in one last
/// reduction; `reversed` for GHASH's byte order.
#[target_feature(enable = "pclmulqdq,sse2,ssse3")]
pub(crate) fn update(powers: &[u128; 8], acc: &mut u128, blocks: &[u8], reversed: bool) {
    let order = byte_order(reversed);
    let mut s = load(acc);
    for group in blocks.chunks(128) {
        s = absorb(powers, s, group, order);
    }
    *acc = store(s);
}
