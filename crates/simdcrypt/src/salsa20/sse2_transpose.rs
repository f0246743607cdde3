//! PLACEHOLDER
#[target_feature(enable = "sse2")]
pub(super) fn double_rounds(x: &[u32; 16], n: usize) -> [u32; 16] {
    super::no_transpose::double_rounds(x, n)
}
