//! The SHA-1 message schedule (FIPS 180-4 §6.1.2 step 1) in SIMD registers,
//! interleaved with the scalar rounds: the approach of M. Locktyukhin,
//! "Improving the Performance of the Secure Hash Algorithm (SHA-1)" (Intel,
//! 2010), written once over the register width ([`schedule!`]) for the
//! `ssse3` rung (xmm, one block) and the `avx2` rung (ymm, two blocks, one
//! per 128-bit lane).
//!
//! The schedule is computed in groups of 4 words, group `g` holding
//! W_{4g} … W_{4g+3}; groups 0–3 are the block's words, byte-swapped by
//! `pshufb`. Groups 4–7 follow W_t = ROTL¹(W_{t-3} ⊕ W_{t-8} ⊕ W_{t-14} ⊕
//! W_{t-16}): the last word's W_{t-3} is the first word's W_t, made in the
//! same register, so it is taken as 0 and fixed up after (ROTL¹ of the
//! missing term is ROTL² of the first word's pre-rotation value, XORed into
//! the last word). From group 8 on (t ≥ 32) the equivalent W_t =
//! ROTL²(W_{t-6} ⊕ W_{t-16} ⊕ W_{t-28} ⊕ W_{t-32}) has no dependence
//! inside a group at all. Each group, plus K_t, goes to a stack buffer from
//! which the scalar rounds read W_t + K_t; group `g + 4` is computed during
//! rounds `4g … 4g + 3`, and the next block's groups 0–3 during the last 16
//! rounds, so the vector unit works beside the scalar round chain.

