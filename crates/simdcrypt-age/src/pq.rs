//! The MLKEM768-X25519 (i.e. X-Wing) hybrid post-quantum recipient type
//! (c2sp.org/age): the file key sealed with HPKE (RFC 9180) base mode,
//! HKDF-SHA256 and ChaCha20Poly1305 over the KEM MLKEM768-X25519 of
//! draft-ietf-hpke-pq (filippo.io/hpke-pq), which is X-Wing
//! (draft-connolly-cfrg-xwing-kem): ML-KEM-768 and X25519 side by side,
//! their shared secrets bound together by SHA3-256.

use std::fmt;
use std::str::FromStr;

use ml_kem::array::Array;
use ml_kem::{B32, Decapsulate, DecapsulationKey, EncapsulationKey, KeyExport, MlKem768, Seed};
use sha3::{Digest, Sha3_256};
use shake::Shake256;
use shake::digest::{ExtendableOutput, Update, XofReader};
use x25519_dalek::x25519;
use zeroize::Zeroizing;

use crate::format::b64_encode;
use crate::hpke::Context;
use crate::x25519::public_key;
use crate::{Error, FileKey, Stanza, bech32, random};

/// The stanza tag, the first argument.
pub const TAG: &str = "mlkem768x25519";
/// HPKE's `info` for the file key ("mlkem768x25519 recipient stanza").
const INFO: &[u8] = b"age-encryption.org/mlkem768x25519";
/// The Bech32 prefix of identities (upper case when encoded).
const IDENTITY_HRP: &str = "AGE-SECRET-KEY-PQ-";
/// The Bech32 prefix of recipients.
const RECIPIENT_HRP: &str = "age1pq";
/// The HPKE KEM identifier of MLKEM768-X25519 (draft-ietf-hpke-pq), X-Wing's
/// code point.
const KEM_ID: u16 = 0x647a;
/// X-Wing's domain separation label, `\.//^\`, hashed last by the combiner.
const XWING_LABEL: &[u8] = br"\.//^\";
/// Bytes of an ML-KEM-768 encapsulation key (FIPS 203 §8).
pub(crate) const ML_KEM_EK_LEN: usize = 1184;
/// Bytes of an ML-KEM-768 ciphertext (FIPS 203 §8).
pub(crate) const ML_KEM_CT_LEN: usize = 1088;
/// Bytes of an X25519 scalar, point or shared secret.
const X25519_LEN: usize = 32;
/// Bytes of a public key: `ek_M || pk_X`.
const PUBLIC_KEY_LEN: usize = ML_KEM_EK_LEN + X25519_LEN;
/// Bytes of the encapsulated key *enc*: `ct_M || ct_X`.
const ENC_LEN: usize = ML_KEM_CT_LEN + X25519_LEN;
/// Bytes of the stanza body: the sealed 16-byte file key and its tag.
const BODY_LEN: usize = FileKey::LEN + simdcrypt::aead::TAG_LEN;

/// An ML-KEM-768 ciphertext.
type MlKemCiphertext = ml_kem::Ciphertext<MlKem768>;

/// `X25519(secret, public)` (RFC 7748), or `None` for the all-zero output of
/// a low-order `public`, which filippo.io/hpke's X25519 refuses on both
/// sides.
fn diffie_hellman(
    secret: &[u8; X25519_LEN],
    public: [u8; X25519_LEN],
) -> Option<Zeroizing<[u8; X25519_LEN]>> {
    let shared = Zeroizing::new(x25519(*secret, public));
    (!shared.iter().all(|&b| b == 0)).then_some(shared)
}

/// The hybrid KEMs' combiner (draft-ietf-hpke-pq; X-Wing's, with its
/// label): `SHA3-256(ss_PQ || ss_T || ct_T || ek_T || label)`, the KEM's
/// shared secret from ML-KEM's and the group's shared secrets, the group's
/// ephemeral share and the recipient's group key.
pub(crate) fn combine(
    label: &[u8],
    ss_pq: &[u8],
    ss_t: &[u8],
    ct_t: &[u8],
    ek_t: &[u8],
) -> Zeroizing<[u8; 32]> {
    let mut hash = Sha3_256::new();
    for part in [ss_pq, ss_t, ct_t, ek_t, label] {
        Digest::update(&mut hash, part);
    }
    Zeroizing::new(hash.finalize().into())
}

