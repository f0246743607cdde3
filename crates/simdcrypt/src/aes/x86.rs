//! What the AES instruction rungs (`aesni`, `vaes`, `vaes512`) share,
//! written once over the register width: a register of 1, 2 or 4 blocks
//! ([`Lanes`]: xmm, ymm, zmm) with the round instructions on it, the round
//! keys broadcast into such registers, the rounds of FIPS 197 §5.1 and of
//! the equivalent inverse cipher (§5.3.5) on `W` registers at once
//! (interleaved: round `r` of every register before round `r + 1` of any,
//! so that `W` independent instructions cover the latency of one), the
//! 128-bit big-endian counter blocks of CTR (SP 800-38A §6.5, B.1) built in
//! registers, and the batch loops of ECB, CTR and CBC decryption.
//!
//! A rung calls the drivers ([`ecb`], [`ctr`], [`cbc_decrypt`]) with its
//! register type from a function compiled for its CPU features; each runs
//! batches of 8 registers, then at most one of 4, and returns what is left,
//! which the rung hands down to the next narrower one (`vaes512` to
//! `vaes`, `vaes` to `aesni`); on xmm the driver goes on to 2 and 1, and CTR
//! ends with the partial last block, so `aesni` leaves nothing.
//!
//! Everything here is `#[inline(always)]` and `unsafe`: it is compiled
//! inside the rung's `#[target_feature]` function, whose features the
//! caller of each function promises.

use core::arch::x86_64::{
    __m128i, __m256i, __m512i, _mm_add_epi64, _mm_aesdec_si128, _mm_aesdeclast_si128,
    _mm_aesenc_si128, _mm_aesenclast_si128, _mm_loadu_si128, _mm_set_epi64x, _mm_setr_epi8,
    _mm_shuffle_epi8, _mm_storeu_si128, _mm_xor_si128, _mm256_add_epi64, _mm256_aesdec_epi128,
    _mm256_aesdeclast_epi128, _mm256_aesenc_epi128, _mm256_aesenclast_epi128,
    _mm256_broadcastsi128_si256, _mm256_extracti128_si256, _mm256_loadu_si256,
    _mm256_permute2x128_si256, _mm256_set_epi64x, _mm256_shuffle_epi8, _mm256_storeu_si256,
    _mm256_xor_si256, _mm512_add_epi64, _mm512_aesdec_epi128, _mm512_aesdeclast_epi128,
    _mm512_aesenc_epi128, _mm512_aesenclast_epi128, _mm512_broadcast_i32x4,
    _mm512_extracti32x4_epi32, _mm512_loadu_si512, _mm512_set_epi64, _mm512_shuffle_epi8,
    _mm512_storeu_si512, _mm512_xor_si512,
};

use super::key_schedule::MAX_ROUNDS;
use super::{batches, with_rounds};
use crate::xor::InOut;

/// Round keys `0..=Nr` broadcast into registers (the rest unused).
pub(super) type RoundKeys<V> = [V; MAX_ROUNDS + 1];


/// A register of [`Lanes::BLOCKS`] AES blocks, one per 128-bit lane, and
/// the operations the rungs need on it, lane by lane.
///
/// # Safety
///
/// Every method needs the CPU features of its register: AES-NI and SSSE3
/// for `__m128i`; VAES and AVX2 for `__m256i`; VAES, AVX-512F and
/// AVX-512BW for `__m512i`. They are `#[inline(always)]`, so compiled into
/// a function that enables them.
pub(super) trait Lanes: Copy {
    /// Blocks per register.
    const BLOCKS: usize;
    /// Bytes per register.
    const BYTES: usize = 16 * Self::BLOCKS;

