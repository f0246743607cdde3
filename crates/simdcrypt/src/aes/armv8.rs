//! The ARMv8 Cryptographic Extension's AES instructions (FEAT_AES) on NEON
//! registers, one block per instruction. The instructions split a round
//! of FIPS 197 §5.1 differently from AES-NI: `AESE` is AddRoundKey,
//! SubBytes and ShiftRows, `AESMC` is MixColumns; so the cipher is
//! `AESMC(AESE(·, w[r]))` for rounds `r = 0 … Nr − 2`, then
//! `AESE(·, w[Nr−1]) ⊕ w[Nr]` (the last round has no MixColumns, and its
//! key comes as an XOR). `AESD` and `AESIMC` do the same for the
//! equivalent inverse cipher (§5.3.5), on [`Keys::dec`]'s round keys.
//!
//! - ECB, CTR and CBC decryption (and CFB decryption, which the mode
//!   layer runs as ECB over the ciphertext): 8 blocks in flight, round `r`
//!   of all before round `r + 1` of any, so that independent instructions
//!   cover each one's latency (and the `AESE`/`AESMC` pairs stay adjacent,
//!   which cores fuse); then at most one batch each of 4, 2 and 1 blocks,
//!   and CTR's partial last block. The round keys stay in registers across
//!   the batches: aarch64's 32 NEON registers hold AES-256's 15 keys beside
//!   a batch.
//! - One block at a time (the chained modes' path), and CBC encryption
//!   with the next plaintext folded into `AESE`'s key operand, so that the
//!   chain from one ciphertext block to the next is the round instructions
//!   alone.
//! - The key expansion (§5.2) word by word, SubWord by `AESE` with a zero
//!   round key on the word in all four columns (where ShiftRows moves
//!   nothing), then `AESIMC` (InvMixColumns) for the equivalent inverse
//!   cipher's keys.
//!
//! CTR's counter blocks are built in registers: when no carry leaves the
//! low 64 bits within a batch, a vector add of the block's index to the
//! low half and `REV64` for big-endian; otherwise each block's 128-bit
//! integer in full, carry and wrap included. A batch's blocks stay in
//! registers from counter (or load) to store, the input XORed in as it
//! is loaded. Every instruction here takes the same time whatever the
//! data: constant-time.

use core::arch::aarch64::{
    uint8x16_t, vaddq_u64, vaesdq_u8, vaeseq_u8, vaesimcq_u8, vaesmcq_u8, vcombine_u64,
    vcreate_u64, vdupq_n_u8, vdupq_n_u32, veorq_u8, vgetq_lane_u32, vld1q_u8, vreinterpretq_u8_p128,
    vreinterpretq_u8_u32, vreinterpretq_u8_u64, vreinterpretq_u32_u8, vrev64q_u8, vst1q_u8,
};

use super::key_schedule::{Keys, MAX_ROUNDS, RCON};
use super::{batches, with_rounds};
use crate::xor::InOut;

/// Blocks per batch.
pub(super) const PAR_BLOCKS: usize = 8;

/// Round keys `0..=Nr` in registers (the rest unused).
type RoundKeys = [uint8x16_t; MAX_ROUNDS + 1];

/// The 16 bytes of `block` in a register.
#[inline(always)]
fn load_block(block: &[u8; 16]) -> uint8x16_t {
    // SAFETY: `block` is 16 readable bytes; NEON is part of aarch64.
    unsafe { vld1q_u8(block.as_ptr()) }
}

/// Writes a register to `block`.
#[inline(always)]
fn store_block(block: &mut [u8; 16], x: uint8x16_t) {
    // SAFETY: `block` is 16 writable bytes; NEON is part of aarch64.
    unsafe { vst1q_u8(block.as_mut_ptr(), x) }
}

/// Round keys `0..=NR` of `schedule` in registers.
#[target_feature(enable = "aes")]
#[inline]
fn round_keys<const NR: usize>(schedule: &[[u8; 16]]) -> RoundKeys {
    let schedule = &schedule[..=NR];
    core::array::from_fn(|i| load_block(&schedule[i.min(NR)]))
}

