//! What the byte-sliced Camellia rungs share (`aesni`, `vaes`, `gfni` on
//! x86-64, `armv8` on aarch64), written once over the register ([`Slice`]:
//! xmm, ymm, zmm, NEON's q registers) and the way the s-boxes are computed
//! ([`SBoxes`]): Kivilinna's byte-sliced Camellia.
//!
//! A batch is 16 registers of [`Slice::BLOCKS`] 16-byte lanes: 16, 32 or
//! 64 blocks, loaded as they lie in memory and transposed (a 16 × 16 byte
//! transpose in each lane) so that register `j` holds byte `j` of every
//! block: registers 0–7 the left half D1 (byte 0 its most significant),
//! 8–15 the right half D2. Then every step of RFC 3713 acts on whole
//! registers: the subkeys' bytes broadcast and XORed; the eight s-boxes of
//! F (§2.4.1) on eight registers; the P-function as 16 XORs between them;
//! FL and FL^-1 (§2.4.2) on the 32-bit words as four registers each, the
//! rotation by one bit carried from each byte register into the next. The
//! result is transposed back.
//!
//! The s-boxes are inversion in GF(2^8) between two affine maps. SBOX1 is
//! `x ↦ B · inv(A · x ⊕ 0x45) ⊕ 0x6e` with inversion in AES's field and
//! [`A`], [`B`] below; SBOX2, SBOX3 rotate its output (B rotated), SBOX4
//! its input (A rotated). `gfni` computes each as two GFNI instructions
//! (`x86.rs`); `aesni`, `vaes` and `armv8` take the inversion from an AES
//! last round with a zero round key ([`AesRound`]: `aesenclast`, `aese`;
//! its ShiftRows undone by a byte shuffle before it), the affine maps on
//! each side as two 16-entry byte-shuffle lookups (`pshufb`, `tbl`; low
//! and high nibble), the output map also undoing AES's own affine map.
//!
//! The drivers ([`ecb_batches`], [`ctr_batches`],
//! [`feedback_decrypt_batches`]) run whole batches on each register width
//! a rung lists, widest first, and the rest (fewer than 16 blocks, CTR's
//! partial block included) as one batch of 16-byte registers on the
//! stack. Everything here is `#[inline(always)]` and `unsafe`: it is
//! compiled inside the rung's `#[target_feature]` function, whose features
//! the caller of each function promises.

use super::key_schedule::Subkeys;
use crate::xor::InOut;

// ---------------------------------------------------------------------------
// The s-boxes as affine maps around an inversion.

/// A linear map on bytes over GF(2), given by the images of the eight bits
/// (`0.0[i]` is the image of `1 << i`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Linear(pub(super) [u8; 8]);

impl Linear {
    /// The image of `x`: the XOR of the columns of its set bits.
    pub(super) const fn apply(&self, x: u8) -> u8 {
        let mut y = 0;
        let mut i = 0;
        while i < 8 {
            if x >> i & 1 == 1 {
                y ^= self.0[i];
            }
            i += 1;
        }
        y
    }

    /// `x ↦ self(x) <<< n`.
    const fn then_rotate(self, n: u32) -> Linear {
        let mut c = self.0;
        let mut i = 0;
        while i < 8 {
            c[i] = c[i].rotate_left(n);
            i += 1;
        }
        Linear(c)
    }

    /// `x ↦ self(x <<< n)`.
    const fn after_rotate(self, n: u32) -> Linear {
        let mut c = [0; 8];
        let mut i = 0;
        while i < 8 {
            c[i] = self.apply((1u8 << i).rotate_left(n));
            i += 1;
        }
        Linear(c)
    }

    /// `x ↦ self(other(x))`.
    pub(super) const fn after(self, other: Linear) -> Linear {
        let mut c = [0; 8];
        let mut i = 0;
        while i < 8 {
            c[i] = self.apply(other.0[i]);
            i += 1;
        }
        Linear(c)
    }

}

/// An affine map `x ↦ linear(x) ⊕ constant` on bytes.
#[derive(Clone, Copy, Debug)]
pub(super) struct Affine {
    pub(super) linear: Linear,
    pub(super) constant: u8,
}

impl Affine {
    /// The image of `x`.
    const fn apply(&self, x: u8) -> u8 {
        self.linear.apply(x) ^ self.constant
    }

    /// `x ↦ self(x) <<< n`.
    const fn then_rotate(self, n: u32) -> Affine {
        Affine {
            linear: self.linear.then_rotate(n),
            constant: self.constant.rotate_left(n),
        }
    }

    /// `x ↦ self(other(x))`.
    const fn after(self, other: Affine) -> Affine {
        Affine {
            linear: self.linear.after(other.linear),
            constant: self.apply(other.constant),
        }
    }

    /// The two `pshufb` tables whose lookups, XORed, compute the map: the
    /// low nibble's images (with the constant), the high nibble's.
    const fn nibble_tables(self) -> [[u8; 16]; 2] {
        let mut t = [[0; 16]; 2];
        let mut n = 0;
        while n < 16 {
            t[0][n] = self.apply(n as u8);
            t[1][n] = self.linear.apply((n as u8) << 4);
            n += 1;
        }
        t
    }
}

/// The input map of SBOX1 into AES's field (GF(2^8) modulo
/// x^8 + x^4 + x^3 + x + 1): Camellia's input affine map composed with
/// the isomorphism from its tower field (Kivilinna's thesis, θ₁, as in
/// the GFNI Camellia of libgcrypt and Botan). The test
/// `s_boxes_are_inversions_between_affine_maps` proves it, with [`B`],
/// on all 256 inputs.
pub(super) const A: Affine = Affine {
    linear: Linear([0xad, 0x05, 0x6b, 0x0e, 0x51, 0xf1, 0x8a, 0x09]),
    constant: 0x45,
};

/// The output map of SBOX1 from AES's field: what is left of SBOX1 after
/// [`A`] and the inversion, found by solving `B(inv(A(x))) = SBOX1[x]`
/// over the 256 inputs (it is affine, which the test checks).
const B: Affine = Affine {
    linear: Linear([0x14, 0x62, 0x46, 0xec, 0xfc, 0xf6, 0x7e, 0x49]),
    constant: 0x6e,
};

/// The inverse of AES's affine map (FIPS 197 §5.1.1):
/// `b ↦ (b <<< 1) ⊕ (b <<< 3) ⊕ (b <<< 6) ⊕ 0x05`, so that
/// `inv(x) = AES_AFFINE_INVERSE(SubBytes(x))`.
const AES_AFFINE_INVERSE: Affine = Affine {
    linear: {
        let mut c = [0; 8];
        let mut i = 0;
        while i < 8 {
            let bit = 1u8 << i;
            c[i] = bit.rotate_left(1) ^ bit.rotate_left(3) ^ bit.rotate_left(6);
            i += 1;
        }
        Linear(c)
    },
    constant: 0x05,
};

/// The input map of SBOX`n` (1..=4): SBOX4 rotates its input first.
pub(super) const fn input_map(n: usize) -> Affine {
    if n == 4 {
        Affine {
            linear: A.linear.after_rotate(1),
            constant: A.constant,
        }
    } else {
        A
    }
}

/// The output map of SBOX`n` after an inversion: SBOX2 rotates SBOX1's
/// output left by 1, SBOX3 by 7.
pub(super) const fn output_map(n: usize) -> Affine {
    match n {
        2 => B.then_rotate(1),
        3 => B.then_rotate(7),
        _ => B,
    }
}

