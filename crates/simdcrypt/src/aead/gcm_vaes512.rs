//! AES-GCM's stitched kernel on zmm registers: VAES and VPCLMULQDQ with
//! AVX-512F/BW/VL, four blocks per register, the structure of E. Biggers'
//! `aes-gcm-vaes-avx512.S` (Linux) written here in intrinsics.
//!
//! A step is 32 blocks (512 bytes) as eight registers of counter blocks.
//! While they go through the AES rounds, the eight registers of
//! ciphertext of the step before (encryption) or of this step
//! (decryption), in POLYVAL's field (byte-reversed, RFC 8452 Appendix A),
//! are multiplied lane by lane by powers of `H` laid out four to a
//! register — Karatsuba's three carry-less products per register, two
//! registers at a time (see [`Wide4::add_pair`]), 24 products a step in
//! 12 parts spread evenly over all the rounds but the last two — and
//! summed unreduced. The steps go in pairs, 64 blocks per reduction: the
//! first multiplied by `H^64 … H^33`, the accumulator joining its first
//! block, the second by `H^32 … H^1`, its sums then reduced after the
//! next-to-last round: the low half folded into the middle and the middle
//! into the high with two products by `x^63 + x^62 + x^57` (see
//! [`Wide4::reduce`]), all four lanes at once, then the lanes added (see
//! [`Hashing`] for why pairs). The register that the accumulator joins is
//! multiplied last. Eight registers a step, not four: with four, the AES
//! rounds' dependent chains and the reduction's were the critical path.
//! An empty `asm!` after each round ([`pin`]) keeps that order from
//! LLVM's instruction scheduler. `bench/NOTES.md`, `aes-gcm-zmm`, has the
//! measurements behind each choice.
//!
//! The counter blocks: see [`Counters`] (`inc32` wraps modulo 2^32 exactly
//! as SP 800-38D's).
//!
//! What is left after the whole steps (fewer than 32 blocks), and so a
//! whole short message, runs in the same kernel through masked loads and
//! stores (AVX-512BW), on one to eight registers, with no copy: its AES
//! stitched with the GHASH of the last whole step, then its blocks, the
//! lengths block and — when the message is short enough that the
//! associated data, the text and the lengths make at most 32 blocks — the
//! associated data too, multiplied by the powers that end on `H^1` and
//! reduced once. `E(K, J0)` runs beside them with AES-NI. Key schedule and
//! `H` powers come precomputed from [`super::AesGcm::new`].

use core::arch::x86_64::{
    __m128i, __m512i, _mm_aesenc_si128, _mm_aesenclast_si128, _mm_extract_epi32, _mm_loadu_si128,
    _mm_shuffle_epi8, _mm_storeu_si128, _mm_xor_si128, _mm256_castsi256_si128,
    _mm256_extracti128_si256, _mm256_xor_si256, _mm512_add_epi32, _mm512_aesenc_epi128,
    _mm512_aesenclast_epi128, _mm512_broadcast_i32x4, _mm512_castsi512_si128,
    _mm512_castsi512_si256, _mm512_clmulepi64_epi128, _mm512_extracti64x4_epi64,
    _mm512_loadu_si512, _mm512_mask_storeu_epi8, _mm512_maskz_loadu_epi8, _mm512_maskz_loadu_epi64,
    _mm512_maskz_mov_epi8, _mm512_maskz_set1_epi32, _mm512_set_epi32, _mm512_set1_epi64,
    _mm512_setzero_si512, _mm512_shuffle_epi8, _mm512_shuffle_epi32, _mm512_storeu_si512,
    _mm512_ternarylogic_epi32, _mm512_unpackhi_epi64, _mm512_unpacklo_epi64, _mm512_xor_si512,
    _mm512_zextsi128_si512,
};

use super::gcm::WideTables;
use crate::ghash::pclmul;
use crate::xor::InOut;

/// Registers per step.
const V: usize = 8;
/// Blocks per step, and the powers of `H` the kernel multiplies by.
pub(crate) const BLOCKS: usize = 4 * V;
/// Bytes per step.
const STEP: usize = 16 * BLOCKS;

/// Whether this CPU, under the `SIMDCRYPT_MAX_ISA` cap, runs the kernel.
pub(crate) fn available() -> bool {
    let f = crate::cpu::features();
    f.avx512f
        && f.avx512bw
        && f.avx512vl
        && f.vaes
        && f.vpclmulqdq
        && f.aes
        && f.pclmulqdq
        && f.avx2
        && f.ssse3
}

/// GCM-AE (SP 800-38D §7.1, `open` false) or GCM-AD (§7.2) of `data`
/// under the round keys `keys` (FIPS 197 order, `w[0]` first), GHASH's
/// `powers` (`H^32` first) and the pre-counter block `j0`, in place or from
/// its input into its output: the tag — of the message sealed, or the one
/// an opened ciphertext should carry, for the caller to compare (and to
/// zero the output when it does not match).
///
/// # Panics
///
/// When the CPU lacks the kernel's instructions ([`available`]).
pub(crate) fn tag(
    tables: &WideTables,
    rounds: usize,
    j0: &[u8; 16],
    aad: &[u8],
    data: InOut<'_>,
    open: bool,
) -> [u8; 16] {
    assert!(
        available(),
        "the zmm GCM kernel needs VAES, VPCLMULQDQ and AVX-512"
    );
    // SAFETY: the CPU runs every feature the kernel enables (asserted).
    unsafe {
        match rounds {
            10 => run::<10>(tables, j0, aad, data, open),
            12 => run::<12>(tables, j0, aad, data, open),
            _ => run::<14>(tables, j0, aad, data, open),
        }
    }
}

