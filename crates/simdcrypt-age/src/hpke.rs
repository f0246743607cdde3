//! HPKE's base mode (RFC 9180, §5.1 and §6.1) for the one suite age uses:
//! HKDF-SHA256 (KDF 0x0001) and ChaCha20Poly1305 (AEAD 0x0003) over a KEM
//! named by its identifier, sealing a single message (sequence number 0)
//! with empty associated data. The KEM itself lives with its recipient type;
//! DHKEM's `ExtractAndExpand` (§4.1) is here, as it is made of the same
//! labeled derivations.

use simdcrypt::aead::{ChaCha20Poly1305, KEY_LEN, NONCE_LEN};
use simdcrypt::hash::Sha256;
use simdcrypt::kdf::Hkdf;
use zeroize::Zeroizing;

use crate::Error;

/// RFC 9180 §7.2: HKDF-SHA256.
const KDF_ID: u16 = 0x0001;
/// RFC 9180 §7.3: ChaCha20Poly1305.
const AEAD_ID: u16 = 0x0003;
/// RFC 9180 §4: the version label every labeled derivation starts with.
const VERSION_LABEL: &[u8] = b"HPKE-v1";
/// RFC 9180 §5: `mode_base`.
const MODE_BASE: u8 = 0x00;

/// An HPKE context (RFC 9180 §5.1) set up for one message: the AEAD under
/// `key`, and `base_nonce`, which is the nonce of sequence number 0
/// (`base_nonce XOR I2OSP(0, Nn)`, §5.2).
pub(crate) struct Context {
    aead: ChaCha20Poly1305,
    nonce: Zeroizing<[u8; NONCE_LEN]>,
}

impl Context {
    /// `KeySchedule<ROLE>(mode_base, shared_secret, info, psk = "",
    /// psk_id = "")` of RFC 9180 §5.1, for the suite of `kem_id`. The
    /// exporter secret is not derived: age never exports.
    ///
    /// # Errors
    ///
    /// [`Error::Crypto`] when HKDF refuses its lengths, which it does not
    /// for these.
    pub(crate) fn new(kem_id: u16, shared_secret: &[u8], info: &[u8]) -> Result<Self, Error> {
        let mut suite_id = b"HPKE".to_vec();
        for id in [kem_id, KDF_ID, AEAD_ID] {
            suite_id.extend_from_slice(&id.to_be_bytes());
        }
        let psk_id_hash = labeled_extract(&suite_id, &[], b"psk_id_hash", &[]);
        let info_hash = labeled_extract(&suite_id, &[], b"info_hash", info);
        let mut context = vec![MODE_BASE];
        context.extend_from_slice(&*psk_id_hash);
        context.extend_from_slice(&*info_hash);
        let secret = labeled_extract(&suite_id, shared_secret, b"secret", &[]);
        let key = labeled_expand::<KEY_LEN>(&suite_id, &*secret, b"key", &context)?;
        let nonce = labeled_expand(&suite_id, &*secret, b"base_nonce", &context)?;
        Ok(Context {
            aead: ChaCha20Poly1305::new(&key),
            nonce,
        })
    }

    /// `ContextS.Seal(aad = "", pt)` of RFC 9180 §5.2 for the first
    /// message: the ciphertext and its tag.
    pub(crate) fn seal(&self, plaintext: &[u8]) -> Vec<u8> {
        self.aead.encrypt(&self.nonce, &[], plaintext)
    }

    /// `ContextR.Open(aad = "", ct)` of RFC 9180 §5.2 for the first
    /// message: the plaintext, or `None` when the tag does not match.
    pub(crate) fn open(&self, ciphertext: &[u8]) -> Option<Zeroizing<Vec<u8>>> {
        self.aead
            .decrypt(&self.nonce, &[], ciphertext)
            .ok()
            .map(Zeroizing::new)
    }
}

/// `ExtractAndExpand(dh, kem_context)` of RFC 9180 §4.1 for a DHKEM over
/// HKDF-SHA256 (`Nsecret` = 32) with identifier `kem_id`: the KEM's shared
/// secret from the Diffie–Hellman output `dh` and `kem_context = enc ||
/// pkRm`.
///
/// # Errors
///
/// [`Error::Crypto`] when HKDF refuses its lengths, which it does not for
/// these.
pub(crate) fn extract_and_expand(
    kem_id: u16,
    dh: &[u8],
    kem_context: &[u8],
) -> Result<Zeroizing<[u8; 32]>, Error> {
    let suite_id = [&b"KEM"[..], &kem_id.to_be_bytes()].concat();
    let eae_prk = labeled_extract(&suite_id, &[], b"eae_prk", dh);
    labeled_expand(&suite_id, &*eae_prk, b"shared_secret", kem_context)
}

/// `LabeledExtract(salt, label, ikm)` of RFC 9180 §4:
/// `Extract(salt, "HPKE-v1" || suite_id || label || ikm)`.
fn labeled_extract(suite_id: &[u8], salt: &[u8], label: &[u8], ikm: &[u8]) -> Zeroizing<[u8; 32]> {
    let labeled_ikm = Zeroizing::new([VERSION_LABEL, suite_id, label, ikm].concat());
    Zeroizing::new(Hkdf::<Sha256>::extract(salt, &labeled_ikm))
}

/// `LabeledExpand(prk, label, info, L)` of RFC 9180 §4:
/// `Expand(prk, I2OSP(L, 2) || "HPKE-v1" || suite_id || label || info, L)`.
fn labeled_expand<const L: usize>(
    suite_id: &[u8],
    prk: &[u8],
    label: &[u8],
    info: &[u8],
) -> Result<Zeroizing<[u8; L]>, Error> {
    const { assert!(L <= u16::MAX as usize, "I2OSP(L, 2) holds L") };
    let labeled_info = [
        &(L as u16).to_be_bytes(),
        VERSION_LABEL,
        suite_id,
        label,
        info,
    ]
    .concat();
    let mut okm = Zeroizing::new([0u8; L]);
    Hkdf::<Sha256>::from_prk(prk)?.expand(&labeled_info, &mut *okm)?;
    Ok(okm)
}

#[cfg(test)]
mod tests {
    use super::*;
    use simdcrypt_testsupport::unhex as hex;

    /// The key schedule and first encryption of the MLKEM768-X25519,
    /// HKDF-SHA256, ChaCha20Poly1305 vector of draft-ietf-hpke-pq (as in
    /// filippo.io/hpke's `testdata/hpke-pq.json`).
    #[test]
    fn hpke_pq_vector_key_schedule() {
        let shared = hex("b90cf181d95351d1091569487caaf6c3434eeb181a2c4c04631980ce139afa67");
        let info =
            hex("34663634363532303666366532303631323034373732363536333639363136653230353537323665");
        let context = Context::new(0x647a, &shared, &info).unwrap();
        assert_eq!(context.nonce.to_vec(), hex("5ddfaaee10a4dfd0d8e1b49f"));
        let aad = hex("436f756e742d30");
        let pt = hex(
            "34323635363137353734373932303639373332303734373237353734363832633230373437323735373436383230363236353631373537343739",
        );
        let ct = hex(
            "ac355d192158cd54250e1702be51e9d2eafe5f9292a9f153e02a2323e1ff071a30947836c38c63c986c28ccf05e00d4e5fe066a48ab8d5b39c69d32da80c93dc868daa0f853a6cbdd640",
        );
        assert_eq!(context.aead.encrypt(&context.nonce, &aad, &pt), ct);
        assert_eq!(context.open(&context.seal(&pt)).unwrap().to_vec(), pt);
    }
}
