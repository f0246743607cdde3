//! Portable scalar SHA-256 (FIPS 180-4 §6.2.2), tuned: the 64 rounds
//! unrolled with the working variables renamed instead of shifted
//! ([`super::rounds`]), the message schedule computed as the rounds need
//! it in a circular window of 16 words (§6.2.2 step 1 in the form of
//! §6.1.3 for SHA-1), `K_t + W_t` added before the round's critical path,
//! Σ and σ nested to suit two-operand `ror`.

use super::{K, rounds};

/// σ0 (§4.1.2, (4.6)) as `(x ⋙ 11 ^ x) ⋙ 7 ^ x ≫ 3`, one rotation and
/// one copy fewer (see [`super::big_sigma0_nested`]).
#[inline(always)]
fn small_sigma0(x: u32) -> u32 {
    (x.rotate_right(11) ^ x).rotate_right(7) ^ (x >> 3)
}

/// σ1 (§4.1.2, (4.7)) as `(x ⋙ 2 ^ x) ⋙ 17 ^ x ≫ 10`.
#[inline(always)]
fn small_sigma1(x: u32) -> u32 {
    (x.rotate_right(2) ^ x).rotate_right(17) ^ (x >> 10)
}

/// Hashes the blocks `M(i)` into the hash value `h`, one after another.
pub(super) fn compress(h: &mut [u32; 8], blocks: &[[u8; 64]]) {
    let mut v = *h;
    for block in blocks {
        let (words, _) = block.as_chunks::<4>();
        let mut w = [0u32; 16];
        for (w, word) in w.iter_mut().zip(words) {
            *w = u32::from_be_bytes(*word);
        }
        rounds!(v, big_sigma0_nested, big_sigma1_nested, |t| {
            // W_t replaces W_{t-16} in the window (§6.2.2 step 1).
            if t >= 16 {
                w[t % 16] = small_sigma1(w[(t - 2) % 16])
                    .wrapping_add(w[(t - 7) % 16])
                    .wrapping_add(small_sigma0(w[(t - 15) % 16]))
                    .wrapping_add(w[t % 16]);
            }
            w[t % 16].wrapping_add(K[t])
        });
    }
    *h = v;
}
