//! A TLS client on simdcrypt's provider: connects, sends `--bytes N` bytes
//! of text (or standard input), then prints what comes back until `N`
//! bytes (or the end of the connection).
//!
//! ```text
//! cargo run --example client -- --connect 127.0.0.1:4433 --ca ca.pem \
//!     [--server-name localhost] [--suite TLS13_AES_128_GCM_SHA256] [--bytes 100000]
//! ```
//!
//! Against `openssl s_server -accept 4433 -cert cert.pem -key key.pem -rev`
//! (which answers each line reversed). The suite negotiated goes to
//! standard error.

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::Arc;

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName};
use rustls::{ClientConfig, ClientConnection, RootCertStore, StreamOwned};

/// `N` bytes of text: lines of 63 letters and digits and a newline (what
/// `openssl s_server -rev` answers line by line).
pub fn text(n: usize) -> Vec<u8> {
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

fn main() -> std::process::ExitCode {
    common::run(|| {
        let o = common::options(&["connect", "ca", "server-name", "suite", "bytes"])?;
        let addr = o.get("connect").ok_or("--connect HOST:PORT is required")?;
        let ca = o.get("ca").ok_or("--ca FILE (PEM) is required")?;
        let mut roots = RootCertStore::empty();
        for cert in CertificateDer::pem_file_iter(ca).map_err(|e| format!("{ca}: {e}"))? {
            roots
                .add(cert.map_err(|e| format!("{ca}: {e}"))?)
                .map_err(|e| format!("{ca}: {e}"))?;
        }
        let provider = common::provider(o.get("suite"))?;
        let versions = common::versions(&provider);
        let config = ClientConfig::builder_with_provider(Arc::new(provider))
            .with_protocol_versions(&versions)
            .map_err(|e| e.to_string())?
            .with_root_certificates(roots)
            .with_no_client_auth();
        let host = o.get("server-name").cloned().unwrap_or_else(|| {
            addr.rsplit_once(':')
                .map_or(addr.clone(), |(h, _)| h.to_string())
        });
        let name =
            ServerName::try_from(host.clone()).map_err(|e| format!("server name {host:?}: {e}"))?;
        let conn = ClientConnection::new(Arc::new(config), name).map_err(|e| e.to_string())?;
        let sock = TcpStream::connect(addr).map_err(|e| format!("{addr}: {e}"))?;
        let mut tls = StreamOwned::new(conn, sock);
        let data = match o.get("bytes") {
            Some(n) => text(
                n.parse()
                    .map_err(|_| format!("--bytes {n:?}: expected a number"))?,
            ),
            None => {
                let mut d = Vec::new();
                std::io::stdin()
                    .read_to_end(&mut d)
                    .map_err(|e| format!("standard input: {e}"))?;
                d
            }
        };
        tls.write_all(&data).map_err(|e| format!("{addr}: {e}"))?;
        tls.flush().map_err(|e| format!("{addr}: {e}"))?;
        let suite = tls
            .conn
            .negotiated_cipher_suite()
            .map(|s| format!("{:?}", s.suite()));
        eprintln!("suite {}", suite.unwrap_or_default());
        let mut out = vec![0u8; data.len()];
        let mut got = 0;
        while got < out.len() {
            match tls.read(&mut out[got..]) {
                Ok(0) => break,
                Ok(n) => got += n,
                Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => break,
                Err(e) => return Err(format!("{addr}: {e}")),
            }
        }
        std::io::stdout()
            .write_all(&out[..got])
            .map_err(|e| format!("standard output: {e}"))?;
        tls.conn.send_close_notify();
        let _ = tls.flush();
        Ok(())
    })
}
