//! The implementations simdcrypt is compared with, each behind a safe
//! function of one of three shapes:
//!
//! - stream ciphers: key, nonce, and data XORed with the keystream in place,
//!   from block 0; the `_into` forms read an input and write an output of
//!   the same length;
//! - MACs: key and message in, tag out;
//! - AEADs: key, nonce, associated data, and data encrypted in place, the
//!   tag returned (the detached form every peer has); the `_seal_into`
//!   forms read the plaintext and write the sealed form (ciphertext ‖ tag,
//!   or tag ‖ ciphertext for secretbox) into an output 16 bytes longer;
//! - hashes: message in, digest out (as a vector, so that every hash and
//!   peer has one shape);
//! - scrypt: password, salt, `log_n`, `r`, `p`, and the output to fill.
//!
//! A call is a whole one-shot operation, key setup included, as libsodium's
//! API has it. Where a peer needs a context object (OpenSSL), one per thread
//! is kept and re-initialised with the key on every call, so no allocation
//! is timed: the peer's best showing. The exceptions are the types keyed
//! once for `benches/messages.rs` and `benches/camellia.rs`
//! (`openssl::KeyedCipher`, `openssl::KeyedHmac`, `libsodium::KeyedHmac`,
//! `libgcrypt::KeyedCipher`), whose messages set only the IV or restart
//! from the keyed pads.

/// RustCrypto's crates (`salsa20`, `chacha20`, `poly1305`,
/// `chacha20poly1305`, `xsalsa20poly1305`, `md-5`, `sha1`, `sha2`,
/// `scrypt`), through their traits.
pub mod rustcrypto {
    use chacha20poly1305::aead::consts::U32;
    use chacha20poly1305::aead::inout::InOutBuf;
    use chacha20poly1305::aead::{AeadInOut, KeyInit, Nonce};
    use salsa20::cipher::{KeyIvInit, StreamCipher};

    /// Salsa20/20 with a 256-bit key and 64-bit nonce.
    pub fn salsa20_xor(key: &[u8; 32], nonce: &[u8; 8], data: &mut [u8]) {
        salsa20::Salsa20::new(key.into(), nonce.into()).apply_keystream(data);
    }

    /// XSalsa20 with a 256-bit key and 192-bit nonce.
    pub fn xsalsa20_xor(key: &[u8; 32], nonce: &[u8; 24], data: &mut [u8]) {
        salsa20::XSalsa20::new(key.into(), nonce.into()).apply_keystream(data);
    }

    /// ChaCha20 of RFC 8439 (96-bit nonce, 32-bit counter).
    pub fn chacha20_xor(key: &[u8; 32], nonce: &[u8; 12], data: &mut [u8]) {
        chacha20::ChaCha20::new(key.into(), nonce.into()).apply_keystream(data);
    }

    /// XChaCha20 (192-bit nonce).
    pub fn xchacha20_xor(key: &[u8; 32], nonce: &[u8; 24], data: &mut [u8]) {
        chacha20::XChaCha20::new(key.into(), nonce.into()).apply_keystream(data);
    }

    /// Salsa20/20 from `input` into `output` (`apply_keystream_b2b`).
    pub fn salsa20_xor_into(key: &[u8; 32], nonce: &[u8; 8], input: &[u8], output: &mut [u8]) {
        salsa20::Salsa20::new(key.into(), nonce.into()).apply_keystream_b2b(input, output);
    }

    /// XSalsa20 from `input` into `output`.
    pub fn xsalsa20_xor_into(key: &[u8; 32], nonce: &[u8; 24], input: &[u8], output: &mut [u8]) {
        salsa20::XSalsa20::new(key.into(), nonce.into()).apply_keystream_b2b(input, output);
    }

    /// ChaCha20 of RFC 8439 from `input` into `output`.
    pub fn chacha20_xor_into(key: &[u8; 32], nonce: &[u8; 12], input: &[u8], output: &mut [u8]) {
        chacha20::ChaCha20::new(key.into(), nonce.into()).apply_keystream_b2b(input, output);
    }

    /// XChaCha20 from `input` into `output`.
    pub fn xchacha20_xor_into(key: &[u8; 32], nonce: &[u8; 24], input: &[u8], output: &mut [u8]) {
        chacha20::XChaCha20::new(key.into(), nonce.into()).apply_keystream_b2b(input, output);
    }

    /// Poly1305 of `msg`.
    pub fn poly1305_mac(key: &[u8; 32], msg: &[u8]) -> [u8; 16] {
        poly1305::Poly1305::new(key.into())
            .compute_unpadded(msg)
            .into()
    }

    /// Seals `data` in place with the AEAD `A`; the tag.
    fn seal<A: AeadInOut + KeyInit<KeySize = U32>>(
        key: &[u8; 32],
        nonce: &[u8],
        aad: &[u8],
        data: &mut [u8],
    ) -> [u8; 16] {
        let nonce = Nonce::<A>::try_from(nonce).expect("the AEAD's nonce length");
        let tag = A::new(key.into())
            .encrypt_inout_detached(&nonce, aad, data.into())
            .expect("a message within the AEAD's limits");
        tag.as_slice().try_into().expect("a 16-byte tag")
    }

    /// ChaCha20-Poly1305 (RFC 8439) seal in place; the tag.
    pub fn chacha20poly1305_seal(
        key: &[u8; 32],
        nonce: &[u8; 12],
        aad: &[u8],
        data: &mut [u8],
    ) -> [u8; 16] {
        seal::<chacha20poly1305::ChaCha20Poly1305>(key, nonce, aad, data)
    }

    /// Seals `input` with the AEAD `A` into `sealed`: the ciphertext
    /// through `encrypt_inout_detached` with separate buffers, then the tag.
    fn seal_into<A: AeadInOut + KeyInit<KeySize = U32>>(
        key: &[u8; 32],
        nonce: &[u8],
        aad: &[u8],
        input: &[u8],
        sealed: &mut [u8],
    ) {
        let nonce = Nonce::<A>::try_from(nonce).expect("the AEAD's nonce length");
        let (ct, tag) = sealed.split_at_mut(input.len());
        let buf = InOutBuf::new(input, ct).expect("a sealed buffer 16 bytes longer");
        let t = A::new(key.into())
            .encrypt_inout_detached(&nonce, aad, buf)
            .expect("a message within the AEAD's limits");
        tag.copy_from_slice(&t);
    }

    /// ChaCha20-Poly1305 from `input` into `sealed` (ciphertext ‖ tag).
    pub fn chacha20poly1305_seal_into(
        key: &[u8; 32],
        nonce: &[u8; 12],
        aad: &[u8],
        input: &[u8],
        sealed: &mut [u8],
    ) {
        seal_into::<chacha20poly1305::ChaCha20Poly1305>(key, nonce, aad, input, sealed);
    }

    /// XChaCha20-Poly1305 from `input` into `sealed` (ciphertext ‖ tag).
    pub fn xchacha20poly1305_seal_into(
        key: &[u8; 32],
        nonce: &[u8; 24],
        aad: &[u8],
        input: &[u8],
        sealed: &mut [u8],
    ) {
        seal_into::<chacha20poly1305::XChaCha20Poly1305>(key, nonce, aad, input, sealed);
    }

    /// XChaCha20-Poly1305 seal in place; the tag.
    pub fn xchacha20poly1305_seal(
        key: &[u8; 32],
        nonce: &[u8; 24],
        aad: &[u8],
        data: &mut [u8],
    ) -> [u8; 16] {
        seal::<chacha20poly1305::XChaCha20Poly1305>(key, nonce, aad, data)
    }

    /// XSalsa20-Poly1305 (NaCl's secretbox) seal in place; the tag.
    pub fn xsalsa20poly1305_seal(key: &[u8; 32], nonce: &[u8; 24], data: &mut [u8]) -> [u8; 16] {
        use xsalsa20poly1305::aead::{AeadInPlace, KeyInit};
        xsalsa20poly1305::XSalsa20Poly1305::new(key.into())
            .encrypt_in_place_detached(nonce.into(), &[], data)
            .expect("a message within the AEAD's limits")
            .into()
    }

    /// The digest of `msg` with the RustCrypto hash `D`, as a vector.
    fn digest<D: sha2::Digest>(msg: &[u8]) -> Vec<u8> {
        D::digest(msg).to_vec()
    }

    /// MD5 (`md-5`).
    pub fn md5(msg: &[u8]) -> Vec<u8> {
        digest::<md5::Md5>(msg)
    }

