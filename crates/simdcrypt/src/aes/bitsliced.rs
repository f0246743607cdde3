//! Portable 64-bit, 4 blocks at once, bitsliced and fixsliced
//! (Adomnicai and Peyrin, *Fixslicing AES-like ciphers*, TCHES 2021/1): the
//! state of 4 blocks is 8 words of 64 bits, word `j` holding bit `j` of
//! each of their 64 bytes, and a round is Boolean logic on whole words, the
//! same for every byte. No table lookup and no branch depends on the key or
//! the data: constant-time, and the default where the CPU has no AES
//! instructions (Matsui's survey: "protection against cache timing attack").
//!
//! - SubBytes is a Boolean circuit of 115 gates, Boyar and Peralta's (*A
//!   New Combinational Logic Minimization Technique with Applications to
//!   Cryptology*, SEA 2010; IACR ePrint 2009/191: 32 AND, 83 XOR and
//!   XNOR), its four XNORs turned into XORs: the output is then S(x) ⊕
//!   0x63 in every byte, which MixColumns keeps as it is and the next round
//!   key takes off.
//!   InvSubBytes is the same circuit between two copies of the inverse
//!   affine map's linear part (FIPS 197 §5.3.2), the constants again in the
//!   round keys.
//! - Within a word, bits `16·r + 4·c` to `16·r + 4·c + 3` are byte row
//!   `r`, column `c` of the 4 blocks: MixColumns' "the row below" is a
//!   rotation of the word by 16 bits.
//! - ShiftRows is never computed (fixslicing). After `k` rounds without it
//!   the word holds byte (`r`, `c`) of the true state at column `c + k·r`,
//!   so round `k` mod 4 uses its own MixColumns, whose "row below" also
//!   rotates the columns within each row by `k` (a rotation and two masks),
//!   and its round key is stored already so permuted ([`RoundKeys`]). AES
//!   has an even number of rounds, so at the end the state is off by
//!   ShiftRows applied 0 or 2 times, and one more step puts it right.
//!
//! The circuit is written once, generic over the word ([`Slice`]); the
//! `bitsliced-avx2` rung runs it on ymm registers, 16 blocks at once, and
//! `neon` on aarch64's q registers, 8 (their driver:
//! `bitsliced_wide.rs`).
//! Single blocks (the chained modes) run it with one block in four.

use core::ops::{BitAnd, BitXor};

use zeroize::Zeroize;

use super::Keys;
use super::key_schedule::MAX_ROUNDS;
use crate::xor::InOut;

/// How many blocks the rung encrypts at once.
pub(super) const PAR_BLOCKS: usize = 4;

/// The bytes of one batch.
const BATCH_LEN: usize = 16 * PAR_BLOCKS;

/// A word of the bitsliced state: `u64` here, 4 of them in a ymm register
/// in `bitsliced-avx2`, 2 in a q register in `neon`. Every operation acts
/// on each 64-bit lane alone.
pub(super) trait Slice: Copy + BitXor<Output = Self> + BitAnd<Output = Self> {
    /// `self ⊕ k` in every lane.
    fn xor_u64(self, k: u64) -> Self;
    /// `self & m` in every lane.
    fn and_u64(self, m: u64) -> Self;
    /// Each lane shifted right by `N`.
    fn shr<const N: i32>(self) -> Self;
    /// Each lane shifted left by `N`.
    fn shl<const N: i32>(self) -> Self;
    /// Row `r`, column `c` of the result is row `r + rows`, column `c +
    /// columns` of `self` (both mod 4; `rows` ≠ 0). Called with constants.
    fn rotate(self, rows: u32, columns: u32) -> Self;
    /// Rows 1 and 3 rotated by two columns: ShiftRows twice, which is its
    /// own inverse.
    fn shift_rows_twice(self) -> Self;
}

impl Slice for u64 {
    #[inline(always)]
    fn xor_u64(self, k: u64) -> u64 {
        self ^ k
    }

    #[inline(always)]
    fn and_u64(self, m: u64) -> u64 {
        self & m
    }

    #[inline(always)]
    fn shr<const N: i32>(self) -> u64 {
        self >> N
    }

    #[inline(always)]
    fn shl<const N: i32>(self) -> u64 {
        self << N
    }

