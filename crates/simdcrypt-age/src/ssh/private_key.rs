//! Private key files: OpenSSH's format (PROTOCOL.key; its encrypted form
//! opened with bcrypt-pbkdf and simdcrypt's AES), PKCS#1 (RFC 8017 A.1.2;
//! under legacy PEM encryption, RFC 1421 §4.6.1.3 with OpenSSL's key
//! derivation, opened with simdcrypt's MD5 and AES-CBC) and PKCS#8
//! (RFC 5208; Ed25519 as RFC 8410 §7).

use rsa::pkcs1::DecodeRsaPrivateKey;
use rsa::pkcs8::der::{Decode as _, asn1::OctetString};
use rsa::pkcs8::{DecodePrivateKey, ObjectIdentifier, PrivateKeyInfoRef};
use simdcrypt::aes::{Aes128Cbc, Aes128Ctr, Aes192Cbc, Aes192Ctr, Aes256Cbc, Aes256Ctr};
use ssh_key::encoding::{Decode as SshDecode, Reader};
use ssh_key::private::KeypairData;
use ssh_key::{Cipher, Kdf};
use zeroize::Zeroizing;

use super::{Encrypted, Identity, Passphrase, Recipient, ed25519, rsa as ssh_rsa, unsupported};
use crate::Error;

/// RFC 8410 §3: id-Ed25519.
const ED25519_OID: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.3.101.112");
/// RFC 8017 A.1: rsaEncryption.
const RSA_OID: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.1.1");

/// An identity error about the key file.
fn bad(why: impl std::fmt::Display) -> Error {
    Error::Identity(format!("SSH private key: {why}"))
}

/// A protected key, kept as read until its passphrase comes.
pub(super) enum Protected {
    /// An OpenSSH key with a cipher and bcrypt-pbkdf.
    OpenSsh(Box<ssh_key::PrivateKey>),
    /// A PKCS#1 PEM file under legacy encryption.
    LegacyPem(Zeroizing<String>),
}

impl Protected {
    /// Whether this crate can open the key: its cipher (checked before the
    /// passphrase is asked for).
    pub(super) fn check(&self) -> Result<(), Error> {
        match self {
            Protected::OpenSsh(key) => cipher(key.cipher()).map(drop),
            Protected::LegacyPem(pem) => legacy_cipher(pem).map(drop),
        }
    }

    /// The identity, once `passphrase` opened the key. An empty
    /// passphrase is refused as such: it protects no key (bcrypt-pbkdf
    /// takes none, `ssh-keygen` writes a key without one unencrypted).
    pub(super) fn decrypt(&self, passphrase: &[u8]) -> Result<Identity, Error> {
        if passphrase.is_empty() {
            return Err(bad(
                "the passphrase is empty: the key is protected with one, which is needed to open it",
            ));
        }
        match self {
            Protected::OpenSsh(key) => decrypt(key, passphrase),
            Protected::LegacyPem(pem) => legacy_decrypt(pem, passphrase),
        }
    }
}

/// Whether `pem` is under legacy PEM encryption (RFC 1421's `Proc-Type`
/// header).
pub(super) fn is_legacy_encrypted(pem: &str) -> bool {
    pem.lines()
        .any(|l| l.trim_end() == "Proc-Type: 4,ENCRYPTED")
}

/// Parses a private key file by its PEM label.
pub(super) fn parse(
    pem: &str,
    public: Option<Recipient>,
    passphrase: Passphrase,
) -> Result<Identity, Error> {
    let label = pem
        .trim_start()
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("-----BEGIN "))
        .and_then(|l| l.strip_suffix("-----"))
        .ok_or_else(|| bad("expected a PEM file (-----BEGIN …-----)"))?;
    match label {
        "OPENSSH PRIVATE KEY" => openssh(pem, passphrase),
        "RSA PRIVATE KEY" if is_legacy_encrypted(pem) => {
            let public = public.ok_or_else(|| {
                bad("a key under legacy PEM encryption does not hold its public key: give its .pub file, or convert the key with \"ssh-keygen -p -m RFC4716\"")
            })?;
            Ok(Identity::Encrypted(Encrypted {
                public,
                key: Protected::LegacyPem(Zeroizing::new(pem.to_owned())),
                passphrase,
                decrypted: std::sync::OnceLock::new(),
            }))
        }
        "RSA PRIVATE KEY" => {
            let key =
                rsa::PrivateKey::from_pkcs1_pem(pem).map_err(|e| bad(format!("PKCS#1: {e}")))?;
            rsa_identity(key)
        }
        "PRIVATE KEY" => pkcs8(pem),
        "ENCRYPTED PRIVATE KEY" => Err(bad(
            "encrypted PKCS#8 is not supported: convert the key with \"ssh-keygen -p -m RFC4716\"",
        )),
        other => Err(bad(format!(
            "unsupported PEM type {other:?}: expected an OpenSSH, PKCS#1 or PKCS#8 private key"
        ))),
    }
}

