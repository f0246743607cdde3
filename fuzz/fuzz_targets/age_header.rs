//! The age header parser and the armor reader on any bytes: no panic; a
//! header that parses writes back and parses to the same stanzas; every
//! identity type unwraps or refuses without panicking, and the payload
//! after it is read to its end or refused.

#![no_main]

use std::io::{BufReader, sink};
use std::num::NonZeroUsize;
use std::sync::LazyLock;

use libfuzzer_sys::fuzz_target;
use simdcrypt_age::armor::ArmoredReader;
use simdcrypt_age::{Decryptor, FileKey, Header, Identity, Threads, pq, scrypt, x25519};

static X25519: LazyLock<x25519::Identity> =
    LazyLock::new(|| "AGE-SECRET-KEY-1EGTZVFFV20835NWYV6270LXYVK2VKNX2MMDKWYKLMGR48UAWX40Q2P2LM0".parse().unwrap());
static HYBRID: LazyLock<pq::Identity> =
    LazyLock::new(|| "AGE-SECRET-KEY-PQ-1XX76JRALNLXDMEW0CRK45QMCCH4X06SE84UN3VPM33W6HWDX0H3SK3ZQFR".parse().unwrap());
/// A passphrase that pays for at most 2^4: the fuzzer stays fast.
static PASSPHRASE: LazyLock<scrypt::Identity> = LazyLock::new(|| scrypt::Identity::new(b"password", 4));

fuzz_target!(|data: &[u8]| {
    let Ok(decryptor) = Decryptor::new(ArmoredReader::new(BufReader::new(data))) else { return };
    let key = FileKey::from_bytes([7; 16]);
    let header = Header::new(decryptor.header().stanzas().to_vec(), &key).expect("parsed stanzas write back");
    let mut text = Vec::new();
    header.write(&mut text).unwrap();
    let reparsed = Header::read(&mut &text[..]).expect("a written header parses");
    assert_eq!(reparsed.stanzas(), decryptor.header().stanzas());
    reparsed.verify_mac(&key).expect("the MAC of a written header verifies");

    let identities: [&dyn Identity; 3] = [&*X25519, &*HYBRID, &*PASSPHRASE];
    if let Ok(file_key) = decryptor.file_key(&identities) {
        let _ = decryptor.decrypt(&file_key, sink(), Threads::Count(NonZeroUsize::MIN));
    }
});
