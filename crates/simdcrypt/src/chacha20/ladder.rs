//! ChaCha20's entry in the table of ladders.

use super::{
    ChaCha20, ChaCha20Legacy, Rung, KEY_LEN, LEGACY_NONCE_LEN, NONCE_LEN, XChaCha20, XNONCE_LEN,
};
use crate::Error;
use crate::dynamic::{DynStreamCipher, StreamOptions, dyn_stream, exact, with_options};
use crate::table::{Ladder, Primitive, Rungs, rung_infos};

/// ChaCha20 in its three forms and HChaCha20 on the block function's rungs.
pub(crate) const LADDER: Ladder = Ladder {
    name: Rung::PRIMITIVE,
    primitives: &[
        Primitive::stream(
            "chacha20",
            "ChaCha20 (RFC 8439 §2.4): 96-bit nonce, 32-bit counter",
            &[KEY_LEN],
            NONCE_LEN,
            chacha20,
        ),
        Primitive::stream(
            "chacha20-legacy",
            "ChaCha20 as first published (Bernstein, 2008): 64-bit nonce and counter",
            &[KEY_LEN],
            LEGACY_NONCE_LEN,
            chacha20_legacy,
        ),
        Primitive::stream(
            "xchacha20",
            "XChaCha20 (draft-irtf-cfrg-xchacha-03): 192-bit nonce",
            &[KEY_LEN],
            XNONCE_LEN,
            xchacha20,
        ),
        Primitive::subkey("hchacha20", "HChaCha20 (draft-irtf-cfrg-xchacha-03 §2.2)"),
    ],
    rungs: Rungs::Own(|| rung_infos(Rung::best(), Rung::par_blocks)),
    #[cfg(feature = "kit")]
    checks: crate::chacha20::checks::run,
    #[cfg(feature = "kit")]
    fuzz: crate::chacha20::checks::fuzz,
};

dyn_stream!(ChaCha20, ChaCha20Legacy, XChaCha20);

/// The constructor of a ChaCha20 form: a 32-byte key and its nonce.
macro_rules! chacha {
    ($fn:ident, $t:ty, $name:literal) => {
        #[doc = concat!("`", $name, "`: a 32-byte key and its nonce.")]
        fn $fn(
            key: &[u8],
            nonce: &[u8],
            options: &StreamOptions<'_>,
        ) -> Result<Box<dyn DynStreamCipher>, Error> {
            let cipher = <$t>::new(exact($name, "key", key)?, exact($name, "nonce", nonce)?);
            with_options!(cipher, Rung, options)
        }
    };
}

chacha!(chacha20, ChaCha20, "chacha20");
chacha!(chacha20_legacy, ChaCha20Legacy, "chacha20-legacy");
chacha!(xchacha20, XChaCha20, "xchacha20");
