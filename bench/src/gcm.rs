//! AES-GCM peers keyed once, sealing many messages: OpenSSL's EVP (the key
//! schedule set once in an `EVP_CIPHER_CTX`, each message re-initialised
//! with its IV only), RustCrypto's `aes-gcm` 0.10 and ring's
//! `LessSafeKey`. Each seals `data` in place and returns the tag.

use std::ffi::c_int;
use std::ptr;

use aes_gcm::aead::{AeadInPlace, KeyInit};
use openssl_sys as ffi;

/// `EVP_CTRL_AEAD_GET_TAG`.
const GET_TAG: c_int = 0x10;

/// OpenSSL's AES-GCM through EVP, keyed once.
pub struct OpenSsl(*mut ffi::EVP_CIPHER_CTX);

impl OpenSsl {
    /// AES-GCM under `key` (16 or 32 bytes).
    pub fn new(key: &[u8]) -> Self {
        ffi::init();
        // SAFETY: returns pointers to static cipher descriptions.
        let cipher = unsafe {
            match key.len() {
                16 => ffi::EVP_aes_128_gcm(),
                32 => ffi::EVP_aes_256_gcm(),
                n => panic!("no AES-GCM with a {n}-byte key"),
            }
        };
        // SAFETY: a fresh context, checked for null; the init reads the
        // key (of the cipher's length) and sets no IV yet.
        unsafe {
            let ctx = ffi::EVP_CIPHER_CTX_new();
            assert!(!ctx.is_null(), "EVP_CIPHER_CTX_new failed");
            assert_eq!(
                ffi::EVP_EncryptInit_ex(ctx, cipher, ptr::null_mut(), key.as_ptr(), ptr::null()),
                1
            );
            OpenSsl(ctx)
        }
    }

    /// Seals `data` in place under the 12-byte `nonce`; the tag.
    pub fn seal(&self, nonce: &[u8; 12], aad: &[u8], data: &mut [u8]) -> [u8; 16] {
        let mut tag = [0u8; 16];
        let mut outl: c_int = 0;
        let len = c_int::try_from(data.len()).expect("a message under 2 GiB");
        let aad_len = c_int::try_from(aad.len()).expect("associated data under 2 GiB");
        // SAFETY: the context was keyed in `new`; the IV is 12 bytes (the
        // default length); `aad` and `data` are read (and `data` written
        // in place, which EVP allows for GCM) for their lengths; the tag
        // is 16 bytes.
        unsafe {
            let ctx = self.0;
            assert_eq!(
                ffi::EVP_EncryptInit_ex(
                    ctx,
                    ptr::null(),
                    ptr::null_mut(),
                    ptr::null(),
                    nonce.as_ptr()
                ),
                1
            );
            assert_eq!(
                ffi::EVP_EncryptUpdate(ctx, ptr::null_mut(), &mut outl, aad.as_ptr(), aad_len),
                1
            );
            let p = data.as_mut_ptr();
            assert_eq!(ffi::EVP_EncryptUpdate(ctx, p, &mut outl, p, len), 1);
            assert_eq!(
                ffi::EVP_EncryptFinal_ex(ctx, p.add(data.len()), &mut outl),
                1
            );
            assert_eq!(
                ffi::EVP_CIPHER_CTX_ctrl(ctx, GET_TAG, 16, tag.as_mut_ptr().cast()),
                1
            );
        }
        tag
    }
}

impl Drop for OpenSsl {
    fn drop(&mut self) {
        // SAFETY: the pointer came from EVP_CIPHER_CTX_new and is freed once.
        unsafe { ffi::EVP_CIPHER_CTX_free(self.0) };
    }
}

/// RustCrypto's `aes-gcm` 0.10, keyed once.
pub enum RustCrypto {
    /// AES-128-GCM.
    Aes128(Box<aes_gcm::Aes128Gcm>),
    /// AES-256-GCM.
    Aes256(Box<aes_gcm::Aes256Gcm>),
}

impl RustCrypto {
    /// AES-GCM under `key` (16 or 32 bytes).
    pub fn new(key: &[u8]) -> Self {
        match key.len() {
            16 => RustCrypto::Aes128(Box::new(
                aes_gcm::Aes128Gcm::new_from_slice(key).expect("16 bytes"),
            )),
            _ => RustCrypto::Aes256(Box::new(
                aes_gcm::Aes256Gcm::new_from_slice(key).expect("32 bytes"),
            )),
        }
    }

    /// Seals `data` in place; the tag.
    pub fn seal(&self, nonce: &[u8; 12], aad: &[u8], data: &mut [u8]) -> [u8; 16] {
        let nonce = aes_gcm::Nonce::from_slice(nonce);
        let tag = match self {
            RustCrypto::Aes128(a) => a.encrypt_in_place_detached(nonce, aad, data),
            RustCrypto::Aes256(a) => a.encrypt_in_place_detached(nonce, aad, data),
        };
        tag.expect("within the limits").into()
    }
}

/// ring's AES-GCM, keyed once.
pub struct Ring(ring::aead::LessSafeKey);

impl Ring {
    /// AES-GCM under `key` (16 or 32 bytes).
    pub fn new(key: &[u8]) -> Self {
        let algorithm = match key.len() {
            16 => &ring::aead::AES_128_GCM,
            _ => &ring::aead::AES_256_GCM,
        };
        Ring(ring::aead::LessSafeKey::new(
            ring::aead::UnboundKey::new(algorithm, key).expect("a key of the algorithm's length"),
        ))
    }

    /// Seals `data` in place; the tag.
    pub fn seal(&self, nonce: &[u8; 12], aad: &[u8], data: &mut [u8]) -> [u8; 16] {
        let tag = self
            .0
            .seal_in_place_separate_tag(
                ring::aead::Nonce::assume_unique_for_key(*nonce),
                ring::aead::Aad::from(aad),
                data,
            )
            .expect("within the limits");
        tag.as_ref().try_into().expect("16 bytes")
    }
}
