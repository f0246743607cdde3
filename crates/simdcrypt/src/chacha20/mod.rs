//! ChaCha20 (RFC 8439), its original form (D. J. Bernstein, "ChaCha, a
//! variant of Salsa20", 2008), HChaCha20 and XChaCha20
//! (draft-irtf-cfrg-xchacha-03), as a ladder of implementations.
//!
//! | rung | CPU | technique |
//! |---|---|---|
//! | `reference` | any | RFC 8439 §2 literally: quarter round on state indices |
//! | `sse2` | SSE2 | one block horizontal: a row per xmm register, `pshufd` to the diagonals, shift/or rotates |
//! | `ssse3-4x` | SSSE3 | 4 blocks vertical in xmm, `pshufb` for the 16- and 8-bit rotates; 1–3 blocks horizontal, interleaved |
//! | `avx2` | AVX2 | 8 blocks vertical in ymm, `vpshufb` rotates; 1–7 blocks as horizontal pairs in ymm (+ 1 in xmm), interleaved |
//! | `avx512` | AVX-512F/VL | 16 blocks vertical in zmm, `vprold`; then the `avx512vl` forms |
//! | `avx512vl` | AVX-512F/VL | 8 blocks vertical in ymm, `vprold`; 1–7 blocks horizontal, pairs in ymm |
//! | `neon` | NEON (aarch64) | 4 blocks vertical, `rev32`/`tbl` for the 16- and 8-bit rotates, `shl`+`sri` for 12 and 7; 1–3 blocks horizontal (`ext` to the diagonals), interleaved |
//!
//! No rung computes a block that is not used: a vertical rung hands what
//! does not fill its width down to narrower forms. Where the cross-overs
//! lie is said in `avx2.rs` and `horizontal.rs`, the measurements behind
//! them in `horizontal.rs` and bench/NOTES.md (section
//! chacha20-avx2-tail). A one-block call runs horizontally on every SIMD
//! rung.
//!
//! Three ciphers share the rungs: [`ChaCha20`] (RFC 8439: 96-bit nonce,
//! 32-bit block counter, 2^32 blocks of keystream), [`ChaCha20Legacy`] (the
//! original: 64-bit nonce and 64-bit counter) and [`XChaCha20`] (192-bit
//! nonce through [`hchacha20`]).
//!
//! ```
//! use simdcrypt::chacha20::ChaCha20;
//!
//! let mut data = *b"attack at dawn";
//! ChaCha20::new(&[7; 32], &[1; 12]).apply_keystream(&mut data)?;
//! ChaCha20::new(&[7; 32], &[1; 12]).apply_keystream(&mut data)?;
//! assert_eq!(&data, b"attack at dawn");
//! # Ok::<(), simdcrypt::Error>(())
//! ```

// The checks of the kit (`simdcrypt::kit`), beside the entry in the table.
#[cfg(feature = "kit")]
pub(crate) mod checks;
mod ladder;
#[cfg(feature = "rustcrypto")]
mod rustcrypto;
pub(crate) use ladder::LADDER;
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
mod avx512;
#[cfg(target_arch = "x86_64")]
mod avx512vl;
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
mod horizontal;
#[cfg(target_arch = "aarch64")]
mod neon;
#[cfg(target_arch = "x86_64")]
mod sse2;
#[cfg(target_arch = "x86_64")]
mod ssse3;

use std::fmt;
use std::sync::OnceLock;

use zeroize::Zeroize;

use crate::rung::rungs;
use crate::stream::{BlockKeystream, Position, in_registers, stream_cipher};
use crate::vertical::Counter;
use crate::xor::InOut;
use crate::{Error, Xor};

/// The ChaCha quarter round (RFC 8439 §2.1) on four SIMD registers, lane by
/// lane, in place: `a += b; d ^= a; d <<<= 16; c += d; b ^= c; b <<<= 12;
/// a += b; d ^= a; d <<<= 8; c += d; b ^= c; b <<<= 7`. `$rotl!(x, n)`
/// rotates each 32-bit lane of `x` left by the literal `n`. Shared by every
/// SIMD rung, horizontal and vertical.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
macro_rules! quarter_round {
    ($add:path, $xor:path, $rotl:ident; $a:ident, $b:ident, $c:ident, $d:ident) => {
        $a = $add($a, $b);
        $d = $rotl!($xor($d, $a), 16);
        $c = $add($c, $d);
        $b = $rotl!($xor($b, $c), 12);
        $a = $add($a, $b);
        $d = $rotl!($xor($d, $a), 8);
        $c = $add($c, $d);
        $b = $rotl!($xor($b, $c), 7);
    };
}
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
use quarter_round;

