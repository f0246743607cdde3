//! AES-NI with SSSE3: one block per instruction (`aesenc` is a whole round
//! of FIPS 197 §5.1 on an xmm register: ShiftRows, SubBytes, MixColumns,
//! AddRoundKey; `aesdec` one of the equivalent inverse cipher, §5.3.5).
//!
//! - ECB, CTR and CBC decryption: 8 blocks in flight (round `r` of all
//!   before round `r + 1` of any, which covers the instruction's latency),
//!   then at most one batch each of 4, 2 and 1 blocks, and CTR's partial
//!   last block; the kernels are the shared ones of `x86.rs`.
//! - One block at a time (the chained modes' path), and CBC encryption
//!   with the round keys held in registers across blocks and the next
//!   plaintext folded into the last round's key, so that the chain from
//!   one ciphertext block to the next is the `Nr` round instructions alone.
//! - The key expansion (§5.2) with `aesenclast` doing SubWord (on a
//!   register whose four columns are equal, ShiftRows changes nothing) and
//!   `pshufb` doing RotWord, then `aesimc` (InvMixColumns) for the
//!   equivalent inverse cipher's keys.

use core::arch::x86_64::{
    __m128i, _mm_aesenclast_si128, _mm_aesimc_si128, _mm_cvtsi64_si128, _mm_cvtsi128_si64,
    _mm_set1_epi32, _mm_setzero_si128, _mm_shuffle_epi8, _mm_shuffle_epi32, _mm_slli_si128,
    _mm_xor_si128,
};

use super::key_schedule::{Keys, RCON};
use super::with_rounds;
use super::x86::{self, Lanes, load_block, store_block};
use crate::xor::InOut;

/// Blocks per batch.
pub(super) const PAR_BLOCKS: usize = 8;

// The parallel forms take their data as `InOut::into_raw`'s three parts,
// in registers (`InOut::from_raw` says why); each is unsafe for that.

/// Encrypts whole blocks (ECB).
///
/// # Safety
///
/// As [`InOut::from_raw`].
#[target_feature(enable = "aes,ssse3")]
pub(super) unsafe fn encrypt(keys: &Keys, src: *const u8, dst: *mut u8, len: usize) {
    // SAFETY: the caller passes `into_raw`'s parts; this function has
    // AES-NI and SSSE3.
    let rest = unsafe { x86::ecb::<__m128i, false>(keys, InOut::from_raw(src, dst, len)) };
    debug_assert!(rest.is_empty());
}

/// Decrypts whole blocks (ECB).
///
/// # Safety
///
/// As [`InOut::from_raw`].
#[target_feature(enable = "aes,ssse3")]
pub(super) unsafe fn decrypt(keys: &Keys, src: *const u8, dst: *mut u8, len: usize) {
    // SAFETY: as in `encrypt`.
    let rest = unsafe { x86::ecb::<__m128i, true>(keys, InOut::from_raw(src, dst, len)) };
    debug_assert!(rest.is_empty());
}

/// CTR from the counter block `counter` (a big-endian integer), wrapping
/// modulo 2^128; the data may end inside a block.
///
/// # Safety
///
/// As [`InOut::from_raw`].
#[target_feature(enable = "aes,ssse3")]
pub(super) unsafe fn ctr(keys: &Keys, counter: u128, src: *const u8, dst: *mut u8, len: usize) {
    let mut counter = counter;
    // SAFETY: as in `encrypt`.
    let rest = unsafe { x86::ctr::<__m128i>(keys, &mut counter, InOut::from_raw(src, dst, len)) };
    debug_assert!(rest.is_empty());
}

/// CBC decryption of whole blocks, `chain` the ciphertext block before
/// them (the IV at first), left holding the last one.
///
/// # Safety
///
/// As [`InOut::from_raw`].
#[target_feature(enable = "aes,ssse3")]
pub(super) unsafe fn cbc_decrypt(
    keys: &Keys,
    chain: &mut [u8; 16],
    src: *const u8,
    dst: *mut u8,
    len: usize,
) {
    // SAFETY: as in `encrypt`.
    let rest = unsafe { x86::cbc_decrypt::<__m128i>(keys, chain, InOut::from_raw(src, dst, len)) };
    debug_assert!(rest.is_empty());
}

/// Encrypts one block.
#[target_feature(enable = "aes,ssse3")]
pub(super) fn encrypt_block(keys: &Keys, block: &mut [u8; 16]) {
    one_block::<false>(keys, block);
}

/// Decrypts one block.
#[target_feature(enable = "aes,ssse3")]
pub(super) fn decrypt_block(keys: &Keys, block: &mut [u8; 16]) {
    one_block::<true>(keys, block);
}

