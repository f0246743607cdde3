//! AES in RustCrypto's `cipher` 0.5 traits: the block traits' single,
//! bulk and buffer-to-buffer forms agree with the library's own ECB, on
//! every length of run; CTR as a `StreamCipher` with seeking agrees with
//! the library's CTR.

#![cfg(feature = "rustcrypto")]

mod common;

use cipher::{
    Array, BlockCipherDecrypt, BlockCipherEncrypt, KeyInit, KeyIvInit, StreamCipher,
    StreamCipherSeek,
};
use common::bytes;
use simdcrypt::aes::{Aes128, Aes128Ctr, Aes256, Aes256Ecb};

/// `n` blocks of made-up bytes from `seed`.
fn blocks(n: usize, seed: u64) -> Vec<Array<u8, cipher::consts::U16>> {
    bytes(seed, 16 * n)
        .chunks_exact(16)
        .map(|b| Array::from(<[u8; 16]>::try_from(b).expect("16 bytes")))
        .collect()
}

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
    for n in 0..40 {
        let plain = blocks(n, n as u64);
        let flat: Vec<u8> = plain.iter().flat_map(|b| b.iter().copied()).collect();
        let mut want = flat.clone();
        Aes256Ecb::new(&key).encrypt(&mut want).unwrap();

        let mut bulk = plain.clone();
        BlockCipherEncrypt::encrypt_blocks(&aes, &mut bulk);
        let mut one_by_one = plain.clone();
        one_by_one.iter_mut().for_each(|b| aes.encrypt_block(b));
        let mut b2b = blocks(n, 0);
        aes.encrypt_blocks_b2b(&plain, &mut b2b).unwrap();
        for got in [&bulk, &one_by_one, &b2b] {
            let got: Vec<u8> = got.iter().flat_map(|b| b.iter().copied()).collect();
            assert_eq!(got, want, "{n} blocks");
        }
        BlockCipherDecrypt::decrypt_blocks(&aes, &mut bulk);
        assert_eq!(bulk, plain, "{n} blocks back");
    }
}

#[test]
fn ctr_as_a_stream_cipher_seeks_like_the_librarys() {
    let key = [3u8; 16];
    let mut iv = [0xff; 16];
    iv[0] = 0;
    let mut want = vec![0u8; 1000];
    Aes128Ctr::new(&key, &iv)
        .apply_keystream(&mut want)
        .unwrap();
    let mut ctr = <Aes128Ctr as KeyIvInit>::new(&key.into(), &iv.into());
    let mut got = vec![0u8; 1000];
    StreamCipher::apply_keystream(&mut ctr, &mut got[..333]);
    StreamCipher::apply_keystream(&mut ctr, &mut got[333..]);
    assert_eq!(got, want);
    StreamCipherSeek::seek(&mut ctr, 517u32);
    let mut tail = vec![0u8; 483];
    StreamCipher::apply_keystream(&mut ctr, &mut tail);
    assert_eq!(tail, want[517..]);
}
