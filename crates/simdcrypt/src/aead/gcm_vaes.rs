//! AES-GCM's stitched kernel: VAES and VPCLMULQDQ on ymm registers
//! (AVX2), the technique of the AVX2 VAES GCM that BoringSSL gained in
//! 2024 (Biggers' `aes-gcm-avx2-x86_64`), written here from its
//! description.
//!
//! A step is 16 blocks (256 bytes) as eight registers of two blocks each:
//! the sixteen counter blocks go through the AES rounds while, one
//! register after each of the first eight rounds, the eight registers of
//! ciphertext of the step before (encryption) or of this step (decryption)
//! are multiplied by the powers `H^16 … H^1` (`ghash::vpclmul`: four
//! carry-less products per register, schoolbook) and reduced once after
//! the ninth — so the AES and the carry-less multiplication units work
//! side by side rather than one after the other, and eight independent AES
//! chains per round cover the instructions' latency. The register that
//! the accumulator joins is multiplied last, so that one step's reduction
//! waits on one product of the step before. A last run of 8 to 15 blocks
//! takes one 8-block step.
//! The 32-bit `inc32` counter wraps modulo 2^32 as SP 800-38D's does
//! (see `Counters`). GHASH runs in POLYVAL's field
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
use super::gcm::Tail;
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

/// GCM-AE (SP 800-38D §7.1, `open` false) or GCM-AD (§7.2) of `data`
/// under the round keys `keys` (FIPS 197 order, `w[0]` first), GHASH's
/// `powers` (`H^16` first) and the pre-counter block `j0`, in place or from
/// its input into its output: the tag — of the message sealed, or the one
/// an opened ciphertext should carry, for the caller to compare (and to
/// zero the output when it does not match).
///
/// # Panics
///
/// When the CPU lacks the kernel's instructions ([`available`]).
pub(crate) fn tag(
    keys: &[[u8; 16]],
    powers: &[u128; 16],
    j0: &[u8; 16],
    aad: &[u8],
    data: InOut<'_>,
    open: bool,
) -> [u8; 16] {
    #[cfg(target_arch = "x86_64")]
    return run(keys, powers, j0, aad, data, open);
    #[cfg(not(target_arch = "x86_64"))]
    unreachable!("{keys:?} {powers:?} {j0:?} {aad:?} {} {open}", data.len())
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

/// One AES round on `N` registers (`2N` blocks).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,vaes")]
#[inline]
fn round<const N: usize>(b: &mut [__m256i; N], k: __m256i) {
    for x in b.iter_mut() {
        *x = _mm256_aesenc_epi128(*x, k);
    }
}

/// `N` registers from `32N` bytes.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn load<const N: usize>(bytes: *const u8) -> [__m256i; N] {
    // SAFETY: the callers pass `32N` readable bytes.
    std::array::from_fn(|j| unsafe { _mm256_loadu_si256(bytes.add(32 * j).cast()) })
}

/// Stores `N` registers to `32N` bytes.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn store<const N: usize>(bytes: *mut u8, v: &[__m256i; N]) {
    for (j, x) in v.iter().enumerate() {
        // SAFETY: the callers pass `32N` writable bytes.
        unsafe { _mm256_storeu_si256(bytes.add(32 * j).cast(), *x) };
    }
}

/// `a ^ b` register by register.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn xor<const N: usize>(a: &[__m256i; N], b: &[__m256i; N]) -> [__m256i; N] {
    let mut out = *a;
    for (o, y) in out.iter_mut().zip(b) {
        *o = _mm256_xor_si256(*o, *y);
    }
    out
}

/// Every block of `N` registers byte-reversed: GHASH's blocks in
/// POLYVAL's field.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn reverse<const N: usize>(v: &[__m256i; N], rev: __m256i) -> [__m256i; N] {
    let mut out = *v;
    for o in out.iter_mut() {
        *o = _mm256_shuffle_epi8(*o, rev);
    }
    out
}

