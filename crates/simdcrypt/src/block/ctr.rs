//! Counter mode (SP 800-38A §6.5): keystream block `i` is the cipher of
//! the counter block IV + `i`, the whole block read as one big-endian
//! integer and wrapping modulo 2^(8·block length), as OpenSSL counts.
//! Every counter block of a keystream is distinct (Appendix B): the
//! keystream ends after 2^(8·block length) blocks, and a request beyond
//! that is refused. GOST R 34.13-2015 §5.2 counts in half a block (the IV
//! fills the other half): its keystream ends after 2^(4·block length)
//! blocks ([`HalfBlock`]).

use super::{BlockCipher, add_be};
use crate::Error;
use crate::stream::{BlockKeystream, Position, keystream};
use crate::xor::InOut;

/// How much of the counter block counts: the width of the counter, and so
/// the length of the keystream.
pub trait CounterWidth: Clone + Send + Sync + 'static {
    /// The counter holds 1/`DIVISOR` of the block's bits (its last ones).
    const DIVISOR: usize;
}

/// The whole block counts (SP 800-38A, OpenSSL): 2^(8·block length) blocks.
#[derive(Clone, Copy, Debug, Default)]
pub struct FullBlock;

impl CounterWidth for FullBlock {
    const DIVISOR: usize = 1;
}

/// Half the block counts (GOST R 34.13-2015 §5.2: the counter block is
/// IV ‖ 0^(n/2)): 2^(n/2) blocks, never wrapping into the IV.
#[derive(Clone, Copy, Debug, Default)]
pub struct HalfBlock;

impl CounterWidth for HalfBlock {
    const DIVISOR: usize = 2;
}

/// CTR over the block cipher `C`: a [`KeyStream`](crate::KeyStream) from a
/// full-block initial counter, seekable to any byte; `W` says how many
/// blocks the keystream has ([`FullBlock`] by default, [`HalfBlock`] for
/// GOST R 34.13-2015).
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
pub struct Ctr<C: BlockCipher, W: CounterWidth = FullBlock> {
    core: CtrCore<C, W>,
    position: Position,
}

/// The cipher and the initial counter block: keystream by block number.
#[derive(Clone)]
pub(crate) struct CtrCore<C: BlockCipher, W: CounterWidth> {
    cipher: C,
    iv: C::Block,
    width: std::marker::PhantomData<W>,
}

impl<C: BlockCipher, W: CounterWidth> CtrCore<C, W> {
    /// Counter block number `counter`: IV + `counter`, wrapping.
    #[inline]
    fn at(&self, counter: u128) -> C::Block {
        let mut block = self.iv;
        add_be(block.as_mut(), counter);
        block
    }
}

impl<C: BlockCipher, W: CounterWidth> BlockKeystream for CtrCore<C, W> {
    const PRIMITIVE: &'static str = C::NAME;
    const BLOCK_LEN: usize = C::BLOCK_LEN;
    const LAST_BLOCK: u128 = u128::MAX >> (128 - 8 * C::BLOCK_LEN / W::DIVISOR);

    #[inline]
    fn xor_blocks(&self, counter: u128, data: InOut<'_>) {
        self.cipher.ctr(self.at(counter).as_ref(), data);
    }

    fn xor_partial_block(&self, counter: u128, offset: usize, data: InOut<'_>) {
        let mut block = self.at(counter);
        self.cipher.encrypt_block(&mut block);
        data.xor_bytewise(&block.as_ref()[offset..]);
        crate::ct::wipe(block.as_mut());
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
        Ctr::from_counter_block(cipher, *iv)
    }
}

impl<C: BlockCipher> Ctr<C, HalfBlock> {
    /// CTR of GOST R 34.13-2015 §5.2 over a cipher already keyed (on any
    /// rung), from an IV of half a block: the counter block IV ‖ 0^(n/2).
    ///
    /// # Errors
    ///
    /// [`Error::BadLength`] when `iv` is not half a block.
    pub fn from_cipher_half_iv(cipher: C, iv: &[u8]) -> Result<Self, Error> {
        let half = C::BLOCK_LEN / 2;
        if iv.len() != half {
            return Err(Error::BadLength {
                primitive: C::NAME,
                what: "CTR IV",
                len: iv.len(),
                expected: half.to_string(),
            });
        }
        let mut block = C::Block::default();
        block.as_mut()[..half].copy_from_slice(iv);
        Ok(Ctr::from_counter_block(cipher, block))
    }
}

impl<C: BlockCipher, W: CounterWidth> Ctr<C, W> {
    fn from_counter_block(cipher: C, iv: C::Block) -> Self {
        Ctr {
            core: CtrCore {
                cipher,
                iv,
                width: std::marker::PhantomData,
            },
            position: Position::default(),
        }
    }

    /// The same key on rung `imp`; see [`BlockCipher::with_rung`].
    ///
    /// # Errors
    ///
    /// As [`BlockCipher::with_rung`].
    pub fn with_rung(self, imp: C::Rung) -> Result<Self, Error> {
        Ok(Ctr {
            core: CtrCore {
                cipher: self.core.cipher.with_rung(imp)?,
                iv: self.core.iv,
                width: std::marker::PhantomData,
            },
            position: self.position,
        })
    }

    /// Renamed [`with_rung`](Self::with_rung).
    #[deprecated(note = "renamed `with_rung`")]
    pub fn with_impl(self, imp: C::Rung) -> Result<Self, Error> {
        self.with_rung(imp)
    }

    /// The rung in use.
    pub fn rung(&self) -> C::Rung {
        self.core.cipher.rung()
    }

    /// Renamed [`rung`](Self::rung).
    #[deprecated(note = "renamed `rung`")]
    pub fn implementation(&self) -> C::Rung {
        self.rung()
    }

    /// The block cipher.
    pub fn cipher(&self) -> &C {
        &self.core.cipher
    }
}

impl<C: BlockCipher> Ctr<C> {
    /// Starts a new message under the same key: the initial counter block
    /// `iv`, the keystream at byte 0. The key schedule is kept, neither
    /// recomputed nor copied: what a caller sending many messages under one
    /// key does between them.
    ///
    /// ```
    /// use simdcrypt::aes::Aes128Ctr;
    ///
    /// let mut ctr = Aes128Ctr::new(&[7; 16], &[1; 16]);
    /// let mut first = [0u8; 40];
    /// ctr.apply_keystream(&mut first)?;
    /// ctr.set_iv(&[2; 16]);
    /// let mut second = [0u8; 40];
    /// ctr.apply_keystream(&mut second)?;
    /// let mut fresh = [0u8; 40];
    /// Aes128Ctr::new(&[7; 16], &[2; 16]).apply_keystream(&mut fresh)?;
    /// assert_eq!(second, fresh);
    /// # Ok::<(), simdcrypt::Error>(())
    /// ```
    #[inline]
    pub fn set_iv(&mut self, iv: &C::Block) {
        self.core.iv = *iv;
        self.position = Position::default();
    }
}

keystream!([C: BlockCipher, W: CounterWidth] Ctr<C, W>, core = CtrCore<C, W>);
