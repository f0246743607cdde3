//! The built `simdcrypt` binary, run as a user runs it: results, messages
//! and exit codes.

use std::path::Path;
use std::process::{Command, Output};

use simdcrypt_testsupport::{assert_error, bytes, file_names, run_command, stderr};

const BIN: &str = env!("CARGO_BIN_EXE_simdcrypt");
const KEY: &str = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
const NONCE: &str = "0001020304050607";
const XNONCE: &str = "000102030405060708090a0b0c0d0e0f1011121314151617";
const NONCE12: &str = "000000090000004a00000000";
const WARNING: &str =
    "simdcrypt: warning: raw stream output is not authenticated; anyone can flip bits undetected";

/// Runs the binary with `args`, feeding `stdin`.
fn run(args: &[&str], stdin: &[u8]) -> Output {
    run_command(Command::new(BIN).args(args), stdin)
}

/// `stream` with the cipher, key and nonce given, then `extra`.
fn stream(cipher: &str, key: &str, nonce: &str, extra: &[&str], stdin: &[u8]) -> Output {
    let mut args = vec!["stream", "--cipher", cipher, "--key", key, "--nonce", nonce];
    args.extend_from_slice(extra);
    run(&args, stdin)
}

fn ok_stream(cipher: &str, key: &str, nonce: &str, extra: &[&str], stdin: &[u8]) -> Vec<u8> {
    let out = stream(cipher, key, nonce, extra, stdin);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stderr(&out).trim_end(), WARNING);
    out.stdout
}

#[test]
fn stream_round_trip_through_files() {
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("plain");
    let ct = dir.path().join("ct");
    let back = dir.path().join("back");
    let data = bytes(0, 3 * (1 << 20) + 77);
    std::fs::write(&plain, &data).unwrap();
    for (cipher, nonce) in [
        ("salsa20", NONCE),
        ("xsalsa20", XNONCE),
        ("salsa20/8", NONCE),
        ("chacha20", NONCE12),
        ("chacha20-legacy", NONCE),
        ("xchacha20", XNONCE),
    ] {
        let p = |p: &Path| p.to_str().unwrap().to_owned();
        let (plain, ct, back) = (p(&plain), p(&ct), p(&back));
        ok_stream(
            cipher,
            KEY,
            nonce,
            &["-i", &plain, "-o", &ct, "--force"],
            b"",
        );
        let c = std::fs::read(&ct).unwrap();
        assert_eq!(c.len(), data.len());
        assert_ne!(c, data);
        // Decrypt on another rung with the other XOR form.
        let extra = [
            "-i",
            &ct,
            "-o",
            &back,
            "--force",
            "--impl",
            "reference",
            "--xor",
            "c0",
        ];
        ok_stream(cipher, KEY, nonce, &extra, b"");
        assert!(std::fs::read(&back).unwrap() == data, "{cipher}");
    }
    assert_eq!(file_names(dir.path()), ["back", "ct", "plain"]);
}

#[test]
fn stream_round_trip_through_pipes() {
    let data = bytes(0, 100_000);
    let ct = ok_stream("salsa20/12", KEY, NONCE, &[], &data);
    assert_eq!(ct.len(), data.len());
    let back = ok_stream("salsa20/12", KEY, NONCE, &["-i", "-", "-o", "-"], &ct);
    assert!(back == data);
    assert!(ok_stream("salsa20", KEY, NONCE, &[], b"").is_empty());
}

#[test]
fn stream_matches_the_library() {
    let key: [u8; 32] = std::array::from_fn(|i| i as u8);
    let nonce: [u8; 8] = std::array::from_fn(|i| i as u8);
    let mut want = bytes(0, 1000);
    simdcrypt::salsa20::Salsa20::new(&key, &nonce)
        .apply_keystream(&mut want)
        .unwrap();
    assert!(ok_stream("salsa20", KEY, NONCE, &[], &bytes(0, 1000)) == want);
}

