//! `simdcrypt enc` and `simdcrypt mac`: every block-cipher mode of the
//! table's AES and Camellia ladders against the system's `openssl enc`,
//! byte for byte, both ways, with and without padding, and on every rung;
//! bad padding refused with one line and no output file; MACs against
//! their RFC examples and `openssl mac`.
//!
//! The comparisons with OpenSSL are skipped, saying so, where no `openssl`
//! binary is on the PATH.

use std::process::Command;

use simdcrypt::ladder::{self, Kind};
use simdcrypt_testsupport::{bytes, hex, run_command, runs};

const BIN: &str = env!("CARGO_BIN_EXE_simdcrypt");

/// Whether `openssl` runs here; if not, says so.
fn openssl() -> bool {
    runs(
        Command::new("openssl").arg("version"),
        "no `openssl` binary on the PATH",
    )
}

/// The ladders whose modes the system's `openssl enc` has without an
/// engine (tests/enc_gost.rs compares GOST's with its engine).
const OPENSSL_LADDERS: [&str; 2] = ["aes", "camellia"];

/// The modes of the table's ladder `ladder`: name, key length, IV length.
fn modes(ladder: &str) -> Vec<(&'static str, usize, Option<usize>)> {
    let modes: Vec<_> = ladder::primitives()
        .filter(|(l, p)| l.name == ladder && p.kind == Kind::Mode)
        .map(|(_, p)| (p.name, p.key_lens[0], p.nonce_len))
        .collect();
    assert!(modes.len() >= 15, "the {ladder} modes are in the table");
    modes
}

/// `simdcrypt enc` on `input` with `args`: status, stdout, stderr.
fn enc(args: &[&str], input: &[u8]) -> std::process::Output {
    run_command(Command::new(BIN).arg("enc").args(args), input)
}

/// The arguments naming `mode`'s cipher, key and IV, for either tool.
fn key_args(ours: bool, name: &str, key: &[u8], iv: Option<&[u8]>) -> Vec<String> {
    let mut args = if ours {
        vec!["--cipher".to_owned(), name.to_owned(), "--key".to_owned()]
    } else {
        vec!["enc".to_owned(), format!("-{name}"), "-K".to_owned()]
    };
    args.push(hex(key));
    if let Some(iv) = iv {
        args.push(if ours { "--iv" } else { "-iv" }.to_owned());
        args.push(hex(iv));
    }
    args
}

#[test]
fn every_mode_equals_openssl_enc_both_ways() {
    for ladder in OPENSSL_LADDERS {
        modes_equal_openssl_enc_both_ways(ladder);
    }
}

/// Each mode of `ladder` on messages of edge lengths, against `openssl
/// enc` and back.
fn modes_equal_openssl_enc_both_ways(ladder: &str) {
    let have_openssl = openssl();
    for (i, (name, key_len, iv_len)) in modes(ladder).into_iter().enumerate() {
        let key = bytes(10 + i as u64, key_len);
        let iv = iv_len.map(|n| bytes(50 + i as u64, n));
        for (j, len) in [0usize, 1, 15, 16, 17, 255, 4096, 70_001]
            .into_iter()
            .enumerate()
        {
            let plain = bytes(100 * i as u64 + j as u64, len);
            let ours_args = key_args(true, name, &key, iv.as_deref());
            let ours_args: Vec<&str> = ours_args.iter().map(String::as_str).collect();
            let sealed = enc(&ours_args, &plain);
            assert!(
                sealed.status.success(),
                "{name} {len}: {}",
                String::from_utf8_lossy(&sealed.stderr)
            );
            if have_openssl {
                let theirs = run_command(
                    Command::new("openssl").args(key_args(false, name, &key, iv.as_deref())),
                    &plain,
                );
                assert!(theirs.status.success(), "openssl {name}");
                assert!(
                    sealed.stdout == theirs.stdout,
                    "{name}, {len} bytes: differs from openssl enc"
                );
            }
            let mut back_args = ours_args.clone();
            back_args.push("-d");
            let opened = enc(&back_args, &sealed.stdout);
            assert!(
                opened.status.success(),
                "{name} {len} -d: {}",
                String::from_utf8_lossy(&opened.stderr)
            );
            assert!(
                opened.stdout == plain,
                "{name}, {len} bytes: decryption differs"
            );
        }
    }
}

