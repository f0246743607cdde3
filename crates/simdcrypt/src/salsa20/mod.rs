//! Salsa20 (D. J. Bernstein, "Salsa20 specification", 2005) with its reduced
//! variants Salsa20/12 and Salsa20/8, HSalsa20 and XSalsa20 ("Extending the
//! Salsa20 nonce", 2008), as a ladder of implementations.
//!
//! | rung | CPU | technique |
//! |---|---|---|
//! | `reference` | any | the specification: 4×4 matrix, column round, transpose |
//! | `sse2-transpose` | SSE2 | column quarter-rounds in SIMD, state written back and transposed each round |
//! | `no-transpose` | any | scalar, column round then row round on 16 variables |
//! | `sse2-shuffle` | SSE2 | diagonals in 4 registers across all rounds, `pshufd` between rounds |
//! | `avx2` | AVX2 | 8 blocks at once, vertical, transposed on output |
//! | `avx512` | AVX-512F/VL | 16 blocks at once, vertical, `vprold` rotates |
//! | `neon` | NEON (aarch64) | 4 blocks at once, vertical, `shl`+`sri` rotates, transposed on output |
//!
//! ```
//! use simdcrypt::salsa20::Salsa20;
//!
//! let mut data = *b"attack at dawn";
//! Salsa20::new(&[7; 32], &[1; 8]).apply_keystream(&mut data)?;
//! Salsa20::new(&[7; 32], &[1; 8]).apply_keystream(&mut data)?;
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
pub(crate) mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
pub(crate) mod diagonal;
#[cfg(target_arch = "aarch64")]
mod neon;
pub(crate) mod no_transpose;
#[cfg(target_arch = "x86_64")]
pub(crate) mod sse2_shuffle;
#[cfg(target_arch = "x86_64")]
mod sse2_transpose;
mod vertical;

use std::fmt;
use std::sync::OnceLock;

use zeroize::Zeroize;

use crate::rung::rungs;
use crate::stream::{BlockKeystream, Position, stream_cipher};
use crate::xor::InOut;
use crate::{Error, Xor};
use vertical::COUNTER;

/// One quarterround (spec §3) on four SIMD registers, lane by lane, in place:
/// `y1 ^= (y0+y3)<<<7`, `y2 ^= (y1+y0)<<<9`, `y3 ^= (y2+y1)<<<13`,
/// `y0 ^= (y3+y2)<<<18`. `$rotl!(x, n)` rotates each 32-bit lane of `x` left
/// by the literal `n`. Shared by every SIMD rung, horizontal and vertical.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
macro_rules! quarterround {
    ($add:path, $xor:path, $rotl:ident; $y0:ident, $y1:ident, $y2:ident, $y3:ident) => {
        $y1 = $xor($y1, $rotl!($add($y0, $y3), 7));
        $y2 = $xor($y2, $rotl!($add($y1, $y0), 9));
        $y3 = $xor($y3, $rotl!($add($y2, $y1), 13));
        $y0 = $xor($y0, $rotl!($add($y3, $y2), 18));
    };
}
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
pub(crate) use quarterround;

/// Key length of Salsa20's 256-bit form, in bytes.
pub const KEY_LEN: usize = 32;
/// Key length of Salsa20's 128-bit form, in bytes.
pub const KEY_LEN_128: usize = 16;
/// Nonce length of Salsa20, in bytes (spec §10: the 8-byte `v`).
pub const NONCE_LEN: usize = 8;
/// Nonce length of XSalsa20, in bytes.
pub const XNONCE_LEN: usize = 24;
/// Keystream block length, in bytes.
pub const BLOCK_LEN: usize = crate::stream::BLOCK_LEN;