    #[inline(always)]
    fn rotate(self, rows: u32, columns: u32) -> u64 {
        let n = 16 * rows + 4 * columns;
        if columns == 0 {
            return self.rotate_right(n);
        }
        // Columns 0 .. 4 − `columns` of a row come from further right in
        // the same row; the others wrap around to its start.
        let stay = 0x0001_0001_0001_0001 * ((1u64 << (16 - 4 * columns)) - 1);
        (self.rotate_right(n) & stay) | (self.rotate_right((n + 48) % 64) & !stay)
    }

    #[inline(always)]
    fn shift_rows_twice(self) -> u64 {
        // Swap the two bytes of rows 1 and 3 (bits 16..32 and 48..64).
        let t = (self ^ (self >> 8)) & 0x00ff_0000_00ff_0000;
        self ^ t ^ (t << 8)
    }
}

/// Exchanges the bits of `a` at positions with bit `log2 N` set with the
/// bits of `b` `N` places lower (`mask`: the positions with that bit
/// clear): the two words' index bit and that position bit change places.
#[inline(always)]
fn swap_move<W: Slice, const N: i32>(a: W, b: W, mask: u64) -> (W, W) {
    let t = (a.shr::<N>() ^ b).and_u64(mask);
    (a ^ t.shl::<N>(), b ^ t)
}

/// [`swap_move`] on every pair of words `i`, `i + stride`.
#[inline(always)]
fn swap_stage<W: Slice, const N: i32>(s: &mut [W; 8], stride: usize, mask: u64) {
    for i in 0..8 {
        if i & stride == 0 {
            (s[i], s[i + stride]) = swap_move::<W, N>(s[i], s[i + stride], mask);
        }
    }
}

/// 4 blocks to the bitsliced state. In: word `2·b + h` holds bytes `8·h ..
/// 8·h + 8` of block `b`, little-endian: a bit's index is (block `b1 b0`,
/// `h` = column bit `c1`) in the word and (`c0 r1 r0`, bit `j2 j1 j0`) in
/// it. Six exchanges of an index bit of the word with one of the position
/// (each a [`swap_move`] on four pairs) leave word `4·j0 + 2·j1 + j2`
/// holding bit `j` at position `16·r + 4·c + 2·b0 + b1`; the result is
/// renumbered so that word `j` holds bit `j`.
#[inline(always)]
fn bitslice<W: Slice>(mut s: [W; 8]) -> [W; 8] {
    // h ↔ r0 ↔ r1 ↔ c0 ↔ j2, all through the word's lowest index bit.
    swap_stage::<W, 8>(&mut s, 1, 0x00ff_00ff_00ff_00ff);
    swap_stage::<W, 16>(&mut s, 1, 0x0000_ffff_0000_ffff);
    swap_stage::<W, 32>(&mut s, 1, 0x0000_0000_ffff_ffff);
    swap_stage::<W, 4>(&mut s, 1, 0x0f0f_0f0f_0f0f_0f0f);
    // b0 ↔ j1, b1 ↔ j0.
    swap_stage::<W, 2>(&mut s, 2, 0x3333_3333_3333_3333);
    swap_stage::<W, 1>(&mut s, 4, 0x5555_5555_5555_5555);
    [s[0], s[4], s[2], s[6], s[1], s[5], s[3], s[7]]
}

/// The inverse of [`bitslice`]: the same exchanges in reverse order.
#[inline(always)]
fn unbitslice<W: Slice>(s: [W; 8]) -> [W; 8] {
    let mut s = [s[0], s[4], s[2], s[6], s[1], s[5], s[3], s[7]];
    swap_stage::<W, 1>(&mut s, 4, 0x5555_5555_5555_5555);
    swap_stage::<W, 2>(&mut s, 2, 0x3333_3333_3333_3333);
    swap_stage::<W, 4>(&mut s, 1, 0x0f0f_0f0f_0f0f_0f0f);
    swap_stage::<W, 32>(&mut s, 1, 0x0000_0000_ffff_ffff);
    swap_stage::<W, 16>(&mut s, 1, 0x0000_ffff_0000_ffff);
    swap_stage::<W, 8>(&mut s, 1, 0x00ff_00ff_00ff_00ff);
    s
}

