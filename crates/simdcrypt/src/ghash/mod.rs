//! GHASH (NIST SP 800-38D §6.4), the universal hash of GCM, and POLYVAL
//! (RFC 8452 §3), its little-endian twin in AES-GCM-SIV, as one ladder.
//!
//! | rung | CPU | technique | constant-time |
//! |---|---|---|---|
//! | `reference` | any | SP 800-38D Algorithm 1 and RFC 8452 §3 bit by bit | no (`hazmat`) |
//! | `soft64` | any | integer multiplications "with holes" (BearSSL's `ghash_ctmul64`), Karatsuba | yes |
//! | `pclmul` | PCLMULQDQ, SSSE3 | Karatsuba, one reduction per 8 blocks with `H^8 … H^1` | yes |
//! | `vpclmul` | VPCLMULQDQ, AVX2 | two blocks per ymm register, schoolbook, one reduction per 8 blocks | yes |
//! | `neon` | aarch64 NEON | 64×64 products from eight `vmull_p8` (Câmara–Gouvêa–López–Dahab), Karatsuba, one reduction (by shifts) per 8 blocks | yes |
//! | `pmull` | aarch64 PMULL | `vmull_p64`, Karatsuba, one reduction per 8 blocks with `H^8 … H^1` | yes |
//!
//! Every rung but the reference computes in POLYVAL's field: GHASH's key
//! `H` becomes `mulX_POLYVAL(ByteReverse(H))`, its blocks are
//! byte-reversed, and so is the result (RFC 8452 Appendix A). The
//! reference computes each hash as its own document writes it, so that
//! the checks compare the two definitions as well as the rungs.
//!
//! [`Ghash`] and [`Polyval`] are keyed with `H` and absorb any split of a
//! message; a last partial block is padded with zeros, as GCM and
//! GCM-SIV pad their associated data and ciphertext. The key and its
//! powers are zeroized on drop.
//!
//! ```
//! use simdcrypt::ghash::{Ghash, Polyval};
//!
//! // RFC 8452 Appendix A: POLYVAL(H, X_1, X_2).
//! let h = 0x25629347589242761d31f826ba4b757b_u128.to_be_bytes();
//! let mut polyval = Polyval::new(&h);
//! polyval.update(&0x4f4f95668c83dfb6401762bb2d01a262_u128.to_be_bytes());
//! polyval.update(&0xd1a24ddd2721d006bbe45f20d3c9f362_u128.to_be_bytes());
//! assert_eq!(polyval.finalize(), 0xf7a3b47b846119fae5b7866cf5e5b77e_u128.to_be_bytes());
//! let tag = Ghash::new(&[1; 16]).chain(b"a message").finalize();
//! assert_eq!(tag.len(), 16);
//! ```

// The checks of the kit (`simdcrypt::kit`), beside the entry in the table.
#[cfg(feature = "kit")]
pub(crate) mod checks;
mod ladder;
pub(crate) use ladder::LADDER;
#[cfg(target_arch = "aarch64")]
pub(crate) mod neon;
#[cfg(target_arch = "x86_64")]
pub(crate) mod pclmul;
#[cfg(target_arch = "aarch64")]
pub(crate) mod pmull;
#[cfg(feature = "hazmat")]
#[cfg_attr(docsrs, doc(cfg(feature = "hazmat")))]
pub mod reference;
#[cfg(not(feature = "hazmat"))]
#[allow(dead_code)]
mod reference;
mod soft64;
#[cfg(target_arch = "x86_64")]
pub(crate) mod vpclmul;

use std::fmt;
use std::sync::OnceLock;

use zeroize::Zeroize;

use crate::Error;
use crate::rung::rungs;

/// The key and block length in bytes.
pub const BLOCK_LEN: usize = 16;

/// How many powers of `H` a key holds.
pub(crate) const POWERS: usize = 16;

rungs! {
    primitive = "ghash";
    /// The rungs of GHASH and POLYVAL, slowest first.
    pub enum Rung {
        /// SP 800-38D Algorithm 1 and RFC 8452 §3 bit by bit: branches on
        /// the bits of the key and the message, so not constant-time.
        Reference = "reference", needs "nothing", if |_f| true, arch = any,
            constant_time = false;
        /// Integer multiplications with holes, one block at a time.
        Soft64 = "soft64", needs "nothing", if |_f| true, arch = any;
        /// PCLMULQDQ, one reduction per 8 blocks.
        Pclmul = "pclmul", needs "PCLMULQDQ and SSSE3", if |f| f.pclmulqdq && f.ssse3,
            arch = "x86_64";
        /// VPCLMULQDQ on ymm, 8 blocks in four registers per reduction.
        Vpclmul = "vpclmul", needs "AVX2, VPCLMULQDQ and PCLMULQDQ",
            if |f| f.avx2 && f.vpclmulqdq && f.pclmulqdq && f.ssse3, arch = "x86_64";
        /// NEON's 8×8-bit carry-less products, 64×64 from eight, one
        /// reduction per 8 blocks.
        Neon = "neon", needs "NEON", if |f| f.neon, arch = "aarch64";
        /// PMULL, one reduction per 8 blocks.
        Pmull = "pmull", needs "NEON and PMULL", if |f| f.neon && f.pmull, arch = "aarch64";
    }
}

