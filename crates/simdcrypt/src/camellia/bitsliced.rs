//! Portable and constant-time: 64 blocks at once as bit planes in 64-bit
//! words (Matsui and Nakajima, *On the power of bitslice implementation on
//! Intel Core2 processor*, CHES 2007). Each half of the 64 blocks is 64
//! planes, plane `i` holding bit `i` of that half of every block; the
//! s-box is a Boolean circuit on eight planes, the P-function and FL are
//! XORs, ANDs and ORs of whole planes, and a subkey bit is a plane of all
//! ones or all zeros. Nothing is looked up and nothing branches on a key
//! or a block.
//!
//! The s-box. SBOX1 is affine-equivalent to inversion in GF(2^8) (the
//! Camellia paper defines it as h(g(f(0xc5 ^ x))) ^ 0x6e, g an inversion):
//! SBOX1(x) = M · inv(L · (x ^ 0xc5)) ^ 0x6e, the inversion taken in the
//! tower field GF((2^4)^2) = GF(16)[Y]/(Y^2 + Y + λ) over GF(16) =
//! GF(2)[z]/(z^4 + z + 1) with λ = z^3 + 1, and L, M the 8 × 8 bit
//! matrices [`TO_TOWER`], [`FROM_TOWER`] found by solving the linear
//! equivalence (the test `the_circuit_is_sbox1` checks all 256 inputs).
//! The inverse of a·Y + b is (a·Y + (a + b)) / Δ with Δ = λa^2 + ab + b^2:
//! three multiplications and one inversion in GF(16), an 8-bit inversion
//! in about 120 gates. s2 and s3 rotate s1's output and s4 its input: on
//! planes, a relabelling, free.
//!
//! A batch costs the same whether it holds one block or 64, so the
//! chained modes, one block at a time, take [`encrypt_one`]: the same
//! circuit with the eight bytes of one F-function's input as its lanes.

use zeroize::Zeroize;

use super::BLOCK_LEN;
use super::key_schedule::Subkeys;
use crate::vertical::transpose_64x64;
use crate::xor::InOut;

/// Blocks per batch.
pub(super) const PAR_BLOCKS: usize = 64;

/// One 64-bit half of up to 64 blocks: plane `i` holds bit `i` (0 the
/// least significant) of the half, read big-endian, of each block (block
/// `r` in bit `r`). Byte t_n of the RFC's F (n = 1..8, t1 the most
/// significant) is planes 8(8 − n) .. 8(8 − n) + 7.
type Half = [u64; 64];

/// Bit `i` of a subkey as a plane: all ones where it is set. The plane
/// goes through [`crate::ct::opaque`]: seen as all ones or nothing, LLVM turns
/// `x & plane` into a conditional move on the key bit, which memcheck's
/// constant-time check (`tools/ctgrind`) rightly refuses.
#[inline(always)]
fn bit(k: u64, i: usize) -> u64 {
    crate::ct::opaque(0u64.wrapping_sub((k >> i) & 1))
}

/// An element of GF(16) = GF(2)[z]/(z^4 + z + 1): plane `i` the
/// coefficient of z^i.
type Gf16 = [u64; 4];

/// Addition in GF(16).
#[inline(always)]
fn add(a: Gf16, b: Gf16) -> Gf16 {
    [a[0] ^ b[0], a[1] ^ b[1], a[2] ^ b[2], a[3] ^ b[3]]
}

/// Multiplication in GF(16): the product of degree 6, reduced by
/// z^4 = z + 1, z^5 = z^2 + z, z^6 = z^3 + z^2.
#[inline(always)]
fn mul(a: Gf16, b: Gf16) -> Gf16 {
    let p0 = a[0] & b[0];
    let p1 = (a[0] & b[1]) ^ (a[1] & b[0]);
    let p2 = (a[0] & b[2]) ^ (a[1] & b[1]) ^ (a[2] & b[0]);
    let p3 = (a[0] & b[3]) ^ (a[1] & b[2]) ^ (a[2] & b[1]) ^ (a[3] & b[0]);
    let p4 = (a[1] & b[3]) ^ (a[2] & b[2]) ^ (a[3] & b[1]);
    let p5 = (a[2] & b[3]) ^ (a[3] & b[2]);
    let p6 = a[3] & b[3];
    [p0 ^ p4, p1 ^ p4 ^ p5, p2 ^ p5 ^ p6, p3 ^ p6]
}