/// Sums of lane-by-lane products before reduction, Karatsuba's: the
/// products of the low words, of the high words, and of the sums of the
/// two words (still holding the other two).
#[derive(Clone, Copy)]
struct Wide4 {
    lo: __m512i,
    mid: __m512i,
    hi: __m512i,
}

/// `a ⊕ b ⊕ c` in one instruction.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,vaes,vpclmulqdq,aes,pclmulqdq,avx2,ssse3")]
#[inline]
fn xor3(a: __m512i, b: __m512i, c: __m512i) -> __m512i {
    _mm512_ternarylogic_epi32::<0x96>(a, b, c)
}

impl Wide4 {
    /// The empty sums.
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,vaes,vpclmulqdq,aes,pclmulqdq,avx2,ssse3")]
    #[inline]
    fn zero() -> Wide4 {
        let z = _mm512_setzero_si512();
        Wide4 {
            lo: z,
            mid: z,
            hi: z,
        }
    }

    /// Adds `a · h` lane by lane: three carry-less products (Karatsuba).
    /// VPCLMULQDQ is what bounds the kernel on Zen 5 (one zmm product
    /// every other cycle, where two VAES rounds issue each cycle:
    /// `bench/NOTES.md`, `aes-gcm-zmm`), so the fourth product of
    /// schoolbook costs more than the two operand sums (a shuffle and an
    /// XOR each; `h`'s is hoisted out of the loops).
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,vaes,vpclmulqdq,aes,pclmulqdq,avx2,ssse3")]
    #[inline]
    fn mul_add(&mut self, a: __m512i, h: __m512i) {
        let sum = |x: __m512i| _mm512_xor_si512(x, _mm512_shuffle_epi32::<0x4e>(x));
        self.lo = _mm512_xor_si512(self.lo, _mm512_clmulepi64_epi128::<0x00>(a, h));
        self.hi = _mm512_xor_si512(self.hi, _mm512_clmulepi64_epi128::<0x11>(a, h));
        self.mid = _mm512_xor_si512(self.mid, _mm512_clmulepi64_epi128::<0x00>(sum(a), sum(h)));
    }

    /// A third of [`Self::mul_add`] on two registers at once, `a · h` and
    /// `b · g`: `0` the products of the low words, `1` of the high words,
    /// `2` of the sums of the two words — `a`'s and `b`'s sums side by
    /// side in one register (two unpacks and an XOR, where one register
    /// at a time takes a shuffle and an XOR each), `h`'s and `g`'s
    /// likewise in `hg` ([`pair_sums`]). Each part is two products added
    /// in one three-way XOR.
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,vaes,vpclmulqdq,aes,pclmulqdq,avx2,ssse3")]
    #[inline]
    fn add_pair(
        &mut self,
        part: usize,
        (a, h): (__m512i, __m512i),
        (b, g): (__m512i, __m512i),
        hg: __m512i,
    ) {
        match part {
            0 => {
                let (x, y) = (
                    _mm512_clmulepi64_epi128::<0x00>(a, h),
                    _mm512_clmulepi64_epi128::<0x00>(b, g),
                );
                self.lo = xor3(self.lo, x, y);
            }
            1 => {
                let (x, y) = (
                    _mm512_clmulepi64_epi128::<0x11>(a, h),
                    _mm512_clmulepi64_epi128::<0x11>(b, g),
                );
                self.hi = xor3(self.hi, x, y);
            }
            _ => {
                let ab = _mm512_xor_si512(_mm512_unpacklo_epi64(a, b), _mm512_unpackhi_epi64(a, b));
                let (x, y) = (
                    _mm512_clmulepi64_epi128::<0x00>(ab, hg),
                    _mm512_clmulepi64_epi128::<0x11>(ab, hg),
                );
                self.mid = xor3(self.mid, x, y);
            }
        }
    }

    /// The four lanes' sums, each times `x^-128` reduced, added into one
    /// field element. Montgomery's reduction a 64-bit word at a time, as
    /// [`pclmul::reduce_parts`] does, without forming the low and high
    /// halves first: the low word `c` of the low part is cancelled by
    /// adding `c·P`, which puts `c·(x^63 + x^62 + x^57)` and `c` itself
    /// one word up — into the middle part, with the low part's high word;
    /// then the middle part's low word likewise into the high part, which
    /// is then the reduced product.
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,vaes,vpclmulqdq,aes,pclmulqdq,avx2,ssse3")]
    #[inline]
    fn reduce(self) -> __m128i {
        let poly = _mm512_set1_epi64(0xc200_0000_0000_0000_u64 as i64);
        // Karatsuba's middle term: the cross products alone.
        let mid = xor3(self.mid, self.lo, self.hi);
        let t = _mm512_clmulepi64_epi128::<0x00>(self.lo, poly);
        let mid = xor3(mid, _mm512_shuffle_epi32::<0x4e>(self.lo), t);
        let t = _mm512_clmulepi64_epi128::<0x00>(mid, poly);
        let x = xor3(self.hi, _mm512_shuffle_epi32::<0x4e>(mid), t);
        let y = _mm256_xor_si256(_mm512_castsi512_si256(x), _mm512_extracti64x4_epi64::<1>(x));
        _mm_xor_si128(_mm256_castsi256_si128(y), _mm256_extracti128_si256::<1>(y))
    }
}

