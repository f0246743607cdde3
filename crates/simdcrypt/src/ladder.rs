//! The table of ladders: every primitive declared once, in its own folder,
//! and listed by the crate root ([`ladders`]), so that the tool, `verify`,
//! `bench` and the checks can loop over what exists instead of naming it.
//! The types it is made of are the bottom module `table`'s, re-exported here.
//!
//! A [`Ladder`] is one set of rungs (one `Rung` enum) and the
//! [`Primitive`]s it runs: Salsa20's rungs run Salsa20/20, /12, /8 and
//! XSalsa20. A ladder with no rungs of its own (the AEADs, HMAC, HKDF,
//! PBKDF2) names the ladders it is composed of.
//!
//! ```
//! for ladder in simdcrypt::ladders() {
//!     for rung in ladder.rungs() {
//!         if rung.chosen {
//!             println!("{}: {} ({} blocks at once)", ladder.name, rung.name, rung.par_blocks);
//!         }
//!     }
//! }
//! let (ladder, xsalsa20) = simdcrypt::ladder::find("xsalsa20").unwrap();
//! assert_eq!((ladder.name, xsalsa20.nonce_len), ("salsa20", Some(24)));
//! ```
//!
//! This module sits at the top of the library's layers
//! (docs/architecture.md): it may name every family, and none names it.

pub use crate::ladders;
pub use crate::table::{
    Build, Construct, Kind, Ladder, Param, ParamKind, Primitive, RungInfo, Rungs,
};

/// Every primitive of every ladder, with its ladder.
pub fn primitives() -> impl Iterator<Item = (&'static Ladder, &'static Primitive)> {
    ladders()
        .iter()
        .flat_map(|l| l.primitives.iter().map(move |p| (l, p)))
}

/// The primitive named `name`, with its ladder.
///
/// ```
/// use simdcrypt::ladder::{self, Kind};
///
/// let (ladder, sha256) = ladder::find("sha256").unwrap();
/// assert_eq!((sha256.kind, sha256.output_len), (Kind::Hash, Some(32)));
/// assert!(ladder.rungs().iter().any(|r| r.name == "reference"));
/// assert!(ladder::find("rot13").is_none());
/// ```
pub fn find(name: &str) -> Option<(&'static Ladder, &'static Primitive)> {
    primitives().find(|(_, p)| p.name == name)
}

/// The first primitive of `kind` in the table: the tool's default where it
/// takes one of a kind.
pub fn first_of(kind: Kind) -> Option<&'static Primitive> {
    primitives().map(|(_, p)| p).find(|p| p.kind == kind)
}

/// The names of every primitive of `kind`, comma-separated, for messages
/// ("expected one of …").
pub fn names_of(kind: Kind) -> String {
    primitives()
        .filter(|(_, p)| p.kind == kind)
        .map(|(_, p)| p.name)
        .collect::<Vec<_>>()
        .join(", ")
}
