//! Authenticated encryption with associated data built on ChaCha20, XSalsa20
//! and Poly1305, and on AES with GHASH or POLYVAL:
//!
//! | type | construction | nonce | sealed form |
//! |---|---|---|---|
//! | [`ChaCha20Poly1305`] | RFC 8439 §2.8 | 96 bits | ciphertext ‖ tag |
//! | [`XChaCha20Poly1305`] | draft-irtf-cfrg-xchacha-03 §2.3: RFC 8439 §2.8 keyed by HChaCha20 | 192 bits | ciphertext ‖ tag |
//! | [`XSalsa20Poly1305`] | NaCl's `crypto_secretbox` (libsodium's `crypto_secretbox_easy`) | 192 bits | tag ‖ ciphertext |
//! | [`Aes128Gcm`], [`Aes192Gcm`], [`Aes256Gcm`] | NIST SP 800-38D | 96 bits (any non-zero length through `_with_iv`) | ciphertext ‖ tag |
//! | [`Aes128GcmSiv`], [`Aes256GcmSiv`] | RFC 8452 | 96 bits | ciphertext ‖ tag |
//!
//! Each comes in three forms: combined into a buffer of the caller's
//! (`encrypt_into`/`decrypt_into`: the plaintext read, the sealed form
//! written, or back, in one pass), combined and allocating
//! (`encrypt`/`decrypt`, which call the first), and detached in place
//! (`encrypt_in_place_detached`/`decrypt_in_place_detached`). The methods
//! of [`ChaCha20Poly1305`] and [`XChaCha20Poly1305`] take associated data
//! (`aad`, which may be empty) after the nonce; those of
//! [`XSalsa20Poly1305`] take none, since `crypto_secretbox` authenticates
//! none. Tags are compared in constant time; a decryption that fails
//! zeroes the caller's output buffer and says only
//! [`Error::AuthenticationFailed`], so no unauthenticated plaintext is ever
//! released.
//!
//! ```
//! use simdcrypt::aead::{ChaCha20Poly1305, TAG_LEN};
//!
//! let aead = ChaCha20Poly1305::new(&[0x42; 32]);
//! let nonce = [7; 12];
//! let sealed = aead.encrypt(&nonce, b"header", b"a secret worth keeping");
//! assert_eq!(aead.decrypt(&nonce, b"header", &sealed)?, b"a secret worth keeping");
//! assert!(aead.decrypt(&nonce, b"other header", &sealed).is_err());
//!
//! // The same into buffers of one's own: the sealed form is 16 bytes longer.
//! let mut record = [0u8; 22 + TAG_LEN];
//! aead.encrypt_into(&nonce, b"header", b"a secret worth keeping", &mut record)?;
//! assert_eq!(record[..], sealed[..]);
//! let mut plaintext = [0u8; 22];
//! aead.decrypt_into(&nonce, b"header", &record, &mut plaintext)?;
//! assert_eq!(&plaintext, b"a secret worth keeping");
//! # Ok::<(), simdcrypt::Error>(())
//! ```
//!
//! # Short and long messages
//!
//! Up to 448 bytes, the keystream that holds the one-time Poly1305 key and
//! the message's keystream come from one call of at most 8 blocks, which
//! the vertical ChaCha20 and Salsa20 rungs compute side by side, into a
//! buffer of the AEAD's own; the message is then XORed with it from its
//! input into its output, on decryption only once the tag has matched.
//!
//! Longer messages are encrypted, then MACed (on decryption, MACed, then
//! decrypted) in chunks of up to 256 KiB, each read from the input and
//! written to the output in one pass, each MACed while it is still in
//! L2 (measured against smaller chunks and whole messages at
//! `ONE_PASS_CHUNK`). A cipher whose 8-block AVX2 batch can run Poly1305
//! on the integer units after each double round may instead take whole
//! 512-byte batches through the stitched kernel (`avx2_stitched`), where it
//! is measured faster; the message's first bytes up to a keystream block
//! boundary and its last partial batch stay on the ordinary path.

// The checks of the kit (`simdcrypt::kit`), beside the entry in the table.
#[cfg(target_arch = "x86_64")]
pub(crate) mod avx2_stitched;
#[cfg(feature = "kit")]
pub(crate) mod checks;
mod gcm;
#[cfg(target_arch = "aarch64")]
pub(crate) mod gcm_armv8;
#[cfg(feature = "kit")]
pub(crate) mod gcm_checks;
mod gcm_siv;
pub(crate) mod gcm_vaes;
#[cfg(target_arch = "x86_64")]
pub(crate) mod gcm_vaes512;
mod ladder;
pub use gcm::{Aes128Gcm, Aes192Gcm, Aes256Gcm, AesGcm, GCM_A_MAX, GCM_P_MAX, GcmKernel};
pub use gcm_siv::{Aes128GcmSiv, Aes256GcmSiv, AesGcmSiv, GCM_SIV_P_MAX, SivKeySize};
pub(crate) use ladder::{GCM_LADDER, LADDER};

