//! Record protection: the AEADs of TLS 1.3 (RFC 8446 §5.2–5.3) and TLS 1.2
//! (RFC 5246 §6.2.3.3 with RFC 5288's AES-GCM nonces, RFC 7905's
//! ChaCha20-Poly1305 ones) on simdcrypt's AES-GCM and ChaCha20-Poly1305,
//! the nonces and additional data built as rustls's own providers build
//! them. Records are sealed and opened in place, in the buffer rustls
//! hands over.

use rustls::crypto::cipher::{
    AeadKey, InboundOpaqueMessage, InboundPlainMessage, Iv, KeyBlockShape, MessageDecrypter,
    MessageEncrypter, NONCE_LEN, Nonce, OutboundChunks, OutboundOpaqueMessage,
    OutboundPlainMessage, PrefixedPayload, Tls12AeadAlgorithm, Tls13AeadAlgorithm,
    UnsupportedOperationError, make_tls12_aad, make_tls13_aad,
};
use rustls::{ConnectionTrafficSecrets, ContentType, Error, ProtocolVersion};
use simdcrypt::aead::{Aes128Gcm, Aes256Gcm, ChaCha20Poly1305};

/// The tag's length, the same for the three AEADs.
pub(crate) const TAG_LEN: usize = 16;
/// TLS 1.2 AES-GCM's explicit nonce, carried before each record's
/// ciphertext (RFC 5288 §3).
const EXPLICIT_NONCE_LEN: usize = 8;
/// The longest plaintext a record may carry (RFC 5246 §6.2.1, RFC 8446
/// §5.1): 2^14 bytes.
const MAX_FRAGMENT_LEN: usize = 1 << 14;

/// One of the three AEADs under its key: what seals and opens records.
pub(crate) trait Sealer: Send + Sync + 'static {
    /// The key's length in bytes.
    const KEY_LEN: usize;
    /// The AEAD under `key` (`KEY_LEN` bytes, as rustls guarantees).
    fn new(key: &[u8]) -> Self;
    /// Encrypts `data` in place: the tag.
    fn seal(
        &self,
        nonce: &[u8; NONCE_LEN],
        aad: &[u8],
        data: &mut [u8],
    ) -> Result<[u8; TAG_LEN], Error>;
    /// Checks `tag` and decrypts `data` in place (zeros on failure).
    fn open(
        &self,
        nonce: &[u8; NONCE_LEN],
        aad: &[u8],
        data: &mut [u8],
        tag: &[u8; TAG_LEN],
    ) -> Result<(), Error>;
    /// The traffic secrets of `key` and `iv` in rustls's form (kTLS).
    fn secrets(key: AeadKey, iv: Iv) -> ConnectionTrafficSecrets;
}

/// Implements [`Sealer`] for an AEAD of simdcrypt's.
macro_rules! sealer {
    ($($t:ty, $len:literal, $secrets:ident;)+) => {$(
        impl Sealer for $t {
            const KEY_LEN: usize = $len;
            fn new(key: &[u8]) -> Self {
                <$t>::new(key.try_into().expect("rustls gives KEY_LEN bytes"))
            }
            fn seal(&self, nonce: &[u8; NONCE_LEN], aad: &[u8], data: &mut [u8]) -> Result<[u8; TAG_LEN], Error> {
                self.try_encrypt_in_place_detached(nonce, aad, data).map_err(|_| Error::EncryptError)
            }
            fn open(&self, nonce: &[u8; NONCE_LEN], aad: &[u8], data: &mut [u8], tag: &[u8; TAG_LEN]) -> Result<(), Error> {
                self.decrypt_in_place_detached(nonce, aad, data, tag).map_err(|_| Error::DecryptError)
            }
            fn secrets(key: AeadKey, iv: Iv) -> ConnectionTrafficSecrets {
                ConnectionTrafficSecrets::$secrets { key, iv }
            }
        }
    )+};
}

sealer! {
    Aes128Gcm, 16, Aes128Gcm;
    Aes256Gcm, 32, Aes256Gcm;
    ChaCha20Poly1305, 32, Chacha20Poly1305;
}

