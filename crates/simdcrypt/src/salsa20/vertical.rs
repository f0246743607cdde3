//! The vertical multi-block form shared by the `avx2` and `avx512` rungs,
//! written once: register `i` holds word `i` of `W` consecutive blocks (one
//! block per lane), so the quarter-rounds of spec §3–§6 run on whole
//! registers, and the registers are transposed into blocks only on output.
//!
//! [`vertical_batches!`] generates, for one register width, the function
//! that runs batches of `W` blocks and XORs them straight into the data; the
//! rungs instantiate it per width with their own rotate. The 8-lane ymm and
//! 4-lane xmm forms, which both rungs use, are complete here.

use core::arch::x86_64::{
    __m128i, __m256i, _mm_add_epi32, _mm_cmpgt_epi32, _mm_set1_epi32, _mm_setr_epi32,
    _mm_sub_epi32, _mm_unpackhi_epi32, _mm_unpackhi_epi64, _mm_unpacklo_epi32, _mm_unpacklo_epi64,
    _mm_xor_si128, _mm256_add_epi32, _mm256_cmpgt_epi32, _mm256_permute2x128_si256,
    _mm256_set1_epi32, _mm256_setr_epi32, _mm256_sub_epi32, _mm256_unpackhi_epi32,
    _mm256_unpackhi_epi64, _mm256_unpacklo_epi32, _mm256_unpacklo_epi64, _mm256_xor_si256,
};

