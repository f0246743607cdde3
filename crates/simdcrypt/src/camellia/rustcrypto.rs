//! Camellia in RustCrypto's `cipher` 0.5 traits (feature `rustcrypto`),
//! as AES has them: [`Camellia128`], [`Camellia192`] and [`Camellia256`]
//! as [`BlockCipherEncrypt`](cipher::BlockCipherEncrypt) and
//! [`BlockCipherDecrypt`](cipher::BlockCipherDecrypt) (so RustCrypto's
//! own mode crates run on simdcrypt's rungs), and [`Camellia128Ctr`],
//! [`Camellia192Ctr`], [`Camellia256Ctr`] as
//! [`StreamCipher`](cipher::StreamCipher) with seeking.
//!
//! ```
//! use cipher::{BlockCipherDecrypt, BlockCipherEncrypt, KeyInit};
//! use simdcrypt::camellia::Camellia128;
//!
//! // RFC 3713, Appendix A.
//! let key = 0x0123456789abcdeffedcba9876543210u128.to_be_bytes();
//! let camellia = <Camellia128 as KeyInit>::new(&key.into());
//! let mut block = key.into();
//! camellia.encrypt_block(&mut block);
//! assert_eq!(block[..4], [0x67, 0x67, 0x31, 0x38]);
//! camellia.decrypt_block(&mut block);
//! assert_eq!(block[..], key);
//! ```
//!
//! [`Camellia128`]: super::Camellia128
//! [`Camellia192`]: super::Camellia192
//! [`Camellia256`]: super::Camellia256
//! [`Camellia128Ctr`]: super::Camellia128Ctr
//! [`Camellia192Ctr`]: super::Camellia192Ctr
//! [`Camellia256Ctr`]: super::Camellia256Ctr

use cipher::consts::{U16, U24, U32};

use super::{Bits128, Bits192, Bits256, Camellia};

crate::rustcrypto::block_cipher_traits! {
    Camellia<Bits128> => U16, "Camellia-128";
    Camellia<Bits192> => U24, "Camellia-192";
    Camellia<Bits256> => U32, "Camellia-256";
}

crate::rustcrypto::stream_cipher_traits!([] crate::block::Ctr<super::Camellia128>, key = U16, iv = U16, "Camellia-128-CTR (128-bit key, 128-bit initial counter block)");
crate::rustcrypto::stream_cipher_traits!([] crate::block::Ctr<super::Camellia192>, key = U24, iv = U16, "Camellia-192-CTR (192-bit key, 128-bit initial counter block)");
crate::rustcrypto::stream_cipher_traits!([] crate::block::Ctr<super::Camellia256>, key = U32, iv = U16, "Camellia-256-CTR (256-bit key, 128-bit initial counter block)");
