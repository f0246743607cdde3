//! ChaCha20 in RustCrypto's `cipher` 0.5 traits (feature `rustcrypto`):
//! `KeySizeUser`, `IvSizeUser`, `KeyIvInit`, `StreamCipher` and
//! `StreamCipherSeek` for [`ChaCha20`], [`ChaCha20Legacy`] and
//! [`XChaCha20`], so that code generic over those traits runs on
//! simdcrypt's rungs.
//!
//! ```
//! use cipher::{KeyIvInit, StreamCipher};
//! use simdcrypt::chacha20::ChaCha20;
//!
//! let mut cipher = <ChaCha20 as KeyIvInit>::new(&[7; 32].into(), &[1; 12].into());
//! let mut data = *b"attack at dawn";
//! StreamCipher::apply_keystream(&mut cipher, &mut data);
//! assert_ne!(&data, b"attack at dawn");
//! ```
//!
//! The keystream is all of it (2^32 blocks for RFC 8439's [`ChaCha20`],
//! 2^64 for the others); a request past its end is refused, never
//! wrapped.

use cipher::consts::{U8, U12, U24, U32};

use super::{ChaCha20, ChaCha20Legacy, XChaCha20};
use crate::rustcrypto::stream_cipher_traits;

stream_cipher_traits!([] ChaCha20, key = U32, iv = U12, "ChaCha20 (RFC 8439: 256-bit key, 96-bit nonce, 32-bit counter)");
stream_cipher_traits!([] ChaCha20Legacy, key = U32, iv = U8, "the original ChaCha20 (256-bit key, 64-bit nonce, 64-bit counter)");
stream_cipher_traits!([] XChaCha20, key = U32, iv = U24, "XChaCha20 (256-bit key, 192-bit nonce)");
