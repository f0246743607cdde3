//! MGM, the Multilinear Galois Mode (RFC 9058), for Magma: CTR on the
//! counter blocks Y_i (`incr_r`, from E_K(0 ‖ nonce)) for the ciphertext,
//! and the tag E_K(Σ H_i ⊗ block_i) over the padded associated data, the
//! padded ciphertext and their bit lengths, H_i = E_K(Z_i) (`incr_l`, from
//! E_K(1 ‖ nonce)); the products in GF(2^64) modulo x^64 + x^4 + x^3 +
//! x + 1, on PCLMULQDQ where the CPU has it, else by a constant-time
//! shift-and-mask loop. The Y and Z blocks of a batch are enciphered
//! together on the widest rung.

use std::fmt;

use zeroize::Zeroize;

use super::{BLOCK_LEN, KEY_LEN, Magma};
use crate::Error;
use crate::aead::aead_methods;
use crate::xor::InOut;
use crate::{Xor, gost28147::Rung};

/// The nonce length in bytes: 64 bits, the first of them 0 (RFC 9058 §4:
/// n − 1 bits).
pub const NONCE_LEN: usize = BLOCK_LEN;
/// The tag length in bytes: a whole block (S = 64).
pub const TAG_LEN: usize = BLOCK_LEN;
/// The most bytes each of the associated data and the plaintext may have:
/// their bit lengths fill 32-bit fields (RFC 9058 §4: |A|, |P| < 2^(n/2)).
pub const MGM_MAX: u64 = (1 << 29) - 1;
/// Blocks of Y and of Z enciphered at once.
const BATCH_BLOCKS: usize = 128;

/// MGM over Magma (RFC 9058): nonce 64 bits with its first bit 0, tag 64
/// bits after the ciphertext.
///
/// ```
/// use simdcrypt::magma::MagmaMgm;
///
/// let aead = MagmaMgm::new(&[0x42; 32]);
/// let nonce = [0x12, 0xde, 0xf0, 0x6b, 0x3c, 0x13, 0x0a, 0x59];
/// let sealed = aead.encrypt(&nonce, b"header", b"multilinear");
/// assert_eq!(aead.decrypt(&nonce, b"header", &sealed)?, b"multilinear");
/// assert!(aead.decrypt(&[0x80; 8], b"header", &sealed).is_err());
/// # Ok::<(), simdcrypt::Error>(())
/// ```
#[derive(Clone)]
pub struct MagmaMgm {
    cipher: Magma,
    pclmul: bool,
}

impl MagmaMgm {
    /// MGM under `key`, on Magma's fastest constant-time rung.
    pub fn new(key: &[u8; KEY_LEN]) -> Self {
        Self::from_cipher(Magma::new(key))
    }

    /// MGM over a Magma already keyed (on any rung).
    pub fn from_cipher(cipher: Magma) -> Self {
        MagmaMgm {
            cipher,
            pclmul: cfg!(target_arch = "x86_64") && crate::cpu::features().pclmulqdq,
        }
    }

    /// The same key on Magma's rung `imp`.
    ///
    /// # Errors
    ///
    /// As [`Magma::with_rung`].
    pub fn with_rung(mut self, imp: Rung) -> Result<Self, Error> {
        self.cipher = self.cipher.with_rung(imp)?;
        Ok(self)
    }

    /// Renamed [`with_rung`](Self::with_rung).
    #[deprecated(note = "renamed `with_rung`")]
    pub fn with_impl(self, imp: Rung) -> Result<Self, Error> {
        self.with_rung(imp)
    }

    /// The rung in use.
    pub fn rung(&self) -> Rung {
        self.cipher.rung()
    }

    /// Renamed [`rung`](Self::rung).
    #[deprecated(note = "renamed `rung`")]
    pub fn implementation(&self) -> Rung {
        self.rung()
    }

    /// Enciphers the blocks `blocks` (big-endian words) in place.
    fn encipher(&self, blocks: &mut [u64]) {
        let mut bytes = [0u8; 2 * BATCH_BLOCKS * BLOCK_LEN];
        let bytes = &mut bytes[..blocks.len() * BLOCK_LEN];
        for (b, v) in bytes.chunks_exact_mut(BLOCK_LEN).zip(blocks.iter()) {
            b.copy_from_slice(&v.to_be_bytes());
        }
        let e = self.cipher.engine();
        e.crypt(&e.schedule().enc, InOut::in_place(bytes));
        for (b, v) in bytes.chunks_exact(BLOCK_LEN).zip(blocks.iter_mut()) {
            *v = u64::from_be_bytes(b.try_into().expect("a block"));
        }
        bytes.zeroize();
    }

