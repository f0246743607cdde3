//! The key scheduling part of RFC 3713 (§2.2): KL and KR from the key, KA
//! and KB from them by the F-function under the constants Sigma1..Sigma6,
//! and the subkeys kw, k and ke as rotations of the four (the tables of
//! §2.2). Every rung starts from these subkeys. The F-function here looks
//! SBOX1 up by scanning the whole table, so the schedule takes no branch
//! and no index on a key byte.

use zeroize::Zeroize;

use super::reference::{SBOX1, f_with};

/// Sigma1..Sigma6 (§2.2): the key schedule's constants.
const SIGMA: [u64; 6] = [
    0xA09E667F3BCC908B,
    0xB67AE8584CAA73B2,
    0xC6EF372FE94F82BE,
    0x54FF53A5F1D36F1C,
    0x10E527FADE682D1D,
    0xB05688C2B3E6C1FD,
];

/// The subkeys of RFC 3713 §2.2 (kw, k, ke), in encryption order;
/// zeroized on drop.
#[derive(Clone)]
pub(crate) struct Subkeys {
    /// kw1..kw4: the whitening keys.
    pub(crate) kw: [u64; 4],
    /// k1..k24: the F-functions' keys (k19..k24 zero for 128-bit keys).
    pub(crate) k: [u64; 24],
    /// ke1..ke6: the FL and FL^-1 keys (ke5, ke6 zero for 128-bit keys).
    pub(crate) ke: [u64; 6],
    /// The number of F-rounds: 18 for 128-bit keys, 24 for 192 and 256.
    pub(crate) rounds: usize,
}

impl Subkeys {
    /// The subkeys of `key`: 16, 24 or 32 bytes (the caller checks).
    pub(crate) fn new(key: &[u8]) -> Self {
        let word = |i: usize| u64::from_be_bytes(key[i..i + 8].try_into().expect("8 bytes"));
        let mut kl = u128::from(word(0)) << 64 | u128::from(word(8));
        let mut kr = match key.len() {
            16 => 0,
            // The rightmost 64 bits of K, then their complement.
            24 => u128::from(word(16)) << 64 | u128::from(!word(16)),
            _ => u128::from(word(16)) << 64 | u128::from(word(24)),
        };
        let mut ka = feistel_pair(kl ^ kr, SIGMA[0], SIGMA[1]) ^ kl;
        ka = feistel_pair(ka, SIGMA[2], SIGMA[3]);
        let sk = if key.len() == 16 {
            Self::for_128(kl, ka)
        } else {
            let mut kb = feistel_pair(ka ^ kr, SIGMA[4], SIGMA[5]);
            let sk = Self::for_192_256(kl, kr, ka, kb);
            kb.zeroize();
            sk
        };
        kl.zeroize();
        kr.zeroize();
        ka.zeroize();
        sk
    }

    /// The subkeys of a 128-bit key (§2.2, the first table).
    fn for_128(kl: u128, ka: u128) -> Self {
        let [kw1, kw2] = halves(kl);
        let [k1, k2] = halves(ka);
        let [k3, k4] = halves(kl.rotate_left(15));
        let [k5, k6] = halves(ka.rotate_left(15));
        let [ke1, ke2] = halves(ka.rotate_left(30));
        let [k7, k8] = halves(kl.rotate_left(45));
        let [k9, _] = halves(ka.rotate_left(45));
        let [_, k10] = halves(kl.rotate_left(60));
        let [k11, k12] = halves(ka.rotate_left(60));
        let [ke3, ke4] = halves(kl.rotate_left(77));
        let [k13, k14] = halves(kl.rotate_left(94));
        let [k15, k16] = halves(ka.rotate_left(94));
        let [k17, k18] = halves(kl.rotate_left(111));
        let [kw3, kw4] = halves(ka.rotate_left(111));
        Subkeys {
            kw: [kw1, kw2, kw3, kw4],
            k: [
                k1, k2, k3, k4, k5, k6, k7, k8, k9, k10, k11, k12, k13, k14, k15, k16, k17, k18, 0,
                0, 0, 0, 0, 0,
            ],
            ke: [ke1, ke2, ke3, ke4, 0, 0],
            rounds: 18,
        }
    }

