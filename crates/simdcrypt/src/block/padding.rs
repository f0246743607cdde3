//! PKCS#7 padding (RFC 5652 §6.3) and GOST R 34.13-2015's padding
//! procedures 1–3 (§4.1) for ECB and CBC, and the streaming encryptor and
//! decryptor that add and remove them.
//!
//! Removal is constant-time: every byte of the last block is examined
//! whatever it holds, and every failure — a last byte of 0 or above the
//! block length, a padding byte that differs, a length that is not a whole
//! number of blocks — is the one [`Error::BadPadding`]. That shuts the
//! error-message and timing channel of Vaudenay's padding oracle (2002);
//! it does not make unauthenticated CBC safe to receive (see
//! [`Cbc`](super::Cbc)).

use subtle::{ConditionallySelectable, ConstantTimeEq, ConstantTimeGreater};
use zeroize::Zeroize;

use super::{BlockCipher, whole_blocks};
use crate::Error;
use crate::xor::InOut;

pub use crate::dynamic::Padding;

impl Padding {
    /// Whether decryption removes the padding (and so holds the last block
    /// back until the end).
    fn removable(self) -> bool {
        matches!(self, Padding::Pkcs7 | Padding::GostOneZeros)
    }

    /// Pads the `buffered` bytes at the start of `block` (less than a
    /// block); `false` when the scheme adds nothing to them.
    fn pad(self, block: &mut [u8], buffered: usize) -> bool {
        match self {
            Padding::None => false,
            Padding::Pkcs7 => {
                pad(block, buffered);
                true
            }
            Padding::GostZeros | Padding::GostOneZerosIfPartial if buffered == 0 => false,
            Padding::GostZeros => {
                block[buffered..].fill(0);
                true
            }
            Padding::GostOneZeros | Padding::GostOneZerosIfPartial => {
                block[buffered] = 0x80;
                block[buffered + 1..].fill(0);
                true
            }
        }
    }
}

/// A mode that enciphers whole blocks, carrying its state (ECB, CBC).
pub trait BlockMode: sealed::Sealed {
    /// The block cipher under the mode.
    type Cipher: BlockCipher;
    /// The block cipher.
    fn cipher(&self) -> &Self::Cipher;
}

pub(crate) mod sealed {
    use crate::xor::InOut;

