//! Hash functions: MD5 (RFC 1321), SHA-1, SHA-224, SHA-256, SHA-384,
//! SHA-512 and SHA-512/256 (FIPS 180-4), each family a ladder of rungs.
//!
//! **MD5 and SHA-1 are broken** for collision resistance (practical
//! collisions exist for both, chosen-prefix ones too: MD5 since 2007, SHA-1
//! since 2020): they are here for
//! compatibility and checksums, never for signatures or anything an
//! adversary may choose the input of. HMAC-SHA-1 and HMAC-MD5 are not
//! affected in the same way, but new designs should not use them either.
//!
//! | family | types | rungs |
//! |---|---|---|
//! | [`md5`] | [`Md5`] | see [`md5::Rung`] |
//! | [`sha1`] | [`Sha1`] | see [`sha1::Rung`] |
//! | [`sha256`] | [`Sha224`], [`Sha256`] | see [`sha256::Rung`] |
//! | [`sha512`] | [`Sha384`], [`Sha512`], [`Sha512_256`] | see [`sha512::Rung`] |
//! | [`many`] | [`sha256_many`], [`md5_many`]: many messages at once, one per SIMD lane | see [`many::Rung`] |
//!
//! ```
//! use simdcrypt::hash::{Sha256, sha256};
//!
//! let mut h = Sha256::new();
//! h.update(b"ab");
//! h.update(b"c");
//! let digest = h.finalize();
//! assert_eq!(digest, Sha256::digest(b"abc"));
//! // The same on the specification's own rung.
//! let reference = Sha256::new().with_rung(sha256::Rung::Reference)?;
//! assert_eq!(digest, { let mut r = reference; r.update(b"abc"); r.finalize() });
//! // Every hasher is an `io::Write`: hash a reader with `io::copy`.
//! let mut h = Sha256::new();
//! std::io::copy(&mut &b"abc"[..], &mut h).unwrap();
//! assert_eq!(h.finalize(), digest);
//! # Ok::<(), simdcrypt::Error>(())
//! ```

// The checks of the kit (`simdcrypt::kit`), beside the entry in the table.
#[cfg(feature = "kit")]
pub(crate) mod checks;
pub mod many;
mod md;
pub mod md5;
#[cfg(feature = "rustcrypto")]
mod rustcrypto;
pub mod sha1;
pub mod sha256;
mod sha2_reference;
pub mod sha512;

pub use many::{md5_many, sha256_many};

use std::fmt;
use std::sync::OnceLock;

use crate::Error;
use md::Engine;

/// What [`crate::hmac`] and [`crate::kdf`] need of a hash function; every
/// hash type of this module implements it, and only those.
pub trait Hash: Clone + Default + fmt::Debug + sealed::Sealed {
    /// The function's name as its specification writes it, e.g. `SHA-256`.
    const NAME: &'static str;
    /// Block length in bytes: what the compression function reads at once,
    /// and HMAC's key block (RFC 2104 §2).
    const BLOCK_LEN: usize;
    /// Digest length in bytes.
    const OUTPUT_LEN: usize;
    /// The digest, `[u8; OUTPUT_LEN]`.
    type Digest: AsRef<[u8]> + AsMut<[u8]> + Copy + Eq + fmt::Debug;

    /// An empty message, on the fastest rung.
    fn new() -> Self {
        Self::default()
    }
    /// Absorbs `data`; any split of the calls gives the same digest.
    fn update(&mut self, data: &[u8]);
    /// The digest of everything absorbed.
    fn finalize(self) -> Self::Digest;
    /// The digest of everything absorbed; the hash starts over.
    fn finalize_reset(&mut self) -> Self::Digest;
    /// Starts over with an empty message, on the same rung.
    fn reset(&mut self);
    /// The digest of `data`.
    fn digest(data: &[u8]) -> Self::Digest {
        let mut h = Self::new();
        h.update(data);
        h.finalize()
    }
}

pub(crate) mod sealed {
    use super::Hash;

    /// What [`crate::hmac`] needs of a hash beyond [`Hash`], out of the
    /// public API: a MAC keyed once reuses its keyed states without
    /// copying whole hashers.
    pub trait Sealed {
        /// Absorbs `blocks` (a whole number of blocks, on a hash that holds
        /// no partial one) and compresses them now: HMAC's keyed states.
        fn absorb_blocks(&mut self, blocks: &[u8]);
        /// The digest of everything absorbed (whole blocks, as HMAC's key
        /// block) followed by `data`; `self` is unchanged.
        fn digest_after(&self, data: &[u8]) -> <Self as Hash>::Digest
        where
            Self: Hash;
        /// The digest of everything absorbed; then starts over from where
        /// `start` (whole blocks absorbed, on the same rung) is.
        fn finalize_restart(&mut self, start: &Self) -> <Self as Hash>::Digest
        where
            Self: Hash;
    }
}

