//! What the CLI's test binaries share: the age crate's test helpers
//! (made-up data, finding peer tools, running a command).

#[path = "../../../simdcrypt-age/tests/common/mod.rs"]
mod shared;

pub use shared::*;
