//! The software AES rungs (`tables`, `bitsliced`, `bitsliced-avx2`), and
//! every other rung this CPU runs, against the `reference` rung (FIPS 197
//! literally): random keys of all three sizes; ECB, CBC and CTR from 0 to
//! 70 blocks (4 batches of the widest rung and a tail), in place and out
//! of place at odd offsets; CTR across the counter's 2^32, 2^64 and 2^128
//! carries; and the FIPS 197 and SP 800-38A vectors on every rung.

// The reference rung and the variable-time `tables` need `hazmat`.
#![cfg(feature = "hazmat")]

mod common;

use common::{bytes, field, hex, json, number, out_of_place, records};
use simdcrypt::aes::{Aes128, Aes192, Aes256, Impl};
use simdcrypt::block::{BlockCipher, Cbc, Ctr, Ecb};

/// The rungs this CPU runs, printed so the log shows what was exercised.
fn rungs(test: &str) -> Vec<Impl> {
    common::rungs(test)
}

/// Runs `check` once per key size with a constructor from key bytes.
fn each_size(mut check: impl FnMut(usize, &dyn Fn(&[u8], Impl) -> Keyed)) {
    check(16, &|k, imp| {
        Keyed::A128(on(Aes128::new(k.try_into().expect("16")), imp))
    });
    check(24, &|k, imp| {
        Keyed::A192(on(Aes192::new(k.try_into().expect("24")), imp))
    });
    check(32, &|k, imp| {
        Keyed::A256(on(Aes256::new(k.try_into().expect("32")), imp))
    });
}

/// `cipher` moved to rung `imp`, which this CPU runs.
fn on<C: BlockCipher<Impl = Impl>>(cipher: C, imp: Impl) -> C {
    cipher.with_impl(imp).expect("an available rung")
}

/// A keyed AES of any size, for tests that loop over the three.
enum Keyed {
    A128(Aes128),
    A192(Aes192),
    A256(Aes256),
}

/// `$body` with `$c` bound to the cipher inside a [`Keyed`].
macro_rules! with {
    ($keyed:expr, |$c:ident| $body:expr) => {
        match $keyed {
            Keyed::A128($c) => $body,
            Keyed::A192($c) => $body,
            Keyed::A256($c) => $body,
        }
    };
}

impl Keyed {
    fn encrypt_blocks(&self, data: &mut [u8]) {
        with!(self, |c| c.encrypt_blocks(data)).expect("whole blocks");
    }

    fn decrypt_blocks(&self, data: &mut [u8]) {
        with!(self, |c| c.decrypt_blocks(data)).expect("whole blocks");
    }

    fn encrypt_into(&self, input: &[u8], output: &mut [u8]) {
        with!(self, |c| c.encrypt_blocks_into(input, output)).expect("whole blocks");
    }

    fn decrypt_into(&self, input: &[u8], output: &mut [u8]) {
        with!(self, |c| c.decrypt_blocks_into(input, output)).expect("whole blocks");
    }

    /// CTR from the counter block `iv` over `data`, in two calls split at
    /// `split`.
    fn ctr(self, iv: &[u8; 16], data: &mut [u8], split: usize) {
        with!(self, |c| {
            let mut ctr = Ctr::from_cipher(c, iv);
            let (a, b) = data.split_at_mut(split);
            ctr.apply_keystream(a).and_then(|()| ctr.apply_keystream(b))
        })
        .expect("within the keystream");
    }

    /// CTR from `iv`, `input` into `output`.
    fn ctr_into(self, iv: &[u8; 16], input: &[u8], output: &mut [u8]) {
        with!(self, |c| Ctr::from_cipher(c, iv).xor_into(input, output)).expect("same lengths");
    }

    /// CBC encryption (`decrypt` false) or decryption from `iv`, `input`
    /// into `output`.
    fn cbc_into(self, iv: &[u8; 16], decrypt: bool, input: &[u8], output: &mut [u8]) {
        with!(self, |c| {
            let mut cbc = Cbc::from_cipher(c, iv);
            if decrypt {
                cbc.decrypt_into(input, output)
            } else {
                cbc.encrypt_into(input, output)
            }
        })
        .expect("whole blocks");
    }

