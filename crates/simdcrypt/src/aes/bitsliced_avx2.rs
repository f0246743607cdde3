//! AVX2, 16 blocks at once: the `bitsliced` rung's fixsliced circuit
//! ([`super::bitsliced`], written once, generic over the word) on ymm
//! registers, each 64-bit lane one `u64` word of 4 blocks. The rotations
//! of MixColumns are byte shuffles (`vpshufb`) within the lanes, plus, when
//! they move the columns by an odd number, a rotation of each 16-bit row
//! by 4 bits (two shifts and an or).
//!
//! Loading takes the low and high halves of the blocks apart
//! (`vpunpcklqdq`/`vpunpckhqdq`) so that each lane receives the words the
//! 64-bit rung's transposition starts from; the transposition itself is the
//! same code. Tails of up to 4 blocks, and single blocks, go to the 64-bit
//! rung; longer tails run one padded batch here.

use core::arch::x86_64::{
    __m256i, _mm256_and_si256, _mm256_loadu_si256, _mm256_or_si256, _mm256_set1_epi64x,
    _mm256_setzero_si256, _mm256_shuffle_epi8, _mm256_slli_epi16, _mm256_slli_epi64,
    _mm256_srli_epi16, _mm256_srli_epi64, _mm256_storeu_si256, _mm256_unpackhi_epi64,
    _mm256_unpacklo_epi64, _mm256_xor_si256,
};
use core::ops::{BitAnd, BitXor};

use super::bitsliced::{
    self, RoundKeys, Slice, bitslice, decrypt_sliced, encrypt_sliced, unbitslice,
};
use crate::xor::InOut;

/// How many blocks the rung encrypts at once.
pub(super) const PAR_BLOCKS: usize = 16;

/// The bytes of one batch.
const BATCH_LEN: usize = 16 * PAR_BLOCKS;

/// Four 64-bit words of the bitsliced state in a ymm register.
///
/// A `Ymm` is made only inside this file's functions compiled with AVX2
/// (`#[target_feature(enable = "avx2")]`), which run only after the
/// dispatcher has checked that the CPU has AVX2; its field is private and
/// it has no constructor that could make one elsewhere. So wherever a `Ymm`
/// exists, the CPU has AVX2: that is why its methods may call AVX2
/// intrinsics. They are `#[inline(always)]`, so they are compiled into
/// those functions, with AVX2 enabled.
#[derive(Clone, Copy)]
pub(super) struct Ymm(__m256i);

impl BitXor for Ymm {
    type Output = Ymm;

    #[inline(always)]
    fn bitxor(self, other: Ymm) -> Ymm {
        // SAFETY: a `Ymm` exists, so the CPU has AVX2 (see the type).
        Ymm(unsafe { _mm256_xor_si256(self.0, other.0) })
    }
}

impl BitAnd for Ymm {
    type Output = Ymm;

    #[inline(always)]
    fn bitand(self, other: Ymm) -> Ymm {
        // SAFETY: a `Ymm` exists, so the CPU has AVX2 (see the type).
        Ymm(unsafe { _mm256_and_si256(self.0, other.0) })
    }
}

/// `vpshufb` controls: `[rows][swap]` moves each 16-bit row `rows` rows
/// up within its 64-bit lane (a rotation by `16·rows` bits), then swaps the
/// two bytes of every row if `swap` is 1 (a rotation of the row by 8 bits,
/// two columns).
static ROTATE: [[[u8; 32]; 2]; 4] = {
    let mut t = [[[0u8; 32]; 2]; 4];
    let mut rows = 0;
    while rows < 4 {
        let mut swap = 0;
        while swap < 2 {
            let mut i = 0;
            while i < 32 {
                // Byte `o` of a lane comes from byte `(o ^ swap) + 2·rows`.
                let (lane, o) = (i & !7, i & 7);
                t[rows][swap][i] = (lane & 15 | (((o ^ swap) + 2 * rows) & 7)) as u8;
                i += 1;
            }
            swap += 1;
        }
        rows += 1;
    }
    t
};

/// The `vpshufb` control of ShiftRows twice: the two bytes of rows 1 and 3
/// of every lane swapped.
static SHIFT_ROWS_TWICE: [u8; 32] = {
    let mut t = [0u8; 32];
    let mut i = 0;
    while i < 32 {
        let row = (i / 2) % 4;
        t[i] = ((i & 15) ^ (row & 1)) as u8;
        i += 1;
    }
    t
};

