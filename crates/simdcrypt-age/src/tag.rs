//! Tagged recipients, age 1.3's `tag` package: P-256 (`age1tag1…`, stanza
//! `p256tag`) and hybrid ML-KEM-768 + P-256 (`age1tagpq1…`, stanza
//! `mlkem768p256tag`, post-quantum). The file key is sealed with HPKE
//! (RFC 9180) base mode, HKDF-SHA256 and ChaCha20Poly1305, `info` the
//! stanza's label, over DHKEM(P-256, HKDF-SHA256) or the MLKEM768-P256 KEM
//! of draft-ietf-hpke-pq; the stanza also carries a 4-byte tag of the
//! recipient, so that a hardware key is asked only for its own stanzas.
//!
//! Only recipients are here: their identities live in hardware keys,
//! reached through plugins, as in age.
//!
//! ```
//! use simdcrypt_age::tag::Recipient;
//! use simdcrypt_age::Recipient as _;
//!
//! let r: Recipient = "age1tag1qwe0kafsjrar4txm6heqnhpfuggzr0gvznz7fvygxrlq90u5mq2pysxtw6h".parse()?;
//! assert!(!r.is_post_quantum());
//! assert_eq!(r.to_bytes().len(), 33);
//! # Ok::<(), simdcrypt_age::Error>(())
//! ```

use std::fmt;
use std::str::FromStr;

use ml_kem::array::Array;
use ml_kem::{B32, EncapsulationKey, KeyExport, MlKem768};
use p256::ecdh::diffie_hellman;
use p256::elliptic_curve::sec1::ToSec1Point;
use p256::{FieldBytes, NonZeroScalar, PublicKey};
use simdcrypt::hash::Sha256;
use simdcrypt::kdf::Hkdf;
use zeroize::Zeroizing;

use crate::format::b64_encode;
use crate::hpke::{Context, extract_and_expand};
use crate::pq::{ML_KEM_EK_LEN, combine};
use crate::{Error, FileKey, Stanza, bech32, random};

/// The stanza tag of P-256 recipients, the first argument.
pub const CLASSIC_TAG: &str = "p256tag";
/// The stanza tag of hybrid ML-KEM-768 + P-256 recipients.
pub const HYBRID_TAG: &str = "mlkem768p256tag";

/// Bytes of a compressed P-256 point (SEC 1 §2.3.3): `02` or `03`, then x.
const COMPRESSED_LEN: usize = 1 + 32;
/// Bytes of an uncompressed P-256 point (SEC 1 §2.3.3): `04`, x, then y.
const UNCOMPRESSED_LEN: usize = 1 + 32 + 32;
/// Bytes of a hybrid public key: `ek_PQ || ek_T`, the P-256 point
/// uncompressed.
const HYBRID_KEY_LEN: usize = ML_KEM_EK_LEN + UNCOMPRESSED_LEN;
/// Bytes of the recipient tag, the stanza's first argument.
const TAG_LEN: usize = 4;
/// The combiner label of MLKEM768-P256 (draft-ietf-hpke-pq).
const HYBRID_COMBINER_LABEL: &[u8] = b"MLKEM768-P256";

/// What differs between the two kinds of tagged recipient.
struct Suite {
    /// The Bech32 prefix of the recipient.
    hrp: &'static str,
    /// The stanza tag.
    stanza_tag: &'static str,
    /// HPKE's `info`, and the salt of the recipient tag.
    label: &'static [u8],
    /// The HPKE KEM identifier.
    kem_id: u16,
}

/// `age1tag1…`: DHKEM(P-256, HKDF-SHA256), KEM 0x0010 (RFC 9180 §7.1).
const CLASSIC: Suite = Suite {
    hrp: "age1tag",
    stanza_tag: CLASSIC_TAG,
    label: b"age-encryption.org/p256tag",
    kem_id: 0x0010,
};

/// `age1tagpq1…`: MLKEM768-P256, KEM 0x0050 (draft-ietf-hpke-pq).
const HYBRID: Suite = Suite {
    hrp: "age1tagpq",
    stanza_tag: HYBRID_TAG,
    label: b"age-encryption.org/mlkem768p256tag",
    kem_id: 0x0050,
};