rungs! {
    primitive = "salsa20";
    /// The implementations of the Salsa20 core, slowest first.
    pub enum Rung {
        /// The specification literally: 4×4 matrix, column round, transpose.
        Reference = "reference", needs "nothing", if |_f| true, arch = any;
        /// SSE2 column quarter-rounds; the state is written back and transposed each round.
        Sse2Transpose = "sse2-transpose", needs "SSE2", if |f| f.sse2, arch = "x86_64";
        /// Scalar column round then row round on 16 variables.
        NoTranspose = "no-transpose", needs "nothing", if |_f| true, arch = any;
        /// SSE2 diagonals kept across rounds with `pshufd`.
        Sse2Shuffle = "sse2-shuffle", needs "SSE2", if |f| f.sse2, arch = "x86_64";
        /// AVX2, 8 blocks vertical.
        Avx2 = "avx2", needs "AVX2", if |f| f.avx2, arch = "x86_64";
        /// AVX-512, 16 blocks vertical.
        Avx512 = "avx512", needs "AVX-512F and AVX-512VL", if |f| f.avx512f && f.avx512vl, arch = "x86_64";
        /// NEON, 4 blocks vertical.
        Neon = "neon", needs "NEON", if |f| f.neon, arch = "aarch64";
    }
}

impl Rung {
    /// The fastest rung this CPU runs: the widest vertical rung, which
    /// itself hands short tails down to narrower code; without AVX2 (or
    /// NEON on aarch64), the fastest single-block rung, by measurement
    /// [`Rung::NoTranspose`] (see `SINGLE_BLOCK`).
    ///
    /// Chosen once and cached: every cipher asks, and a 64-byte message
    /// should not pay for the feature checks.
    #[inline]
    pub fn best() -> Rung {
        static BEST: OnceLock<Rung> = OnceLock::new();
        *BEST.get_or_init(|| {
            [Rung::Avx512, Rung::Avx2, Rung::Neon]
                .into_iter()
                .find(|i| i.is_available())
                .unwrap_or(SINGLE_BLOCK)
        })
    }

    /// How many 64-byte blocks the rung computes at once.
    pub fn par_blocks(self) -> usize {
        match self {
            Rung::Neon => 4,
            Rung::Avx2 => 8,
            Rung::Avx512 => 16,
            _ => 1,
        }
    }

    /// The Salsa20 hash (spec §8) of one block on this rung; the vertical
    /// rungs compute single blocks on [`Rung::NoTranspose`], the fastest
    /// single-block rung.
    ///
    /// # Errors
    ///
    /// [`Error::RungUnavailable`] when the CPU lacks the rung.
    pub fn core(self, input: &[u32; 16], double_rounds: usize) -> Result<[u32; 16], Error> {
        let imp = self.require()?;
        Ok(feedforward(&imp.permute(input, double_rounds), input))
    }

