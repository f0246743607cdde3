//! a → b (a grouped use) and a → d (an inline path).
use crate::{b::Bee, Alpha as _};

pub struct Alpha;

pub fn uses() -> u32 {
    let _ = Bee;
    crate::d::VALUE
}