/// What every part of one message shares: the round keys in all four
/// lanes (read from the AEAD's tables, never copied), the byte reversal
/// (the identity for POLYVAL), the powers.
struct Kernel<'a> {
    k: &'a [__m512i; 15],
    rev: __m512i,
    /// `H^n … H^1`: 64 for GCM, 16 for GCM-SIV's POLYVAL.
    powers: &'a [u128],
}

impl Kernel<'_> {
    /// The powers `H^(16−first) …` on, four to a register: lane `i` of
    /// the result holds `powers[first + i]` for the `blocks` (1 to 4)
    /// lanes, zeros above.
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,vaes,vpclmulqdq,aes,pclmulqdq,avx2,ssse3")]
    #[inline]
    fn powers4(&self, first: usize, blocks: usize) -> __m512i {
        assert!(first + blocks <= self.powers.len() && blocks <= 4);
        let lanes = ((1u32 << (2 * blocks)) - 1) as u8;
        // SAFETY: `first < 16` (asserted), so the pointer is within the
        // table, and the mask selects the 64-bit words of `blocks` powers,
        // `powers[first..first + blocks]`, within it too (asserted); the
        // masked-off words are not read.
        unsafe { _mm512_maskz_loadu_epi64(lanes, self.powers.as_ptr().add(first).cast()) }
    }

    /// Adds blocks `0..n` of the registers `x` (in field order, zeros
    /// past the data) times the powers `powers[first..first + n]` into
    /// `w`.
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,vaes,vpclmulqdq,aes,pclmulqdq,avx2,ssse3")]
    #[inline]
    fn mul_add_blocks<const W: usize>(
        &self,
        w: &mut Wide4,
        x: &[__m512i; W],
        n: usize,
        first: usize,
    ) {
        for (j, x) in x.iter().enumerate().take(n.div_ceil(4)) {
            w.mul_add(*x, self.powers4(first + 4 * j, (n - 4 * j).min(4)));
        }
    }

    /// Adds `s · H^n` into `w`: the accumulator joining the first of `n`
    /// blocks multiplied with the powers that end on `H^1`.
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,vaes,vpclmulqdq,aes,pclmulqdq,avx2,ssse3")]
    #[inline]
    fn mul_add_acc(&self, w: &mut Wide4, s: __m128i, n: usize) {
        w.mul_add(
            _mm512_zextsi128_si512(s),
            self.powers4(self.powers.len() - n, 1),
        );
    }

    /// GHASH's accumulator `s` after `bytes` zero-padded: one reduction
    /// per as many blocks as there are powers, the last run of them
    /// through masked loads.
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,vaes,vpclmulqdq,aes,pclmulqdq,avx2,ssse3")]
    #[inline]
    fn absorb(&self, mut s: __m128i, bytes: &[u8]) -> __m128i {
        let all = self.powers.len();
        for chunk in bytes.chunks(16 * all.min(BLOCKS)) {
            let n = chunk.len().div_ceil(16);
            // SAFETY: `chunk` is readable for its length.
            let x = unsafe { load_masked::<V>(chunk.as_ptr(), chunk.len()) };
            let mut w = Wide4::zero();
            self.mul_add_acc(&mut w, s, n);
            self.mul_add_blocks(&mut w, &reverse(&x, self.rev), n, all - n);
            s = w.reduce();
        }
        s
    }
}

/// The sums of the two words of the powers `pow`, for [`Wide4::add_pair`]:
/// register `i` holds, lane by lane, those of register `2 i + 1` in its
/// low word and of register `(2 i + 2) mod V` in its high word (the
/// registers paired in that order, see [`PAIRS`]).
#[target_feature(enable = "avx512f,avx512bw,avx512vl,vaes,vpclmulqdq,aes,pclmulqdq,avx2,ssse3")]
#[inline]
fn pair_sums(pow: &[__m512i; V]) -> [__m512i; V / 2] {
    let sum = |x: __m512i| _mm512_xor_si512(x, _mm512_shuffle_epi32::<0x4e>(x));
    std::array::from_fn(|i| {
        let (a, b) = PAIRS[i];
        _mm512_unpacklo_epi64(sum(pow[a]), sum(pow[b]))
    })
}

/// The mask of the first `len` (at most 64) bytes of a register.
#[inline]
fn byte_mask(len: usize) -> u64 {
    if len >= 64 { !0 } else { (1u64 << len) - 1 }
}

/// `len` bytes from `src` in `W` registers, zeros after them.
///
/// # Safety
///
/// `len ≤ 64 W` bytes readable at `src`; the CPU features of the kernel.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,vaes,vpclmulqdq,aes,pclmulqdq,avx2,ssse3")]
#[inline]
unsafe fn load_masked<const W: usize>(src: *const u8, len: usize) -> [__m512i; W] {
    std::array::from_fn(|j| {
        if 64 * j < len {
            // SAFETY: `64 j < len`, so the pointer is within the input;
            // the mask selects the bytes up to `len` only, and the load
            // reads (and may fault on) none of the others.
            unsafe { _mm512_maskz_loadu_epi8(byte_mask(len - 64 * j), src.add(64 * j).cast()) }
        } else {
            _mm512_setzero_si512()
        }
    })
}

/// Stores the first `len` bytes of the `W` registers `v` to `dst`.
///
/// # Safety
///
/// `len ≤ 64 W` bytes writable at `dst`; the CPU features of the kernel.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,vaes,vpclmulqdq,aes,pclmulqdq,avx2,ssse3")]
#[inline]
unsafe fn store_masked<const W: usize>(dst: *mut u8, len: usize, v: &[__m512i; W]) {
    for (j, x) in v.iter().enumerate().take(len.div_ceil(64)) {
        // SAFETY: as in `load_masked`: only the bytes up to `len` are
        // written.
        unsafe { _mm512_mask_storeu_epi8(dst.add(64 * j).cast(), byte_mask(len - 64 * j), *x) };
    }
}

