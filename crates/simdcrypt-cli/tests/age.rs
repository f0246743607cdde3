//! `simdcrypt encrypt`, `decrypt` and `keygen`: round trips at the chunk
//! edges, every header form, armor, passphrases for scripts, tampering
//! (every case refused with its message and no output file left), and
//! interoperability with the real `age` and `rage` where they are installed
//! (found on `PATH`, or through `AGE_BIN`/`RAGE_BIN`; a missing tool is
//! said on stderr and its test passes).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use simdcrypt_testsupport::{bytes, peer, run_command, stderr};
use tempfile::TempDir;

const BIN: &str = env!("CARGO_BIN_EXE_simdcrypt");
const CHUNK: usize = 64 * 1024;

/// Runs simdcrypt with `args` and `stdin`.
fn simdcrypt(args: &[&str], stdin: &[u8]) -> Output {
    run_command(Command::new(BIN).args(args), stdin)
}

/// Fails with the command's stderr unless it succeeded.
fn ok(out: Output) -> Output {
    assert!(out.status.success(), "failed: {}", stderr(&out));
    out
}

/// A directory with a fresh X25519 identity file `key.txt`; returns it and
/// the recipient.
fn identity(dir: &Path, name: &str, pq: bool) -> (PathBuf, String) {
    let path = dir.join(name);
    let mut args = vec!["keygen", "-o", path.to_str().unwrap()];
    if pq {
        args.push("--pq");
    }
    let out = ok(simdcrypt(&args, b""));
    let recipient = stderr(&out)
        .trim()
        .strip_prefix("Public key: ")
        .expect("the recipient on stderr")
        .to_owned();
    (path, recipient)
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn round_trips_at_every_chunk_edge_with_and_without_armor() {
    let dir = TempDir::new().unwrap();
    let (key, recipient) = identity(dir.path(), "key.txt", false);
    let sizes = [
        0,
        1,
        CHUNK - 1,
        CHUNK,
        CHUNK + 1,
        10 * CHUNK,
        16 * CHUNK,
        17 * CHUNK + 5,
        123_457,
    ];
    for (n, &len) in sizes.iter().enumerate() {
        let plain = bytes(n as u64, len);
        for armor in [false, true] {
            for threads in ["1", "3"] {
                let mut args = vec!["encrypt", "-r", &recipient, "--threads", threads];
                if armor {
                    args.push("-a");
                }
                let sealed = ok(simdcrypt(&args, &plain)).stdout;
                assert_eq!(
                    sealed.starts_with(b"-----BEGIN AGE ENCRYPTED FILE-----\n"),
                    armor
                );
                let opened = ok(simdcrypt(
                    &["decrypt", "-i", s(&key), "--threads", threads],
                    &sealed,
                ))
                .stdout;
                assert!(
                    opened == plain,
                    "length {len}, armor {armor}, threads {threads}"
                );
            }
        }
    }
}

#[test]
fn every_recipient_form_and_several_recipients() {
    let dir = TempDir::new().unwrap();
    let (key1, r1) = identity(dir.path(), "k1.txt", false);
    let (key2, r2) = identity(dir.path(), "k2.txt", false);
    let (key3, _) = identity(dir.path(), "k3.txt", false);
    let (pq1, rpq1) = identity(dir.path(), "pq1.txt", true);
    let (pq2, _) = identity(dir.path(), "pq2.txt", true);
    let list = dir.path().join("recipients.txt");
    fs::write(&list, format!("# a comment\n\n{r2}\n")).unwrap();
    let plain = bytes(9, 3 * CHUNK + 7);
    // -r, -R and -i (encrypting to an identity's recipient) together.
    let sealed = ok(simdcrypt(
        &["encrypt", "-r", &r1, "-R", s(&list), "-i", s(&key3)],
        &plain,
    ))
    .stdout;
    for key in [&key1, &key2, &key3] {
        assert_eq!(
            ok(simdcrypt(&["decrypt", "-i", s(key)], &sealed)).stdout,
            plain
        );
    }
    // Post-quantum recipients together, never beside classic ones.
    let sealed = ok(simdcrypt(&["encrypt", "-r", &rpq1, "-i", s(&pq2)], &plain)).stdout;
    assert!(String::from_utf8_lossy(&sealed[..200]).contains("-> mlkem768x25519 "));
    for key in [&pq1, &pq2] {
        assert_eq!(
            ok(simdcrypt(&["decrypt", "-i", s(key)], &sealed)).stdout,
            plain
        );
    }
    let out = simdcrypt(&["encrypt", "-r", &rpq1, "-r", &r1], &plain);
    assert!(
        !out.status.success() && stderr(&out).contains("incompatible recipients"),
        "{}",
        stderr(&out)
    );
    // An identity file with several keys, the matching one last.
    let both = dir.path().join("both.txt");
    let text = [
        fs::read_to_string(&key3).unwrap(),
        fs::read_to_string(&key1).unwrap(),
    ]
    .concat();
    fs::write(&both, text).unwrap();
    let only1 = ok(simdcrypt(&["encrypt", "-r", &r1], &plain)).stdout;
    assert_eq!(
        ok(simdcrypt(&["decrypt", "-i", s(&both)], &only1)).stdout,
        plain
    );
    // No match.
    let out = simdcrypt(&["decrypt", "-i", s(&pq1)], &only1);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("no identity matched any of the recipients"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn keygen_writes_what_age_keygen_writes() {
    let dir = TempDir::new().unwrap();
    for pq in [false, true] {
        let (key, recipient) = identity(dir.path(), if pq { "pq.txt" } else { "x.txt" }, pq);
        let text = fs::read_to_string(&key).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].starts_with("# created: 20"), "{text}");
        assert_eq!(lines[1], format!("# public key: {recipient}"));
        let prefix = if pq {
            "AGE-SECRET-KEY-PQ-1"
        } else {
            "AGE-SECRET-KEY-1"
        };
        assert!(lines[2].starts_with(prefix) && lines.len() == 3, "{text}");
        assert!(recipient.starts_with(if pq { "age1pq1" } else { "age1" }));
        // Off Unix the file gets what its directory gives it.
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(
                fs::metadata(&key).unwrap().permissions().mode() & 0o777,
                0o600
            );
        }
        // -y gives the recipient back, from a file and from stdin.
        let y = ok(simdcrypt(&["keygen", "-y", s(&key)], b"")).stdout;
        assert_eq!(String::from_utf8(y).unwrap(), format!("{recipient}\n"));
        let y = ok(simdcrypt(&["keygen", "-y"], text.as_bytes())).stdout;
        assert_eq!(String::from_utf8(y).unwrap(), format!("{recipient}\n"));
        // An existing file is never overwritten.
        let out = simdcrypt(&["keygen", "-o", s(&key)], b"");
        assert!(!out.status.success() && stderr(&out).contains("exists"));
        assert_eq!(fs::read_to_string(&key).unwrap(), text);
    }
    let out = simdcrypt(&["keygen", "-y"], b"AGE-SECRET-KEY-1NOTAKEY\n");
    assert!(!out.status.success());
    assert!(stderr(&out).contains("line 1"), "{}", stderr(&out));
}

/// An identity or recipients file that does not parse: its path, the
/// line (none when the file holds no key) and the reason, word for word,
/// whichever command reads it.
#[test]
fn key_file_errors_name_the_file_and_the_line() {
    let dir = TempDir::new().unwrap();
    let file = |name: &str, text: &str| {
        let path = dir.path().join(name);
        fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_owned()
    };
    let empty = file("empty.txt", "# only comments\r\n\n");
    let bad = file("bad.txt", "# a comment\nAGE-SECRET-KEY-1NOTAKEY\n");
    let no_recipient = file("none.txt", "# nothing\n");
    let ssh = file("ssh.txt", "ssh-ed25519 AAAA\n");
    let refused = |args: &[&str], want: String| {
        let out = simdcrypt(args, b"");
        assert!(!out.status.success(), "{args:?}");
        assert_eq!(
            stderr(&out),
            format!("simdcrypt: error: {want}\n"),
            "{args:?}"
        );
    };
    for (path, want) in [
        (
            &empty,
            format!("{empty}: invalid identity: the file holds no identity"),
        ),
        (
            &bad,
            format!("{bad} line 2: invalid identity: not valid Bech32: parse failed"),
        ),
    ] {
        refused(&["decrypt", "-i", path], want.clone());
        refused(&["encrypt", "-i", path, "-o", "-"], want.clone());
        refused(&["keygen", "-y", path], want);
    }
    refused(
        &["encrypt", "-R", &no_recipient, "-o", "-"],
        format!("{no_recipient}: invalid recipient: the file holds no recipient"),
    );
    refused(
        &["encrypt", "-R", &ssh, "-o", "-"],
        format!(
            "{ssh} line 1: invalid recipient \"ssh-ed25519 AAAA\": malformed SSH public key: length invalid"
        ),
    );
}

