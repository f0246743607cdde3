//! Camellia (RFC 3713) as a ladder: the specification's F-function, then
//! table lookups, then bitslicing.
//!
//! | rung | technique | constant-time |
//! |---|---|---|
//! | `reference` | RFC 3713 literally: the s-boxes as SBOX1 and its rotations | no (`hazmat`) |
//! | `tables` | four 256-entry SP tables of 32-bit words: F is eight lookups | no (`hazmat`) |
//! | `bitsliced` | 64 blocks as bit planes in 64-bit words; the s-box an inversion in GF((2^4)^2) as a Boolean circuit | yes |
//! | `aesni` | 16 blocks byte-sliced in xmm (Kivilinna): the s-box AES's inversion from `aesenclast`/`aesdeclast` between `pshufb` affine maps | yes |
//! | `vaes` | the same on ymm with VAES, 32 blocks | yes |
//! | `gfni` | 64 blocks byte-sliced in zmm, each s-box `vgf2p8affineqb` then `vgf2p8affineinvqb` | yes |
//! | `armv8` | aarch64: 16 blocks byte-sliced in NEON q registers, the s-box AES's inversion from `aese`/`aesd` between `tbl` affine maps; one block as a padded batch | yes |
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

#[cfg(target_arch = "aarch64")]
mod armv8;
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
mod sliced;

#[cfg(target_arch = "x86_64")]
mod aesni;
#[cfg(target_arch = "x86_64")]
mod gfni;
#[cfg(target_arch = "x86_64")]
mod vaes;
#[cfg(target_arch = "x86_64")]
mod x86;
#[cfg(target_arch = "x86_64")]
mod x86_one;

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
        Reference = "reference", needs "nothing", if |_f| true, arch = any,
            constant_time = false;
        /// Four SP tables of 32-bit words, two blocks side by side where
        /// the mode allows; lookups by secret bytes, open to cache-timing
        /// attacks, so not constant-time.
        Tables = "tables", needs "nothing", if |_f| true, arch = any,
            constant_time = false;
        /// Bitsliced in 64-bit words, 64 blocks at once, the s-box a
        /// Boolean circuit: constant-time and portable.
        Bitsliced = "bitsliced", needs "nothing", if |_f| true, arch = any;
        /// AES-NI: byte-sliced, 16 blocks in xmm registers, the s-boxes
        /// through `aesenclast`/`aesdeclast` between `pshufb` lookups.
        Aesni = "aesni", needs "AES-NI and SSSE3", if |f| f.aes && f.ssse3, arch = "x86_64";
        /// VAES on ymm: the same, 32 blocks at once.
        Vaes = "vaes", needs "VAES, AES-NI and AVX2",
            if |f| f.vaes && f.aes && f.avx2 && f.ssse3, arch = "x86_64";
        /// GFNI on zmm: byte-sliced, 64 blocks at once, each s-box two
        /// affine instructions.
        Gfni = "gfni", needs "GFNI, AVX-512F, AVX-512BW and AVX-512VL",
            if |f| f.gfni && f.avx512f && f.avx512bw && f.avx512vl && f.avx2 && f.ssse3,
            arch = "x86_64";
        /// aarch64's AES instructions on NEON: byte-sliced, 16 blocks in
        /// q registers, the s-boxes through `aese`/`aesd` between `tbl`
        /// lookups.
        Armv8 = "armv8", needs "the ARMv8 AES instructions", if |f| f.aes, arch = "aarch64";
    }
}

impl Rung {
    /// The fastest constant-time rung this CPU runs (chosen once).
    pub fn best() -> Rung {
        static BEST: OnceLock<Rung> = OnceLock::new();
        *BEST.get_or_init(|| {
            [Rung::Armv8, Rung::Gfni, Rung::Vaes, Rung::Aesni, Rung::Bitsliced]
                .into_iter()
                .find(|i| i.is_available())
                .unwrap_or(Rung::Bitsliced)
        })
    }

    /// How many blocks the rung processes at once.
    pub fn par_blocks(self) -> usize {
        match self {
            Rung::Reference => 1,
            Rung::Tables => tables::PAR_BLOCKS,
            Rung::Bitsliced => bitsliced::PAR_BLOCKS,
            #[cfg(target_arch = "x86_64")]
            Rung::Aesni => aesni::PAR_BLOCKS,
            #[cfg(target_arch = "x86_64")]
            Rung::Vaes => vaes::PAR_BLOCKS,
            #[cfg(target_arch = "x86_64")]
            Rung::Gfni => gfni::PAR_BLOCKS,
            #[cfg(not(target_arch = "x86_64"))]
            Rung::Aesni | Rung::Vaes | Rung::Gfni => 1,
            #[cfg(target_arch = "aarch64")]
            Rung::Armv8 => armv8::PAR_BLOCKS,
            #[cfg(not(target_arch = "aarch64"))]
            Rung::Armv8 => 1,
        }
    }
}