#[test]
fn no_pad_takes_whole_blocks_as_openssl_nopad() {
    let key = bytes(1, 16);
    let iv = bytes(2, 16);
    let plain = bytes(3, 64);
    for name in [
        "aes-128-cbc",
        "aes-128-ecb",
        "camellia-128-cbc",
        "camellia-128-ecb",
    ] {
        let iv = (name.ends_with("cbc")).then_some(&iv[..]);
        let mut args = key_args(true, name, &key, iv);
        args.push("--no-pad".to_owned());
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = enc(&args, &plain);
        assert!(out.status.success());
        assert_eq!(out.stdout.len(), 64, "{name}: no padding block");
        if openssl() {
            let mut theirs = key_args(false, name, &key, iv);
            theirs.push("-nopad".to_owned());
            let theirs = run_command(Command::new("openssl").args(theirs), &plain);
            assert!(out.stdout == theirs.stdout, "{name} -nopad");
        }
        let partial = enc(&args, &plain[..63]);
        assert_eq!(
            partial.status.code(),
            Some(1),
            "{name}: 63 bytes without padding"
        );
        // The input's length, not what is left of its last block.
        let stderr = String::from_utf8_lossy(&partial.stderr);
        assert!(
            stderr.contains("input is 63 bytes: expected a multiple of the 16-byte block"),
            "{stderr}"
        );
    }
}

#[test]
fn bad_padding_is_one_line_and_no_output_file() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let key = bytes(4, 16);
    let iv = bytes(5, 16);
    let args = key_args(true, "aes-128-cbc", &key, Some(&iv));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let sealed = enc(&args, &bytes(6, 40)).stdout;
    let mut wrong_key = key.clone();
    wrong_key[0] ^= 1;
    let wrong = key_args(true, "aes-128-cbc", &wrong_key, Some(&iv));
    let out_path = dir.path().join("plain");
    let out = run_command(
        Command::new(BIN)
            .arg("enc")
            .args(&wrong)
            .arg("-d")
            .arg("-o")
            .arg(&out_path),
        &sealed,
    );
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    let errors: Vec<&str> = stderr.lines().filter(|l| l.contains("error")).collect();
    assert_eq!(errors.len(), 1, "{stderr}");
    assert!(errors[0].contains("bad decrypt"), "{stderr}");
    assert!(!out_path.exists(), "no output file after bad padding");
    // A truncated ciphertext fails the same way.
    let out = enc(&[&args[..], &["-d"]].concat(), &sealed[..sealed.len() - 1]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("bad decrypt"));
}

#[test]
fn wrong_lengths_name_what_was_expected() {
    let out = enc(
        &[
            "--cipher",
            "aes-256-cbc",
            "--key",
            "00",
            "--iv",
            &"00".repeat(16),
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("--key") && stderr.contains("expected 64 hex digits"),
        "{stderr}"
    );
    let out = enc(&["--cipher", "aes-128-ctr", "--key", &"00".repeat(16)], b"");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--iv"));
    let out = enc(&["--cipher", "aes-128-xts", "--key", &"00".repeat(16)], b"");
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("unknown cipher") && stderr.contains("aes-128-ctr"),
        "{stderr}"
    );
}

#[test]
fn cmac_matches_rfc_4493_and_verify_exits_by_the_result() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let empty = dir.path().join("empty");
    let sixteen = dir.path().join("sixteen");
    std::fs::write(&empty, b"").expect("write");
    std::fs::write(
        &sixteen,
        [
            0x6b, 0xc1, 0xbe, 0xe2, 0x2e, 0x40, 0x9f, 0x96, 0xe9, 0x3d, 0x7e, 0x11, 0x73, 0x93,
            0x17, 0x2a,
        ],
    )
    .expect("write");
    let key = "2b7e151628aed2a6abf7158809cf4f3c";
    let mac = |extra: &[&str]| {
        run_command(
            Command::new(BIN)
                .args(["mac", "--algo", "aes-cmac", "--key", key])
                .args(extra)
                .arg(&empty)
                .arg(&sixteen),
            b"",
        )
    };
    let out = mac(&[]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(
        lines[0].starts_with("bb1d6929e95937287fa37d129b756746  "),
        "{text}"
    );
    assert!(
        lines[1].starts_with("070a16b46b4d4144f79bdd9dd04a287c  "),
        "{text}"
    );
    let out = mac(&["--verify", "bb1d6929e95937287fa37d129b756746"]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains(": OK") && text.contains(": FAILED"), "{text}");
}

