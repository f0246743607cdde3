//! Camellia (RFC 3713) as a ladder: the specification's F-function, then
//! table lookups, then bitslicing.
//!
//! | rung | technique | constant-time |
//! |---|---|---|
//! | `reference` | RFC 3713 literally: the s-boxes as SBOX1 and its rotations | no (`hazmat`) |
//! | `tables` | four 256-entry SP tables of 32-bit words: F is eight lookups | no (`hazmat`) |
//! | `bitsliced` | 64 blocks as bit planes in 64-bit words; the s-box an inversion in GF((2^4)^2) as a Boolean circuit | yes |
//!
//! Every rung runs the encryption of §2.3 over the subkeys of §2.2;
//! decryption is the same function over the decryption subkeys of
//! §2.3.3, which a cipher keeps beside the encryption ones, so neither
//! direction does schedule work per call. A rung is one kernel over
//! whole blocks and one arm of the module's one dispatch.
//!
//! [`Camellia128`], [`Camellia192`] and [`Camellia256`] are
//! [`BlockCipher`]s on the fastest constant-time rung this CPU runs; the
//! modes of [`crate::block`] take them, with aliases for each key size
//! ([`Camellia128Cbc`], [`Camellia256Ctr`], …). The subkeys are zeroized
//! on drop.
//!
//! ```
//! use simdcrypt::camellia::Camellia128;
//!
//! // RFC 3713, Appendix A.
//! let key = 0x0123456789abcdeffedcba9876543210u128.to_be_bytes();
//! let mut block = key;
//! let camellia = Camellia128::new(&key);
//! camellia.encrypt_blocks(&mut block)?;
//! assert_eq!(block, 0x67673138549669730857065648eabe43u128.to_be_bytes());
//! camellia.decrypt_blocks(&mut block)?;
//! assert_eq!(block, key);
//! # Ok::<(), simdcrypt::Error>(())
//! ```

mod bitsliced;
// The checks of the kit (`simdcrypt::kit`), beside the entry in the table.
#[cfg(feature = "kit")]
pub(crate) mod checks;
mod key_schedule;
mod ladder;
pub(crate) use ladder::LADDER;
mod reference;
#[cfg(feature = "rustcrypto")]
#[cfg_attr(docsrs, doc(cfg(feature = "rustcrypto")))]
mod rustcrypto;
mod tables;

use std::marker::PhantomData;
use std::sync::OnceLock;

use crate::Error;
use crate::block::{self, BlockCipher, Cbc, Cfb, Cmac, Ctr, Ecb, Ofb};
use crate::rung::rungs;
use crate::xor::InOut;
use key_schedule::Subkeys;

/// The block length in bytes.
pub const BLOCK_LEN: usize = 16;

rungs! {
    primitive = "camellia";
    /// The rungs of Camellia.
    pub enum Rung {
        /// RFC 3713 word for word, one block at a time; table lookups by
        /// secret bytes, so not constant-time.
        Reference = "reference", needs "nothing", if |_f| true, simd = false,
            constant_time = false;
        /// Four SP tables of 32-bit words, one block at a time; lookups
        /// by secret bytes, open to cache-timing attacks, so not
        /// constant-time.
        Tables = "tables", needs "nothing", if |_f| true, simd = false,
            constant_time = false;
        /// Bitsliced in 64-bit words, 64 blocks at once, the s-box a
        /// Boolean circuit: constant-time and portable.
        Bitsliced = "bitsliced", needs "nothing", if |_f| true, simd = false;
    }
}

impl Rung {
    /// The fastest constant-time rung this CPU runs (chosen once).
    pub fn best() -> Rung {
        static BEST: OnceLock<Rung> = OnceLock::new();
        *BEST.get_or_init(|| {
            [Rung::Bitsliced]
                .into_iter()
                .find(|i| i.is_available())
                .unwrap_or(Rung::Bitsliced)
        })
    }

