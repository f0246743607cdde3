//! scrypt (RFC 7914): PBKDF2-HMAC-SHA-256 around `p` memory-hard ROMix
//! lanes, whose BlockMix runs on the Salsa20/8 core of [`crate::salsa20`],
//! as a ladder of implementations.
//!
//! | rung | CPU | technique |
//! | --- | --- | --- |
//! | `scalar` | any | RFC 7914 §4–§5 literally, on the double-rounds of Salsa20's `no-transpose` rung |
//! | `sse2` | SSE2 | one lane, each 64-byte sub-block kept in the `sse2-shuffle` diagonal layout for the whole ROMix; BlockMix writes straight into V, `V_j` prefetched |
//! | `scalar-fused` | any | one lane, `X` in sixteen general-purpose registers around a fully unrolled `no-transpose` core, BlockMix's XORs and feedforward fused into it; BlockMix writes straight into V, `V_j` prefetched |
//! | `avx2` | AVX2 | four lanes of `p` at once (two ymm chains interleaved), then two (one block of each lane in the halves of every ymm register); a single or odd last lane on `scalar-fused` |
//! | `avx512` | AVX-512F, VL | `sse2`'s one lane and `avx2`'s two and four, each rotation one `vprold`: a quarter-round step of 3 cycles' latency instead of 4, so one lane runs faster than `scalar-fused` |
//! | `neon` | NEON (aarch64) | `sse2`'s one lane in four `uint32x4_t` registers, rows rotated by `ext`, each rotation `shl` and `sri`; BlockMix writes straight into V, `V_j` prefetched |
//!
//! One lane's ROMix is a single chain of 2·N·2r dependent Salsa20/8 cores
//! (each BlockMix sub-block feeds the next, each BlockMix the next), so
//! nothing interleaves within a lane: the per-lane speed is the latency of
//! one Salsa20/8 core, and wide registers only help with two or more lanes
//! (`p > 1`), at the price of a V array per lane computed at once (kept
//! within 1 GiB together).

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;
#[cfg(feature = "hazmat")]
mod hazmat;
mod memory;
#[cfg(target_arch = "aarch64")]
mod neon;
mod scalar;
mod scalar_fused;
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
mod simd;
#[cfg(target_arch = "x86_64")]
mod sse2;

#[cfg(target_arch = "aarch64")]
use neon::prefetch;
#[cfg(target_arch = "x86_64")]
use sse2::prefetch;

use bytemuck::{Pod, Zeroable};
use zeroize::Zeroize;

use memory::{Scratch, try_blocks, wipe};

use super::pbkdf2_hmac_sha256;
use crate::Error;
use crate::rung::rungs;
#[cfg(feature = "hazmat")]
pub use hazmat::{block_mix, ro_mix_lanes};

rungs! {
    primitive = "scrypt";
    /// The implementations of scrypt's ROMix, slowest first.
    pub enum Rung {
        /// RFC 7914 literally, on the scalar Salsa20 core.
        Scalar = "scalar", needs "nothing", if |_f| true, arch = any;
        /// One lane, blocks kept in the SSE2 diagonal layout.
        Sse2 = "sse2", needs "SSE2", if |f| f.sse2, arch = "x86_64";
        /// One lane, in general-purpose registers, tuned for the latency of the core.
        ScalarFused = "scalar-fused", needs "nothing", if |_f| true, arch = any;
        /// Two lanes at once in ymm registers.
        Avx2 = "avx2", needs "AVX2", if |f| f.avx2, arch = "x86_64";
        /// One, two or four lanes at once, each rotation one `vprold`.
        Avx512 = "avx512", needs "AVX-512F and AVX-512VL", if |f| f.avx512f && f.avx512vl, arch = "x86_64";
        /// One lane, blocks kept in the diagonal layout in NEON registers.
        Neon = "neon", needs "NEON", if |f| f.neon, arch = "aarch64";
    }
}

