//! AES in RustCrypto's `cipher` 0.5 traits (feature `rustcrypto`):
//! [`Aes128`], [`Aes192`] and [`Aes256`] as
//! [`BlockCipherEncrypt`](cipher::BlockCipherEncrypt) and
//! [`BlockCipherDecrypt`](cipher::BlockCipherDecrypt) (so RustCrypto's
//! own mode crates run on simdcrypt's rungs), and [`Aes128Ctr`], [`Aes192Ctr`], [`Aes256Ctr`] as
//! [`StreamCipher`](cipher::StreamCipher) with seeking.
//!
//! ```
//! use cipher::{BlockCipherEncrypt, KeyInit};
//! use simdcrypt::aes::Aes128;
//!
//! // FIPS 197, Appendix C.1.
//! let key: [u8; 16] = core::array::from_fn(|i| i as u8);
//! let aes = <Aes128 as KeyInit>::new(&key.into());
//! let mut block = core::array::from_fn::<u8, 16, _>(|i| (i as u8) * 0x11).into();
//! aes.encrypt_block(&mut block);
//! assert_eq!(block[..4], [0x69, 0xc4, 0xe0, 0xd8]);
//! ```
//!
//! Runs of blocks (`encrypt_blocks`, `encrypt_blocks_inout`) go straight
//! to the rung's whole-block form; the trait's backend, which RustCrypto's
//! modes drive eight blocks at a time, does the same (the traits written
//! once, in `crate::rustcrypto::block_cipher_traits`).
//!
//! [`Aes128`]: super::Aes128
//! [`Aes192`]: super::Aes192
//! [`Aes256`]: super::Aes256
//! [`Aes128Ctr`]: super::Aes128Ctr
//! [`Aes192Ctr`]: super::Aes192Ctr
//! [`Aes256Ctr`]: super::Aes256Ctr

use cipher::consts::{U16, U24, U32};

use super::{Aes, Bits128, Bits192, Bits256};

crate::rustcrypto::block_cipher_traits! {
    Aes<Bits128> => U16, "AES-128";
    Aes<Bits192> => U24, "AES-192";
    Aes<Bits256> => U32, "AES-256";
}

crate::rustcrypto::stream_cipher_traits!([] crate::block::Ctr<super::Aes128>, key = U16, iv = U16, "AES-128-CTR (128-bit key, 128-bit initial counter block)");
crate::rustcrypto::stream_cipher_traits!([] crate::block::Ctr<super::Aes192>, key = U24, iv = U16, "AES-192-CTR (192-bit key, 128-bit initial counter block)");
crate::rustcrypto::stream_cipher_traits!([] crate::block::Ctr<super::Aes256>, key = U32, iv = U16, "AES-256-CTR (256-bit key, 128-bit initial counter block)");