/// Generates `fn $name(state, double_rounds, data) -> rest`: while all `W`
/// blocks of a batch are used (the last at least partly), computes the
/// keystream of `W` blocks from the counter in `state` (words 8 and 9) on,
/// XORs it into `data`, and steps the counter by `W`; returns the bytes left
/// (fewer than `W - 1` blocks).
///
/// Two forms: `fn name("features") on ymm|xmm, rotl = macro` for the
/// 8-lane and 4-lane forms of this file, and the full form naming the
/// register type, its operations, lane counters and transpose.
macro_rules! vertical_batches {
    ($(#[$attr:meta])* fn $name:ident($feature:literal) on ymm, rotl = $rotl:ident) => {
        $crate::salsa20::vertical::vertical_batches! {
            $(#[$attr])*
            fn $name($feature): 8 lanes of ::core::arch::x86_64::__m256i;
            splat = ::core::arch::x86_64::_mm256_set1_epi32,
            add = ::core::arch::x86_64::_mm256_add_epi32,
            xor = ::core::arch::x86_64::_mm256_xor_si256,
            rotl = $rotl,
            loadu = ::core::arch::x86_64::_mm256_loadu_si256,
            storeu = ::core::arch::x86_64::_mm256_storeu_si256,
            counters = $crate::salsa20::vertical::counters_8,
            transpose = $crate::salsa20::vertical::transpose_8,
        }
    };
    ($(#[$attr:meta])* fn $name:ident($feature:literal) on xmm, rotl = $rotl:ident) => {
        $crate::salsa20::vertical::vertical_batches! {
            $(#[$attr])*
            fn $name($feature): 4 lanes of ::core::arch::x86_64::__m128i;
            splat = ::core::arch::x86_64::_mm_set1_epi32,
            add = ::core::arch::x86_64::_mm_add_epi32,
            xor = ::core::arch::x86_64::_mm_xor_si128,
            rotl = $rotl,
            loadu = ::core::arch::x86_64::_mm_loadu_si128,
            storeu = ::core::arch::x86_64::_mm_storeu_si128,
            counters = $crate::salsa20::vertical::counters_4,
            transpose = $crate::salsa20::vertical::transpose_4,
        }
    };
    (
        $(#[$attr:meta])*
        fn $name:ident($feature:literal): $lanes:literal lanes of $v:ty;
        splat = $splat:path,
        add = $add:path,
        xor = $xor:path,
        rotl = $rotl:ident,
        loadu = $loadu:path,
        storeu = $storeu:path,
        counters = $counters:path,
        transpose = $transpose:path,
    ) => {
        $(#[$attr])*
        #[target_feature(enable = $feature)]
        pub(super) fn $name<'a>(
            state: &mut [u32; 16],
            double_rounds: usize,
            mut data: &'a mut [u8],
        ) -> &'a mut [u8] {
            use $crate::salsa20::quarterround;
            const LANES: usize = $lanes;
            const BLOCK_LEN: usize = $crate::salsa20::BLOCK_LEN;
            /// Registers per 64-byte block after the transpose.
            const PER_BLOCK: usize = BLOCK_LEN / ::core::mem::size_of::<$v>();

            /// `out ^= block`: unaligned loads, XOR, stores.
            #[inline]
            #[target_feature(enable = $feature)]
            fn xor_block(out: &mut [u8; BLOCK_LEN], block: [$v; PER_BLOCK]) {
                let (outs, _) = out.as_chunks_mut::<{ BLOCK_LEN / PER_BLOCK }>();
                for (out, ks) in outs.iter_mut().zip(block) {
                    // SAFETY: `out` is one register's worth of readable and
                    // writable bytes; the load and store are unaligned.
                    unsafe {
                        let d = $loadu(out.as_ptr().cast());
                        $storeu(out.as_mut_ptr().cast(), $xor(d, ks));
                    }
                }
            }

            if data.len() <= (LANES - 1) * BLOCK_LEN {
                return data;
            }
            // Word `i` of every lane, broadcast once; per batch only the
            // counter words 8 and 9 change.
            let w = |i: usize| $splat(state[i] as i32);
            let input: [$v; 16] = [
                w(0), w(1), w(2), w(3), w(4), w(5), w(6), w(7),
                w(8), w(9), w(10), w(11), w(12), w(13), w(14), w(15),
            ];
            while data.len() > (LANES - 1) * BLOCK_LEN {
                // Lane `j` is block `counter + j`, the carry into word 9 included.
                let (lo, hi) = $counters(state[8], state[9]);
                let [
                    mut x0, mut x1, mut x2, mut x3, mut x4, mut x5, mut x6, mut x7,
                    _, _, mut x10, mut x11, mut x12, mut x13, mut x14, mut x15,
                ] = input;
                let (mut x8, mut x9) = (lo, hi);
                for _ in 0..double_rounds {
                    // doubleround (spec §6): columnround (§5) ...
                    quarterround!($add, $xor, $rotl; x0, x4, x8, x12);
                    quarterround!($add, $xor, $rotl; x5, x9, x13, x1);
                    quarterround!($add, $xor, $rotl; x10, x14, x2, x6);
                    quarterround!($add, $xor, $rotl; x15, x3, x7, x11);
                    // ... then rowround (§4).
                    quarterround!($add, $xor, $rotl; x0, x1, x2, x3);
                    quarterround!($add, $xor, $rotl; x5, x6, x7, x4);
                    quarterround!($add, $xor, $rotl; x10, x11, x8, x9);
                    quarterround!($add, $xor, $rotl; x15, x12, x13, x14);
                }
                // The final addition (spec §8), then one block per entry.
                let blocks: [[$v; PER_BLOCK]; LANES] = $transpose([
                    $add(x0, input[0]), $add(x1, input[1]), $add(x2, input[2]),
                    $add(x3, input[3]), $add(x4, input[4]), $add(x5, input[5]),
                    $add(x6, input[6]), $add(x7, input[7]), $add(x8, lo),
                    $add(x9, hi), $add(x10, input[10]), $add(x11, input[11]),
                    $add(x12, input[12]), $add(x13, input[13]), $add(x14, input[14]),
                    $add(x15, input[15]),
                ]);

                let n = data.len().min(LANES * BLOCK_LEN);
                let (batch, rest) = ::core::mem::take(&mut data).split_at_mut(n);
                data = rest;
                // The first `LANES - 1` blocks are whole; the last may not be.
                let (whole, last) = batch.split_at_mut((LANES - 1) * BLOCK_LEN);
                for (out, block) in whole.as_chunks_mut::<BLOCK_LEN>().0.iter_mut().zip(blocks) {
                    xor_block(out, block);
                }
                match <&mut [u8; BLOCK_LEN]>::try_from(&mut *last) {
                    Ok(out) => xor_block(out, blocks[LANES - 1]),
                    Err(_) => {
                        // The final, partly used block: its keystream on
                        // the stack, XORed into the bytes there are.
                        let mut ks = [[0u8; BLOCK_LEN / PER_BLOCK]; PER_BLOCK];
                        for (ks, v) in ks.iter_mut().zip(blocks[LANES - 1]) {
                            // SAFETY: `ks` is one register's worth of
                            // writable bytes; the store is unaligned.
                            unsafe { $storeu(ks.as_mut_ptr().cast(), v) };
                        }
                        for (d, k) in last.iter_mut().zip(ks.as_flattened()) {
                            *d ^= k;
                        }
                    }
                }
                $crate::salsa20::set_counter(
                    state,
                    $crate::salsa20::counter(state).wrapping_add(LANES as u64),
                );
            }
            data
        }
    };
}
pub(super) use vertical_batches;

/// Lane counters for 8 blocks: words 8 (`lo + j`) and 9 (`hi`, plus the
/// carry out of `lo + j`) of blocks `j = 0..8`.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn counters_8(lo: u32, hi: u32) -> (__m256i, __m256i) {
    let lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    let lo = _mm256_add_epi32(_mm256_set1_epi32(lo as i32), lane);
    // Carried where `lo + j < j` unsigned: compared signed with the top bits
    // flipped, all-ones where true, so subtracting adds 1.
    let bias = _mm256_set1_epi32(i32::MIN);
    let carry = _mm256_cmpgt_epi32(_mm256_xor_si256(lane, bias), _mm256_xor_si256(lo, bias));
    (lo, _mm256_sub_epi32(_mm256_set1_epi32(hi as i32), carry))
}

/// Lane counters for 4 blocks, as [`counters_8`].
#[inline]
#[target_feature(enable = "sse2")]
pub(super) fn counters_4(lo: u32, hi: u32) -> (__m128i, __m128i) {
    let lane = _mm_setr_epi32(0, 1, 2, 3);
    let lo = _mm_add_epi32(_mm_set1_epi32(lo as i32), lane);
    let bias = _mm_set1_epi32(i32::MIN);
    let carry = _mm_cmpgt_epi32(_mm_xor_si128(lane, bias), _mm_xor_si128(lo, bias));
    (lo, _mm_sub_epi32(_mm_set1_epi32(hi as i32), carry))
}

/// 8×8 words twice: from `z[i]` = word `i` of blocks 0–7 to block `j` =
/// words 0–7 then 8–15. Within each 128-bit half, `unpack*_epi32` and
/// `unpack*_epi64` turn four word-registers into four block-quarters; the
/// halves' quarters are then paired across by `vperm2i128`.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn transpose_8(z: [__m256i; 16]) -> [[__m256i; 2]; 8] {
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
#[inline]
#[target_feature(enable = "sse2")]
pub(super) fn transpose_4(z: [__m128i; 16]) -> [[__m128i; 4]; 4] {
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

#[cfg(test)]
mod tests {
    use crate::Xor;

    /// Every length 0..=2100 (so every path of the 16/8/4/1 cascade and
    /// every partial last block), counters at and below the carry into word
    /// 9 and at the end of the keystream, Salsa20/20, /12 and /8: the rung's
    /// XOR against the scalar no-transpose rung's.
    fn check(name: &str, xor_keystream: impl Fn(&[u32; 16], usize, &mut [u8])) {
        const MAX: usize = 2100;
        let pattern: Vec<u8> = (0..MAX).map(|i| (i * 151 + 7) as u8).collect();
        let counters = [
            0,
            5,
            (1 << 32) - 1,
            (1 << 32) - 9,
            (1 << 32) - 17,
            u64::MAX - 40,
        ];
        for double_rounds in [10, 6, 4] {
            for counter in counters {
                let mut state: [u32; 16] =
                    std::array::from_fn(|i| (i as u32 + 1).wrapping_mul(0x9e37_79b9));
                super::super::set_counter(&mut state, counter);
                let mut expected = pattern.clone();
                super::super::xor_blocks(
                    |x| super::super::no_transpose::double_rounds(x, double_rounds),
                    Xor::Bytewise,
                    &state,
                    &mut expected,
                );
                for len in 0..=MAX {
                    let mut data = pattern[..len].to_vec();
                    xor_keystream(&state, double_rounds, &mut data);
                    assert!(
                        data == expected[..len],
                        "{name}: {double_rounds} double-rounds, counter {counter:#x}, {len} bytes"
                    );
                }
            }
        }
    }

    #[test]
    fn avx2_matches_no_transpose() {
        if !std::is_x86_feature_detected!("avx2") {
            eprintln!("skipped: this CPU lacks AVX2");
            return;
        }
        check("avx2", |x, n, data| {
            // SAFETY: the CPU has AVX2, checked above.
            unsafe { super::super::avx2::xor_keystream(x, n, data) }
        });
    }

    #[test]
    fn avx512_matches_no_transpose() {
        if !(std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512vl"))
        {
            eprintln!("skipped: this CPU lacks AVX-512F and AVX-512VL");
            return;
        }
        check("avx512", |x, n, data| {
            // SAFETY: the CPU has AVX-512F and AVX-512VL, checked above.
            unsafe { super::super::avx512::xor_keystream(x, n, data) }
        });
    }
}
