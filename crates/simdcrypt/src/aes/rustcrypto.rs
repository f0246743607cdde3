//! AES in RustCrypto's `cipher` 0.5 traits (feature `rustcrypto`):
//! [`Aes128`], [`Aes192`] and [`Aes256`] as [`BlockCipherEncrypt`] and
//! [`BlockCipherDecrypt`] (so RustCrypto's own mode crates run on
//! simdcrypt's rungs), and [`Aes128Ctr`], [`Aes192Ctr`], [`Aes256Ctr`] as
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
//! modes drive eight blocks at a time, does the same.
//!
//! [`Aes128`]: super::Aes128
//! [`Aes192`]: super::Aes192
//! [`Aes256`]: super::Aes256
//! [`Aes128Ctr`]: super::Aes128Ctr
//! [`Aes192Ctr`]: super::Aes192Ctr
//! [`Aes256Ctr`]: super::Aes256Ctr

use cipher::consts::{U8, U16, U24, U32};
use cipher::{
    Block, BlockCipherDecBackend, BlockCipherDecClosure, BlockCipherDecrypt, BlockCipherEncBackend,
    BlockCipherEncClosure, BlockCipherEncrypt, BlockSizeUser, InOut, InOutBuf, Key, KeyInit,
    KeySizeUser, ParBlocks, ParBlocksSizeUser,
};

use super::{Aes, Bits128, Bits192, Bits256, KeySize};
use crate::block::sealed::Core;
use crate::rustcrypto::{array_parts, one_parts};
use crate::xor::InOut as Data;

/// The backend the traits hand to their closures: the cipher itself.
struct Backend<'a, K: KeySize>(&'a Aes<K>);

impl<K: KeySize> BlockSizeUser for Backend<'_, K> {
    type BlockSize = U16;
}

impl<K: KeySize> ParBlocksSizeUser for Backend<'_, K> {
    type ParBlocksSize = U8;
}

impl<K: KeySize> BlockCipherEncBackend for Backend<'_, K> {
    fn encrypt_block(&self, block: InOut<'_, '_, Block<Self>>) {
        self.0.encrypt(Data::from_parts(one_parts(block)));
    }

    fn encrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
        self.0.encrypt(Data::from_parts(one_parts(blocks)));
    }

    fn encrypt_tail_blocks(&self, blocks: InOutBuf<'_, '_, Block<Self>>) {
        self.0.encrypt(Data::from_parts(array_parts(blocks)));
    }
}

impl<K: KeySize> BlockCipherDecBackend for Backend<'_, K> {
    fn decrypt_block(&self, block: InOut<'_, '_, Block<Self>>) {
        self.0.decrypt(Data::from_parts(one_parts(block)));
    }

    fn decrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
        self.0.decrypt(Data::from_parts(one_parts(blocks)));
    }

    fn decrypt_tail_blocks(&self, blocks: InOutBuf<'_, '_, Block<Self>>) {
        self.0.decrypt(Data::from_parts(array_parts(blocks)));
    }
}

/// The traits for AES with a key of `$K`'s size, `$n` bytes.
macro_rules! aes_traits {
    ($($K:ty => $n:ty, $what:literal;)+) => {$(
        #[doc = concat!("The key size of ", $what, ".")]
        #[cfg_attr(docsrs, doc(cfg(feature = "rustcrypto")))]
        impl KeySizeUser for Aes<$K> {
            type KeySize = $n;
        }

        /// The inherent `new`: on the fastest constant-time rung.
        #[cfg_attr(docsrs, doc(cfg(feature = "rustcrypto")))]
        impl KeyInit for Aes<$K> {
            fn new(key: &Key<Self>) -> Self {
                Aes::<$K>::new(key.into())
            }
        }

        /// AES's 128-bit block.
        #[cfg_attr(docsrs, doc(cfg(feature = "rustcrypto")))]
        impl BlockSizeUser for Aes<$K> {
            type BlockSize = U16;
        }

        /// Encryption on the rung in use; runs of blocks at its width.
        #[cfg_attr(docsrs, doc(cfg(feature = "rustcrypto")))]
        impl BlockCipherEncrypt for Aes<$K> {
            fn encrypt_with_backend(&self, f: impl BlockCipherEncClosure<BlockSize = U16>) {
                f.call(&Backend(self));
            }

            fn encrypt_blocks_inout(&self, blocks: InOutBuf<'_, '_, Block<Self>>) {
                self.encrypt(Data::from_parts(array_parts(blocks)));
            }
        }

        /// Decryption on the rung in use; runs of blocks at its width.
        #[cfg_attr(docsrs, doc(cfg(feature = "rustcrypto")))]
        impl BlockCipherDecrypt for Aes<$K> {
            fn decrypt_with_backend(&self, f: impl BlockCipherDecClosure<BlockSize = U16>) {
                f.call(&Backend(self));
            }

            fn decrypt_blocks_inout(&self, blocks: InOutBuf<'_, '_, Block<Self>>) {
                self.decrypt(Data::from_parts(array_parts(blocks)));
            }
        }
    )+};
}

aes_traits! {
    Bits128 => U16, "AES-128";
    Bits192 => U24, "AES-192";
    Bits256 => U32, "AES-256";
}

crate::rustcrypto::stream_cipher_traits!([] crate::block::Ctr<super::Aes128>, key = U16, iv = U16, "AES-128-CTR (128-bit key, 128-bit initial counter block)");
crate::rustcrypto::stream_cipher_traits!([] crate::block::Ctr<super::Aes192>, key = U24, iv = U16, "AES-192-CTR (192-bit key, 128-bit initial counter block)");
crate::rustcrypto::stream_cipher_traits!([] crate::block::Ctr<super::Aes256>, key = U32, iv = U16, "AES-256-CTR (256-bit key, 128-bit initial counter block)");
