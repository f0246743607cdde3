//! AES (FIPS 197) as a ladder, as Matsui's survey of fast symmetric
//! cryptography on x86-64 teaches it: the specification's rounds, then
//! table lookups, then bitslicing, then the AES instructions (x86-64's,
//! and ARMv8's on aarch64).
//!
//! | rung | technique | constant-time |
//! |---|---|---|
//! | `reference` | FIPS 197 literally: the S-box a table | no (`hazmat`) |
//! | `tables` | 32-bit T-tables: a round is 16 lookups and XORs | no (`hazmat`) |
//! | `bitsliced` | 64-bit words, 4 blocks, fixsliced; the S-box a Boolean circuit | yes |
//! | `bitsliced-avx2` | the same circuit on ymm registers, 16 blocks | yes |
//! | `neon` | the same circuit on aarch64's q registers (NEON), 8 blocks: for cores without the AES instructions | yes |
//! | `aesni` | AES-NI: 8 blocks in flight in xmm (4, 2, 1 for the rest); one at a time for the chained modes | yes |
//! | `vaes` | VAES on ymm, two blocks an instruction, 16 in flight; the rest on `aesni` | yes |
//! | `vaes512` | VAES on zmm, four blocks an instruction, 32 in flight; the rest on `vaes` | yes |
//! | `armv8` | aarch64's AES instructions (`AESE`/`AESMC`, `AESD`/`AESIMC`): 8 blocks in flight in NEON registers (4, 2, 1 for the rest); one at a time for the chained modes | yes |
//!
//! The instruction rungs share their kernels (`x86.rs`, over the register
//! width) and run CTR, ECB and CBC decryption in parallel; the chained
//! modes (CBC and CFB encryption, OFB, CMAC) run one block at a time on
//! `aesni` whichever of the three is chosen. With AES-NI the key schedule
//! itself is computed by `aeskeygenassist`'s faster cousin, `aesenclast`.
//! On aarch64, `armv8` (`armv8.rs`) has the same forms on its own, its key
//! schedule with `AESE` for SubWord and `AESIMC` for the inverse cipher's
//! keys.
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

mod bitsliced;
#[cfg(target_arch = "x86_64")]
mod bitsliced_avx2;
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
mod bitsliced_wide;
// The checks of the kit (`simdcrypt::kit`), beside the entry in the table.
#[cfg(feature = "kit")]
pub(crate) mod checks;
mod key_schedule;
mod ladder;
pub(crate) use ladder::LADDER;
#[cfg(feature = "hazmat")]
#[cfg_attr(docsrs, doc(cfg(feature = "hazmat")))]
pub mod reference;
#[cfg(feature = "rustcrypto")]
#[cfg_attr(docsrs, doc(cfg(feature = "rustcrypto")))]
mod rustcrypto;
mod tables;
// Without `hazmat` the reference rung cannot be chosen; its key expansion
// still serves the others.
#[cfg(not(feature = "hazmat"))]
#[allow(dead_code)]
mod reference;

#[cfg(target_arch = "x86_64")]
mod aesni;
#[cfg(target_arch = "x86_64")]
mod vaes;
#[cfg(target_arch = "x86_64")]
mod vaes512;
#[cfg(target_arch = "x86_64")]
mod x86;
#[cfg(target_arch = "aarch64")]
mod armv8;
#[cfg(target_arch = "aarch64")]
mod neon;

use std::marker::PhantomData;
use std::sync::OnceLock;

use crate::Error;
use crate::block::{self, BlockCipher, Cbc, Cfb, Cmac, Ctr, Ecb, Ofb};
use crate::rung::rungs;
use crate::xor::InOut;
use key_schedule::Keys;

/// The block length in bytes.
pub const BLOCK_LEN: usize = 16;

// What the instruction rungs' kernels (`x86.rs`, `armv8.rs`) share.

/// Runs `$body` with the constant `$nr` bound to `$rounds` (10, 12 or 14),
/// so that the rounds unroll for each key size.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
macro_rules! with_rounds {
    ($rounds:expr, |$nr:ident| $body:expr) => {
        match $rounds {
            10 => {
                const $nr: usize = 10;
                $body
            }
            12 => {
                const $nr: usize = 12;
                $body
            }
            _ => {
                const $nr: usize = 14;
                $body
            }
        }
    };
}
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
use with_rounds;