    /// SHA-1 (`sha1`).
    pub fn sha1(msg: &[u8]) -> Vec<u8> {
        digest::<sha1::Sha1>(msg)
    }

    /// SHA-256 (`sha2`).
    pub fn sha256(msg: &[u8]) -> Vec<u8> {
        digest::<sha2::Sha256>(msg)
    }

    /// SHA-512 (`sha2`).
    pub fn sha512(msg: &[u8]) -> Vec<u8> {
        digest::<sha2::Sha512>(msg)
    }

    /// scrypt with N = 2^`log_n` (`scrypt`).
    pub fn scrypt(password: &[u8], salt: &[u8], log_n: u8, r: u32, p: u32, out: &mut [u8]) {
        let params = scrypt::Params::new(log_n, r, p, out.len()).expect("valid scrypt parameters");
        scrypt::scrypt(password, salt, &params, out).expect("an output length scrypt takes");
    }
}

/// The system libsodium through a hand-written FFI, initialised once with
/// `sodium_init`, which selects its fastest code for this CPU.
pub mod libsodium {
    use std::ptr;
    use std::sync::Once;

    mod ffi {
        // libsodium's `unsigned long long` is 64 bits on every platform it
        // supports.

        /// Declares libsodium functions that share one signature.
        macro_rules! extern_fns {
            ($args:tt -> i32: $($name:ident),+) => {
                unsafe extern "C" {
                    $(pub fn $name $args -> i32;)+
                }
            };
        }

        unsafe extern "C" {
            pub fn sodium_init() -> i32;
            pub fn crypto_onetimeauth_poly1305(
                out: *mut u8,
                m: *const u8,
                mlen: u64,
                k: *const u8,
            ) -> i32;
            pub fn crypto_secretbox_detached(
                c: *mut u8,
                mac: *mut u8,
                m: *const u8,
                mlen: u64,
                n: *const u8,
                k: *const u8,
            ) -> i32;
        }

        extern_fns!(
            (out: *mut u8, m: *const u8, mlen: u64) -> i32:
            crypto_hash_sha256,
            crypto_hash_sha512
        );

        unsafe extern "C" {
            pub fn crypto_auth_hmacsha256_statebytes() -> usize;
            pub fn crypto_auth_hmacsha512_statebytes() -> usize;
        }

        extern_fns!(
            (state: *mut u64, key: *const u8, keylen: usize) -> i32:
            crypto_auth_hmacsha256_init,
            crypto_auth_hmacsha512_init
        );

        extern_fns!(
            (state: *mut u64, m: *const u8, mlen: u64) -> i32:
            crypto_auth_hmacsha256_update,
            crypto_auth_hmacsha512_update
        );

        extern_fns!(
            (state: *mut u64, out: *mut u8) -> i32:
            crypto_auth_hmacsha256_final,
            crypto_auth_hmacsha512_final
        );

        unsafe extern "C" {
            pub fn crypto_pwhash_scryptsalsa208sha256_ll(
                passwd: *const u8,
                passwdlen: usize,
                salt: *const u8,
                saltlen: usize,
                n: u64,
                r: u32,
                p: u32,
                buf: *mut u8,
                buflen: usize,
            ) -> i32;
        }

        extern_fns!(
            (c: *mut u8, m: *const u8, mlen: u64, n: *const u8, k: *const u8) -> i32:
            crypto_stream_salsa20_xor,
            crypto_stream_xsalsa20_xor,
            crypto_stream_chacha20_ietf_xor,
            crypto_stream_xchacha20_xor
        );

        extern_fns!(
            (
                c: *mut u8,
                mac: *mut u8,
                maclen: *mut u64,
                m: *const u8,
                mlen: u64,
                ad: *const u8,
                adlen: u64,
                nsec: *const u8,
                npub: *const u8,
                k: *const u8
            ) -> i32:
            crypto_aead_chacha20poly1305_ietf_encrypt_detached,
            crypto_aead_xchacha20poly1305_ietf_encrypt_detached
        );
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

    /// The signature shared by libsodium's stream XOR functions.
    type StreamXor = unsafe extern "C" fn(*mut u8, *const u8, u64, *const u8, *const u8) -> i32;

    /// Calls the stream XOR `f` in place; `N` is the nonce length `f` reads.
    fn stream_xor<const N: usize>(f: StreamXor, key: &[u8; 32], nonce: &[u8; N], data: &mut [u8]) {
        init();
        let p = data.as_mut_ptr();
        // SAFETY: every `StreamXor` passed here reads 32 key bytes and `N`
        // nonce bytes, which `key` and `nonce` hold; `c` and `m` are the same
        // `data.len()`-byte buffer, valid for reads and writes, and
        // libsodium's stream XORs support c == m (in place).
        let rc = unsafe { f(p, p, data.len() as u64, nonce.as_ptr(), key.as_ptr()) };
        assert_eq!(rc, 0, "libsodium stream XOR failed");
    }

    /// Salsa20/20 (`crypto_stream_salsa20_xor`).
    pub fn salsa20_xor(key: &[u8; 32], nonce: &[u8; 8], data: &mut [u8]) {
        stream_xor(ffi::crypto_stream_salsa20_xor, key, nonce, data);
    }

    /// XSalsa20 (`crypto_stream_xsalsa20_xor`).
    pub fn xsalsa20_xor(key: &[u8; 32], nonce: &[u8; 24], data: &mut [u8]) {
        stream_xor(ffi::crypto_stream_xsalsa20_xor, key, nonce, data);
    }

    /// ChaCha20 of RFC 8439 (`crypto_stream_chacha20_ietf_xor`).
    pub fn chacha20_xor(key: &[u8; 32], nonce: &[u8; 12], data: &mut [u8]) {
        stream_xor(ffi::crypto_stream_chacha20_ietf_xor, key, nonce, data);
    }

    /// XChaCha20 (`crypto_stream_xchacha20_xor`).
    pub fn xchacha20_xor(key: &[u8; 32], nonce: &[u8; 24], data: &mut [u8]) {
        stream_xor(ffi::crypto_stream_xchacha20_xor, key, nonce, data);
    }

    /// Calls the stream XOR `f` from `input` into `output`, `c != m`.
    fn stream_xor_into<const N: usize>(
        f: StreamXor,
        key: &[u8; 32],
        nonce: &[u8; N],
        input: &[u8],
        output: &mut [u8],
    ) {
        init();
        assert_eq!(input.len(), output.len(), "equal lengths");
        // SAFETY: as in `stream_xor`, with `m` the `input.len()` bytes read
        // and `c` the as many bytes of `output` written, apart.
        let rc = unsafe {
            f(
                output.as_mut_ptr(),
                input.as_ptr(),
                input.len() as u64,
                nonce.as_ptr(),
                key.as_ptr(),
            )
        };
        assert_eq!(rc, 0, "libsodium stream XOR failed");
    }

    /// Salsa20/20 from `input` into `output` (`crypto_stream_salsa20_xor`).
    pub fn salsa20_xor_into(key: &[u8; 32], nonce: &[u8; 8], input: &[u8], output: &mut [u8]) {
        stream_xor_into(ffi::crypto_stream_salsa20_xor, key, nonce, input, output);
    }

    /// XSalsa20 from `input` into `output` (`crypto_stream_xsalsa20_xor`).
    pub fn xsalsa20_xor_into(key: &[u8; 32], nonce: &[u8; 24], input: &[u8], output: &mut [u8]) {
        stream_xor_into(ffi::crypto_stream_xsalsa20_xor, key, nonce, input, output);
    }

    /// ChaCha20 of RFC 8439 from `input` into `output`
    /// (`crypto_stream_chacha20_ietf_xor`).
    pub fn chacha20_xor_into(key: &[u8; 32], nonce: &[u8; 12], input: &[u8], output: &mut [u8]) {
        stream_xor_into(
            ffi::crypto_stream_chacha20_ietf_xor,
            key,
            nonce,
            input,
            output,
        );
    }

    /// XChaCha20 from `input` into `output` (`crypto_stream_xchacha20_xor`).
    pub fn xchacha20_xor_into(key: &[u8; 32], nonce: &[u8; 24], input: &[u8], output: &mut [u8]) {
        stream_xor_into(ffi::crypto_stream_xchacha20_xor, key, nonce, input, output);
    }

