//! The examples against Debian's OpenSSL on 127.0.0.1, every suite both
//! ways: `examples/client` against `openssl s_server -rev`, and `openssl
//! s_client` against `examples/server`, checking the suite negotiated and
//! the bytes in both directions. Needs the `openssl` command.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// OpenSSL's names for each suite: TLS 1.3's `-ciphersuites`, TLS 1.2's
/// `-cipher`.
const SUITES: &[(&str, &str, bool)] = &[
    ("TLS13_AES_128_GCM_SHA256", "TLS_AES_128_GCM_SHA256", true),
    ("TLS13_AES_256_GCM_SHA384", "TLS_AES_256_GCM_SHA384", true),
    (
        "TLS13_CHACHA20_POLY1305_SHA256",
        "TLS_CHACHA20_POLY1305_SHA256",
        true,
    ),
    (
        "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256",
        "ECDHE-ECDSA-AES128-GCM-SHA256",
        false,
    ),
    (
        "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384",
        "ECDHE-ECDSA-AES256-GCM-SHA384",
        false,
    ),
    (
        "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256",
        "ECDHE-ECDSA-CHACHA20-POLY1305",
        false,
    ),
    (
        "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
        "ECDHE-RSA-AES128-GCM-SHA256",
        false,
    ),
    (
        "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
        "ECDHE-RSA-AES256-GCM-SHA384",
        false,
    ),
    (
        "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256",
        "ECDHE-RSA-CHACHA20-POLY1305",
        false,
    ),
];

/// A directory of PEM files: a CA, and an ECDSA and an RSA server
/// certificate for `localhost` under it.
fn pki(dir: &Path) {
    std::fs::create_dir_all(dir).unwrap();
    let ca_key = rcgen::KeyPair::generate_for(&rcgen::PKCS_ECDSA_P256_SHA256).unwrap();
    let mut ca_params = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
    ca_params.distinguished_name = name("simdcrypt-rustls test CA");
    ca_params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
    let ca = ca_params.self_signed(&ca_key).unwrap();
    std::fs::write(dir.join("ca.pem"), ca.pem()).unwrap();
    let issuer = rcgen::Issuer::new(ca_params, ca_key);
    for (file, alg) in [
        ("ecdsa", &rcgen::PKCS_ECDSA_P256_SHA256),
        ("rsa", &rcgen::PKCS_RSA_SHA256),
    ] {
        let key = rcgen::KeyPair::generate_for(alg).unwrap();
        let mut params = rcgen::CertificateParams::new(vec!["localhost".into()]).unwrap();
        params.distinguished_name = name("localhost");
        let cert = params.signed_by(&key, &issuer).unwrap();
        std::fs::write(dir.join(format!("{file}.pem")), cert.pem()).unwrap();
        std::fs::write(dir.join(format!("{file}.key")), key.serialize_pem()).unwrap();
    }
}

/// A distinguished name of one common name (rcgen's default is the same
/// for every certificate, which OpenSSL takes for self-signed).
fn name(cn: &str) -> rcgen::DistinguishedName {
    let mut dn = rcgen::DistinguishedName::new();
    dn.push(rcgen::DnType::CommonName, cn);
    dn
}

