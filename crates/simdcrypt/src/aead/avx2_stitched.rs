//! The stitched AEAD kernel, AVX2 and BMI2: the stream cipher's keystream
//! 8 blocks (512 bytes) at a time in ymm registers, and in the same loop
//! Poly1305 on the integer units (radix 2^64, `mulx`), so that the two run
//! on different execution ports at once instead of one after the other.
//!
//! The cipher's vertical batch ([`crate::vertical::vertical_batches!`] with
//! a hook) calls back after every double round; the hook absorbs 4 of the
//! 32 Poly1305 blocks of one batch after each of the first 8 of its 10,
//! so that a Poly1305 block's multiplication chain (about 10 cycles of
//! latency) hides under the double round's vector work. The two are
//! software-pipelined:
//!
//! - sealing encrypts batch 0 alone, then MACs batch `i − 1`'s ciphertext
//!   while batch `i` is encrypted, then MACs the last batch alone;
//! - opening MACs batch `i`'s ciphertext while the keystream of batch `i`
//!   is computed, before the XOR that decrypts it, so every byte is MACed
//!   before it is decrypted.
//!
//! All the batches of a call run in one loop inside the cipher's hooked
//! batch function, the hook reading the bytes beside the batch it is
//! shown ([`Hook::after_double_round`]).
//!
//! Only whole batches run here; the caller encrypts and MACs the rest (less
//! than 512 bytes) on the ordinary path, and feeds what Poly1305 sees before
//! and after the ciphertext itself.
//!
//! A cipher joins with a hooked batch of its own, which its AVX2 rung
//! instantiates (the hooked `vertical_batches!`, beside its double-round
//! and rotate macros) and exposes (ChaCha20's `xor_whole_batches_8_hooked`), an
//! implementation of [`HookedBatch`] here over it, and by overriding the
//! AEAD's `Stitch::stitch` where the kernel is measured faster:
//! ChaCha20 (and XChaCha20, which runs on it) takes it wherever it applies;
//! XSalsa20 stays off it, Salsa20's hooked batch having been slower than
//! the ordinary path (see bench/NOTES.md, section aead-stitched).

use zeroize::Zeroize;

use crate::Error;
use crate::chacha20::ChaCha20;
use crate::poly1305::{Poly1305, Scalar};
use crate::vertical::{Counter, Hook};
use crate::xor::InOut;

/// Bytes per batch: 8 keystream blocks.
pub(crate) const BATCH: usize = 8 * crate::stream::BLOCK_LEN;

/// Poly1305 blocks per batch.
const MAC_BLOCKS: usize = BATCH / crate::poly1305::BLOCK_LEN;

/// A stream cipher whose vertical 8-block AVX2 batch can call a hook after
/// each double round: what the kernel needs of it. The cipher's AVX2 rung
/// instantiates the hooked batch; the implementation below reaches it.
pub(crate) trait HookedBatch {
    /// Where the block counter lives in the input state.
    const COUNTER: Counter;

    /// The input state with the block counter of the cipher's position,
    /// when that position is at the start of a block.
    fn input_at_position(&self) -> Option<[u32; 16]>;

    /// Moves the cipher `len` bytes further on.
    ///
    /// # Errors
    ///
    /// When the keystream does not reach that far.
    fn skip(&mut self, len: usize) -> Result<(), Error>;

    /// XORs the keystream blocks from `*block` on of `input` (its counter
    /// words ignored) into the whole batches of `data` (in place or from an
    /// input into an output) and steps `*block` by 8 a batch, calling
    /// `hook` after every double round; returns the rest of `data`,
    /// shorter than a batch.
    ///
    /// # Safety
    ///
    /// The CPU must have AVX2 and BMI2.
    unsafe fn xor_batches<'a>(
        input: &[u32; 16],
        block: &mut u64,
        data: InOut<'a>,
        hook: &mut impl Hook<BATCH>,
    ) -> InOut<'a>;
}

/// ChaCha20 (and XChaCha20-Poly1305, which runs on it) through the hooked
/// batch of its `avx2` rung.
impl HookedBatch for ChaCha20 {
    const COUNTER: Counter = ChaCha20::BLOCK_COUNTER;

    fn input_at_position(&self) -> Option<[u32; 16]> {
        self.input_at_block_start()
    }

    fn skip(&mut self, len: usize) -> Result<(), Error> {
        self.seek(self.position() + len as u128)
    }

