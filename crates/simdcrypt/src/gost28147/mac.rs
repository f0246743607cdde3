//! The MAC of GOST 28147-89 ("imitovstavka", RFC 5830 §8): CBC-MAC on the
//! 16-round transform, the last block zero-padded; the MAC is the first 32
//! bits of the final state (its first bytes in general, 1 to 8 of them).
//! As gost-engine and CryptoPro compute it: a message of at most 8 bytes
//! is followed by a zero block, the empty message gives zeros, and
//! CryptoPro key meshing (RFC 4357 §2.3.2, the state kept) runs before
//! each 1024 bytes after the first.

use zeroize::Zeroize;

use super::meshing::{SECTION, mesh};
use super::{BLOCK_LEN, Gost28147, Rung, KEY_LEN, SBox};
use crate::Error;

/// The length of the MAC of RFC 5830 §8 as gost-engine gives it, in bytes.
pub const MAC_LEN: usize = 4;

/// The GOST 28147-89 MAC ("imitovstavka"): [`update`](Self::update) with
/// the message in pieces, then [`finalize`](Self::finalize) (32 bits),
/// [`finalize_state`](Self::finalize_state) (the 64-bit state) or
/// [`verify`](Self::verify).
///
/// ```
/// use simdcrypt::gost28147::{Gost28147Mac, SBox};
///
/// let mut mac = Gost28147Mac::with_sbox(&[3; 32], SBox::CRYPTOPRO_A);
/// mac.update(b"imito");
/// mac.update(b"vstavka");
/// let tag = mac.clone().finalize();
/// mac.verify(&tag)?;
/// assert_eq!(Gost28147Mac::new(&[3; 32]).finalize(), [0; 4]);
/// # Ok::<(), simdcrypt::Error>(())
/// ```
#[derive(Clone)]
pub struct Gost28147Mac {
    cipher: Gost28147,
    /// The state `N1 ‖ N2`, little-endian, as gost-engine's buffer.
    state: [u8; BLOCK_LEN],
    /// The message's last bytes, up to a whole block, held back until the
    /// message is known to go on.
    buffer: [u8; BLOCK_LEN],
    buffered: usize,
    /// Blocks through the transform so far.
    blocks: u64,
    meshing: bool,
}

impl Gost28147Mac {
    /// The MAC under `key` with the S-box set CryptoPro-A (gost-engine's
    /// `gost-mac`) and key meshing.
    pub fn new(key: &[u8; KEY_LEN]) -> Self {
        Self::with_sbox(key, SBox::CRYPTOPRO_A)
    }

    /// The MAC under `key` with the S-box set `sbox` (`param-z` for
    /// gost-engine's `gost-mac-12`), with key meshing.
    pub fn with_sbox(key: &[u8; KEY_LEN], sbox: SBox) -> Self {
        Self::from_cipher(Gost28147::with_sbox(key, sbox))
    }

    /// The MAC over a cipher already keyed (any S-box set, any rung), with
    /// key meshing.
    pub fn from_cipher(cipher: Gost28147) -> Self {
        Gost28147Mac {
            cipher,
            state: [0; BLOCK_LEN],
            buffer: [0; BLOCK_LEN],
            buffered: 0,
            blocks: 0,
            meshing: true,
        }
    }

    /// The same MAC with CryptoPro key meshing on or off (on by default,
    /// as gost-engine has it). Set it before the first byte.
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
        self.cipher = self.cipher.clone().with_rung(imp)?;
        Ok(self)
    }

    /// Renamed [`with_rung`](Self::with_rung).
    #[deprecated(note = "renamed `with_rung`")]
    pub fn with_impl(self, imp: Rung) -> Result<Self, Error> {
        self.with_rung(imp)
    }

    /// The rung in use.
    pub fn rung(&self) -> Rung {
        self.cipher.rung()
    }

    /// Renamed [`rung`](Self::rung).
    #[deprecated(note = "renamed `rung`")]
    pub fn implementation(&self) -> Rung {
        self.rung()
    }

    /// The 32-bit MAC of `message` under `key` with `sbox`, key meshing
    /// on.
    pub fn mac(key: &[u8; KEY_LEN], sbox: SBox, message: &[u8]) -> [u8; MAC_LEN] {
        let mut mac = Self::with_sbox(key, sbox);
        mac.update(message);
        mac.finalize()
    }

    /// Adds `data` to the message.
    pub fn update(&mut self, mut data: &[u8]) {
        while !data.is_empty() {
            if self.buffered == BLOCK_LEN {
                let block = self.buffer;
                self.absorb(&block);
                self.buffered = 0;
            }
            let take = data.len().min(BLOCK_LEN - self.buffered);
            self.buffer[self.buffered..self.buffered + take].copy_from_slice(&data[..take]);
            self.buffered += take;
            data = &data[take..];
        }
    }

    /// One block through the 16 rounds (RFC 5830 §8), the key meshed
    /// first after each 1024 bytes.
    fn absorb(&mut self, block: &[u8; BLOCK_LEN]) {
        if self.meshing
            && self.blocks > 0
            && self.blocks.is_multiple_of((SECTION / BLOCK_LEN) as u64)
        {
            mesh(self.cipher.engine_mut(), None);
        }
        for (s, b) in self.state.iter_mut().zip(block) {
            *s ^= b;
        }
        let v = u64::from_le_bytes(self.state);
        let engine = self.cipher.engine();
        let [n1, n2] = engine.rounds(&engine.schedule().enc[..16], [v as u32, (v >> 32) as u32]);
        self.state = (u64::from(n2) << 32 | u64::from(n1)).to_le_bytes();
        self.blocks += 1;
    }

    /// The final 64-bit state `N1 ‖ N2` (little-endian words), whose first
    /// bytes are the MAC: the last block zero-padded, a zero block after a
    /// message of one block or less, nothing for the empty message.
    pub fn finalize_state(mut self) -> [u8; BLOCK_LEN] {
        if self.buffered > 0 {
            let mut last = [0u8; BLOCK_LEN];
            last[..self.buffered].copy_from_slice(&self.buffer[..self.buffered]);
            self.absorb(&last);
            if self.blocks == 1 {
                self.absorb(&[0; BLOCK_LEN]);
            }
            last.zeroize();
        }
        self.state
    }

    /// The 32-bit MAC (RFC 5830 §8; gost-engine's `gost-mac`).
    pub fn finalize(self) -> [u8; MAC_LEN] {
        let state = self.finalize_state();
        state[..MAC_LEN].try_into().expect("4 bytes")
    }

    /// Checks `tag` (the first 4 to 8 bytes of the final state; 4 is the
    /// standard's MAC) in constant time.
    ///
    /// # Errors
    ///
    /// [`Error::TagLength`] for a tag shorter than 4 bytes or longer than 8;
    /// [`Error::AuthenticationFailed`] when it does not match.
    pub fn verify(self, tag: &[u8]) -> Result<(), Error> {
        crate::tag::verify_truncated(tag, MAC_LEN, BLOCK_LEN, || self.finalize_state())
    }
}

impl Drop for Gost28147Mac {
    fn drop(&mut self) {
        self.state.zeroize();
        self.buffer.zeroize();
    }
}

/// The S-box set and the rung; never the key.
impl std::fmt::Debug for Gost28147Mac {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Gost28147Mac")
            .field("cipher", &self.cipher)
            .field("key_meshing", &self.meshing)
            .finish_non_exhaustive()
    }
}
