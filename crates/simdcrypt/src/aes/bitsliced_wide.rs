//! What the wide bitsliced rungs (`bitsliced-avx2` on ymm, `neon` on
//! aarch64's q registers) share: the byte-shuffle controls of their
//! rotations and their driver. Each runs [`super::bitsliced`]'s circuit
//! on a register of 64-bit lanes, one `u64` word of 4 blocks a lane, and
//! differs only in its word type and in how a batch is loaded and stored
//! ([`Wide::batch`]). The driver takes whole batches, hands a tail of up to
//! 4 blocks to the 64-bit rung (its batch is the narrower) and runs a
//! longer one as a single batch padded with zeros.

use zeroize::Zeroize;

use super::bitsliced::{self, RoundKeys, Slice, cipher_words};
use crate::xor::InOut;

/// The bytes of the widest rung's batch (16 blocks).
const MAX_BATCH_LEN: usize = 256;

/// Byte-shuffle controls (`vpshufb`, `tbl`) for a 16-byte register of two
/// 64-bit lanes: `[rows][swap]` moves each 16-bit row `rows` rows up within
/// its lane (a rotation by `16·rows` bits), then swaps the two bytes of
/// every row if `swap` is 1 (a rotation of the row by 8 bits, two columns).
/// The rung then rotates each 16-bit row by 4 bits more for an odd number
/// of columns.
pub(super) static ROTATE: [[[u8; 16]; 2]; 4] = {
    let mut t = [[[0u8; 16]; 2]; 4];
    let mut rows = 0;
    while rows < 4 {
        let mut swap = 0;
        while swap < 2 {
            let mut i = 0;
            while i < 16 {
                // Byte `o` of a lane comes from byte `(o ^ swap) + 2·rows`.
                let (lane, o) = (i & !7, i & 7);
                t[rows][swap][i] = (lane | (((o ^ swap) + 2 * rows) & 7)) as u8;
                i += 1;
            }
            swap += 1;
        }
        rows += 1;
    }
    t
};

/// The byte-shuffle control of ShiftRows twice: the two bytes of rows 1
/// and 3 of every lane swapped.
pub(super) static SHIFT_ROWS_TWICE: [u8; 16] = {
    let mut t = [0u8; 16];
    let mut i = 0;
    while i < 16 {
        let row = (i / 2) % 4;
        t[i] = (i ^ (row & 1)) as u8;
        i += 1;
    }
    t
};

/// A wide bitsliced rung: its word type, a register of 64-bit lanes
/// (`PAR_BLOCKS / 4` of them), which holds the state of `PAR_BLOCKS`
/// blocks in 8 words.
pub(super) trait Wide: Slice {
    /// How many blocks a batch holds.
    const PAR_BLOCKS: usize;

    /// A batch of blocks from `src` through the cipher (`DECRYPT` false)
    /// or its inverse into `dst`: [`batch`] compiled with what the rung
    /// needs.
    ///
    /// # Safety
    ///
    /// The CPU must have what the rung needs; `src` must be valid for
    /// reading and `dst` for writing `16·PAR_BLOCKS` bytes, the same
    /// address or not overlapping.
    unsafe fn batch<const DECRYPT: bool>(keys: &RoundKeys, src: *const u8, dst: *mut u8);

    /// The two words of a lane's worth of blocks at `src` (`PAR_BLOCKS /
    /// 4` blocks, two registers' bytes): the first word holds the low 8
    /// bytes of each block, the second the high 8, a block a lane, in an
    /// order of the rung's that [`Wide::store_halves`] undoes.
    ///
    /// # Safety
    ///
    /// The CPU must have what the rung needs; `src` must be valid for
    /// reading `4·PAR_BLOCKS` bytes.
    unsafe fn load_halves(src: *const u8) -> [Self; 2];

    /// The inverse of [`Wide::load_halves`]: the two words back into
    /// their blocks at `dst`.
    ///
    /// # Safety
    ///
    /// `dst` must be valid for writing `4·PAR_BLOCKS` bytes.
    unsafe fn store_halves(dst: *mut u8, halves: [Self; 2]);
}