/// Declares a public hash type over a family's [`md::Engine`], with its
/// inherent API and its [`Hash`] implementation.
macro_rules! hasher {
    (
        $(#[$meta:meta])*
        pub struct $Name:ident: $family:ident, block $block:literal, output $out:literal,
            iv $iv:expr, name $display:literal;
    ) => {
        $(#[$meta])*
        #[derive(Clone)]
        pub struct $Name(Engine<$family::State, $block>);

        impl $Name {
            /// Digest length in bytes.
            pub const OUTPUT_LEN: usize = $out;
            /// Block length in bytes.
            pub const BLOCK_LEN: usize = $block;

            /// An empty message, on the fastest rung.
            pub fn new() -> Self {
                $Name(Engine::with_rung($iv, Self::best()))
            }

            /// The fastest rung, chosen once.
            fn best() -> $family::Rung {
                static BEST: OnceLock<$family::Rung> = OnceLock::new();
                *BEST.get_or_init($family::Rung::best)
            }

            /// The same hash on the rung `imp`; data already absorbed
            /// carries over.
            ///
            /// # Errors
            ///
            /// [`Error::RungUnavailable`] when the CPU lacks the rung.
            pub fn with_rung(mut self, imp: $family::Rung) -> Result<Self, Error> {
                self.0.set_impl(imp.require()?);
                Ok(self)
            }

            /// Renamed [`with_rung`](Self::with_rung).
            #[deprecated(note = "renamed `with_rung`")]
            pub fn with_impl(self, imp: $family::Rung) -> Result<Self, Error> {
                self.with_rung(imp)
            }

            /// The rung in use.
            pub fn rung(&self) -> $family::Rung {
                self.0.rung()
            }

            /// Renamed [`rung`](Self::rung).
            #[deprecated(note = "renamed `rung`")]
            pub fn implementation(&self) -> $family::Rung {
                self.rung()
            }

            /// Absorbs `data`; any split of the calls gives the same digest.
            #[inline]
            pub fn update(&mut self, data: &[u8]) {
                self.0.update(data);
            }

            /// The digest of everything absorbed.
            #[inline]
            pub fn finalize(mut self) -> [u8; $out] {
                let mut out = [0u8; $out];
                self.0.finalize_into(&mut out);
                out
            }

            /// The digest of everything absorbed; the hash starts over.
            pub fn finalize_reset(&mut self) -> [u8; $out] {
                let mut out = [0u8; $out];
                self.0.finalize_into(&mut out);
                self.0.reset();
                out
            }

            /// Starts over with an empty message, on the same rung.
            pub fn reset(&mut self) {
                self.0.reset();
            }

            /// The digest of `data`, on the fastest rung: whole blocks
            /// straight from `data`, the last with the padding in one call.
            pub fn digest(data: &[u8]) -> [u8; $out] {
                let mut out = [0u8; $out];
                md::digest_from($iv, Self::best(), 0, data, &mut out);
                out
            }
        }

        impl Default for $Name {
            fn default() -> Self {
                Self::new()
            }
        }

        /// Absorbs what is written, so that `io::copy(&mut file, &mut
        /// hasher)` hashes a file; writing never fails.
        impl std::io::Write for $Name {
            fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
                self.update(data);
                Ok(data.len())
            }

            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }

        impl fmt::Debug for $Name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_struct(stringify!($Name))
                    .field("impl", &self.rung())
                    .finish_non_exhaustive()
            }
        }

        impl sealed::Sealed for $Name {
            fn absorb_blocks(&mut self, blocks: &[u8]) {
                self.0.absorb_blocks(blocks);
            }
            fn digest_after(&self, data: &[u8]) -> [u8; $out] {
                let mut out = [0u8; $out];
                self.0.digest_after(data, &mut out);
                out
            }
            fn finalize_restart(&mut self, start: &Self) -> [u8; $out] {
                let mut out = [0u8; $out];
                self.0.finalize_restart(&start.0, &mut out);
                out
            }
        }

        impl Hash for $Name {
            const NAME: &'static str = $display;
            const BLOCK_LEN: usize = $block;
            const OUTPUT_LEN: usize = $out;
            type Digest = [u8; $out];

            fn update(&mut self, data: &[u8]) {
                $Name::update(self, data);
            }
            fn finalize(self) -> [u8; $out] {
                $Name::finalize(self)
            }
            fn finalize_reset(&mut self) -> [u8; $out] {
                $Name::finalize_reset(self)
            }
            fn reset(&mut self) {
                $Name::reset(self);
            }
            fn digest(data: &[u8]) -> [u8; $out] {
                $Name::digest(data)
            }
        }
    };
}

