//! The tool's promises under faults: signals during long commands, a
//! stderr or stdout that fails, a full disk (`RLIMIT_FSIZE`), a memory limit
//! (`RLIMIT_AS`), symbolic links as outputs, hostile input. Each case checks
//! the exit status, the one-line message, and that nothing is left or
//! changed that should not be.
//!
//! Limits and closed descriptors are set by `bash` before it `exec`s the
//! tool (`ulimit`, `trap '' XFSZ`, `>&-`), which the tool inherits.

#![cfg(target_os = "linux")]

use std::fs;
use std::io::Write;
use std::os::unix::fs::{PermissionsExt, symlink};
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use simdcrypt_testsupport::{bytes, file_names, run_command, stderr};
use tempfile::TempDir;

const BIN: &str = env!("CARGO_BIN_EXE_simdcrypt");
const KEY: &str = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
const NONCE: &str = "000102030405060708090a0b0c0d0e0f1011121314151617";

/// `bash -c SCRIPT` with the tool as `$T` and `dir` as the working
/// directory.
fn bash(dir: &Path, script: &str) -> Command {
    let mut c = Command::new("bash");
    c.arg("-c").arg(script).env("T", BIN).current_dir(dir);
    c
}

/// Asserts that the command failed with exit status 1 and one line on
/// stderr containing every one of `parts`; returns the line.
fn fails_with(out: &Output, parts: &[&str]) -> String {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(1), "status {:?}: {err}", out.status);
    let lines: Vec<&str> = err.lines().filter(|l| !l.contains("warning:")).collect();
    assert_eq!(lines.len(), 1, "one line expected: {err}");
    for part in parts {
        assert!(lines[0].contains(part), "{part:?} not in {err:?}");
    }
    assert!(!err.contains("panicked") && !err.contains("RUST_BACKTRACE"));
    lines[0].to_owned()
}

/// A directory with an identity `key.txt`; returns it and the recipient.
fn keyed_dir() -> (TempDir, String) {
    let dir = TempDir::new().unwrap();
    let out = Command::new(BIN)
        .args(["keygen", "-o", "key.txt"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let recipient = stderr(&out)
        .trim()
        .strip_prefix("Public key: ")
        .unwrap()
        .to_owned();
    (dir, recipient)
}

/// The long commands: each reads standard input into `out` in `dir`.
fn long_commands(recipient: &str) -> Vec<(&'static str, Vec<String>)> {
    let v = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    vec![
        ("encrypt", v(&["encrypt", "-r", recipient, "-o", "out"])),
        ("decrypt", v(&["decrypt", "-i", "key.txt", "-o", "out"])),
        (
            "stream",
            v(&[
                "stream", "--cipher", "xsalsa20", "--key", KEY, "--nonce", NONCE, "-o", "out",
            ]),
        ),
    ]
}

/// Starts `args` in `dir` (core dumps off), feeds it `feed` and leaves its
/// stdin open, as a slow producer would; returns once the tool has read
/// nearly all of it.
fn started(dir: &Path, args: &[String], feed: &[u8], env: &[(&str, &str)]) -> std::process::Child {
    let mut cmd = bash(dir, "ulimit -c 0; exec \"$T\" \"$@\"");
    cmd.arg("simdcrypt").args(args);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // write_all returns when all but a pipe's buffer has been read.
    child.stdin.as_mut().unwrap().write_all(feed).unwrap();
    child
}

fn kill(child: &std::process::Child, signal: &str) {
    let status = Command::new("kill")
        .arg(format!("-{signal}"))
        .arg(child.id().to_string())
        .status()
        .unwrap();
    assert!(status.success());
}

/// Waits for `child` to end with its stdin still open (`Child::wait`
/// closes it first, which would let the tool finish its work before the
/// signal is handled).
fn wait_with_stdin_open(child: &mut std::process::Child) -> std::process::ExitStatus {
    let stdin = child.stdin.take();
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "the signal did not end it"
        );
        std::thread::sleep(Duration::from_millis(10));
    };
    drop(stdin);
    status
}

