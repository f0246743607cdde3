//! The implementations simdcrypt is compared with, each behind a safe
//! function of one shape: key, nonce, and data XORed with the keystream in
//! place, from block 0. A call is a whole one-shot encryption, key setup
//! included, as libsodium's API has it.

/// RustCrypto's `salsa20` crate (0.11 has one portable backend, no SIMD),
/// through the `cipher` 0.5 traits.
pub mod rustcrypto {
    use salsa20::cipher::{KeyIvInit, StreamCipher};

    /// Salsa20/20 with a 256-bit key and 64-bit nonce.
    pub fn salsa20_xor(key: &[u8; 32], nonce: &[u8; 8], data: &mut [u8]) {
        salsa20::Salsa20::new(key.into(), nonce.into()).apply_keystream(data);
    }

    /// XSalsa20 with a 256-bit key and 192-bit nonce.
    pub fn xsalsa20_xor(key: &[u8; 32], nonce: &[u8; 24], data: &mut [u8]) {
        salsa20::XSalsa20::new(key.into(), nonce.into()).apply_keystream(data);
    }
}

/// The system libsodium through a hand-written FFI, initialised once with
/// `sodium_init`, which selects its fastest Salsa20 code for this CPU.
pub mod libsodium {
    use std::sync::Once;

    mod ffi {
        // libsodium's `unsigned long long` is 64 bits on every platform it
        // supports.
        unsafe extern "C" {
            pub fn sodium_init() -> i32;
            pub fn crypto_stream_salsa20_xor(
                c: *mut u8,
                m: *const u8,
                mlen: u64,
                n: *const u8,
                k: *const u8,
            ) -> i32;
            pub fn crypto_stream_xsalsa20_xor(
                c: *mut u8,
                m: *const u8,
                mlen: u64,
                n: *const u8,
                k: *const u8,
            ) -> i32;
        }
    }

    /// Runs `sodium_init` once; without it libsodium keeps its portable code.
    fn init() {
        static INIT: Once = Once::new();
        INIT.call_once(|| {
            // SAFETY: `sodium_init` takes no arguments and may be called at
            // any time; it returns 0, or 1 when already initialised.
            let rc = unsafe { ffi::sodium_init() };
            assert!(rc >= 0, "sodium_init failed ({rc})");
        });
    }

    /// Salsa20/20 (`crypto_stream_salsa20_xor`) with a 256-bit key and
    /// 64-bit nonce.
    pub fn salsa20_xor(key: &[u8; 32], nonce: &[u8; 8], data: &mut [u8]) {
        init();
        let p = data.as_mut_ptr();
        // SAFETY: `k` and `n` point to the 32 and 8 bytes libsodium reads;
        // `c` and `m` are the same `data.len()`-byte buffer, valid for reads
        // and writes, and libsodium's stream XOR supports c == m (in place).
        let rc = unsafe {
            ffi::crypto_stream_salsa20_xor(p, p, data.len() as u64, nonce.as_ptr(), key.as_ptr())
        };
        assert_eq!(rc, 0, "crypto_stream_salsa20_xor failed");
    }

    /// XSalsa20 (`crypto_stream_xsalsa20_xor`) with a 256-bit key and
    /// 192-bit nonce.
    pub fn xsalsa20_xor(key: &[u8; 32], nonce: &[u8; 24], data: &mut [u8]) {
        init();
        let p = data.as_mut_ptr();
        // SAFETY: `k` and `n` point to the 32 and 24 bytes libsodium reads;
        // `c` and `m` are the same `data.len()`-byte buffer, valid for reads
        // and writes, and libsodium's stream XOR supports c == m (in place).
        let rc = unsafe {
            ffi::crypto_stream_xsalsa20_xor(p, p, data.len() as u64, nonce.as_ptr(), key.as_ptr())
        };
        assert_eq!(rc, 0, "crypto_stream_xsalsa20_xor failed");
    }
}
