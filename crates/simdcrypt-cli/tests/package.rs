//! The tool as a package: `simdcrypt completions SHELL` and `simdcrypt man`.

use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_simdcrypt");

fn run(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .output()
        .expect("the program runs")
}

/// The pages `simdcrypt man` writes: the tool's and one per subcommand.
const PAGES: [&str; 14] = [
    "simdcrypt.1",
    "simdcrypt-stream.1",
    "simdcrypt-enc.1",
    "simdcrypt-mac.1",
    "simdcrypt-aead.1",
    "simdcrypt-verify.1",
    "simdcrypt-bench.1",
    "simdcrypt-info.1",
    "simdcrypt-hash.1",
    "simdcrypt-encrypt.1",
    "simdcrypt-decrypt.1",
    "simdcrypt-keygen.1",
    "simdcrypt-completions.1",
    "simdcrypt-man.1",
];

#[test]
fn completions_for_every_shell_name_the_subcommands() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let out = run(&["completions", shell]);
        assert!(out.status.success(), "{shell}: {out:?}");
        assert!(out.stderr.is_empty(), "{shell}: {out:?}");
        let script = String::from_utf8(out.stdout).expect("a script is text");
        for sub in ["stream", "hash", "encrypt", "keygen"] {
            assert!(script.contains(sub), "{shell} script names no `{sub}`");
        }
        // fish spells it `-l cipher`.
        assert!(script.contains("cipher"), "{shell}: no --cipher");
    }
}

#[test]
fn completions_carry_the_help_made_at_run_time() {
    // The fish script has each option's help: the stream ciphers of the
    // library's table, which the derive help does not list.
    let out = run(&["completions", "fish"]);
    assert!(out.status.success(), "{out:?}");
    let script = String::from_utf8(out.stdout).unwrap();
    let first = simdcrypt::ladder::names_of(simdcrypt::ladder::Kind::StreamCipher);
    let first = first.split(", ").next().unwrap();
    assert!(
        script
            .lines()
            .any(|l| l.contains("-l cipher") && l.contains(first)),
        "the fish script does not list the ciphers"
    );
}

#[test]
fn completions_refuse_an_unknown_shell() {
    let out = run(&["completions", "tcsh"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(out.stdout.is_empty());
}

#[test]
fn man_writes_a_page_per_subcommand() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(&["man", "-o", dir.path().to_str().unwrap()]);
    assert!(out.status.success(), "{out:?}");
    assert!(out.stdout.is_empty() && out.stderr.is_empty(), "{out:?}");
    let mut written: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    written.sort_unstable();
    let mut expected: Vec<String> = PAGES.iter().map(|&p| p.to_owned()).collect();
    expected.sort_unstable();
    // Nothing else: no temporary file left.
    assert_eq!(written, expected);
    let top = std::fs::read_to_string(dir.path().join("simdcrypt.1")).unwrap();
    assert!(top.contains("\n.TH simdcrypt 1 "), "{top}");
    assert!(top.contains("simdcrypt\\-stream(1)"), "{top}");
    let stream = std::fs::read_to_string(dir.path().join("simdcrypt-stream.1")).unwrap();
    assert!(stream.contains("\n.TH simdcrypt-stream 1 "), "{stream}");
    assert!(stream.contains("\\-\\-cipher"), "{stream}");
}

#[test]
fn man_refuses_an_existing_page_without_force() {
    let dir = tempfile::tempdir().unwrap();
    let existing = dir.path().join("simdcrypt-hash.1");
    std::fs::write(&existing, "mine\n").unwrap();
    let out = run(&["man", "-o", dir.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("simdcrypt-hash.1") && stderr.contains("--force"),
        "{stderr}"
    );
    // Nothing written, the existing page kept.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    assert_eq!(std::fs::read_to_string(&existing).unwrap(), "mine\n");

    let out = run(&["man", "-o", dir.path().to_str().unwrap(), "--force"]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), PAGES.len());
    assert!(std::fs::read_to_string(&existing).unwrap().contains(".TH"));
}

#[test]
fn man_writes_in_the_current_directory_by_default() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(BIN)
        .arg("man")
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    assert!(dir.path().join("simdcrypt.1").is_file());
    assert!(dir.path().join("simdcrypt-man.1").is_file());
}

#[test]
fn man_refuses_a_missing_directory() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("man1");
    let out = run(&["man", "-o", missing.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(!missing.exists());
}
