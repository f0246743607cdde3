//! SHA-1's compression function as FIPS 180-4 §6.1.2 writes it: prepare
//! the 80-word message schedule W, initialise the five working variables,
//! 80 rounds whose function f_t and constant K_t change every 20 rounds,
//! then add them into the hash value.

use super::K;

/// Ch(x, y, z) (§4.1.1, (4.1), rounds 0–19).
fn ch(x: u32, y: u32, z: u32) -> u32 {
    (x & y) ^ (!x & z)
}

/// Parity(x, y, z) (§4.1.1, rounds 20–39 and 60–79).
fn parity(x: u32, y: u32, z: u32) -> u32 {
    x ^ y ^ z
}

/// Maj(x, y, z) (§4.1.1, rounds 40–59).
fn maj(x: u32, y: u32, z: u32) -> u32 {
    (x & y) ^ (x & z) ^ (y & z)
}

/// f_t (§4.1.1, (4.1)).
fn f(t: usize, x: u32, y: u32, z: u32) -> u32 {
    match t {
        0..=19 => ch(x, y, z),
        20..=39 | 60..=79 => parity(x, y, z),
        _ => maj(x, y, z),
    }
}

/// K_t (§4.2.1).
fn k(t: usize) -> u32 {
    match t {
        0..=19 => K[0],
        20..=39 => K[1],
        40..=59 => K[2],
        _ => K[3],
    }
}

/// Hashes one 512-bit block `M(i)` into the hash value `h` (§6.1.2).
pub(super) fn compress(h: &mut [u32; 5], block: &[u8; 64]) {
    // Step 1: the message schedule.
    let mut w = [0u32; 80];
    for t in 0..16 {
        w[t] = u32::from_be_bytes(block[4 * t..4 * t + 4].try_into().expect("4 bytes"));
    }
    for t in 16..80 {
        w[t] = (w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16]).rotate_left(1);
    }
    // Step 2: the working variables.
    let [mut a, mut b, mut c, mut d, mut e] = *h;
    // Step 3: 80 rounds.
    for (t, &wt) in w.iter().enumerate() {
        let tt = a
            .rotate_left(5)
            .wrapping_add(f(t, b, c, d))
            .wrapping_add(e)
            .wrapping_add(k(t))
            .wrapping_add(wt);
        e = d;
        d = c;
        c = b.rotate_left(30);
        b = a;
        a = tt;
    }
    // Step 4: the intermediate hash value.
    for (hi, v) in h.iter_mut().zip([a, b, c, d, e]) {
        *hi = hi.wrapping_add(v);
    }
}
