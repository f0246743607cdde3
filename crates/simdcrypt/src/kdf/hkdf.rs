//! HKDF (RFC 5869): HMAC-based extract-and-expand key derivation.

use std::fmt;

use zeroize::Zeroize;

use crate::Error;
use crate::hash::Hash;
use crate::hmac::Hmac;

/// HKDF over the hash `H` (RFC 5869), holding the pseudorandom key `PRK`
/// as a keyed [`Hmac`], so that each [`Hkdf::expand`] starts from the keyed
/// states without hashing the key again. Zeroized on drop.
///
/// ```
/// use simdcrypt::hash::Sha256;
/// use simdcrypt::kdf::Hkdf;
///
/// // Extract once from a shared secret, then expand one key per purpose.
/// let shared_secret = [0x0b; 32];
/// let hkdf = Hkdf::<Sha256>::new(b"protocol v1 salt", &shared_secret);
/// let mut encryption_key = [0u8; 32];
/// let mut mac_key = [0u8; 32];
/// hkdf.expand(b"encryption", &mut encryption_key)?;
/// hkdf.expand(b"authentication", &mut mac_key)?;
/// assert_ne!(encryption_key, mac_key);
///
/// // RFC 5869 A.1: the pseudorandom key, and 42 bytes from it.
/// let salt: Vec<u8> = (0x00..=0x0c).collect();
/// let info: Vec<u8> = (0xf0..=0xf9).collect();
/// let prk = Hkdf::<Sha256>::extract(&salt, &[0x0b; 22]);
/// let mut okm = [0u8; 42];
/// Hkdf::<Sha256>::from_prk(&prk)?.expand(&info, &mut okm)?;
/// let hex: String = okm.iter().map(|b| format!("{b:02x}")).collect();
/// assert_eq!(hex, concat!(
///     "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf",
///     "34007208d5b887185865",
/// ));
/// # Ok::<(), simdcrypt::Error>(())
/// ```
#[derive(Clone)]
pub struct Hkdf<H: Hash> {
    prk: Hmac<H>,
}

impl<H: Hash> Hkdf<H> {
    /// The longest output [`Hkdf::expand`] gives: 255 · HashLen bytes
    /// (RFC 5869 §2.3).
    pub const MAX_OUTPUT_LEN: usize = 255 * H::OUTPUT_LEN;

    /// HKDF-Extract (RFC 5869 §2.2): `PRK = HMAC-Hash(salt, IKM)`. An empty
    /// `salt` stands for "not provided": HMAC pads it with zeros to the
    /// block, as it does the HashLen zeros RFC 5869 names.
    pub fn extract(salt: &[u8], ikm: &[u8]) -> H::Digest {
        Hmac::<H>::mac(salt, ikm)
    }

    /// Extracts `PRK` from `ikm` and `salt` (see [`Hkdf::extract`]) and
    /// keeps it for [`Hkdf::expand`].
    pub fn new(salt: &[u8], ikm: &[u8]) -> Self {
        let mut prk = Self::extract(salt, ikm);
        let hkdf = Hkdf {
            prk: Hmac::new(prk.as_ref()),
        };
        prk.as_mut().zeroize();
        hkdf
    }

    /// Starts from a pseudorandom key already extracted (RFC 5869 §2.3:
    /// "a pseudorandom key of at least HashLen octets").
    ///
    /// # Errors
    ///
    /// [`Error::KdfParameter`] when `prk` is shorter than HashLen.
    pub fn from_prk(prk: &[u8]) -> Result<Self, Error> {
        if prk.len() < H::OUTPUT_LEN {
            return Err(Error::KdfParameter {
                kdf: "HKDF",
                parameter: "PRK length",
                value: prk.len() as u64,
                expected: format!("at least HashLen = {} bytes ({})", H::OUTPUT_LEN, H::NAME),
            });
        }
        Ok(Hkdf {
            prk: Hmac::new(prk),
        })
    }

    /// HKDF-Expand (RFC 5869 §2.3): fills `okm` with
    /// `T(1) ‖ T(2) ‖ …`, where `T(i) = HMAC-Hash(PRK, T(i−1) ‖ info ‖ i)`.
    ///
    /// # Errors
    ///
    /// [`Error::KdfOutputTooLong`] when `okm` is longer than
    /// [`Hkdf::MAX_OUTPUT_LEN`]; nothing is written then.
    pub fn expand(&self, info: &[u8], okm: &mut [u8]) -> Result<(), Error> {
        if okm.len() > Self::MAX_OUTPUT_LEN {
            return Err(Error::KdfOutputTooLong {
                kdf: "HKDF",
                len: okm.len() as u64,
                max: Self::MAX_OUTPUT_LEN as u64,
            });
        }
        let mut mac = self.prk.clone();
        let mut t: Option<H::Digest> = None;
        for (chunk, i) in okm.chunks_mut(H::OUTPUT_LEN).zip(1..=u8::MAX) {
            if let Some(previous) = &t {
                mac.update(previous.as_ref());
            }
            mac.update(info);
            mac.update(&[i]);
            let block = mac.finalize_reset();
            chunk.copy_from_slice(&block.as_ref()[..chunk.len()]);
            if let Some(previous) = &mut t {
                previous.as_mut().zeroize();
            }
            t = Some(block);
        }
        if let Some(last) = &mut t {
            last.as_mut().zeroize();
        }
        Ok(())
    }
}

impl<H: Hash> fmt::Debug for Hkdf<H> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Hkdf")
            .field("hash", &H::NAME)
            .finish_non_exhaustive()
    }
}
