//! What the tests of the 16-byte block ciphers in RustCrypto's `cipher`
//! 0.5 traits share (`aes_rustcrypto`, `camellia_rustcrypto`): the block
//! traits' single, bulk and buffer-to-buffer forms against the library's
//! own ECB, and CTR as a `StreamCipher` with seeking against the library's
//! CTR.

use cipher::consts::U16;
use cipher::{
    Array, BlockCipherDecrypt, BlockCipherEncrypt, KeyIvInit, StreamCipher, StreamCipherSeek,
};

use super::bytes;

/// `n` blocks of made-up bytes from `seed`.
pub fn blocks(n: usize, seed: u64) -> Vec<Array<u8, U16>> {
    bytes(seed, 16 * n)
        .chunks_exact(16)
        .map(|b| Array::from(<[u8; 16]>::try_from(b).expect("16 bytes")))
        .collect()
}

/// For runs of each of `counts` blocks: `cipher`'s bulk, one-by-one and
/// buffer-to-buffer encryption give what `ecb` (the library's ECB
/// encryption in place) gives, and bulk decryption undoes them.
pub fn block_traits_are_ecb<C>(
    cipher: &C,
    ecb: impl Fn(&mut [u8]),
    counts: impl IntoIterator<Item = usize>,
) where
    C: BlockCipherEncrypt<BlockSize = U16> + BlockCipherDecrypt<BlockSize = U16>,
{
    for n in counts {
        let plain = blocks(n, n as u64);
        let mut want: Vec<u8> = plain.iter().flat_map(|b| b.iter().copied()).collect();
        ecb(&mut want);

        let mut bulk = plain.clone();
        BlockCipherEncrypt::encrypt_blocks(cipher, &mut bulk);
        let mut one_by_one = plain.clone();
        one_by_one.iter_mut().for_each(|b| cipher.encrypt_block(b));
        let mut b2b = blocks(n, 0);
        cipher.encrypt_blocks_b2b(&plain, &mut b2b).unwrap();
        for got in [&bulk, &one_by_one, &b2b] {
            let got: Vec<u8> = got.iter().flat_map(|b| b.iter().copied()).collect();
            assert_eq!(got, want, "{n} blocks");
        }
        BlockCipherDecrypt::decrypt_blocks(cipher, &mut bulk);
        assert_eq!(bulk, plain, "{n} blocks back");
    }
}

/// CTR through the traits as `C` (`KeyIvInit`, `StreamCipher` in two
/// pieces, then `StreamCipherSeek` to byte 517) gives the keystream that
/// `library` (the library's CTR under a key and an initial counter
/// block, XORed into zeros) gives, on a counter block whose low 64 bits
/// carry within the first 1000 bytes.
pub fn ctr_seeks_like_the_librarys<C>(library: impl FnOnce(&[u8; 16], &[u8; 16], &mut [u8]))
where
    C: KeyIvInit<KeySize = U16, IvSize = U16> + StreamCipher + StreamCipherSeek,
{
    let key = [3u8; 16];
    let mut iv = [0xff; 16];
    iv[0] = 0;
    let mut want = vec![0u8; 1000];
    library(&key, &iv, &mut want);
    let mut ctr = C::new(&key.into(), &iv.into());
    let mut got = vec![0u8; 1000];
    StreamCipher::apply_keystream(&mut ctr, &mut got[..333]);
    StreamCipher::apply_keystream(&mut ctr, &mut got[333..]);
    assert_eq!(got, want);
    StreamCipherSeek::seek(&mut ctr, 517u32);
    let mut tail = vec![0u8; 483];
    StreamCipher::apply_keystream(&mut ctr, &mut tail);
    assert_eq!(tail, want[517..]);
}
