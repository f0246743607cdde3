//! One contender's primitive, run `calls` times on a `len`-byte message:
//! the guest program `./count` runs under qemu-aarch64 with the
//! instruction-counting plugin, twice with different `calls`, so that
//! start-up and key set-up cancel out of the difference.
//!
//! ```text
//! simdcrypt-arm64-bench CONTENDER PRIMITIVE LEN CALLS
//! ```
//!
//! The key (and, for the block and stream ciphers, the cipher state) is
//! set up once before the calls, as a program encrypting many messages
//! under one key does; each call processes the message once. Before
//! anything else, every contender's output on a fixed message is checked
//! against simdcrypt's, so that a count is only given for a contender
//! that computes the same function.

use std::hint::black_box;
use std::process::ExitCode;

const KEY: [u8; 32] = [0x42; 32];
const NONCE: [u8; 12] = [7; 12];
const XNONCE: [u8; 24] = [9; 24];
const AAD: [u8; 13] = *b"record header";

/// A primitive as one contender computes it: `run(data)` transforms
/// `data` (or hashes it) and returns the tag or digest, empty for a
/// cipher.
type Run = Box<dyn FnMut(&mut [u8]) -> Vec<u8>>;

mod sodium {
    unsafe extern "C" {
        pub fn sodium_init() -> i32;
        pub fn crypto_aead_chacha20poly1305_ietf_encrypt_detached(
            c: *mut u8,
            mac: *mut u8,
            maclen: *mut u64,
            m: *const u8,
            mlen: u64,
            ad: *const u8,
            adlen: u64,
            nsec: *const u8,
            npub: *const u8,
            k: *const u8,
        ) -> i32;
        pub fn crypto_stream_salsa20_xor(
            c: *mut u8,
            m: *const u8,
            mlen: u64,
            n: *const u8,
            k: *const u8,
        ) -> i32;
        pub fn crypto_secretbox_detached(
            c: *mut u8,
            mac: *mut u8,
            m: *const u8,
            mlen: u64,
            n: *const u8,
            k: *const u8,
        ) -> i32;
        pub fn crypto_stream_chacha20_ietf_xor(
            c: *mut u8,
            m: *const u8,
            mlen: u64,
            n: *const u8,
            k: *const u8,
        ) -> i32;
        pub fn crypto_onetimeauth_poly1305(
            out: *mut u8,
            m: *const u8,
            mlen: u64,
            k: *const u8,
        ) -> i32;
        pub fn crypto_hash_sha256(out: *mut u8, m: *const u8, mlen: u64) -> i32;
        pub fn crypto_hash_sha512(out: *mut u8, m: *const u8, mlen: u64) -> i32;
    }
}

fn simdcrypt(primitive: &str) -> Option<Run> {
    use simdcrypt::aead::{Aes128Gcm, Aes256Gcm, ChaCha20Poly1305, XSalsa20Poly1305};
    use simdcrypt::block::Ecb;
    use simdcrypt::hash::{Sha256, Sha512};
    Some(match primitive {
        "aes128-gcm" => {
            let aead = Aes128Gcm::new(KEY[..16].try_into().unwrap());
            Box::new(move |d| aead.encrypt_in_place_detached(&NONCE, &AAD, d).to_vec())
        }
        "aes256-gcm" => {
            let aead = Aes256Gcm::new(&KEY);
            Box::new(move |d| aead.encrypt_in_place_detached(&NONCE, &AAD, d).to_vec())
        }
        "aes128-ctr" => {
            let iv = [0u8; 16];
            Box::new(move |d| {
                let mut ctr = simdcrypt::aes::Aes128Ctr::new(KEY[..16].try_into().unwrap(), &iv);
                ctr.apply_keystream(d).unwrap();
                Vec::new()
            })
        }
        "camellia128-ctr" => {
            let iv = [0u8; 16];
            Box::new(move |d| {
                let key = KEY[..16].try_into().unwrap();
                let mut ctr = simdcrypt::camellia::Camellia128Ctr::new(key, &iv);
                ctr.apply_keystream(d).unwrap();
                Vec::new()
            })
        }
        "chacha20poly1305" => {
            let aead = ChaCha20Poly1305::new(&KEY);
            Box::new(move |d| aead.encrypt_in_place_detached(&NONCE, &AAD, d).to_vec())
        }
        "chacha20" => Box::new(|d| {
            let mut s = simdcrypt::chacha20::ChaCha20::new(&KEY, &NONCE);
            s.apply_keystream(d).unwrap();
            Vec::new()
        }),
        "poly1305" => Box::new(|d| simdcrypt::poly1305::mac(&KEY, d).to_vec()),
        "sha256" => Box::new(|d| Sha256::digest(d).to_vec()),
        "sha512" => Box::new(|d| Sha512::digest(d).to_vec()),
        "salsa20" => Box::new(|d| {
            let mut s = simdcrypt::salsa20::Salsa20::new(&KEY, &[7; 8]);
            s.apply_keystream(d).unwrap();
            Vec::new()
        }),
        "xsalsa20poly1305" => {
            let aead = XSalsa20Poly1305::new(&KEY);
            Box::new(move |d| aead.encrypt_in_place_detached(&XNONCE, d).to_vec())
        }
        "magma-ecb" => {
            let ecb = Ecb::from_cipher(simdcrypt::magma::Magma::new(&KEY));
            Box::new(move |d| {
                ecb.encrypt(d).unwrap();
                Vec::new()
            })
        }
        _ => return None,
    })
}