// ---------------------------------------------------------------------------
// Registers of byte slices.

/// A register of [`Slice::BLOCKS`] 16-byte lanes and what the kernels do
/// with it.
///
/// # Safety
///
/// Every method needs the CPU features of its register: SSSE3 for
/// `__m128i`, AVX2 for `__m256i`, AVX-512F and AVX-512BW for `__m512i`,
/// NEON for `uint8x16_t`; besides, [`Slice::sub_bytes`] and
/// [`Slice::inv_sub_bytes`] AES-NI (VAES on ymm and zmm; the ARMv8 AES
/// instructions on NEON). They are `#[inline(always)]`, so compiled into
/// a function that enables them.
pub(super) trait Slice: Copy {
    /// 16-byte lanes per register.
    const BLOCKS: usize;
    /// Bytes per register.
    const BYTES: usize = 16 * Self::BLOCKS;
    /// Bytes per batch: 16 registers.
    const BATCH_BYTES: usize = 16 * Self::BYTES;

    /// `BYTES` bytes from `src`, unaligned.
    unsafe fn load(src: *const u8) -> Self;
    /// Writes `BYTES` bytes to `dst`, unaligned.
    unsafe fn store(self, dst: *mut u8);
    /// The 16 bytes `lane` in every lane.
    unsafe fn lanes(lane: &[u8; 16]) -> Self;
    /// Writes the last lane to `dst`.
    unsafe fn store_last(self, dst: &mut [u8; 16]);
    /// The 32-bit word `word` in every word.
    unsafe fn splat(word: u32) -> Self;
    /// `self ⊕ other`.
    unsafe fn xor(self, other: Self) -> Self;
    /// `self & other`.
    unsafe fn and(self, other: Self) -> Self;
    /// `self | other`.
    unsafe fn or(self, other: Self) -> Self;
    /// `self + other` in each byte, modulo 256.
    unsafe fn add8(self, other: Self) -> Self;
    /// `self - other` in each byte, modulo 256.
    unsafe fn sub8(self, other: Self) -> Self;
    /// 0xff in each byte where `self > other` as signed bytes, else 0.
    unsafe fn greater(self, other: Self) -> Self;
    /// The high nibbles brought down (each 16-bit word, or byte, shifted
    /// right by 4), before a mask.
    unsafe fn shr4(self) -> Self;
    /// `pshufb` (`tbl`): byte `i` of each lane is `self`'s byte
    /// `index[i]` of that lane (0 where `index[i]` has its top bit set).
    unsafe fn shuffle(self, index: Self) -> Self;
    /// The 32-bit words 0, 1 of each lane of `self` and `other`,
    /// interleaved.
    unsafe fn unpack_lo32(self, other: Self) -> Self;
    /// The 32-bit words 2, 3, interleaved.
    unsafe fn unpack_hi32(self, other: Self) -> Self;
    /// The 64-bit word 0 of each lane of `self`, then of `other`.
    unsafe fn unpack_lo64(self, other: Self) -> Self;
    /// The 64-bit word 1 of each, likewise.
    unsafe fn unpack_hi64(self, other: Self) -> Self;
    /// AES's SubBytes and ShiftRows of each lane: `aesenclast` (`aese`)
    /// with a zero round key.
    unsafe fn sub_bytes(self) -> Self;
    /// AES's InvShiftRows and InvSubBytes of each lane: `aesdeclast`
    /// (`aesd`) with a zero round key.
    unsafe fn inv_sub_bytes(self) -> Self;
    /// The integers `first`, `first + 1`, … modulo 2^128 in the lanes, as
    /// the CPU stores integers (little-endian).
    unsafe fn counters(first: u128) -> Self;
    /// Adds `n` to the low 64 bits of every lane, without carry.
    unsafe fn add_low(self, n: u64) -> Self;
    /// The lanes one back: the last lane of `prev`, then `self`'s but its
    /// last (CBC's preceding ciphertext blocks).
    unsafe fn shift_in(self, prev: Self) -> Self;
}

/// A 16-byte `pshufb` control in every lane.
#[inline(always)]
pub(super) unsafe fn control<V: Slice>(bytes: [u8; 16]) -> V {
    // SAFETY: the caller promises `V`'s features.
    unsafe { V::lanes(&bytes) }
}

/// `x` with the bytes of each lane reversed: integers to big-endian
/// blocks.
#[inline(always)]
unsafe fn byte_swap<V: Slice>(x: V) -> V {
    // SAFETY: the caller promises `V`'s features.
    unsafe {
        x.shuffle(control([
            15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0,
        ]))
    }
}

// ---------------------------------------------------------------------------
// The s-boxes on registers.

/// How a rung computes SBOX1..SBOX4 on every byte of a register.
///
/// A technique may hold the right half's bytes in another order of the
/// blocks than the left half's ([`SBoxes::right_in`]): its F on the left
/// half then gives bytes in the right half's order, and on the right half
/// in the left's.
///
/// # Safety
///
/// As [`Slice`], with the features the technique needs.
pub(super) trait SBoxes<V: Slice> {
    /// The technique's constants, in registers.
    unsafe fn new() -> Self;
    /// SBOX`N` (1..=4) of every byte of `x`, a byte of the right half if
    /// `RIGHT`, else of the left.
    unsafe fn s<const N: usize, const RIGHT: bool>(&self, x: V) -> V;
    /// A byte of the right half from the blocks' order into the
    /// technique's.
    unsafe fn right_in(&self, x: V) -> V;
    /// And back.
    unsafe fn right_out(&self, x: V) -> V;
}

/// A permutation of the 16 bytes of the AES state (FIPS 197 §3.4: byte
/// `r + 4c` in row `r`, column `c`) as a `pshufb` control: byte `r + 4c`
/// from byte `r + 4((c + shift · r) mod 4)`.
const fn rotate_rows(shift: usize) -> [u8; 16] {
    let mut c = [0; 16];
    let mut i = 0;
    while i < 16 {
        let (r, col) = (i % 4, i / 4);
        c[i] = (r + 4 * ((col + shift * r) % 4)) as u8;
        i += 1;
    }
    c
}

/// ShiftRows (§5.1.2): row `r` rotated left by `r`.
pub(super) const SHIFT_ROWS: [u8; 16] = rotate_rows(1);
/// InvShiftRows (§5.3.1): row `r` rotated right by `r`.
const INV_SHIFT_ROWS: [u8; 16] = rotate_rows(3);

/// AES's affine map (FIPS 197 §5.1.1):
/// `b ↦ b ⊕ (b <<< 1) ⊕ (b <<< 2) ⊕ (b <<< 3) ⊕ (b <<< 4) ⊕ 0x63`.
const AES_AFFINE: Affine = Affine {
    linear: {
        let mut c = [0; 8];
        let mut i = 0;
        while i < 8 {
            let bit = 1u8 << i;
            c[i] = bit
                ^ bit.rotate_left(1)
                ^ bit.rotate_left(2)
                ^ bit.rotate_left(3)
                ^ bit.rotate_left(4);
            i += 1;
        }
        Linear(c)
    },
    constant: 0x63,
};