#[test]
fn passphrases_for_scripts() {
    let dir = TempDir::new().unwrap();
    let pass = dir.path().join("pass.txt");
    fs::write(&pass, "correct horse battery staple\nsecond line ignored\n").unwrap();
    let plain = bytes(1, 2 * CHUNK + 3);
    let sealed = ok(simdcrypt(
        &[
            "encrypt",
            "--passphrase-file",
            s(&pass),
            "--work-factor",
            "10",
        ],
        &plain,
    ))
    .stdout;
    assert!(String::from_utf8_lossy(&sealed[..100]).contains("-> scrypt "));
    assert_eq!(
        ok(simdcrypt(
            &["decrypt", "--passphrase-file", s(&pass)],
            &sealed
        ))
        .stdout,
        plain
    );
    // age's batchpass convention reads the same file.
    let out = run_command(
        Command::new(BIN)
            .args(["decrypt", "-j", "batchpass"])
            .env("AGE_PASSPHRASE", "correct horse battery staple"),
        &sealed,
    );
    assert_eq!(ok(out).stdout, plain);
    let out = run_command(
        Command::new(BIN)
            .args(["encrypt", "-j", "batchpass"])
            .env("AGE_PASSPHRASE", "p")
            .env("AGE_PASSPHRASE_WORK_FACTOR", "11"),
        &plain,
    );
    let sealed2 = ok(out).stdout;
    assert!(String::from_utf8_lossy(&sealed2[..100]).contains(" 11\n"));
    let wrong = run_command(
        Command::new(BIN)
            .args(["decrypt", "-j", "batchpass"])
            .env("AGE_PASSPHRASE", "q"),
        &sealed2,
    );
    assert!(
        !wrong.status.success() && stderr(&wrong).contains("incorrect passphrase"),
        "{}",
        stderr(&wrong)
    );
    // AGE_PASSPHRASE_FD: the whole of a descriptor, trailing newlines
    // stripped, as age's batchpass plugin reads it.
    let fd_pass = dir.path().join("fd.txt");
    fs::write(&fd_pass, "two\nlines\r\n\n").unwrap();
    let out = run_command(
        Command::new("bash")
            .args(["-c", "\"$BIN\" encrypt -j batchpass 3<\"$PASS\""])
            .env("BIN", BIN)
            .env("PASS", &fd_pass)
            .env("AGE_PASSPHRASE_FD", "3")
            .env("AGE_PASSPHRASE_WORK_FACTOR", "10"),
        &plain,
    );
    let sealed3 = ok(out).stdout;
    let out = run_command(
        Command::new(BIN)
            .args(["decrypt", "-j", "batchpass"])
            .env("AGE_PASSPHRASE", "two\nlines"),
        &sealed3,
    );
    assert!(ok(out).stdout == plain);
    // The work factor limit.
    let capped = run_command(
        Command::new(BIN)
            .args(["decrypt", "-j", "batchpass"])
            .env("AGE_PASSPHRASE", "p")
            .env("AGE_PASSPHRASE_MAX_WORK_FACTOR", "10"),
        &sealed2,
    );
    assert!(
        !capped.status.success() && stderr(&capped).contains("work factor"),
        "{}",
        stderr(&capped)
    );
    let out = simdcrypt(
        &[
            "decrypt",
            "--passphrase-file",
            s(&pass),
            "--max-work-factor",
            "10",
        ],
        &sealed2,
    );
    assert!(
        stderr(&out).contains("2^11 is above the limit 2^10"),
        "{}",
        stderr(&out)
    );
    // A passphrase never goes beside other recipients.
    let (_, r) = identity(dir.path(), "k.txt", false);
    let out = simdcrypt(
        &["encrypt", "--passphrase-file", s(&pass), "-r", &r],
        &plain,
    );
    assert!(
        !out.status.success() && stderr(&out).contains("incompatible recipients"),
        "{}",
        stderr(&out)
    );
}

/// Decrypts `sealed` to a file in `dir`, returning the outcome; checks that
/// a failure leaves no file and no temporary file.
fn decrypt_to_file(dir: &Path, key: &Path, sealed: &[u8]) -> Result<Vec<u8>, String> {
    let out_path = dir.join("out.bin");
    let _ = fs::remove_file(&out_path);
    let out = simdcrypt(&["decrypt", "-i", s(key), "-o", s(&out_path)], sealed);
    let leftovers: Vec<_> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".simdcrypt-"))
        .collect();
    assert!(leftovers.is_empty(), "temporary files left: {leftovers:?}");
    if out.status.success() {
        Ok(fs::read(&out_path).unwrap())
    } else {
        assert!(!out_path.exists(), "a failed decryption left {out_path:?}");
        let err = stderr(&out);
        assert!(
            err.starts_with("simdcrypt: error: ") && err.lines().count() == 1,
            "{err}"
        );
        Err(err)
    }
}

#[test]
fn tampering_is_refused_with_its_message_and_leaves_no_file() {
    let dir = TempDir::new().unwrap();
    let (key, recipient) = identity(dir.path(), "key.txt", false);
    let plain = bytes(5, 3 * CHUNK + 100);
    let sealed = ok(simdcrypt(&["encrypt", "-r", &recipient], &plain)).stdout;
    let header_len = sealed.windows(4).position(|w| w == b"--- ").unwrap() + 48;
    assert_eq!(decrypt_to_file(dir.path(), &key, &sealed).unwrap(), plain);

    // Every byte of the header, and bytes all over the payload.
    let payload_offsets = (header_len..sealed.len())
        .step_by(4099)
        .chain([sealed.len() - 1, header_len + 15]);
    for at in (0..header_len).chain(payload_offsets) {
        let mut bad = sealed.clone();
        bad[at] ^= 0x40;
        let err =
            decrypt_to_file(dir.path(), &key, &bad).expect_err(&format!("flip at {at} accepted"));
        let expected: &[&str] = if at < header_len {
            &[
                "header is malformed",
                "header MAC does not match",
                "no identity matched",
                "unsupported age version",
            ]
        } else if at < header_len + 16 {
            // The payload nonce changes the payload key: chunk 0 fails.
            &["chunk 0 failed authentication: the file was modified or corrupted"]
        } else {
            &["failed authentication"]
        };
        assert!(
            expected.iter().any(|e| err.contains(e)),
            "flip at {at}: {err}"
        );
        if at >= header_len + 16 {
            let chunk = (at - header_len - 16) / (CHUNK + 16);
            assert!(
                err.contains(&format!("chunk {chunk}")),
                "flip at {at}: {err}"
            );
        }
    }

    // Cuts: at chunk edges the file is "truncated"; inside a chunk, the
    // last chunk fails.
    let edge = |k: usize| header_len + 16 + k * (CHUNK + 16);
    for cut in [
        0,
        10,
        header_len - 1,
        header_len,
        header_len + 8,
        header_len + 16,
        edge(1),
        edge(2),
        edge(3),
    ] {
        let err =
            decrypt_to_file(dir.path(), &key, &sealed[..cut]).expect_err("a cut file accepted");
        // Nothing left at all: the file is empty, as age says.
        let said = if cut == 0 { "empty" } else { "truncated" };
        assert!(err.contains(said), "cut at {cut}: {err}");
    }
    // A piece of a chunk too short to hold a tag is a cut.
    for cut in [edge(0) + 1, edge(2) + 15] {
        let err =
            decrypt_to_file(dir.path(), &key, &sealed[..cut]).expect_err("a cut file accepted");
        assert!(err.contains("file is truncated"), "cut at {cut}: {err}");
    }
    for cut in [
        edge(0) + 16,
        edge(1) - 1,
        edge(1) + 17,
        edge(2) + 500,
        sealed.len() - 1,
    ] {
        let err =
            decrypt_to_file(dir.path(), &key, &sealed[..cut]).expect_err("a cut file accepted");
        assert!(
            err.contains("failed authentication") && err.contains("truncated"),
            "cut at {cut}: {err}"
        );
    }
    // Garbage after the end.
    for garbage in [&b"x"[..], &[0u8; 16], &[7u8; CHUNK + 16]] {
        let mut bad = sealed.clone();
        bad.extend_from_slice(garbage);
        let err = decrypt_to_file(dir.path(), &key, &bad).expect_err("trailing garbage accepted");
        assert!(err.contains("failed authentication"), "{err}");
    }
}

