//! Checking a MAC tag: in constant time, whole or truncated, with one error
//! for a tag of a length the MAC does not take and one for a mismatch.

use subtle::ConstantTimeEq;
use zeroize::Zeroize;

use crate::Error;

/// Checks that `tag` is the first `tag.len()` bytes of the tag `expected`
/// computes, comparing in constant time and wiping the computed tag; a
/// `tag` shorter than `min` or longer than `max` bytes is refused before
/// anything is computed.
pub(crate) fn verify_truncated<T: AsRef<[u8]> + AsMut<[u8]>>(
    tag: &[u8],
    min: usize,
    max: usize,
    expected: impl FnOnce() -> T,
) -> Result<(), Error> {
    if !(min..=max).contains(&tag.len()) {
        return Err(Error::TagLength {
            len: tag.len(),
            min,
            max,
        });
    }
    let mut expected = expected();
    let equal = expected.as_ref()[..tag.len()].ct_eq(tag);
    expected.as_mut().zeroize();
    // Declassified (docs/constant-time.md): whether the tag matched is the
    // answer the caller is given.
    if crate::ct::declassify(bool::from(equal)) {
        Ok(())
    } else {
        Err(Error::AuthenticationFailed)
    }
}
