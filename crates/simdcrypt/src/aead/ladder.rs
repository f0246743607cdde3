//! The AEADs' entries in the table of ladders: no rungs of their own, they
//! run on their cipher's and Poly1305's, or on AES's and GHASH's.

use super::{NONCE_LEN, XNONCE_LEN};
use crate::Error;
use crate::dynamic::{DynAead, exact, exact_mut};
use crate::table::{Ladder, Primitive, Rungs};
use crate::xor::InOut;

/// ChaCha20-Poly1305, XChaCha20-Poly1305 and XSalsa20-Poly1305.
pub(crate) const LADDER: Ladder = Ladder {
    name: "aead",
    primitives: &[
        Primitive::aead(
            "chacha20-poly1305",
            "ChaCha20-Poly1305 (RFC 8439 §2.8): ciphertext ‖ tag",
            NONCE_LEN,
            true, // authenticates associated data
            chacha20_poly1305,
        ),
        Primitive::aead(
            "xchacha20-poly1305",
            "XChaCha20-Poly1305 (draft-irtf-cfrg-xchacha-03 §2.3)",
            XNONCE_LEN,
            true, // authenticates associated data
            xchacha20_poly1305,
        ),
        Primitive::aead(
            "xsalsa20-poly1305",
            "XSalsa20-Poly1305, NaCl's crypto_secretbox: tag ‖ ciphertext",
            XNONCE_LEN,
            false, // authenticates none: refuses any
            xsalsa20_poly1305,
        ),
    ],
    rungs: Rungs::ComposedOf(&["chacha20", "poly1305", "salsa20"]),
    #[cfg(feature = "kit")]
    checks: crate::aead::checks::run,
    #[cfg(feature = "kit")]
    fuzz: crate::aead::checks::fuzz,
};

/// AES-GCM and AES-GCM-SIV.
pub(crate) const GCM_LADDER: Ladder = Ladder {
    name: "aes-gcm",
    primitives: &[
        Primitive::aead(
            "aes-128-gcm",
            "AES-128-GCM (NIST SP 800-38D): ciphertext ‖ tag",
            NONCE_LEN,
            true,
            aes_128_gcm,
        )
        .key_lens(&[16]),
        Primitive::aead(
            "aes-192-gcm",
            "AES-192-GCM (NIST SP 800-38D): ciphertext ‖ tag",
            NONCE_LEN,
            true,
            aes_192_gcm,
        )
        .key_lens(&[24]),
        Primitive::aead(
            "aes-256-gcm",
            "AES-256-GCM (NIST SP 800-38D): ciphertext ‖ tag",
            NONCE_LEN,
            true,
            aes_256_gcm,
        ),
        Primitive::aead(
            "aes-128-gcm-siv",
            "AES-128-GCM-SIV (RFC 8452), nonce-misuse resistant: ciphertext ‖ tag",
            NONCE_LEN,
            true,
            aes_128_gcm_siv,
        )
        .key_lens(&[16]),
        Primitive::aead(
            "aes-256-gcm-siv",
            "AES-256-GCM-SIV (RFC 8452), nonce-misuse resistant: ciphertext ‖ tag",
            NONCE_LEN,
            true,
            aes_256_gcm_siv,
        ),
    ],
    rungs: Rungs::ComposedOf(&["aes", "ghash"]),
    #[cfg(feature = "kit")]
    checks: crate::aead::gcm_checks::run,
    #[cfg(feature = "kit")]
    fuzz: crate::aead::gcm_checks::fuzz,
};

/// Implements [`DynAead`] for the AEAD types and defines their
/// constructors.
macro_rules! dyn_aead {
    ($($t:ident, $name:literal => $new:ident;)+) => {$(
        /// Through the private core, which takes associated data for every
        /// type and refuses it, with an error, where the type has none.
        impl DynAead for crate::aead::$t {
            fn encrypt_in_place_detached(
                &self,
                nonce: &[u8],
                aad: &[u8],
                data: &mut [u8],
                tag: &mut [u8],
            ) -> Result<(), Error> {
                let nonce = exact($name, "nonce", nonce)?;
                let tag: &mut [u8; 16] = exact_mut($name, "tag", tag)?;
                *tag = self.seal_inout(nonce, aad, InOut::in_place(data))?;
                Ok(())
            }
            fn decrypt_in_place_detached(
                &self,
                nonce: &[u8],
                aad: &[u8],
                data: &mut [u8],
                tag: &[u8],
            ) -> Result<(), Error> {
                let nonce = exact($name, "nonce", nonce)?;
                let tag = exact($name, "tag", tag)?;
                self.open_inout(nonce, aad, InOut::in_place(data), tag)
            }
            fn decrypt_detached_into(
                &self,
                nonce: &[u8],
                aad: &[u8],
                input: &[u8],
                output: &mut [u8],
                tag: &[u8],
            ) -> Result<(), Error> {
                let nonce = exact($name, "nonce", nonce)?;
                let tag = exact($name, "tag", tag)?;
                self.open_inout(nonce, aad, InOut::apart(input, output)?, tag)
            }
            fn tag_first(&self) -> bool {
                crate::aead::$t::TAG_FIRST
            }
        }

        #[doc = concat!("`", $name, "` keyed with `key`.")]
        fn $new(key: &[u8]) -> Result<Box<dyn DynAead>, Error> {
            Ok(Box::new(crate::aead::$t::new(exact($name, "key", key)?)))
        }
    )+};
}

dyn_aead! {
    ChaCha20Poly1305, "chacha20-poly1305" => chacha20_poly1305;
    XChaCha20Poly1305, "xchacha20-poly1305" => xchacha20_poly1305;
    XSalsa20Poly1305, "xsalsa20-poly1305" => xsalsa20_poly1305;
    Aes128Gcm, "aes-128-gcm" => aes_128_gcm;
    Aes192Gcm, "aes-192-gcm" => aes_192_gcm;
    Aes256Gcm, "aes-256-gcm" => aes_256_gcm;
    Aes128GcmSiv, "aes-128-gcm-siv" => aes_128_gcm_siv;
    Aes256GcmSiv, "aes-256-gcm-siv" => aes_256_gcm_siv;
}