/// The key pair a 32-byte identity expands to (filippo.io/hpke-pq,
/// `NewPrivateKey`): SHAKE256 of the seed gives 64 bytes of ML-KEM-768 seed
/// `d || z`, then the 32-byte X25519 scalar.
struct KeyPair {
    ml_kem: DecapsulationKey<MlKem768>,
    x25519: Zeroizing<[u8; X25519_LEN]>,
    x25519_public: [u8; X25519_LEN],
}

impl KeyPair {
    /// Expands `seed`.
    fn expand(seed: &[u8; 32]) -> Self {
        let mut shake = Shake256::default();
        shake.update(seed);
        let mut reader = shake.finalize_xof();
        let mut ml_kem_seed = Zeroizing::new(Seed::default());
        reader.read(&mut ml_kem_seed);
        let mut x25519_secret = Zeroizing::new([0u8; X25519_LEN]);
        reader.read(&mut *x25519_secret);
        KeyPair {
            ml_kem: DecapsulationKey::from_seed(*ml_kem_seed),
            x25519_public: public_key(&x25519_secret),
            x25519: x25519_secret,
        }
    }

    /// The KEM's `Decap(enc)`: the shared secret. ML-KEM rejects implicitly
    /// (a wrong `ct_M` gives an unrelated secret and HPKE's tag fails), but
    /// an X25519 share of low order is refused.
    fn decapsulate(&self, enc: &[u8; ENC_LEN]) -> Result<Zeroizing<[u8; 32]>, Error> {
        let (ct_m, ct_x) = split_enc(enc)?;
        let ss_m = Zeroizing::new(self.ml_kem.decapsulate(&ct_m));
        let ss_x = diffie_hellman(&self.x25519, ct_x).ok_or_else(|| {
            Error::header(
                "mlkem768x25519 stanza's X25519 share is a low-order point (all-zero shared secret)",
            )
        })?;
        Ok(combine(
            XWING_LABEL,
            &ss_m,
            &*ss_x,
            &ct_x,
            &self.x25519_public,
        ))
    }
}

/// Splits *enc* into the ML-KEM ciphertext `ct_M` and the X25519 share
/// `ct_X`.
fn split_enc(enc: &[u8; ENC_LEN]) -> Result<(MlKemCiphertext, [u8; X25519_LEN]), Error> {
    enc.split_first_chunk::<ML_KEM_CT_LEN>()
        .and_then(|(ct_m, ct_x)| Some((Array::from(*ct_m), ct_x.try_into().ok()?)))
        .ok_or_else(|| Error::header("mlkem768x25519 stanza's enc does not split as ct_M || ct_X"))
}

/// A hybrid recipient: the public key `age1pq1…`, an ML-KEM-768
/// encapsulation key and an X25519 public key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Recipient {
    ml_kem: EncapsulationKey<MlKem768>,
    x25519: [u8; X25519_LEN],
}

impl Recipient {
    /// The public key's bytes: `ek_M || pk_X`, 1216 bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        [self.ml_kem.to_bytes().as_slice(), &self.x25519].concat()
    }
}

impl FromStr for Recipient {
    type Err = Error;

    /// Parses `age1pq1…` (lower case Bech32 of 1216 bytes), checking the
    /// ML-KEM-768 encapsulation key as FIPS 203 §7.2 asks.
    fn from_str(s: &str) -> Result<Self, Error> {
        let invalid = |why: String| Error::Recipient(s.to_owned(), why);
        let key: [u8; PUBLIC_KEY_LEN] = bech32::decode_public(s, RECIPIENT_HRP)?;
        let (ml_kem, x25519) = key
            .split_first_chunk::<ML_KEM_EK_LEN>()
            .and_then(|(ek, pk)| Some((Array::from(*ek), pk.try_into().ok()?)))
            .ok_or_else(|| invalid("does not split as ek_M || pk_X".into()))?;
        let ml_kem = EncapsulationKey::new(&ml_kem)
            .map_err(|_| invalid("its ML-KEM-768 encapsulation key is not valid".into()))?;
        Ok(Recipient { ml_kem, x25519 })
    }
}