#[test]
fn chacha_streams_match_the_library() {
    let key: [u8; 32] = std::array::from_fn(|i| i as u8);
    let msg = bytes(0, 1000);
    let run = |c: &mut dyn FnMut(&mut [u8])| {
        let mut v = msg.clone();
        c(&mut v);
        v
    };
    let want = run(&mut |d| {
        let mut c =
            simdcrypt::chacha20::ChaCha20::new(&key, &[0, 0, 0, 9, 0, 0, 0, 0x4a, 0, 0, 0, 0]);
        c.seek(64 * 5).unwrap();
        c.apply_keystream(d).unwrap();
    });
    assert!(ok_stream("chacha20", KEY, NONCE12, &["--counter", "5"], &msg) == want);
    let want = run(&mut |d| {
        let n: [u8; 8] = std::array::from_fn(|i| i as u8);
        let mut c = simdcrypt::chacha20::ChaCha20Legacy::new(&key, &n);
        c.seek(64 * ((1 << 32) - 3)).unwrap();
        c.apply_keystream(d).unwrap();
    });
    let counter = ((1u64 << 32) - 3).to_string();
    assert!(
        ok_stream(
            "chacha20-legacy",
            KEY,
            NONCE,
            &["--counter", &counter],
            &msg
        ) == want
    );
    let want = run(&mut |d| {
        let n: [u8; 24] = std::array::from_fn(|i| i as u8);
        simdcrypt::chacha20::XChaCha20::new(&key, &n)
            .apply_keystream(d)
            .unwrap();
    });
    assert!(ok_stream("xchacha20", KEY, XNONCE, &[], &msg) == want);
    // RFC 8439's counter has 32 bits: block 2^32 does not exist.
    assert_error(
        &stream(
            "chacha20",
            KEY,
            NONCE12,
            &["--counter", "4294967296", "-i", BIN, "-o", "-"],
            b"",
        ),
        &["chacha20 keystream exhausted", "block 4294967295"],
    );
    assert_error(
        &stream("chacha20", KEY, NONCE, &[], b""),
        &[
            "--nonce",
            "16 hex digits",
            "expected 24",
            "96-bit chacha20 nonce",
        ],
    );
    assert_error(
        &stream("xchacha20", &"0".repeat(32), XNONCE, &[], b""),
        &["--key", "xchacha20 needs 256 bits"],
    );
    assert_error(
        &stream("chacha20", KEY, NONCE12, &["--impl", "sse2-shuffle"], b""),
        &[
            "unknown chacha20 rung `sse2-shuffle`",
            "ssse3-4x",
            "avx512vl",
        ],
    );
}

#[test]
fn counter_one_is_keystream_from_byte_64() {
    let zeros = vec![0u8; 640];
    let from0 = ok_stream("salsa20", KEY, NONCE, &[], &zeros);
    let from1 = ok_stream("salsa20", KEY, NONCE, &["--counter", "1"], &zeros[64..]);
    assert!(from1 == from0[64..]);
    let x0 = ok_stream("xsalsa20", KEY, XNONCE, &[], &zeros);
    let x3 = ok_stream("xsalsa20", KEY, XNONCE, &["--counter", "3"], &zeros[192..]);
    assert!(x3 == x0[192..]);
}