impl Rung {
    /// The fastest rung this CPU runs: on x86-64 `vpclmul`, else
    /// `pclmul`; on aarch64 `pmull`, else `neon`; else `soft64`. Chosen
    /// once and cached.
    pub fn best() -> Rung {
        static BEST: OnceLock<Rung> = OnceLock::new();
        *BEST.get_or_init(|| {
            [Rung::Vpclmul, Rung::Pclmul, Rung::Pmull, Rung::Neon]
                .into_iter()
                .find(|i| i.is_available())
                .unwrap_or(Rung::Soft64)
        })
    }

    /// How many blocks the rung absorbs per reduction.
    pub fn par_blocks(self) -> usize {
        match self {
            Rung::Reference | Rung::Soft64 => 1,
            Rung::Pclmul | Rung::Vpclmul | Rung::Neon | Rung::Pmull => 8,
        }
    }
}

/// Which of the two hashes a key computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Variant {
    /// SP 800-38D §6.4: blocks big-endian, `x^0` the leftmost bit.
    Ghash,
    /// RFC 8452 §3: blocks little-endian.
    Polyval,
}

/// A hash key on one rung: `H` as given (for the reference) and, in
/// POLYVAL's field, the powers the multi-block rungs and GCM's kernels
/// multiply by. Zeroized on drop.
#[derive(Clone)]
pub(crate) struct Key {
    imp: Rung,
    variant: Variant,
    /// `H` as the caller gave it.
    h: [u8; 16],
    /// In POLYVAL's field, `H^16` first and `H^1` last: `powers[i]` is
    /// `H^(16−i)` as `dot` multiplies (each carries the factor `x^128`
    /// that `dot` divides out, `H_k = dot(H_{k−1}, H_1)`). The rungs use
    /// the last 8, GCM's stitched kernel all 16.
    pub(crate) powers: [u128; POWERS],
}

/// Multiplication by `x` in POLYVAL's field (`mulX_POLYVAL`, RFC 8452
/// Appendix A), without a branch.
fn mulx_polyval(v: u128) -> u128 {
    const P_LOW: u128 = (1 << 127) | (1 << 126) | (1 << 121) | 1;
    (v << 1) ^ ((v >> 127).wrapping_neg() & P_LOW)
}

impl Key {
    /// The key `h` of `variant` on the fastest rung.
    pub(crate) fn new(variant: Variant, h: &[u8; 16]) -> Key {
        let h1 = match variant {
            // ByteReverse(H) as a little-endian integer is H big-endian.
            Variant::Ghash => mulx_polyval(u128::from_be_bytes(*h)),
            Variant::Polyval => u128::from_le_bytes(*h),
        };
        let imp = Rung::best();
        // `h_to[k]` = H^k (in the field's representation, where `dot`
        // multiplies), made in doublings — H^2, then H^3 and H^4 from H^2,
        // then H^5 … H^8 from H^4, then H^9 … H^16 from H^8 — so that each
        // level's products are independent: four multiplications' latency
        // rather than a chain of fifteen, a short message's key set-up.
        let mut h_to = [0u128; POWERS + 1];
        h_to[1] = h1;
        let mut have = 1;
        while have < POWERS {
            for k in 1..=have.min(POWERS - have) {
                h_to[have + k] = dot(imp, h_to[have], h_to[k]);
            }
            have *= 2;
        }
        let powers: [u128; POWERS] = core::array::from_fn(|i| h_to[POWERS - i]);
        h_to.zeroize();
        Key {
            imp,
            variant,
            h: *h,
            powers,
        }
    }

    /// The same key on `imp`.
    pub(crate) fn with_rung(mut self, imp: Rung) -> Result<Key, Error> {
        self.imp = imp.require()?;
        Ok(self)
    }

    /// The rung in use.
    pub(crate) fn rung(&self) -> Rung {
        self.imp
    }

