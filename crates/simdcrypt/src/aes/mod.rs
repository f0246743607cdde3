//! AES (FIPS 197) as a ladder, as Matsui's survey of fast symmetric
//! cryptography on x86-64 teaches it: the specification's rounds, then
//! table lookups, then bitslicing, then the AES instructions.
//!
//! | rung | technique | constant-time |
//! |---|---|---|
//! | `reference` | FIPS 197 literally: the S-box a table | no (`hazmat`) |
//!
//! [`Aes128`], [`Aes192`] and [`Aes256`] are [`BlockCipher`]s on the
//! fastest constant-time rung this CPU runs; the modes of [`crate::block`]
//! take them, with aliases for each key size ([`Aes128Cbc`],
//! [`Aes256Ctr`], …). The round keys are zeroized on drop.
//!
//! ```
//! use simdcrypt::aes::Aes128;
//!
//! // FIPS 197, Appendix C.1.
//! let key: [u8; 16] = core::array::from_fn(|i| i as u8);
//! let mut block: [u8; 16] = core::array::from_fn(|i| (i as u8) * 0x11);
//! let aes = Aes128::new(&key);
//! aes.encrypt_blocks(&mut block)?;
//! assert_eq!(block[..4], [0x69, 0xc4, 0xe0, 0xd8]);
//! aes.decrypt_blocks(&mut block)?;
//! assert_eq!(block[1], 0x11);
//! # Ok::<(), simdcrypt::Error>(())
//! ```

// The checks of the kit (`simdcrypt::kit`), beside the entry in the table.
#[cfg(feature = "kit")]
pub(crate) mod checks;
mod key_schedule;
mod ladder;
pub(crate) use ladder::LADDER;
#[cfg(feature = "hazmat")]
#[cfg_attr(docsrs, doc(cfg(feature = "hazmat")))]
pub mod reference;
// Without `hazmat` the reference rung cannot be chosen; its key expansion
// still serves the others.
#[cfg(not(feature = "hazmat"))]
#[allow(dead_code)]
mod reference;

use std::marker::PhantomData;

use crate::Error;
use crate::block::{self, BlockCipher, Cbc, Cfb, Cmac, Ctr, Ecb, Ofb};
use crate::rung::rungs;
use crate::xor::InOut;
use key_schedule::Keys;

/// The block length in bytes.
pub const BLOCK_LEN: usize = 16;

rungs! {
    primitive = "aes";
    /// The rungs of AES.
    pub enum Impl {
        /// FIPS 197 word for word, one block at a time; table lookups by
        /// secret bytes, so not constant-time.
        Reference = "reference", needs "nothing", if |_f| true, simd = false,
            constant_time = false;
    }
}

impl Impl {
    /// The fastest constant-time rung this CPU runs.
    pub fn best() -> Impl {
        Impl::Reference
    }

    /// How many blocks the rung processes at once.
    pub fn par_blocks(self) -> usize {
        match self {
            Impl::Reference => 1,
        }
    }
}

/// The key sizes of AES: the number of key words `Nk` and rounds `Nr`
/// (FIPS 197 §5, Figure 4). Sealed; the three are [`Bits128`],
/// [`Bits192`] and [`Bits256`].
pub trait KeySize: sealed::Sealed + Clone + Send + Sync + 'static {
    /// The cipher's name, `aes-128`.
    const NAME: &'static str;
    /// The key length in bytes.
    const LEN: usize;
    /// The key: `[u8; 4·Nk]`.
    type Key: AsRef<[u8]> + ?Sized;
}

mod sealed {
    pub trait Sealed {}
}

macro_rules! key_sizes {
    ($($Bits:ident = $name:literal, $len:literal;)+) => {$(
        #[doc = concat!("A ", stringify!($len), "-byte key: ", $name, ".")]
        #[derive(Clone, Copy, Debug)]
        pub enum $Bits {}
        impl sealed::Sealed for $Bits {}
        impl KeySize for $Bits {
            const NAME: &'static str = $name;
            const LEN: usize = $len;
            type Key = [u8; $len];
        }
    )+};
}

