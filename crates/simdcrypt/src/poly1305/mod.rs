//! Poly1305 (RFC 8439 section 2.5), as a ladder of implementations.
//!
//! | rung | CPU | technique |
//! |---|---|---|
//! | `reference` | any | §2.5.1 literally, on a bignum of 32-bit limbs |
//! | `scalar64` | any | radix 2^64, `u128` products, one block at a time |
//! | `avx2` | AVX2, BMI2 | radix 2^26, 8 blocks per step as two 4-lane chains in ymm, powers r^1…r^8 |
//! | `avx512ifma` | AVX-512F, IFMA | radix 2^44, 8 blocks per step in zmm with `vpmadd52luq`/`vpmadd52huq` |
//! | `neon` | NEON (aarch64) | radix 2^26, 8 blocks per step in 2 lanes, `umlal`/`umlal2` by element into one sum, one carry a step, powers r^1…r^8 |
//!
//! The vector rungs keep short inputs on the scalar arithmetic (see
//! [`Rung::min_vector_blocks`]); once a long run has moved the accumulator
//! into vector lanes it stays there for every later block, whatever the
//! split of the `update` calls, until [`Poly1305::finalize`] folds the lanes
//! back (multiplying lane `j` of 8 by r^(8−j) and summing).
//!
//! ```
//! use simdcrypt::poly1305::{self, Poly1305};
//!
//! let key = [0x42; 32];
//! let mut mac = Poly1305::new(&key);
//! mac.update(b"a message ");
//! mac.update(b"in two parts");
//! let tag = mac.finalize();
//! assert_eq!(tag, poly1305::mac(&key, b"a message in two parts"));
//! assert!(Poly1305::new(&key).verify(&tag).is_err()); // a different message
//! ```

// The checks of the kit (`simdcrypt::kit`), beside the entry in the table.
#[cfg(feature = "kit")]
pub(crate) mod checks;
#[cfg(feature = "hazmat")]
#[cfg_attr(docsrs, doc(cfg(feature = "hazmat")))]
pub mod reference;
// Without `hazmat` the reference rung runs, and the specification's
// other functions (for the tests and `verify`) are unused.
#[cfg(not(feature = "hazmat"))]
#[allow(dead_code)]
mod reference;

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512ifma;
mod lanes;
#[cfg(target_arch = "aarch64")]
mod neon;
mod scalar64;

use std::fmt;
use std::sync::OnceLock;

use subtle::ConstantTimeEq;
use zeroize::Zeroize;

use lanes::{LANES, Vector};

use crate::Error;
use crate::rung::rungs;

/// Key length in bytes: `r` (16 bytes, clamped) then `s` (16 bytes), §2.5.
pub const KEY_LEN: usize = 32;
/// Tag length in bytes (§2.5).
pub const TAG_LEN: usize = 16;
/// Block length in bytes: the message is read in 16-byte blocks (§2.5.1).
pub const BLOCK_LEN: usize = 16;

rungs! {
    primitive = "poly1305";
    /// The implementations of Poly1305, slowest first.
    pub enum Rung {
        /// RFC 8439 §2.5.1 literally, on a bignum of 32-bit limbs.
        /// Variable-time: the final reduction branches on the accumulator.
        Reference = "reference", needs "nothing", if |_f| true, arch = any,
            constant_time = false;
        /// Radix 2^64 with `u128` products, one block at a time.
        Scalar64 = "scalar64", needs "nothing", if |_f| true, arch = any;
        /// AVX2, radix 2^26, 8 blocks per step.
        Avx2 = "avx2", needs "AVX2 and BMI2", if |f| f.avx2 && f.bmi2, arch = "x86_64";
        /// AVX-512 IFMA, radix 2^44, 8 blocks per step.
        Avx512Ifma = "avx512ifma", needs "AVX-512F and AVX-512 IFMA",
            if |f| f.avx512f && f.avx512ifma, arch = "x86_64";
        /// NEON, radix 2^26, 8 blocks per step as four 2-lane chains.
        Neon = "neon", needs "NEON", if |f| f.neon, arch = "aarch64";
    }
}

