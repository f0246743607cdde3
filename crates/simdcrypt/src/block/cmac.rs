//! CMAC (SP 800-38B; RFC 4493 for AES; OMAC1 of Iwata and Kurosawa, which
//! GOST R 34.13-2015 §5.6 uses too): CBC-MAC whose last block is XORed
//! with a subkey, K1 when it is whole and K2 when it was padded.

use zeroize::Zeroize;

use super::{BlockCipher, xor_in};
use crate::Error;

/// CMAC over the block cipher `C`: [`update`](Cmac::update) with the
/// message in pieces, then [`finalize`](Cmac::finalize) or
/// [`verify`](Cmac::verify).
///
/// ```
/// use simdcrypt::aes::Aes128Cmac;
///
/// // RFC 4493 §4, Example 1: the empty message.
/// let key = [0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae, 0xd2, 0xa6, 0xab, 0xf7, 0x15, 0x88, 0x09, 0xcf, 0x4f, 0x3c];
/// let tag = Aes128Cmac::new(&key).finalize();
/// assert_eq!(tag[..4], [0xbb, 0x1d, 0x69, 0x29]);
/// Aes128Cmac::new(&key).verify(&tag)?;
/// # Ok::<(), simdcrypt::Error>(())
/// ```
#[derive(Clone)]
pub struct Cmac<C: BlockCipher> {
    cipher: C,
    k1: C::Block,
    k2: C::Block,
    /// The CBC-MAC state: the cipher of every block before `buffer`.
    state: C::Block,
    /// The last bytes of the message, up to a whole block: the last block
    /// is not enciphered until the message is known to end there.
    buffer: C::Block,
    buffered: usize,
}

/// The subkey doubling of SP 800-38B §6.1: `block` shifted left one bit,
/// XORed with R_b (0x87 for 128-bit blocks, 0x1b for 64-bit) when the bit
/// shifted out was set, without a branch on it.
fn dbl(block: &mut [u8]) {
    let r_b: u8 = if block.len() == 16 { 0x87 } else { 0x1b };
    let msb = block[0] >> 7;
    for i in 0..block.len() - 1 {
        block[i] = (block[i] << 1) | (block[i + 1] >> 7);
    }
    let last = block.len() - 1;
    block[last] = (block[last] << 1) ^ (msb.wrapping_neg() & r_b);
}

impl<C: BlockCipher> Cmac<C> {
    /// CMAC under `key`, on the cipher's fastest rung.
    pub fn new(key: &C::Key) -> Self {
        Self::from_cipher(C::new(key))
    }

    /// CMAC over a cipher already keyed (on any rung).
    pub fn from_cipher(cipher: C) -> Self {
        let mut l = C::Block::default();
        cipher.encrypt_block(&mut l);
        let mut k1 = l;
        dbl(k1.as_mut());
        let mut k2 = k1;
        dbl(k2.as_mut());
        l.as_mut().zeroize();
        Cmac {
            cipher,
            k1,
            k2,
            state: C::Block::default(),
            buffer: C::Block::default(),
            buffered: 0,
        }
    }

    /// The block cipher.
    pub fn cipher(&self) -> &C {
        &self.cipher
    }

    /// The tag of `message` under `key`, in one call.
    pub fn mac(key: &C::Key, message: &[u8]) -> C::Block {
        let mut mac = Self::new(key);
        mac.update(message);
        mac.finalize()
    }

    /// Adds `data` to the message.
    pub fn update(&mut self, mut data: &[u8]) {
        let bl = C::BLOCK_LEN;
        while !data.is_empty() {
            if self.buffered == bl {
                xor_in(self.state.as_mut(), self.buffer.as_ref());
                self.cipher.encrypt_block(&mut self.state);
                self.buffered = 0;
            }
            let take = data.len().min(bl - self.buffered);
            self.buffer.as_mut()[self.buffered..self.buffered + take]
                .copy_from_slice(&data[..take]);
            self.buffered += take;
            data = &data[take..];
        }
    }

    /// The tag (a whole block; [`verify`](Self::verify) takes truncations).
    pub fn finalize(self) -> C::Block {
        let bl = C::BLOCK_LEN;
        let mut last = self.buffer;
        if self.buffered == bl {
            xor_in(last.as_mut(), self.k1.as_ref());
        } else {
            // Padding 10*: a one bit, then zeros.
            let last_bytes = last.as_mut();
            last_bytes[self.buffered] = 0x80;
            last_bytes[self.buffered + 1..].fill(0);
            xor_in(last_bytes, self.k2.as_ref());
        }
        let mut tag = self.state;
        xor_in(tag.as_mut(), last.as_ref());
        self.cipher.encrypt_block(&mut tag);
        last.as_mut().zeroize();
        tag
    }

    /// The shortest tag [`verify`](Self::verify) accepts: half a block
    /// (64 bits for AES, 32 for the 64-bit ciphers, as GOST's MAC).
    pub const MIN_TAG_LEN: usize = C::BLOCK_LEN / 2;

    /// Checks `tag` (the whole tag or its first bytes, at least
    /// [`MIN_TAG_LEN`](Self::MIN_TAG_LEN)) in constant time.
    ///
    /// # Errors
    ///
    /// [`Error::TagLength`] for a tag too short or too long;
    /// [`Error::AuthenticationFailed`] when it does not match.
    pub fn verify(self, tag: &[u8]) -> Result<(), Error> {
        crate::tag::verify_truncated(tag, Self::MIN_TAG_LEN, C::BLOCK_LEN, || self.finalize())
    }
}

impl<C: BlockCipher> Drop for Cmac<C> {
    fn drop(&mut self) {
        self.k1.as_mut().zeroize();
        self.k2.as_mut().zeroize();
        self.state.as_mut().zeroize();
        self.buffer.as_mut().zeroize();
    }
}
