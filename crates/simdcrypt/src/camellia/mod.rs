//! Camellia (RFC 3713) as a ladder.

mod key_schedule;
mod reference;