/// Runs `$body` on each whole batch of `$step` bytes of `$data`, with
/// `$src` read and `$dst` written (the same address in place); evaluates
/// to the rest, shorter than a batch. A macro, not a function taking a
/// closure: a closure is a function of its own, compiled without the
/// caller's target features, and where LLVM left it out of line (a batch
/// size used at two call sites) each AES instruction in it became a call
/// — one CTR block took 72 ns instead of 12 (`bench/NOTES.md`,
/// `aes-short-messages`).
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
macro_rules! batches {
    ($data:expr, $step:expr, |$src:ident, $dst:ident| $body:block) => {{
        let step = $step;
        let data = $data;
        let whole = data.len() - data.len() % step;
        // The batches' parts once, then an offset: splitting the data
        // batch by batch cost some 30 instructions a batch (aarch64).
        let (batches, rest) = data.split_at(whole);
        let (src, dst, _) = batches.into_raw();
        let mut at = 0;
        while at < whole {
            // SAFETY: `at + step <= whole`, the length of `src` and `dst`
            // (`InOut::into_raw`).
            let ($src, $dst) = unsafe { (src.add(at), dst.add(at)) };
            $body
            at += step;
        }
        rest
    }};
}
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
use batches;

rungs! {
    primitive = "aes";
    /// The rungs of AES.
    pub enum Rung {
        /// FIPS 197 word for word, one block at a time; table lookups by
        /// secret bytes, so not constant-time.
        Reference = "reference", needs "nothing", if |_f| true, arch = any,
            constant_time = false;
        /// 32-bit T-tables (Daemen–Rijmen), one block at a time; lookups
        /// by secret bytes, open to cache-timing attacks, so not
        /// constant-time.
        Tables = "tables", needs "nothing", if |_f| true, arch = any,
            constant_time = false;
        /// Bitsliced and fixsliced in 64-bit words, 4 blocks at once, the
        /// S-box a Boolean circuit: constant-time and portable.
        Bitsliced = "bitsliced", needs "nothing", if |_f| true, arch = any;
        /// The same circuit on ymm registers, 16 blocks at once.
        BitslicedAvx2 = "bitsliced-avx2", needs "AVX2", if |f| f.avx2, arch = "x86_64";
        /// The same circuit on NEON q registers, 8 blocks at once: aarch64
        /// without the AES instructions.
        Neon = "neon", needs "NEON", if |f| f.neon, arch = "aarch64";
        /// AES-NI: 8 blocks in flight in xmm registers; one at a time for
        /// the chained modes.
        Aesni = "aesni", needs "AES-NI and SSSE3", if |f| f.aes && f.ssse3, arch = "x86_64";
        /// VAES on ymm: two blocks an instruction, 16 in flight.
        Vaes = "vaes", needs "VAES, AES-NI and AVX2", if |f| f.vaes && f.aes && f.avx2, arch = "x86_64";
        /// VAES on zmm: four blocks an instruction, 32 in flight.
        Vaes512 = "vaes512", needs "VAES, AES-NI, AVX-512F and AVX-512BW",
            if |f| f.vaes && f.aes && f.avx2 && f.avx512f && f.avx512bw, arch = "x86_64";
        /// aarch64's AES instructions (FEAT_AES): 8 blocks in flight in
        /// NEON registers; one at a time for the chained modes.
        Armv8 = "armv8", needs "the ARMv8 AES instructions", if |f| f.aes, arch = "aarch64";
    }
}

impl Rung {
    /// The fastest constant-time rung this CPU runs (chosen once).
    pub fn best() -> Rung {
        static BEST: OnceLock<Rung> = OnceLock::new();
        *BEST.get_or_init(|| {
            [
                Rung::Armv8,
                Rung::Vaes512,
                Rung::Vaes,
                Rung::Aesni,
                Rung::BitslicedAvx2,
                Rung::Neon,
                Rung::Bitsliced,
            ]
            .into_iter()
            .find(|i| i.is_available())
            .unwrap_or(Rung::Bitsliced)
        })
    }