    /// Poly1305 (`crypto_onetimeauth_poly1305`).
    pub fn poly1305_mac(key: &[u8; 32], msg: &[u8]) -> [u8; 16] {
        init();
        let mut tag = [0u8; 16];
        // SAFETY: `out` has the 16 bytes written, `m` the `mlen` bytes read,
        // `k` the 32 key bytes.
        let rc = unsafe {
            ffi::crypto_onetimeauth_poly1305(
                tag.as_mut_ptr(),
                msg.as_ptr(),
                msg.len() as u64,
                key.as_ptr(),
            )
        };
        assert_eq!(rc, 0, "crypto_onetimeauth_poly1305 failed");
        tag
    }

    /// The signature shared by libsodium's detached AEAD encryptions.
    type AeadSeal = unsafe extern "C" fn(
        *mut u8,
        *mut u8,
        *mut u64,
        *const u8,
        u64,
        *const u8,
        u64,
        *const u8,
        *const u8,
        *const u8,
    ) -> i32;

    /// Calls the detached AEAD encryption `f` in place; `N` is the nonce
    /// length `f` reads.
    fn aead_seal<const N: usize>(
        f: AeadSeal,
        key: &[u8; 32],
        nonce: &[u8; N],
        aad: &[u8],
        data: &mut [u8],
    ) -> [u8; 16] {
        init();
        let mut tag = [0u8; 16];
        let p = data.as_mut_ptr();
        // SAFETY: every `AeadSeal` passed here writes a 16-byte tag into
        // `mac` (and may leave `maclen` null), reads `adlen` bytes of `ad`,
        // `N` nonce bytes and 32 key bytes; `c` and `m` are the same
        // `data.len()`-byte buffer, and libsodium's AEADs support c == m.
        let rc = unsafe {
            f(
                p,
                tag.as_mut_ptr(),
                ptr::null_mut(),
                p,
                data.len() as u64,
                aad.as_ptr(),
                aad.len() as u64,
                ptr::null(),
                nonce.as_ptr(),
                key.as_ptr(),
            )
        };
        assert_eq!(rc, 0, "libsodium AEAD encryption failed");
        tag
    }

    /// Calls the detached AEAD encryption `f` from `input` into `sealed`:
    /// the ciphertext, then the tag.
    fn aead_seal_into<const N: usize>(
        f: AeadSeal,
        key: &[u8; 32],
        nonce: &[u8; N],
        aad: &[u8],
        input: &[u8],
        sealed: &mut [u8],
    ) {
        init();
        let (ct, tag) = sealed.split_at_mut(input.len());
        assert_eq!(tag.len(), 16, "a sealed buffer 16 bytes longer");
        // SAFETY: as in `aead_seal`, with `m` the `input.len()` bytes read
        // and `c` as many bytes of `ct` written, apart; `mac` the 16 bytes
        // of `tag`.
        let rc = unsafe {
            f(
                ct.as_mut_ptr(),
                tag.as_mut_ptr(),
                ptr::null_mut(),
                input.as_ptr(),
                input.len() as u64,
                aad.as_ptr(),
                aad.len() as u64,
                ptr::null(),
                nonce.as_ptr(),
                key.as_ptr(),
            )
        };
        assert_eq!(rc, 0, "libsodium AEAD encryption failed");
    }

    /// ChaCha20-Poly1305 from `input` into `sealed` (ciphertext ‖ tag).
    pub fn chacha20poly1305_seal_into(
        key: &[u8; 32],
        nonce: &[u8; 12],
        aad: &[u8],
        input: &[u8],
        sealed: &mut [u8],
    ) {
        aead_seal_into(
            ffi::crypto_aead_chacha20poly1305_ietf_encrypt_detached,
            key,
            nonce,
            aad,
            input,
            sealed,
        );
    }

    /// XChaCha20-Poly1305 from `input` into `sealed` (ciphertext ‖ tag).
    pub fn xchacha20poly1305_seal_into(
        key: &[u8; 32],
        nonce: &[u8; 24],
        aad: &[u8],
        input: &[u8],
        sealed: &mut [u8],
    ) {
        aead_seal_into(
            ffi::crypto_aead_xchacha20poly1305_ietf_encrypt_detached,
            key,
            nonce,
            aad,
            input,
            sealed,
        );
    }

    /// XSalsa20-Poly1305 from `input` into `sealed` (tag ‖ ciphertext, as
    /// `crypto_secretbox_easy` has it), through `crypto_secretbox_detached`.
    pub fn xsalsa20poly1305_seal_into(
        key: &[u8; 32],
        nonce: &[u8; 24],
        input: &[u8],
        sealed: &mut [u8],
    ) {
        init();
        let (tag, ct) = sealed.split_at_mut(16);
        assert_eq!(ct.len(), input.len(), "a sealed buffer 16 bytes longer");
        // SAFETY: `mac` has the 16 bytes written, `n` and `k` the 24 and 32
        // bytes read, `m` the `mlen` bytes read and `c` as many written,
        // apart.
        let rc = unsafe {
            ffi::crypto_secretbox_detached(
                ct.as_mut_ptr(),
                tag.as_mut_ptr(),
                input.as_ptr(),
                input.len() as u64,
                nonce.as_ptr(),
                key.as_ptr(),
            )
        };
        assert_eq!(rc, 0, "crypto_secretbox_detached failed");
    }

    /// ChaCha20-Poly1305 of RFC 8439
    /// (`crypto_aead_chacha20poly1305_ietf_encrypt_detached`); the tag.
    pub fn chacha20poly1305_seal(
        key: &[u8; 32],
        nonce: &[u8; 12],
        aad: &[u8],
        data: &mut [u8],
    ) -> [u8; 16] {
        aead_seal(
            ffi::crypto_aead_chacha20poly1305_ietf_encrypt_detached,
            key,
            nonce,
            aad,
            data,
        )
    }

    /// XChaCha20-Poly1305
    /// (`crypto_aead_xchacha20poly1305_ietf_encrypt_detached`); the tag.
    pub fn xchacha20poly1305_seal(
        key: &[u8; 32],
        nonce: &[u8; 24],
        aad: &[u8],
        data: &mut [u8],
    ) -> [u8; 16] {
        aead_seal(
            ffi::crypto_aead_xchacha20poly1305_ietf_encrypt_detached,
            key,
            nonce,
            aad,
            data,
        )
    }

    /// The signature of libsodium's one-shot hashes.
    type HashFn = unsafe extern "C" fn(*mut u8, *const u8, u64) -> i32;

    /// Hashes `msg` with `f` into `out`, the length of `f`'s digest.
    fn hash(f: HashFn, msg: &[u8], out: &mut [u8]) {
        init();
        // SAFETY: every `HashFn` passed here writes a digest of the length
        // its caller gives `out` and reads `msg.len()` bytes of `msg`.
        let rc = unsafe { f(out.as_mut_ptr(), msg.as_ptr(), msg.len() as u64) };
        assert_eq!(rc, 0, "libsodium hash failed");
    }

    /// SHA-256 (`crypto_hash_sha256`).
    pub fn sha256(msg: &[u8]) -> Vec<u8> {
        let mut out = vec![0; 32];
        sha256_into(msg, &mut out);
        out
    }

    /// SHA-512 (`crypto_hash_sha512`).
    pub fn sha512(msg: &[u8]) -> Vec<u8> {
        let mut out = vec![0; 64];
        sha512_into(msg, &mut out);
        out
    }

    /// SHA-256 (`crypto_hash_sha256`) into `out` (32 bytes).
    pub fn sha256_into(msg: &[u8], out: &mut [u8]) {
        assert_eq!(out.len(), 32, "a 32-byte digest");
        hash(ffi::crypto_hash_sha256, msg, out);
    }

    /// SHA-512 (`crypto_hash_sha512`) into `out` (64 bytes).
    pub fn sha512_into(msg: &[u8], out: &mut [u8]) {
        assert_eq!(out.len(), 64, "a 64-byte digest");
        hash(ffi::crypto_hash_sha512, msg, out);
    }

    /// libsodium's HMAC-SHA-256 or HMAC-SHA-512 keyed once
    /// (`crypto_auth_hmacsha{256,512}_init`): each message copies the keyed
    /// state (`W` words, the C struct, which holds the two keyed hashes),
    /// then `_update` and `_final`.
    pub struct KeyedHmac<const W: usize> {
        keyed: [u64; W],
        tag_len: usize,
        update: HmacUpdate,
        finish: HmacFinal,
    }

    /// The signature of `crypto_auth_hmacsha{256,512}_update`.
    type HmacUpdate = unsafe extern "C" fn(*mut u64, *const u8, u64) -> i32;
    /// The signature of `crypto_auth_hmacsha{256,512}_final`.
    type HmacFinal = unsafe extern "C" fn(*mut u64, *mut u8) -> i32;