key_sizes! {
    Bits128 = "aes-128", 16;
    Bits192 = "aes-192", 24;
    Bits256 = "aes-256", 32;
}

/// AES with a key of size `K`, on one rung. Use the aliases [`Aes128`],
/// [`Aes192`], [`Aes256`].
#[derive(Clone)]
pub struct Aes<K: KeySize> {
    keys: Keys,
    imp: Impl,
    size: PhantomData<K>,
}

/// AES-128: 10 rounds.
pub type Aes128 = Aes<Bits128>;
/// AES-192: 12 rounds.
pub type Aes192 = Aes<Bits192>;
/// AES-256: 14 rounds.
pub type Aes256 = Aes<Bits256>;

/// ECB under AES-128 ([`Ecb`]).
pub type Aes128Ecb = Ecb<Aes128>;
/// ECB under AES-192.
pub type Aes192Ecb = Ecb<Aes192>;
/// ECB under AES-256.
pub type Aes256Ecb = Ecb<Aes256>;
/// CBC under AES-128 ([`Cbc`]).
pub type Aes128Cbc = Cbc<Aes128>;
/// CBC under AES-192.
pub type Aes192Cbc = Cbc<Aes192>;
/// CBC under AES-256.
pub type Aes256Cbc = Cbc<Aes256>;
/// CTR under AES-128 ([`Ctr`]): a [`KeyStream`](crate::KeyStream).
pub type Aes128Ctr = Ctr<Aes128>;
/// CTR under AES-192.
pub type Aes192Ctr = Ctr<Aes192>;
/// CTR under AES-256.
pub type Aes256Ctr = Ctr<Aes256>;
/// Full-block CFB under AES-128 ([`Cfb`]).
pub type Aes128Cfb = Cfb<Aes128>;
/// Full-block CFB under AES-192.
pub type Aes192Cfb = Cfb<Aes192>;
/// Full-block CFB under AES-256.
pub type Aes256Cfb = Cfb<Aes256>;
/// OFB under AES-128 ([`Ofb`]).
pub type Aes128Ofb = Ofb<Aes128>;
/// OFB under AES-192.
pub type Aes192Ofb = Ofb<Aes192>;
/// OFB under AES-256.
pub type Aes256Ofb = Ofb<Aes256>;
/// CMAC under AES-128 (RFC 4493; [`Cmac`]).
pub type Aes128Cmac = Cmac<Aes128>;
/// CMAC under AES-192.
pub type Aes192Cmac = Cmac<Aes192>;
/// CMAC under AES-256.
pub type Aes256Cmac = Cmac<Aes256>;

impl<K: KeySize> Aes<K> {
    /// The key schedule of `key`, on the fastest constant-time rung.
    pub fn new(key: &K::Key) -> Self {
        Self::from_keys(Keys::new(key.as_ref()))
    }

    /// AES on the fastest constant-time rung with the schedule `keys`,
    /// whose key the caller has checked is `K`'s size.
    pub(crate) fn from_keys(keys: Keys) -> Self {
        debug_assert_eq!(keys.rounds(), K::LEN / 4 + 6);
        Aes {
            keys,
            imp: Impl::best(),
            size: PhantomData,
        }
    }

    /// AES under `key`, a slice whose length must be `K`'s, for callers
    /// that take keys as bytes (the table of ladders).
    pub(crate) fn from_slice(key: &[u8]) -> Result<Self, Error> {
        if key.len() == K::LEN {
            Ok(Self::from_keys(Keys::new(key)))
        } else {
            Err(Error::BadLength {
                primitive: K::NAME,
                what: "key",
                len: key.len(),
                expected: K::LEN.to_string(),
            })
        }
    }

    /// The same key on rung `imp`.
    ///
    /// # Errors
    ///
    /// [`Error::ImplUnavailable`] when the CPU lacks the rung;
    /// [`Error::VariableTimeRung`] for `reference` and `tables` without
    /// the `hazmat` feature.
    pub fn with_impl(mut self, imp: Impl) -> Result<Self, Error> {
        self.imp = imp.require()?;
        Ok(self)
    }