/// The first `len` bytes of the registers `v`, zeros after them.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,vaes,vpclmulqdq,aes,pclmulqdq,avx2,ssse3")]
#[inline]
fn truncate<const W: usize>(v: &[__m512i; W], len: usize) -> [__m512i; W] {
    std::array::from_fn(|j| _mm512_maskz_mov_epi8(byte_mask(len.saturating_sub(64 * j)), v[j]))
}

/// Every block of the registers byte-reversed: GHASH's blocks in
/// POLYVAL's field (and the counter blocks to and from their
/// byte-reversed form).
#[target_feature(enable = "avx512f,avx512bw,avx512vl,vaes,vpclmulqdq,aes,pclmulqdq,avx2,ssse3")]
#[inline]
fn reverse<const W: usize>(v: &[__m512i; W], rev: __m512i) -> [__m512i; W] {
    std::array::from_fn(|j| _mm512_shuffle_epi8(v[j], rev))
}

/// `a ⊕ b` register by register.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,vaes,vpclmulqdq,aes,pclmulqdq,avx2,ssse3")]
#[inline]
fn xor<const W: usize>(a: &[__m512i; W], b: &[__m512i; W]) -> [__m512i; W] {
    std::array::from_fn(|j| _mm512_xor_si512(a[j], b[j]))
}

/// No instruction: the registers `b` and the sums `w` go through an
/// empty `asm!` that LLVM must take as changing them, so that its
/// instruction scheduler keeps what comes before (a round and GHASH's
/// parts after it) before what comes after. Left free, under
/// `-C target-cpu=znver5` it moved all of a step's GHASH ahead of the
/// AES rounds, and the step then took the sum of the two (VAES and
/// VPCLMULQDQ issue apart on Zen 5, but only from the few instructions
/// the core has in view): `bench/NOTES.md`, `aes-gcm-zmm`.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,vaes,vpclmulqdq,aes,pclmulqdq,avx2,ssse3")]
#[inline]
fn pin<const W: usize>(b: &mut [__m512i; W], w: &mut Wide4) {
    if let Ok(b) = <&mut [__m512i; 8]>::try_from(&mut b[..]) {
        // SAFETY: the template is a comment: no instruction runs, no
        // register changes.
        unsafe {
            core::arch::asm!(
                "/* {} {} {} {} {} {} {} {} {} {} {} */",
                inout(zmm_reg) b[0],
                inout(zmm_reg) b[1],
                inout(zmm_reg) b[2],
                inout(zmm_reg) b[3],
                inout(zmm_reg) b[4],
                inout(zmm_reg) b[5],
                inout(zmm_reg) b[6],
                inout(zmm_reg) b[7],
                inout(zmm_reg) w.lo,
                inout(zmm_reg) w.mid,
                inout(zmm_reg) w.hi,
                options(pure, nomem, nostack, preserves_flags),
            );
        }
    }
}

/// `k` itself, through an empty `asm!` that LLVM must take as possibly
/// changing it: each step then reads the round keys from where `k`
/// points — the AEAD's tables, or a copy the caller wipes — rather than
/// LLVM loading them once before a loop and spilling them to stack slots
/// of its own, which nothing wipes.
#[expect(
    clippy::pointers_in_nomem_asm_block,
    reason = "the asm reads nothing: it only hides the pointer's value"
)]
#[inline]
fn unseen<T>(k: &T) -> &T {
    let mut p: *const T = k;
    // SAFETY: the template is a comment: no instruction runs, `p` stays
    // the valid pointer it was.
    unsafe { core::arch::asm!("/* {} */", inout(reg) p, options(nomem, nostack, preserves_flags)) };
    // SAFETY: `p` is `k`, valid for the lifetime of `k`.
    unsafe { &*p }
}

/// One AES round on every register.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,vaes,vpclmulqdq,aes,pclmulqdq,avx2,ssse3")]
#[inline]
fn round<const W: usize>(b: &mut [__m512i; W], k: __m512i) {
    for x in b.iter_mut() {
        *x = _mm512_aesenc_epi128(*x, k);
    }
}

/// The counter blocks of a message, in two forms: byte-reversed (the
/// 32-bit counter of lane `i` in its low 32 bits, so that `inc32` is one
/// `vpaddd` — wrapping modulo 2^32 exactly as SP 800-38D's — and one
/// `vpshufb` back per register), and in byte order, where adding `k` to the
/// last byte needs no shuffle as long as that byte does not carry: the
/// case for all but one step in eight (the counter is public, so choosing
/// by it leaks nothing). `vpshufb` shares its ports with VAES on Zen 5,
/// so the eight shuffles a step saved are eight AES rounds' worth.
struct Counters {
    /// The next counter block's last 32 bits.
    ctr: u32,
    /// The next four counter blocks, byte-reversed.
    reversed: __m512i,
    /// The same in byte order.
    ordered: __m512i,
}