impl fmt::Display for Recipient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&bech32::encode(RECIPIENT_HRP, &self.to_bytes(), false))
    }
}

impl crate::Recipient for Recipient {
    /// HPKE `SealBase(pkR = recipient, info, aad = "", pt = file key)`; the
    /// KEM's `Encap` draws ML-KEM's 32-byte message and the ephemeral X25519
    /// scalar from the operating system's CSPRNG.
    fn wrap(&self, file_key: &FileKey) -> Result<Vec<Stanza>, Error> {
        let message = Zeroizing::new(B32::from(random::<32>()?));
        let (ct_m, ss_m) = self.ml_kem.encapsulate_deterministic(&message);
        let ss_m = Zeroizing::new(ss_m);
        let ephemeral = Zeroizing::new(random::<X25519_LEN>()?);
        let ct_x = public_key(&ephemeral);
        let ss_x = diffie_hellman(&ephemeral, self.x25519).ok_or_else(|| {
            Error::Recipient(
                self.to_string(),
                "its X25519 public key is a low-order point".into(),
            )
        })?;
        let shared = combine(XWING_LABEL, &ss_m, &*ss_x, &ct_x, &self.x25519);
        let body = Context::new(KEM_ID, &*shared, INFO)?.seal(file_key.expose());
        Ok(vec![Stanza {
            tag: TAG.into(),
            args: vec![b64_encode(&[ct_m.as_slice(), &ct_x].concat())],
            body,
        }])
    }

    fn is_post_quantum(&self) -> bool {
        true
    }
}

bech32::secret_identity!(
    /// A hybrid identity: the 32-byte seed `AGE-SECRET-KEY-PQ-1…`, wiped on
    /// drop.
    Identity,
    IDENTITY_HRP,
    "post-quantum"
);

impl Identity {
    /// The recipient of this identity (filippo.io/hpke-pq,
    /// `PrivateKeyToPublicKey`).
    pub fn to_public(&self) -> Recipient {
        let keys = KeyPair::expand(&self.0);
        Recipient {
            ml_kem: keys.ml_kem.encapsulation_key().clone(),
            x25519: keys.x25519_public,
        }
    }
}

impl crate::Identity for Identity {
    /// HPKE `OpenBase(enc, skR = identity, info, aad = "", ct = body)`.
    fn unwrap(&self, stanza: &Stanza) -> Result<Option<FileKey>, Error> {
        if stanza.tag != TAG {
            return Ok(None);
        }
        stanza.expect_args(1)?;
        let enc = stanza.arg_bytes::<ENC_LEN>(0, "encapsulated key")?;
        let body = stanza.body_bytes::<BODY_LEN>()?;
        let shared = KeyPair::expand(&self.0).decapsulate(&enc)?;
        let file_key = Context::new(KEM_ID, &*shared, INFO)?
            .open(body)
            .and_then(|plain| <[u8; FileKey::LEN]>::try_from(plain.as_slice()).ok())
            .map(FileKey::from_bytes);
        Ok(file_key)
    }
}

#[cfg(test)]
mod tests {
    use simdcrypt::hash::Sha256;

    use super::*;
    use crate::{Identity as _, Recipient as _, x25519};
    use simdcrypt_testsupport::{hex as hex_of, unhex as hex};