/// The public key of a tagged recipient.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Key {
    /// A P-256 point.
    Classic(PublicKey),
    /// An ML-KEM-768 encapsulation key and a P-256 point.
    Hybrid {
        ml_kem: EncapsulationKey<MlKem768>,
        p256: PublicKey,
    },
}

/// A tagged recipient: `age1tag1…` (P-256) or `age1tagpq1…` (hybrid
/// ML-KEM-768 + P-256, post-quantum), as age's `tag.Recipient`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Recipient(Key);

impl Recipient {
    /// The public key's bytes, as Bech32 carries them: the compressed
    /// 33-byte P-256 point, or for a hybrid recipient the 1184-byte
    /// ML-KEM-768 encapsulation key then the uncompressed 65-byte point.
    pub fn to_bytes(&self) -> Vec<u8> {
        match &self.0 {
            Key::Classic(p256) => p256.to_sec1_point(true).as_bytes().to_vec(),
            Key::Hybrid { ml_kem, p256 } => [
                ml_kem.to_bytes().as_slice(),
                p256.to_sec1_point(false).as_bytes(),
            ]
            .concat(),
        }
    }

    /// The parameters of this recipient's kind.
    fn suite(&self) -> &'static Suite {
        match self.0 {
            Key::Classic(_) => &CLASSIC,
            Key::Hybrid { .. } => &HYBRID,
        }
    }

    /// The KEM's `Encap` with the ephemeral P-256 scalar `ephemeral` and, for
    /// a hybrid recipient, ML-KEM's 32-byte `message`: the encapsulated key
    /// *enc* and the shared secret.
    fn encapsulate(
        &self,
        ephemeral: &NonZeroScalar,
        message: &B32,
    ) -> Result<(Vec<u8>, Zeroizing<[u8; 32]>), Error> {
        let share = PublicKey::from_secret_scalar(ephemeral).to_sec1_point(false);
        match &self.0 {
            // DHKEM (RFC 9180 §4.1): kem_context = enc || pkRm, both
            // uncompressed.
            Key::Classic(p256) => {
                let dh = diffie_hellman(ephemeral, p256.as_affine());
                let kem_context = [share.as_bytes(), p256.to_sec1_point(false).as_bytes()].concat();
                let shared =
                    extract_and_expand(CLASSIC.kem_id, dh.raw_secret_bytes(), &kem_context)?;
                Ok((share.as_bytes().to_vec(), shared))
            }
            // The hybrid KEM (draft-ietf-hpke-pq): enc = ct_PQ || ct_T.
            Key::Hybrid { ml_kem, p256 } => {
                let (ct_pq, ss_pq) = ml_kem.encapsulate_deterministic(message);
                let ss_pq = Zeroizing::new(ss_pq);
                let ss_t = diffie_hellman(ephemeral, p256.as_affine());
                let shared = combine(
                    HYBRID_COMBINER_LABEL,
                    &ss_pq,
                    ss_t.raw_secret_bytes(),
                    share.as_bytes(),
                    p256.to_sec1_point(false).as_bytes(),
                );
                Ok(([ct_pq.as_slice(), share.as_bytes()].concat(), shared))
            }
        }
    }

    /// The recipient tag of *enc* (age's `Recipient.Tag`):
    /// `HKDF-Extract(salt = label, ikm = enc || SHA-256(key)[:4])[:4]`, the
    /// key being the compressed point, or for a hybrid recipient its
    /// uncompressed P-256 point alone.
    fn tag(&self, enc: &[u8]) -> [u8; TAG_LEN] {
        let bytes = self.to_bytes();
        let key = match self.0 {
            Key::Classic(_) => &bytes[..],
            Key::Hybrid { .. } => &bytes[ML_KEM_EK_LEN..],
        };
        let ikm = [enc, &Sha256::digest(key)[..TAG_LEN]].concat();
        let prk = Hkdf::<Sha256>::extract(self.suite().label, &ikm);
        let mut tag = [0; TAG_LEN];
        tag.copy_from_slice(&prk[..TAG_LEN]);
        tag
    }
}