    /// Absorbs whole `blocks` into the accumulator `acc` (in POLYVAL's
    /// field, as [`Key::output`] reads it).
    pub(crate) fn update(&self, acc: &mut u128, blocks: &[u8]) {
        debug_assert!(blocks.len().is_multiple_of(BLOCK_LEN));
        let reversed = self.variant == Variant::Ghash;
        match self.imp {
            Rung::Reference => self.reference_update(acc, blocks),
            Rung::Soft64 => soft64::update(self.powers[POWERS - 1], acc, blocks, reversed),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the rung was checked available (`require` or `best`).
            Rung::Pclmul => unsafe { pclmul::update(self.last8(), acc, blocks, reversed) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as above.
            Rung::Vpclmul => unsafe { vpclmul::update(self.last8(), acc, blocks, reversed) },
            #[cfg(target_arch = "aarch64")]
            // SAFETY: as above.
            Rung::Neon => unsafe { neon::update(self.last8(), acc, blocks, reversed) },
            #[cfg(target_arch = "aarch64")]
            // SAFETY: as above.
            Rung::Pmull => unsafe { pmull::update(self.last8(), acc, blocks, reversed) },
            #[cfg(not(target_arch = "x86_64"))]
            Rung::Pclmul | Rung::Vpclmul => unreachable!("no x86-64 rung off x86-64"),
            #[cfg(not(target_arch = "aarch64"))]
            Rung::Neon | Rung::Pmull => unreachable!("no aarch64 rung off aarch64"),
        }
    }

    /// `H^64 … H^1`: the 48 powers above those kept, then those (each
    /// `H^(k+16) = dot(H^k, H^16)`), for a kernel that multiplies 64
    /// blocks per reduction (GCM's zmm kernel).
    pub(crate) fn powers64(&self) -> [u128; 4 * POWERS] {
        let mut p = [0u128; 4 * POWERS];
        p[3 * POWERS..].copy_from_slice(&self.powers);
        for i in (0..3 * POWERS).rev() {
            p[i] = dot(self.imp, p[i + POWERS], self.powers[0]);
        }
        p
    }

    /// `H^8 … H^1`, what the rungs multiply 8 blocks by.
    pub(crate) fn last8(&self) -> &[u128; 8] {
        self.powers[POWERS - 8..].try_into().expect("8 powers")
    }

    /// Absorbs `data`, then zeros up to the next block boundary: GCM's and
    /// GCM-SIV's padding of the associated data and the text.
    pub(crate) fn update_padded(&self, acc: &mut u128, data: &[u8]) {
        let whole = data.len() / BLOCK_LEN * BLOCK_LEN;
        self.update(acc, &data[..whole]);
        let rest = &data[whole..];
        if !rest.is_empty() {
            let mut last = [0u8; BLOCK_LEN];
            last[..rest.len()].copy_from_slice(rest);
            self.update(acc, &last);
            last.zeroize();
        }
    }

    /// The reference rung: each document's own algorithm, the accumulator
    /// converted to its byte string and back.
    fn reference_update(&self, acc: &mut u128, blocks: &[u8]) {
        match self.variant {
            Variant::Ghash => {
                let mut y = acc.to_be_bytes();
                for block in blocks.chunks_exact(BLOCK_LEN) {
                    xor_into(&mut y, block);
                    y = reference::mul(&y, &self.h);
                }
                *acc = u128::from_be_bytes(y);
            }
            Variant::Polyval => {
                let mut s = acc.to_le_bytes();
                for block in blocks.chunks_exact(BLOCK_LEN) {
                    xor_into(&mut s, block);
                    s = reference::dot(&s, &self.h);
                }
                *acc = u128::from_le_bytes(s);
            }
        }
    }

    /// The hash's output for the accumulator `acc`.
    pub(crate) fn output(&self, acc: u128) -> [u8; 16] {
        match self.variant {
            Variant::Ghash => acc.to_be_bytes(),
            Variant::Polyval => acc.to_le_bytes(),
        }
    }
}

impl Drop for Key {
    fn drop(&mut self) {
        self.h.zeroize();
        self.powers.zeroize();
    }
}

/// `dot(a, b)` (RFC 8452 §3) with the carry-less multiplication of
/// `imp`: PCLMULQDQ, PMULL or NEON's where the rung has it, else the
/// software rung's.
fn dot(imp: Rung, a: u128, b: u128) -> u128 {
    match imp {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the rung, and with it PCLMULQDQ, was checked available.
        Rung::Pclmul | Rung::Vpclmul => unsafe { pclmul::dot(a, b) },
        #[cfg(target_arch = "aarch64")]
        // SAFETY: the rung, and with it PMULL, was checked available.
        Rung::Pmull => unsafe { pmull::dot(a, b) },
        #[cfg(target_arch = "aarch64")]
        // SAFETY: the rung, and with it NEON, was checked available.
        Rung::Neon => unsafe { neon::dot(a, b) },
        _ => soft64::dot(a, b),
    }
}

/// `a ^= b` over 16 bytes.
fn xor_into(a: &mut [u8; 16], b: &[u8]) {
    for (x, y) in a.iter_mut().zip(b) {
        *x ^= y;
    }
}

/// A hash being computed: the key, the accumulator, a partial block.
#[derive(Clone)]
struct State {
    key: Key,
    acc: u128,
    buffer: [u8; BLOCK_LEN],
    buffered: usize,
}

impl State {
    fn new(variant: Variant, h: &[u8; 16]) -> State {
        State {
            key: Key::new(variant, h),
            acc: 0,
            buffer: [0; BLOCK_LEN],
            buffered: 0,
        }
    }

