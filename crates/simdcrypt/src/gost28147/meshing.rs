//! CryptoPro key meshing (RFC 4357 §2.3): after every 1024 bytes under one
//! key, the key becomes its own decryption of the constant C, and the
//! feedback modes re-encipher their state under the new key (§2.3.2).

use zeroize::Zeroize;

use super::{BLOCK_LEN, Engine};
use crate::xor::InOut;

/// The constant C of RFC 4357 §2.3.1.
const C: [u8; 32] = [
    0x69, 0x00, 0x72, 0x22, 0x64, 0xc9, 0x04, 0x23, 0x8d, 0x3a, 0xdb, 0x96, 0x46, 0xe9, 0x2a, 0xc4,
    0x18, 0xfe, 0xac, 0x94, 0x00, 0xed, 0x07, 0x12, 0xc0, 0x86, 0xdc, 0xc2, 0xef, 0x4c, 0xa9, 0x2b,
];

/// The bytes processed under one key before it is meshed (RFC 4357
/// §2.3.1).
pub(crate) const SECTION: usize = 1024;

/// Meshes `engine`'s key (RFC 4357 §2.3.1: K' = D_K(C), ECB decryption of
/// the four blocks of C) and, when given, enciphers `state` (a block) under
/// the new key (§2.3.2: the IV of CFB and the counter mode).
pub(crate) fn mesh(engine: &mut Engine, state: Option<&mut [u8]>) {
    let mut key = C;
    engine.crypt(&engine.schedule().dec, InOut::in_place(&mut key));
    engine.rekey(&key);
    key.zeroize();
    if let Some(state) = state {
        debug_assert_eq!(state.len(), BLOCK_LEN);
        engine.crypt_one(&engine.schedule().enc, state);
    }
}