fn ring(primitive: &str) -> Option<Run> {
    use ring::aead::{
        AES_128_GCM, AES_256_GCM, Aad, CHACHA20_POLY1305, LessSafeKey, Nonce, UnboundKey,
    };
    let aead = |alg, key: &[u8]| -> Run {
        let key = LessSafeKey::new(UnboundKey::new(alg, key).unwrap());
        Box::new(move |d| {
            let nonce = Nonce::assume_unique_for_key(NONCE);
            key.seal_in_place_separate_tag(nonce, Aad::from(AAD), d)
                .unwrap()
                .as_ref()
                .to_vec()
        })
    };
    Some(match primitive {
        "aes128-gcm" => aead(&AES_128_GCM, &KEY[..16]),
        "aes256-gcm" => aead(&AES_256_GCM, &KEY),
        "chacha20poly1305" => aead(&CHACHA20_POLY1305, &KEY),
        "sha256" => Box::new(|d| {
            ring::digest::digest(&ring::digest::SHA256, d)
                .as_ref()
                .to_vec()
        }),
        "sha512" => Box::new(|d| {
            ring::digest::digest(&ring::digest::SHA512, d)
                .as_ref()
                .to_vec()
        }),
        _ => return None,
    })
}

/// A RustCrypto AEAD sealing in place under [`NONCE`] and [`AAD`].
fn rustcrypto_aead(aead: impl aes_gcm::aead::AeadInPlace + 'static) -> Run {
    Box::new(move |d| {
        let nonce = aes_gcm::aead::generic_array::GenericArray::from_slice(&NONCE);
        aead.encrypt_in_place_detached(nonce, &AAD, d)
            .unwrap()
            .to_vec()
    })
}

fn rustcrypto(primitive: &str) -> Option<Run> {
    use aes_gcm::aead::{AeadInPlace, KeyInit};
    use ctr::cipher::{BlockEncrypt, KeyIvInit, StreamCipher};
    Some(match primitive {
        "aes128-gcm" => rustcrypto_aead(aes_gcm::Aes128Gcm::new(KEY[..16].into())),
        "aes256-gcm" => rustcrypto_aead(aes_gcm::Aes256Gcm::new(&KEY.into())),
        "aes128-ctr" => Box::new(|d| {
            let mut c = ctr::Ctr128BE::<aes::Aes128>::new(KEY[..16].into(), &[0u8; 16].into());
            c.apply_keystream(d);
            Vec::new()
        }),
        "camellia128-ctr" => Box::new(|d| {
            let mut c =
                ctr::Ctr128BE::<camellia::Camellia128>::new(KEY[..16].into(), &[0u8; 16].into());
            c.apply_keystream(d);
            Vec::new()
        }),
        "chacha20poly1305" => rustcrypto_aead(chacha20poly1305::ChaCha20Poly1305::new(&KEY.into())),
        "chacha20" => Box::new(|d| {
            let mut c = chacha20::ChaCha20::new(&KEY.into(), &NONCE.into());
            c.apply_keystream(d);
            Vec::new()
        }),
        "poly1305" => Box::new(|d| {
            use poly1305::universal_hash::KeyInit;
            poly1305::Poly1305::new(&KEY.into())
                .compute_unpadded(d)
                .to_vec()
        }),
        "sha256" => Box::new(|d| {
            use sha2::Digest;
            sha2::Sha256::digest(d).to_vec()
        }),
        "sha512" => Box::new(|d| {
            use sha2::Digest;
            sha2::Sha512::digest(d).to_vec()
        }),
        "salsa20" => Box::new(|d| {
            let mut s = salsa20::Salsa20::new(&KEY.into(), &[7; 8].into());
            s.apply_keystream(d);
            Vec::new()
        }),
        "xsalsa20poly1305" => {
            let aead = xsalsa20poly1305::XSalsa20Poly1305::new(&KEY.into());
            Box::new(move |d| {
                aead.encrypt_in_place_detached(&XNONCE.into(), b"", d)
                    .unwrap()
                    .to_vec()
            })
        }
        "magma-ecb" => {
            let cipher = magma::Magma::new(&KEY.into());
            Box::new(move |d| {
                for block in d.chunks_exact_mut(8) {
                    cipher.encrypt_block(block.into());
                }
                Vec::new()
            })
        }
        _ => return None,
    })
}

