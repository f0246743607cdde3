//! The RustCrypto `aead` 0.6 traits for simdcrypt's AEADs (feature
//! `rustcrypto`): [`KeySizeUser`], [`KeyInit`], [`AeadCore`] and
//! [`AeadInOut`] — and through `aead`'s blanket implementations `Aead` and
//! the older `AeadInPlace` — so that code generic over those traits runs on
//! simdcrypt.
//!
//! ```
//! use aead::{AeadInOut, KeyInit};
//! use simdcrypt::aead::ChaCha20Poly1305;
//!
//! let aead = <ChaCha20Poly1305 as KeyInit>::new(&[7; 32].into());
//! let mut data = *b"attack at dawn";
//! let tag = aead.encrypt_inout_detached(&[1; 12].into(), b"ad", (&mut data[..]).into())?;
//! aead.decrypt_inout_detached(&[1; 12].into(), b"ad", (&mut data[..]).into(), &tag)?;
//! assert_eq!(&data, b"attack at dawn");
//! # Ok::<(), aead::Error>(())
//! ```
//!
//! Separate input and output buffers are read and written in one pass, as
//! [`ChaCha20Poly1305::encrypt_into`] does; in place, as
//! [`ChaCha20Poly1305::encrypt_in_place_detached`]. `aead::Error` carries
//! no detail; the inherent methods say what went wrong.
//!
//! The traits pass associated data to every AEAD; [`XSalsa20Poly1305`]
//! (NaCl's `crypto_secretbox`), whose own methods take none, returns
//! `aead::Error` for any that is not empty, before touching the buffer.

use aead::consts::{U12, U16, U24, U32};
use aead::inout::InOutBuf;
use aead::{AeadCore, AeadInOut, Key, KeyInit, KeySizeUser, Nonce, Tag, TagPosition};

use super::{
    Aes128Gcm, Aes128GcmSiv, Aes192Gcm, Aes256Gcm, Aes256GcmSiv, ChaCha20Poly1305,
    XChaCha20Poly1305, XSalsa20Poly1305,
};
use crate::rustcrypto::parts;
use crate::xor::{InOut, Parts};

/// The simdcrypt form of an `inout` buffer.
fn inout<'a>(buffer: InOutBuf<'a, 'a, u8>) -> InOut<'a> {
    match parts(buffer) {
        Parts::InPlace(data) => InOut::in_place(data),
        Parts::Apart(input, output) => {
            InOut::apart(input, output).expect("an InOutBuf's halves are equally long")
        }
    }
}

/// Implements the traits for `$t` with a key of `$key` bytes, a nonce of
/// `$nonce` bytes and the tag at `$position`.
macro_rules! aead_traits {
    ($t:ident, $key:ty, $nonce:ty, $position:expr) => {
        #[cfg_attr(docsrs, doc(cfg(feature = "rustcrypto")))]
        impl KeySizeUser for $t {
            type KeySize = $key;
        }

        #[cfg_attr(docsrs, doc(cfg(feature = "rustcrypto")))]
        impl KeyInit for $t {
            fn new(key: &Key<Self>) -> Self {
                $t::new(&(*key).into())
            }
        }

        #[cfg_attr(docsrs, doc(cfg(feature = "rustcrypto")))]
        impl AeadCore for $t {
            type NonceSize = $nonce;
            type TagSize = U16;
            const TAG_POSITION: TagPosition = $position;
        }

        #[cfg_attr(docsrs, doc(cfg(feature = "rustcrypto")))]
        impl AeadInOut for $t {
            fn encrypt_inout_detached(
                &self,
                nonce: &Nonce<Self>,
                associated_data: &[u8],
                buffer: InOutBuf<'_, '_, u8>,
            ) -> aead::Result<Tag<Self>> {
                self.seal_inout(&(*nonce).into(), associated_data, inout(buffer))
                    .map(Tag::<Self>::from)
                    .map_err(|_| aead::Error)
            }

            fn decrypt_inout_detached(
                &self,
                nonce: &Nonce<Self>,
                associated_data: &[u8],
                buffer: InOutBuf<'_, '_, u8>,
                tag: &Tag<Self>,
            ) -> aead::Result<()> {
                self.open_inout(
                    &(*nonce).into(),
                    associated_data,
                    inout(buffer),
                    &(*tag).into(),
                )
                .map_err(|_| aead::Error)
            }
        }
    };
}

aead_traits!(ChaCha20Poly1305, U32, U12, TagPosition::Postfix);
aead_traits!(XChaCha20Poly1305, U32, U24, TagPosition::Postfix);
aead_traits!(XSalsa20Poly1305, U32, U24, TagPosition::Prefix);
aead_traits!(Aes128Gcm, U16, U12, TagPosition::Postfix);
aead_traits!(Aes192Gcm, U24, U12, TagPosition::Postfix);
aead_traits!(Aes256Gcm, U32, U12, TagPosition::Postfix);
aead_traits!(Aes128GcmSiv, U16, U12, TagPosition::Postfix);
aead_traits!(Aes256GcmSiv, U32, U12, TagPosition::Postfix);
