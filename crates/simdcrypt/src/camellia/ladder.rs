//! Camellia's entry in the table of ladders: the block cipher at each key
//! size, its modes, and CMAC, all on Camellia's rungs.

use super::{Camellia, Rung};
use crate::table::{Ladder, Primitive, Rungs, rung_infos, sized_block_cipher};

/// Every primitive, in the table's order.
const PRIMITIVES: [Primitive; 19] = sized_block_cipher!(
    Camellia,
    "camellia",
    "Camellia",
    "RFC 3713",
    "Camellia-CMAC (SP 800-38B over Camellia), any Camellia key size"
);

/// Camellia: RFC 3713 on every rung.
pub(crate) const LADDER: Ladder = Ladder {
    name: Rung::PRIMITIVE,
    primitives: &PRIMITIVES,
    rungs: Rungs::Own(|| rung_infos(Rung::best(), Rung::par_blocks)),
    #[cfg(feature = "kit")]
    checks: super::checks::run,
    #[cfg(feature = "kit")]
    fuzz: super::checks::fuzz,
};