#[cfg(feature = "rustcrypto")]
mod rustcrypto;

use std::fmt;

use zeroize::Zeroize;

use crate::chacha20::ChaCha20;
use crate::poly1305::Poly1305;
use crate::salsa20::XSalsa20;
use crate::stream::apply;
use crate::xor::InOut;
use crate::{Error, KeyStream, Xor};

/// Key length of every AEAD here, in bytes.
pub const KEY_LEN: usize = 32;
/// Tag length of every AEAD here, in bytes.
pub const TAG_LEN: usize = 16;
/// Nonce length of ChaCha20-Poly1305 (RFC 8439), in bytes.
pub const NONCE_LEN: usize = 12;
/// Nonce length of XChaCha20-Poly1305 and XSalsa20-Poly1305, in bytes.
pub const XNONCE_LEN: usize = 24;
/// The longest plaintext RFC 8439 §2.8 allows, 2^38 − 64 bytes (just
/// under 256 GiB): ChaCha20's 32-bit counter runs out after it, block 0
/// having gone to the Poly1305 key.
pub const P_MAX: u64 = (1 << 38) - 64;

/// How much is encrypted and then MACed at a time on the non-stitched
/// path: a whole message up to 256 KiB goes through the cipher, then
/// through Poly1305 ("two-pass"); longer ones a 256 KiB chunk at a time, so
/// that the chunk is still in L2 when Poly1305 reads it: smaller chunks
/// lose to the calls per chunk, whole messages (from 8 MiB on) to L2
/// misses (see bench/NOTES.md, section aead-one-pass-chunk).
const ONE_PASS_CHUNK: usize = 256 << 10;

/// Messages up to this long take the short path: the keystream block that
/// holds the Poly1305 key and the message's keystream come from one call of
/// at most 8 blocks, which the vertical rungs compute side by side instead
/// of one block after another.
const SHORT_MAX: usize = 7 * 64;

/// A stream cipher the AEADs encrypt with, and its stitched kernel where
/// it has one.
trait Stitch: KeyStream {
    /// Encrypts (`open` false) or decrypts (`open` true) a first part of
    /// `data` and MACs its ciphertext into `mac` (which has absorbed what
    /// comes before it) in one loop, on a stitched kernel where this cipher
    /// has one that is measured faster and the CPU runs it; returns how
    /// many bytes were done, the rest being left to the caller. None by
    /// default.
    fn stitch(&mut self, mac: &mut Poly1305, data: InOut<'_>, open: bool) -> Result<usize, Error> {
        let _ = (mac, data, open);
        Ok(0)
    }
}

impl Stitch for ChaCha20 {
    /// The stitched kernel, where the cipher runs on the `avx2` rung: faster
    /// there than the ordinary path at every size it takes (whole 512-byte
    /// batches), slower than the ordinary path on the AVX-512 rungs (see
    /// bench/NOTES.md, section aead-stitched).
    #[cfg(target_arch = "x86_64")]
    fn stitch(&mut self, mac: &mut Poly1305, data: InOut<'_>, open: bool) -> Result<usize, Error> {
        if self.rung() != crate::chacha20::Rung::Avx2 {
            return Ok(0);
        }
        avx2_stitched::run(self, mac, data, open)
    }
}

/// XSalsa20 stays off the stitched kernel: with Salsa20's 8-block batch it
/// lost at every size (see bench/NOTES.md, section aead-stitched).
impl Stitch for XSalsa20 {}

/// What an AEAD's Poly1305 sees around the ciphertext.
#[derive(Clone, Copy)]
enum Layout {
    /// RFC 8439 §2.8: `pad16(aad)`, the ciphertext, `pad16`, then the
    /// lengths of the associated data and the ciphertext as 64-bit
    /// little-endian numbers. The message starts at keystream byte 64:
    /// block 0 gave the one-time key (§2.6).
    Rfc8439,
    /// NaCl's `crypto_secretbox`: the ciphertext alone. The message starts
    /// at keystream byte 32, right after the one-time key.
    Secretbox,
}

impl Layout {
    /// The keystream bytes before the message; the first 32 are the
    /// Poly1305 key.
    fn message_start(self) -> usize {
        match self {
            Layout::Rfc8439 => 64,
            Layout::Secretbox => 32,
        }
    }

