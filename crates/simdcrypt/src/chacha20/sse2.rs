//! SSE2, one block horizontal: a row of the state per xmm register,
//! `pshufd` word shuffles to bring the diagonals into the columns, rotates
//! as two shifts and an or (SSE2 has no byte shuffle).

use super::horizontal::horizontal;

/// `x <<< n` on each 32-bit lane of an xmm register with SSE2: two shifts
/// and an or (the macro Salsa20's SSE2 rungs use).
pub(super) use crate::salsa20::rotl_sse2;

horizontal!("sse2" on xmm, rotl = rotl_sse2);
