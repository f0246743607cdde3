//! XOR of keystream into data, in the two named forms of the classic study
//! of Salsa20: byte-wise (`c0`) and 16 bytes at a time in SIMD (`c1`).
//!
//! The single-block rungs produce a 64-byte keystream block and XOR it with
//! one of these; the multi-block rungs XOR straight from their registers.
//! Either way the data is an [`InOut`]: in place, or an input read and an
//! output written in the same pass.

mod inout;
#[cfg(target_arch = "x86_64")]
mod sse2;

pub(crate) use inout::{InOut, Parts};

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

    /// `output[i] = input[i] ^ keystream[i]` for every `i < data.len()`;
    /// `keystream` must be at least as long as `data`.
    #[inline]
    pub(crate) fn apply(self, data: InOut<'_>, keystream: &[u8]) {
        debug_assert!(keystream.len() >= data.len());
        match self {
            Xor::Bytewise => data.xor_bytewise(keystream),
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

/// `c1` off x86-64: 16 bytes at a time in a `u128`, then byte-wise.
#[cfg(not(target_arch = "x86_64"))]
#[inline]
fn portable_u128(data: InOut<'_>, keystream: &[u8]) {
    let whole = data.len() / 16 * 16;
    let (head, tail) = data.split_at(whole);
    let (ks, ks_tail) = keystream.split_at(whole);
    for (chunk, k) in head.chunks(16).zip(ks.chunks_exact(16)) {
        let word = |b: &[u8]| u128::from_ne_bytes(b.try_into().expect("16 bytes"));
        let x = word(chunk.input()) ^ word(k);
        chunk.into_output().copy_from_slice(&x.to_ne_bytes());
    }
    tail.xor_bytewise(ks_tail);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_forms_agree_on_every_length() {
        let ks: Vec<u8> = (0..80u8).map(|i| i.wrapping_mul(37) ^ 0x5a).collect();
        for len in 0..=80 {
            let plain: Vec<u8> = (0..len as u8).collect();
            let want: Vec<u8> = plain.iter().zip(&ks).map(|(p, k)| p ^ k).collect();
            for xor in Xor::ALL {
                let mut a = plain.clone();
                xor.apply(InOut::in_place(&mut a), &ks);
                assert_eq!(a, want, "{xor} in place, length {len}");
                // Out of place from and to odd addresses.
                let input = [&[0u8][..], &plain].concat();
                let mut out = vec![0u8; len + 3];
                xor.apply(InOut::apart(&input[1..], &mut out[3..]).unwrap(), &ks);
                assert_eq!(out[3..], want, "{xor} out of place, length {len}");
                assert_eq!(out[..3], [0; 3]);
            }
        }
    }
}