fn rsa_identity(key: rsa::PrivateKey) -> Result<Identity, Error> {
    ssh_rsa::Identity::new(key).map(Identity::Rsa).map_err(bad)
}

/// A PKCS#8 `PrivateKeyInfo`: RSA, or Ed25519 (its `privateKey` an OCTET
/// STRING holding the 32-byte seed).
fn pkcs8(pem: &str) -> Result<Identity, Error> {
    let (_, der) = rsa::pkcs8::der::pem::decode_vec(pem.trim().as_bytes())
        .map_err(|e| bad(format!("PKCS#8: {e}")))?;
    let der = Zeroizing::new(der);
    let info = PrivateKeyInfoRef::from_der(&der).map_err(|e| bad(format!("PKCS#8: {e}")))?;
    match info.algorithm.oid {
        RSA_OID => rsa_identity(
            rsa::PrivateKey::from_pkcs8_der(&der).map_err(|e| bad(format!("PKCS#8: {e}")))?,
        ),
        ED25519_OID => {
            let seed = OctetString::from_der(info.private_key.as_bytes())
                .ok()
                .and_then(|s| <[u8; 32]>::try_from(s.as_bytes()).ok())
                .ok_or_else(|| bad("PKCS#8: an Ed25519 key is a 32-byte OCTET STRING"))?;
            Ok(Identity::Ed25519(ed25519::Identity::from_seed(
                &Zeroizing::new(seed),
            )))
        }
        oid => Err(bad(format!(
            "PKCS#8 key of algorithm {oid} is not supported: age takes ssh-ed25519 and ssh-rsa keys"
        ))),
    }
}

/// An OpenSSH private key file: the identity, or, when it is protected, an
/// [`Encrypted`] identity that knows its public key.
fn openssh(pem: &str, passphrase: Passphrase) -> Result<Identity, Error> {
    let key = ssh_key::PrivateKey::from_openssh(pem).map_err(|e| {
        bad(match openssh_key_type(pem) {
            Some(t) if t != "ssh-ed25519" && t != "ssh-rsa" => unsupported(t),
            _ => format!("OpenSSH: {e}"),
        })
    })?;
    if key.is_encrypted() {
        // Its public key, in the clear, is how its stanzas are known (and
        // what `-i` encrypts to): a recipient, so at least 2048 bits for RSA
        // as age's `NewEncryptedSSHIdentity` asks.
        let public = Recipient::from_key(key.public_key().key_data()).map_err(bad)?;
        // Its cipher is checked when a stanza is addressed to it, as age
        // does: a key nothing asks to open may be any.
        return Ok(Identity::Encrypted(Encrypted {
            public,
            key: Protected::OpenSsh(Box::new(key)),
            passphrase,
            decrypted: std::sync::OnceLock::new(),
        }));
    }
    keypair(key.key_data())
}

/// The type of the first public key of an OpenSSH private key file
/// (PROTOCOL.key: magic, cipher, KDF, KDF options, count, then the public
/// key, whose first string is its type), to name a type that is refused.
fn openssh_key_type(pem: &str) -> Option<String> {
    let base64: String = pem
        .lines()
        .filter(|l| !l.starts_with("-----"))
        .collect::<String>();
    let blob = base64::Engine::decode(&base64::engine::general_purpose::STANDARD, base64).ok()?;
    let reader = &mut blob.strip_prefix(b"openssh-key-v1\0")?;
    for _ in 0..3 {
        <Vec<u8> as SshDecode>::decode(reader).ok()?;
    }
    <u32 as SshDecode>::decode(reader).ok()?;
    let public = <Vec<u8> as SshDecode>::decode(reader).ok()?;
    String::from_utf8(<Vec<u8> as SshDecode>::decode(&mut &public[..]).ok()?).ok()
}

