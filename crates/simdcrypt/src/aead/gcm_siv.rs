//! AES-GCM-SIV (RFC 8452): nonce-misuse-resistant AES-GCM. Per nonce, a
//! message-authentication key and a message-encryption key are derived
//! from the key-generating key (§4); the tag is AES, under the encryption
//! key, of POLYVAL over the associated data, the plaintext and their
//! lengths, XORed with the nonce (§4); the ciphertext is AES-CTR from the
//! tag with its top bit set, a 32-bit little-endian counter in its first
//! four bytes wrapping modulo 2^32. Since the tag depends on the whole
//! plaintext, encryption reads the plaintext twice; decryption decrypts
//! into the output, then hashes what it wrote, and zeroes the output when
//! the tag does not match (§5).

use std::fmt;

use subtle::ConstantTimeEq;
use zeroize::Zeroize;

use super::{GcmKernel, NONCE_LEN, TAG_LEN, aead_methods, sealed_parts};
use crate::Error;
use crate::aes::{self, Aes, Bits128, Bits256, KeySize};
use crate::block::BlockCipher;
use crate::block::Counter32;
use crate::block::sealed::Core;
use crate::ghash::{self, Variant};
use crate::xor::InOut;

/// The longest plaintext and associated data, in bytes: `P_MAX` and
/// `A_MAX` of RFC 8452 §6, 2^36.
pub const GCM_SIV_P_MAX: u64 = 1 << 36;

/// The key sizes RFC 8452 defines AES-GCM-SIV for: [`Bits128`] and
/// [`Bits256`]. Sealed.
pub trait SivKeySize: KeySize + sealed::Sealed {}

mod sealed {
    pub trait Sealed {}
}

impl sealed::Sealed for Bits128 {}
impl sealed::Sealed for Bits256 {}
impl SivKeySize for Bits128 {}
impl SivKeySize for Bits256 {}

/// AES-GCM-SIV with a key-generating key of size `K` (RFC 8452): use the
/// aliases [`Aes128GcmSiv`] and [`Aes256GcmSiv`]. 96-bit nonces; a
/// repeated nonce reveals only whether two messages (with their
/// associated data) were equal. The tag follows the ciphertext.
/// Plaintexts and associated data up to [`GCM_SIV_P_MAX`] bytes. The key
/// schedules are zeroized on drop.
///
/// ```
/// use simdcrypt::aead::Aes256GcmSiv;
///
/// let aead = Aes256GcmSiv::new(&[0x42; 32]);
/// let sealed = aead.encrypt(&[7; 12], b"header", b"a secret");
/// assert_eq!(aead.decrypt(&[7; 12], b"header", &sealed)?, b"a secret");
/// # Ok::<(), simdcrypt::Error>(())
/// ```
#[derive(Clone)]
pub struct AesGcmSiv<K: SivKeySize> {
    /// AES under the key-generating key.
    aes: Aes<K>,
    /// The rung POLYVAL runs on.
    polyval: ghash::Rung,
    /// Whether POLYVAL and CTR run on zmm, beside GCM's zmm kernel.
    wide: bool,
}

/// `AEAD_AES_128_GCM_SIV` (RFC 8452 §4).
pub type Aes128GcmSiv = AesGcmSiv<Bits128>;
/// `AEAD_AES_256_GCM_SIV` (RFC 8452 §4).
pub type Aes256GcmSiv = AesGcmSiv<Bits256>;

/// The primitive's name in the table and in messages.
fn name<K: KeySize>() -> &'static str {
    match K::LEN {
        16 => "aes-128-gcm-siv",
        _ => "aes-256-gcm-siv",
    }
}

/// Refuses a plaintext or associated data over [`GCM_SIV_P_MAX`] bytes.
fn check_len(aad: &[u8], len: usize) -> Result<(), Error> {
    for len in [len, aad.len()] {
        if len as u64 > GCM_SIV_P_MAX {
            return Err(Error::MessageTooLong {
                len: len as u64,
                max: GCM_SIV_P_MAX,
            });
        }
    }
    Ok(())
}

/// The counter of GCM-SIV: the first 32 bits, little-endian (§4).
const COUNTER: Counter32 = Counter32::FirstLittleEndian;

/// The keys of one nonce (§4): POLYVAL under the message-authentication
/// key and AES under the message-encryption key.
struct MessageKeys<K: KeySize> {
    polyval: ghash::Key,
    aes: Aes<K>,
}

impl<K: SivKeySize> AesGcmSiv<K> {
    /// The AEAD under the key-generating key `key`, on the fastest rungs.
    pub fn new(key: &K::Key) -> Self {
        AesGcmSiv {
            aes: Aes::new(key),
            polyval: ghash::Rung::best(),
            wide: GcmKernel::Vaes512.is_available(),
        }
    }