    unsafe fn xor_batches<'a>(
        input: &[u32; 16],
        block: &mut u64,
        data: InOut<'a>,
        hook: &mut impl Hook<BATCH>,
    ) -> InOut<'a> {
        // SAFETY: the caller promises AVX2 and BMI2.
        unsafe { ChaCha20::xor_whole_batches_8_hooked(input, block, data, hook) }
    }
}

/// Whether this CPU, under the `SIMDCRYPT_MAX_ISA` cap, runs the kernel.
pub(super) fn is_available() -> bool {
    let f = crate::cpu::features();
    f.avx2 && f.bmi2
}

/// Encrypts (`open` false) or decrypts (`open` true) the whole batches at
/// the start of `data` (in place, or from its input into its output) with
/// `cipher`, MACing their ciphertext into `mac`, both from where they stand;
/// returns how many bytes were done (0 when the kernel does not apply: no
/// AVX2 and BMI2, the cipher or the MAC in the middle of a block, or less
/// than one batch).
///
/// # Errors
///
/// When the keystream does not reach past the batches; nothing is written
/// then.
pub(super) fn run<C: HookedBatch>(
    cipher: &mut C,
    mac: &mut Poly1305,
    data: InOut<'_>,
    open: bool,
) -> Result<usize, Error> {
    let done = data.len() / BATCH * BATCH;
    if done == 0 || !is_available() {
        return Ok(0);
    }
    let Some(mut input) = cipher.input_at_position() else {
        return Ok(0);
    };
    let Some(scalar) = mac.take_scalar() else {
        input.zeroize();
        return Ok(0);
    };
    let (batches, _) = data.split_at(done);
    let result = cipher.skip(done);
    let scalar = match result {
        // SAFETY: `is_available()` said the CPU has AVX2 and BMI2.
        Ok(()) => unsafe { stitched::<C>(&input, scalar, batches, open) },
        Err(_) => scalar,
    };
    input.zeroize();
    mac.resume(scalar);
    result.map(|()| done)
}

/// Absorbs the 4 blocks of `batch` that go after double round `round`:
/// the whole batch over the first 8 of the 10, 4 after each. The block
/// indices are in bounds for the compiler to see, so no panic path leaves
/// the rounds and the accumulator stays in registers through them
/// (spread as 4, 4, then 3 over all 10, the bounds checks kept it in
/// memory: 2,700 instructions more per 16 KiB).
#[inline(always)]
fn absorb(mac: &mut Scalar, round: usize, batch: &[u8; BATCH]) {
    const PER_ROUND: usize = 4;
    if round < MAC_BLOCKS / PER_ROUND {
        let start = PER_ROUND * round;
        mac.blocks(&batch.as_chunks().0[start..start + PER_ROUND]);
    }
}

/// Opening's hook: MACs each batch's ciphertext while its keystream is
/// computed, before it is decrypted. It owns the accumulator, so that the
/// accumulator stays in registers through the rounds.
struct Open(Scalar);

impl Hook<BATCH> for Open {
    #[inline(always)]
    fn after_double_round(&mut self, round: usize, input: &[u8; BATCH], _: Option<&[u8; BATCH]>) {
        absorb(&mut self.0, round, input);
    }
}

/// Sealing's hook: MACs the batch before's ciphertext while a batch is
/// encrypted; `first` is the batch before the first of the call. It owns
/// the accumulator, as [`Open`] does.
struct Seal<'a> {
    /// The accumulator and `r`.
    mac: Scalar,
    /// The ciphertext of the batch before the call's first.
    first: &'a [u8; BATCH],
}

impl Hook<BATCH> for Seal<'_> {
    #[inline(always)]
    fn after_double_round(&mut self, round: usize, _: &[u8; BATCH], before: Option<&[u8; BATCH]>) {
        absorb(&mut self.mac, round, before.unwrap_or(self.first));
    }
}