#[test]
fn every_mac_equals_openssl_mac() {
    if !openssl() {
        return;
    }
    let message = bytes(7, 10_000);
    for (name, key_len, how) in [
        ("aes-cmac", 16, vec!["-cipher", "AES-128-CBC", "CMAC"]),
        ("aes-cmac", 32, vec!["-cipher", "AES-256-CBC", "CMAC"]),
        (
            "camellia-cmac",
            16,
            vec!["-cipher", "CAMELLIA-128-CBC", "CMAC"],
        ),
        (
            "camellia-cmac",
            24,
            vec!["-cipher", "CAMELLIA-192-CBC", "CMAC"],
        ),
        (
            "camellia-cmac",
            32,
            vec!["-cipher", "CAMELLIA-256-CBC", "CMAC"],
        ),
        ("hmac-sha256", 40, vec!["-digest", "SHA256", "HMAC"]),
        ("hmac-sha512", 7, vec!["-digest", "SHA512", "HMAC"]),
    ] {
        let key = hex(&bytes(8, key_len));
        let ours = run_command(
            Command::new(BIN).args(["mac", "--algo", name, "--key", &key, "-"]),
            &message,
        );
        assert!(
            ours.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&ours.stderr)
        );
        let theirs = run_command(
            Command::new("openssl")
                .args(["mac", "-macopt", &format!("hexkey:{key}")])
                .args(&how[..how.len() - 1])
                .arg(how[how.len() - 1]),
            &message,
        );
        let want = String::from_utf8_lossy(&theirs.stdout)
            .trim()
            .to_lowercase();
        let got = String::from_utf8_lossy(&ours.stdout);
        assert!(
            got.starts_with(&format!("{want}  -")),
            "{name}: {got} against {want}"
        );
    }
}

#[test]
fn aead_seals_rfc_8439_and_opens_only_what_verifies() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let key = hex(&(0x80..0xa0).collect::<Vec<u8>>());
    let plain = b"Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it.";
    let args = |extra: &[&str]| {
        let mut a = vec![
            "aead",
            "--cipher",
            "chacha20-poly1305",
            "--key",
            &key,
            "--nonce",
            "070000004041424344454647",
            "--aad",
            "50515253c0c1c2c3c4c5c6c7",
        ];
        a.extend_from_slice(extra);
        a.into_iter().map(str::to_owned).collect::<Vec<_>>()
    };
    let sealed = run_command(Command::new(BIN).args(args(&[])), plain);
    assert!(
        sealed.status.success(),
        "{}",
        String::from_utf8_lossy(&sealed.stderr)
    );
    assert_eq!(sealed.stdout.len(), plain.len() + 16);
    // RFC 8439 §2.8.2: the tag.
    assert_eq!(
        hex(&sealed.stdout[plain.len()..]),
        "1ae10b594f09e26a7e902ecbd0600691"
    );
    let opened = run_command(Command::new(BIN).args(args(&["-d"])), &sealed.stdout);
    assert!(opened.status.success());
    assert_eq!(opened.stdout, plain);
    // A flipped bit: one line, exit 1, no output file.
    let mut bad = sealed.stdout.clone();
    bad[3] ^= 4;
    let out_path = dir.path().join("opened");
    let out_arg = out_path.to_str().expect("a UTF-8 path");
    let refused = run_command(Command::new(BIN).args(args(&["-d", "-o", out_arg])), &bad);
    assert_eq!(refused.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("authentication failed"));
    assert!(!out_path.exists());
    let refused = run_command(Command::new(BIN).args(args(&["-d"])), &bad);
    assert!(
        refused.stdout.is_empty(),
        "nothing on stdout when the tag fails"
    );
}

#[test]
fn aead_secretbox_puts_the_tag_first_and_takes_no_associated_data() {
    let key = "00".repeat(32);
    let nonce = "00".repeat(24);
    let base = [
        "aead",
        "--cipher",
        "xsalsa20-poly1305",
        "--key",
        &key,
        "--nonce",
        &nonce,
    ];
    let sealed = run_command(Command::new(BIN).args(base), b"abc");
    assert!(sealed.status.success());
    let lib = simdcrypt::aead::XSalsa20Poly1305::new(&[0; 32]).encrypt(&[0; 24], b"abc");
    assert_eq!(sealed.stdout, lib, "the library's layout: tag first");
    let refused = run_command(Command::new(BIN).args(base).args(["--aad", "00"]), b"abc");
    assert_eq!(refused.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("associated data"));
}

