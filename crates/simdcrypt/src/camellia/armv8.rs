//! The ARMv8 AES instructions (FEAT_AES) on NEON: Camellia byte-sliced
//! (Kivilinna's, RFC 3713 §2.3 on whole registers), 16 blocks in the 16
//! q registers of a batch, register `j` holding byte `j` of every block.
//! The kernels are the shared ones of `sliced.rs`; this file gives them
//! NEON's registers ([`Slice`] for `uint8x16_t`):
//!
//! - the s-boxes' inversion in GF(2^8) from `aese` (`vaeseq_u8`) with a
//!   zero round key: AddRoundKey, ShiftRows, SubBytes, which with a zero
//!   key is x86's `aesenclast` (ShiftRows, SubBytes, AddRoundKey) exactly,
//!   so the ShiftRows undone beforehand and the output map undoing AES's
//!   affine map are the same as `aesni`'s; `aesd` with a zero key on the
//!   right half, as `aesdeclast`;
//! - the affine maps around it as two `tbl` (`vqtbl1q_u8`) lookups of 16
//!   entries each, the low nibble masked with 0x0f, the high one shifted
//!   down by `ushr #4` (which leaves it below 16);
//! - the 16 × 16 byte transposes as `zip1`/`zip2` of 32- and 64-bit words
//!   and a `tbl` within each register;
//! - FL's one-bit rotations as byte adds and a signed compare with zero.
//!
//! The rest of a message (fewer than 16 blocks, CTR's partial block) is
//! one zero-padded batch on the stack, and so is the one block of the
//! chained modes (CBC and CFB encryption, OFB, CMAC). `tbl` is a register
//! permute and every other instruction takes the same time whatever the
//! data: constant-time.

use core::arch::aarch64::{
    uint8x16_t, vaddq_u8, vaddq_u64, vaesdq_u8, vaeseq_u8, vandq_u8, vcgtq_s8, vcombine_u64,
    vcreate_u64, vdupq_n_u8, vdupq_n_u32, veorq_u8, vld1q_u8, vorrq_u8, vqtbl1q_u8,
    vreinterpretq_s8_u8, vreinterpretq_u8_u32, vreinterpretq_u8_u64, vreinterpretq_u32_u8,
    vreinterpretq_u64_u8, vshrq_n_u8, vst1q_u8, vsubq_u8, vzip1q_u32, vzip1q_u64, vzip2q_u32,
    vzip2q_u64,
};

use super::sliced::{AesRound, Slice};

/// Blocks per batch: 16 registers of one block's byte.
pub(super) const PAR_BLOCKS: usize = 16;

/// [`Slice`]'s methods of two registers that are one NEON instruction,
/// `name = insn`; with `via to, back`, on the register reinterpreted as
/// other lanes (`to`) and back (`back`).
macro_rules! two_operand {
    ($($name:ident = $insn:ident $(via $to:ident, $back:ident)?;)+) => {$(
        #[inline(always)]
        unsafe fn $name(self, other: Self) -> Self {
            // SAFETY: NEON is part of aarch64.
            unsafe { two_operand!(@ $insn, self, other $(, $to, $back)?) }
        }
    )+};
    (@ $insn:ident, $a:expr, $b:expr) => { $insn($a, $b) };
    (@ $insn:ident, $a:expr, $b:expr, $to:ident, $back:ident) => { $back($insn($to($a), $to($b))) };
}

/// A q register as 16-byte lanes: one.
impl Slice for uint8x16_t {
    const BLOCKS: usize = 1;

    two_operand! {
        xor = veorq_u8;
        and = vandq_u8;
        or = vorrq_u8;
        add8 = vaddq_u8;
        sub8 = vsubq_u8;
        shuffle = vqtbl1q_u8;
        unpack_lo32 = vzip1q_u32 via vreinterpretq_u32_u8, vreinterpretq_u8_u32;
        unpack_hi32 = vzip2q_u32 via vreinterpretq_u32_u8, vreinterpretq_u8_u32;
        unpack_lo64 = vzip1q_u64 via vreinterpretq_u64_u8, vreinterpretq_u8_u64;
        unpack_hi64 = vzip2q_u64 via vreinterpretq_u64_u8, vreinterpretq_u8_u64;
    }

    #[inline(always)]
    unsafe fn load(src: *const u8) -> Self {
        // SAFETY: the caller promises 16 readable bytes.
        unsafe { vld1q_u8(src) }
    }
    #[inline(always)]
    unsafe fn store(self, dst: *mut u8) {
        // SAFETY: the caller promises 16 writable bytes.
        unsafe { vst1q_u8(dst, self) }
    }
    #[inline(always)]
    unsafe fn lanes(lane: &[u8; 16]) -> Self {
        // SAFETY: `lane` is 16 readable bytes.
        unsafe { vld1q_u8(lane.as_ptr()) }
    }
    #[inline(always)]
    unsafe fn store_last(self, dst: &mut [u8; 16]) {
        // SAFETY: `dst` is 16 writable bytes.
        unsafe { vst1q_u8(dst.as_mut_ptr(), self) }
    }
    #[inline(always)]
    unsafe fn splat(word: u32) -> Self {
        // SAFETY: NEON is part of aarch64.
        unsafe { vreinterpretq_u8_u32(vdupq_n_u32(word)) }
    }
    #[inline(always)]
    unsafe fn greater(self, other: Self) -> Self {
        // SAFETY: NEON is part of aarch64.
        unsafe { vcgtq_s8(vreinterpretq_s8_u8(self), vreinterpretq_s8_u8(other)) }
    }
    #[inline(always)]
    unsafe fn shr4(self) -> Self {
        // SAFETY: NEON is part of aarch64.
        unsafe { vshrq_n_u8::<4>(self) }
    }
    #[inline]
    #[target_feature(enable = "aes")]
    unsafe fn sub_bytes(self) -> Self {
        vaeseq_u8(self, vdupq_n_u8(0))
    }
    #[inline]
    #[target_feature(enable = "aes")]
    unsafe fn inv_sub_bytes(self) -> Self {
        vaesdq_u8(self, vdupq_n_u8(0))
    }
    #[inline(always)]
    unsafe fn counters(first: u128) -> Self {
        // SAFETY: NEON is part of aarch64.
        unsafe {
            vreinterpretq_u8_u64(vcombine_u64(
                vcreate_u64(first as u64),
                vcreate_u64((first >> 64) as u64),
            ))
        }
    }
    #[inline(always)]
    unsafe fn add_low(self, n: u64) -> Self {
        // SAFETY: NEON is part of aarch64.
        unsafe {
            let n = vcombine_u64(vcreate_u64(n), vcreate_u64(0));
            vreinterpretq_u8_u64(vaddq_u64(vreinterpretq_u64_u8(self), n))
        }
    }
    #[inline(always)]
    unsafe fn shift_in(self, prev: Self) -> Self {
        prev
    }
}

super::sliced::rung!("aes", AesRound, [uint8x16_t], uint8x16_t);

/// Encrypts one block under `sk` (decrypts under `sk.inverse()`): the
/// chained modes' path, as a zero-padded batch.
///
/// # Safety
///
/// The CPU has the AES instructions.
#[target_feature(enable = "aes")]
pub(super) unsafe fn encrypt_one(sk: &Subkeys, block: &mut [u8; 16]) {
    let (src, dst, len) = InOut::in_place(block).into_raw();
    // SAFETY: `into_raw`'s parts of an `InOut` not used again; this
    // function has the features.
    unsafe { encrypt(sk, src, dst, len) }
}