/// [`Wide::batch`]'s body: four pairs of words, each lane then holding
/// the words [`bitsliced`]'s transposition takes (word `2·b + h` half `h`
/// of the lane's block `b`), through the circuit and back; the rung's
/// `batch` compiles it with its target features.
///
/// # Safety
///
/// As for [`Wide::batch`].
#[inline(always)]
pub(super) unsafe fn batch<W: Wide, const DECRYPT: bool>(
    keys: &RoundKeys,
    src: *const u8,
    dst: *mut u8,
) {
    let step = 4 * W::PAR_BLOCKS;
    // SAFETY: the caller promises the CPU and `16·PAR_BLOCKS` readable
    // bytes at `src`, four steps.
    let ([a0, a1], [b0, b1], [c0, c1], [d0, d1]) = unsafe {
        (
            W::load_halves(src),
            W::load_halves(src.add(step)),
            W::load_halves(src.add(2 * step)),
            W::load_halves(src.add(3 * step)),
        )
    };
    let mut s = [a0, a1, b0, b1, c0, c1, d0, d1];
    cipher_words::<W, DECRYPT>(keys, &mut s);
    for p in 0..4 {
        // SAFETY: the caller promises `16·PAR_BLOCKS` writable bytes at
        // `dst`, four steps.
        unsafe { W::store_halves(dst.add(p * step), [s[2 * p], s[2 * p + 1]]) };
    }
}

/// One batch through `W` in place in `buf`, of which the first
/// `16·W::PAR_BLOCKS` bytes are used.
///
/// # Safety
///
/// The CPU must have what `W` needs.
#[inline(always)]
unsafe fn batch_in<W: Wide, const DECRYPT: bool>(keys: &RoundKeys, buf: &mut [u8; MAX_BATCH_LEN]) {
    const { assert!(16 * W::PAR_BLOCKS <= MAX_BATCH_LEN) };
    let p = buf.as_mut_ptr();
    // SAFETY: the caller promises the CPU; `buf` holds the batch (asserted
    // above), read and written in place.
    unsafe { W::batch::<DECRYPT>(keys, p, p) };
}

/// Whole blocks: a batch at a time, then the tail.
///
/// # Safety
///
/// The CPU must have what `W` needs.
unsafe fn blocks<W: Wide, const DECRYPT: bool>(keys: &RoundKeys, data: InOut<'_>) {
    let batch_len = 16 * W::PAR_BLOCKS;
    let whole = data.len() / batch_len * batch_len;
    let (batches, tail) = data.split_at(whole);
    let (src, dst, len) = batches.into_raw();
    for i in (0..len).step_by(batch_len) {
        // SAFETY: the caller promises the CPU; `into_raw` gives `len`
        // bytes to read at `src` and write at `dst`, the same or apart,
        // and `i + batch_len <= len`.
        unsafe { W::batch::<DECRYPT>(keys, src.add(i), dst.add(i)) };
    }
    if tail.len() <= bitsliced::PAR_BLOCKS * 16 {
        if DECRYPT {
            bitsliced::decrypt(keys, tail);
        } else {
            bitsliced::encrypt(keys, tail);
        }
    } else {
        let mut buf = [0u8; MAX_BATCH_LEN];
        let n = tail.len();
        buf[..n].copy_from_slice(tail.input());
        // SAFETY: the caller promises the CPU.
        unsafe { batch_in::<W, DECRYPT>(keys, &mut buf) };
        tail.into_output().copy_from_slice(&buf[..n]);
        buf.zeroize();
    }
}

/// Encrypts whole blocks (FIPS 197 §5.1), a batch of `W` at a time.
///
/// # Safety
///
/// The CPU must have what `W` needs.
pub(super) unsafe fn encrypt<W: Wide>(keys: &RoundKeys, data: InOut<'_>) {
    // SAFETY: the caller promises the CPU.
    unsafe { blocks::<W, false>(keys, data) }
}

/// Decrypts whole blocks (§5.3.5), a batch of `W` at a time.
///
/// # Safety
///
/// The CPU must have what `W` needs.
pub(super) unsafe fn decrypt<W: Wide>(keys: &RoundKeys, data: InOut<'_>) {
    // SAFETY: the caller promises the CPU.
    unsafe { blocks::<W, true>(keys, data) }
}

/// The cipher of the counter blocks `next`, `next + 1`, … (big-endian,
/// modulo 2^128), a batch of `W`, into `keystream`; `next` is left past
/// them.
///
/// # Safety
///
/// The CPU must have what `W` needs.
#[inline(always)]
unsafe fn keystream<W: Wide>(
    keys: &RoundKeys,
    keystream: &mut [u8; MAX_BATCH_LEN],
    next: &mut u128,
) {
    for block in keystream[..16 * W::PAR_BLOCKS].chunks_exact_mut(16) {
        block.copy_from_slice(&next.to_be_bytes());
        *next = next.wrapping_add(1);
    }
    // SAFETY: the caller promises the CPU.
    unsafe { batch_in::<W, false>(keys, keystream) };
}

