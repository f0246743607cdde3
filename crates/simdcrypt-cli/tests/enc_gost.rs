//! `simdcrypt enc`, `mac` and `aead` with GOST 28147-89 and Magma: the
//! names, defaults and padding of OpenSSL's GOST engine (Debian's
//! `libengine-gost-openssl`), byte for byte against `openssl enc -engine
//! gost` and `openssl dgst -engine gost -mac …` both ways, with the
//! engine's S-box sets chosen through `CRYPT_PARAMS` beside ours through
//! `--sbox`; the names the engine lacks against GOST R 34.13-2015 A.2 and
//! RFC 9058.
//!
//! The comparisons with the engine are skipped, saying so, where `openssl`
//! or its GOST engine is not installed (`.ci/install-peers` installs it).

use std::process::Command;

use simdcrypt_testsupport::{bytes, hex, run_command, runs, unhex};

const BIN: &str = env!("CARGO_BIN_EXE_simdcrypt");

/// Whether `openssl` with its GOST engine runs here.
fn engine() -> bool {
    runs(
        Command::new("openssl")
            .args(["enc", "-engine", "gost", "-gost89", "-K", &"00".repeat(32)])
            .args(["-iv", &"00".repeat(8), "-in", "/dev/null"]),
        "no `openssl` with the GOST engine (apt-get install libengine-gost-openssl)",
    )
}

/// `simdcrypt` with `args` on `input`.
fn ours(args: &[&str], input: &[u8]) -> std::process::Output {
    run_command(Command::new(BIN).args(args), input)
}

