//! What the tests of `simdcrypt-age` and `simdcrypt-cli` share: made-up
//! data, hex, the peer tools they compare with (found on `PATH`), a command
//! run with bytes on its stdin, and what the tool's tests assert of its
//! output. A dev-dependency of those two crates, never published; it
//! depends on nothing, so it turns on no feature of the library. (The
//! library's own tests stand on its checking kit instead:
//! `crates/simdcrypt/tests/common/`. docs/testing.md says where each
//! helper lives.)

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// `len` bytes of a xorshift stream from `seed`: made-up plaintexts, keys
/// and IVs that differ from test to test and from one length to the next,
/// the same on every run.
pub fn bytes(seed: u64, len: usize) -> Vec<u8> {
    let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect()
}

/// `bytes` in lower-case hex, as the tools take keys and IVs.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The bytes written as `text` in hex (either case); panics on anything
/// else, which in a test is a mistyped constant.
pub fn unhex(text: &str) -> Vec<u8> {
    assert!(text.len().is_multiple_of(2), "odd hex length: {text}");
    (0..text.len())
        .step_by(2)
        .map(|i| {
            u8::from_str_radix(&text[i..i + 2], 16).unwrap_or_else(|_| panic!("bad hex: {text}"))
        })
        .collect()
}

/// The path of a peer tool: `$VAR`, else `name` on `PATH`; `None` (said on
/// stderr, so that a run shows what it skipped) when absent.
pub fn peer(var: &str, name: &str) -> Option<PathBuf> {
    let found = std::env::var_os(var).map(PathBuf::from).or_else(|| {
        std::env::split_paths(&std::env::var_os("PATH")?)
            .map(|d| d.join(name))
            .find(|p| p.is_file())
    });
    if found.is_none() {
        eprintln!("skipped: `{name}` not found (set {var} or put it on PATH; see the README)");
    }
    found
}

/// Runs `command` to its end, feeding it `stdin` from a thread (the child
/// may exit without reading, on an error: the broken pipe is ignored), and
/// collects its status, stdout and stderr.
pub fn run_command(command: &mut Command, stdin: &[u8]) -> Output {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the program runs");
    let mut input = child.stdin.take().expect("a piped stdin");
    let data = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let out = child.wait_with_output().expect("the program's output");
    writer.join().expect("the stdin writer");
    out
}

/// Whether `command` runs and succeeds (stdin, stdout and stderr null):
/// a peer tool is there; if not, says on stderr `skipped: {missing}`, so
/// that a run shows what it skipped.
pub fn runs(command: &mut Command, missing: &str) -> bool {
    let ok = command
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        eprintln!("skipped: {missing}");
    }
    ok
}

/// A command's stderr as text (invalid UTF-8 replaced), for messages and
/// assertions.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Asserts the tool's user error: exit status 1, exactly one line on
/// stderr (`simdcrypt: error: …`) naming every one of `wanted`, no panic,
/// nothing on stdout.
pub fn assert_error(out: &Output, wanted: &[&str]) {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(1), "stderr: {err}");
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(err.starts_with("simdcrypt: error: "), "{err}");
    for w in wanted {
        assert!(err.contains(w), "{err:?} lacks {w:?}");
    }
    assert!(out.stdout.is_empty(), "stdout: {:?}", out.stdout);
}

/// The names of the entries of `dir`, sorted: what a command left behind.
pub fn file_names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("the directory reads")
        .map(|e| {
            e.expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    names.sort();
    names
}