impl Rung {
    /// The fastest rung this CPU runs: AVX-512 IFMA, else AVX2 (x86-64),
    /// NEON (aarch64), else [`Rung::Scalar64`].
    ///
    /// Chosen once and cached, as ChaCha20's is: every MAC asks.
    pub fn best() -> Rung {
        static BEST: OnceLock<Rung> = OnceLock::new();
        *BEST.get_or_init(|| {
            [Rung::Avx512Ifma, Rung::Avx2, Rung::Neon]
                .into_iter()
                .find(|i| i.is_available())
                .unwrap_or(Rung::Scalar64)
        })
    }

    /// How many 16-byte blocks the rung processes per step.
    pub fn par_blocks(self) -> usize {
        match self {
            Rung::Avx2 | Rung::Avx512Ifma | Rung::Neon => LANES,
            Rung::Reference | Rung::Scalar64 => 1,
        }
    }

    /// The switch point of a vector rung: a run of fewer full blocks than
    /// this, while the accumulator is still scalar, goes through the scalar
    /// arithmetic; `usize::MAX` for the scalar rungs. Once in the lanes, the
    /// accumulator stays there for every later block.
    ///
    /// AVX2: 40 blocks (640 bytes), measured: below it the key powers, the
    /// fold at the end and a partial last step cost more than the lanes
    /// save (see bench/NOTES.md, section poly1305-switch). AVX-512 IFMA
    /// uses the same figure.
    pub fn min_vector_blocks(self) -> usize {
        match self {
            Rung::Avx2 => AVX2_MIN_BLOCKS,
            Rung::Avx512Ifma => AVX512IFMA_MIN_BLOCKS,
            Rung::Neon => NEON_MIN_BLOCKS,
            Rung::Reference | Rung::Scalar64 => usize::MAX,
        }
    }
}

/// The AVX2 rung's switch point, in blocks (see [`Rung::min_vector_blocks`]).
const AVX2_MIN_BLOCKS: usize = 40;

/// The AVX-512 IFMA rung's switch point, in blocks: not measurable on the
/// development machine (no IFMA); set equal to AVX2's, whose costs it
/// mirrors (three multiplications for the powers, one fold at the end, a
/// whole step for a last partial group).
const AVX512IFMA_MIN_BLOCKS: usize = AVX2_MIN_BLOCKS;

/// The NEON rung's switch point, in blocks: not measured (no aarch64
/// hardware at hand, only an emulator); set equal to AVX2's, whose costs
/// it mirrors (the same three multiplications for the powers, one fold, a
/// whole step for a last partial group).
const NEON_MIN_BLOCKS: usize = AVX2_MIN_BLOCKS;

/// Poly1305 (RFC 8439 §2.5) computed incrementally: [`Poly1305::update`] as
/// often as needed, then [`Poly1305::finalize`] or [`Poly1305::verify`].
///
/// A key must authenticate one message only, so the type is not `Clone`.
/// The key, its powers and the accumulator are zeroized on drop. For a MAC
/// under a long-lived key use [`crate::hmac`]; for encryption with
/// authentication, [`crate::aead`].
///
/// ```
/// use simdcrypt::chacha20::ChaCha20;
/// use simdcrypt::poly1305::{self, Rung, Poly1305};
///
/// // A one-time key per message, as RFC 8439 §2.6 makes it: the first 32
/// // bytes of ChaCha20's keystream under the message's own nonce.
/// let mut one_time_key = [0u8; 32];
/// ChaCha20::new(&[0x42; 32], &[7; 12]).apply_keystream(&mut one_time_key)?;
///
/// let mut mac = Poly1305::new(&one_time_key).with_rung(Rung::Scalar64)?;
/// mac.update(b"a message");
/// let tag = mac.finalize();
/// assert_eq!(tag, poly1305::mac(&one_time_key, b"a message"));
///
/// let mut check = Poly1305::new(&one_time_key);
/// check.update(b"a message");
/// check.verify(&tag)?; // in constant time
/// # Ok::<(), simdcrypt::Error>(())
/// ```
pub struct Poly1305 {
    imp: Rung,
    /// The clamped `r` (§2.5).
    r: [u64; 2],
    /// `s`, added at the end.
    s: [u64; 2],
    /// The accumulator `a` of §2.5.1, partially reduced, when not in lanes.
    h: [u64; 3],
    /// The vector rungs' state, once a run has gone vector: on the heap,
    /// so that a MAC that never goes vector (every message under 640
    /// bytes) is a few dozen bytes to build, move and drop rather than
    /// the ~730 of the lanes and powers inline (see [`Poly1305::new`]).
    vector: Option<Box<Vector>>,
    /// A partial block waiting for more data.
    buffer: [u8; BLOCK_LEN],
    buffered: usize,
}