/// A libsodium stream cipher's `_xor` function in place over the
/// message, under `nonce` (the length the function reads: 12 bytes for
/// `chacha20_ietf`, 8 for `salsa20`) and [`KEY`].
fn sodium_stream(
    xor: unsafe extern "C" fn(*mut u8, *const u8, u64, *const u8, *const u8) -> i32,
    nonce: &'static [u8],
) -> Run {
    Box::new(move |d| {
        // SAFETY: in place over d (libsodium allows it); the nonce as
        // above, a 32-byte key.
        unsafe {
            xor(
                d.as_mut_ptr(),
                d.as_ptr(),
                d.len() as u64,
                nonce.as_ptr(),
                KEY.as_ptr(),
            )
        };
        Vec::new()
    })
}

fn libsodium(primitive: &str) -> Option<Run> {
    // SAFETY: sodium_init takes no arguments and may be called more than once.
    assert!(unsafe { sodium::sodium_init() } >= 0, "sodium_init failed");
    Some(match primitive {
        "chacha20poly1305" => Box::new(|d| {
            let mut tag = [0u8; 16];
            // SAFETY: c and m are the same buffer of d.len() bytes
            // (libsodium allows in place); the other pointers are
            // arrays of the lengths the function reads.
            unsafe {
                sodium::crypto_aead_chacha20poly1305_ietf_encrypt_detached(
                    d.as_mut_ptr(),
                    tag.as_mut_ptr(),
                    std::ptr::null_mut(),
                    d.as_ptr(),
                    d.len() as u64,
                    AAD.as_ptr(),
                    AAD.len() as u64,
                    std::ptr::null(),
                    NONCE.as_ptr(),
                    KEY.as_ptr(),
                )
            };
            tag.to_vec()
        }),
        "chacha20" => sodium_stream(sodium::crypto_stream_chacha20_ietf_xor, &NONCE),
        "poly1305" => Box::new(|d| {
            let mut tag = [0u8; 16];
            // SAFETY: a 16-byte output, d.len() bytes of input, a 32-byte
            // key.
            unsafe {
                sodium::crypto_onetimeauth_poly1305(
                    tag.as_mut_ptr(),
                    d.as_ptr(),
                    d.len() as u64,
                    KEY.as_ptr(),
                )
            };
            tag.to_vec()
        }),
        "salsa20" => sodium_stream(sodium::crypto_stream_salsa20_xor, &[7; 8]),
        "xsalsa20poly1305" => Box::new(|d| {
            let mut tag = [0u8; 16];
            // SAFETY: in place over d; a 24-byte nonce, a 32-byte key and
            // a 16-byte tag.
            unsafe {
                sodium::crypto_secretbox_detached(
                    d.as_mut_ptr(),
                    tag.as_mut_ptr(),
                    d.as_ptr(),
                    d.len() as u64,
                    XNONCE.as_ptr(),
                    KEY.as_ptr(),
                )
            };
            tag.to_vec()
        }),
        "sha256" => Box::new(|d| {
            let mut out = [0u8; 32];
            // SAFETY: a 32-byte output; d.len() bytes of input.
            unsafe { sodium::crypto_hash_sha256(out.as_mut_ptr(), d.as_ptr(), d.len() as u64) };
            out.to_vec()
        }),
        "sha512" => Box::new(|d| {
            let mut out = [0u8; 64];
            // SAFETY: a 64-byte output; d.len() bytes of input.
            unsafe { sodium::crypto_hash_sha512(out.as_mut_ptr(), d.as_ptr(), d.len() as u64) };
            out.to_vec()
        }),
        _ => return None,
    })
}

fn contender(name: &str, primitive: &str) -> Option<Run> {
    match name {
        "simdcrypt" => simdcrypt(primitive),
        "ring" => ring(primitive),
        "rustcrypto" => rustcrypto(primitive),
        "libsodium" => libsodium(primitive),
        _ => None,
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [name, primitive, len, calls] = &args[..] else {
        eprintln!("usage: simdcrypt-arm64-bench CONTENDER PRIMITIVE LEN CALLS");
        return ExitCode::from(2);
    };
    let (Ok(len), Ok(calls)) = (len.parse::<usize>(), calls.parse::<usize>()) else {
        eprintln!("LEN and CALLS are numbers");
        return ExitCode::from(2);
    };
    let Some(mut run) = contender(name, primitive) else {
        eprintln!("{name} has no {primitive}");
        return ExitCode::from(3);
    };
    // The check: the same output and tag as simdcrypt on a fixed message.
    let message: Vec<u8> = (0..1000u32).map(|i| (i * 7 + 3) as u8).collect();
    let (mut ours, mut theirs) = (message.clone(), message.clone());
    let our_tag = simdcrypt(primitive).expect("simdcrypt has every primitive")(&mut ours);
    let their_tag = run(&mut theirs);
    if (&ours, &our_tag) != (&theirs, &their_tag) {
        eprintln!("{name}'s {primitive} differs from simdcrypt's");
        return ExitCode::from(1);
    }
    let mut data = vec![0x5au8; len];
    for _ in 0..calls {
        black_box(run(black_box(&mut data)));
    }
    ExitCode::SUCCESS
}