    /// `BYTES` bytes from `src`, unaligned.
    unsafe fn load(src: *const u8) -> Self;
    /// Writes `BYTES` bytes to `dst`, unaligned.
    unsafe fn store(self, dst: *mut u8);
    /// `block` in every lane.
    unsafe fn broadcast(block: __m128i) -> Self;
    /// The last lane.
    unsafe fn last(self) -> __m128i;
    /// `self ⊕ other`.
    unsafe fn xor(self, other: Self) -> Self;
    /// One round of the cipher: ShiftRows, SubBytes, MixColumns,
    /// AddRoundKey (`aesenc`).
    unsafe fn enc(self, key: Self) -> Self;
    /// The last round: no MixColumns (`aesenclast`).
    unsafe fn enc_last(self, key: Self) -> Self;
    /// One round of the equivalent inverse cipher (`aesdec`).
    unsafe fn dec(self, key: Self) -> Self;
    /// Its last round (`aesdeclast`).
    unsafe fn dec_last(self, key: Self) -> Self;
    /// The integers `first`, `first + 1`, … modulo 2^128 in the lanes, as
    /// the CPU stores integers (low 64 bits first, little-endian).
    unsafe fn counters(first: u128) -> Self;
    /// Adds `n` to the low 64 bits of every lane, without carry.
    unsafe fn add_low(self, n: u64) -> Self;
    /// Reverses the 16 bytes of each lane: integers to big-endian blocks.
    unsafe fn byte_swap(self) -> Self;
    /// The blocks one lane back: the last lane of `prev`, then the lanes of
    /// `self` but its last (CBC's preceding ciphertext blocks).
    unsafe fn shift_in(self, prev: Self) -> Self;
    /// `self`, unchanged, once `done` is: on zmm, both go through an
    /// empty `asm!` that LLVM must take as changing them, so that the
    /// shifts it computes from the result stay after the rounds that
    /// compute `done` (CBC decryption; bench/NOTES.md, cbc-shift-pin).
    /// Elsewhere `self`: on xmm `shift_in` is no instruction, and on ymm
    /// the barrier made the native build on Zen 5 2 % slower, not faster.
    /// No instruction.
    unsafe fn after(self, done: &mut Self) -> Self;
    /// The registers of a batch between two rounds, unchanged: on zmm, all
    /// of them through one empty `asm!` that LLVM must take as changing
    /// them, so that every register's round `r` comes before any
    /// register's round `r + 1`, as written. Left free with CTR's carried
    /// counters, LLVM ran each register's 14 AES-256 rounds one after the
    /// other, and 16 KiB took 554 ns instead of 452 (bench/NOTES.md,
    /// ctr-carried-counters). Elsewhere no barrier. No instruction.
    #[inline(always)]
    unsafe fn pin<const W: usize>(_x: &mut [Self; W]) {}
    /// Whether CTR carries its register of counter blocks from batch to
    /// batch ([`ctr_batches`]): on zmm, whose 32 registers hold it beside
    /// the round keys and a batch (built anew from the integer each
    /// batch, the loop ran at 0.92× in the `-C target-cpu=native` build
    /// on Zen 5); not with 16 registers, where the round keys were spilled
    /// for it.
    const CARRY_COUNTERS: bool = false;
}

/// The `pshufb` control that reverses the 16 bytes of a lane.
#[inline(always)]
fn reverse_bytes() -> __m128i {
    // SAFETY: SSE2 is part of x86-64.
    unsafe { _mm_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0) }
}

/// The high and low 64 bits of `x`, as the `set` intrinsics take them.
#[inline(always)]
fn halves(x: u128) -> (i64, i64) {
    ((x >> 64) as i64, x as i64)
}

impl Lanes for __m128i {
    #[inline(always)]
    unsafe fn after(self, _done: &mut Self) -> Self {
        self
    }

    const BLOCKS: usize = 1;

    #[inline(always)]
    unsafe fn load(src: *const u8) -> Self {
        // SAFETY: the caller promises 16 readable bytes.
        unsafe { _mm_loadu_si128(src.cast()) }
    }
    #[inline(always)]
    unsafe fn store(self, dst: *mut u8) {
        // SAFETY: the caller promises 16 writable bytes.
        unsafe { _mm_storeu_si128(dst.cast(), self) }
    }
    #[inline(always)]
    unsafe fn broadcast(block: __m128i) -> Self {
        block
    }
    #[inline(always)]
    unsafe fn last(self) -> __m128i {
        self
    }
    #[inline(always)]
    unsafe fn xor(self, other: Self) -> Self {
        // SAFETY: SSE2 is part of x86-64.
        unsafe { _mm_xor_si128(self, other) }
    }
    #[inline(always)]
    unsafe fn enc(self, key: Self) -> Self {
        // SAFETY: the caller promises AES-NI.
        unsafe { _mm_aesenc_si128(self, key) }
    }
    #[inline(always)]
    unsafe fn enc_last(self, key: Self) -> Self {
        // SAFETY: the caller promises AES-NI.
        unsafe { _mm_aesenclast_si128(self, key) }
    }
    #[inline(always)]
    unsafe fn dec(self, key: Self) -> Self {
        // SAFETY: the caller promises AES-NI.
        unsafe { _mm_aesdec_si128(self, key) }
    }
    #[inline(always)]
    unsafe fn dec_last(self, key: Self) -> Self {
        // SAFETY: the caller promises AES-NI.
        unsafe { _mm_aesdeclast_si128(self, key) }
    }
    #[inline(always)]
    unsafe fn counters(first: u128) -> Self {
        let (hi, lo) = halves(first);
        // SAFETY: SSE2 is part of x86-64.
        unsafe { _mm_set_epi64x(hi, lo) }
    }
    #[inline(always)]
    unsafe fn add_low(self, n: u64) -> Self {
        // SAFETY: SSE2 is part of x86-64.
        unsafe { _mm_add_epi64(self, _mm_set_epi64x(0, n as i64)) }
    }
    #[inline(always)]
    unsafe fn byte_swap(self) -> Self {
        // SAFETY: the caller promises SSSE3.
        unsafe { _mm_shuffle_epi8(self, reverse_bytes()) }
    }
    #[inline(always)]
    unsafe fn shift_in(self, prev: Self) -> Self {
        prev
    }
}