impl Poly1305 {
    /// A MAC keyed with the one-time key `key` (`r ‖ s`), on the fastest
    /// rung.
    ///
    /// The value is small (about a hundred bytes: the vector rungs' lanes
    /// and key powers go on the heap only when a run goes vector), so that
    /// a short one-shot MAC does not pay for moving state it never uses
    /// (see bench/NOTES.md, section poly1305-new).
    pub fn new(key: &[u8; KEY_LEN]) -> Self {
        Poly1305 {
            imp: Rung::best(),
            r: scalar64::clamp(key),
            s: scalar64::s(key),
            h: [0; 3],
            vector: None,
            buffer: [0; BLOCK_LEN],
            buffered: 0,
        }
    }

    /// The same MAC on the rung `imp`; data already absorbed carries over.
    ///
    /// # Errors
    ///
    /// [`Error::RungUnavailable`] when the CPU lacks the rung.
    pub fn with_rung(mut self, imp: Rung) -> Result<Self, Error> {
        let imp = imp.require()?;
        self.leave_lanes();
        // The powers are in the old rung's radix.
        self.vector = None;
        self.imp = imp;
        Ok(self)
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

    /// Absorbs `data`, resuming where the last call stopped: calls of 5 and
    /// 70 bytes equal one of 75. Full blocks are read straight from `data`;
    /// a partial block at the end waits in a buffer.
    pub fn update(&mut self, data: &[u8]) {
        let mut data = data;
        if self.buffered > 0 {
            let take = (BLOCK_LEN - self.buffered).min(data.len());
            self.buffer[self.buffered..self.buffered + take].copy_from_slice(&data[..take]);
            self.buffered += take;
            data = &data[take..];
            if self.buffered < BLOCK_LEN {
                return;
            }
            let block = self.buffer;
            self.process(&[block]);
            self.buffered = 0;
        }
        let (blocks, rest) = data.as_chunks::<BLOCK_LEN>();
        self.process(blocks);
        self.buffer[..rest.len()].copy_from_slice(rest);
        self.buffered = rest.len();
    }

    /// Absorbs `data`, then, if the data absorbed so far ends inside a
    /// block, zeros up to the next 16-byte boundary: `pad16` of RFC 8439
    /// §2.8, as the AEAD construction needs it.
    pub fn update_padded(&mut self, data: &[u8]) {
        self.update(data);
        if self.buffered > 0 {
            self.buffer[self.buffered..].fill(0);
            let block = self.buffer;
            self.process(&[block]);
            self.buffered = 0;
        }
    }

    /// The tag of everything absorbed (§2.5.1): the last partial block with
    /// its 0x01 byte, the accumulator reduced mod p, plus `s`.
    #[inline]
    pub fn finalize(mut self) -> [u8; TAG_LEN] {
        self.finish()
    }

    /// [`Poly1305::finalize`] in place (which saves moving the state).
    fn finish(&mut self) -> [u8; TAG_LEN] {
        self.leave_lanes();
        if self.imp == Rung::Reference {
            let mut a = to_bytes(self.h);
            if self.buffered > 0 {
                a = reference::accumulate(&a, &self.r_bytes(), &self.buffer[..self.buffered]);
            }
            let mut s = [0u8; 16];
            s[..8].copy_from_slice(&self.s[0].to_le_bytes());
            s[8..].copy_from_slice(&self.s[1].to_le_bytes());
            let tag = reference::finish(&a, &s);
            a.zeroize();
            s.zeroize();
            return tag;
        }
        if self.buffered > 0 {
            let mut block = [0u8; BLOCK_LEN];
            block[..self.buffered].copy_from_slice(&self.buffer[..self.buffered]);
            block[self.buffered] = 0x01;
            scalar64::blocks(&mut self.h, &self.r, &[block], 0);
        }
        scalar64::tag(self.h, &self.s)
    }

    /// Compares the tag of everything absorbed with `tag`, in constant time.
    ///
    /// # Errors
    ///
    /// [`Error::AuthenticationFailed`] when they differ.
    #[inline]
    pub fn verify(mut self, tag: &[u8; TAG_LEN]) -> Result<(), Error> {
        let mut computed = self.finish();
        // Declassified (docs/constant-time.md): whether the tag matched is
        // the answer the caller is given.
        let equal = crate::ct::declassify(bool::from(computed.ct_eq(tag)));
        computed.zeroize();
        if equal {
            Ok(())
        } else {
            Err(Error::AuthenticationFailed)
        }
    }

    /// The clamped `r` as the 16 bytes the reference reads.
    fn r_bytes(&self) -> [u8; 16] {
        let mut r = [0u8; 16];
        r[..8].copy_from_slice(&self.r[0].to_le_bytes());
        r[8..].copy_from_slice(&self.r[1].to_le_bytes());
        r
    }

    /// Full blocks, each with the 2^128 bit, on the rung in use. Only
    /// called with a rung that passed [`Rung::require`].
    fn process(&mut self, blocks: &[[u8; BLOCK_LEN]]) {
        if blocks.is_empty() {
            return;
        }
        let goes_vector = self.vector.as_ref().is_some_and(|v| v.active)
            || blocks.len() >= self.imp.min_vector_blocks();
        match self.imp {
            Rung::Reference => {
                let r = self.r_bytes();
                for block in blocks {
                    self.h = from_bytes(&reference::accumulate(&to_bytes(self.h), &r, block));
                }
            }
            Rung::Scalar64 => scalar64::blocks(&mut self.h, &self.r, blocks, scalar64::HIBIT),
            #[cfg(target_arch = "x86_64")]
            Rung::Avx2 if goes_vector => {
                // SAFETY: the rung passed `require()`, so the CPU has AVX2.
                let (v, entering) = self.enter_lanes(|r| unsafe { avx2::powers(r) });
                // SAFETY: the rung passed `require()`, so the CPU has AVX2.
                unsafe { avx2::blocks(&mut v.lanes, &v.powers, entering, blocks) }
            }
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the rung passed `require()`, so the CPU has BMI2.
            Rung::Avx2 => unsafe { avx2::scalar_blocks(&mut self.h, &self.r, blocks) },
            #[cfg(target_arch = "x86_64")]
            Rung::Avx512Ifma if goes_vector => {
                // SAFETY: the rung passed `require()`, so the CPU has
                // AVX-512F and AVX-512 IFMA.
                let (v, entering) = self.enter_lanes(|r| unsafe { avx512ifma::powers(r) });
                // SAFETY: the rung passed `require()`, so the CPU has
                // AVX-512F and AVX-512 IFMA.
                unsafe { avx512ifma::blocks(&mut v.lanes, &v.powers, entering, blocks) }
            }
            #[cfg(target_arch = "aarch64")]
            Rung::Neon if goes_vector => {
                // SAFETY: the rung passed `require()`, so the CPU has NEON.
                let (v, entering) = self.enter_lanes(|r| unsafe { neon::powers(r) });
                // SAFETY: the rung passed `require()`, so the CPU has NEON.
                unsafe { neon::blocks(&mut v.lanes, &v.powers, entering, blocks) }
            }
            // Short runs of the vector rungs without a scalar form of their
            // own, and the other architecture's rungs (never available).
            _ => scalar64::blocks(&mut self.h, &self.r, blocks, scalar64::HIBIT),
        }
    }

    /// Folds the lanes back into the scalar accumulator, if they hold it:
    /// the dispatch to the vector rungs' `fold`.
    fn leave_lanes(&mut self) {
        let (imp, h) = (self.imp, self.h);
        self.leave_lanes_with(|lanes, powers| match imp {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the lanes are only used by a rung that passed
            // `require()`, so the CPU has AVX2.
            Rung::Avx2 => unsafe { avx2::fold(lanes, powers) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as above, the CPU has AVX-512F and AVX-512 IFMA.
            Rung::Avx512Ifma => unsafe { avx512ifma::fold(lanes, powers) },
            #[cfg(target_arch = "aarch64")]
            // SAFETY: as above, the CPU has NEON.
            Rung::Neon => unsafe { neon::fold(lanes, powers) },
            // Only the vector rungs use the lanes.
            _ => h,
        });
    }
}

/// The scalar accumulator and the clamped `r` of a MAC, taken out of a
/// [`Poly1305`] by [`Poly1305::take_scalar`] for a caller that runs the
/// block loop itself (the stitched AEAD kernels, whose Poly1305 runs on the
/// integer units beside a vector stream cipher), and handed back with
/// [`Poly1305::resume`]. Zeroized on drop.
#[cfg(target_arch = "x86_64")]
pub(crate) struct Scalar {
    h: [u64; 3],
    r: [u64; 2],
}

#[cfg(target_arch = "x86_64")]
impl Scalar {
    /// Absorbs full blocks, each with the 2^128 bit: the `scalar64`
    /// arithmetic, inlined into the caller (with `mulx` where the caller
    /// enables BMI2).
    #[inline(always)]
    pub(crate) fn blocks(&mut self, blocks: &[[u8; BLOCK_LEN]]) {
        scalar64::blocks_inline(&mut self.h, &self.r, blocks, scalar64::HIBIT);
    }
}

#[cfg(target_arch = "x86_64")]
impl Drop for Scalar {
    fn drop(&mut self) {
        self.h.zeroize();
        self.r.zeroize();
    }
}

#[cfg(target_arch = "x86_64")]
impl Poly1305 {
    /// The accumulator (folded back from the lanes if it was there) and
    /// `r`, for [`Scalar::blocks`]; `None` when a partial block is waiting
    /// or the rung is the reference, which keeps its own arithmetic.
    pub(crate) fn take_scalar(&mut self) -> Option<Scalar> {
        if self.buffered != 0 || self.imp == Rung::Reference {
            return None;
        }
        self.leave_lanes();
        let h = core::mem::take(&mut self.h);
        Some(Scalar { h, r: self.r })
    }

    /// Takes back the accumulator of [`Poly1305::take_scalar`].
    pub(crate) fn resume(&mut self, scalar: Scalar) {
        self.h = scalar.h;
    }
}

/// The accumulator as the 17 little-endian bytes the reference reads.
fn to_bytes(h: [u64; 3]) -> [u8; 17] {
    let h = scalar64::reduce(h);
    let mut a = [0u8; 17];
    a[..8].copy_from_slice(&h[0].to_le_bytes());
    a[8..16].copy_from_slice(&h[1].to_le_bytes());
    a[16] = h[2] as u8;
    a
}

/// 17 little-endian bytes (a number below 2^130) as an accumulator.
fn from_bytes(a: &[u8; 17]) -> [u64; 3] {
    let w = |i: usize| u64::from_le_bytes(std::array::from_fn(|j| a[8 * i + j]));
    [w(0), w(1), u64::from(a[16])]
}

impl Drop for Poly1305 {
    fn drop(&mut self) {
        self.r.zeroize();
        self.s.zeroize();
        self.h.zeroize();
        self.buffer.zeroize();
        // `vector` zeroizes itself.
    }
}

impl fmt::Debug for Poly1305 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Poly1305")
            .field("impl", &self.imp)
            .field(
                "vector_lanes_in_use",
                &self.vector.as_ref().is_some_and(|v| v.active),
            )
            .field("buffered", &self.buffered)
            .finish_non_exhaustive()
    }
}

