//! Cipher feedback with a full-block segment (SP 800-38A §6.3, CFB128 for
//! AES): each ciphertext block is the plaintext XOR the cipher of the
//! ciphertext block before it (the IV first). Encryption is a chain;
//! decryption enciphers every ciphertext block at once. GOST R 34.13-2015
//! §5.5 (with s = n) widens the IV to m = z·n bits, a shift register of z
//! blocks: each block's gamma is the cipher of the ciphertext block z
//! before it ([`Cfb::with_iv_register`]).

use super::{BlockCipher, cfb_decrypt_by_blocks, iv_register, shift_in};
use crate::Error;
use crate::xor::InOut;

/// Full-block CFB over the block cipher `C`, resumable at any byte as
/// OpenSSL's is: calls of 5 and 70 bytes equal one of 75.
#[derive(Clone)]
pub struct Cfb<C: BlockCipher> {
    cipher: C,
    /// The feedback register R of z blocks: the IV, then the last z
    /// ciphertext blocks, the oldest first; inside a block, its first
    /// block is where the current ciphertext block is built up byte by
    /// byte (its old value went into `pad`).
    register: Vec<u8>,
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
            register: iv.as_ref().to_vec(),
            pad: C::Block::default(),
            used: C::BLOCK_LEN,
        }
    }

    /// CFB of GOST R 34.13-2015 §5.5 (s = n) under `key` with an IV of z
    /// blocks (m = z·n bits; z = 1 is [`Cfb::new`]): block i's gamma is the
    /// cipher of ciphertext block i − z.
    ///
    /// # Errors
    ///
    /// [`Error::BadLength`] when `iv` is empty or not whole blocks.
    pub fn with_iv_register(key: &C::Key, iv: &[u8]) -> Result<Self, Error> {
        Self::from_cipher_with_iv_register(C::new(key), iv)
    }

    /// [`Cfb::with_iv_register`] over a cipher already keyed.
    ///
    /// # Errors
    ///
    /// As [`Cfb::with_iv_register`].
    pub fn from_cipher_with_iv_register(cipher: C, iv: &[u8]) -> Result<Self, Error> {
        Ok(Cfb {
            cipher,
            register: iv_register::<C>(iv)?,
            pad: C::Block::default(),
            used: C::BLOCK_LEN,
        })
    }

    /// Whether the mode stands at a block boundary.
    pub(crate) fn at_boundary(&self) -> bool {
        self.used == C::BLOCK_LEN
    }

    /// The cipher and the register (the last ciphertext block, for a
    /// one-block IV at a block boundary), for GOST 28147-89's key meshing
    /// to change both.
    pub(crate) fn cipher_and_register(&mut self) -> (&mut C, &mut [u8]) {
        (&mut self.cipher, &mut self.register)
    }

    /// The block cipher.
    pub fn cipher(&self) -> &C {
        &self.cipher
    }

    /// Starts a new message under the same key from the one-block `iv`
    /// (a register of z blocks becomes one of one), at a block boundary.
    /// The key schedule is kept, neither recomputed nor copied.
    pub fn set_iv(&mut self, iv: &C::Block) {
        super::set_register::<C>(&mut self.register, iv);
        crate::ct::wipe(self.pad.as_mut());
        self.used = C::BLOCK_LEN;
    }

    /// The same key on rung `imp`; see [`BlockCipher::with_rung`].
    ///
    /// # Errors
    ///
    /// As [`BlockCipher::with_rung`].
    pub fn with_rung(mut self, imp: C::Rung) -> Result<Self, Error> {
        self.cipher = self.cipher.clone().with_rung(imp)?;
        Ok(self)
    }

    /// Renamed [`with_rung`](Self::with_rung).
    #[deprecated(note = "renamed `with_rung`")]
    pub fn with_impl(self, imp: C::Rung) -> Result<Self, Error> {
        self.with_rung(imp)
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
        shift_in(&mut next.register, skip);
        Some(next)
    }

    /// Encrypts (`encrypt`) or decrypts `data`.
    pub(crate) fn run(&mut self, data: InOut<'_>, encrypt: bool) {
        let bl = C::BLOCK_LEN;
        let mut rest = data;
        while !rest.is_empty() {
            if self.used == bl && !encrypt && rest.len() >= 2 * bl {
                rest = self.decrypt_blocks(rest);
                continue;
            }
            if self.used == bl {
                self.pad.as_mut().copy_from_slice(&self.register[..bl]);
                self.cipher.encrypt_block(&mut self.pad);
                self.used = 0;
            }
            let take = rest.len().min(bl - self.used);
            let (head, tail) = rest.split_at(take);
            let at = self.used..self.used + take;
            if !encrypt {
                self.register[at.clone()].copy_from_slice(head.input());
            }
            let out = {
                let mut head = head;
                head.reborrow().xor_bytewise(&self.pad.as_ref()[at.clone()]);
                head.into_output()
            };
            if encrypt {
                self.register[at].copy_from_slice(out);
            }
            self.used += take;
            if self.used == bl {
                // The block just built goes to the register's end.
                self.register.rotate_left(bl);
            }
            rest = tail;
        }
    }

    /// Decrypts the whole blocks at the start of `data` (at least two, at
    /// a block boundary) all at once: the rung's own kernel for a
    /// one-block register ([`super::sealed::Core::cfb_decrypt`]), else
    /// [`cfb_decrypt_by_blocks`]. Returns what is left.
    fn decrypt_blocks<'a>(&mut self, data: InOut<'a>) -> InOut<'a> {
        let bl = C::BLOCK_LEN;
        let whole = data.len() / bl * bl;
        let (blocks, rest) = data.split_at(whole);
        if self.register.len() == bl {
            self.cipher.cfb_decrypt(&mut self.register, blocks);
        } else {
            cfb_decrypt_by_blocks(&self.cipher, &mut self.register, blocks);
        }
        rest
    }
}

impl<C: BlockCipher> Drop for Cfb<C> {
    fn drop(&mut self) {
        crate::ct::wipe(self.pad.as_mut());
    }
}
