//! MD5's compression function as RFC 1321 §3.4 writes it: copy the block
//! into X, save A B C D as AA BB CC DD, four rounds of sixteen operations
//! each, then add AA BB CC DD back.

use super::T;

/// F(X,Y,Z) = XY v not(X) Z (§3.4).
fn f(x: u32, y: u32, z: u32) -> u32 {
    (x & y) | (!x & z)
}

/// G(X,Y,Z) = XZ v Y not(Z) (§3.4).
fn g(x: u32, y: u32, z: u32) -> u32 {
    (x & z) | (y & !z)
}

/// H(X,Y,Z) = X xor Y xor Z (§3.4).
fn h(x: u32, y: u32, z: u32) -> u32 {
    x ^ y ^ z
}

/// I(X,Y,Z) = Y xor (X v not(Z)) (§3.4).
fn i(x: u32, y: u32, z: u32) -> u32 {
    y ^ (x | !z)
}

/// One operation `[abcd k s i]` of a round with the auxiliary function
/// `fun`: `a = b + ((a + fun(b,c,d) + X[k] + T[i]) <<< s)`, with the RFC's
/// one-based `i`.
#[allow(clippy::too_many_arguments)] // the RFC's operation has all eight
fn op(
    fun: fn(u32, u32, u32) -> u32,
    a: &mut u32,
    b: u32,
    c: u32,
    d: u32,
    xk: u32,
    s: u32,
    i: usize,
) {
    *a = b.wrapping_add(
        a.wrapping_add(fun(b, c, d))
            .wrapping_add(xk)
            .wrapping_add(T[i - 1])
            .rotate_left(s),
    );
}

/// Processes one 16-word block into the chaining value `abcd` (§3.4).
pub(super) fn compress(abcd: &mut [u32; 4], block: &[u8; 64]) {
    // Copy block i into X, the words little-endian (§2, §3.4).
    let mut x = [0u32; 16];
    for (j, word) in x.iter_mut().enumerate() {
        *word = u32::from_le_bytes(block[4 * j..4 * j + 4].try_into().expect("4 bytes"));
    }
    // Save A as AA, B as BB, C as CC, and D as DD.
    let [mut a, mut b, mut c, mut d] = *abcd;
    let [aa, bb, cc, dd] = *abcd;
    // Round 1: [abcd k s i] denotes a = b + ((a + F(b,c,d) + X[k] + T[i]) <<< s).
    op(f, &mut a, b, c, d, x[0], 7, 1);
    op(f, &mut d, a, b, c, x[1], 12, 2);
    op(f, &mut c, d, a, b, x[2], 17, 3);
    op(f, &mut b, c, d, a, x[3], 22, 4);
    op(f, &mut a, b, c, d, x[4], 7, 5);
    op(f, &mut d, a, b, c, x[5], 12, 6);
    op(f, &mut c, d, a, b, x[6], 17, 7);
    op(f, &mut b, c, d, a, x[7], 22, 8);
    op(f, &mut a, b, c, d, x[8], 7, 9);
    op(f, &mut d, a, b, c, x[9], 12, 10);
    op(f, &mut c, d, a, b, x[10], 17, 11);
    op(f, &mut b, c, d, a, x[11], 22, 12);
    op(f, &mut a, b, c, d, x[12], 7, 13);
    op(f, &mut d, a, b, c, x[13], 12, 14);
    op(f, &mut c, d, a, b, x[14], 17, 15);
    op(f, &mut b, c, d, a, x[15], 22, 16);
    // Round 2: [abcd k s i] denotes a = b + ((a + G(b,c,d) + X[k] + T[i]) <<< s).
    op(g, &mut a, b, c, d, x[1], 5, 17);
    op(g, &mut d, a, b, c, x[6], 9, 18);
    op(g, &mut c, d, a, b, x[11], 14, 19);
    op(g, &mut b, c, d, a, x[0], 20, 20);
    op(g, &mut a, b, c, d, x[5], 5, 21);
    op(g, &mut d, a, b, c, x[10], 9, 22);
    op(g, &mut c, d, a, b, x[15], 14, 23);
    op(g, &mut b, c, d, a, x[4], 20, 24);
    op(g, &mut a, b, c, d, x[9], 5, 25);
    op(g, &mut d, a, b, c, x[14], 9, 26);
    op(g, &mut c, d, a, b, x[3], 14, 27);
    op(g, &mut b, c, d, a, x[8], 20, 28);
    op(g, &mut a, b, c, d, x[13], 5, 29);
    op(g, &mut d, a, b, c, x[2], 9, 30);
    op(g, &mut c, d, a, b, x[7], 14, 31);
    op(g, &mut b, c, d, a, x[12], 20, 32);
    // Round 3: [abcd k s i] denotes a = b + ((a + H(b,c,d) + X[k] + T[i]) <<< s).
    op(h, &mut a, b, c, d, x[5], 4, 33);
    op(h, &mut d, a, b, c, x[8], 11, 34);
    op(h, &mut c, d, a, b, x[11], 16, 35);
    op(h, &mut b, c, d, a, x[14], 23, 36);
    op(h, &mut a, b, c, d, x[1], 4, 37);
    op(h, &mut d, a, b, c, x[4], 11, 38);
    op(h, &mut c, d, a, b, x[7], 16, 39);
    op(h, &mut b, c, d, a, x[10], 23, 40);
    op(h, &mut a, b, c, d, x[13], 4, 41);
    op(h, &mut d, a, b, c, x[0], 11, 42);
    op(h, &mut c, d, a, b, x[3], 16, 43);
    op(h, &mut b, c, d, a, x[6], 23, 44);
    op(h, &mut a, b, c, d, x[9], 4, 45);
    op(h, &mut d, a, b, c, x[12], 11, 46);
    op(h, &mut c, d, a, b, x[15], 16, 47);
    op(h, &mut b, c, d, a, x[2], 23, 48);
    // Round 4: [abcd k s i] denotes a = b + ((a + I(b,c,d) + X[k] + T[i]) <<< s).
    op(i, &mut a, b, c, d, x[0], 6, 49);
    op(i, &mut d, a, b, c, x[7], 10, 50);
    op(i, &mut c, d, a, b, x[14], 15, 51);
    op(i, &mut b, c, d, a, x[5], 21, 52);
    op(i, &mut a, b, c, d, x[12], 6, 53);
    op(i, &mut d, a, b, c, x[3], 10, 54);
    op(i, &mut c, d, a, b, x[10], 15, 55);
    op(i, &mut b, c, d, a, x[1], 21, 56);
    op(i, &mut a, b, c, d, x[8], 6, 57);
    op(i, &mut d, a, b, c, x[15], 10, 58);
    op(i, &mut c, d, a, b, x[6], 15, 59);
    op(i, &mut b, c, d, a, x[13], 21, 60);
    op(i, &mut a, b, c, d, x[4], 6, 61);
    op(i, &mut d, a, b, c, x[11], 10, 62);
    op(i, &mut c, d, a, b, x[2], 15, 63);
    op(i, &mut b, c, d, a, x[9], 21, 64);
    // A = A + AA, B = B + BB, C = C + CC, D = D + DD.
    *abcd = [
        a.wrapping_add(aa),
        b.wrapping_add(bb),
        c.wrapping_add(cc),
        d.wrapping_add(dd),
    ];
}
