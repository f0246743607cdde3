//! Tagged recipients against age itself: files encrypted here to the fixed
//! recipients of age's test plugin (`age-plugin-tagtest`, whose identities
//! are derived from a public seed) are decrypted by `age -d -j tagtest`
//! (both found on `PATH`, or through `AGE_BIN` /
//! `AGE_PLUGIN_TAGTEST_BIN`; a missing tool is said and the check skipped),
//! and the post-quantum rule is kept.

use std::path::Path;
use std::process::Command;

use simdcrypt_age::{Error, Recipient as _, encrypt, pq, tag, x25519};
use simdcrypt_testsupport::{bytes, peer, run_command, stderr};

/// `classicRecipient` of age's `tag/internal/age-plugin-tagtest`.
const CLASSIC: &str = include_str!("data/tagtest-classic.txt");

/// `hybridRecipient` of age's `tag/internal/age-plugin-tagtest`.
const HYBRID: &str = include_str!("data/tagtest-hybrid.txt");

/// What `age -d -j tagtest` makes of `sealed`, the plugin's folder first
/// on `PATH` so that age finds it.
fn age_decrypt(age: &Path, plugin: &Path, sealed: &[u8]) -> Vec<u8> {
    let path = std::env::join_paths(plugin.parent().map(Path::to_path_buf).into_iter().chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .unwrap();
    let out = run_command(
        Command::new(age)
            .args(["-d", "-j", "tagtest"])
            .env("PATH", path),
        sealed,
    );
    assert!(
        out.status.success(),
        "age -d -j tagtest failed: {}",
        stderr(&out)
    );
    out.stdout
}

fn seal(recipients: &[&dyn simdcrypt_age::Recipient], plain: &[u8]) -> Vec<u8> {
    let mut sealed = Vec::new();
    encrypt(recipients, plain, &mut sealed).unwrap();
    sealed
}

#[test]
fn the_plugins_recipients_parse_and_print_back() {
    for text in [CLASSIC, HYBRID] {
        let recipient: tag::Recipient = text.parse().unwrap();
        assert_eq!(recipient.to_string(), text);
    }
    let classic: tag::Recipient = CLASSIC.parse().unwrap();
    let hybrid: tag::Recipient = HYBRID.parse().unwrap();
    assert!(!classic.is_post_quantum());
    assert!(hybrid.is_post_quantum());
    assert_eq!(classic.to_bytes().len(), 33);
    assert_eq!(hybrid.to_bytes().len(), 1184 + 65);
}

#[test]
fn hybrid_goes_with_post_quantum_recipients_only() {
    let classic: tag::Recipient = CLASSIC.parse().unwrap();
    let hybrid: tag::Recipient = HYBRID.parse().unwrap();
    let x25519 = x25519::Identity::generate().unwrap().to_public();
    let pq = pq::Identity::generate().unwrap().to_public();
    for other in [&classic as &dyn simdcrypt_age::Recipient, &x25519] {
        let mut sealed = Vec::new();
        assert!(matches!(
            encrypt(&[&hybrid, other], &b"x"[..], &mut sealed),
            Err(Error::MixedPostQuantum)
        ));
    }
    seal(&[&hybrid, &pq], b"x");
    seal(&[&classic, &x25519], b"x");
}

#[test]
fn age_decrypts_what_we_encrypt_to_tagged_recipients() {
    let (Some(age), Some(plugin)) = (
        peer("AGE_BIN", "age"),
        peer("AGE_PLUGIN_TAGTEST_BIN", "age-plugin-tagtest"),
    ) else {
        return;
    };
    let classic: tag::Recipient = CLASSIC.parse().unwrap();
    let hybrid: tag::Recipient = HYBRID.parse().unwrap();
    let pq = pq::Identity::generate().unwrap().to_public();
    let x25519 = x25519::Identity::generate().unwrap().to_public();
    let plain = bytes(11, 3 * 65536 + 17);
    let cases: [&[&dyn simdcrypt_age::Recipient]; 4] = [
        &[&classic],
        &[&hybrid],
        &[&pq, &hybrid],
        &[&x25519, &classic],
    ];
    for recipients in cases {
        let opened = age_decrypt(&age, &plugin, &seal(recipients, &plain));
        assert!(opened == plain, "age could not read our file");
    }
}
