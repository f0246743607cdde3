//! QUIC's packet protection (RFC 9001 §5.3) and header protection (§5.4)
//! for the TLS 1.3 suites, with the limits of §6.6.

use rustls::Error;
use rustls::crypto::cipher::{AeadKey, Iv, Nonce};
use rustls::quic::{self, Tag};
use simdcrypt::aes::{Aes128, Aes256};
use simdcrypt::block::BlockCipher;
use simdcrypt::chacha20::ChaCha20;

use super::record::{Sealer, TAG_LEN, split_tag};

/// The sample of ciphertext header protection reads (§5.4.2).
const SAMPLE_LEN: usize = 16;

/// A TLS 1.3 suite's QUIC keys: packet protection with the AEAD `A`, header
/// protection with `H`, and §6.6's limits.
pub(crate) struct Keys<A, H> {
    confidentiality_limit: u64,
    integrity_limit: u64,
    kinds: core::marker::PhantomData<fn() -> (A, H)>,
}

impl<A, H> Keys<A, H> {
    /// The keys with the limits `confidentiality` (packets sealed) and
    /// `integrity` (packets that failed to open).
    pub(crate) const fn new(confidentiality: u64, integrity: u64) -> Self {
        Keys {
            confidentiality_limit: confidentiality,
            integrity_limit: integrity,
            kinds: core::marker::PhantomData,
        }
    }
}

impl<A: Sealer, H: Mask> quic::Algorithm for Keys<A, H> {
    fn packet_key(&self, key: AeadKey, iv: Iv) -> Box<dyn quic::PacketKey> {
        Box::new(PacketKey {
            aead: A::new(key.as_ref()),
            iv,
            confidentiality_limit: self.confidentiality_limit,
            integrity_limit: self.integrity_limit,
        })
    }

    fn header_protection_key(&self, key: AeadKey) -> Box<dyn quic::HeaderProtectionKey> {
        Box::new(HeaderKey(H::new(key.as_ref())))
    }

    fn aead_key_len(&self) -> usize {
        A::KEY_LEN
    }
}

/// Packet protection (§5.3): the AEAD under the packet key, the nonce the
/// IV XORed with the packet number, the header as additional data.
struct PacketKey<A> {
    aead: A,
    iv: Iv,
    confidentiality_limit: u64,
    integrity_limit: u64,
}

impl<A: Sealer> PacketKey<A> {
    fn seal(&self, nonce: Nonce, header: &[u8], payload: &mut [u8]) -> Result<Tag, Error> {
        Ok(Tag::from(&self.aead.seal(&nonce.0, header, payload)?[..]))
    }

    fn open<'a>(
        &self,
        nonce: Nonce,
        header: &[u8],
        payload: &'a mut [u8],
    ) -> Result<&'a [u8], Error> {
        let (text, tag) = split_tag(payload)?;
        self.aead.open(&nonce.0, header, text, tag)?;
        Ok(text)
    }
}

impl<A: Sealer> quic::PacketKey for PacketKey<A> {
    fn encrypt_in_place(
        &self,
        packet_number: u64,
        header: &[u8],
        payload: &mut [u8],
    ) -> Result<Tag, Error> {
        self.seal(Nonce::new(&self.iv, packet_number), header, payload)
    }

    fn encrypt_in_place_for_path(
        &self,
        path_id: u32,
        packet_number: u64,
        header: &[u8],
        payload: &mut [u8],
    ) -> Result<Tag, Error> {
        self.seal(
            Nonce::for_path(path_id, &self.iv, packet_number),
            header,
            payload,
        )
    }

    fn decrypt_in_place<'a>(
        &self,
        packet_number: u64,
        header: &[u8],
        payload: &'a mut [u8],
    ) -> Result<&'a [u8], Error> {
        self.open(Nonce::new(&self.iv, packet_number), header, payload)
    }

    fn decrypt_in_place_for_path<'a>(
        &self,
        path_id: u32,
        packet_number: u64,
        header: &[u8],
        payload: &'a mut [u8],
    ) -> Result<&'a [u8], Error> {
        self.open(
            Nonce::for_path(path_id, &self.iv, packet_number),
            header,
            payload,
        )
    }

    fn tag_len(&self) -> usize {
        TAG_LEN
    }

    fn confidentiality_limit(&self) -> u64 {
        self.confidentiality_limit
    }

    fn integrity_limit(&self) -> u64 {
        self.integrity_limit
    }
}

