//! Cipher feedback with a full-block segment (SP 800-38A §6.3, CFB128 for
//! AES): each ciphertext block is the plaintext XOR the cipher of the
//! ciphertext block before it (the IV first). Encryption is a chain;
//! decryption enciphers every ciphertext block at once.

use zeroize::Zeroize;

use super::BlockCipher;
use crate::xor::InOut;
use crate::{Error, Xor};

/// The most bytes decryption enciphers at once on the stack.
const BATCH: usize = 512;

/// Full-block CFB over the block cipher `C`, resumable at any byte as
/// OpenSSL's is: calls of 5 and 70 bytes equal one of 75.
#[derive(Clone)]
pub struct Cfb<C: BlockCipher> {
    cipher: C,
    /// The feedback: the last ciphertext block (the IV at first), built
    /// up byte by byte inside a block.
    register: C::Block,
    /// CIPH(register) as it was when the current block began.
    pad: C::Block,
    /// How many bytes of the current block are done; the block length
    /// when a new block begins.
    used: usize,
}

impl<C: BlockCipher> Cfb<C> {
    /// CFB under `key` from `iv`, on the cipher's fastest rung.
    pub fn new(key: &C::Key, iv: &C::Block) -> Self {
        Self::from_cipher(C::new(key), iv)
    }

    /// CFB over a cipher already keyed (on any rung).
    pub fn from_cipher(cipher: C, iv: &C::Block) -> Self {
        Cfb {
            cipher,
            register: *iv,
            pad: C::Block::default(),
            used: C::BLOCK_LEN,
        }
    }

    /// The block cipher.
    pub fn cipher(&self) -> &C {
        &self.cipher
    }

    /// The same key on rung `imp`; see [`BlockCipher::with_impl`].
    ///
    /// # Errors
    ///
    /// As [`BlockCipher::with_impl`].
    pub fn with_impl(mut self, imp: C::Impl) -> Result<Self, Error> {
        self.cipher = self.cipher.clone().with_impl(imp)?;
        Ok(self)
    }

    /// Encrypts `data` in place.
    pub fn encrypt(&mut self, data: &mut [u8]) {
        self.run(InOut::in_place(data), true);
    }

    /// Decrypts `data` in place.
    pub fn decrypt(&mut self, data: &mut [u8]) {
        self.run(InOut::in_place(data), false);
    }

    /// Encrypts `input` into `output`.
    ///
    /// # Errors
    ///
    /// [`Error::LengthMismatch`] when the lengths differ.
    pub fn encrypt_into(&mut self, input: &[u8], output: &mut [u8]) -> Result<(), Error> {
        self.run(InOut::apart(input, output)?, true);
        Ok(())
    }

    /// Decrypts `input` into `output`.
    ///
    /// # Errors
    ///
    /// [`Error::LengthMismatch`] when the lengths differ.
    pub fn decrypt_into(&mut self, input: &[u8], output: &mut [u8]) -> Result<(), Error> {
        self.run(InOut::apart(input, output)?, false);
        Ok(())
    }

    /// Decryption as it stands after `skip` (whole blocks) more
    /// ciphertext, from a block boundary: the register is the last
    /// ciphertext block.
    pub(crate) fn skipped(&self, skip: &[u8]) -> Option<Self> {
        if self.used != C::BLOCK_LEN || !skip.len().is_multiple_of(C::BLOCK_LEN) {
            return None;
        }
        let mut next = self.clone();
        if let Some(last) = skip.len().checked_sub(C::BLOCK_LEN) {
            next.register.as_mut().copy_from_slice(&skip[last..]);
        }
        Some(next)
    }

    fn run(&mut self, data: InOut<'_>, encrypt: bool) {
        let bl = C::BLOCK_LEN;
        let mut rest = data;
        while !rest.is_empty() {
            if self.used == bl && !encrypt && rest.len() >= 2 * bl {
                rest = self.decrypt_blocks(rest);
                continue;
            }
            if self.used == bl {
                self.pad = self.register;
                self.cipher.encrypt_block(&mut self.pad);
                self.used = 0;
            }
            let take = rest.len().min(bl - self.used);
            let (head, tail) = rest.split_at(take);
            let at = self.used..self.used + take;
            if !encrypt {
                self.register.as_mut()[at.clone()].copy_from_slice(head.input());
            }
            let out = {
                let mut head = head;
                head.reborrow().xor_bytewise(&self.pad.as_ref()[at.clone()]);
                head.into_output()
            };
            if encrypt {
                self.register.as_mut()[at].copy_from_slice(out);
            }
            self.used += take;
            rest = tail;
        }
    }

    /// Decrypts the whole blocks at the start of `data` (at least two, at
    /// a block boundary) a batch at a time: the batch's keystream is the
    /// cipher of the register and every ciphertext block but the batch's
    /// last, all at once. Returns what is left.
    fn decrypt_blocks<'a>(&mut self, data: InOut<'a>) -> InOut<'a> {
        let bl = C::BLOCK_LEN;
        let whole = data.len() / bl * bl;
        let (blocks, rest) = data.split_at(whole);
        let mut keystream = [0u8; BATCH];
        for chunk in blocks.chunks(BATCH) {
            let len = chunk.len();
            keystream[..bl].copy_from_slice(self.register.as_ref());
            keystream[bl..len].copy_from_slice(&chunk.input()[..len - bl]);
            self.register
                .as_mut()
                .copy_from_slice(&chunk.input()[len - bl..]);
            self.cipher.encrypt(InOut::in_place(&mut keystream[..len]));
            Xor::Simd128.apply(chunk, &keystream[..len]);
        }
        keystream.zeroize();
        rest
    }
}

impl<C: BlockCipher> Drop for Cfb<C> {
    fn drop(&mut self) {
        self.pad.as_mut().zeroize();
    }
}