#[test]
fn int_keys_are_little_endian_numbers() {
    let zeros = [0u8; 130];
    // 0x1234 stored little-endian: key bytes 34 12 00 … 00.
    let hex = format!("3412{}", "0".repeat(60));
    let want = ok_stream("salsa20", &hex, NONCE, &[], &zeros);
    for key in [
        "int:4660",
        "int:0x1234",
        "int:0x00001234",
        "int:0o11064",
        "int:0b1001000110100",
    ] {
        assert!(
            ok_stream("salsa20", key, NONCE, &[], &zeros) == want,
            "{key}"
        );
    }
    // The largest key: 2^256 - 1.
    let max = "115792089237316195423570985008687907853269984665640564039457584007913129639935";
    let all_ff = ok_stream("salsa20", &"f".repeat(64), NONCE, &[], &zeros);
    assert!(ok_stream("salsa20", &format!("int:{max}"), NONCE, &[], &zeros) == all_ff);
    // A 128-bit hex key is the "expand 16-byte k" form, not a padded number.
    let k128 = ok_stream("salsa20", &"ab".repeat(16), NONCE, &[], &zeros);
    let k256 = ok_stream(
        "salsa20",
        &format!("{}{}", "ab".repeat(16), "0".repeat(32)),
        NONCE,
        &[],
        &zeros,
    );
    assert_ne!(k128, k256);
}

#[test]
fn bad_keys_and_nonces_are_refused_with_the_position() {
    let bad_digit = format!("0123g{}", "0".repeat(59));
    let out = stream("salsa20", &bad_digit, NONCE, &[], b"x");
    assert_error(
        &out,
        &[
            "--key: bad hex digit 'g' at position 5: expected 64 hex digits (a 256-bit key) or 32 (128-bit)",
        ],
    );
    let k65 = "0".repeat(65);
    assert_error(
        &stream("salsa20", &k65, NONCE, &[], b""),
        &["--key", "65 hex digits", "expected 64"],
    );
    assert_error(&stream("salsa20", "", NONCE, &[], b""), &["--key", "empty"]);
    let k128 = "0".repeat(32);
    assert_error(
        &stream("xsalsa20", &k128, XNONCE, &[], b""),
        &["--key", "xsalsa20 needs 256 bits"],
    );
    let over = format!("int:0x1{}", "0".repeat(64));
    assert_error(
        &stream("salsa20", &over, NONCE, &[], b""),
        &["--key", "exceeds 256 bits at position 71"],
    );
    let over_dec =
        "int:115792089237316195423570985008687907853269984665640564039457584007913129639936";
    assert_error(
        &stream("salsa20", over_dec, NONCE, &[], b""),
        &["exceeds 256 bits"],
    );
    assert_error(
        &stream("salsa20", "int:", NONCE, &[], b""),
        &["--key", "no digits", "position 5"],
    );
    assert_error(
        &stream("salsa20", "int:0o", NONCE, &[], b""),
        &["no digits after 'int:0o'"],
    );
    assert_error(
        &stream("salsa20", "int:12a4", NONCE, &[], b""),
        &["bad decimal digit 'a' at position 7"],
    );
    assert_error(
        &stream("salsa20", "int:1_000", NONCE, &[], b""),
        &["'_' at position 6"],
    );
    assert_error(
        &stream("salsa20", "int:0b102", NONCE, &[], b""),
        &["binary digit '2' at position 9"],
    );
    assert_error(
        &stream("salsa20", KEY, "00", &[], b""),
        &["--nonce", "2 hex digits", "expected 16"],
    );
    assert_error(
        &stream("xsalsa20", KEY, NONCE, &[], b""),
        &["--nonce", "16 hex digits", "expected 48"],
    );
    assert_error(
        &stream("salsa20", KEY, "000000000000000z", &[], b""),
        &["--nonce", "'z' at position 16"],
    );
}

