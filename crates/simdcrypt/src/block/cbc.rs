//! Cipher block chaining (SP 800-38A §6.2): each plaintext block XORed with
//! the ciphertext block before it (the IV for the first), then enciphered.
//! Encryption is a chain, one block at a time; decryption deciphers every
//! block at once and XORs afterwards. GOST R 34.13-2015 §5.4 widens the IV
//! to m = z·n bits, a shift register of z blocks: each plaintext block is
//! XORed with the ciphertext block z before it ([`Cbc::with_iv_register`]).

use super::padding::sealed::Sealed;
use super::padding::{BlockMode, padded_forms};
use super::{BlockCipher, cbc_decrypt_by_blocks, cbc_encrypt_by_blocks, iv_register, whole_blocks};
use crate::Error;
use crate::xor::InOut;

/// CBC over the block cipher `C`, carrying its chaining value from call to
/// call: calls on 32 and 48 bytes equal one on 80.
///
/// Unauthenticated: a receiver that reports bad padding apart from other
/// failures is a padding oracle (Vaudenay 2002). [`Cbc::decrypt_padded_vec`]
/// and [`PaddedDecryptor`](super::PaddedDecryptor) fail with one opaque error, but only a MAC
/// checked before decrypting (or an AEAD) makes CBC safe to receive.
///
/// ```
/// use simdcrypt::aes::Aes128Cbc;
///
/// let (key, iv) = ([7; 16], [9; 16]);
/// let mut cbc = Aes128Cbc::new(&key, &iv);
/// let mut data = [0u8; 48];
/// cbc.encrypt(&mut data[..16])?;
/// cbc.encrypt(&mut data[16..])?;
/// let mut whole = [0u8; 48];
/// Aes128Cbc::new(&key, &iv).encrypt(&mut whole)?;
/// assert_eq!(data, whole);
/// # Ok::<(), simdcrypt::Error>(())
/// ```
#[derive(Clone)]
pub struct Cbc<C: BlockCipher> {
    cipher: C,
    /// The register R of z blocks: the IV, then the last z ciphertext
    /// blocks, the oldest first.
    chain: Vec<u8>,
}

impl<C: BlockCipher> Cbc<C> {
    /// CBC under `key` from `iv`, on the cipher's fastest rung.
    pub fn new(key: &C::Key, iv: &C::Block) -> Self {
        Self::from_cipher(C::new(key), iv)
    }

    /// CBC over a cipher already keyed (on any rung).
    pub fn from_cipher(cipher: C, iv: &C::Block) -> Self {
        Cbc {
            cipher,
            chain: iv.as_ref().to_vec(),
        }
    }

    /// CBC of GOST R 34.13-2015 §5.4 under `key` with an IV of z blocks
    /// (m = z·n bits; z = 1 is [`Cbc::new`]): block i is chained on the
    /// ciphertext block i − z.
    ///
    /// # Errors
    ///
    /// [`Error::BadLength`] when `iv` is empty or not whole blocks.
    pub fn with_iv_register(key: &C::Key, iv: &[u8]) -> Result<Self, Error> {
        Self::from_cipher_with_iv_register(C::new(key), iv)
    }

    /// [`Cbc::with_iv_register`] over a cipher already keyed.
    ///
    /// # Errors
    ///
    /// As [`Cbc::with_iv_register`].
    pub fn from_cipher_with_iv_register(cipher: C, iv: &[u8]) -> Result<Self, Error> {
        Ok(Cbc {
            cipher,
            chain: iv_register::<C>(iv)?,
        })
    }

    /// The same key on rung `imp`; see [`BlockCipher::with_rung`].
    ///
    /// # Errors
    ///
    /// As [`BlockCipher::with_rung`].
    pub fn with_rung(self, imp: C::Rung) -> Result<Self, Error> {
        Ok(Cbc {
            cipher: self.cipher.with_rung(imp)?,
            chain: self.chain,
        })
    }

    /// Renamed [`with_rung`](Self::with_rung).
    #[deprecated(note = "renamed `with_rung`")]
    pub fn with_impl(self, imp: C::Rung) -> Result<Self, Error> {
        self.with_rung(imp)
    }