    /// ECB from `input` into `output`, through the mode.
    fn ecb_into(self, decrypt: bool, input: &[u8], output: &mut [u8]) {
        with!(self, |c| {
            let ecb = Ecb::from_cipher(c);
            if decrypt {
                ecb.decrypt_into(input, output)
            } else {
                ecb.encrypt_into(input, output)
            }
        })
        .expect("whole blocks");
    }
}

/// Block counts: every one up to 4 batches of the widest rung (16 blocks)
/// and a tail.
const MAX_BLOCKS: usize = 70;

/// (input, output) offsets from their allocations' starts.
const SHIFTS: [(usize, usize); 3] = [(0, 0), (1, 3), (7, 4)];

#[test]
fn fips197_vectors_on_every_rung() {
    let v = json(include_str!("data/aes/fips197.json"));
    for imp in rungs("fips197_vectors_on_every_rung") {
        for case in records(&v, "vectors") {
            let (key, pt, ct) = (
                hex(field(case, "key")),
                hex(field(case, "plaintext")),
                hex(field(case, "ciphertext")),
            );
            each_size(|len, new| {
                if key.len() != len {
                    return;
                }
                let aes = new(&key, imp);
                let mut block = pt.clone();
                aes.encrypt_blocks(&mut block);
                assert_eq!(block, ct, "{imp} {}", field(case, "section"));
                aes.decrypt_blocks(&mut block);
                assert_eq!(block, pt, "{imp} {}", field(case, "section"));
            });
        }
    }
}

#[test]
fn sp800_38a_vectors_on_every_rung() {
    let v = json(include_str!("data/aes/sp800_38a.json"));
    for imp in rungs("sp800_38a_vectors_on_every_rung") {
        for case in records(&v, "vectors") {
            let name = field(case, "name");
            let key = hex(field(case, "key"));
            assert_eq!(key.len() * 8, number(case, "key_bits") as usize);
            let (pt, ct) = (
                hex(field(case, "plaintext")),
                hex(field(case, "ciphertext")),
            );
            let decrypt = field(case, "direction") == "decrypt";
            let (from, to) = if decrypt { (&ct, &pt) } else { (&pt, &ct) };
            each_size(|len, new| {
                if key.len() != len {
                    return;
                }
                let mut out = vec![0u8; from.len()];
                match field(case, "mode") {
                    "ecb" => new(&key, imp).ecb_into(decrypt, from, &mut out),
                    "cbc" => {
                        let iv = hex(field(case, "iv")).try_into().expect("16-byte IV");
                        new(&key, imp).cbc_into(&iv, decrypt, from, &mut out);
                    }
                    "ctr" => {
                        let iv = hex(field(case, "initial_counter_block"))
                            .try_into()
                            .expect("16 bytes");
                        new(&key, imp).ctr_into(&iv, from, &mut out);
                    }
                    mode => panic!("unknown mode {mode}"),
                }
                assert_eq!(&out, to, "{imp} {name}");
            });
        }
    }
}

#[test]
fn ecb_matches_reference_in_place_and_out_of_place() {
    let rungs = rungs("ecb_matches_reference_in_place_and_out_of_place");
    each_size(|len, new| {
        for blocks in 0..=MAX_BLOCKS {
            let seed = (len * 1000 + blocks) as u64;
            let key = bytes(seed, len);
            let data = bytes(seed ^ 0xdead_beef, 16 * blocks);
            let reference = new(&key, Impl::Reference);
            let mut enc = data.clone();
            reference.encrypt_blocks(&mut enc);
            let mut dec = data.clone();
            reference.decrypt_blocks(&mut dec);
            for &imp in &rungs {
                let aes = new(&key, imp);
                let mut buf = data.clone();
                aes.encrypt_blocks(&mut buf);
                assert_eq!(buf, enc, "{imp} aes-{} encrypt {blocks} blocks", 8 * len);
                aes.decrypt_blocks(&mut buf);
                assert_eq!(
                    buf,
                    data,
                    "{imp} aes-{} round trip {blocks} blocks",
                    8 * len
                );
                let mut buf = data.clone();
                aes.decrypt_blocks(&mut buf);
                assert_eq!(buf, dec, "{imp} aes-{} decrypt {blocks} blocks", 8 * len);
                for (i, o) in SHIFTS {
                    let out = out_of_place(&data, i, o, |a, b| aes.encrypt_into(a, b));
                    assert_eq!(
                        out, enc,
                        "{imp} encrypt_into {blocks} blocks, offsets {i} {o}"
                    );
                    let out = out_of_place(&data, i, o, |a, b| aes.decrypt_into(a, b));
                    assert_eq!(
                        out, dec,
                        "{imp} decrypt_into {blocks} blocks, offsets {i} {o}"
                    );
                }
            }
        }
    });
}