/// The counter blocks of a run: the next counter `ctr` (the 32-bit
/// `inc32` counter) and `j0` (whose other 96 bits every counter block
/// shares). Two forms are kept: byte-reversed (the counter in the low
/// 32-bit lane of each half, so that adding is one `vpaddd`, then one
/// `vpshufb` per register back to byte order), and in byte order, where
/// adding `k` to the last byte needs no shuffle as long as that byte does
/// not carry — the case for all but one run in 16 (the counter is public,
/// so choosing by it leaks nothing).
#[cfg(target_arch = "x86_64")]
struct Counters {
    ctr: u32,
    /// The next counter block, byte-reversed, in both halves.
    reversed: __m256i,
    /// The next counter block in byte order, in both halves.
    ordered: __m256i,
}

#[cfg(target_arch = "x86_64")]
impl Counters {
    /// The counter blocks after `j0`, starting at `inc32(j0)`.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn new(j0: __m128i, rev: __m256i) -> Counters {
        let reversed = _mm256_add_epi32(
            _mm256_shuffle_epi8(_mm256_broadcastsi128_si256(j0), rev),
            _mm256_set_epi32(0, 0, 0, 1, 0, 0, 0, 1),
        );
        Counters {
            ctr: (pclmul::store(_mm_shuffle_epi8(j0, pclmul::byte_order(true))) as u32)
                .wrapping_add(1),
            reversed,
            ordered: _mm256_shuffle_epi8(reversed, rev),
        }
    }

    /// The next `2N` counter blocks, register `j` holding counters
    /// `2j` and `2j + 1`.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn next<const N: usize>(&mut self, rev: __m256i) -> [__m256i; N] {
        let mut out = [self.ordered; N];
        let step = 2 * N as i32;
        if (self.ctr & 0xff) as usize + 2 * N <= 0x100 {
            // No carry out of the last byte: add in byte order.
            for (j, o) in out.iter_mut().enumerate() {
                let j = 2 * j as i32;
                let add = _mm256_set_epi32((j + 1) << 24, 0, 0, 0, j << 24, 0, 0, 0);
                *o = _mm256_add_epi32(self.ordered, add);
            }
            self.ordered = _mm256_add_epi32(
                self.ordered,
                _mm256_set_epi32(step << 24, 0, 0, 0, step << 24, 0, 0, 0),
            );
        } else {
            for (j, o) in out.iter_mut().enumerate() {
                let j = 2 * j as i32;
                let add = _mm256_set_epi32(0, 0, 0, j + 1, 0, 0, 0, j);
                *o = _mm256_shuffle_epi8(_mm256_add_epi32(self.reversed, add), rev);
            }
        }
        self.reversed = _mm256_add_epi32(
            self.reversed,
            _mm256_set_epi32(0, 0, 0, step, 0, 0, 0, step),
        );
        if (self.ctr & 0xff) as usize + 2 * N >= 0x100 {
            // The last byte carried (or is about to): byte order anew.
            self.ordered = _mm256_shuffle_epi8(self.reversed, rev);
        }
        self.ctr = self.ctr.wrapping_add(2 * N as u32);
        out
    }
}

/// The keystream of the `2N` counter blocks `ctr`; with `hash`, the GHASH
/// accumulator `s` absorbs the `N` registers `g` (blocks in POLYVAL's
/// field, `s` joining the first) by `pairs`, one register after each of
/// the first `N` rounds and one reduction after the next. A macro, not a
/// function: LLVM would not inline the 8-register form (its arrays then
/// go through memory, and `vzeroupper` runs on every step).
#[cfg(target_arch = "x86_64")]
macro_rules! step {
    ($sched:expr, $ctr:expr, $g:expr, $hash:expr, $pairs:expr, $s:expr) => {{
        let (sched, g, hash, pairs, s): (&Schedule, _, bool, _, &mut __m128i) =
            ($sched, $g, $hash, $pairs, $s);
        let k = &sched.k;
        let mut b = *$ctr;
        let n = b.len();
        for x in b.iter_mut() {
            *x = _mm256_xor_si256(*x, k[0]);
        }
        // The registers that do not depend on `s` first, the first
        // register (which `s` joins) last: the chain from one step's `s`
        // to the next is then one product, one sum and the reduction.
        let mut w = Wide2::zero();
        for r in 0..n {
            round(&mut b, k[r + 1]);
            if hash {
                let j = (r + 1) % n;
                let x = if j == 0 {
                    _mm256_xor_si256(g[0], vpclmul::zero_extend(*s))
                } else {
                    g[j]
                };
                vpclmul::mul_add2(&mut w, x, &pairs[j]);
            }
        }
        round(&mut b, k[n + 1]);
        if hash {
            *s = pclmul::reduce_parts(w.fold());
        }
        for key in &k[n + 2..sched.rounds] {
            round(&mut b, *key);
        }
        for x in b.iter_mut() {
            *x = _mm256_aesenclast_epi128(*x, k[sched.rounds]);
        }
        b
    }};
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
    crate::ct::wipe(&mut last);
    s
}