/// SubBytes without its constant: S(x) ⊕ 0x63 of every byte, in place.
/// Boyar and Peralta's 115-gate circuit (SEA 2010) with its names: inputs
/// `x0` (the most significant bit) to `x7`, a linear top layer to
/// `y1`–`y21`, the [`inversion`] in the middle (to `z0`–`z17`), a linear
/// bottom layer to the outputs `s0`–`s7`; its XNORs are XORs here.
#[inline(always)]
pub(super) fn sub_bytes_nc<W: Slice>(s: &mut [W; 8]) {
    let [x7, x6, x5, x4, x3, x2, x1, x0] = *s;

    // Top linear layer: 23 XORs.
    let y14 = x3 ^ x5;
    let y13 = x0 ^ x6;
    let y9 = x0 ^ x3;
    let y8 = x0 ^ x5;
    let t0 = x1 ^ x2;
    let y1 = t0 ^ x7;
    let y4 = y1 ^ x3;
    let y12 = y13 ^ y14;
    let y2 = y1 ^ x0;
    let y5 = y1 ^ x6;
    let y3 = y5 ^ y8;
    let t1 = x4 ^ y12;
    let y15 = t1 ^ x5;
    let y20 = t1 ^ x1;
    let y6 = y15 ^ x7;
    let y10 = y15 ^ t0;
    let y11 = y20 ^ y9;
    let y7 = x7 ^ y11;
    let y17 = y10 ^ y11;
    let y19 = y10 ^ y8;
    let y16 = t0 ^ y11;
    let y21 = y13 ^ y16;
    let y18 = x0 ^ y16;

    let z = inversion(&[
        y1, y2, y3, y4, y5, y6, y7, y8, y9, y10, y11, y12, y13, y14, y15, y16, y17, y18, y19, y20,
        y21, x7,
    ]);
    #[rustfmt::skip]
    let [z0, z1, z2, z3, z4, z5, z6, z7, z8, z9, z10, z11, z12, z13, z14, z15, z16, z17] = z;

    // Bottom linear layer: 30 XORs (four of them XNORs in the paper).
    let t46 = z15 ^ z16;
    let t47 = z10 ^ z11;
    let t48 = z5 ^ z13;
    let t49 = z9 ^ z10;
    let t50 = z2 ^ z12;
    let t51 = z2 ^ z5;
    let t52 = z7 ^ z8;
    let t53 = z0 ^ z3;
    let t54 = z6 ^ z7;
    let t55 = z16 ^ z17;
    let t56 = z12 ^ t48;
    let t57 = t50 ^ t53;
    let t58 = z4 ^ t46;
    let t59 = z3 ^ t54;
    let t60 = t46 ^ t57;
    let t61 = z14 ^ t57;
    let t62 = t52 ^ t58;
    let t63 = t49 ^ t58;
    let t64 = z4 ^ t59;
    let t65 = t61 ^ t62;
    let t66 = z1 ^ t63;
    let s0 = t59 ^ t63;
    let s6 = t56 ^ t62;
    let s7 = t48 ^ t60;
    let t67 = t64 ^ t65;
    let s3 = t53 ^ t66;
    let s4 = t51 ^ t66;
    let s5 = t47 ^ t65;
    let s1 = t64 ^ s3;
    let s2 = t55 ^ t67;

    *s = [s7, s6, s5, s4, s3, s2, s1, s0];
}

