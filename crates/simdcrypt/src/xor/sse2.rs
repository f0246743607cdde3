//! SSE2 (x86-64 baseline): the `c1` XOR, 16 bytes per load/XOR/store.

use core::arch::x86_64::{__m128i, _mm_loadu_si128, _mm_storeu_si128, _mm_xor_si128};

/// `data ^= keystream[..data.len()]`, 16 bytes at a time, the tail byte-wise.
#[inline]
#[target_feature(enable = "sse2")]
pub(super) fn xor(data: &mut [u8], keystream: &[u8]) {
    // Trim the keystream so that its remainder lines up with the data's.
    let keystream = &keystream[..data.len()];
    let mut chunks = data.chunks_exact_mut(16);
    let mut ks = keystream.chunks_exact(16);
    for (d, k) in (&mut chunks).zip(&mut ks) {
        // SAFETY: `d` and `k` are 16 bytes long, so each unaligned 16-byte
        // load and store stays inside its slice; SSE2 is part of x86-64.
        unsafe {
            let x = _mm_xor_si128(
                _mm_loadu_si128(d.as_ptr().cast::<__m128i>()),
                _mm_loadu_si128(k.as_ptr().cast::<__m128i>()),
            );
            _mm_storeu_si128(d.as_mut_ptr().cast::<__m128i>(), x);
        }
    }
    super::bytewise(chunks.into_remainder(), ks.remainder());
}