/// Encrypts (`$open` false) or decrypts a run of `32N` bytes at `$at`
/// (input and output pointers) of the message: AES on its `2N` counter
/// blocks stitched with the GHASH of `$pending` (encryption: the
/// ciphertext of the run before, if `$have_pending`) or of this run's
/// ciphertext (decryption). Encryption leaves this run's ciphertext in
/// `$pending`. A macro for the reason [`step!`] is. The caller guarantees
/// `32N` bytes at `$at` readable from the input and writable to the
/// output.
#[cfg(target_arch = "x86_64")]
macro_rules! run_step {
    ($k:expr, $counters:expr, $pairs:expr, $at:expr, $pending:expr, $have_pending:expr, $open:expr, $s:expr) => {{
        let (k, pairs, (input, output), pending, open): (
            &Kernel<'_>,
            _,
            (*const u8, *mut u8),
            _,
            bool,
        ) = ($k, $pairs, $at, $pending, $open);
        let ctr = $counters.next(k.rev);
        // The input is read before the output is written (in place, the
        // same bytes).
        let x = load(input);
        let (g, hash) = if open {
            (reverse(&x, k.rev), true)
        } else {
            (*pending, $have_pending)
        };
        let out = xor(&x, &step!(&k.sched, &ctr, &g, hash, pairs, $s));
        if !open {
            *pending = reverse(&out, k.rev);
        }
        store(output, &out);
    }};
}

/// What every run of a message shares.
#[cfg(target_arch = "x86_64")]
struct Kernel<'a> {
    sched: Schedule,
    rev: __m256i,
    powers: &'a [u128; 16],
}