/// Runs `$body` with `$r` = 0, 1, … up to `$n − 1` (`$n` at most 13, a
/// constant), written out: as a loop over the round keys, LLVM kept the
/// loop and loaded each key from the stack in every batch, where written
/// out all of them stay in registers.
macro_rules! rounds_to {
    ($n:expr, |$r:ident| $body:block) => {
        rounds_to!(@ $n, $r, $body, 0 1 2 3 4 5 6 7 8 9 10 11 12)
    };
    (@ $n:expr, $r:ident, $body:block, $($i:literal)*) => {
        $(
            if $i < $n {
                let $r: usize = $i;
                $body
            }
        )*
    };
}

/// The rounds on every block of the array `$x`, interleaved: `$nr − 1`
/// times `$round` then `$mix`, then the last `$round` and the last round
/// key. With AESE and AESMC and the encryption keys it is the cipher
/// (FIPS 197 §5.1); with AESD and AESIMC and the decryption keys
/// ([`Keys::dec`]), the equivalent inverse cipher (§5.3.5).
///
/// A macro, expanded in the caller's `#[target_feature(enable = "aes")]`
/// body: as a function it must be `#[inline(always)]` to keep a batch's
/// blocks and the round keys in registers (with `#[inline]`, LLVM kept it
/// out of line, stored the batch to the stack and reloaded the keys), and
/// an `#[inline(always)]` function without the target feature does not
/// get the intrinsics inlined (rustc 1.96's
/// `inline_always_mismatching_target_features`).
macro_rules! rounds {
    ($nr:expr, $k:expr, $x:expr, $round:ident, $mix:ident) => {{
        let k: &RoundKeys = $k;
        let x = $x;
        rounds_to!($nr - 1, |r| {
            for x in x.iter_mut() {
                *x = $mix($round(*x, k[r]));
            }
        });
        for x in x.iter_mut() {
            *x = veorq_u8($round(*x, k[$nr - 1]), k[$nr]);
        }
    }};
}

/// The cipher on the array `$x` with the encryption keys `$k`.
macro_rules! encrypt_blocks {
    ($nr:expr, $k:expr, $x:expr) => {
        rounds!($nr, $k, $x, vaeseq_u8, vaesmcq_u8)
    };
}

/// The equivalent inverse cipher on the array `$x` with the decryption
/// keys `$k`.
macro_rules! decrypt_blocks {
    ($nr:expr, $k:expr, $x:expr) => {
        rounds!($nr, $k, $x, vaesdq_u8, vaesimcq_u8)
    };
}

// The parallel forms take their data as `InOut::into_raw`'s three parts,
// in registers (`InOut::from_raw` says why); each is unsafe for that.

/// Encrypts whole blocks (ECB).
///
/// # Safety
///
/// As [`InOut::from_raw`].
#[target_feature(enable = "aes")]
pub(super) unsafe fn encrypt(keys: &Keys, src: *const u8, dst: *mut u8, len: usize) {
    // SAFETY: the caller passes `into_raw`'s parts.
    ecb::<false>(keys, unsafe { InOut::from_raw(src, dst, len) });
}

/// Decrypts whole blocks (ECB).
///
/// # Safety
///
/// As [`InOut::from_raw`].
#[target_feature(enable = "aes")]
pub(super) unsafe fn decrypt(keys: &Keys, src: *const u8, dst: *mut u8, len: usize) {
    // SAFETY: the caller passes `into_raw`'s parts.
    ecb::<true>(keys, unsafe { InOut::from_raw(src, dst, len) });
}

/// ECB encryption (or with `DEC` decryption) of the whole blocks of
/// `data`: batches of 8 blocks, then at most one each of 4, 2 and 1.
#[target_feature(enable = "aes")]
#[inline]
fn ecb<const DEC: bool>(keys: &Keys, data: InOut<'_>) {
    let schedule = if DEC { keys.dec() } else { keys.enc() };
    with_rounds!(keys.rounds(), |NR| {
        let k = round_keys::<NR>(schedule);
        let rest = ecb_batches::<NR, 8, DEC>(&k, data);
        let rest = ecb_batches::<NR, 4, DEC>(&k, rest);
        let rest = ecb_batches::<NR, 2, DEC>(&k, rest);
        let rest = ecb_batches::<NR, 1, DEC>(&k, rest);
        debug_assert!(rest.is_empty());
    });
}