impl Rung {
    /// The fastest rung this CPU runs: `avx512`, else `avx2` (which hands
    /// a single or odd last lane down to `scalar-fused`, the fastest
    /// one-lane rung without `vprold`), else on aarch64 `neon`, else
    /// `scalar-fused`.
    pub fn best() -> Rung {
        [Rung::Avx512, Rung::Avx2, Rung::Neon]
            .into_iter()
            .find(|i| i.is_available())
            .unwrap_or(SINGLE_LANE)
    }

    /// How many lanes of `p` the rung runs at once, widest first: `avx2`
    /// takes four lanes while at least four are left, then two; a single
    /// or odd last lane goes to the fastest one-lane rung (`scalar-fused`).
    pub fn lane_widths(self) -> &'static [usize] {
        match self {
            Rung::Avx2 => &[4, 2],
            Rung::Avx512 => &[4, 2, 1],
            Rung::Scalar | Rung::Sse2 | Rung::ScalarFused | Rung::Neon => &[1],
        }
    }
}

/// The fastest rung for one lane, by measurement: `scalar-fused`, by a
/// few per cent over `sse2` (a lane is one chain of dependent Salsa20/8
/// cores, and the scalar core's shorter quarter-round step outweighs its
/// spills; see bench/NOTES.md, section scrypt-single-lane).
const SINGLE_LANE: Rung = Rung::ScalarFused;

/// One 64-byte sub-block of BlockMix (RFC 7914 §4: `B_i`) as sixteen
/// little-endian words, in the layout its rung computes in; aligned to a
/// cache line, so that each sub-block of V is exactly one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Pod, Zeroable)]
#[repr(C, align(64))]
pub(crate) struct Block(pub(crate) [u32; 16]);

impl Zeroize for Block {
    fn zeroize(&mut self) {
        self.0.zeroize();
    }
}

/// Where a rung keeps word `i` of a sub-block: position `k` of a [`Block`]
/// holds word `ORDER[k]`.
#[derive(Clone, Copy)]
pub(crate) struct Layout {
    order: [usize; 16],
}

impl Layout {
    /// Words in order 0..16 (the scalar rung).
    const NATURAL: Layout = Layout {
        order: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
    };

    /// The `sse2-shuffle` diagonal layout: rows `(x0, x5, x10, x15)`,
    /// `(x4, x9, x14, x3)`, `(x8, x13, x2, x7)`, `(x12, x1, x6, x11)`.
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    const DIAGONAL: Layout = Layout {
        order: [0, 5, 10, 15, 4, 9, 14, 3, 8, 13, 2, 7, 12, 1, 6, 11],
    };

    /// The position of word `i`.
    const fn position(self, word: usize) -> usize {
        let mut k = 0;
        while self.order[k] != word {
            k += 1;
        }
        k
    }

    /// The 64 bytes of a sub-block (RFC 7914's little-endian words) into
    /// this layout.
    fn load(self, bytes: &[u8; 64]) -> Block {
        let (words, _) = bytes.as_chunks::<4>();
        Block(std::array::from_fn(|k| {
            u32::from_le_bytes(words[self.order[k]])
        }))
    }

    /// A sub-block in this layout back to its 64 bytes.
    fn store(self, block: &Block, bytes: &mut [u8; 64]) {
        let (words, _) = bytes.as_chunks_mut::<4>();
        for (k, &w) in block.0.iter().enumerate() {
            words[self.order[k]] = w.to_le_bytes();
        }
    }

    /// Integerify (RFC 7914 §5): the last sub-block's first 64 bits, read
    /// little-endian, modulo `n` (a power of two).
    #[inline(always)]
    fn integerify(self, blocks: &[Block], n: usize) -> usize {
        let last = &blocks[blocks.len() - 1].0;
        let low = u64::from(last[0]) | u64::from(last[self.position(1)]) << 32;
        // `n` fits a usize, so the bits kept do.
        let j = (low & (n as u64 - 1)) as usize;
        // Declassified (docs/constant-time.md): scrypt reads V at this
        // index by design (RFC 7914 §5, ROMix step 3); memory-hardness is
        // those reads, and the check exempts them, and only them.
        crate::ct::declassify(j)
    }
}