    /// Feeds what comes before the ciphertext.
    fn before(self, mac: &mut Poly1305, aad: &[u8]) {
        if let Layout::Rfc8439 = self {
            mac.update_padded(aad);
        }
    }

    /// Feeds what comes after the ciphertext.
    fn after(self, mac: &mut Poly1305, aad_len: usize, ct_len: usize) {
        if let Layout::Rfc8439 = self {
            mac.update_padded(&[]);
            let mut lengths = [0u8; 16];
            lengths[..8].copy_from_slice(&(aad_len as u64).to_le_bytes());
            lengths[8..].copy_from_slice(&(ct_len as u64).to_le_bytes());
            mac.update(&lengths);
        }
    }

    /// Feeds a whole ciphertext with what comes around it.
    fn mac(self, mac: &mut Poly1305, aad: &[u8], ct: &[u8]) {
        self.before(mac, aad);
        mac.update(ct);
        self.after(mac, aad.len(), ct.len());
    }
}

/// The short path's keystream: `buf` gets the keystream bytes before the
/// message (the Poly1305 key first), then the message's keystream, from
/// one call; returns the end of the message's keystream in `buf`.
fn short_keystream(
    cipher: &mut impl KeyStream,
    layout: Layout,
    len: usize,
    buf: &mut [u8; 64 + SHORT_MAX],
) -> Result<usize, Error> {
    let end = layout.message_start() + len;
    let keystream = &mut buf[..end];
    keystream.fill(0);
    cipher.apply_keystream(keystream)?;
    Ok(end)
}


/// The one-time Poly1305 key: the first 32 bytes of `keystream`. (The MAC
/// is built where it is used: it is several hundred bytes, too many to
/// move around.)
fn poly1305_key(keystream: &[u8]) -> &[u8; 32] {
    keystream[..32].try_into().expect("32 bytes")
}

/// The keystream bytes before the message, the Poly1305 key first; leaves
/// `cipher` at the start of the message. Zeroize after use.
fn key_block(cipher: &mut impl KeyStream, layout: Layout) -> Result<[u8; 64], Error> {
    let mut block = [0u8; 64];
    cipher.apply_keystream(&mut block[..layout.message_start()])?;
    Ok(block)
}

/// Encrypts `data` (in place, or from its input into its output) with
/// `cipher` (keyed, at byte 0) and returns the tag of `layout` over `aad`
/// and the ciphertext. Long messages are encrypted and MACed a chunk at a
/// time, in one pass over memory.
fn seal(
    mut cipher: impl Stitch,
    layout: Layout,
    aad: &[u8],
    mut data: InOut<'_>,
) -> Result<[u8; TAG_LEN], Error> {
    let len = data.len();
    if len <= SHORT_MAX {
        let mut buf = [0u8; 64 + SHORT_MAX];
        let end = short_keystream(&mut cipher, layout, len, &mut buf)?;
        let mut mac = Poly1305::new(poly1305_key(&buf));
        Xor::Simd128.apply(data.reborrow(), &buf[layout.message_start()..end]);
        crate::ct::wipe(&mut buf[..end]);
        layout.mac(&mut mac, aad, data.into_output());
        return Ok(mac.finalize());
    }
    let mut block = key_block(&mut cipher, layout)?;
    let mut mac = Poly1305::new(poly1305_key(&block));
    block.zeroize();
    layout.before(&mut mac, aad);
    let done = cipher.stitch(&mut mac, data.reborrow(), false)?;
    for chunk in data.split_at(done).1.chunks(ONE_PASS_CHUNK) {
        mac.update(apply(&mut cipher, chunk)?);
    }
    layout.after(&mut mac, aad.len(), len);
    Ok(mac.finalize())
}

/// Checks `tag` of `layout` over `aad` and the ciphertext in `data`, and
/// decrypts `data` (in place, or from its input into its output) with
/// `cipher` (keyed, at byte 0). Short messages are MACed, then decrypted
/// only once the tag has matched; long ones are MACed then decrypted a
/// chunk at a time, and the output zeroed whole when the tag does not
/// match (or anything else fails).
fn open(
    mut cipher: impl Stitch,
    layout: Layout,
    aad: &[u8],
    mut data: InOut<'_>,
    tag: &[u8; TAG_LEN],
) -> Result<(), Error> {
    let len = data.len();
    if len <= SHORT_MAX {
        let mut buf = [0u8; 64 + SHORT_MAX];
        let end = short_keystream(&mut cipher, layout, len, &mut buf)?;
        let mut mac = Poly1305::new(poly1305_key(&buf));
        layout.mac(&mut mac, aad, data.input());
        let verdict = mac.verify(tag);
        match verdict {
            Ok(()) => Xor::Simd128.apply(data, &buf[layout.message_start()..end]),
            Err(_) => data.into_output().zeroize(),
        }
        crate::ct::wipe(&mut buf[..end]);
        return verdict;
    }
    let mut opened = || {
        let mut block = key_block(&mut cipher, layout)?;
        let mut mac = Poly1305::new(poly1305_key(&block));
        block.zeroize();
        layout.before(&mut mac, aad);
        let done = cipher.stitch(&mut mac, data.reborrow(), true)?;
        for chunk in data.reborrow().split_at(done).1.chunks(ONE_PASS_CHUNK) {
            mac.update(chunk.input());
            apply(&mut cipher, chunk)?;
        }
        layout.after(&mut mac, aad.len(), len);
        mac.verify(tag)
    };
    let verdict = opened();
    if verdict.is_err() {
        data.into_output().zeroize();
    }
    verdict
}

