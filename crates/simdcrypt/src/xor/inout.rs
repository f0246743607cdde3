//! The bytes a keystream is XORed into: one buffer in place, or an input
//! read and an equally long output written ("in/out", as Go's
//! `XORKeyStream(dst, src)` and RustCrypto's `inout` have it). Every rung
//! takes this form, so that out of place costs what in place costs: the
//! input is read and the output written inside the rung, never copied
//! first.
//!
//! The scalar rungs reach the bytes through safe methods; the SIMD rungs
//! turn an [`InOut`] into raw pointers ([`InOut::into_raw`]) and load and
//! store through them in their own files.

use crate::Error;

/// Data to XOR keystream into: in place, or from an input into an output of
/// the same length (which the constructors ensure).
#[derive(Debug)]
pub struct InOut<'a>(Parts<'a>);

/// The two forms of an [`InOut`].
#[derive(Debug)]
pub(crate) enum Parts<'a> {
    /// One buffer, read and overwritten.
    InPlace(&'a mut [u8]),
    /// An input read and an output of the same length written.
    Apart(&'a [u8], &'a mut [u8]),
}

impl<'a> InOut<'a> {
    /// `data`, XORed in place.
    /// From its two forms (the RustCrypto traits' buffers).
    #[cfg(feature = "rustcrypto")]
    #[inline]
    pub(crate) fn from_parts(parts: Parts<'a>) -> Self {
        InOut(parts)
    }

    #[inline]
    pub(crate) fn in_place(data: &'a mut [u8]) -> Self {
        InOut(Parts::InPlace(data))
    }

    /// `input` read, `output` written.
    ///
    /// # Errors
    ///
    /// [`Error::LengthMismatch`] when they differ in length.
    #[inline]
    pub(crate) fn apart(input: &'a [u8], output: &'a mut [u8]) -> Result<Self, Error> {
        if input.len() != output.len() {
            return Err(Error::LengthMismatch {
                input: input.len(),
                output: output.len(),
            });
        }
        Ok(InOut(Parts::Apart(input, output)))
    }

    /// The length in bytes (of the input and of the output).
    #[inline]
    pub(crate) fn len(&self) -> usize {
        match &self.0 {
            Parts::InPlace(data) => data.len(),
            Parts::Apart(input, _) => input.len(),
        }
    }