/// The identity of an OpenSSH key pair.
fn keypair(pair: &KeypairData) -> Result<Identity, Error> {
    match pair {
        KeypairData::Ed25519(k) => Ok(Identity::Ed25519(ed25519::Identity::new(
            &Zeroizing::new(k.private.to_bytes()),
            k.public.0,
        ))),
        KeypairData::Rsa(k) => ssh_rsa::Identity::from_ssh(k)
            .map(Identity::Rsa)
            .map_err(bad),
        other => Err(bad(match other.algorithm() {
            Ok(algorithm) => unsupported(algorithm),
            Err(e) => e.to_string(),
        })),
    }
}

/// The AES mode of an OpenSSH cipher name this crate opens.
#[derive(Clone, Copy)]
enum Mode {
    Ctr,
    Cbc,
}

/// The mode and key length of `cipher`, or why it is refused.
fn cipher(cipher: Cipher) -> Result<(Mode, usize), Error> {
    match cipher {
        Cipher::Aes128Ctr => Ok((Mode::Ctr, 16)),
        Cipher::Aes192Ctr => Ok((Mode::Ctr, 24)),
        Cipher::Aes256Ctr => Ok((Mode::Ctr, 32)),
        Cipher::Aes128Cbc => Ok((Mode::Cbc, 16)),
        Cipher::Aes192Cbc => Ok((Mode::Cbc, 24)),
        Cipher::Aes256Cbc => Ok((Mode::Cbc, 32)),
        other => Err(bad(format!(
            "OpenSSH key encrypted with {} is not supported: re-encrypt it with \"ssh-keygen -p -Z aes256-ctr\"",
            other.as_str()
        ))),
    }
}

/// Decrypts a protected OpenSSH key (PROTOCOL.key): key and IV from
/// bcrypt-pbkdf(passphrase, salt, rounds), the private section decrypted
/// with AES in the file's mode, its two check integers equal (else the
/// passphrase is wrong), then the key pair, comment and padding 1, 2, 3….
fn decrypt(key: &ssh_key::PrivateKey, passphrase: &[u8]) -> Result<Identity, Error> {
    let (mode, key_len) = cipher(key.cipher())?;
    let Kdf::Bcrypt { salt, rounds } = key.kdf() else {
        return Err(bad(
            "an encrypted OpenSSH key without bcrypt is not supported",
        ));
    };
    let sealed = key
        .key_data()
        .encrypted()
        .ok_or_else(|| bad("OpenSSH: the key is not encrypted"))?;
    if sealed.len() % 16 != 0 {
        return Err(bad(
            "OpenSSH: the encrypted section is not whole AES blocks",
        ));
    }
    let mut derived = Zeroizing::new([0u8; 32 + 16]);
    let derived = &mut derived[..key_len + 16];
    bcrypt_pbkdf::bcrypt_pbkdf(passphrase, salt, *rounds, derived)
        .map_err(|e| bad(format!("bcrypt-pbkdf: {e}")))?;
    let (k, iv) = derived.split_at(key_len);
    let iv: &[u8; 16] = iv.try_into().expect("16-byte IV");
    let mut plain = Zeroizing::new(sealed.to_vec());
    aes_decrypt(mode, k, iv, &mut plain)?;
    private_section(&plain)
}

/// Decrypts `data` in place with AES in `mode` under `key` (16, 24 or 32
/// bytes) and `iv`: simdcrypt's AES-CTR (SP 800-38A §6.5) or AES-CBC
/// (§6.2).
fn aes_decrypt(mode: Mode, key: &[u8], iv: &[u8; 16], data: &mut [u8]) -> Result<(), Error> {
    let done = match (mode, key.len()) {
        (Mode::Ctr, 16) => Aes128Ctr::new(key_of(key), iv).apply_keystream(data),
        (Mode::Ctr, 24) => Aes192Ctr::new(key_of(key), iv).apply_keystream(data),
        (Mode::Ctr, _) => Aes256Ctr::new(key_of(key), iv).apply_keystream(data),
        (Mode::Cbc, 16) => Aes128Cbc::new(key_of(key), iv).decrypt(data),
        (Mode::Cbc, 24) => Aes192Cbc::new(key_of(key), iv).decrypt(data),
        (Mode::Cbc, _) => Aes256Cbc::new(key_of(key), iv).decrypt(data),
    };
    done.map_err(|e| bad(format!("AES: {e}")))
}

/// `key` as an AES key of `N` bytes (its length chosen by the cipher).
fn key_of<const N: usize>(key: &[u8]) -> &[u8; N] {
    key.try_into()
        .expect("the key length the cipher name gives")
}

