//! The Baikal-T1 article's SIMD S-box ("the implementation of the
//! algorithm with the use of the SIMD unit"), shared by the `ssse3` and
//! `avx2` rungs: one 32-bit half of a block per lane, the eight nibbles of
//! `x = N + K` looked up with byte shuffles (`pshufb`) in 16-byte tables
//! held in registers, two S-boxes a table.
//!
//! A shuffle gives each byte one table entry, chosen by the low nibble of
//! the same byte of the index (a set top bit gives zero). Byte `j` of the
//! substituted word is `K(2j+1)` of nibble `2j` in its low nibble and
//! `K(2j+2)` of nibble `2j+1` in its high nibble, so a table pairs an
//! S-box for a low nibble with one for a high nibble of another byte, and
//! each index register holds, per byte, the nibble those S-boxes take:
//!
//! - `A` = nibbles (0, 2, 5, 7) in bytes 0..3: bytes 0–1 of `x`, bytes 2–3
//!   of `x >> 4`, each masked to its low nibble; its tables are
//!   `K1 | K6 << 4` (bytes 0 and 2) and `K3 | K8 << 4` (bytes 1 and 3);
//! - `B` = nibbles (1, 3, 4, 6), the other halves: tables `K5 | K2 << 4`
//!   (bytes 2 and 0) and `K7 | K4 << 4` (bytes 3 and 1).
//!
//! Four shuffles, four masks keeping each result's useful nibbles, three
//! ORs, and the 11-bit rotation as two shifts and an OR (the article's
//! round, with the index built by 16-bit blends: two masks fewer). The
//! article pairs `K1`/`K8`, `K2`/`K7`, `K3`/`K6`, `K4`/`K5` and masks its
//! indexes out of `x` and `x >> 4` with two more ANDs.
//!
//! [`nibble_rung!`] writes, for one register width, the round and the
//! multi-block loop, each half-block of `W / 4` blocks per group of
//! registers, several groups interleaved.

use super::SBox;

/// Groups of registers interleaved in the bulk loop: the round is a
/// chain of about 20 dependent instructions, so eight independent
/// groups keep the shuffle and logic units busy (measured on Zen 4: 1.4×
/// the speed of two groups on ymm).
pub(super) const GROUPS: usize = 8;

/// The four 16-byte tables, in the order the round uses them (see the
/// module documentation): `t[0] = K1 | K6 << 4`, `t[1] = K3 | K8 << 4`,
/// `t[2] = K5 | K2 << 4`, `t[3] = K7 | K4 << 4`.
#[derive(Clone)]
pub(super) struct Tables {
    pub(super) t: [[u8; 16]; 4],
}

/// For each table, the S-box `(low nibble, high nibble)` (indexes into
/// `SBox::rows`, `K1` = 0).
const PAIRS: [(usize, usize); 4] = [(0, 5), (2, 7), (4, 1), (6, 3)];

/// For each table, the bits of the substituted word its lookup gives
/// (the complement of the masks of the other three).
pub(super) const KEEP: [u32; 4] = [0x00f0_000f, 0xf000_0f00, 0x000f_00f0, 0x0f00_f000];

impl Tables {
    pub(super) fn new(sbox: &SBox) -> Tables {
        let rows = sbox.rows();
        Tables {
            t: PAIRS.map(|(lo, hi)| std::array::from_fn(|x| rows[lo][x] | rows[hi][x] << 4)),
        }
    }
}

/// The byte shuffle that turns two blocks (16 bytes) in `order` into
/// `[N1, N1', N2, N2']`, the two blocks' halves as 32-bit words.
pub(super) const fn load_shuffle(big_endian: bool) -> [u8; 16] {
    let mut m = [0u8; 16];
    let mut word = 0;
    while word < 4 {
        // Word `word`: half `word / 2` (N1, N2) of block `word % 2`.
        let block = 8 * (word % 2);
        let half = word / 2;
        let mut byte = 0;
        while byte < 4 {
            m[4 * word + byte] = (if big_endian {
                // The block's big-endian u64: N2 in bytes 0..4, N1 in 4..8,
                // most significant byte first.
                block + 4 * (1 - half) + 3 - byte
            } else {
                block + 4 * half + byte
            }) as u8;
            byte += 1;
        }
        word += 1;
    }
    m
}

/// The inverse of [`load_shuffle`]: `[N2, N2', N1, N1']` (the halves
/// after the rounds, which leave the block as `N1 << 32 | N2`) into two
/// blocks in `order`.
pub(super) const fn store_shuffle(big_endian: bool) -> [u8; 16] {
    let load = load_shuffle(big_endian);
    let mut m = [0u8; 16];
    let mut i = 0;
    while i < 16 {
        m[load[i] as usize] = i as u8;
        i += 1;
    }
    m
}

