//! The `digest` 0.11 traits for the hash types (feature `rustcrypto`):
//! [`HashMarker`], [`OutputSizeUser`], [`BlockSizeUser`], [`Update`],
//! [`FixedOutput`], [`Reset`] and [`FixedOutputReset`], so that every type
//! is a [`digest::Digest`] and code generic over it (RustCrypto's `hmac`,
//! `hkdf`, `pbkdf2` …) runs on simdcrypt's rungs.
//!
//! ```
//! use digest::Digest;
//! use simdcrypt::hash::Sha256;
//!
//! let via_trait = <Sha256 as Digest>::digest(b"abc");
//! assert_eq!(via_trait[..], Sha256::digest(b"abc"));
//! ```

use digest::consts::{U16, U20, U28, U32, U48, U64, U128};
use digest::{
    FixedOutput, FixedOutputReset, HashMarker, Output, OutputSizeUser, Reset, Update,
    common::BlockSizeUser,
};

use super::{Md5, Sha1, Sha224, Sha256, Sha384, Sha512, Sha512_256};

/// Implements the traits for `$Hash`, whose block is `$Block` and digest
/// `$Output` bytes (as `typenum` sizes), on its inherent methods.
macro_rules! digest_traits {
    ($($Hash:ty: block $Block:ty, output $Output:ty;)+) => {$(
        #[cfg_attr(docsrs, doc(cfg(feature = "rustcrypto")))]
        impl HashMarker for $Hash {}

        #[cfg_attr(docsrs, doc(cfg(feature = "rustcrypto")))]
        impl OutputSizeUser for $Hash {
            type OutputSize = $Output;
        }

        #[cfg_attr(docsrs, doc(cfg(feature = "rustcrypto")))]
        impl BlockSizeUser for $Hash {
            type BlockSize = $Block;
        }

        #[cfg_attr(docsrs, doc(cfg(feature = "rustcrypto")))]
        impl Update for $Hash {
            fn update(&mut self, data: &[u8]) {
                <$Hash>::update(self, data);
            }
        }

        #[cfg_attr(docsrs, doc(cfg(feature = "rustcrypto")))]
        impl FixedOutput for $Hash {
            fn finalize_into(self, out: &mut Output<Self>) {
                out.copy_from_slice(&<$Hash>::finalize(self));
            }
        }

        #[cfg_attr(docsrs, doc(cfg(feature = "rustcrypto")))]
        impl Reset for $Hash {
            fn reset(&mut self) {
                <$Hash>::reset(self);
            }
        }

        #[cfg_attr(docsrs, doc(cfg(feature = "rustcrypto")))]
        impl FixedOutputReset for $Hash {
            fn finalize_into_reset(&mut self, out: &mut Output<Self>) {
                out.copy_from_slice(&<$Hash>::finalize_reset(self));
            }
        }
    )+};
}

digest_traits! {
    Md5: block U64, output U16;
    Sha1: block U64, output U20;
    Sha224: block U64, output U28;
    Sha256: block U64, output U32;
    Sha384: block U128, output U48;
    Sha512: block U128, output U64;
    Sha512_256: block U128, output U32;
}