hasher! {
    /// MD5 (RFC 1321). **Broken** for collision resistance: for
    /// compatibility and checksums only (see the [module docs](self)).
    ///
    /// ```
    /// use simdcrypt::hash::Md5;
    ///
    /// let digest = Md5::digest(b"abc");
    /// let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    /// assert_eq!(hex, "900150983cd24fb0d6963f7d28e17f72");
    /// ```
    pub struct Md5: md5, block 64, output 16, iv md5::IV, name "MD5";
}

hasher! {
    /// SHA-1 (FIPS 180-4 §6.1). **Broken for collision resistance**
    /// (SHAttered, 2017; chosen-prefix collisions, 2020): for compatibility
    /// and checksums only.
    ///
    /// ```
    /// use simdcrypt::hash::Sha1;
    ///
    /// let digest = Sha1::digest(b"abc");
    /// let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    /// assert_eq!(hex, "a9993e364706816aba3e25717850c26c9cd0d89d");
    /// ```
    pub struct Sha1: sha1, block 64, output 20, iv sha1::H0, name "SHA-1";
}

hasher! {
    /// SHA-224 (FIPS 180-4 §6.3): SHA-256's compression from another
    /// initial value, the digest cut to 28 bytes.
    ///
    /// ```
    /// use simdcrypt::hash::Sha224;
    ///
    /// let digest = Sha224::digest(b"abc");
    /// let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    /// assert_eq!(hex, "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7");
    /// ```
    pub struct Sha224: sha256, block 64, output 28, iv sha256::H224, name "SHA-224";
}

hasher! {
    /// SHA-256 (FIPS 180-4 §6.2).
    ///
    /// ```
    /// use std::io;
    ///
    /// use simdcrypt::hash::Sha256;
    ///
    /// let digest = Sha256::digest(b"abc");
    /// let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    /// assert_eq!(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    ///
    /// // In pieces, or from any reader (a file, a socket) through io::Write.
    /// let mut h = Sha256::new();
    /// h.update(b"a");
    /// h.update(b"bc");
    /// assert_eq!(h.finalize(), digest);
    /// let mut h = Sha256::new();
    /// io::copy(&mut &b"abc"[..], &mut h)?;
    /// assert_eq!(h.finalize(), digest);
    /// # Ok::<(), io::Error>(())
    /// ```
    pub struct Sha256: sha256, block 64, output 32, iv sha256::H256, name "SHA-256";
}

hasher! {
    /// SHA-384 (FIPS 180-4 §6.5): SHA-512's compression from another
    /// initial value, the digest cut to 48 bytes.
    ///
    /// ```
    /// use simdcrypt::hash::Sha384;
    ///
    /// let digest = Sha384::digest(b"abc");
    /// let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    /// assert_eq!(hex, concat!(
    ///     "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded163",
    ///     "1a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7",
    /// ));
    /// ```
    pub struct Sha384: sha512, block 128, output 48, iv sha512::H384, name "SHA-384";
}

hasher! {
    /// SHA-512 (FIPS 180-4 §6.4).
    ///
    /// ```
    /// use simdcrypt::hash::Sha512;
    ///
    /// let mut h = Sha512::new();
    /// h.update(b"ab");
    /// h.update(b"c");
    /// let digest = h.finalize_reset(); // and start over, on the same rung
    /// let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    /// assert_eq!(hex, concat!(
    ///     "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a",
    ///     "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
    /// ));
    /// h.update(b"abc");
    /// assert_eq!(h.finalize(), digest);
    /// ```
    pub struct Sha512: sha512, block 128, output 64, iv sha512::H512, name "SHA-512";
}

hasher! {
    /// SHA-512/256 (FIPS 180-4 §6.7): SHA-512's compression from the
    /// SHA-512/t initial value for t = 256, the digest cut to 32 bytes.
    ///
    /// ```
    /// use simdcrypt::hash::Sha512_256;
    ///
    /// let digest = Sha512_256::digest(b"abc");
    /// let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    /// assert_eq!(hex, "53048e2681941ef99b2e29b76b4c7dabe4c2d0c634fc6d46e0e2f13107e7af23");
    /// ```
    pub struct Sha512_256: sha512, block 128, output 32, iv sha512::H512_256, name "SHA-512/256";
}
