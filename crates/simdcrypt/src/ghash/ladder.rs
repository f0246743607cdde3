//! GHASH's and POLYVAL's entry in the table of ladders: two keyed hashes
//! on one set of rungs, built by name as MACs (a 16-byte key `H`, a
//! 16-byte output).

use super::{BLOCK_LEN, Ghash, Rung, Polyval};
use crate::Error;
use crate::dynamic::MacOptions;
use crate::dynamic::{DynDigest, exact};
use crate::table::{Construct, Kind, Ladder, Primitive, Rungs, rung_infos};

/// A keyed hash of the ladder.
const fn entry(name: &'static str, summary: &'static str, construct: Construct) -> Primitive {
    Primitive {
        name,
        display: name,
        kind: Kind::Mac,
        summary,
        key_lens: &[BLOCK_LEN],
        nonce_len: None,
        iv_register: false,
        block_len: BLOCK_LEN,
        output_len: Some(BLOCK_LEN),
        params: &[],
        construct,
    }
}

/// GHASH and POLYVAL.
pub(crate) const LADDER: Ladder = Ladder {
    name: Rung::PRIMITIVE,
    primitives: &[
        entry(
            "ghash",
            "GHASH (NIST SP 800-38D §6.4), GCM's universal hash; a last partial block zero-padded",
            Construct::mac(ghash),
        ),
        entry(
            "polyval",
            "POLYVAL (RFC 8452 §3), AES-GCM-SIV's universal hash; a last partial block zero-padded",
            Construct::mac(polyval),
        ),
    ],
    rungs: Rungs::Own(|| rung_infos(Rung::best(), Rung::par_blocks)),
    #[cfg(feature = "kit")]
    checks: super::checks::run,
    #[cfg(feature = "kit")]
    fuzz: super::checks::fuzz,
};

/// Implements [`DynDigest`] for the two hashes and defines their
/// constructors.
macro_rules! dyn_hash {
    ($($t:ident, $name:literal => $new:ident;)+) => {$(
        impl DynDigest for $t {
            fn update(&mut self, data: &[u8]) {
                $t::update(self, data);
            }
            fn finalize_into(self: Box<Self>, out: &mut [u8]) {
                out.copy_from_slice(&self.finalize());
            }
            fn rung(&self) -> &'static str {
                $t::rung(self).name()
            }
        }

        #[doc = concat!("`", $name, "` keyed with `H`, on the rung `options` name (the fastest when `None`).")]
        fn $new(key: &[u8], options: &MacOptions<'_>) -> Result<Box<dyn DynDigest>, Error> {
            let mut hash = $t::new(exact($name, "key", key)?);
            if let Some(name) = options.rung {
                hash = hash.with_rung(Rung::from_name(name)?)?;
            }
            Ok(Box::new(hash))
        }
    )+};
}

dyn_hash! {
    Ghash, "ghash" => ghash;
    Polyval, "polyval" => polyval;
}
