//! Salsa20's entry in the table of ladders.

use super::{Rung, KEY_LEN, KEY_LEN_128, NONCE_LEN, Salsa, XNONCE_LEN, XSalsa20};
use crate::Error;
use crate::dynamic::{DynStreamCipher, StreamOptions, dyn_stream, exact, with_options};
use crate::table::{Ladder, Primitive, Rungs, rung_infos};

/// Both key lengths ("expand 32-byte k" and "expand 16-byte k").
const KEYS: &[usize] = &[KEY_LEN, KEY_LEN_128];

/// Salsa20/20, /12, /8, XSalsa20 and HSalsa20 on the Salsa20 core's rungs.
pub(crate) const LADDER: Ladder = Ladder {
    name: Rung::PRIMITIVE,
    primitives: &[
        Primitive::stream(
            "salsa20",
            "Salsa20/20 (Bernstein, Salsa20 specification)",
            KEYS,
            NONCE_LEN,
            |k, n, o| salsa::<10>("salsa20", k, n, o),
        ),
        Primitive::stream(
            "salsa20/12",
            "Salsa20/12: 12 rounds (eSTREAM profile 1)",
            KEYS,
            NONCE_LEN,
            |k, n, o| salsa::<6>("salsa20/12", k, n, o),
        ),
        Primitive::stream(
            "salsa20/8",
            "Salsa20/8: 8 rounds",
            KEYS,
            NONCE_LEN,
            |k, n, o| salsa::<4>("salsa20/8", k, n, o),
        ),
        Primitive::stream(
            "xsalsa20",
            "XSalsa20: Salsa20/20 with a 192-bit nonce (Bernstein, Extending the Salsa20 nonce)",
            &[KEY_LEN],
            XNONCE_LEN,
            xsalsa20,
        ),
        Primitive::subkey(
            "hsalsa20",
            "HSalsa20: a key and 16 input bytes to a 32-byte subkey",
        ),
    ],
    rungs: Rungs::Own(|| rung_infos(Rung::best(), Rung::par_blocks)),
    #[cfg(feature = "kit")]
    checks: crate::salsa20::checks::run,
    #[cfg(feature = "kit")]
    fuzz: crate::salsa20::checks::fuzz,
};

dyn_stream!(Salsa<10>, Salsa<6>, Salsa<4>, XSalsa20);

/// Salsa20 with `DR` double rounds, under the name `name`: a 32- or 16-byte
/// key and an 8-byte nonce.
fn salsa<const DR: usize>(
    name: &'static str,
    key: &[u8],
    nonce: &[u8],
    options: &StreamOptions<'_>,
) -> Result<Box<dyn DynStreamCipher>, Error>
where
    Salsa<DR>: DynStreamCipher,
{
    let nonce = exact(name, "nonce", nonce)?;
    let cipher = match key.len() {
        16 => Salsa::<DR>::new_128(exact(name, "key", key)?, nonce),
        _ => Salsa::<DR>::new(
            key.try_into().map_err(|_| Error::BadLength {
                primitive: name,
                what: "key",
                len: key.len(),
                expected: "32 or 16".into(),
            })?,
            nonce,
        ),
    };
    with_options!(cipher, Rung, options)
}

/// XSalsa20: a 32-byte key and a 24-byte nonce.
fn xsalsa20(
    key: &[u8],
    nonce: &[u8],
    options: &StreamOptions<'_>,
) -> Result<Box<dyn DynStreamCipher>, Error> {
    let cipher = XSalsa20::new(
        exact("xsalsa20", "key", key)?,
        exact("xsalsa20", "nonce", nonce)?,
    );
    with_options!(cipher, Rung, options)
}