    /// The same key on the wide paths of GCM's stitched kernel `kernel`:
    /// for `vaes512`, POLYVAL and CTR on zmm (`gcm_vaes512`); for `vaes`,
    /// AES on its `vaes` rung and POLYVAL on `vpclmul` (ymm); for
    /// `armv8`, AES on its best rung and POLYVAL on `pmull`.
    ///
    /// # Errors
    ///
    /// [`Error::RungUnavailable`] when the CPU lacks the kernel.
    pub fn with_kernel(self, kernel: GcmKernel) -> Result<Self, Error> {
        match kernel.require(name::<K>())? {
            GcmKernel::Vaes => self.with_rung(aes::Rung::Vaes, ghash::Rung::Vpclmul),
            GcmKernel::Vaes512 => Ok(AesGcmSiv { wide: true, ..self }),
            GcmKernel::Armv8 => self.with_rung(aes::Rung::best(), ghash::Rung::Pmull),
        }
    }

    /// The wide path in use, if any: `vaes512` when POLYVAL and CTR run on
    /// zmm.
    pub fn kernel(&self) -> Option<GcmKernel> {
        self.wide.then_some(GcmKernel::Vaes512)
    }

    /// The same key with AES on rung `aes` and POLYVAL on rung `polyval`.
    ///
    /// # Errors
    ///
    /// [`Error::RungUnavailable`] when the CPU lacks a rung,
    /// [`Error::VariableTimeRung`] for a `reference` rung without the
    /// `hazmat` feature.
    pub fn with_rung(self, aes: aes::Rung, polyval: ghash::Rung) -> Result<Self, Error> {
        Ok(AesGcmSiv {
            aes: self.aes.with_rung(aes)?,
            polyval: polyval.require()?,
            wide: false,
        })
    }

    /// Renamed [`with_rung`](Self::with_rung).
    #[deprecated(note = "renamed `with_rung`")]
    pub fn with_impl(self, aes: aes::Rung, polyval: ghash::Rung) -> Result<Self, Error> {
        self.with_rung(aes, polyval)
    }

    /// The rungs of AES and POLYVAL in use.
    pub fn rung(&self) -> (aes::Rung, ghash::Rung) {
        (self.aes.rung(), self.polyval)
    }

    /// Renamed [`rung`](Self::rung).
    #[deprecated(note = "renamed `rung`")]
    pub fn implementation(&self) -> (aes::Rung, ghash::Rung) {
        self.rung()
    }

    /// The keys of `nonce` (§4): the first 8 bytes of
    /// `AES(K, le32(i) ‖ nonce)` for `i = 0, 1` (authentication) and
    /// `i = 2 … 3` or `2 … 5` (encryption).
    fn derive(&self, nonce: &[u8; NONCE_LEN]) -> Result<MessageKeys<K>, Error> {
        let mut halves = [0u8; 48];
        let n = 2 + K::LEN / 8;
        // The n blocks enciphered at once (ECB), not one after another.
        let mut blocks = [0u8; 16 * 6];
        for (i, block) in blocks[..16 * n].chunks_exact_mut(16).enumerate() {
            block[..4].copy_from_slice(&(i as u32).to_le_bytes());
            block[4..].copy_from_slice(nonce);
        }
        BlockCipher::encrypt_blocks(&self.aes, &mut blocks[..16 * n]).expect("whole blocks");
        for (half, block) in halves[..8 * n].chunks_exact_mut(8).zip(blocks.chunks_exact(16)) {
            half.copy_from_slice(&block[..8]);
        }
        crate::ct::wipe(&mut blocks);
        let auth: [u8; 16] = halves[..16].try_into().expect("16 bytes");
        let keys = Aes::<K>::from_slice(&halves[16..8 * n])
            .and_then(|aes| {
                // On the key-generating key's rung (`with_rung` only when
                // that is not the default, which needs no `hazmat`).
                let imp = self.aes.rung();
                if aes.rung() == imp {
                    Ok(aes)
                } else {
                    aes.with_rung(imp)
                }
            })
            .and_then(|aes| {
                Ok(MessageKeys {
                    polyval: ghash::Key::new(Variant::Polyval, &auth).with_rung(self.polyval)?,
                    aes,
                })
            });
        halves.zeroize();
        let mut auth = auth;
        auth.zeroize();
        keys
    }

