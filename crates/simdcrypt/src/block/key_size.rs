//! The key sizes of the block ciphers keyed with 128, 192 or 256 bits
//! (AES, FIPS 197 §5; Camellia, RFC 3713 §2.2): one sealed trait and its
//! three types, over which such a family's cipher type is generic
//! (`Aes<Bits128>`, `Camellia<Bits256>`).

/// A key size of 128, 192 or 256 bits. Sealed; the three are
/// [`Bits128`], [`Bits192`] and [`Bits256`].
pub trait KeySize: sealed::Sealed + Clone + Send + Sync + 'static {
    /// The key length in bytes.
    const LEN: usize;
    /// The key: `[u8; LEN]`.
    type Key: AsRef<[u8]> + ?Sized;
}

mod sealed {
    pub trait Sealed {}
}

macro_rules! key_sizes {
    ($($Bits:ident = $len:literal;)+) => {$(
        #[doc = concat!("A ", stringify!($len), "-byte key.")]
        #[derive(Clone, Copy, Debug)]
        pub enum $Bits {}
        impl sealed::Sealed for $Bits {}
        impl KeySize for $Bits {
            const LEN: usize = $len;
            type Key = [u8; $len];
        }
    )+};
}

key_sizes! {
    Bits128 = 16;
    Bits192 = 24;
    Bits256 = 32;
}

/// The cipher's name at key size `K`: the first of `names` for a 16-byte
/// key, the second for 24 bytes, the third for 32.
pub(crate) const fn sized_name<K: KeySize>(names: [&'static str; 3]) -> &'static str {
    names[(K::LEN - 16) / 8]
}

/// `key` when it is `K`'s length; else the error that says so, naming
/// the cipher `name`.
pub(crate) fn sized_key<'a, K: KeySize>(
    name: &'static str,
    key: &'a [u8],
) -> Result<&'a [u8], crate::Error> {
    if key.len() == K::LEN {
        Ok(key)
    } else {
        Err(crate::Error::BadLength {
            primitive: name,
            what: "key",
            len: key.len(),
            expected: K::LEN.to_string(),
        })
    }
}

/// What a block cipher type `$Cipher<K>` over [`KeySize`] with 16-byte
/// blocks has alike in every family (AES, Camellia), from its own `new`,
/// `with_rung` and `rung`, its `Rung` type `$Rung` and its names `$names`
/// (one a key size, [`sized_name`]): [`BlockCipher`](super::BlockCipher),
/// `Debug` (the key size and the rung, never the key), and the inherent
/// `encrypt_blocks` and `decrypt_blocks`, so that callers need not import
/// the trait.
macro_rules! sized_block_cipher_impls {
    ($Cipher:ident, $Rung:ty, $names:expr) => {
        impl<K: $crate::block::KeySize> $crate::block::BlockCipher for $Cipher<K> {
            const NAME: &'static str = $crate::block::sized_name::<K>($names);
            const BLOCK_LEN: usize = 16;
            type Block = [u8; 16];
            type Key = K::Key;
            type Rung = $Rung;

            fn new(key: &K::Key) -> Self {
                $Cipher::new(key)
            }

            fn with_rung(self, imp: $Rung) -> Result<Self, $crate::Error> {
                $Cipher::with_rung(self, imp)
            }

            fn rung(&self) -> $Rung {
                $Cipher::rung(self)
            }

            fn par_blocks(&self) -> usize {
                $Cipher::rung(self).par_blocks()
            }
        }

        /// The key size and the rung; never the key.
        impl<K: $crate::block::KeySize> ::std::fmt::Debug for $Cipher<K> {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.debug_struct(stringify!($Cipher))
                    .field("cipher", &<Self as $crate::block::BlockCipher>::NAME)
                    .field("implementation", &$Cipher::rung(self))
                    .finish_non_exhaustive()
            }
        }

        impl<K: $crate::block::KeySize> $Cipher<K> {
            /// Encrypts whole blocks in place:
            /// [`BlockCipher::encrypt_blocks`](crate::block::BlockCipher::encrypt_blocks).
            ///
            /// # Errors
            ///
            /// [`Error::NotWholeBlocks`](crate::Error::NotWholeBlocks) when
            /// `data` is not a multiple of 16 bytes.
            pub fn encrypt_blocks(&self, data: &mut [u8]) -> Result<(), $crate::Error> {
                $crate::block::BlockCipher::encrypt_blocks(self, data)
            }

            /// Decrypts whole blocks in place:
            /// [`BlockCipher::decrypt_blocks`](crate::block::BlockCipher::decrypt_blocks).
            ///
            /// # Errors
            ///
            /// [`Error::NotWholeBlocks`](crate::Error::NotWholeBlocks) when
            /// `data` is not a multiple of 16 bytes.
            pub fn decrypt_blocks(&self, data: &mut [u8]) -> Result<(), $crate::Error> {
                $crate::block::BlockCipher::decrypt_blocks(self, data)
            }
        }
    };
}
pub(crate) use sized_block_cipher_impls;
