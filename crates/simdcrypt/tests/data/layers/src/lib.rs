//! A fixture for tests/layers.rs, never compiled: modules a → b → c → a
//! form a cycle; d names a only where it does not count.
mod a;
mod b;
mod c;
mod d;

pub use a::Alpha;