/// Squaring in GF(16), a linear map: (a0 + a1 z + a2 z^2 + a3 z^3)^2 =
/// a0 + a1 z^2 + a2 (z + 1) + a3 (z^3 + z^2).
#[inline(always)]
fn square(a: Gf16) -> Gf16 {
    [a[0] ^ a[2], a[2], a[1] ^ a[3], a[3]]
}

/// Multiplication by λ = z^3 + 1, linear: a·z^3 + a.
#[inline(always)]
fn times_lambda(a: Gf16) -> Gf16 {
    [a[0] ^ a[1], a[2], a[3], a[0]]
}

/// Inversion in GF(16) (0 to 0), from the algebraic normal form of each
/// output bit.
#[inline(always)]
fn inv(x: Gf16) -> Gf16 {
    let [a, b, c, d] = x;
    let (ab, ac, ad, bc, bd, cd) = (a & b, a & c, a & d, b & c, b & d, c & d);
    let (abc, abd, acd, bcd) = (ab & c, ab & d, ac & d, bc & d);
    [
        a ^ b ^ c ^ d ^ ac ^ bc ^ abc ^ bcd,
        ab ^ ac ^ bc ^ d ^ bd ^ abd,
        ab ^ c ^ ac ^ d ^ ad ^ acd,
        b ^ c ^ d ^ ad ^ bd ^ cd ^ bcd,
    ]
}

/// L: a byte into the tower field's basis, column `i` the image of bit
/// `i` (the tower element a·Y + b as a in the high nibble, b in the low).
const TO_TOWER: [u8; 8] = [0x01, 0x63, 0x0e, 0x21, 0x29, 0xaa, 0xb8, 0x89];
/// M: the tower field back to bytes, column `i` the image of bit `i`.
const FROM_TOWER: [u8; 8] = [0xf1, 0xe6, 0x5c, 0x87, 0xb0, 0x84, 0x91, 0xb4];
/// The constant of SBOX1's input map (the Camellia paper's f(0xc5 ^ x)).
const IN: u8 = 0xc5;
/// The constant of its output map.
const OUT: u8 = 0x6e;

/// The linear map whose column `i` is `cols[i]`, then the constant `c`,
/// on eight planes (the matrix and constant public: the branches unroll
/// into a fixed network of XORs).
#[inline(always)]
fn affine(cols: [u8; 8], c: u8, x: [u64; 8]) -> [u64; 8] {
    std::array::from_fn(|r| {
        let mut y = bit(u64::from(c), r);
        for (i, col) in cols.iter().enumerate() {
            if (col >> r) & 1 == 1 {
                y ^= x[i];
            }
        }
        y
    })
}

/// L · (x ^ 0xc5): the constant through L, at compile time.
const TO_TOWER_C: u8 = {
    let mut c = 0;
    let mut i = 0;
    while i < 8 {
        if (IN >> i) & 1 == 1 {
            c ^= TO_TOWER[i];
        }
        i += 1;
    }
    c
};

/// SBOX1 on eight planes, plane `i` bit `i` of the byte.
#[inline(always)]
fn s1(x: [u64; 8]) -> [u64; 8] {
    let t = affine(TO_TOWER, TO_TOWER_C, x);
    let (b, a) = ([t[0], t[1], t[2], t[3]], [t[4], t[5], t[6], t[7]]);
    let delta = add(add(times_lambda(square(a)), mul(a, b)), square(b));
    let d = inv(delta);
    let [h0, h1, h2, h3] = mul(a, d);
    let [l0, l1, l2, l3] = mul(add(a, b), d);
    affine(FROM_TOWER, OUT, [l0, l1, l2, l3, h0, h1, h2, h3])
}

/// A byte's planes rotated left by `n` bits.
#[inline(always)]
fn rotl(mut x: [u64; 8], n: usize) -> [u64; 8] {
    x.rotate_right(n);
    x
}

/// The s-box of byte t_n (`n` = 1..8) on its planes: s1 for t1 and t8,
/// s2 (output rotated left by 1) for t2 and t5, s3 (by 7) for t3 and t6,
/// s4 (input rotated left by 1) for t4 and t7.
#[inline(always)]
fn sbox(n: usize, v: [u64; 8]) -> [u64; 8] {
    match n {
        1 | 8 => s1(v),
        2 | 5 => rotl(s1(v), 1),
        3 | 6 => rotl(s1(v), 7),
        _ => s1(rotl(v, 1)),
    }
}