/// Checks scrypt's parameters against RFC 7914 §2 and §6 and returns `N`.
fn check(log_n: u8, r: u32, p: u32, out_len: usize) -> Result<usize, Error> {
    let bad = |parameter, value: u64, expected: String| Error::KdfParameter {
        kdf: "scrypt",
        parameter,
        value,
        expected,
    };
    if r == 0 {
        return Err(bad("r", 0, "a positive integer".to_owned()));
    }
    if p == 0 {
        return Err(bad("p", 0, "a positive integer".to_owned()));
    }
    if log_n == 0 {
        return Err(bad(
            "log_n",
            0,
            "at least 1 (N = 2^log_n must be larger than 1)".to_owned(),
        ));
    }
    if u64::from(log_n) >= 16 * u64::from(r) {
        return Err(bad(
            "log_n",
            u64::from(log_n),
            format!("less than 16·r = {} (N < 2^(128·r/8))", 16 * u64::from(r)),
        ));
    }
    if u64::from(r) * u64::from(p) >= 1 << 30 {
        return Err(bad(
            "p",
            u64::from(p),
            format!(
                "r·p < 2^30, so at most {} with r = {r}",
                ((1u64 << 30) - 1) / u64::from(r)
            ),
        ));
    }
    let max = u64::from(u32::MAX) * 32;
    if out_len as u64 > max {
        return Err(Error::KdfOutputTooLong {
            kdf: "scrypt",
            len: out_len as u64,
            max,
        });
    }
    // 128·r·N bytes of V must be addressable.
    let v_bytes = if log_n < 96 {
        (128 * u128::from(r)) << log_n
    } else {
        u128::MAX
    };
    if v_bytes > isize::MAX as u128 {
        return Err(Error::OutOfMemory {
            what: "scrypt's V array (128·r·N bytes)",
            bytes: v_bytes,
        });
    }
    Ok(1 << log_n)
}

/// scrypt (RFC 7914 §6) of `password` and `salt` with cost `N = 2^log_n`,
/// block size `r` and parallelism `p`, filling `out`, on the fastest rung.
/// Memory: 128·r·N bytes (2^log_n · r · 128: 16 MiB for `log_n` = 14,
/// `r` = 8), twice that when `p > 1` on the `avx2` rung (two lanes at once),
/// allocated fallibly and zeroized after use.
///
/// # Errors
///
/// [`Error::KdfParameter`] for parameters outside RFC 7914 §2 (`log_n` = 0,
/// `log_n ≥ 16·r`, `r` or `p` = 0, `r·p ≥ 2^30`);
/// [`Error::KdfOutputTooLong`] when `out` is longer than (2^32 − 1)·32 bytes;
/// [`Error::OutOfMemory`] when the memory cannot be had. Nothing is written
/// to `out` then.
///
/// ```
/// use simdcrypt::kdf::scrypt;
///
/// // RFC 7914 §12, the second vector: N = 1024, r = 8, p = 16.
/// let mut key = [0u8; 64];
/// scrypt(b"password", b"NaCl", 10, 8, 16, &mut key)?;
/// let hex: String = key.iter().map(|b| format!("{b:02x}")).collect();
/// assert_eq!(hex, concat!(
///     "fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b373162",
///     "2eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640",
/// ));
/// # Ok::<(), simdcrypt::Error>(())
/// ```
///
/// For a password today: a random salt of 16 bytes or more, stored beside
/// the result, and the largest `log_n` your latency allows (age uses 18 for
/// files: 256 MiB with `r` = 8).
///
/// Deriving again and again with the same parameters (a server checking
/// passwords), keep a [`Scrypt`] instead: it keeps its memory between
/// derivations rather than asking the system for it each time.
pub fn scrypt(
    password: &[u8],
    salt: &[u8],
    log_n: u8,
    r: u32,
    p: u32,
    out: &mut [u8],
) -> Result<(), Error> {
    scrypt_with_impl(Rung::best(), password, salt, log_n, r, p, out)
}