/// Splits a sealed payload (a record's or a QUIC packet's) into the
/// ciphertext and the tag after it: the decrypt error rustls expects when
/// it cannot hold a tag.
pub(crate) fn split_tag(payload: &mut [u8]) -> Result<(&mut [u8], &[u8; TAG_LEN]), Error> {
    let at = payload
        .len()
        .checked_sub(TAG_LEN)
        .ok_or(Error::DecryptError)?;
    let (ciphertext, tag) = payload.split_at_mut(at);
    Ok((ciphertext, (&*tag).try_into().expect("TAG_LEN bytes")))
}

/// A record's payload sealed by `aead` under `nonce` and `aad`: `prefix`
/// (TLS 1.2 AES-GCM's explicit nonce) in the clear, then the content and
/// `suffix` (TLS 1.3's inner content type) encrypted in place, then the
/// tag.
fn seal_payload(
    aead: &impl Sealer,
    (nonce, aad): (&[u8; NONCE_LEN], &[u8]),
    prefix: &[u8],
    content: &OutboundChunks<'_>,
    suffix: &[u8],
) -> Result<PrefixedPayload, Error> {
    let mut payload =
        PrefixedPayload::with_capacity(prefix.len() + content.len() + suffix.len() + TAG_LEN);
    payload.extend_from_slice(prefix);
    payload.extend_from_chunks(content);
    payload.extend_from_slice(suffix);
    let tag = aead.seal(nonce, aad, &mut payload.as_mut()[prefix.len()..])?;
    payload.extend_from_slice(&tag);
    Ok(payload)
}

/// TLS 1.3's record protection with the AEAD `A`.
pub(crate) struct Tls13<A>(core::marker::PhantomData<fn() -> A>);

impl<A> Tls13<A> {
    /// The algorithm (a constant for the suites' statics).
    pub(crate) const ALGORITHM: Tls13<A> = Tls13(core::marker::PhantomData);
}

impl<A: Sealer> Tls13AeadAlgorithm for Tls13<A> {
    fn encrypter(&self, key: AeadKey, iv: Iv) -> Box<dyn MessageEncrypter> {
        Box::new(Tls13Protect {
            aead: A::new(key.as_ref()),
            iv,
        })
    }

    fn decrypter(&self, key: AeadKey, iv: Iv) -> Box<dyn MessageDecrypter> {
        Box::new(Tls13Protect {
            aead: A::new(key.as_ref()),
            iv,
        })
    }

    fn key_len(&self) -> usize {
        A::KEY_LEN
    }

    fn extract_keys(
        &self,
        key: AeadKey,
        iv: Iv,
    ) -> Result<ConnectionTrafficSecrets, UnsupportedOperationError> {
        Ok(A::secrets(key, iv))
    }
}

/// One direction of a TLS 1.3 connection: the AEAD under the traffic key,
/// and the IV each record's nonce is made from (RFC 8446 §5.3: the
/// sequence number, left-padded, XORed into it).
struct Tls13Protect<A> {
    aead: A,
    iv: Iv,
}

impl<A: Sealer> MessageEncrypter for Tls13Protect<A> {
    fn encrypt(
        &mut self,
        msg: OutboundPlainMessage<'_>,
        seq: u64,
    ) -> Result<OutboundOpaqueMessage, Error> {
        // TLSInnerPlaintext (§5.2): the content, then its type, no padding.
        let total_len = self.encrypted_payload_len(msg.payload.len());
        let nonce = Nonce::new(&self.iv, seq).0;
        let aad = make_tls13_aad(total_len);
        let payload = seal_payload(
            &self.aead,
            (&nonce, &aad),
            &[],
            &msg.payload,
            &msg.typ.to_array(),
        )?;
        // The outer record says application data, TLS 1.2 (§5.1).
        Ok(OutboundOpaqueMessage::new(
            ContentType::ApplicationData,
            ProtocolVersion::TLSv1_2,
            payload,
        ))
    }

    fn encrypted_payload_len(&self, payload_len: usize) -> usize {
        payload_len + 1 + TAG_LEN
    }
}