impl Lanes for __m256i {
    #[inline(always)]
    unsafe fn after(self, _done: &mut Self) -> Self {
        self
    }

    const BLOCKS: usize = 2;

    #[inline(always)]
    unsafe fn load(src: *const u8) -> Self {
        // SAFETY: the caller promises AVX and 32 readable bytes.
        unsafe { _mm256_loadu_si256(src.cast()) }
    }
    #[inline(always)]
    unsafe fn store(self, dst: *mut u8) {
        // SAFETY: the caller promises AVX and 32 writable bytes.
        unsafe { _mm256_storeu_si256(dst.cast(), self) }
    }
    #[inline(always)]
    unsafe fn broadcast(block: __m128i) -> Self {
        // SAFETY: the caller promises AVX2.
        unsafe { _mm256_broadcastsi128_si256(block) }
    }
    #[inline(always)]
    unsafe fn last(self) -> __m128i {
        // SAFETY: the caller promises AVX2.
        unsafe { _mm256_extracti128_si256::<1>(self) }
    }
    #[inline(always)]
    unsafe fn xor(self, other: Self) -> Self {
        // SAFETY: the caller promises AVX2.
        unsafe { _mm256_xor_si256(self, other) }
    }
    #[inline(always)]
    unsafe fn enc(self, key: Self) -> Self {
        // SAFETY: the caller promises VAES.
        unsafe { _mm256_aesenc_epi128(self, key) }
    }
    #[inline(always)]
    unsafe fn enc_last(self, key: Self) -> Self {
        // SAFETY: the caller promises VAES.
        unsafe { _mm256_aesenclast_epi128(self, key) }
    }
    #[inline(always)]
    unsafe fn dec(self, key: Self) -> Self {
        // SAFETY: the caller promises VAES.
        unsafe { _mm256_aesdec_epi128(self, key) }
    }
    #[inline(always)]
    unsafe fn dec_last(self, key: Self) -> Self {
        // SAFETY: the caller promises VAES.
        unsafe { _mm256_aesdeclast_epi128(self, key) }
    }
    #[inline(always)]
    unsafe fn counters(first: u128) -> Self {
        let (h0, l0) = halves(first);
        let (h1, l1) = halves(first.wrapping_add(1));
        // SAFETY: the caller promises AVX.
        unsafe { _mm256_set_epi64x(h1, l1, h0, l0) }
    }
    #[inline(always)]
    unsafe fn add_low(self, n: u64) -> Self {
        let n = n as i64;
        // SAFETY: the caller promises AVX2.
        unsafe { _mm256_add_epi64(self, _mm256_set_epi64x(0, n, 0, n)) }
    }
    #[inline(always)]
    unsafe fn byte_swap(self) -> Self {
        // SAFETY: the caller promises AVX2.
        unsafe { _mm256_shuffle_epi8(self, Self::broadcast(reverse_bytes())) }
    }
    #[inline(always)]
    unsafe fn shift_in(self, prev: Self) -> Self {
        // SAFETY: the caller promises AVX2. Lane 0 ← prev's lane 1, lane 1 ← self's lane 0.
        unsafe { _mm256_permute2x128_si256::<0x21>(prev, self) }
    }
}

impl Lanes for __m512i {
    #[target_feature(enable = "avx512f")]
    #[inline]
    unsafe fn after(self, done: &mut Self) -> Self {
        let mut v = self;
        // SAFETY: the template is a comment: no instruction runs, no
        // register changes.
        unsafe {
            core::arch::asm!(
                "/* {} {} */",
                inout(zmm_reg) v,
                inout(zmm_reg) *done,
                options(pure, nomem, nostack, preserves_flags),
            );
        }
        v
    }

