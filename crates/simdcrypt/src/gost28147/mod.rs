//! GOST 28147-89 (RFC 5830) as a ladder, from the standard's nibble-wise
//! rounds to the SIMD S-box of the Baikal-T1 article taken to AVX2 and
//! AVX-512; and the engine it shares with Magma (GOST R 34.12-2015,
//! [`crate::magma`]), which is the same cipher with the S-box set `param-z`
//! and big-endian blocks and keys.
//!
//! A round (RFC 5830 §5.1; RFC 8891 §4.2 as `g`) adds a 32-bit key word to
//! one half of the block modulo 2^32, substitutes each of its eight nibbles
//! through its own 4-bit S-box, rotates the word left by 11 bits and XORs
//! it into the other half. Thirty-two rounds take the key words
//! K0…K7 three times and then K7…K0.
//!
//! | rung | technique | constant-time |
//! |---|---|---|
//! | `reference` | RFC 5830 literally, nibble by nibble | no (`hazmat`) |
//! | `tables` | the article's four 256-entry 32-bit tables, the rotation folded in: a round is four loads and three ORs | no (`hazmat`) |
//! | `bitsliced` | 64-bit words, 64 blocks; each S-box a Boolean function of its nibble's bit planes | yes |
//! | `ssse3` | the article's SIMD S-box: four blocks an xmm register, `pshufb` looking nibbles up in tables held in registers | yes |
//! | `avx2` | the same, eight blocks a ymm register, several groups interleaved | yes |
//! | `avx2-bytesliced` | 32 blocks, each register one byte position of 32 half blocks: the rotation's byte part is renaming | yes |
//! | `avx512` | `vpermb` (AVX-512 VBMI) looking four S-boxes up at once, 16 blocks a zmm register | yes |
//! | `neon` | aarch64 NEON: `tbl` on four registers (`vqtbl4q_u8`) looking four S-boxes up at once in the `avx512` rung's 64-byte tables, four blocks a register pair, four groups interleaved | yes |
//!
//! [`Gost28147`] is a [`BlockCipher`](crate::block::BlockCipher) with an S-box set ([`SBox`],
//! CryptoPro-A unless another is given); the standard's own modes (the
//! counter "gamma", gamma with feedback, the MAC) and CryptoPro key meshing
//! are in this module too.
//!
//! ```
//! use simdcrypt::gost28147::{Gost28147, SBox};
//!
//! // RFC 5831 §7.3.1: the first encryption of the GOST R 34.11-94 example.
//! let key = *b"Tm 3hel2ise ssnb agyigttsehe ,=s";
//! let mut block = [0u8; 8];
//! let cipher = Gost28147::with_sbox(&key, SBox::TEST_3411);
//! cipher.encrypt_blocks(&mut block)?;
//! assert_eq!(block, [0x1b, 0x0b, 0xbc, 0x32, 0xce, 0xbc, 0xab, 0x42]);
//! # Ok::<(), simdcrypt::Error>(())
//! ```

#[cfg(feature = "hazmat")]
#[cfg_attr(docsrs, doc(cfg(feature = "hazmat")))]
pub mod reference;
#[cfg(not(feature = "hazmat"))]
mod reference;
// The checks of the kit (`simdcrypt::kit`), beside the entries in the
// table (this ladder's and Magma's).
#[cfg(feature = "kit")]
pub(crate) mod checks;
mod ladder;
pub(crate) use ladder::LADDER;
mod sbox;
mod tables;

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx2_bytesliced;
#[cfg(target_arch = "x86_64")]
mod avx512;
mod bitsliced;
#[cfg(target_arch = "aarch64")]
mod neon;
#[cfg(target_arch = "x86_64")]
mod nibbles;
#[cfg(target_arch = "x86_64")]
mod ssse3;

mod cfb;
mod cnt;
mod mac;
mod meshing;

use std::sync::OnceLock;

use zeroize::Zeroize;

use crate::Error;
use crate::rung::rungs;
use crate::xor::InOut;
pub use cfb::Gost28147Cfb;
pub use cnt::Gost28147Cnt;
pub use mac::{Gost28147Mac, MAC_LEN};
pub use sbox::SBox;