/// A `vpshufb` control from a table of 32 bytes.
#[inline(always)]
fn control(table: &[u8; 32]) -> __m256i {
    // SAFETY: `table` is 32 readable bytes (an unaligned load); a `Ymm`
    // exists wherever this is called, so the CPU has AVX2.
    unsafe { _mm256_loadu_si256(table.as_ptr().cast()) }
}

impl Slice for Ymm {
    #[inline(always)]
    fn xor_u64(self, k: u64) -> Ymm {
        // SAFETY: a `Ymm` exists, so the CPU has AVX2 (see the type).
        Ymm(unsafe { _mm256_xor_si256(self.0, _mm256_set1_epi64x(k as i64)) })
    }

    #[inline(always)]
    fn and_u64(self, m: u64) -> Ymm {
        // SAFETY: a `Ymm` exists, so the CPU has AVX2 (see the type).
        Ymm(unsafe { _mm256_and_si256(self.0, _mm256_set1_epi64x(m as i64)) })
    }

    #[inline(always)]
    fn shr<const N: i32>(self) -> Ymm {
        // SAFETY: a `Ymm` exists, so the CPU has AVX2 (see the type).
        Ymm(unsafe { _mm256_srli_epi64::<N>(self.0) })
    }

    #[inline(always)]
    fn shl<const N: i32>(self) -> Ymm {
        // SAFETY: a `Ymm` exists, so the CPU has AVX2 (see the type).
        Ymm(unsafe { _mm256_slli_epi64::<N>(self.0) })
    }

    #[inline(always)]
    fn rotate(self, rows: u32, columns: u32) -> Ymm {
        let table = &ROTATE[rows as usize % 4][(columns as usize / 2) % 2];
        // SAFETY: a `Ymm` exists, so the CPU has AVX2 (see the type).
        unsafe {
            let x = _mm256_shuffle_epi8(self.0, control(table));
            Ymm(if columns % 2 == 1 {
                // One column more: each 16-bit row rotated right by 4.
                _mm256_or_si256(_mm256_srli_epi16::<4>(x), _mm256_slli_epi16::<12>(x))
            } else {
                x
            })
        }
    }

    #[inline(always)]
    fn shift_rows_twice(self) -> Ymm {
        // SAFETY: a `Ymm` exists, so the CPU has AVX2 (see the type).
        Ymm(unsafe { _mm256_shuffle_epi8(self.0, control(&SHIFT_ROWS_TWICE)) })
    }
}

/// 16 blocks from `src` through the cipher (`DECRYPT` false) or its
/// inverse into `dst`.
///
/// # Safety
///
/// The CPU must have AVX2; `src` must be valid for reading and `dst` for
/// writing 256 bytes, the same address or not overlapping.
#[target_feature(enable = "avx2")]
unsafe fn batch<const DECRYPT: bool>(keys: &RoundKeys, src: *const u8, dst: *mut u8) {
    let mut s = [Ymm(_mm256_setzero_si256()); 8];
    for p in 0..4 {
        // Blocks 4p, 4p + 1 and 4p + 2, 4p + 3 (one per 128-bit half);
        // then word 2p + h: half h of blocks 4p, 4p + 2, 4p + 1, 4p + 3 in
        // lanes 0–3, as `bitslice` takes them in every lane.
        // SAFETY: the caller promises 256 readable bytes at `src`.
        let (a, b) = unsafe {
            (
                _mm256_loadu_si256(src.add(64 * p).cast()),
                _mm256_loadu_si256(src.add(64 * p + 32).cast()),
            )
        };
        s[2 * p] = Ymm(_mm256_unpacklo_epi64(a, b));
        s[2 * p + 1] = Ymm(_mm256_unpackhi_epi64(a, b));
    }
    s = bitslice(s);
    if DECRYPT {
        decrypt_sliced(keys, &mut s);
    } else {
        encrypt_sliced(keys, &mut s);
    }
    let s = unbitslice(s);
    for p in 0..4 {
        let (lo, hi) = (s[2 * p].0, s[2 * p + 1].0);
        // SAFETY: the caller promises 256 writable bytes at `dst`.
        unsafe {
            _mm256_storeu_si256(dst.add(64 * p).cast(), _mm256_unpacklo_epi64(lo, hi));
            _mm256_storeu_si256(dst.add(64 * p + 32).cast(), _mm256_unpackhi_epi64(lo, hi));
        }
    }
}