    pub trait Sealed: Sized {
        /// Encrypts whole blocks.
        fn encrypt_blocks(&mut self, data: InOut<'_>);
        /// Decrypts whole blocks.
        fn decrypt_blocks(&mut self, data: InOut<'_>);
        /// This mode as it stands after `skip` (whole blocks of input)
        /// more, when the direction can be cut there: ECB both ways, CBC
        /// decryption (chaining on the last block of `skip`).
        fn skipped(&self, skip: &[u8], decrypt: bool) -> Option<Self>;
    }
}

/// The padded forms of a whole-block mode (ECB, CBC), as inherent methods:
/// `encrypt_padded_vec`, `decrypt_padded_vec`, `encryptor`, `decryptor`.
macro_rules! padded_forms {
    () => {
        /// `plaintext` padded with PKCS#7 and encrypted: one to a whole block
        /// longer than it.
        pub fn encrypt_padded_vec(self, plaintext: &[u8]) -> Vec<u8> {
            $crate::block::padding::padded_vec(self, plaintext)
        }

        /// Decrypts `ciphertext` and removes its PKCS#7 padding in constant
        /// time.
        ///
        /// # Errors
        ///
        /// [`Error::BadPadding`], the same whatever was wrong (the length, the
        /// last byte or any padding byte).
        pub fn decrypt_padded_vec(self, ciphertext: &[u8]) -> Result<Vec<u8>, Error> {
            $crate::block::padding::unpadded_vec(self, ciphertext)
        }

        /// A streaming encryptor (`update`, then `finalize`) that pads with
        /// `padding`.
        pub fn encryptor(
            self,
            padding: $crate::block::Padding,
        ) -> $crate::block::PaddedEncryptor<Self> {
            $crate::block::PaddedEncryptor::new(self, padding)
        }

        /// A streaming decryptor that removes `padding`.
        pub fn decryptor(
            self,
            padding: $crate::block::Padding,
        ) -> $crate::block::PaddedDecryptor<Self> {
            $crate::block::PaddedDecryptor::new(self, padding)
        }
    };
}
pub(super) use padded_forms;

/// `plaintext` padded and encrypted by `mode`.
pub(crate) fn padded_vec<M: BlockMode>(mode: M, plaintext: &[u8]) -> Vec<u8> {
    let bl = M::Cipher::BLOCK_LEN;
    let mut out = vec![0; (plaintext.len() / bl + 1) * bl];
    let mut enc = PaddedEncryptor::new(mode, Padding::Pkcs7);
    let n = enc
        .update(plaintext, &mut out)
        .expect("room for every whole block");
    enc.finalize(&mut out[n..])
        .expect("room for the padded block");
    out
}

/// `ciphertext` decrypted by `mode`, its padding removed.
pub(crate) fn unpadded_vec<M: BlockMode>(mode: M, ciphertext: &[u8]) -> Result<Vec<u8>, Error> {
    let mut out = vec![0; ciphertext.len()];
    let mut dec = PaddedDecryptor::new(mode, Padding::Pkcs7);
    let n = dec.update(ciphertext, &mut out)?;
    match dec.finalize(&mut out[n..]) {
        Ok(m) => {
            out.truncate(n + m);
            Ok(out)
        }
        Err(e) => {
            out.zeroize();
            Err(e)
        }
    }
}

/// The PKCS#7 padding of the last `buffered` bytes of a block: the count
/// of the missing bytes, in each of them.
fn pad(block: &mut [u8], buffered: usize) {
    let n = (block.len() - buffered) as u8;
    block[buffered..].fill(n);
}

/// The length of the message in `block` (a whole decrypted last block)
/// once its PKCS#7 padding is removed, found in constant time.
fn unpad(block: &[u8]) -> Result<usize, Error> {
    let bl = block.len() as u8;
    let n = block[block.len() - 1];
    let mut good = n.ct_gt(&0) & !n.ct_gt(&bl);
    for (i, &b) in block.iter().enumerate() {
        // Byte i is padding when i >= bl - n, i.e. bl - i <= n.
        let in_pad = !(bl - i as u8).ct_gt(&n);
        good &= !in_pad | b.ct_eq(&n);
    }
    if bool::from(good) {
        Ok(block.len() - usize::from(n))
    } else {
        Err(Error::BadPadding)
    }
}

/// The length of the message in `block` (a whole decrypted last block)
/// once GOST R 34.13-2015's procedure 2 (0x80, then zeros) is removed,
/// found in constant time: the last non-zero byte must be 0x80.
fn unpad_one_zeros(block: &[u8]) -> Result<usize, Error> {
    // Scanning from the end: `zeros` stays set while only zeros were seen;
    // the first byte after them must be 0x80, and its index is the length.
    let mut zeros = subtle::Choice::from(1);
    let mut good = subtle::Choice::from(0);
    let mut len = 0u32;
    for (i, &b) in block.iter().enumerate().rev() {
        let here = zeros & b.ct_eq(&0x80);
        good |= here;
        len = u32::conditional_select(&len, &(i as u32), here);
        zeros &= b.ct_eq(&0);
    }
    if bool::from(good) {
        Ok(len as usize)
    } else {
        Err(Error::BadPadding)
    }
}

/// `fork` and `advance` of the padded encryptor or decryptor, whose mode
/// runs the direction `$decrypt`.
macro_rules! fork_and_advance {
    ($decrypt:literal, $what:literal, $which:literal) => {
        #[doc = concat!($what, " without padding that starts `skip` (whole blocks) past")]
        #[doc = concat!("this one, when this one holds nothing back and the mode can be cut ", $which, ".")]
        pub(crate) fn fork(&self, skip: &[u8]) -> Option<Self> {
            let mut fork = Self::new(self.skipped_mode(skip)?, Padding::None);
            fork.seen = self.seen + skip.len();
            Some(fork)
        }

        /// Moves past `skip` (whole blocks) as [`fork`](Self::fork) does,
        /// keeping the padding; `false` (and nothing changed) where it
        /// cannot.
        pub(crate) fn advance(&mut self, skip: &[u8]) -> bool {
            let Some(mode) = self.skipped_mode(skip) else {
                return false;
            };
            self.mode = mode;
            self.seen += skip.len();
            true
        }

        /// The mode `skip` further on, when nothing is held back.
        fn skipped_mode(&self, skip: &[u8]) -> Option<M> {
            (self.buffered == 0).then(|| self.mode.skipped(skip, $decrypt))?
        }
    };
}

/// An error for an output buffer without room for what a call writes.
fn room(need: usize, got: usize) -> Result<(), Error> {
    if got < need {
        Err(Error::OutputTooShort { need, got })
    } else {
        Ok(())
    }
}

/// The encrypting half of a streaming padded mode: [`update`] as input
/// arrives, writing every whole block, then [`finalize`] for the last,
/// padded one.
///
/// [`update`]: PaddedEncryptor::update
/// [`finalize`]: PaddedEncryptor::finalize
pub struct PaddedEncryptor<M: BlockMode> {
    mode: M,
    padding: Padding,
    partial: [u8; 16],
    buffered: usize,
    /// The message's bytes so far, for the error of a partial block.
    seen: usize,
}

impl<M: BlockMode> PaddedEncryptor<M> {
    /// Encrypts with `mode`, padding with `padding`.
    pub fn new(mode: M, padding: Padding) -> Self {
        PaddedEncryptor {
            mode,
            padding,
            partial: [0; 16],
            buffered: 0,
            seen: 0,
        }
    }