/// A P-256 point from its SEC 1 encoding, which must be compressed
/// (`compressed`) or uncompressed; the point at infinity, an `x` or `y` not
/// below p, and a point off the curve are refused (age's `nistec` and
/// `crypto/ecdh` checks).
fn parse_point(bytes: &[u8], compressed: bool) -> Option<PublicKey> {
    let tag_ok = match bytes.first() {
        Some(0x02 | 0x03) => compressed,
        Some(0x04) => !compressed,
        _ => false,
    };
    tag_ok.then(|| PublicKey::from_sec1_bytes(bytes).ok())?
}

impl FromStr for Recipient {
    type Err = Error;

    /// Parses `age1tag1…` (Bech32 of a compressed P-256 point) or
    /// `age1tagpq1…` (Bech32 of an ML-KEM-768 encapsulation key, checked as
    /// FIPS 203 §7.2 asks, then an uncompressed P-256 point), lower case.
    fn from_str(s: &str) -> Result<Self, Error> {
        let invalid = |why: &str| Error::Recipient(s.to_owned(), why.to_owned());
        let prefix = |hrp: &str| {
            s.get(..=hrp.len())
                .is_some_and(|p| p.eq_ignore_ascii_case(&format!("{hrp}1")))
        };
        if prefix(HYBRID.hrp) {
            let key: [u8; HYBRID_KEY_LEN] = bech32::decode_public(s, HYBRID.hrp)?;
            let (ek, point) = key.split_at(ML_KEM_EK_LEN);
            let ml_kem = Array::try_from(ek)
                .ok()
                .and_then(|ek| EncapsulationKey::new(&ek).ok())
                .ok_or_else(|| invalid("its ML-KEM-768 encapsulation key is not valid"))?;
            let p256 = parse_point(point, false).ok_or_else(|| {
                invalid("its P-256 key is not an uncompressed point on the curve")
            })?;
            Ok(Recipient(Key::Hybrid { ml_kem, p256 }))
        } else if prefix(CLASSIC.hrp) {
            let key: [u8; COMPRESSED_LEN] = bech32::decode_public(s, CLASSIC.hrp)?;
            let p256 = parse_point(&key, true)
                .ok_or_else(|| invalid("its key is not a compressed P-256 point on the curve"))?;
            Ok(Recipient(Key::Classic(p256)))
        } else {
            Err(invalid(
                "tagged recipients start with age1tag1 or age1tagpq1",
            ))
        }
    }
}

impl fmt::Display for Recipient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&bech32::encode(self.suite().hrp, &self.to_bytes(), false))
    }
}

/// An ephemeral P-256 scalar from the operating system's CSPRNG: 32 bytes,
/// drawn again when not in [1, n) (a chance below 2^-32).
fn random_scalar() -> Result<Zeroizing<NonZeroScalar>, Error> {
    loop {
        let bytes = Zeroizing::new(FieldBytes::from(random::<32>()?));
        if let Some(scalar) = NonZeroScalar::from_repr(*bytes).into_option() {
            return Ok(Zeroizing::new(scalar));
        }
    }
}

impl crate::Recipient for Recipient {
    /// HPKE `SealBase(pkR = recipient, info = label, aad = "", pt = file
    /// key)`, in the stanza `<tag> <b64 recipient tag> <b64 enc>`; the
    /// ephemeral scalar and ML-KEM's message come from the operating
    /// system's CSPRNG.
    fn wrap(&self, file_key: &FileKey) -> Result<Vec<Stanza>, Error> {
        let ephemeral = random_scalar()?;
        let message = match self.0 {
            Key::Classic(_) => Zeroizing::new(B32::default()),
            Key::Hybrid { .. } => Zeroizing::new(B32::from(random::<32>()?)),
        };
        let (enc, shared) = self.encapsulate(&ephemeral, &message)?;
        let suite = self.suite();
        let body = Context::new(suite.kem_id, &*shared, suite.label)?.seal(file_key.expose());
        Ok(vec![Stanza {
            tag: suite.stanza_tag.into(),
            args: vec![b64_encode(&self.tag(&enc)), b64_encode(&enc)],
            body,
        }])
    }

