//! The horizontal form shared by every SIMD rung, written once: one block
//! in four registers, one row of the 4×4 state each (RFC 8439 §2.3: words
//! 0–3, 4–7, 8–11, 12–15), so that a column round is one quarter round on
//! whole registers; `pshufd` word shuffles bring the diagonals into the
//! columns for the diagonal round, and back.
//!
//! [`horizontal!`] generates, for one instruction set and rotate, the
//! one-block `double_rounds` and the keystream of a few blocks as
//! interleaved states: each block's chain of quarter-round steps is
//! sequential (latency-bound, about 14 cycles a round), so two or three
//! chains interleaved cost little more than one. The vertical rungs finish
//! what does not fill their width with it.
//!
//! The `on ymm` form holds two blocks in one register, one per 128-bit
//! lane: the same instructions as one block, for two (an odd block goes
//! beside them in xmm registers, in the same loop).
//!
//! The `@blocks` and `@tail` forms (the one-block entry, the final
//! addition, a few blocks interleaved) are written once over the register
//! type: aarch64's `neon` rung uses them with its own rows and rounds.
//!
//! One block here takes 222–235 TSC ticks on Zen 3; the scalar form (16
//! variables, `rol`) took 265, so every rung's single block is horizontal.

/// `pshufd` immediates: lane `i` of the result is lane `i + k` (mod 4) of
/// the input, so a row rotated by `k` words.
#[cfg(target_arch = "x86_64")]
pub(super) const ROT1: i32 = 0b00_11_10_01;
#[cfg(target_arch = "x86_64")]
pub(super) const ROT2: i32 = 0b01_00_11_10;
#[cfg(target_arch = "x86_64")]
pub(super) const ROT3: i32 = 0b10_01_00_11;