/// The s-boxes through an AES last round: the input map as two `pshufb`
/// (`tbl`) nibble lookups, the round with a zero key for the inversion,
/// the output map as two nibble lookups. AES-NI's `aesenclast` (ShiftRows,
/// SubBytes, AddRoundKey) and ARMv8's `aese` (AddRoundKey, ShiftRows,
/// SubBytes) are the same with a zero key, as are `aesdeclast` and
/// `aesd`.
///
/// On the left half the round is `aesenclast` (ShiftRows, then SubBytes:
/// inversion and AES's affine map, which the output map undoes); on the
/// right half `aesdeclast` (InvShiftRows, then InvSubBytes: the inverse
/// affine map, which the input map anticipates, and inversion). So the
/// right half is held in ShiftRows order ([`SBoxes::right_in`]): F on the
/// left half moves its bytes into that order, F on the right half back,
/// and no round needs a shuffle to undo the rows' rotation.
pub(super) struct AesRound<V> {
    /// The input maps' nibble tables: SBOX1–3's, SBOX4's; for
    /// `aesenclast`, then for `aesdeclast`.
    input: [[[V; 2]; 2]; 2],
    /// The output maps' nibble tables: SBOX1 and 4's, SBOX2's, SBOX3's;
    /// after `aesenclast`, then after `aesdeclast`.
    output: [[[V; 2]; 3]; 2],
    /// 0x0f in every byte.
    low_nibble: V,
}

impl<V: Slice> AesRound<V> {
    /// The two lookups of `tables` (low nibble, high nibble) on `x`.
    #[inline(always)]
    unsafe fn lookup(&self, tables: &[V; 2], x: V) -> V {
        // SAFETY: the caller promises `V`'s features.
        unsafe {
            let low = x.and(self.low_nibble);
            let high = x.shr4().and(self.low_nibble);
            tables[0].shuffle(low).xor(tables[1].shuffle(high))
        }
    }
}

/// The `pshufb` tables of [`AesRound`], each as its low and high nibble's
/// table: for `aesenclast`, the input maps (SBOX1–3, SBOX4), then the
/// output maps after AES's affine map undone (SBOX1 and 4, SBOX2,
/// SBOX3); for `aesdeclast`, the input maps followed by AES's affine map
/// (which InvSubBytes undoes before inverting), then the output maps.
const AES_ROUND_TABLES: [[[u8; 16]; 2]; 10] = [
    input_map(1).nibble_tables(),
    input_map(4).nibble_tables(),
    output_map(1).after(AES_AFFINE_INVERSE).nibble_tables(),
    output_map(2).after(AES_AFFINE_INVERSE).nibble_tables(),
    output_map(3).after(AES_AFFINE_INVERSE).nibble_tables(),
    AES_AFFINE.after(input_map(1)).nibble_tables(),
    AES_AFFINE.after(input_map(4)).nibble_tables(),
    output_map(1).nibble_tables(),
    output_map(2).nibble_tables(),
    output_map(3).nibble_tables(),
];

/// The pair `AES_ROUND_TABLES[i]` in registers.
#[inline(always)]
unsafe fn tables<V: Slice>(i: usize) -> [V; 2] {
    // SAFETY: the caller promises `V`'s features.
    unsafe { [control(AES_ROUND_TABLES[i][0]), control(AES_ROUND_TABLES[i][1])] }
}

impl<V: Slice> SBoxes<V> for AesRound<V> {
    #[inline(always)]
    unsafe fn new() -> Self {
        // SAFETY: the caller promises `V`'s features.
        unsafe {
            AesRound {
                input: [[tables(0), tables(1)], [tables(5), tables(6)]],
                output: [
                    [tables(2), tables(3), tables(4)],
                    [tables(7), tables(8), tables(9)],
                ],
                low_nibble: V::splat(0x0f0f_0f0f),
            }
        }
    }

    #[inline(always)]
    unsafe fn s<const N: usize, const RIGHT: bool>(&self, x: V) -> V {
        let input = &self.input[RIGHT as usize][(N == 4) as usize];
        let output = &self.output[RIGHT as usize][match N {
            2 => 1,
            3 => 2,
            _ => 0,
        }];
        // SAFETY: the caller promises `V`'s features and AES's.
        unsafe {
            let y = self.lookup(input, x);
            let y = if RIGHT {
                y.inv_sub_bytes()
            } else {
                y.sub_bytes()
            };
            self.lookup(output, y)
        }
    }

    #[inline(always)]
    unsafe fn right_in(&self, x: V) -> V {
        // SAFETY: the caller promises `V`'s features.
        unsafe { x.shuffle(control(SHIFT_ROWS)) }
    }

    #[inline(always)]
    unsafe fn right_out(&self, x: V) -> V {
        // SAFETY: the caller promises `V`'s features.
        unsafe { x.shuffle(control(INV_SHIFT_ROWS)) }
    }
}

// ---------------------------------------------------------------------------
// The cipher on a batch.

/// The subkeys as the kernels XOR them: each byte of each subkey (most
/// significant first) repeated in a 32-bit word, to broadcast. Zeroized
/// on drop.
pub(super) struct KeyBytes {
    /// kw1..kw4.
    kw: [[u32; 8]; 4],
    /// k1..k24.
    k: [[u32; 8]; 24],
    /// ke1..ke6.
    ke: [[u32; 8]; 6],
    /// 18 or 24.
    rounds: usize,
}

impl KeyBytes {
    /// The bytes of `sk`.
    #[inline(always)]
    pub(super) fn new(sk: &Subkeys) -> Self {
        let mut keys = KeyBytes {
            kw: [[0; 8]; 4],
            k: [[0; 8]; 24],
            ke: [[0; 8]; 6],
            rounds: sk.rounds,
        };
        let pairs = (keys.kw.iter_mut().zip(&sk.kw))
            .chain(keys.k.iter_mut().zip(&sk.k))
            .chain(keys.ke.iter_mut().zip(&sk.ke));
        for (bytes, k) in pairs {
            for (i, b) in bytes.iter_mut().enumerate() {
                *b = (k >> (56 - 8 * i) & 0xff) as u32 * 0x0101_0101;
            }
        }
        keys
    }
}

/// Wiped in word-wide stores kept by `black_box`, as `crate::ct::wipe`
/// does (`Zeroize` writes one volatile word at a time: most of a short
/// message's time here).
impl Drop for KeyBytes {
    fn drop(&mut self) {
        self.kw.as_flattened_mut().fill(0);
        self.k.as_flattened_mut().fill(0);
        self.ke.as_flattened_mut().fill(0);
        std::hint::black_box(self);
    }
}

/// `x[i] ^= key byte i` for the eight bytes of a subkey.
#[inline(always)]
unsafe fn add_key<V: Slice>(x: &mut [V; 8], k: &[u32; 8]) {
    for (x, k) in x.iter_mut().zip(k) {
        // SAFETY: the caller promises `V`'s features.
        *x = unsafe { x.xor(V::splat(*k)) };
    }
}