/// GOST 28147-89 in ECB ("simple replacement", RFC 5830 §5).
pub type Gost28147Ecb = crate::block::Ecb<Gost28147>;
/// GOST 28147-89 in CBC, as gost-engine's `gost89-cbc`: a one-block IV,
/// no key meshing (gost-engine meshes none in CBC), PKCS#7 padding through
/// the block layer's padded forms.
pub type Gost28147Cbc = crate::block::Cbc<Gost28147>;

/// The block length in bytes.
pub const BLOCK_LEN: usize = 8;
/// The key length in bytes.
pub const KEY_LEN: usize = 32;

rungs! {
    primitive = "gost28147";
    /// The rungs of GOST 28147-89 and Magma.
    pub enum Rung {
        /// RFC 5830 literally: each nibble looked up in its S-box row, one
        /// block at a time. Lookups by secret nibbles: not constant-time.
        Reference = "reference", needs "nothing", if |_f| true, arch = any,
            constant_time = false;
        /// The Baikal-T1 article's four 256-entry tables of 32-bit words,
        /// the S-box pairs and the 11-bit rotation folded in. Lookups by
        /// secret bytes: not constant-time.
        Tables = "tables", needs "nothing", if |_f| true, arch = any,
            constant_time = false;
        /// Portable and constant-time: 64 blocks in 64-bit words, each
        /// S-box evaluated as a Boolean function of bit planes.
        Bitsliced = "bitsliced", needs "nothing", if |_f| true, arch = any;
        /// The article's SIMD S-box: four blocks an xmm register, `pshufb`
        /// nibble lookups in tables held in registers.
        Ssse3 = "ssse3", needs "SSSE3", if |f| f.ssse3, arch = "x86_64";
        /// The same on ymm: eight blocks a register, groups interleaved.
        Avx2 = "avx2", needs "AVX2", if |f| f.avx2, arch = "x86_64";
        /// 32 blocks, each ymm register one byte position of 32 half
        /// blocks.
        Avx2Bytesliced = "avx2-bytesliced", needs "AVX2", if |f| f.avx2, arch = "x86_64";
        /// `vpermb` looking four S-boxes up at once, 16 blocks a zmm
        /// register.
        Avx512 = "avx512", needs "AVX-512F, AVX-512BW and AVX-512 VBMI",
            if |f| f.avx2 && f.avx512f && f.avx512bw && f.avx512vl && f.avx512vbmi, arch = "x86_64";
        /// `tbl` (`vqtbl4q_u8`) looking four S-boxes up at once in
        /// 64-byte tables, four blocks a NEON register pair.
        Neon = "neon", needs "NEON", if |f| f.neon, arch = "aarch64";
    }
}

impl Rung {
    /// The fastest constant-time rung this CPU runs (chosen once).
    pub fn best() -> Rung {
        static BEST: OnceLock<Rung> = OnceLock::new();
        *BEST.get_or_init(|| {
            [
                Rung::Avx512,
                Rung::Avx2Bytesliced,
                Rung::Ssse3,
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
            Rung::Tables => tables::PAR_BLOCKS,
            Rung::Bitsliced => bitsliced::PAR_BLOCKS,
            #[cfg(target_arch = "x86_64")]
            Rung::Ssse3 => ssse3::PAR_BLOCKS,
            #[cfg(target_arch = "x86_64")]
            Rung::Avx2 => avx2::PAR_BLOCKS,
            #[cfg(target_arch = "x86_64")]
            Rung::Avx2Bytesliced => avx2_bytesliced::PAR_BLOCKS,
            #[cfg(target_arch = "x86_64")]
            Rung::Avx512 => avx512::PAR_BLOCKS,
            #[cfg(target_arch = "aarch64")]
            Rung::Neon => neon::PAR_BLOCKS,
            #[cfg(not(target_arch = "x86_64"))]
            Rung::Ssse3 | Rung::Avx2 | Rung::Avx2Bytesliced | Rung::Avx512 => 1,
            #[cfg(not(target_arch = "aarch64"))]
            Rung::Neon => 1,
        }
    }
}

/// How an 8-byte block holds its two halves.
///
/// Read as a 64-bit integer in this order, the low word is the half the
/// first round adds the key to (RFC 5830's `N1`, RFC 8891's `a_0`) and the
/// high word the other (`N2`, `a_1`); the 32 rounds leave the result in
/// the same form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Order {
    /// GOST 28147-89 (RFC 5830; CryptoPro, gost-engine): `N1` the
    /// little-endian word of bytes 0..4.
    Le,
    /// Magma (RFC 8891): the block a big-endian integer `a_1 ‖ a_0`.
    Be,
}

impl Order {
    /// The block as the 64-bit integer `N2 ‖ N1`.
    #[inline]
    pub(crate) fn load(self, block: &[u8]) -> u64 {
        let b: [u8; 8] = block.try_into().expect("an 8-byte block");
        match self {
            Order::Le => u64::from_le_bytes(b),
            Order::Be => u64::from_be_bytes(b),
        }
    }