impl<A: Sealer> MessageDecrypter for Tls13Protect<A> {
    fn decrypt<'a>(
        &mut self,
        mut msg: InboundOpaqueMessage<'a>,
        seq: u64,
    ) -> Result<InboundPlainMessage<'a>, Error> {
        let aad = make_tls13_aad(msg.payload.len());
        let (ciphertext, tag) = split_tag(&mut msg.payload)?;
        let len = ciphertext.len();
        self.aead
            .open(&Nonce::new(&self.iv, seq).0, &aad, ciphertext, tag)?;
        msg.payload.truncate(len);
        // The content type is the last non-zero byte (§5.4).
        msg.into_tls13_unpadded_message()
    }
}

/// TLS 1.2's AES-GCM (RFC 5288) with the AEAD `A`: a 4-byte salt from the
/// key block and an 8-byte explicit nonce before each record.
pub(crate) struct Tls12Gcm<A>(core::marker::PhantomData<fn() -> A>);

impl<A> Tls12Gcm<A> {
    /// The algorithm (a constant for the suites' statics).
    pub(crate) const ALGORITHM: Tls12Gcm<A> = Tls12Gcm(core::marker::PhantomData);
}

/// The 12-byte IV of TLS 1.2 AES-GCM: the salt, then the explicit nonce
/// the key block gave (rustls XORs the sequence number into its last 8
/// bytes for each record, so the explicit nonces never repeat).
fn gcm_iv(salt: &[u8], explicit: &[u8]) -> Iv {
    let mut iv = [0u8; NONCE_LEN];
    iv[..4].copy_from_slice(salt);
    iv[4..].copy_from_slice(explicit);
    Iv::new(iv)
}

impl<A: Sealer> Tls12AeadAlgorithm for Tls12Gcm<A> {
    fn encrypter(&self, key: AeadKey, iv: &[u8], extra: &[u8]) -> Box<dyn MessageEncrypter> {
        Box::new(Tls12GcmSeal {
            aead: A::new(key.as_ref()),
            iv: gcm_iv(iv, extra),
        })
    }

    fn decrypter(&self, key: AeadKey, iv: &[u8]) -> Box<dyn MessageDecrypter> {
        let mut salt = [0u8; 4];
        salt.copy_from_slice(iv);
        Box::new(Tls12GcmOpen {
            aead: A::new(key.as_ref()),
            salt,
        })
    }

    fn key_block_shape(&self) -> KeyBlockShape {
        KeyBlockShape {
            enc_key_len: A::KEY_LEN,
            fixed_iv_len: 4,
            explicit_nonce_len: EXPLICIT_NONCE_LEN,
        }
    }

    fn extract_keys(
        &self,
        key: AeadKey,
        iv: &[u8],
        explicit: &[u8],
    ) -> Result<ConnectionTrafficSecrets, UnsupportedOperationError> {
        Ok(A::secrets(key, gcm_iv(iv, explicit)))
    }
}

/// TLS 1.2 AES-GCM, sending.
struct Tls12GcmSeal<A> {
    aead: A,
    iv: Iv,
}

impl<A: Sealer> MessageEncrypter for Tls12GcmSeal<A> {
    fn encrypt(
        &mut self,
        msg: OutboundPlainMessage<'_>,
        seq: u64,
    ) -> Result<OutboundOpaqueMessage, Error> {
        let nonce = Nonce::new(&self.iv, seq).0;
        let aad = make_tls12_aad(seq, msg.typ, msg.version, msg.payload.len());
        let payload = seal_payload(&self.aead, (&nonce, &aad), &nonce[4..], &msg.payload, &[])?;
        Ok(OutboundOpaqueMessage::new(msg.typ, msg.version, payload))
    }

    fn encrypted_payload_len(&self, payload_len: usize) -> usize {
        EXPLICIT_NONCE_LEN + payload_len + TAG_LEN
    }
}

/// TLS 1.2 AES-GCM, receiving: the nonce is the salt and the explicit
/// nonce the record carries, whatever the sequence number.
struct Tls12GcmOpen<A> {
    aead: A,
    salt: [u8; 4],
}

