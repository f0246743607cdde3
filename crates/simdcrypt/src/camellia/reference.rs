//! Camellia as RFC 3713 writes it: the 128-bit block as two 64-bit halves
//! read big-endian, the F-function with the four s-boxes of §2.4.1 (s2, s3
//! and s4 derived from SBOX1 as the RFC defines them), FL and FL^-1, and the
//! data randomizing part of §2.3. Written to be read beside the RFC, not to
//! be fast; its table lookups by secret bytes make it not constant-time, so
//! it is chosen only with the `hazmat` feature.

use super::key_schedule::Subkeys;

/// SBOX1 (§2.4.1), in the RFC's decimal.
#[rustfmt::skip]
pub(crate) const SBOX1: [u8; 256] = [
    112, 130,  44, 236, 179,  39, 192, 229, 228, 133,  87,  53, 234,  12, 174,  65,
     35, 239, 107, 147,  69,  25, 165,  33, 237,  14,  79,  78,  29, 101, 146, 189,
    134, 184, 175, 143, 124, 235,  31, 206,  62,  48, 220,  95,  94, 197,  11,  26,
    166, 225,  57, 202, 213,  71,  93,  61, 217,   1,  90, 214,  81,  86, 108,  77,
    139,  13, 154, 102, 251, 204, 176,  45, 116,  18,  43,  32, 240, 177, 132, 153,
    223,  76, 203, 194,  52, 126, 118,   5, 109, 183, 169,  49, 209,  23,   4, 215,
     20,  88,  58,  97, 222,  27,  17,  28,  50,  15, 156,  22,  83,  24, 242,  34,
    254,  68, 207, 178, 195, 181, 122, 145,  36,   8, 232, 168,  96, 252, 105,  80,
    170, 208, 160, 125, 161, 137,  98, 151,  84,  91,  30, 149, 224, 255, 100, 210,
     16, 196,   0,  72, 163, 247, 117, 219, 138,   3, 230, 218,   9,  63, 221, 148,
    135,  92, 131,   2, 205,  74, 144,  51, 115, 103, 246, 243, 157, 127, 191, 226,
     82, 155, 216,  38, 200,  55, 198,  59, 129, 150, 111,  75,  19, 190,  99,  46,
    233, 121, 167, 140, 159, 110, 188, 142,  41, 245, 249, 182,  47, 253, 180,  89,
    120, 152,   6, 106, 231,  70, 113, 186, 212,  37, 171,  66, 136, 162, 141, 250,
    114,   7, 185,  85, 248, 238, 172,  10,  54,  73,  42, 104,  60,  56, 241, 164,
     64,  40, 211, 123, 187, 201,  67, 193,  21, 227, 173, 244, 119, 199, 128, 158,
];

/// SBOX1 as a function, the form [`f_with`] takes.
pub(crate) const fn s1(x: u8) -> u8 {
    SBOX1[x as usize]
}

/// SBOX2[x] = SBOX1[x] <<< 1 (§2.4.1).
pub(crate) const fn s2(x: u8) -> u8 {
    s1(x).rotate_left(1)
}

/// SBOX3[x] = SBOX1[x] <<< 7 (§2.4.1).
pub(crate) const fn s3(x: u8) -> u8 {
    s1(x).rotate_left(7)
}

/// SBOX4[x] = SBOX1[x <<< 1] (§2.4.1).
pub(crate) const fn s4(x: u8) -> u8 {
    s1(x.rotate_left(1))
}

/// The F-function (§2.4.1) with SBOX1 computed by `sbox1` (SBOX2..4
/// derived from it as the RFC does): the key schedule passes a
/// constant-time one.
pub(crate) fn f_with(f_in: u64, ke: u64, sbox1: impl Fn(u8) -> u8) -> u64 {
    let x = f_in ^ ke;
    let [t1, t2, t3, t4, t5, t6, t7, t8] = x.to_be_bytes();
    let sbox2 = |x: u8| sbox1(x).rotate_left(1);
    let sbox3 = |x: u8| sbox1(x).rotate_left(7);
    let sbox4 = |x: u8| sbox1(x.rotate_left(1));
    let t1 = sbox1(t1);
    let t2 = sbox2(t2);
    let t3 = sbox3(t3);
    let t4 = sbox4(t4);
    let t5 = sbox2(t5);
    let t6 = sbox3(t6);
    let t7 = sbox4(t7);
    let t8 = sbox1(t8);
    let y1 = t1 ^ t3 ^ t4 ^ t6 ^ t7 ^ t8;
    let y2 = t1 ^ t2 ^ t4 ^ t5 ^ t7 ^ t8;
    let y3 = t1 ^ t2 ^ t3 ^ t5 ^ t6 ^ t8;
    let y4 = t2 ^ t3 ^ t4 ^ t5 ^ t6 ^ t7;
    let y5 = t1 ^ t2 ^ t6 ^ t7 ^ t8;
    let y6 = t2 ^ t3 ^ t5 ^ t7 ^ t8;
    let y7 = t3 ^ t4 ^ t5 ^ t6 ^ t8;
    let y8 = t1 ^ t4 ^ t5 ^ t6 ^ t7;
    u64::from_be_bytes([y1, y2, y3, y4, y5, y6, y7, y8])
}

