//! SHA-256's compression function as FIPS 180-4 §6.2.2 writes it: prepare
//! the 64-word message schedule W, initialise the eight working variables,
//! 64 rounds, then add them into the hash value.

use super::K;

/// Ch(x, y, z) (§4.1.2, (4.2)).
fn ch(x: u32, y: u32, z: u32) -> u32 {
    (x & y) ^ (!x & z)
}

/// Maj(x, y, z) (§4.1.2, (4.3)).
fn maj(x: u32, y: u32, z: u32) -> u32 {
    (x & y) ^ (x & z) ^ (y & z)
}

/// Σ0 (§4.1.2, (4.4)).
fn big_sigma0(x: u32) -> u32 {
    x.rotate_right(2) ^ x.rotate_right(13) ^ x.rotate_right(22)
}

/// Σ1 (§4.1.2, (4.5)).
fn big_sigma1(x: u32) -> u32 {
    x.rotate_right(6) ^ x.rotate_right(11) ^ x.rotate_right(25)
}

/// σ0 (§4.1.2, (4.6)).
fn small_sigma0(x: u32) -> u32 {
    x.rotate_right(7) ^ x.rotate_right(18) ^ (x >> 3)
}

/// σ1 (§4.1.2, (4.7)).
fn small_sigma1(x: u32) -> u32 {
    x.rotate_right(17) ^ x.rotate_right(19) ^ (x >> 10)
}

/// Hashes one 512-bit block `M(i)` into the hash value `h` (§6.2.2).
pub(super) fn compress(h: &mut [u32; 8], block: &[u8; 64]) {
    // Step 1: the message schedule.
    let mut w = [0u32; 64];
    for t in 0..16 {
        w[t] = u32::from_be_bytes(block[4 * t..4 * t + 4].try_into().expect("4 bytes"));
    }
    for t in 16..64 {
        w[t] = small_sigma1(w[t - 2])
            .wrapping_add(w[t - 7])
            .wrapping_add(small_sigma0(w[t - 15]))
            .wrapping_add(w[t - 16]);
    }
    // Step 2: the working variables.
    let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut hh] = *h;
    // Step 3: 64 rounds.
    for t in 0..64 {
        let t1 = hh
            .wrapping_add(big_sigma1(e))
            .wrapping_add(ch(e, f, g))
            .wrapping_add(K[t])
            .wrapping_add(w[t]);
        let t2 = big_sigma0(a).wrapping_add(maj(a, b, c));
        hh = g;
        g = f;
        f = e;
        e = d.wrapping_add(t1);
        d = c;
        c = b;
        b = a;
        a = t1.wrapping_add(t2);
    }
    // Step 4: the intermediate hash value.
    for (hi, v) in h.iter_mut().zip([a, b, c, d, e, f, g, hh]) {
        *hi = hi.wrapping_add(v);
    }
}