impl<A: Sealer> MessageDecrypter for Tls12GcmOpen<A> {
    fn decrypt<'a>(
        &mut self,
        mut msg: InboundOpaqueMessage<'a>,
        seq: u64,
    ) -> Result<InboundPlainMessage<'a>, Error> {
        let payload = &mut msg.payload[..];
        if payload.len() < EXPLICIT_NONCE_LEN + TAG_LEN {
            return Err(Error::DecryptError);
        }
        let (explicit, sealed) = payload.split_at_mut(EXPLICIT_NONCE_LEN);
        let mut nonce = [0u8; NONCE_LEN];
        nonce[..4].copy_from_slice(&self.salt);
        nonce[4..].copy_from_slice(explicit);
        let aad = make_tls12_aad(seq, msg.typ, msg.version, sealed.len() - TAG_LEN);
        let (ciphertext, tag) = split_tag(sealed)?;
        let len = ciphertext.len();
        self.aead.open(&nonce, &aad, ciphertext, tag)?;
        if len > MAX_FRAGMENT_LEN {
            return Err(Error::PeerSentOversizedRecord);
        }
        Ok(msg.into_plain_message_range(EXPLICIT_NONCE_LEN..EXPLICIT_NONCE_LEN + len))
    }
}

/// TLS 1.2's ChaCha20-Poly1305 (RFC 7905 §2): no explicit nonce, the
/// 12-byte IV from the key block XORed with the sequence number.
pub(crate) struct Tls12ChaCha;

impl Tls12AeadAlgorithm for Tls12ChaCha {
    fn encrypter(&self, key: AeadKey, iv: &[u8], _: &[u8]) -> Box<dyn MessageEncrypter> {
        Box::new(Tls12ChaChaProtect {
            aead: Sealer::new(key.as_ref()),
            iv: Iv::copy(iv),
        })
    }

    fn decrypter(&self, key: AeadKey, iv: &[u8]) -> Box<dyn MessageDecrypter> {
        Box::new(Tls12ChaChaProtect {
            aead: Sealer::new(key.as_ref()),
            iv: Iv::copy(iv),
        })
    }

    fn key_block_shape(&self) -> KeyBlockShape {
        KeyBlockShape {
            enc_key_len: 32,
            fixed_iv_len: NONCE_LEN,
            explicit_nonce_len: 0,
        }
    }

    fn extract_keys(
        &self,
        key: AeadKey,
        iv: &[u8],
        _: &[u8],
    ) -> Result<ConnectionTrafficSecrets, UnsupportedOperationError> {
        Ok(ChaCha20Poly1305::secrets(key, Iv::copy(iv)))
    }
}

/// One direction of TLS 1.2 ChaCha20-Poly1305.
struct Tls12ChaChaProtect {
    aead: ChaCha20Poly1305,
    iv: Iv,
}

impl MessageEncrypter for Tls12ChaChaProtect {
    fn encrypt(
        &mut self,
        msg: OutboundPlainMessage<'_>,
        seq: u64,
    ) -> Result<OutboundOpaqueMessage, Error> {
        let nonce = Nonce::new(&self.iv, seq).0;
        let aad = make_tls12_aad(seq, msg.typ, msg.version, msg.payload.len());
        let payload = seal_payload(&self.aead, (&nonce, &aad), &[], &msg.payload, &[])?;
        Ok(OutboundOpaqueMessage::new(msg.typ, msg.version, payload))
    }

    fn encrypted_payload_len(&self, payload_len: usize) -> usize {
        payload_len + TAG_LEN
    }
}

impl MessageDecrypter for Tls12ChaChaProtect {
    fn decrypt<'a>(
        &mut self,
        mut msg: InboundOpaqueMessage<'a>,
        seq: u64,
    ) -> Result<InboundPlainMessage<'a>, Error> {
        let (ciphertext, tag) = split_tag(&mut msg.payload)?;
        let len = ciphertext.len();
        let aad = make_tls12_aad(seq, msg.typ, msg.version, len);
        self.aead
            .open(&Nonce::new(&self.iv, seq).0, &aad, ciphertext, tag)?;
        if len > MAX_FRAGMENT_LEN {
            return Err(Error::PeerSentOversizedRecord);
        }
        msg.payload.truncate(len);
        Ok(msg.into_plain_message())
    }
}
