//! Counter mode (SP 800-38A §6.5): keystream block `i` is the cipher of
//! the counter block IV + `i`, the whole block read as one big-endian
//! integer and wrapping modulo 2^(8·block length), as OpenSSL counts.
//! Every counter block of a keystream is distinct (Appendix B): the
//! keystream ends after 2^(8·block length) blocks, and a request beyond
//! that is refused.

use super::{BlockCipher, add_be};
use crate::Error;
use crate::stream::{BlockKeystream, Position, keystream};
use crate::xor::InOut;

/// CTR over the block cipher `C`: a [`KeyStream`](crate::KeyStream) from a
/// full-block initial counter, seekable to any byte.
///
/// For AES the keystream has 2^128 blocks; its byte positions, `u128`s,
/// reach the first 2^128 − 1 bytes of it.
///
/// ```
/// use simdcrypt::aes::Aes128Ctr;
///
/// // SP 800-38A F.5.1: the counter's low 64 bits carry into the high ones.
/// let key = [0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae, 0xd2, 0xa6, 0xab, 0xf7, 0x15, 0x88, 0x09, 0xcf, 0x4f, 0x3c];
/// let mut iv = [0xff; 16];
/// iv[..8].copy_from_slice(&[0; 8]);
/// let mut a = [0u8; 64];
/// Aes128Ctr::new(&key, &iv).apply_keystream(&mut a)?;
/// let mut b = [0u8; 48];
/// let mut next = [0u8; 16];
/// next[7] = 1;
/// Aes128Ctr::new(&key, &next).apply_keystream(&mut b)?;
/// assert_eq!(a[16..], b);
/// # Ok::<(), simdcrypt::Error>(())
/// ```
#[derive(Clone)]
pub struct Ctr<C: BlockCipher> {
    core: CtrCore<C>,
    position: Position,
}

/// The cipher and the initial counter block: keystream by block number.
#[derive(Clone)]
pub(crate) struct CtrCore<C: BlockCipher> {
    cipher: C,
    iv: C::Block,
}

impl<C: BlockCipher> CtrCore<C> {
    /// Counter block number `counter`: IV + `counter`, wrapping.
    #[inline]
    fn at(&self, counter: u128) -> C::Block {
        let mut block = self.iv;
        add_be(block.as_mut(), counter);
        block
    }
}

impl<C: BlockCipher> BlockKeystream for CtrCore<C> {
    const PRIMITIVE: &'static str = C::NAME;
    const BLOCK_LEN: usize = C::BLOCK_LEN;
    const LAST_BLOCK: u128 = u128::MAX >> (128 - 8 * C::BLOCK_LEN);

    #[inline]
    fn xor_blocks(&self, counter: u128, data: InOut<'_>) {
        self.cipher.ctr(self.at(counter).as_ref(), data);
    }

    fn xor_partial_block(&self, counter: u128, offset: usize, data: InOut<'_>) {
        let mut block = self.at(counter);
        self.cipher.encrypt_block(&mut block);
        data.xor_bytewise(&block.as_ref()[offset..]);
        zeroize::Zeroize::zeroize(block.as_mut());
    }
}

impl<C: BlockCipher> Ctr<C> {
    /// CTR under `key` from the initial counter block `iv`, on the
    /// cipher's fastest rung.
    pub fn new(key: &C::Key, iv: &C::Block) -> Self {
        Self::from_cipher(C::new(key), iv)
    }

    /// CTR over a cipher already keyed (on any rung).
    pub fn from_cipher(cipher: C, iv: &C::Block) -> Self {
        Ctr {
            core: CtrCore { cipher, iv: *iv },
            position: Position::default(),
        }
    }

    /// The same key on rung `imp`; see [`BlockCipher::with_impl`].
    ///
    /// # Errors
    ///
    /// As [`BlockCipher::with_impl`].
    pub fn with_impl(self, imp: C::Impl) -> Result<Self, Error> {
        Ok(Ctr {
            core: CtrCore {
                cipher: self.core.cipher.with_impl(imp)?,
                iv: self.core.iv,
            },
            position: self.position,
        })
    }

    /// The rung in use.
    pub fn implementation(&self) -> C::Impl {
        self.core.cipher.implementation()
    }

    /// The block cipher.
    pub fn cipher(&self) -> &C {
        &self.core.cipher
    }
}

keystream!([C: BlockCipher] Ctr<C>, core = CtrCore<C>);