/// The leak test runs and reports every rung (its verdicts are timings,
/// so they are not asserted here: the README shows them).
#[test]
fn bench_leak_reports_a_t_statistic_per_rung() {
    let out = run_command(
        Command::new(BIN).args(["bench", "--leak", "2000", "--algo", "poly1305"]),
        b"",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let rows = simdcrypt::poly1305::Rung::available().count();
    assert_eq!(text.lines().count(), 2 + rows, "{text}");
    assert!(text.contains("max |t|"), "{text}");
    // Bounded as --reps and --calls are.
    let out = run_command(
        Command::new(BIN).args(["bench", "--leak", "100000001", "--algo", "poly1305"]),
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("1000..=100000000"), "{stderr}");
}

/// Inputs of several read buffers: the parallel modes (ECB, CTR, CBC and
/// CFB decryption) cut them between threads, the chained ones do not; both
/// equal OpenSSL, and padded decryption still ends on the padding.
#[test]
fn long_inputs_cut_between_threads_equal_openssl() {
    let have_openssl = openssl();
    let key = bytes(77, 32);
    let iv = bytes(78, 16);
    let plain = bytes(79, (4 << 20) + 33);
    for name in [
        "aes-256-ecb",
        "aes-256-cbc",
        "aes-256-cfb",
        "aes-256-ofb",
        "aes-256-ctr",
    ] {
        let iv = (!name.ends_with("ecb")).then_some(&iv[..]);
        let args = key_args(true, name, &key, iv);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let sealed = enc(&args, &plain);
        assert!(sealed.status.success(), "{name}");
        if have_openssl {
            let theirs = run_command(
                Command::new("openssl").args(key_args(false, name, &key, iv)),
                &plain,
            );
            assert!(
                sealed.stdout == theirs.stdout,
                "{name}: differs from openssl enc"
            );
        }
        let opened = enc(&[&args[..], &["-d"]].concat(), &sealed.stdout);
        assert!(opened.status.success(), "{name} -d");
        assert!(opened.stdout == plain, "{name}: decryption differs");
    }
}

/// `--rung` picks each rung this CPU runs (the table's list), and every
/// one agrees with `openssl enc` both ways, on a message past the widest
/// rung's batch.
#[test]
fn every_rung_equals_openssl_enc_both_ways() {
    let have_openssl = openssl();
    let plain = bytes(90, 64 * 16 * 3 + 5);
    for ladder in OPENSSL_LADDERS {
        let table = simdcrypt::ladders()
            .iter()
            .find(|l| l.name == ladder)
            .expect("in the table");
        let rungs: Vec<&str> = table
            .rungs()
            .into_iter()
            .filter(|r| r.available)
            .map(|r| r.name)
            .collect();
        for (i, (name, key_len, iv_len)) in modes(ladder).into_iter().enumerate() {
            let key = bytes(91 + i as u64, key_len);
            let iv = iv_len.map(|n| bytes(92 + i as u64, n));
            let theirs = have_openssl.then(|| {
                run_command(
                    Command::new("openssl").args(key_args(false, name, &key, iv.as_deref())),
                    &plain,
                )
                .stdout
            });
            for rung in &rungs {
                let args = key_args(true, name, &key, iv.as_deref());
                let args: Vec<&str> = args.iter().map(String::as_str).collect();
                let args = [&args[..], &["--rung", rung]].concat();
                let sealed = enc(&args, &plain);
                assert!(
                    sealed.status.success(),
                    "{name} on {rung}: {}",
                    String::from_utf8_lossy(&sealed.stderr)
                );
                if let Some(theirs) = &theirs {
                    assert!(
                        sealed.stdout == *theirs,
                        "{name} on {rung}: differs from openssl enc"
                    );
                }
                let opened = enc(&[&args[..], &["-d"]].concat(), &sealed.stdout);
                assert!(
                    opened.stdout == plain,
                    "{name} on {rung}: decryption differs"
                );
            }
        }
    }
}