/// CTR (SP 800-38A §6.5): the cipher of the counter blocks `counter`,
/// `counter + 1`, … (big-endian, wrapping) XORed into `data`, which may
/// end inside a block; a batch of `W` at a time, a tail of up to 4 blocks
/// on the 64-bit rung.
///
/// # Safety
///
/// The CPU must have what `W` needs.
pub(super) unsafe fn ctr<W: Wide>(keys: &RoundKeys, counter: &[u8], data: InOut<'_>) {
    let mut next = u128::from_be_bytes(counter.try_into().expect("a 16-byte counter block"));
    let batch_len = 16 * W::PAR_BLOCKS;
    let whole = data.len() / batch_len * batch_len;
    let (batches, tail) = data.split_at(whole);
    let mut buf = [0u8; MAX_BATCH_LEN];
    for chunk in batches.chunks(batch_len) {
        // SAFETY: the caller promises the CPU.
        unsafe { keystream::<W>(keys, &mut buf, &mut next) };
        chunk.xor_bytewise(&buf);
    }
    if tail.len() <= bitsliced::PAR_BLOCKS * 16 {
        bitsliced::ctr(keys, &next.to_be_bytes(), tail);
    } else {
        // SAFETY: the caller promises the CPU.
        unsafe { keystream::<W>(keys, &mut buf, &mut next) };
        tail.xor_bytewise(&buf);
    }
    buf.zeroize();
}

/// The word operations of a wide rung's register type `$word` (a newtype
/// of one vector register whose existence means the CPU has what the rung
/// needs, as the type's own documentation argues): `^` and `&`, and
/// [`Slice`]'s lanewise ones by the intrinsics given (`$splat` puts a
/// `u64` in every lane), the rung's own `rotate` and `shift_rows_twice`
/// in `slice`; and its [`Wide`] impl, `batch` compiled with the target
/// feature `$feature`, the rung's `load_halves` and `store_halves` in
/// `wide`.
///
/// [`Slice`]: super::bitsliced::Slice
macro_rules! word_ops {
    (
        $word:ident, $blocks:literal blocks, $feature:literal:
        xor $xor:ident, and $and:ident, splat $splat:ident, shr $shr:ident, shl $shl:ident;
        slice { $($methods:tt)* }
        wide { $($wide:tt)* }
    ) => {
        impl core::ops::BitXor for $word {
            type Output = $word;

            #[inline(always)]
            fn bitxor(self, other: $word) -> $word {
                // SAFETY: a value of the type exists, so the CPU has what
                // the rung needs (see the type).
                $word(unsafe { $xor(self.0, other.0) })
            }
        }

        impl core::ops::BitAnd for $word {
            type Output = $word;

            #[inline(always)]
            fn bitand(self, other: $word) -> $word {
                // SAFETY: as for `^`.
                $word(unsafe { $and(self.0, other.0) })
            }
        }

        impl $crate::aes::bitsliced::Slice for $word {
            #[inline(always)]
            fn xor_u64(self, k: u64) -> $word {
                // SAFETY: as for `^`.
                $word(unsafe { $xor(self.0, $splat(k as _)) })
            }

            #[inline(always)]
            fn and_u64(self, m: u64) -> $word {
                // SAFETY: as for `^`.
                $word(unsafe { $and(self.0, $splat(m as _)) })
            }

            #[inline(always)]
            fn shr<const N: i32>(self) -> $word {
                // SAFETY: as for `^`.
                $word(unsafe { $shr::<N>(self.0) })
            }

            #[inline(always)]
            fn shl<const N: i32>(self) -> $word {
                // SAFETY: as for `^`.
                $word(unsafe { $shl::<N>(self.0) })
            }

            $($methods)*
        }

        impl $crate::aes::bitsliced_wide::Wide for $word {
            const PAR_BLOCKS: usize = $blocks;

            #[target_feature(enable = $feature)]
            unsafe fn batch<const DECRYPT: bool>(
                keys: &$crate::aes::bitsliced::RoundKeys,
                src: *const u8,
                dst: *mut u8,
            ) {
                // SAFETY: the caller's contract; the rung's target feature
                // is enabled here.
                unsafe { $crate::aes::bitsliced_wide::batch::<$word, DECRYPT>(keys, src, dst) }
            }

            $($wide)*
        }
    };
}
pub(super) use word_ops;