    /// The block cipher.
    pub fn cipher(&self) -> &C {
        &self.cipher
    }

    /// Starts a new message under the same key from the one-block `iv`
    /// (a register of z blocks becomes one of one). The key schedule is
    /// kept, neither recomputed nor copied, and nothing is allocated.
    ///
    /// ```
    /// use simdcrypt::aes::Aes128Cbc;
    ///
    /// let mut cbc = Aes128Cbc::new(&[7; 16], &[1; 16]);
    /// let mut first = [0u8; 32];
    /// cbc.encrypt(&mut first)?;
    /// cbc.set_iv(&[2; 16]);
    /// let mut second = [0u8; 32];
    /// cbc.encrypt(&mut second)?;
    /// let mut fresh = [0u8; 32];
    /// Aes128Cbc::new(&[7; 16], &[2; 16]).encrypt(&mut fresh)?;
    /// assert_eq!(second, fresh);
    /// # Ok::<(), simdcrypt::Error>(())
    /// ```
    #[inline]
    pub fn set_iv(&mut self, iv: &C::Block) {
        super::set_register::<C>(&mut self.chain, iv);
    }

    /// The chaining register: the IV, then the last z ciphertext blocks
    /// (the last one for a one-block IV).
    pub fn chain(&self) -> &[u8] {
        &self.chain
    }

    /// Encrypts whole blocks in place.
    ///
    /// # Errors
    ///
    /// [`Error::NotWholeBlocks`] when `data` is not a multiple of the block.
    pub fn encrypt(&mut self, data: &mut [u8]) -> Result<(), Error> {
        self.checked(InOut::in_place(data), Self::encrypt_blocks)
    }

    /// Decrypts whole blocks in place.
    ///
    /// # Errors
    ///
    /// [`Error::NotWholeBlocks`] when `data` is not a multiple of the block.
    pub fn decrypt(&mut self, data: &mut [u8]) -> Result<(), Error> {
        self.checked(InOut::in_place(data), Self::decrypt_blocks)
    }

    /// Encrypts the whole blocks of `input` into `output`.
    ///
    /// # Errors
    ///
    /// [`Error::LengthMismatch`], [`Error::NotWholeBlocks`].
    pub fn encrypt_into(&mut self, input: &[u8], output: &mut [u8]) -> Result<(), Error> {
        self.checked(InOut::apart(input, output)?, Self::encrypt_blocks)
    }

    /// Decrypts the whole blocks of `input` into `output`.
    ///
    /// # Errors
    ///
    /// [`Error::LengthMismatch`], [`Error::NotWholeBlocks`].
    pub fn decrypt_into(&mut self, input: &[u8], output: &mut [u8]) -> Result<(), Error> {
        self.checked(InOut::apart(input, output)?, Self::decrypt_blocks)
    }

    fn checked(&mut self, data: InOut<'_>, run: fn(&mut Self, InOut<'_>)) -> Result<(), Error> {
        whole_blocks::<C>(data.len())?;
        run(self, data);
        Ok(())
    }

    padded_forms!();
}

impl<C: BlockCipher> BlockMode for Cbc<C> {
    type Cipher = C;

    fn cipher(&self) -> &C {
        &self.cipher
    }
}

impl<C: BlockCipher> Sealed for Cbc<C> {
    fn encrypt_blocks(&mut self, data: InOut<'_>) {
        if self.chain.len() == C::BLOCK_LEN {
            self.cipher.cbc_encrypt(&mut self.chain, data);
        } else {
            cbc_encrypt_by_blocks(&self.cipher, &mut self.chain, data);
        }
    }

    fn decrypt_blocks(&mut self, data: InOut<'_>) {
        if self.chain.len() == C::BLOCK_LEN {
            self.cipher.cbc_decrypt(&mut self.chain, data);
        } else {
            cbc_decrypt_by_blocks(&self.cipher, &mut self.chain, data);
        }
    }

    fn skipped(&self, skip: &[u8], decrypt: bool) -> Option<Self> {
        if !decrypt || whole_blocks::<C>(skip.len()).is_err() {
            return None;
        }
        let mut next = self.clone();
        super::shift_in(&mut next.chain, skip);
        Some(next)
    }
}