#[test]
fn stdout_gets_only_verified_chunks_and_the_count_of_bytes() {
    let dir = TempDir::new().unwrap();
    let (key, recipient) = identity(dir.path(), "key.txt", false);
    let plain = bytes(6, 40 * CHUNK);
    let sealed = ok(simdcrypt(&["encrypt", "-r", &recipient], &plain)).stdout;
    let header_len = sealed.windows(4).position(|w| w == b"--- ").unwrap() + 48;
    for (bad_chunk, threads) in [(0, "1"), (1, "2"), (20, "2"), (39, "1")] {
        let mut bad = sealed.clone();
        bad[header_len + 16 + bad_chunk * (CHUNK + 16) + 5] ^= 1;
        let out = simdcrypt(&["decrypt", "-i", s(&key), "--threads", threads], &bad);
        assert!(!out.status.success());
        let released = bad_chunk * CHUNK;
        assert_eq!(out.stdout, plain[..released], "chunk {bad_chunk}");
        assert!(
            stderr(&out).contains(&format!(
                "{released} bytes of verified plaintext were written"
            )),
            "{}",
            stderr(&out)
        );
    }
}

#[test]
fn an_existing_output_is_kept_without_force() {
    let dir = TempDir::new().unwrap();
    let (key, recipient) = identity(dir.path(), "key.txt", false);
    let target = dir.path().join("exists.bin");
    fs::write(&target, b"precious").unwrap();
    let out = simdcrypt(&["encrypt", "-r", &recipient, "-o", s(&target)], b"new");
    assert!(
        !out.status.success() && stderr(&out).contains("--force"),
        "{}",
        stderr(&out)
    );
    assert_eq!(fs::read(&target).unwrap(), b"precious");
    ok(simdcrypt(
        &["encrypt", "-r", &recipient, "-o", s(&target), "--force"],
        b"new",
    ));
    let sealed = fs::read(&target).unwrap();
    let plain = dir.path().join("plain.bin");
    fs::write(&plain, b"old plaintext").unwrap();
    let mut bad = sealed.clone();
    let last = bad.len() - 1;
    bad[last] ^= 1;
    let out = simdcrypt(
        &["decrypt", "-i", s(&key), "-o", s(&plain), "--force"],
        &bad,
    );
    assert!(!out.status.success());
    assert_eq!(
        fs::read(&plain).unwrap(),
        b"old plaintext",
        "a failed decryption touched the file"
    );
    // Devices are written as a shell's `>` would.
    ok(simdcrypt(
        &["decrypt", "-i", s(&key), "-o", "/dev/null"],
        &sealed,
    ));
}

#[test]
fn bad_input_gets_a_message_not_a_panic() {
    let dir = TempDir::new().unwrap();
    let (key, _) = identity(dir.path(), "key.txt", false);
    let cases: &[(&[&str], &[u8], &str)] = &[
        (&["encrypt"], b"x", "no recipients"),
        (
            &["encrypt", "-r", "age1notarecipient"],
            b"x",
            "invalid recipient",
        ),
        (
            &["encrypt", "-r", "ssh-ed25519 AAAA"],
            b"x",
            "malformed SSH public key",
        ),
        // A key of a type age takes, its data garbled: malformed, not of
        // an unsupported type.
        (
            &[
                "encrypt",
                "-r",
                "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGarbage",
            ],
            b"x",
            "malformed SSH public key",
        ),
        (&["decrypt", "-i", s(&key)], b"", "header is malformed"),
        (
            &["decrypt", "-i", s(&key)],
            b"hello world\n",
            "header is malformed",
        ),
        (
            &["decrypt", "-i", s(&key)],
            b"age-encryption.org/v2\n",
            "unsupported age version",
        ),
        (
            &["decrypt", "-i", s(&key)],
            b"-----BEGIN AGE ENCRYPTED FILE-----\nYWdl\n",
            "armor is malformed",
        ),
        (&["decrypt", "-i", "/nonexistent/key"], b"", "cannot open"),
        (&["decrypt", "-j", "bad name"], b"", "invalid plugin name"),
    ];
    for (args, stdin, expected) in cases {
        let out = simdcrypt(args, stdin);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains(expected),
            "{args:?}: {}",
            stderr(&out)
        );
        assert!(!stderr(&out).contains("panicked") && !stderr(&out).contains("internal error"));
    }
}

/// What we write, we read, and so does age: `encrypt` refuses more than
/// the 1,024 recipient stanzas age 1.3.2 reads, leaving no file, and
/// writes 1,024, which `decrypt` (and age, where installed) opens; `decrypt`
/// still reads a header of 4,096 stanzas that another tool wrote.
#[test]
fn recipients_stop_where_age_stops_reading() {
    use simdcrypt_age::{FileKey, Header, Recipient, Stanza, Threads, x25519};

    let dir = TempDir::new().unwrap();
    let identities: Vec<x25519::Identity> = (0..1025)
        .map(|_| x25519::Identity::generate().unwrap())
        .collect();
    let list = |n: usize| {
        let path = dir.path().join(format!("{n}.txt"));
        let lines: Vec<String> = identities[..n]
            .iter()
            .map(|i| i.to_public().to_string())
            .collect();
        fs::write(&path, lines.join("\n")).unwrap();
        path
    };
    let out = dir.path().join("out.age");
    let refused = simdcrypt(&["encrypt", "-R", s(&list(1025)), "-o", s(&out)], b"data");
    assert_eq!(refused.status.code(), Some(1), "{}", stderr(&refused));
    assert!(
        stderr(&refused).contains("too many recipients: 1025")
            && stderr(&refused).contains("more than 1024"),
        "{}",
        stderr(&refused)
    );
    assert!(!out.exists(), "no file for too many recipients");

    ok(simdcrypt(
        &["encrypt", "-R", s(&list(1024)), "-o", s(&out)],
        b"data",
    ));
    let last = dir.path().join("last.txt");
    fs::write(&last, identities[1023].to_bech32().as_bytes()).unwrap();
    let sealed = fs::read(&out).unwrap();
    assert_eq!(
        ok(simdcrypt(&["decrypt", "-i", s(&last)], &sealed)).stdout,
        b"data"
    );
    if let Some(age) = peer("AGE_BIN", "age") {
        let theirs = ok(run_command(
            Command::new(&age).arg("-d").arg("-i").arg(&last),
            &sealed,
        ));
        assert_eq!(theirs.stdout, b"data");
    }

    // 4,095 stanzas of an unknown type and one for us.
    let file_key = FileKey::from_bytes([7; 16]);
    let mut stanzas = vec![
        Stanza {
            tag: "other".into(),
            args: vec!["x".into()],
            body: vec![1; 32],
        };
        4095
    ];
    stanzas.extend(identities[0].to_public().wrap(&file_key).unwrap());
    let mut sealed = Vec::new();
    Header::new(stanzas, &file_key)
        .unwrap()
        .write(&mut sealed)
        .unwrap();
    simdcrypt_age::stream::encrypt(&file_key, &b"many"[..], &mut sealed, Threads::Auto).unwrap();
    let first = dir.path().join("first.txt");
    fs::write(&first, identities[0].to_bech32().as_bytes()).unwrap();
    assert_eq!(
        ok(simdcrypt(&["decrypt", "-i", s(&first)], &sealed)).stdout,
        b"many"
    );
}

/// A key pair made by a peer's `keygen` (`-pq` for the hybrid) in `dir`:
/// the identity file and the recipient (`keygen -y`).
fn their_key(keygen: &Path, dir: &Path, name: &str, pq: bool) -> (PathBuf, String) {
    let path = dir.join(name);
    let pq: &[&str] = if pq { &["-pq"] } else { &[] };
    ok(run_command(
        Command::new(keygen).args(pq).arg("-o").arg(&path),
        b"",
    ));
    let out = ok(run_command(Command::new(keygen).arg("-y").arg(&path), b""));
    let recipient = String::from_utf8(out.stdout).unwrap().trim().to_owned();
    (path, recipient)
}

