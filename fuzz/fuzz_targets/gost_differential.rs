//! Differential fuzzing of GOST 28147-89 and Magma: every rung against
//! `reference` (RFC 5830's basic step) at fuzzer-chosen keys, S-box sets
//! (any eight permutations, built from the input), messages and lengths,
//! both directions and both byte orders; each rung's decryption inverts
//! its encryption.
#![no_main]

use libfuzzer_sys::fuzz_target;
use simdcrypt::gost28147::{Gost28147, Rung, SBox};
use simdcrypt::magma::Magma;

/// Eight permutations of 0..15 shuffled by `seed` (Fisher–Yates).
fn sbox(seed: &[u8]) -> SBox {
    let mut rows = [[0u8; 16]; 8];
    for (r, row) in rows.iter_mut().enumerate() {
        *row = std::array::from_fn(|i| i as u8);
        for i in (1..16).rev() {
            let j = usize::from(seed[(r * 15 + i) % seed.len()]) % (i + 1);
            row.swap(i, j);
        }
    }
    SBox::from_rows(rows).expect("permutations")
}

fuzz_target!(|input: &[u8]| {
    if input.len() < 32 + 16 + 1 {
        return;
    }
    let (key, rest) = input.split_at(32);
    let key: &[u8; 32] = key.try_into().unwrap();
    let (seed, rest) = rest.split_at(16);
    let (&mode, data) = rest.split_first().unwrap();
    let data = &data[..data.len() / 8 * 8];
    let magma = mode & 1 != 0;
    let sbox = sbox(seed);
    let run = |imp: Rung, decrypt: bool, data: &[u8]| -> Vec<u8> {
        let mut out = data.to_vec();
        if magma {
            let c = Magma::new(key).with_rung(imp).unwrap();
            if decrypt {
                c.decrypt_blocks(&mut out)
            } else {
                c.encrypt_blocks(&mut out)
            }
        } else {
            let c = Gost28147::with_sbox(key, sbox).with_rung(imp).unwrap();
            if decrypt {
                c.decrypt_blocks(&mut out)
            } else {
                c.encrypt_blocks(&mut out)
            }
        }
        .unwrap();
        out
    };
    let want = run(Rung::Reference, false, data);
    for imp in Rung::available() {
        let got = run(imp, false, data);
        assert_eq!(got, want, "{imp} differs from the reference");
        assert_eq!(run(imp, true, &got), data, "{imp} does not invert itself");
    }
});