    /// True for `age1tagpq1…`: a hybrid recipient goes only with other
    /// post-quantum recipients, as age's "postquantum" label asks.
    fn is_post_quantum(&self) -> bool {
        matches!(self.0, Key::Hybrid { .. })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Recipient as _;
    use crate::pq::ML_KEM_CT_LEN;
    use simdcrypt_testsupport::unhex as hex;

    /// The classic recipient of age's test plugin (`age-plugin-tagtest`).
    const CLASSIC_RECIPIENT: &str = include_str!("../tests/data/tagtest-classic.txt");

    fn scalar(bytes: &[u8]) -> NonZeroScalar {
        let bytes: [u8; 32] = bytes.try_into().unwrap();
        NonZeroScalar::from_repr(bytes.into()).unwrap()
    }

    /// A recipient from its raw public key, under its kind's prefix.
    fn from_bytes(suite: &Suite, bytes: &[u8]) -> Result<Recipient, Error> {
        bech32::encode(suite.hrp, bytes, false).parse()
    }

    /// RFC 9180 A.3.1, DHKEM(P-256, HKDF-SHA256): `skEm` and `pkRm` give
    /// `enc` and `shared_secret` (the vector's AEAD is AES-128-GCM, so the
    /// KEM alone is checked).
    #[test]
    fn rfc9180_dhkem_p256_vector() {
        let pk_rm = hex(
            "04fe8c19ce0905191ebc298a9245792531f26f0cece2460639e8bc39cb7f706a826a779b4cf969b8a0e539c7f62fb3d30ad6aa8f80e30f1d128aafd68a2ce72ea0",
        );
        let recipient = Recipient(Key::Classic(parse_point(&pk_rm, false).unwrap()));
        let sk_em = scalar(&hex(
            "4995788ef4b9d6132b249ce59a77281493eb39af373d236a1fe415cb0c2d7beb",
        ));
        let (enc, shared) = recipient.encapsulate(&sk_em, &B32::default()).unwrap();
        assert_eq!(
            enc,
            hex(
                "04a92719c6195d5085104f469a8b9814d5838ff72b60501e2c4466e5e67b325ac98536d7b61a1af4b78e5b7f951c0900be863c403ce65c9bfcb9382657222d18c4"
            )
        );
        assert_eq!(
            shared.to_vec(),
            hex("c0d26aeab536609a572b07695d933b589dcf363ff9d93c93adea537aeabb8cb8")
        );
    }

    /// A field of the MLKEM768-P256 vector.
    fn vector(name: &str) -> Vec<u8> {
        include_str!("../tests/data/hpke/mlkem768-p256.txt")
            .lines()
            .find_map(|l| l.strip_prefix(name)?.strip_prefix(": "))
            .map(hex)
            .unwrap()
    }

    /// The MLKEM768-P256 vector of draft-ietf-hpke-pq (filippo.io/hpke's
    /// `testdata/hpke-pq.json`, KEM 0x0050): `ikmE` is ML-KEM's 32-byte
    /// message then the P-256 scalar.
    #[test]
    fn hpke_pq_mlkem768_p256_vector() {
        let recipient = from_bytes(&HYBRID, &vector("pkRm")).unwrap();
        assert_eq!(recipient.to_bytes(), vector("pkRm"));
        let ikm_e = vector("ikmE");
        let message = B32::try_from(&ikm_e[..32]).unwrap();
        let (enc, shared) = recipient
            .encapsulate(&scalar(&ikm_e[32..64]), &message)
            .unwrap();
        assert_eq!(enc, vector("enc"));
        assert_eq!(shared.to_vec(), vector("shared_secret"));
    }

    /// The stanza's shape: its tag, the recipient tag of its *enc*, the
    /// sealed file key's length.
    fn check_stanza<const ENC_LEN: usize>(recipient: &Recipient, stanza_tag: &str) {
        let file_key = FileKey::from_bytes(*b"sixteen byte key");
        let [stanza] = &recipient.wrap(&file_key).unwrap()[..] else {
            panic!("one stanza expected")
        };
        assert_eq!(stanza.tag, stanza_tag);
        assert_eq!(stanza.args.len(), 2);
        let tag = stanza.arg_bytes::<TAG_LEN>(0, "tag").unwrap();
        let enc = stanza.arg_bytes::<ENC_LEN>(1, "enc").unwrap();
        assert_eq!(tag, recipient.tag(&enc));
        assert_eq!(stanza.body.len(), FileKey::LEN + 16);
    }

    #[test]
    fn wrap_makes_one_well_formed_stanza() {
        let classic: Recipient = CLASSIC_RECIPIENT.parse().unwrap();
        check_stanza::<UNCOMPRESSED_LEN>(&classic, CLASSIC_TAG);
        assert!(!classic.is_post_quantum());
        let hybrid = from_bytes(&HYBRID, &vector("pkRm")).unwrap();
        check_stanza::<{ ML_KEM_CT_LEN + UNCOMPRESSED_LEN }>(&hybrid, HYBRID_TAG);
        assert!(hybrid.is_post_quantum());
    }

    #[test]
    fn display_round_trips() {
        let classic: Recipient = CLASSIC_RECIPIENT.parse().unwrap();
        assert_eq!(classic.to_string(), CLASSIC_RECIPIENT);
        let hybrid = from_bytes(&HYBRID, &vector("pkRm")).unwrap();
        let text = hybrid.to_string();
        assert!(text.starts_with("age1tagpq1"));
        assert_eq!(text.parse::<Recipient>().unwrap(), hybrid);
    }

    #[test]
    fn malformed_hybrid_keys_are_refused() {
        let good = vector("pkRm");
        // The point compressed, or cut short.
        let mut compressed = good[..ML_KEM_EK_LEN].to_vec();
        compressed.extend(CLASSIC_RECIPIENT.parse::<Recipient>().unwrap().to_bytes());
        assert!(from_bytes(&HYBRID, &compressed).is_err());
        assert!(from_bytes(&HYBRID, &good[..good.len() - 1]).is_err());
        // A y that is not the point's.
        let mut off_curve = good.clone();
        *off_curve.last_mut().unwrap() ^= 1;
        assert!(from_bytes(&HYBRID, &off_curve).is_err());
        // An encapsulation key whose coefficients are not reduced mod q.
        let mut unreduced = good.clone();
        unreduced[..2].copy_from_slice(&[0xff, 0xff]);
        assert!(from_bytes(&HYBRID, &unreduced).is_err());
        // Each key under the other's prefix.
        assert!(from_bytes(&CLASSIC, &good).is_err());
        let classic = CLASSIC_RECIPIENT.parse::<Recipient>().unwrap().to_bytes();
        assert!(from_bytes(&HYBRID, &classic).is_err());
        // Upper case, and other prefixes.
        assert!(
            CLASSIC_RECIPIENT
                .to_uppercase()
                .parse::<Recipient>()
                .is_err()
        );
        let x25519 = crate::x25519::Identity::generate().unwrap().to_public();
        assert!(x25519.to_string().parse::<Recipient>().is_err());
        assert!(
            bech32::encode("age1tagx", &classic, false)
                .parse::<Recipient>()
                .is_err()
        );
    }

    #[test]
    fn malformed_points_are_refused() {
        let good = CLASSIC_RECIPIENT.parse::<Recipient>().unwrap().to_bytes();
        // x all ones: not below p.
        let mut big = good.clone();
        big[1..].fill(0xff);
        assert!(from_bytes(&CLASSIC, &big).is_err());
        // SEC 1's compact (0x05) and uncompressed forms are not age1tag1 keys.
        let mut compact = good.clone();
        compact[0] = 0x05;
        assert!(from_bytes(&CLASSIC, &compact).is_err());
        // An x with no point: x³ - 3x + b is not a square for x = 1.
        let mut one = good.clone();
        one[1..].fill(0);
        one[COMPRESSED_LEN - 1] = 1;
        assert!(from_bytes(&CLASSIC, &one).is_err());
        assert!(from_bytes(&CLASSIC, &good[..32]).is_err());
        assert!(from_bytes(&CLASSIC, &[0]).is_err());
        // Flipping the parity gives the other valid point.
        let mut other = good.clone();
        other[0] ^= 1;
        assert_ne!(from_bytes(&CLASSIC, &other).unwrap().to_bytes(), good);
    }
}
