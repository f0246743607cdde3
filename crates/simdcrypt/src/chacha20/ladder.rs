//! ChaCha20's entry in the table of ladders.

use super::{Impl, KEY_LEN, LEGACY_NONCE_LEN, NONCE_LEN, XNONCE_LEN};
use crate::dynamic;
use crate::ladder::{Ladder, Primitive, Rungs, rung_infos};

/// ChaCha20 in its three forms and HChaCha20 on the block function's rungs.
pub(crate) const LADDER: Ladder = Ladder {
    name: Impl::PRIMITIVE,
    primitives: &[
        Primitive::stream(
            "chacha20",
            "ChaCha20 (RFC 8439 §2.4): 96-bit nonce, 32-bit counter",
            &[KEY_LEN],
            NONCE_LEN,
            dynamic::chacha20,
        ),
        Primitive::stream(
            "chacha20-legacy",
            "ChaCha20 as first published (Bernstein, 2008): 64-bit nonce and counter",
            &[KEY_LEN],
            LEGACY_NONCE_LEN,
            dynamic::chacha20_legacy,
        ),
        Primitive::stream(
            "xchacha20",
            "XChaCha20 (draft-irtf-cfrg-xchacha-03): 192-bit nonce",
            &[KEY_LEN],
            XNONCE_LEN,
            dynamic::xchacha20,
        ),
        Primitive::subkey("hchacha20", "HChaCha20 (draft-irtf-cfrg-xchacha-03 §2.2)"),
    ],
    rungs: Rungs::Own(|| rung_infos(Impl::best(), Impl::par_blocks)),
    #[cfg(feature = "kit")]
    checks: crate::chacha20::checks::run,
};
