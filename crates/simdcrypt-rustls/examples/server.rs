//! A TLS server on simdcrypt's provider: accepts one connection, echoes
//! what it receives until `--bytes N` bytes (or the end of the
//! connection), then closes it.
//!
//! ```text
//! cargo run --example server -- --listen 127.0.0.1:4433 --cert cert.pem --key key.pem \
//!     [--suite TLS13_AES_128_GCM_SHA256] [--bytes 100000]
//! ```
//!
//! Against `openssl s_client -connect 127.0.0.1:4433 -CAfile ca.pem -quiet
//! -ign_eof < file`. The suite negotiated goes to standard error.

mod common;

use std::io::{Read, Write};
use std::net::TcpListener;
use std::sync::Arc;

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use rustls::{ServerConfig, ServerConnection, StreamOwned};

fn main() -> std::process::ExitCode {
    common::run(|| {
        let o = common::options(&["listen", "cert", "key", "suite", "bytes"])?;
        let addr = o.get("listen").ok_or("--listen ADDR:PORT is required")?;
        let cert = o.get("cert").ok_or("--cert FILE (PEM chain) is required")?;
        let key = o.get("key").ok_or("--key FILE (PEM) is required")?;
        let chain = CertificateDer::pem_file_iter(cert)
            .and_then(|certs| certs.collect::<Result<Vec<_>, _>>())
            .map_err(|e| format!("{cert}: {e}"))?;
        let key = PrivateKeyDer::from_pem_file(key).map_err(|e| format!("{key}: {e}"))?;
        let limit: Option<usize> = match o.get("bytes") {
            Some(n) => Some(
                n.parse()
                    .map_err(|_| format!("--bytes {n:?}: expected a number"))?,
            ),
            None => None,
        };
        let provider = common::provider(o.get("suite"))?;
        let versions = common::versions(&provider);
        let mut config = ServerConfig::builder_with_provider(Arc::new(provider))
            .with_protocol_versions(&versions)
            .map_err(|e| e.to_string())?
            .with_no_client_auth()
            .with_single_cert(chain, key)
            .map_err(|e| format!("{cert}: {e}"))?;
        config.ticketer = common::ticketer()?;
        let listener = TcpListener::bind(addr).map_err(|e| format!("{addr}: {e}"))?;
        eprintln!("listening on {addr}");
        let (sock, _) = listener.accept().map_err(|e| format!("{addr}: {e}"))?;
        let conn = ServerConnection::new(Arc::new(config)).map_err(|e| e.to_string())?;
        let mut tls = StreamOwned::new(conn, sock);
        let mut buf = vec![0u8; 1 << 16];
        let mut echoed = 0;
        let mut told = false;
        while limit.is_none_or(|n| echoed < n) {
            let n = match tls.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => break,
                Err(e) => return Err(e.to_string()),
            };
            if !told {
                let suite = tls
                    .conn
                    .negotiated_cipher_suite()
                    .map(|s| format!("{:?}", s.suite()));
                eprintln!("suite {}", suite.unwrap_or_default());
                told = true;
            }
            tls.write_all(&buf[..n]).map_err(|e| e.to_string())?;
            echoed += n;
        }
        tls.conn.send_close_notify();
        tls.flush().map_err(|e| e.to_string())?;
        Ok(())
    })
}