/// The key every AEAD type holds, zeroized on drop.
#[derive(Clone)]
struct SecretKey([u8; KEY_LEN]);

impl Drop for SecretKey {
    fn drop(&mut self) {
        self.0.zeroize();
    }
}

/// The tag's and the ciphertext's places in `sealed`, which must be
/// `TAG_LEN` bytes longer than the `plaintext_len` bytes of plaintext: the
/// tag after the ciphertext, or before it when `tag_first`
/// ([`sealed_parts_of`] with a 16-byte tag).
///
/// # Errors
///
/// As [`sealed_parts_of`].
fn sealed_parts(
    sealed_len: usize,
    plaintext_len: usize,
    tag_first: bool,
) -> Result<(std::ops::Range<usize>, std::ops::Range<usize>), Error> {
    sealed_parts_of(TAG_LEN, sealed_len, plaintext_len, tag_first)
}

/// The tag's and the ciphertext's places in a sealed form of `sealed_len`
/// bytes holding `plaintext_len` bytes of ciphertext and a `tag_len`-byte
/// tag: after the ciphertext, or before it when `tag_first`.
///
/// # Errors
///
/// [`Error::SealedTooShort`] when `sealed` cannot hold a tag,
/// [`Error::SealedLength`] when it is not `plaintext_len + tag_len` long.
pub(crate) fn sealed_parts_of(
    tag_len: usize,
    sealed_len: usize,
    plaintext_len: usize,
    tag_first: bool,
) -> Result<(std::ops::Range<usize>, std::ops::Range<usize>), Error> {
    if sealed_len < tag_len {
        return Err(Error::SealedTooShort {
            len: sealed_len,
            tag_len,
        });
    }
    if sealed_len - tag_len != plaintext_len {
        return Err(Error::SealedLength {
            sealed: sealed_len,
            plaintext: plaintext_len,
            tag_len,
        });
    }
    Ok(if tag_first {
        (0..tag_len, tag_len..sealed_len)
    } else {
        (plaintext_len..sealed_len, 0..plaintext_len)
    })
}

/// The associated data a method declared by [`aead_methods!`] was given: its `aad`
/// argument, or none for a type whose methods have no such argument.
macro_rules! aad_or_none {
    () => {
        &[]
    };
    ($aad:ident) => {
        $aad
    };
}
pub(crate) use aad_or_none;

