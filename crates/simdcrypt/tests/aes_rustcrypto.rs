//! AES in RustCrypto's `cipher` 0.5 traits: the block traits' single,
//! bulk and buffer-to-buffer forms agree with the library's own ECB, on
//! every length of run; CTR as a `StreamCipher` with seeking agrees with
//! the library's CTR.

#![cfg(feature = "rustcrypto")]

mod common;

use cipher::{Array, BlockCipherDecrypt, BlockCipherEncrypt, KeyInit};
use common::block::{block_traits_are_ecb, ctr_seeks_like_the_librarys};
use simdcrypt::aes::{Aes128, Aes128Ctr, Aes256, Aes256Ecb};

#[test]
fn fips_197_through_the_block_traits() {
    let key: [u8; 16] = core::array::from_fn(|i| i as u8);
    let aes = <Aes128 as KeyInit>::new(&key.into());
    let mut block = Array::from(core::array::from_fn::<u8, 16, _>(|i| (i as u8) * 0x11));
    aes.encrypt_block(&mut block);
    assert_eq!(
        block[..],
        [
            0x69, 0xc4, 0xe0, 0xd8, 0x6a, 0x7b, 0x04, 0x30, 0xd8, 0xcd, 0xb7, 0x80, 0x70, 0xb4,
            0xc5, 0x5a
        ]
    );
    aes.decrypt_block(&mut block);
    assert_eq!(block[1], 0x11);
}

#[test]
fn every_form_of_the_block_traits_is_the_librarys_ecb() {
    let key = [0x5c; 32];
    let aes = <Aes256 as KeyInit>::new(&key.into());
    let ecb = |data: &mut [u8]| Aes256Ecb::new(&key).encrypt(data).unwrap();
    block_traits_are_ecb(&aes, ecb, 0..40);
}

#[test]
fn ctr_as_a_stream_cipher_seeks_like_the_librarys() {
    ctr_seeks_like_the_librarys::<Aes128Ctr>(|key, iv, data| {
        Aes128Ctr::new(key, iv).apply_keystream(data).unwrap();
    });
}