    /// The subkeys of a 192- or 256-bit key (§2.2, the second table).
    fn for_192_256(kl: u128, kr: u128, ka: u128, kb: u128) -> Self {
        let [kw1, kw2] = halves(kl);
        let [k1, k2] = halves(kb);
        let [k3, k4] = halves(kr.rotate_left(15));
        let [k5, k6] = halves(ka.rotate_left(15));
        let [ke1, ke2] = halves(kr.rotate_left(30));
        let [k7, k8] = halves(kb.rotate_left(30));
        let [k9, k10] = halves(kl.rotate_left(45));
        let [k11, k12] = halves(ka.rotate_left(45));
        let [ke3, ke4] = halves(kl.rotate_left(60));
        let [k13, k14] = halves(kr.rotate_left(60));
        let [k15, k16] = halves(kb.rotate_left(60));
        let [k17, k18] = halves(kl.rotate_left(77));
        let [ke5, ke6] = halves(ka.rotate_left(77));
        let [k19, k20] = halves(kr.rotate_left(94));
        let [k21, k22] = halves(ka.rotate_left(94));
        let [k23, k24] = halves(kl.rotate_left(111));
        let [kw3, kw4] = halves(kb.rotate_left(111));
        Subkeys {
            kw: [kw1, kw2, kw3, kw4],
            k: [
                k1, k2, k3, k4, k5, k6, k7, k8, k9, k10, k11, k12, k13, k14, k15, k16, k17, k18,
                k19, k20, k21, k22, k23, k24,
            ],
            ke: [ke1, ke2, ke3, ke4, ke5, ke6],
            rounds: 24,
        }
    }

    /// The decryption subkeys (§2.3.3): kw1 and kw3 swapped, kw2 and kw4,
    /// and k and ke reversed over the part the key size uses.
    pub(crate) fn inverse(&self) -> Self {
        let mut inv = self.clone();
        inv.kw = [self.kw[2], self.kw[3], self.kw[0], self.kw[1]];
        inv.k[..self.rounds].reverse();
        inv.ke[..self.rounds / 3 - 2].reverse();
        inv
    }
}

impl Drop for Subkeys {
    fn drop(&mut self) {
        self.kw.zeroize();
        self.k.zeroize();
        self.ke.zeroize();
    }
}

/// The left and right 64 bits of a 128-bit value (`x >> 64`, `x & MASK64`).
fn halves(x: u128) -> [u64; 2] {
    [(x >> 64) as u64, x as u64]
}

/// Two rounds of the Feistel network that makes KA and KB (§2.2):
/// D2 ^= F(D1, s1); D1 ^= F(D2, s2).
fn feistel_pair(d: u128, sigma_a: u64, sigma_b: u64) -> u128 {
    let [mut d1, mut d2] = halves(d);
    d2 ^= f_with(d1, sigma_a, sbox1_scanned);
    d1 ^= f_with(d2, sigma_b, sbox1_scanned);
    u128::from(d1) << 64 | u128::from(d2)
}

/// SBOX1[x] by reading every entry and keeping the one at `x` under a
/// mask: no memory address depends on `x`.
fn sbox1_scanned(x: u8) -> u8 {
    SBOX1.iter().zip(0..=255u8).fold(0, |acc, (&s, i)| {
        // 0xff when i == x, else 0: (i ^ x) - 1 borrows only from zero.
        let mask = (u32::from(i ^ x).wrapping_sub(1) >> 8) as u8;
        acc | (s & mask)
    })
}

#[cfg(test)]
mod tests {
    use super::super::reference::s1;
    use super::*;

    #[test]
    fn the_scanned_sbox_is_the_table() {
        for x in 0..=255u8 {
            assert_eq!(sbox1_scanned(x), s1(x), "{x:#04x}");
        }
    }

    #[test]
    fn inverse_twice_is_the_schedule() {
        for len in [16, 24, 32] {
            let key: Vec<u8> = (0..len as u8).collect();
            let sk = Subkeys::new(&key);
            let back = sk.inverse().inverse();
            assert_eq!((back.kw, back.k, back.ke), (sk.kw, sk.k, sk.ke));
        }
    }
}
