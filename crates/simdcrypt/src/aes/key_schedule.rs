//! The key schedule every rung starts from: FIPS 197's KeyExpansion (§5.2)
//! with a constant-time S-box, and the round keys of the equivalent
//! inverse cipher (§5.3.5), InvMixColumns applied to the middle ones.
//! Without AES-NI the S-box is computed, not looked up: the inverse in
//! GF(2^8) as x^254, then the affine map (§5.1.1), with no branch or index
//! on a key byte.

use zeroize::Zeroize;

use super::reference::expand_with;

/// The largest number of rounds (AES-256).
pub(crate) const MAX_ROUNDS: usize = 14;

/// The round constants Rcon[i] (FIPS 197 §5.2): x^(i−1) in GF(2^8), the
/// first byte of the word; the instruction rungs' key expansions XOR them
/// in.
#[cfg_attr(
    not(any(target_arch = "x86_64", target_arch = "aarch64")),
    allow(dead_code)
)]
pub(super) const RCON: [u8; 10] = [0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1b, 0x36];

/// Round keys of the cipher and of the equivalent inverse cipher, 16 bytes
/// each in FIPS 197's byte order (what `aesenc` takes); zeroized on drop.
#[derive(Clone)]
pub(crate) struct Keys {
    rounds: usize,
    enc: [[u8; 16]; MAX_ROUNDS + 1],
    dec: [[u8; 16]; MAX_ROUNDS + 1],
}

impl Keys {
    /// The schedule of `key` (16, 24 or 32 bytes).
    pub(crate) fn new(key: &[u8]) -> Keys {
        let mut w = expand_with(key, |word| word.map(sbox));
        let keys = Keys::from_round_keys(&w);
        w.zeroize();
        keys
    }

    /// The schedule from the cipher's round keys `w[0..=Nr]`.
    pub(crate) fn from_round_keys(w: &[[u8; 16]]) -> Keys {
        let rounds = w.len() - 1;
        let mut enc = [[0; 16]; MAX_ROUNDS + 1];
        let mut dec = [[0; 16]; MAX_ROUNDS + 1];
        enc[..=rounds].copy_from_slice(w);
        for (i, d) in dec[..=rounds].iter_mut().enumerate() {
            *d = w[rounds - i];
            if i != 0 && i != rounds {
                inv_mix_columns(d);
            }
        }
        Keys { rounds, enc, dec }
    }

    /// A schedule of `rounds` rounds that `fill(enc, dec)` writes into the
    /// schedule's own arrays (`rounds + 1` keys each, zeroed first): for a
    /// key expansion done elsewhere (AES-NI's, ARMv8's), with no other
    /// copy of the keys to wipe.
    #[cfg_attr(
        not(any(target_arch = "x86_64", target_arch = "aarch64")),
        allow(dead_code)
    )]
    pub(crate) fn build(
        rounds: usize,
        fill: impl FnOnce(&mut [[u8; 16]], &mut [[u8; 16]]),
    ) -> Keys {
        let mut keys = Keys {
            rounds,
            enc: [[0; 16]; MAX_ROUNDS + 1],
            dec: [[0; 16]; MAX_ROUNDS + 1],
        };
        fill(&mut keys.enc[..=rounds], &mut keys.dec[..=rounds]);
        keys
    }

    /// The number of rounds Nr: 10, 12 or 14.
    pub(crate) fn rounds(&self) -> usize {
        self.rounds
    }

    /// The cipher's round keys, `w[0]` first.
    pub(crate) fn enc(&self) -> &[[u8; 16]] {
        &self.enc[..=self.rounds]
    }

    /// The equivalent inverse cipher's round keys in the order it uses
    /// them: `w[Nr]` first, InvMixColumns of the middle ones, `w[0]` last.
    pub(crate) fn dec(&self) -> &[[u8; 16]] {
        &self.dec[..=self.rounds]
    }
}