/// Waits until `dir` holds a name starting `.simdcrypt-` (the named
/// temporary file), at most ten seconds.
fn wait_for_temp(dir: &Path) {
    let start = Instant::now();
    while !file_names(dir).iter().any(|n| n.starts_with(".simdcrypt-")) {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "no temporary file appeared: {:?}",
            file_names(dir)
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// An 8 MiB age file to `recipient`, in `dir` as `big.age`; returns its
/// bytes.
fn sealed(dir: &Path, recipient: &str) -> Vec<u8> {
    let plain = bytes(1, 8 << 20);
    let out = run_command(
        Command::new(BIN)
            .args(["encrypt", "-r", recipient, "-o", "big.age"])
            .current_dir(dir),
        &plain,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let bytes = fs::read(dir.join("big.age")).unwrap();
    fs::remove_file(dir.join("big.age")).unwrap();
    bytes
}

#[test]
fn each_signal_during_each_long_command_leaves_nothing() {
    let (dir, recipient) = keyed_dir();
    let sealed = sealed(dir.path(), &recipient);
    let plain = bytes(1, 8 << 20);
    let before = file_names(dir.path());
    for (name, args) in long_commands(&recipient) {
        let feed = if name == "decrypt" {
            &sealed[..4 << 20]
        } else {
            &plain[..4 << 20]
        };
        for (signal, number) in [("INT", 2), ("TERM", 15), ("HUP", 1), ("QUIT", 3)] {
            // Unnamed files (O_TMPFILE) and the named temporary file that
            // filesystems without them get.
            for named in [false, true] {
                let env: &[(&str, &str)] = if named {
                    &[("SIMDCRYPT_NO_TMPFILE", "1")]
                } else {
                    &[]
                };
                let mut child = started(dir.path(), &args, feed, env);
                if named {
                    wait_for_temp(dir.path());
                } else {
                    std::thread::sleep(Duration::from_millis(100));
                }
                kill(&child, signal);
                let status = wait_with_stdin_open(&mut child);
                assert_eq!(
                    status.signal(),
                    Some(number),
                    "{name} on SIG{signal} (named: {named}) ended {status:?}"
                );
                assert_eq!(
                    file_names(dir.path()),
                    before,
                    "{name} on SIG{signal} (named: {named}) left files"
                );
            }
        }
    }
}

#[test]
fn sigkill_leaves_nothing_where_files_are_built_unnamed() {
    let (dir, recipient) = keyed_dir();
    let before = file_names(dir.path());
    let plain = bytes(1, 4 << 20);
    for (name, args) in long_commands(&recipient) {
        if name == "decrypt" {
            continue;
        }
        let mut child = started(dir.path(), &args, &plain, &[]);
        std::thread::sleep(Duration::from_millis(100));
        kill(&child, "KILL");
        assert_eq!(wait_with_stdin_open(&mut child).signal(), Some(9));
        assert_eq!(file_names(dir.path()), before, "{name} left files");
    }
}

#[test]
fn a_failing_stderr_changes_nothing_else() {
    let (dir, recipient) = keyed_dir();
    fs::write(dir.path().join("f"), bytes(1, 100_000)).unwrap();
    let full = || fs::File::options().write(true).open("/dev/full").unwrap();
    // A bad key: exit 1, as with a working stderr, not an abort.
    let out = Command::new(BIN)
        .args([
            "stream", "--cipher", "xsalsa20", "--key", "00", "--nonce", NONCE,
        ])
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .stderr(full())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{:?}", out.status);
    // A command that succeeds with its progress line lost still succeeds,
    // and its output is whole.
    let encrypt = |stderr: Stdio, out: &str| {
        Command::new(BIN)
            .args(["encrypt", "-r", &recipient, "--progress", "-o", out, "f"])
            .current_dir(dir.path())
            .stderr(stderr)
            .status()
            .unwrap()
    };
    assert!(encrypt(full().into(), "o.age").success());
    assert!(dir.path().join("o.age").is_file());
    // stderr a pipe with no reader.
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    assert!(encrypt(writer.into(), "p.age").success());
    assert!(dir.path().join("p.age").is_file());
    // A warning to a closed stderr.
    let out = bash(
        dir.path(),
        "exec \"$T\" stream --cipher xsalsa20 --key $K --nonce $N -o s.bin -i f 2>&-",
    )
    .env("K", KEY)
    .env("N", NONCE)
    .output()
    .unwrap();
    assert!(out.status.success(), "{:?}", out.status);
    assert_eq!(
        fs::metadata(dir.path().join("s.bin")).unwrap().len(),
        100_000
    );
    let mut left = file_names(dir.path());
    left.retain(|n| n.starts_with(".simdcrypt-"));
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn a_full_disk_names_the_output_and_leaves_nothing() {
    let (dir, recipient) = keyed_dir();
    fs::write(dir.path().join("f"), bytes(1, 1 << 20)).unwrap();
    let sealed = sealed(dir.path(), &recipient);
    fs::write(dir.path().join("f.age"), &sealed[..1 << 20]).unwrap();
    fs::write(dir.path().join("existing"), b"keep me").unwrap();
    let before = file_names(dir.path());
    let commands = [
        format!("encrypt -r {recipient} -o out f"),
        "decrypt -i key.txt -o out f.age".to_owned(),
        format!(
            "stream --cipher chacha20 --key {KEY} --nonce 000000000000000000000000 -o out -i f"
        ),
        format!("encrypt -r {recipient} --force -o existing f"),
    ];
    for (command, named) in commands
        .iter()
        .flat_map(|c| [(c, "0"), (c, "1")])
        .collect::<Vec<_>>()
    {
        // 256 KiB at most per file; SIGXFSZ ignored, so writes fail EFBIG.
        let out = bash(
            dir.path(),
            &format!("trap '' XFSZ; ulimit -f 256; exec \"$T\" {command}"),
        )
        .env("SIMDCRYPT_NO_TMPFILE", named)
        .output()
        .unwrap();
        let target = if command.contains("existing") {
            "existing"
        } else {
            "out"
        };
        let line = fails_with(&out, &[&format!("'{target}'"), "File too large"]);
        assert!(!line.contains(".simdcrypt-"), "{line}");
        assert_eq!(file_names(dir.path()), before, "{command}");
        assert_eq!(fs::read(dir.path().join("existing")).unwrap(), b"keep me");
    }
}

#[test]
fn memory_limits_get_one_line_not_an_abort() {
    let (dir, _) = keyed_dir();
    fs::write(dir.path().join("f"), b"x").unwrap();
    let limited = |script: &str| {
        bash(
            dir.path(),
            &format!("ulimit -v 500000; exec \"$T\" {script}"),
        )
        .stdin(Stdio::null())
        .output()
        .unwrap()
    };
    // A checksum list with no line end: as sha256sum under that limit.
    fails_with(
        &limited("hash -c /dev/zero"),
        &["no properly formatted checksum lines found"],
    );
    fails_with(
        &limited("bench --algo chacha20 --impl reference --size 1073741824"),
        &["out of memory", "1073741824"],
    );
    // Key files are read up to age's 16 MiB.
    let out = limited("encrypt -R /dev/zero -o out f");
    fails_with(&out, &["/dev/zero", "larger than 16777216 bytes"]);
    let out = limited("decrypt -i /dev/zero -o out f");
    fails_with(&out, &["/dev/zero", "larger than 16777216 bytes"]);
    assert!(!dir.path().join("out").exists());
    // A MAC's key file is read up to the longest key it takes, or 64 KiB
    // for one of any length (HMAC).
    fails_with(
        &limited("mac --algo aes-cmac --key-file /dev/zero f"),
        &["--key-file", "more than 32 bytes", "16, 24 or 32 bytes"],
    );
    fails_with(
        &limited("mac --algo hmac-sha256 --key-file /dev/zero f"),
        &["--key-file", "more than 65536 bytes"],
    );
}

#[test]
fn a_closed_stdout_is_an_error() {
    let (dir, recipient) = keyed_dir();
    fs::write(dir.path().join("f"), b"data").unwrap();
    let sealed = run_command(
        Command::new(BIN)
            .args(["encrypt", "-r", &recipient, "-o", "f.age", "f"])
            .current_dir(dir.path()),
        b"",
    );
    assert!(sealed.status.success());
    for (script, parts) in [
        ("hash f", vec!["Bad file descriptor"]),
        ("keygen", vec!["Bad file descriptor"]),
        (
            &*format!("encrypt -r {recipient} f"),
            vec!["Bad file descriptor"],
        ),
        ("decrypt -i key.txt f.age", vec!["Bad file descriptor"]),
        (
            &*format!("stream --cipher xsalsa20 --key {KEY} --nonce {NONCE} -i f"),
            vec!["Bad file descriptor"],
        ),
        ("info", vec!["Bad file descriptor"]),
        // clap's own output too, as coreutils' --help and --version.
        ("--help", vec!["Bad file descriptor"]),
        ("--version", vec!["Bad file descriptor"]),
        ("enc --help", vec!["Bad file descriptor"]),
    ] {
        let out = bash(dir.path(), &format!("exec \"$T\" {script} >&-"))
            .output()
            .unwrap();
        let line = fails_with(&out, &parts);
        assert!(!stderr(&out).contains("Public key"), "{script}: {line}");
    }
    // A closed stdin reads as an error too, not as empty input, and the
    // message names it.
    let out = bash(dir.path(), "exec \"$T\" hash <&-").output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    for script in [
        "decrypt -i key.txt".to_owned(),
        format!("encrypt -r {recipient} -o out"),
    ] {
        let out = bash(dir.path(), &format!("exec \"$T\" {script} <&-"))
            .output()
            .unwrap();
        fails_with(&out, &["cannot read standard input", "Bad file descriptor"]);
    }
    assert!(!dir.path().join("out").exists());
}

#[test]
fn a_reader_that_stops_early_ends_the_tool_by_sigpipe() {
    let dir = TempDir::new().unwrap();
    fs::write(dir.path().join("f"), bytes(1, 8 << 20)).unwrap();
    let out = bash(
        dir.path(),
        "\"$T\" stream --cipher xsalsa20 --key $K --nonce $N -i f | head -c 1 >/dev/null; \
         echo \"status ${PIPESTATUS[0]}\"",
    )
    .env("K", KEY)
    .env("N", NONCE)
    .output()
    .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "status 141");
    let err = stderr(&out);
    assert!(!err.contains("error"), "{err}");
}

/// `stream` of `f` to `-o target` with `--force`, `umask 022`.
fn stream_to(dir: &Path, target: &str, force: bool) -> Output {
    let force = if force { "--force" } else { "" };
    bash(
        dir,
        &format!(
            "umask 022; exec \"$T\" stream --cipher xsalsa20 --key $K --nonce $N -i f -o {target} {force}"
        ),
    )
    .env("K", KEY)
    .env("N", NONCE)
    .output()
    .unwrap()
}

fn mode(path: &Path) -> u32 {
    fs::metadata(path).unwrap().permissions().mode() & 0o7777
}

#[test]
fn links_are_followed_never_replaced_and_modes_are_kept() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    fs::write(d.join("f"), b"plain").unwrap();
    fs::write(d.join("real"), b"old contents").unwrap();
    fs::set_permissions(d.join("real"), fs::Permissions::from_mode(0o640)).unwrap();
    symlink("real", d.join("link")).unwrap();
    // Without --force, a link to an existing file is an existing output.
    fails_with(&stream_to(d, "link", false), &["'link' exists", "--force"]);
    let out = stream_to(d, "link", true);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(fs::symlink_metadata(d.join("link")).unwrap().is_symlink());
    assert_eq!(fs::read(d.join("real")).unwrap().len(), 5);
    assert_ne!(fs::read(d.join("real")).unwrap(), b"plain");
    assert_eq!(mode(&d.join("real")), 0o640, "the replaced file's mode");
    // A dangling link: its target is created.
    symlink("made", d.join("dangling")).unwrap();
    let out = stream_to(d, "dangling", false);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        fs::symlink_metadata(d.join("dangling"))
            .unwrap()
            .is_symlink()
    );
    assert_eq!(fs::read(d.join("made")).unwrap().len(), 5);
    // A new file follows the umask.
    let out = bash(
        d,
        "umask 027; exec \"$T\" stream --cipher xsalsa20 --key $K --nonce $N -i f -o new",
    )
    .env("K", KEY)
    .env("N", NONCE)
    .output()
    .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(mode(&d.join("new")), 0o640);
    // /dev/stdout is whatever stdout is: a file the shell opened, a pipe.
    let out = bash(
        d,
        "exec \"$T\" stream --cipher xsalsa20 --key $K --nonce $N -i f -o /dev/stdout > viafd",
    )
    .env("K", KEY)
    .env("N", NONCE)
    .output()
    .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        fs::read(d.join("viafd")).unwrap(),
        fs::read(d.join("made")).unwrap()
    );
    let out = Command::new(BIN)
        .args([
            "stream", "--cipher", "xsalsa20", "--key", KEY, "--nonce", NONCE,
        ])
        .args(["-i", "f", "-o", "/dev/stdout"])
        .current_dir(d)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(out.stdout.len(), 5);
    // A secret key file is 0600 whatever it replaces.
    fs::write(d.join("k.txt"), b"old").unwrap();
    fs::set_permissions(d.join("k.txt"), fs::Permissions::from_mode(0o644)).unwrap();
    fails_with(
        &Command::new(BIN)
            .args(["keygen", "-o", "k.txt"])
            .current_dir(d)
            .output()
            .unwrap(),
        &["'k.txt' exists", "--force"],
    );
    let out = Command::new(BIN)
        .args(["keygen", "--force", "-o", "k.txt"])
        .current_dir(d)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(mode(&d.join("k.txt")), 0o600);
    // Recipients are public: they follow the umask.
    let out = bash(d, "umask 022; exec \"$T\" keygen -y -o r.txt k.txt")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(mode(&d.join("r.txt")), 0o644);
    assert!(
        !file_names(d).iter().any(|n| n.starts_with(".simdcrypt-")),
        "{:?}",
        file_names(d)
    );
}

