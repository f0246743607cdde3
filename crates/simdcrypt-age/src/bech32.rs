//! Bech32 as c2sp.org/age uses it: BIP 173's code without its 90-character
//! limit (the post-quantum recipients are about 1,950 characters), all
//! lower- or all upper-case.

use bech32::primitives::decode::CheckedHrpstring;
use bech32::{Checksum, Fe32, Fe1024, Hrp};

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

/// The data of `s` when it is valid Bech32 under `hrp` (compared without
/// case), or why not.
pub(crate) fn decode(s: &str, hrp: &str) -> Result<Vec<u8>, String> {
    let checked =
        CheckedHrpstring::new::<AgeBech32>(s).map_err(|e| format!("not valid Bech32: {e}"))?;
    let found = checked.hrp();
    if !found.as_str().eq_ignore_ascii_case(hrp) {
        return Err(format!(
            "expected the prefix {hrp:?}, found {:?}",
            found.as_str()
        ));
    }
    Ok(checked.byte_iter().collect())
}
