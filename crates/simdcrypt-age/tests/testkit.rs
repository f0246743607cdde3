//! Every vector of the age testkit (C2SP CCTV, `tests/data/testkit/`): the
//! outcome class it expects, and the SHA-256 of every plaintext byte that
//! was released, failures included.

use std::io::{BufReader, Read};
use std::num::NonZeroUsize;

use simdcrypt::hash::Sha256;
use simdcrypt_age::armor::ArmoredReader;
use simdcrypt_age::keys::AnyIdentity;
use simdcrypt_age::{Decryptor, Error, Identity, Threads, scrypt};

/// One vector: its header keys and its age file.
struct Vector {
    name: String,
    expect: String,
    payload: Option<String>,
    identities: Vec<String>,
    passphrases: Vec<String>,
    armored: bool,
    file: Vec<u8>,
}

fn load(path: &std::path::Path) -> Vector {
    let bytes = std::fs::read(path).unwrap();
    let split = bytes
        .windows(2)
        .position(|w| w == b"\n\n")
        .expect("a blank line after the keys");
    let keys = std::str::from_utf8(&bytes[..split]).unwrap();
    let mut file = bytes[split + 2..].to_vec();
    let mut v = Vector {
        name: path.file_name().unwrap().to_string_lossy().into_owned(),
        expect: String::new(),
        payload: None,
        identities: vec![],
        passphrases: vec![],
        armored: false,
        file: vec![],
    };
    for line in keys.lines() {
        let (key, value) = line.split_once(": ").unwrap();
        match key {
            "expect" => v.expect = value.into(),
            "payload" => v.payload = Some(value.into()),
            "identity" => v.identities.push(value.into()),
            "passphrase" => v.passphrases.push(value.into()),
            "armored" => v.armored = value == "yes",
            "compressed" => {
                assert_eq!(value, "zlib");
                let mut out = Vec::new();
                flate2::read::ZlibDecoder::new(&file[..])
                    .read_to_end(&mut out)
                    .unwrap();
                file = out;
            }
            _ => {}
        }
    }
    v.file = file;
    v
}

/// The testkit's outcome class of an error.
fn class(e: &Error) -> &'static str {
    match e {
        Error::Armor(_) => "armor failure",
        Error::Header(_)
        | Error::UnsupportedVersion(_)
        | Error::ScryptNotAlone
        | Error::WorkFactorTooLarge { .. } => "header failure",
        Error::NoMatch | Error::WrongPassphrase => "no match",
        Error::HeaderMac => "HMAC failure",
        Error::Truncated
        | Error::Chunk(_)
        | Error::LastChunk(_)
        | Error::EmptyFinalChunk(_)
        | Error::TrailingData(_) => "payload failure",
        _ => "an error outside the testkit's classes",
    }
}

/// Decrypts a vector's file, returning the plaintext released and the
/// outcome.
fn run(v: &Vector, threads: Threads) -> (Vec<u8>, Result<(), Error>) {
    let mut out = Vec::new();
    let result = (|| {
        // Armored vectors are read as armor (as the testkit's own harness
        // does); the others through the detection the command line uses.
        let input = BufReader::new(&v.file[..]);
        let reader = if v.armored {
            ArmoredReader::armored(input)
        } else {
            ArmoredReader::new(input)
        };
        let decryptor = Decryptor::new(reader)?;
        let ids: Vec<AnyIdentity> = v
            .identities
            .iter()
            .map(|s| s.parse())
            .collect::<Result<_, _>>()?;
        let pass: Vec<scrypt::Identity> = v
            .passphrases
            .iter()
            .map(|p| scrypt::Identity::new(p.as_bytes(), scrypt::DEFAULT_MAX_WORK_FACTOR))
            .collect();
        let all: Vec<&dyn Identity> = ids
            .iter()
            .map(|i| i as &dyn Identity)
            .chain(pass.iter().map(|p| p as &dyn Identity))
            .collect();
        let file_key = decryptor.file_key(&all)?;
        decryptor.decrypt(&file_key, &mut out, threads)?;
        Ok(())
    })();
    (out, result)
}

#[test]
fn every_testkit_vector_has_its_expected_outcome() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/testkit");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    paths.sort();
    assert!(paths.len() >= 140, "the testkit is incomplete");
    let mut failures = Vec::new();
    for path in &paths {
        let v = load(path);
        for threads in [
            Threads::Count(NonZeroUsize::MIN),
            Threads::Count(NonZeroUsize::new(3).unwrap()),
        ] {
            let (out, result) = run(&v, threads);
            let got = match &result {
                Ok(()) => "success",
                // The testkit counts a payload cut inside its 16-byte nonce
                // as a header failure (Go age reads the nonce with the
                // header); the nonce is the payload's, and the file is
                // truncated.
                Err(Error::Truncated) if v.name.ends_with("_nonce") => "header failure",
                Err(e) => class(e),
            };
            if got != v.expect {
                failures.push(format!(
                    "{}: expected {}, got {got} ({result:?})",
                    v.name, v.expect
                ));
            } else if let Some(hash) = &v.payload {
                let digest: String = Sha256::digest(&out)
                    .iter()
                    .map(|b| format!("{b:02x}"))
                    .collect();
                if &digest != hash {
                    failures.push(format!(
                        "{}: released plaintext has the wrong hash ({} bytes)",
                        v.name,
                        out.len()
                    ));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} vectors failed:\n{}",
        failures.len(),
        paths.len(),
        failures.join("\n")
    );
}
