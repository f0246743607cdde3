//! simdcrypt: fast, verified symmetric cryptography.
//!
//! # Which type to use
//!
//! | to … | use | why |
//! |---|---|---|
//! | encrypt a file | the [`simdcrypt-age`](https://docs.rs/simdcrypt-age) crate | the age v1 format: to X25519 (or ML-KEM-768 + X25519) recipients or a passphrase, read and written by `age` and `rage`; streams in 64 KiB chunks on every core |
//! | encrypt a message with a key | [`aead::XChaCha20Poly1305`] | 192-bit nonces, safe to draw at random ([`generate_nonce`](aead::XChaCha20Poly1305::generate_nonce)): no counter to keep |
//! | … as RFC 8439 / TLS / IETF protocols do | [`aead::ChaCha20Poly1305`] | the IETF AEAD; its 96-bit nonce must never repeat under a key, so use a counter, not random nonces |
//! | … as NaCl / libsodium's `crypto_secretbox` does | [`aead::XSalsa20Poly1305`] | byte for byte `crypto_secretbox_easy` (tag first), for talking to NaCl code |
//! | hash | [`hash::Sha256`], [`hash::Sha512`] | FIPS 180-4; also [`Sha224`](hash::Sha224), [`Sha384`](hash::Sha384), [`Sha512_256`](hash::Sha512_256); [`Sha1`](hash::Sha1) and [`Md5`](hash::Md5) only for compatibility (both are broken) |
//! | hash many messages at once | [`hash::sha256_many`], [`hash::md5_many`] | one message per SIMD lane |
//! | authenticate a message with a key (MAC) | [`hmac::Hmac`], [`hmac::hmac_sha256`] | RFC 2104 over any hash here, any key length, tags checked in constant time |
//! | … with a one-time key | [`poly1305::Poly1305`] | the AEADs' MAC: fast, but a key must never authenticate two messages |
//! | derive a key from a password | [`kdf::scrypt`](fn@kdf::scrypt) | RFC 7914, memory-hard; [`kdf::pbkdf2_hmac_sha256`] (or [`kdf::pbkdf2_hmac`] over any hash) where a format asks for PBKDF2 |
//! | derive keys from a key | [`kdf::Hkdf`], [`kdf::hkdf_sha256`] | RFC 5869: extract once, then expand one key per purpose with `info` |
//! | a raw stream cipher | [`chacha20::XChaCha20`], [`chacha20::ChaCha20`], [`salsa20::XSalsa20`], [`salsa20::Salsa20`] | keystream XOR at any byte offset ([`KeyStream`]); **no authentication**: pair it with a MAC, or use an AEAD above |
//! | pick a primitive by name at run time | [`ladders()`], [`ladder::find`], [`dynamic`] | the table the `simdcrypt` tool reads: every primitive, its rungs, which one this CPU picks |
//! | cap the instruction sets used | [`cpu::set_max_isa`] | as `SIMDCRYPT_MAX_ISA=scalar\|sse2\|avx2\|avx512` does from the environment; [`cpu::cap_error`] tells a malformed value |
//!
//! # Ladders
//!
//! Every primitive is a *ladder* of implementations ("rungs"), from a literal
//! reading of its specification to the widest SIMD the CPU has. Types pick
//! the fastest rung this CPU runs; `with_rung` forces one by name, so every
//! rung can be checked against the others and measured.
//!
//! ```
//! use simdcrypt::salsa20::{Rung, XSalsa20};
//!
//! let key = [0x42; 32];
//! let nonce = [0x24; 24];
//! let mut message = b"a secret worth keeping".to_vec();
//!
//! // Encrypt on the fastest rung, decrypt on the specification's own.
//! XSalsa20::new(&key, &nonce).apply_keystream(&mut message)?;
//! XSalsa20::new(&key, &nonce)
//!     .with_rung(Rung::Reference)?
//!     .apply_keystream(&mut message)?;
//! assert_eq!(message, b"a secret worth keeping");
//! # Ok::<(), simdcrypt::Error>(())
//! ```
//!
//! `SIMDCRYPT_MAX_ISA=scalar|sse2|avx2|avx512` in the environment caps the
//! instruction sets the dispatchers use (see [`cpu`]).
//!
//! # Features
//!
//! None is on by default; the default API is the safe surface.
//!
//! - `rustcrypto`: the RustCrypto traits, for code written against them:
//!   `cipher::{KeyIvInit, StreamCipher, StreamCipherSeek}` (cipher 0.5) for
//!   every stream cipher, `aead::AeadInOut` (aead 0.6, and through it `Aead`
//!   and `AeadInPlace`) for the AEADs, `digest::Digest` (digest 0.11) for
//!   every hash.
//! - `hazmat`: what the safe surface leaves out, with no promise (see
//!   SECURITY.md): rungs that are not constant-time become choosable with
//!   `with_rung` (Poly1305's `reference`; without the feature they are
//!   refused with [`Error::VariableTimeRung`]), and the internals the tool
//!   and the benchmarks use become public: each specification's literal
//!   `reference` module, the time-stamp-counter `timer`, and scrypt's
//!   `block_mix` and `ro_mix_lanes`.
//! - `kit` (turns on `hazmat`): the checking kit, `simdcrypt::kit`, which
//!   `simdcrypt verify` runs: every ladder's checks on the official vectors,
//!   built in, against the specifications' own functions and between rungs.
//! - `ctgrind`: for the constant-time check under valgrind
//!   (`tools/ctgrind`, docs/constant-time.md): [`ct::declassify`] marks
//!   the values the library branches on by design (a tag comparison's
//!   result, a padding check's) public for valgrind's memcheck, and
//!   [`ct`] gains the checker's client requests. Inert outside valgrind;
//!   without it, `declassify` compiles to nothing.

