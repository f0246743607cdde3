//! The vertical multi-block form shared by the Salsa20 and ChaCha20 rungs,
//! written once: register `i` holds word `i` of `W` consecutive blocks (one
//! block per lane), so a primitive's quarter-rounds run on whole registers,
//! and the registers are transposed into blocks only on output.
//!
//! What differs between the primitives is a parameter: the double-round (a
//! macro over 16 registers), and where the block counter lives ([`Counter`]:
//! its first word, and whether it is 32 or 64 bits wide). Lanes add 32-bit
//! words, so the carry of a 64-bit counter from its low word into its high
//! word is computed here ([`counters_4`], [`counters_8`], [`counters_16`]);
//! a 32-bit counter never carries into the word after it.
//!
//! [`vertical_batches!`] generates, for one register width, the function
//! that runs batches of `W` blocks and XORs them from the registers into
//! the data: each register's worth loaded from the input, XORed, stored to
//! the output (the same buffer in place).

#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::{
    __m128i, __m256i, __m512i, _mm_add_epi32, _mm_cmpgt_epi32, _mm_set1_epi32, _mm_setr_epi32,
    _mm_sub_epi32, _mm_unpackhi_epi32, _mm_unpackhi_epi64, _mm_unpacklo_epi32, _mm_unpacklo_epi64,
    _mm_xor_si128, _mm256_add_epi32, _mm256_cmpgt_epi32, _mm256_permute2x128_si256,
    _mm256_set1_epi32, _mm256_setr_epi32, _mm256_sub_epi32, _mm256_unpackhi_epi32,
    _mm256_unpackhi_epi64, _mm256_unpacklo_epi32, _mm256_unpacklo_epi64, _mm256_xor_si256,
    _mm512_add_epi32, _mm512_cmplt_epu32_mask, _mm512_mask_add_epi32, _mm512_set1_epi32,
    _mm512_setr_epi32, _mm512_shuffle_i32x4, _mm512_unpackhi_epi32, _mm512_unpackhi_epi64,
    _mm512_unpacklo_epi32, _mm512_unpacklo_epi64,
};

#[cfg(target_arch = "aarch64")]
use core::arch::aarch64::{
    uint32x4_t, vaddq_u32, vcltq_u32, vdupq_n_u32, vld1q_u8, vld1q_u32, vreinterpretq_u8_u32,
    vreinterpretq_u32_u8, vreinterpretq_u32_u64, vreinterpretq_u64_u32, vst1q_u8, vsubq_u32,
    vzip1q_u32, vzip1q_u64, vzip2q_u32, vzip2q_u64,
};

/// Where a primitive keeps its block counter in the 16-word state: word
/// `word` holds its low 32 bits and, when `wide`, word `word + 1` its high
/// 32 bits (Salsa20: words 8–9; ChaCha20's original form: 12–13). A narrow
/// counter (RFC 8439 ChaCha20: word 12 alone) never touches the next word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Counter {
    /// The word holding the counter's low 32 bits.
    pub(crate) word: usize,
    /// Whether the next word holds the high 32 bits.
    pub(crate) wide: bool,
}

impl Counter {
    /// The counter in `x`.
    #[inline(always)]
    pub(crate) fn get(self, x: &[u32; 16]) -> u64 {
        let lo = u64::from(x[self.word]);
        if self.wide {
            lo | u64::from(x[self.word + 1]) << 32
        } else {
            lo
        }
    }

    /// Writes `counter` into `x`; a narrow counter keeps the low 32 bits
    /// (callers never ask for a block beyond a narrow counter's range).
    #[inline(always)]
    pub(crate) fn set(self, x: &mut [u32; 16], counter: u64) {
        x[self.word] = counter as u32;
        if self.wide {
            x[self.word + 1] = (counter >> 32) as u32;
        }
    }

    /// Steps the counter in `x` by `n` blocks.
    #[inline(always)]
    pub(crate) fn add(self, x: &mut [u32; 16], n: u64) {
        self.set(x, self.get(x).wrapping_add(n));
    }

    /// `x` with its counter stepped by `n` blocks.
    #[inline(always)]
    pub(crate) fn plus(self, x: &[u32; 16], n: u64) -> [u32; 16] {
        let mut y = *x;
        self.add(&mut y, n);
        y
    }
}

