//! SHA-512's compression function as FIPS 180-4 §6.4.2 writes it: prepare
//! the 80-word message schedule W, initialise the eight working variables,
//! 80 rounds, then add them into the hash value.

use super::K512;

/// Ch(x, y, z) (§4.1.3, (4.8)).
fn ch(x: u64, y: u64, z: u64) -> u64 {
    (x & y) ^ (!x & z)
}

/// Maj(x, y, z) (§4.1.3, (4.9)).
fn maj(x: u64, y: u64, z: u64) -> u64 {
    (x & y) ^ (x & z) ^ (y & z)
}

/// Σ0 (§4.1.3, (4.10)).
fn big_sigma0(x: u64) -> u64 {
    x.rotate_right(28) ^ x.rotate_right(34) ^ x.rotate_right(39)
}

/// Σ1 (§4.1.3, (4.11)).
fn big_sigma1(x: u64) -> u64 {
    x.rotate_right(14) ^ x.rotate_right(18) ^ x.rotate_right(41)
}

/// σ0 (§4.1.3, (4.12)).
fn small_sigma0(x: u64) -> u64 {
    x.rotate_right(1) ^ x.rotate_right(8) ^ (x >> 7)
}

/// σ1 (§4.1.3, (4.13)).
fn small_sigma1(x: u64) -> u64 {
    x.rotate_right(19) ^ x.rotate_right(61) ^ (x >> 6)
}

/// Hashes one 1024-bit block `M(i)` into the hash value `h` (§6.4.2).
pub(super) fn compress(h: &mut [u64; 8], block: &[u8; 128]) {
    // Step 1: the message schedule.
    let mut w = [0u64; 80];
    for t in 0..16 {
        w[t] = u64::from_be_bytes(block[8 * t..8 * t + 8].try_into().expect("8 bytes"));
    }
    for t in 16..80 {
        w[t] = small_sigma1(w[t - 2])
            .wrapping_add(w[t - 7])
            .wrapping_add(small_sigma0(w[t - 15]))
            .wrapping_add(w[t - 16]);
    }
    // Step 2: the working variables.
    let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut hh] = *h;
    // Step 3: 80 rounds.
    for t in 0..80 {
        let t1 = hh
            .wrapping_add(big_sigma1(e))
            .wrapping_add(ch(e, f, g))
            .wrapping_add(K512[t])
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