impl Counters {
    /// The four counter blocks after `j0`: `inc32(j0)` on.
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,vaes,vpclmulqdq,aes,pclmulqdq,avx2,ssse3")]
    #[inline]
    fn new(j0: __m128i, rev: __m512i) -> Counters {
        // Lane i gets i + 1 in its low 32 bits.
        let first = _mm512_set_epi32(0, 0, 0, 4, 0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 1);
        let reversed =
            _mm512_add_epi32(_mm512_shuffle_epi8(_mm512_broadcast_i32x4(j0), rev), first);
        let last = _mm_extract_epi32::<3>(j0) as u32;
        Counters {
            ctr: u32::from_be(last).wrapping_add(1),
            reversed,
            ordered: _mm512_shuffle_epi8(reversed, rev),
        }
    }

    /// The next `4W` counter blocks in byte order, register `j` holding
    /// blocks `4j … 4j + 3`.
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,vaes,vpclmulqdq,aes,pclmulqdq,avx2,ssse3")]
    #[inline]
    fn next<const W: usize>(&mut self, rev: __m512i) -> [__m512i; W] {
        let blocks = 4 * W as u32;
        // The last byte of each block: bits 24–31 of its fourth 32-bit word.
        let last_byte = |k: u32| _mm512_maskz_set1_epi32(0x8888, (k << 24) as i32);
        let low = |k: u32| _mm512_maskz_set1_epi32(0x1111, k as i32);
        let carries = (self.ctr & 0xff) + blocks > 0x100;
        let out = std::array::from_fn(|j| {
            let j = 4 * j as u32;
            if carries {
                _mm512_shuffle_epi8(_mm512_add_epi32(self.reversed, low(j)), rev)
            } else {
                _mm512_add_epi32(self.ordered, last_byte(j))
            }
        });
        self.reversed = _mm512_add_epi32(self.reversed, low(blocks));
        self.ordered = if (self.ctr & 0xff) + blocks >= 0x100 {
            // The last byte carried (or is about to): byte order anew.
            _mm512_shuffle_epi8(self.reversed, rev)
        } else {
            _mm512_add_epi32(self.ordered, last_byte(blocks))
        };
        self.ctr = self.ctr.wrapping_add(blocks);
        out
    }
}

/// `4W` blocks from `src` in `W` registers.
///
/// # Safety
///
/// `64 W` bytes readable at `src`; the CPU features of the kernel.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,vaes,vpclmulqdq,aes,pclmulqdq,avx2,ssse3")]
#[inline]
unsafe fn load<const W: usize>(src: *const u8) -> [__m512i; W] {
    // SAFETY: the caller promises `64 W` readable bytes.
    std::array::from_fn(|j| unsafe { _mm512_loadu_si512(src.add(64 * j).cast()) })
}

/// Stores `W` registers to `64 W` bytes at `dst`.
///
/// # Safety
///
/// `64 W` bytes writable at `dst`; the CPU features of the kernel.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,vaes,vpclmulqdq,aes,pclmulqdq,avx2,ssse3")]
#[inline]
unsafe fn store<const W: usize>(dst: *mut u8, v: &[__m512i; W]) {
    for (j, x) in v.iter().enumerate() {
        // SAFETY: the caller promises `64 W` writable bytes.
        unsafe { _mm512_storeu_si512(dst.add(64 * j).cast(), *x) };
    }
}

/// `E(K, block)` on one block with AES-NI, the round keys' low lanes.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,vaes,vpclmulqdq,aes,pclmulqdq,avx2,ssse3")]
#[inline]
fn encrypt_one<const NR: usize>(k: &[__m512i; 15], block: __m128i) -> __m128i {
    let mut x = _mm_xor_si128(block, _mm512_castsi512_si128(k[0]));
    for key in &k[1..NR] {
        x = _mm_aesenc_si128(x, _mm512_castsi512_si128(*key));
    }
    _mm_aesenclast_si128(x, _mm512_castsi512_si128(k[NR]))
}

/// The registers a step multiplies two at a time ([`Wide4::add_pair`]),
/// in order: the one the accumulator joins (0) last.
const PAIRS: [(usize, usize); V / 2] = [(1, 2), (3, 4), (5, 6), (7, 0)];

/// GHASH's parts of a step that come before AES round `r` (of `nr`): the
/// `3 V / 2` parts (three per pair of registers, two products each, see
/// [`Wide4::add_pair`]) spread evenly over rounds `1 … nr − 2`, so that
/// VPCLMULQDQ, which issues apart from VAES, is busy through the whole
/// step, whatever the key size; the reduction follows round `nr − 1`.
const fn parts_before(nr: usize, r: usize) -> usize {
    let p = ((r - 1) * 3 * V / 2).div_ceil(nr - 2);
    if p < 3 * V / 2 { p } else { 3 * V / 2 }
}

/// What a step's GHASH does: nothing, or the products of its `V`
/// registers — with the accumulator joining the first (`joins`), or
/// not — added to the sums, which it then reduces into the accumulator
/// (`reduces`), or leaves to the next step. Two steps whose GHASH the
/// first joins and the second reduces make 64 blocks per reduction
/// (`H^64 … H^33`, then `H^32 … H^1`): half the reductions, and the
/// accumulator's chain from one reduction to the next (a product and a
/// reduction, some 30 cycles) has two steps' products beside it. GHASH
/// alone on Zen 5 took 66 cycles per 32 blocks with a reduction each
/// (the chain held VPCLMULQDQ up), 49 with one per 64 blocks
/// (`bench/NOTES.md`, `aes-gcm-zmm`).
#[derive(Clone, Copy)]
struct Hashing {
    on: bool,
    joins: bool,
    reduces: bool,
}

