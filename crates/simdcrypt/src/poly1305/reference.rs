//! The specification: RFC 8439 §2.5.1 read literally, on a small bignum of
//! 32-bit limbs written for clarity, not speed.
//!
//! ```text
//! clamp(r): r &= 0x0ffffffc0ffffffc0ffffffc0fffffff
//! a = 0
//! for each 16-byte block (the last may be shorter):
//!     n = le_bytes_to_num(block ‖ 0x01)
//!     a += n
//!     a = (r * a) % p            where p = 2^130 − 5
//! a += s
//! tag = num_to_16_le_bytes(a)
//! ```

/// Limbs of the bignum: 9 × 32 = 288 bits hold every intermediate value
/// (`r * a` < 2^124 · 2^131 = 2^255).
const LIMBS: usize = 9;

/// A non-negative integer below 2^288, least significant 32-bit limb first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Num([u32; LIMBS]);

impl Ord for Num {
    /// Numeric order: the most significant limb first.
    fn cmp(&self, other: &Num) -> std::cmp::Ordering {
        self.0.iter().rev().cmp(other.0.iter().rev())
    }
}

impl PartialOrd for Num {
    fn partial_cmp(&self, other: &Num) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Num {
    const ZERO: Num = Num([0; LIMBS]);

    /// `le_bytes_to_num`: little-endian bytes (at most 36) to a number.
    fn from_le_bytes(bytes: &[u8]) -> Num {
        let mut n = Num::ZERO;
        for (i, &b) in bytes.iter().enumerate() {
            n.0[i / 4] |= u32::from(b) << (8 * (i % 4));
        }
        n
    }

    /// The low 16 bytes, little-endian (`num_to_16_le_bytes`).
    fn to_16_le_bytes(self) -> [u8; 16] {
        std::array::from_fn(|i| (self.0[i / 4] >> (8 * (i % 4))) as u8)
    }

    /// `self + other`; the operands never carry out of the top limb here.
    fn add(self, other: Num) -> Num {
        let mut sum = Num::ZERO;
        let mut carry = 0u64;
        for i in 0..LIMBS {
            let t = u64::from(self.0[i]) + u64::from(other.0[i]) + carry;
            sum.0[i] = t as u32;
            carry = t >> 32;
        }
        sum
    }

    /// `self − other`, for `self ≥ other`.
    fn sub(self, other: Num) -> Num {
        let mut diff = Num::ZERO;
        let mut borrow = 0i64;
        for i in 0..LIMBS {
            let t = i64::from(self.0[i]) - i64::from(other.0[i]) - borrow;
            diff.0[i] = t as u32;
            borrow = i64::from(t < 0);
        }
        diff
    }

    /// `self × other`, schoolbook; the product must fit in 288 bits.
    fn mul(self, other: Num) -> Num {
        let mut product = [0u64; 2 * LIMBS];
        for i in 0..LIMBS {
            let mut carry = 0u64;
            for j in 0..LIMBS - i {
                let t = product[i + j] + u64::from(self.0[i]) * u64::from(other.0[j]) + carry;
                product[i + j] = t & 0xffff_ffff;
                carry = t >> 32;
            }
        }
        Num(std::array::from_fn(|i| product[i] as u32))
    }

    /// Bit `i` of the number.
    fn bit(self, i: usize) -> u32 {
        (self.0[i / 32] >> (i % 32)) & 1
    }

    /// `2 · self + bit`.
    fn shift_in(self, bit: u32) -> Num {
        let mut out = Num::ZERO;
        let mut carry = bit;
        for i in 0..LIMBS {
            out.0[i] = (self.0[i] << 1) | carry;
            carry = self.0[i] >> 31;
        }
        out
    }

    /// `self % m` by binary long division, one bit at a time.
    fn rem(self, m: Num) -> Num {
        let mut r = Num::ZERO;
        for i in (0..32 * LIMBS).rev() {
            r = r.shift_in(self.bit(i));
            if r >= m {
                r = r.sub(m);
            }
        }
        r
    }
}

/// `p = 2^130 − 5`, the prime of Poly1305 (§2.5).
fn p() -> Num {
    let mut bytes = [0u8; 17];
    bytes[0] = 0xfb;
    bytes[1..16].fill(0xff);
    bytes[16] = 0x03;
    Num::from_le_bytes(&bytes)
}

/// `clamp(r)` (§2.5): clears the top four bits of bytes 3, 7, 11 and 15
/// and the bottom two bits of bytes 4, 8 and 12.
pub fn clamp(r: &mut [u8; 16]) {
    for i in [3, 7, 11, 15] {
        r[i] &= 15;
    }
    for i in [4, 8, 12] {
        r[i] &= 252;
    }
}

/// One step of the loop of §2.5.1 on the accumulator `a` (17 bytes,
/// little-endian): `n = le_bytes_to_num(block ‖ 0x01)`, `a += n`,
/// `a = (r * a) % p`. `block` holds 1 to 16 bytes; `r` is clamped.
pub fn accumulate(a: &[u8; 17], r: &[u8; 16], block: &[u8]) -> [u8; 17] {
    assert!(
        (1..=16).contains(&block.len()),
        "a block holds 1 to 16 bytes"
    );
    let mut with_one = [0u8; 17];
    with_one[..block.len()].copy_from_slice(block);
    with_one[block.len()] = 0x01;
    let n = Num::from_le_bytes(&with_one);
    let a = Num::from_le_bytes(a).add(n);
    let a = Num::from_le_bytes(r).mul(a).rem(p());
    std::array::from_fn(|i| (a.0[i / 4] >> (8 * (i % 4))) as u8)
}

/// The end of §2.5.1: `a += s`, and the low 128 bits of `a`, little-endian,
/// are the tag. An accumulator handed over unreduced is reduced mod p first.
pub fn finish(a: &[u8; 17], s: &[u8; 16]) -> [u8; 16] {
    let a = Num::from_le_bytes(a).rem(p());
    a.add(Num::from_le_bytes(s)).to_16_le_bytes()
}

/// `poly1305_mac(msg, key)` of §2.5.1: `r` is the first half of the key,
/// clamped, `s` the second half.
pub fn mac(key: &[u8; 32], msg: &[u8]) -> [u8; 16] {
    let mut r: [u8; 16] = std::array::from_fn(|i| key[i]);
    let s: [u8; 16] = std::array::from_fn(|i| key[16 + i]);
    clamp(&mut r);
    let mut a = [0u8; 17];
    for block in msg.chunks(16) {
        a = accumulate(&a, &r, block);
    }
    finish(&a, &s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc8439_2_5_2() {
        let key: [u8; 32] = [
            0x85, 0xd6, 0xbe, 0x78, 0x57, 0x55, 0x6d, 0x33, 0x7f, 0x44, 0x52, 0xfe, 0x42, 0xd5,
            0x06, 0xa8, 0x01, 0x03, 0x80, 0x8a, 0xfb, 0x0d, 0xb2, 0xfd, 0x4a, 0xbf, 0xf6, 0xaf,
            0x41, 0x49, 0xf5, 0x1b,
        ];
        let tag = mac(&key, b"Cryptographic Forum Research Group");
        assert_eq!(
            tag,
            [
                0xa8, 0x06, 0x1d, 0xc1, 0x30, 0x51, 0x36, 0xc6, 0xc2, 0x2b, 0x8b, 0xaf, 0x0c, 0x01,
                0x27, 0xa9
            ]
        );
    }

    #[test]
    fn rem_matches_small_numbers() {
        let a = Num::from_le_bytes(&1_000_003u64.to_le_bytes());
        let m = Num::from_le_bytes(&97u64.to_le_bytes());
        assert_eq!(
            a.rem(m),
            Num::from_le_bytes(&(1_000_003u64 % 97).to_le_bytes())
        );
    }
}
