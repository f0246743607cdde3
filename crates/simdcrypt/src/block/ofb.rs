//! Output feedback (SP 800-38A §6.4): the keystream is the IV enciphered
//! again and again, O_j = CIPH(O_{j−1}); a chain, one block at a time.

use zeroize::Zeroize;

use super::{BlockCipher, iv_register};
use crate::Error;
use crate::xor::InOut;

/// OFB over the block cipher `C`, resumable at any byte: calls of 5 and 70
/// bytes equal one of 75. Encryption and decryption are the same XOR.
#[derive(Clone)]
pub struct Ofb<C: BlockCipher> {
    cipher: C,
    /// The register R of z blocks, the oldest first: the IV, then the
    /// last z output blocks; the last is the current keystream block.
    register: Vec<u8>,
    /// How many bytes of the current keystream block are used.
    used: usize,
}

impl<C: BlockCipher> Ofb<C> {
    /// OFB under `key` from `iv`, on the cipher's fastest rung.
    pub fn new(key: &C::Key, iv: &C::Block) -> Self {
        Self::from_cipher(C::new(key), iv)
    }

    /// OFB over a cipher already keyed (on any rung).
    pub fn from_cipher(cipher: C, iv: &C::Block) -> Self {
        Ofb {
            cipher,
            register: iv.as_ref().to_vec(),
            used: C::BLOCK_LEN,
        }
    }

    /// OFB of GOST R 34.13-2015 §5.3 (s = n) under `key` with an IV of z
    /// blocks (m = z·n bits; z = 1 is [`Ofb::new`]).
    ///
    /// # Errors
    ///
    /// [`Error::BadLength`] when `iv` is empty or not whole blocks.
    pub fn with_iv_register(key: &C::Key, iv: &[u8]) -> Result<Self, Error> {
        Self::from_cipher_with_iv_register(C::new(key), iv)
    }

    /// [`Ofb::with_iv_register`] over a cipher already keyed.
    ///
    /// # Errors
    ///
    /// As [`Ofb::with_iv_register`].
    pub fn from_cipher_with_iv_register(cipher: C, iv: &[u8]) -> Result<Self, Error> {
        Ok(Ofb {
            cipher,
            register: iv_register::<C>(iv)?,
            used: C::BLOCK_LEN,
        })
    }

    /// The block cipher.
    pub fn cipher(&self) -> &C {
        &self.cipher
    }

    /// Starts a new message under the same key from the one-block `iv`
    /// (a register of z blocks becomes one of one). The key schedule is
    /// kept, neither recomputed nor copied.
    pub fn set_iv(&mut self, iv: &C::Block) {
        super::set_register::<C>(&mut self.register, iv);
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

    /// XORs the keystream into `data` (encrypts or decrypts it).
    pub fn apply_keystream(&mut self, data: &mut [u8]) {
        self.apply(InOut::in_place(data));
    }

    /// XORs the keystream into `input`, writing `output`.
    ///
    /// # Errors
    ///
    /// [`Error::LengthMismatch`] when the lengths differ.
    pub fn xor_into(&mut self, input: &[u8], output: &mut [u8]) -> Result<(), Error> {
        self.apply(InOut::apart(input, output)?);
        Ok(())
    }

    fn apply(&mut self, data: InOut<'_>) {
        let bl = C::BLOCK_LEN;
        let last = self.register.len() - bl;
        let mut rest = data;
        while !rest.is_empty() {
            if self.used == bl {
                // O_j = CIPH(O_{j−z}), then shifted in at the end.
                self.cipher.encrypt_one(&mut self.register[..bl]);
                self.register.rotate_left(bl);
                self.used = 0;
            }
            let take = rest.len().min(bl - self.used);
            let (head, tail) = rest.split_at(take);
            head.xor_bytewise(&self.register[last + self.used..]);
            self.used += take;
            rest = tail;
        }
    }
}

impl<C: BlockCipher> Drop for Ofb<C> {
    fn drop(&mut self) {
        self.register.zeroize();
    }
}