/// `inner_block` (RFC 8439 §2.3.1) on 16 registers, word `i` of several
/// blocks in register `i`: the column round, then the diagonal round.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
macro_rules! double_round {
    ($add:path, $xor:path, $rotl:ident;
     $x0:ident, $x1:ident, $x2:ident, $x3:ident, $x4:ident, $x5:ident, $x6:ident, $x7:ident,
     $x8:ident, $x9:ident, $x10:ident, $x11:ident, $x12:ident, $x13:ident, $x14:ident, $x15:ident) => {
        use $crate::chacha20::quarter_round;
        quarter_round!($add, $xor, $rotl; $x0, $x4, $x8, $x12);
        quarter_round!($add, $xor, $rotl; $x1, $x5, $x9, $x13);
        quarter_round!($add, $xor, $rotl; $x2, $x6, $x10, $x14);
        quarter_round!($add, $xor, $rotl; $x3, $x7, $x11, $x15);
        quarter_round!($add, $xor, $rotl; $x0, $x5, $x10, $x15);
        quarter_round!($add, $xor, $rotl; $x1, $x6, $x11, $x12);
        quarter_round!($add, $xor, $rotl; $x2, $x7, $x8, $x13);
        quarter_round!($add, $xor, $rotl; $x3, $x4, $x9, $x14);
    };
}
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
use double_round;