/// ECB of batches of `W` blocks: the cipher, or with `DEC` the inverse
/// cipher; returns the rest.
#[target_feature(enable = "aes")]
#[inline]
fn ecb_batches<'a, const NR: usize, const W: usize, const DEC: bool>(
    k: &RoundKeys,
    data: InOut<'a>,
) -> InOut<'a> {
    batches!(data, 16 * W, |src, dst| {
        // SAFETY: a batch is `16 * W` bytes readable at `src` and writable
        // at `dst` (`InOut::into_raw`), every block read before any is
        // written; this function's target feature says the CPU has the
        // AES instructions.
        unsafe {
            let mut x: [uint8x16_t; W] = core::array::from_fn(|i| vld1q_u8(src.add(16 * i)));
            if DEC {
                decrypt_blocks!(NR, k, &mut x);
            } else {
                encrypt_blocks!(NR, k, &mut x);
            }
            for (i, x) in x.iter().enumerate() {
                vst1q_u8(dst.add(16 * i), *x);
            }
        }
    })
}

/// CTR from the counter block `counter` (a big-endian integer), wrapping
/// modulo 2^128; the data may end inside a block.
///
/// # Safety
///
/// As [`InOut::from_raw`].
#[target_feature(enable = "aes")]
pub(super) unsafe fn ctr(keys: &Keys, counter: u128, src: *const u8, dst: *mut u8, len: usize) {
    // SAFETY: the caller passes `into_raw`'s parts.
    let data = unsafe { InOut::from_raw(src, dst, len) };
    let mut counter = counter;
    with_rounds!(keys.rounds(), |NR| {
        let k = round_keys::<NR>(keys.enc());
        let rest = ctr_batches::<NR, 8>(&k, &mut counter, data);
        let rest = ctr_batches::<NR, 4>(&k, &mut counter, rest);
        let rest = ctr_batches::<NR, 2>(&k, &mut counter, rest);
        let rest = ctr_batches::<NR, 1>(&k, &mut counter, rest);
        if !rest.is_empty() {
            // The partial last block, through a block on the stack.
            let mut block = [0u8; 16];
            let len = rest.len();
            block[..len].copy_from_slice(rest.input());
            ctr_batches::<NR, 1>(&k, &mut counter, InOut::in_place(&mut block));
            rest.into_output().copy_from_slice(&block[..len]);
            crate::ct::wipe(&mut block);
        }
    });
}

/// The counter blocks `first`, `first + 1`, … `first + W − 1` (modulo
/// 2^128), big-endian, in registers: a vector add to the low half of
/// each and a byte reversal, when no carry leaves the low 64 bits; else
/// each integer in full.
#[target_feature(enable = "aes")]
#[inline]
fn counter_blocks<const W: usize>(first: u128) -> [uint8x16_t; W] {
    let low = first as u64;
    if low.checked_add(W as u64 - 1).is_some() {
        // The two halves as integers, high in lane 0: block `i` adds `i`
        // to lane 1, and `REV64` turns each half big-endian.
        let first = vcombine_u64(vcreate_u64((first >> 64) as u64), vcreate_u64(low));
        core::array::from_fn(|i| {
            let step = vcombine_u64(vcreate_u64(0), vcreate_u64(i as u64));
            vrev64q_u8(vreinterpretq_u8_u64(vaddq_u64(first, step)))
        })
    } else {
        core::array::from_fn(|i| {
            vreinterpretq_u8_p128(first.wrapping_add(i as u128).swap_bytes())
        })
    }
}

/// CTR keystream for batches of `W` blocks, XORed from the input into the
/// output: counter blocks `*counter`, `*counter + 1`, …; steps `*counter`
/// past them and returns the rest.
#[target_feature(enable = "aes")]
#[inline]
fn ctr_batches<'a, const NR: usize, const W: usize>(
    k: &RoundKeys,
    counter: &mut u128,
    data: InOut<'a>,
) -> InOut<'a> {
    batches!(data, 16 * W, |src, dst| {
        let mut x = counter_blocks::<W>(*counter);
        // SAFETY: as in `ecb_batches`; this function's target feature
        // says the CPU has the AES instructions.
        unsafe {
            encrypt_blocks!(NR, k, &mut x);
            for (i, x) in x.iter().enumerate() {
                let at = 16 * i;
                vst1q_u8(dst.add(at), veorq_u8(vld1q_u8(src.add(at)), *x));
            }
        }
        *counter = counter.wrapping_add(W as u128);
    })
}

