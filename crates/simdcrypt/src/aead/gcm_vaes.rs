//! AES-GCM's stitched kernel: VAES and VPCLMULQDQ on ymm registers
//! (AVX2), the technique of the AVX2 VAES GCM that BoringSSL gained in
//! 2024 (Biggers' `aes-gcm-avx2-x86_64`), written here from its
//! description.
//!
//! A step is 8 blocks (128 bytes) as four registers of two blocks each:
//! the eight counter blocks go through the AES rounds while, between the
//! first rounds, the four registers of ciphertext of the step before
//! (encryption) or of this step (decryption) are multiplied by the powers
//! `H^8 … H^1` (`ghash::vpclmul`: three carry-less products per register,
//! Karatsuba) and reduced once — so the AES and the carry-less
//! multiplication units work side by side rather than one after the other.
//! The counter blocks are kept byte-reversed, the 32-bit counter in the low
//! lane of each half, so `inc32` is one 32-bit addition (wrapping modulo
//! 2^32, as SP 800-38D's `inc32` does). GHASH runs in POLYVAL's field
//! (blocks byte-reversed, RFC 8452 Appendix A), as every GHASH rung does.
//!
//! The last partial step (and so a whole short message) goes through the
//! same rounds, zero-padded on the stack, and its blocks are hashed with
//! the lengths block in one reduction; `E(K, J0)` is computed on the side
//! with AES-NI. Key schedule and `H` powers come precomputed from
//! [`super::AesGcm::new`].

#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::{
    __m128i, __m256i, _mm_aesenc_si128, _mm_aesenclast_si128, _mm_loadu_si128, _mm_shuffle_epi8,
    _mm_storeu_si128, _mm_xor_si128, _mm256_add_epi32, _mm256_aesenc_epi128,
    _mm256_aesenclast_epi128, _mm256_broadcastsi128_si256, _mm256_loadu_si256, _mm256_set_epi32,
    _mm256_setzero_si256, _mm256_shuffle_epi8, _mm256_storeu_si256, _mm256_xor_si256,
};

#[cfg(target_arch = "x86_64")]
use crate::ghash::pclmul;
#[cfg(target_arch = "x86_64")]
use crate::ghash::vpclmul::{self, Wide2};
use crate::xor::InOut;

/// Whether this CPU, under the `SIMDCRYPT_MAX_ISA` cap, runs the kernel.
pub(crate) fn available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        let f = crate::cpu::features();
        f.avx2 && f.vaes && f.aes && f.vpclmulqdq && f.pclmulqdq && f.ssse3
    }
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// GCM-AE (SP 800-38D §7.1) of `data` under the round keys `keys` (FIPS
/// 197 order, `w[0]` first), GHASH's `powers` (`H^8` first) and the
/// pre-counter block `j0`: the tag.
///
/// # Panics
///
/// When the CPU lacks the kernel's instructions ([`available`]).
pub(crate) fn seal(
    keys: &[[u8; 16]],
    powers: &[u128; 8],
    j0: &[u8; 16],
    aad: &[u8],
    data: InOut<'_>,
) -> [u8; 16] {
    assert!(
        available(),
        "the stitched GCM kernel needs VAES and VPCLMULQDQ"
    );
    #[cfg(target_arch = "x86_64")]
    // SAFETY: the CPU runs every feature the kernel enables (asserted).
    unsafe {
        run(keys, powers, j0, aad, data, false)
    }
    #[cfg(not(target_arch = "x86_64"))]
    unreachable!("{keys:?} {powers:?} {j0:?} {aad:?} {}", data.len())
}

/// GCM-AD (SP 800-38D §7.2) of `data` into its output: the tag the
/// ciphertext should carry, for the caller to compare (and to zero the
/// output when it does not match).
///
/// # Panics
///
/// When the CPU lacks the kernel's instructions ([`available`]).
pub(crate) fn open(
    keys: &[[u8; 16]],
    powers: &[u128; 8],
    j0: &[u8; 16],
    aad: &[u8],
    data: InOut<'_>,
) -> [u8; 16] {
    assert!(
        available(),
        "the stitched GCM kernel needs VAES and VPCLMULQDQ"
    );
    #[cfg(target_arch = "x86_64")]
    // SAFETY: the CPU runs every feature the kernel enables (asserted).
    unsafe {
        run(keys, powers, j0, aad, data, true)
    }
    #[cfg(not(target_arch = "x86_64"))]
    unreachable!("{keys:?} {powers:?} {j0:?} {aad:?} {}", data.len())
}

