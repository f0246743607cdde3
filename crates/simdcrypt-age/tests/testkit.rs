//! Every vector of the age testkit (C2SP CCTV, `tests/data/testkit/`), at
//! one thread and at three, through the checking kit
//! [`simdcrypt_age::testkit`]: the outcome class it expects, and the
//! SHA-256 of every plaintext byte that was released, failures included.

use std::num::NonZeroUsize;

use simdcrypt_age::Threads;
use simdcrypt_age::testkit::{self, Vector};

#[test]
fn every_testkit_vector_has_its_expected_outcome() {
    // The embedded list is the directory's, file for file.
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/testkit");
    let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    on_disk.sort();
    let embedded: Vec<&str> = testkit::FILES.iter().map(|&(name, _)| name).collect();
    assert_eq!(embedded, on_disk, "the embedded testkit is stale");
    assert!(embedded.len() >= 140, "the testkit is incomplete");

    let mut failures = Vec::new();
    for vector in testkit::vectors() {
        let v: Vector = match vector {
            Ok(v) => v,
            Err(malformed) => {
                failures.push(malformed.to_string());
                continue;
            }
        };
        for threads in [
            Threads::Count(NonZeroUsize::MIN),
            Threads::Count(NonZeroUsize::new(3).unwrap()),
        ] {
            if let Err(failure) = v.check(threads) {
                failures.push(format!("{} ({threads:?}): {failure}", v.name));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures over {} vectors:\n{}",
        failures.len(),
        embedded.len(),
        failures.join("\n")
    );
}

/// A malformed vector is an error naming it, never a panic.
#[test]
fn malformed_vectors_are_errors() {
    let cases: [(&str, &[u8]); 8] = [
        ("no_blank_line", b"expect: success\n"),
        ("not_utf8", b"expect: \xff\n\nage"),
        ("no_colon", b"expect success\n\nage"),
        ("no_expect", b"payload: 00\n\nage"),
        ("unknown_class", b"expect: maybe\n\nage"),
        ("short_payload", b"expect: success\npayload: abcd\n\nage"),
        (
            "other_compression",
            b"expect: success\ncompressed: gzip\n\nage",
        ),
        (
            "broken_zlib",
            b"expect: success\ncompressed: zlib\n\nnot zlib",
        ),
    ];
    for (name, bytes) in cases {
        let err = Vector::parse(name, bytes).unwrap_err();
        assert_eq!(err.vector, name);
        assert!(err.to_string().contains(name), "{err}");
    }
    let ok = Vector::parse("ok", b"expect: no match\ncomment: x\nfile key: y\n\nage").unwrap();
    assert_eq!(ok.expect, testkit::Class::NoMatch);
    assert_eq!(ok.file, b"age");
}

/// The checker notices a wrong class and a wrong plaintext hash.
#[test]
fn the_checker_reports_mismatches() {
    let one = Threads::Count(NonZeroUsize::MIN);
    let mut v = testkit::vectors()
        .map(Result::unwrap)
        .find(|v| v.expect == testkit::Class::Success && v.payload.is_some())
        .expect("a successful vector with a payload");
    assert_eq!(v.check(one), Ok(()));
    let good = v.payload.unwrap();
    v.payload.as_mut().unwrap()[0] ^= 1;
    assert!(matches!(
        v.check(one),
        Err(testkit::Failure::Payload { .. })
    ));
    v.payload = Some(good);
    v.expect = testkit::Class::HmacFailure;
    assert_eq!(
        v.check(one),
        Err(testkit::Failure::Class {
            expected: testkit::Class::HmacFailure,
            got: testkit::Class::Success,
            error: None,
        })
    );
}