#[test]
fn bad_names_are_refused_listing_the_valid_ones() {
    assert_error(
        &stream("salsa21", KEY, NONCE, &[], b""),
        &[
            "unknown cipher `salsa21`",
            "salsa20, salsa20/12, salsa20/8, xsalsa20, chacha20, chacha20-legacy, xchacha20",
        ],
    );
    assert_error(
        &stream("salsa20", KEY, NONCE, &["--impl", "fastest"], b""),
        &[
            "unknown salsa20 rung `fastest`",
            "reference",
            "no-transpose",
            "avx2",
        ],
    );
    assert_error(
        &stream("salsa20", KEY, NONCE, &["--xor", "c2"], b""),
        &["c2", "c0", "c1"],
    );
    // A rung hidden by the cap is the library's RungUnavailable message.
    let out = Command::new(BIN)
        .args([
            "stream", "--cipher", "salsa20", "--key", KEY, "--nonce", NONCE,
        ])
        .args(["--impl", "sse2-shuffle", "-i", BIN, "-o", "-"])
        .env("SIMDCRYPT_MAX_ISA", "scalar")
        .output()
        .unwrap();
    assert_error(&out, &["`sse2-shuffle` needs SSE2", "SIMDCRYPT_MAX_ISA"]);
    let out = Command::new(BIN)
        .arg("info")
        .env("SIMDCRYPT_MAX_ISA", "avx3")
        .output()
        .unwrap();
    assert_error(
        &out,
        &[
            "SIMDCRYPT_MAX_ISA is `avx3`",
            if cfg!(target_arch = "aarch64") {
                "scalar, neon, crypto, sha3"
            } else {
                "scalar, sse2, avx2, avx512"
            },
        ],
    );
}

#[test]
fn file_errors_leave_nothing_behind() {
    let dir = tempfile::tempdir().unwrap();
    let d = |name: &str| dir.path().join(name).to_str().unwrap().to_owned();
    std::fs::write(d("in"), bytes(0, 5000)).unwrap();
    std::fs::write(d("out"), b"keep me").unwrap();

    let out = stream(
        "salsa20",
        KEY,
        NONCE,
        &["-i", &d("missing"), "-o", &d("new")],
        b"",
    );
    assert_error(&out, &["cannot open input file", "missing", "No such file"]);

    let out = stream(
        "salsa20",
        KEY,
        NONCE,
        &["-i", &d("in"), "-o", &d("out")],
        b"",
    );
    assert_error(
        &out,
        &["output file '", "out' exists: pass --force to overwrite"],
    );
    assert_eq!(std::fs::read(d("out")).unwrap(), b"keep me");

    // Past the end of the keystream: refused before anything is written.
    let last = u64::MAX.to_string();
    let out = stream(
        "salsa20",
        KEY,
        NONCE,
        &["--counter", &last, "-i", &d("in"), "-o", &d("new")],
        b"",
    );
    assert_error(&out, &["keystream exhausted"]);

    let out = stream(
        "salsa20",
        KEY,
        NONCE,
        &["-i", &d("in"), "-o", &d("nodir/new")],
        b"",
    );
    assert_error(&out, &["directory", "does not exist"]);
    let out = stream(
        "salsa20",
        KEY,
        NONCE,
        &["-i", &d("in"), "-o", dir.path().to_str().unwrap()],
        b"",
    );
    assert_error(&out, &["is a directory"]);

    // Only what was there before.
    assert_eq!(file_names(dir.path()), ["in", "out"]);

    // --force replaces it whole.
    ok_stream(
        "salsa20",
        KEY,
        NONCE,
        &["-i", &d("in"), "-o", &d("out"), "--force"],
        b"",
    );
    assert_eq!(std::fs::read(d("out")).unwrap().len(), 5000);
    assert_eq!(file_names(dir.path()), ["in", "out"]);
}

#[test]
fn stdin_past_the_end_of_the_keystream_is_an_error() {
    let last = u64::MAX.to_string();
    // 64 bytes fit in the last block; 65 do not.
    let out = stream("salsa20", KEY, NONCE, &["--counter", &last], &[0; 64]);
    assert!(out.status.success());
    let out = stream("salsa20", KEY, NONCE, &["--counter", &last], &[0; 65]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("simdcrypt: error: salsa20 keystream exhausted"));
}