/// The round keys, each in both halves of a register.
#[cfg(target_arch = "x86_64")]
struct Schedule {
    k: [__m256i; 15],
    rounds: usize,
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn schedule(keys: &[[u8; 16]]) -> Schedule {
    let mut k = [_mm256_setzero_si256(); 15];
    for (k, key) in k.iter_mut().zip(keys) {
        // SAFETY: a round key is 16 bytes, the size of the load.
        *k = _mm256_broadcastsi128_si256(unsafe { _mm_loadu_si128(key.as_ptr().cast()) });
    }
    Schedule {
        k,
        rounds: keys.len() - 1,
    }
}

/// One AES round on four registers (eight blocks).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,vaes")]
#[inline]
fn round(b: &mut [__m256i; 4], k: __m256i) {
    for x in b.iter_mut() {
        *x = _mm256_aesenc_epi128(*x, k);
    }
}

/// The four registers of `bytes` (128 of them).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn load4(bytes: *const u8) -> [__m256i; 4] {
    // SAFETY: the callers pass 128 readable bytes.
    std::array::from_fn(|j| unsafe { _mm256_loadu_si256(bytes.add(32 * j).cast()) })
}

/// Stores four registers to 128 bytes.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn store4(bytes: *mut u8, v: &[__m256i; 4]) {
    for (j, x) in v.iter().enumerate() {
        // SAFETY: the callers pass 128 writable bytes.
        unsafe { _mm256_storeu_si256(bytes.add(32 * j).cast(), *x) };
    }
}

/// `a ^ b` register by register.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn xor4(a: &[__m256i; 4], b: &[__m256i; 4]) -> [__m256i; 4] {
    let mut out = *a;
    for (o, y) in out.iter_mut().zip(b) {
        *o = _mm256_xor_si256(*o, *y);
    }
    out
}

/// Every block of four registers byte-reversed.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn reverse4(v: &[__m256i; 4], rev: __m256i) -> [__m256i; 4] {
    let mut out = *v;
    for o in out.iter_mut() {
        *o = _mm256_shuffle_epi8(*o, rev);
    }
    out
}

/// Eight counter blocks from `base` (the next counter block byte-reversed
/// in both halves): register `j` holds counters `base + 2j` and
/// `base + 2j + 1`, put back in byte order.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn counters(base: __m256i, rev: __m256i) -> [__m256i; 4] {
    let mut out = [base; 4];
    for (j, o) in out.iter_mut().enumerate() {
        let j = 2 * j as i32;
        let add = _mm256_set_epi32(0, 0, 0, j + 1, 0, 0, 0, j);
        *o = _mm256_shuffle_epi8(_mm256_add_epi32(base, add), rev);
    }
    out
}

/// The keystream of eight counter blocks `ctr`; with `hash`, the GHASH
/// accumulator `s` absorbs the four registers `g` (byte-reversed blocks,
/// `s` joining the first) between the first rounds, one reduction after
/// the fifth.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,vaes,vpclmulqdq,pclmulqdq")]
#[inline]
fn step(
    sched: &Schedule,
    ctr: &[__m256i; 4],
    g: &[__m256i; 4],
    hash: bool,
    pairs: &[__m256i; 4],
    s: &mut __m128i,
) -> [__m256i; 4] {
    let k = &sched.k;
    let mut b = *ctr;
    for x in b.iter_mut() {
        *x = _mm256_xor_si256(*x, k[0]);
    }
    let mut w = Wide2::zero();
    let first = _mm256_xor_si256(g[0], vpclmul::zero_extend(*s));
    for (r, (x, h)) in [first, g[1], g[2], g[3]].iter().zip(pairs).enumerate() {
        round(&mut b, k[r + 1]);
        if hash {
            vpclmul::mul_add2(&mut w, *x, *h);
        }
    }
    round(&mut b, k[5]);
    if hash {
        *s = pclmul::reduce(w.fold());
    }
    for key in &k[6..sched.rounds] {
        round(&mut b, *key);
    }
    for x in b.iter_mut() {
        *x = _mm256_aesenclast_epi128(*x, k[sched.rounds]);
    }
    b
}

/// `E(K, block)` on one block with AES-NI.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,aes")]
#[inline]
fn encrypt_one(sched: &Schedule, block: __m128i) -> __m128i {
    let half = |v: __m256i| core::arch::x86_64::_mm256_castsi256_si128(v);
    let mut x = _mm_xor_si128(block, half(sched.k[0]));
    for key in &sched.k[1..sched.rounds] {
        x = _mm_aesenc_si128(x, half(*key));
    }
    _mm_aesenclast_si128(x, half(sched.k[sched.rounds]))
}

/// GHASH of `bytes` zero-padded, in POLYVAL's field: whole steps on
/// `vpclmul`, the rest in one reduction.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,vpclmulqdq,pclmulqdq,ssse3")]
fn absorb_padded(powers: &[u128; 8], s: __m128i, bytes: &[u8]) -> __m128i {
    let mut acc = pclmul::store(s);
    let whole = bytes.len() / 128 * 128;
    vpclmul::update(powers, &mut acc, &bytes[..whole], true);
    let rest = &bytes[whole..];
    let mut last = [0u8; 128];
    last[..rest.len()].copy_from_slice(rest);
    let s = pclmul::absorb(
        powers,
        pclmul::load(&acc),
        &last[..rest.len().div_ceil(16) * 16],
        pclmul::byte_order(true),
    );
    wipe(&mut last);
    s
}

