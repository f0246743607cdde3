//! SSE2, one block horizontal: a row of the state per xmm register,
//! `pshufd` word shuffles to bring the diagonals into the columns, rotates
//! as two shifts and an or (SSE2 has no byte shuffle).

use super::horizontal::horizontal;
use crate::simd::rotl_sse2;

horizontal!("sse2" on xmm, rotl = rotl_sse2);
