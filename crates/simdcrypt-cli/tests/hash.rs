//! `simdcrypt hash` against the system's coreutils (`sha256sum`, …): the
//! same stdout byte for byte, the same stderr but for the program name, the
//! same exit status, on files of odd names and sizes. A test whose system
//! tool is missing says so on stderr and passes.

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

use simdcrypt_testsupport::{assert_error, bytes, run_command, runs};
use tempfile::TempDir;

const BIN: &str = env!("CARGO_BIN_EXE_simdcrypt");

/// Each `--algo` name with the coreutils tool it mirrors.
///
/// Every hash with a coreutils tool.
const ALGOS: &[(&str, &str)] = &[
    ("sha512", "sha512sum"),
    ("sha384", "sha384sum"),
    ("sha256", "sha256sum"),
    ("sha224", "sha224sum"),
    ("sha1", "sha1sum"),
    ("md5", "md5sum"),
];

/// Names that need escapes, quotes in messages, or `--`.
const ODD_NAMES: &[&str] = &[
    "plain",
    "with space",
    "back\\slash",
    "new\nline",
    "car\rriage",
    "-dash",
    "ünïcödé ∑",
    "it's",
    "tab\there",
    "colon:name",
    "both\\and\nnewline",
];

/// Sizes at the edges of SHA-256's padding and of the batching.
const SIZES: &[usize] = &[0, 1, 55, 56, 63, 64, 65, 1000, 65536, 65537, 100_000];

/// Whether `tool` runs; if not, says that `test` is skipped.
fn have(tool: &str, test: &str) -> bool {
    runs(
        Command::new(tool).arg("--version"),
        &format!("{test}: no `{tool}` on the PATH"),
    )
}

/// A directory of files of odd names and sizes; returns it and the names.
fn odd_files() -> (TempDir, Vec<String>) {
    let dir = tempfile::tempdir().unwrap();
    let mut names = Vec::new();
    for (k, name) in ODD_NAMES.iter().enumerate() {
        let size = SIZES[k % SIZES.len()];
        fs::write(dir.path().join(name), bytes(k as u64, size)).unwrap();
        names.push((*name).to_owned());
    }
    for &size in SIZES {
        let name = format!("size {size}");
        fs::write(dir.path().join(&name), bytes(size as u64, size)).unwrap();
        names.push(name);
    }
    (dir, names)
}

/// Runs `program args` in `dir` with `stdin`, in a UTF-8 locale (where
/// coreutils leaves printable non-ASCII names unquoted, as we do).
fn run_in(dir: &Path, program: &str, args: &[&str], stdin: &[u8]) -> Output {
    run_command(
        Command::new(program)
            .args(args)
            .current_dir(dir)
            .env("LC_ALL", "C.UTF-8"),
        stdin,
    )
}

/// Asserts that `simdcrypt hash --algo ALGO ARGS` does what `TOOL ARGS`
/// does in `dir`.
fn same(dir: &Path, algo: &str, tool: &str, args: &[&str], stdin: &[u8]) {
    let theirs = run_in(dir, tool, args, stdin);
    let mut ours_args = vec!["hash", "--algo", algo];
    ours_args.extend_from_slice(args);
    let ours = run_in(dir, BIN, &ours_args, stdin);
    let show = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    assert_eq!(
        show(&ours.stdout),
        show(&theirs.stdout),
        "stdout of {tool} {args:?}"
    );
    assert_eq!(
        ours.stdout, theirs.stdout,
        "stdout bytes of {tool} {args:?}"
    );
    // Their messages start with `TOOL: `, ours with `simdcrypt: `.
    let theirs_err = show(&theirs.stderr).replace(&format!("{tool}: "), "simdcrypt: ");
    assert_eq!(show(&ours.stderr), theirs_err, "stderr of {tool} {args:?}");
    assert_eq!(
        ours.status.code(),
        theirs.status.code(),
        "exit status of {tool} {args:?}"
    );
}

/// `args` followed by `--` and `names`.
fn with_names<'a>(args: &[&'a str], names: &'a [String]) -> Vec<&'a str> {
    let mut v = args.to_vec();
    v.push("--");
    v.extend(names.iter().map(String::as_str));
    v
}