#[test]
fn outputs_are_checked_before_the_work() {
    let (dir, recipient) = keyed_dir();
    let d = dir.path();
    fs::write(d.join("f"), b"data").unwrap();
    fs::write(d.join("existing"), b"keep").unwrap();
    // The output is refused before the passphrase file is even opened.
    let out = Command::new(BIN)
        .args([
            "encrypt",
            "--passphrase-file",
            "missing",
            "-o",
            "existing",
            "f",
        ])
        .current_dir(d)
        .output()
        .unwrap();
    fails_with(&out, &["'existing' exists"]);
    // A name ending in / is a directory, not a file to create at the end.
    let out = Command::new(BIN)
        .args(["encrypt", "-r", &recipient, "-o", "newdir/", "f"])
        .current_dir(d)
        .output()
        .unwrap();
    fails_with(&out, &["'newdir/'", "directory"]);
    let out = Command::new(BIN)
        .args(["encrypt", "-r", &recipient, "-o", "nodir/out", "f"])
        .current_dir(d)
        .output()
        .unwrap();
    fails_with(&out, &["'nodir'", "does not exist"]);
    assert_eq!(fs::read(d.join("existing")).unwrap(), b"keep");
    assert!(!d.join("newdir").exists());
}

#[test]
fn devices_and_fifos_are_read_and_written_in_place() {
    let (dir, recipient) = keyed_dir();
    let d = dir.path();
    let plain = bytes(1, 200_000);
    // An age file to /dev/full: the message names it.
    fs::write(d.join("f"), &plain).unwrap();
    let out = Command::new(BIN)
        .args(["encrypt", "-r", &recipient, "-o", "f.age", "f"])
        .current_dir(d)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let out = Command::new(BIN)
        .args(["decrypt", "-i", "key.txt", "-o", "/dev/full", "f.age"])
        .current_dir(d)
        .output()
        .unwrap();
    let line = fails_with(&out, &["'/dev/full'", "No space left"]);
    assert!(!line.contains("standard output"), "{line}");
    // The same through `Output::write_all` (`enc`): the output named once.
    let out = Command::new(BIN)
        .args(["enc", "--cipher", "aes-128-ctr", "-K", &"00".repeat(16)])
        .args(["--iv", &"00".repeat(16), "-i", "f", "-o", "/dev/full"])
        .current_dir(d)
        .output()
        .unwrap();
    let line = fails_with(&out, &["cannot write '/dev/full': No space left"]);
    assert_eq!(line.matches("/dev/full").count(), 1, "{line}");
    // A FIFO as input, as `<(…)` gives: read like a pipe.
    let out = bash(
        d,
        "exec \"$T\" encrypt -r $R -o g.age <(cat f) && exec \"$T\" decrypt -i key.txt g.age",
    )
    .env("R", &recipient)
    .output()
    .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let out = bash(d, "exec \"$T\" decrypt -i key.txt -o back g.age")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(fs::read(d.join("back")).unwrap(), plain);
    // A directory is still refused as input.
    let out = Command::new(BIN)
        .args(["encrypt", "-r", &recipient, "-o", "x.age", "."])
        .current_dir(d)
        .output()
        .unwrap();
    fails_with(&out, &["is a directory"]);
}