    /// How many blocks the rung processes at once.
    pub fn par_blocks(self) -> usize {
        match self {
            Rung::Reference => 1,
            Rung::Tables => 1,
            Rung::Bitsliced => bitsliced::PAR_BLOCKS,
            Rung::BitslicedAvx2 => 16,
            Rung::Neon => 8,
            #[cfg(target_arch = "x86_64")]
            Rung::Aesni => aesni::PAR_BLOCKS,
            #[cfg(target_arch = "x86_64")]
            Rung::Vaes => vaes::PAR_BLOCKS,
            #[cfg(target_arch = "x86_64")]
            Rung::Vaes512 => vaes512::PAR_BLOCKS,
            #[cfg(not(target_arch = "x86_64"))]
            Rung::Aesni | Rung::Vaes | Rung::Vaes512 => 1,
            #[cfg(target_arch = "aarch64")]
            Rung::Armv8 => armv8::PAR_BLOCKS,
            #[cfg(not(target_arch = "aarch64"))]
            Rung::Armv8 => 1,
        }
    }

    /// The rung that runs a parallel mode (ECB, CTR, CBC decryption) on
    /// `len` bytes: a wide rung's kernel starts at a batch of four
    /// registers, so a shorter message goes straight to the narrower rung
    /// that has one for it, rather than through the wide kernel's set-up
    /// and hand-down (`bench/NOTES.md`, `aes-short-messages`). Only
    /// x86-64 has wide rungs: elsewhere the rung itself.
    #[inline]
    #[cfg_attr(not(target_arch = "x86_64"), allow(unused_variables))]
    fn for_len(self, len: usize) -> Rung {
        match self {
            #[cfg(target_arch = "x86_64")]
            Rung::Vaes512 if len < 4 * 64 => Rung::Vaes.for_len(len),
            #[cfg(target_arch = "x86_64")]
            Rung::Vaes if len < 4 * 32 => Rung::Aesni,
            rung => rung,
        }
    }
}

// The key sizes, shared with Camellia: FIPS 197 §5, Figure 4 gives each
// its number of key words `Nk` (4, 6, 8) and rounds `Nr` (10, 12, 14).
pub use crate::block::{Bits128, Bits192, Bits256, KeySize};

/// The cipher's name at each key size, as the table has it.
const NAMES: [&str; 3] = ["aes-128", "aes-192", "aes-256"];

/// AES with a key of size `K`, on one rung. Use the aliases [`Aes128`],
/// [`Aes192`], [`Aes256`].
#[derive(Clone)]
pub struct Aes<K: KeySize> {
    keys: Keys,
    /// The bitsliced rungs' form of the round keys, made when one of them
    /// is chosen.
    sliced: Option<Box<bitsliced::RoundKeys>>,
    imp: Rung,
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
        Self::from_keys(expand(key.as_ref()))
    }

    /// AES on the fastest constant-time rung with the schedule `keys`,
    /// whose key the caller has checked is `K`'s size.
    pub(crate) fn from_keys(keys: Keys) -> Self {
        debug_assert_eq!(keys.rounds(), K::LEN / 4 + 6);
        Aes {
            keys,
            sliced: None,
            imp: Rung::best(),
            size: PhantomData,
        }
        .with_rung_keys()
    }

    /// The round keys in the form the rung in use needs, beside the
    /// schedule.
    fn with_rung_keys(mut self) -> Self {
        self.sliced = match self.imp {
            Rung::Bitsliced | Rung::BitslicedAvx2 | Rung::Neon => Some(
                self.sliced
                    .take()
                    .unwrap_or_else(|| Box::new(bitsliced::RoundKeys::new(&self.keys))),
            ),
            _ => None,
        };
        self
    }

    /// The bitsliced round keys; only called on a bitsliced rung.
    fn sliced(&self) -> &bitsliced::RoundKeys {
        self.sliced
            .as_deref()
            .expect("made when a bitsliced rung is chosen")
    }

    /// AES under `key`, a slice whose length must be `K`'s, for callers
    /// that take keys as bytes (the table of ladders).
    pub(crate) fn from_slice(key: &[u8]) -> Result<Self, Error> {
        let key = block::sized_key::<K>(<Self as BlockCipher>::NAME, key)?;
        Ok(Self::from_keys(expand(key)))
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
        Ok(self.with_rung_keys())
    }

    /// Renamed [`with_rung`](Self::with_rung).
    #[deprecated(note = "renamed `with_rung`")]
    pub fn with_impl(self, imp: Rung) -> Result<Self, Error> {
        self.with_rung(imp)
    }

    /// The rung in use.
    pub fn rung(&self) -> Rung {
        self.imp
    }

    /// Renamed [`rung`](Self::rung).
    #[deprecated(note = "renamed `rung`")]
    pub fn implementation(&self) -> Rung {
        self.rung()
    }

    /// The cipher's round keys, `w[0]` first (FIPS 197 §5.2), for
    /// kernels that run AES rounds of their own (GCM's stitched kernel).
    #[allow(dead_code)] // used only where such a kernel is compiled
    pub(crate) fn round_keys(&self) -> &[[u8; 16]] {
        self.keys.enc()
    }
}