#[test]
fn digest_lines_equal_coreutils() {
    let (dir, mut names) = odd_files();
    fs::create_dir(dir.path().join("a directory")).unwrap();
    names.push("a directory".to_owned());
    names.push("missing file".to_owned());
    names.push("missing\nnew:line".to_owned());
    for &(algo, tool) in ALGOS {
        if !have(tool, "digest_lines_equal_coreutils") {
            continue;
        }
        for opts in [
            &[][..],
            &["--tag"],
            &["-b"],
            &["-t"],
            &["-z"],
            &["--tag", "-z"],
        ] {
            same(dir.path(), algo, tool, &with_names(opts, &names), b"");
        }
    }
}

#[test]
fn stdin_equals_coreutils() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("f"), b"file").unwrap();
    for &(algo, tool) in ALGOS {
        if !have(tool, "stdin_equals_coreutils") {
            continue;
        }
        for &size in SIZES {
            let data = bytes(3, size);
            same(dir.path(), algo, tool, &[], &data);
            same(dir.path(), algo, tool, &["-"], &data);
            same(dir.path(), algo, tool, &["--tag", "-"], &data);
        }
        // Stdin twice (the second read finds its end), between files.
        same(dir.path(), algo, tool, &["-", "f", "-", "f"], b"abc");
    }
}

#[test]
fn many_files_in_order() {
    // More files than a batch, of mixed sizes, and a few past the
    // whole-file limit and the threaded reader's, so that every path runs
    // and the output must be put back in order.
    let dir = tempfile::tempdir().unwrap();
    let mut names = Vec::new();
    for k in 0..300 {
        let size = match k % 50 {
            7 => 200_000,
            23 => 5 << 20,
            _ => (k * 37) % 5000,
        };
        let name = format!("f{k:03}");
        fs::write(dir.path().join(&name), bytes(k as u64, size)).unwrap();
        names.push(name);
    }
    names.insert(100, "not there".to_owned());
    for &(algo, tool) in ALGOS {
        if !have(tool, "many_files_in_order") {
            continue;
        }
        same(dir.path(), algo, tool, &with_names(&[], &names), b"");
        let list = run_in(dir.path(), tool, &with_names(&[], &names), b"").stdout;
        fs::write(dir.path().join("LIST"), list).unwrap();
        same(dir.path(), algo, tool, &["-c", "LIST"], b"");
    }
}

/// A checksum list by the system tool over `names`, then damage: a file
/// changed, one removed, a directory, and lines that are not checksums.
fn damaged_list(dir: &Path, tool: &str, names: &[String], tag: bool) -> Vec<u8> {
    let mut args = if tag { vec!["--tag"] } else { vec![] };
    args.push("--");
    args.extend(names.iter().map(String::as_str));
    let mut list = run_in(dir, tool, &args, b"").stdout;
    list.extend_from_slice(b"# a comment\n\nnot a checksum line\r\n");
    list.extend_from_slice(format!("{}  short\n", "ab".repeat(5)).as_bytes());
    list
}