/// The pipelined loop of [`run`] over `data`, whole batches; returns the
/// MAC.
#[target_feature(enable = "avx2,bmi2")]
fn stitched<C: HookedBatch>(input: &[u32; 16], mac: Scalar, data: InOut<'_>, open: bool) -> Scalar {
    let mut block = C::COUNTER.get(input);
    if open {
        let mut hook = Open(mac);
        // SAFETY: this function is compiled with AVX2 and BMI2, which its
        // caller checked.
        unsafe { C::xor_batches(input, &mut block, data, &mut hook) };
        return hook.0;
    }
    let (mut first, mut rest) = data.split_at(BATCH);
    // The first batch alone: nothing before it to MAC. SAFETY: as above.
    unsafe { C::xor_batches(input, &mut block, first.reborrow(), &mut ()) };
    let first = first.into_output().first_chunk().expect("a whole batch");
    let mut hook = Seal { mac, first };
    // SAFETY: as above.
    unsafe { C::xor_batches(input, &mut block, rest.reborrow(), &mut hook) };
    let last = rest.into_output().last_chunk().unwrap_or(first);
    hook.mac.blocks(last.as_chunks().0);
    hook.mac
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::KeyStream;

    /// `data` encrypted (or decrypted) by the cipher `new(seed)` from its
    /// keystream byte 64 on, in place or (`apart`) into another buffer,
    /// and its Poly1305 after a 16-byte prefix: through the kernel then the
    /// ordinary path when `stitched`, else the ordinary path alone.
    fn through<C: HookedBatch + KeyStream>(
        new: &impl Fn(u8) -> C,
        stitched: bool,
        apart: bool,
        open: bool,
        seed: u8,
        data: &[u8],
    ) -> (Vec<u8>, [u8; 16]) {
        let mut cipher = new(seed);
        cipher.apply_keystream(&mut [0u8; 64]).expect("keystream");
        let mut mac = Poly1305::new(&[seed ^ 0xaa; 32]);
        mac.update(&[seed; 16]);
        let mut out = if apart {
            vec![0; data.len()]
        } else {
            data.to_vec()
        };
        let mut io = if apart {
            InOut::apart(data, &mut out).expect("equal lengths")
        } else {
            InOut::in_place(&mut out)
        };
        let done = if stitched {
            run(&mut cipher, &mut mac, io.reborrow(), open).expect("keystream")
        } else {
            0
        };
        if stitched && is_available() {
            assert_eq!(done, data.len() / BATCH * BATCH);
        }
        let (_, rest) = io.split_at(done);
        if open {
            mac.update(rest.input());
        }
        let rest = crate::stream::apply(&mut cipher, rest).expect("keystream");
        if !open {
            mac.update(rest);
        }
        let tag = mac.finalize();
        (out, tag)
    }

    /// The kernel and the ordinary path agree, in place and out of place,
    /// for every cipher that has a hooked batch.
    fn agree(open: bool, seed: u8, data: &[u8]) {
        let chacha20 = |s: u8| ChaCha20::new(&[s; 32], &[s ^ 0x55; 12]);
        let want = through(&chacha20, false, false, open, seed, data);
        for (stitched, apart) in [(true, false), (false, true), (true, true)] {
            assert_eq!(
                through(&chacha20, stitched, apart, open, seed, data),
                want,
                "chacha20 len {} open {open} stitched {stitched} apart {apart}",
                data.len()
            );
        }
    }

    /// Around every batch boundary up to 6 batches: the pipeline's first
    /// and last batch, and a partial batch after them.
    #[test]
    fn kernel_equals_the_ordinary_path_at_batch_edges() {
        for batches in 0..=6 {
            for delta in [-17isize, -16, -1, 0, 1, 15, 16, 100] {
                let Some(len) = (batches * BATCH).checked_add_signed(delta) else {
                    continue;
                };
                let data: Vec<u8> = (0..len).map(|i| (i * 7 + len) as u8).collect();
                for open in [false, true] {
                    agree(open, len as u8, &data);
                }
            }
        }
    }

    proptest! {
        #[test]
        fn kernel_equals_the_ordinary_path(
            seed in any::<u8>(),
            open in any::<bool>(),
            data in proptest::collection::vec(any::<u8>(), 0..5000),
        ) {
            agree(open, seed, &data);
        }
    }

    /// A cipher that is not at a block boundary, or a MAC with a partial
    /// block waiting, leaves the kernel out rather than misplace anything.
    #[test]
    fn kernel_declines_mid_block() {
        let mut cipher = ChaCha20::new(&[1; 32], &[2; 12]);
        cipher.apply_keystream(&mut [0u8; 32]).expect("keystream");
        let mut mac = Poly1305::new(&[3; 32]);
        let mut data = [0; 2048];
        assert_eq!(
            run(&mut cipher, &mut mac, InOut::in_place(&mut data), false),
            Ok(0)
        );
        cipher.apply_keystream(&mut [0u8; 32]).expect("keystream");
        mac.update(&[0; 5]);
        assert_eq!(
            run(&mut cipher, &mut mac, InOut::in_place(&mut data), false),
            Ok(0)
        );
        assert_eq!(cipher.position(), 64);
    }
}