/// The public methods every AEAD type has — the combined forms into a
/// buffer and allocating, and the detached forms in place — over the
/// type's own `seal_inout` and `open_inout` and its `check` of the
/// arguments. `aad = [aad]` gives every method an `aad: &[u8]` argument
/// after the nonce; `aad = []` gives them none (`crypto_secretbox`), and
/// they pass empty associated data to the same private core, which keeps
/// its `aad` for the RustCrypto traits and the dynamic layer. `with_aad`
/// is what the documentation says of it.
macro_rules! aead_methods {
    (
        impl[$($g:tt)*] $t:ty;
        name = $name:expr,
        nonce = $nonce:ty,
        tag_first = $tag_first:literal,
        aad = [$($aad:ident)?],
        with_aad = $with_aad:literal,
        check = $check:path,
        refused = $refused:literal,
    ) => {
        impl<$($g)*> $t {
            /// Whether the sealed form puts the tag before the ciphertext.
            pub(crate) const TAG_FIRST: bool = $tag_first;

            #[doc = concat!("Seals `plaintext`", $with_aad, " under `nonce` into `sealed`,")]
            /// which must be [`TAG_LEN`] bytes longer: the ciphertext and
            /// the tag (see the type's documentation for their order), the
            /// ciphertext written as the plaintext is read, in one pass.
            ///
            /// # Errors
            ///
            /// [`Error::SealedLength`] (or [`Error::SealedTooShort`]) when
            /// `sealed.len() != plaintext.len() + TAG_LEN`;
            #[doc = concat!("an error also when ", $refused, ".")]
            /// Nothing is written then.
            pub fn encrypt_into(
                &self,
                nonce: &$nonce,
                $($aad: &[u8],)?
                plaintext: &[u8],
                sealed: &mut [u8],
            ) -> Result<(), Error> {
                let (tag_at, ct_at) = sealed_parts(sealed.len(), plaintext.len(), $tag_first)?;
                let (tag, ciphertext) = if $tag_first {
                    sealed.split_at_mut(ct_at.start)
                } else {
                    let (ct, tag) = sealed.split_at_mut(tag_at.start);
                    (tag, ct)
                };
                let data = InOut::apart(plaintext, ciphertext)?;
                tag.copy_from_slice(&self.seal_inout(nonce, $crate::aead::aad_or_none!($($aad)?), data)?);
                Ok(())
            }

            /// Opens `sealed` (as [`Self::encrypt_into`] and
            #[doc = concat!("[`Self::encrypt`] make it)", $with_aad, " under `nonce` into")]
            /// `plaintext`, which must be [`TAG_LEN`] bytes shorter; the
            /// plaintext is written as the ciphertext is read.
            ///
            /// # Errors
            ///
            /// [`Error::AuthenticationFailed`] when the tag does not match
            /// (and nothing else is said); [`Error::SealedTooShort`] when
            /// `sealed` cannot hold a tag, [`Error::SealedLength`] when
            /// `plaintext.len() + TAG_LEN != sealed.len()`;
            #[doc = concat!("an error also when ", $refused, ".")]
            /// On every error `plaintext` is all zeros: nothing that was not
            /// authenticated is released.
            pub fn decrypt_into(
                &self,
                nonce: &$nonce,
                $($aad: &[u8],)?
                sealed: &[u8],
                plaintext: &mut [u8],
            ) -> Result<(), Error> {
                let aad: &[u8] = $crate::aead::aad_or_none!($($aad)?);
                let checked = sealed_parts(sealed.len(), plaintext.len(), $tag_first)
                    .and_then(|parts| $check(aad, plaintext.len()).map(|()| parts));
                let (tag_at, ct_at) = match checked {
                    Ok(parts) => parts,
                    Err(e) => {
                        plaintext.zeroize();
                        return Err(e);
                    }
                };
                let tag: &[u8; TAG_LEN] = sealed[tag_at].try_into().expect("TAG_LEN bytes");
                let data = InOut::apart(&sealed[ct_at], plaintext)?;
                self.open_inout(nonce, aad, data, tag)
            }

            #[doc = concat!("Encrypts `data`", $with_aad, " under `nonce` in place and returns")]
            /// the tag.
            ///
            /// # Panics
            ///
            #[doc = concat!("When ", $refused, "; use")]
            /// [`Self::try_encrypt_in_place_detached`] to get an error
            /// instead.
            pub fn encrypt_in_place_detached(
                &self,
                nonce: &$nonce,
                $($aad: &[u8],)?
                data: &mut [u8],
            ) -> [u8; TAG_LEN] {
                match self.try_encrypt_in_place_detached(nonce, $($aad,)? data) {
                    Ok(tag) => tag,
                    Err(e) => panic!("{}: {e}", $name),
                }
            }

            /// As [`Self::encrypt_in_place_detached`], with an error where
            /// that panics.
            ///
            /// # Errors
            ///
            #[doc = concat!("When ", $refused, "; nothing is written then.")]
            pub fn try_encrypt_in_place_detached(
                &self,
                nonce: &$nonce,
                $($aad: &[u8],)?
                data: &mut [u8],
            ) -> Result<[u8; TAG_LEN], Error> {
                self.seal_inout(nonce, $crate::aead::aad_or_none!($($aad)?), InOut::in_place(data))
            }

            #[doc = concat!("Checks `tag` of the ciphertext in `data`", $with_aad, " under")]
            /// `nonce`, and decrypts `data` in place.
            ///
            /// # Errors
            ///
            /// [`Error::AuthenticationFailed`] when the tag does not match:
            /// `data` is then all zeros, and nothing else is said.
            #[doc = concat!("An error also when ", $refused, ".")]
            pub fn decrypt_in_place_detached(
                &self,
                nonce: &$nonce,
                $($aad: &[u8],)?
                data: &mut [u8],
                tag: &[u8; TAG_LEN],
            ) -> Result<(), Error> {
                self.open_inout(nonce, $crate::aead::aad_or_none!($($aad)?), InOut::in_place(data), tag)
            }

            #[doc = concat!("Seals `plaintext`", $with_aad, " under `nonce`: a new vector")]
            /// holding the ciphertext and the 16-byte tag (see the type's
            /// documentation for their order), made by
            /// [`Self::encrypt_into`].
            ///
            /// # Panics
            ///
            /// As [`Self::encrypt_in_place_detached`].
            pub fn encrypt(&self, nonce: &$nonce, $($aad: &[u8],)? plaintext: &[u8]) -> Vec<u8> {
                let mut sealed = vec![0u8; plaintext.len() + TAG_LEN];
                match self.encrypt_into(nonce, $($aad,)? plaintext, &mut sealed) {
                    Ok(()) => sealed,
                    Err(e) => panic!("{}: {e}", $name),
                }
            }

            #[doc = concat!("Opens `sealed` (as [`Self::encrypt`] makes it)", $with_aad)]
            /// under `nonce`: the plaintext, made by [`Self::decrypt_into`].
            ///
            /// # Errors
            ///
            /// [`Error::SealedTooShort`] when `sealed` cannot hold a tag,
            /// [`Error::AuthenticationFailed`] when the tag does not match
            /// (no plaintext is returned), and as [`Self::decrypt_into`].
            pub fn decrypt(
                &self,
                nonce: &$nonce,
                $($aad: &[u8],)?
                sealed: &[u8],
            ) -> Result<Vec<u8>, Error> {
                let Some(len) = sealed.len().checked_sub(TAG_LEN) else {
                    return Err(Error::SealedTooShort {
                        len: sealed.len(),
                        tag_len: TAG_LEN,
                    });
                };
                let mut plaintext = vec![0u8; len];
                self.decrypt_into(nonce, $($aad,)? sealed, &mut plaintext)?;
                Ok(plaintext)
            }
        }
    };
}