/// The F-function (§2.4.1) with the table SBOX1.
pub(crate) fn f(f_in: u64, ke: u64) -> u64 {
    f_with(f_in, ke, s1)
}

/// The FL-function (§2.4.2).
pub(crate) fn fl(fl_in: u64, ke: u64) -> u64 {
    let (mut x1, mut x2) = ((fl_in >> 32) as u32, fl_in as u32);
    let (k1, k2) = ((ke >> 32) as u32, ke as u32);
    x2 ^= (x1 & k1).rotate_left(1);
    x1 ^= x2 | k2;
    (u64::from(x1) << 32) | u64::from(x2)
}

/// The FL^-1-function (§2.4.3).
pub(crate) fn fl_inv(flinv_in: u64, ke: u64) -> u64 {
    let (mut y1, mut y2) = ((flinv_in >> 32) as u32, flinv_in as u32);
    let (k1, k2) = ((ke >> 32) as u32, ke as u32);
    y1 ^= y2 | k2;
    y2 ^= (y1 & k1).rotate_left(1);
    (u64::from(y1) << 32) | u64::from(y2)
}

/// The data randomizing part (§2.3.1 for 128-bit keys, §2.3.2 for 192 and
/// 256) with the F-function of §2.4.1. Decryption (§2.3.3) is the same
/// over [`Subkeys::inverse`].
pub(crate) fn encrypt_block(sk: &Subkeys, block: &mut [u8; 16]) {
    encrypt_block_with(sk, block, f);
}

/// The data randomizing part with the F-function `f` (a rung's own form
/// of it): prewhitening with kw1, kw2; six rounds of F, then FL and
/// FL^-1, three times (four with 24 rounds); the halves swapped,
/// postwhitening with kw3, kw4.
#[inline(always)]
pub(crate) fn encrypt_block_with(sk: &Subkeys, block: &mut [u8; 16], f: impl Fn(u64, u64) -> u64) {
    let (m1, m2) = block.split_at(8);
    let mut d1 = u64::from_be_bytes(m1.try_into().expect("8 bytes"));
    let mut d2 = u64::from_be_bytes(m2.try_into().expect("8 bytes"));
    d1 ^= sk.kw[0];
    d2 ^= sk.kw[1];
    for (six, k) in sk.k[..sk.rounds].chunks_exact(6).enumerate() {
        if six > 0 {
            d1 = fl(d1, sk.ke[2 * six - 2]);
            d2 = fl_inv(d2, sk.ke[2 * six - 1]);
        }
        d2 ^= f(d1, k[0]);
        d1 ^= f(d2, k[1]);
        d2 ^= f(d1, k[2]);
        d1 ^= f(d2, k[3]);
        d2 ^= f(d1, k[4]);
        d1 ^= f(d2, k[5]);
    }
    d2 ^= sk.kw[2];
    d1 ^= sk.kw[3];
    block[..8].copy_from_slice(&d2.to_be_bytes());
    block[8..].copy_from_slice(&d1.to_be_bytes());
}

/// The keys and ciphertexts of RFC 3713, Appendix A (the plaintext is
/// the 128-bit key), for the rungs' tests.
#[cfg(test)]
pub(crate) const APPENDIX_A: [(&str, &str); 3] = [
    (
        "0123456789abcdeffedcba9876543210",
        "67673138549669730857065648eabe43",
    ),
    (
        "0123456789abcdeffedcba98765432100011223344556677",
        "b4993401b3e996f84ee5cee7d79b09b9",
    ),
    (
        "0123456789abcdeffedcba987654321000112233445566778899aabbccddeeff",
        "9acc237dff16d76c20ef7c919e3a7509",
    ),
];

/// Hex to bytes, for the tests.
#[cfg(test)]
pub(crate) fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn appendix_a() {
        for (key, ciphertext) in APPENDIX_A {
            let key = hex(key);
            let plaintext: [u8; 16] = hex("0123456789abcdeffedcba9876543210")
                .try_into()
                .expect("16 bytes");
            let sk = Subkeys::new(&key);
            let mut block = plaintext;
            encrypt_block(&sk, &mut block);
            assert_eq!(block.to_vec(), hex(ciphertext), "{} bits", key.len() * 8);
            encrypt_block(&sk.inverse(), &mut block);
            assert_eq!(block, plaintext);
        }
    }

    #[test]
    fn fl_inv_undoes_fl() {
        let ke = 0x0123_4567_89ab_cdef;
        for x in [0, 1, u64::MAX, 0xdead_beef_f00d_cafe] {
            assert_eq!(fl_inv(fl(x, ke), ke), x);
        }
    }
}