#[test]
fn usage_errors_are_clap_s() {
    let out = run(&["stream", "--cipher", "salsa20"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(!stderr(&out).contains("panicked"));
    let out = run(&["frobnicate"], b"");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn verify_passes() {
    let out = run(&["verify"], b"");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let summary = text.lines().last().unwrap();
    let rest = summary.strip_prefix("verify: ").expect(summary);
    let parts: Vec<&str> = rest.split(", ").collect();
    assert!(
        parts[0].ends_with(" passed") && parts[1] == "0 failed",
        "{summary}"
    );
    let passed: usize = parts[0].trim_end_matches(" passed").parse().unwrap();
    // 92 under SIMDCRYPT_MAX_ISA=scalar, where only the scalar rungs run.
    assert!(passed >= 40, "{summary}");
    // The NaCl keystream digests run now that SHA-256 exists.
    assert!(!text.contains("not run"), "{text}");
    // crypto_secretbox runs now that Poly1305 exists.
    assert!(!text.contains("secretbox_xsalsa20poly1305"), "{text}");
    assert!(!text.contains("FAIL"), "{text}");

    let doc = verify_json();
    assert_eq!(doc["failed"], 0);
    assert_eq!(doc["seed"], 7);
    let rows = doc["rows"].as_array().unwrap();
    // Derived from the table (a new ladder needs no line here): every
    // ladder has rows, and every rung of a ladder with rungs of its own has
    // a row; the age format's row follows the ladders'.
    for ladder in simdcrypt::ladders() {
        let ours: Vec<&serde_json::Value> =
            rows.iter().filter(|r| r["ladder"] == ladder.name).collect();
        assert!(!ours.is_empty(), "{}: no rows", ladder.name);
        for rung in ladder.rungs() {
            assert!(
                ours.iter().any(|r| r["rung"] == rung.name),
                "{}: no row on {}",
                ladder.name,
                rung.name
            );
        }
    }
    let ladders = simdcrypt::ladders().iter().map(|l| l.name);
    assert!(
        rows.iter()
            .all(|r| ladders.clone().any(|l| r["ladder"] == l) || r["ladder"] == "age"),
        "every row is of a ladder of the table, or the age format's"
    );
    assert!(rows.iter().all(|r| r["vectors"]["status"] != "fail"));
    assert!(doc.get("not_run").is_none());
}

/// `verify --json --seed 7`, run once for the tests that read it (a whole
/// `verify` takes about ten seconds in a debug build, and CI runs this file
/// four times).
fn verify_json() -> &'static serde_json::Value {
    static DOC: std::sync::OnceLock<serde_json::Value> = std::sync::OnceLock::new();
    DOC.get_or_init(|| {
        let out = run(&["verify", "--json", "--seed", "7"], b"");
        assert!(out.status.success(), "{}", stderr(&out));
        serde_json::from_slice(&out.stdout).unwrap()
    })
}

/// The JSON report has a row per rung of every primitive (the AEADs one
/// "default" row), the checks of each rung this CPU runs passed or not
/// applicable, the others skipped with the reason.
#[test]
fn verify_json_lists_every_primitive() {
    let rows = verify_json()["rows"].as_array().unwrap();
    let rungs_of = |primitive: &str| -> Vec<&str> {
        rows.iter()
            .filter(|r| r["primitive"] == primitive)
            .map(|r| r["rung"].as_str().unwrap())
            .collect()
    };
    let chacha: Vec<&str> = simdcrypt::chacha20::Rung::ALL
        .iter()
        .map(|i| i.name())
        .collect();
    for primitive in [
        "chacha20",
        "chacha20-legacy",
        "xchacha20",
        "hchacha20/block",
    ] {
        assert_eq!(rungs_of(primitive), chacha, "{primitive}");
    }
    let poly: Vec<&str> = simdcrypt::poly1305::Rung::ALL
        .iter()
        .map(|i| i.name())
        .collect();
    assert_eq!(rungs_of("poly1305"), poly);
    for aead in [
        "chacha20-poly1305",
        "xchacha20-poly1305",
        "xsalsa20-poly1305",
    ] {
        assert_eq!(rungs_of(aead), ["default"], "{aead}");
    }
    for row in rows {
        let available = row["available"].as_bool().unwrap();
        for check in ["vectors", "cross_check", "round_trip"] {
            let status = row[check]["status"].as_str().unwrap();
            if available {
                // A lone rung (SIMDCRYPT_MAX_ISA=scalar) has no round trip.
                let lone = status == "skipped" && row[check]["reason"] == "no other rung available";
                assert!(status == "pass" || status == "n/a" || lone, "{row}");
            } else {
                assert_eq!(status, "skipped", "{row}");
                assert!(row[check]["reason"].as_str().unwrap().starts_with("needs "));
            }
        }
        if available && row["primitive"] != "salsa20/12" {
            assert!(row["vectors"]["cases"].as_u64().unwrap() > 0, "{row}");
        }
    }
    // The Wycheproof files run whole: 325 and 315 cases, and the RFC's and
    // the draft's AEAD vectors.
    let cases = |primitive: &str| {
        rows.iter().find(|r| r["primitive"] == primitive).unwrap()["vectors"]["cases"]
            .as_u64()
            .unwrap()
    };
    assert_eq!(cases("chacha20-poly1305"), 325 + 2);
    assert_eq!(cases("xchacha20-poly1305"), 315 + 1);
    assert_eq!(cases("xsalsa20-poly1305"), 1);
}

#[test]
fn bench_csv_and_json_parse() {
    let out = run(&["bench", "--size", "64", "--reps", "3", "--csv"], b"");
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8(out.stdout).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(header[0], "impl");
    assert!(header.iter().any(|h| h.ends_with("_per_byte_median")));
    let available = simdcrypt::salsa20::Rung::available().count();
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), available);
    for row in &rows {
        assert_eq!(row.len(), header.len());
        assert_eq!(row[1], "64");
        for cell in &row[2..row.len() - 2] {
            cell.parse::<f64>().unwrap();
        }
        assert_eq!(row[row.len() - 2..], ["encrypt", "in-place"]);
    }

    let out = run(
        &[
            "bench",
            "--algo",
            "xsalsa20",
            "--impl",
            "reference",
            "--size",
            "64",
            "128",
            "--reps",
            "2",
            "--json",
        ],
        b"",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["algo"], "xsalsa20");
    let results = doc["results"].as_array().unwrap();
    assert_eq!(results.len(), 2);
    assert!(results[0]["gb_per_s_median"].as_f64().unwrap() > 0.0);
    assert_eq!(doc["per_block"][0]["block_batch"], 1);

    assert_error(
        &run(&["bench", "--impl", "nope", "--reps", "1"], b""),
        &["unknown salsa20 rung"],
    );
    assert_error(
        &run(&["bench", "--algo", "chacha21", "--reps", "1"], b""),
        &[
            "--algo: unknown cipher",
            "xchacha20, poly1305, chacha20-poly1305",
        ],
    );
}