/// The middle, nonlinear layer of Boyar and Peralta's circuit: the
/// inversion in GF(2^8), over a tower of its subfields, from the 22 linear
/// forms `y1`–`y21` and `x7` of the top layer to the 18 products `z0`–`z17`
/// the bottom layer sums: 32 ANDs, 30 XORs.
#[inline(always)]
fn inversion<W: Slice>(y: &[W; 22]) -> [W; 18] {
    #[rustfmt::skip]
    let [y1, y2, y3, y4, y5, y6, y7, y8, y9, y10, y11,
         y12, y13, y14, y15, y16, y17, y18, y19, y20, y21, x7] = *y;
    let t2 = y12 & y15;
    let t3 = y3 & y6;
    let t4 = t3 ^ t2;
    let t5 = y4 & x7;
    let t6 = t5 ^ t2;
    let t7 = y13 & y16;
    let t8 = y5 & y1;
    let t9 = t8 ^ t7;
    let t10 = y2 & y7;
    let t11 = t10 ^ t7;
    let t12 = y9 & y11;
    let t13 = y14 & y17;
    let t14 = t13 ^ t12;
    let t15 = y8 & y10;
    let t16 = t15 ^ t12;
    let t17 = t4 ^ t14;
    let t18 = t6 ^ t16;
    let t19 = t9 ^ t14;
    let t20 = t11 ^ t16;
    let t21 = t17 ^ y20;
    let t22 = t18 ^ y19;
    let t23 = t19 ^ y21;
    let t24 = t20 ^ y18;
    let t25 = t21 ^ t22;
    let t26 = t21 & t23;
    let t27 = t24 ^ t26;
    let t28 = t25 & t27;
    let t29 = t28 ^ t22;
    let t30 = t23 ^ t24;
    let t31 = t22 ^ t26;
    let t32 = t31 & t30;
    let t33 = t32 ^ t24;
    let t34 = t23 ^ t33;
    let t35 = t27 ^ t33;
    let t36 = t24 & t35;
    let t37 = t36 ^ t34;
    let t38 = t27 ^ t36;
    let t39 = t29 & t38;
    let t40 = t25 ^ t39;
    let t41 = t40 ^ t37;
    let t42 = t29 ^ t33;
    let t43 = t29 ^ t40;
    let t44 = t33 ^ t37;
    let t45 = t42 ^ t41;
    let z0 = t44 & y15;
    let z1 = t37 & y6;
    let z2 = t33 & x7;
    let z3 = t43 & y16;
    let z4 = t40 & y1;
    let z5 = t29 & y7;
    let z6 = t42 & y11;
    let z7 = t45 & y17;
    let z8 = t41 & y10;
    let z9 = t44 & y12;
    let z10 = t37 & y3;
    let z11 = t33 & y4;
    let z12 = t43 & y13;
    let z13 = t40 & y5;
    let z14 = t29 & y2;
    let z15 = t42 & y9;
    let z16 = t45 & y14;
    let z17 = t41 & y8;

    [
        z0, z1, z2, z3, z4, z5, z6, z7, z8, z9, z10, z11, z12, z13, z14, z15, z16, z17,
    ]
}

/// InvSubBytes of every byte whose input came with 0x63 already XORed in
/// (by the round key): S⁻¹(x) = Inv(L⁻¹(x ⊕ 0x63)), where `L⁻¹` is the
/// linear part of the inverse affine map (FIPS 197 §5.3.2: bit `i` is bits
/// `i + 2`, `i + 5` and `i + 7`). The inversion is the forward circuit's
/// middle layer; the linear layers around it are its top layer after `L⁻¹`
/// (29 XORs, from 39 composed) and its bottom layer followed by `L⁻¹` (35,
/// from 46), each a straight-line program found here by Paar's greedy
/// heuristic (*Optimized arithmetic for Reed-Solomon encoders*, ISIT 1997)
/// with random tie-breaks: 126 gates in all. Inputs `b0`–`b7` and outputs
/// are the bits of the byte, least significant first.
#[inline(always)]
fn inv_sub_bytes_nc<W: Slice>(s: &mut [W; 8]) {
    let [b0, b1, b2, b3, b4, b5, b6, b7] = *s;
    let n8 = b4 ^ b6;
    let n9 = b0 ^ b1;
    let n10 = b3 ^ b4;
    let n11 = b3 ^ b6;
    let n12 = n8 ^ n9;
    let n13 = b2 ^ b7;
    let n14 = n9 ^ n11;
    let n15 = b5 ^ n8;
    let n16 = b7 ^ n8;
    let n17 = b6 ^ b7;
    let n18 = b0 ^ n11;
    let n19 = n12 ^ n13;
    let n20 = b5 ^ n11;
    let n21 = b1 ^ b2;
    let n22 = b4 ^ b7;
    let n23 = n13 ^ n14;
    let n24 = n10 ^ n21;
    let n25 = b0 ^ b3;
    let n26 = n9 ^ n10;
    let n27 = b7 ^ n18;
    let n28 = b3 ^ n16;
    let n29 = n9 ^ n17;
    let n30 = b5 ^ n10;
    let n31 = b5 ^ n13;
    let n32 = b0 ^ n10;
    let n33 = b1 ^ n20;
    let n34 = b0 ^ n15;
    let n35 = b5 ^ n12;
    let n36 = b2 ^ n15;
    let y = [
        n32, n14, n22, n12, n8, n16, n35, n17, n10, n27, n19, n29, n26, n28, n36, n33, n24, n30,
        n25, n23, n34, n31,
    ];
    let z = inversion(&y);
    #[rustfmt::skip]
    let [z0, z1, z2, z3, z4, z5, z6, z7, z8, z9, z10, z11, z12, z13, z14, z15, z16, z17] = z;
    let n18 = z6 ^ z15;
    let n19 = z13 ^ n18;
    let n20 = z12 ^ z16;
    let n21 = n19 ^ n20;
    let n22 = z3 ^ z4;
    let n23 = z2 ^ z10;
    let n24 = z8 ^ n21;
    let n25 = z8 ^ z14;
    let n26 = n22 ^ n23;
    let n27 = z1 ^ n26;
    let n28 = z0 ^ n24;
    let n29 = z4 ^ z5;
    let n30 = z17 ^ n19;
    let n31 = n25 ^ n27;
    let n32 = n23 ^ n29;
    let n33 = z1 ^ n28;
    let n34 = n18 ^ n20;
    let n35 = z2 ^ n28;
    let n36 = z7 ^ n32;
    let n37 = z11 ^ n36;
    let n38 = z15 ^ z17;
    let n39 = z12 ^ n37;
    let n40 = z9 ^ n31;
    let n41 = n30 ^ n39;
    let n42 = z3 ^ z5;
    let n43 = n21 ^ n22;
    let n44 = z7 ^ n43;
    let n45 = z11 ^ n38;
    let n46 = n24 ^ n42;
    let n47 = n29 ^ n33;
    let n48 = z11 ^ n34;
    let n49 = z9 ^ n45;
    let n50 = n30 ^ n40;
    let n51 = z0 ^ n41;
    let n52 = n31 ^ n48;
    *s = [n49, n44, n47, n51, n35, n52, n50, n46];
}

