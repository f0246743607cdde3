//! Key derivation: HKDF (RFC 5869), PBKDF2 (RFC 8018 §5.2) and scrypt
//! (RFC 7914), over the hashes of [`crate::hash`] through [`crate::hmac`].
//!
//! ```
//! use simdcrypt::kdf::{hkdf_sha256, scrypt};
//!
//! let mut key = [0u8; 32];
//! hkdf_sha256(b"salt", b"input key material", b"context", &mut key)?;
//!
//! let mut derived = [0u8; 64];
//! scrypt(b"password", b"NaCl", 10, 8, 1, &mut derived)?;
//! # Ok::<(), simdcrypt::Error>(())
//! ```

// The checks of the kit (`simdcrypt::kit`), beside the entry in the table.
#[cfg(feature = "kit")]
pub(crate) mod checks;
mod hkdf;
mod pbkdf2;
pub mod scrypt;

pub use hkdf::Hkdf;
pub use pbkdf2::pbkdf2_hmac;
pub use scrypt::{Scrypt, scrypt};

use crate::Error;
use crate::hash::{Sha256, Sha512};

/// HKDF-SHA-256 (RFC 5869 §2): extract a pseudorandom key from `ikm` with
/// `salt` (empty when there is none: RFC 5869 §2.2's string of zeros gives
/// the same key), then expand it with `info` to fill `okm`.
///
/// # Errors
///
/// [`Error::KdfOutputTooLong`] when `okm` is longer than 255 · 32 bytes.
///
/// ```
/// use simdcrypt::kdf::hkdf_sha256;
///
/// // RFC 5869 A.3: no salt, no info.
/// let mut okm = [0u8; 42];
/// hkdf_sha256(&[], &[0x0b; 22], &[], &mut okm)?;
/// let hex: String = okm.iter().map(|b| format!("{b:02x}")).collect();
/// assert_eq!(hex, concat!(
///     "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d",
///     "9d201395faa4b61a96c8",
/// ));
/// # Ok::<(), simdcrypt::Error>(())
/// ```
pub fn hkdf_sha256(salt: &[u8], ikm: &[u8], info: &[u8], okm: &mut [u8]) -> Result<(), Error> {
    Hkdf::<Sha256>::new(salt, ikm).expand(info, okm)
}

/// HKDF-SHA-512 (RFC 5869 §2), as [`hkdf_sha256`] over SHA-512.
///
/// # Errors
///
/// [`Error::KdfOutputTooLong`] when `okm` is longer than 255 · 64 bytes.
pub fn hkdf_sha512(salt: &[u8], ikm: &[u8], info: &[u8], okm: &mut [u8]) -> Result<(), Error> {
    Hkdf::<Sha512>::new(salt, ikm).expand(info, okm)
}

/// PBKDF2-HMAC-SHA-256 (RFC 8018 §5.2) of `password` and `salt` with
/// `rounds` iterations, filling `out`.
///
/// # Errors
///
/// As [`pbkdf2_hmac`]: `rounds` of 0, or `out` longer than (2^32 − 1) · 32
/// bytes.
///
/// ```
/// use simdcrypt::kdf::pbkdf2_hmac_sha256;
///
/// let mut key = [0u8; 32];
/// pbkdf2_hmac_sha256(b"password", b"salt", 4096, &mut key)?;
/// let hex: String = key.iter().map(|b| format!("{b:02x}")).collect();
/// assert_eq!(hex, "c5e478d59288c841aa530db6845c4c8d962893a001ce4e11a4963873aa98134a");
/// # Ok::<(), simdcrypt::Error>(())
/// ```
///
/// For a new design, prefer [`scrypt()`]: PBKDF2 costs an attacker with
/// GPUs or ASICs far less than it costs you.
pub fn pbkdf2_hmac_sha256(
    password: &[u8],
    salt: &[u8],
    rounds: u32,
    out: &mut [u8],
) -> Result<(), Error> {
    pbkdf2_hmac::<Sha256>(password, salt, rounds, out)
}

/// HKDF's and PBKDF2's entry in the table of ladders: no rungs of their
/// own, they run on HMAC's hashes.
pub(crate) const LADDER: crate::table::Ladder = crate::table::Ladder {
    name: "kdf",
    primitives: &[
        Primitive::hash(
            "hkdf-sha256",
            Kind::Kdf,
            "HKDF-SHA-256 (RFC 5869)",
            64,
            32,
            crate::table::Construct::TypeOnly,
        ),
        Primitive::hash(
            "hkdf-sha512",
            Kind::Kdf,
            "HKDF-SHA-512 (RFC 5869)",
            128,
            64,
            crate::table::Construct::TypeOnly,
        ),
        Primitive {
            params: &[Param {
                name: "iterations",
                kind: ParamKind::Number {
                    min: 1,
                    max: u32::MAX as u64,
                },
                default: "600000",
                doc: "HMAC calls per output block (OWASP's 2023 figure for HMAC-SHA-256)",
                help: "PBKDF2's iteration count c (RFC 8018 §5.2)",
            }],
            ..Primitive::hash(
                "pbkdf2-sha256",
                Kind::Kdf,
                "PBKDF2-HMAC-SHA-256 (RFC 8018 §5.2)",
                64,
                32,
                crate::table::Construct::TypeOnly,
            )
        },
    ],
    rungs: crate::table::Rungs::ComposedOf(&["sha256", "sha512"]),
    #[cfg(feature = "kit")]
    checks: crate::kdf::checks::kdfs,
    #[cfg(feature = "kit")]
    fuzz: crate::kdf::checks::fuzz,
};

use crate::table::{Kind, Param, ParamKind, Primitive};
