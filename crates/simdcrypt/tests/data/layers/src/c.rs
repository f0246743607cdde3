//! c → a, through the crate root's re-export of `a::Alpha`.
pub fn gamma() -> crate::Alpha {
    crate::Alpha
}