    /// The bytes of the block `v`.
    #[inline]
    pub(crate) fn store(self, v: u64, block: &mut [u8]) {
        block.copy_from_slice(&match self {
            Order::Le => v.to_le_bytes(),
            Order::Be => v.to_be_bytes(),
        });
    }

    /// Key word `i` of `key`: little-endian for GOST 28147-89, big-endian
    /// for Magma (RFC 8891 §4.3: K_1 the key's leftmost 32 bits).
    fn key_word(self, key: &[u8], i: usize) -> u32 {
        let w: [u8; 4] = key[4 * i..4 * i + 4].try_into().expect("4 bytes");
        match self {
            Order::Le => u32::from_le_bytes(w),
            Order::Be => u32::from_be_bytes(w),
        }
    }
}

/// The 32 round keys, for encryption and for decryption (RFC 5830 §6.1,
/// §6.2): K0…K7 three times then K7…K0, and its reverse.
#[derive(Clone)]
pub(crate) struct Schedule {
    pub(crate) enc: [u32; 32],
    pub(crate) dec: [u32; 32],
}

impl Schedule {
    fn new(key: &[u8], order: Order) -> Schedule {
        let k: [u32; 8] = std::array::from_fn(|i| order.key_word(key, i));
        let enc: [u32; 32] = std::array::from_fn(|r| if r < 24 { k[r % 8] } else { k[31 - r] });
        let mut dec = enc;
        dec.reverse();
        Schedule { enc, dec }
    }
}

impl Drop for Schedule {
    fn drop(&mut self) {
        self.enc.zeroize();
        self.dec.zeroize();
    }
}

/// The S-box in the form the rung in use looks it up.
#[derive(Clone)]
enum Prepared {
    Reference,
    Tables(Box<tables::Tables>),
    Bitsliced(Box<bitsliced::Tables>),
    #[cfg(target_arch = "x86_64")]
    Ssse3(ssse3::Tables),
    #[cfg(target_arch = "x86_64")]
    Avx2(avx2::Tables),
    #[cfg(target_arch = "x86_64")]
    Avx2Bytesliced(Box<avx2_bytesliced::Tables>),
    #[cfg(target_arch = "x86_64")]
    Avx512(avx512::Tables),
    #[cfg(target_arch = "aarch64")]
    Neon(neon::Tables),
}

impl Prepared {
    /// The tables of rung `imp`, which the CPU runs.
    fn new(imp: Rung, sbox: &SBox) -> Prepared {
        match imp {
            Rung::Reference => Prepared::Reference,
            Rung::Tables => Prepared::Tables(Box::new(tables::Tables::new(sbox))),
            Rung::Bitsliced => Prepared::Bitsliced(Box::new(bitsliced::Tables::new(sbox))),
            #[cfg(target_arch = "x86_64")]
            Rung::Ssse3 => Prepared::Ssse3(ssse3::Tables::new(sbox)),
            #[cfg(target_arch = "x86_64")]
            Rung::Avx2 => Prepared::Avx2(avx2::Tables::new(sbox)),
            #[cfg(target_arch = "x86_64")]
            Rung::Avx2Bytesliced => {
                Prepared::Avx2Bytesliced(Box::new(avx2_bytesliced::Tables::new(sbox)))
            }
            #[cfg(target_arch = "x86_64")]
            Rung::Avx512 => Prepared::Avx512(avx512::Tables::new(sbox)),
            #[cfg(target_arch = "aarch64")]
            Rung::Neon => Prepared::Neon(neon::Tables::new(sbox)),
            #[cfg(not(target_arch = "x86_64"))]
            Rung::Ssse3 | Rung::Avx2 | Rung::Avx2Bytesliced | Rung::Avx512 => {
                unreachable!("no x86-64 rung is available off x86-64")
            }
            #[cfg(not(target_arch = "aarch64"))]
            Rung::Neon => unreachable!("no aarch64 rung is available off aarch64"),
        }
    }
}

/// The cipher both standards share, keyed, with its S-box, on one rung:
/// what [`Gost28147`] and [`Magma`](crate::magma::Magma) wrap, each with
/// its byte order.
#[derive(Clone)]
pub(crate) struct Engine {
    schedule: Schedule,
    sbox: SBox,
    order: Order,
    imp: Rung,
    prepared: Prepared,
}

impl Engine {
    /// `key` (32 bytes, checked by the caller) in `order`, with `sbox`, on
    /// the fastest constant-time rung.
    pub(crate) fn new(key: &[u8], sbox: SBox, order: Order) -> Engine {
        let imp = Rung::best();
        Engine {
            schedule: Schedule::new(key, order),
            sbox,
            order,
            imp,
            prepared: Prepared::new(imp, &sbox),
        }
    }