/// [`scrypt`] on the rung `imp`.
///
/// # Errors
///
/// As [`scrypt`]; [`Error::RungUnavailable`] when the CPU lacks the rung.
pub fn scrypt_with_impl(
    imp: Rung,
    password: &[u8],
    salt: &[u8],
    log_n: u8,
    r: u32,
    p: u32,
    out: &mut [u8],
) -> Result<(), Error> {
    // The memory goes back to the system on return: a mapped V is unmapped
    // (which is its wipe), the rest wiped as it is freed.
    Scrypt::new(log_n, r, p)?
        .with_rung(imp)?
        .derive_with(password, salt, out, Retain::No)
}

/// scrypt (RFC 7914 §6) with fixed parameters, for deriving again and
/// again (a server checking passwords): its memory (V and the lanes'
/// buffers, 128·r·N bytes per lane run at once) is allocated at the first
/// derivation and kept for the next ones, wiped after each, so a
/// derivation pays neither the system's allocation nor its page faults and
/// zeroing. The memory is released when the `Scrypt` is dropped; between
/// derivations it holds zeros only. [`scrypt()`] is one derivation of a
/// fresh `Scrypt`, its memory released at once.
///
/// What reuse saves, and what the wipe costs, is measured in
/// bench/NOTES.md, section scrypt-reuse.
///
/// ```
/// use simdcrypt::kdf::scrypt::Scrypt;
///
/// // RFC 7914 §12, the second vector: N = 1024, r = 8, p = 16.
/// let mut hasher = Scrypt::new(10, 8, 16)?;
/// for _ in 0..2 {
///     let mut key = [0u8; 64];
///     hasher.derive(b"password", b"NaCl", &mut key)?;
///     assert_eq!(key[..8], [0xfd, 0xba, 0xbe, 0x1c, 0x9d, 0x34, 0x72, 0x00]);
/// }
/// # Ok::<(), simdcrypt::Error>(())
/// ```
pub struct Scrypt {
    imp: Rung,
    log_n: u8,
    r: u32,
    p: u32,
    memory: RoMixMemory,
}

/// Whether a derivation keeps its memory for the next one (wiped) or
/// leaves it to be released.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Retain {
    Yes,
    No,
}

impl Scrypt {
    /// scrypt with cost `N = 2^log_n`, block size `r` and parallelism `p`
    /// on the fastest rung; no memory is allocated until the first
    /// derivation.
    ///
    /// # Errors
    ///
    /// [`Error::KdfParameter`] or [`Error::OutOfMemory`] as [`scrypt()`]
    /// for parameters outside RFC 7914 §2 or beyond the address space.
    pub fn new(log_n: u8, r: u32, p: u32) -> Result<Scrypt, Error> {
        check(log_n, r, p, 0)?;
        Ok(Scrypt {
            imp: Rung::best(),
            log_n,
            r,
            p,
            memory: RoMixMemory::default(),
        })
    }

    /// The same on the rung `imp`.
    ///
    /// # Errors
    ///
    /// [`Error::RungUnavailable`] when the CPU lacks the rung.
    pub fn with_rung(self, imp: Rung) -> Result<Scrypt, Error> {
        Ok(Scrypt {
            imp: imp.require()?,
            memory: RoMixMemory::default(),
            ..self
        })
    }

    /// Renamed [`with_rung`](Self::with_rung).
    #[deprecated(note = "renamed `with_rung`")]
    pub fn with_impl(self, imp: Rung) -> Result<Scrypt, Error> {
        self.with_rung(imp)
    }

    /// The rung the derivations run on.
    pub fn rung(&self) -> Rung {
        self.imp
    }

    /// Renamed [`rung`](Self::rung).
    #[deprecated(note = "renamed `rung`")]
    pub fn implementation(&self) -> Rung {
        self.rung()
    }