/// No GHASH.
const NO_HASH: Hashing = Hashing {
    on: false,
    joins: false,
    reduces: false,
};
/// 32 blocks: the accumulator joins, the sums are reduced.
const WHOLE: Hashing = Hashing {
    on: true,
    joins: true,
    reduces: true,
};
/// The first 32 of 64 blocks: the accumulator joins.
const FIRST: Hashing = Hashing {
    on: true,
    joins: true,
    reduces: false,
};
/// The last 32 of 64 blocks: the sums are reduced.
const SECOND: Hashing = Hashing {
    on: true,
    joins: false,
    reduces: true,
};

/// Rounds `$r…` (literals) of `$nr` on the registers `$b` under the round
/// keys `$k`; after round `r`, GHASH's part of the step that goes with it
/// as `$h` says (see [`step!`], [`products_before`]). Written out round
/// by round rather than as a loop: LLVM left a loop over 12 or 14 rounds
/// rolled, with a branch and the registers through memory each round.
macro_rules! rounds {
    ($b:ident, $k:ident, $nr:expr, $h:ident, $g:ident, $pow:ident, $hg:ident, $w:ident, $s:ident; $($r:literal)+) => {$(
        round(&mut $b, $k[$r]);
        if $h.on {
            for p in parts_before($nr, $r)..parts_before($nr, $r + 1) {
                let (i, part) = (p / 3, p % 3);
                let (a, b) = PAIRS[i];
                let x = if b == 0 && $h.joins {
                    _mm512_xor_si512($g[0], _mm512_zextsi128_si512(*$s))
                } else {
                    $g[b]
                };
                $w.add_pair(part, ($g[a], $pow[a]), (x, $pow[b]), $hg[i]);
            }
            if $h.reduces && $r == $nr - 1 {
                *$s = $w.reduce();
                *$w = Wide4::zero();
            }
        }
        pin(&mut $b, $w);
    )+};
}

/// The keystream of the counter-block registers `$ctr` under the round
/// keys `$k` (`$nr` rounds); with GHASH as `$h` ([`Hashing`]) says, the
/// sums `$w` take the products of the `V` registers `$g` (blocks in field
/// order, the accumulator `$s` joining the first) by `$pow` (`H^32 …
/// H^1`, or `H^64 … H^33`), spread over the rounds
/// ([`products_before`]). A macro rather than a function for the reason
/// the ymm kernel's `step!` is one: the registers must not go through
/// memory between the rounds.
macro_rules! step {
    ($k:expr, $nr:expr, $ctr:expr, $g:expr, $pow:expr, $h:expr, $w:expr, $s:expr) => {{
        let (k, g, (pow, hg), h, w, s): (
            &[__m512i; 15],
            &[__m512i; V],
            (&[__m512i; V], &[__m512i; V / 2]),
            Hashing,
            &mut Wide4,
            &mut __m128i,
        ) = ($k, $g, $pow, $h, $w, $s);
        let k = unseen(k);
        let mut b = $ctr;
        for x in b.iter_mut() {
            *x = _mm512_xor_si512(*x, k[0]);
        }
        rounds!(b, k, $nr, h, g, pow, hg, w, s; 1 2 3 4 5 6 7 8 9);
        if $nr > 10 {
            rounds!(b, k, $nr, h, g, pow, hg, w, s; 10 11);
        }
        if $nr > 12 {
            rounds!(b, k, $nr, h, g, pow, hg, w, s; 12 13);
        }
        for x in b.iter_mut() {
            *x = _mm512_aesenclast_epi128(*x, k[$nr]);
        }
        b
    }};
}

impl Kernel<'_> {
    /// The accumulator `s` after the message's last blocks, in one
    /// reduction: the `a` blocks of `aad` (none unless the associated data
    /// was left for here), the `t` blocks of `ct` (the text's tail, or the
    /// last whole step's text when there is no tail) and the lengths
    /// block, at most 64 blocks.
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,vaes,vpclmulqdq,aes,pclmulqdq,avx2,ssse3")]
    #[inline]
    fn finish(
        &self,
        s: __m128i,
        (aad, a): (&[__m512i; V], usize),
        (ct, t): (&[__m512i; V], usize),
        lengths: __m128i,
    ) -> __m128i {
        let all = self.powers.len();
        let n = a + t + 1;
        assert!(n <= all);
        let mut w = Wide4::zero();
        self.mul_add_acc(&mut w, s, n);
        self.mul_add_blocks(&mut w, aad, a, all - n);
        self.mul_add_blocks(&mut w, ct, t, all - n + a);
        self.mul_add_blocks(&mut w, &[_mm512_zextsi128_si512(lengths)], 1, all - 1);
        w.reduce()
    }
}