/// Both directions with one peer tool (`age` or `rage`): X25519 and, with
/// `batchpass`, passphrases through age's batchpass plugin; binary and
/// armored.
fn interop(tool: &Path, keygen: &Path, batchpass: bool) {
    let dir = TempDir::new().unwrap();
    let plain = bytes(77, 5 * CHUNK + 321);
    let plain_path = dir.path().join("plain");
    fs::write(&plain_path, &plain).unwrap();
    // Their key, our key.
    let (theirs, their_recipient) = their_key(keygen, dir.path(), "theirs.txt", false);
    let their_recipient = their_recipient.as_str();
    let (ours, our_recipient) = identity(dir.path(), "ours.txt", false);
    for armor in [false, true] {
        let a: &[&str] = if armor { &["-a"] } else { &[] };
        // We encrypt, they decrypt.
        let sealed = ok(simdcrypt(
            &[&["encrypt", "-r", their_recipient][..], a].concat(),
            &plain,
        ))
        .stdout;
        let opened = ok(run_command(
            Command::new(tool).arg("-d").arg("-i").arg(&theirs),
            &sealed,
        ))
        .stdout;
        assert!(
            opened == plain,
            "{tool:?} could not read our file (armor {armor})"
        );
        // They encrypt, we decrypt.
        let sealed = ok(run_command(
            Command::new(tool)
                .args(a)
                .arg("-r")
                .arg(&our_recipient)
                .arg(&plain_path),
            b"",
        ))
        .stdout;
        assert!(
            ok(simdcrypt(&["decrypt", "-i", s(&ours)], &sealed)).stdout == plain,
            "their file (armor {armor})"
        );
        // Passphrases, through age's batchpass plugin when it is on PATH.
        if batchpass && peer("AGE_PLUGIN_BATCHPASS_BIN", "age-plugin-batchpass").is_some() {
            let env = [
                ("AGE_PASSPHRASE", "interop passphrase"),
                ("AGE_PASSPHRASE_WORK_FACTOR", "12"),
            ];
            let sealed = ok(run_command(
                Command::new(BIN)
                    .args([&["encrypt", "-j", "batchpass"][..], a].concat())
                    .envs(env),
                &plain,
            ))
            .stdout;
            let opened = ok(run_command(
                Command::new(tool).args(["-d", "-j", "batchpass"]).envs(env),
                &sealed,
            ))
            .stdout;
            assert!(
                opened == plain,
                "{tool:?} could not read our passphrase file"
            );
            let sealed = ok(run_command(
                Command::new(tool)
                    .args(["-e", "-j", "batchpass"])
                    .args(a)
                    .arg(&plain_path)
                    .envs(env),
                b"",
            ))
            .stdout;
            let opened = ok(run_command(
                Command::new(BIN)
                    .args(["decrypt", "-j", "batchpass"])
                    .envs(env),
                &sealed,
            ))
            .stdout;
            assert!(opened == plain, "their passphrase file");
        }
    }
}

#[test]
fn interoperates_with_age() {
    if let (Some(age), Some(keygen)) =
        (peer("AGE_BIN", "age"), peer("AGE_KEYGEN_BIN", "age-keygen"))
    {
        interop(&age, &keygen, true);
        // The post-quantum hybrid, both ways (age 1.3 and later).
        let dir = TempDir::new().unwrap();
        let plain = bytes(3, CHUNK + 1);
        let (theirs, their_recipient) = their_key(&keygen, dir.path(), "pq.txt", true);
        let sealed = ok(simdcrypt(
            &["encrypt", "-r", their_recipient.trim()],
            &plain,
        ))
        .stdout;
        assert!(
            ok(run_command(
                Command::new(&age).arg("-d").arg("-i").arg(&theirs),
                &sealed
            ))
            .stdout
                == plain
        );
        let (ours, our_recipient) = identity(dir.path(), "ours.txt", true);
        let sealed = ok(run_command(
            Command::new(&age).arg("-r").arg(&our_recipient),
            &plain,
        ))
        .stdout;
        assert!(ok(simdcrypt(&["decrypt", "-i", s(&ours)], &sealed)).stdout == plain);
    }
}

#[test]
fn interoperates_with_rage() {
    if let (Some(rage), Some(keygen)) = (
        peer("RAGE_BIN", "rage"),
        peer("RAGE_KEYGEN_BIN", "rage-keygen"),
    ) {
        // rage reads passphrases only from pinentry or a terminal, never
        // through a plugin: its passphrase side runs on a pseudo-terminal.
        interop(&rage, &keygen, false);
        rage_passphrases(&rage);
    }
}

#[test]
fn duplicates_are_warned_about_as_age_does() {
    let dir = TempDir::new().unwrap();
    let (key, recipient) = identity(dir.path(), "key.txt", false);
    let out = ok(simdcrypt(
        &["encrypt", "-r", &recipient, "-a", "-r", &recipient],
        b"x",
    ));
    assert!(
        stderr(&out).contains(&format!("warning: duplicate recipient \"{recipient}\"")),
        "{}",
        stderr(&out)
    );
    let out = ok(simdcrypt(
        &["decrypt", "-i", s(&key), "-i", s(&key)],
        &out.stdout,
    ));
    assert!(
        stderr(&out).contains("warning: duplicate identity file"),
        "{}",
        stderr(&out)
    );
    assert_eq!(out.stdout, b"x");
}

/// rage's passphrases both ways, typed on a pseudo-terminal that
/// util-linux's `script` makes (pinentry turned off, so that rage prompts
/// on the terminal). Skipped, saying so, without `script`.
fn rage_passphrases(rage: &Path) {
    let Some(script) = peer("SCRIPT_BIN", "script") else {
        return;
    };
    let dir = TempDir::new().unwrap();
    let plain = bytes(11, 2 * CHUNK + 9);
    let plain_path = dir.path().join("plain");
    fs::write(&plain_path, &plain).unwrap();
    let on_terminal = |command: String, typed: &str| {
        ok(run_command(
            Command::new(&script)
                .args(["-qec", &command, "/dev/null"])
                .env("PINENTRY_PROGRAM", "/nonexistent"),
            typed.as_bytes(),
        ))
    };
    // Ours, read by rage.
    let ours = dir.path().join("ours.age");
    let env = [
        ("AGE_PASSPHRASE", "rage interop"),
        ("AGE_PASSPHRASE_WORK_FACTOR", "12"),
    ];
    ok(run_command(
        Command::new(BIN)
            .args(["encrypt", "-j", "batchpass", "-o", s(&ours), s(&plain_path)])
            .envs(env),
        b"",
    ));
    let opened = dir.path().join("opened");
    on_terminal(
        format!("'{}' -d -o '{}' '{}'", rage.display(), s(&opened), s(&ours)),
        "rage interop\r",
    );
    assert!(
        fs::read(&opened).unwrap() == plain,
        "rage could not read our passphrase file"
    );
    // rage's, read by us (at the work factor rage calibrates, about a second).
    let theirs = dir.path().join("theirs.age");
    on_terminal(
        format!(
            "'{}' -p -o '{}' '{}'",
            rage.display(),
            s(&theirs),
            s(&plain_path)
        ),
        "from rage\rfrom rage\r",
    );
    let pass = dir.path().join("pass.txt");
    fs::write(&pass, "from rage\n").unwrap();
    let out = simdcrypt(&["decrypt", "--passphrase-file", s(&pass), s(&theirs)], b"");
    assert!(
        ok(out).stdout == plain,
        "we could not read rage's passphrase file"
    );
}