    #[target_feature(enable = "avx512f")]
    #[inline]
    unsafe fn pin<const W: usize>(x: &mut [Self; W]) {
        // SAFETY: the templates are comments: no instruction runs, no
        // register changes.
        unsafe {
            match x.as_mut_slice() {
                [a, b, c, d, e, f, g, h] => core::arch::asm!(
                    "/* {} {} {} {} {} {} {} {} */",
                    inout(zmm_reg) *a,
                    inout(zmm_reg) *b,
                    inout(zmm_reg) *c,
                    inout(zmm_reg) *d,
                    inout(zmm_reg) *e,
                    inout(zmm_reg) *f,
                    inout(zmm_reg) *g,
                    inout(zmm_reg) *h,
                    options(pure, nomem, nostack, preserves_flags),
                ),
                [a, b, c, d] => core::arch::asm!(
                    "/* {} {} {} {} */",
                    inout(zmm_reg) *a,
                    inout(zmm_reg) *b,
                    inout(zmm_reg) *c,
                    inout(zmm_reg) *d,
                    options(pure, nomem, nostack, preserves_flags),
                ),
                _ => {}
            }
        }
    }

    const BLOCKS: usize = 4;
    const CARRY_COUNTERS: bool = true;

    #[inline(always)]
    unsafe fn load(src: *const u8) -> Self {
        // SAFETY: the caller promises AVX-512F and 64 readable bytes.
        unsafe { _mm512_loadu_si512(src.cast()) }
    }
    #[inline(always)]
    unsafe fn store(self, dst: *mut u8) {
        // SAFETY: the caller promises AVX-512F and 64 writable bytes.
        unsafe { _mm512_storeu_si512(dst.cast(), self) }
    }
    #[inline(always)]
    unsafe fn broadcast(block: __m128i) -> Self {
        // SAFETY: the caller promises AVX-512F.
        unsafe { _mm512_broadcast_i32x4(block) }
    }
    #[inline(always)]
    unsafe fn last(self) -> __m128i {
        // SAFETY: the caller promises AVX-512F.
        unsafe { _mm512_extracti32x4_epi32::<3>(self) }
    }
    #[inline(always)]
    unsafe fn xor(self, other: Self) -> Self {
        // SAFETY: the caller promises AVX-512F.
        unsafe { _mm512_xor_si512(self, other) }
    }
    #[inline(always)]
    unsafe fn enc(self, key: Self) -> Self {
        // SAFETY: the caller promises VAES and AVX-512F.
        unsafe { _mm512_aesenc_epi128(self, key) }
    }
    #[inline(always)]
    unsafe fn enc_last(self, key: Self) -> Self {
        // SAFETY: the caller promises VAES and AVX-512F.
        unsafe { _mm512_aesenclast_epi128(self, key) }
    }
    #[inline(always)]
    unsafe fn dec(self, key: Self) -> Self {
        // SAFETY: the caller promises VAES and AVX-512F.
        unsafe { _mm512_aesdec_epi128(self, key) }
    }
    #[inline(always)]
    unsafe fn dec_last(self, key: Self) -> Self {
        // SAFETY: the caller promises VAES and AVX-512F.
        unsafe { _mm512_aesdeclast_epi128(self, key) }
    }
    #[inline(always)]
    unsafe fn counters(first: u128) -> Self {
        let [(h0, l0), (h1, l1), (h2, l2), (h3, l3)] =
            [0, 1, 2, 3].map(|i| halves(first.wrapping_add(i)));
        // SAFETY: the caller promises AVX-512F.
        unsafe { _mm512_set_epi64(h3, l3, h2, l2, h1, l1, h0, l0) }
    }
    #[inline(always)]
    unsafe fn add_low(self, n: u64) -> Self {
        let n = n as i64;
        // SAFETY: the caller promises AVX-512F.
        unsafe { _mm512_add_epi64(self, _mm512_set_epi64(0, n, 0, n, 0, n, 0, n)) }
    }
    #[inline(always)]
    unsafe fn byte_swap(self) -> Self {
        // SAFETY: the caller promises AVX-512BW (and AVX-512F for the
        // broadcast).
        unsafe { _mm512_shuffle_epi8(self, Self::broadcast(reverse_bytes())) }
    }
    #[target_feature(enable = "avx512f")]
    #[inline]
    unsafe fn shift_in(self, prev: Self) -> Self {
        let shifted;
        // SAFETY: AVX-512F is enabled. The 64-bit words 6 and 7 of
        // `prev`, then words 0–5 of `self`: `valignq` written out, which
        // LLVM otherwise turns into `vpermt2pd` and copies once the
        // operands have been through `after`.
        unsafe {
            core::arch::asm!(
                "valignq {d}, {a}, {b}, 6",
                d = lateout(zmm_reg) shifted,
                a = in(zmm_reg) self,
                b = in(zmm_reg) prev,
                options(pure, nomem, nostack, preserves_flags),
            );
        }
        shifted
    }
}