#[test]
fn check_equals_coreutils() {
    for &(algo, tool) in ALGOS {
        if !have(tool, "check_equals_coreutils") {
            continue;
        }
        for tag in [false, true] {
            let (dir, names) = odd_files();
            let d = dir.path();
            let list = run_in(
                d,
                tool,
                &with_names(if tag { &["--tag"] } else { &[] }, &names),
                b"",
            )
            .stdout;
            fs::write(d.join("GOOD"), &list).unwrap();
            let damaged = damaged_list(d, tool, &names, tag);
            fs::write(d.join("BAD"), &damaged).unwrap();
            // CRLF line ends are accepted.
            let crlf: Vec<u8> = list
                .split_inclusive(|&b| b == b'\n')
                .flat_map(|l| {
                    let body = l.strip_suffix(b"\n").unwrap_or(l);
                    [body, b"\r\n"].concat()
                })
                .collect();
            fs::write(d.join("CRLF"), crlf).unwrap();
            // "BSD reversed" lines `HEX NAME`, which coreutils accepts
            // until a GNU line has been read, and then refuses (for the
            // rest of the run, across lists).
            let reversed: Vec<u8> = list
                .split_inclusive(|&b| b == b'\n')
                .flat_map(|l| {
                    let s = String::from_utf8_lossy(l).replacen("  ", " ", 1);
                    s.into_bytes()
                })
                .collect();
            fs::write(d.join("REV"), reversed).unwrap();
            fs::write(d.join("EMPTY"), b"").unwrap();
            fs::write(d.join("JUNK"), b"junk\nmore junk\n").unwrap();

            let all = ["--quiet", "--status", "--strict", "-w", "--ignore-missing"];
            let mut option_sets: Vec<Vec<&str>> = vec![vec![]];
            option_sets.extend(all.iter().map(|o| vec![*o]));
            option_sets.push(vec!["--ignore-missing", "--quiet"]);
            option_sets.push(vec!["--strict", "-w"]);
            option_sets.push(vec!["--status", "--strict"]);
            // All OK first.
            for opts in &option_sets {
                let mut args = vec!["-c"];
                args.extend_from_slice(opts);
                let mut a = args.clone();
                a.extend(["GOOD", "CRLF"]);
                same(d, algo, tool, &a, b"");
            }
            // Then damage: a changed file, a removed one, a directory.
            fs::write(d.join("plain"), b"changed").unwrap();
            fs::remove_file(d.join("with space")).unwrap();
            fs::remove_file(d.join("new\nline")).unwrap();
            fs::create_dir(d.join("new\nline")).unwrap();
            fs::remove_file(d.join("it's")).unwrap();
            for opts in &option_sets {
                let mut args = vec!["-c"];
                args.extend_from_slice(opts);
                for lists in [
                    &["GOOD"][..],
                    &["BAD"],
                    &["BAD", "GOOD"],
                    &["EMPTY"],
                    &["REV"],
                    &["REV", "GOOD"],
                    &["GOOD", "REV"],
                    &["JUNK"],
                    &["no such list"],
                    &["-"],
                ] {
                    let mut a = args.clone();
                    a.extend_from_slice(lists);
                    same(d, algo, tool, &a, &damaged);
                }
            }
        }
    }
}

#[test]
fn only_missing_files_with_ignore_missing() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("here"), b"x").unwrap();
    for &(algo, tool) in ALGOS {
        if !have(tool, "only_missing_files_with_ignore_missing") {
            continue;
        }
        let line = run_in(dir.path(), tool, &["here"], b"").stdout;
        let gone = String::from_utf8(line).unwrap().replace("here", "gone");
        fs::write(dir.path().join("L"), gone).unwrap();
        for opts in [&["-c", "--ignore-missing", "L"][..], &["-c", "L"]] {
            same(dir.path(), algo, tool, opts, b"");
        }
    }
}

fn ours(args: &[&str]) -> Output {
    let mut a = vec!["hash"];
    a.extend_from_slice(args);
    run_in(Path::new("."), BIN, &a, b"")
}

#[test]
fn refusals() {
    assert_error(&ours(&["--algo", "sha3"]), &["unknown hash `sha3`"]);
    assert_error(&ours(&["--impl", "nonesuch", "-"]), &["nonesuch"]);
    assert_error(
        &ours(&["-c", "--tag", "x"]),
        &["--tag option is meaningless"],
    );
    assert_error(
        &ours(&["--quiet", "x"]),
        &["meaningful only when verifying"],
    );
    assert_error(
        &ours(&["-c", "-z", "x"]),
        &["--zero option is not supported"],
    );
    assert_error(
        &ours(&["--tag", "-t", "x"]),
        &["--tag does not support --text"],
    );
    // Names accepted but not built yet: a clear message, until they are.
    for name in ["sha512", "sha384", "sha512-256", "sha1", "md5"] {
        let out = ours(&["--algo", name, "/dev/null"]);
        if !out.status.success() {
            assert_error(&out, &["not built"]);
        }
    }
}

#[test]
fn every_rung_gives_the_same_lines() {
    let (dir, names) = odd_files();
    let base = run_in(dir.path(), BIN, &with_names(&["hash"], &names), b"");
    assert!(base.status.success());
    for rung in simdcrypt::hash::sha256::Rung::available().map(|i| i.name()) {
        let out = run_in(
            dir.path(),
            BIN,
            &with_names(&["hash", "--impl", rung], &names),
            b"",
        );
        assert_eq!(out.stdout, base.stdout, "--impl {rung}");
    }
}