/// GCM-AE (`open` false) or GCM-AD of `data` under `NR` rounds: the tag.
///
/// # Safety
///
/// The CPU runs the kernel's features ([`available`]); `tables` holds
/// `NR + 1` round keys.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,vaes,vpclmulqdq,aes,pclmulqdq,avx2,ssse3")]
unsafe fn run<const NR: usize>(
    tables: &WideTables,
    j0: &[u8; 16],
    aad: &[u8],
    data: InOut<'_>,
    open: bool,
) -> [u8; 16] {
    let rev128 = pclmul::byte_order(true);
    let zero = _mm512_setzero_si512();
    let powers = &tables.powers;
    let k = Kernel {
        // SAFETY: `keys` is 15 × 64 bytes at the start of a 64-byte
        // aligned `repr(C)` struct: 15 `__m512i` in size and alignment,
        // any bits valid.
        k: unsafe { &*tables.keys.as_ptr().cast::<[__m512i; 15]>() },
        rev: _mm512_broadcast_i32x4(rev128),
        powers,
    };
    // SAFETY: `j0` is 16 bytes.
    let j0 = unsafe { _mm_loadu_si128(j0.as_ptr().cast()) };
    let ek_j0 = encrypt_one::<NR>(k.k, j0);
    let mut counters = Counters::new(j0, k.rev);

    let len = data.len();
    let (input, output, _) = data.into_raw();
    let tail = len % STEP;
    let t = tail.div_ceil(16);
    let a = aad.len().div_ceil(16);
    // A short message: the associated data, the text and the lengths block
    // in one reduction at the end. Otherwise the associated data first.
    let merge = len < STEP && a + t < BLOCKS;
    let (mut s, aad_regs) = if merge {
        // SAFETY: `aad` is readable for its length, fewer than 32 blocks.
        let x = unsafe { load_masked::<V>(aad.as_ptr(), aad.len()) };
        (_mm512_castsi512_si128(zero), reverse(&x, k.rev))
    } else {
        (k.absorb(_mm512_castsi512_si128(zero), aad), [zero; V])
    };
    let a = if merge { a } else { 0 };

    // The powers `H^64 … H^33` and `H^32 … H^1`, four to a register.
    // SAFETY: 64 powers, 1024 bytes, the size of the loads.
    let (high, pow): ([__m512i; V], [__m512i; V]) = unsafe {
        (
            load(powers.as_ptr().cast()),
            load(powers[BLOCKS..].as_ptr().cast()),
        )
    };
    let (high, pow) = ((&high, &pair_sums(&high)), (&pow, &pair_sums(&pow)));
    let mut w = Wide4::zero();
    let mut pending = [zero; V];
    let mut have_pending = false;
    let mut done = 0;
    // A whole step, its GHASH as `$h` says with the powers `$pow`: of its
    // own ciphertext when decrypting, of the step before's (`pending`)
    // when encrypting. (`STEP` bytes from `done` are within the message at
    // each step; each register is read before any is written, for in
    // place.)
    macro_rules! whole_step {
        ($pow:expr, $h:expr) => {{
            // SAFETY: as above.
            let x = unsafe { load::<V>(input.add(done)) };
            let ctr = counters.next::<V>(k.rev);
            let out = if open {
                let g = reverse(&x, k.rev);
                xor(&x, &step!(k.k, NR, ctr, &g, $pow, $h, &mut w, &mut s))
            } else {
                let out = xor(&x, &step!(k.k, NR, ctr, &pending, $pow, $h, &mut w, &mut s));
                pending = reverse(&out, k.rev);
                out
            };
            // SAFETY: as above.
            unsafe { store(output.add(done), &out) };
            done += STEP;
        }};
    }
    if len >= STEP {
        // Each loop with `open` and the hashing fixed, so that the steps
        // carry no branch on them: two steps a turn, 64 blocks per
        // reduction ([`Hashing`]).
        if open {
            while len - done >= 2 * STEP {
                whole_step!(high, FIRST);
                whole_step!(pow, SECOND);
            }
            if len - done >= STEP {
                whole_step!(pow, WHOLE);
            }
        } else {
            whole_step!(pow, NO_HASH);
            have_pending = true;
            while len - done >= 2 * STEP {
                whole_step!(high, FIRST);
                whole_step!(pow, SECOND);
            }
            if len - done >= STEP {
                whole_step!(pow, WHOLE);
            }
        }
    }

    // The rest, on `W` registers, its AES stitched with the GHASH of the
    // last whole step's ciphertext when encrypting: the tail's text in
    // field order, in `V` registers.
    macro_rules! tail {
        ($w:literal) => {{
            // SAFETY: `tail` bytes from `done` are the rest of the input.
            let x = unsafe { load_masked::<$w>(input.add(done), tail) };
            let ctr = counters.next::<$w>(k.rev);
            let h = if have_pending { WHOLE } else { NO_HASH };
            let ks = step!(k.k, NR, ctr, &pending, pow, h, &mut w, &mut s);
            let out = xor(&x, &ks);
            // SAFETY: `tail` bytes from `done` are the rest of the output.
            unsafe { store_masked(output.add(done), tail, &out) };
            let ct = reverse(&if open { x } else { truncate(&out, tail) }, k.rev);
            (
                std::array::from_fn(|j| if j < $w { ct[j] } else { zero }),
                t,
            )
        }};
    }
    // Then the end of GHASH: the associated data when left for here, the
    // tail — or when there is none, the last whole step's text (seal) —
    // and the lengths block.
    let last: ([__m512i; V], usize) = match t.div_ceil(4) {
        0 if have_pending => (pending, BLOCKS),
        0 => ([zero; V], 0),
        1 => tail!(1),
        2 => tail!(2),
        3 => tail!(3),
        4 => tail!(4),
        5 => tail!(5),
        6 => tail!(6),
        7 => tail!(7),
        _ => tail!(8),
    };
    // `[len(A)]_64 ‖ [len(C)]_64` in field order (byte-reversed).
    let lengths =
        core::arch::x86_64::_mm_set_epi64x((aad.len() as u64 * 8) as i64, (len as u64 * 8) as i64);
    s = k.finish(s, (&aad_regs, a), (&last.0, last.1), lengths);

    // The tag: E(K, J0) ⊕ S, S back in GHASH's byte order.
    let tag = _mm_xor_si128(_mm_shuffle_epi8(s, rev128), ek_j0);
    let mut out = [0u8; 16];
    // SAFETY: `out` is 16 bytes.
    unsafe { _mm_storeu_si128(out.as_mut_ptr().cast(), tag) };
    out
}