block::sized_block_cipher_impls!(Aes, Rung, NAMES);

/// The key schedule of `key`: with AES-NI or ARMv8's AES instructions
/// when the CPU has them (the hot part of a short message's setup), else
/// computed in constant time.
fn expand(key: &[u8]) -> Keys {
    #[cfg(target_arch = "x86_64")]
    if Rung::Aesni.is_available() {
        // SAFETY: the CPU has AES-NI and SSSE3, what `Rung::Aesni` needs.
        return unsafe { aesni::expand(key) };
    }
    #[cfg(target_arch = "aarch64")]
    if Rung::Armv8.is_available() {
        // SAFETY: the CPU has the AES instructions, what `Rung::Armv8`
        // needs.
        return unsafe { armv8::expand(key) };
    }
    Keys::new(key)
}

/// A block of the slice given to a single-block call.
fn one(block: &mut [u8]) -> &mut [u8; 16] {
    block.try_into().expect("one 16-byte block")
}

/// The dispatch to the AES instruction rungs, for the arm
/// `Rung::Aesni | Rung::Vaes | Rung::Vaes512 | Rung::Armv8` of a `match`:
/// with `parallel`, `$f($args)` of the rung's own module, the data passed
/// as `InOut::into_raw`'s parts (in registers: `InOut::from_raw` says
/// why); with `one_at_a_time`, the single-block forms and CBC encryption:
/// `aesni::$f` for all three x86-64 rungs, `armv8::$f` on aarch64. Only
/// rungs that are available come here (`Aes` holds `best()` or a rung
/// that passed `require()`), and none is off its architecture.
macro_rules! instruction_rungs {
    ($imp:expr, parallel $f:ident($($arg:expr),*)) => {
        match $imp {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the rung is available: the CPU has AES-NI and SSSE3;
            // the data are `into_raw`'s parts of an `InOut` not used again.
            Rung::Aesni => unsafe { aesni::$f($($arg),*) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the rung is available: the CPU has VAES, AES-NI and
            // AVX2; the data as above.
            Rung::Vaes => unsafe { vaes::$f($($arg),*) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the rung is available: the CPU has VAES, AES-NI,
            // AVX-512F and AVX-512BW; the data as above.
            Rung::Vaes512 => unsafe { vaes512::$f($($arg),*) },
            #[cfg(target_arch = "aarch64")]
            // SAFETY: the rung is available: the CPU has the AES
            // instructions; the data as above.
            Rung::Armv8 => unsafe { armv8::$f($($arg),*) },
            _ => unreachable!("an unavailable AES rung"),
        }
    };
    ($imp:expr, one_at_a_time $f:ident($($arg:expr),*)) => {
        match $imp {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: each of these rungs is available only where the CPU
            // has AES-NI and SSSE3.
            Rung::Aesni | Rung::Vaes | Rung::Vaes512 => unsafe { aesni::$f($($arg),*) },
            #[cfg(target_arch = "aarch64")]
            // SAFETY: the rung is available only where the CPU has the AES
            // instructions.
            Rung::Armv8 => unsafe { armv8::$f($($arg),*) },
            _ => unreachable!("an unavailable AES rung"),
        }
    };
}

/// The 16-byte counter block as the big-endian integer it is.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
fn counter_block(counter: &[u8]) -> u128 {
    u128::from_be_bytes(counter.try_into().expect("a 16-byte counter block"))
}

impl<K: KeySize> block::sealed::Core for Aes<K> {
    fn from_slice(key: &[u8]) -> Result<Self, Error> {
        Aes::from_slice(key)
    }

    fn encrypt(&self, blocks: InOut<'_>) {
        match self.imp {
            Rung::Reference => block::by_block(blocks, |b| reference::encrypt_block(&self.keys, b)),
            Rung::Tables => block::by_block(blocks, |b| tables::encrypt_block(&self.keys, b)),
            Rung::Bitsliced => bitsliced::encrypt(self.sliced(), blocks),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: this rung passed `require()`, so the CPU has AVX2.
            Rung::BitslicedAvx2 => unsafe {
                bitsliced_wide::encrypt::<bitsliced_avx2::Ymm>(self.sliced(), blocks)
            },
            #[cfg(target_arch = "aarch64")]
            // SAFETY: this rung passed `require()`, so the CPU has NEON.
            Rung::Neon => unsafe { bitsliced_wide::encrypt::<neon::Q>(self.sliced(), blocks) },
            // The other architecture's rung: never available here.
            #[cfg(not(target_arch = "x86_64"))]
            Rung::BitslicedAvx2 => bitsliced::encrypt(self.sliced(), blocks),
            #[cfg(not(target_arch = "aarch64"))]
            Rung::Neon => bitsliced::encrypt(self.sliced(), blocks),
            Rung::Aesni | Rung::Vaes | Rung::Vaes512 | Rung::Armv8 => {
                let rung = self.imp.for_len(blocks.len());
                let (src, dst, len) = blocks.into_raw();
                instruction_rungs!(rung, parallel encrypt(&self.keys, src, dst, len))
            }
        }
    }

    fn decrypt(&self, blocks: InOut<'_>) {
        match self.imp {
            Rung::Reference => block::by_block(blocks, |b| reference::decrypt_block(&self.keys, b)),
            Rung::Tables => block::by_block(blocks, |b| tables::decrypt_block(&self.keys, b)),
            Rung::Bitsliced => bitsliced::decrypt(self.sliced(), blocks),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: this rung passed `require()`, so the CPU has AVX2.
            Rung::BitslicedAvx2 => unsafe {
                bitsliced_wide::decrypt::<bitsliced_avx2::Ymm>(self.sliced(), blocks)
            },
            #[cfg(target_arch = "aarch64")]
            // SAFETY: this rung passed `require()`, so the CPU has NEON.
            Rung::Neon => unsafe { bitsliced_wide::decrypt::<neon::Q>(self.sliced(), blocks) },
            // The other architecture's rung: never available here.
            #[cfg(not(target_arch = "x86_64"))]
            Rung::BitslicedAvx2 => bitsliced::decrypt(self.sliced(), blocks),
            #[cfg(not(target_arch = "aarch64"))]
            Rung::Neon => bitsliced::decrypt(self.sliced(), blocks),
            Rung::Aesni | Rung::Vaes | Rung::Vaes512 | Rung::Armv8 => {
                let rung = self.imp.for_len(blocks.len());
                let (src, dst, len) = blocks.into_raw();
                instruction_rungs!(rung, parallel decrypt(&self.keys, src, dst, len))
            }
        }
    }

    fn encrypt_one(&self, block: &mut [u8]) {
        let block = one(block);
        match self.imp {
            Rung::Reference => reference::encrypt_block(&self.keys, block),
            Rung::Tables => tables::encrypt_block(&self.keys, block),
            Rung::Bitsliced => bitsliced::encrypt_block(self.sliced(), block),
            // One block: the 64-bit rung's batch is the narrower.
            Rung::BitslicedAvx2 | Rung::Neon => bitsliced::encrypt_block(self.sliced(), block),
            Rung::Aesni | Rung::Vaes | Rung::Vaes512 | Rung::Armv8 => {
                instruction_rungs!(self.imp, one_at_a_time encrypt_block(&self.keys, block))
            }
        }
    }

    fn decrypt_one(&self, block: &mut [u8]) {
        let block = one(block);
        match self.imp {
            Rung::Reference => reference::decrypt_block(&self.keys, block),
            Rung::Tables => tables::decrypt_block(&self.keys, block),
            Rung::Bitsliced => bitsliced::decrypt_block(self.sliced(), block),
            Rung::BitslicedAvx2 | Rung::Neon => bitsliced::decrypt_block(self.sliced(), block),
            Rung::Aesni | Rung::Vaes | Rung::Vaes512 | Rung::Armv8 => {
                instruction_rungs!(self.imp, one_at_a_time decrypt_block(&self.keys, block))
            }
        }
    }

    fn ctr(&self, counter: &[u8], data: InOut<'_>) {
        match self.imp {
            Rung::Reference => block::ctr_by_blocks(self, counter, data),
            Rung::Tables => block::ctr_by_blocks(self, counter, data),
            Rung::Bitsliced => bitsliced::ctr(self.sliced(), counter, data),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: this rung passed `require()`, so the CPU has AVX2.
            Rung::BitslicedAvx2 => unsafe {
                bitsliced_wide::ctr::<bitsliced_avx2::Ymm>(self.sliced(), counter, data)
            },
            #[cfg(target_arch = "aarch64")]
            // SAFETY: this rung passed `require()`, so the CPU has NEON.
            Rung::Neon => unsafe { bitsliced_wide::ctr::<neon::Q>(self.sliced(), counter, data) },
            // The other architecture's rung: never available here.
            #[cfg(not(target_arch = "x86_64"))]
            Rung::BitslicedAvx2 => bitsliced::ctr(self.sliced(), counter, data),
            #[cfg(not(target_arch = "aarch64"))]
            Rung::Neon => bitsliced::ctr(self.sliced(), counter, data),
            Rung::Aesni | Rung::Vaes | Rung::Vaes512 | Rung::Armv8 => {
                let rung = self.imp.for_len(data.len());
                let (src, dst, len) = data.into_raw();
                instruction_rungs!(rung, parallel ctr(&self.keys, counter_block(counter), src, dst, len))
            }
        }
    }

    fn cbc_encrypt(&self, chain: &mut [u8], data: InOut<'_>) {
        match self.imp {
            Rung::Reference => block::cbc_encrypt_by_blocks(self, chain, data),
            Rung::Tables => block::cbc_encrypt_by_blocks(self, chain, data),
            Rung::Bitsliced => block::cbc_encrypt_by_blocks(self, chain, data),
            Rung::BitslicedAvx2 | Rung::Neon => block::cbc_encrypt_by_blocks(self, chain, data),
            Rung::Aesni | Rung::Vaes | Rung::Vaes512 | Rung::Armv8 => {
                instruction_rungs!(self.imp, one_at_a_time cbc_encrypt(&self.keys, one(chain), data))
            }
        }
    }

    fn cbc_decrypt(&self, chain: &mut [u8], data: InOut<'_>) {
        match self.imp {
            Rung::Reference => block::cbc_decrypt_by_blocks(self, chain, data),
            Rung::Tables => block::cbc_decrypt_by_blocks(self, chain, data),
            Rung::Bitsliced => block::cbc_decrypt_by_blocks(self, chain, data),
            Rung::BitslicedAvx2 | Rung::Neon => block::cbc_decrypt_by_blocks(self, chain, data),
            Rung::Aesni | Rung::Vaes | Rung::Vaes512 | Rung::Armv8 => {
                let rung = self.imp.for_len(data.len());
                let (src, dst, len) = data.into_raw();
                instruction_rungs!(rung, parallel cbc_decrypt(&self.keys, one(chain), src, dst, len))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The default is the widest constant-time rung this CPU runs, and
    /// every rung says how many blocks it takes at once.
    #[test]
    fn best_is_the_widest_constant_time_rung() {
        let best = Rung::best();
        assert!(best.is_available() && best.is_constant_time());
        assert_eq!(Aes128::new(&[0; 16]).rung(), best);
        for imp in Rung::available().filter(|i| i.is_constant_time()) {
            assert!(imp.par_blocks() >= 1);
            let instructions = [Rung::Aesni, Rung::Vaes, Rung::Vaes512, Rung::Armv8];
            if instructions.contains(&imp) {
                assert!(instructions.contains(&best), "{best} beside {imp}");
                assert!(
                    best.par_blocks() >= imp.par_blocks(),
                    "{best} is not the widest"
                );
            }
        }
    }
}