/// The Poly1305 tag of `msg` under the one-time key `key` (RFC 8439
/// §2.5.1), on the fastest rung.
///
/// ```
/// use simdcrypt::poly1305;
///
/// // RFC 8439 §2.5.2.
/// let key = [
///     0x85, 0xd6, 0xbe, 0x78, 0x57, 0x55, 0x6d, 0x33, 0x7f, 0x44, 0x52, 0xfe, 0x42, 0xd5, 0x06, 0xa8,
///     0x01, 0x03, 0x80, 0x8a, 0xfb, 0x0d, 0xb2, 0xfd, 0x4a, 0xbf, 0xf6, 0xaf, 0x41, 0x49, 0xf5, 0x1b,
/// ];
/// let tag = poly1305::mac(&key, b"Cryptographic Forum Research Group");
/// let hex: String = tag.iter().map(|b| format!("{b:02x}")).collect();
/// assert_eq!(hex, "a8061dc1305136c6c22b8baf0c0127a9");
/// ```
pub fn mac(key: &[u8; KEY_LEN], msg: &[u8]) -> [u8; TAG_LEN] {
    let mut p = Poly1305::new(key);
    p.update(msg);
    p.finish()
}

/// Poly1305's entry in the table of ladders.
pub(crate) const LADDER: crate::table::Ladder = crate::table::Ladder {
    name: Rung::PRIMITIVE,
    primitives: &[crate::table::Primitive {
        name: "poly1305",
        display: "Poly1305",
        kind: crate::table::Kind::Mac,
        summary: "Poly1305 (RFC 8439 §2.5): a one-time authenticator",
        key_lens: &[KEY_LEN],
        nonce_len: None,
        iv_register: false,
        block_len: BLOCK_LEN,
        output_len: Some(TAG_LEN),
        params: &[],
        construct: crate::table::Construct::mac(dyn_poly1305),
    }],
    rungs: crate::table::Rungs::Own(|| crate::table::rung_infos(Rung::best(), Rung::par_blocks)),
    #[cfg(feature = "kit")]
    checks: crate::poly1305::checks::run,
    #[cfg(feature = "kit")]
    fuzz: crate::poly1305::checks::fuzz,
};