    /// `double_rounds` double-rounds of one block, no final addition.
    /// Only called with rungs that passed [`Rung::require`].
    fn permute(self, x: &[u32; 16], double_rounds: usize) -> [u32; 16] {
        match self {
            Rung::Reference => reference::double_rounds(x, double_rounds),
            Rung::NoTranspose => no_transpose::double_rounds(x, double_rounds),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: SSE2 is part of the x86-64 baseline.
            Rung::Sse2Transpose => unsafe { sse2_transpose::double_rounds(x, double_rounds) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: SSE2 is part of the x86-64 baseline.
            Rung::Sse2Shuffle => unsafe { sse2_shuffle::double_rounds(x, double_rounds) },
            // The vertical rungs compute single blocks on the fastest
            // single-block rung.
            Rung::Avx2 | Rung::Avx512 | Rung::Neon => SINGLE_BLOCK.permute(x, double_rounds),
            #[cfg(not(target_arch = "x86_64"))]
            Rung::Sse2Transpose | Rung::Sse2Shuffle => {
                unreachable!("no x86-64 rung is available here")
            }
        }
    }

    /// XORs keystream from the block whose state is `input` into `data`.
    /// Only called with rungs that passed [`Rung::require`].
    fn xor_keystream(self, xor: Xor, input: &[u32; 16], double_rounds: usize, data: InOut<'_>) {
        match self {
            Rung::Reference => xor_blocks(
                |x| reference::double_rounds(x, double_rounds),
                xor,
                input,
                data,
            ),
            Rung::NoTranspose => xor_blocks(
                |x| no_transpose::double_rounds(x, double_rounds),
                xor,
                input,
                data,
            ),
            #[cfg(target_arch = "x86_64")]
            Rung::Sse2Transpose => xor_blocks(
                // SAFETY: SSE2 is part of the x86-64 baseline.
                |x| unsafe { sse2_transpose::double_rounds(x, double_rounds) },
                xor,
                input,
                data,
            ),
            #[cfg(target_arch = "x86_64")]
            Rung::Sse2Shuffle => xor_blocks(
                // SAFETY: SSE2 is part of the x86-64 baseline.
                |x| unsafe { sse2_shuffle::double_rounds(x, double_rounds) },
                xor,
                input,
                data,
            ),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: this rung passed `require()`, so the CPU has AVX2.
            Rung::Avx2 => unsafe { avx2::xor_keystream(input, double_rounds, data) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: this rung passed `require()`, so the CPU has AVX-512F and AVX-512VL.
            Rung::Avx512 => unsafe { avx512::xor_keystream(input, double_rounds, data) },
            #[cfg(target_arch = "aarch64")]
            // SAFETY: this rung passed `require()`, so the CPU has NEON.
            Rung::Neon => unsafe { neon::xor_keystream(input, double_rounds, data) },
            #[cfg(not(target_arch = "x86_64"))]
            Rung::Sse2Transpose | Rung::Sse2Shuffle | Rung::Avx2 | Rung::Avx512 => {
                unreachable!("no x86-64 rung is available here")
            }
            #[cfg(not(target_arch = "aarch64"))]
            Rung::Neon => unreachable!("no aarch64 rung is available here"),
        }
    }
}

/// The final addition of the Salsa20 hash (spec §8): `z_i + x_i`.
#[inline(always)]
fn feedforward(z: &[u32; 16], x: &[u32; 16]) -> [u32; 16] {
    std::array::from_fn(|i| z[i].wrapping_add(x[i]))
}

/// The keystream block of state `x`, whose permutation is `z`: the final
/// addition, serialised little-endian (spec §7).
#[inline(always)]
fn keystream_block(z: &[u32; 16], x: &[u32; 16]) -> [u8; BLOCK_LEN] {
    let mut out = [0u8; BLOCK_LEN];
    for (o, w) in out.chunks_exact_mut(4).zip(feedforward(z, x)) {
        o.copy_from_slice(&w.to_le_bytes());
    }
    out
}

/// Keystream XOR for the single-block rungs: block after block through
/// `permute`, XORed into `data` with `xor`.
#[inline(always)]
fn xor_blocks(
    permute: impl Fn(&[u32; 16]) -> [u32; 16],
    xor: Xor,
    input: &[u32; 16],
    data: InOut<'_>,
) {
    let mut x = *input;
    for chunk in data.chunks(BLOCK_LEN) {
        let ks = keystream_block(&permute(&x), &x);
        xor.apply(chunk, &ks);
        COUNTER.add(&mut x, 1);
    }
}

/// One block or less (every short message) on a vertical rung: the block
/// whose state is `input` in scalar code (the quarter-rounds side by
/// side), a whole block XORed into `data` word by word from registers, a
/// partial one through [`Xor::Simd128`]. Its own function, so that it
/// pays for none of the batches' length checks nor the tail's loop, with
/// the number of double-rounds a constant (bench/NOTES.md, stream-short).
#[inline(never)]
fn xor_one_block<const DOUBLE_ROUNDS: usize>(input: &[u32; 16], data: InOut<'_>) {
    let z = no_transpose::double_rounds(input, DOUBLE_ROUNDS);
    if data.len() == BLOCK_LEN {
        data.xor_le_words(&feedforward(&z, input));
    } else {
        Xor::Simd128.apply(data, &keystream_block(&z, input));
    }
}

/// The tail of the vertical rungs, up to 3 blocks at a time (the last may be
/// partial): one block on the fastest single-block rung, 2 or 3 as
/// interleaved SSE2 states, so that no block is computed that nobody uses
/// and the latency of one block's chain hides that of the others.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
fn xor_tail(input: &[u32; 16], double_rounds: usize, data: InOut<'_>) {
    let mut x = *input;
    for chunk in data.chunks(3 * BLOCK_LEN) {
        match chunk.len().div_ceil(BLOCK_LEN) {
            1 => xor_blocks(
                |x| SINGLE_BLOCK.permute(x, double_rounds),
                Xor::Simd128,
                &x,
                chunk,
            ),
            2 => xor_interleaved::<2>(&x, double_rounds, chunk),
            _ => xor_interleaved::<3>(&x, double_rounds, chunk),
        }
        COUNTER.add(&mut x, 3);
    }
}

/// `N` blocks from the one whose state is `input`, as `N` interleaved SSE2
/// states; `data` spans `N` blocks, the last maybe partly.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
fn xor_interleaved<const N: usize>(input: &[u32; 16], double_rounds: usize, data: InOut<'_>) {
    let states: [[u32; 16]; N] = std::array::from_fn(|i| COUNTER.plus(input, i as u64));
    let permuted = sse2_shuffle::double_rounds_interleaved(&states, double_rounds);
    for (chunk, (z, x)) in data.chunks(BLOCK_LEN).zip(permuted.iter().zip(&states)) {
        Xor::Simd128.apply(chunk, &keystream_block(z, x));
    }
}

/// The Salsa20 hash function (spec §8) on a state of 16 words, with
/// `double_rounds` double-rounds (10 for Salsa20/20), on the fastest
/// single-block rung: `x + doubleround^n(x)`.
pub fn core(input: &[u32; 16], double_rounds: usize) -> [u32; 16] {
    feedforward(&SINGLE_BLOCK.permute(input, double_rounds), input)
}

/// HSalsa20 ("Extending the Salsa20 nonce" §2): the Salsa20/20 state of
/// `key` and the 16-byte `input` (in the nonce-and-counter words), 20 rounds,
/// no final addition; the output is words 0, 5, 10, 15, 6, 7, 8, 9.
///
/// ```
/// use simdcrypt::salsa20::hsalsa20;
///
/// // NaCl's core1 test: crypto_box's key from its X25519 shared secret.
/// let shared = [
///     0x4a, 0x5d, 0x9d, 0x5b, 0xa4, 0xce, 0x2d, 0xe1, 0x72, 0x8e, 0x3b, 0xf4, 0x80, 0x35, 0x0f, 0x25,
///     0xe0, 0x7e, 0x21, 0xc9, 0x47, 0xd1, 0x9e, 0x33, 0x76, 0xf0, 0x9b, 0x3c, 0x1e, 0x16, 0x17, 0x42,
/// ];
/// let key = hsalsa20(&shared, &[0; 16]);
/// let hex: String = key.iter().map(|b| format!("{b:02x}")).collect();
/// assert_eq!(hex, "1b27556473e985d462cd51197a9a46c76009549eac6474f206c4ee0844f68389");
/// ```
pub fn hsalsa20(key: &[u8; KEY_LEN], input: &[u8; 16]) -> [u8; 32] {
    let mut z = hsalsa20_words(key, input);
    let mut out = [0u8; 32];
    for (o, w) in out.chunks_exact_mut(4).zip(&z) {
        o.copy_from_slice(&w.to_le_bytes());
    }
    z.zeroize();
    out
}

/// [`hsalsa20`]'s output as the eight words it is, for XSalsa20's key
/// words without a round trip through bytes.
fn hsalsa20_words(key: &[u8; KEY_LEN], input: &[u8; 16]) -> [u32; 8] {
    let (k0, k1) = halves(key);
    let mut x = initial_state(k0, reference::SIGMA, k1);
    for (i, w) in input.chunks_exact(4).enumerate() {
        x[6 + i] = u32::from_le_bytes([w[0], w[1], w[2], w[3]]);
    }
    let mut z = no_transpose::double_rounds_in_turn::<10>(&x);
    let out = [z[0], z[5], z[10], z[15], z[6], z[7], z[8], z[9]];
    x.zeroize();
    z.zeroize();
    out
}

/// The fastest rung for one block at a time, by measurement: a block's 80
/// quarter-round steps form one dependent chain, and the scalar step (add,
/// `rol`, xor: 3 cycles) is shorter than the SSE2 one (add, two shifts and an
/// or, xor: 4 cycles). On an AMD EPYC (Zen 3) `no-transpose` takes 315 TSC
/// ticks per block, `sse2-shuffle` 369 (`simdcrypt bench`, README).
const SINGLE_BLOCK: Rung = Rung::NoTranspose;

/// The input state of spec §9/§10 with the nonce and counter words zero:
/// constants on the diagonal, `k0` in words 1–4, `k1` in words 11–14.
fn initial_state(k0: &[u8; 16], constants: [[u8; 4]; 4], k1: &[u8; 16]) -> [u32; 16] {
    let words = |k: &[u8; 16]| -> [u32; 4] { std::array::from_fn(|i| u32::from_le_bytes(k.as_chunks::<4>().0[i])) };
    state_of_words(words(k0), constants, words(k1))
}

/// [`initial_state`] of the key's words `k0` and `k1`.
fn state_of_words(k0: [u32; 4], constants: [[u8; 4]; 4], k1: [u32; 4]) -> [u32; 16] {
    let c = constants.map(u32::from_le_bytes);
    #[rustfmt::skip]
    let x = [
        c[0],  k0[0], k0[1], k0[2],
        k0[3], c[1],  0,     0,
        0,     0,     c[2],  k1[0],
        k1[1], k1[2], k1[3], c[3],
    ];
    x
}

/// The two 16-byte halves `k0‖k1` of a 256-bit key (spec §9).
fn halves(key: &[u8; KEY_LEN]) -> (&[u8; 16], &[u8; 16]) {
    let (halves, _) = key.as_chunks::<16>();
    (&halves[0], &halves[1])
}

/// The keystream generator behind [`Salsa`]: the input state with zero
/// counter, the rung, and the XOR form.
struct Core<const DOUBLE_ROUNDS: usize> {
    state: [u32; 16],
    imp: Rung,
    xor: Xor,
}

impl<const DOUBLE_ROUNDS: usize> Core<DOUBLE_ROUNDS> {
    fn at(&self, counter: u64) -> [u32; 16] {
        let mut x = self.state;
        COUNTER.set(&mut x, counter);
        x
    }
}

impl<const DOUBLE_ROUNDS: usize> BlockKeystream for Core<DOUBLE_ROUNDS> {
    const PRIMITIVE: &'static str = "salsa20";
    const BLOCK_LEN: usize = BLOCK_LEN;
    const LAST_BLOCK: u128 = u64::MAX as u128;

    // The counters below fit a u64: the position never passes LAST_BLOCK.
    fn xor_blocks(&self, counter: u128, data: InOut<'_>) {
        let x = self.at(counter as u64);
        if data.len() <= BLOCK_LEN && self.imp.par_blocks() > 1 {
            xor_one_block::<DOUBLE_ROUNDS>(&x, data);
        } else {
            self.imp.xor_keystream(self.xor, &x, DOUBLE_ROUNDS, data);
        }
    }

    fn xor_partial_block(&self, counter: u128, offset: usize, data: InOut<'_>) {
        let x = self.at(counter as u64);
        let ks = keystream_block(&self.imp.permute(&x, DOUBLE_ROUNDS), &x);
        self.xor.apply(data, &ks[offset..]);
    }
}

impl<const DOUBLE_ROUNDS: usize> Drop for Core<DOUBLE_ROUNDS> {
    fn drop(&mut self) {
        self.state.zeroize();
    }
}

/// Salsa20 with `DOUBLE_ROUNDS` double-rounds: a 256- or 128-bit key, a
/// 64-bit nonce and a 64-bit block counter (spec §10). Use the aliases
/// [`Salsa20`], [`Salsa20_12`] and [`Salsa20_8`].
///
/// The keystream is 2^64 blocks of 64 bytes; a request that would run past
/// the last block is refused with [`Error::KeystreamExhausted`], never
/// wrapped. The key is zeroized on drop. A [`KeyStream`](crate::KeyStream),
/// whose methods it also has as its own.
///
/// ```
/// use simdcrypt::salsa20::{Rung, Salsa20};
///
/// // eSTREAM's Salsa20/20 set 1, vector 0: a 128-bit key, the keystream
/// // (the encryption of zeros) at byte 0 and at byte 192.
/// let mut key = [0u8; 16];
/// key[0] = 0x80;
/// let mut cipher = Salsa20::new_128(&key, &[0; 8]);
/// let mut keystream = [0u8; 16];
/// cipher.apply_keystream(&mut keystream)?;
/// let hex: String = keystream.iter().map(|b| format!("{b:02x}")).collect();
/// assert_eq!(hex, "4dfa5e481da23ea09a31022050859936");
/// let mut at_192 = [0u8; 16];
/// cipher.seek(192)?;
/// cipher.apply_keystream(&mut at_192)?;
/// let hex: String = at_192.iter().map(|b| format!("{b:02x}")).collect();
/// assert_eq!(hex, "da9c1581f429e0a00f7d67e23b730676");
///
/// // The same from an input into an output, on the specification's rung.
/// let mut out = [0u8; 16];
/// let mut reference = Salsa20::new_128(&key, &[0; 8]).with_rung(Rung::Reference)?;
/// reference.seek(192)?;
/// reference.xor_into(&[0; 16], &mut out)?;
/// assert_eq!(out, at_192);
/// # Ok::<(), simdcrypt::Error>(())
/// ```
pub struct Salsa<const DOUBLE_ROUNDS: usize> {
    core: Core<DOUBLE_ROUNDS>,
    position: Position,
}

/// Salsa20/20, the cipher of the specification.
pub type Salsa20 = Salsa<10>;
/// Salsa20/12, the eSTREAM profile 1 cipher.
pub type Salsa20_12 = Salsa<6>;
/// Salsa20/8, the core of scrypt's BlockMix.
pub type Salsa20_8 = Salsa<4>;

impl<const DOUBLE_ROUNDS: usize> Salsa<DOUBLE_ROUNDS> {
    /// A cipher with a 256-bit key ("expand 32-byte k"), at byte 0 of the
    /// keystream, on the fastest rung.
    pub fn new(key: &[u8; KEY_LEN], nonce: &[u8; NONCE_LEN]) -> Self {
        let (k0, k1) = halves(key);
        Self::from_state(initial_state(k0, reference::SIGMA, k1), nonce)
    }

    /// A cipher with a 128-bit key ("expand 16-byte k"), at byte 0 of the
    /// keystream, on the fastest rung.
    pub fn new_128(key: &[u8; KEY_LEN_128], nonce: &[u8; NONCE_LEN]) -> Self {
        Self::from_state(initial_state(key, reference::TAU, key), nonce)
    }

    fn from_state(mut state: [u32; 16], nonce: &[u8; NONCE_LEN]) -> Self {
        state[6] = u32::from_le_bytes([nonce[0], nonce[1], nonce[2], nonce[3]]);
        state[7] = u32::from_le_bytes([nonce[4], nonce[5], nonce[6], nonce[7]]);
        Salsa {
            core: Core {
                state,
                imp: Rung::best(),
                xor: Xor::default(),
            },
            position: Position::default(),
        }
    }
}

stream_cipher!([const DOUBLE_ROUNDS: usize] Salsa<DOUBLE_ROUNDS>, impl = Rung, core = Core<DOUBLE_ROUNDS>);

impl<const DOUBLE_ROUNDS: usize> fmt::Debug for Salsa<DOUBLE_ROUNDS> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Salsa")
            .field("double_rounds", &DOUBLE_ROUNDS)
            .field("impl", &self.core.imp)
            .field("xor", &self.core.xor)
            .field("position", &self.position.get())
            .finish_non_exhaustive()
    }
}