    /// The tag (§4): POLYVAL of the padded associated data, the padded
    /// plaintext and their lengths in bits (64-bit little-endian), XORed
    /// with the nonce, its top bit cleared, encrypted.
    fn tag(
        &self,
        keys: &MessageKeys<K>,
        nonce: &[u8; NONCE_LEN],
        aad: &[u8],
        plaintext: &[u8],
    ) -> [u8; 16] {
        let mut s = if self.wide {
            Self::polyval_wide(keys, aad, plaintext)
        } else {
            Self::polyval(keys, aad, plaintext)
        };
        for (s, n) in s.iter_mut().zip(nonce) {
            *s ^= n;
        }
        s[15] &= 0x7f;
        keys.aes.encrypt_block(&mut s);
        s
    }

    /// POLYVAL on zmm.
    #[cfg(target_arch = "x86_64")]
    fn polyval_wide(keys: &MessageKeys<K>, aad: &[u8], plaintext: &[u8]) -> [u8; 16] {
        super::gcm_vaes512::polyval(&keys.polyval.powers, aad, plaintext)
    }

    /// POLYVAL on zmm: x86-64 only.
    #[cfg(not(target_arch = "x86_64"))]
    fn polyval_wide(_: &MessageKeys<K>, _: &[u8], _: &[u8]) -> [u8; 16] {
        unreachable!("no zmm path off x86-64")
    }

    /// CTR from `counter` on the AES rung, or on zmm.
    fn ctr(&self, keys: &MessageKeys<K>, counter: &[u8; 16], data: InOut<'_>) {
        #[cfg(target_arch = "x86_64")]
        if self.wide {
            return super::gcm_vaes512::ctr32_le(keys.aes.round_keys(), counter, data);
        }
        keys.aes.ctr32(counter, data, COUNTER);
    }

    /// POLYVAL's part of the tag on the POLYVAL rung.
    fn polyval(keys: &MessageKeys<K>, aad: &[u8], plaintext: &[u8]) -> [u8; 16] {
        let mut acc = 0;
        keys.polyval.update_padded(&mut acc, aad);
        keys.polyval.update_padded(&mut acc, plaintext);
        let mut lengths = [0u8; 16];
        lengths[..8].copy_from_slice(&((aad.len() as u64) * 8).to_le_bytes());
        lengths[8..].copy_from_slice(&((plaintext.len() as u64) * 8).to_le_bytes());
        keys.polyval.update(&mut acc, &lengths);
        keys.polyval.output(acc)
    }

    /// The first counter block: the tag with its top bit set (§4).
    fn counter(tag: &[u8; 16]) -> [u8; 16] {
        let mut counter = *tag;
        counter[15] |= 0x80;
        counter
    }

    /// Encryption (§4) of `data` in place or from its input into its
    /// output: the tag.
    pub(crate) fn seal_inout(
        &self,
        nonce: &[u8; NONCE_LEN],
        aad: &[u8],
        data: InOut<'_>,
    ) -> Result<[u8; TAG_LEN], Error> {
        check_len(aad, data.len())?;
        let keys = self.derive(nonce)?;
        let tag = self.tag(&keys, nonce, aad, data.input());
        self.ctr(&keys, &Self::counter(&tag), data);
        Ok(tag)
    }

    /// Decryption (§5): the output holds the plaintext when `tag` matches
    /// and zeros when not.
    pub(crate) fn open_inout(
        &self,
        nonce: &[u8; NONCE_LEN],
        aad: &[u8],
        mut data: InOut<'_>,
        tag: &[u8; TAG_LEN],
    ) -> Result<(), Error> {
        check_len(aad, data.len())?;
        let keys = self.derive(nonce)?;
        self.ctr(&keys, &Self::counter(tag), data.reborrow());
        let plaintext = data.into_output();
        let expected = self.tag(&keys, nonce, aad, plaintext);
        // Declassified (docs/constant-time.md): whether the tag matched is
        // the answer the caller is given.
        if crate::ct::declassify(bool::from(expected.ct_eq(tag))) {
            Ok(())
        } else {
            plaintext.zeroize();
            Err(Error::AuthenticationFailed)
        }
    }
}

impl<K: SivKeySize> fmt::Debug for AesGcmSiv<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct(name::<K>())
            .field("implementation", &self.rung())
            .finish_non_exhaustive()
    }
}

aead_methods! {
    impl[K: SivKeySize] AesGcmSiv<K>;
    name = name::<K>(),
    nonce = [u8; NONCE_LEN],
    tag_first = false,
    aad = [aad],
    with_aad = " with `aad`",
    check = check_len,
    refused = "the message or the associated data is longer than [`GCM_SIV_P_MAX`] bytes ([`Error::MessageTooLong`])",
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_limits_of_rfc_8452_are_errors() {
        assert!(check_len(&[], GCM_SIV_P_MAX as usize).is_ok());
        assert!(matches!(
            check_len(&[], GCM_SIV_P_MAX as usize + 1),
            Err(Error::MessageTooLong { .. })
        ));
    }
}
