//! Electronic codebook (SP 800-38A §6.1): every block enciphered alone.
//! It shows equal plaintext blocks as equal ciphertext blocks; use it only
//! where a format asks for it.

use super::padding::sealed::Sealed;
use super::padding::{BlockMode, padded_forms};
use super::{BlockCipher, whole_blocks};
use crate::Error;
use crate::xor::InOut;

/// ECB over the block cipher `C`: both directions run on its widest rung.
///
/// ```
/// use simdcrypt::aes::Aes128Ecb;
///
/// // FIPS 197, Appendix C.1.
/// let key: [u8; 16] = core::array::from_fn(|i| i as u8);
/// let mut block: [u8; 16] = core::array::from_fn(|i| (i as u8) * 0x11);
/// Aes128Ecb::new(&key).encrypt(&mut block)?;
/// assert_eq!(block[..4], [0x69, 0xc4, 0xe0, 0xd8]);
/// # Ok::<(), simdcrypt::Error>(())
/// ```
#[derive(Clone)]
pub struct Ecb<C: BlockCipher> {
    cipher: C,
}

impl<C: BlockCipher> Ecb<C> {
    /// ECB under `key`, on the cipher's fastest rung.
    pub fn new(key: &C::Key) -> Self {
        Self::from_cipher(C::new(key))
    }

    /// ECB over a cipher already keyed (on any rung).
    pub fn from_cipher(cipher: C) -> Self {
        Ecb { cipher }
    }

    /// The same key on rung `imp`; see [`BlockCipher::with_rung`].
    ///
    /// # Errors
    ///
    /// As [`BlockCipher::with_rung`].
    pub fn with_rung(self, imp: C::Rung) -> Result<Self, Error> {
        Ok(Ecb {
            cipher: self.cipher.with_rung(imp)?,
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

    /// Encrypts whole blocks in place.
    ///
    /// # Errors
    ///
    /// [`Error::NotWholeBlocks`] when `data` is not a multiple of the block.
    pub fn encrypt(&self, data: &mut [u8]) -> Result<(), Error> {
        self.cipher.encrypt_blocks(data)
    }

    /// Decrypts whole blocks in place.
    ///
    /// # Errors
    ///
    /// [`Error::NotWholeBlocks`] when `data` is not a multiple of the block.
    pub fn decrypt(&self, data: &mut [u8]) -> Result<(), Error> {
        self.cipher.decrypt_blocks(data)
    }

    /// Encrypts the whole blocks of `input` into `output`.
    ///
    /// # Errors
    ///
    /// [`Error::LengthMismatch`], [`Error::NotWholeBlocks`].
    pub fn encrypt_into(&self, input: &[u8], output: &mut [u8]) -> Result<(), Error> {
        self.cipher.encrypt_blocks_into(input, output)
    }

    /// Decrypts the whole blocks of `input` into `output`.
    ///
    /// # Errors
    ///
    /// [`Error::LengthMismatch`], [`Error::NotWholeBlocks`].
    pub fn decrypt_into(&self, input: &[u8], output: &mut [u8]) -> Result<(), Error> {
        self.cipher.decrypt_blocks_into(input, output)
    }

    padded_forms!();
}

impl<C: BlockCipher> BlockMode for Ecb<C> {
    type Cipher = C;

    fn cipher(&self) -> &C {
        &self.cipher
    }
}

impl<C: BlockCipher> Sealed for Ecb<C> {
    fn encrypt_blocks(&mut self, data: InOut<'_>) {
        debug_assert!(whole_blocks::<C>(data.len()).is_ok());
        self.cipher.encrypt(data);
    }

    fn decrypt_blocks(&mut self, data: InOut<'_>) {
        debug_assert!(whole_blocks::<C>(data.len()).is_ok());
        self.cipher.decrypt(data);
    }

    fn skipped(&self, _skip: &[u8], _decrypt: bool) -> Option<Self> {
        Some(self.clone())
    }
}
