//! GOST 28147-89 "gamma with feedback" (RFC 5830 §7): full-block CFB
//! ([`Cfb`] of the block layer), with CryptoPro key meshing (RFC 4357
//! §2.3.2) as gost-engine's `gost89` has it: before the gamma of every
//! 1024 bytes after the first, the key is meshed and the feedback block
//! enciphered under the new key. Encryption is a chain on the single-block
//! path; decryption enciphers a batch of ciphertext blocks at once.

use super::meshing::{SECTION, mesh};
use super::{BLOCK_LEN, Gost28147, Rung, KEY_LEN, SBox};
use crate::Error;
use crate::block::Cfb;
use crate::xor::InOut;

/// GOST 28147-89 in CFB ("gamma with feedback"), with CryptoPro key
/// meshing unless turned off; resumable at any byte (calls of 5 and 70
/// bytes equal one of 75), as gost-engine's `gost89`.
///
/// ```
/// use simdcrypt::gost28147::{Gost28147Cfb, SBox};
///
/// let (key, iv) = ([7u8; 32], [9u8; 8]);
/// let mut data = *b"feedback";
/// Gost28147Cfb::with_sbox(&key, &iv, SBox::PARAM_Z).encrypt(&mut data);
/// Gost28147Cfb::with_sbox(&key, &iv, SBox::PARAM_Z).decrypt(&mut data);
/// assert_eq!(&data, b"feedback");
/// ```
#[derive(Clone)]
pub struct Gost28147Cfb {
    cfb: Cfb<Gost28147>,
    meshing: bool,
    /// Bytes done under the current key.
    done: usize,
}

impl Gost28147Cfb {
    /// CFB under `key` from `iv` with the S-box set CryptoPro-A and key
    /// meshing. (gost-engine's `gost89` takes `param-z` when `CRYPT_PARAMS`
    /// is unset: [`Gost28147Cfb::with_sbox`].)
    pub fn new(key: &[u8; KEY_LEN], iv: &[u8; BLOCK_LEN]) -> Self {
        Self::with_sbox(key, iv, SBox::CRYPTOPRO_A)
    }

    /// CFB under `key` from `iv` with the S-box set `sbox`, with key
    /// meshing.
    pub fn with_sbox(key: &[u8; KEY_LEN], iv: &[u8; BLOCK_LEN], sbox: SBox) -> Self {
        Self::from_cipher(Gost28147::with_sbox(key, sbox), iv)
    }

    /// CFB over a cipher already keyed (any S-box set, any rung), with key
    /// meshing.
    pub fn from_cipher(cipher: Gost28147, iv: &[u8; BLOCK_LEN]) -> Self {
        Gost28147Cfb {
            cfb: Cfb::from_cipher(cipher, iv),
            meshing: true,
            done: 0,
        }
    }

    /// The same mode with CryptoPro key meshing on or off (on by default,
    /// as gost-engine has it for every parameter set). Set it before the
    /// first byte: it changes nothing already done.
    pub fn with_key_meshing(mut self, on: bool) -> Self {
        self.meshing = on;
        self
    }

    /// The same key on rung `imp`.
    ///
    /// # Errors
    ///
    /// As [`Gost28147::with_rung`].
    pub fn with_rung(mut self, imp: Rung) -> Result<Self, Error> {
        self.cfb = self.cfb.with_rung(imp)?;
        Ok(self)
    }

    /// Renamed [`with_rung`](Self::with_rung).
    #[deprecated(note = "renamed `with_rung`")]
    pub fn with_impl(self, imp: Rung) -> Result<Self, Error> {
        self.with_rung(imp)
    }

    /// The rung in use.
    pub fn rung(&self) -> Rung {
        self.cfb.cipher().rung()
    }

    /// Renamed [`rung`](Self::rung).
    #[deprecated(note = "renamed `rung`")]
    pub fn implementation(&self) -> Rung {
        self.rung()
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

    /// The data a section (1024 bytes under one key) at a time, the key
    /// meshed between sections.
    fn run(&mut self, data: InOut<'_>, encrypt: bool) {
        let mut rest = data;
        while !rest.is_empty() {
            if self.meshing && self.done == SECTION {
                debug_assert!(self.cfb.at_boundary());
                let (cipher, register) = self.cfb.cipher_and_register();
                mesh(cipher.engine_mut(), Some(register));
                self.done = 0;
            }
            let take = if self.meshing {
                rest.len().min(SECTION - self.done)
            } else {
                rest.len()
            };
            let (head, tail) = rest.split_at(take);
            self.cfb.run(head, encrypt);
            if self.meshing {
                self.done += take;
            }
            rest = tail;
        }
    }
}

/// The S-box set and the rung; never the key.
impl std::fmt::Debug for Gost28147Cfb {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Gost28147Cfb")
            .field("cipher", self.cfb.cipher())
            .field("key_meshing", &self.meshing)
            .finish_non_exhaustive()
    }
}
