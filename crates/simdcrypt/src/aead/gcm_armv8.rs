//! AES-GCM's stitched kernel on ARMv8: AES (`AESE`/`AESMC`) and GHASH by
//! PMULL interleaved in one loop, the technique of the x86 kernels
//! (`gcm_vaes`) and of OpenSSL's `aes-gcm-armv8_64`, written here from
//! SP 800-38D and the `ghash::pmull` rung.
//!
//! A step is 8 blocks (128 bytes): the eight counter blocks go through
//! the AES rounds while, one block after each of the first eight rounds,
//! the eight ciphertext blocks of the step before (encryption) or of this
//! step (decryption) are multiplied by the powers `H^8 … H^1`
//! (`ghash::pmull::mul_add`, Karatsuba's three PMULLs) and reduced once
//! after the ninth — so the AES and the multiplication pipelines work
//! side by side, and eight independent AES chains per round cover the
//! instructions' latency. The block that the accumulator joins is
//! multiplied last, so that one step's reduction waits on one product of
//! the step before.
//!
//! ARMv8's `AESE` is AddRoundKey, then SubBytes and ShiftRows, and
//! `AESMC` MixColumns: FIPS 197's round `i` (§5.1) with the key of the
//! round before, so a block is `AESMC(AESE(x, w_i))` for `i < Nr − 1`,
//! then `AESE(x, w_(Nr−1)) ⊕ w_Nr`, from the expanded round keys as
//! FIPS 197 §5.2 gives them.
//!
//! The 32-bit `inc32` counter wraps modulo 2^32 as SP 800-38D's does.
//! GHASH runs in POLYVAL's field (blocks byte-reversed, RFC 8452
//! Appendix A), as every GHASH rung does. The last partial step (and so a
//! whole short message) goes through the same rounds, zero-padded on the
//! stack, and its blocks are hashed with the lengths block; `E(K, J0)` is
//! one more block. Key schedule and `H` powers come precomputed from
//! [`super::AesGcm::new`]. Every step is the same sequence of
//! instructions whatever the data: constant-time.

use core::arch::aarch64::{
    uint8x16_t, vaeseq_u8, vaesmcq_u8, vdupq_n_u8, veorq_u8, vld1q_u8, vqtbl1q_u8,
    vreinterpretq_u8_u32, vreinterpretq_u32_u8, vsetq_lane_u32, vst1q_u8,
};

use super::gcm::Tail;
use crate::ghash::neon::{self, Wide};
use crate::ghash::pmull;
use crate::xor::InOut;

/// Blocks per step.
const STEP: usize = 8;

/// Whether this CPU, under the `SIMDCRYPT_MAX_ISA` cap, runs the kernel.
pub(crate) fn available() -> bool {
    let f = crate::cpu::features();
    f.neon && f.aes && f.pmull
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
    assert!(available(), "the ARMv8 GCM kernel needs AES and PMULL");
    let last8: &[u128; 8] = powers[8..].try_into().expect("8 powers");
    // SAFETY: the CPU runs NEON, AES and PMULL (asserted).
    unsafe { run(keys, last8, j0, aad, data, open) }
}

/// The round keys in registers.
struct Schedule {
    k: [uint8x16_t; 15],
    rounds: usize,
}

impl Schedule {
    #[target_feature(enable = "neon")]
    #[inline]
    fn new(keys: &[[u8; 16]]) -> Schedule {
        let mut k = [vdupq_n_u8(0); 15];
        for (k, key) in k.iter_mut().zip(keys) {
            // SAFETY: a round key is 16 bytes, the size of the load.
            *k = unsafe { vld1q_u8(key.as_ptr()) };
        }
        Schedule {
            k,
            rounds: keys.len() - 1,
        }
    }

    /// FIPS 197's rounds `1 … Nr − 1` from `first` on: AddRoundKey with
    /// the key before, SubBytes, ShiftRows, MixColumns.
    #[target_feature(enable = "neon,aes")]
    #[inline]
    fn rounds_from<const N: usize>(&self, b: &mut [uint8x16_t; N], first: usize) {
        for key in &self.k[first..self.rounds - 1] {
            for x in b.iter_mut() {
                *x = vaesmcq_u8(vaeseq_u8(*x, *key));
            }
        }
    }

    /// The last round and the last AddRoundKey.
    #[target_feature(enable = "neon,aes")]
    #[inline]
    fn finish<const N: usize>(&self, b: &mut [uint8x16_t; N]) {
        let (last, out) = (self.k[self.rounds - 1], self.k[self.rounds]);
        for x in b.iter_mut() {
            *x = veorq_u8(vaeseq_u8(*x, last), out);
        }
    }

    /// `E(K, block)`.
    #[target_feature(enable = "neon,aes")]
    #[inline]
    fn encrypt_one(&self, block: uint8x16_t) -> uint8x16_t {
        let mut b = [block];
        self.rounds_from(&mut b, 0);
        self.finish(&mut b);
        b[0]
    }
}