/// CBC decryption of whole blocks, `chain` the ciphertext block before
/// them (the IV at first), left holding the last one.
///
/// # Safety
///
/// As [`InOut::from_raw`].
#[target_feature(enable = "aes")]
pub(super) unsafe fn cbc_decrypt(
    keys: &Keys,
    chain: &mut [u8; 16],
    src: *const u8,
    dst: *mut u8,
    len: usize,
) {
    // SAFETY: the caller passes `into_raw`'s parts.
    let data = unsafe { InOut::from_raw(src, dst, len) };
    let mut c = load_block(chain);
    with_rounds!(keys.rounds(), |NR| {
        let k = round_keys::<NR>(keys.dec());
        let rest = cbc_decrypt_batches::<NR, 8>(&k, &mut c, data);
        let rest = cbc_decrypt_batches::<NR, 4>(&k, &mut c, rest);
        let rest = cbc_decrypt_batches::<NR, 2>(&k, &mut c, rest);
        let rest = cbc_decrypt_batches::<NR, 1>(&k, &mut c, rest);
        debug_assert!(rest.is_empty());
    });
    store_block(chain, c);
}

/// CBC decryption (SP 800-38A §6.2) of batches of `W` blocks: every
/// ciphertext block of the batch is loaded, the batch decrypted, and each
/// block XORed with the ciphertext block before it (`*chain` for the
/// first), so in place works; `*chain` ends holding the batch's last
/// ciphertext block.
#[target_feature(enable = "aes")]
#[inline]
fn cbc_decrypt_batches<'a, const NR: usize, const W: usize>(
    k: &RoundKeys,
    chain: &mut uint8x16_t,
    data: InOut<'a>,
) -> InOut<'a> {
    batches!(data, 16 * W, |src, dst| {
        // SAFETY: as in `ecb_batches` (every block of the batch is read
        // before any is written; the AES instructions are there).
        unsafe {
            let c: [uint8x16_t; W] = core::array::from_fn(|i| vld1q_u8(src.add(16 * i)));
            let mut x = c;
            decrypt_blocks!(NR, k, &mut x);
            let mut prev = *chain;
            for (i, (x, c)) in x.iter().zip(&c).enumerate() {
                vst1q_u8(dst.add(16 * i), veorq_u8(*x, prev));
                prev = *c;
            }
            *chain = prev;
        }
    })
}

/// Encrypts one block.
#[target_feature(enable = "aes")]
pub(super) fn encrypt_block(keys: &Keys, block: &mut [u8; 16]) {
    one_block::<false>(keys, block);
}

/// Decrypts one block.
#[target_feature(enable = "aes")]
pub(super) fn decrypt_block(keys: &Keys, block: &mut [u8; 16]) {
    one_block::<true>(keys, block);
}

/// The cipher (or with `DEC` the inverse cipher) of one block.
#[target_feature(enable = "aes")]
#[inline]
fn one_block<const DEC: bool>(keys: &Keys, block: &mut [u8; 16]) {
    let schedule = if DEC { keys.dec() } else { keys.enc() };
    let mut x = [load_block(block)];
    with_rounds!(keys.rounds(), |NR| {
        let k = round_keys::<NR>(schedule);
        if DEC {
            decrypt_blocks!(NR, &k, &mut x);
        } else {
            encrypt_blocks!(NR, &k, &mut x);
        }
    });
    store_block(block, x[0]);
}

/// CBC encryption of whole blocks (SP 800-38A §6.2), `chain` the
/// previous ciphertext block (the IV at first), left holding the last one.
#[target_feature(enable = "aes")]
pub(super) fn cbc_encrypt(keys: &Keys, chain: &mut [u8; 16], data: InOut<'_>) {
    with_rounds!(keys.rounds(), |NR| cbc_encrypt_rounds::<NR>(
        keys, chain, data
    ))
}