    /// The example identity of c2sp.org/age, "The MLKEM768-X25519 (i.e.
    /// X-Wing) hybrid post-quantum recipient type".
    const SPEC_IDENTITY: &str =
        "AGE-SECRET-KEY-PQ-1XX76JRALNLXDMEW0CRK45QMCCH4X06SE84UN3VPM33W6HWDX0H3SK3ZQFR";
    /// Its recipient, as the specification prints it.
    const SPEC_RECIPIENT: &str = "age1pq1x34nzsvr0rxjsgdn8zgyhfe8j7ceq5r9rdelkjuh3y235jzxshfg87pzf5zrqtzdxz95paef6caq5aapdmwjjqpjfdyxnzr2zampc3uxy0dg4z2n2gm9su72p0pc3u0jvev55l694v78snxg3yzvcl7yda0eyytqj6a0ec477lnhcy5hzpz4zq3pxanve4cn62gqj3pjy5lqj9c6kyj4v2z8alktn8zh99970x79gjkv7522hv9kfz35zsnxhsx8wwtmu9cy3ftzjgwcp4sshn3llnylnpdsyz5jm72vefv4x5vfwytrefxg4wq3mv42wcrvkj742479zrxzpvp2p3e9fed9f0739vcu80r7ma28qfhnvlv4gfzel9q654dj3zmuvvz893azhxdvs9fxd0r7jzchzcfcs5mkyyjxhw0n2z6dvp9yn9qfdp29h0azxqyjw6v7fhyuzj7zel0uq6j9rd7wgrpz7mf5dnj43jwsgvrc8qcnhy7tu6dkdujuxzkp9xj43xe8h92ktre2a3u3s8mm5mrp9nr9pwkgtz4mdlq9hgn4fps4k57ff6wddn2fy23t47sm20r8km8sd2pcyyafnet8f0dajsrlyjeah4n3mssr6aseevuuskdvq5lzguyvpgwpta742c6698vgutzqgny8usfg0w2he7kq5vyxjd0f9hqg8xk26y9e4th0gezq92q4cpp5p2y9hf5f2cje5l0c3sa3a2qxmm38pxxvhxh99yzmfz0zk7r2s64nnwjhkfgfr3gf8xnmppcgmaykvh5sh6g7vk9790rf8ws0axmr2t7z8aae5fq2029uvcn2ghgt4fu4wgwdc0k0cz52qkvwmuzj8p8k5jgf3xzk5zmrkavjekjrpeq408xz3zxazwkc6tyfmhayrkfpjhwtz5mp8j8guqe43k2q6m2kte03vrw27y3wmqyu5etmt9dnkwcnnpmu9gz9dekfhdevf42ucshphnrk38ra6hx8w5f8q5ru0xdhrjxmwqf6cused7zc5xvq43r0zscjglpwlptpwydhqw64xz7ptjdyeyzpq2zkxtmzg29gzjpvzva4d3l0cenn9xs297wf4y4ukwrunf57xj6pm7nvrkwvtrt8hwcmgv8x7ajw7258ugf9wvkmk4052ekg87tw5vnx8nq2swyzv77v8yqlwsenvamr0zssknwts8rrhfuwj7ykysnq9jxy0uv3kuyt22djszjdtvpz6d0s0kwh8ryynddzud92emeyvvyqktd0jtj7rvvg5gch25v8smlvny3kvn5gagyz475ze2y6q466xqmz2n3hs77lddeqyta2nch5k2u5yacuk9ywnwfdzvyejnucz724hj77hrrmakm7pr3kxsrxq22ejexlud9fy2kdqmkg5yncz7jm5wv2qjk5w5kvcpqsry2yqffh2la52dxfjkjq5rzhjzeyn6dupn0qwtyv7s4lwg3xdarsdlwe2y3tujy480y7z39q259fzx6jhd2j0f5hagqpcpees7hzc2yrk5cy788uk3s7qvp5cpepx24gvws3m2g433exgwppnkjscec8qu4y9z9r7vccexjcjaen42245lmgmxmuavg9alej92322gvvyy2t6267v09ch64y0m53jff0vjj96s0ypk60hr3jw4myd6m5hpn3xjstx7tl2szhpr5qe8jj08ydjc4wy2rch2fhuy3pdfjax5awe9j99ly5hkntzz9fe5zatgjvzdd0kgtxs25njnajyf6ssekp7gelxquusn4pt25czh3scj68kq79wdn5tgm6yvm9nzavrg043x3msnygf8dweknw5jmqd0uvny6ttsn09508k0c55zfnegrm9efhxpfqdkmhh6gjtqmwze9pyyzk3tlhl53k2ykx3qheyty7saeq0d3fzv49zc0k";