/// Multiplication by x in GF(2^8) of every byte: the bits move up one
/// place and bit 7 folds back into bits 0, 1, 3 and 4 (x^8 = x^4 + x^3 +
/// x + 1).
#[inline(always)]
fn xtime<W: Slice>(a: &[W; 8]) -> [W; 8] {
    [
        a[7],
        a[0] ^ a[7],
        a[1],
        a[2] ^ a[7],
        a[3] ^ a[7],
        a[4],
        a[5],
        a[6],
    ]
}

/// MixColumns (FIPS 197 §5.1.3) of a state stored `k` ShiftRows behind:
/// `2·a ⊕ 3·a₁ ⊕ a₂ ⊕ a₃`, where `aᵢ` is the row `i` below in the true
/// column (row `+i` and column `+k·i` in the word), computed as `2·(a ⊕ a₁)
/// ⊕ a₁ ⊕ (a ⊕ a₁)₂`.
#[inline(always)]
fn mix_columns<W: Slice>(s: &mut [W; 8], k: u32) {
    let mut below = *s;
    let mut sum = *s;
    for j in 0..8 {
        below[j] = s[j].rotate(1, k);
        sum[j] = s[j] ^ below[j];
    }
    let twice = xtime(&sum);
    for j in 0..8 {
        s[j] = twice[j] ^ below[j] ^ sum[j].rotate(2, (2 * k) % 4);
    }
}

/// InvMixColumns (§5.3.3) of a state stored `k` ShiftRows behind: its
/// matrix {0e, 0b, 0d, 09} is MixColumns' times {05, 00, 04, 00}, so
/// MixColumns of `a ⊕ 4·(a ⊕ a₂)`.
#[inline(always)]
fn inv_mix_columns<W: Slice>(s: &mut [W; 8], k: u32) {
    let mut sum = *s;
    for j in 0..8 {
        sum[j] = s[j] ^ s[j].rotate(2, (2 * k) % 4);
    }
    let four = xtime(&xtime(&sum));
    for j in 0..8 {
        s[j] = s[j] ^ four[j];
    }
    mix_columns(s, k);
}

/// AddRoundKey: one bitsliced round key, the same in every lane.
#[inline(always)]
fn add_round_key<W: Slice>(s: &mut [W; 8], key: &[u64; 8]) {
    for (x, k) in s.iter_mut().zip(key) {
        *x = x.xor_u64(*k);
    }
}