impl Drop for Keys {
    fn drop(&mut self) {
        crate::ct::wipe(self.enc.as_flattened_mut());
        crate::ct::wipe(self.dec.as_flattened_mut());
    }
}

/// xtime without a branch: multiplication by x modulo the AES polynomial.
#[inline]
fn xtime(b: u8) -> u8 {
    (b << 1) ^ ((b >> 7).wrapping_neg() & 0x1b)
}

/// Multiplication in GF(2^8) without a branch or an index on either
/// factor.
#[inline]
fn mul(mut a: u8, b: u8) -> u8 {
    let mut p = 0;
    for i in 0..8 {
        p ^= ((b >> i) & 1).wrapping_neg() & a;
        a = xtime(a);
    }
    p
}

/// The S-box computed: x^254 (the inverse, and 0 for 0) then the affine
/// map b ⊕ (b ⋘ 1) ⊕ (b ⋘ 2) ⊕ (b ⋘ 3) ⊕ (b ⋘ 4) ⊕ 0x63.
fn sbox(x: u8) -> u8 {
    // x^254 = x^(2+4+8+16+32+64+128) by square and multiply on the
    // public exponent.
    let mut square = x;
    let mut inv = 1;
    for _ in 1..8 {
        square = mul(square, square);
        inv = mul(inv, square);
    }
    inv ^ inv.rotate_left(1) ^ inv.rotate_left(2) ^ inv.rotate_left(3) ^ inv.rotate_left(4) ^ 0x63
}

/// InvMixColumns (§5.3.3) on a round key, without branches on its bytes.
fn inv_mix_columns(k: &mut [u8; 16]) {
    for col in k.chunks_exact_mut(4) {
        let a: [u8; 4] = col.try_into().expect("4 bytes");
        for (r, out) in col.iter_mut().enumerate() {
            let m = |k: usize| [0x0e, 0x0b, 0x0d, 0x09][(k + 4 - r) % 4];
            *out = (0..4).fold(0, |acc, k| acc ^ mul(m(k), a[k]));
        }
    }
}

/// Checks that `expand`, an instruction rung's key expansion, computes
/// [`Keys::new`]'s schedule for 50 random keys of each size.
#[cfg(test)]
pub(super) fn assert_expansion_is_the_software_schedule(expand: impl Fn(&[u8]) -> Keys) {
    let mut seed = 0x0123_4567_89ab_cdefu64;
    for len in [16, 24, 32] {
        for _ in 0..50 {
            let key: Vec<u8> = (0..len)
                .map(|_| {
                    seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                    (seed >> 56) as u8
                })
                .collect();
            let want = Keys::new(&key);
            let got = expand(&key);
            assert_eq!(got.rounds(), want.rounds());
            assert_eq!(got.enc(), want.enc(), "{len}-byte key {key:02x?}");
            assert_eq!(got.dec(), want.dec(), "{len}-byte key {key:02x?}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::reference;
    use super::*;

    #[test]
    fn the_round_constants_are_powers_of_x() {
        let mut rcon = 1u8;
        for r in RCON {
            assert_eq!(r, rcon);
            rcon = xtime(rcon);
        }
    }

    #[test]
    fn the_computed_sbox_is_the_table() {
        for x in 0..=255u8 {
            assert_eq!(sbox(x), reference::SBOX[usize::from(x)], "{x:#04x}");
        }
    }

    #[test]
    fn inverse_round_keys_undo_mix_columns() {
        let key: Vec<u8> = (0..32).collect();
        let keys = Keys::new(&key);
        assert_eq!(keys.enc(), reference::key_expansion(&key));
        for r in 1..keys.rounds() {
            let mut s: reference::State =
                std::array::from_fn(|row| std::array::from_fn(|c| keys.dec()[r][row + 4 * c]));
            reference::mix_columns(&mut s);
            let back: [u8; 16] = std::array::from_fn(|i| s[i % 4][i / 4]);
            assert_eq!(back, keys.enc()[keys.rounds() - r]);
        }
    }
}