    /// The mode.
    pub fn mode(&self) -> &M {
        &self.mode
    }

    fork_and_advance!(false, "An encryptor", "(ECB)");

    /// How many bytes [`update`](Self::update) writes for `input_len`
    /// more bytes of input.
    pub fn update_len(&self, input_len: usize) -> usize {
        let bl = M::Cipher::BLOCK_LEN;
        (self.buffered + input_len) / bl * bl
    }

    /// Encrypts `input` into `output`, returning how many bytes it wrote:
    /// every whole block so far ([`update_len`](Self::update_len)); the
    /// rest waits for more input or [`finalize`](Self::finalize).
    ///
    /// # Errors
    ///
    /// [`Error::OutputTooShort`] when `output` has no room for them.
    pub fn update(&mut self, mut input: &[u8], output: &mut [u8]) -> Result<usize, Error> {
        let bl = M::Cipher::BLOCK_LEN;
        let total = self.update_len(input.len());
        room(total, output.len())?;
        self.seen += input.len();
        let mut written = 0;
        if self.buffered > 0 {
            let take = input.len().min(bl - self.buffered);
            self.partial[self.buffered..self.buffered + take].copy_from_slice(&input[..take]);
            self.buffered += take;
            input = &input[take..];
            if self.buffered < bl {
                return Ok(0);
            }
            self.mode
                .encrypt_blocks(InOut::apart(&self.partial[..bl], &mut output[..bl])?);
            self.buffered = 0;
            written = bl;
        }
        let whole = input.len() / bl * bl;
        let (blocks, rest) = input.split_at(whole);
        self.mode
            .encrypt_blocks(InOut::apart(blocks, &mut output[written..written + whole])?);
        self.partial[..rest.len()].copy_from_slice(rest);
        self.buffered = rest.len();
        Ok(total)
    }

