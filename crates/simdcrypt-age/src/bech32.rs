//! Bech32 as c2sp.org/age uses it: BIP 173's code without its 90-character
//! limit (the post-quantum recipients are about 1,950 characters), all
//! lower- or all upper-case.

use bech32::primitives::decode::CheckedHrpstring;
use bech32::{Checksum, Fe32, Fe1024, Hrp};
use zeroize::Zeroizing;

use crate::Error;

/// BIP 173's Bech32 checksum with the code length raised, as c2sp.org/age
/// ("Conventions") asks.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum AgeBech32 {}

impl Checksum for AgeBech32 {
    type MidstateRepr = u32;
    type CorrectionField = Fe1024;
    const ROOT_GENERATOR: Self::CorrectionField = Fe1024::new([Fe32::P, Fe32::X]);
    const ROOT_EXPONENTS: core::ops::RangeInclusive<usize> = 24..=26;
    const CODE_LENGTH: usize = 1 << 16;
    const CHECKSUM_LENGTH: usize = 6;
    /// BIP 173's generator and its shifts.
    const GENERATOR_SH: [u32; 5] = [
        0x3b6a_57b2,
        0x2650_8e6d,
        0x1ea1_19fa,
        0x3d42_33dd,
        0x2a14_62b3,
    ];
    const TARGET_RESIDUE: u32 = 1;
}

/// `data` under `hrp` in lower case (recipients) or upper case
/// (identities).
pub(crate) fn encode(hrp: &str, data: &[u8], upper: bool) -> String {
    let hrp = Hrp::parse_unchecked(hrp);
    let encoded = if upper {
        bech32::encode_upper::<AgeBech32>(hrp, data)
    } else {
        bech32::encode_lower::<AgeBech32>(hrp, data)
    };
    // The code length is far above any key's, and the HRPs are ours.
    encoded.unwrap_or_default()
}

/// The human-readable part of `s`, as written, and its data, when `s` is
/// valid Bech32 (under any prefix: a plugin's names its plugin), or why not.
pub(crate) fn decode_any(s: &str) -> Result<(&str, Vec<u8>), String> {
    let checked =
        CheckedHrpstring::new::<AgeBech32>(s).map_err(|e| format!("not valid Bech32: {e}"))?;
    Ok((&s[..checked.hrp().len()], checked.byte_iter().collect()))
}

/// The data of `s` when it is valid Bech32 under `hrp` (compared without
/// case), or why not.
pub(crate) fn decode(s: &str, hrp: &str) -> Result<Vec<u8>, String> {
    let (found, data) = decode_any(s)?;
    if !found.eq_ignore_ascii_case(hrp) {
        return Err(format!("expected the prefix {hrp:?}, found {found:?}"));
    }
    Ok(data)
}

/// The `N`-byte public key of a recipient string: lower-case Bech32 under
/// `hrp`.
pub(crate) fn decode_public<const N: usize>(s: &str, hrp: &str) -> Result<[u8; N], Error> {
    let invalid = |why: String| Error::Recipient(s.to_owned(), why);
    if s.bytes().any(|b| b.is_ascii_uppercase()) {
        return Err(invalid("recipients are lower case".into()));
    }
    let data = decode(s, hrp).map_err(invalid)?;
    <[u8; N]>::try_from(data).map_err(|d| invalid(format!("holds {} bytes, expected {N}", d.len())))
}

/// The 32-byte secret of an identity string: upper-case Bech32 under `hrp`
/// (`kind` names the identity type in errors).
pub(crate) fn decode_secret(s: &str, hrp: &str, kind: &str) -> Result<[u8; 32], Error> {
    if s.bytes().any(|b| b.is_ascii_lowercase()) {
        return Err(Error::Identity(format!(
            "{kind} identities are upper case {hrp}1…"
        )));
    }
    let data = Zeroizing::new(decode(s, hrp).map_err(Error::Identity)?);
    <[u8; 32]>::try_from(data.as_slice()).map_err(|_| {
        Error::Identity(format!(
            "an {kind} identity holds 32 bytes, this one {}",
            data.len()
        ))
    })
}

/// An identity type whose secret is 32 bytes in upper-case Bech32 under
/// `$hrp`: the type (wiped on drop), `generate`, `to_bech32` and `FromStr`,
/// said once for the X25519 and the hybrid identity.
macro_rules! secret_identity {
    ($(#[$meta:meta])* $name:ident, $hrp:expr, $kind:literal) => {
        $(#[$meta])*
        #[derive(Clone, zeroize::Zeroize, zeroize::ZeroizeOnDrop)]
        pub struct $name([u8; 32]);

        impl $name {
            /// A new identity: 32 bytes from the operating system's CSPRNG.
            ///
            /// # Errors
            ///
            /// [`Error::Random`] when there is no randomness.
            pub fn generate() -> Result<Self, Error> {
                Ok($name(crate::random()?))
            }

            /// The identity in its upper-case Bech32 form.
            pub fn to_bech32(&self) -> zeroize::Zeroizing<String> {
                zeroize::Zeroizing::new(crate::bech32::encode($hrp, &self.0, true))
            }
        }

        impl std::str::FromStr for $name {
            type Err = Error;

            /// Parses the identity's upper-case Bech32 form (32 bytes).
            fn from_str(s: &str) -> Result<Self, Error> {
                crate::bech32::decode_secret(s, $hrp, $kind).map($name)
            }
        }
    };
}
pub(crate) use secret_identity;