/// The decrypted private section: `uint32 check, uint32 check, key pair,
/// string comment, padding 1, 2, 3…` up to the 16-byte block.
fn private_section(mut section: &[u8]) -> Result<Identity, Error> {
    let wrong = || bad("incorrect passphrase for the SSH key");
    let reader = &mut section;
    let check1 = <u32 as SshDecode>::decode(reader).map_err(|_| wrong())?;
    let check2 = <u32 as SshDecode>::decode(reader).map_err(|_| wrong())?;
    if check1 != check2 {
        return Err(wrong());
    }
    let pair =
        <KeypairData as SshDecode>::decode(reader).map_err(|e| bad(format!("OpenSSH: {e}")))?;
    let _comment =
        <Vec<u8> as SshDecode>::decode(reader).map_err(|e| bad(format!("OpenSSH: {e}")))?;
    let padding = reader.remaining_len();
    if padding >= 16 || !section.iter().zip(1u8..).all(|(&b, i)| b == i) {
        return Err(bad("OpenSSH: malformed padding after the private key"));
    }
    keypair(&pair)
}

/// The key length and IV of a legacy PEM file's `DEK-Info: AES-…-CBC,IV`
/// header, or why it is refused.
fn legacy_cipher(pem: &str) -> Result<(usize, [u8; 16]), Error> {
    let info = pem
        .lines()
        .find_map(|l| l.trim_end().strip_prefix("DEK-Info: "))
        .ok_or_else(|| bad("legacy PEM encryption without a DEK-Info header"))?;
    let (name, iv) = info
        .split_once(',')
        .ok_or_else(|| bad("malformed DEK-Info header"))?;
    let key_len = match name {
        "AES-128-CBC" => 16,
        "AES-192-CBC" => 24,
        "AES-256-CBC" => 32,
        other => {
            return Err(bad(format!(
                "legacy PEM encryption with {other} is not supported: convert the key with \"ssh-keygen -p -m RFC4716\""
            )));
        }
    };
    // Hex digits only (ASCII), two a byte: 16 bytes.
    let iv = (iv.len() == 32 && iv.bytes().all(|b| b.is_ascii_hexdigit()))
        .then(|| {
            iv.as_bytes()
                .chunks(2)
                .map(|pair| u8::from_str_radix(std::str::from_utf8(pair).ok()?, 16).ok())
                .collect::<Option<Vec<u8>>>()
        })
        .flatten()
        .ok_or_else(|| bad("malformed DEK-Info IV"))?;
    Ok((key_len, iv.try_into().expect("16 bytes")))
}

/// Opens a PKCS#1 key under legacy PEM encryption: the key from OpenSSL's
/// `EVP_BytesToKey` (MD5, one round, the IV's first 8 bytes as salt:
/// `D_i = MD5(D_{i-1} || passphrase || salt)`), the DER decrypted with AES-CBC
/// and its PKCS#7 padding removed (a wrong passphrase shows there, or in
/// the DER).
fn legacy_decrypt(pem: &str, passphrase: &[u8]) -> Result<Identity, Error> {
    use simdcrypt::hash::Md5;
    let (key_len, iv) = legacy_cipher(pem)?;
    let body: String = pem
        .lines()
        .skip_while(|l| !l.trim_end().is_empty())
        .take_while(|l| !l.starts_with("-----END"))
        .map(str::trim)
        .collect();
    let mut der = Zeroizing::new(
        base64::Engine::decode(&base64::engine::general_purpose::STANDARD, body)
            .map_err(|e| bad(format!("legacy PEM: {e}")))?,
    );
    if der.is_empty() || der.len() % 16 != 0 {
        return Err(bad("legacy PEM: the encrypted key is not whole AES blocks"));
    }
    let mut key = Zeroizing::new(Vec::with_capacity(32));
    let mut block = Zeroizing::new(Vec::new());
    while key.len() < key_len {
        let mut input = Zeroizing::new(std::mem::take(&mut *block));
        input.extend_from_slice(passphrase);
        input.extend_from_slice(&iv[..8]);
        *block = Md5::digest(&input).to_vec();
        key.extend_from_slice(&block);
    }
    let k = &key[..key_len];
    aes_decrypt(Mode::Cbc, k, &iv, &mut der)?;
    let wrong = || bad("incorrect passphrase for the SSH key");
    let pad = usize::from(*der.last().expect("not empty"));
    if pad == 0
        || pad > 16
        || !der[der.len() - pad..]
            .iter()
            .all(|&b| usize::from(b) == pad)
    {
        return Err(wrong());
    }
    let key = rsa::PrivateKey::from_pkcs1_der(&der[..der.len() - pad]).map_err(|_| wrong())?;
    rsa_identity(key)
}