    /// Ends the message: writes its last, padded block (the block length,
    /// into `output`) unless the scheme adds nothing (no padding; GOST
    /// procedures 1 and 3 after whole blocks).
    /// Returns how many bytes it wrote.
    ///
    /// # Errors
    ///
    /// [`Error::OutputTooShort`] when `output` is shorter than a block
    /// (with PKCS#7); [`Error::NotWholeBlocks`] when, with no padding, the
    /// message did not end on a block boundary.
    pub fn finalize(mut self, output: &mut [u8]) -> Result<usize, Error> {
        let bl = M::Cipher::BLOCK_LEN;
        let buffered = self.buffered;
        if !self.padding.pad(&mut self.partial[..bl], buffered) {
            return whole_blocks::<M::Cipher>(self.seen).map(|()| 0);
        }
        room(bl, output.len())?;
        self.mode
            .encrypt_blocks(InOut::apart(&self.partial[..bl], &mut output[..bl])?);
        Ok(bl)
    }
}

impl<M: BlockMode> Drop for PaddedEncryptor<M> {
    fn drop(&mut self) {
        self.partial.zeroize();
    }
}

/// The decrypting half of a streaming padded mode: [`update`] as
/// ciphertext arrives, writing every block but the last (which may be
/// padding), then [`finalize`] for the last.
///
/// [`update`]: PaddedDecryptor::update
/// [`finalize`]: PaddedDecryptor::finalize
pub struct PaddedDecryptor<M: BlockMode> {
    mode: M,
    padding: Padding,
    held: [u8; 16],
    buffered: usize,
    /// The message's bytes so far, for the error of a partial block.
    seen: usize,
}

impl<M: BlockMode> PaddedDecryptor<M> {
    /// Decrypts with `mode`, removing `padding`.
    pub fn new(mode: M, padding: Padding) -> Self {
        PaddedDecryptor {
            mode,
            padding,
            held: [0; 16],
            buffered: 0,
            seen: 0,
        }
    }

    /// The mode.
    pub fn mode(&self) -> &M {
        &self.mode
    }

    fork_and_advance!(true, "A decryptor", "(ECB, CBC)");

    /// How many bytes [`update`](Self::update) writes for `input_len`
    /// more bytes of ciphertext.
    pub fn update_len(&self, input_len: usize) -> usize {
        let bl = M::Cipher::BLOCK_LEN;
        let total = self.buffered + input_len;
        if self.padding.removable() {
            // The last whole block stays back: it may be the padding.
            total.saturating_sub(1) / bl * bl
        } else {
            total / bl * bl
        }
    }

    /// Decrypts `input` into `output`, returning how many bytes it wrote
    /// ([`update_len`](Self::update_len)).
    ///
    /// # Errors
    ///
    /// [`Error::OutputTooShort`] when `output` has no room for them.
    pub fn update(&mut self, mut input: &[u8], output: &mut [u8]) -> Result<usize, Error> {
        let bl = M::Cipher::BLOCK_LEN;
        let total = self.update_len(input.len());
        room(total, output.len())?;
        self.seen += input.len();
        let mut written = 0;
        // Complete the held block when more input follows it.
        if self.buffered > 0 && total > 0 {
            let take = input.len().min(bl - self.buffered);
            self.held[self.buffered..self.buffered + take].copy_from_slice(&input[..take]);
            self.buffered += take;
            input = &input[take..];
            if self.buffered == bl {
                self.mode
                    .decrypt_blocks(InOut::apart(&self.held[..bl], &mut output[..bl])?);
                self.buffered = 0;
                written = bl;
            }
        }
        let direct = total - written;
        let (blocks, rest) = input.split_at(direct);
        self.mode
            .decrypt_blocks(InOut::apart(blocks, &mut output[written..total])?);
        self.held[self.buffered..self.buffered + rest.len()].copy_from_slice(rest);
        self.buffered += rest.len();
        Ok(total)
    }