/// A header protection algorithm: the five mask bytes of a sample.
pub(crate) trait Mask: Send + Sync + 'static {
    /// The algorithm under the header protection key `key`.
    fn new(key: &[u8]) -> Self;
    /// The mask of `sample` (§5.4.1).
    fn mask(&self, sample: &[u8; SAMPLE_LEN]) -> [u8; 5];
}

/// AES-based header protection (§5.4.3): the first five bytes of
/// AES-ECB of the sample.
pub(crate) struct AesMask<C>(C);

/// Implements [`Mask`] for AES of one key size.
macro_rules! aes_mask {
    ($($aes:ty),+) => {$(
        impl Mask for AesMask<$aes> {
            fn new(key: &[u8]) -> Self {
                AesMask(<$aes>::new(key.try_into().expect("rustls gives the key's length")))
            }

            fn mask(&self, sample: &[u8; SAMPLE_LEN]) -> [u8; 5] {
                let mut block = *sample;
                self.0.encrypt_block(&mut block);
                block[..5].try_into().expect("5 bytes")
            }
        }
    )+};
}

aes_mask!(Aes128, Aes256);

/// ChaCha20-based header protection (§5.4.4): ChaCha20 under the key,
/// its block counter the sample's first four bytes (little-endian), its
/// nonce the other twelve, over five zero bytes.
pub(crate) struct ChaChaMask(zeroize::Zeroizing<[u8; 32]>);

impl Mask for ChaChaMask {
    fn new(key: &[u8]) -> Self {
        ChaChaMask(zeroize::Zeroizing::new(
            key.try_into().expect("rustls gives 32 bytes"),
        ))
    }

    fn mask(&self, sample: &[u8; SAMPLE_LEN]) -> [u8; 5] {
        let [c0, c1, c2, c3, nonce @ ..] = *sample;
        let mut cipher = ChaCha20::new(&self.0, &nonce);
        let mut mask = [0u8; 5];
        cipher
            .seek(u128::from(u32::from_le_bytes([c0, c1, c2, c3])) * 64)
            .and_then(|()| cipher.apply_keystream(&mut mask))
            .expect("five bytes of a block within the keystream");
        mask
    }
}

/// Header protection under one key.
struct HeaderKey<H>(H);

impl<H: Mask> HeaderKey<H> {
    /// Applies or removes (§5.4.1) the mask of `sample` to the first byte's
    /// low four (long header) or five (short header) bits and to the
    /// packet number's bytes, whose length the unprotected first byte
    /// gives.
    fn xor(
        &self,
        sample: &[u8],
        first: &mut u8,
        packet_number: &mut [u8],
        protected: bool,
    ) -> Result<(), Error> {
        let sample: &[u8; SAMPLE_LEN] = sample
            .try_into()
            .map_err(|_| Error::General("sample of invalid length".into()))?;
        let mask = self.0.mask(sample);
        if packet_number.len() > 4 {
            return Err(Error::General("packet number too long".into()));
        }
        let bits = if *first & 0x80 != 0 { 0x0f } else { 0x1f };
        let plain_first = if protected {
            *first ^ (mask[0] & bits)
        } else {
            *first
        };
        let pn_len = usize::from(plain_first & 0x03) + 1;
        *first ^= mask[0] & bits;
        for (byte, m) in packet_number.iter_mut().zip(&mask[1..]).take(pn_len) {
            *byte ^= m;
        }
        Ok(())
    }
}

impl<H: Mask> quic::HeaderProtectionKey for HeaderKey<H> {
    fn encrypt_in_place(
        &self,
        sample: &[u8],
        first: &mut u8,
        packet_number: &mut [u8],
    ) -> Result<(), Error> {
        self.xor(sample, first, packet_number, false)
    }

    fn decrypt_in_place(
        &self,
        sample: &[u8],
        first: &mut u8,
        packet_number: &mut [u8],
    ) -> Result<(), Error> {
        self.xor(sample, first, packet_number, true)
    }

    fn sample_len(&self) -> usize {
        SAMPLE_LEN
    }
}