/// `y ^= F(x, k)` (§2.4.1): the key added, the eight s-boxes, and the
/// P-function as 16 XORs, whose results land in the order z5..z8,
/// z1..z4.
#[inline(always)]
unsafe fn f<V: Slice, S: SBoxes<V>, const RIGHT: bool>(
    s: &S,
    x: &[V; 8],
    k: &[u32; 8],
    y: &mut [V; 8],
) {
    // SAFETY: the caller promises `V`'s features and the technique's.
    unsafe {
        let mut x = *x;
        add_key(&mut x, k);
        let mut t = [
            s.s::<1, RIGHT>(x[0]),
            s.s::<2, RIGHT>(x[1]),
            s.s::<3, RIGHT>(x[2]),
            s.s::<4, RIGHT>(x[3]),
            s.s::<2, RIGHT>(x[4]),
            s.s::<3, RIGHT>(x[5]),
            s.s::<4, RIGHT>(x[6]),
            s.s::<1, RIGHT>(x[7]),
        ];
        for (a, b) in [
            (0, 5),
            (1, 6),
            (2, 7),
            (3, 4),
            (4, 2),
            (5, 3),
            (6, 0),
            (7, 1),
            (0, 7),
            (1, 4),
            (2, 5),
            (3, 6),
            (4, 3),
            (5, 0),
            (6, 1),
            (7, 2),
        ] {
            t[a] = t[a].xor(t[b]);
        }
        for i in 0..4 {
            y[i] = y[i].xor(t[4 + i]);
            y[4 + i] = y[4 + i].xor(t[i]);
        }
    }
}

/// `(w <<< 1)` of the 32-bit word `w` held as four byte registers (most
/// significant first), its byte `i`: byte `i` shifted left (added to
/// itself), the top bit of byte `i + 1` (byte 0's, for byte 3) brought in
/// by subtracting -1 where it is set (a signed byte below 0).
#[inline(always)]
unsafe fn rotl1_byte<V: Slice>(w: &[V; 4], i: usize) -> V {
    // SAFETY: the caller promises `V`'s features.
    unsafe {
        let carry = V::splat(0).greater(w[(i + 1) % 4]);
        w[i].add8(w[i]).sub8(carry)
    }
}

/// FL (§2.4.2) of the half `x` (X1 its bytes 0–3, X2 4–7) under `k`:
/// `X2 ^= (X1 & k1) <<< 1`, `X1 ^= X2 | k2`.
#[inline(always)]
unsafe fn fl<V: Slice>(x: &mut [V; 8], k: &[u32; 8]) {
    // SAFETY: the caller promises `V`'s features.
    unsafe {
        let mut t = [x[0], x[1], x[2], x[3]];
        for i in 0..4 {
            t[i] = t[i].and(V::splat(k[i]));
        }
        for i in 0..4 {
            x[4 + i] = x[4 + i].xor(rotl1_byte(&t, i));
        }
        for i in 0..4 {
            x[i] = x[i].xor(x[4 + i].or(V::splat(k[4 + i])));
        }
    }
}

/// FL^-1 (§2.4.2) of the half `y` under `k`: `Y1 ^= Y2 | k2`,
/// `Y2 ^= (Y1 & k1) <<< 1`.
#[inline(always)]
unsafe fn fl_inv<V: Slice>(y: &mut [V; 8], k: &[u32; 8]) {
    // SAFETY: the caller promises `V`'s features.
    unsafe {
        for i in 0..4 {
            y[i] = y[i].xor(y[4 + i].or(V::splat(k[4 + i])));
        }
        let mut t = [y[0], y[1], y[2], y[3]];
        for i in 0..4 {
            t[i] = t[i].and(V::splat(k[i]));
        }
        for i in 0..4 {
            y[4 + i] = y[4 + i].xor(rotl1_byte(&t, i));
        }
    }
}

/// The 4 × 4 transpose of the 32-bit words of four registers, lane by
/// lane.
#[inline(always)]
unsafe fn transpose_words<V: Slice>([a, b, c, d]: [V; 4]) -> [V; 4] {
    // SAFETY: the caller promises `V`'s features.
    unsafe {
        let (ab_lo, ab_hi) = (a.unpack_lo32(b), a.unpack_hi32(b));
        let (cd_lo, cd_hi) = (c.unpack_lo32(d), c.unpack_hi32(d));
        [
            ab_lo.unpack_lo64(cd_lo),
            ab_lo.unpack_hi64(cd_lo),
            ab_hi.unpack_lo64(cd_hi),
            ab_hi.unpack_hi64(cd_hi),
        ]
    }
}

/// The 16 × 16 byte transpose of each lane of 16 registers (its own
/// inverse): blocks to byte slices and back. As 4 × 4 tiles of 4 × 4
/// bytes: the 32-bit words of each group of four registers transposed
/// (tile `(I, J)` whole in register `4I + J`), each tile's bytes
/// transposed in its register, then the words across the groups.
#[inline(always)]
unsafe fn transpose<V: Slice>(x: &mut [V; 16]) {
    // SAFETY: the caller promises `V`'s features.
    unsafe {
        let tiles = control::<V>([0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15]);
        let mut t = *x;
        for g in 0..4 {
            let w = transpose_words([x[4 * g], x[4 * g + 1], x[4 * g + 2], x[4 * g + 3]]);
            for (j, w) in w.into_iter().enumerate() {
                t[4 * g + j] = w.shuffle(tiles);
            }
        }
        for j in 0..4 {
            let w = transpose_words([t[j], t[4 + j], t[8 + j], t[12 + j]]);
            for (i, w) in w.into_iter().enumerate() {
                x[4 * j + i] = w;
            }
        }
    }
}

/// The F-rounds and FL layers of §2.3.1 (§2.3.2) on the whitened halves,
/// the right half in the technique's order: six rounds of F, then FL and
/// FL^-1, three times (four with 24 rounds). With `SKIP_FIRST` the first
/// F-round is taken as done (CTR computes it once for many batches).
#[inline(always)]
unsafe fn rounds<V: Slice, S: SBoxes<V>, const SKIP_FIRST: bool>(
    keys: &KeyBytes,
    s: &S,
    d1: &mut [V; 8],
    d2: &mut [V; 8],
) {
    // SAFETY: the caller promises `V`'s features and the technique's.
    unsafe {
        for (six, k) in keys.k[..keys.rounds].chunks_exact(6).enumerate() {
            if six > 0 {
                fl(d1, &keys.ke[2 * six - 2]);
                fl_inv(d2, &keys.ke[2 * six - 1]);
            }
            for (pair, k) in k.chunks_exact(2).enumerate() {
                if !(SKIP_FIRST && six == 0 && pair == 0) {
                    f::<V, S, false>(s, d1, &k[0], d2);
                }
                f::<V, S, true>(s, d2, &k[1], d1);
            }
        }
    }
}

/// The blocks of a batch from its halves after the rounds: postwhitened
/// with kw3, kw4, swapped, transposed back (§2.3.1).
#[inline(always)]
unsafe fn output<V: Slice, S: SBoxes<V>>(
    keys: &KeyBytes,
    s: &S,
    mut d1: [V; 8],
    mut d2: [V; 8],
) -> [V; 16] {
    // SAFETY: the caller promises `V`'s features and the technique's.
    unsafe {
        add_key(&mut d2, &keys.kw[2]);
        add_key(&mut d1, &keys.kw[3]);
        let mut x = [d1[0]; 16];
        for (x, d2) in x.iter_mut().zip(d2) {
            *x = s.right_out(d2);
        }
        for (x, d1) in x[8..].iter_mut().zip(d1) {
            *x = d1;
        }
        transpose(&mut x);
        x
    }
}

/// Encrypts the blocks of a batch (§2.3.1, §2.3.2), as loaded: transposed
/// into byte slices, prewhitened with kw1, kw2, the [`rounds`], the
/// [`output`].
#[inline(always)]
unsafe fn encrypt_batch<V: Slice, S: SBoxes<V>>(keys: &KeyBytes, s: &S, x: &mut [V; 16]) {
    // SAFETY: the caller promises `V`'s features and the technique's.
    unsafe {
        transpose(x);
        let mut d1 = [x[0]; 8];
        let mut d2 = [x[8]; 8];
        for i in 0..8 {
            d1[i] = x[i];
            d2[i] = s.right_in(x[8 + i]);
        }
        add_key(&mut d1, &keys.kw[0]);
        add_key(&mut d2, &keys.kw[1]);
        rounds::<V, S, false>(keys, s, &mut d1, &mut d2);
        *x = output(keys, s, d1, d2);
    }
}

