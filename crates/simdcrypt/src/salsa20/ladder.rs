//! Salsa20's entry in the table of ladders.

use super::{Impl, KEY_LEN, KEY_LEN_128, NONCE_LEN, XNONCE_LEN};
use crate::dynamic;
use crate::ladder::{Ladder, Primitive, Rungs, rung_infos};

/// Both key lengths ("expand 32-byte k" and "expand 16-byte k").
const KEYS: &[usize] = &[KEY_LEN, KEY_LEN_128];

/// Salsa20/20, /12, /8, XSalsa20 and HSalsa20 on the Salsa20 core's rungs.
pub(crate) const LADDER: Ladder = Ladder {
    name: Impl::PRIMITIVE,
    primitives: &[
        Primitive::stream(
            "salsa20",
            "Salsa20/20 (Bernstein, Salsa20 specification)",
            KEYS,
            NONCE_LEN,
            |k, n, o| dynamic::salsa::<10>("salsa20", k, n, o),
        ),
        Primitive::stream(
            "salsa20/12",
            "Salsa20/12: 12 rounds (eSTREAM profile 1)",
            KEYS,
            NONCE_LEN,
            |k, n, o| dynamic::salsa::<6>("salsa20/12", k, n, o),
        ),
        Primitive::stream(
            "salsa20/8",
            "Salsa20/8: 8 rounds",
            KEYS,
            NONCE_LEN,
            |k, n, o| dynamic::salsa::<4>("salsa20/8", k, n, o),
        ),
        Primitive::stream(
            "xsalsa20",
            "XSalsa20: Salsa20/20 with a 192-bit nonce (Bernstein, Extending the Salsa20 nonce)",
            &[KEY_LEN],
            XNONCE_LEN,
            dynamic::xsalsa20,
        ),
        Primitive::subkey(
            "hsalsa20",
            "HSalsa20: a key and 16 input bytes to a 32-byte subkey",
        ),
    ],
    rungs: Rungs::Own(|| rung_infos(Impl::best(), Impl::par_blocks)),
    #[cfg(feature = "kit")]
    checks: crate::salsa20::checks::run,
};
