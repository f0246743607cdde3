//! XOR of keystream into data, in the two named forms of the classic study
//! of Salsa20: byte-wise (`c0`) and 16 bytes at a time in SIMD (`c1`).
//!
//! The single-block rungs produce a 64-byte keystream block and XOR it with
//! one of these; the multi-block rungs XOR straight from their registers.

#[cfg(target_arch = "x86_64")]
mod sse2;

use crate::Error;

/// How keystream is XORed into the data by the single-block rungs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Xor {
    /// `c0`: one byte at a time, as a literal reading of the cipher does.
    Bytewise,
    /// `c1`: 16 bytes at a time with SSE2 loads, XOR and stores (a `u128`
    /// loop off x86-64); the rest byte-wise.
    #[default]
    Simd128,
}

impl Xor {
    /// Both forms, byte-wise first.
    pub const ALL: [Xor; 2] = [Xor::Bytewise, Xor::Simd128];

    /// The form's command-line name: `c0` or `c1`.
    pub fn name(self) -> &'static str {
        match self {
            Xor::Bytewise => "c0",
            Xor::Simd128 => "c1",
        }
    }

    /// `data[i] ^= keystream[i]` for every `i < data.len()`; `keystream`
    /// must be at least as long as `data`.
    #[inline]
    pub(crate) fn apply(self, data: &mut [u8], keystream: &[u8]) {
        debug_assert!(keystream.len() >= data.len());
        match self {
            Xor::Bytewise => bytewise(data, keystream),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: SSE2 is part of the x86-64 baseline.
            Xor::Simd128 => unsafe { sse2::xor(data, keystream) },
            #[cfg(not(target_arch = "x86_64"))]
            Xor::Simd128 => portable_u128(data, keystream),
        }
    }
}

impl std::fmt::Display for Xor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Xor {
    type Err = Error;
    fn from_str(s: &str) -> Result<Xor, Error> {
        Xor::ALL
            .into_iter()
            .find(|x| x.name() == s)
            .ok_or_else(|| Error::UnknownXor { name: s.to_owned() })
    }
}

/// `c0`: byte by byte.
#[inline]
pub(crate) fn bytewise(data: &mut [u8], keystream: &[u8]) {
    for (d, k) in data.iter_mut().zip(keystream) {
        *d ^= k;
    }
}

/// `c1` off x86-64: 16 bytes at a time in a `u128`, then byte-wise.
#[cfg(not(target_arch = "x86_64"))]
#[inline]
fn portable_u128(data: &mut [u8], keystream: &[u8]) {
    // Trim the keystream so that its remainder lines up with the data's.
    let keystream = &keystream[..data.len()];
    let mut chunks = data.chunks_exact_mut(16);
    let mut ks = keystream.chunks_exact(16);
    for (d, k) in (&mut chunks).zip(&mut ks) {
        let x =
            u128::from_ne_bytes(d.try_into().unwrap()) ^ u128::from_ne_bytes(k.try_into().unwrap());
        d.copy_from_slice(&x.to_ne_bytes());
    }
    bytewise(chunks.into_remainder(), ks.remainder());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_forms_agree_on_every_length() {
        let ks: Vec<u8> = (0..80u8).map(|i| i.wrapping_mul(37) ^ 0x5a).collect();
        for len in 0..=80 {
            let plain: Vec<u8> = (0..len as u8).collect();
            let mut a = plain.clone();
            let mut b = plain.clone();
            Xor::Bytewise.apply(&mut a, &ks);
            Xor::Simd128.apply(&mut b, &ks);
            assert_eq!(a, b, "length {len}");
            let want: Vec<u8> = plain.iter().zip(&ks).map(|(p, k)| p ^ k).collect();
            assert_eq!(a, want);
        }
    }
}