/// Whole blocks under `sk` on `imp`: the encryption of §2.3, or the
/// decryption over [`Subkeys::inverse`]. The one dispatch: a rung is an
/// arm here. Only rungs that are available come here ([`Camellia`] holds
/// `best()` or a rung that passed `require()`).
fn crypt(imp: Rung, sk: &Subkeys, blocks: InOut<'_>) {
    match imp {
        Rung::Reference => block::by_block(blocks, |b| reference::encrypt_block(sk, b)),
        Rung::Tables => tables::encrypt(sk, blocks),
        Rung::Bitsliced => bitsliced::encrypt(sk, blocks),
        #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
        Rung::Aesni | Rung::Vaes | Rung::Gfni | Rung::Armv8 => {
            let (src, dst, len) = blocks.into_raw();
            sliced_rungs!(imp, encrypt(sk, src, dst, len));
        }
        #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
        Rung::Aesni | Rung::Vaes | Rung::Gfni | Rung::Armv8 => {
            unreachable!("no byte-sliced rung here")
        }
    }
}

/// One block under `sk` on `imp`: the chained modes' path, where a
/// rung that batches would pay for a whole batch; every rung that batches
/// has a one-block form of its own, but `armv8`, whose padded batch
/// counts fewer instructions than `bitsliced`'s one-block form.
fn one(imp: Rung, sk: &Subkeys, block: &mut [u8]) {
    let block: &mut [u8; BLOCK_LEN] = block.try_into().expect("a 16-byte block");
    match imp {
        Rung::Reference => reference::encrypt_block(sk, block),
        Rung::Tables => tables::encrypt_block(sk, block),
        Rung::Bitsliced => bitsliced::encrypt_one(sk, block),
        Rung::Aesni | Rung::Vaes | Rung::Gfni | Rung::Armv8 => {
            sliced_rungs!(imp, encrypt_one(sk, block))
        }
    }
}

/// The dispatch to the byte-sliced rungs, for the arm `Rung::Aesni |
/// Rung::Vaes | Rung::Gfni | Rung::Armv8` of a `match`: `$f($args)` of the
/// rung's own module, the data passed as `InOut::into_raw`'s parts (in
/// registers: `InOut::from_raw` says why). Only rungs that are available
/// come here: the x86-64 ones on x86-64, `armv8` on aarch64.
macro_rules! sliced_rungs {
    ($imp:expr, $f:ident($($arg:expr),*)) => {
        match $imp {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the rung is available: the CPU has AES-NI and SSSE3;
            // the data are `into_raw`'s parts of an `InOut` not used again.
            Rung::Aesni => unsafe { aesni::$f($($arg),*) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the rung is available: the CPU has VAES, AES-NI, AVX2
            // and SSSE3; the data as above.
            Rung::Vaes => unsafe { vaes::$f($($arg),*) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the rung is available: the CPU has GFNI, AVX-512F,
            // AVX-512BW, AVX-512VL, AVX2 and SSSE3; the data as above.
            Rung::Gfni => unsafe { gfni::$f($($arg),*) },
            #[cfg(target_arch = "aarch64")]
            // SAFETY: the rung is available: the CPU has the AES
            // instructions; the data as above.
            Rung::Armv8 => unsafe { armv8::$f($($arg),*) },
            _ => unreachable!("an unavailable Camellia rung"),
        }
    };
}
use sliced_rungs;

// The key sizes of §2.2, shared with AES.
pub use crate::block::{Bits128, Bits192, Bits256, KeySize};

/// The cipher's name at each key size, as the table has it.
const NAMES: [&str; 3] = ["camellia-128", "camellia-192", "camellia-256"];

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
        let key = block::sized_key::<K>(<Self as BlockCipher>::NAME, key)?;
        Ok(Self::from_subkeys(Subkeys::new(key)))
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
}

block::sized_block_cipher_impls!(Camellia, Rung, NAMES);

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
        one(self.imp, &self.enc, block);
    }

    fn decrypt_one(&self, block: &mut [u8]) {
        one(self.imp, &self.dec, block);
    }

    fn ctr(&self, counter: &[u8], data: InOut<'_>) {
        match self.imp {
            #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
            Rung::Aesni | Rung::Vaes | Rung::Gfni | Rung::Armv8 => {
                let counter = u128::from_be_bytes(counter.try_into().expect("a 16-byte block"));
                let (src, dst, len) = data.into_raw();
                sliced_rungs!(self.imp, ctr(&self.enc, counter, src, dst, len));
            }
            _ => block::ctr_by_blocks(self, counter, data),
        }
    }

    fn cbc_encrypt(&self, chain: &mut [u8], data: InOut<'_>) {
        block::cbc_encrypt_by_blocks(self, chain, data);
    }

    fn cbc_decrypt(&self, chain: &mut [u8], data: InOut<'_>) {
        match self.imp {
            #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
            Rung::Aesni | Rung::Vaes | Rung::Gfni | Rung::Armv8 => {
                let chain: &mut [u8; 16] = chain.try_into().expect("a 16-byte block");
                let (src, dst, len) = data.into_raw();
                sliced_rungs!(self.imp, feedback_decrypt(&self.dec, false, chain, src, dst, len));
            }
            _ => block::cbc_decrypt_by_blocks(self, chain, data),
        }
    }

    fn cfb_decrypt(&self, chain: &mut [u8], data: InOut<'_>) {
        match self.imp {
            #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
            Rung::Aesni | Rung::Vaes | Rung::Gfni | Rung::Armv8 => {
                let chain: &mut [u8; 16] = chain.try_into().expect("a 16-byte block");
                let (src, dst, len) = data.into_raw();
                sliced_rungs!(self.imp, feedback_decrypt(&self.enc, true, chain, src, dst, len));
            }
            _ => block::cfb_decrypt_by_blocks(self, chain, data),
        }
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