/// Generates, in a rung's module, for registers `$R` of `$W` 32-bit lanes
/// (so `$W` blocks a pair of registers) with the intrinsics named:
///
/// - `struct Regs`, the tables and masks in registers, and `fn regs`;
/// - `fn f(c, x) -> $R`: the round function of `x = N + K` (the S-box and
///   the rotation);
/// - `unsafe fn groups::<G>(c, k, shuffles, src, dst)`: the 32 rounds on
///   `G · $W` blocks, `G` independent pairs of registers interleaved
///   round by round;
/// - `fn crypt_with(t, rk, order, blocks)`: batches of [`GROUPS`] groups,
///   then four, two and one group, then the last blocks through a stack
///   copy of one group.
///
/// The blend `$blend!(a, b)` takes bytes 0–1 of each lane from `a` and
/// bytes 2–3 from `b`.
macro_rules! nibble_rung {
    (
        feature = $feature:literal, reg = $R:ty, lanes = $W:literal,
        splat16 = $splat16:expr, set1 = $set1:path, add = $add:path, and = $and:path,
        or = $or:path, xor = $xor:path, shuffle = $shuffle:path, slli = $slli:ident,
        srli = $srli:ident, blend = $blend:ident, unpacklo64 = $lo64:path,
        unpackhi64 = $hi64:path, loadu = $loadu:path, storeu = $storeu:path
    ) => {
        /// The tables and masks of [`super::nibbles`] in registers.
        #[derive(Clone, Copy)]
        struct Regs {
            t: [$R; 4],
            keep: [$R; 4],
            nibble: $R,
        }

        #[target_feature(enable = $feature)]
        #[inline]
        fn regs(t: &super::nibbles::Tables) -> Regs {
            Regs {
                t: [0, 1, 2, 3].map(|i| $splat16(&t.t[i])),
                keep: super::nibbles::KEEP.map(|m| $set1(m as i32)),
                nibble: $set1(0x0f0f_0f0f),
            }
        }

        /// `f(x)`: each nibble through its S-box, rotated left by 11.
        #[target_feature(enable = $feature)]
        #[inline]
        fn f(c: &Regs, x: $R) -> $R {
            let s = $srli::<4>(x);
            let a = $and($blend!(x, s), c.nibble);
            let b = $and($blend!(s, x), c.nibble);
            let y = $or(
                $or(
                    $and($shuffle(c.t[0], a), c.keep[0]),
                    $and($shuffle(c.t[1], a), c.keep[1]),
                ),
                $or(
                    $and($shuffle(c.t[2], b), c.keep[2]),
                    $and($shuffle(c.t[3], b), c.keep[3]),
                ),
            );
            $or($slli::<11>(y), $srli::<21>(y))
        }

        /// The 32 rounds on the `G · $W` blocks at `src`, written to `dst`.
        ///
        /// # Safety
        ///
        /// `src` readable and `dst` writable for `8 · G · $W` bytes, the
        /// same address or not overlapping.
        #[target_feature(enable = $feature)]
        #[inline]
        unsafe fn groups<const G: usize>(
            c: &Regs,
            k: &[$R; 32],
            [load, store]: [$R; 2],
            src: *const u8,
            dst: *mut u8,
        ) {
            const REG: usize = 4 * $W;
            let mut n1 = [$set1(0); G];
            let mut n2 = [$set1(0); G];
            for g in 0..G {
                // SAFETY: registers `2g` and `2g + 1` are within the
                // `8 · G · $W` readable bytes (the caller).
                let (r0, r1) = unsafe {
                    (
                        $loadu(src.add(2 * g * REG).cast()),
                        $loadu(src.add((2 * g + 1) * REG).cast()),
                    )
                };
                let (r0, r1) = ($shuffle(r0, load), $shuffle(r1, load));
                n1[g] = $lo64(r0, r1);
                n2[g] = $hi64(r0, r1);
            }
            for pair in k.chunks_exact(2) {
                for g in 0..G {
                    n2[g] = $xor(n2[g], f(c, $add(n1[g], pair[0])));
                }
                for g in 0..G {
                    n1[g] = $xor(n1[g], f(c, $add(n2[g], pair[1])));
                }
            }
            for g in 0..G {
                let r0 = $shuffle($lo64(n2[g], n1[g]), store);
                let r1 = $shuffle($hi64(n2[g], n1[g]), store);
                // SAFETY: the same bytes as read, writable (the caller);
                // all of them were read above.
                unsafe {
                    $storeu(dst.add(2 * g * REG).cast(), r0);
                    $storeu(dst.add((2 * g + 1) * REG).cast(), r1);
                }
            }
        }

        /// The 32 rounds under `rk` on `blocks`: batches of
        /// [`GROUPS`](super::nibbles::GROUPS) groups of `$W` blocks, then
        /// four, two and one group as they fit, then the last `< $W`
        /// through a stack copy of one group.
        #[target_feature(enable = $feature)]
        #[inline]
        fn crypt_with(
            t: &super::nibbles::Tables,
            rk: &[u32; 32],
            order: super::Order,
            blocks: $crate::xor::InOut<'_>,
        ) {
            const GROUP: usize = 8 * $W;
            const G: usize = super::nibbles::GROUPS;
            let c = regs(t);
            let k = rk.map(|w| $set1(w as i32));
            let big = order == super::Order::Be;
            let shuffles = [
                $splat16(&super::nibbles::load_shuffle(big)),
                $splat16(&super::nibbles::store_shuffle(big)),
            ];
            super::by_groups!(
                blocks.into_raw(),
                GROUP,
                [G, 4, 2, 1],
                |N, src, dst| {
                    // SAFETY: `N` groups to read at `src` and write at
                    // `dst`, the same address or apart (`by_groups!`).
                    unsafe { groups::<N>(&c, &k, shuffles, src, dst) }
                }
            );
        }
    };
}
pub(super) use nibble_rung;