#[test]
// The limit (`ulimit -v`, 195 MiB) is below what qemu-user itself maps
// (128 MiB of JIT buffer and the guest's space), so under QEMU, how CI
// runs aarch64, the emulator cannot start.
#[cfg_attr(
    target_arch = "aarch64",
    ignore = "qemu-user needs more address space than the limit"
)]
fn a_hostile_header_is_refused_in_bounded_memory() {
    let (dir, _) = keyed_dir();
    // A stanza whose body runs on in full lines: 64 MiB of it, under a
    // memory limit far below what holding it would take twice.
    let mut header = b"age-encryption.org/v1\n-> X25519 AAAA\n".to_vec();
    let line = [b'A'; 64];
    let mut body = Vec::with_capacity(65 << 20);
    while body.len() < 64 << 20 {
        body.extend_from_slice(&line);
        body.push(b'\n');
    }
    header.extend_from_slice(&body);
    let mut child = bash(
        dir.path(),
        "ulimit -v 200000; exec \"$T\" decrypt -i key.txt -o out",
    )
    .stdin(Stdio::piped())
    .stderr(Stdio::piped())
    .stdout(Stdio::null())
    .spawn()
    .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&header);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    fails_with(&out, &["header", "longer than"]);
    assert!(!dir.path().join("out").exists());
}