    /// scrypt of `password` and `salt`, filling `out`; the memory is kept,
    /// wiped, for the next derivation.
    ///
    /// # Errors
    ///
    /// [`Error::KdfOutputTooLong`] when `out` is longer than (2^32 − 1)·32
    /// bytes; [`Error::OutOfMemory`] when the memory cannot be had. Nothing
    /// is written to `out` then.
    pub fn derive(&mut self, password: &[u8], salt: &[u8], out: &mut [u8]) -> Result<(), Error> {
        self.derive_with(password, salt, out, Retain::Yes)
    }

    /// [`Scrypt::derive`], the memory kept or left to be released.
    fn derive_with(
        &mut self,
        password: &[u8],
        salt: &[u8],
        out: &mut [u8],
        retain: Retain,
    ) -> Result<(), Error> {
        let n = check(self.log_n, self.r, self.p, out.len())?;
        // r·p < 2^30, so these fit.
        let two_r = 2 * self.r as usize;
        let p = self.p as usize;
        // Step 1: B = PBKDF2-HMAC-SHA256(P, S, 1, p·128·r).
        let mut b = try_bytes(p * 64 * two_r)?;
        pbkdf2_hmac_sha256(password, salt, 1, &mut b)?;
        // Step 2: B_i = scryptROMix(r, B_i, N), every lane.
        let mixed = ro_mix(self.imp, two_r, n, &mut b, &mut self.memory);
        if retain == Retain::Yes {
            self.memory.wipe();
        }
        // Step 3: DK = PBKDF2-HMAC-SHA256(P, B, 1, dkLen).
        let result = mixed.and_then(|()| pbkdf2_hmac_sha256(password, &b, 1, out));
        b.zeroize();
        result
    }
}

impl core::fmt::Debug for Scrypt {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Scrypt")
            .field("implementation", &self.imp)
            .field("log_n", &self.log_n)
            .field("r", &self.r)
            .field("p", &self.p)
            .finish_non_exhaustive()
    }
}

/// A zeroed byte vector of `len`, allocated fallibly.
fn try_bytes(len: usize) -> Result<Vec<u8>, Error> {
    let mut v = Vec::new();
    v.try_reserve_exact(len).map_err(|_| Error::OutOfMemory {
        what: "scrypt's B (128·r·p bytes)",
        bytes: len as u128,
    })?;
    v.resize(len, 0);
    Ok(v)
}

/// The most memory the lanes run at once may take together for their V
/// arrays: wider groups of lanes are used only within it (and when the
/// allocator gives it), so that `p > 1` never asks for more than one lane's
/// V beyond 1 GiB.
const MAX_PARALLEL_V_BYTES: u128 = 1 << 30;

/// A ROMix of a group of lanes on one rung, over sub-blocks in its layout.
type RoMixFn = fn(&mut [Block], &mut Scratch, usize);

/// ROMix's memory, allocated as the lanes first need it: the lanes being
/// mixed (in the rung's layout) and a [`Scratch`] for each width of group
/// run (a width whose scratch could not be had is not asked again: its
/// error is kept).
#[derive(Default)]
struct RoMixMemory {
    blocks: Option<Box<[Block]>>,
    scratches: Scratches,
}

/// The scratch of each width of group run, or the error that allocating
/// it gave.
#[derive(Default)]
struct Scratches(Vec<(usize, Result<Scratch, Error>)>);

impl Scratches {
    /// The scratch of groups of `width` lanes, allocated now if it is the
    /// first time; the error when the system did not give it.
    fn get(&mut self, width: usize, two_r: usize, n: usize) -> Result<&mut Scratch, Error> {
        let at = match self.0.iter().position(|(w, _)| *w == width) {
            Some(at) => at,
            None => {
                self.0.push((width, Scratch::new(width, two_r, n)));
                self.0.len() - 1
            }
        };
        self.0[at].1.as_mut().map_err(|e| e.clone())
    }
}

impl RoMixMemory {
    /// Overwrites all of it with zeros, for the next derivation.
    fn wipe(&mut self) {
        if let Some(blocks) = &mut self.blocks {
            wipe(blocks);
        }
        for scratch in self
            .scratches
            .0
            .iter_mut()
            .filter_map(|(_, s)| s.as_mut().ok())
        {
            scratch.wipe();
        }
    }
}