    /// `acc ⊕ Σ h[i]·x[i]` in GF(2^64).
    fn dot(&self, acc: u64, h: &[u64], x: &[u64]) -> u64 {
        #[cfg(target_arch = "x86_64")]
        if self.pclmul {
            // SAFETY: `pclmul` is set only when the CPU has PCLMULQDQ.
            return unsafe { super::pclmul::dot(acc, h, x) };
        }
        h.iter()
            .zip(x)
            .fold(acc, |acc, (&h, &x)| acc ^ gf64_mul(h, x))
    }

    /// Y_1 and Z_1 of `nonce` (RFC 9058 §4.1: E_K(0 ‖ nonce), E_K(1 ‖
    /// nonce)).
    fn first_counters(&self, nonce: &[u8; NONCE_LEN]) -> Result<[u64; 2], Error> {
        let n = u64::from_be_bytes(*nonce);
        if n >> 63 != 0 {
            return Err(Error::BadLength {
                primitive: "magma-mgm",
                what: "nonce (its first bit must be 0)",
                len: NONCE_LEN,
                expected: "8 bytes whose first bit is 0".into(),
            });
        }
        let mut yz = [n, n | 1 << 63];
        self.encipher(&mut yz);
        Ok(yz)
    }

    /// The tag's sum Σ H_i ⊗ block_i over `aad` and `ciphertext`, padded
    /// with zeros, and their bit lengths; H_i = E_K(Z_i), Z_{i+1} =
    /// incr_l(Z_i).
    fn tag(&self, z1: u64, aad: &[u8], ciphertext: &[u8]) -> [u8; TAG_LEN] {
        let mut z = z1;
        let mut sum = 0u64;
        let mut h = [0u64; BATCH_BLOCKS];
        let mut x = [0u64; BATCH_BLOCKS];
        for part in [aad, ciphertext] {
            for chunk in part.chunks(BATCH_BLOCKS * BLOCK_LEN) {
                let n = chunk.len().div_ceil(BLOCK_LEN);
                for (i, (h, x)) in h[..n].iter_mut().zip(&mut x[..n]).enumerate() {
                    *h = z;
                    z = incr_l(z);
                    let block = &chunk[i * BLOCK_LEN..chunk.len().min((i + 1) * BLOCK_LEN)];
                    let mut padded = [0u8; BLOCK_LEN];
                    padded[..block.len()].copy_from_slice(block);
                    *x = u64::from_be_bytes(padded);
                }
                self.encipher(&mut h[..n]);
                sum = self.dot(sum, &h[..n], &x[..n]);
            }
        }
        let mut last = [z];
        self.encipher(&mut last);
        let lengths = (aad.len() as u64 * 8) << 32 | (ciphertext.len() as u64 * 8);
        let mut t = [self.dot(sum, &last, &[lengths])];
        self.encipher(&mut t);
        h.zeroize();
        last.zeroize();
        t[0].to_be_bytes()
    }

    /// XORs E_K(Y_1), E_K(Y_2), … into `data` (Y_{i+1} = incr_r(Y_i)).
    fn ctr(&self, y1: u64, data: InOut<'_>) {
        let mut y = y1;
        let mut ks = [0u64; BATCH_BLOCKS];
        let mut bytes = [0u8; BATCH_BLOCKS * BLOCK_LEN];
        for chunk in data.chunks(BATCH_BLOCKS * BLOCK_LEN) {
            let n = chunk.len().div_ceil(BLOCK_LEN);
            for k in &mut ks[..n] {
                *k = y;
                y = incr_r(y);
            }
            self.encipher(&mut ks[..n]);
            for (b, k) in bytes.chunks_exact_mut(BLOCK_LEN).zip(&ks[..n]) {
                b.copy_from_slice(&k.to_be_bytes());
            }
            Xor::Simd128.apply(chunk, &bytes[..n * BLOCK_LEN]);
        }
        ks.zeroize();
        bytes.zeroize();
    }

    /// The detached seal of `data`, in place or from its input into its
    /// output.
    pub(crate) fn seal_inout(
        &self,
        nonce: &[u8; NONCE_LEN],
        aad: &[u8],
        mut data: InOut<'_>,
    ) -> Result<[u8; TAG_LEN], Error> {
        check_len(aad, data.len())?;
        let [y1, z1] = self.first_counters(nonce)?;
        self.ctr(y1, data.reborrow());
        Ok(self.tag(z1, aad, data.into_output()))
    }