/// Generates, in a module `$m`, the vector schedule on one register width
/// with the target features `$feature`, and its compression loop:
///
/// - `xmm`: `compress(h, blocks)`, one block at a time, each block's rounds
///   interleaved with its own schedule and the next block's first groups.
/// - `ymm`: `compress_pairs(h, pairs)`, two blocks at a time: the schedule
///   of both in one ymm register per group, computed during the first
///   block's rounds; the second block's rounds read its W + K ready-made,
///   beside the first groups of the next pair.
macro_rules! schedule {
    (mod $m:ident, $feature:literal, xmm) => {
        mod $m {
            use ::core::arch::x86_64::{__m128i, _mm_loadu_si128, _mm_setr_epi8, _mm_shuffle_epi8};

            $crate::hash::sha1::schedule::schedule!(@ops $feature, __m128i, lanes 1,
                _mm_xor_si128, _mm_add_epi32, _mm_slli_epi32, _mm_srli_epi32, _mm_alignr_epi8,
                _mm_bslli_si128, _mm_bsrli_si128, _mm_set1_epi32);

            /// Group `g` (0–3) of `block`'s words, byte-swapped to
            /// big-endian words (§3.1).
            #[inline]
            #[target_feature(enable = $feature)]
            fn load(block: &[u8; 64], g: usize) -> __m128i {
                let (chunks, _) = block.as_chunks::<16>();
                // SAFETY: `chunks[g]` is 16 readable bytes; the load is unaligned.
                let v = unsafe { _mm_loadu_si128(chunks[g].as_ptr().cast()) };
                _mm_shuffle_epi8(
                    v,
                    _mm_setr_epi8(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12),
                )
            }

            /// Hashes the blocks into the hash value `h`, one after another.
            #[target_feature(enable = $feature)]
            pub(crate) fn compress(h: &mut [u32; 5], blocks: &[[u8; 64]]) {
                let Some(first) = blocks.first() else {
                    return;
                };
                let mut state = *h;
                let mut buf = Buffer([[0; 4]; 20]);
                let mut w = [::core::arch::x86_64::_mm_setzero_si128(); 8];
                for g in 0..4 {
                    w[g] = load(first, g);
                    store(&mut buf, g, w[g]);
                }
                for (i, block) in blocks.iter().enumerate() {
                    // The last block loads its own words again, in vain.
                    let next = blocks.get(i + 1).unwrap_or(block);
                    macro_rules! wk {
                        ($t:literal) => {
                            buf.0[$t / 4][$t % 4]
                        };
                    }
                    macro_rules! after {
                        ($g:literal) => {{
                            let g = ($g + 4) % 20;
                            w[g % 8] = if $g < 16 { group(&w, g) } else { load(next, g) };
                            store(&mut buf, g, w[g % 8]);
                        }};
                    }
                    $crate::hash::sha1::scalar::eighty_rounds!(state, wk, after);
                }
                *h = state;
            }
        }
    };
    (mod $m:ident, $feature:literal, ymm) => {
        mod $m {
            use ::core::arch::x86_64::{
                __m128i, __m256i, _mm256_loadu2_m128i, _mm256_setr_epi8, _mm256_shuffle_epi8,
            };

            $crate::hash::sha1::schedule::schedule!(@ops $feature, __m256i, lanes 2,
                _mm256_xor_si256, _mm256_add_epi32, _mm256_slli_epi32, _mm256_srli_epi32,
                _mm256_alignr_epi8, _mm256_bslli_epi128, _mm256_bsrli_epi128, _mm256_set1_epi32);

            /// Group `g` (0–3) of both blocks' words, the first block in
            /// the low lane, byte-swapped to big-endian words (§3.1).
            #[inline]
            #[target_feature(enable = $feature)]
            fn load(pair: &[[u8; 64]; 2], g: usize) -> __m256i {
                let (lo, _) = pair[0].as_chunks::<16>();
                let (hi, _) = pair[1].as_chunks::<16>();
                // SAFETY: `lo[g]` and `hi[g]` are 16 readable bytes each;
                // the loads are unaligned.
                let v = unsafe {
                    _mm256_loadu2_m128i(
                        hi[g].as_ptr().cast::<__m128i>(),
                        lo[g].as_ptr().cast::<__m128i>(),
                    )
                };
                _mm256_shuffle_epi8(
                    v,
                    _mm256_setr_epi8(
                        3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12, //
                        3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12,
                    ),
                )
            }

            /// Hashes the pairs of blocks into the hash value `h`, one
            /// pair after another.
            #[target_feature(enable = $feature)]
            pub(crate) fn compress_pairs(h: &mut [u32; 5], pairs: &[[[u8; 64]; 2]]) {
                let Some(first) = pairs.first() else {
                    return;
                };
                let mut state = *h;
                // Group `g` of the first block in `buf.0[g][..4]`, of the
                // second in `buf.0[g][4..]`.
                let mut buf = Buffer([[0; 8]; 20]);
                let mut w = [::core::arch::x86_64::_mm256_setzero_si256(); 8];
                for g in 0..4 {
                    w[g] = load(first, g);
                    store(&mut buf, g, w[g]);
                }
                for (i, pair) in pairs.iter().enumerate() {
                    // The last pair loads its own words again, in vain.
                    let next = pairs.get(i + 1).unwrap_or(pair);
                    // The first block, with both blocks' groups 4–19.
                    macro_rules! wk {
                        ($t:literal) => {
                            buf.0[$t / 4][$t % 4]
                        };
                    }
                    macro_rules! after {
                        ($g:literal) => {
                            if $g < 16 {
                                let g = $g + 4;
                                w[g % 8] = group(&w, g);
                                store(&mut buf, g, w[g % 8]);
                            }
                        };
                    }
                    $crate::hash::sha1::scalar::eighty_rounds!(state, wk, after);
                    // The second block, with the next pair's groups 0–3,
                    // each written over a group these rounds are done with.
                    macro_rules! wk {
                        ($t:literal) => {
                            buf.0[$t / 4][4 + $t % 4]
                        };
                    }
                    macro_rules! after {
                        ($g:literal) => {
                            if $g < 4 {
                                w[$g % 8] = load(next, $g);
                                store(&mut buf, $g, w[$g % 8]);
                            }
                        };
                    }
                    $crate::hash::sha1::scalar::eighty_rounds!(state, wk, after);
                }
                *h = state;
            }
        }
    };
    (@ops $feature:literal, $V:ident, lanes $lanes:literal,
        $xor:ident, $add:ident, $slli:ident, $srli:ident, $alignr:ident,
        $bslli:ident, $bsrli:ident, $set1:ident) => {
        use ::core::arch::x86_64::{$add, $alignr, $bslli, $bsrli, $set1, $slli, $srli, $xor};

        /// `x <<< L` on each 32-bit lane (`R` = 32 − `L`).
        #[inline]
        #[target_feature(enable = $feature)]
        fn rotl<const L: i32, const R: i32>(x: $V) -> $V {
            $xor($slli::<L>(x), $srli::<R>(x))
        }

        /// Group `g` (4–19) of the schedule from the last 8 groups in
        /// `w` (group `j` in `w[j % 8]`).
        #[inline]
        #[target_feature(enable = $feature)]
        fn group(w: &[$V; 8], g: usize) -> $V {
            // Group g − i is w[(g + 8 − i) % 8].
            let back = |i: usize| w[(g + 8 - i) % 8];
            if g < 8 {
                // ROTL¹(W_{t-3} ⊕ W_{t-8} ⊕ W_{t-14} ⊕ W_{t-16}), the last
                // word's W_{t-3} (this group's first word) taken as 0 ...
                let t3 = $bsrli::<4>(back(1));
                let t14 = $alignr::<8>(back(3), back(4));
                let x = $xor($xor(t3, back(2)), $xor(t14, back(4)));
                // ... and fixed up: ROTL² of the first word's x, in the last.
                $xor(rotl::<1, 31>(x), rotl::<2, 30>($bslli::<12>(x)))
            } else {
                // ROTL²(W_{t-6} ⊕ W_{t-16} ⊕ W_{t-28} ⊕ W_{t-32}).
                let t6 = $alignr::<8>(back(1), back(2));
                rotl::<2, 30>($xor($xor(t6, back(4)), $xor(back(7), back(8))))
            }
        }

        /// The rounds' W + K: group `g` in `0[g]`, aligned for the
        /// vector stores.
        #[repr(align(32))]
        struct Buffer([[u32; 4 * $lanes]; 20]);

        /// Writes group `g` plus K_t (§4.2.1) to the rounds' buffer. The
        /// store is volatile: the rounds must read W + K from memory (a
        /// load folded into their `add`), which LLVM would otherwise
        /// replace by word extractions (`pshufd` + `movd`), two vector
        /// instructions a word.
        #[inline]
        #[target_feature(enable = $feature)]
        fn store(buf: &mut Buffer, g: usize, v: $V) {
            let wk = $add(v, $set1($crate::hash::sha1::K[g / 5] as i32));
            // SAFETY: `buf.0[g]` is as many writable bytes as the register,
            // aligned for it (`Buffer` is 32-byte aligned and each row a
            // multiple of 16 bytes, 32 for ymm).
            unsafe { ::core::ptr::write_volatile(buf.0[g].as_mut_ptr().cast::<$V>(), wk) };
        }
    };
}
pub(super) use schedule;