/// `y ^= F(x, k)` (§2.4.1): the key, the s-boxes of each byte, and P.
#[inline(always)]
fn f(x: &Half, k: u64, y: &mut Half) {
    // t[n - 1] = t_n after its s-box.
    let mut t = [[0u64; 8]; 8];
    for (n, t_n) in t.iter_mut().enumerate() {
        let base = 8 * (7 - n);
        let v: [u64; 8] = std::array::from_fn(|i| x[base + i] ^ bit(k, base + i));
        *t_n = sbox(n + 1, v);
    }
    // P in sixteen XORs a plane (the Camellia paper's sequence; `f_is_the_rfcs`
    // checks it against §2.4.1's rows): z1..z4 end as y5..y8,
    // z5..z8 as y1..y4.
    for i in 0..8 {
        let [mut z1, mut z2, mut z3, mut z4, mut z5, mut z6, mut z7, mut z8] = t.map(|t| t[i]);
        z1 ^= z6;
        z2 ^= z7;
        z3 ^= z8;
        z4 ^= z5;
        z5 ^= z3;
        z6 ^= z4;
        z7 ^= z1;
        z8 ^= z2;
        z1 ^= z8;
        z2 ^= z5;
        z3 ^= z6;
        z4 ^= z7;
        z5 ^= z4;
        z6 ^= z1;
        z7 ^= z2;
        z8 ^= z3;
        // y_m is planes 8(8 - m) .. 8(8 - m) + 7.
        for (m, y_m) in [z5, z6, z7, z8, z1, z2, z3, z4].into_iter().enumerate() {
            y[8 * (7 - m) + i] ^= y_m;
        }
    }
}

/// FL (§2.4.2): x1 the left 32 bits (planes 32..64), x2 the right.
#[inline(always)]
fn fl(x: &mut Half, ke: u64) {
    let (k1, k2) = (ke >> 32, ke & 0xffff_ffff);
    // x2 ^= (x1 & k1) <<< 1: plane i of the rotation is plane i - 1.
    for i in 0..32 {
        let j = (i + 31) % 32;
        x[i] ^= x[32 + j] & bit(k1, j);
    }
    // x1 ^= x2 | k2.
    for i in 0..32 {
        x[32 + i] ^= x[i] | bit(k2, i);
    }
}

/// FL^-1 (§2.4.3), as [`fl`] the other way round.
#[inline(always)]
fn fl_inv(y: &mut Half, ke: u64) {
    let (k1, k2) = (ke >> 32, ke & 0xffff_ffff);
    for i in 0..32 {
        y[32 + i] ^= y[i] | bit(k2, i);
    }
    for i in 0..32 {
        let j = (i + 31) % 32;
        y[i] ^= y[32 + j] & bit(k1, j);
    }
}

/// A whitening key XORed into every block's half.
#[inline(always)]
fn whiten(x: &mut Half, kw: u64) {
    for (i, plane) in x.iter_mut().enumerate() {
        *plane ^= bit(kw, i);
    }
}

/// The data randomizing part (§2.3) on up to 64 blocks in `data`, read
/// from its input and written to its output.
fn batch(sk: &Subkeys, data: InOut<'_>) {
    let mut d1: Half = [0; 64];
    let mut d2: Half = [0; 64];
    for (r, block) in data.input().chunks_exact(BLOCK_LEN).enumerate() {
        let (m1, m2) = block.split_at(8);
        d1[r] = u64::from_be_bytes(m1.try_into().expect("8 bytes"));
        d2[r] = u64::from_be_bytes(m2.try_into().expect("8 bytes"));
    }
    transpose_64x64(&mut d1);
    transpose_64x64(&mut d2);
    whiten(&mut d1, sk.kw[0]);
    whiten(&mut d2, sk.kw[1]);
    for (six, k) in sk.k[..sk.rounds].chunks_exact(6).enumerate() {
        if six > 0 {
            fl(&mut d1, sk.ke[2 * six - 2]);
            fl_inv(&mut d2, sk.ke[2 * six - 1]);
        }
        for pair in k.chunks_exact(2) {
            f(&d1, pair[0], &mut d2);
            f(&d2, pair[1], &mut d1);
        }
    }
    whiten(&mut d2, sk.kw[2]);
    whiten(&mut d1, sk.kw[3]);
    transpose_64x64(&mut d1);
    transpose_64x64(&mut d2);
    for (r, block) in data.into_output().chunks_exact_mut(BLOCK_LEN).enumerate() {
        block[..8].copy_from_slice(&d2[r].to_be_bytes());
        block[8..].copy_from_slice(&d1[r].to_be_bytes());
    }
    d1.zeroize();
    d2.zeroize();
}

