//! The reference compression function of SHA-256 and SHA-512, said once.
//! FIPS 180-4 describes §6.2.2 (SHA-256) and §6.4.2 (SHA-512) as one
//! algorithm: the same logical functions (§4.1.2, §4.1.3), message schedule
//! and rounds, over 32- or 64-bit words with their own rotation amounts,
//! constants and round count. Each family's `reference.rs` gives those.

/// Defines `compress(h, block)` for one SHA-2 word size, as FIPS 180-4
/// §6.2.2 / §6.4.2 write it: prepare the message schedule W, initialise
/// the eight working variables, the rounds, then add them into the hash
/// value. `big_sigma0` … `small_sigma1` are the rotation (and, for σ, the
/// final shift) amounts of §4.1.2 (4.4)–(4.7) or §4.1.3 (4.10)–(4.13).
macro_rules! compression {
    (
        $(#[$doc:meta])*
        word: $w:ty, block: $block:literal, rounds: $rounds:literal, k: $k:path,
        big_sigma0: ($s0a:literal, $s0b:literal, $s0c:literal),
        big_sigma1: ($s1a:literal, $s1b:literal, $s1c:literal),
        small_sigma0: ($r0a:literal, $r0b:literal, $r0c:literal),
        small_sigma1: ($r1a:literal, $r1b:literal, $r1c:literal) $(,)?
    ) => {
        /// Ch(x, y, z) (§4.1.2 (4.2), §4.1.3 (4.8)).
        fn ch(x: $w, y: $w, z: $w) -> $w {
            (x & y) ^ (!x & z)
        }

        /// Maj(x, y, z) (§4.1.2 (4.3), §4.1.3 (4.9)).
        fn maj(x: $w, y: $w, z: $w) -> $w {
            (x & y) ^ (x & z) ^ (y & z)
        }

        /// Σ0 (§4.1.2 (4.4), §4.1.3 (4.10)).
        fn big_sigma0(x: $w) -> $w {
            x.rotate_right($s0a) ^ x.rotate_right($s0b) ^ x.rotate_right($s0c)
        }

        /// Σ1 (§4.1.2 (4.5), §4.1.3 (4.11)).
        fn big_sigma1(x: $w) -> $w {
            x.rotate_right($s1a) ^ x.rotate_right($s1b) ^ x.rotate_right($s1c)
        }

        /// σ0 (§4.1.2 (4.6), §4.1.3 (4.12)).
        fn small_sigma0(x: $w) -> $w {
            x.rotate_right($r0a) ^ x.rotate_right($r0b) ^ (x >> $r0c)
        }

        /// σ1 (§4.1.2 (4.7), §4.1.3 (4.13)).
        fn small_sigma1(x: $w) -> $w {
            x.rotate_right($r1a) ^ x.rotate_right($r1b) ^ (x >> $r1c)
        }

        $(#[$doc])*
        pub(super) fn compress(h: &mut [$w; 8], block: &[u8; $block]) {
            const BYTES: usize = <$w>::BITS as usize / 8;
            // Step 1: the message schedule.
            let mut w: [$w; $rounds] = [0; $rounds];
            for (t, word) in block.chunks_exact(BYTES).enumerate() {
                w[t] = <$w>::from_be_bytes(word.try_into().expect("one word"));
            }
            for t in 16..$rounds {
                w[t] = small_sigma1(w[t - 2])
                    .wrapping_add(w[t - 7])
                    .wrapping_add(small_sigma0(w[t - 15]))
                    .wrapping_add(w[t - 16]);
            }
            // Step 2: the working variables.
            let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut hh] = *h;
            // Step 3: the rounds.
            for t in 0..$rounds {
                let t1 = hh
                    .wrapping_add(big_sigma1(e))
                    .wrapping_add(ch(e, f, g))
                    .wrapping_add($k[t])
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
    };
}
pub(crate) use compression;