pub(crate) use aead_methods;

/// Declares a ChaCha20- or Salsa20-based AEAD type: its key, the detached
/// forms from `seal`/`open` with the type's own `check` of the arguments,
/// the public methods of [`aead_methods!`], and a `Debug` that shows no
/// key.
macro_rules! aead {
    (
        $(#[$meta:meta])*
        pub struct $t:ident;
        nonce = $nonce:ty,
        tag_first = $tag_first:literal,
        aad = [$($aad:ident)?],
        with_aad = $with_aad:literal,
        check = $check:path,
        refused = $refused:literal,
        cipher = |$key:ident, $n:ident| $cipher:expr,
        layout = $layout:expr,
    ) => {
        $(#[$meta])*
        #[derive(Clone)]
        pub struct $t(SecretKey);

        impl $t {
            /// A new key's AEAD.
            pub fn new(key: &[u8; KEY_LEN]) -> Self {
                $t(SecretKey(*key))
            }

            /// The detached seal of `data`, in place or from its input into
            /// its output: what every encrypting method comes to, the
            /// RustCrypto traits' and the dynamic layer's included (which
            /// give associated data to every type: `check` refuses what
            /// the type takes none of).
            pub(crate) fn seal_inout(
                &self,
                nonce: &$nonce,
                aad: &[u8],
                data: InOut<'_>,
            ) -> Result<[u8; TAG_LEN], Error> {
                $check(aad, data.len())?;
                let ($key, $n) = (&self.0.0, nonce);
                seal($cipher, $layout, aad, data)
            }

            /// The detached open of `data`, in place or from its input into
            /// its output (zeroed when the tag does not match): what every
            /// decrypting method comes to, as [`Self::seal_inout`].
            pub(crate) fn open_inout(
                &self,
                nonce: &$nonce,
                aad: &[u8],
                data: InOut<'_>,
                tag: &[u8; TAG_LEN],
            ) -> Result<(), Error> {
                $check(aad, data.len())?;
                let ($key, $n) = (&self.0.0, nonce);
                open($cipher, $layout, aad, data, tag)
            }
        }

        impl fmt::Debug for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_struct(stringify!($t)).finish_non_exhaustive()
            }
        }

        aead_methods! {
            impl[] $t;
            name = stringify!($t),
            nonce = $nonce,
            tag_first = $tag_first,
            aad = [$($aad)?],
            with_aad = $with_aad,
            check = $check,
            refused = $refused,
        }
    };
}