#[test]
fn info_runs() {
    let out = run(&["info"], b"");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("CPU features:"));
    assert!(text.contains("reference"));
    assert!(text.contains("<- chosen"));
    assert!(text.contains("XOR form"));
}

#[test]
fn info_json_lists_every_ladder_with_its_rungs() {
    let out = run(&["info", "--json"], b"");
    assert!(out.status.success());
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let ladders = doc["ladders"].as_array().unwrap();
    let names: Vec<&str> = ladders
        .iter()
        .map(|l| l["name"].as_str().unwrap())
        .collect();
    for want in [
        "salsa20",
        "chacha20",
        "poly1305",
        "aead",
        "sha256",
        "sha512",
        "sha1",
        "md5",
        "hash-many",
        "hmac",
        "kdf",
        "scrypt",
    ] {
        assert!(names.contains(&want), "{want} missing from {names:?}");
    }
    let mut primitives = Vec::new();
    for ladder in ladders {
        let rungs = ladder["rungs"].as_array().unwrap();
        let composed = ladder["composed_of"].as_array().unwrap();
        // A ladder has rungs of its own or names those it runs on.
        assert_ne!(rungs.is_empty(), composed.is_empty(), "{ladder}");
        for name in composed {
            assert!(names.contains(&name.as_str().unwrap()), "{name}");
        }
        if !rungs.is_empty() {
            let chosen: Vec<_> = rungs.iter().filter(|r| r["chosen"] == true).collect();
            assert_eq!(chosen.len(), 1, "{ladder}");
            assert_eq!(chosen[0]["available"], true);
            assert_eq!(chosen[0]["constant_time"], true);
            assert_eq!(ladder["chosen"], chosen[0]["name"]);
        }
        for p in ladder["primitives"].as_array().unwrap() {
            primitives.push(p["name"].as_str().unwrap().to_owned());
        }
    }
    let count = primitives.len();
    primitives.sort();
    primitives.dedup();
    assert_eq!(primitives.len(), count, "a primitive name is used twice");
    // Under the scalar cap, no SIMD rung is chosen.
    let out = Command::new(BIN)
        .args(["info", "--json"])
        .env("SIMDCRYPT_MAX_ISA", "scalar")
        .output()
        .unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for ladder in doc["ladders"].as_array().unwrap() {
        for r in ladder["rungs"].as_array().unwrap() {
            if r["chosen"] == true {
                assert_eq!(r["needs"], "nothing", "{ladder}");
            }
        }
    }
}