/// `decrypt --offset/--length`: any range of a binary file, the same bytes
/// a whole decryption gives; a range past the end, standard input, armor
/// and a cut file are refused with a message and no output file.
#[test]
fn decrypt_a_range_without_the_rest() {
    let dir = TempDir::new().unwrap();
    let (key, recipient) = identity(dir.path(), "key.txt", false);
    let plain = bytes(9, 5 * CHUNK + 77);
    let file = dir.path().join("file.age");
    fs::write(
        &file,
        ok(simdcrypt(&["encrypt", "-r", &recipient], &plain)).stdout,
    )
    .unwrap();
    let len = plain.len();
    for (offset, length) in [
        (0, 0),
        (0, 1),
        (CHUNK - 1, 2),
        (CHUNK, CHUNK),
        (3 * CHUNK + 5, 2 * CHUNK + 72),
        (len - 1, 1),
        (len, 0),
    ] {
        let (o, l) = (offset.to_string(), length.to_string());
        let args = [
            "decrypt",
            "-i",
            s(&key),
            "--offset",
            &o,
            "--length",
            &l,
            s(&file),
        ];
        let got = ok(simdcrypt(&args, b"")).stdout;
        assert!(
            got == plain[offset..offset + length],
            "{length} bytes at {offset}"
        );
    }
    // --offset alone runs to the end; --length alone starts at 0.
    let o = (2 * CHUNK + 3).to_string();
    let tail = ok(simdcrypt(
        &["decrypt", "-i", s(&key), "--offset", &o, s(&file)],
        b"",
    ))
    .stdout;
    assert!(tail == plain[2 * CHUNK + 3..]);
    let head = ok(simdcrypt(
        &["decrypt", "-i", s(&key), "--length", "10", s(&file)],
        b"",
    ))
    .stdout;
    assert!(head == plain[..10]);

    let refused = |args: &[&str], stdin: &[u8], says: &str| {
        let out = dir.path().join("out");
        let mut all = vec!["decrypt", "-i", s(&key), "-o", s(&out)];
        all.extend_from_slice(args);
        let run = simdcrypt(&all, stdin);
        assert_eq!(run.status.code(), Some(1), "{args:?}");
        let message = stderr(&run);
        assert!(message.contains(says), "{args:?}: {message}");
        assert_eq!(message.lines().count(), 1, "{message}");
        assert!(!out.exists(), "{args:?} left an output file");
    };
    let past = (len - 3).to_string();
    refused(
        &["--offset", &past, "--length", "4", s(&file)],
        b"",
        "past the end",
    );
    refused(
        &["--offset", &(len + 1).to_string(), s(&file)],
        b"",
        "past the end",
    );
    let sealed = fs::read(&file).unwrap();
    refused(&["--offset", "1", "-"], &sealed, "standard input");
    let armored = dir.path().join("file.txt");
    fs::write(
        &armored,
        ok(simdcrypt(&["encrypt", "-a", "-r", &recipient], &plain)).stdout,
    )
    .unwrap();
    refused(&["--offset", "1", s(&armored)], b"", "armored");
    // Cut after a whole chunk: the final chunk is checked first.
    let cut = dir.path().join("cut.age");
    fs::write(&cut, &sealed[..sealed.len() - (77 + 16)]).unwrap();
    refused(
        &["--offset", "0", "--length", "1", s(&cut)],
        b"",
        "truncated",
    );
}

/// An identity file encrypted with a passphrase (`-i key.age`, binary or
/// armored): its passphrase is asked for on the terminal (a pseudo-terminal
/// from util-linux's `script`), and a wrong one is refused naming the file.
/// Also `-e`/`-d`, which age's scripts pass, are accepted.
#[test]
fn encrypted_identity_files_ask_for_their_passphrase() {
    let Some(script) = peer("SCRIPT_BIN", "script") else {
        return;
    };
    let dir = TempDir::new().unwrap();
    let (key, recipient) = identity(dir.path(), "key.txt", false);
    let plain = bytes(12, CHUNK + 5);
    let file = dir.path().join("file.age");
    fs::write(
        &file,
        ok(simdcrypt(&["encrypt", "-e", "-r", &recipient], &plain)).stdout,
    )
    .unwrap();
    for armor in [false, true] {
        let key_age = protected(&key, &format!("key{armor}.age"), armor);
        let out = dir.path().join(format!("out{armor}"));
        let on_terminal = |typed: &str| {
            run_command(
                Command::new(&script).args([
                    "-qec",
                    &format!(
                        "'{BIN}' decrypt -d -i '{}' -o '{}' '{}'",
                        s(&key_age),
                        s(&out),
                        s(&file)
                    ),
                    "/dev/null",
                ]),
                typed.as_bytes(),
            )
        };
        let run = on_terminal("identity secret\r");
        assert!(
            run.status.success(),
            "{}",
            String::from_utf8_lossy(&run.stdout)
        );
        assert!(
            String::from_utf8_lossy(&run.stdout).contains("Enter passphrase for identity file")
        );
        assert!(fs::read(&out).unwrap() == plain, "armor {armor}");
        fs::remove_file(&out).unwrap();
        let run = on_terminal("not it\r");
        assert!(!run.status.success());
        let said = String::from_utf8_lossy(&run.stdout);
        assert!(
            said.contains("incorrect passphrase") && said.contains("key"),
            "{said}"
        );
        assert!(!out.exists());
    }
}

/// Standard output on a terminal (a pseudo-terminal from `script`), as age
/// treats it: a binary age file is refused with age's hint, armor goes
/// out; plaintext goes out while it is printable and unprintable plaintext
/// is refused before any of it is written; `-o -` forces both.
#[test]
fn a_terminal_gets_no_binary_unless_asked() {
    let Some(script) = peer("SCRIPT_BIN", "script") else {
        return;
    };
    let dir = TempDir::new().unwrap();
    let (key, recipient) = identity(dir.path(), "key.txt", false);
    let text = dir.path().join("text.age");
    let binary = dir.path().join("binary.age");
    fs::write(
        &text,
        ok(simdcrypt(
            &["encrypt", "-r", &recipient],
            b"hello, terminal\n",
        ))
        .stdout,
    )
    .unwrap();
    fs::write(
        &binary,
        ok(simdcrypt(
            &["encrypt", "-r", &recipient],
            b"\x1b[2Jbinary\x00\xff",
        ))
        .stdout,
    )
    .unwrap();
    let on_terminal = |args: &str| {
        let run = run_command(
            Command::new(&script).args(["-qec", &format!("'{BIN}' {args}"), "/dev/null"]),
            b"",
        );
        (
            run.status.success(),
            String::from_utf8_lossy(&run.stdout).into_owned(),
        )
    };
    let (k, t, b) = (s(&key), s(&text), s(&binary));
    let (passed, said) = on_terminal(&format!("decrypt -i '{k}' '{t}'"));
    assert!(passed && said.contains("hello, terminal"), "{said}");
    let (passed, said) = on_terminal(&format!("decrypt -i '{k}' '{b}'"));
    assert!(
        !passed && said.contains("unprintable") && !said.contains("binary"),
        "{said}"
    );
    let (passed, said) = on_terminal(&format!("decrypt -i '{k}' -o - '{b}'"));
    assert!(passed && said.contains("binary"), "{said}");
    let (passed, said) = on_terminal(&format!("encrypt -r {recipient} '{t}'"));
    assert!(
        !passed && said.contains("-a/--armor") && said.contains("-o -"),
        "{said}"
    );
    let (passed, said) = on_terminal(&format!("encrypt -a -r {recipient} '{t}'"));
    assert!(
        passed && said.contains("BEGIN AGE ENCRYPTED FILE"),
        "{said}"
    );
    let (passed, _) = on_terminal(&format!("encrypt -o - -r {recipient} '{t}'"));
    assert!(passed);
}

/// `-j batchpass` beside `-i`, as age takes them: each is tried, and the
/// passphrase is read only for a file that has one.
#[test]
fn batchpass_beside_identities_tries_each() {
    let dir = TempDir::new().unwrap();
    let (key, recipient) = identity(dir.path(), "key.txt", false);
    let plain = bytes(13, 1000);
    let to_key = ok(simdcrypt(&["encrypt", "-r", &recipient], &plain)).stdout;
    let env = [
        ("AGE_PASSPHRASE", "batch"),
        ("AGE_PASSPHRASE_WORK_FACTOR", "10"),
    ];
    let to_pass = ok(run_command(
        Command::new(BIN)
            .args(["encrypt", "-j", "batchpass"])
            .envs(env),
        &plain,
    ))
    .stdout;
    let args = ["decrypt", "-j", "batchpass", "-i", s(&key)];
    // No AGE_PASSPHRASE: not needed for a file to an identity.
    let opened = ok(run_command(
        Command::new(BIN).args(args).env_remove("AGE_PASSPHRASE"),
        &to_key,
    ));
    assert!(opened.stdout == plain);
    let opened = ok(run_command(
        Command::new(BIN).args(args).envs(env),
        &to_pass,
    ));
    assert!(opened.stdout == plain);
}