    /// How many blocks the rung processes at once.
    pub fn par_blocks(self) -> usize {
        match self {
            Rung::Reference | Rung::Tables => 1,
            Rung::Bitsliced => bitsliced::PAR_BLOCKS,
        }
    }
}

/// Whole blocks under `sk` on `imp`: the encryption of §2.3, or the
/// decryption over [`Subkeys::inverse`]. The one dispatch: a rung is an
/// arm here. Only rungs that are available come here ([`Camellia`] holds
/// `best()` or a rung that passed `require()`).
fn crypt(imp: Rung, sk: &Subkeys, blocks: InOut<'_>) {
    match imp {
        Rung::Reference => by_block(blocks, |b| reference::encrypt_block(sk, b)),
        Rung::Tables => by_block(blocks, |b| tables::encrypt_block(sk, b)),
        Rung::Bitsliced => bitsliced::encrypt(sk, blocks),
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

/// The key sizes of Camellia (RFC 3713 §2.2). Sealed; the three are
/// [`Bits128`], [`Bits192`] and [`Bits256`].
pub trait KeySize: sealed::Sealed + Clone + Send + Sync + 'static {
    /// The cipher's name, `camellia-128`.
    const NAME: &'static str;
    /// The key length in bytes.
    const LEN: usize;
    /// The key: `[u8; LEN]`.
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
    Bits128 = "camellia-128", 16;
    Bits192 = "camellia-192", 24;
    Bits256 = "camellia-256", 32;
}

/// Camellia with a key of size `K`, on one rung. Use the aliases
/// [`Camellia128`], [`Camellia192`], [`Camellia256`].
#[derive(Clone)]
pub struct Camellia<K: KeySize> {
    /// The subkeys in encryption order.
    enc: Subkeys,
    /// The decryption subkeys (§2.3.3).
    dec: Subkeys,
    imp: Rung,
    size: PhantomData<K>,
}

/// Camellia-128: 18 rounds.
pub type Camellia128 = Camellia<Bits128>;
/// Camellia-192: 24 rounds.
pub type Camellia192 = Camellia<Bits192>;
/// Camellia-256: 24 rounds.
pub type Camellia256 = Camellia<Bits256>;

/// ECB under Camellia-128 ([`Ecb`]).
pub type Camellia128Ecb = Ecb<Camellia128>;
/// ECB under Camellia-192.
pub type Camellia192Ecb = Ecb<Camellia192>;
/// ECB under Camellia-256.
pub type Camellia256Ecb = Ecb<Camellia256>;
/// CBC under Camellia-128 ([`Cbc`]).
pub type Camellia128Cbc = Cbc<Camellia128>;
/// CBC under Camellia-192.
pub type Camellia192Cbc = Cbc<Camellia192>;
/// CBC under Camellia-256.
pub type Camellia256Cbc = Cbc<Camellia256>;
/// CTR under Camellia-128 ([`Ctr`]): a [`KeyStream`](crate::KeyStream).
pub type Camellia128Ctr = Ctr<Camellia128>;
/// CTR under Camellia-192.
pub type Camellia192Ctr = Ctr<Camellia192>;
/// CTR under Camellia-256.
pub type Camellia256Ctr = Ctr<Camellia256>;
/// Full-block CFB under Camellia-128 ([`Cfb`]).
pub type Camellia128Cfb = Cfb<Camellia128>;
/// Full-block CFB under Camellia-192.
pub type Camellia192Cfb = Cfb<Camellia192>;
/// Full-block CFB under Camellia-256.
pub type Camellia256Cfb = Cfb<Camellia256>;
/// OFB under Camellia-128 ([`Ofb`]).
pub type Camellia128Ofb = Ofb<Camellia128>;
/// OFB under Camellia-192.
pub type Camellia192Ofb = Ofb<Camellia192>;
/// OFB under Camellia-256.
pub type Camellia256Ofb = Ofb<Camellia256>;
/// CMAC under Camellia-128 (SP 800-38B, as RFC 4493 over AES; [`Cmac`]).
pub type Camellia128Cmac = Cmac<Camellia128>;
/// CMAC under Camellia-192.
pub type Camellia192Cmac = Cmac<Camellia192>;
/// CMAC under Camellia-256.
pub type Camellia256Cmac = Cmac<Camellia256>;

impl<K: KeySize> Camellia<K> {
    /// The subkeys of `key` (§2.2), on the fastest constant-time rung.
    pub fn new(key: &K::Key) -> Self {
        Self::from_subkeys(Subkeys::new(key.as_ref()))
    }

    /// Camellia on the fastest constant-time rung over `enc`, whose key
    /// the caller has checked is `K`'s size.
    fn from_subkeys(enc: Subkeys) -> Self {
        Camellia {
            dec: enc.inverse(),
            enc,
            imp: Rung::best(),
            size: PhantomData,
        }
    }

    /// Camellia under `key`, a slice whose length must be `K`'s, for
    /// callers that take keys as bytes (the table of ladders).
    pub(crate) fn from_slice(key: &[u8]) -> Result<Self, Error> {
        if key.len() == K::LEN {
            Ok(Self::from_subkeys(Subkeys::new(key)))
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
    /// [`Error::RungUnavailable`] when the CPU lacks the rung;
    /// [`Error::VariableTimeRung`] for `reference` and `tables` without
    /// the `hazmat` feature.
    pub fn with_rung(mut self, imp: Rung) -> Result<Self, Error> {
        self.imp = imp.require()?;
        Ok(self)
    }

    /// The rung in use.
    pub fn rung(&self) -> Rung {
        self.imp
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

/// The key size and the rung; never the key.
impl<K: KeySize> std::fmt::Debug for Camellia<K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Camellia")
            .field("cipher", &K::NAME)
            .field("implementation", &self.imp)
            .finish_non_exhaustive()
    }
}

impl<K: KeySize> BlockCipher for Camellia<K> {
    const NAME: &'static str = K::NAME;
    const BLOCK_LEN: usize = BLOCK_LEN;
    type Block = [u8; BLOCK_LEN];
    type Key = K::Key;
    type Rung = Rung;

    fn new(key: &K::Key) -> Self {
        Camellia::new(key)
    }

    fn with_rung(self, imp: Rung) -> Result<Self, Error> {
        Camellia::with_rung(self, imp)
    }

    fn rung(&self) -> Rung {
        self.imp
    }

    fn par_blocks(&self) -> usize {
        self.imp.par_blocks()
    }
}

impl<K: KeySize> block::sealed::Core for Camellia<K> {
    fn from_slice(key: &[u8]) -> Result<Self, Error> {
        Camellia::from_slice(key)
    }

    fn encrypt(&self, blocks: InOut<'_>) {
        crypt(self.imp, &self.enc, blocks);
    }

    fn decrypt(&self, blocks: InOut<'_>) {
        crypt(self.imp, &self.dec, blocks);
    }

    fn encrypt_one(&self, block: &mut [u8]) {
        crypt(self.imp, &self.enc, InOut::in_place(block));
    }

    fn decrypt_one(&self, block: &mut [u8]) {
        crypt(self.imp, &self.dec, InOut::in_place(block));
    }

    fn ctr(&self, counter: &[u8], data: InOut<'_>) {
        block::ctr_by_blocks(self, counter, data);
    }

    fn cbc_encrypt(&self, chain: &mut [u8], data: InOut<'_>) {
        block::cbc_encrypt_by_blocks(self, chain, data);
    }

    fn cbc_decrypt(&self, chain: &mut [u8], data: InOut<'_>) {
        block::cbc_decrypt_by_blocks(self, chain, data);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The default is a constant-time rung this CPU runs, and every rung
    /// says how many blocks it takes at once.
    #[test]
    fn best_is_a_constant_time_rung() {
        let best = Rung::best();
        assert!(best.is_available() && best.is_constant_time());
        assert_eq!(Camellia128::new(&[0; 16]).rung(), best);
        assert!(Rung::ALL.iter().all(|r| r.par_blocks() >= 1));
    }
}