// ---------------------------------------------------------------------------
// The modes' batch loops.

/// Runs `$body` on each whole batch of `$step` bytes of `$data`, with
/// `$src` read and `$dst` written (the same address in place); evaluates
/// to the rest, shorter than a batch. A macro, not a function taking a
/// closure, as AES's (a closure is compiled without the caller's target
/// features where LLVM leaves it out of line).
macro_rules! batches {
    ($data:expr, $step:expr, |$src:ident, $dst:ident| $body:block) => {{
        let step = $step;
        let mut rest = $data;
        while rest.len() >= step {
            let (this, next) = rest.split_at(step);
            let ($src, $dst, _) = this.into_raw();
            $body
            rest = next;
        }
        rest
    }};
}

/// The 16 registers of a batch from `src`.
///
/// # Safety
///
/// `V`'s features; `V::BATCH_BYTES` readable bytes at `src`.
#[inline(always)]
unsafe fn load_batch<V: Slice>(src: *const u8) -> [V; 16] {
    // Loops, not `core::array::from_fn`, whose closure LLVM left out of
    // line, compiled without the features (a call per register).
    // SAFETY: as the caller promises.
    unsafe {
        let mut x = [V::load(src); 16];
        for (i, x) in x.iter_mut().enumerate().skip(1) {
            *x = V::load(src.add(i * V::BYTES));
        }
        x
    }
}

/// Writes the 16 registers of a batch to `dst`.
///
/// # Safety
///
/// `V`'s features; `V::BATCH_BYTES` writable bytes at `dst`.
#[inline(always)]
unsafe fn store_batch<V: Slice>(x: &[V; 16], dst: *mut u8) {
    for (i, x) in x.iter().enumerate() {
        // SAFETY: as the caller promises.
        unsafe { x.store(dst.add(i * V::BYTES)) };
    }
}

/// The largest batch (a 16-byte register's, 16 blocks) the tails run on
/// the stack.
const TAIL: usize = 16 * 16;

/// Runs `$body` on the rest `$data` (shorter than an xmm batch) copied
/// into a zeroed batch `$buf` on the stack, and copies the result back;
/// the buffer is wiped. A macro for the reason [`batches!`] is.
macro_rules! on_stack {
    ($data:expr, |$buf:ident| $body:block) => {{
        let data: InOut<'_> = $data;
        if !data.is_empty() {
            let mut buf = [0u8; TAIL];
            let len = data.len();
            buf[..len].copy_from_slice(data.input());
            {
                let $buf = &mut buf;
                $body
            }
            data.into_output().copy_from_slice(&buf[..len]);
            crate::ct::wipe(&mut buf);
        }
    }};
}

/// ECB encryption of the whole batches of `data` on registers `V`;
/// returns the rest.
///
/// # Safety
///
/// `V`'s features and the technique's.
#[inline(always)]
pub(super) unsafe fn ecb_batches<'a, V: Slice, S: SBoxes<V>>(
    keys: &KeyBytes,
    data: InOut<'a>,
) -> InOut<'a> {
    // SAFETY: the caller promises the features.
    let s = unsafe { S::new() };
    batches!(data, V::BATCH_BYTES, |src, dst| {
        // SAFETY: a batch is readable at `src` and writable at `dst`
        // (`InOut::into_raw`), all of it read before any is written; the
        // caller promises the features.
        unsafe {
            let mut x = load_batch::<V>(src);
            encrypt_batch(keys, &s, &mut x);
            store_batch(&x, dst);
        }
    })
}

/// ECB encryption of the rest, fewer than 16 blocks, as one batch of
/// 16-byte registers `T` on the stack.
///
/// # Safety
///
/// The technique's features on `T`.
#[inline(always)]
pub(super) unsafe fn ecb_tail<T: Slice, S: SBoxes<T>>(keys: &KeyBytes, data: InOut<'_>) {
    const { assert!(T::BATCH_BYTES == TAIL) };
    on_stack!(data, |buf| {
        // SAFETY: the caller promises the features; `buf` is one batch.
        let rest = unsafe { ecb_batches::<T, S>(keys, InOut::in_place(buf)) };
        debug_assert!(rest.is_empty());
    });
}

/// The counter blocks `first`, `first + 1`, … (modulo 2^128) of a batch,
/// big-endian, built in registers: from one register of consecutive
/// integers adding to the low 64 bits when none of the batch carries out
/// of them, else each register's integers in full.
#[inline(always)]
unsafe fn counter_blocks<V: Slice>(first: u128) -> [V; 16] {
    let blocks = 16 * V::BLOCKS as u64;
    // SAFETY: the caller promises `V`'s features.
    unsafe {
        if first as u64 <= u64::MAX - (blocks - 1) {
            let base = V::counters(first);
            let mut x = [base; 16];
            for (i, x) in x.iter_mut().enumerate() {
                *x = byte_swap(base.add_low((i * V::BLOCKS) as u64));
            }
            x
        } else {
            let mut x = [V::counters(first); 16];
            for (i, x) in x.iter_mut().enumerate() {
                *x = byte_swap(V::counters(first.wrapping_add((i * V::BLOCKS) as u128)));
            }
            x
        }
    }
}

/// CTR (SP 800-38A §6.5) over the whole batches of `data` on registers
/// `V`, from counter block `*counter` (a big-endian integer), which is
/// stepped past them; returns the rest.
///
/// Where no counter of a batch carries out of the low 64 bits, the left
/// half D1 is the same high 64 bits in every block: its prewhitened
/// slices and the first round's F of them are computed once for all such
/// batches, and the right half's slices are built from the low 64 bits
/// directly (its last byte the first one's plus each block's index, the
/// carries out of it subtracted from the bytes above), with no
/// transpose. A batch across a carry takes the general way.
///
/// # Safety
///
/// `V`'s features and the technique's.
#[inline(always)]
pub(super) unsafe fn ctr_batches<'a, V: Slice, S: SBoxes<V>>(
    keys: &KeyBytes,
    counter: &mut u128,
    data: InOut<'a>,
) -> InOut<'a> {
    let blocks = 16 * V::BLOCKS as u64;
    // SAFETY: the caller promises the features.
    let (s, index) = unsafe {
        let s = S::new();
        let index = s.right_in(block_index::<V>());
        (s, index)
    };
    // The high 64 bits of the counters, D1's prewhitened slices, F(D1, k1).
    let mut high: Option<(u64, [V; 8], [V; 8])> = None;
    batches!(data, V::BATCH_BYTES, |src, dst| {
        let first = *counter;
        let low = first as u64;
        // SAFETY: as in `ecb_batches`.
        unsafe {
            let x = if low <= u64::MAX - (blocks - 1) {
                let hi = (first >> 64) as u64;
                let (d1, y) = match high {
                    Some((h, d1, y)) if h == hi => (d1, y),
                    _ => {
                        let mut d1 = [V::splat(0); 8];
                        for (j, d1) in d1.iter_mut().enumerate() {
                            *d1 = V::splat(splat_byte(hi, j) ^ keys.kw[0][j]);
                        }
                        let mut y = [V::splat(0); 8];
                        f::<V, S, false>(&s, &d1, &keys.k[0], &mut y);
                        high = Some((hi, d1, y));
                        (d1, y)
                    }
                };
                let mut d1 = d1;
                let mut d2 = low_slices(low, index, &keys.kw[1]);
                for (d2, y) in d2.iter_mut().zip(y) {
                    *d2 = d2.xor(y);
                }
                rounds::<V, S, true>(keys, &s, &mut d1, &mut d2);
                output(keys, &s, d1, d2)
            } else {
                let mut x = counter_blocks::<V>(first);
                encrypt_batch(keys, &s, &mut x);
                x
            };
            let mut x = x;
            for (i, x) in x.iter_mut().enumerate() {
                *x = x.xor(V::load(src.add(i * V::BYTES)));
            }
            store_batch(&x, dst);
        }
        *counter = first.wrapping_add(u128::from(blocks));
    })
}

