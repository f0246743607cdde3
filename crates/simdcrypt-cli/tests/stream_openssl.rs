//! `simdcrypt stream --cipher chacha20` against the system's
//! `openssl enc -chacha20`, byte for byte. OpenSSL's 16-byte IV is the
//! 32-bit little-endian block counter followed by the 96-bit nonce, so
//! `--counter C --nonce N` must equal `-iv LE32(C) ‖ N`.
//!
//! Skipped, saying so, where no `openssl` binary is on the PATH (or it has
//! no ChaCha20).

use std::path::Path;
use std::process::Command;

use simdcrypt_testsupport::{bytes, hex, runs};

const BIN: &str = env!("CARGO_BIN_EXE_simdcrypt");

/// Whether `openssl enc -chacha20` runs here.
fn openssl_has_chacha20() -> bool {
    runs(
        Command::new("openssl").args([
            "enc",
            "-chacha20",
            "-K",
            &"00".repeat(32),
            "-iv",
            &"00".repeat(16),
        ]),
        "no `openssl` binary with `enc -chacha20` on the PATH",
    )
}

fn run_ok(cmd: &mut Command, what: &str) {
    let out = cmd.output().unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(
        out.status.success(),
        "{what} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Encrypts `input` with both tools, files in and out; the outputs.
fn both(
    dir: &Path,
    input: &[u8],
    key: &[u8; 32],
    nonce: &[u8; 12],
    counter: u32,
) -> (Vec<u8>, Vec<u8>) {
    let plain = dir.join("plain");
    let ours = dir.join("ours");
    let theirs = dir.join("theirs");
    std::fs::write(&plain, input).expect("write input");
    let _ = std::fs::remove_file(&ours);
    let iv = [&counter.to_le_bytes()[..], nonce].concat();
    run_ok(
        Command::new("openssl")
            .args(["enc", "-chacha20", "-K", &hex(key), "-iv", &hex(&iv), "-in"])
            .arg(&plain)
            .arg("-out")
            .arg(&theirs),
        "openssl enc -chacha20",
    );
    run_ok(
        Command::new(BIN)
            .args([
                "stream",
                "--cipher",
                "chacha20",
                "--key",
                &hex(key),
                "--nonce",
                &hex(nonce),
            ])
            .args(["--counter", &counter.to_string(), "-i"])
            .arg(&plain)
            .arg("-o")
            .arg(&ours),
        "simdcrypt stream",
    );
    (
        std::fs::read(&ours).expect("our output"),
        std::fs::read(&theirs).expect("openssl's output"),
    )
}

#[test]
fn stream_chacha20_equals_openssl_enc_chacha20() {
    if !openssl_has_chacha20() {
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let key: [u8; 32] = std::array::from_fn(|i| (i * 7 + 3) as u8);
    let nonce: [u8; 12] = std::array::from_fn(|i| (0xa0 + i) as u8);
    // Around every batch width (1, 4, 8 and 16 blocks), odd sizes, 1 MiB.
    let lengths: Vec<usize> = [64, 256, 512, 1024]
        .iter()
        .flat_map(|&n| [n - 1, n, n + 1])
        .chain([0, 1, 4097, 100_003, 1 << 20, (5 << 20) + 7])
        .collect();
    // Counters: 0, 1 (the AEAD's), one that walks the low byte's carry, and
    // one whose run ends at exactly the last block the 32-bit counter has.
    let counters = [0u32, 1, 255, 0x7fff_ffff, u32::MAX - 15];
    for (i, &len) in lengths.iter().enumerate() {
        for &counter in &counters {
            if u64::from(counter) * 64 + len as u64 > (1 << 38) {
                continue;
            }
            let input = bytes(i as u64, len);
            let (ours, theirs) = both(dir.path(), &input, &key, &nonce, counter);
            assert!(
                ours == theirs,
                "{len} bytes at counter {counter}: outputs differ"
            );
        }
    }
}

#[test]
fn the_last_block_of_the_32_bit_counter() {
    if !openssl_has_chacha20() {
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let key = [0x5a; 32];
    let nonce = [0x01; 12];
    let (ours, theirs) = both(dir.path(), &bytes(9, 64), &key, &nonce, u32::MAX);
    assert_eq!(ours, theirs, "block 2^32 - 1");
    // One byte more would need block 2^32, which RFC 8439's 32-bit counter
    // cannot address (OpenSSL carries into the nonce's first word, the
    // keystream of another nonce); simdcrypt refuses and writes nothing.
    let plain = dir.path().join("long");
    std::fs::write(&plain, bytes(9, 65)).expect("write");
    let out = Command::new(BIN)
        .args([
            "stream",
            "--cipher",
            "chacha20",
            "--key",
            &hex(&key),
            "--nonce",
            &hex(&nonce),
        ])
        .args(["--counter", &u32::MAX.to_string(), "-i"])
        .arg(&plain)
        .arg("-o")
        .arg(dir.path().join("refused"))
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("keystream exhausted"));
    assert!(!dir.path().join("refused").exists());
}
