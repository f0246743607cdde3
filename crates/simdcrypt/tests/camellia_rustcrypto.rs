//! Camellia in RustCrypto's `cipher` 0.5 traits: the block traits' single,
//! bulk and buffer-to-buffer forms agree with the library's own ECB, on
//! every length of run (past the bitsliced rung's 64-block batch); CTR as
//! a `StreamCipher` with seeking agrees with the library's CTR.

#![cfg(feature = "rustcrypto")]

mod common;

use cipher::{
    Array, BlockCipherDecrypt, BlockCipherEncrypt, KeyInit, KeyIvInit, StreamCipher,
    StreamCipherSeek,
};
use common::bytes;
use simdcrypt::camellia::{Camellia128Ctr, Camellia256, Camellia256Ecb};

/// `n` blocks of made-up bytes from `seed`.
fn blocks(n: usize, seed: u64) -> Vec<Array<u8, cipher::consts::U16>> {
    bytes(seed, 16 * n)
        .chunks_exact(16)
        .map(|b| Array::from(<[u8; 16]>::try_from(b).expect("16 bytes")))
        .collect()
}

#[test]
fn every_form_of_the_block_traits_is_the_librarys_ecb() {
    let key = [0x5c; 32];
    let camellia = <Camellia256 as KeyInit>::new(&key.into());
    for n in [0, 1, 2, 7, 8, 9, 63, 64, 65, 130] {
        let plain = blocks(n, n as u64);
        let flat: Vec<u8> = plain.iter().flat_map(|b| b.iter().copied()).collect();
        let mut want = flat.clone();
        Camellia256Ecb::new(&key).encrypt(&mut want).unwrap();

        let mut bulk = plain.clone();
        BlockCipherEncrypt::encrypt_blocks(&camellia, &mut bulk);
        let mut one_by_one = plain.clone();
        one_by_one
            .iter_mut()
            .for_each(|b| camellia.encrypt_block(b));
        let mut b2b = blocks(n, 0);
        camellia.encrypt_blocks_b2b(&plain, &mut b2b).unwrap();
        for got in [&bulk, &one_by_one, &b2b] {
            let got: Vec<u8> = got.iter().flat_map(|b| b.iter().copied()).collect();
            assert_eq!(got, want, "{n} blocks");
        }
        BlockCipherDecrypt::decrypt_blocks(&camellia, &mut bulk);
        assert_eq!(bulk, plain, "{n} blocks back");
    }
}

#[test]
fn ctr_as_a_stream_cipher_seeks_like_the_librarys() {
    let key = [3u8; 16];
    let mut iv = [0xff; 16];
    iv[0] = 0;
    let mut want = vec![0u8; 1000];
    Camellia128Ctr::new(&key, &iv)
        .apply_keystream(&mut want)
        .unwrap();
    let mut ctr = <Camellia128Ctr as KeyIvInit>::new(&key.into(), &iv.into());
    let mut got = vec![0u8; 1000];
    StreamCipher::apply_keystream(&mut ctr, &mut got[..333]);
    StreamCipher::apply_keystream(&mut ctr, &mut got[333..]);
    assert_eq!(got, want);
    StreamCipherSeek::seek(&mut ctr, 517u32);
    let mut tail = vec![0u8; 483];
    StreamCipher::apply_keystream(&mut ctr, &mut tail);
    assert_eq!(tail, want[517..]);
}