    /// HMAC-SHA-256 under `key`.
    pub fn hmac_sha256(key: &[u8]) -> KeyedHmac<26> {
        init();
        // SAFETY: takes no arguments.
        let bytes = unsafe { ffi::crypto_auth_hmacsha256_statebytes() };
        KeyedHmac::new(
            bytes,
            32,
            ffi::crypto_auth_hmacsha256_init,
            ffi::crypto_auth_hmacsha256_update,
            ffi::crypto_auth_hmacsha256_final,
            key,
        )
    }

    /// HMAC-SHA-512 under `key`.
    pub fn hmac_sha512(key: &[u8]) -> KeyedHmac<52> {
        init();
        // SAFETY: takes no arguments.
        let bytes = unsafe { ffi::crypto_auth_hmacsha512_statebytes() };
        KeyedHmac::new(
            bytes,
            64,
            ffi::crypto_auth_hmacsha512_init,
            ffi::crypto_auth_hmacsha512_update,
            ffi::crypto_auth_hmacsha512_final,
            key,
        )
    }

    impl<const W: usize> KeyedHmac<W> {
        /// The state keyed by `init` under `key`; `bytes` is the state's
        /// size, which must be `W` words, `tag_len` the tag's.
        fn new(
            bytes: usize,
            tag_len: usize,
            init: unsafe extern "C" fn(*mut u64, *const u8, usize) -> i32,
            update: HmacUpdate,
            finish: HmacFinal,
            key: &[u8],
        ) -> Self {
            assert_eq!(bytes, 8 * W, "libsodium's HMAC state size");
            let mut keyed = [0u64; W];
            // SAFETY: `keyed` has the state's size (asserted), aligned for
            // its 64-bit words; the init reads `key.len()` bytes of `key`.
            let rc = unsafe { init(keyed.as_mut_ptr(), key.as_ptr(), key.len()) };
            assert_eq!(rc, 0, "crypto_auth_hmacsha*_init failed");
            KeyedHmac {
                keyed,
                tag_len,
                update,
                finish,
            }
        }

        /// The tag of `msg` into `out` (32 or 64 bytes, as the hash).
        pub fn mac(&self, msg: &[u8], out: &mut [u8]) {
            assert_eq!(out.len(), self.tag_len, "the tag length");
            let mut state = self.keyed;
            // SAFETY: `state` is a copy of a keyed state (plain data);
            // update reads `msg.len()` bytes; final writes the tag,
            // `out.len()` bytes (asserted).
            unsafe {
                assert_eq!(
                    (self.update)(state.as_mut_ptr(), msg.as_ptr(), msg.len() as u64),
                    0
                );
                assert_eq!((self.finish)(state.as_mut_ptr(), out.as_mut_ptr()), 0);
            }
        }
    }

    /// scrypt with N = 2^`log_n` (`crypto_pwhash_scryptsalsa208sha256_ll`).
    pub fn scrypt(password: &[u8], salt: &[u8], log_n: u8, r: u32, p: u32, out: &mut [u8]) {
        init();
        // SAFETY: reads `passwdlen` and `saltlen` bytes of the two inputs
        // and writes `buflen` bytes of `out`.
        let rc = unsafe {
            ffi::crypto_pwhash_scryptsalsa208sha256_ll(
                password.as_ptr(),
                password.len(),
                salt.as_ptr(),
                salt.len(),
                1 << log_n,
                r,
                p,
                out.as_mut_ptr(),
                out.len(),
            )
        };
        assert_eq!(rc, 0, "crypto_pwhash_scryptsalsa208sha256_ll failed");
    }

    /// XSalsa20-Poly1305 (`crypto_secretbox_detached`); the tag.
    pub fn xsalsa20poly1305_seal(key: &[u8; 32], nonce: &[u8; 24], data: &mut [u8]) -> [u8; 16] {
        init();
        let mut tag = [0u8; 16];
        let p = data.as_mut_ptr();
        // SAFETY: `mac` has the 16 bytes written, `n` and `k` the 24 and 32
        // bytes read; `c` and `m` are the same `data.len()`-byte buffer,
        // which `crypto_secretbox_detached` supports.
        let rc = unsafe {
            ffi::crypto_secretbox_detached(
                p,
                tag.as_mut_ptr(),
                p,
                data.len() as u64,
                nonce.as_ptr(),
                key.as_ptr(),
            )
        };
        assert_eq!(rc, 0, "crypto_secretbox_detached failed");
        tag
    }
}

/// The system OpenSSL (libcrypto 3) through `openssl-sys`: the EVP ChaCha20
/// and ChaCha20-Poly1305 ciphers, AES in CTR and CBC, the EVP_MAC Poly1305, the EVP digests and
/// `EVP_PBE_scrypt`, which run OpenSSL's assembly for this CPU. One context
/// per thread, re-keyed on every call; digests fetched once.
pub mod openssl {
    use std::cell::RefCell;
    use std::ffi::c_int;
    use std::ptr;

    use openssl_sys as ffi;

    /// `EVP_CTRL_AEAD_GET_TAG`.
    const GET_TAG: c_int = 0x10;

    /// An `EVP_CIPHER_CTX`, freed on drop.
    struct CipherCtx(*mut ffi::EVP_CIPHER_CTX);

    impl CipherCtx {
        fn new() -> Self {
            ffi::init();
            // SAFETY: allocates a fresh context; checked for null below.
            let ctx = unsafe { ffi::EVP_CIPHER_CTX_new() };
            assert!(!ctx.is_null(), "EVP_CIPHER_CTX_new failed");
            CipherCtx(ctx)
        }
    }

    impl Drop for CipherCtx {
        fn drop(&mut self) {
            // SAFETY: the pointer came from EVP_CIPHER_CTX_new and is freed once.
            unsafe { ffi::EVP_CIPHER_CTX_free(self.0) };
        }
    }

    /// An `EVP_MAC_CTX` for Poly1305, freed on drop.
    struct MacCtx(*mut ffi::EVP_MAC_CTX);

    impl MacCtx {
        fn new() -> Self {
            ffi::init();
            // SAFETY: fetches the default provider's POLY1305 by a
            // NUL-terminated name, then a context for it; both checked for
            // null. The context holds its own reference to the MAC, so ours
            // is released at once.
            unsafe {
                let mac = ffi::EVP_MAC_fetch(ptr::null_mut(), c"POLY1305".as_ptr(), ptr::null());
                assert!(!mac.is_null(), "EVP_MAC_fetch(POLY1305) failed");
                let ctx = ffi::EVP_MAC_CTX_new(mac);
                ffi::EVP_MAC_free(mac);
                assert!(!ctx.is_null(), "EVP_MAC_CTX_new failed");
                MacCtx(ctx)
            }
        }
    }

    impl Drop for MacCtx {
        fn drop(&mut self) {
            // SAFETY: the pointer came from EVP_MAC_CTX_new and is freed once.
            unsafe { ffi::EVP_MAC_CTX_free(self.0) };
        }
    }

    /// An `EVP_MD_CTX` with the digests it runs, fetched once (an implicit
    /// fetch on every call would be timed too), all freed on drop.
    struct DigestCtx {
        ctx: *mut ffi::EVP_MD_CTX,
        /// MD5, SHA1, SHA256, SHA512, in [`Md`] order.
        mds: [*mut ffi::EVP_MD; 4],
    }

    /// The digests [`DigestCtx`] holds.
    #[derive(Clone, Copy)]
    enum Md {
        Md5,
        Sha1,
        Sha256,
        Sha512,
    }

    impl DigestCtx {
        fn new() -> Self {
            ffi::init();
            let fetch = |name: &std::ffi::CStr| {
                // SAFETY: fetches the default provider's digest by a
                // NUL-terminated name; checked for null.
                let md = unsafe { ffi::EVP_MD_fetch(ptr::null_mut(), name.as_ptr(), ptr::null()) };
                assert!(!md.is_null(), "EVP_MD_fetch({name:?}) failed");
                md
            };
            // SAFETY: allocates a fresh context; checked for null below.
            let ctx = unsafe { ffi::EVP_MD_CTX_new() };
            assert!(!ctx.is_null(), "EVP_MD_CTX_new failed");
            DigestCtx {
                ctx,
                mds: [
                    fetch(c"MD5"),
                    fetch(c"SHA1"),
                    fetch(c"SHA256"),
                    fetch(c"SHA512"),
                ],
            }
        }
    }