#![deny(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod block;
pub mod cpu;
pub mod ct;
pub mod dynamic;
mod error;
#[cfg(feature = "kit")]
mod harness;
#[cfg(feature = "kit")]
#[cfg_attr(docsrs, doc(cfg(feature = "kit")))]
pub mod kit;
pub mod ladder;
mod rung;
#[cfg(feature = "rustcrypto")]
mod rustcrypto;
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
mod simd;
mod stream;
mod table;
mod tag;
#[cfg(feature = "hazmat")]
#[cfg_attr(docsrs, doc(cfg(feature = "hazmat")))]
pub mod timer;
mod vertical;
mod xor;

/// Declares the family folders (`pub mod`) and the table of ladders: each
/// folder with the ladders it declares, in the order `info` shows them.
macro_rules! families {
    ($($family:ident: $($($ladder:ident)::+),+;)+) => {
        $(pub mod $family;)+

        /// Every ladder, in the order `info` shows them.
        ///
        /// ```
        /// for ladder in simdcrypt::ladders() {
        ///     let runs: Vec<_> = ladder.rungs().into_iter().filter(|r| r.available).map(|r| r.name).collect();
        ///     match ladder.chosen() {
        ///         Some(chosen) => println!("{}: {chosen} (this CPU runs {})", ladder.name, runs.join(", ")),
        ///         None => println!("{}: on {}", ladder.name, ladder.composed_of().join(", ")),
        ///     }
        /// }
        /// ```
        pub fn ladders() -> &'static [ladder::Ladder] {
            &[$($($family::$($ladder)::+,)+)+]
        }
    };
}

// The table of ladders: the one place a primitive is registered
// (docs/adding-a-primitive.md).
families! {
    salsa20: LADDER;
    chacha20: LADDER;
    poly1305: LADDER;
    aead: LADDER, GCM_LADDER;
    aes: LADDER;
    camellia: LADDER;
    ghash: LADDER;
    gost28147: LADDER;
    magma: LADDER;
    hash: sha256::LADDER, sha512::LADDER, sha1::LADDER, md5::LADDER, many::LADDER;
    hmac: LADDER;
    kdf: LADDER, scrypt::LADDER;
}

pub use error::Error;
pub use rung::RungSet;
pub use stream::KeyStream;
pub use xor::Xor;

/// The README's Rust blocks, each a whole program, compiled and run as
/// doctests. `README.md` beside this crate's manifest is a link to the
/// workspace's; `cargo package` puts the file itself there.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

/// The Rust blocks of `docs/library.md`, each a whole program, compiled and
/// run as doctests. The page is outside the crate's folder, so it is not in
/// the package: `cfg(doctest)` keeps the packaged crate building without it.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/library.md")]
pub struct LibraryDocDoctests;