/// [`cbc_encrypt`] with `NR` rounds.
///
/// Block `i + 1` enters the cipher as `C_i ⊕ P_{i+1}`, whose first step is
/// `AESE(C_i ⊕ P_{i+1}, w[0])`; `C_i` is `t_i ⊕ w[Nr]`, `t_i` the last
/// `AESE`'s output; and `AESE` begins by XORing its key operand: so block
/// `i + 1`'s first step is `AESE(t_i, P_{i+1} ⊕ w[0] ⊕ w[Nr])`, its key
/// computed off the chain, as is `C_i`. (Block 0 starts from
/// `t_{−1} = IV ⊕ w[Nr]`.) The chain is `Nr` `AESE` and `Nr − 1` `AESMC`
/// per block, the latency bound.
#[target_feature(enable = "aes")]
#[inline]
fn cbc_encrypt_rounds<const NR: usize>(keys: &Keys, chain: &mut [u8; 16], data: InOut<'_>) {
    let blocks = data.len() / 16;
    let k = round_keys::<NR>(keys.enc());
    let first_last = veorq_u8(k[0], k[NR]);
    let (src, dst, _) = data.into_raw();
    let mut t = veorq_u8(load_block(chain), k[NR]);
    for i in 0..blocks {
        // SAFETY: `src` is readable and `dst` writable for `16 * blocks`
        // bytes (`InOut::into_raw`); block `i` is read before it is
        // written, so in place works.
        unsafe {
            let whitened = veorq_u8(vld1q_u8(src.add(16 * i)), first_last);
            t = vaesmcq_u8(vaeseq_u8(t, whitened));
            rounds_to!(NR - 1, |r| {
                if r > 0 {
                    t = vaesmcq_u8(vaeseq_u8(t, k[r]));
                }
            });
            t = vaeseq_u8(t, k[NR - 1]);
            vst1q_u8(dst.add(16 * i), veorq_u8(t, k[NR]));
        }
    }
    store_block(chain, veorq_u8(t, k[NR]));
}

/// SubWord (FIPS 197 §5.2) of a word: `AESE` with a zero round key on the
/// word in all four columns, where ShiftRows moves nothing and SubBytes
/// is SubWord in each.
#[target_feature(enable = "aes")]
#[inline]
fn sub_word(word: u32) -> u32 {
    let columns = vreinterpretq_u8_u32(vdupq_n_u32(word));
    vgetq_lane_u32::<0>(vreinterpretq_u32_u8(vaeseq_u8(columns, vdupq_n_u8(0))))
}

/// The key schedule of `key` (16, 24 or 32 bytes), the same as
/// [`Keys::new`] computes: KeyExpansion (FIPS 197 §5.2) word by word with
/// `AESE` for SubWord, then `AESIMC` for the equivalent inverse cipher's
/// keys (§5.3.5).
#[target_feature(enable = "aes")]
pub(super) fn expand(key: &[u8]) -> Keys {
    // Nr = Nk + 6 (§5, Figure 4).
    let nk = key.len() / 4;
    let rounds = nk + 6;
    Keys::build(rounds, |enc, dec| {
        // The words w[i] in order, each little-endian in a `u32`, so that
        // RotWord is a rotation right by a byte and Rcon[i/Nk] an XOR
        // into the low byte.
        let w = enc.as_flattened_mut();
        w[..key.len()].copy_from_slice(key);
        for i in nk..4 * (rounds + 1) {
            let word = |j: usize| u32::from_le_bytes(w[4 * j..4 * j + 4].try_into().expect("a word"));
            let mut temp = word(i - 1);
            if i % nk == 0 {
                temp = sub_word(temp).rotate_right(8) ^ u32::from(RCON[i / nk - 1]);
            } else if nk > 6 && i % nk == 4 {
                temp = sub_word(temp);
            }
            let next = word(i - nk) ^ temp;
            w[4 * i..4 * i + 4].copy_from_slice(&next.to_le_bytes());
        }
        // The equivalent inverse cipher's keys: w[Nr], InvMixColumns of
        // w[Nr-1] … w[1], w[0].
        for (i, d) in dec.iter_mut().enumerate() {
            let w = load_block(&enc[rounds - i]);
            store_block(
                d,
                if i == 0 || i == rounds {
                    w
                } else {
                    vaesimcq_u8(w)
                },
            );
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expansion_is_the_software_schedule() {
        if !super::super::Rung::Armv8.is_available() {
            eprintln!("no AES instructions: skipped");
            return;
        }
        // SAFETY: the CPU has the AES instructions (checked above).
        super::super::key_schedule::assert_expansion_is_the_software_schedule(|key| unsafe {
            expand(key)
        });
    }
}