#[test]
fn bench_plots_each_rung_as_svg() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("ladder.svg");
    let out = run(
        &[
            "bench",
            "--algo",
            "chacha20",
            "--size",
            "64",
            "4096",
            "--reps",
            "3",
            "--plot",
            svg.to_str().unwrap(),
        ],
        b"",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg"), "{}", &text[..text.len().min(200)]);
    assert!(text.trim_end().ends_with("</svg>"));
    for rung in simdcrypt::chacha20::Rung::available() {
        assert!(text.contains(rung.name()), "{rung} not in the plot");
    }
    // An existing plot is kept without --force, before anything is measured.
    let out = run(
        &[
            "bench",
            "--algo",
            "chacha20",
            "--plot",
            svg.to_str().unwrap(),
        ],
        b"",
    );
    assert_error(&out, &["exists", "--force"]);
}

/// `bench --decrypt`: a mode's decryption and an AEAD's opening of a
/// message sealed beforehand run (an opening that failed authentication
/// would fail the command), under `--calls` too, and the JSON and CSV say
/// which way and where the output went; a subject whose decryption is its
/// encryption, or that has nothing to decrypt, is refused in one line.
#[test]
fn bench_decrypt_measures_and_says_so() {
    let bench = |algo: &str, extra: &[&str]| {
        let mut args = vec![
            "bench", "--algo", algo, "--size", "64", "1024", "--reps", "2",
        ];
        args.extend_from_slice(extra);
        run(&args, b"")
    };
    for (algo, placement) in [
        ("aes-128-cbc", "out-of-place"),
        ("magma-cfb", "out-of-place"),
        // Decrypting is not encrypting under the bench's key, though it is
        // under a key of equal words.
        ("magma-ecb", "out-of-place"),
        ("aes-128-gcm", "out-of-place"),
        ("xsalsa20-poly1305", "out-of-place"),
    ] {
        let out = bench(algo, &["--decrypt", "--json"]);
        assert!(out.status.success(), "{algo}: {}", stderr(&out));
        let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(doc["direction"], "decrypt", "{algo}");
        assert_eq!(doc["placement"], placement, "{algo}");
        assert!(
            doc["what"]
                .as_str()
                .unwrap()
                .contains("from input to output")
                || doc["what"].as_str().unwrap().contains("open out of place"),
            "{algo}"
        );
        let results = doc["results"].as_array().unwrap();
        assert!(!results.is_empty(), "{algo}");
        for r in results {
            assert!(r["gb_per_s_median"].as_f64().unwrap() > 0.0, "{algo}: {r}");
        }
        let out = run(
            &[
                "bench",
                "--algo",
                algo,
                "--size",
                "64",
                "--decrypt",
                "--calls",
                "3",
            ],
            b"",
        );
        assert!(out.status.success(), "{algo} --calls: {}", stderr(&out));
        assert!(out.stdout.is_empty());
    }
    let out = bench("aes-128-cbc", &["--json"]);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["direction"], "encrypt");
    let out = bench("sha256", &["--json"]);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        doc["direction"].is_null() && doc["placement"].is_null(),
        "{doc}"
    );

    let out = bench("aes-128-gcm", &["--decrypt", "--csv"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8(out.stdout).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(header[header.len() - 2..], ["direction", "placement"]);
    for line in lines {
        assert!(line.ends_with(",decrypt,out-of-place"), "{line}");
    }

    for algo in ["aes-128-ctr", "magma-ofb", "chacha20"] {
        assert_error(
            &bench(algo, &["--decrypt"]),
            &["--decrypt", algo, "same keystream XOR", "without --decrypt"],
        );
    }
    for (algo, kind) in [("sha256", "hash"), ("poly1305", "MAC")] {
        assert_error(
            &bench(algo, &["--decrypt"]),
            &[
                "--decrypt",
                algo,
                kind,
                "expected a block-cipher mode",
                "or an AEAD",
            ],
        );
    }
}

/// Every name of the library's table of ladders reaches the tool through
/// the table: none is a string literal in the tool's source (`verify`'s
/// checks are the library's checking kit, declared beside the table).
#[test]
fn the_tool_names_no_primitive_itself() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    let mut dirs = vec![src.clone()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    assert!(files.len() > 10, "{files:?}");
    let mut names: Vec<&str> = Vec::new();
    for ladder in simdcrypt::ladders() {
        names.push(ladder.name);
        names.extend(ladder.primitives.iter().map(|p| p.name));
        for rung in ladder.rungs() {
            names.push(rung.name);
        }
    }
    // Rung names that are also ordinary words of the tool's messages, and
    // the AEAD family's ladder, whose name is also the `aead` subcommand's.
    names.retain(|n| !["reference", "scalar", "default", "aead"].contains(n));
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for name in &names {
            assert!(
                !text.contains(&format!("\"{name}\"")),
                "{}: names `{name}`: take it from the table",
                file.display()
            );
        }
    }
}