    /// Whether there is nothing to XOR.
    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The same buffers, borrowed for a shorter time.
    #[inline]
    pub(crate) fn reborrow(&mut self) -> InOut<'_> {
        match &mut self.0 {
            Parts::InPlace(data) => InOut(Parts::InPlace(data)),
            Parts::Apart(input, output) => InOut(Parts::Apart(input, output)),
        }
    }

    /// Bytes `..mid` and `mid..`.
    ///
    /// # Panics
    ///
    /// When `mid > self.len()`.
    #[inline]
    pub(crate) fn split_at(self, mid: usize) -> (InOut<'a>, InOut<'a>) {
        match self.0 {
            Parts::InPlace(data) => {
                let (a, b) = data.split_at_mut(mid);
                (InOut(Parts::InPlace(a)), InOut(Parts::InPlace(b)))
            }
            Parts::Apart(input, output) => {
                let (ia, ib) = input.split_at(mid);
                let (oa, ob) = output.split_at_mut(mid);
                (InOut(Parts::Apart(ia, oa)), InOut(Parts::Apart(ib, ob)))
            }
        }
    }

    /// Pieces of `size` bytes (`size > 0`), the last maybe shorter.
    #[inline]
    pub(crate) fn chunks(self, size: usize) -> Chunks<'a> {
        debug_assert!(size > 0);
        Chunks {
            rest: Some(self),
            size,
        }
    }

    /// The input bytes (in place, the buffer as it stands).
    #[inline]
    pub(crate) fn input(&self) -> &[u8] {
        match &self.0 {
            Parts::InPlace(data) => data,
            Parts::Apart(input, _) => input,
        }
    }

    /// The output buffer, to read back what was written.
    #[inline]
    pub(crate) fn into_output(self) -> &'a mut [u8] {
        match self.0 {
            Parts::InPlace(data) => data,
            Parts::Apart(_, output) => output,
        }
    }

    /// The two forms, to take each its own way.
    #[inline]
    pub(crate) fn into_parts(self) -> Parts<'a> {
        self.0
    }

    /// `(src, dst, len)` for the SIMD rungs: `src` valid for reading and
    /// `dst` for writing `len` bytes for `'a`, either the same address (in
    /// place) or not overlapping at all. Reading byte `i` of `src` before
    /// writing byte `i` of `dst` gives in place what out of place gives.
    #[inline]
    pub(crate) fn into_raw(self) -> (*const u8, *mut u8, usize) {
        match self.0 {
            Parts::InPlace(data) => {
                let p = data.as_mut_ptr();
                (p.cast_const(), p, data.len())
            }
            Parts::Apart(input, output) => (input.as_ptr(), output.as_mut_ptr(), output.len()),
        }
    }

    /// The `InOut` that [`InOut::into_raw`] gave `(src, dst, len)` for, again:
    /// for a rung's entry point, which takes the three in registers where
    /// an `InOut` by value would be copied through memory (a 16-byte
    /// reload of a descriptor just written as 8-byte words, a
    /// store-forwarding stall on a short message's critical path); and the
    /// rest of one after a loop over its first bytes.
    ///
    /// # Safety
    ///
    /// `(src, dst, len)` came from `into_raw` of an `InOut` that lives for
    /// `'a` and is not used otherwise meanwhile, or are its last `len`
    /// bytes (both pointers advanced alike), the first ones no longer used.
    #[inline]
    pub(crate) unsafe fn from_raw(src: *const u8, dst: *mut u8, len: usize) -> InOut<'a> {
        // SAFETY: as `into_raw` promises for its parts, which the caller
        // passes back unused: `dst` alone (in place) or the two buffers
        // apart, each valid for `len` bytes for `'a`.
        unsafe {
            if src == dst.cast_const() {
                InOut(Parts::InPlace(core::slice::from_raw_parts_mut(dst, len)))
            } else {
                InOut(Parts::Apart(
                    core::slice::from_raw_parts(src, len),
                    core::slice::from_raw_parts_mut(dst, len),
                ))
            }
        }
    }

    /// `output = input ^ words`, the 16 words serialised little-endian,
    /// one 32-bit load, XOR and store a word, written out (no loop for
    /// the vectoriser to turn into a store of the words and 16-byte
    /// reloads behind run-time overlap checks): a stream cipher's whole
    /// 64-byte block whose keystream is still in general-purpose
    /// registers. `self` must be 64 bytes long.
    #[inline(always)]
    pub(crate) fn xor_le_words(self, words: &[u32; 16]) {
        let (src, dst, len) = self.into_raw();
        assert_eq!(len, 64, "one 64-byte block");
        macro_rules! each {
            ($($i:literal)+) => {$(
                // SAFETY: word `$i` of 16 is within the 64 bytes `src` and
                // `dst` hold (asserted); read before it is written, so in
                // place works; unaligned accesses.
                unsafe {
                    let x = src.add(4 * $i).cast::<u32>().read_unaligned();
                    dst.add(4 * $i).cast::<u32>().write_unaligned(x ^ words[$i].to_le());
                }
            )+};
        }
        each!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15);
    }

    /// `output[i] = input[i] ^ keystream[i]` for every `i`, byte by byte;
    /// `keystream` must be at least as long.
    #[inline]
    pub(crate) fn xor_bytewise(self, keystream: &[u8]) {
        debug_assert!(keystream.len() >= self.len());
        match self.0 {
            Parts::InPlace(data) => {
                for (d, k) in data.iter_mut().zip(keystream) {
                    *d ^= k;
                }
            }
            Parts::Apart(input, output) => {
                for ((o, i), k) in output.iter_mut().zip(input).zip(keystream) {
                    *o = i ^ k;
                }
            }
        }
    }
}

/// The pieces of [`InOut::chunks`].
#[derive(Debug)]
pub(crate) struct Chunks<'a> {
    rest: Option<InOut<'a>>,
    size: usize,
}

impl<'a> Iterator for Chunks<'a> {
    type Item = InOut<'a>;

    #[inline]
    fn next(&mut self) -> Option<InOut<'a>> {
        let rest = self.rest.take()?;
        if rest.is_empty() {
            return None;
        }
        let take = rest.len().min(self.size);
        let (chunk, rest) = rest.split_at(take);
        self.rest = Some(rest);
        Some(chunk)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_forms_split_chunk_and_xor_alike() {
        let ks: Vec<u8> = (0..100u8).map(|i| i.wrapping_mul(29) ^ 0x3c).collect();
        for len in 0..=100 {
            let input: Vec<u8> = (0..len as u8).collect();
            let want: Vec<u8> = input.iter().zip(&ks).map(|(a, b)| a ^ b).collect();
            for size in [1, 7, 16, 64] {
                let mut in_place = input.clone();
                let mut out = vec![0u8; len];
                for (i, chunk) in InOut::in_place(&mut in_place).chunks(size).enumerate() {
                    chunk.xor_bytewise(&ks[i * size..]);
                }
                let apart = InOut::apart(&input, &mut out).unwrap();
                for (i, chunk) in apart.chunks(size).enumerate() {
                    assert_eq!(chunk.input(), &input[i * size..][..chunk.len()]);
                    chunk.xor_bytewise(&ks[i * size..]);
                }
                assert_eq!(in_place, want, "in place, {len} bytes in {size}s");
                assert_eq!(out, want, "apart, {len} bytes in {size}s");
            }
        }
        let mut short = [0u8; 3];
        assert_eq!(
            InOut::apart(&[0; 4], &mut short).unwrap_err(),
            Error::LengthMismatch {
                input: 4,
                output: 3
            }
        );
    }
}