/// Generates a SIMD rung's `xor_keystream(state, counter, block, data)`:
/// the keystream from block `block` of `state` (its counter words, which
/// `counter` describes, ignored) XORed into `data`, through each vertical
/// batch function in turn (widest first, each handing down what does not
/// fill it), then the horizontal tail.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
macro_rules! rung_xor_keystream {
    ($(#[$doc:meta])* $feature:literal needs $needs:literal: [$($batches:path),+] => $tail:path) => {
        $(#[$doc])*
        ///
        /// # Safety
        ///
        #[doc = concat!("The CPU must have ", $needs, ".")]
        #[target_feature(enable = $feature)]
        pub(super) unsafe fn xor_keystream(
            state: &[u32; 16],
            counter: $crate::vertical::Counter,
            block: u64,
            data: $crate::xor::InOut<'_>,
        ) {
            let mut block = block;
            let rest = data;
            $(let rest = $batches(state, counter, &mut block, $crate::chacha20::DOUBLE_ROUNDS, rest);)+
            $tail(state, counter, block, rest);
        }
    };
}
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
use rung_xor_keystream;

/// The dispatch `match` of the one-block forms: `$f($args)` of the rung
/// `$imp`'s horizontal module (the `avx512vl` one for both AVX-512 rungs),
/// the `neon` one on aarch64, `$reference` on the reference rung and
/// elsewhere. Only used with rungs that passed [`Rung::require`].
macro_rules! on_one_block_form {
    ($imp:expr, $f:ident($($arg:expr),*), or $reference:expr) => {
        match $imp {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: SSE2 is part of the x86-64 baseline.
            Rung::Sse2 => unsafe { sse2::$f($($arg),*) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: this rung passed `require()`, so the CPU has SSSE3.
            Rung::Ssse3x4 => unsafe { ssse3::$f($($arg),*) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: this rung passed `require()`, so the CPU has AVX2.
            Rung::Avx2 => unsafe { avx2::$f($($arg),*) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: these rungs passed `require()`, so the CPU has
            // AVX-512F and AVX-512VL.
            Rung::Avx512 | Rung::Avx512vl => unsafe { avx512vl::$f($($arg),*) },
            #[cfg(target_arch = "aarch64")]
            // SAFETY: this rung passed `require()`, so the CPU has NEON.
            Rung::Neon => unsafe { neon::$f($($arg),*) },
            // The reference, and the other architecture's rungs (never
            // available).
            _ => $reference,
        }
    };
}

/// Key length, in bytes (RFC 8439 §2.3: 256 bits).
pub const KEY_LEN: usize = 32;
/// Nonce length of RFC 8439 ChaCha20, in bytes (§2.3: 96 bits).
pub const NONCE_LEN: usize = 12;
/// Nonce length of the original ChaCha20, in bytes (64 bits).
pub const LEGACY_NONCE_LEN: usize = 8;
/// Nonce length of XChaCha20, in bytes (draft-irtf-cfrg-xchacha-03: 192 bits).
pub const XNONCE_LEN: usize = 24;
/// Keystream block length, in bytes (RFC 8439 §2.3).
pub const BLOCK_LEN: usize = crate::stream::BLOCK_LEN;

/// ChaCha20's 20 rounds, as double-rounds.
const DOUBLE_ROUNDS: usize = 10;

rungs! {
    primitive = "chacha20";
    /// The implementations of the ChaCha20 block function, slowest first.
    pub enum Rung {
        /// RFC 8439 §2 literally.
        Reference = "reference", needs "nothing", if |_f| true, arch = any;
        /// SSE2, one block horizontal: a row per register, `pshufd` to the diagonals.
        Sse2 = "sse2", needs "SSE2", if |f| f.sse2, arch = "x86_64";
        /// SSSE3, 4 blocks vertical, `pshufb` rotates.
        Ssse3x4 = "ssse3-4x", needs "SSSE3", if |f| f.ssse3, arch = "x86_64";
        /// AVX2, 8 blocks vertical, `vpshufb` rotates.
        Avx2 = "avx2", needs "AVX2", if |f| f.avx2, arch = "x86_64";
        /// AVX-512, 16 blocks vertical in zmm, `vprold`.
        Avx512 = "avx512", needs "AVX-512F and AVX-512VL", if |f| f.avx512f && f.avx512vl, arch = "x86_64";
        /// AVX-512VL, 8 blocks vertical in ymm and 4 in xmm, `vprold`.
        Avx512vl = "avx512vl", needs "AVX-512F and AVX-512VL", if |f| f.avx512f && f.avx512vl, arch = "x86_64";
        /// NEON, 4 blocks vertical, `rev32`/`tbl` rotates; 1–3 blocks horizontal.
        Neon = "neon", needs "NEON", if |f| f.neon, arch = "aarch64";
    }
}

impl Rung {
    /// The fastest rung this CPU runs: the widest vertical rung, which
    /// itself hands what does not fill its width down to narrower code.
    ///
    /// Chosen once and cached: every cipher asks, and a 64-byte message
    /// should not pay for four feature checks.
    #[inline]
    pub fn best() -> Rung {
        static BEST: OnceLock<Rung> = OnceLock::new();
        *BEST.get_or_init(|| {
            [
                Rung::Avx512,
                Rung::Avx2,
                Rung::Ssse3x4,
                Rung::Sse2,
                Rung::Neon,
            ]
            .into_iter()
            .find(|i| i.is_available())
            .unwrap_or(Rung::Reference)
        })
    }

    /// How many 64-byte blocks the rung computes at once.
    pub fn par_blocks(self) -> usize {
        match self {
            Rung::Reference | Rung::Sse2 => 1,
            Rung::Ssse3x4 | Rung::Neon => 4,
            Rung::Avx2 | Rung::Avx512vl => 8,
            Rung::Avx512 => 16,
        }
    }

    /// The ChaCha20 block function (RFC 8439 §2.3) of one state on this
    /// rung: 20 rounds, then the input added. The vertical rungs compute
    /// single blocks with their own one-block form.
    ///
    /// # Errors
    ///
    /// [`Error::RungUnavailable`] when the CPU lacks the rung.
    pub fn block(self, state: &[u32; 16]) -> Result<[u32; 16], Error> {
        let imp = self.require()?;
        let z = imp.permute(state);
        Ok(std::array::from_fn(|i| z[i].wrapping_add(state[i])))
    }

    /// The 20 rounds of one block, no final addition. Only called with
    /// rungs that passed [`Rung::require`].
    fn permute(self, x: &[u32; 16]) -> [u32; 16] {
        on_one_block_form!(self, double_rounds(x), or reference::double_rounds(x, DOUBLE_ROUNDS))
    }

    /// XORs keystream from block `block` of `state` (whose counter words,
    /// described by `counter`, are ignored) into `data`. Only called with
    /// rungs that passed [`Rung::require`].
    #[inline(always)]
    fn xor_keystream(
        self,
        xor: Xor,
        state: &[u32; 16],
        counter: Counter,
        block: u64,
        data: InOut<'_>,
    ) {
        let one_block = data.len() <= BLOCK_LEN;
        match self {
            // One block, the commonest short call: each rung's horizontal
            // one-block entry, straight.
            #[cfg(target_arch = "x86_64")]
            // SAFETY: this rung passed `require()`, so the CPU has SSSE3;
            // `into_raw`'s parts are what `xor_one_block` asks for, and the
            // data is at most a block.
            Rung::Ssse3x4 if one_block => unsafe {
                ssse3::xor_one_block(state, counter, block, data.into_raw())
            },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: this rung passed `require()`, so the CPU has AVX2;
            // the data as above.
            Rung::Avx2 if one_block => unsafe {
                avx2::xor_one_block(state, counter, block, data.into_raw())
            },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: these rungs passed `require()`, so the CPU has
            // AVX-512F and AVX-512VL; the data as above.
            Rung::Avx512 | Rung::Avx512vl if one_block => unsafe {
                avx512vl::xor_one_block(state, counter, block, data.into_raw())
            },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: this rung passed `require()`, so the CPU has SSSE3.
            Rung::Ssse3x4 => unsafe { ssse3::xor_keystream(state, counter, block, data) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: this rung passed `require()`, so the CPU has AVX2.
            Rung::Avx2 => unsafe { avx2::xor_keystream(state, counter, block, data) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: this rung passed `require()`, so the CPU has AVX-512F
            // and AVX-512VL.
            Rung::Avx512 => unsafe { avx512::xor_keystream(state, counter, block, data) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: this rung passed `require()`, so the CPU has AVX-512F
            // and AVX-512VL.
            Rung::Avx512vl => unsafe { avx512vl::xor_keystream(state, counter, block, data) },
            #[cfg(target_arch = "aarch64")]
            // SAFETY: this rung passed `require()`, so the CPU has NEON;
            // `into_raw`'s parts are what `xor_one_block` asks for, and the
            // data is at most a block.
            Rung::Neon if one_block => unsafe {
                neon::xor_one_block(state, counter, block, data.into_raw())
            },
            #[cfg(target_arch = "aarch64")]
            // SAFETY: this rung passed `require()`, so the CPU has NEON.
            Rung::Neon => unsafe { neon::xor_keystream(state, counter, block, data) },
            _ => self.xor_single_blocks(xor, state, (counter, block), data),
        }
    }

    /// [`Rung::xor_keystream`] on the single-block rungs: a block at a
    /// time, XORed with `xor`. Kept out of line, so that the vertical
    /// rungs' calls from the inlined dispatch need no stack frame.
    #[inline(never)]
    fn xor_single_blocks(
        self,
        xor: Xor,
        state: &[u32; 16],
        (counter, block): (Counter, u64),
        data: InOut<'_>,
    ) {
        let mut x = *state;
        counter.set(&mut x, block);
        for chunk in data.chunks(BLOCK_LEN) {
            xor.apply(chunk, &keystream_block(&self.permute(&x), &x));
            counter.add(&mut x, 1);
        }
    }
}

/// The keystream block of state `x`, whose 20 rounds gave `z`: the final
/// addition, serialised little-endian (RFC 8439 §2.3).
#[inline(always)]
fn keystream_block(z: &[u32; 16], x: &[u32; 16]) -> [u8; BLOCK_LEN] {
    let mut out = [0u8; BLOCK_LEN];
    for ((o, z), x) in out.chunks_exact_mut(4).zip(z).zip(x) {
        o.copy_from_slice(&z.wrapping_add(*x).to_le_bytes());
    }
    out
}

/// HChaCha20 (draft-irtf-cfrg-xchacha-03 §2.2): the ChaCha20 state of `key`
/// with the 16-byte `input` in words 12–15, 20 rounds, no final addition;
/// the output is words 0–3 and 12–15, little-endian. Runs in scalar code
/// on every rung (one block's chain of steps is shorter there than in
/// vector registers); temporaries are zeroized.
///
/// ```
/// use simdcrypt::chacha20::hchacha20;
///
/// // draft-irtf-cfrg-xchacha-03 §2.2.1.
/// let key: [u8; 32] = std::array::from_fn(|i| i as u8);
/// let input = [0, 0, 0, 0x09, 0, 0, 0, 0x4a, 0, 0, 0, 0, 0x31, 0x41, 0x59, 0x27];
/// let subkey = hchacha20(&key, &input);
/// let hex: String = subkey.iter().map(|b| format!("{b:02x}")).collect();
/// assert_eq!(hex, "82413b4227b27bfed30e42508a877d73a0f9e4d58a74a853c12ec41326d3ecdc");
/// ```
pub fn hchacha20(key: &[u8; KEY_LEN], input: &[u8; 16]) -> [u8; 32] {
    let mut x = hchacha20_state(key, input);
    let mut out = [0u8; 32];
    for (o, w) in out.chunks_exact_mut(4).zip(&x[KEY_WORDS]) {
        o.copy_from_slice(&w.to_le_bytes());
    }
    x[KEY_WORDS].zeroize();
    out
}

/// The state of `key` with `input` in words 12–15, after
/// [`hchacha20_into_key`]: the HChaCha20 output in the key words 4–11 (the
/// key itself overwritten), so XChaCha20's state but for words 12–15.
#[inline]
fn hchacha20_state(key: &[u8; KEY_LEN], input: &[u8; 16]) -> [u32; 16] {
    let (k, _) = key.as_chunks::<4>();
    let (n, _) = input.as_chunks::<4>();
    let mut x = initial_state(|i| u32::from_le_bytes(k[i]));
    for (w, n) in x[12..].iter_mut().zip(n) {
        *w = u32::from_le_bytes(*n);
    }
    hchacha20_into_key(&mut x);
    x
}

/// HChaCha20 in place: the 20 rounds of `x` (no final addition), whose
/// words 0–3 and 12–15 then replace the key words 4–11 of `x`. The other
/// words never leave the registers, and the key is overwritten, so nothing
/// is left to zeroize.
///
/// Scalar, in sixteen variables, on every rung: HChaCha20 is one block
/// whose output keys the next, a chain of dependent steps, and the scalar
/// step is the shorter (on Zen 5 a vector add, xor or rotate takes 2
/// cycles, the scalar one 1). XChaCha20 of 64 bytes on Zen 5: 212 ns with
/// the SIMD rungs' one-block form, 172 ns so (bench/NOTES.md, section
/// stream-short). Out of line: inlined into `XChaCha20::new`, a build for
/// a CPU with AVX-512 kept four of the words in an xmm register across
/// the loop (0.88 of the default build's speed; out of line 1.00).
#[inline(never)]
fn hchacha20_into_key(x: &mut [u32; 16]) {
    #[rustfmt::skip]
    let [
        mut x0, mut x1, mut x2, mut x3, mut x4, mut x5, mut x6, mut x7,
        mut x8, mut x9, mut x10, mut x11, mut x12, mut x13, mut x14, mut x15,
    ] = *x;
    let qr = reference::quarter_round;
    for _ in 0..DOUBLE_ROUNDS {
        (x0, x4, x8, x12) = qr(x0, x4, x8, x12);
        (x1, x5, x9, x13) = qr(x1, x5, x9, x13);
        (x2, x6, x10, x14) = qr(x2, x6, x10, x14);
        (x3, x7, x11, x15) = qr(x3, x7, x11, x15);
        (x0, x5, x10, x15) = qr(x0, x5, x10, x15);
        (x1, x6, x11, x12) = qr(x1, x6, x11, x12);
        (x2, x7, x8, x13) = qr(x2, x7, x8, x13);
        (x3, x4, x9, x14) = qr(x3, x4, x9, x14);
        // All sixteen words in general-purpose registers after every
        // double round, so that the rounds are not vectorised.
        in_registers([&mut x0, &mut x1, &mut x2, &mut x3]);
        in_registers([&mut x4, &mut x5, &mut x6, &mut x7]);
        in_registers([&mut x8, &mut x9, &mut x10, &mut x11]);
        in_registers([&mut x12, &mut x13, &mut x14, &mut x15]);
    }
    x[4..8].copy_from_slice(&[x0, x1, x2, x3]);
    x[8..12].copy_from_slice(&[x12, x13, x14, x15]);
}

/// The state of RFC 8439 §2.3 with the counter and nonce words zero:
/// constants, then key word `i` (0–7, little-endian) from `key_word(i)`.
#[inline]
fn initial_state(key_word: impl Fn(usize) -> u32) -> [u32; 16] {
    // One array expression: built in a scratch array and copied, the state
    // cost a one-shot call two stores and a reload more.
    std::array::from_fn(|i| match i {
        0..4 => reference::CONSTANTS[i],
        4..12 => key_word(i - 4),
        _ => 0,
    })
}

/// Where the key lies in the state (RFC 8439 §2.3): words 4–11, the only
/// secret words of a cipher's input state, so the ones zeroized on drop.
///
/// Zeroizing all 16 words took a one-shot 64-byte call (fresh cipher,
/// `apply_keystream`, drop) from ~228 to ~255 TSC ticks on Zen 3, in a
/// loop of such calls. One block is a single latency chain, and back-to-back
/// calls are fast only while the next call's instructions and stores fit in
/// the out-of-order window beside the tail of the current chain; eight more
/// stores were past that edge.
const KEY_WORDS: std::ops::Range<usize> = 4..12;

/// The keystream generator behind [`ChaCha`]: the input state with zero
/// counter, the rung, the XOR form. `N` is the nonce length, which fixes
/// the form: 12 bytes, RFC 8439 with a 32-bit counter; 8 (or 24, XChaCha20
/// after its subkey), the original with a 64-bit counter.
struct Core<const N: usize> {
    state: [u32; 16],
    imp: Rung,
    xor: Xor,
}

impl<const N: usize> Core<N> {
    /// Where the block counter lives: word 12, and word 13 too unless RFC 8439.
    const COUNTER: Counter = Counter {
        word: 12,
        wide: N != NONCE_LEN,
    };

    fn at(&self, counter: u64) -> [u32; 16] {
        let mut x = self.state;
        Self::COUNTER.set(&mut x, counter);
        x
    }
}

impl<const N: usize> BlockKeystream for Core<N> {
    const PRIMITIVE: &'static str = match N {
        NONCE_LEN => "chacha20",
        LEGACY_NONCE_LEN => "chacha20-legacy",
        _ => "xchacha20",
    };
    const BLOCK_LEN: usize = BLOCK_LEN;
    const LAST_BLOCK: u128 = if N == NONCE_LEN {
        u32::MAX as u128
    } else {
        u64::MAX as u128
    };

    // The counters below fit a u64: the position never passes LAST_BLOCK.
    #[inline]
    fn xor_blocks(&self, counter: u128, data: InOut<'_>) {
        self.imp
            .xor_keystream(self.xor, &self.state, Self::COUNTER, counter as u64, data);
    }

    fn xor_partial_block(&self, counter: u128, offset: usize, data: InOut<'_>) {
        let x = self.at(counter as u64);
        let ks = keystream_block(&self.imp.permute(&x), &x);
        self.xor.apply(data, &ks[offset..]);
    }
}

impl<const N: usize> Drop for Core<N> {
    /// Zeroizes the key words (4–11). The constants, the nonce and the
    /// counter are public; leaving them halves the stores, which a one-shot
    /// 64-byte call pays for (see [`KEY_WORDS`]).
    fn drop(&mut self) {
        self.state[KEY_WORDS].zeroize();
    }
}

/// A ChaCha20 cipher whose nonce is `N` bytes long, which fixes its form;
/// use the aliases [`ChaCha20`] (RFC 8439), [`ChaCha20Legacy`] and
/// [`XChaCha20`].
///
/// A request that would run past the last block of the keystream is refused
/// with [`Error::KeystreamExhausted`], never wrapped into reused keystream.
/// The key is zeroized on drop. A [`KeyStream`](crate::KeyStream), whose
/// methods it also has as its own.
pub struct ChaCha<const N: usize> {
    core: Core<N>,
    position: Position,
}

/// ChaCha20 of RFC 8439 §2.4: a 256-bit key, a 96-bit nonce (words 13–15)
/// and a 32-bit block counter (word 12), so 2^32 blocks (256 GiB) of
/// keystream.
///
/// Unauthenticated: to encrypt a message, use
/// [`ChaCha20Poly1305`](crate::aead::ChaCha20Poly1305).
///
/// ```
/// use simdcrypt::chacha20::ChaCha20;
///
/// // RFC 8439 §2.4.2: the key 00 01 … 1f, block counter 1 (byte 64).
/// let key: [u8; 32] = std::array::from_fn(|i| i as u8);
/// let nonce = [0, 0, 0, 0, 0, 0, 0, 0x4a, 0, 0, 0, 0];
/// let mut text = *b"Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it.";
/// let mut cipher = ChaCha20::new(&key, &nonce);
/// cipher.seek(64)?;
/// cipher.apply_keystream(&mut text)?;
/// let hex: String = text[..16].iter().map(|b| format!("{b:02x}")).collect();
/// assert_eq!(hex, "6e2e359a2568f98041ba0728dd0d6981");
/// assert_eq!(cipher.position(), 64 + 114);
///
/// // 2^32 blocks, and not one more.
/// assert_eq!(cipher.keystream_len(), 64 << 32);
/// assert!(cipher.seek(64 << 32).is_ok());
/// assert!(cipher.apply_keystream(&mut [0]).is_err());
/// # Ok::<(), simdcrypt::Error>(())
/// ```
pub type ChaCha20 = ChaCha<NONCE_LEN>;

/// The original ChaCha20: a 64-bit block counter (words 12–13) and a 64-bit
/// nonce (words 14–15), so 2^64 blocks of keystream.
///
/// ```
/// use simdcrypt::chacha20::{ChaCha20, ChaCha20Legacy};
///
/// // Below 2^32 blocks, the two forms differ only in where the nonce goes:
/// // the original's 64-bit nonce is RFC 8439's last two nonce words.
/// let mut legacy = [0u8; 128];
/// ChaCha20Legacy::new(&[7; 32], &[1; 8]).apply_keystream(&mut legacy)?;
/// let mut ietf = [0u8; 128];
/// ChaCha20::new(&[7; 32], &[0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1]).apply_keystream(&mut ietf)?;
/// assert_eq!(legacy, ietf);
/// # Ok::<(), simdcrypt::Error>(())
/// ```
pub type ChaCha20Legacy = ChaCha<LEGACY_NONCE_LEN>;

/// XChaCha20 (libsodium's `crypto_stream_xchacha20`): the original ChaCha20
/// keyed with `hchacha20(key, nonce[0..16])`, nonce `nonce[16..24]`, 64-bit
/// counter. For every length draft-irtf-cfrg-xchacha-03 allows (2^32
/// blocks) its keystream is the draft's, whose word 13 is zero.
///
/// Unauthenticated: to encrypt a message, use
/// [`XChaCha20Poly1305`](crate::aead::XChaCha20Poly1305).
///
/// ```
/// use simdcrypt::chacha20::XChaCha20;
///
/// // draft-irtf-cfrg-xchacha-03 A.3.2: the key 80 81 … 9f, the nonce
/// // 40 41 … 56 58.
/// let key: [u8; 32] = std::array::from_fn(|i| 0x80 + i as u8);
/// let mut nonce: [u8; 24] = std::array::from_fn(|i| 0x40 + i as u8);
/// nonce[23] = 0x58;
/// let mut text = *b"The dhole (pronounced \"dole\") is also known as the Asiatic wild dog";
/// XChaCha20::new(&key, &nonce).apply_keystream(&mut text)?;
/// let hex: String = text[..16].iter().map(|b| format!("{b:02x}")).collect();
/// assert_eq!(hex, "4559abba4e48c16102e8bb2c05e6947f");
/// # Ok::<(), simdcrypt::Error>(())
/// ```
pub type XChaCha20 = ChaCha<XNONCE_LEN>;

impl ChaCha20 {
    /// A cipher at byte 0 of the keystream (block counter 0), on the
    /// fastest rung.
    #[inline]
    pub fn new(key: &[u8; KEY_LEN], nonce: &[u8; NONCE_LEN]) -> Self {
        let [a, b, c, d, rest @ ..] = *nonce;
        Self::from_key(key, u32::from_le_bytes([a, b, c, d]), &rest)
    }
}

impl ChaCha20Legacy {
    /// A cipher at byte 0 of the keystream (block counter 0), on the
    /// fastest rung.
    pub fn new(key: &[u8; KEY_LEN], nonce: &[u8; LEGACY_NONCE_LEN]) -> Self {
        Self::from_key(key, 0, nonce)
    }
}

impl XChaCha20 {
    /// A cipher at byte 0 of the keystream, on the fastest rung: the
    /// subkey `hchacha20(key, nonce[0..16])` and the nonce `nonce[16..24]`
    /// (draft-irtf-cfrg-xchacha-03 §2.3); the subkey is zeroized.
    #[inline]
    pub fn new(key: &[u8; KEY_LEN], nonce: &[u8; XNONCE_LEN]) -> Self {
        Self::from_extended_nonce(key, nonce)
    }
}

impl ChaCha20 {
    /// XChaCha20 as the AEAD of draft-irtf-cfrg-xchacha-03 §2.3 runs it:
    /// RFC 8439's ChaCha20 (32-bit counter) keyed with
    /// `hchacha20(key, nonce[0..16])` and the nonce
    /// `0x00000000 ‖ nonce[16..24]`.
    #[inline]
    pub(crate) fn with_extended_nonce(key: &[u8; KEY_LEN], nonce: &[u8; XNONCE_LEN]) -> Self {
        Self::from_extended_nonce(key, nonce)
    }
}

impl<const N: usize> ChaCha<N> {
    /// The state of `key` with `word13` in word 13 (the RFC 8439 nonce's
    /// first word; 0, the counter's high half, otherwise) and the last 8
    /// nonce bytes in words 14–15, counter zero, on the fastest rung.
    #[inline]
    fn from_key(key: &[u8; KEY_LEN], word13: u32, words14_15: &[u8; 8]) -> Self {
        // The rung first: asked after the state is built, its (rarely
        // taken) call would make the compiler keep the state in a
        // temporary across it, and copy it to its place afterwards.
        let imp = Rung::best();
        let (k, _) = key.as_chunks::<4>();
        let state = initial_state(|i| u32::from_le_bytes(k[i]));
        Self::with_state_on(imp, state, word13, words14_15)
    }

    /// The HChaCha20 subkey of `key` and `nonce[0..16]`, word 13 zero, and
    /// `nonce[16..24]` in words 14–15: XChaCha20's state in either counter
    /// form. The subkey is computed where the state keeps it: no copy of
    /// it is left anywhere else to zeroize.
    #[inline]
    fn from_extended_nonce(key: &[u8; KEY_LEN], nonce: &[u8; XNONCE_LEN]) -> Self {
        let head: [u8; 16] = std::array::from_fn(|i| nonce[i]);
        let tail: [u8; 8] = std::array::from_fn(|i| nonce[16 + i]);
        let mut state = hchacha20_state(key, &head);
        state[12] = 0;
        Self::with_state(state, 0, &tail)
    }

    /// [`ChaCha::from_key`] with the constants and key words of `state`
    /// (words 4–11 zeroized on drop), on the fastest rung.
    #[inline]
    fn with_state(state: [u32; 16], word13: u32, words14_15: &[u8; 8]) -> Self {
        Self::with_state_on(Rung::best(), state, word13, words14_15)
    }

    /// The cipher on rung `imp` with words 0–12 of `state`, then `word13`
    /// and `words14_15`.
    ///
    /// Words 14–15 are written as one 64-bit value: the horizontal forms
    /// read them with one 8-byte load, and a load that spans two stores is
    /// not forwarded from them but waits for them to retire (about 15 TSC
    /// ticks more per one-shot 64-byte call on Zen 3).
    #[inline]
    fn with_state_on(imp: Rung, mut state: [u32; 16], word13: u32, words14_15: &[u8; 8]) -> Self {
        let last = u64::from_le_bytes(*words14_15);
        state[13] = word13;
        state[14] = last as u32;
        state[15] = (last >> 32) as u32;
        ChaCha {
            core: Core {
                state,
                imp,
                xor: Xor::default(),
            },
            position: Position::default(),
        }
    }
}

stream_cipher!([const N: usize] ChaCha<N>, impl = Rung, core = Core<N>);

impl<const N: usize> fmt::Debug for ChaCha<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match N {
            NONCE_LEN => "ChaCha20",
            LEGACY_NONCE_LEN => "ChaCha20Legacy",
            _ => "XChaCha20",
        };
        f.debug_struct(name)
            .field("impl", &self.core.imp)
            .field("xor", &self.core.xor)
            .field("position", &self.position.get())
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Block `block` onwards of `state` from the reference rounds, the
    /// counter stepped as `counter` says, XORed into `data`.
    fn reference_xor(state: &[u32; 16], counter: Counter, block: u64, data: &mut [u8]) {
        for (i, chunk) in data.chunks_mut(BLOCK_LEN).enumerate() {
            let mut x = *state;
            counter.set(&mut x, block + i as u64);
            let ks = keystream_block(&reference::double_rounds(&x, DOUBLE_ROUNDS), &x);
            InOut::in_place(chunk).xor_bytewise(&ks);
        }
    }

    /// Every length 0..=2100 (every path of the 16/8/4/1–3 cascade and
    /// every partial last block) on every rung this CPU runs, with the wide
    /// counter across the 2^32 carry and at the end of 2^64, and the narrow
    /// one up to the end of its 2^32 blocks, where it must not carry into
    /// the nonce in word 13.
    #[test]
    fn every_rung_matches_reference_at_the_counter_edges() {
        const MAX: usize = 2100;
        const BLOCKS: u64 = MAX.div_ceil(BLOCK_LEN) as u64;
        let pattern: Vec<u8> = (0..MAX).map(|i| (i * 151 + 7) as u8).collect();
        let mut state: [u32; 16] =
            std::array::from_fn(|i| (i as u32 + 1).wrapping_mul(0x9e37_79b9));
        let wide = Counter {
            word: 12,
            wide: true,
        };
        let narrow = Counter {
            word: 12,
            wide: false,
        };
        // Counter words set to garbage: the rungs must ignore them.
        state[12] = 0xdead_beef;
        let cases = [
            (wide, 0),
            (wide, (1 << 32) - 1),
            (wide, (1 << 32) - 9),
            (wide, (1 << 32) - 17),
            (wide, u64::MAX - BLOCKS),
            (narrow, 0),
            (narrow, (1 << 32) - BLOCKS),
            (narrow, (1 << 32) - 20),
        ];
        for imp in Rung::available() {
            for (counter, block) in cases {
                let mut expected = pattern.clone();
                reference_xor(&state, counter, block, &mut expected);
                let input = [&[0u8][..], &pattern].concat();
                for len in 0..=MAX {
                    if !counter.wide && block + (len as u64).div_ceil(64) > 1 << 32 {
                        continue;
                    }
                    let mut data = pattern[..len].to_vec();
                    imp.xor_keystream(
                        Xor::Bytewise,
                        &state,
                        counter,
                        block,
                        InOut::in_place(&mut data),
                    );
                    assert!(
                        data == expected[..len],
                        "{imp}: {counter:?}, block {block:#x}, {len} bytes"
                    );
                    // Out of place, from and to odd addresses.
                    let mut out = vec![0u8; len + 3];
                    let io = InOut::apart(&input[1..=len], &mut out[3..]).unwrap();
                    imp.xor_keystream(Xor::Bytewise, &state, counter, block, io);
                    assert!(
                        out[3..] == expected[..len] && out[..3] == [0; 3],
                        "{imp} out of place: {counter:?}, block {block:#x}, {len} bytes"
                    );
                }
            }
        }
        eprintln!(
            "rungs exercised: {}",
            Rung::available()
                .map(Rung::name)
                .collect::<Vec<_>>()
                .join(", ")
        );
    }

    /// HChaCha20 is the reference reading.
    #[test]
    fn hchacha20_matches_reference() {
        let key = [0x42; 32];
        let input: [u8; 16] = std::array::from_fn(|i| i as u8 * 17);
        let expected = reference::hchacha20(&key, &input);
        assert_eq!(hchacha20(&key, &input), expected);
        let x: [u32; 16] = std::array::from_fn(|i| (i as u32 + 3).wrapping_mul(0x6a09_e667));
        let z = reference::double_rounds(&x, DOUBLE_ROUNDS);
        let mut y = x;
        hchacha20_into_key(&mut y);
        assert_eq!(y[..4], x[..4]);
        assert_eq!(y[4..8], z[..4]);
        assert_eq!(y[8..12], z[12..]);
        assert_eq!(y[12..], x[12..]);
    }
}