/// Whole blocks: 16 at a time, then the tail.
///
/// # Safety
///
/// The CPU must have AVX2.
#[target_feature(enable = "avx2")]
unsafe fn blocks<const DECRYPT: bool>(keys: &RoundKeys, data: InOut<'_>) {
    let whole = data.len() / BATCH_LEN * BATCH_LEN;
    let (batches, tail) = data.split_at(whole);
    let (src, dst, len) = batches.into_raw();
    for i in (0..len).step_by(BATCH_LEN) {
        // SAFETY: the caller promises AVX2; `into_raw` gives `len` bytes
        // to read at `src` and write at `dst`, the same or apart, and
        // `i + 256 <= len`.
        unsafe { batch::<DECRYPT>(keys, src.add(i), dst.add(i)) };
    }
    if tail.len() <= bitsliced::PAR_BLOCKS * 16 {
        if DECRYPT {
            bitsliced::decrypt(keys, tail);
        } else {
            bitsliced::encrypt(keys, tail);
        }
    } else {
        let mut buf = [0u8; BATCH_LEN];
        let n = tail.len();
        buf[..n].copy_from_slice(tail.input());
        let p = buf.as_mut_ptr();
        // SAFETY: the caller promises AVX2; `buf` is 256 bytes, read and
        // written in place.
        unsafe { batch::<DECRYPT>(keys, p, p) };
        tail.into_output().copy_from_slice(&buf[..n]);
        zeroize::Zeroize::zeroize(&mut buf);
    }
}

/// The counter blocks `next`, `next + 1`, … (big-endian, modulo 2^128)
/// into `buf`; `next` is left past them.
#[inline(always)]
fn counter_blocks(buf: &mut [u8; BATCH_LEN], next: &mut u128) {
    for block in buf.chunks_exact_mut(16) {
        block.copy_from_slice(&next.to_be_bytes());
        *next = next.wrapping_add(1);
    }
}

/// CTR (SP 800-38A §6.5): the cipher of the counter blocks `counter`,
/// `counter + 1`, … (big-endian, wrapping) XORed into `data`, which may
/// end inside a block; 16 blocks at a time, a tail of up to 4 blocks on the
/// 64-bit rung.
///
/// # Safety
///
/// The CPU must have AVX2.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn ctr(keys: &RoundKeys, counter: &[u8], data: InOut<'_>) {
    let mut next = u128::from_be_bytes(counter.try_into().expect("a 16-byte counter block"));
    let whole = data.len() / BATCH_LEN * BATCH_LEN;
    let (batches, tail) = data.split_at(whole);
    let (src, dst, len) = batches.into_raw();
    let mut keystream = [0u8; BATCH_LEN];
    for i in (0..len).step_by(BATCH_LEN) {
        counter_blocks(&mut keystream, &mut next);
        let k = keystream.as_mut_ptr();
        // SAFETY: the caller promises AVX2; `keystream` is 256 bytes,
        // read and written in place.
        unsafe { batch::<false>(keys, k, k) };
        for j in (0..BATCH_LEN).step_by(32) {
            // SAFETY: `into_raw` gives `len` bytes to read at `src` and
            // write at `dst` (the same or apart), and `i + j + 32 <= len`;
            // `keystream` has 256 bytes.
            unsafe {
                let x = _mm256_loadu_si256(src.add(i + j).cast());
                let y = _mm256_loadu_si256(k.add(j).cast());
                _mm256_storeu_si256(dst.add(i + j).cast(), _mm256_xor_si256(x, y));
            }
        }
    }
    if tail.len() <= bitsliced::PAR_BLOCKS * 16 {
        bitsliced::ctr(keys, &next.to_be_bytes(), tail);
    } else {
        counter_blocks(&mut keystream, &mut next);
        let k = keystream.as_mut_ptr();
        // SAFETY: the caller promises AVX2; `keystream` is 256 bytes,
        // read and written in place.
        unsafe { batch::<false>(keys, k, k) };
        tail.xor_bytewise(&keystream);
    }
    zeroize::Zeroize::zeroize(&mut keystream);
}

/// Encrypts whole blocks (FIPS 197 §5.1), 16 at a time.
///
/// # Safety
///
/// The CPU must have AVX2.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn encrypt(keys: &RoundKeys, data: InOut<'_>) {
    // SAFETY: the caller promises AVX2.
    unsafe { blocks::<false>(keys, data) }
}

/// Decrypts whole blocks (§5.3.5), 16 at a time.
///
/// # Safety
///
/// The CPU must have AVX2.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn decrypt(keys: &RoundKeys, data: InOut<'_>) {
    // SAFETY: the caller promises AVX2.
    unsafe { blocks::<true>(keys, data) }
}