    /// The detached open of `data` (zeroed when the tag does not match):
    /// the tag over the ciphertext first, then the decryption.
    pub(crate) fn open_inout(
        &self,
        nonce: &[u8; NONCE_LEN],
        aad: &[u8],
        data: InOut<'_>,
        tag: &[u8; TAG_LEN],
    ) -> Result<(), Error> {
        let checked = check_len(aad, data.len()).and_then(|()| self.first_counters(nonce));
        let [y1, z1] = match checked {
            Ok(yz) => yz,
            Err(e) => {
                data.into_output().zeroize();
                return Err(e);
            }
        };
        let expected = self.tag(z1, aad, data.input());
        if !bool::from(subtle::ConstantTimeEq::ct_eq(&expected[..], &tag[..])) {
            data.into_output().zeroize();
            return Err(Error::AuthenticationFailed);
        }
        self.ctr(y1, data);
        Ok(())
    }
}

/// incr_r: the right half (low 32 bits) plus one modulo 2^32.
fn incr_r(y: u64) -> u64 {
    y & !0xffff_ffff | u64::from((y as u32).wrapping_add(1))
}

/// incr_l: the left half (high 32 bits) plus one modulo 2^32.
fn incr_l(z: u64) -> u64 {
    z.wrapping_add(1 << 32)
}

/// a·b in GF(2^64) modulo x^64 + x^4 + x^3 + x + 1, without a branch or
/// an index on either: the carry-less product bit by bit under masks, then
/// the high word folded twice by x^4 + x^3 + x + 1.
fn gf64_mul(a: u64, b: u64) -> u64 {
    let mut p = 0u128;
    for i in 0..64 {
        let mask = 0u128.wrapping_sub(u128::from((b >> i) & 1));
        p ^= (u128::from(a) << i) & mask;
    }
    let fold = |v: u128| v << 4 ^ v << 3 ^ v << 1 ^ v;
    let t = fold(p >> 64);
    let t2 = fold(t >> 64);
    (p ^ t ^ t2) as u64
}

/// The bounds of RFC 9058 §4 on the lengths.
fn check_len(aad: &[u8], len: usize) -> Result<(), Error> {
    for len in [len, aad.len()] {
        if len as u64 > MGM_MAX {
            return Err(Error::MessageTooLong {
                len: len as u64,
                max: MGM_MAX,
            });
        }
    }
    Ok(())
}

/// Where the tag and the ciphertext lie in a sealed form (ciphertext ‖
/// tag) of `plaintext_len` bytes: [`crate::aead`]'s rule for MGM's 8-byte
/// tag.
fn sealed_parts(
    sealed_len: usize,
    plaintext_len: usize,
    tag_first: bool,
) -> Result<(std::ops::Range<usize>, std::ops::Range<usize>), Error> {
    crate::aead::sealed_parts_of(TAG_LEN, sealed_len, plaintext_len, tag_first)
}

impl fmt::Debug for MagmaMgm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MagmaMgm")
            .field("implementation", &self.rung())
            .field("pclmulqdq", &self.pclmul)
            .finish_non_exhaustive()
    }
}

aead_methods! {
    impl[] MagmaMgm;
    name = "MagmaMgm",
    nonce = [u8; NONCE_LEN],
    tag_first = false,
    aad = [aad],
    with_aad = " with `aad`",
    check = check_len,
    refused = "the nonce's first bit is 1 or the associated data or the message is longer than [`MGM_MAX`] bytes",
}

// The sealed form is ciphertext ‖ tag.
const _: () = assert!(!MagmaMgm::TAG_FIRST);

#[cfg(test)]
mod tests {
    use super::*;

    /// The portable product against PCLMULQDQ (when the CPU has it) and
    /// against the field's laws.
    #[test]
    fn gf64_products_agree() {
        let mut s = 0x0123_4567_89ab_cdefu64;
        for _ in 0..1000 {
            s = s.rotate_left(13).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0x55;
            let (a, b) = (s, s.rotate_left(29) ^ 0xdead_beef);
            assert_eq!(gf64_mul(a, b), gf64_mul(b, a));
            assert_eq!(gf64_mul(a, 1), a);
            // x·x^63 = x^64 = x^4 + x^3 + x + 1.
            assert_eq!(gf64_mul(2, 1 << 63), 0x1b);
            #[cfg(target_arch = "x86_64")]
            if crate::cpu::features().pclmulqdq {
                // SAFETY: the CPU has PCLMULQDQ.
                let fast = unsafe { super::super::pclmul::dot(a, &[b, a], &[a, b]) };
                assert_eq!(fast, a ^ gf64_mul(b, a) ^ gf64_mul(a, b));
            }
        }
    }
}