    /// Ends the message: decrypts the last block and, with PKCS#7, removes
    /// its padding in constant time, writing what remains of it into
    /// `output` (up to a block). Returns how many bytes it wrote.
    ///
    /// # Errors
    ///
    /// [`Error::BadPadding`] (PKCS#7) for every kind of bad ending: no
    /// block, a partial block, bad padding bytes — nothing else is said;
    /// [`Error::NotWholeBlocks`] without padding for a partial block;
    /// [`Error::OutputTooShort`] when `output` has no room.
    pub fn finalize(mut self, output: &mut [u8]) -> Result<usize, Error> {
        let bl = M::Cipher::BLOCK_LEN;
        match self.padding {
            p if !p.removable() => whole_blocks::<M::Cipher>(self.seen).map(|()| 0),
            _ if self.buffered != bl => Err(Error::BadPadding),
            p => {
                let mut block = [0u8; 16];
                self.mode
                    .decrypt_blocks(InOut::apart(&self.held[..bl], &mut block[..bl])?);
                let unpadded = if p == Padding::Pkcs7 {
                    unpad(&block[..bl])
                } else {
                    unpad_one_zeros(&block[..bl])
                };
                let result = unpadded.and_then(|n| {
                    room(n, output.len())?;
                    output[..n].copy_from_slice(&block[..n]);
                    Ok(n)
                });
                block.zeroize();
                result
            }
        }
    }
}

impl<M: BlockMode> Drop for PaddedDecryptor<M> {
    fn drop(&mut self) {
        self.held.zeroize();
    }
}

#[cfg(test)]
mod tests {
    use super::{Padding, pad, unpad, unpad_one_zeros};
    use crate::Error;

    #[test]
    fn gost_procedures_pad_and_procedure_2_removes() {
        for bl in [8usize, 16] {
            for buffered in 0..bl {
                let mut block = vec![0xa5u8; bl];
                block[..buffered].fill(0);
                assert!(Padding::GostOneZeros.pad(&mut block, buffered));
                assert_eq!(block[buffered], 0x80);
                assert_eq!(unpad_one_zeros(&block), Ok(buffered));
                let mut z = vec![0xa5u8; bl];
                assert_eq!(Padding::GostZeros.pad(&mut z, buffered), buffered > 0);
                assert_eq!(
                    Padding::GostOneZerosIfPartial.pad(&mut z, buffered),
                    buffered > 0
                );
            }
            assert_eq!(unpad_one_zeros(&vec![0u8; bl]), Err(Error::BadPadding));
            let mut block = vec![0u8; bl];
            block[bl - 1] = 0x81;
            assert_eq!(unpad_one_zeros(&block), Err(Error::BadPadding));
            block[bl - 1] = 0x80;
            block[0] = 0x80;
            assert_eq!(unpad_one_zeros(&block), Ok(bl - 1));
        }
    }

    #[test]
    fn every_padding_length_round_trips_and_every_bad_one_fails_alike() {
        for bl in [8usize, 16] {
            for buffered in 0..bl {
                let mut block = vec![0xa5u8; bl];
                pad(&mut block, buffered);
                assert_eq!(unpad(&block), Ok(buffered));
            }
            for last in 0..=255u8 {
                let mut block = vec![last; bl];
                let want = if (1..=bl as u8).contains(&last) {
                    Ok(bl - usize::from(last))
                } else {
                    Err(Error::BadPadding)
                };
                assert_eq!(unpad(&block), want, "bl {bl} last {last}");
                // A wrong byte anywhere inside the padding.
                if (2..=bl as u8).contains(&last) {
                    for i in bl - usize::from(last)..bl - 1 {
                        block[i] ^= 1;
                        assert_eq!(unpad(&block), Err(Error::BadPadding));
                        block[i] ^= 1;
                    }
                }
            }
        }
    }
}