/// `openssl enc -engine gost -NAME` with `CRYPT_PARAMS` set to `params`
/// (the engine's S-box set; unset when `None`).
fn theirs(
    name: &str,
    key: &[u8],
    iv: &[u8],
    params: Option<&str>,
    decrypt: bool,
    input: &[u8],
) -> Vec<u8> {
    let mut command = Command::new("openssl");
    command
        .args([
            "enc",
            "-engine",
            "gost",
            &format!("-{name}"),
            "-K",
            &hex(key),
            "-iv",
            &hex(iv),
        ])
        .env_remove("CRYPT_PARAMS");
    if let Some(p) = params {
        command.env("CRYPT_PARAMS", p);
    }
    if decrypt {
        command.arg("-d");
    }
    let out = run_command(&mut command, input);
    assert!(
        out.status.success(),
        "openssl enc -{name}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// The engine's ciphers: name, IV length.
const ENGINE_CIPHERS: [(&str, usize); 7] = [
    ("gost89", 8),
    ("gost89-cnt", 8),
    ("gost89-cnt-12", 8),
    ("gost89-cbc", 8),
    ("magma-cbc", 8),
    ("magma-ctr", 4),
    ("magma-ctr-acpkm", 4),
];

/// Lengths around the block, the 1 KiB key-meshing section and the tool's
/// parallel stretches.
const LENGTHS: [usize; 11] = [0, 1, 7, 8, 9, 1023, 1024, 1025, 4100, 70_001, 3 << 20];

#[test]
fn every_engine_cipher_equals_openssl_enc_both_ways() {
    let have_engine = engine();
    for (i, (name, iv_len)) in ENGINE_CIPHERS.into_iter().enumerate() {
        let key = bytes(10 + i as u64, 32);
        let iv = bytes(50 + i as u64, iv_len);
        let args = [
            "enc",
            "--cipher",
            name,
            "--key",
            &hex(&key),
            "--iv",
            &hex(&iv),
        ];
        for (j, len) in LENGTHS.into_iter().enumerate() {
            let plain = bytes(100 * i as u64 + j as u64, len);
            let sealed = ours(&args, &plain);
            assert!(
                sealed.status.success(),
                "{name} {len}: {}",
                String::from_utf8_lossy(&sealed.stderr)
            );
            if have_engine {
                let want = theirs(name, &key, &iv, None, false, &plain);
                assert!(
                    sealed.stdout == want,
                    "{name}, {len} bytes: differs from the engine"
                );
                let opened = theirs(name, &key, &iv, None, true, &sealed.stdout);
                assert!(
                    opened == plain,
                    "{name}, {len} bytes: the engine does not open ours"
                );
            }
            let opened = ours(&[&args[..], &["-d"]].concat(), &sealed.stdout);
            assert!(
                opened.status.success() && opened.stdout == plain,
                "{name}, {len} bytes: our decryption"
            );
        }
    }
}

#[test]
fn sbox_sets_equal_the_engines_crypt_params() {
    if !engine() {
        return;
    }
    let key = bytes(1, 32);
    let iv = bytes(2, 8);
    let plain = bytes(3, 5000);
    for (ours_name, oid_name) in [
        ("cryptopro-a", "id-Gost28147-89-CryptoPro-A-ParamSet"),
        ("cryptopro-b", "id-Gost28147-89-CryptoPro-B-ParamSet"),
        ("cryptopro-c", "id-Gost28147-89-CryptoPro-C-ParamSet"),
        ("cryptopro-d", "id-Gost28147-89-CryptoPro-D-ParamSet"),
        ("test", "id-Gost28147-89-TestParamSet"),
        ("param-z", "id-tc26-gost-28147-param-Z"),
    ] {
        for name in ["gost89", "gost89-cbc"] {
            for sbox in [ours_name, oid_name] {
                let out = ours(
                    &[
                        "enc",
                        "--cipher",
                        name,
                        "--key",
                        &hex(&key),
                        "--iv",
                        &hex(&iv),
                        "--sbox",
                        sbox,
                    ],
                    &plain,
                );
                assert!(out.status.success(), "{name} --sbox {sbox}");
                let want = theirs(name, &key, &iv, Some(oid_name), false, &plain);
                assert!(
                    out.stdout == want,
                    "{name} --sbox {sbox}: differs from CRYPT_PARAMS"
                );
            }
        }
    }
}

#[test]
fn key_meshing_off_changes_only_what_follows_the_first_kilobyte() {
    let key = bytes(4, 32);
    let iv = bytes(5, 8);
    let plain = bytes(6, 3000);
    for name in ["gost89", "gost89-cnt"] {
        let args = [
            "enc",
            "--cipher",
            name,
            "--key",
            &hex(&key),
            "--iv",
            &hex(&iv),
        ];
        let meshed = ours(&args, &plain).stdout;
        let plain_key = ours(&[&args[..], &["--no-key-meshing"]].concat(), &plain).stdout;
        assert_eq!(meshed[..1024], plain_key[..1024], "{name}");
        assert_ne!(meshed[1024..], plain_key[1024..], "{name}");
    }
    let refused = ours(
        &[
            "enc",
            "--cipher",
            "aes-128-ctr",
            "--key",
            &"00".repeat(16),
            "--iv",
            &"00".repeat(16),
            "--sbox",
            "test",
        ],
        b"",
    );
    assert_eq!(refused.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(
        stderr.contains("sbox") && stderr.lines().count() == 1,
        "{stderr}"
    );
    let bad = ours(
        &[
            "enc",
            "--cipher",
            "gost89",
            "--key",
            &"00".repeat(32),
            "--iv",
            &"00".repeat(8),
            "--sbox",
            &"0".repeat(128),
        ],
        b"",
    );
    assert_eq!(bad.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&bad.stderr);
    assert!(
        stderr.contains("K1") && stderr.contains("permutation"),
        "{stderr}"
    );
}

#[test]
fn padding_is_pkcs7_as_openssl_enc_and_no_pad_takes_whole_blocks() {
    let key = bytes(7, 32);
    let iv = bytes(8, 8);
    for name in ["gost89-cbc", "magma-cbc", "magma-ecb", "gost89-ecb"] {
        let mut args = vec!["enc", "--cipher", name];
        let (k, v) = (hex(&key), hex(&iv));
        args.extend(["--key", &k]);
        if name.ends_with("cbc") {
            args.extend(["--iv", &v]);
        }
        let sealed = ours(&args, &bytes(9, 16));
        assert_eq!(sealed.stdout.len(), 24, "{name}: a whole padding block");
        let bare = ours(&[&args[..], &["--no-pad"]].concat(), &bytes(9, 16));
        assert_eq!(bare.stdout.len(), 16, "{name} --no-pad");
        let partial = ours(&[&args[..], &["--no-pad"]].concat(), &bytes(9, 15));
        assert_eq!(
            partial.status.code(),
            Some(1),
            "{name}: 15 bytes without padding"
        );
        assert!(String::from_utf8_lossy(&partial.stderr).contains("multiple of the 8-byte block"));
    }
}

/// GOST R 34.13-2015 A.2: the standard's own examples through the tool,
/// both ways, with the IV registers it uses (OFB and CFB of two blocks,
/// CBC of three); the engine's one-block IV is the register of one.
#[test]
fn magma_modes_match_gost_r_34_13_2015_a2() {
    let key = "ffeeddccbbaa99887766554433221100f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";
    let plain = unhex("92def06b3c130a59db54c704f8189d204a98fb2e67a8024c8912409b17b57e41");
    for (name, iv, want) in [
        (
            "magma-ecb",
            None,
            "2b073f0494f372a0de70e715d3556e4811d8d9e9eacfbc1e7c68260996c67efb",
        ),
        (
            "magma-ctr",
            Some("12345678"),
            "4e98110c97b7b93c3e250d93d6e85d69136d868807b2dbef568eb680ab52a12d",
        ),
        (
            "magma-ofb",
            Some("1234567890abcdef234567890abcdef1"),
            "db37e0e266903c830d46644c1f9a089ca0f83062430e327ec824efb8bd4fdb05",
        ),
        (
            "magma-cbc",
            Some("1234567890abcdef234567890abcdef134567890abcdef12"),
            "96d1b05eea683919aff76129abb937b95058b4a1c4bc001920b78b1a7cd7e667",
        ),
        (
            "magma-cfb",
            Some("1234567890abcdef234567890abcdef1"),
            "db37e0e266903c830d46644c1f9a089c24bdd2035315d38bbcc0321421075505",
        ),
    ] {
        let mut args = vec!["enc", "--cipher", name, "--key", key, "--no-pad"];
        if let Some(iv) = iv {
            args.extend(["--iv", iv]);
        }
        let out = ours(&args, &plain);
        assert!(
            out.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(hex(&out.stdout), want, "{name}");
        let back = ours(&[&args[..], &["-d"]].concat(), &unhex(want));
        assert_eq!(back.stdout, plain, "{name} -d");
    }
}

/// The IV registers of Magma's CBC, OFB and CFB take any whole number of
/// blocks, through the tool's parallel stretches both ways; a partial
/// block is refused with what was expected; AES keeps exactly one block,
/// as `openssl enc` does.
#[test]
fn iv_registers_take_whole_blocks_and_aes_one() {
    let key = hex(&bytes(3, 32));
    let plain = bytes(4, 3 << 20);
    for name in ["magma-cbc", "magma-ofb", "magma-cfb"] {
        for blocks in [1, 2, 3, 7] {
            let iv = hex(&bytes(5 + blocks as u64, 8 * blocks));
            let args = ["enc", "--cipher", name, "--key", &key, "--iv", &iv];
            let sealed = ours(&args, &plain);
            assert!(sealed.status.success(), "{name}, {blocks} blocks");
            let back = ours(&[&args[..], &["-d"]].concat(), &sealed.stdout);
            assert!(back.stdout == plain, "{name}, {blocks} blocks: round trip");
        }
        let partial = ours(
            &[
                "enc",
                "--cipher",
                name,
                "--key",
                &key,
                "--iv",
                &"00".repeat(12),
            ],
            b"",
        );
        assert_eq!(partial.status.code(), Some(1));
        let stderr = String::from_utf8_lossy(&partial.stderr);
        assert!(
            stderr.contains("24 hex digits") && stderr.contains("any multiple of 16"),
            "{stderr}"
        );
    }
    let aes = ours(
        &[
            "enc",
            "--cipher",
            "aes-128-cbc",
            "--key",
            &"00".repeat(16),
            "--iv",
            &"00".repeat(32),
        ],
        b"",
    );
    assert_eq!(aes.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&aes.stderr).contains("expected 32 hex digits"));
}

#[test]
fn every_engine_mac_equals_openssl_dgst() {
    let have_engine = engine();
    let dir = tempfile::tempdir().expect("a temporary directory");
    for (i, len) in [0usize, 1, 8, 9, 1024, 1025, 5000].into_iter().enumerate() {
        let path = dir.path().join(format!("m{len}"));
        std::fs::write(&path, bytes(20 + i as u64, len)).expect("write");
        let key = hex(&bytes(30 + i as u64, 32));
        for name in ["gost-mac", "gost-mac-12", "magma-mac"] {
            let out = ours(
                &[
                    "mac",
                    "--algo",
                    name,
                    "--key",
                    &key,
                    path.to_str().expect("utf-8"),
                ],
                b"",
            );
            assert!(
                out.status.success(),
                "{name}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            let text = String::from_utf8_lossy(&out.stdout);
            let tag = text.split_whitespace().next().expect("a tag").to_owned();
            if have_engine {
                let theirs = Command::new("openssl")
                    .args([
                        "dgst",
                        "-engine",
                        "gost",
                        "-mac",
                        name,
                        "-macopt",
                        &format!("hexkey:{key}"),
                    ])
                    .arg(&path)
                    .env_remove("CRYPT_PARAMS")
                    .output()
                    .expect("openssl runs");
                let text = String::from_utf8_lossy(&theirs.stdout);
                let want = text.trim().rsplit(' ').next().expect("a digest");
                assert_eq!(tag, want, "{name}, {len} bytes");
            }
        }
    }
}

/// RFC 9058 Appendix A.2: MGM with Magma through `aead`.
#[test]
fn magma_mgm_matches_rfc_9058() {
    let key = "ffeeddccbbaa99887766554433221100f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";
    let nonce = "12def06b3c130a59";
    let aad = "01010101010101010202020202020202030303030303030304040404040404040505050505050505ea";
    let plain = unhex(concat!(
        "ffeeddccbbaa99881122334455667700",
        "8899aabbcceeff0a0011223344556677",
        "99aabbcceeff0a001122334455667788",
        "aabbcceeff0a00112233445566778899",
        "aabbcc"
    ));
    let sealed = ours(
        &[
            "aead",
            "--cipher",
            "magma-mgm",
            "--key",
            key,
            "--nonce",
            nonce,
            "--aad",
            aad,
        ],
        &plain,
    );
    assert!(
        sealed.status.success(),
        "{}",
        String::from_utf8_lossy(&sealed.stderr)
    );
    assert_eq!(
        hex(&sealed.stdout),
        concat!(
            "c795066c5f9ea03b85113342459185ae",
            "1f2e00d6bf2b785d940470b8bb9c8e7d",
            "9a5dd3731f7ddc70ec27cb0ace6fa576",
            "70f65c646abb75d547aa37c3bcb5c34e",
            "03bb9c",
            "a7928069aa10fd10"
        )
    );
    let mut tampered = sealed.stdout.clone();
    tampered[3] ^= 1;
    let opened = ours(
        &[
            "aead",
            "-d",
            "--cipher",
            "magma-mgm",
            "--key",
            key,
            "--nonce",
            nonce,
            "--aad",
            aad,
        ],
        &tampered,
    );
    assert_eq!(opened.status.code(), Some(1));
    assert!(opened.stdout.is_empty(), "nothing released");
}