/// Generates the horizontal functions of one rung.
///
/// - `on xmm`: `double_rounds(x)`, one block's 20 rounds without the final
///   addition, and the helpers of the other forms.
/// - `on xmm with tail`: also `xor_tail(state, counter, block, data)`, the
///   keystream of any number of blocks, three at a time as interleaved
///   states.
/// - `on ymm` (beside `on xmm`): `xor_tail_pairs(state, counter, block,
///   data)`, the keystream of up to 7 blocks as interleaved pairs in ymm
///   registers and an odd block in xmm.
///
/// No form computes a block that is not used.
macro_rules! horizontal {
    ($feature:literal on xmm, rotl = $rotl:ident) => {
        $crate::chacha20::horizontal::horizontal! {
            @double_round fn double_round_rows, $feature, ::core::arch::x86_64::__m128i,
            add = ::core::arch::x86_64::_mm_add_epi32,
            xor = ::core::arch::x86_64::_mm_xor_si128,
            shuffle = _mm_shuffle_epi32,
            rotl = $rotl
        }

        /// The 20 rounds of `N` states held as rows, interleaved; no final
        /// addition.
        #[inline]
        #[target_feature(enable = $feature)]
        fn rounds<const N: usize>(rows: [[::core::arch::x86_64::__m128i; 4]; N]) -> [[::core::arch::x86_64::__m128i; 4]; N] {
            let mut r = rows;
            for _ in 0..$crate::chacha20::DOUBLE_ROUNDS {
                double_round_rows(&mut r);
            }
            r
        }

        /// The 20 rounds of one block, without the final addition.
        #[inline]
        #[target_feature(enable = $feature)]
        pub(super) fn double_rounds(x: &[u32; 16]) -> [u32; 16] {
            let [rows] = rounds([load_rows(x)]);
            let words = rows.map(|r| store_row(r));
            ::std::array::from_fn(|i| words[i / 4][i % 4])
        }

        /// The four words of a row.
        #[inline]
        #[target_feature(enable = $feature)]
        fn store_row(r: ::core::arch::x86_64::__m128i) -> [u32; 4] {
            let mut out = [0u32; 4];
            // SAFETY: `out` is 16 writable bytes; the store is unaligned.
            unsafe { ::core::arch::x86_64::_mm_storeu_si128(out.as_mut_ptr().cast(), r) };
            out
        }

        /// The four rows of a state, each as two 8-byte loads.
        ///
        /// A fresh state is written with whatever stores the compiler
        /// picks: a constant row (the "expand 32-byte k" words, or a
        /// constant key) becomes two 8-byte immediates. A 16-byte load
        /// spanning two stores is not forwarded from them but waits until
        /// they retire, which in a loop of one-shot calls means until the
        /// previous call's block is done; an 8-byte load is forwarded from
        /// an 8- or a 16-byte store alike. Measured on Zen 3, one-shot
        /// 64-byte ChaCha20 with a constant key (the criterion bench's
        /// pattern), best of many loops: 323 → 308 TSC ticks, libsodium
        /// 316 in the same run (a loaded machine).
        #[inline]
        #[target_feature(enable = $feature)]
        fn load_rows(x: &[u32; 16]) -> [::core::arch::x86_64::__m128i; 4] {
            use ::core::arch::x86_64::{_mm_loadl_epi64, _mm_unpacklo_epi64};
            let (halves, _) = x.as_chunks::<2>();
            let half = |i: usize| {
                // SAFETY: each half is 8 readable bytes; the load is unaligned.
                let mut h = unsafe { _mm_loadl_epi64(halves[i].as_ptr().cast()) };
                // An empty `asm!` the value passes through, so that LLVM
                // does not merge the two halves back into one 16-byte load.
                // SAFETY: it emits no instruction and touches nothing else.
                unsafe {
                    ::core::arch::asm!(
                        "/* {0} */",
                        inout(xmm_reg) h,
                        options(pure, nomem, nostack, preserves_flags)
                    )
                };
                h
            };
            ::std::array::from_fn(|i| _mm_unpacklo_epi64(half(2 * i), half(2 * i + 1)))
        }

        /// Row 3 of block `block` of `state`: the counter in word 12 (and
        /// 13 when it is wide), the nonce words after it. Built from words,
        /// not loaded as a row: a fresh state is written in pieces, and a
        /// 16-byte load of them waits for the stores to retire (no store
        /// forwarding across several stores), which costs a one-block call
        /// about 20 TSC ticks.
        #[inline]
        #[target_feature(enable = $feature)]
        #[allow(dead_code)] // the one-block `sse2` rung has no tail
        fn row3(
            state: &[u32; 16],
            counter: $crate::vertical::Counter,
            block: u64,
        ) -> ::core::arch::x86_64::__m128i {
            debug_assert_eq!(counter.word, 12);
            let w13 = if counter.wide {
                (block >> 32) as u32
            } else {
                state[13]
            };
            ::core::arch::x86_64::_mm_setr_epi32(
                block as i32,
                w13 as i32,
                state[14] as i32,
                state[15] as i32,
            )
        }

        $crate::vertical::xor_block_fn!(
            #[allow(dead_code)] // the one-block `sse2` rung has no tail
            fn xor_block(
                $feature,
                ::core::arch::x86_64::__m128i,
                ::core::arch::x86_64::_mm_loadu_si128,
                ::core::arch::x86_64::_mm_storeu_si128,
                ::core::arch::x86_64::_mm_xor_si128
            )
        );

        /// The rows of blocks `block .. block + S` of `state`.
        #[inline]
        #[target_feature(enable = $feature)]
        #[allow(dead_code)] // the one-block `sse2` rung has no tail
        fn single_rows<const S: usize>(
            state: &[u32; 16],
            counter: $crate::vertical::Counter,
            block: u64,
        ) -> [[::core::arch::x86_64::__m128i; 4]; S] {
            let [r0, r1, r2, _] = load_rows(state);
            ::std::array::from_fn(|n| [r0, r1, r2, row3(state, counter, block.wrapping_add(n as u64))])
        }

        $crate::chacha20::horizontal::horizontal!(
            @blocks $feature, ::core::arch::x86_64::__m128i,
            add = ::core::arch::x86_64::_mm_add_epi32
        );
    };
    ($feature:literal on xmm with tail, rotl = $rotl:ident) => {
        $crate::chacha20::horizontal::horizontal!($feature on xmm, rotl = $rotl);
        $crate::chacha20::horizontal::horizontal!(@tail $feature);
    };
    ($feature:literal on ymm, rotl = $rotl:ident) => {
        $crate::chacha20::horizontal::horizontal! {
            @double_round fn double_round_pairs, $feature, ::core::arch::x86_64::__m256i,
            add = ::core::arch::x86_64::_mm256_add_epi32,
            xor = ::core::arch::x86_64::_mm256_xor_si256,
            shuffle = _mm256_shuffle_epi32,
            rotl = $rotl
        }
        $crate::vertical::xor_block_fn!(fn xor_block_ymm(
            $feature,
            ::core::arch::x86_64::__m256i,
            ::core::arch::x86_64::_mm256_loadu_si256,
            ::core::arch::x86_64::_mm256_storeu_si256,
            ::core::arch::x86_64::_mm256_xor_si256
        ));

        /// Blocks `block .. block + 2P + S` of `state` (its counter words
        /// ignored): `P` pairs, two blocks per ymm register (one per 128-bit
        /// lane), and `S` (0 or 1) single blocks in xmm registers, all
        /// interleaved in one loop, XORed into `data` (whole blocks but the
        /// last, which is at least partly used).
        #[inline]
        #[target_feature(enable = $feature)]
        fn xor_mixed<const P: usize, const S: usize>(
            state: &[u32; 16],
            counter: $crate::vertical::Counter,
            block: u64,
            data: $crate::xor::InOut<'_>,
        ) {
            use ::core::arch::x86_64::{
                __m128i, __m256i, _mm256_add_epi32, _mm256_permute2x128_si256, _mm256_set_m128i,
            };
            let [r0, r1, r2, _] = load_rows(state);
            let both = |x: __m128i| _mm256_set_m128i(x, x);
            let pairs: [[__m256i; 4]; P] = ::std::array::from_fn(|n| {
                let b0 = block.wrapping_add(2 * n as u64);
                let d = _mm256_set_m128i(
                    row3(state, counter, b0.wrapping_add(1)),
                    row3(state, counter, b0),
                );
                [both(r0), both(r1), both(r2), d]
            });
            let singles = single_rows::<S>(state, counter, block.wrapping_add(2 * P as u64));
            let (mut zp, mut zs) = (pairs, singles);
            for _ in 0..$crate::chacha20::DOUBLE_ROUNDS {
                double_round_pairs(&mut zp);
                double_round_rows(&mut zs);
            }
            let mut chunks = data.chunks($crate::chacha20::BLOCK_LEN);
            for (z, x) in zp.into_iter().zip(pairs) {
                let [a, b, c, d]: [__m256i; 4] = ::std::array::from_fn(|i| _mm256_add_epi32(z[i], x[i]));
                let low = [
                    _mm256_permute2x128_si256::<0x20>(a, b),
                    _mm256_permute2x128_si256::<0x20>(c, d),
                ];
                let high = [
                    _mm256_permute2x128_si256::<0x31>(a, b),
                    _mm256_permute2x128_si256::<0x31>(c, d),
                ];
                for keystream in [low, high] {
                    if let Some(chunk) = chunks.next() {
                        let (src, dst, len) = chunk.into_raw();
                        // SAFETY: `into_raw` gives `len` (at most a block)
                        // bytes readable at `src` and writable at `dst`,
                        // the same or apart.
                        unsafe { xor_block_ymm(src, dst, len, keystream) };
                    }
                }
            }
            xor_single_rows(chunks, zs, singles);
        }

        /// The keystream from block `block` of `state` on (its counter
        /// words ignored) XORed into `data` of up to 7 blocks (the last
        /// maybe partial): pairs of blocks in ymm registers, an odd one in
        /// xmm registers, all interleaved.
        #[inline]
        #[target_feature(enable = $feature)]
        pub(super) fn xor_tail_pairs(
            state: &[u32; 16],
            counter: $crate::vertical::Counter,
            block: u64,
            data: $crate::xor::InOut<'_>,
        ) {
            debug_assert!(data.len() <= 7 * $crate::chacha20::BLOCK_LEN);
            match data.len().div_ceil($crate::chacha20::BLOCK_LEN) {
                0 => {}
                1 => xor_mixed::<0, 1>(state, counter, block, data),
                2 => xor_mixed::<1, 0>(state, counter, block, data),
                3 => xor_mixed::<1, 1>(state, counter, block, data),
                4 => xor_mixed::<2, 0>(state, counter, block, data),
                5 => xor_mixed::<2, 1>(state, counter, block, data),
                6 => xor_mixed::<3, 0>(state, counter, block, data),
                _ => xor_mixed::<3, 1>(state, counter, block, data),
            }
        }
    };
    // What a horizontal form on one register type `$v` (its 32-bit lane
    // addition `$add`) finishes blocks with, given its `single_rows`,
    // `rounds` and `xor_block`: the one-block entry and the final addition.
    (@blocks $feature:literal, $v:ty, add = $add:path) => {
        /// Block `block` of `state` (its counter words ignored) XORed from
        /// the `len` bytes at `src` into those at `dst` (at most 64): the
        /// one-block call's own entry, so that it pays for none of the
        /// multi-block code's frame, length checks and jump tables (nor, on
        /// AVX2, its `vzeroupper`). The data comes as `InOut::into_raw`'s
        /// parts, in registers: an `InOut` passed in memory is copied with
        /// 16-byte loads of what the caller wrote with 8-byte stores, which
        /// the core cannot forward (about 35 cycles of a 64-byte call).
        ///
        /// # Safety
        ///
        /// As `InOut::into_raw` gives them: `src` readable and `dst`
        /// writable for `len` bytes, the same address or apart; `len` at
        /// most 64.
        #[target_feature(enable = $feature)]
        #[allow(dead_code)] // the one-block `sse2` rung has its own loop
        pub(super) unsafe fn xor_one_block(
            state: &[u32; 16],
            counter: $crate::vertical::Counter,
            block: u64,
            data: (*const u8, *mut u8, usize),
        ) {
            debug_assert!(data.2 <= $crate::chacha20::BLOCK_LEN);
            let rows = single_rows::<1>(state, counter, block);
            let ([z], [x]) = (rounds(rows), rows);
            // SAFETY: the caller's contract.
            unsafe { xor_final(z, x, data) };
        }

        /// The final addition of one block, its rows `x` after the rounds
        /// `z`, XORed from the `len` bytes at `src` into those at `dst`.
        ///
        /// # Safety
        ///
        /// As [`xor_one_block`]'s.
        #[inline]
        #[target_feature(enable = $feature)]
        #[allow(dead_code)] // the one-block `sse2` rung calls it from neither
        unsafe fn xor_final(
            z: [$v; 4],
            x: [$v; 4],
            (src, dst, len): (*const u8, *mut u8, usize),
        ) {
            let ks = ::std::array::from_fn(|i| $add(z[i], x[i]));
            // SAFETY: the caller's contract.
            unsafe { xor_block(src, dst, len, ks) };
        }

        /// The final addition of `S` blocks, their rows `x` after the rounds
        /// `z`, XORed into the next `S` chunks.
        #[inline]
        #[target_feature(enable = $feature)]
        #[allow(dead_code)] // the one-block `sse2` rung has no tail
        fn xor_single_rows<'a, const S: usize>(
            chunks: impl Iterator<Item = $crate::xor::InOut<'a>>,
            z: [[$v; 4]; S],
            x: [[$v; 4]; S],
        ) {
            for ((chunk, z), x) in chunks.zip(z).zip(x) {
                // SAFETY: `into_raw` gives `len` (at most a block) bytes
                // readable at `src` and writable at `dst`, the same or
                // apart.
                unsafe { xor_final(z, x, chunk.into_raw()) };
            }
        }
    };
    // The few blocks at the end of a message, three interleaved at a time,
    // given the form's `single_rows`, `rounds` and `@blocks`.
    (@tail $feature:literal) => {
        /// Blocks `block .. block + N` of `state` (its counter words
        /// ignored), as `N` interleaved states, XORed into `data` (`N - 1`
        /// whole blocks and a last one at least partly used). The counter
        /// goes into the registers directly: a 64-bit add across words 12
        /// and 13 when it is wide, a 32-bit add to word 12 alone otherwise.
        #[inline]
        #[target_feature(enable = $feature)]
        fn xor_interleaved<const N: usize>(
            state: &[u32; 16],
            counter: $crate::vertical::Counter,
            block: u64,
            data: $crate::xor::InOut<'_>,
        ) {
            let rows = single_rows::<N>(state, counter, block);
            xor_single_rows(data.chunks($crate::chacha20::BLOCK_LEN), rounds(rows), rows);
        }

        /// The keystream from block `block` of `state` on (its counter
        /// words ignored), XORed into `data`: three blocks at a time as
        /// interleaved states, then the last one or two.
        #[inline]
        #[target_feature(enable = $feature)]
        pub(super) fn xor_tail(
            state: &[u32; 16],
            counter: $crate::vertical::Counter,
            block: u64,
            data: $crate::xor::InOut<'_>,
        ) {
            const BLOCK_LEN: usize = $crate::chacha20::BLOCK_LEN;
            for (i, chunk) in data.chunks(3 * BLOCK_LEN).enumerate() {
                let b = block.wrapping_add(3 * i as u64);
                match chunk.len().div_ceil(BLOCK_LEN) {
                    1 => xor_interleaved::<1>(state, counter, b, chunk),
                    2 => xor_interleaved::<2>(state, counter, b, chunk),
                    _ => xor_interleaved::<3>(state, counter, b, chunk),
                }
            }
        }
    };
    (
        @double_round fn $dr:ident, $feature:literal, $v:ty,
        add = $add:path, xor = $xor:path, shuffle = $shuffle:ident, rotl = $rotl:ident
    ) => {
        /// `inner_block` (RFC 8439 §2.3.1) of `N` states held as rows,
        /// interleaved.
        #[inline]
        #[target_feature(enable = $feature)]
        fn $dr<const N: usize>(sets: &mut [[$v; 4]; N]) {
            use $crate::chacha20::horizontal::{ROT1, ROT2, ROT3};
            use $crate::chacha20::quarter_round;
            for set in sets.iter_mut() {
                let [mut a, mut b, mut c, mut d] = *set;
                // The column round: the lanes of (a, b, c, d) are the four
                // columns.
                quarter_round!($add, $xor, $rotl; a, b, c, d);
                // The diagonal round: rows 0, 2 and 3 rotated by 3, 1 and 2
                // words bring the diagonals into the columns (lane `j` holds
                // the diagonal through `x[4 + j]`). Row 1, the last one the
                // column round writes, stays in place, so no shuffle waits
                // on it: one cycle less per round than rotating rows 1–3
                // (235 → 222 TSC ticks per block on Zen 3).
                a = ::core::arch::x86_64::$shuffle::<ROT3>(a);
                c = ::core::arch::x86_64::$shuffle::<ROT1>(c);
                d = ::core::arch::x86_64::$shuffle::<ROT2>(d);
                quarter_round!($add, $xor, $rotl; a, b, c, d);
                a = ::core::arch::x86_64::$shuffle::<ROT1>(a);
                c = ::core::arch::x86_64::$shuffle::<ROT3>(c);
                d = ::core::arch::x86_64::$shuffle::<ROT2>(d);
                *set = [a, b, c, d];
            }
        }
    };
}
pub(super) use horizontal;