/// The counter blocks: `j0`'s first 96 bits and the next 32-bit counter.
struct Counters {
    base: uint8x16_t,
    ctr: u32,
}

impl Counters {
    /// The counter blocks after `j0`, from `inc32(j0)` on.
    #[target_feature(enable = "neon")]
    #[inline]
    fn new(j0: &[u8; 16]) -> Counters {
        Counters {
            // SAFETY: `j0` is 16 bytes, the size of the load.
            base: unsafe { vld1q_u8(j0.as_ptr()) },
            ctr: u32::from_be_bytes(j0[12..].try_into().expect("4 bytes")).wrapping_add(1),
        }
    }

    /// The next 8 counter blocks (`inc32`, modulo 2^32).
    #[target_feature(enable = "neon")]
    #[inline]
    fn next(&mut self) -> [uint8x16_t; STEP] {
        let base = vreinterpretq_u32_u8(self.base);
        let out = core::array::from_fn(|i| {
            let ctr = self.ctr.wrapping_add(i as u32).to_be();
            vreinterpretq_u8_u32(vsetq_lane_u32::<3>(ctr, base))
        });
        self.ctr = self.ctr.wrapping_add(STEP as u32);
        out
    }
}

/// The keystream of the counter blocks `$ctr`; with `$hash` (a literal),
/// the GHASH accumulator `$s` absorbs the blocks `$g` (in POLYVAL's
/// field, `$s` joining the first) times `$powers` (`H^8` first), one
/// block after each of the first eight rounds and one reduction after the
/// ninth (every key size has at least ten rounds). A macro, not a
/// function: LLVM does not inline the function form (its arrays then go
/// through memory at every step), as with `gcm_vaes`'s.
macro_rules! step {
    ($sched:expr, $ctr:expr, $g:expr, $hash:literal, $powers:expr, $s:expr) => {{
        let (sched, g, powers, s): (
            &Schedule,
            &[uint8x16_t; STEP],
            &[uint8x16_t; STEP],
            &mut uint8x16_t,
        ) = ($sched, $g, $powers, $s);
        let mut b: [uint8x16_t; STEP] = $ctr;
        // The blocks that do not depend on `s` first, the first (which
        // `s` joins) last: the chain from one step's `s` to the next is
        // then one product, one sum and the reduction.
        let mut w = Wide::zero();
        for (r, key) in sched.k[..STEP].iter().enumerate() {
            for x in b.iter_mut() {
                *x = vaesmcq_u8(vaeseq_u8(*x, *key));
            }
            if $hash {
                let j = (r + 1) % STEP;
                let x = if j == 0 { veorq_u8(g[0], *s) } else { g[j] };
                pmull::mul_add(&mut w, x, powers[j]);
            }
        }
        for x in b.iter_mut() {
            *x = vaesmcq_u8(vaeseq_u8(*x, sched.k[STEP]));
        }
        if $hash {
            *s = pmull::reduce(w);
        }
        sched.rounds_from(&mut b, STEP + 1);
        sched.finish(&mut b);
        b
    }};
}

/// `s` after absorbing the blocks `g` (in POLYVAL's field) times
/// `powers`, `s` joining the first, in one reduction.
#[target_feature(enable = "neon,aes")]
#[inline]
fn absorb_regs(s: uint8x16_t, g: &[uint8x16_t; STEP], powers: &[uint8x16_t; STEP]) -> uint8x16_t {
    let mut w = Wide::zero();
    for j in 1..STEP {
        pmull::mul_add(&mut w, g[j], powers[j]);
    }
    pmull::mul_add(&mut w, veorq_u8(g[0], s), powers[0]);
    pmull::reduce(w)
}

/// GHASH of `bytes` zero-padded into `s`, in POLYVAL's field.
#[target_feature(enable = "neon,aes")]
#[inline]
fn absorb_padded(powers: &[u128; 8], s: uint8x16_t, bytes: &[u8], rev: uint8x16_t) -> uint8x16_t {
    let mul_add = |w: &mut Wide, a, h| pmull::mul_add(w, a, h);
    let reduce = |w| pmull::reduce(w);
    let whole = bytes.len() / 128 * 128;
    let mut s = s;
    for group in bytes[..whole].chunks_exact(128) {
        s = neon::absorb(powers, s, group, rev, mul_add, reduce);
    }
    let rest = &bytes[whole..];
    let mut last = [0u8; 128];
    last[..rest.len()].copy_from_slice(rest);
    let s = neon::absorb(
        powers,
        s,
        &last[..rest.len().div_ceil(16) * 16],
        rev,
        mul_add,
        reduce,
    );
    crate::ct::wipe(&mut last);
    s
}

