//! Links the system libsodium and libgcrypt for the `peers::libsodium` and
//! `peers::libgcrypt` wrappers, and declares the `aes_force_soft` cfg that
//! RustCrypto's `aes` reads.
//!
//! The libraries are found on the linker's default path (Debian and
//! Ubuntu: `apt-get install libsodium-dev libgcrypt20-dev`);
//! `SODIUM_LIB_DIR` adds a directory for a libsodium installed elsewhere.

fn main() {
    // benches/aes_soft.rs names RustCrypto's AES after this flag of `aes`.
    println!("cargo::rustc-check-cfg=cfg(aes_force_soft)");
    println!("cargo:rerun-if-env-changed=SODIUM_LIB_DIR");
    if let Some(dir) = std::env::var_os("SODIUM_LIB_DIR") {
        println!("cargo:rustc-link-search=native={}", dir.to_string_lossy());
    }
    println!("cargo:rustc-link-lib=sodium");
    println!("cargo:rustc-link-lib=gcrypt");
}