/// The cipher (or with `DEC` the inverse cipher) of one block.
#[target_feature(enable = "aes,ssse3")]
#[inline]
fn one_block<const DEC: bool>(keys: &Keys, block: &mut [u8; 16]) {
    let schedule = if DEC { keys.dec() } else { keys.enc() };
    let mut x = [load_block(block)];
    // SAFETY: this function has AES-NI and SSSE3; `schedule` has
    // `rounds() + 1` keys.
    unsafe {
        with_rounds!(keys.rounds(), |NR| {
            let k = x86::round_keys::<__m128i, NR>(schedule);
            if DEC {
                x86::decrypt_lanes::<__m128i, NR, 1>(&k, &mut x);
            } else {
                x86::encrypt_lanes::<__m128i, NR, 1>(&k, &mut x);
            }
        })
    };
    store_block(block, x[0]);
}

/// CBC encryption of whole blocks (SP 800-38A §6.2), `chain` the
/// previous ciphertext block (the IV at first), left holding the last one.
#[target_feature(enable = "aes,ssse3")]
pub(super) fn cbc_encrypt(keys: &Keys, chain: &mut [u8; 16], data: InOut<'_>) {
    with_rounds!(keys.rounds(), |NR| cbc_encrypt_rounds::<NR>(
        keys, chain, data
    ))
}

/// [`cbc_encrypt`] with `NR` rounds.
///
/// Block `i + 1` enters the cipher as `C_i ⊕ P_{i+1} ⊕ k_0`, and `C_i` is
/// the last round's output `SubBytes(ShiftRows(s)) ⊕ k_Nr`: so the last
/// round of block `i` takes the key `k_Nr ⊕ P_{i+1} ⊕ k_0` (computed off
/// the chain) and gives block `i + 1`'s state directly; `C_i` is that
/// state `⊕ P_{i+1} ⊕ k_0`, also off the chain. The chain is `Nr` round
/// instructions per block, the latency bound.
#[target_feature(enable = "aes,ssse3")]
#[inline]
fn cbc_encrypt_rounds<const NR: usize>(keys: &Keys, chain: &mut [u8; 16], data: InOut<'_>) {
    let blocks = data.len() / 16;
    if blocks == 0 {
        return;
    }
    // SAFETY: this function has AES-NI and SSSE3; `enc()` has `NR + 1`
    // keys.
    let k = unsafe { x86::round_keys::<__m128i, NR>(keys.enc()) };
    let (src, dst, _) = data.into_raw();
    // SAFETY: `src` is readable and `dst` writable for `16 * blocks` bytes
    // (`InOut::into_raw`); block `i + 1` is read before block `i + 1` is
    // written, so in place works; this function has AES-NI.
    unsafe {
        // P_i ⊕ k_0.
        let whitened = |i: usize| __m128i::load(src.add(16 * i)).xor(k[0]);
        let mut s = whitened(0).xor(load_block(chain));
        for i in 0..blocks - 1 {
            for key in &k[1..NR] {
                s = s.enc(*key);
            }
            let next = whitened(i + 1);
            s = s.enc_last(next.xor(k[NR]));
            s.xor(next).store(dst.add(16 * i));
        }
        for key in &k[1..NR] {
            s = s.enc(*key);
        }
        let last = s.enc_last(k[NR]);
        last.store(dst.add(16 * (blocks - 1)));
        store_block(chain, last);
    }
}

/// `pshufb` control: RotWord of column 3, in every column.
const ROT_WORD_3: i32 = 0x0c0f_0e0d;
/// `pshufb` control: RotWord of column 1, in every column.
const ROT_WORD_1: i32 = 0x0407_0605;

/// The key schedule of `key` (16, 24 or 32 bytes), the same as
/// [`Keys::new`] computes: KeyExpansion (FIPS 197 §5.2) with `aesenclast`
/// for SubWord, then `aesimc` for the equivalent inverse cipher's keys
/// (§5.3.5).
#[target_feature(enable = "aes,ssse3")]
pub(super) fn expand(key: &[u8]) -> Keys {
    // Nr = Nk + 6 (§5, Figure 4).
    let rounds = key.len() / 4 + 6;
    Keys::build(rounds, |enc, dec| {
        match rounds {
            10 => expand_128(key, enc),
            12 => expand_192(key, enc),
            _ => expand_256(key, enc),
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
                    _mm_aesimc_si128(w)
                },
            );
        }
    })
}