    /// The same S-box, order and rung under another key (key meshing,
    /// ACPKM), keeping the rung's tables.
    pub(crate) fn rekey(&mut self, key: &[u8]) {
        self.schedule = Schedule::new(key, self.order);
    }

    /// The same key on rung `imp`.
    pub(crate) fn with_rung(mut self, imp: Rung) -> Result<Engine, Error> {
        self.imp = imp.require()?;
        self.prepared = Prepared::new(self.imp, &self.sbox);
        Ok(self)
    }

    pub(crate) fn rung(&self) -> Rung {
        self.imp
    }

    /// The same key on rung `imp` (available here), constant-time or
    /// not, whatever the features: for the tests that compare every rung
    /// with `reference`.
    #[cfg(test)]
    pub(crate) fn on(mut self, imp: Rung) -> Engine {
        assert!(imp.is_available());
        self.imp = imp;
        self.prepared = Prepared::new(imp, &self.sbox);
        self
    }

    pub(crate) fn schedule(&self) -> &Schedule {
        &self.schedule
    }

    /// The 32 rounds under `rk` (encryption or decryption) on whole
    /// blocks, at the rung's width.
    pub(crate) fn crypt(&self, rk: &[u32; 32], blocks: InOut<'_>) {
        let order = self.order;
        match &self.prepared {
            Prepared::Reference => {
                by_block(blocks, order, |n| reference::rounds(&self.sbox, rk, n))
            }
            Prepared::Tables(t) => tables::crypt(t, rk, order, blocks),
            Prepared::Bitsliced(t) => bitsliced::crypt(t, rk, order, blocks),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the rung passed `require()` (or is `best()`): the CPU
            // has SSSE3.
            Prepared::Ssse3(t) => unsafe { ssse3::crypt(t, rk, order, blocks) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the CPU has AVX2, as above.
            Prepared::Avx2(t) => unsafe { avx2::crypt(t, rk, order, blocks) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the CPU has AVX2, as above.
            Prepared::Avx2Bytesliced(t) => unsafe { avx2_bytesliced::crypt(t, rk, order, blocks) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the CPU has AVX-512F, BW, VL and VBMI, as above.
            Prepared::Avx512(t) => unsafe { avx512::crypt(t, rk, order, blocks) },
            #[cfg(target_arch = "aarch64")]
            // SAFETY: the rung passed `require()` (or is `best()`): the CPU
            // has NEON.
            Prepared::Neon(t) => unsafe { neon::crypt(t, rk, order, blocks) },
        }
    }

    /// The rounds under the key words `rk`, in turn, of one block held as
    /// `[N1, N2]`: round `i` XORs f(the half it reads + `rk[i]`) into the
    /// other half, N2 first, without swapping. 32 rounds leave
    /// `[N1, N2]` for the ciphertext `N1 ‖ N2` read in the order's
    /// integer form as `N1 << 32 | N2`; the MAC takes 16.
    pub(crate) fn rounds(&self, rk: &[u32], n: [u32; 2]) -> [u32; 2] {
        match &self.prepared {
            Prepared::Reference => reference::rounds(&self.sbox, rk, n),
            Prepared::Tables(t) => tables::rounds(t, rk, n),
            Prepared::Bitsliced(t) => bitsliced::rounds(t, rk, n),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the CPU has SSSE3, as in `crypt`.
            Prepared::Ssse3(t) => unsafe { ssse3::rounds(t, rk, n) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the CPU has AVX2, as in `crypt`.
            Prepared::Avx2(t) => unsafe { avx2::rounds(t, rk, n) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the CPU has AVX2, as in `crypt`.
            Prepared::Avx2Bytesliced(t) => unsafe { avx2_bytesliced::rounds(t, rk, n) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the CPU has AVX-512F, BW, VL and VBMI, as in `crypt`.
            Prepared::Avx512(t) => unsafe { avx512::rounds(t, rk, n) },
            #[cfg(target_arch = "aarch64")]
            // SAFETY: the CPU has NEON, as in `crypt`.
            Prepared::Neon(t) => unsafe { neon::rounds(t, rk, n) },
        }
    }

    /// One block through the 32 rounds under `rk`, in place.
    #[inline]
    pub(crate) fn crypt_one(&self, rk: &[u32; 32], block: &mut [u8]) {
        let v = self.order.load(block);
        let [n1, n2] = self.rounds(rk, [v as u32, (v >> 32) as u32]);
        self.order.store(u64::from(n1) << 32 | u64::from(n2), block);
    }
}

/// Runs the single-block rounds `f` over each block of `data`, read from
/// the input and written to the output.
#[inline]
fn by_block(data: InOut<'_>, order: Order, f: impl Fn([u32; 2]) -> [u32; 2]) {
    for chunk in data.chunks(BLOCK_LEN) {
        let v = order.load(chunk.input());
        let [n1, n2] = f([v as u32, (v >> 32) as u32]);
        order.store(u64::from(n1) << 32 | u64::from(n2), chunk.into_output());
    }
}

/// GOST 28147-89 (RFC 5830) under a 256-bit key with an S-box set, on one
/// rung; blocks and key words little-endian, as RFC 5830's examples,
/// CryptoPro and gost-engine have them.
#[derive(Clone)]
pub struct Gost28147 {
    engine: Engine,
}

impl Gost28147 {
    /// The key with the S-box set CryptoPro-A (gost-engine's default), on
    /// the fastest constant-time rung.
    pub fn new(key: &[u8; KEY_LEN]) -> Self {
        Self::with_sbox(key, SBox::CRYPTOPRO_A)
    }

    /// The key with the S-box set `sbox`.
    pub fn with_sbox(key: &[u8; KEY_LEN], sbox: SBox) -> Self {
        Gost28147 {
            engine: Engine::new(key, sbox, Order::Le),
        }
    }

    /// The S-box set.
    pub fn sbox(&self) -> &SBox {
        &self.engine.sbox
    }
}

/// The S-box set and the rung; never the key.
impl std::fmt::Debug for Gost28147 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Gost28147")
            .field("sbox", &self.engine.sbox)
            .field("implementation", &self.engine.imp)
            .finish_non_exhaustive()
    }
}

/// The vector rungs' batch loop over whole blocks: `$call` (which may
/// name the constant `$n` and the pointers `$src`, `$dst`) transforms `$n`
/// groups of `$group` bytes; it runs on `$most` groups at a time while
/// they fit, then once on each smaller count `$fewer` that fits, then on
/// one group copied to the stack for the last whole blocks (fewer than a
/// group; a partial block is the caller's). `$raw` is
/// `InOut::into_raw`'s `(src, dst, len)`. A macro, as `aes::batches!` is: each count a
/// constant, the call compiled in the rung's `#[target_feature]` function.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
macro_rules! by_groups {
    (
        $raw:expr, $group:expr, [$most:expr $(, $fewer:expr)*],
        |$n:ident, $src:ident, $dst:ident| $call:expr
    ) => {{
        let (src, dst, len): (*const u8, *mut u8, usize) = $raw;
        const BYTES: usize = $group;
        let mut done = 0;
        {
            const $n: usize = $most;
            while len - done >= $n * BYTES {
                // SAFETY: `into_raw` gives `len` bytes to read at `src` and
                // write at `dst`; `done + $n · BYTES <= len`.
                let ($src, $dst) = unsafe { (src.add(done), dst.add(done)) };
                $call;
                done += $n * BYTES;
            }
        }
        $({
            const $n: usize = $fewer;
            if len - done >= $n * BYTES {
                // SAFETY: as above.
                let ($src, $dst) = unsafe { (src.add(done), dst.add(done)) };
                $call;
                done += $n * BYTES;
            }
        })*
        let rest = (len - done) / $crate::gost28147::BLOCK_LEN * $crate::gost28147::BLOCK_LEN;
        if rest > 0 {
            const $n: usize = 1;
            let mut buf = [0u8; BYTES];
            // SAFETY: bytes `done..done + rest` of `src` are readable, of
            // `dst` writable (`into_raw`); `buf` holds `BYTES > rest` bytes.
            unsafe { core::ptr::copy_nonoverlapping(src.add(done), buf.as_mut_ptr(), rest) };
            let ($src, $dst) = (buf.as_ptr(), buf.as_mut_ptr());
            $call;
            // SAFETY: as above.
            unsafe { core::ptr::copy_nonoverlapping(buf.as_ptr(), dst.add(done), rest) };
        }
    }};
}
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
use by_groups;

/// What an [`Engine`] wrapper (a struct with the field `engine`) is: its
/// rung methods and the block-cipher layer's view of it, one impl for GOST
/// 28147-89 and Magma, each giving its name and its constructor from a
/// key.
macro_rules! engine_block_cipher {
    ($T:ident, $name:literal, $from_slice:expr) => {
        impl $T {
            /// The same key on rung `imp`.
            ///
            /// # Errors
            ///
            /// [`Error::RungUnavailable`](crate::Error::RungUnavailable)
            /// when the CPU lacks the rung;
            /// [`Error::VariableTimeRung`](crate::Error::VariableTimeRung)
            /// for `reference` and `tables` without the `hazmat` feature.
            pub fn with_rung(self, imp: $crate::gost28147::Rung) -> Result<Self, $crate::Error> {
                Ok($T {
                    engine: self.engine.with_rung(imp)?,
                })
            }

            /// Renamed [`with_rung`](Self::with_rung).
            #[deprecated(note = "renamed `with_rung`")]
            pub fn with_impl(self, imp: $crate::gost28147::Rung) -> Result<Self, $crate::Error> {
                self.with_rung(imp)
            }

            /// The rung in use.
            pub fn rung(&self) -> $crate::gost28147::Rung {
                self.engine.rung()
            }

            /// Renamed [`rung`](Self::rung).
            #[deprecated(note = "renamed `rung`")]
            pub fn implementation(&self) -> $crate::gost28147::Rung {
                self.rung()
            }

            pub(crate) fn engine(&self) -> &$crate::gost28147::Engine {
                &self.engine
            }

            pub(crate) fn engine_mut(&mut self) -> &mut $crate::gost28147::Engine {
                &mut self.engine
            }

            /// Encrypts whole blocks in place:
            /// [`BlockCipher::encrypt_blocks`]($crate::block::BlockCipher::encrypt_blocks).
            ///
            /// # Errors
            ///
            /// [`Error::NotWholeBlocks`](crate::Error::NotWholeBlocks) when
            /// `data` is not a multiple of 8 bytes.
            pub fn encrypt_blocks(&self, data: &mut [u8]) -> Result<(), $crate::Error> {
                $crate::block::BlockCipher::encrypt_blocks(self, data)
            }

            /// Decrypts whole blocks in place:
            /// [`BlockCipher::decrypt_blocks`]($crate::block::BlockCipher::decrypt_blocks).
            ///
            /// # Errors
            ///
            /// [`Error::NotWholeBlocks`](crate::Error::NotWholeBlocks) when
            /// `data` is not a multiple of 8 bytes.
            pub fn decrypt_blocks(&self, data: &mut [u8]) -> Result<(), $crate::Error> {
                $crate::block::BlockCipher::decrypt_blocks(self, data)
            }
        }

        impl $crate::block::BlockCipher for $T {
            const NAME: &'static str = $name;
            const BLOCK_LEN: usize = $crate::gost28147::BLOCK_LEN;
            type Block = [u8; $crate::gost28147::BLOCK_LEN];
            type Key = [u8; $crate::gost28147::KEY_LEN];
            type Rung = $crate::gost28147::Rung;

            fn new(key: &Self::Key) -> Self {
                <$T>::new(key)
            }

            fn with_rung(self, imp: Self::Rung) -> Result<Self, $crate::Error> {
                <$T>::with_rung(self, imp)
            }

            fn rung(&self) -> Self::Rung {
                self.engine().rung()
            }

            fn par_blocks(&self) -> usize {
                self.engine().rung().par_blocks()
            }
        }

        impl $crate::block::sealed::Core for $T {
            fn from_slice(key: &[u8]) -> Result<Self, $crate::Error> {
                let key: &[u8; $crate::gost28147::KEY_LEN] =
                    key.try_into().map_err(|_| $crate::Error::BadLength {
                        primitive: $name,
                        what: "key",
                        len: key.len(),
                        expected: $crate::gost28147::KEY_LEN.to_string(),
                    })?;
                Ok($from_slice(key))
            }

            fn encrypt(&self, blocks: $crate::xor::InOut<'_>) {
                let e = self.engine();
                e.crypt(&e.schedule().enc, blocks);
            }

            fn decrypt(&self, blocks: $crate::xor::InOut<'_>) {
                let e = self.engine();
                e.crypt(&e.schedule().dec, blocks);
            }

            fn encrypt_one(&self, block: &mut [u8]) {
                let e = self.engine();
                e.crypt_one(&e.schedule().enc, block);
            }

            fn decrypt_one(&self, block: &mut [u8]) {
                let e = self.engine();
                e.crypt_one(&e.schedule().dec, block);
            }

            fn ctr(&self, counter: &[u8], data: $crate::xor::InOut<'_>) {
                $crate::block::ctr_by_blocks(self, counter, data);
            }

            fn cbc_encrypt(&self, chain: &mut [u8], data: $crate::xor::InOut<'_>) {
                $crate::block::cbc_encrypt_by_blocks(self, chain, data);
            }

            fn cbc_decrypt(&self, chain: &mut [u8], data: $crate::xor::InOut<'_>) {
                $crate::block::cbc_decrypt_by_blocks(self, chain, data);
            }
        }
    };
}
pub(crate) use engine_block_cipher;

engine_block_cipher!(Gost28147, "gost28147", Gost28147::new);

#[cfg(test)]
mod tests {
    use super::*;

    /// The default is the widest constant-time rung this CPU runs.
    #[test]
    fn best_is_constant_time_and_available() {
        let best = Rung::best();
        assert!(best.is_available() && best.is_constant_time());
        assert_eq!(Gost28147::new(&[0; 32]).rung(), best);
        for imp in Rung::available() {
            assert!(imp.par_blocks() >= 1);
        }
    }

    /// Every available rung against the reference, both directions, on
    /// every published S-box set and both byte orders, at lengths around
    /// the rungs' widths; and the single-block rounds of each.
    #[test]
    fn every_rung_agrees_with_the_reference() {
        let key: [u8; 32] = std::array::from_fn(|i| (i as u8).wrapping_mul(29).wrapping_add(3));
        let data: Vec<u8> = (0..8 * 131)
            .map(|i| (i as u8).wrapping_mul(7) ^ 0x5a)
            .collect();
        for name in SBox::names() {
            let sbox = SBox::from_name(name).unwrap();
            for order in [Order::Le, Order::Be] {
                let reference = Engine::new(&key, sbox, order).on(Rung::Reference);
                for imp in Rung::available() {
                    let engine = Engine::new(&key, sbox, order).on(imp);
                    for blocks in [0, 1, 3, 4, 7, 8, 15, 16, 31, 32, 33, 63, 64, 65, 127, 131] {
                        let input = &data[..8 * blocks];
                        for rk in [&engine.schedule().enc, &engine.schedule().dec] {
                            let mut want = vec![0u8; input.len()];
                            reference.crypt(rk, InOut::apart(input, &mut want).unwrap());
                            let mut got = vec![0u8; input.len()];
                            engine.crypt(rk, InOut::apart(input, &mut got).unwrap());
                            assert_eq!(got, want, "{imp} {name} {order:?} {blocks} blocks");
                            let mut inplace = input.to_vec();
                            engine.crypt(rk, InOut::in_place(&mut inplace));
                            assert_eq!(inplace, want, "{imp} {name} {order:?} in place");
                        }
                    }
                    for (i, rounds) in [0usize, 1, 16, 32].into_iter().enumerate() {
                        let n = [0x0123_4567 ^ i as u32, 0x89ab_cdef];
                        let rk = &engine.schedule().enc[..rounds];
                        assert_eq!(
                            engine.rounds(rk, n),
                            reference.rounds(rk, n),
                            "{imp} {name} {rounds} rounds"
                        );
                    }
                }
            }
        }
    }
}