/// XSalsa20 ("Extending the Salsa20 nonce" §3): Salsa20/20 keyed with
/// `HSalsa20(key, nonce[0..16])` and the nonce `nonce[16..24]`, so that random
/// 192-bit nonces are safe. A [`KeyStream`](crate::KeyStream) of 2^64
/// blocks, with the same methods as [`Salsa20`].
///
/// Unauthenticated: to encrypt a message, use
/// [`XSalsa20Poly1305`](crate::aead::XSalsa20Poly1305) (NaCl's secretbox)
/// or another AEAD of [`crate::aead`].
///
/// ```
/// use simdcrypt::salsa20::XSalsa20;
///
/// // NaCl's stream3 test: the first 32 bytes of keystream.
/// let key = [
///     0x1b, 0x27, 0x55, 0x64, 0x73, 0xe9, 0x85, 0xd4, 0x62, 0xcd, 0x51, 0x19, 0x7a, 0x9a, 0x46, 0xc7,
///     0x60, 0x09, 0x54, 0x9e, 0xac, 0x64, 0x74, 0xf2, 0x06, 0xc4, 0xee, 0x08, 0x44, 0xf6, 0x83, 0x89,
/// ];
/// let nonce = [
///     0x69, 0x69, 0x6e, 0xe9, 0x55, 0xb6, 0x2b, 0x73, 0xcd, 0x62, 0xbd, 0xa8,
///     0x75, 0xfc, 0x73, 0xd6, 0x82, 0x19, 0xe0, 0x03, 0x6b, 0x7a, 0x0b, 0x37,
/// ];
/// let mut keystream = [0u8; 32];
/// XSalsa20::new(&key, &nonce).apply_keystream(&mut keystream)?;
/// let hex: String = keystream.iter().map(|b| format!("{b:02x}")).collect();
/// assert_eq!(hex, "eea6a7251c1e72916d11c2cb214d3c252539121d8e234e652d651fa4c8cff880");
/// # Ok::<(), simdcrypt::Error>(())
/// ```
pub struct XSalsa20 {
    core: Core<10>,
    position: Position,
}

impl XSalsa20 {
    /// A cipher at byte 0 of the keystream, on the fastest rung.
    pub fn new(key: &[u8; KEY_LEN], nonce: &[u8; XNONCE_LEN]) -> Self {
        let n0: [u8; 16] = std::array::from_fn(|i| nonce[i]);
        let n1: [u8; NONCE_LEN] = std::array::from_fn(|i| nonce[16 + i]);
        let mut subkey = hsalsa20_words(key, &n0);
        let half = |i: usize| std::array::from_fn(|j| subkey[4 * i + j]);
        let state = state_of_words(half(0), reference::SIGMA, half(1));
        subkey.zeroize();
        let Salsa20 { core, position } = Salsa20::from_state(state, &n1);
        XSalsa20 { core, position }
    }
}

stream_cipher!([] XSalsa20, impl = Rung, core = Core<10>);

impl fmt::Debug for XSalsa20 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("XSalsa20")
            .field("impl", &self.core.imp)
            .field("xor", &self.core.xor)
            .field("position", &self.position.get())
            .finish_non_exhaustive()
    }
}