/// `(w0, w1, w2, w3)` → `(w0, w0⊕w1, w0⊕w1⊕w2, w0⊕w1⊕w2⊕w3)`: how each word
/// of a round key depends on the previous round key's (§5.2, Figure 11).
#[target_feature(enable = "aes,ssse3")]
#[inline]
fn prefix_xor(x: __m128i) -> __m128i {
    let x = _mm_xor_si128(x, _mm_slli_si128::<4>(x));
    _mm_xor_si128(x, _mm_slli_si128::<8>(x))
}

/// SubWord(RotWord(column `c`)) ⊕ `rcon` in every column (where
/// `aesenclast` adds it), `rotate` the `pshufb` control that rotates
/// column `c` into every column.
#[target_feature(enable = "aes,ssse3")]
#[inline]
fn sub_rot_word(x: __m128i, rotate: i32, rcon: u8) -> __m128i {
    _mm_aesenclast_si128(
        _mm_shuffle_epi8(x, _mm_set1_epi32(rotate)),
        _mm_set1_epi32(i32::from(rcon)),
    )
}

/// The 16 bytes of `key` from `at`.
fn key_block(key: &[u8], at: usize) -> __m128i {
    load_block(key[at..at + 16].try_into().expect("16 key bytes"))
}

/// KeyExpansion for Nk = 4: each round key from the previous one.
#[target_feature(enable = "aes,ssse3")]
fn expand_128(key: &[u8], w: &mut [[u8; 16]]) {
    let mut k = key_block(key, 0);
    store_block(&mut w[0], k);
    for (round_key, rcon) in w[1..].iter_mut().zip(RCON) {
        k = _mm_xor_si128(prefix_xor(k), sub_rot_word(k, ROT_WORD_3, rcon));
        store_block(round_key, k);
    }
}

/// KeyExpansion for Nk = 6: six words at a time, as `a` (four words) and
/// the low half of `b` (two), laid end to end into the round keys.
#[target_feature(enable = "aes,ssse3")]
fn expand_192(key: &[u8], w: &mut [[u8; 16]]) {
    let words = w.as_flattened_mut();
    let mut a = key_block(key, 0);
    let mut b = _mm_cvtsi64_si128(i64::from_le_bytes(
        key[16..24].try_into().expect("24 key bytes"),
    ));
    for (j, &rcon) in RCON[..8].iter().enumerate() {
        let at = 24 * j;
        store_block(four_words_at(words, at), a);
        words[at + 16..at + 24].copy_from_slice(&_mm_cvtsi128_si64(b).to_le_bytes());
        // w[6j+6 …]: SubWord(RotWord(w[6j+5])) ⊕ Rcon, then each word the
        // one six back ⊕ the one before.
        a = _mm_xor_si128(prefix_xor(a), sub_rot_word(b, ROT_WORD_1, rcon));
        let b_prefix = _mm_xor_si128(b, _mm_slli_si128::<4>(b));
        b = _mm_xor_si128(b_prefix, _mm_shuffle_epi32::<0xff>(a));
    }
    // Words 48–51 end the last round key.
    store_block(four_words_at(words, 24 * 8), a);
}

/// Four words (16 bytes) of the schedule `words`, from byte `at`.
fn four_words_at(words: &mut [u8], at: usize) -> &mut [u8; 16] {
    (&mut words[at..at + 16])
        .try_into()
        .expect("in the schedule")
}

/// KeyExpansion for Nk = 8: round keys in pairs, the second of each
/// from SubWord of the first's last word (no RotWord, no Rcon).
#[target_feature(enable = "aes,ssse3")]
fn expand_256(key: &[u8], w: &mut [[u8; 16]]) {
    let (mut a, mut b) = (key_block(key, 0), key_block(key, 16));
    store_block(&mut w[0], a);
    store_block(&mut w[1], b);
    for (i, rcon) in (1..=7).zip(RCON) {
        a = _mm_xor_si128(prefix_xor(a), sub_rot_word(b, ROT_WORD_3, rcon));
        store_block(&mut w[2 * i], a);
        if i == 7 {
            break;
        }
        let sub_word = _mm_aesenclast_si128(_mm_shuffle_epi32::<0xff>(a), _mm_setzero_si128());
        b = _mm_xor_si128(prefix_xor(b), sub_word);
        store_block(&mut w[2 * i + 1], b);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expansion_is_the_software_schedule() {
        if !super::super::Rung::Aesni.is_available() {
            eprintln!("no AES-NI: skipped");
            return;
        }
        // SAFETY: the CPU has AES-NI and SSSE3 (checked above).
        super::super::key_schedule::assert_expansion_is_the_software_schedule(|key| unsafe {
            expand(key)
        });
    }
}