    /// The rung in use.
    pub fn implementation(&self) -> Impl {
        self.imp
    }

    /// The cipher's round keys, `w[0]` first (FIPS 197 §5.2), for
    /// kernels that run AES rounds of their own (GCM's stitched kernel).
    #[allow(dead_code)] // used only where such a kernel is compiled
    pub(crate) fn round_keys(&self) -> &[[u8; 16]] {
        self.keys.enc()
    }

    /// Encrypts whole blocks in place: [`BlockCipher::encrypt_blocks`].
    ///
    /// # Errors
    ///
    /// [`Error::NotWholeBlocks`] when `data` is not a multiple of 16 bytes.
    pub fn encrypt_blocks(&self, data: &mut [u8]) -> Result<(), Error> {
        BlockCipher::encrypt_blocks(self, data)
    }

    /// Decrypts whole blocks in place: [`BlockCipher::decrypt_blocks`].
    ///
    /// # Errors
    ///
    /// [`Error::NotWholeBlocks`] when `data` is not a multiple of 16 bytes.
    pub fn decrypt_blocks(&self, data: &mut [u8]) -> Result<(), Error> {
        BlockCipher::decrypt_blocks(self, data)
    }
}

impl<K: KeySize> BlockCipher for Aes<K> {
    const NAME: &'static str = K::NAME;
    const BLOCK_LEN: usize = BLOCK_LEN;
    type Block = [u8; BLOCK_LEN];
    type Key = K::Key;
    type Impl = Impl;

    fn new(key: &K::Key) -> Self {
        Aes::new(key)
    }

    fn with_impl(self, imp: Impl) -> Result<Self, Error> {
        Aes::with_impl(self, imp)
    }

    fn implementation(&self) -> Impl {
        self.imp
    }

    fn par_blocks(&self) -> usize {
        self.imp.par_blocks()
    }
}

/// Runs `f` on each 16-byte block of `data`, read from the input and
/// written to the output: the single-block rungs' whole-block form.
#[inline]
fn by_block(data: InOut<'_>, mut f: impl FnMut(&mut [u8; 16])) {
    for chunk in data.chunks(BLOCK_LEN) {
        let mut block: [u8; 16] = chunk.input().try_into().expect("whole blocks");
        f(&mut block);
        chunk.into_output().copy_from_slice(&block);
    }
}

/// A block of the slice given to a single-block call.
fn one(block: &mut [u8]) -> &mut [u8; 16] {
    block.try_into().expect("one 16-byte block")
}

impl<K: KeySize> block::sealed::Core for Aes<K> {
    fn from_slice(key: &[u8]) -> Result<Self, Error> {
        Aes::from_slice(key)
    }

    fn encrypt(&self, blocks: InOut<'_>) {
        match self.imp {
            Impl::Reference => by_block(blocks, |b| reference::encrypt_block(&self.keys, b)),
        }
    }

    fn decrypt(&self, blocks: InOut<'_>) {
        match self.imp {
            Impl::Reference => by_block(blocks, |b| reference::decrypt_block(&self.keys, b)),
        }
    }

    fn encrypt_one(&self, block: &mut [u8]) {
        let block = one(block);
        match self.imp {
            Impl::Reference => reference::encrypt_block(&self.keys, block),
        }
    }

    fn decrypt_one(&self, block: &mut [u8]) {
        let block = one(block);
        match self.imp {
            Impl::Reference => reference::decrypt_block(&self.keys, block),
        }
    }

    fn ctr(&self, counter: &[u8], data: InOut<'_>) {
        match self.imp {
            Impl::Reference => block::ctr_by_blocks(self, counter, data),
        }
    }

    fn cbc_encrypt(&self, chain: &mut [u8], data: InOut<'_>) {
        match self.imp {
            Impl::Reference => block::cbc_encrypt_by_blocks(self, chain, data),
        }
    }

    fn cbc_decrypt(&self, chain: &mut [u8], data: InOut<'_>) {
        match self.imp {
            Impl::Reference => block::cbc_decrypt_by_blocks(self, chain, data),
        }
    }
}
