//! Camellia (RFC 3713) as a ladder.

mod key_schedule;
mod reference;

#[cfg(target_arch = "x86_64")]
mod aesni;
#[cfg(target_arch = "x86_64")]
mod gfni;
#[cfg(target_arch = "x86_64")]
mod vaes;
#[cfg(target_arch = "x86_64")]
mod x86;
