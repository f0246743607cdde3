//! One scrypt derivation in a fresh process, as a file-encryption tool or a
//! command-line login makes it: `scrypt_once CONTENDER LOG_N` with
//! CONTENDER one of `simdcrypt`, `rustcrypto`, `libsodium`, `openssl`
//! (r = 8, p = 1, 64 bytes out). Time many runs from the shell, e.g.
//!
//! ```sh
//! cargo build --release -p simdcrypt-bench --example scrypt_once
//! time (for i in $(seq 20); do target/release/examples/scrypt_once simdcrypt 14; done)
//! ```
//!
//! It prints the first bytes of the derived key, so that the contenders
//! can be seen to agree.

use simdcrypt_bench::peers;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(who), Some(log_n)) = (args.get(1), args.get(2).and_then(|n| n.parse().ok())) else {
        eprintln!("usage: scrypt_once simdcrypt|rustcrypto|libsodium|openssl LOG_N");
        std::process::exit(2);
    };
    let (password, salt) = (b"pleaseletmein".as_slice(), b"SodiumChloride".as_slice());
    let mut out = [0u8; 64];
    match who.as_str() {
        "simdcrypt" => {
            simdcrypt::kdf::scrypt(password, salt, log_n, 8, 1, &mut out).expect("valid parameters")
        }
        "rustcrypto" => peers::rustcrypto::scrypt(password, salt, log_n, 8, 1, &mut out),
        "libsodium" => peers::libsodium::scrypt(password, salt, log_n, 8, 1, &mut out),
        "openssl" => peers::openssl::scrypt(password, salt, log_n, 8, 1, &mut out),
        other => {
            eprintln!("unknown contender {other:?}");
            std::process::exit(2);
        }
    }
    println!("{:02x?}", &out[..8]);
}