aead! {
    /// ChaCha20-Poly1305, the AEAD of RFC 8439 §2.8 (TLS 1.3, WireGuard, SSH,
    /// age): a 256-bit key, a 96-bit nonce that must never repeat under one
    /// key, and a 128-bit tag after the ciphertext. Plaintexts up to
    /// [`P_MAX`] bytes. The key is zeroized on drop.
    ///
    /// The nonce is too short to draw at random for many messages: count
    /// them (as TLS and WireGuard do), or use [`XChaCha20Poly1305`].
    ///
    /// ```
    /// use simdcrypt::aead::ChaCha20Poly1305;
    ///
    /// // RFC 8439 §2.8.2, sealed in place with a detached tag.
    /// let key: [u8; 32] = std::array::from_fn(|i| 0x80 + i as u8);
    /// let nonce = [0x07, 0, 0, 0, 0x40, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47];
    /// let aad = [0x50, 0x51, 0x52, 0x53, 0xc0, 0xc1, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7];
    /// let plaintext = *b"Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it.";
    /// let aead = ChaCha20Poly1305::new(&key);
    /// let mut data = plaintext;
    /// let tag = aead.encrypt_in_place_detached(&nonce, &aad, &mut data);
    /// let hex = |bytes: &[u8]| bytes.iter().map(|b| format!("{b:02x}")).collect::<String>();
    /// assert_eq!(hex(&data[..16]), "d31a8d34648e60db7b86afbc53ef7ec2");
    /// assert_eq!(hex(&tag), "1ae10b594f09e26a7e902ecbd0600691");
    ///
    /// aead.decrypt_in_place_detached(&nonce, &aad, &mut data, &tag)?;
    /// assert_eq!(data, plaintext);
    ///
    /// // A nonce per message from a counter, never reused under the key.
    /// for (n, message) in [&b"first"[..], b"second"].into_iter().enumerate() {
    ///     let mut nonce = [0u8; 12];
    ///     nonce[4..].copy_from_slice(&(n as u64).to_le_bytes());
    ///     let sealed = aead.encrypt(&nonce, b"", message);
    ///     assert_eq!(aead.decrypt(&nonce, b"", &sealed)?, message);
    /// }
    /// # Ok::<(), simdcrypt::Error>(())
    /// ```
    pub struct ChaCha20Poly1305;
    nonce = [u8; NONCE_LEN],
    tag_first = false,
    aad = [aad],
    with_aad = " with `aad`",
    check = check_len,
    refused = "the message is longer than [`P_MAX`] bytes ([`Error::MessageTooLong`])",
    cipher = |key, nonce| ChaCha20::new(key, nonce),
    layout = Layout::Rfc8439,
}

aead! {
    /// XChaCha20-Poly1305 (draft-irtf-cfrg-xchacha-03 §2.3, libsodium's
    /// `crypto_aead_xchacha20poly1305_ietf`): ChaCha20-Poly1305 under the
    /// subkey `HChaCha20(key, nonce[0..16])` and the 96-bit nonce
    /// `0x00000000 ‖ nonce[16..24]`. The 192-bit nonce is long enough to be
    /// drawn at random. The tag follows the ciphertext. Plaintexts up to
    /// [`P_MAX`] bytes. The key is zeroized on drop.
    ///
    /// ```
    /// use simdcrypt::aead::{TAG_LEN, XChaCha20Poly1305};
    ///
    /// // A random nonce per message, sent beside the sealed form.
    /// let aead = XChaCha20Poly1305::new(&[0x42; 32]);
    /// let nonce = XChaCha20Poly1305::generate_nonce()?;
    /// let sealed = aead.encrypt(&nonce, b"to: alice", b"a secret");
    /// assert_eq!(sealed.len(), 8 + TAG_LEN);
    /// assert_eq!(aead.decrypt(&nonce, b"to: alice", &sealed)?, b"a secret");
    /// assert!(aead.decrypt(&nonce, b"to: mallory", &sealed).is_err());
    ///
    /// // draft-irtf-cfrg-xchacha-03 A.3.1.
    /// let key: [u8; 32] = std::array::from_fn(|i| 0x80 + i as u8);
    /// let nonce: [u8; 24] = std::array::from_fn(|i| 0x40 + i as u8);
    /// let aad = [0x50, 0x51, 0x52, 0x53, 0xc0, 0xc1, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7];
    /// let plaintext = b"Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it.";
    /// let sealed = XChaCha20Poly1305::new(&key).encrypt(&nonce, &aad, plaintext);
    /// let hex = |bytes: &[u8]| bytes.iter().map(|b| format!("{b:02x}")).collect::<String>();
    /// assert_eq!(hex(&sealed[..16]), "bd6d179d3e83d43b9576579493c0e939");
    /// assert_eq!(hex(&sealed[plaintext.len()..]), "c0875924c1c7987947deafd8780acf49");
    /// # Ok::<(), simdcrypt::Error>(())
    /// ```
    pub struct XChaCha20Poly1305;
    nonce = [u8; XNONCE_LEN],
    tag_first = false,
    aad = [aad],
    with_aad = " with `aad`",
    check = check_len,
    refused = "the message is longer than [`P_MAX`] bytes ([`Error::MessageTooLong`])",
    cipher = |key, nonce| ChaCha20::with_extended_nonce(key, nonce),
    layout = Layout::Rfc8439,
}