/// One middle round of the cipher (`DECRYPT` false), ShiftRows `k` behind
/// after it, or of the inverse cipher, `k` ahead (mod 4).
#[inline(always)]
fn round<W: Slice, const DECRYPT: bool>(s: &mut [W; 8], key: &[u64; 8], k: u32) {
    if DECRYPT {
        inv_sub_bytes_nc(s);
        inv_mix_columns(s, k);
    } else {
        sub_bytes_nc(s);
        mix_columns(s, k);
    }
    add_round_key(s, key);
}

/// The middle rounds `i` = 1 .. `keys.len()` − 1, with `k` = `ks[i % 4]`:
/// unrolled by four, so that each MixColumns gets its rotations as
/// constants.
#[inline(always)]
fn middle_rounds<W: Slice, const DECRYPT: bool>(s: &mut [W; 8], keys: &[[u64; 8]], ks: [u32; 4]) {
    let last = keys.len() - 1;
    let mut i = 1;
    while i + 4 <= last {
        round::<W, DECRYPT>(s, &keys[i], ks[1]);
        round::<W, DECRYPT>(s, &keys[i + 1], ks[2]);
        round::<W, DECRYPT>(s, &keys[i + 2], ks[3]);
        round::<W, DECRYPT>(s, &keys[i + 3], ks[0]);
        i += 4;
    }
    // At most three more: `i` ≡ 1 (mod 4) here.
    if i < last {
        round::<W, DECRYPT>(s, &keys[i], ks[1]);
    }
    if i + 1 < last {
        round::<W, DECRYPT>(s, &keys[i + 1], ks[2]);
    }
    if i + 2 < last {
        round::<W, DECRYPT>(s, &keys[i + 2], ks[3]);
    }
}

/// ShiftRows twice on every word, when the rounds left the state so.
#[inline(always)]
fn shift_rows_twice_if<W: Slice>(s: &mut [W; 8], twice: bool) {
    if twice {
        for x in s.iter_mut() {
            *x = x.shift_rows_twice();
        }
    }
}

/// The cipher (FIPS 197 §5.1) on a bitsliced state.
#[inline(always)]
fn encrypt_sliced<W: Slice>(keys: &RoundKeys, s: &mut [W; 8]) {
    let keys = keys.enc();
    let last = keys.len() - 1;
    add_round_key(s, &keys[0]);
    middle_rounds::<W, false>(s, keys, [0, 1, 2, 3]);
    sub_bytes_nc(s);
    add_round_key(s, &keys[last]);
    shift_rows_twice_if(s, last % 4 == 2);
}

/// The equivalent inverse cipher (§5.3.5) on a bitsliced state.
#[inline(always)]
fn decrypt_sliced<W: Slice>(keys: &RoundKeys, s: &mut [W; 8]) {
    let keys = keys.dec();
    let last = keys.len() - 1;
    add_round_key(s, &keys[0]);
    middle_rounds::<W, true>(s, keys, [0, 3, 2, 1]);
    inv_sub_bytes_nc(s);
    add_round_key(s, &keys[last]);
    shift_rows_twice_if(s, last % 4 == 2);
}

/// The round keys in the fixsliced form: round key `i` of the cipher
/// stored `i` ShiftRows behind (of the inverse cipher, `i` ahead),
/// bitsliced as 4 copies of itself, with the S-box circuits' constant
/// 0x63 XORed in where it cancels theirs; zeroized on drop.
#[derive(Clone)]
pub(crate) struct RoundKeys {
    rounds: usize,
    enc: [[u64; 8]; MAX_ROUNDS + 1],
    dec: [[u64; 8]; MAX_ROUNDS + 1],
}

impl RoundKeys {
    /// The fixsliced form of the schedule `keys`.
    pub(crate) fn new(keys: &Keys) -> RoundKeys {
        let rounds = keys.rounds();
        let mut sliced = RoundKeys {
            rounds,
            enc: [[0; 8]; MAX_ROUNDS + 1],
            dec: [[0; 8]; MAX_ROUNDS + 1],
        };
        for (i, key) in keys.enc().iter().enumerate() {
            // After the S-box of rounds 1..=Nr.
            sliced.enc[i] = slice_key(key, i % 4, i != 0);
        }
        for (i, key) in keys.dec().iter().enumerate() {
            // Before the inverse S-box of rounds 1..=Nr.
            sliced.dec[i] = slice_key(key, (4 - i % 4) % 4, i != rounds);
        }
        sliced
    }