impl Drop for RoMixMemory {
    fn drop(&mut self) {
        if let Some(blocks) = &mut self.blocks {
            wipe(blocks);
        }
    }
}

/// scryptROMix (RFC 7914 §5) with `N = n` of every lane of `b` (each
/// 64·`two_r` bytes) in place, on the rung `imp` (already known available),
/// in `memory`: lanes in the widest groups the rung has (memory
/// permitting), the rest one by one on a one-lane rung.
fn ro_mix(
    imp: Rung,
    two_r: usize,
    n: usize,
    b: &mut [u8],
    memory: &mut RoMixMemory,
) -> Result<(), Error> {
    let lane_len = 64 * two_r;
    let v_bytes = 64 * two_r as u128 * n as u128;
    let widest = imp.lane_widths()[0];
    let RoMixMemory { blocks, scratches } = memory;
    let blocks = match blocks {
        Some(blocks) => blocks,
        None => blocks.insert(try_blocks(widest * two_r, "scrypt's B (128·r·p bytes)")?),
    };
    let mut done = 0;
    for &width in imp.lane_widths().iter().filter(|&&w| w > 1) {
        let group_len = width * lane_len;
        let groups = (b.len() - done) / group_len;
        if groups == 0 || width as u128 * v_bytes > MAX_PARALLEL_V_BYTES {
            continue;
        }
        // Without room for `width` V arrays, narrower groups take the lanes.
        let Ok(scratch) = scratches.get(width, two_r, n) else {
            continue;
        };
        let (layout, run) = imp.group(width);
        for group in b[done..done + groups * group_len].chunks_exact_mut(group_len) {
            in_layout(layout, group, blocks, |blocks| run(blocks, scratch, n));
        }
        done += groups * group_len;
    }
    if done < b.len() {
        let (layout, run) = imp.one_lane().group(1);
        let scratch = scratches.get(1, two_r, n)?;
        for lane in b[done..].chunks_exact_mut(lane_len) {
            in_layout(layout, lane, blocks, |blocks| run(blocks, scratch, n));
        }
    }
    Ok(())
}

impl Rung {
    /// The rung that runs a single or odd last lane of this one's ROMix:
    /// itself, except `avx512` where a dependent vector step costs twice a
    /// scalar one (Zen 5, [`cpu::slow_vector_chains`]): there its one lane
    /// in xmm (each rotate one `vprold`, a quarter-round step of 3 cycles
    /// on Zen 4) loses to the fastest one-lane rung, 27.7 against 18.4 ms
    /// at N = 2^14 (bench/NOTES.md, `scrypt-zen5`).
    ///
    /// [`cpu::slow_vector_chains`]: crate::cpu::slow_vector_chains
    fn one_lane(self) -> Rung {
        match self {
            Rung::Avx512 if crate::cpu::slow_vector_chains() => SINGLE_LANE,
            rung => rung,
        }
    }