    fn update(&mut self, mut data: &[u8]) {
        if self.buffered > 0 {
            let take = (BLOCK_LEN - self.buffered).min(data.len());
            self.buffer[self.buffered..self.buffered + take].copy_from_slice(&data[..take]);
            self.buffered += take;
            data = &data[take..];
            if self.buffered < BLOCK_LEN {
                return;
            }
            self.key.update(&mut self.acc, &self.buffer);
            self.buffered = 0;
        }
        let whole = data.len() / BLOCK_LEN * BLOCK_LEN;
        self.key.update(&mut self.acc, &data[..whole]);
        let rest = &data[whole..];
        self.buffer[..rest.len()].copy_from_slice(rest);
        self.buffered = rest.len();
    }

    fn pad(&mut self) {
        if self.buffered > 0 {
            self.buffer[self.buffered..].fill(0);
            self.key.update(&mut self.acc, &self.buffer);
            self.buffered = 0;
        }
    }

    fn finalize(mut self) -> [u8; 16] {
        self.pad();
        self.key.output(self.acc)
    }
}

impl Drop for State {
    fn drop(&mut self) {
        self.acc.zeroize();
        self.buffer.zeroize();
    }
}

/// Declares the public type of one of the two hashes.
macro_rules! universal_hash {
    ($(#[$meta:meta])* $t:ident, $variant:expr, $spec:literal) => {
        $(#[$meta])*
        #[derive(Clone)]
        pub struct $t(State);

        impl $t {
            #[doc = concat!("The hash keyed with `h` (", $spec, "), on the fastest rung.")]
            pub fn new(h: &[u8; BLOCK_LEN]) -> Self {
                $t(State::new($variant, h))
            }

            /// The same hash on rung `imp`; what was absorbed carries over.
            ///
            /// # Errors
            ///
            /// [`Error::RungUnavailable`] when the CPU lacks the rung,
            /// [`Error::VariableTimeRung`] for `reference` without the
            /// `hazmat` feature.
            pub fn with_rung(mut self, imp: Rung) -> Result<Self, Error> {
                self.0.key = self.0.key.clone().with_rung(imp)?;
                Ok(self)
            }

            /// Renamed [`with_rung`](Self::with_rung).
            #[deprecated(note = "renamed `with_rung`")]
            pub fn with_impl(self, imp: Rung) -> Result<Self, Error> {
                self.with_rung(imp)
            }

            /// The rung in use.
            pub fn rung(&self) -> Rung {
                self.0.key.rung()
            }

            /// Renamed [`rung`](Self::rung).
            #[deprecated(note = "renamed `rung`")]
            pub fn implementation(&self) -> Rung {
                self.rung()
            }

            /// Absorbs `data`: any split of the calls gives the same hash.
            pub fn update(&mut self, data: &[u8]) {
                self.0.update(data);
            }

            /// Absorbs `data`, then zeros up to the next block boundary
            /// (GCM's and GCM-SIV's padding of each part).
            pub fn update_padded(&mut self, data: &[u8]) {
                self.0.update(data);
                self.0.pad();
            }

            /// [`Self::update`], returning the hash for chaining.
            #[must_use]
            pub fn chain(mut self, data: &[u8]) -> Self {
                self.update(data);
                self
            }

            /// The hash of everything absorbed, a last partial block padded
            /// with zeros.
            pub fn finalize(self) -> [u8; BLOCK_LEN] {
                self.0.finalize()
            }
        }

        impl fmt::Debug for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_struct(stringify!($t))
                    .field("implementation", &self.rung())
                    .finish_non_exhaustive()
            }
        }
    };
}

universal_hash!(
    /// GHASH (NIST SP 800-38D §6.4): `Y_i = (Y_{i−1} ⊕ X_i) • H`, the
    /// universal hash of GCM.
    Ghash,
    Variant::Ghash,
    "SP 800-38D §6.4"
);

universal_hash!(
    /// POLYVAL (RFC 8452 §3): `S_j = dot(S_{j−1} + X_j, H)`, the universal
    /// hash of AES-GCM-SIV.
    Polyval,
    Variant::Polyval,
    "RFC 8452 §3"
);