    /// The cipher's round keys.
    fn enc(&self) -> &[[u64; 8]] {
        &self.enc[..=self.rounds]
    }

    /// The inverse cipher's round keys, in the order it uses them.
    fn dec(&self) -> &[[u64; 8]] {
        &self.dec[..=self.rounds]
    }
}

impl Drop for RoundKeys {
    fn drop(&mut self) {
        self.enc.zeroize();
        self.dec.zeroize();
    }
}

/// Round key `key` stored `behind` ShiftRows behind (byte row `r`, column
/// `c` at column `c + behind·r`), bitsliced as 4 copies, 0x63 XORed into
/// every byte if `plus_63`.
fn slice_key(key: &[u8; 16], behind: usize, plus_63: bool) -> [u64; 8] {
    let mut moved: [u8; 16] = std::array::from_fn(|n| {
        let (c, r) = (n / 4, n % 4);
        key[4 * ((c + 4 - (behind * r) % 4) % 4) + r]
    });
    let mut words: [u64; 8] = std::array::from_fn(|i| {
        u64::from_le_bytes(moved[8 * (i % 2)..][..8].try_into().expect("8"))
    });
    let mut s = bitslice(words);
    if plus_63 {
        for j in [0, 1, 5, 6] {
            s[j] = !s[j];
        }
    }
    moved.zeroize();
    words.zeroize();
    s
}

/// Up to 4 blocks from `input` as the words [`bitslice`] takes; missing
/// blocks are zero.
#[inline(always)]
fn load(input: &[u8]) -> [u64; 8] {
    let mut words = [0u64; 8];
    for (w, bytes) in words.iter_mut().zip(input.chunks_exact(8)) {
        *w = u64::from_le_bytes(bytes.try_into().expect("8 bytes"));
    }
    words
}

/// The words of [`load`] back into up to 4 blocks of `output`.
#[inline(always)]
fn store(words: &[u64; 8], output: &mut [u8]) {
    for (w, bytes) in words.iter().zip(output.chunks_exact_mut(8)) {
        bytes.copy_from_slice(&w.to_le_bytes());
    }
}

/// The words of up to 4 blocks a lane, as [`bitslice`] takes them,
/// through the cipher (`DECRYPT` false) or its inverse, in place: sliced,
/// the rounds, and back (the sliced state left in no other place).
#[inline(always)]
pub(super) fn cipher_words<W: Slice, const DECRYPT: bool>(keys: &RoundKeys, words: &mut [W; 8]) {
    *words = bitslice(*words);
    if DECRYPT {
        decrypt_sliced(keys, words);
    } else {
        encrypt_sliced(keys, words);
    }
    *words = unbitslice(*words);
}

/// The words of up to 4 blocks through the cipher (`DECRYPT` false) or
/// its inverse.
#[inline(always)]
fn run<const DECRYPT: bool>(keys: &RoundKeys, mut words: [u64; 8]) -> [u64; 8] {
    cipher_words::<u64, DECRYPT>(keys, &mut words);
    words
}

/// Whole blocks, 4 at a time (the last batch maybe shorter).
#[inline(always)]
fn blocks<const DECRYPT: bool>(keys: &RoundKeys, data: InOut<'_>) {
    for chunk in data.chunks(BATCH_LEN) {
        // The input is read whole before the output is written: in place
        // they are the same bytes.
        let mut words = run::<DECRYPT>(keys, load(chunk.input()));
        store(&words, chunk.into_output());
        words.zeroize();
    }
}

/// Encrypts whole blocks (FIPS 197 §5.1), 4 at a time.
pub(super) fn encrypt(keys: &RoundKeys, data: InOut<'_>) {
    blocks::<false>(keys, data);
}

/// Decrypts whole blocks (§5.3.5), 4 at a time.
pub(super) fn decrypt(keys: &RoundKeys, data: InOut<'_>) {
    blocks::<true>(keys, data);
}