    /// The layout and the ROMix of a group of `width` lanes (one of
    /// [`Rung::lane_widths`], or 1) on this rung, which passed
    /// [`Rung::require`]: the one dispatch to the rungs' code.
    fn group(self, width: usize) -> (Layout, RoMixFn) {
        match (self, width) {
            #[cfg(target_arch = "x86_64")]
            (Rung::Sse2, _) => (Layout::DIAGONAL, |b, s, n| {
                // SAFETY: SSE2 is part of the x86-64 baseline.
                unsafe { sse2::ro_mix(b, s, n) }
            }),
            #[cfg(target_arch = "x86_64")]
            (Rung::Avx2, 4) => (Layout::DIAGONAL, |b, s, n| {
                // SAFETY: this rung passed `require()`, so the CPU has AVX2.
                unsafe { avx2::four::ro_mix(b, s, n) }
            }),
            #[cfg(target_arch = "x86_64")]
            (Rung::Avx2, 2) => (Layout::DIAGONAL, |b, s, n| {
                // SAFETY: this rung passed `require()`, so the CPU has AVX2.
                unsafe { avx2::two::ro_mix(b, s, n) }
            }),
            #[cfg(target_arch = "x86_64")]
            (Rung::Avx512, 4) => (Layout::DIAGONAL, |b, s, n| {
                // SAFETY: this rung passed `require()`, so the CPU has
                // AVX-512F and VL.
                unsafe { avx512::four::ro_mix(b, s, n) }
            }),
            #[cfg(target_arch = "x86_64")]
            (Rung::Avx512, 2) => (Layout::DIAGONAL, |b, s, n| {
                // SAFETY: as above.
                unsafe { avx512::two::ro_mix(b, s, n) }
            }),
            #[cfg(target_arch = "x86_64")]
            (Rung::Avx512, _) => (Layout::DIAGONAL, |b, s, n| {
                // SAFETY: as above.
                unsafe { avx512::one::ro_mix(b, s, n) }
            }),
            #[cfg(target_arch = "aarch64")]
            (Rung::Neon, _) => (Layout::DIAGONAL, |b, s, n| {
                // SAFETY: this rung passed `require()`, so the CPU has NEON.
                unsafe { neon::ro_mix(b, s, n) }
            }),
            (Rung::ScalarFused, _) => (Layout::NATURAL, scalar_fused::ro_mix),
            // A single or odd last lane of `avx2`: on the fastest one-lane rung.
            (Rung::Avx2, _) => SINGLE_LANE.group(1),
            _ => (Layout::NATURAL, scalar::ro_mix),
        }
    }
}

/// Runs `f` on the sub-blocks of `bytes` loaded into the first of `blocks`
/// in `layout`, and stores them back.
fn in_layout(layout: Layout, bytes: &mut [u8], blocks: &mut [Block], f: impl FnOnce(&mut [Block])) {
    let (subs, _) = bytes.as_chunks_mut::<64>();
    let blocks = &mut blocks[..subs.len()];
    for (block, sub) in blocks.iter_mut().zip(subs.iter()) {
        *block = layout.load(sub);
    }
    f(blocks);
    for (sub, block) in subs.iter_mut().zip(blocks.iter()) {
        layout.store(block, sub);
    }
}

/// scrypt's entry in the table of ladders: the rungs of its ROMix, each
/// with the most lanes of `p` it runs at once.
pub(crate) const LADDER: crate::table::Ladder = crate::table::Ladder {
    name: Rung::PRIMITIVE,
    primitives: &[Primitive {
        params: &[
            Param {
                name: "log-n",
                kind: ParamKind::Number { min: 1, max: 63 },
                default: "14",
                doc: "log2 of the cost N (RFC 7914 §2)",
                help: "scrypt's cost: log2 of N (RFC 7914 §2)",
            },
            Param {
                name: "r",
                kind: ParamKind::Number {
                    min: 1,
                    max: (1 << 30) - 1,
                },
                default: "8",
                doc: "the block size factor",
                help: "scrypt's block size factor r (RFC 7914 §2)",
            },
            Param {
                name: "p",
                kind: ParamKind::Number {
                    min: 1,
                    max: (1 << 30) - 1,
                },
                default: "1",
                doc: "the parallelization factor",
                help: "scrypt's parallelization factor p (RFC 7914 §2)",
            },
        ],
        ..Primitive::hash(
            "scrypt",
            Kind::Kdf,
            "scrypt (RFC 7914)",
            128,
            32,
            crate::table::Construct::TypeOnly,
        )
    }],
    rungs: crate::table::Rungs::Own(|| {
        crate::table::rung_infos(Rung::best(), |i| i.lane_widths()[0])
    }),
    #[cfg(feature = "kit")]
    checks: crate::kdf::checks::scrypt_rows,
    #[cfg(feature = "kit")]
    fuzz: crate::kdf::checks::fuzz_scrypt,
};

use crate::table::{Kind, Param, ParamKind, Primitive};