/// Overwrites a stack buffer that held message bytes or keystream.
fn wipe(buf: &mut [u8]) {
    buf.fill(0);
    std::hint::black_box(buf);
}

/// The whole of GCM-AE or GCM-AD on one message.
///
/// # Safety
///
/// The CPU must run AVX2, VAES, AES-NI, VPCLMULQDQ, PCLMULQDQ and SSSE3.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,vaes,aes,vpclmulqdq,pclmulqdq,ssse3")]
unsafe fn run(
    keys: &[[u8; 16]],
    powers: &[u128; 8],
    j0: &[u8; 16],
    aad: &[u8],
    data: InOut<'_>,
    open: bool,
) -> [u8; 16] {
    let sched = schedule(keys);
    let rev128 = pclmul::byte_order(true);
    let rev = _mm256_broadcastsi128_si256(rev128);
    let pairs = vpclmul::power_pairs(powers);
    // SAFETY: `j0` is 16 bytes.
    let j0 = unsafe { _mm_loadu_si128(j0.as_ptr().cast()) };
    let ek_j0 = encrypt_one(&sched, j0);
    let mut s = absorb_padded(powers, pclmul::load(&0), aad);

    // The next counter block, byte-reversed in both halves: J0 + 1.
    let one = _mm256_set_epi32(0, 0, 0, 1, 0, 0, 0, 1);
    let eight = _mm256_set_epi32(0, 0, 0, 8, 0, 0, 0, 8);
    let mut base = _mm256_add_epi32(
        _mm256_shuffle_epi8(_mm256_broadcastsi128_si256(j0), rev),
        one,
    );

    let len = data.len();
    let (input, output, _) = data.into_raw();
    let steps = len / 128;
    let zero = [_mm256_setzero_si256(); 4];
    let mut pending = zero;
    for i in 0..steps {
        let ctr = counters(base, rev);
        base = _mm256_add_epi32(base, eight);
        // SAFETY: step `i` lies within the `len` bytes of both sides; the
        // input is read before the output is written (in place, the same
        // bytes).
        let x = load4(unsafe { input.add(128 * i) });
        let out = if open {
            let ks = step(&sched, &ctr, &reverse4(&x, rev), true, &pairs, &mut s);
            xor4(&x, &ks)
        } else {
            let ks = step(&sched, &ctr, &pending, i > 0, &pairs, &mut s);
            let out = xor4(&x, &ks);
            pending = reverse4(&out, rev);
            out
        };
        // SAFETY: as above.
        store4(unsafe { output.add(128 * i) }, &out);
    }
    if !open && steps > 0 {
        let mut w = Wide2::zero();
        let first = _mm256_xor_si256(pending[0], vpclmul::zero_extend(s));
        for (x, h) in [first, pending[1], pending[2], pending[3]]
            .iter()
            .zip(&pairs)
        {
            vpclmul::mul_add2(&mut w, *x, *h);
        }
        s = pclmul::reduce(w.fold());
    }

    // The last partial step, zero-padded, and the lengths block: the
    // text's blocks then `[len(A)]_64 ‖ [len(C)]_64` in `hashed`.
    let done = 128 * steps;
    let n = len - done;
    let mut text = [0u8; 128];
    let mut hashed = [0u8; 144];
    if n > 0 {
        // SAFETY: the last `n` bytes of the input, into a 128-byte buffer.
        unsafe { core::ptr::copy_nonoverlapping(input.add(done), text.as_mut_ptr(), n) };
        let ctr = counters(base, rev);
        let ks = step(&sched, &ctr, &zero, false, &pairs, &mut s);
        let out = xor4(&load4(text.as_ptr()), &ks);
        if open {
            hashed[..n].copy_from_slice(&text[..n]);
        }
        store4(text.as_mut_ptr(), &out);
        // SAFETY: the last `n` bytes of the output.
        unsafe { core::ptr::copy_nonoverlapping(text.as_ptr(), output.add(done), n) };
        if !open {
            hashed[..n].copy_from_slice(&text[..n]);
        }
    }
    let blocks = n.div_ceil(16);
    hashed[16 * blocks..16 * blocks + 8].copy_from_slice(&((aad.len() as u64) * 8).to_be_bytes());
    hashed[16 * blocks + 8..16 * blocks + 16].copy_from_slice(&((len as u64) * 8).to_be_bytes());
    let hashed_len = 16 * (blocks + 1);
    for group in hashed[..hashed_len].chunks(128) {
        s = pclmul::absorb(powers, s, group, rev128);
    }
    wipe(&mut text);
    wipe(&mut hashed);

    // The tag: E(K, J0) ⊕ S, S back in GHASH's byte order.
    let tag = _mm_xor_si128(_mm_shuffle_epi8(s, rev128), ek_j0);
    let mut out = [0u8; 16];
    // SAFETY: `out` is 16 bytes.
    unsafe { _mm_storeu_si128(out.as_mut_ptr().cast(), tag) };
    out
}