#[test]
fn cbc_matches_reference() {
    let rungs = rungs("cbc_matches_reference");
    each_size(|len, new| {
        for blocks in 0..=MAX_BLOCKS {
            let seed = (len * 1000 + blocks) as u64 + 7;
            let key = bytes(seed, len);
            let iv: [u8; 16] = bytes(seed + 1, 16).try_into().expect("16");
            let data = bytes(seed + 2, 16 * blocks);
            for decrypt in [false, true] {
                let mut want = vec![0u8; data.len()];
                new(&key, Impl::Reference).cbc_into(&iv, decrypt, &data, &mut want);
                for &imp in &rungs {
                    for (i, o) in SHIFTS {
                        let out = out_of_place(&data, i, o, |a, b| {
                            new(&key, imp).cbc_into(&iv, decrypt, a, b)
                        });
                        assert_eq!(
                            out,
                            want,
                            "{imp} aes-{} cbc decrypt={decrypt} {blocks} blocks",
                            8 * len
                        );
                    }
                }
            }
        }
    });
}

#[test]
fn ctr_matches_reference_across_counter_carries() {
    let rungs = rungs("ctr_matches_reference_across_counter_carries");
    // Counter blocks just below the carries out of the low 32 and 64 bits
    // and the wrap of all 128, and a random one.
    let ivs: [[u8; 16]; 4] = [
        u128::to_be_bytes((1 << 32) - 3),
        u128::to_be_bytes(0x0123_4567_89ab_cdef_ffff_ffff_ffff_fffa),
        u128::to_be_bytes(u128::MAX - 20),
        bytes(99, 16).try_into().expect("16"),
    ];
    each_size(|len, new| {
        for (n, iv) in ivs.iter().enumerate() {
            for total in (0..=16 * MAX_BLOCKS + 5)
                .step_by(37)
                .chain([16 * 16, 16 * 17 + 1])
            {
                let seed = (len * 100_000 + n * 10_000 + total) as u64;
                let key = bytes(seed, len);
                let data = bytes(seed + 1, total);
                let mut want = data.clone();
                new(&key, Impl::Reference).ctr(iv, &mut want, 0);
                for &imp in &rungs {
                    let split = (total * 5 / 7) & !3;
                    let mut buf = data.clone();
                    new(&key, imp).ctr(iv, &mut buf, split);
                    assert_eq!(buf, want, "{imp} aes-{} ctr iv {n}, {total} bytes", 8 * len);
                    let out = out_of_place(&data, 3, 1, |a, b| new(&key, imp).ctr_into(iv, a, b));
                    assert_eq!(
                        out,
                        want,
                        "{imp} aes-{} ctr_into iv {n}, {total} bytes",
                        8 * len
                    );
                }
            }
        }
    });
}

#[test]
fn encrypt_on_one_rung_decrypt_on_another() {
    let rungs = rungs("encrypt_on_one_rung_decrypt_on_another");
    each_size(|len, new| {
        let key = bytes(len as u64, len);
        let data = bytes(5, 16 * 37);
        for &enc in &rungs {
            for &dec in &rungs {
                let mut buf = data.clone();
                new(&key, enc).encrypt_blocks(&mut buf);
                new(&key, dec).decrypt_blocks(&mut buf);
                assert_eq!(buf, data, "{enc} then {dec}");
            }
        }
    });
}

#[test]
fn the_default_is_constant_time_and_bitsliced_without_aes_instructions() {
    let best = Impl::best();
    eprintln!("aes default: {best}");
    assert!(best.is_constant_time() && best.is_available());
    assert_ne!(best, Impl::Tables);
    assert_eq!(Aes128::new(&[0; 16]).implementation(), best);
    if !Impl::BitslicedAvx2.is_available() {
        // So under SIMDCRYPT_MAX_ISA=scalar, and on any CPU without AVX2.
        assert_eq!(best, Impl::Bitsliced);
    }
    assert!(!Impl::Tables.is_constant_time());
    assert!(Impl::Bitsliced.is_constant_time() && Impl::BitslicedAvx2.is_constant_time());
}