/// Defines `$name`, the whole of GCM-AE or GCM-AD on one message (16
/// blocks per step, then at most one 8-block step, then the rest
/// zero-padded), compiled for `$features`: the AVX2 form, and the same
/// code where the CPU has AVX-512VL, whose 32 vector registers hold the
/// sixteen blocks, the accumulators and the powers without spilling (the
/// instructions stay VEX/EVEX ymm ones; BoringSSL keeps a VAES-AVX10/256
/// form for the same reason).
#[cfg(target_arch = "x86_64")]
macro_rules! gcm_run {
    ($name:ident, $features:literal) => {
        /// GCM-AE (`open` false) or GCM-AD of `data`: the tag.
        ///
        /// # Safety
        ///
        #[doc = concat!("The CPU must run ", $features, ".")]
        #[target_feature(enable = $features)]
        unsafe fn $name(
            keys: &[[u8; 16]],
            powers: &[u128; 16],
            j0: &[u8; 16],
            aad: &[u8],
            data: InOut<'_>,
            open: bool,
        ) -> [u8; 16] {
            let rev128 = pclmul::byte_order(true);
            let mut k = Kernel {
                sched: schedule(keys),
                rev: _mm256_broadcastsi128_si256(rev128),
                powers,
            };
            let last8: &[u128; 8] = powers[8..].try_into().expect("8 powers");
            // SAFETY: `j0` is 16 bytes.
            let j0 = unsafe { _mm_loadu_si128(j0.as_ptr().cast()) };
            let ek_j0 = encrypt_one(&k.sched, j0);
            let mut s = absorb_padded(last8, pclmul::load(&0), aad);
            let mut counters = Counters::new(j0, k.rev);

            let len = data.len();
            let (input, output, _) = data.into_raw();
            let at = |offset: usize| {
                // SAFETY: every caller's offset is at most the message's
                // length (`input`'s and `output`'s).
                unsafe { (input.add(offset), output.add(offset)) }
            };
            let zero = _mm256_setzero_si256();
            let mut done = 0;
            if len >= 256 {
                let pairs = vpclmul::power_pairs::<8>(k.powers);
                let mut pending = [zero; 8];
                // Each loop with `open` and the hashing fixed, so that the steps
                // carry no branch on them. (256 bytes from `done` are within the
                // message at each step.)
                macro_rules! step256 {
                    ($have_pending:literal, $open:literal) => {
                        run_step!(
                            &k,
                            counters,
                            &pairs,
                            at(done),
                            &mut pending,
                            $have_pending,
                            $open,
                            &mut s
                        );
                        done += 256;
                    };
                }
                if open {
                    while len - done >= 256 {
                        step256!(true, true);
                    }
                } else {
                    step256!(false, false);
                    while len - done >= 256 {
                        step256!(true, false);
                    }
                    s = vpclmul::absorb_regs(s, &pending, &pairs);
                }
            }
            if len - done >= 128 {
                let pairs = vpclmul::power_pairs::<4>(k.powers);
                let mut pending = [zero; 4];
                // 128 bytes from `done` are within the message.
                run_step!(
                    &k,
                    counters,
                    &pairs,
                    at(done),
                    &mut pending,
                    false,
                    open,
                    &mut s
                );
                if !open {
                    s = vpclmul::absorb_regs(s, &pending, &pairs);
                }
                done += 128;
            }

            // The last partial step, zero-padded, then its blocks and the
            // lengths block hashed.
            let n = len - done;
            let (src, dst) = at(done);
            // SAFETY: the last `n < 128` bytes of the input.
            let mut tail = unsafe { Tail::new(src, n, open) };
            if n > 0 {
                let pairs = vpclmul::power_pairs::<4>(k.powers);
                let ctr = counters.next::<4>(k.rev);
                let ks = step!(&k.sched, &ctr, &[zero; 4], false, &pairs, &mut s);
                let text = tail.text.as_mut_ptr();
                store(text, &xor(&load::<4>(text), &ks));
            }
            // SAFETY: the last `n` bytes of the output.
            let hashed = unsafe { tail.finish(dst, open, aad.len(), len) };
            for group in hashed.chunks(128) {
                s = pclmul::absorb(last8, s, group, rev128);
            }
            drop(tail);

            // The round keys' broadcast copies on the stack are wiped (the
            // vector registers are not, as in the library's other kernels).
            for key in k.sched.k.iter_mut() {
                *key = _mm256_setzero_si256();
            }
            std::hint::black_box(&mut k.sched);

            // The tag: E(K, J0) ⊕ S, S back in GHASH's byte order.
            let tag = _mm_xor_si128(_mm_shuffle_epi8(s, rev128), ek_j0);
            let mut out = [0u8; 16];
            // SAFETY: `out` is 16 bytes.
            unsafe { _mm_storeu_si128(out.as_mut_ptr().cast(), tag) };
            out
        }
    };
}

#[cfg(target_arch = "x86_64")]
gcm_run!(run_avx2, "avx2,vaes,aes,vpclmulqdq,pclmulqdq,ssse3");
#[cfg(target_arch = "x86_64")]
gcm_run!(
    run_avx512vl,
    "avx2,vaes,aes,vpclmulqdq,pclmulqdq,ssse3,avx512f,avx512vl"
);

/// The kernel's form for this CPU.
#[cfg(target_arch = "x86_64")]
fn run(
    keys: &[[u8; 16]],
    powers: &[u128; 16],
    j0: &[u8; 16],
    aad: &[u8],
    data: InOut<'_>,
    open: bool,
) -> [u8; 16] {
    assert!(
        available(),
        "the stitched GCM kernel needs VAES and VPCLMULQDQ"
    );
    let f = crate::cpu::features();
    if f.avx512f && f.avx512vl {
        // SAFETY: the CPU runs AVX-512F and VL, and the rest (asserted).
        unsafe { run_avx512vl(keys, powers, j0, aad, data, open) }
    } else {
        // SAFETY: the CPU runs every feature the kernel enables (asserted).
        unsafe { run_avx2(keys, powers, j0, aad, data, open) }
    }
}