/// Below this many blocks, [`encrypt_one`] block by block is faster than
/// a batch (on a Zen 5 a batch costs about nine one-block calls).
const ONE_BY_ONE_BELOW: usize = 8;

/// Whole blocks under `sk` (encryption or, over the inverse subkeys,
/// decryption), 64 at a time; a short rest one by one.
pub(super) fn encrypt(sk: &Subkeys, blocks: InOut<'_>) {
    for chunk in blocks.chunks(PAR_BLOCKS * BLOCK_LEN) {
        if chunk.len() < ONE_BY_ONE_BELOW * BLOCK_LEN {
            crate::block::by_block(chunk, |block| encrypt_one(sk, block));
        } else {
            batch(sk, chunk);
        }
    }
}

/// The 8 × 8 bit matrix of a word's bytes transposed: bit `j` of byte `i`
/// becomes bit `i` of byte `j` (three delta swaps, Hacker's Delight §7-3).
#[inline(always)]
fn transpose_8x8(mut x: u64) -> u64 {
    for (shift, mask) in [(7, 0x00aa_00aa_00aa_00aa), (14, 0x0000_cccc_0000_cccc), (28, 0xf0f0_f0f0)] {
        let t = (x ^ (x >> shift)) & mask;
        x ^= t ^ (t << shift);
    }
    x
}

/// The bytes of `x` that `lanes` marks (all ones) rotated left by `n`
/// bits, 1..7; the others as they are.
#[inline(always)]
fn rotl_bytes(x: u64, lanes: u64, n: u32) -> u64 {
    let low = 0x0101_0101_0101_0101 * ((1u64 << n) - 1);
    let rotated = ((x << n) & !low) | ((x >> (8 - n)) & low);
    x ^ ((x ^ rotated) & lanes)
}

/// The lanes of t4 and t7 (SBOX4's), t2 and t5 (SBOX2's), t3 and t6
/// (SBOX3's) in a half read big-endian, t1 the most significant byte.
const T4_T7: u64 = 0x0000_00ff_0000_ff00;
const T2_T5: u64 = 0x00ff_0000_ff00_0000;
const T3_T6: u64 = 0x0000_ff00_00ff_0000;

/// F (§2.4.1) on one half, constant-time: SBOX4's input rotation on its
/// bytes, the eight bytes transposed into eight planes of eight lanes,
/// SBOX1's circuit, back, SBOX2's and SBOX3's output rotations, then P on
/// 32-bit words: with L = y1..y4 and R = y5..y8, the sixteen XORs of
/// [`f`] four at a time are D = L ^ (R <<< 8), R' = R ^ (D <<< 16),
/// L' = D ^ (R' >>> 8), R'' = R' ^ (L' >>> 8), and F = R'' ‖ L'.
#[inline(always)]
fn f_one(f_in: u64, ke: u64) -> u64 {
    let t = transpose_8x8(rotl_bytes(f_in ^ ke, T4_T7, 1));
    let y = s1(std::array::from_fn(|i| t >> (8 * i)));
    let y = (0..8).fold(0, |w, i| w | ((y[i] & 0xff) << (8 * i)));
    let y = rotl_bytes(rotl_bytes(transpose_8x8(y), T2_T5, 1), T3_T6, 7);
    let (l, r) = ((y >> 32) as u32, y as u32);
    let d = l ^ r.rotate_left(8);
    let r = r ^ d.rotate_left(16);
    let l = d ^ r.rotate_right(8);
    let r = r ^ l.rotate_right(8);
    (u64::from(r) << 32) | u64::from(l)
}

/// One block under `sk` (or its inverse), constant-time: the data
/// randomizing part with [`f_one`], some 30 times the work of a block in
/// a full batch but a 64th of a batch's.
pub(super) fn encrypt_one(sk: &Subkeys, block: &mut [u8; 16]) {
    super::reference::encrypt_block_with(sk, block, f_one);
}

#[cfg(test)]
mod tests {
    use super::super::reference;
    use super::*;

