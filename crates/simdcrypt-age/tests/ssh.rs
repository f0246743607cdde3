//! SSH recipients and identities (`simdcrypt_age::ssh`): every key file
//! form OpenSSH and OpenSSL write (tests/data/ssh/README.md) parses to the
//! identity of its public key and opens what its recipient seals;
//! protected keys are decrypted only for a stanza addressed to them;
//! what age refuses is refused with a reason.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use simdcrypt_age::{Decryptor, Encryptor, Error, Identity, Recipient, Stanza, ssh};
use zeroize::Zeroizing;

fn file(name: &str) -> String {
    let path = format!("{}/tests/data/ssh/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// A passphrase source that counts its calls.
fn counted(passphrase: &'static str) -> (ssh::Passphrase, Arc<AtomicUsize>) {
    let calls = Arc::new(AtomicUsize::new(0));
    let seen = calls.clone();
    let source: ssh::Passphrase = Arc::new(move || {
        seen.fetch_add(1, Ordering::SeqCst);
        Ok(Zeroizing::new(passphrase.to_owned()))
    });
    (source, calls)
}

fn identity(name: &str) -> ssh::Identity {
    ssh::Identity::from_pem(&file(name), None, ssh::no_passphrase())
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn recipient(name: &str) -> ssh::Recipient {
    file(&format!("{name}.pub")).parse().unwrap()
}

/// The header of a file to `recipients`.
fn header(recipients: &[&dyn Recipient]) -> (Vec<u8>, Vec<Stanza>) {
    let mut sealed = Vec::new();
    Encryptor::new(recipients)
        .unwrap()
        .encrypt(&b"payload"[..], &mut sealed, simdcrypt_age::Threads::Auto)
        .unwrap();
    let stanzas = Decryptor::new(&sealed[..])
        .unwrap()
        .header()
        .stanzas()
        .to_vec();
    (sealed, stanzas)
}

fn opens(identity: &dyn Identity, sealed: &[u8]) -> Result<Vec<u8>, Error> {
    let mut plain = Vec::new();
    simdcrypt_age::decrypt(&[identity], sealed, &mut plain)?;
    Ok(plain)
}

#[test]
fn every_key_file_form_opens_what_its_recipient_seals() {
    for (key, public) in [
        ("ed25519", "ed25519"),
        ("rsa", "rsa"),
        ("rsa_pkcs1", "rsa"),
        ("rsa_pkcs8", "rsa"),
    ] {
        let identity = identity(key);
        let recipient = recipient(public);
        assert_eq!(identity.to_public(), recipient, "{key}");
        let (sealed, stanzas) = header(&[&recipient]);
        assert_eq!(stanzas.len(), 1);
        let tag = if public == "rsa" {
            ssh::RSA_TAG
        } else {
            ssh::ED25519_TAG
        };
        assert_eq!(stanzas[0].tag, tag);
        assert_eq!(opens(&identity, &sealed).unwrap(), b"payload", "{key}");
        // And another key of the same type skips the stanza.
        let other = if public == "rsa" {
            "rsa_encrypted"
        } else {
            "ed25519_encrypted"
        };
        let other = ssh::Identity::from_pem(&file(other), None, counted("unused").0).unwrap();
        assert!(
            matches!(opens(&other, &sealed), Err(Error::NoMatch)),
            "{key}"
        );
    }
    // OpenSSL's PKCS#8 Ed25519 key has no .pub: its recipient is its own.
    let identity = identity("ed25519_pkcs8");
    let (sealed, _) = header(&[&identity.to_public()]);
    assert_eq!(opens(&identity, &sealed).unwrap(), b"payload");
}

#[test]
fn the_stanzas_are_as_age_writes_them() {
    let ed = recipient("ed25519");
    let rsa = recipient("rsa");
    let (_, stanzas) = header(&[&ed, &rsa]);
    // Tag = base64(SHA-256(SSH wire key)[..4]): 6 characters.
    assert_eq!(stanzas[0].args.len(), 2);
    assert_eq!(stanzas[0].args[0].len(), 6);
    assert_eq!(stanzas[0].args[1].len(), 43);
    assert_eq!(stanzas[0].body.len(), 32);
    assert_eq!(stanzas[1].args.len(), 1);
    assert_eq!(stanzas[1].args[0].len(), 6);
    assert_eq!(stanzas[1].body.len(), 256);
    // The tag is the same for every file; the share is fresh.
    let (_, again) = header(&[&ed]);
    assert_eq!(again[0].args[0], stanzas[0].args[0]);
    assert_ne!(again[0].args[1], stanzas[0].args[1]);
    // Display is the key without its comment, and parses back.
    let line = ed.to_string();
    assert!(file("ed25519.pub").starts_with(&line), "{line}");
    assert_eq!(line.parse::<ssh::Recipient>().unwrap(), ed);
}

#[test]
fn protected_keys_ask_for_the_passphrase_only_for_their_stanzas() {
    for key in [
        "ed25519_encrypted",
        "rsa_encrypted",
        "ed25519_aes256cbc",
        "ed25519_aes128ctr",
    ] {
        let (source, calls) = counted("correct horse");
        let identity = ssh::Identity::from_pem(&file(key), None, source).unwrap();
        // Its public key is known without the passphrase.
        assert_eq!(identity.to_public(), recipient(key), "{key}");
        // A file for someone else: no question asked.
        let (sealed, _) = header(&[&recipient("ed25519")]);
        assert!(matches!(opens(&identity, &sealed), Err(Error::NoMatch)));
        assert_eq!(calls.load(Ordering::SeqCst), 0, "{key}");
        // Its own files: asked once, then remembered.
        for _ in 0..2 {
            let (sealed, _) = header(&[&recipient("ed25519"), &recipient(key)]);
            assert_eq!(opens(&identity, &sealed).unwrap(), b"payload", "{key}");
        }
        assert_eq!(calls.load(Ordering::SeqCst), 1, "{key}");
        // A wrong passphrase is said so.
        let identity = ssh::Identity::from_pem(&file(key), None, counted("wrong horse").0).unwrap();
        let (sealed, _) = header(&[&recipient(key)]);
        let e = opens(&identity, &sealed).unwrap_err().to_string();
        assert!(e.contains("incorrect passphrase"), "{key}: {e}");
        // An empty one is said to be empty (bcrypt-pbkdf refuses it).
        let identity = ssh::Identity::from_pem(&file(key), None, counted("").0).unwrap();
        let e = opens(&identity, &sealed).unwrap_err().to_string();
        assert!(e.contains("the passphrase is empty"), "{key}: {e}");
    }
}

#[test]
fn what_age_refuses_is_refused_with_a_reason() {
    let cases = [("rsa1024.pub", "too small"), ("ecdsa.pub", "not supported")];
    for (name, why) in cases {
        let e = file(name)
            .parse::<ssh::Recipient>()
            .unwrap_err()
            .to_string();
        assert!(e.contains(why), "{name}: {e}");
    }
    for (name, why) in [
        ("ecdsa", "not supported"),
        (
            "rsa_pkcs1_encrypted",
            "does not hold its public key: give its .pub file",
        ),
        ("ed25519.pub", "expected a PEM file"),
    ] {
        let e = ssh::Identity::from_pem(&file(name), None, ssh::no_passphrase())
            .err()
            .unwrap_or_else(|| panic!("{name} parsed"))
            .to_string();
        assert!(e.contains(why), "{name}: {e}");
    }
    // A key of a type age takes, its data cut short or garbled, is
    // malformed, not of an unsupported type.
    for bad in [
        "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGarbage",
        "ssh-rsa AAAAB3NzaC1yc2EAAAADAQAB",
    ] {
        let e = bad.parse::<ssh::Recipient>().unwrap_err().to_string();
        assert!(
            e.contains("malformed SSH public key") && !e.contains("not supported"),
            "{bad}: {e}"
        );
    }
    for bad in [
        "ssh-ed25519",
        "ssh-ed25519 AAAA",
        "ssh-rsa AAAAC3NzaC1lZDI1NTE5AAAAIP8ytkZs6INv/WLkocMYuXgtV5vhRsU9s303BsVZoXtB",
        "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIP8ytkZs6INv/WLkocMYuXgtV5vhRsU9s303BsVZoXt",
    ] {
        assert!(bad.parse::<ssh::Recipient>().is_err(), "{bad}");
    }
    // authorized_keys options are taken, as age takes them.
    let line = format!("no-pty,command=\"/bin/true\" {}", file("ed25519.pub"));
    assert_eq!(
        line.parse::<ssh::Recipient>().unwrap(),
        recipient("ed25519")
    );
}

#[test]
fn malformed_stanzas_of_the_type_are_rejected() {
    let identity = identity("ed25519");
    let (_, stanzas) = header(&[&recipient("ed25519")]);
    let good = &stanzas[0];
    let mut broken = vec![];
    let mut s = good.clone();
    s.args.pop();
    broken.push(s);
    let mut s = good.clone();
    s.args[1] = "AAAA".into();
    broken.push(s);
    let mut s = good.clone();
    s.body.push(0);
    broken.push(s);
    let mut s = good.clone();
    s.body[0] ^= 1;
    broken.push(s);
    for s in broken {
        assert!(
            identity.unwrap(&s).is_err(),
            "{:?} {:?}",
            s.args,
            s.body.len()
        );
    }
    // Another key's stanza is skipped, not an error.
    let mut s = good.clone();
    s.args[0] = "AAAAAA".into();
    assert!(identity.unwrap(&s).unwrap().is_none());
    let rsa = identity_rsa();
    let (_, stanzas) = header(&[&recipient("rsa")]);
    let mut s = stanzas[0].clone();
    s.body[5] ^= 1;
    assert!(rsa.unwrap(&s).is_err());
    s.args.push("extra".into());
    assert!(rsa.unwrap(&s).is_err());
}

fn identity_rsa() -> ssh::Identity {
    identity("rsa")
}

/// A PKCS#1 key under legacy PEM encryption (`ssh-keygen -m PEM` with a
/// passphrase: AES-128-CBC, OpenSSL's MD5 key derivation) opens with the
/// public key given beside it, as age takes it from the `.pub` file.
#[test]
fn legacy_pem_encryption_opens_with_its_public_key() {
    let public = recipient("rsa");
    let pem = file("rsa_pkcs1_encrypted");
    assert!(ssh::Identity::needs_public_key(&pem));
    assert!(!ssh::Identity::needs_public_key(&file("rsa_pkcs1")));
    let (source, calls) = counted("correct horse");
    let identity = ssh::Identity::from_pem(&pem, Some(public.clone()), source).unwrap();
    let (sealed, _) = header(&[&public]);
    assert_eq!(opens(&identity, &sealed).unwrap(), b"payload");
    assert_eq!(calls.load(Ordering::SeqCst), 1);
    let identity = ssh::Identity::from_pem(&pem, Some(public.clone()), counted("wrong").0).unwrap();
    let e = opens(&identity, &sealed).unwrap_err().to_string();
    assert!(e.contains("incorrect passphrase"), "{e}");
    // The wrong public key: the decrypted key says so.
    let other = recipient("rsa_encrypted");
    let identity =
        ssh::Identity::from_pem(&pem, Some(other.clone()), counted("correct horse").0).unwrap();
    let (sealed, _) = header(&[&other]);
    let e = opens(&identity, &sealed).unwrap_err().to_string();
    assert!(e.contains("mismatched private and public SSH key"), "{e}");
    // DES is not ours: refused by name.
    let des = pem.replace("AES-128-CBC", "DES-EDE3-CBC");
    let des =
        ssh::Identity::from_pem(&des, Some(public.clone()), counted("correct horse").0).unwrap();
    let (sealed, _) = header(&[&public]);
    let e = opens(&des, &sealed).unwrap_err().to_string();
    assert!(e.contains("DES-EDE3-CBC is not supported"), "{e}");
}

/// A protected key whose cipher is not one of ours is taken (age encrypts
/// to it, and skips it for files not addressed to it), and refused by name
/// only when a stanza is addressed to it.
#[test]
fn an_unsupported_cipher_is_refused_only_when_needed() {
    let key = ssh::Identity::from_pem(&file("ed25519_aes256gcm"), None, counted("correct horse").0)
        .unwrap();
    assert_eq!(key.to_public(), recipient("ed25519_aes256gcm"));
    let (sealed, _) = header(&[&recipient("ed25519")]);
    assert!(matches!(opens(&key, &sealed), Err(Error::NoMatch)));
    let (sealed, _) = header(&[&key.to_public()]);
    let e = opens(&key, &sealed).unwrap_err().to_string();
    assert!(e.contains("aes256-gcm@openssh.com is not supported"), "{e}");
    // A stanza of the type without its tag is malformed, not skipped.
    let stanza = simdcrypt_age::Stanza {
        tag: ssh::ED25519_TAG.into(),
        args: vec![],
        body: vec![0; 32],
    };
    assert!(key.unwrap(&stanza).is_err());
    // A small RSA key is no recipient, but an identity (as age takes it).
    let small = identity("rsa1024");
    let (sealed, _) = header(&[&small.to_public()]);
    assert_eq!(opens(&small, &sealed).unwrap(), b"payload");
}