/// The 16 bytes of `block` in a register.
#[inline(always)]
pub(super) fn load_block(block: &[u8; 16]) -> __m128i {
    // SAFETY: `block` is 16 readable bytes; SSE2 is part of x86-64.
    unsafe { _mm_loadu_si128(block.as_ptr().cast()) }
}

/// Writes a register to `block`.
#[inline(always)]
pub(super) fn store_block(block: &mut [u8; 16], x: __m128i) {
    // SAFETY: `block` is 16 writable bytes; SSE2 is part of x86-64.
    unsafe { _mm_storeu_si128(block.as_mut_ptr().cast(), x) }
}

/// Round keys `0..=NR` of `keys` broadcast into registers.
///
/// # Safety
///
/// The CPU features of `V`; `keys` has `NR + 1` keys.
#[inline(always)]
pub(super) unsafe fn round_keys<V: Lanes, const NR: usize>(keys: &[[u8; 16]]) -> RoundKeys<V> {
    let keys = &keys[..=NR];
    // SAFETY: the caller promises `V`'s features.
    core::array::from_fn(|i| unsafe { V::broadcast(load_block(&keys[i.min(NR)])) })
}

/// The cipher (FIPS 197 §5.1) on `W` registers, interleaved: AddRoundKey
/// with key 0, `NR - 1` full rounds, the last round.
///
/// # Safety
///
/// The CPU features of `V`.
#[inline(always)]
pub(super) unsafe fn encrypt_lanes<V: Lanes, const NR: usize, const W: usize>(
    k: &RoundKeys<V>,
    x: &mut [V; W],
) {
    // SAFETY: the caller promises `V`'s features.
    unsafe {
        x.iter_mut().for_each(|x| *x = x.xor(k[0]));
        V::pin(x);
        for key in &k[1..NR] {
            x.iter_mut().for_each(|x| *x = x.enc(*key));
            V::pin(x);
        }
        x.iter_mut().for_each(|x| *x = x.enc_last(k[NR]));
    }
}

/// The equivalent inverse cipher (FIPS 197 §5.3.5) on `W` registers,
/// interleaved; `k` holds the decryption keys ([`super::Keys::dec`]).
///
/// # Safety
///
/// The CPU features of `V`.
#[inline(always)]
pub(super) unsafe fn decrypt_lanes<V: Lanes, const NR: usize, const W: usize>(
    k: &RoundKeys<V>,
    x: &mut [V; W],
) {
    // SAFETY: the caller promises `V`'s features.
    unsafe {
        x.iter_mut().for_each(|x| *x = x.xor(k[0]));
        for key in &k[1..NR] {
            x.iter_mut().for_each(|x| *x = x.dec(*key));
        }
        x.iter_mut().for_each(|x| *x = x.dec_last(k[NR]));
    }
}


/// ECB of whole blocks, batches of `W` registers: the cipher, or with
/// `DEC` the inverse cipher; returns the rest.
///
/// # Safety
///
/// The CPU features of `V`.
#[inline(always)]
unsafe fn ecb_batches<'a, V: Lanes, const NR: usize, const W: usize, const DEC: bool>(
    k: &RoundKeys<V>,
    data: InOut<'a>,
) -> InOut<'a> {
    batches!(data, W * V::BYTES, |src, dst| {
        // SAFETY: a batch is `W * V::BYTES` bytes readable at `src` and
        // writable at `dst` (`InOut::into_raw`), each register read before
        // it is written; the caller promises `V`'s features.
        unsafe {
            let mut x: [V; W] = core::array::from_fn(|i| V::load(src.add(i * V::BYTES)));
            if DEC {
                decrypt_lanes::<V, NR, W>(k, &mut x);
            } else {
                encrypt_lanes::<V, NR, W>(k, &mut x);
            }
            for (i, x) in x.iter().enumerate() {
                x.store(dst.add(i * V::BYTES));
            }
        }
    })
}