/// An empty passphrase at `encrypt -p`'s prompt (on a pseudo-terminal)
/// gets an autogenerated one, shown as age shows it, that opens the file.
#[test]
fn an_empty_passphrase_is_autogenerated() {
    let Some(script) = peer("SCRIPT_BIN", "script") else {
        return;
    };
    let dir = TempDir::new().unwrap();
    let plain_path = dir.path().join("plain");
    let plain = bytes(14, 3000);
    fs::write(&plain_path, &plain).unwrap();
    let sealed = dir.path().join("sealed.age");
    let run = ok(run_command(
        Command::new(&script).args([
            "-qec",
            &format!(
                "'{BIN}' encrypt -p --work-factor 10 -o '{}' '{}'",
                s(&sealed),
                s(&plain_path)
            ),
            "/dev/null",
        ]),
        b"\r",
    ));
    let said = String::from_utf8_lossy(&run.stdout);
    let passphrase = said
        .split("using autogenerated passphrase \"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .unwrap_or_else(|| panic!("no autogenerated passphrase in {said:?}"));
    assert_eq!(passphrase.split('-').count(), 10, "{passphrase}");
    let pass = dir.path().join("pass.txt");
    fs::write(&pass, format!("{passphrase}\n")).unwrap();
    let opened = ok(simdcrypt(
        &["decrypt", "--passphrase-file", s(&pass), s(&sealed)],
        b"",
    ));
    assert!(opened.stdout == plain);
}

/// Called through links named `age` and `age-keygen`, the tool takes their
/// command lines: the interoperability checks run with it in age's place,
/// `-o` replaces an existing file as age's does, and refused command lines
/// end as age's do (`age: error: …`, status 1; 2 for an unknown flag).
#[cfg(unix)]
#[test]
fn called_as_age_it_takes_ages_command_line() {
    let dir = TempDir::new().unwrap();
    let (age, keygen) = (dir.path().join("age"), dir.path().join("age-keygen"));
    std::os::unix::fs::symlink(BIN, &age).unwrap();
    std::os::unix::fs::symlink(BIN, &keygen).unwrap();
    interop(&age, &keygen, false);

    let key = dir.path().join("key.txt");
    ok(run_command(
        Command::new(&keygen).args(["-o", s(&key)]),
        b"",
    ));
    let recipient = ok(run_command(
        Command::new(&keygen).args(["-y", s(&key)]),
        b"",
    ))
    .stdout;
    let recipient = String::from_utf8(recipient).unwrap();
    let plain = dir.path().join("plain");
    fs::write(&plain, b"to and from age's command line").unwrap();
    let sealed = dir.path().join("sealed.age");
    fs::write(&sealed, b"an older file").unwrap();
    ok(run_command(
        Command::new(&age).args(["--recipient", recipient.trim(), "-o", s(&sealed), s(&plain)]),
        b"",
    ));
    let opened = ok(run_command(
        Command::new(&age).args(["--decrypt", "-identity", s(&key), s(&sealed)]),
        b"",
    ))
    .stdout;
    assert_eq!(opened, b"to and from age's command line");

    for (args, status, says) in [
        (
            &["-d", "-p"][..],
            1,
            "age: error: -p/--passphrase can't be used with -d",
        ),
        (
            &["-d", "-r", "age1x"],
            1,
            "did you mean to use -i/--identity?",
        ),
        (&["a", "b"], 1, "age: error: too many INPUT arguments"),
        (&["-x"], 2, "flag provided but not defined: -x"),
    ] {
        let run = run_command(Command::new(&age).args(args), b"");
        assert_eq!(run.status.code(), Some(status), "{args:?}");
        assert!(stderr(&run).contains(says), "{args:?}: {}", stderr(&run));
    }
    let run = run_command(Command::new(&age).args(["-d", "-i", s(&key)]), b"not age");
    assert_eq!(run.status.code(), Some(1));
    assert!(stderr(&run).starts_with("age: error: "), "{}", stderr(&run));
}

/// An SSH key file of the age crate's tests (its README says how each was
/// made).
fn ssh_key(name: &str) -> String {
    format!(
        "{}/../simdcrypt-age/tests/data/ssh/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// SSH keys both ways with one peer tool: files to `ssh-ed25519` and
/// `ssh-rsa` public keys (`-R` file and `-r` line) opened by the other
/// side's private key; and the PEM forms as `-i` (age reads PKCS#1 and
/// PKCS#8 and encrypts to `-i`; rage 0.12 reads PKCS#1 only).
fn ssh_interop(tool: &Path, is_age: bool) {
    let dir = TempDir::new().unwrap();
    let plain = bytes(41, 2 * CHUNK + 17);
    let plain_path = dir.path().join("plain");
    fs::write(&plain_path, &plain).unwrap();
    for key in ["ed25519", "rsa"] {
        let public = ssh_key(&format!("{key}.pub"));
        let line = fs::read_to_string(&public).unwrap();
        for args in [["-R", &public], ["-r", line.trim()]] {
            let sealed = ok(simdcrypt(&[&["encrypt"][..], &args].concat(), &plain)).stdout;
            let opened = ok(run_command(
                Command::new(tool).arg("-d").arg("-i").arg(ssh_key(key)),
                &sealed,
            ))
            .stdout;
            assert!(opened == plain, "{tool:?} could not read our {key} file");
        }
        let sealed = ok(run_command(
            Command::new(tool).arg("-R").arg(&public).arg(&plain_path),
            b"",
        ))
        .stdout;
        let opened = ok(simdcrypt(&["decrypt", "-i", &ssh_key(key)], &sealed)).stdout;
        assert!(opened == plain, "their {key} file");
    }
    let pems: &[&str] = if is_age {
        &["rsa_pkcs1", "rsa_pkcs8", "ed25519_pkcs8"]
    } else {
        &["rsa_pkcs1"]
    };
    for pem in pems {
        let sealed = ok(simdcrypt(&["encrypt", "-i", &ssh_key(pem)], &plain)).stdout;
        let opened = ok(run_command(
            Command::new(tool).arg("-d").arg("-i").arg(ssh_key(pem)),
            &sealed,
        ))
        .stdout;
        assert!(opened == plain, "{tool:?} could not read our file to {pem}");
        if is_age {
            let sealed = ok(run_command(
                Command::new(tool)
                    .args(["-e", "-i"])
                    .arg(ssh_key(pem))
                    .arg(&plain_path),
                b"",
            ))
            .stdout;
            let opened = ok(simdcrypt(&["decrypt", "-i", &ssh_key(pem)], &sealed)).stdout;
            assert!(opened == plain, "their file to {pem}");
        }
    }
}

#[test]
fn ssh_keys_interoperate_with_age() {
    if let Some(age) = peer("AGE_BIN", "age") {
        ssh_interop(&age, true);
    }
}

#[test]
fn ssh_keys_interoperate_with_rage() {
    if let Some(rage) = peer("RAGE_BIN", "rage") {
        ssh_interop(&rage, false);
    }
}

/// A recipients file with SSH keys age does not take (ECDSA, 1024-bit
/// RSA) leaves them out with a warning each, as age does, and encrypts to
/// the rest; with none left it is an error naming the line.
#[test]
fn recipients_files_leave_out_ssh_keys_age_does_not_take() {
    let dir = TempDir::new().unwrap();
    let keys = dir.path().join("authorized_keys");
    let text: String = ["ecdsa.pub", "rsa1024.pub", "ed25519.pub"]
        .iter()
        .map(|k| fs::read_to_string(ssh_key(k)).unwrap())
        .collect();
    fs::write(&keys, text).unwrap();
    let out = ok(simdcrypt(
        &["encrypt", "-R", s(&keys)],
        b"to the ed25519 key",
    ));
    let said = stderr(&out);
    assert!(
        said.contains("ignoring unsupported SSH key of type \"ecdsa-sha2-nistp256\" at line 1")
            && said.contains(
                "ignoring unsupported SSH key of type \"ssh-rsa\" (RSA key size is too small"
            )
            && said.contains("at line 2"),
        "{said}"
    );
    let opened = ok(simdcrypt(
        &["decrypt", "-i", &ssh_key("ed25519")],
        &out.stdout,
    ))
    .stdout;
    assert_eq!(opened, b"to the ed25519 key");
    // Nothing left: each left out with its warning, then the file refused.
    let out = simdcrypt(&["encrypt", "-R", &ssh_key("ecdsa.pub")], b"x");
    assert_eq!(out.status.code(), Some(1));
    let said = stderr(&out);
    assert!(
        said.contains("warning: recipients file")
            && said.lines().last().unwrap().contains("no recipients found"),
        "{said}"
    );
    // An ECDSA private key is refused when read; a key protected with a
    // cipher that is not ours, when a file addressed to it needs it.
    let out = simdcrypt(&["decrypt", "-i", &ssh_key("ecdsa")], b"");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("SSH key type \"ecdsa-sha2-nistp256\" is not supported"),
        "{}",
        stderr(&out)
    );
    let sealed = ok(simdcrypt(
        &["encrypt", "-R", &ssh_key("ed25519_aes256gcm.pub")],
        b"x",
    ))
    .stdout;
    let out = simdcrypt(&["decrypt", "-i", &ssh_key("ed25519_aes256gcm")], &sealed);
    assert_eq!(out.status.code(), Some(1));
    let said = stderr(&out);
    assert!(
        said.contains("aes256-gcm@openssh.com is not supported"),
        "{said}"
    );
    assert_eq!(said.lines().count(), 1, "{said}");
}

/// Passphrase-protected SSH keys (OpenSSH's aes256-ctr and aes256-cbc,
/// legacy PEM's AES-128-CBC) ask for their passphrase on the terminal only
/// when a stanza is addressed to them, as age asks; a wrong one is
/// refused. age itself opens our file with the same key on the same
/// terminal.
#[test]
fn protected_ssh_keys_ask_for_their_passphrase() {
    let Some(script) = peer("SCRIPT_BIN", "script") else {
        return;
    };
    let dir = TempDir::new().unwrap();
    let plain = bytes(5, CHUNK + 3);
    // A key under legacy PEM encryption does not hold its public key: age
    // and we read it from the .pub file beside the key.
    let legacy = dir.path().join("legacy");
    fs::copy(ssh_key("rsa_pkcs1_encrypted"), &legacy).unwrap();
    let legacy_key = s(&legacy).to_owned();
    let refused = simdcrypt(&["decrypt", "-i", &legacy_key], b"");
    assert!(
        stderr(&refused).contains("legacy.pub")
            && stderr(&refused).contains("ssh-keygen -p -m RFC4716"),
        "{}",
        stderr(&refused)
    );
    fs::copy(ssh_key("rsa.pub"), dir.path().join("legacy.pub")).unwrap();
    let out = dir.path().join("out");
    for (key, public) in [
        (
            ssh_key("ed25519_encrypted"),
            ssh_key("ed25519_encrypted.pub"),
        ),
        (ssh_key("rsa_encrypted"), ssh_key("rsa_encrypted.pub")),
        (
            ssh_key("ed25519_aes256cbc"),
            ssh_key("ed25519_aes256cbc.pub"),
        ),
        (legacy_key.clone(), ssh_key("rsa.pub")),
    ] {
        let file = dir.path().join("file.age");
        let sealed = ok(simdcrypt(
            &["encrypt", "-R", &ssh_key("ed25519.pub"), "-R", &public],
            &plain,
        ))
        .stdout;
        fs::write(&file, sealed).unwrap();
        let on_terminal = |program: &str, typed: &str| {
            let command = format!("{program} -d -i '{key}' -o '{}' '{}'", s(&out), s(&file));
            run_command(
                Command::new(&script).args(["-qec", &command, "/dev/null"]),
                typed.as_bytes(),
            )
        };
        let run = on_terminal(&format!("'{BIN}' decrypt"), "correct horse\r");
        let said = String::from_utf8_lossy(&run.stdout).into_owned();
        assert!(run.status.success(), "{key}: {said}");
        assert!(said.contains("Enter passphrase for \""), "{key}: {said}");
        assert!(fs::read(&out).unwrap() == plain, "{key}");
        fs::remove_file(&out).unwrap();
        let run = on_terminal(&format!("'{BIN}' decrypt"), "wrong horse\r");
        let said = String::from_utf8_lossy(&run.stdout).into_owned();
        assert!(
            !run.status.success() && said.contains("incorrect passphrase"),
            "{key}: {said}"
        );
        assert!(!out.exists());
        if let Some(age) = std::env::var_os("AGE_BIN")
            .map(PathBuf::from)
            .or_else(|| peer("AGE_BIN", "age"))
        {
            let run = on_terminal(&format!("'{}'", age.display()), "correct horse\r");
            assert!(
                run.status.success(),
                "age, {key}: {}",
                String::from_utf8_lossy(&run.stdout)
            );
            assert!(fs::read(&out).unwrap() == plain, "age, {key}");
            fs::remove_file(&out).unwrap();
        }
    }
    // A file not addressed to the key: no question (there is no terminal
    // here to ask on), just no match.
    let sealed = ok(simdcrypt(
        &["encrypt", "-R", &ssh_key("ed25519.pub")],
        &plain,
    ))
    .stdout;
    let run = simdcrypt(&["decrypt", "-i", &ssh_key("rsa_encrypted")], &sealed);
    assert_eq!(run.status.code(), Some(1));
    assert!(
        stderr(&run).contains("no identity matched"),
        "{}",
        stderr(&run)
    );
}

/// Our test plugin (`age-plugin-simdtest`, a binary of simdcrypt-age built
/// with its `testkit` feature, as `cargo test --all-features` builds it),
/// beside the tool's binary; `None`, said, when it was not built.
fn simdtest_plugin() -> Option<PathBuf> {
    let plugin = Path::new(BIN).with_file_name("age-plugin-simdtest");
    if !plugin.is_file() {
        eprintln!(
            "skipped: {} not built (cargo test --all-features builds it)",
            plugin.display()
        );
        return None;
    }
    Some(plugin)
}

/// `PATH` with `dir` first: where a plugin is looked for.
fn path_with(dir: &Path) -> std::ffi::OsString {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::join_paths(std::iter::once(dir.to_path_buf()).chain(std::env::split_paths(&path)))
        .unwrap()
}

/// A key pair of our test plugin with `modes`: the recipient, and an
/// identity file holding the identity.
fn simdtest_keys(plugin: &Path, dir: &Path, name: &str, modes: &str) -> (String, PathBuf) {
    let out = ok(run_command(
        Command::new(plugin).args(["--generate", modes]),
        b"",
    ));
    let text = String::from_utf8(out.stdout).unwrap();
    let recipient = text
        .lines()
        .find_map(|l| l.strip_prefix("# recipient: "))
        .unwrap()
        .to_owned();
    let file = dir.join(name);
    fs::write(&file, &text).unwrap();
    (recipient, file)
}

/// Plugins as age runs them (c2sp.org/age-plugin): `age1NAME1…` recipients,
/// `AGE-PLUGIN-NAME-1…` identities (also encrypted to with `-i`), `-j
/// NAME`, messages on stderr, native identities tried before plugins, a
/// missing plugin named; with our test plugin, and age's own plugins
/// against Go age where they are installed.
#[test]
fn plugins_run_as_age_runs_them() {
    let Some(plugin) = simdtest_plugin() else {
        return;
    };
    let dir = TempDir::new().unwrap();
    let path = path_with(plugin.parent().unwrap());
    let run = |args: &[&str], stdin: &[u8]| {
        run_command(Command::new(BIN).args(args).env("PATH", &path), stdin)
    };
    let plain = bytes(31, CHUNK + 9);
    let (recipient, plugin_key) = simdtest_keys(&plugin, dir.path(), "plugin.txt", "msg");
    let sealed = ok(run(&["encrypt", "-r", &recipient], &plain)).stdout;
    let out = ok(run(&["decrypt", "-i", s(&plugin_key)], &sealed));
    assert!(out.stdout == plain);
    assert!(
        stderr(&out).contains("simdtest plugin: hello from simdtest"),
        "{}",
        stderr(&out)
    );
    // Encrypting to the identity (recipient-v1's add-identity).
    let sealed = ok(run(&["encrypt", "-i", s(&plugin_key)], &plain)).stdout;
    assert!(ok(run(&["decrypt", "-i", s(&plugin_key)], &sealed)).stdout == plain);
    // Native identities first: a plugin that would fail is not run for a
    // file a native key in the same file opens.
    let (_, failing) = simdtest_keys(&plugin, dir.path(), "failing.txt", "error");
    let (native, native_recipient) = identity(dir.path(), "native.txt", false);
    let both = dir.path().join("both.txt");
    fs::write(
        &both,
        [fs::read(&failing).unwrap(), fs::read(&native).unwrap()].concat(),
    )
    .unwrap();
    let sealed = ok(run(&["encrypt", "-r", &native_recipient], &plain)).stdout;
    assert!(ok(run(&["decrypt", "-i", s(&both)], &sealed)).stdout == plain);
    // A missing plugin is named, in one line.
    let out = simdcrypt(
        &[
            "encrypt",
            "-r",
            "age1nosuchplugin1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq8hs4cs",
        ],
        b"x",
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let out = run(&["decrypt", "-j", "nosuch"], &sealed);
    assert_eq!(out.status.code(), Some(1));
    // Under qemu-user (how CI runs aarch64) a missing program appears
    // spawned and exits 127 (glibc's posix_spawn loses the exec error), so
    // the message there is the plugin's early exit, still one line.
    let expected = if cfg!(target_arch = "aarch64") {
        "age-plugin-nosuch"
    } else {
        "age-plugin-nosuch not found"
    };
    assert!(
        stderr(&out).contains(expected) && stderr(&out).lines().count() == 1,
        "{}",
        stderr(&out)
    );
    // A plugin asks the user on the terminal: a PIN (hidden), a name, a
    // choice; answered on a pseudo-terminal from util-linux's `script`.
    if let Some(script) = peer("SCRIPT_BIN", "script") {
        let (recipient, asking) =
            simdtest_keys(&plugin, dir.path(), "asking.txt", "secret,public,confirm");
        let file = dir.path().join("asking.age");
        let plain_path = dir.path().join("asking.plain");
        fs::write(&plain_path, &plain).unwrap();
        let out = dir.path().join("asking.out");
        let on_terminal = |command: String, typed: &str| {
            run_command(
                Command::new(&script)
                    .args(["-qec", &command, "/dev/null"])
                    .env("PATH", &path),
                typed.as_bytes(),
            )
        };
        let encrypt = format!(
            "'{BIN}' encrypt -r {recipient} -o '{}' '{}'",
            s(&file),
            s(&plain_path)
        );
        let said = on_terminal(encrypt, "1234\rsimd\r1\r");
        assert!(
            said.status.success(),
            "{}",
            String::from_utf8_lossy(&said.stdout)
        );
        let answered = |typed: &str| {
            let decrypt = format!(
                "'{BIN}' decrypt -i '{}' -o '{}' '{}'",
                s(&asking),
                s(&out),
                s(&file)
            );
            on_terminal(decrypt, typed)
        };
        let said = answered("1234\rsimd\r1\r");
        let text = String::from_utf8_lossy(&said.stdout).into_owned();
        assert!(said.status.success(), "{text}");
        assert!(
            text.contains("PIN for simdtest")
                && text.contains("your name")
                && text.contains("use simdtest"),
            "{text}"
        );
        assert!(fs::read(&out).unwrap() == plain);
        fs::remove_file(&out).unwrap();
        let said = answered("4321\rsimd\r1\r");
        assert!(!said.status.success());
        assert!(!out.exists());
    }
    // Go age with our plugin, both ways.
    if let Some(age) = peer("AGE_BIN", "age") {
        let age_run = |args: &[&str], stdin: &[u8]| {
            run_command(Command::new(&age).args(args).env("PATH", &path), stdin)
        };
        let sealed = ok(run(&["encrypt", "-r", &recipient], &plain)).stdout;
        assert!(ok(age_run(&["-d", "-i", s(&plugin_key)], &sealed)).stdout == plain);
        let sealed = ok(age_run(&["-r", &recipient], &plain)).stdout;
        assert!(ok(run(&["decrypt", "-i", s(&plugin_key)], &sealed)).stdout == plain);
    }
}

/// age's own plugins from Go (installed by `.ci/install-peers`):
/// `age-plugin-tagtest` through `-j tagtest` for files age encrypted to its
/// tagged recipients, `age-plugin-pq`'s identities (`-identity`), and
/// `age-plugin-batchpass` as an identity file's plugin identity.
#[test]
fn age_plugins_from_go_run_here() {
    let dir = TempDir::new().unwrap();
    let plain = bytes(8, 3 * CHUNK);
    if let (Some(age), Some(_)) = (
        peer("AGE_BIN", "age"),
        peer("AGE_PLUGIN_TAGTEST_BIN", "age-plugin-tagtest"),
    ) {
        for recipient in [TAGTEST_CLASSIC, TAGTEST_HYBRID] {
            let sealed = ok(run_command(
                Command::new(&age).args(["-r", recipient]),
                &plain,
            ))
            .stdout;
            assert!(ok(simdcrypt(&["decrypt", "-j", "tagtest"], &sealed)).stdout == plain);
            let sealed = ok(simdcrypt(&["encrypt", "-r", recipient], &plain)).stdout;
            assert!(ok(simdcrypt(&["decrypt", "-j", "tagtest"], &sealed)).stdout == plain);
        }
    }
    if let (Some(keygen), Some(pq)) = (
        peer("AGE_KEYGEN_BIN", "age-keygen"),
        peer("AGE_PLUGIN_PQ_BIN", "age-plugin-pq"),
    ) {
        let (native, recipient) = their_key(&keygen, dir.path(), "pq.txt", true);
        let converted = ok(run_command(
            Command::new(&pq).arg("-identity").arg(&native),
            b"",
        ))
        .stdout;
        let identity = dir.path().join("pq-plugin.txt");
        fs::write(&identity, &converted).unwrap();
        assert!(String::from_utf8_lossy(&converted).contains("AGE-PLUGIN-PQ-1"));
        let sealed = ok(simdcrypt(&["encrypt", "-r", recipient.trim()], &plain)).stdout;
        assert!(ok(simdcrypt(&["decrypt", "-i", s(&identity)], &sealed)).stdout == plain);
    }
    if let Some(age) = peer("AGE_BIN", "age")
        && peer("AGE_PLUGIN_BATCHPASS_BIN", "age-plugin-batchpass").is_some()
    {
        let identity = dir.path().join("batchpass.txt");
        let line = simdcrypt_age::plugin::Identity::without_data("batchpass")
            .unwrap()
            .to_bech32();
        fs::write(&identity, format!("{}\n", line.as_str())).unwrap();
        let env = [
            ("AGE_PASSPHRASE", "through the plugin"),
            ("AGE_PASSPHRASE_WORK_FACTOR", "10"),
        ];
        let ours = |verb: &str, input: &[u8]| {
            let mut command = Command::new(BIN);
            command.args([verb, "-i", s(&identity)]).envs(env);
            ok(run_command(&mut command, input)).stdout
        };
        let sealed = ours("encrypt", &plain);
        let opened = ok(run_command(
            Command::new(&age).args(["-d", "-j", "batchpass"]).envs(env),
            &sealed,
        ))
        .stdout;
        assert!(opened == plain);
        assert!(ours("decrypt", &sealed) == plain);
    }
}

/// `classicRecipient` and `hybridRecipient` of age's
/// `tag/internal/age-plugin-tagtest` (its identities come from a public
/// seed).
const TAGTEST_CLASSIC: &str = include_str!("../../simdcrypt-age/tests/data/tagtest-classic.txt");
/// (See [`TAGTEST_CLASSIC`].)
const TAGTEST_HYBRID: &str = include_str!("../../simdcrypt-age/tests/data/tagtest-hybrid.txt");

/// `key` encrypted with the passphrase `identity secret` into `name` beside
/// it (armored if asked), as `age-keygen | age -p` makes an identity file.
fn protected(key: &Path, name: &str, armor: bool) -> PathBuf {
    let dir = key.parent().unwrap();
    let pass = dir.join("pass.txt");
    fs::write(&pass, "identity secret\n").unwrap();
    let sealed = dir.join(name);
    let a: &[&str] = if armor { &["-a"] } else { &[] };
    let args = [
        &["encrypt", "--passphrase-file", s(&pass), "-o", s(&sealed)],
        a,
        &[s(key)],
    ];
    ok(simdcrypt(&args.concat(), b""));
    sealed
}

/// As age: an identity file encrypted with a passphrase is opened only
/// when the file's stanzas reach it, after the native keys (no terminal
/// here: asking would fail the run).
#[test]
fn encrypted_identity_files_are_opened_only_when_needed() {
    let dir = TempDir::new().unwrap();
    let (key, recipient) = identity(dir.path(), "key.txt", false);
    let key_age = protected(&key, "key.age", false);
    let sealed = ok(simdcrypt(&["encrypt", "-r", &recipient], b"quiet")).stdout;
    let out = ok(simdcrypt(
        &["decrypt", "-i", s(&key_age), "-i", s(&key)],
        &sealed,
    ));
    assert_eq!(out.stdout, b"quiet");
    assert!(!stderr(&out).contains("passphrase"), "{}", stderr(&out));
    // Reached, it asks, and here there is no terminal to ask on.
    let (other, _) = identity(dir.path(), "other.txt", false);
    let out = simdcrypt(&["decrypt", "-i", s(&other), "-i", s(&key_age)], &sealed);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("terminal"), "{}", stderr(&out));
}
