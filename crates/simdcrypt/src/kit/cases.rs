//! One case of a check, with inputs the caller chooses: what the fuzz
//! targets (`fuzz/fuzz_targets/*_differential.rs`) run on the fuzzer's
//! bytes. Each function runs the case on every rung this CPU runs against
//! the specification's own functions, as the kit's cross-checks do on
//! random inputs, and returns the cases as a [`Tally`]: a fuzz target
//! asserts that it [passed](Tally::passed) and prints the failures if not.
//!
//! ```
//! use simdcrypt::kit::cases::{self, StreamCase};
//!
//! let case = StreamCase {
//!     key: &[7; 32],
//!     nonce: &[9; 8],
//!     start: ((1 << 32) - 1) * 64 + 5,
//!     data: &[0x55; 300],
//!     split: 100,
//! };
//! let tally = cases::stream("salsa20", &case)?;
//! assert!(tally.passed(), "{:?}", tally.failures);
//! # Ok::<(), String>(())
//! ```

use super::Tally;
pub use super::stream::StreamCase;

/// `case` on every rung of the stream cipher `primitive` (named as the
/// table names it: `salsa20`, `xchacha20` …) this CPU runs, in both XOR
/// forms, in place and out of place, against the keystream of the
/// specification's own functions; a case that runs past the end of the
/// keystream must be refused.
///
/// # Errors
///
/// `primitive` names no stream cipher the kit checks.
pub fn stream(primitive: &str, case: &StreamCase<'_>) -> Result<Tally, String> {
    crate::salsa20::checks::stream_case(primitive, case)
        .or_else(|| crate::chacha20::checks::stream_case(primitive, case))
        .ok_or_else(|| format!("no stream cipher named {primitive:?} in the kit"))
}

/// One call of an incremental MAC: `update` with the next `n` bytes of the
/// message, or `update_padded` with them (which also zero-pads everything
/// absorbed so far to a 16-byte boundary, RFC 8439 §2.8's pad16).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Call {
    /// `update` with the next `n` bytes (what is left, if fewer).
    Update(usize),
    /// `update_padded` with the next `n` bytes (what is left, if fewer).
    Padded(usize),
}

impl Call {
    /// The bytes the call asks for.
    pub fn len(self) -> usize {
        match self {
            Call::Update(n) | Call::Padded(n) => n,
        }
    }

    /// Whether the call asks for no bytes.
    pub fn is_empty(self) -> bool {
        self.len() == 0
    }
}

/// Poly1305 of `message` under `key`, fed as `calls` and the rest in one
/// last `update`, on every rung this CPU runs: each tag must be the one
/// RFC 8439's own arithmetic (`poly1305::reference::mac`) gives for the
/// message the calls amount to.
pub fn poly1305(key: &[u8; 32], message: &[u8], calls: &[Call]) -> Tally {
    crate::poly1305::checks::mac_case(key, message, calls)
}

/// `message` hashed by the hash `primitive` (named as the table names it:
/// `sha256`, `sha512-256`, `md5` …), fed in pieces of the lengths
/// `pieces` and the rest in one last `update`, on every rung of its ladder
/// this CPU runs: each digest must be the reference rung's of the whole
/// message in one call.
///
/// # Errors
///
/// `primitive` names no hash of the table.
pub fn hash(primitive: &str, message: &[u8], pieces: &[usize]) -> Result<Tally, String> {
    crate::hash::checks::hash_case(primitive, message, pieces)
        .ok_or_else(|| format!("no hash named {primitive:?} in the table"))
}

/// `messages` hashed at once by every multi-buffer hash of the table
/// (`sha256-many`, `md5-many`) on every rung this CPU runs: each digest
/// must be the one the hash gives the message alone.
pub fn many(messages: &[&[u8]]) -> Tally {
    crate::hash::checks::many_case(messages)
}

/// HMAC over every hash of `message` under `key`, fed in two `update`
/// calls cut at `cut`: each tag must be RFC 2104 §2's formula computed on
/// the hash's reference rung.
pub fn hmac(key: &[u8], message: &[u8], cut: usize) -> Tally {
    crate::kdf::checks::hmac_case(key, message, cut)
}

/// HKDF over every hash of `salt`, `ikm` and `info` to `len` bytes, through
/// `Hkdf::new` and through `extract` then `from_prk`: each must be RFC
/// 5869 written out over RFC 2104's formula on the reference rungs, or
/// refused past 255 hash lengths.
pub fn hkdf(salt: &[u8], ikm: &[u8], info: &[u8], len: usize) -> Tally {
    crate::kdf::checks::hkdf_case(salt, ikm, info, len)
}

/// PBKDF2-HMAC over every hash of `password` and `salt` with `rounds`
/// iterations to `len` bytes: each must be RFC 8018 §5.2 written out over
/// RFC 2104's formula on the reference rungs (0 rounds refused).
pub fn pbkdf2(password: &[u8], salt: &[u8], rounds: u32, len: usize) -> Tally {
    crate::kdf::checks::pbkdf2_case(password, salt, rounds, len)
}

/// scrypt of `password` and `salt` with cost `log_n` (N = 2^log_n), block
/// size `r` and parallelism `p` to `len` bytes on every rung this CPU runs:
/// each must equal the `scalar` rung, RFC 7914 literally (the same error
/// for parameters it refuses).
pub fn scrypt(password: &[u8], salt: &[u8], (log_n, r, p): (u8, u32, u32), len: usize) -> Tally {
    crate::kdf::checks::scrypt_case((password, salt), (log_n, r, p), len)
}

/// `plaintext` sealed by the AEAD `primitive` (named as the table names
/// it: `chacha20-poly1305`, `aes-128-gcm`, `magma-mgm` …) under `key` (one
/// of its key lengths), `nonce` and `aad` (which must be empty for
/// `xsalsa20-poly1305`) on every path or rung this CPU runs: it must be
/// the construction written out from the reference functions of the
/// primitives inside (for MGM, the `reference` rung's), and open back;
/// then with the bit `flip` (modulo the sealed length) of the sealed form
/// flipped it must be refused, the output zeroed.
///
/// # Errors
///
/// `primitive` names no AEAD of the table, or the kit has no case for it;
/// `key` is not one of its key lengths.
pub fn aead(
    primitive: &str,
    (key, nonce, aad): (&[u8], &[u8], &[u8]),
    plaintext: &[u8],
    flip: usize,
) -> Result<Tally, String> {
    let lens = crate::ladder::find(primitive)
        .filter(|(_, p)| p.kind == crate::ladder::Kind::Aead)
        .map(|(_, p)| p.key_lens)
        .ok_or_else(|| format!("no AEAD named {primitive:?} in the table"))?;
    if !lens.contains(&key.len()) {
        return Err(format!(
            "{primitive} takes keys of {lens:?} bytes, not {}",
            key.len()
        ));
    }
    let case = (key, nonce, aad);
    crate::aead::checks::aead_case(primitive, case, plaintext, flip)
        .or_else(|| crate::aead::gcm_checks::aead_case(primitive, case, plaintext, flip))
        .or_else(|| crate::gost28147::checks::mgm_case(primitive, case, plaintext, flip))
        .ok_or_else(|| format!("no case for the AEAD {primitive:?} in the kit"))
}