/// ECB encryption (or with `DEC` decryption) of the whole blocks of
/// `data`: batches of 8 registers, then at most one of 4; on xmm then 2
/// and 1, so nothing is left. Returns the rest (fewer than 4 registers'
/// worth), for a narrower rung.
///
/// # Safety
///
/// The CPU features of `V`.
#[inline(always)]
pub(super) unsafe fn ecb<'a, V: Lanes, const DEC: bool>(
    keys: &super::Keys,
    data: InOut<'a>,
) -> InOut<'a> {
    let schedule = if DEC { keys.dec() } else { keys.enc() };
    // SAFETY: the caller promises `V`'s features; `schedule` has
    // `rounds() + 1` keys.
    unsafe {
        with_rounds!(keys.rounds(), |NR| {
            let k = round_keys::<V, NR>(schedule);
            let rest = ecb_batches::<V, NR, 8, DEC>(&k, data);
            let rest = ecb_batches::<V, NR, 4, DEC>(&k, rest);
            if V::BLOCKS == 1 {
                let rest = ecb_batches::<V, NR, 2, DEC>(&k, rest);
                ecb_batches::<V, NR, 1, DEC>(&k, rest)
            } else {
                rest
            }
        })
    }
}

/// CTR keystream for batches of `W` registers, XORed from the input into
/// the output: counter blocks `*counter`, `*counter + 1`, … (modulo
/// 2^128), big-endian; steps `*counter` past them and returns the rest.
///
/// The counter blocks are built in registers: from one register of
/// consecutive integers, adding to the low 64 bits, when no carry out of
/// them can happen within the batch; otherwise each register's integers
/// are computed in full, carry and wrap included. On zmm, when no carry
/// can happen in the whole run, that register is carried from batch to
/// batch instead ([`Lanes::CARRY_COUNTERS`]).
///
/// # Safety
///
/// The CPU features of `V`.
#[inline(always)]
unsafe fn ctr_batches<'a, V: Lanes, const NR: usize, const W: usize>(
    k: &RoundKeys<V>,
    counter: &mut u128,
    data: InOut<'a>,
) -> InOut<'a> {
    let blocks = (W * V::BLOCKS) as u64;
    let step = W * V::BYTES;
    let run = (data.len() / step) as u64 * blocks;
    if V::CARRY_COUNTERS && run > 0 && (*counter as u64).checked_add(run).is_some() {
        // No carry out of the low 64 bits in the whole run: one register
        // of counters carried from batch to batch, the batches offsets
        // from two pointers.
        let (src, dst, len) = data.into_raw();
        let whole = len - len % step;
        // SAFETY: each batch is `step` bytes at offset `at < whole ≤ len`
        // of the parts `into_raw` gave, readable at `src` and writable at
        // `dst` (every register read before it is written); the rest is
        // their last `len - whole` bytes, unused otherwise. The caller
        // promises `V`'s features.
        unsafe {
            let mut base = V::counters(*counter);
            let mut at = 0;
            while at < whole {
                let x = core::array::from_fn(|i| base.add_low((i * V::BLOCKS) as u64).byte_swap());
                xor_keystream::<V, NR, W>(k, x, src.add(at), dst.add(at));
                base = base.add_low(blocks);
                at += step;
            }
            *counter = counter.wrapping_add(u128::from(run));
            return InOut::from_raw(src.add(whole), dst.add(whole), len - whole);
        }
    }
    batches!(data, step, |src, dst| {
        let first = *counter;
        // SAFETY: as in `ecb_batches`; the caller promises `V`'s
        // features.
        unsafe {
            let x = if first as u64 <= u64::MAX - (blocks - 1) {
                let base = V::counters(first);
                core::array::from_fn(|i| base.add_low((i * V::BLOCKS) as u64).byte_swap())
            } else {
                core::array::from_fn(|i| {
                    V::counters(first.wrapping_add((i * V::BLOCKS) as u128)).byte_swap()
                })
            };
            xor_keystream::<V, NR, W>(k, x, src, dst);
        }
        *counter = first.wrapping_add(u128::from(blocks));
    })
}