    impl Drop for DigestCtx {
        fn drop(&mut self) {
            // SAFETY: the pointers came from EVP_MD_CTX_new and EVP_MD_fetch
            // and are freed once.
            unsafe {
                ffi::EVP_MD_CTX_free(self.ctx);
                for md in self.mds {
                    ffi::EVP_MD_free(md);
                }
            }
        }
    }

    thread_local! {
        static CIPHER: RefCell<CipherCtx> = RefCell::new(CipherCtx::new());
        static MAC: RefCell<MacCtx> = RefCell::new(MacCtx::new());
        static DIGEST: RefCell<DigestCtx> = RefCell::new(DigestCtx::new());
    }

    /// The digest `md` of `msg`.
    fn digest(md: Md, msg: &[u8]) -> Vec<u8> {
        let mut out = [0u8; 64];
        let len = digest_into(md, msg, &mut out);
        out[..len].to_vec()
    }

    /// The digest `md` of `msg` written to the start of `out`; its length.
    fn digest_into(md: Md, msg: &[u8], out: &mut [u8; 64]) -> usize {
        DIGEST.with_borrow(|d| {
            let mut len = 0u32;
            // SAFETY: `d.ctx` is a live context and `d.mds[md]` a fetched
            // digest; update reads `msg.len()` bytes; final writes at most
            // 64 bytes (SHA-512's digest, the longest), which `out` has.
            unsafe {
                assert_eq!(
                    ffi::EVP_DigestInit_ex(d.ctx, d.mds[md as usize], ptr::null_mut()),
                    1
                );
                assert_eq!(
                    ffi::EVP_DigestUpdate(d.ctx, msg.as_ptr().cast(), msg.len()),
                    1
                );
                assert_eq!(
                    ffi::EVP_DigestFinal_ex(d.ctx, out.as_mut_ptr(), &mut len),
                    1
                );
            }
            len as usize
        })
    }

    /// SHA-256 of `msg` into `out` (32 bytes), without allocating.
    pub fn sha256_into(msg: &[u8], out: &mut [u8]) {
        let mut d = [0u8; 64];
        let len = digest_into(Md::Sha256, msg, &mut d);
        out.copy_from_slice(&d[..len]);
    }

    /// SHA-512 of `msg` into `out` (64 bytes), without allocating.
    pub fn sha512_into(msg: &[u8], out: &mut [u8]) {
        let out: &mut [u8; 64] = out.try_into().expect("64 bytes");
        digest_into(Md::Sha512, msg, out);
    }

    /// MD5 (`EVP_DigestInit_ex` … `Final_ex`).
    pub fn md5(msg: &[u8]) -> Vec<u8> {
        digest(Md::Md5, msg)
    }

    /// SHA-1.
    pub fn sha1(msg: &[u8]) -> Vec<u8> {
        digest(Md::Sha1, msg)
    }

    /// SHA-256.
    pub fn sha256(msg: &[u8]) -> Vec<u8> {
        digest(Md::Sha256, msg)
    }

    /// SHA-512.
    pub fn sha512(msg: &[u8]) -> Vec<u8> {
        digest(Md::Sha512, msg)
    }

    /// scrypt with N = 2^`log_n` (`EVP_PBE_scrypt`), memory limit raised to
    /// what the parameters need.
    pub fn scrypt(password: &[u8], salt: &[u8], log_n: u8, r: u32, p: u32, out: &mut [u8]) {
        ffi::init();
        let maxmem = 129 * u64::from(r) * ((1u64 << log_n) + u64::from(p) + 2);
        // SAFETY: reads `passlen` and `saltlen` bytes of the two inputs and
        // writes `keylen` bytes of `out`.
        let rc = unsafe {
            ffi::EVP_PBE_scrypt(
                password.as_ptr().cast(),
                password.len(),
                salt.as_ptr(),
                salt.len(),
                1 << log_n,
                u64::from(r),
                u64::from(p),
                maxmem,
                out.as_mut_ptr(),
                out.len(),
            )
        };
        assert_eq!(rc, 1, "EVP_PBE_scrypt failed");
    }

    /// Encrypts `data` in place with `cipher` keyed by `key` and `iv`,
    /// after `aad`; the tag when `tag` is set (an AEAD).
    fn encrypt(
        cipher: *const ffi::EVP_CIPHER,
        key: &[u8; 32],
        iv: &[u8],
        aad: &[u8],
        data: &mut [u8],
        tag: Option<&mut [u8]>,
    ) {
        let p = data.as_mut_ptr();
        // SAFETY: `data` is readable and writable for its length; EVP
        // allows the output to be the input buffer for stream ciphers.
        unsafe { encrypt_raw(cipher, key, iv, aad, p, p, data.len(), tag) };
    }

    /// Encrypts `input` into `output` (as long) with `cipher` keyed by
    /// `key` and `iv`, after `aad`; the tag when `tag` is set (an AEAD).
    fn encrypt_into(
        cipher: *const ffi::EVP_CIPHER,
        key: &[u8; 32],
        iv: &[u8],
        aad: &[u8],
        input: &[u8],
        output: &mut [u8],
        tag: Option<&mut [u8]>,
    ) {
        assert_eq!(input.len(), output.len(), "equal lengths");
        // SAFETY: `input` is readable and `output` writable for the length,
        // and they do not overlap.
        unsafe {
            encrypt_raw(
                cipher,
                key,
                iv,
                aad,
                input.as_ptr(),
                output.as_mut_ptr(),
                input.len(),
                tag,
            )
        };
    }

    /// The EVP calls of [`encrypt`] and [`encrypt_into`].
    ///
    /// # Safety
    ///
    /// `src` readable and `dst` writable for `len` bytes, the same buffer
    /// or apart; `tag`, when set, 16 bytes.
    #[allow(clippy::too_many_arguments)] // one EVP sequence's inputs
    unsafe fn encrypt_raw(
        cipher: *const ffi::EVP_CIPHER,
        key: &[u8; 32],
        iv: &[u8],
        aad: &[u8],
        src: *const u8,
        dst: *mut u8,
        len: usize,
        tag: Option<&mut [u8]>,
    ) {
        CIPHER.with_borrow(|ctx| {
            let ctx = ctx.0;
            let mut outl: c_int = 0;
            // SAFETY: `ctx` is a live context; the cipher reads 32 key bytes
            // and an IV of `iv.len()` bytes (16 for ChaCha20, 12 for
            // ChaCha20-Poly1305, its defaults); the update reads `len`
            // bytes at `src` and writes as many at `dst` (the caller's
            // promise; EVP allows them to be one buffer for stream
            // ciphers); the AAD pass has a null output; the final call
            // writes nothing for these ciphers; the tag control writes 16
            // bytes.
            unsafe {
                assert_eq!(
                    ffi::EVP_EncryptInit_ex(
                        ctx,
                        cipher,
                        ptr::null_mut(),
                        key.as_ptr(),
                        iv.as_ptr()
                    ),
                    1
                );
                if !aad.is_empty() {
                    assert_eq!(
                        ffi::EVP_EncryptUpdate(
                            ctx,
                            ptr::null_mut(),
                            &mut outl,
                            aad.as_ptr(),
                            aad.len() as c_int
                        ),
                        1
                    );
                }
                assert_eq!(
                    ffi::EVP_EncryptUpdate(ctx, dst, &mut outl, src, len as c_int),
                    1
                );
                assert_eq!(ffi::EVP_EncryptFinal_ex(ctx, dst, &mut outl), 1);
                if let Some(tag) = tag {
                    assert_eq!(tag.len(), 16, "a 16-byte tag");
                    assert_eq!(
                        ffi::EVP_CIPHER_CTX_ctrl(ctx, GET_TAG, 16, tag.as_mut_ptr().cast()),
                        1
                    );
                }
            }
        });
    }

    /// ChaCha20 (`EVP_chacha20`): OpenSSL's 16-byte IV is the 32-bit
    /// little-endian block counter, here 0, then the 96-bit nonce.
    pub fn chacha20_xor(key: &[u8; 32], nonce: &[u8; 12], data: &mut [u8]) {
        let mut iv = [0u8; 16];
        iv[4..].copy_from_slice(nonce);
        // SAFETY: returns a pointer to a static cipher description.
        let cipher = unsafe { ffi::EVP_chacha20() };
        encrypt(cipher, key, &iv, &[], data, None);
    }

    /// ChaCha20 (`EVP_chacha20`) from `input` into `output`.
    pub fn chacha20_xor_into(key: &[u8; 32], nonce: &[u8; 12], input: &[u8], output: &mut [u8]) {
        let mut iv = [0u8; 16];
        iv[4..].copy_from_slice(nonce);
        // SAFETY: returns a pointer to a static cipher description.
        let cipher = unsafe { ffi::EVP_chacha20() };
        encrypt_into(cipher, key, &iv, &[], input, output, None);
    }