aead! {
    /// XSalsa20-Poly1305, NaCl's `crypto_secretbox` (byte-compatible with
    /// libsodium's `crypto_secretbox_easy` and `_detached`): the first 32
    /// bytes of the XSalsa20 keystream are the one-time Poly1305 key, the
    /// message is XORed with the keystream from byte 32 on, and the tag is
    /// Poly1305 of the ciphertext alone. The sealed form is the tag, then the
    /// ciphertext. The key is zeroized on drop.
    ///
    /// `crypto_secretbox` authenticates no associated data, so no method
    /// here takes any. (The RustCrypto `aead` traits and
    /// [`crate::dynamic::DynAead`], whose methods have an argument for it,
    /// refuse any with an error, [`Error::AssociatedDataUnsupported`] or
    /// `aead::Error`: silently ignoring it would mislead.)
    ///
    /// ```
    /// use simdcrypt::aead::XSalsa20Poly1305;
    ///
    /// let secretbox = XSalsa20Poly1305::new(&[0x42; 32]);
    /// let nonce = XSalsa20Poly1305::generate_nonce()?;
    /// let sealed = secretbox.encrypt(&nonce, b"a secret"); // crypto_secretbox_easy
    /// assert_eq!(sealed.len(), 16 + 8);
    /// assert_eq!(secretbox.decrypt(&nonce, &sealed)?, b"a secret");
    /// # Ok::<(), simdcrypt::Error>(())
    /// ```
    pub struct XSalsa20Poly1305;
    nonce = [u8; XNONCE_LEN],
    tag_first = true,
    aad = [],
    with_aad = "",
    check = no_aad,
    refused = "the message would run XSalsa20's keystream past its end \
        ([`Error::KeystreamExhausted`]), which no message that fits in memory does",
    cipher = |key, nonce| XSalsa20::new(key, nonce),
    layout = Layout::Secretbox,
}

/// A nonce for the AEADs whose 192-bit nonce is long enough to be drawn at
/// random (as libsodium's examples do with `randombytes_buf`): after 2^64
/// messages under one key, a repeat has a probability near 2^-64.
macro_rules! random_nonce {
    ($($t:ident $aad:literal),+) => {$(
        impl $t {
            /// A fresh nonce from the operating system's random number
            /// generator.
            ///
            /// ```
            #[doc = concat!("use simdcrypt::aead::", stringify!($t), ";")]
            ///
            #[doc = concat!("let aead = ", stringify!($t), "::new(&[0x42; 32]);")]
            #[doc = concat!("let nonce = ", stringify!($t), "::generate_nonce()?;")]
            #[doc = concat!("assert_ne!(nonce, ", stringify!($t), "::generate_nonce()?);")]
            #[doc = concat!("let sealed = aead.encrypt(&nonce, ", $aad, "b\"secret\");")]
            #[doc = concat!("assert_eq!(aead.decrypt(&nonce, ", $aad, "&sealed)?, b\"secret\");")]
            /// # Ok::<(), simdcrypt::Error>(())
            /// ```
            ///
            /// # Errors
            ///
            /// [`Error::Random`] when the operating system gives none.
            pub fn generate_nonce() -> Result<[u8; XNONCE_LEN], Error> {
                let mut nonce = [0u8; XNONCE_LEN];
                getrandom::fill(&mut nonce).map_err(|e| Error::Random(e.to_string()))?;
                Ok(nonce)
            }
        }
    )+};
}

// Each with the associated data its example passes, none for secretbox.
random_nonce!(XChaCha20Poly1305 "b\"header\", ", XSalsa20Poly1305 "");

/// Refuses a message longer than [`P_MAX`], which would run ChaCha20's
/// counter past its last block; checked before anything is written.
fn check_len(_aad: &[u8], len: usize) -> Result<(), Error> {
    if len as u64 > P_MAX {
        return Err(Error::MessageTooLong {
            len: len as u64,
            max: P_MAX,
        });
    }
    Ok(())
}

/// Refuses associated data for `crypto_secretbox`, which has none.
fn no_aad(aad: &[u8], _len: usize) -> Result<(), Error> {
    if aad.is_empty() {
        Ok(())
    } else {
        Err(Error::AssociatedDataUnsupported {
            aead: "XSalsa20-Poly1305",
            len: aad.len(),
        })
    }
}