/// The counter blocks `x` encrypted, XORed from the `W` registers' worth
/// of bytes at `src` into `dst` (each register read before it is
/// written).
///
/// # Safety
///
/// The CPU features of `V`; `W * V::BYTES` bytes readable at `src` and
/// writable at `dst`, the same address or apart.
#[inline(always)]
unsafe fn xor_keystream<V: Lanes, const NR: usize, const W: usize>(
    k: &RoundKeys<V>,
    mut x: [V; W],
    src: *const u8,
    dst: *mut u8,
) {
    // SAFETY: as the caller promises.
    unsafe {
        encrypt_lanes::<V, NR, W>(k, &mut x);
        for (i, x) in x.iter().enumerate() {
            let at = i * V::BYTES;
            V::load(src.add(at)).xor(*x).store(dst.add(at));
        }
    }
}

/// CTR (SP 800-38A §6.5) from counter block `*counter` (the block read as
/// a big-endian integer): batches of 8 registers, then at most one of 4;
/// on xmm then 2, 1 and the partial last block, so nothing is left.
/// Steps `*counter` past the blocks used; returns the rest for a narrower
/// rung.
///
/// # Safety
///
/// The CPU features of `V`.
#[inline(always)]
pub(super) unsafe fn ctr<'a, V: Lanes>(
    keys: &super::Keys,
    counter: &mut u128,
    data: InOut<'a>,
) -> InOut<'a> {
    // SAFETY: the caller promises `V`'s features; `enc()` has
    // `rounds() + 1` keys.
    unsafe {
        with_rounds!(keys.rounds(), |NR| {
            let k = round_keys::<V, NR>(keys.enc());
            let rest = ctr_batches::<V, NR, 8>(&k, counter, data);
            let rest = ctr_batches::<V, NR, 4>(&k, counter, rest);
            if V::BLOCKS == 1 {
                let rest = ctr_batches::<V, NR, 2>(&k, counter, rest);
                let rest = ctr_batches::<V, NR, 1>(&k, counter, rest);
                if !rest.is_empty() {
                    // The partial last block, through a block on the stack.
                    let mut block = [0u8; 16];
                    let len = rest.len();
                    block[..len].copy_from_slice(rest.input());
                    ctr_batches::<V, NR, 1>(&k, counter, InOut::in_place(&mut block));
                    rest.into_output().copy_from_slice(&block[..len]);
                    crate::ct::wipe(&mut block);
                }
                InOut::in_place(&mut [])
            } else {
                rest
            }
        })
    }
}

/// CBC decryption (SP 800-38A §6.2) of batches of `W` registers: every
/// ciphertext block of the batch is loaded, the batch decrypted, and each
/// block XORed with the ciphertext block before it (the last lane of
/// `*chain` for the first), so in place works; `*chain` ends holding the
/// batch's last ciphertext block in its last lane.
///
/// # Safety
///
/// The CPU features of `V`.
#[inline(always)]
unsafe fn cbc_decrypt_batches<'a, V: Lanes, const NR: usize, const W: usize>(
    k: &RoundKeys<V>,
    chain: &mut V,
    data: InOut<'a>,
) -> InOut<'a> {
    batches!(data, W * V::BYTES, |src, dst| {
        // SAFETY: as in `ecb_batches` (every register of the batch is read
        // before any is written); the caller promises `V`'s features.
        unsafe {
            let c: [V; W] = core::array::from_fn(|i| V::load(src.add(i * V::BYTES)));
            let mut x = c;
            decrypt_lanes::<V, NR, W>(k, &mut x);
            // The preceding ciphertext blocks' shifts after the rounds:
            // LLVM's znver5 model (`-C target-cpu=native` on Zen 5) put
            // them first, on the pipes VAES issues from, and 16 KiB took
            // 1.12× the time (bench/NOTES.md, cbc-shift-pin).
            let c: [V; W] = core::array::from_fn(|i| c[i].after(&mut x[i]));
            let mut prev = *chain;
            for (i, (x, c)) in x.iter().zip(&c).enumerate() {
                x.xor(c.shift_in(prev)).store(dst.add(i * V::BYTES));
                prev = *c;
            }
            *chain = prev;
        }
    })
}