    /// SBOX1 computed by the circuit, 64 inputs a word, equals the RFC's
    /// table on all 256 inputs; s2, s3, s4 by relabelling too.
    #[test]
    fn the_circuit_is_sbox1() {
        for base in (0..256).step_by(64) {
            let x: [u64; 8] = std::array::from_fn(|i| {
                (0..64).fold(0, |w, r| w | ((((base + r) >> i) & 1) as u64) << r)
            });
            let byte = |planes: [u64; 8], r: usize| {
                (0..8).fold(0u8, |b, i| b | ((((planes[i] >> r) & 1) as u8) << i))
            };
            let (y1, y2, y3, y4) = (s1(x), rotl(s1(x), 1), rotl(s1(x), 7), s1(rotl(x, 1)));
            for r in 0..64 {
                let v = (base + r) as u8;
                assert_eq!(byte(y1, r), reference::s1(v), "s1({v:#04x})");
                assert_eq!(byte(y2, r), reference::s2(v), "s2({v:#04x})");
                assert_eq!(byte(y3, r), reference::s3(v), "s3({v:#04x})");
                assert_eq!(byte(y4, r), reference::s4(v), "s4({v:#04x})");
            }
        }
    }

    /// The linear shortcuts are the field's multiplication.
    #[test]
    fn squaring_and_lambda_are_multiplications() {
        let planes = |v: u8| -> Gf16 { std::array::from_fn(|i| bit(u64::from(v), i)) };
        for v in 0..16 {
            assert_eq!(square(planes(v)), mul(planes(v), planes(v)));
            assert_eq!(times_lambda(planes(v)), mul(planes(v), planes(0b1001)));
            if v != 0 {
                assert_eq!(mul(planes(v), inv(planes(v))), planes(1), "{v}");
            }
        }
    }

    /// F on planes (the sixteen-XOR P among it) is §2.4.1's on each of 64
    /// halves.
    #[test]
    fn f_is_the_rfcs() {
        let key = 0x0123_4567_89ab_cdef_u64;
        let halves: Half = std::array::from_fn(|r| (r as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let mut x = halves;
        transpose_64x64(&mut x);
        let mut y: Half = [0; 64];
        f(&x, key, &mut y);
        transpose_64x64(&mut y);
        for (r, &h) in halves.iter().enumerate() {
            assert_eq!(y[r], reference::f(h, key), "half {r}");
        }
    }

    /// The transposition is one, and its own inverse.
    #[test]
    fn transpose_8x8_swaps_rows_and_columns() {
        let x = 0x0123_4567_89ab_cdef_u64;
        let t = transpose_8x8(x);
        for (i, j) in (0..8).flat_map(|i| (0..8).map(move |j| (i, j))) {
            assert_eq!((t >> (8 * j + i)) & 1, (x >> (8 * i + j)) & 1, "bit {j} of byte {i}");
        }
        assert_eq!(transpose_8x8(t), x);
    }

    /// F on one half's lanes is §2.4.1's.
    #[test]
    fn f_one_is_the_rfcs() {
        let mut x = 0x0123_4567_89ab_cdef_u64;
        for i in 0..1000u64 {
            let key = x.rotate_left(17) ^ i;
            assert_eq!(f_one(x, key), reference::f(x, key), "{x:#x}, {key:#x}");
            x = x.wrapping_mul(0x9e37_79b9_7f4a_7c15).wrapping_add(i);
        }
    }

    /// One block at a time equals a batch.
    #[test]
    fn encrypt_one_is_the_batch() {
        for len in [16, 24, 32] {
            let key: Vec<u8> = (0..len as u8).map(|i| i.wrapping_mul(53) ^ 0x5c).collect();
            let sk = Subkeys::new(&key);
            let data: Vec<u8> = (0..8 * 16).map(|i| (i * 13 + 1) as u8).collect();
            let mut batched = data.clone();
            encrypt(&sk, InOut::in_place(&mut batched));
            for (block, want) in data.chunks_exact(16).zip(batched.chunks_exact(16)) {
                let mut got: [u8; 16] = block.try_into().expect("a block");
                encrypt_one(&sk, &mut got);
                assert_eq!(&got[..], want, "{len}-byte key");
            }
        }
    }

    /// Every count of blocks of a batch, against the reference.
    #[test]
    fn batches_of_every_length_match_the_reference() {
        for len in [16, 24, 32] {
            let key: Vec<u8> = (0..len as u8).map(|i| i.wrapping_mul(37)).collect();
            let sk = Subkeys::new(&key);
            let data: Vec<u8> = (0..130 * 16).map(|i| (i * 7 + 3) as u8).collect();
            for n in [0, 1, 2, 7, 8, 63, 64, 65, 71, 72, 130] {
                let mut got = data[..16 * n].to_vec();
                encrypt(&sk, InOut::in_place(&mut got));
                let mut want = data[..16 * n].to_vec();
                for b in want.chunks_exact_mut(16) {
                    reference::encrypt_block(&sk, b.try_into().expect("a block"));
                }
                assert_eq!(got, want, "{len}-byte key, {n} blocks");
            }
        }
    }
}