    /// ChaCha20-Poly1305 (`EVP_chacha20_poly1305`) from `input` into
    /// `sealed` (ciphertext ‖ tag).
    pub fn chacha20poly1305_seal_into(
        key: &[u8; 32],
        nonce: &[u8; 12],
        aad: &[u8],
        input: &[u8],
        sealed: &mut [u8],
    ) {
        let (ct, tag) = sealed.split_at_mut(input.len());
        // SAFETY: returns a pointer to a static cipher description.
        let cipher = unsafe { ffi::EVP_chacha20_poly1305() };
        encrypt_into(cipher, key, nonce, aad, input, ct, Some(tag));
    }

    /// ChaCha20-Poly1305 (`EVP_chacha20_poly1305`) seal in place; the tag.
    pub fn chacha20poly1305_seal(
        key: &[u8; 32],
        nonce: &[u8; 12],
        aad: &[u8],
        data: &mut [u8],
    ) -> [u8; 16] {
        let mut tag = [0u8; 16];
        // SAFETY: returns a pointer to a static cipher description.
        let cipher = unsafe { ffi::EVP_chacha20_poly1305() };
        encrypt(cipher, key, nonce, aad, data, Some(&mut tag[..]));
        tag
    }

    /// Poly1305 through EVP_MAC.
    pub fn poly1305_mac(key: &[u8; 32], msg: &[u8]) -> [u8; 16] {
        MAC.with_borrow(|ctx| {
            let ctx = ctx.0;
            let mut tag = [0u8; 16];
            let mut outl = 0usize;
            // SAFETY: `ctx` is a live Poly1305 context; init reads the 32
            // key bytes, update `msg.len()` bytes, final writes at most the
            // 16 bytes `tag` has.
            unsafe {
                assert_eq!(
                    ffi::EVP_MAC_init(ctx, key.as_ptr(), key.len(), ptr::null()),
                    1
                );
                assert_eq!(ffi::EVP_MAC_update(ctx, msg.as_ptr(), msg.len()), 1);
                assert_eq!(
                    ffi::EVP_MAC_final(ctx, tag.as_mut_ptr(), &mut outl, tag.len()),
                    1
                );
            }
            assert_eq!(outl, 16, "Poly1305 tag length");
            tag
        })
    }

    /// The AES ciphers of EVP, fetched once per thread (an implicit fetch
    /// on every `EVP_CipherInit_ex` would be timed too), freed on drop:
    /// AES-128/192/256 in CTR, then in CBC.
    struct AesCiphers([*mut ffi::EVP_CIPHER; 6]);

    impl AesCiphers {
        fn new() -> Self {
            ffi::init();
            let names = [
                c"AES-128-CTR",
                c"AES-192-CTR",
                c"AES-256-CTR",
                c"AES-128-CBC",
                c"AES-192-CBC",
                c"AES-256-CBC",
            ];
            AesCiphers(names.map(|name| {
                // SAFETY: fetches the default provider's cipher by a
                // NUL-terminated name; checked for null.
                let c =
                    unsafe { ffi::EVP_CIPHER_fetch(ptr::null_mut(), name.as_ptr(), ptr::null()) };
                assert!(!c.is_null(), "EVP_CIPHER_fetch({name:?}) failed");
                c
            }))
        }
    }

    impl Drop for AesCiphers {
        fn drop(&mut self) {
            for c in self.0 {
                // SAFETY: each pointer came from EVP_CIPHER_fetch and is
                // freed once.
                unsafe { ffi::EVP_CIPHER_free(c) };
            }
        }
    }

    thread_local! {
        static AES: AesCiphers = AesCiphers::new();
    }

    /// AES under `key` (16, 24 or 32 bytes) from `iv`, in CTR or (`cbc`)
    /// CBC without padding, on `data` in place (whole blocks for CBC):
    /// `EVP_CipherInit_ex`, `EVP_CipherUpdate`, `EVP_CipherFinal`;
    /// decrypting when `encrypt` is false.
    fn aes(cbc: bool, key: &[u8], iv: &[u8; 16], data: &mut [u8], encrypt: bool) {
        let size = match key.len() {
            16 => 0,
            24 => 1,
            32 => 2,
            n => panic!("a {n}-byte AES key"),
        };
        let cipher = AES.with(|a| a.0[3 * usize::from(cbc) + size]);
        CIPHER.with_borrow(|ctx| {
            let ctx = ctx.0;
            let p = data.as_mut_ptr();
            let (mut outl, mut finl): (c_int, c_int) = (0, 0);
            // SAFETY: `ctx` is a live context and `cipher` a fetched one,
            // whose key is `key.len()` bytes and IV 16; the update reads
            // and writes `data.len()` bytes at `p` (EVP allows in place);
            // without padding, and on whole blocks for CBC, the final call
            // writes nothing.
            unsafe {
                assert_eq!(
                    ffi::EVP_CipherInit_ex(
                        ctx,
                        cipher,
                        ptr::null_mut(),
                        key.as_ptr(),
                        iv.as_ptr(),
                        c_int::from(encrypt)
                    ),
                    1
                );
                assert_eq!(ffi::EVP_CIPHER_CTX_set_padding(ctx, 0), 1);
                assert_eq!(
                    ffi::EVP_CipherUpdate(ctx, p, &mut outl, p, data.len() as c_int),
                    1
                );
                assert_eq!(
                    ffi::EVP_CipherFinal(ctx, p.add(outl as usize), &mut finl),
                    1
                );
            }
            assert_eq!((outl as usize, finl), (data.len(), 0), "EVP wrote it all");
        });
    }

    /// AES-CTR (`AES-{128,192,256}-CTR`) from the counter block `iv`.
    pub fn aes_ctr_xor(key: &[u8], iv: &[u8; 16], data: &mut [u8]) {
        aes(false, key, iv, data, true);
    }

    /// AES-CBC encryption of whole blocks, no padding.
    pub fn aes_cbc_encrypt(key: &[u8], iv: &[u8; 16], data: &mut [u8]) {
        aes(true, key, iv, data, true);
    }

    /// AES-CBC decryption of whole blocks, no padding.
    pub fn aes_cbc_decrypt(key: &[u8], iv: &[u8; 16], data: &mut [u8]) {
        aes(true, key, iv, data, false);
    }

    /// A cipher fetched by name (`AES-128-CTR`, `AES-128-CBC`,
    /// `ChaCha20` …) in a context keyed once, padding off, for one
    /// direction: each message sets only its IV (`EVP_CipherInit_ex` with
    /// a null cipher and key), then one `EVP_CipherUpdate` from the input
    /// into the output and `EVP_CipherFinal`, which writes nothing.
    pub struct KeyedCipher {
        ctx: CipherCtx,
        cipher: *mut ffi::EVP_CIPHER,
    }

    impl KeyedCipher {
        /// The cipher `name` under `key` (of its key length), encrypting
        /// or (`encrypt` false) decrypting.
        pub fn new(name: &std::ffi::CStr, key: &[u8], encrypt: bool) -> Self {
            let ctx = CipherCtx::new();
            // SAFETY: fetches a cipher by a NUL-terminated name (checked
            // for null), whose key length is checked before the init reads
            // that many bytes of `key`; no IV yet.
            unsafe {
                let cipher = ffi::EVP_CIPHER_fetch(ptr::null_mut(), name.as_ptr(), ptr::null());
                assert!(!cipher.is_null(), "EVP_CIPHER_fetch({name:?}) failed");
                assert_eq!(ffi::EVP_CIPHER_get_key_length(cipher) as usize, key.len());
                assert_eq!(
                    ffi::EVP_CipherInit_ex(
                        ctx.0,
                        cipher,
                        ptr::null_mut(),
                        key.as_ptr(),
                        ptr::null(),
                        c_int::from(encrypt)
                    ),
                    1
                );
                assert_eq!(ffi::EVP_CIPHER_CTX_set_padding(ctx.0, 0), 1);
                KeyedCipher { ctx, cipher }
            }
        }