/// CBC decryption of the whole blocks of `data`, `chain` the ciphertext
/// block before them (the IV at first), left holding the last one decrypted:
/// batches of 8 registers, then at most one of 4; on xmm then 2 and 1.
/// Returns the rest, for a narrower rung.
///
/// # Safety
///
/// The CPU features of `V`.
#[inline(always)]
pub(super) unsafe fn cbc_decrypt<'a, V: Lanes>(
    keys: &super::Keys,
    chain: &mut [u8; 16],
    data: InOut<'a>,
) -> InOut<'a> {
    // SAFETY: the caller promises `V`'s features; `dec()` has
    // `rounds() + 1` keys.
    unsafe {
        let mut c = V::broadcast(load_block(chain));
        let rest = with_rounds!(keys.rounds(), |NR| {
            let k = round_keys::<V, NR>(keys.dec());
            let rest = cbc_decrypt_batches::<V, NR, 8>(&k, &mut c, data);
            let rest = cbc_decrypt_batches::<V, NR, 4>(&k, &mut c, rest);
            if V::BLOCKS == 1 {
                let rest = cbc_decrypt_batches::<V, NR, 2>(&k, &mut c, rest);
                cbc_decrypt_batches::<V, NR, 1>(&k, &mut c, rest)
            } else {
                rest
            }
        });
        store_block(chain, c.last());
        rest
    }
}

/// The parallel forms of a VAES rung (`encrypt`, `decrypt`, `ctr`,
/// `cbc_decrypt`) on the register type `$lanes`, compiled for `$features`:
/// each runs its driver above (batches of 8 registers, then at most one of
/// 4) and hands what is left down to the same function of the narrower
/// rung's module `$narrower`, which ends the job. The single-block forms
/// and CBC encryption are `aesni`'s.
macro_rules! wide_rung {
    ($features:literal, $lanes:ty, hands down to $narrower:ident) => {
        use $crate::aes::key_schedule::Keys;
        use $crate::aes::x86;
        use $crate::xor::InOut;

        /// Encrypts whole blocks (ECB).
        ///
        /// # Safety
        ///
        /// As [`InOut::from_raw`].
        #[target_feature(enable = $features)]
        pub(in crate::aes) unsafe fn encrypt(keys: &Keys, src: *const u8, dst: *mut u8, len: usize) {
            // SAFETY: the caller passes `into_raw`'s parts; this function
            // is compiled for the register's features.
            let rest = unsafe { x86::ecb::<$lanes, false>(keys, InOut::from_raw(src, dst, len)) };
            let (src, dst, len) = rest.into_raw();
            // SAFETY: the rest's parts; the narrower rung needs a subset
            // of these features.
            unsafe { super::$narrower::encrypt(keys, src, dst, len) };
        }

        /// Decrypts whole blocks (ECB).
        ///
        /// # Safety
        ///
        /// As [`InOut::from_raw`].
        #[target_feature(enable = $features)]
        pub(in crate::aes) unsafe fn decrypt(keys: &Keys, src: *const u8, dst: *mut u8, len: usize) {
            // SAFETY: as in `encrypt`.
            let rest = unsafe { x86::ecb::<$lanes, true>(keys, InOut::from_raw(src, dst, len)) };
            let (src, dst, len) = rest.into_raw();
            // SAFETY: as in `encrypt`.
            unsafe { super::$narrower::decrypt(keys, src, dst, len) };
        }

        /// CTR from the counter block `counter` (a big-endian integer),
        /// wrapping modulo 2^128; the data may end inside a block.
        ///
        /// # Safety
        ///
        /// As [`InOut::from_raw`].
        #[target_feature(enable = $features)]
        pub(in crate::aes) unsafe fn ctr(
            keys: &Keys,
            counter: u128,
            src: *const u8,
            dst: *mut u8,
            len: usize,
        ) {
            let mut counter = counter;
            // SAFETY: as in `encrypt`.
            let rest = unsafe { x86::ctr::<$lanes>(keys, &mut counter, InOut::from_raw(src, dst, len)) };
            let (src, dst, len) = rest.into_raw();
            // SAFETY: as in `encrypt`.
            unsafe { super::$narrower::ctr(keys, counter, src, dst, len) };
        }

        /// CBC decryption of whole blocks, `chain` the ciphertext block
        /// before them (the IV at first), left holding the last one.
        ///
        /// # Safety
        ///
        /// As [`InOut::from_raw`].
        #[target_feature(enable = $features)]
        pub(in crate::aes) unsafe fn cbc_decrypt(
            keys: &Keys,
            chain: &mut [u8; 16],
            src: *const u8,
            dst: *mut u8,
            len: usize,
        ) {
            // SAFETY: as in `encrypt`.
            let rest = unsafe { x86::cbc_decrypt::<$lanes>(keys, chain, InOut::from_raw(src, dst, len)) };
            let (src, dst, len) = rest.into_raw();
            // SAFETY: as in `encrypt`.
            unsafe { super::$narrower::cbc_decrypt(keys, chain, src, dst, len) };
        }
    };
}
pub(super) use wide_rung;