/// Generates `fn $name(state, counter, block, double_rounds, data) -> rest`:
/// while all `W` blocks of a batch are used (the last at least partly),
/// computes the keystream of blocks `*block .. *block + W` of `state` (whose
/// counter words, described by `counter`, are ignored), XORs it into `data`
/// (an [`InOut`]: each register's worth loaded from the input, XORed and
/// stored to the output), and steps `*block` by `W`; returns the bytes left
/// (fewer than `W - 1` blocks).
///
/// `counter` must have `word = $word`; whether it is `wide` is read
/// at run time, once per batch.
///
/// Two forms: `fn name("features") on zmm|ymm|xmm|neon, ...` for the 16-,
/// 8- and 4-lane forms of x86-64 and the 4 lanes of aarch64's NEON, and the full form naming the register type, its
/// operations, lane counters and transpose. Both take the primitive's
/// `double_round` macro (called as `double_round!(add, xor, rotl; x0, …,
/// x15)`), the register rotate `rotl` (`rotl!(x, n)`, a literal `n`) and the
/// counter's first word.
///
/// With `hook = name` (after `counter_word` in the short forms, last in the
/// full form) the function takes one more argument, `name: &mut impl Hook`
/// ([`Hook`]), called once after every double round of every batch: work for
/// the scalar units to do while the vector units compute the keystream
/// (the stitched AEAD kernels run Poly1305 there). It then runs whole
/// batches only, and returns the rest however short. Without it the
/// function is exactly as before.
///
/// [`InOut`]: crate::xor::InOut
macro_rules! vertical_batches {
    (
        $(#[$attr:meta])* fn $name:ident($feature:literal) on ymm,
        double_round = $dr:ident, rotl = $rotl:ident, counter_word = $word:literal
        $(, hook = $hook:ident)?
    ) => {
        $crate::vertical::vertical_batches! {
            $(#[$attr])*
            fn $name($feature): 8 lanes of ::core::arch::x86_64::__m256i;
            splat = ::core::arch::x86_64::_mm256_set1_epi32,
            add = ::core::arch::x86_64::_mm256_add_epi32,
            xor = ::core::arch::x86_64::_mm256_xor_si256,
            double_round = $dr,
            rotl = $rotl,
            loadu = ::core::arch::x86_64::_mm256_loadu_si256,
            storeu = ::core::arch::x86_64::_mm256_storeu_si256,
            counters = $crate::vertical::counters_8,
            transpose = $crate::vertical::transpose_8,
            counter_word = $word,
            $(hook = $hook,)?
        }
    };
    (
        $(#[$attr:meta])* fn $name:ident($feature:literal) on xmm,
        double_round = $dr:ident, rotl = $rotl:ident, counter_word = $word:literal
        $(, hook = $hook:ident)?
    ) => {
        $crate::vertical::vertical_batches! {
            $(#[$attr])*
            fn $name($feature): 4 lanes of ::core::arch::x86_64::__m128i;
            splat = ::core::arch::x86_64::_mm_set1_epi32,
            add = ::core::arch::x86_64::_mm_add_epi32,
            xor = ::core::arch::x86_64::_mm_xor_si128,
            double_round = $dr,
            rotl = $rotl,
            loadu = ::core::arch::x86_64::_mm_loadu_si128,
            storeu = ::core::arch::x86_64::_mm_storeu_si128,
            counters = $crate::vertical::counters_4,
            transpose = $crate::vertical::transpose_4,
            counter_word = $word,
            $(hook = $hook,)?
        }
    };
    (
        $(#[$attr:meta])* fn $name:ident($feature:literal) on zmm,
        double_round = $dr:ident, rotl = $rotl:ident, counter_word = $word:literal
        $(, hook = $hook:ident)?
    ) => {
        $crate::vertical::vertical_batches! {
            $(#[$attr])*
            fn $name($feature): 16 lanes of ::core::arch::x86_64::__m512i;
            splat = ::core::arch::x86_64::_mm512_set1_epi32,
            add = ::core::arch::x86_64::_mm512_add_epi32,
            xor = ::core::arch::x86_64::_mm512_xor_si512,
            double_round = $dr,
            rotl = $rotl,
            loadu = ::core::arch::x86_64::_mm512_loadu_si512,
            storeu = ::core::arch::x86_64::_mm512_storeu_si512,
            counters = $crate::vertical::counters_16,
            transpose = $crate::vertical::transpose_16,
            counter_word = $word,
            $(hook = $hook,)?
        }
    };
    (
        $(#[$attr:meta])* fn $name:ident($feature:literal) on neon,
        double_round = $dr:ident, rotl = $rotl:ident, counter_word = $word:literal
        $(, hook = $hook:ident)?
    ) => {
        $crate::vertical::vertical_batches! {
            $(#[$attr])*
            fn $name($feature): 4 lanes of ::core::arch::aarch64::uint32x4_t;
            splat = $crate::vertical::splat_neon,
            add = ::core::arch::aarch64::vaddq_u32,
            xor = ::core::arch::aarch64::veorq_u32,
            double_round = $dr,
            rotl = $rotl,
            loadu = $crate::vertical::loadu_neon,
            storeu = $crate::vertical::storeu_neon,
            counters = $crate::vertical::counters_neon,
            transpose = $crate::vertical::transpose_neon,
            counter_word = $word,
            $(hook = $hook,)?
        }
    };
    (
        $(#[$attr:meta])*
        fn $name:ident($feature:literal): $lanes:literal lanes of $v:ty;
        splat = $splat:path,
        add = $add:path,
        xor = $xor:path,
        double_round = $dr:ident,
        rotl = $rotl:ident,
        loadu = $loadu:path,
        storeu = $storeu:path,
        counters = $counters:path,
        transpose = $transpose:path,
        counter_word = $word:literal,
        $(hook = $hook:ident,)?
    ) => {
        $(#[$attr])*
        #[target_feature(enable = $feature)]
        pub(super) fn $name<'a>(
            state: &[u32; 16],
            counter: $crate::vertical::Counter,
            block: &mut u64,
            double_rounds: usize,
            mut data: $crate::xor::InOut<'a>,
            $($hook: &mut impl $crate::vertical::Hook<{ $lanes * $crate::stream::BLOCK_LEN }>,)?
        ) -> $crate::xor::InOut<'a> {
            const LANES: usize = $lanes;
            const BLOCK_LEN: usize = $crate::stream::BLOCK_LEN;
            /// Whether only whole batches run: with a hook, which reads
            /// whole batches beside them.
            const WHOLE: bool = $crate::vertical::hooked!($($hook)?);
            /// Registers per 64-byte block after the transpose.
            const PER_BLOCK: usize = BLOCK_LEN / ::core::mem::size_of::<$v>();
            debug_assert_eq!(counter.word, $word);

            $crate::vertical::xor_block_fn!(fn xor_block($feature, $v, $loadu, $storeu, $xor));

            let len = data.len();
            if len <= (LANES - 1) * BLOCK_LEN {
                return data;
            }
            // Word `i` of every lane, broadcast once; per batch only the
            // counter words change (the state's own are ignored).
            let w = |i: usize| $splat(state[i] as i32);
            let mut input: [$v; 16] = [
                w(0), w(1), w(2), w(3), w(4), w(5), w(6), w(7),
                w(8), w(9), w(10), w(11), w(12), w(13), w(14), w(15),
            ];
            // The batches go through raw pointers; `data` is used again
            // only after the last of them, to return the rest.
            let (src, dst, _) = data.reborrow().into_raw();
            let prefetch = len > $crate::vertical::PREFETCH_FROM;
            let mut done = 0;
            while len - done > (LANES - 1) * BLOCK_LEN && (!WHOLE || len - done >= LANES * BLOCK_LEN) {
                if prefetch {
                    $crate::vertical::prefetch_next(src, dst, done + LANES * BLOCK_LEN, LANES * BLOCK_LEN, len);
                }
                // Lane `j` is block `counter + j`; a wide counter's carry
                // into its high word included, a narrow one's next word
                // left alone.
                let hi = if counter.wide {
                    (*block >> 32) as u32
                } else {
                    state[$word + 1]
                };
                let (lo, hi) = $counters(*block as u32, hi, counter.wide);
                input[$word] = lo;
                input[$word + 1] = hi;
                let [
                    mut x0, mut x1, mut x2, mut x3, mut x4, mut x5, mut x6, mut x7,
                    mut x8, mut x9, mut x10, mut x11, mut x12, mut x13, mut x14, mut x15,
                ] = input;
                #[allow(unused_variables, reason = "the round is for the hook alone")]
                for round in 0..double_rounds {
                    $dr!($add, $xor, $rotl;
                        x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15);
                    $(
                        // SAFETY: the batch is whole (`WHOLE`), so its
                        // input is readable at `src + done`; the XOR below
                        // writes its output only after the rounds (in
                        // place, over the same bytes), and the batch
                        // before's output, whole below `dst + done`, was
                        // written and is not written again.
                        let (batch_input, batch_before) = unsafe {
                            (
                                &*src.add(done).cast::<[u8; LANES * BLOCK_LEN]>(),
                                done.checked_sub(LANES * BLOCK_LEN).map(|at| {
                                    &*dst.add(at).cast_const().cast::<[u8; LANES * BLOCK_LEN]>()
                                }),
                            )
                        };
                        $hook.after_double_round(round, batch_input, batch_before);
                    )?
                }
                // The final addition, then one block per entry.
                let blocks: [[$v; PER_BLOCK]; LANES] = $transpose([
                    $add(x0, input[0]), $add(x1, input[1]), $add(x2, input[2]),
                    $add(x3, input[3]), $add(x4, input[4]), $add(x5, input[5]),
                    $add(x6, input[6]), $add(x7, input[7]), $add(x8, input[8]),
                    $add(x9, input[9]), $add(x10, input[10]), $add(x11, input[11]),
                    $add(x12, input[12]), $add(x13, input[13]), $add(x14, input[14]),
                    $add(x15, input[15]),
                ]);

                // More than `LANES - 1` blocks are left, so every lane's
                // block is used, the last at least partly.
                let n = (len - done).min(LANES * BLOCK_LEN);
                for (j, ks) in blocks.into_iter().enumerate() {
                    let at = done + j * BLOCK_LEN;
                    // SAFETY: `at < done + n <= len` and `at + take <=
                    // len`: in bounds of the `len` bytes `src` may read
                    // and `dst` write (`InOut::into_raw`).
                    unsafe {
                        xor_block(src.add(at), dst.add(at), (done + n - at).min(BLOCK_LEN), ks)
                    };
                }
                done += n;
                *block = block.wrapping_add(LANES as u64);
            }
            data.split_at(done).1
        }
    };
}
pub(crate) use vertical_batches;

/// `true` for a hooked [`vertical_batches!`] function, `false` otherwise.
macro_rules! hooked {
    () => {
        false
    };
    ($hook:ident) => {
        true
    };
}
pub(crate) use hooked;

/// The work a hooked [`vertical_batches!`] function does on the scalar
/// units between the double rounds of its batches of `BATCH` bytes. A hook
/// holds its state by value, not behind references of its own: the hook
/// itself is an `&mut` argument, which nothing else aliases, so the
/// compiler keeps its state in registers through the rounds (a closure's
/// captured references it reloaded and stored around every call).
#[cfg(target_arch = "x86_64")]
pub(crate) trait Hook<const BATCH: usize> {
    /// Called after double round `round` (from 0) of every batch, with what
    /// the batch leaves alone while its rounds run: its own input (not yet
    /// XORed; in place, the bytes its output overwrites after the rounds)
    /// and the output of the batch before it in the call, if any.
    fn after_double_round(
        &mut self,
        round: usize,
        input: &[u8; BATCH],
        previous: Option<&[u8; BATCH]>,
    );
}

/// No work: batches with nothing to do beside them.
#[cfg(target_arch = "x86_64")]
impl<const BATCH: usize> Hook<BATCH> for () {
    #[inline(always)]
    fn after_double_round(&mut self, _: usize, _: &[u8; BATCH], _: Option<&[u8; BATCH]>) {}
}

/// From this many bytes on, each batch asks for the next batch's input
/// and output lines ([`prefetch_next`]): a few per cent at 1 MiB on an
/// AVX-512 Xeon, a loss in L1 (bench/NOTES.md, "vertical-prefetch").
pub(crate) const PREFETCH_FROM: usize = 64 << 10;

/// Prefetches `bytes` of the input at `src + at` and of the output at
/// `dst + at`, as far as `len`: what the next batch reads and writes, so
/// that its lines are on their way while this batch's rounds run. (The
/// output's write hint is `prefetcht0` too without `prfchw`.)
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "sse")]
pub(crate) fn prefetch_next(src: *const u8, dst: *mut u8, at: usize, bytes: usize, len: usize) {
    use core::arch::x86_64::{_MM_HINT_ET0, _MM_HINT_T0, _mm_prefetch};
    for line in (at..(at + bytes).min(len)).step_by(64) {
        // A prefetch never faults; the addresses stay within the buffers.
        _mm_prefetch::<_MM_HINT_T0>(src.wrapping_add(line).cast());
        _mm_prefetch::<_MM_HINT_ET0>(dst.wrapping_add(line).cast_const().cast());
    }
}

/// Prefetches `bytes` of the input at `src + at` and of the output at
/// `dst + at`, as far as `len`, as the x86-64 form does: `prfm pldl1keep`
/// for the input, `prfm pstl1keep` for the output (the prefetch intrinsics
/// are unstable on aarch64).
#[cfg(target_arch = "aarch64")]
#[inline]
pub(crate) fn prefetch_next(src: *const u8, dst: *mut u8, at: usize, bytes: usize, len: usize) {
    for line in (at..(at + bytes).min(len)).step_by(64) {
        // SAFETY: a prefetch is a hint: it reads and writes nothing and
        // never faults, whatever the address.
        unsafe {
            core::arch::asm!(
                "prfm pldl1keep, [{src}]",
                "prfm pstl1keep, [{dst}]",
                src = in(reg) src.wrapping_add(line),
                dst = in(reg) dst.wrapping_add(line),
                options(nostack, readonly, preserves_flags)
            );
        }
    }
}

/// Generates `unsafe fn $name(src, dst, len, block: [$v; 64 / size_of::<$v>()])`:
/// `dst[i] = src[i] ^ keystream[i]` for the first `len <= 64` bytes of a
/// keystream block held in registers, register by register (unaligned
/// loads, XOR, stores) when the block is whole, through the stack when it
/// is partial. The caller promises that `src` is readable and `dst`
/// writable for `len` bytes, and that they are the same address or do not
/// overlap.
macro_rules! xor_block_fn {
    ($(#[$attr:meta])* fn $name:ident($feature:literal, $v:ty, $loadu:path, $storeu:path, $xor:path)) => {
        $(#[$attr])*
        /// # Safety
        ///
        /// `src` readable and `dst` writable for `len` bytes, the same
        /// address or not overlapping; the CPU has the rung's features.
        #[inline]
        #[target_feature(enable = $feature)]
        unsafe fn $name(
            src: *const u8,
            dst: *mut u8,
            len: usize,
            block: [$v; $crate::stream::BLOCK_LEN / ::core::mem::size_of::<$v>()],
        ) {
            const BLOCK_LEN: usize = $crate::stream::BLOCK_LEN;
            const REG: usize = ::core::mem::size_of::<$v>();
            if len == BLOCK_LEN {
                for (i, ks) in block.into_iter().enumerate() {
                    // SAFETY: `i * REG + REG <= 64 = len` bytes, readable
                    // at `src` and writable at `dst` (the caller's promise);
                    // the load and store are unaligned, and in place the
                    // register is read before it is written.
                    unsafe {
                        let d = $loadu(src.add(i * REG).cast());
                        $storeu(dst.add(i * REG).cast(), $xor(d, ks));
                    }
                }
            } else {
                // A partly used block: its keystream on the stack, XORed
                // into the bytes there are.
                debug_assert!(len < BLOCK_LEN);
                let mut ks = [[0u8; REG]; BLOCK_LEN / REG];
                for (ks, v) in ks.iter_mut().zip(block) {
                    // SAFETY: `ks` is one register's worth of writable
                    // bytes; the store is unaligned.
                    unsafe { $storeu(ks.as_mut_ptr().cast(), v) };
                }
                for (i, k) in ks.as_flattened().iter().enumerate().take(len) {
                    // SAFETY: `i < len`: readable at `src`, writable at
                    // `dst` (the caller's promise).
                    unsafe { *dst.add(i) = *src.add(i) ^ k };
                }
            }
        }
    };
}
pub(crate) use xor_block_fn;

/// Lane counters for 8 blocks from the counter words `(lo, hi)`: `lo + j`
/// in the low word of block `j = 0..8`, and in the next word `hi`, plus the
/// carry out of `lo + j` when the counter is `wide`.
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn counters_8(lo: u32, hi: u32, wide: bool) -> (__m256i, __m256i) {
    let lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    let lo = _mm256_add_epi32(_mm256_set1_epi32(lo as i32), lane);
    let hi = _mm256_set1_epi32(hi as i32);
    if !wide {
        return (lo, hi);
    }
    // Carried where `lo + j < j` unsigned: compared signed with the top bits
    // flipped, all-ones where true, so subtracting adds 1.
    let bias = _mm256_set1_epi32(i32::MIN);
    let carry = _mm256_cmpgt_epi32(_mm256_xor_si256(lane, bias), _mm256_xor_si256(lo, bias));
    (lo, _mm256_sub_epi32(hi, carry))
}

/// Lane counters for 4 blocks, as [`counters_8`].
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "sse2")]
pub(crate) fn counters_4(lo: u32, hi: u32, wide: bool) -> (__m128i, __m128i) {
    let lane = _mm_setr_epi32(0, 1, 2, 3);
    let lo = _mm_add_epi32(_mm_set1_epi32(lo as i32), lane);
    let hi = _mm_set1_epi32(hi as i32);
    if !wide {
        return (lo, hi);
    }
    let bias = _mm_set1_epi32(i32::MIN);
    let carry = _mm_cmpgt_epi32(_mm_xor_si128(lane, bias), _mm_xor_si128(lo, bias));
    (lo, _mm_sub_epi32(hi, carry))
}

/// Lane counters for 16 blocks, as [`counters_8`], the carry as a mask.
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx512f")]
pub(crate) fn counters_16(lo: u32, hi: u32, wide: bool) -> (__m512i, __m512i) {
    let lane = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    let lo = _mm512_add_epi32(_mm512_set1_epi32(lo as i32), lane);
    let hi = _mm512_set1_epi32(hi as i32);
    if !wide {
        return (lo, hi);
    }
    // Carried where `lo + j < j`, unsigned.
    let carry = _mm512_cmplt_epu32_mask(lo, lane);
    (
        lo,
        _mm512_mask_add_epi32(hi, carry, hi, _mm512_set1_epi32(1)),
    )
}

/// Word `w` in all four lanes of a NEON register (`dup`); the batch loop
/// passes words as `i32`, as the x86-64 `set1` intrinsics take them.
#[cfg(target_arch = "aarch64")]
#[inline]
#[target_feature(enable = "neon")]
pub(crate) fn splat_neon(w: i32) -> uint32x4_t {
    vdupq_n_u32(w as u32)
}

/// The 16 bytes at `p`, unaligned, as four little-endian words (`ld1` of
/// bytes, which needs no alignment).
///
/// # Safety
///
/// `p` readable for 16 bytes.
#[cfg(target_arch = "aarch64")]
#[inline]
#[target_feature(enable = "neon")]
pub(crate) unsafe fn loadu_neon(p: *const u8) -> uint32x4_t {
    // SAFETY: the caller's promise.
    vreinterpretq_u32_u8(unsafe { vld1q_u8(p) })
}

/// Stores the four words of `v` little-endian at `p`, unaligned.
///
/// # Safety
///
/// `p` writable for 16 bytes.
#[cfg(target_arch = "aarch64")]
#[inline]
#[target_feature(enable = "neon")]
pub(crate) unsafe fn storeu_neon(p: *mut u8, v: uint32x4_t) {
    // SAFETY: the caller's promise.
    unsafe { vst1q_u8(p, vreinterpretq_u8_u32(v)) }
}

/// Lane counters for 4 blocks in NEON registers, as [`counters_8`]: the
/// carry where `lo + j < j` (`cmhi`, all-ones), subtracted.
#[cfg(target_arch = "aarch64")]
#[inline]
#[target_feature(enable = "neon")]
pub(crate) fn counters_neon(lo: u32, hi: u32, wide: bool) -> (uint32x4_t, uint32x4_t) {
    const LANE: [u32; 4] = [0, 1, 2, 3];
    // SAFETY: `LANE` is four readable words.
    let lane = unsafe { vld1q_u32(LANE.as_ptr()) };
    let lo = vaddq_u32(vdupq_n_u32(lo), lane);
    let hi = vdupq_n_u32(hi);
    if !wide {
        return (lo, hi);
    }
    (lo, vsubq_u32(hi, vcltq_u32(lo, lane)))
}

/// 4×4 words four times in NEON registers, as [`transpose_4`]: `zip1` and
/// `zip2` on 32-bit, then on 64-bit elements.
#[cfg(target_arch = "aarch64")]
#[inline]
#[target_feature(enable = "neon")]
pub(crate) fn transpose_neon(z: [uint32x4_t; 16]) -> [[uint32x4_t; 4]; 4] {
    let zip64 = |a: uint32x4_t, b: uint32x4_t| {
        let (a, b) = (vreinterpretq_u64_u32(a), vreinterpretq_u64_u32(b));
        (
            vreinterpretq_u32_u64(vzip1q_u64(a, b)),
            vreinterpretq_u32_u64(vzip2q_u64(a, b)),
        )
    };
    // q[g][r]: words 4g..4g+4 of block r.
    let q: [[uint32x4_t; 4]; 4] = std::array::from_fn(|g| {
        let [a, b, c, d] = [z[4 * g], z[4 * g + 1], z[4 * g + 2], z[4 * g + 3]];
        let (q0, q1) = zip64(vzip1q_u32(a, b), vzip1q_u32(c, d));
        let (q2, q3) = zip64(vzip2q_u32(a, b), vzip2q_u32(c, d));
        [q0, q1, q2, q3]
    });
    std::array::from_fn(|r| [q[0][r], q[1][r], q[2][r], q[3][r]])
}

/// 8×8 words twice: from `z[i]` = word `i` of blocks 0–7 to block `j` =
/// words 0–7 then 8–15. Within each 128-bit half, `unpack*_epi32` and
/// `unpack*_epi64` turn four word-registers into four block-quarters; the
/// halves' quarters are then paired across by `vperm2i128`.
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn transpose_8(z: [__m256i; 16]) -> [[__m256i; 2]; 8] {
    // q[g][r]: in 128-bit half `h`, words 4g..4g+4 of block 4h + r.
    let q: [[__m256i; 4]; 4] = std::array::from_fn(|g| {
        let [a, b, c, d] = [z[4 * g], z[4 * g + 1], z[4 * g + 2], z[4 * g + 3]];
        let (ab0, ab1) = (_mm256_unpacklo_epi32(a, b), _mm256_unpackhi_epi32(a, b));
        let (cd0, cd1) = (_mm256_unpacklo_epi32(c, d), _mm256_unpackhi_epi32(c, d));
        [
            _mm256_unpacklo_epi64(ab0, cd0),
            _mm256_unpackhi_epi64(ab0, cd0),
            _mm256_unpacklo_epi64(ab1, cd1),
            _mm256_unpackhi_epi64(ab1, cd1),
        ]
    });
    std::array::from_fn(|j| {
        let (h, r) = (j / 4, j % 4);
        let pair = |g: usize| match h {
            0 => _mm256_permute2x128_si256::<0x20>(q[g][r], q[g + 1][r]),
            _ => _mm256_permute2x128_si256::<0x31>(q[g][r], q[g + 1][r]),
        };
        [pair(0), pair(2)]
    })
}

/// 4×4 words four times: from `z[i]` = word `i` of blocks 0–3 to block `j`
/// = four registers of four words, with `unpack*_epi32` and `unpack*_epi64`.
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "sse2")]
pub(crate) fn transpose_4(z: [__m128i; 16]) -> [[__m128i; 4]; 4] {
    // q[g][r]: words 4g..4g+4 of block r.
    let q: [[__m128i; 4]; 4] = std::array::from_fn(|g| {
        let [a, b, c, d] = [z[4 * g], z[4 * g + 1], z[4 * g + 2], z[4 * g + 3]];
        let (ab0, ab1) = (_mm_unpacklo_epi32(a, b), _mm_unpackhi_epi32(a, b));
        let (cd0, cd1) = (_mm_unpacklo_epi32(c, d), _mm_unpackhi_epi32(c, d));
        [
            _mm_unpacklo_epi64(ab0, cd0),
            _mm_unpackhi_epi64(ab0, cd0),
            _mm_unpacklo_epi64(ab1, cd1),
            _mm_unpackhi_epi64(ab1, cd1),
        ]
    });
    std::array::from_fn(|r| [q[0][r], q[1][r], q[2][r], q[3][r]])
}

/// 16×16 words: from `z[i]` = word `i` of blocks 0–15 to one register per
/// block. Within each 128-bit lane `unpack*_epi32` and `unpack*_epi64` turn
/// four word-registers into four block-quarters; two rounds of
/// `vshufi32x4` then gather each block's four quarters from the four
/// word-groups.
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx512f")]
pub(crate) fn transpose_16(z: [__m512i; 16]) -> [[__m512i; 1]; 16] {
    // q[r][g]: in 128-bit lane `l`, words 4g..4g+4 of block 4l + r.
    let mut q = [[z[0]; 4]; 4];
    for g in 0..4 {
        let [a, b, c, d] = [z[4 * g], z[4 * g + 1], z[4 * g + 2], z[4 * g + 3]];
        let (ab0, ab1) = (_mm512_unpacklo_epi32(a, b), _mm512_unpackhi_epi32(a, b));
        let (cd0, cd1) = (_mm512_unpacklo_epi32(c, d), _mm512_unpackhi_epi32(c, d));
        q[0][g] = _mm512_unpacklo_epi64(ab0, cd0);
        q[1][g] = _mm512_unpackhi_epi64(ab0, cd0);
        q[2][g] = _mm512_unpacklo_epi64(ab1, cd1);
        q[3][g] = _mm512_unpackhi_epi64(ab1, cd1);
    }
    // Lanes (l0, l2) and (l1, l3) of two registers side by side.
    const EVEN: i32 = 0b10_00_10_00;
    const ODD: i32 = 0b11_01_11_01;
    let mut out = [[z[0]]; 16];
    for (r, [q0, q1, q2, q3]) in q.into_iter().enumerate() {
        // e01 = (q0.l0, q0.l2, q1.l0, q1.l2), o01 = (q0.l1, q0.l3, q1.l1, q1.l3) …
        let (e01, o01) = (
            _mm512_shuffle_i32x4::<EVEN>(q0, q1),
            _mm512_shuffle_i32x4::<ODD>(q0, q1),
        );
        let (e23, o23) = (
            _mm512_shuffle_i32x4::<EVEN>(q2, q3),
            _mm512_shuffle_i32x4::<ODD>(q2, q3),
        );
        // … so block 4l + r is (q0.l, q1.l, q2.l, q3.l).
        out[r] = [_mm512_shuffle_i32x4::<EVEN>(e01, e23)];
        out[4 + r] = [_mm512_shuffle_i32x4::<EVEN>(o01, o23)];
        out[8 + r] = [_mm512_shuffle_i32x4::<ODD>(e01, e23)];
        out[12 + r] = [_mm512_shuffle_i32x4::<ODD>(o01, o23)];
    }
    out
}

/// Transposes the 64 × 64 bit matrix in place: bit `c` of word `r` and
/// bit `r` of word `c` trade places (the blocks' bits into planes and
/// back), for the bitsliced rungs of GOST 28147-89 and Camellia. Six stages swap ever smaller off-diagonal squares.
#[inline(always)]
pub(crate) fn transpose_64x64(a: &mut [u64; 64]) {
    const MASKS: [u64; 6] = [
        0x0000_0000_ffff_ffff,
        0x0000_ffff_0000_ffff,
        0x00ff_00ff_00ff_00ff,
        0x0f0f_0f0f_0f0f_0f0f,
        0x3333_3333_3333_3333,
        0x5555_5555_5555_5555,
    ];
    for (stage, &mask) in MASKS.iter().enumerate() {
        let j = 32 >> stage;
        for r in (0..64).filter(|r| r & j == 0) {
            let t = ((a[r] >> j) ^ a[r + j]) & mask;
            a[r] ^= t << j;
            a[r + j] ^= t;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lanes of a counter pair, as words.
    fn lanes<V: Copy, const N: usize>(v: V) -> [u32; N] {
        assert_eq!(size_of::<V>(), 4 * N);
        // SAFETY: `V` is a SIMD register of exactly `N` 32-bit lanes (checked
        // above), and every bit pattern is a valid `[u32; N]`.
        unsafe { core::mem::transmute_copy(&v) }
    }

    /// Block `counter + j` of each lane, as the scalar [`Counter`] says.
    fn want<const N: usize>(lo: u32, hi: u32, wide: bool) -> ([u32; N], [u32; N]) {
        let c = Counter { word: 12, wide };
        let mut x = [0u32; 16];
        x[12] = lo;
        x[13] = hi;
        let blocks: [[u32; 16]; N] = std::array::from_fn(|j| c.plus(&x, j as u64));
        (blocks.map(|b| b[12]), blocks.map(|b| b[13]))
    }

    const EDGES: [(u32, u32); 6] = [
        (0, 0),
        (u32::MAX, 0),
        (u32::MAX - 2, 7),
        (u32::MAX - 15, u32::MAX),
        (0x7fff_fffe, 3),
        (0xffff_fff9, 0x1234_5678),
    ];

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn lane_counters_carry_only_when_wide() {
        for (lo, hi) in EDGES {
            for wide in [false, true] {
                // SAFETY: SSE2 is part of the x86-64 baseline.
                let (l, h) = unsafe { counters_4(lo, hi, wide) };
                assert_eq!((lanes(l), lanes(h)), want::<4>(lo, hi, wide));
                if std::is_x86_feature_detected!("avx2") {
                    // SAFETY: the CPU has AVX2, checked above.
                    let (l, h) = unsafe { counters_8(lo, hi, wide) };
                    assert_eq!((lanes(l), lanes(h)), want::<8>(lo, hi, wide));
                }
                if std::is_x86_feature_detected!("avx512f") {
                    // SAFETY: the CPU has AVX-512F, checked above.
                    let (l, h) = unsafe { counters_16(lo, hi, wide) };
                    assert_eq!((lanes(l), lanes(h)), want::<16>(lo, hi, wide));
                }
            }
        }
        // The narrow form leaves the next word alone even across 2^32.
        let (_, next) = want::<4>(u32::MAX, 9, false);
        assert_eq!(next, [9; 4]);
        let (_, next) = want::<4>(u32::MAX, 9, true);
        assert_eq!(next, [9, 10, 10, 10]);
    }

    #[test]
    #[cfg(target_arch = "aarch64")]
    fn neon_lane_counters_carry_only_when_wide() {
        if !std::arch::is_aarch64_feature_detected!("neon") {
            eprintln!("skipped: this CPU lacks NEON");
            return;
        }
        for (lo, hi) in EDGES {
            for wide in [false, true] {
                // SAFETY: the CPU has NEON, checked above.
                let (l, h) = unsafe { counters_neon(lo, hi, wide) };
                assert_eq!((lanes(l), lanes(h)), want::<4>(lo, hi, wide));
            }
        }
    }

    #[test]
    fn scalar_counter_reads_and_writes_its_words() {
        let mut x = [0u32; 16];
        let wide = Counter {
            word: 8,
            wide: true,
        };
        wide.set(&mut x, 0x1_0000_0002);
        assert_eq!((x[8], x[9]), (2, 1));
        assert_eq!(wide.get(&x), 0x1_0000_0002);
        let narrow = Counter {
            word: 12,
            wide: false,
        };
        x[13] = 5;
        narrow.set(&mut x, u64::from(u32::MAX));
        narrow.add(&mut x, 1);
        assert_eq!((x[12], x[13]), (0, 5));
    }
}