/// AES-GCM-SIV's tag input (RFC 8452 §4): POLYVAL under the powers
/// `H^16 … H^1` of the message-authentication key of the padded `aad`,
/// the padded `text` and the lengths block, 16 blocks per reduction on
/// zmm; the hash as POLYVAL's output bytes.
///
/// # Panics
///
/// When the CPU lacks the kernel's instructions ([`available`]).
pub(crate) fn polyval(powers: &[u128; 16], aad: &[u8], text: &[u8]) -> [u8; 16] {
    assert!(
        available(),
        "the zmm kernel needs VAES, VPCLMULQDQ and AVX-512"
    );
    // SAFETY: the CPU runs every feature the kernel enables (asserted).
    unsafe { polyval_zmm(powers, aad, text) }
}

/// [`polyval`] compiled for the kernel's features.
///
/// # Safety
///
/// The CPU runs the kernel's features.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,vaes,vpclmulqdq,aes,pclmulqdq,avx2,ssse3")]
unsafe fn polyval_zmm(powers: &[u128; 16], aad: &[u8], text: &[u8]) -> [u8; 16] {
    let k = Kernel {
        k: &[_mm512_setzero_si512(); 15],
        // POLYVAL's blocks are in field order as they are.
        rev: _mm512_broadcast_i32x4(pclmul::byte_order(false)),
        powers,
    };
    let mut lengths = [0u8; 16];
    lengths[..8].copy_from_slice(&(aad.len() as u64 * 8).to_le_bytes());
    lengths[8..].copy_from_slice(&(text.len() as u64 * 8).to_le_bytes());
    let mut s = _mm512_castsi512_si128(_mm512_setzero_si512());
    for part in [aad, text, &lengths] {
        s = k.absorb(s, part);
    }
    let mut out = [0u8; 16];
    // SAFETY: `out` is 16 bytes.
    unsafe { _mm_storeu_si128(out.as_mut_ptr().cast(), s) };
    out
}

/// AES-GCM-SIV's CTR (RFC 8452 §4) of `data` under the round keys `keys`
/// from the counter block `counter`: the first 32 bits a little-endian
/// counter wrapping modulo 2^32 (one `vpaddd` on the low 32 bits of each
/// lane, no byte swap), 32 blocks per step on zmm, the rest through
/// masked loads and stores.
///
/// # Panics
///
/// When the CPU lacks the kernel's instructions ([`available`]).
pub(crate) fn ctr32_le(keys: &[[u8; 16]], counter: &[u8; 16], data: InOut<'_>) {
    assert!(
        available(),
        "the zmm kernel needs VAES, VPCLMULQDQ and AVX-512"
    );
    // SAFETY: the CPU runs every feature the kernel enables (asserted).
    unsafe {
        match keys.len() {
            11 => ctr_le::<10>(keys, counter, data),
            13 => ctr_le::<12>(keys, counter, data),
            _ => ctr_le::<14>(keys, counter, data),
        }
    }
}

/// [`ctr32_le`] under `NR` rounds.
///
/// # Safety
///
/// The CPU runs the kernel's features; `keys` has `NR + 1` round keys.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,vaes,vpclmulqdq,aes,pclmulqdq,avx2,ssse3")]
unsafe fn ctr_le<const NR: usize>(keys: &[[u8; 16]], counter: &[u8; 16], data: InOut<'_>) {
    let zero = _mm512_setzero_si512();
    let mut k = [zero; 15];
    for (k, key) in k.iter_mut().zip(&keys[..=NR]) {
        // SAFETY: a round key is 16 bytes, the size of the load.
        *k = _mm512_broadcast_i32x4(unsafe { _mm_loadu_si128(key.as_ptr().cast()) });
    }
    // SAFETY: `counter` is 16 bytes.
    let first = _mm512_broadcast_i32x4(unsafe { _mm_loadu_si128(counter.as_ptr().cast()) });
    // Lane i: the counter plus i, in the first 32-bit word.
    let mut next = _mm512_add_epi32(
        first,
        _mm512_set_epi32(0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0),
    );
    let blocks = |next: __m512i| -> [__m512i; V] {
        std::array::from_fn(|j| {
            _mm512_add_epi32(next, _mm512_maskz_set1_epi32(0x1111, 4 * j as i32))
        })
    };
    let (unused, mut no_w, mut no_s) = ([zero; V], Wide4::zero(), _mm512_castsi512_si128(zero));
    let len = data.len();
    let (input, output, _) = data.into_raw();
    let mut done = 0;
    while done < len {
        let ks = step!(
            &k,
            NR,
            blocks(next),
            &unused,
            (&unused, &[zero; V / 2]),
            NO_HASH,
            &mut no_w,
            &mut no_s
        );
        let n = (len - done).min(STEP);
        // SAFETY: `n` bytes from `done` are within the input and the
        // output (a whole step, or the rest under a mask); every register
        // is read before any is written.
        unsafe {
            if n == STEP {
                let x = load::<V>(input.add(done));
                store(output.add(done), &xor(&x, &ks));
            } else {
                let x = load_masked::<V>(input.add(done), n);
                store_masked(output.add(done), n, &xor(&x, &ks));
            }
        }
        next = _mm512_add_epi32(next, _mm512_maskz_set1_epi32(0x1111, BLOCKS as i32));
        done += n;
    }
    // The round keys' broadcast copies on the stack are wiped.
    k = [zero; 15];
    std::hint::black_box(&mut k);
}