    #[test]
    fn the_specification_example_derives_its_recipient() {
        let identity: Identity = SPEC_IDENTITY.parse().unwrap();
        assert_eq!(identity.to_public().to_string(), SPEC_RECIPIENT);
        assert_eq!(*identity.to_bech32(), SPEC_IDENTITY);
        let recipient: Recipient = SPEC_RECIPIENT.parse().unwrap();
        assert_eq!(recipient, identity.to_public());
        assert_eq!(recipient.to_bytes().len(), PUBLIC_KEY_LEN);
    }

    /// `skRm` to `pkRm` of the MLKEM768-X25519, HKDF-SHA256,
    /// ChaCha20Poly1305 vector of draft-ietf-hpke-pq (as in filippo.io/hpke's
    /// `testdata/hpke-pq.json`); `pkRm` by its SHA-256.
    #[test]
    fn hpke_pq_vector_key_derivation() {
        let seed = hex("b3f98b03126a431ccecc62ae0f68e102c2d8e1cc7b21ba85d821d8e31761e0f8");
        let identity = Identity(seed.try_into().unwrap());
        let public = identity.to_public().to_bytes();
        assert_eq!(&public[..8], hex("3c282de306815eb4"));
        assert_eq!(
            hex_of(&Sha256::digest(&public)),
            "120b60e0ae3c00c1c9def1c61aeb12de710bfa49646ae6f99a7e564b25ace493"
        );
    }

    #[test]
    fn wrap_then_unwrap() {
        let identity = Identity::generate().unwrap();
        let recipient: Recipient = identity.to_public().to_string().parse().unwrap();
        let file_key = FileKey::from_bytes(*b"sixteen byte key");
        let stanzas = recipient.wrap(&file_key).unwrap();
        let [stanza] = &stanzas[..] else {
            panic!("one stanza expected")
        };
        assert_eq!(stanza.tag, TAG);
        assert_eq!(stanza.body.len(), BODY_LEN);
        let unwrapped = identity.unwrap(stanza).unwrap().unwrap();
        assert_eq!(unwrapped.expose(), file_key.expose());

        let other = Identity::generate().unwrap();
        assert!(other.unwrap(stanza).unwrap().is_none());
        let again: Identity = identity.to_bech32().parse().unwrap();
        assert!(again.unwrap(stanza).unwrap().is_some());

        let mut foreign = stanza.clone();
        foreign.tag = "X25519".into();
        assert!(identity.unwrap(&foreign).unwrap().is_none());
        let mut long = stanza.clone();
        long.body.push(0);
        assert!(matches!(identity.unwrap(&long), Err(Error::Header(_))));
    }

    #[test]
    fn malformed_keys_are_refused() {
        assert!(SPEC_RECIPIENT.to_uppercase().parse::<Recipient>().is_err());
        assert!(SPEC_IDENTITY.to_lowercase().parse::<Identity>().is_err());
        let x25519_identity = x25519::Identity::generate().unwrap();
        assert!(x25519_identity.to_bech32().parse::<Identity>().is_err());
        assert!(
            x25519_identity
                .to_public()
                .to_string()
                .parse::<Recipient>()
                .is_err()
        );
        // An encapsulation key whose coefficients are not reduced mod q.
        let mut bytes = SPEC_RECIPIENT.parse::<Recipient>().unwrap().to_bytes();
        bytes[..2].copy_from_slice(&[0xff, 0xff]);
        let bad = bech32::encode(RECIPIENT_HRP, &bytes, false);
        assert!(bad.parse::<Recipient>().is_err());
        // A low-order X25519 key parses (as in filippo.io/hpke) but does not wrap.
        let mut bytes = SPEC_RECIPIENT.parse::<Recipient>().unwrap().to_bytes();
        bytes[ML_KEM_EK_LEN..].fill(0);
        let low: Recipient = bech32::encode(RECIPIENT_HRP, &bytes, false)
            .parse()
            .unwrap();
        assert!(matches!(
            low.wrap(&FileKey::from_bytes([0; 16])),
            Err(Error::Recipient(..))
        ));
    }
}