/// Byte `j` (0 the most significant) of `word`, in each byte of a
/// 32-bit word.
#[inline(always)]
fn splat_byte(word: u64, j: usize) -> u32 {
    (word >> (56 - 8 * j) & 0xff) as u32 * 0x0101_0101
}

/// In each byte of the slices, the index of its block in the batch: byte
/// `p` of lane `l` holds block `BLOCKS · p + l` (register `p` of the
/// batch as loaded, lane `l`).
#[inline(always)]
unsafe fn block_index<V: Slice>() -> V {
    let mut p = [0u8; 16];
    for (i, p) in p.iter_mut().enumerate() {
        *p = (i * V::BLOCKS) as u8;
    }
    // SAFETY: the caller promises `V`'s features. The lane numbers are
    // the low bytes of the integers 0, 1, … in the lanes, spread over
    // each lane by a `pshufb` of zeros.
    unsafe {
        let lane = V::counters(0).shuffle(V::splat(0));
        control::<V>(p).add8(lane)
    }
}

/// The right half D2 of a batch's counter blocks as byte slices,
/// prewhitened with `kw2`: the low 64 bits `low + i` of block `i`
/// (`index` its slice positions, in the technique's order), which the
/// caller has checked do not carry out of 64 bits. Byte 7 (the last) is
/// the first block's plus the index; where that wraps, 1 is carried into
/// the bytes above for as long as they are 0xff. The counters are
/// public, so the branches on them are.
#[inline(always)]
unsafe fn low_slices<V: Slice>(low: u64, index: V, kw2: &[u32; 8]) -> [V; 8] {
    let last = (low & 0xff) as u32;
    // SAFETY: the caller promises `V`'s features.
    unsafe {
        let mut d2 = [V::splat(0); 8];
        for (j, d2) in d2.iter_mut().enumerate().take(7) {
            *d2 = V::splat(splat_byte(low, j) ^ kw2[j]);
        }
        d2[7] = V::splat(last * 0x0101_0101)
            .add8(index)
            .xor(V::splat(kw2[7]));
        // Blocks whose last byte wraps: index > 255 - last (the indices
        // are below 64, so a signed comparison serves).
        let largest = 16 * V::BLOCKS as u32 - 1;
        if last + largest > 0xff {
            let threshold = (0xff - last) * 0x0101_0101;
            let carry = index.greater(V::splat(threshold));
            for j in (0..7).rev() {
                // Adding 1 (subtracting the mask -1) after the whitening
                // would be wrong: undo it, add, redo it.
                let kw = V::splat(kw2[j]);
                d2[j] = d2[j].xor(kw).sub8(carry).xor(kw);
                if splat_byte(low, j) & 0xff != 0xff {
                    break;
                }
            }
        }
        d2
    }
}

/// CTR over the rest (shorter than 16 blocks, may end inside a block) as
/// one batch of 16-byte registers `T` on the stack.
///
/// # Safety
///
/// The technique's features on `T`.
#[inline(always)]
pub(super) unsafe fn ctr_tail<T: Slice, S: SBoxes<T>>(
    keys: &KeyBytes,
    counter: u128,
    data: InOut<'_>,
) {
    const { assert!(T::BATCH_BYTES == TAIL) };
    let mut counter = counter;
    on_stack!(data, |buf| {
        // SAFETY: the caller promises the features; `buf` is one batch.
        unsafe { ctr_batches::<T, S>(keys, &mut counter, InOut::in_place(buf)) };
    });
}

/// `x[i]` becomes the block before each of its blocks: `prev`'s last,
/// then its own; `prev` is left as the last register.
#[inline(always)]
unsafe fn blocks_before<V: Slice>(x: &mut [V; 16], prev: &mut V) {
    for x in x.iter_mut() {
        let c = *x;
        // SAFETY: the caller promises `V`'s features.
        *x = unsafe { c.shift_in(*prev) };
        *prev = c;
    }
}

/// Decryption in a feedback mode of the whole batches of `data` on
/// registers `V`, each ciphertext block's partner the one before it
/// (`chain` for the first): CBC (SP 800-38A §6.2; `keys` the decryption
/// subkeys) deciphers each block and XORs its partner, CFB (§6.3, `CFB`;
/// the encryption subkeys) enciphers the partner and XORs the block. Each
/// batch is loaded whole before any of it is stored, so in place works;
/// `chain` is left holding the last ciphertext block. Returns the rest.
///
/// # Safety
///
/// `V`'s features and the technique's.
#[inline(always)]
pub(super) unsafe fn feedback_decrypt_batches<'a, V: Slice, S: SBoxes<V>, const CFB: bool>(
    keys: &KeyBytes,
    chain: &mut [u8; 16],
    data: InOut<'a>,
) -> InOut<'a> {
    // SAFETY: the caller promises the features; `chain` is 16 bytes.
    let (s, mut prev) = unsafe { (S::new(), V::lanes(chain)) };
    let rest = batches!(data, V::BATCH_BYTES, |src, dst| {
        // SAFETY: as in `ecb_batches`.
        unsafe {
            let c = load_batch::<V>(src);
            let mut x = c;
            let mut partner = c;
            // CBC shifts after the cipher, so that the batch is not held
            // three times over.
            if CFB {
                blocks_before(&mut x, &mut prev);
            }
            encrypt_batch(keys, &s, &mut x);
            if !CFB {
                blocks_before(&mut partner, &mut prev);
            }
            for (x, p) in x.iter_mut().zip(&partner) {
                *x = x.xor(*p);
            }
            store_batch(&x, dst);
        }
    });
    // SAFETY: the caller promises `V`'s features.
    unsafe { prev.store_last(chain) };
    rest
}

/// [`feedback_decrypt_batches`] of the rest (fewer than 16 blocks) as one
/// batch of 16-byte registers `T` on the stack (its zero padding
/// processed and dropped; `chain` then taken from the data, not the
/// padding).
///
/// # Safety
///
/// The technique's features on `T`.
#[inline(always)]
pub(super) unsafe fn feedback_decrypt_tail<T: Slice, S: SBoxes<T>, const CFB: bool>(
    keys: &KeyBytes,
    chain: &mut [u8; 16],
    data: InOut<'_>,
) {
    let len = data.len();
    if len == 0 {
        return;
    }
    const { assert!(T::BATCH_BYTES == TAIL) };
    let last: [u8; 16] = data.input()[len - 16..].try_into().expect("whole blocks");
    on_stack!(data, |buf| {
        // SAFETY: the caller promises the features; `buf` is one batch.
        unsafe { feedback_decrypt_batches::<T, S, CFB>(keys, chain, InOut::in_place(buf)) };
    });
    *chain = last;
}

