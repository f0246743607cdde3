//! Salsa20 in RustCrypto's `cipher` 0.5 traits (feature `rustcrypto`):
//! `KeySizeUser`, `IvSizeUser`, `KeyIvInit`, `StreamCipher` and
//! `StreamCipherSeek` for [`Salsa`] (so [`Salsa20`](super::Salsa20),
//! [`Salsa20_12`](super::Salsa20_12), [`Salsa20_8`](super::Salsa20_8))
//! and [`XSalsa20`], so that code generic over those traits runs on
//! simdcrypt's rungs.
//!
//! The inherent methods `new`, `apply_keystream` and `seek` share their
//! names with trait methods and win in method-call syntax; name the trait
//! to reach its method:
//!
//! ```
//! use cipher::{KeyIvInit, StreamCipher, StreamCipherSeek};
//! use simdcrypt::salsa20::Salsa20;
//!
//! let mut cipher = <Salsa20 as KeyIvInit>::new(&[7; 32].into(), &[1; 8].into());
//! let mut data = *b"attack at dawn";
//! StreamCipher::apply_keystream(&mut cipher, &mut data);
//! StreamCipherSeek::seek(&mut cipher, 0u32);
//! StreamCipher::apply_keystream(&mut cipher, &mut data);
//! assert_eq!(&data, b"attack at dawn");
//! ```
//!
//! The keystream is all 2^64 blocks (2^70 bytes); a request past its end
//! is refused, never wrapped.

use cipher::consts::{U8, U24, U32};

use super::{Salsa, XSalsa20};
use crate::rustcrypto::stream_cipher_traits;

stream_cipher_traits!([const DOUBLE_ROUNDS: usize] Salsa<DOUBLE_ROUNDS>, key = U32, iv = U8, "Salsa20 (256-bit key, 64-bit nonce)");
stream_cipher_traits!([] XSalsa20, key = U32, iv = U24, "XSalsa20 (256-bit key, 192-bit nonce)");