/// The words [`load`] makes of the 4 counter blocks `next`, `next + 1`,
/// … (big-endian, modulo 2^128); `next` is left past them.
#[inline(always)]
fn counter_words(next: &mut u128) -> [u64; 8] {
    let mut words = [0u64; 8];
    for block in words.chunks_exact_mut(2) {
        // Bytes 0..8 and 8..16 of the big-endian counter, read little-endian.
        block[0] = ((*next >> 64) as u64).swap_bytes();
        block[1] = (*next as u64).swap_bytes();
        *next = next.wrapping_add(1);
    }
    words
}

/// CTR (SP 800-38A §6.5): the cipher of the counter blocks `counter`,
/// `counter + 1`, … (the whole block a big-endian integer, wrapping)
/// XORed into `data`, which may end inside a block; 4 blocks at a time.
pub(super) fn ctr(keys: &RoundKeys, counter: &[u8], data: InOut<'_>) {
    let mut next = u128::from_be_bytes(counter.try_into().expect("a 16-byte counter block"));
    let mut keystream = [0u64; 8];
    for chunk in data.chunks(BATCH_LEN) {
        keystream = run::<false>(keys, counter_words(&mut next));
        if chunk.len() == BATCH_LEN {
            let mut words = load(chunk.input());
            for (w, k) in words.iter_mut().zip(&keystream) {
                *w ^= k;
            }
            store(&words, chunk.into_output());
        } else {
            let mut bytes = [0u8; BATCH_LEN];
            store(&keystream, &mut bytes);
            chunk.xor_bytewise(&bytes);
            bytes.zeroize();
        }
    }
    keystream.zeroize();
}

/// Encrypts one block: a batch of 4 with the other three empty.
pub(super) fn encrypt_block(keys: &RoundKeys, block: &mut [u8; 16]) {
    blocks::<false>(keys, InOut::in_place(block));
}

/// Decrypts one block.
pub(super) fn decrypt_block(keys: &RoundKeys, block: &mut [u8; 16]) {
    blocks::<true>(keys, InOut::in_place(block));
}

#[cfg(test)]
mod tests {
    use super::super::reference::{INV_SBOX, SBOX};
    use super::*;

    /// Bit `j` of 64 bytes, byte `p` at bit `p`.
    fn slices(bytes: &[u8; 64]) -> [u64; 8] {
        std::array::from_fn(|j| (0..64).fold(0, |w, p| w | (u64::from(bytes[p] >> j) & 1) << p))
    }

    #[test]
    fn circuits_are_the_sboxes() {
        for group in 0..4u8 {
            let x: [u8; 64] = std::array::from_fn(|p| 64 * group + p as u8);
            let mut s = slices(&x);
            sub_bytes_nc(&mut s);
            assert_eq!(s, slices(&x.map(|b| SBOX[usize::from(b)] ^ 0x63)));
            // The inverse takes its input with 0x63 XORed in.
            let mut s = slices(&x.map(|b| b ^ 0x63));
            inv_sub_bytes_nc(&mut s);
            assert_eq!(s, slices(&x.map(|b| INV_SBOX[usize::from(b)])));
        }
    }

    #[test]
    fn bitslice_puts_row_column_block_where_the_rounds_expect() {
        let blocks: [u8; 64] = std::array::from_fn(|i| (i as u8).wrapping_mul(167) ^ 0x5a);
        let s = bitslice(load(&blocks));
        for b in 0..4 {
            for c in 0..4 {
                for r in 0..4 {
                    let byte = blocks[16 * b + 4 * c + r];
                    let at = 16 * r + 4 * c + 2 * (b & 1) + (b >> 1);
                    for (j, word) in s.iter().enumerate() {
                        assert_eq!(
                            (word >> at) & 1,
                            u64::from(byte >> j) & 1,
                            "{b} {c} {r} {j}"
                        );
                    }
                }
            }
        }
        assert_eq!(unbitslice(s), load(&blocks));
    }

    #[test]
    fn rotate_moves_rows_and_columns() {
        let x = 0x0123_4567_89ab_cdefu64;
        for rows in 1..4 {
            for columns in 0..4 {
                let y = x.rotate(rows, columns);
                for r in 0..4 {
                    for c in 0..4 {
                        let nibble =
                            |w: u64, r: u32, c: u32| (w >> (16 * (r % 4) + 4 * (c % 4))) & 0xf;
                        assert_eq!(nibble(y, r, c), nibble(x, r + rows, c + columns));
                    }
                }
            }
        }
    }
}
