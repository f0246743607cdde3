//! The BlockMix and ROMix every SIMD rung shares (x86-64's and aarch64's),
//! written once as a macro over the register type and its operations. Each
//! sub-block lives in four registers in the `sse2-shuffle` diagonal layout (a register holds one
//! row of one block per 128-bit lane, so one, two or four lanes of `p`
//! side by side) from the first load to the last store: BlockMix's XORs,
//! the Salsa20/8 feedforward and Integerify all work on the shuffled words.
//!
//! Memory: V grows entry by entry, each BlockMix of the first loop writing
//! straight into the next entry (no copies); in the second loop `T = X ⊕ V_j`
//! is fused into BlockMix's loads, X alternates between two buffers, and
//! all of `V_j` is prefetched as soon as Integerify gives `j`, so that its
//! cache lines arrive in parallel instead of one per sub-block.

/// Declares a rung's `ro_mix` (and the `block_mix` and `salsa20_8` it
/// inlines) for `lanes` lanes at once in registers `reg`, with lane-wise
/// `add`, `xor`, `shuffle` (`pshufd`-like) intrinsics and the `rotl` macro;
/// `load(blocks, [index; lanes]) -> [reg; 4]` gathers one sub-block of each
/// lane, `store(x, blocks, [index; lanes])` scatters them back.
macro_rules! simd_rung {
    (
        feature = $feature:literal, lanes = $lanes:literal, reg = $Reg:ty,
        add = $add:ident, xor = $xor:ident, rotl = $rotl:ident, shuffle = $shuffle:ident,
        load = $load:ident, store = $store:ident $(,)?
    ) => {
        use $crate::kdf::scrypt::{Block, Layout, Scratch};

        /// The Salsa20/8 core (RFC 7914 §3) of the blocks in `x`: four
        /// double-rounds, then the final addition.
        #[inline]
        #[target_feature(enable = $feature)]
        fn salsa20_8(x: [$Reg; 4]) -> [$Reg; 4] {
            let [mut a, mut b, mut c, mut d] = x;
            for _ in 0..4 {
                $crate::salsa20::diagonal::double_round!($add, $xor, $rotl, $shuffle; a, b, c, d);
            }
            [$add(a, x[0]), $add(b, x[1]), $add(c, x[2]), $add(d, x[3])]
        }

        /// `x ⊕ y`, register by register.
        #[inline]
        #[target_feature(enable = $feature)]
        fn xor4(x: [$Reg; 4], y: [$Reg; 4]) -> [$Reg; 4] {
            [$xor(x[0], y[0]), $xor(x[1], y[1]), $xor(x[2], y[2]), $xor(x[3], y[3])]
        }

        /// scryptBlockMix (RFC 7914 §4) of the lanes of `input` (lane `l`
        /// at sub-block `l·2r`) into `output`; with `XOR`, each lane's input
        /// is first XORed with its `V_j` at `v[v_at[l]..]` (ROMix step 3).
        #[inline]
        #[target_feature(enable = $feature)]
        fn block_mix<const XOR: bool>(
            input: &[Block],
            v: &[Block],
            v_at: [usize; $lanes],
            output: &mut [Block],
        ) {
            let two_r = input.len() / $lanes;
            let r = two_r / 2;
            let at = |i: usize| -> [usize; $lanes] { std::array::from_fn(|l| l * two_r + i) };
            let v_sub = |i: usize| -> [usize; $lanes] { std::array::from_fn(|l| v_at[l] + i) };
            // 1. X = B_{2r−1}
            let mut x = $load(input, at(two_r - 1));
            if XOR {
                x = xor4(x, $load(v, v_sub(two_r - 1)));
            }
            // 2. for i = 0 to 2r − 1: X = Salsa(X xor B_i); Y_i = X
            for i in 0..two_r {
                let mut t = xor4(x, $load(input, at(i)));
                if XOR {
                    t = xor4(t, $load(v, v_sub(i)));
                }
                x = salsa20_8(t);
                // 3. B' = (Y_0, Y_2, …, Y_{2r−2}, Y_1, Y_3, …, Y_{2r−1})
                $store(x, output, at(i / 2 + (i % 2) * r));
            }
        }

        /// [`block_mix`] without `V_j`, for the tests of RFC 7914 §9.
        ///
        /// # Safety
        ///
        /// The CPU must have the rung's features.
        #[cfg(feature = "hazmat")]
        #[target_feature(enable = $feature)]
        pub(in crate::kdf::scrypt) unsafe fn block_mix_lanes(input: &[Block], output: &mut [Block]) {
            block_mix::<false>(input, &[], [0; $lanes], output);
        }

        /// scryptROMix (RFC 7914 §5) with `N = n` (even) of the lanes of
        /// `b` (lane `l` at sub-block `l·2r`) in place, in the diagonal
        /// layout.
        ///
        /// # Safety
        ///
        /// The CPU must have the rung's features.
        #[target_feature(enable = $feature)]
        pub(in crate::kdf::scrypt) unsafe fn ro_mix(b: &mut [Block], scratch: &mut Scratch, n: usize) {
            let entry = b.len();
            let two_r = entry / $lanes;
            let (v, x) = scratch.parts();
            let v = &mut v[..n * entry];
            // 1–2. V_0 = B; V_{i+1} = BlockMix(V_i), written straight into
            // V; the last BlockMix goes to B.
            v[..entry].copy_from_slice(b);
            for i in 0..n - 1 {
                let (filled, next) = v.split_at_mut((i + 1) * entry);
                block_mix::<false>(&filled[i * entry..], &[], [0; $lanes], &mut next[..entry]);
            }
            block_mix::<false>(&v[(n - 1) * entry..], &[], [0; $lanes], b);
            // 3. j = Integerify(X) mod N; X = BlockMix(X xor V_j), X
            // alternating between B and the scratch buffer (N is even, so
            // it ends in B).
            for k in 0..n {
                let (src, dst): (&[Block], &mut [Block]) = if k % 2 == 0 {
                    (b, x)
                } else {
                    (x, b)
                };
                let v_at: [usize; $lanes] = std::array::from_fn(|l| {
                    let j = Layout::DIAGONAL.integerify(&src[l * two_r..(l + 1) * two_r], n);
                    (j * $lanes + l) * two_r
                });
                for at in v_at {
                    $crate::kdf::scrypt::prefetch(&v[at..at + two_r]);
                }
                block_mix::<true>(src, v, v_at, dst);
            }
        }
    };
}

pub(super) use simd_rung;