/// 8 blocks from 128 bytes.
#[target_feature(enable = "neon")]
#[inline]
fn load8(bytes: *const u8) -> [uint8x16_t; STEP] {
    // SAFETY: the callers pass 128 readable bytes.
    core::array::from_fn(|j| unsafe { vld1q_u8(bytes.add(16 * j)) })
}

/// Stores 8 blocks to 128 bytes.
#[target_feature(enable = "neon")]
#[inline]
fn store8(bytes: *mut u8, v: &[uint8x16_t; STEP]) {
    for (j, x) in v.iter().enumerate() {
        // SAFETY: the callers pass 128 writable bytes.
        unsafe { vst1q_u8(bytes.add(16 * j), *x) };
    }
}

/// `a ⊕ b` block by block.
#[target_feature(enable = "neon")]
#[inline]
fn xor8(a: &[uint8x16_t; STEP], b: &[uint8x16_t; STEP]) -> [uint8x16_t; STEP] {
    core::array::from_fn(|j| veorq_u8(a[j], b[j]))
}

/// Every block byte-reversed: GHASH's blocks in POLYVAL's field.
#[target_feature(enable = "neon")]
#[inline]
fn reverse8(v: &[uint8x16_t; STEP], rev: uint8x16_t) -> [uint8x16_t; STEP] {
    core::array::from_fn(|j| vqtbl1q_u8(v[j], rev))
}

/// GCM-AE (`open` false) or GCM-AD of `data`: the tag. Whole steps, then
/// the rest zero-padded.
///
/// # Safety
///
/// The CPU must run NEON, AES and PMULL.
#[target_feature(enable = "neon,aes")]
unsafe fn run(
    keys: &[[u8; 16]],
    last8: &[u128; 8],
    j0: &[u8; 16],
    aad: &[u8],
    data: InOut<'_>,
    open: bool,
) -> [u8; 16] {
    let rev = neon::byte_order(true);
    let mut sched = Schedule::new(keys);
    let powers: [uint8x16_t; STEP] = core::array::from_fn(|j| neon::load(&last8[j]));
    // SAFETY: `j0` is 16 bytes.
    let ek_j0 = sched.encrypt_one(unsafe { vld1q_u8(j0.as_ptr()) });
    let mut s = absorb_padded(last8, vdupq_n_u8(0), aad, rev);
    let mut counters = Counters::new(j0);

    let len = data.len();
    let (input, output, _) = data.into_raw();
    let at = |offset: usize| {
        // SAFETY: every caller's offset is at most the message's length
        // (`input`'s and `output`'s).
        unsafe { (input.add(offset), output.add(offset)) }
    };
    let mut done = 0;
    // Each loop with `open` and the hashing fixed, so that the steps
    // carry no branch on them; 128 bytes from `done` are within the
    // message at each step, read before they are written (in place, the
    // same bytes).
    if open {
        while len - done >= 128 {
            let (src, dst) = at(done);
            let x = load8(src);
            let ks = step!(
                &sched,
                counters.next(),
                &reverse8(&x, rev),
                true,
                &powers,
                &mut s
            );
            store8(dst, &xor8(&x, &ks));
            done += 128;
        }
    } else if len >= 128 {
        let (src, dst) = at(done);
        let ks = step!(&sched, counters.next(), &powers, false, &powers, &mut s);
        let out = xor8(&load8(src), &ks);
        store8(dst, &out);
        let mut pending = reverse8(&out, rev);
        done += 128;
        while len - done >= 128 {
            let (src, dst) = at(done);
            let ks = step!(&sched, counters.next(), &pending, true, &powers, &mut s);
            let out = xor8(&load8(src), &ks);
            store8(dst, &out);
            pending = reverse8(&out, rev);
            done += 128;
        }
        s = absorb_regs(s, &pending, &powers);
    }

    // The last partial step, zero-padded, then its blocks and the lengths
    // block hashed.
    let n = len - done;
    let (src, dst) = at(done);
    // SAFETY: the last `n < 128` bytes of the input.
    let mut tail = unsafe { Tail::new(src, n, open) };
    if n > 0 {
        let ks = step!(&sched, counters.next(), &powers, false, &powers, &mut s);
        let text = tail.text.as_mut_ptr();
        store8(text, &xor8(&load8(text), &ks));
    }
    // SAFETY: the last `n` bytes of the output.
    s = absorb_padded(last8, s, unsafe { tail.finish(dst, open, aad.len(), len) }, rev);
    drop(tail);

    // The round keys' copies on the stack are wiped (the vector
    // registers are not, as in the library's other kernels).
    for key in sched.k.iter_mut() {
        *key = vdupq_n_u8(0);
    }
    std::hint::black_box(&mut sched);

    // The tag: E(K, J0) ⊕ S, S back in GHASH's byte order.
    let mut out = [0u8; 16];
    // SAFETY: `out` is 16 bytes.
    unsafe { vst1q_u8(out.as_mut_ptr(), veorq_u8(vqtbl1q_u8(s, rev), ek_j0)) };
    out
}