/// The flags of the primitives' parameters come from the table: `stream`,
/// `enc` and `mac` have one per parameter their primitives declare
/// (`--no-NAME` for a switch on by default), with the declaration's help.
#[test]
fn parameter_flags_come_from_the_table() {
    use simdcrypt::ladder::{self, Kind, ParamKind};

    for (command, kind) in [
        ("stream", Kind::StreamCipher),
        ("enc", Kind::Mode),
        ("mac", Kind::Mac),
    ] {
        let out = run(&[command, "--help"], b"");
        assert!(out.status.success());
        let help = String::from_utf8_lossy(&out.stdout);
        let mut flags = Vec::new();
        for (_, p) in ladder::primitives().filter(|(_, p)| p.kind == kind) {
            for param in p.params {
                let flag = match (param.kind, param.default) {
                    (ParamKind::Switch, "on") => format!("--no-{}", param.name),
                    _ => format!("--{}", param.name),
                };
                let first_line = param.help.split_whitespace().take(4).collect::<Vec<_>>();
                let line = help
                    .lines()
                    .find(|l| l.trim_start().starts_with(&format!("{flag} ")))
                    .unwrap_or_else(|| panic!("{command}: no {flag} in\n{help}"));
                assert!(
                    line.contains(&first_line.join(" ")),
                    "{command} {flag}: {line}"
                );
                flags.push(flag);
            }
        }
        // No stream cipher declares parameters today; the others do.
        assert!(
            kind == Kind::StreamCipher || !flags.is_empty(),
            "{command}: some primitive declares parameters"
        );
    }
}