impl crate::dynamic::DynDigest for Poly1305 {
    fn update(&mut self, data: &[u8]) {
        Poly1305::update(self, data);
    }
    fn finalize_into(self: Box<Self>, out: &mut [u8]) {
        out.copy_from_slice(&Poly1305::finalize(*self));
    }
    fn rung(&self) -> &'static str {
        Poly1305::rung(self).name()
    }
}

/// Poly1305 keyed with a 32-byte one-time key, on the rung named `imp`:
/// the table's constructor.
fn dyn_poly1305(
    key: &[u8],
    options: &crate::dynamic::MacOptions<'_>,
) -> Result<Box<dyn crate::dynamic::DynDigest>, Error> {
    let imp = options.rung;
    let mut mac = Poly1305::new(crate::dynamic::exact("poly1305", "key", key)?);
    if let Some(name) = imp {
        mac = mac.with_rung(name.parse()?)?;
    }
    Ok(Box::new(mac))
}

#[cfg(test)]
mod tests {
    use super::lanes::{Powers, from_radix};
    use super::*;

    /// Each vector rung's power table holds r^1 … r^8 (mod p), in limbs
    /// small enough for its multiplier.
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    #[test]
    fn power_tables_are_the_powers_in_radix() {
        type PowersFn = fn(&[u64; 2]) -> Powers;
        #[cfg(target_arch = "x86_64")]
        let rungs: [(Rung, u32, PowersFn); 2] = [
            // SAFETY: called only when `is_available()` says the CPU has AVX2.
            (Rung::Avx2, 26, |r| unsafe { avx2::powers(r) }),
            // SAFETY: called only when `is_available()` says the CPU has
            // AVX-512F and IFMA.
            (Rung::Avx512Ifma, 44, |r| unsafe { avx512ifma::powers(r) }),
        ];
        #[cfg(target_arch = "aarch64")]
        let rungs: [(Rung, u32, PowersFn); 1] = [
            // SAFETY: called only when `is_available()` says the CPU has NEON.
            (Rung::Neon, 26, |r| unsafe { neon::powers(r) }),
        ];
        for key in [[0xa5; 32], [0xff; 32], [0x01; 32]] {
            let r = scalar64::clamp(&key);
            let want = scalar64::powers::<LANES>(&r);
            for (imp, bits, powers) in rungs.iter().filter(|(i, ..)| i.is_available()) {
                let table = powers(&r);
                for (k, want) in want.iter().enumerate() {
                    let limbs: [u64; 5] = std::array::from_fn(|i| table[i][k]);
                    assert!(
                        limbs.iter().all(|&l| l < (1 << bits) + 64),
                        "{imp} r^{}",
                        k + 1
                    );
                    let back = match bits {
                        26 => from_radix(&limbs, 26),
                        _ => from_radix(&[limbs[0], limbs[1], limbs[2]], 44),
                    };
                    assert_eq!(scalar64::reduce(back), *want, "{imp} r^{}", k + 1);
                }
            }
        }
    }

    #[test]
    fn debug_shows_no_secrets() {
        let mut p = Poly1305::new(&[0x5a; 32]);
        p.update(&[0x33; 20]);
        let text = format!("{p:?}");
        assert!(!text.contains("90") && !text.contains("5a") && !text.contains("r:"));
    }
}
