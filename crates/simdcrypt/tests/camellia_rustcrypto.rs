//! Camellia in RustCrypto's `cipher` 0.5 traits: the block traits' single,
//! bulk and buffer-to-buffer forms agree with the library's own ECB, on
//! every length of run (past the bitsliced rung's 64-block batch); CTR as
//! a `StreamCipher` with seeking agrees with the library's CTR.

#![cfg(feature = "rustcrypto")]

mod common;

use cipher::KeyInit;
use common::block::{block_traits_are_ecb, ctr_seeks_like_the_librarys};
use simdcrypt::camellia::{Camellia128Ctr, Camellia256, Camellia256Ecb};

#[test]
fn every_form_of_the_block_traits_is_the_librarys_ecb() {
    let key = [0x5c; 32];
    let camellia = <Camellia256 as KeyInit>::new(&key.into());
    let ecb = |data: &mut [u8]| Camellia256Ecb::new(&key).encrypt(data).unwrap();
    block_traits_are_ecb(&camellia, ecb, [0, 1, 2, 7, 8, 9, 63, 64, 65, 130]);
}

#[test]
fn ctr_as_a_stream_cipher_seeks_like_the_librarys() {
    ctr_seeks_like_the_librarys::<Camellia128Ctr>(|key, iv, data| {
        Camellia128Ctr::new(key, iv).apply_keystream(data).unwrap();
    });
}
