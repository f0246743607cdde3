//! SSE2 (x86-64 baseline): the `c1` XOR, 16 bytes per load/XOR/store, from
//! the input into the output.

use core::arch::x86_64::{__m128i, _mm_loadu_si128, _mm_storeu_si128, _mm_xor_si128};

use super::InOut;

/// `output = input ^ keystream[..data.len()]`, 16 bytes at a time, the tail
/// byte-wise.
#[inline]
#[target_feature(enable = "sse2")]
pub(super) fn xor(data: InOut<'_>, keystream: &[u8]) {
    // Trim the keystream so that its remainder lines up with the data's
    // (and so that every 16-byte load of it below is in bounds).
    let keystream = &keystream[..data.len()];
    let whole = data.len() / 16 * 16;
    let (head, tail) = data.split_at(whole);
    let (src, dst, len) = head.into_raw();
    for i in (0..len).step_by(16) {
        // SAFETY: `i + 16 <= len`, for which `src` is readable, `dst`
        // writable (`into_raw`) and `keystream` long enough; the loads and
        // stores are unaligned; SSE2 is part of x86-64. In place, each 16
        // bytes are read before they are written.
        unsafe {
            let x = _mm_xor_si128(
                _mm_loadu_si128(src.add(i).cast::<__m128i>()),
                _mm_loadu_si128(keystream.as_ptr().add(i).cast::<__m128i>()),
            );
            _mm_storeu_si128(dst.add(i).cast::<__m128i>(), x);
        }
    }
    tail.xor_bytewise(&keystream[whole..]);
}