        /// One message from `iv` (the cipher's IV length), `input` into
        /// `output` (as long; whole blocks for CBC).
        pub fn run(&mut self, iv: &[u8], input: &[u8], output: &mut [u8]) {
            assert_eq!(input.len(), output.len(), "equal lengths");
            let ctx = self.ctx.0;
            let out = output.as_mut_ptr();
            let (mut outl, mut finl): (c_int, c_int) = (0, 0);
            // SAFETY: `ctx` was keyed in `new` and keeps its cipher and
            // direction (null cipher and key, enc −1); the IV is the
            // cipher's length (checked); the update reads `input.len()`
            // bytes and writes as many at `out`, apart; without padding
            // (and on whole blocks for CBC) the final call writes nothing.
            unsafe {
                assert_eq!(
                    ffi::EVP_CIPHER_get_iv_length(self.cipher) as usize,
                    iv.len()
                );
                assert_eq!(
                    ffi::EVP_CipherInit_ex(
                        ctx,
                        ptr::null(),
                        ptr::null_mut(),
                        ptr::null(),
                        iv.as_ptr(),
                        -1
                    ),
                    1
                );
                assert_eq!(
                    ffi::EVP_CipherUpdate(
                        ctx,
                        out,
                        &mut outl,
                        input.as_ptr(),
                        input.len() as c_int
                    ),
                    1
                );
                assert_eq!(
                    ffi::EVP_CipherFinal(ctx, out.add(outl as usize), &mut finl),
                    1
                );
            }
            assert_eq!((outl as usize, finl), (input.len(), 0), "EVP wrote it all");
        }
    }

    impl Drop for KeyedCipher {
        fn drop(&mut self) {
            // SAFETY: the pointer came from EVP_CIPHER_fetch and is freed
            // once (the context, dropped after, holds its own reference).
            unsafe { ffi::EVP_CIPHER_free(self.cipher) };
        }
    }

    /// HMAC over a fetched digest (`SHA256`, `SHA512`), keyed once
    /// (`HMAC_Init_ex` with the key): each message restarts from the
    /// keyed pads (`HMAC_Init_ex` with a null key), then `HMAC_Update`
    /// and `HMAC_Final`.
    pub struct KeyedHmac {
        ctx: *mut ffi::HMAC_CTX,
        md: *mut ffi::EVP_MD,
        len: usize,
    }

    impl KeyedHmac {
        /// HMAC over the digest `name` under `key`.
        pub fn new(name: &std::ffi::CStr, key: &[u8]) -> Self {
            ffi::init();
            // SAFETY: fetches a digest by a NUL-terminated name and
            // allocates a context, both checked for null; the init reads
            // `key.len()` bytes of `key`; `len` is the digest's size.
            unsafe {
                let md = ffi::EVP_MD_fetch(ptr::null_mut(), name.as_ptr(), ptr::null());
                assert!(!md.is_null(), "EVP_MD_fetch({name:?}) failed");
                let len = ffi::EVP_MD_get_size(md) as usize;
                let ctx = ffi::HMAC_CTX_new();
                assert!(!ctx.is_null(), "HMAC_CTX_new failed");
                let klen = c_int::try_from(key.len()).expect("a short key");
                assert_eq!(
                    ffi::HMAC_Init_ex(ctx, key.as_ptr().cast(), klen, md, ptr::null_mut()),
                    1
                );
                KeyedHmac { ctx, md, len }
            }
        }

        /// The tag of `msg` into `out` (the tag length).
        pub fn mac(&mut self, msg: &[u8], out: &mut [u8]) {
            assert_eq!(out.len(), self.len, "the tag length");
            let mut len = 0u32;
            // SAFETY: `ctx` was keyed in `new`; a null key and digest
            // restart it from the kept pads; update reads `msg.len()`
            // bytes; final writes the digest's length, `out.len()`.
            unsafe {
                assert_eq!(
                    ffi::HMAC_Init_ex(self.ctx, ptr::null(), 0, ptr::null(), ptr::null_mut()),
                    1
                );
                assert_eq!(ffi::HMAC_Update(self.ctx, msg.as_ptr(), msg.len()), 1);
                assert_eq!(ffi::HMAC_Final(self.ctx, out.as_mut_ptr(), &mut len), 1);
            }
            assert_eq!(len as usize, self.len, "the tag length");
        }
    }

    impl Drop for KeyedHmac {
        fn drop(&mut self) {
            // SAFETY: the pointers came from HMAC_CTX_new and EVP_MD_fetch
            // and are freed once.
            unsafe {
                ffi::HMAC_CTX_free(self.ctx);
                ffi::EVP_MD_free(self.md);
            }
        }
    }

    // `OSSL_PROVIDER_load` and `EVP_CIPHER_CTX_reset`, which `openssl-sys`
    // does not declare; libcrypto is linked by it.
    unsafe extern "C" {
        fn OSSL_PROVIDER_load(
            ctx: *mut ffi::OSSL_LIB_CTX,
            name: *const std::ffi::c_char,
        ) -> *mut std::ffi::c_void;
        fn EVP_CIPHER_CTX_reset(ctx: *mut ffi::EVP_CIPHER_CTX) -> c_int;
    }

    /// Whether OpenSSL's GOST provider (`gostprov`) loads; loaded (with the
    /// default provider beside it) into the default library context once.
    pub fn gost_available() -> bool {
        static LOADED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
        *LOADED.get_or_init(|| {
            ffi::init();
            // SAFETY: loads providers by NUL-terminated names into the
            // default context; a null result means it is not there.
            unsafe {
                !OSSL_PROVIDER_load(ptr::null_mut(), c"default".as_ptr()).is_null()
                    && !OSSL_PROVIDER_load(ptr::null_mut(), c"gostprov".as_ptr()).is_null()
            }
        })
    }

    thread_local! {
        /// The GOST provider's ciphers fetched so far, by name.
        static GOST: RefCell<Vec<(&'static str, *mut ffi::EVP_CIPHER)>> =
            const { RefCell::new(Vec::new()) };
    }

    /// The GOST provider's cipher `name` (`magma-ctr`, `magma-cbc`,
    /// `gost89-cnt`, …) with its defaults, encrypting `data` in place under
    /// `key` from `iv` (as long as the cipher's IV), without padding: the
    /// provider must be there ([`gost_available`]).
    pub fn gost(name: &'static str, key: &[u8; 32], iv: &[u8], data: &mut [u8]) {
        assert!(gost_available(), "OpenSSL's GOST provider is not installed");
        let cipher = GOST.with_borrow_mut(|fetched| {
            if let Some(&(_, c)) = fetched.iter().find(|(n, _)| *n == name) {
                return c;
            }
            let cname = std::ffi::CString::new(name).expect("no NUL");
            // SAFETY: fetches a cipher by a NUL-terminated name; checked
            // for null. Kept for the thread's life (a few, never freed).
            let c = unsafe { ffi::EVP_CIPHER_fetch(ptr::null_mut(), cname.as_ptr(), ptr::null()) };
            assert!(!c.is_null(), "EVP_CIPHER_fetch({name}) failed");
            fetched.push((name, c));
            c
        });
        CIPHER.with_borrow(|ctx| {
            let ctx = ctx.0;
            let p = data.as_mut_ptr();
            let (mut outl, mut finl): (c_int, c_int) = (0, 0);
            // SAFETY: `ctx` is a live context and `cipher` a fetched one
            // whose key is 32 bytes and IV at most `iv.len()` (checked);
            // the update reads and writes `data.len()` bytes at `p` in
            // place; without padding the final call writes nothing.
            unsafe {
                assert!(ffi::EVP_CIPHER_get_iv_length(cipher) as usize <= iv.len());
                // The GOST provider cannot re-initialise a context it has
                // finished ("no cipher set" after a second init): reset
                // it first.
                assert_eq!(EVP_CIPHER_CTX_reset(ctx), 1);
                assert_eq!(
                    ffi::EVP_CipherInit_ex(
                        ctx,
                        cipher,
                        ptr::null_mut(),
                        key.as_ptr(),
                        iv.as_ptr(),
                        1
                    ),
                    1
                );
                assert_eq!(ffi::EVP_CIPHER_CTX_set_padding(ctx, 0), 1);
                assert_eq!(
                    ffi::EVP_CipherUpdate(ctx, p, &mut outl, p, data.len() as c_int),
                    1
                );
                assert_eq!(
                    ffi::EVP_CipherFinal(ctx, p.add(outl as usize), &mut finl),
                    1
                );
            }
            assert_eq!((outl as usize, finl), (data.len(), 0), "EVP wrote it all");
        });
    }
}

/// libgcrypt's block ciphers (`gcry_cipher_*`), declared here by hand
/// from Debian's `gcrypt.h` 1.10 (`apt-get install libgcrypt20-dev`) and
/// linked by `build.rs`; initialised once as the library requires
/// (`gcry_check_version`, secure memory off, initialisation finished).
pub mod libgcrypt {
    use std::ffi::{CStr, c_char, c_int, c_uint, c_void};
    use std::ptr;
    use std::sync::OnceLock;