/// The three entry points of a rung (`encrypt`, `ctr`, `feedback_decrypt`)
/// compiled for `$features`, with the s-box technique `$sboxes`: whole
/// batches on each register type listed, widest first, then the rest as
/// one batch of the 16-byte register `$tail` on the stack. The data come as `InOut::into_raw`'s three
/// parts (in registers: `InOut::from_raw` says why).
macro_rules! rung {
    ($features:literal, $sboxes:ident, [$($lanes:ty),+], $tail:ty) => {
        use $crate::camellia::key_schedule::Subkeys;
        use $crate::camellia::sliced::{self, KeyBytes};
        use $crate::xor::InOut;

        /// Encrypts whole blocks (ECB) under `sk` (decrypts under
        /// `sk.inverse()`).
        ///
        /// # Safety
        ///
        /// As [`InOut::from_raw`].
        #[target_feature(enable = $features)]
        pub(in $crate::camellia) unsafe fn encrypt(
            sk: &Subkeys,
            src: *const u8,
            dst: *mut u8,
            len: usize,
        ) {
            let keys = KeyBytes::new(sk);
            // SAFETY: the caller passes `into_raw`'s parts; this function
            // is compiled for the features.
            let rest = unsafe { InOut::from_raw(src, dst, len) };
            $(
                // SAFETY: as above.
                let rest = unsafe { sliced::ecb_batches::<$lanes, $sboxes<$lanes>>(&keys, rest) };
            )+
            // SAFETY: as above.
            unsafe { sliced::ecb_tail::<$tail, $sboxes<$tail>>(&keys, rest) };
        }

        /// CTR from the counter block `counter` (a big-endian integer),
        /// wrapping modulo 2^128; the data may end inside a block.
        ///
        /// # Safety
        ///
        /// As [`InOut::from_raw`].
        #[target_feature(enable = $features)]
        pub(in $crate::camellia) unsafe fn ctr(
            sk: &Subkeys,
            counter: u128,
            src: *const u8,
            dst: *mut u8,
            len: usize,
        ) {
            let keys = KeyBytes::new(sk);
            let mut counter = counter;
            // SAFETY: as in `encrypt`.
            let rest = unsafe { InOut::from_raw(src, dst, len) };
            $(
                // SAFETY: as in `encrypt`.
                let rest = unsafe {
                    sliced::ctr_batches::<$lanes, $sboxes<$lanes>>(&keys, &mut counter, rest)
                };
            )+
            // SAFETY: as in `encrypt`.
            unsafe { sliced::ctr_tail::<$tail, $sboxes<$tail>>(&keys, counter, rest) };
        }

        /// Decryption of whole blocks in CBC (`sk` the decryption
        /// subkeys) or CFB (`cfb`; the encryption subkeys), `chain` the
        /// ciphertext block before them (the IV at first), left holding
        /// the last one.
        ///
        /// # Safety
        ///
        /// As [`InOut::from_raw`].
        #[target_feature(enable = $features)]
        pub(in $crate::camellia) unsafe fn feedback_decrypt(
            sk: &Subkeys,
            cfb: bool,
            chain: &mut [u8; 16],
            src: *const u8,
            dst: *mut u8,
            len: usize,
        ) {
            /// The batches, then the rest, in the mode `CFB` says.
            #[inline(always)]
            unsafe fn run<const CFB: bool>(keys: &KeyBytes, chain: &mut [u8; 16], rest: InOut<'_>) {
                $(
                    // SAFETY: the caller's features; `rest` as below.
                    let rest = unsafe {
                        sliced::feedback_decrypt_batches::<$lanes, $sboxes<$lanes>, CFB>(keys, chain, rest)
                    };
                )+
                // SAFETY: as above.
                unsafe { sliced::feedback_decrypt_tail::<$tail, $sboxes<$tail>, CFB>(keys, chain, rest) };
            }
            let keys = KeyBytes::new(sk);
            // SAFETY: as in `encrypt`.
            let rest = unsafe { InOut::from_raw(src, dst, len) };
            // SAFETY: this function is compiled for the features.
            unsafe {
                if cfb {
                    run::<true>(&keys, chain, rest);
                } else {
                    run::<false>(&keys, chain, rest);
                }
            }
        }
    };
}
pub(super) use rung;

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::camellia::reference;

    /// The maps the s-boxes are made of.
    pub(in crate::camellia) const MAPS: [Affine; 5] =
        [A, B, input_map(4), output_map(2), output_map(3)];

    /// Multiplication in AES's field.
    fn mul(mut a: u8, mut b: u8) -> u8 {
        let mut r = 0;
        while b != 0 {
            if b & 1 == 1 {
                r ^= a;
            }
            a = (a << 1) ^ if a & 0x80 != 0 { 0x1b } else { 0 };
            b >>= 1;
        }
        r
    }

    /// Inversion in AES's field (0 to 0), by search.
    pub(in crate::camellia) fn inv(x: u8) -> u8 {
        (1..=255).find(|&y| mul(x, y) == 1).unwrap_or(0)
    }

    /// AES's SubBytes (FIPS 197 §5.1.1): inversion, then
    /// `b ⊕ (b <<< 1) ⊕ (b <<< 2) ⊕ (b <<< 3) ⊕ (b <<< 4) ⊕ 0x63`.
    fn sub_byte(x: u8) -> u8 {
        let b = inv(x);
        b ^ b.rotate_left(1) ^ b.rotate_left(2) ^ b.rotate_left(3) ^ b.rotate_left(4) ^ 0x63
    }

    /// SBOX1..SBOX4 as the reference defines them.
    fn reference_s(n: usize, x: u8) -> u8 {
        [reference::s1, reference::s2, reference::s3, reference::s4][n - 1](x)
    }

    #[test]
    fn s_boxes_are_inversions_between_affine_maps() {
        for x in 0..=255u8 {
            assert_eq!(AES_AFFINE_INVERSE.apply(sub_byte(x)), inv(x));
            assert_eq!(AES_AFFINE.apply(inv(x)), sub_byte(x));
            for n in 1..=4 {
                let y = input_map(n).apply(x);
                let want = reference_s(n, x);
                assert_eq!(
                    output_map(n).apply(inv(y)),
                    want,
                    "SBOX{n}[{x:#04x}] (GFNI)"
                );
                let aes = output_map(n).after(AES_AFFINE_INVERSE);
                assert_eq!(
                    aes.apply(sub_byte(y)),
                    want,
                    "SBOX{n}[{x:#04x}] (aesenclast)"
                );
                // InvSubBytes: AES's inverse affine map, then inversion.
                let z = AES_AFFINE.after(input_map(n)).apply(x);
                let inv_sub_byte = inv(AES_AFFINE_INVERSE.apply(z));
                assert_eq!(
                    output_map(n).apply(inv_sub_byte),
                    want,
                    "SBOX{n}[{x:#04x}] (aesdeclast)"
                );
            }
        }
    }

    #[test]
    fn nibble_tables_compute_the_maps() {
        for map in MAPS {
            let [lo, hi] = map.nibble_tables();
            for x in 0..=255u8 {
                assert_eq!(
                    lo[usize::from(x & 15)] ^ hi[usize::from(x >> 4)],
                    map.apply(x)
                );
            }
        }
    }

    /// A rung's entry points, for the tests below.
    struct Entry {
        name: &'static str,
        available: bool,
        encrypt: unsafe fn(&Subkeys, *const u8, *mut u8, usize),
        ctr: unsafe fn(&Subkeys, u128, *const u8, *mut u8, usize),
        feedback_decrypt: unsafe fn(&Subkeys, bool, &mut [u8; 16], *const u8, *mut u8, usize),
    }

    /// The rungs this CPU runs.
    fn rungs() -> Vec<Entry> {
        let f = crate::cpu::features();
        #[cfg(target_arch = "aarch64")]
        let all = vec![Entry {
            name: "armv8",
            available: f.aes,
            encrypt: super::super::armv8::encrypt,
            ctr: super::super::armv8::ctr,
            feedback_decrypt: super::super::armv8::feedback_decrypt,
        }];
        #[cfg(target_arch = "x86_64")]
        let all = {
            use crate::camellia::{aesni, gfni, vaes};
            vec![
            Entry {
                name: "aesni",
                available: f.aes && f.ssse3,
                encrypt: aesni::encrypt,
                ctr: aesni::ctr,
                feedback_decrypt: aesni::feedback_decrypt,
            },
            Entry {
                name: "vaes",
                available: f.vaes && f.aes && f.avx2,
                encrypt: vaes::encrypt,
                ctr: vaes::ctr,
                feedback_decrypt: vaes::feedback_decrypt,
            },
            Entry {
                name: "gfni",
                available: f.gfni && f.avx512f && f.avx512bw && f.avx512vl && f.avx2,
                encrypt: gfni::encrypt,
                ctr: gfni::ctr,
                feedback_decrypt: gfni::feedback_decrypt,
            },
        ]
        };
        let run: Vec<Entry> = all.into_iter().filter(|e| e.available).collect();
        eprintln!(
            "rungs exercised: {:?}",
            run.iter().map(|e| e.name).collect::<Vec<_>>()
        );
        run
    }

    /// A fixed-seed generator (SplitMix64), so failures reproduce.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        }
        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
        fn bytes(&mut self, n: usize) -> Vec<u8> {
            (0..n).map(|_| self.next() as u8).collect()
        }
    }

    /// The reference's encryption of each block of `data`.
    fn reference_ecb(sk: &Subkeys, data: &[u8]) -> Vec<u8> {
        let mut out = data.to_vec();
        for block in out.chunks_exact_mut(16) {
            reference::encrypt_block(sk, block.try_into().unwrap());
        }
        out
    }

    #[test]
    fn ecb_is_the_reference() {
        let mut rng = Rng(1);
        for e in rungs() {
            for trial in 0..60 {
                let key = rng.bytes([16, 24, 32][trial % 3]);
                let sk = Subkeys::new(&key);
                let n = if trial < 3 {
                    [0, 1, 200][trial]
                } else {
                    rng.below(201)
                };
                let plain = rng.bytes(16 * n);
                let want = reference_ecb(&sk, &plain);
                let mut got = vec![0; plain.len()];
                // SAFETY: the CPU has the rung's features; the parts of two
                // distinct buffers of `plain.len()` bytes.
                unsafe { (e.encrypt)(&sk, plain.as_ptr(), got.as_mut_ptr(), plain.len()) };
                assert_eq!(got, want, "{} {}-byte key, {n} blocks", e.name, key.len());
                // In place, decryption: the same over the inverse subkeys.
                let inverse = sk.inverse();
                // SAFETY: as above, in place.
                unsafe { (e.encrypt)(&inverse, got.as_ptr(), got.as_mut_ptr(), got.len()) };
                assert_eq!(got, plain, "{} decryption, {n} blocks", e.name);
            }
        }
    }

    #[test]
    fn ctr_is_the_reference() {
        let mut rng = Rng(2);
        for e in rungs() {
            for trial in 0..200 {
                let key = rng.bytes([16, 24, 32][trial % 3]);
                let sk = Subkeys::new(&key);
                let len = match trial % 5 {
                    0 => rng.below(40),
                    1 => 16 * rng.below(200),
                    _ => rng.below(3300),
                };
                let back = rng.below(130) as u128;
                let counter = match trial % 4 {
                    0 => u128::from(rng.next()) << 64 | u128::from(rng.next()),
                    1 => 0u128.wrapping_sub(back),
                    2 => (1u128 << 64).wrapping_sub(back) | u128::from(rng.next()) << 80,
                    // Carries through several bytes of the low 64 bits.
                    _ => (u128::from(rng.next()) << 40 | 0xff_ffff).wrapping_sub(back),
                };
                let data = rng.bytes(len);
                let mut want = data.clone();
                for (i, chunk) in want.chunks_mut(16).enumerate() {
                    let mut block = counter.wrapping_add(i as u128).to_be_bytes();
                    reference::encrypt_block(&sk, &mut block);
                    chunk.iter_mut().zip(block).for_each(|(x, k)| *x ^= k);
                }
                let mut got = data.clone();
                // SAFETY: the CPU has the rung's features; in place.
                unsafe { (e.ctr)(&sk, counter, got.as_ptr(), got.as_mut_ptr(), len) };
                assert_eq!(got, want, "{} counter {counter:#x}, {len} bytes", e.name);
            }
        }
    }

    /// CBC and CFB decryption, in two calls, in place, against the modes
    /// written out over the reference.
    #[test]
    fn feedback_decryption_is_the_reference() {
        let mut rng = Rng(3);
        for e in rungs() {
            for trial in 0..120 {
                let cfb = trial % 2 == 1;
                let key = rng.bytes([16, 24, 32][trial % 3]);
                let sk = Subkeys::new(&key);
                let inverse = sk.inverse();
                let n = rng.below(201);
                let iv: [u8; 16] = rng.bytes(16).try_into().unwrap();
                let plain = rng.bytes(16 * n);
                // Encryption by the reference: CBC's E(p ^ c_prev), CFB's
                // p ^ E(c_prev).
                let mut cipher = plain.clone();
                let mut prev = iv;
                for block in cipher.chunks_exact_mut(16) {
                    let mut b: [u8; 16] = block.try_into().unwrap();
                    if cfb {
                        let mut pad = prev;
                        reference::encrypt_block(&sk, &mut pad);
                        b.iter_mut().zip(pad).for_each(|(x, p)| *x ^= p);
                    } else {
                        b.iter_mut().zip(prev).for_each(|(x, p)| *x ^= p);
                        reference::encrypt_block(&sk, &mut b);
                    }
                    block.copy_from_slice(&b);
                    prev = b;
                }
                let keys = if cfb { &sk } else { &inverse };
                // In two calls, the first of `split` blocks, in place.
                let split = 16 * rng.below(n + 1);
                let mut got = cipher.clone();
                let mut chain = iv;
                let (a, b) = got.split_at_mut(split);
                // SAFETY: the CPU has the rung's features; in place.
                unsafe {
                    (e.feedback_decrypt)(keys, cfb, &mut chain, a.as_ptr(), a.as_mut_ptr(), a.len());
                    (e.feedback_decrypt)(keys, cfb, &mut chain, b.as_ptr(), b.as_mut_ptr(), b.len());
                }
                let mode = if cfb { "CFB" } else { "CBC" };
                assert_eq!(got, plain, "{} {mode} {n} blocks split at {split}", e.name);
                assert_eq!(chain, prev, "{} {mode} chain after {n} blocks", e.name);
            }
        }
    }
}
