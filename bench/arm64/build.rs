//! Links Debian's arm64 libsodium, unpacked by ./count into the directory
//! `SODIUM_LIB_DIR` names.

fn main() {
    println!("cargo:rerun-if-env-changed=SODIUM_LIB_DIR");
    let dir = std::env::var("SODIUM_LIB_DIR").expect("SODIUM_LIB_DIR: run ./count");
    println!("cargo:rustc-link-search=native={dir}");
    println!("cargo:rustc-link-lib=static=sodium");
}