    /// `gcry_cipher_hd_t`.
    type Handle = *mut c_void;
    /// `gcry_error_t`: 0 is success.
    type Error = c_uint;

    /// `GCRYCTL_DISABLE_SECMEM`.
    const DISABLE_SECMEM: c_int = 37;
    /// `GCRYCTL_INITIALIZATION_FINISHED`.
    const INITIALIZATION_FINISHED: c_int = 38;

    unsafe extern "C" {
        fn gcry_check_version(req_version: *const c_char) -> *const c_char;
        fn gcry_control(cmd: c_int, ...) -> Error;
        fn gcry_cipher_open(handle: *mut Handle, algo: c_int, mode: c_int, flags: c_uint) -> Error;
        fn gcry_cipher_close(h: Handle);
        fn gcry_cipher_get_algo_keylen(algo: c_int) -> usize;
        fn gcry_cipher_setkey(h: Handle, key: *const c_void, keylen: usize) -> Error;
        fn gcry_cipher_setiv(h: Handle, iv: *const c_void, ivlen: usize) -> Error;
        fn gcry_cipher_setctr(h: Handle, ctr: *const c_void, ctrlen: usize) -> Error;
        fn gcry_cipher_encrypt(
            h: Handle,
            out: *mut c_void,
            outsize: usize,
            input: *const c_void,
            inlen: usize,
        ) -> Error;
        fn gcry_cipher_decrypt(
            h: Handle,
            out: *mut c_void,
            outsize: usize,
            input: *const c_void,
            inlen: usize,
        ) -> Error;
    }

    /// The library's version, after initialising it once.
    pub fn version() -> &'static str {
        static VERSION: OnceLock<&'static str> = OnceLock::new();
        VERSION.get_or_init(|| {
            // SAFETY: `gcry_check_version` with a NUL-terminated minimum
            // version initialises the library and returns its static
            // version string, or null when older (checked); the two
            // controls take one int argument each, as gcrypt.h documents,
            // and are made once, before any other call.
            unsafe {
                let v = gcry_check_version(c"1.8.0".as_ptr());
                assert!(!v.is_null(), "libgcrypt older than 1.8");
                assert_eq!(gcry_control(DISABLE_SECMEM, 0 as c_int), 0);
                assert_eq!(gcry_control(INITIALIZATION_FINISHED, 0 as c_int), 0);
                CStr::from_ptr(v).to_str().expect("an ASCII version")
            }
        })
    }

    /// `GCRY_CIPHER_*`: the algorithms benched.
    #[derive(Clone, Copy, Debug)]
    pub enum Algo {
        /// `GCRY_CIPHER_CAMELLIA128`.
        Camellia128 = 310,
        /// `GCRY_CIPHER_CAMELLIA256`.
        Camellia256 = 312,
    }

    /// `GCRY_CIPHER_MODE_*`.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Mode {
        /// `GCRY_CIPHER_MODE_ECB`.
        Ecb = 1,
        /// `GCRY_CIPHER_MODE_CFB` (CFB-128).
        Cfb = 2,
        /// `GCRY_CIPHER_MODE_CBC`.
        Cbc = 3,
        /// `GCRY_CIPHER_MODE_CTR`: the whole block a big-endian counter.
        Ctr = 6,
    }

    /// A handle of `algo` in `mode` keyed once (`gcry_cipher_open`,
    /// `gcry_cipher_setkey`): each message sets only its IV
    /// (`gcry_cipher_setiv`, or `gcry_cipher_setctr` in CTR; nothing in
    /// ECB), then one `gcry_cipher_encrypt` or `gcry_cipher_decrypt` from
    /// the input into the output.
    pub struct KeyedCipher {
        h: Handle,
        mode: Mode,
    }

    impl KeyedCipher {
        /// `algo` in `mode` under `key` (of the algorithm's key length).
        pub fn new(algo: Algo, mode: Mode, key: &[u8]) -> Self {
            version();
            let mut h = ptr::null_mut();
            // SAFETY: the library is initialised (`version`); open writes
            // a handle (checked by its status); the key's length is
            // checked against the algorithm's before setkey reads it.
            unsafe {
                assert_eq!(gcry_cipher_open(&mut h, algo as c_int, mode as c_int, 0), 0);
                assert_eq!(gcry_cipher_get_algo_keylen(algo as c_int), key.len());
                assert_eq!(gcry_cipher_setkey(h, key.as_ptr().cast(), key.len()), 0);
            }
            KeyedCipher { h, mode }
        }

        /// One message from `iv` (16 bytes; empty in ECB), `input` into
        /// `output` (as long; whole blocks in ECB and CBC), encrypting or
        /// (`encrypt` false) decrypting.
        pub fn run(&mut self, iv: &[u8], encrypt: bool, input: &[u8], output: &mut [u8]) {
            assert_eq!(input.len(), output.len(), "equal lengths");
            assert_eq!(iv.len(), if self.mode == Mode::Ecb { 0 } else { 16 });
            let crypt = if encrypt {
                gcry_cipher_encrypt
            } else {
                gcry_cipher_decrypt
            };
            // SAFETY: `h` is a keyed handle; setiv and setctr read the 16
            // bytes of `iv` (checked); the operation reads `input.len()`
            // bytes and writes as many into `output`, apart, whose size
            // it is told.
            unsafe {
                match self.mode {
                    Mode::Ecb => {}
                    Mode::Ctr => assert_eq!(gcry_cipher_setctr(self.h, iv.as_ptr().cast(), 16), 0),
                    Mode::Cbc | Mode::Cfb => {
                        assert_eq!(gcry_cipher_setiv(self.h, iv.as_ptr().cast(), 16), 0)
                    }
                }
                assert_eq!(
                    crypt(
                        self.h,
                        output.as_mut_ptr().cast(),
                        output.len(),
                        input.as_ptr().cast(),
                        input.len()
                    ),
                    0
                );
            }
        }
    }

    impl Drop for KeyedCipher {
        fn drop(&mut self) {
            // SAFETY: the handle came from gcry_cipher_open and is closed
            // once.
            unsafe { gcry_cipher_close(self.h) };
        }
    }
}

/// ring's AEAD API (its ChaCha20 and Poly1305 are not public on their own)
/// and its digests.
pub mod ring {
    use ring::aead::{Aad, CHACHA20_POLY1305, LessSafeKey, Nonce, UnboundKey};
    use ring::digest;

    /// SHA-1 (`SHA1_FOR_LEGACY_USE_ONLY`).
    pub fn sha1(msg: &[u8]) -> Vec<u8> {
        digest::digest(&digest::SHA1_FOR_LEGACY_USE_ONLY, msg)
            .as_ref()
            .to_vec()
    }

    /// SHA-256.
    pub fn sha256(msg: &[u8]) -> Vec<u8> {
        digest::digest(&digest::SHA256, msg).as_ref().to_vec()
    }

    /// SHA-512.
    pub fn sha512(msg: &[u8]) -> Vec<u8> {
        digest::digest(&digest::SHA512, msg).as_ref().to_vec()
    }

    /// ChaCha20-Poly1305 seal in place; the tag.
    pub fn chacha20poly1305_seal(
        key: &[u8; 32],
        nonce: &[u8; 12],
        aad: &[u8],
        data: &mut [u8],
    ) -> [u8; 16] {
        let key =
            LessSafeKey::new(UnboundKey::new(&CHACHA20_POLY1305, key).expect("a 32-byte key"));
        let tag = key
            .seal_in_place_separate_tag(Nonce::assume_unique_for_key(*nonce), Aad::from(aad), data)
            .expect("a message within the AEAD's limits");
        let mut out = [0u8; 16];
        out.copy_from_slice(tag.as_ref());
        out
    }

    /// ChaCha20-Poly1305 from `input` into `sealed` (ciphertext ‖ tag).
    /// ring seals only in place, so the input is copied to the output
    /// first, as its callers must.
    pub fn chacha20poly1305_seal_into(
        key: &[u8; 32],
        nonce: &[u8; 12],
        aad: &[u8],
        input: &[u8],
        sealed: &mut [u8],
    ) {
        let (ct, tag) = sealed.split_at_mut(input.len());
        ct.copy_from_slice(input);
        tag.copy_from_slice(&chacha20poly1305_seal(key, nonce, aad, ct));
    }
}