/// Waits for `child` up to 30 s, killing it after that: whether it
/// succeeded.
fn finish(mut child: std::process::Child) -> bool {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status.success();
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            return false;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The examples, built now (`cargo test` builds them only when it builds
/// every target): their directory.
fn examples() -> PathBuf {
    let out = Command::new(env!("CARGO"))
        // The test profile: the dependencies `cargo test` built serve.
        .args([
            "build",
            "--quiet",
            "--profile",
            "test",
            "-p",
            "simdcrypt-rustls",
            "--examples",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo");
    assert!(
        out.status.success(),
        "cargo build --examples: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    // This test runs from <target>/debug/deps; the test profile's
    // examples go to <target>/debug/examples.
    let exe = std::env::current_exe().unwrap();
    let target = exe.ancestors().nth(3).unwrap();
    target.join("debug").join("examples")
}

/// A free port on 127.0.0.1.
fn port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Waits until `child`'s stream `out` shows a line starting with `ready`,
/// then hands the reader back with the lines seen.
fn wait_for(
    out: impl Read + Send + 'static,
    ready: &'static str,
) -> std::sync::mpsc::Receiver<String> {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(out).lines() {
            let Ok(line) = line else { return };
            if tx.send(line).is_err() {
                return;
            }
        }
    });
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let line = rx
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
            .unwrap_or_else(|_| panic!("no {ready:?} line"));
        if line.starts_with(ready) {
            return rx;
        }
    }
}

/// The lines still to come from a reader of [`wait_for`]: up to the end
/// of the stream (the child gone), or for 10 s. Read after the child
/// ended, they may still be on their way through the reader's thread.
fn rest(lines: std::sync::mpsc::Receiver<String>) -> Vec<String> {
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut said = Vec::new();
    while let Ok(line) = lines.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
        said.push(line);
    }
    said
}

/// `N` bytes of text lines, as the client example sends them.
fn text(n: usize) -> Vec<u8> {
    const LINE: &[u8] = b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.\n";
    (0..n)
        .map(|i| {
            if i % 64 == 63 || i + 1 == n {
                b'\n'
            } else {
                LINE[i % 64]
            }
        })
        .collect()
}

/// `openssl`, under coreutils' `timeout` so that no run can hang the test.
fn openssl() -> Command {
    let mut c = Command::new("timeout");
    c.args(["60", "openssl"]).stdin(Stdio::null());
    c
}

#[test]
fn every_suite_against_openssl_s_server_and_s_client() {
    let version = openssl()
        .arg("version")
        .output()
        .expect("the `openssl` command (Debian's openssl package)");
    assert!(version.status.success());
    let dir = std::env::temp_dir().join(format!("simdcrypt-rustls-openssl-{}", std::process::id()));
    pki(&dir);
    let file = |n: &str| dir.join(n).to_str().unwrap().to_string();
    let n = 100_000;
    let bin = examples();
    let example = |name: &str| bin.join(name);
    for &(ours, theirs, tls13) in SUITES {
        let key = if ours.contains("_RSA_") {
            "rsa"
        } else {
            "ecdsa"
        };
        let (version, select) = if tls13 {
            ("-tls1_3", "-ciphersuites")
        } else {
            ("-tls1_2", "-cipher")
        };

        // Our client, OpenSSL's server reversing each line.
        let p = port();
        let mut server = openssl()
            .args([
                "s_server",
                "-accept",
                &format!("127.0.0.1:{p}"),
                "-naccept",
                "1",
                "-rev",
                version,
                select,
                theirs,
            ])
            .args([
                "-cert",
                &file(&format!("{key}.pem")),
                "-key",
                &file(&format!("{key}.key")),
            ])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let _ = wait_for(server.stdout.take().unwrap(), "ACCEPT");
        let mut report = server.stderr.take().unwrap();
        let out = Command::new("timeout")
            .arg("60")
            .arg(example("client"))
            .args([
                "--connect",
                &format!("127.0.0.1:{p}"),
                "--server-name",
                "localhost",
                "--ca",
                &file("ca.pem"),
            ])
            .args(["--suite", ours, "--bytes", &n.to_string()])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{ours}: client failed: {err}");
        assert!(
            err.contains(&format!("suite {ours}")),
            "{ours}: client says {err}"
        );
        let reversed: Vec<u8> = text(n)
            .split_inclusive(|&b| b == b'\n')
            .flat_map(|l| {
                let mut l = l[..l.len() - 1].to_vec();
                l.reverse();
                l.push(b'\n');
                l
            })
            .collect();
        assert!(
            out.stdout == reversed,
            "{ours}: {} bytes back from s_server, not the lines reversed",
            out.stdout.len()
        );
        // s_server (one connection) ends with it, and has said its suite.
        assert!(finish(server), "{ours}: s_server did not end");
        let mut said = String::new();
        report.read_to_string(&mut said).unwrap();
        assert!(
            said.lines().any(|l| l == format!("Ciphersuite: {theirs}")),
            "{ours}: s_server said {said}"
        );

        // OpenSSL's client, our echoing server.
        let p = port();
        let mut server = Command::new(example("server"))
            .args([
                "--listen",
                &format!("127.0.0.1:{p}"),
                "--cert",
                &file(&format!("{key}.pem")),
                "--key",
                &file(&format!("{key}.key")),
            ])
            .args(["--suite", ours, "--bytes", &n.to_string()])
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let lines = wait_for(server.stderr.take().unwrap(), "listening");
        let data: Vec<u8> = (0..n).map(|i| b'a' + (i % 26) as u8).collect();
        let mut client = openssl()
            .args([
                "s_client",
                "-connect",
                &format!("127.0.0.1:{p}"),
                "-servername",
                "localhost",
                "-CAfile",
                &file("ca.pem"),
            ])
            .args([
                "-verify_return_error",
                "-quiet",
                "-ign_eof",
                version,
                select,
                theirs,
            ])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        client.stdin.take().unwrap().write_all(&data).unwrap();
        let out = client.wait_with_output().unwrap();
        assert!(out.status.success(), "{ours}: s_client failed");
        assert!(
            out.stdout == data,
            "{ours}: {} bytes echoed back to s_client",
            out.stdout.len()
        );
        assert!(finish(server), "{ours}: our server failed or did not end");
        let said = rest(lines);
        assert!(
            said.iter().any(|l| l == &format!("suite {ours}")),
            "{ours}: our server said {said:?}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
