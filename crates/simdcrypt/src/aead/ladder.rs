//! The AEADs' entry in the table of ladders: no rungs of their own, they
//! run on their cipher's and Poly1305's.

use super::{NONCE_LEN, XNONCE_LEN};
use crate::dynamic;
use crate::ladder::{Ladder, Primitive, Rungs};

/// ChaCha20-Poly1305, XChaCha20-Poly1305 and XSalsa20-Poly1305.
pub(crate) const LADDER: Ladder = Ladder {
    name: "aead",
    primitives: &[
        Primitive::aead(
            "chacha20-poly1305",
            "ChaCha20-Poly1305 (RFC 8439 §2.8): ciphertext ‖ tag",
            NONCE_LEN,
            dynamic::chacha20_poly1305,
        ),
        Primitive::aead(
            "xchacha20-poly1305",
            "XChaCha20-Poly1305 (draft-irtf-cfrg-xchacha-03 §2.3)",
            XNONCE_LEN,
            dynamic::xchacha20_poly1305,
        ),
        Primitive::aead(
            "xsalsa20-poly1305",
            "XSalsa20-Poly1305, NaCl's crypto_secretbox: tag ‖ ciphertext",
            XNONCE_LEN,
            dynamic::xsalsa20_poly1305,
        ),
    ],
    rungs: Rungs::ComposedOf(&["chacha20", "poly1305", "salsa20"]),
    #[cfg(feature = "kit")]
    checks: crate::aead::checks::run,
};
