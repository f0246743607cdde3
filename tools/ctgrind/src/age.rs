//! The age paths that are ours (crates/simdcrypt-age), with the file key
//! and the passphrase secret: the file key's ChaCha20-Poly1305 wrap for an
//! X25519 recipient and for a passphrase (scrypt), the unwrap with the
//! passphrase, the header MAC (HKDF and HMAC of the file key) and its
//! comparison, and the payload (HKDF of the file key, ChaCha20-Poly1305
//! per chunk) both ways. X25519 itself, and so the HKDF of its shared
//! secret, is `part x25519`'s: x25519-dalek is not gated on.

use std::num::NonZeroUsize;

use simdcrypt::ct;
use simdcrypt::kit::Rng;
use simdcrypt_age::{
    Decryptor, FileKey, Header, Identity as _, Recipient as _, Threads, scrypt, stream, x25519,
};

use crate::coverage::{Coverage, poisoned, public, same};

/// One thread: the payload's chunks on the calling thread.
fn one_thread() -> Threads {
    Threads::Count(NonZeroUsize::MIN)
}

/// Runs the age paths.
pub fn run(cov: &mut Coverage, rng: &mut Rng) {
    let file_key: [u8; 16] = rng.array();
    let passphrase = rng.bytes(20);
    cov.piece(
        "age: scrypt wrap and unwrap of the file key, header MAC",
        || passphrase_header(&file_key, &passphrase),
    );
    cov.piece("age: X25519 wrap of the file key, header MAC", || {
        x25519_header(&file_key)
    });
    for len in [0, 1000, 70_000] {
        cov.piece(
            &format!("age: payload of {len} bytes sealed and opened"),
            || payload(rng, &file_key, len),
        );
    }
    for primitive in [
        "age-scrypt",
        "age-x25519-wrap",
        "age-header-mac",
        "age-payload",
    ] {
        cov.rungs
            .entry(("age", "(composed)"))
            .or_default()
            .insert(primitive);
    }
}

/// The secret file key `bytes`.
pub fn secret_file_key(bytes: &[u8; 16]) -> FileKey {
    let mut bytes = *bytes;
    ct::poison(&mut bytes);
    FileKey::from_bytes(bytes)
}

/// A header with the file key wrapped under a passphrase (scrypt,
/// N = 2^4), written and read back; the file key unwrapped with the
/// passphrase and the header MAC checked; a wrong passphrase refused.
fn passphrase_header(file_key: &[u8; 16], passphrase: &[u8]) -> Result<(), String> {
    let e = |e: simdcrypt_age::Error| e.to_string();
    let key = secret_file_key(file_key);
    let secret_passphrase = poisoned(passphrase);
    let stanzas = scrypt::Recipient::new(&secret_passphrase, 4)
        .wrap(&key)
        .map_err(e)?;
    let header = Header::new(stanzas, &key).map_err(e)?;
    let mut file = Vec::new();
    header.write(&mut file).map_err(e)?;
    let decryptor = Decryptor::new(&file[..]).map_err(e)?;
    let identity = scrypt::Identity::new(&secret_passphrase, 22);
    let unwrapped = decryptor.file_key(&[&identity]).map_err(e)?;
    same(
        "the unwrapped file key",
        &public(unwrapped.expose()),
        file_key,
    )?;
    let mut wrong = passphrase.to_vec();
    wrong[0] ^= 1;
    let wrong = scrypt::Identity::new(&poisoned(&wrong), 22);
    match decryptor.file_key(&[&wrong]) {
        Err(simdcrypt_age::Error::WrongPassphrase) => {}
        other => return Err(format!("a wrong passphrase gave {:?}", other.map(|_| ()))),
    }
    let mut other = *file_key;
    other[15] ^= 1;
    match header.verify_mac(&secret_file_key(&other)) {
        Err(simdcrypt_age::Error::HeaderMac) => Ok(()),
        other => Err(format!("another file key's header MAC gave {other:?}")),
    }
}

/// A header with the file key wrapped for an X25519 recipient (the
/// ephemeral secret is fresh, and so not poisoned: X25519 itself is
/// `part x25519`'s), its MAC checked.
fn x25519_header(file_key: &[u8; 16]) -> Result<(), String> {
    let e = |e: simdcrypt_age::Error| e.to_string();
    let key = secret_file_key(file_key);
    let identity = x25519::Identity::generate().map_err(e)?;
    let stanzas = identity.to_public().wrap(&key).map_err(e)?;
    let header = Header::new(stanzas, &key).map_err(e)?;
    header.verify_mac(&key).map_err(e)?;
    let unwrapped = identity
        .unwrap(&header.stanzas()[0])
        .map_err(e)?
        .ok_or("the X25519 stanza did not unwrap")?;
    same(
        "the unwrapped file key",
        &public(unwrapped.expose()),
        file_key,
    )
}

/// A payload of `len` secret bytes sealed under the secret file key, then
/// opened: the same bytes; with a changed byte, refused.
fn payload(rng: &mut Rng, file_key: &[u8; 16], len: usize) -> Result<(), String> {
    let e = |e: simdcrypt_age::Error| e.to_string();
    let message = rng.bytes(len);
    let key = secret_file_key(file_key);
    let mut sealed = Vec::new();
    stream::encrypt(&key, &poisoned(&message)[..], &mut sealed, one_thread()).map_err(e)?;
    let mut opened = Vec::new();
    stream::decrypt(&key, &sealed[..], &mut opened, one_thread()).map_err(e)?;
    same("the opened payload", &public(&opened), &message)?;
    let last = sealed.len() - 1;
    sealed[last] ^= 1;
    match stream::decrypt(&key, &sealed[..], &mut Vec::new(), one_thread()) {
        Err(simdcrypt_age::Error::Chunk(_) | simdcrypt_age::Error::LastChunk(_)) => Ok(()),
        other => Err(format!("a changed payload gave {other:?}")),
    }
}
