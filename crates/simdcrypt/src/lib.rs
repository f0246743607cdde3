//! simdcrypt: fast, verified symmetric cryptography.
//!
//! Every primitive is a *ladder* of implementations ("rungs"), from a literal
//! reading of its specification to the widest SIMD the CPU has. Types pick
//! the fastest rung this CPU runs; `with_impl` forces one by name, so every
//! rung can be checked against the others and measured.
//!
//! ```
//! use simdcrypt::salsa20::{Impl, XSalsa20};
//!
//! let key = [0x42; 32];
//! let nonce = [0x24; 24];
//! let mut message = b"a secret worth keeping".to_vec();
//!
//! // Encrypt on the fastest rung, decrypt on the specification's own.
//! XSalsa20::new(&key, &nonce).apply_keystream(&mut message)?;
//! XSalsa20::new(&key, &nonce)
//!     .with_impl(Impl::Reference)?
//!     .apply_keystream(&mut message)?;
//! assert_eq!(message, b"a secret worth keeping");
//! # Ok::<(), simdcrypt::Error>(())
//! ```
//!
//! `SIMDCRYPT_MAX_ISA=scalar|sse2|avx2|avx512` in the environment caps the
//! instruction sets the dispatchers use (see [`cpu`]).

#![deny(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod aead;
pub mod aes;
pub mod block;
pub mod chacha20;
pub mod cpu;
pub mod dynamic;
mod error;
pub mod ghash;
pub mod hash;
pub mod hmac;
pub mod kdf;
#[cfg(feature = "kit")]
#[cfg_attr(docsrs, doc(cfg(feature = "kit")))]
pub mod kit;
pub mod ladder;
pub mod poly1305;
mod rung;
#[cfg(feature = "rustcrypto")]
mod rustcrypto;
pub mod salsa20;
#[cfg(target_arch = "x86_64")]
mod simd;
mod stream;
#[cfg(feature = "hazmat")]
#[cfg_attr(docsrs, doc(cfg(feature = "hazmat")))]
pub mod timer;
mod vertical;
mod xor;

pub use error::Error;
pub use ladder::ladders;
pub use rung::Rung;
pub use stream::KeyStream;
pub use xor::Xor;
