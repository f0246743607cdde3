//! With the `testkit` feature: embeds the age testkit's vectors
//! (`tests/data/testkit/*`) as `$OUT_DIR/testkit_files.rs`, a slice of
//! `(file name, include_bytes!(absolute path))` pairs sorted by name, so
//! that `simdcrypt_age::testkit` carries them wherever it is compiled.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    if std::env::var_os("CARGO_FEATURE_TESTKIT").is_none() {
        return;
    }
    let manifest = std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let dir = Path::new(&manifest).join("tests/data/testkit");
    // A directory: cargo reruns this script when any file in it changes,
    // appears or goes.
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files: Vec<(String, PathBuf)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("the testkit vectors in {}: {e}", dir.display()))
        .map(|entry| {
            let entry = entry.unwrap_or_else(|e| panic!("listing {}: {e}", dir.display()));
            (
                entry.file_name().to_string_lossy().into_owned(),
                entry.path(),
            )
        })
        .filter(|(_, path)| path.is_file())
        .collect();
    files.sort();
    let mut out = String::from("&[\n");
    for (name, path) in &files {
        let path = path
            .to_str()
            .unwrap_or_else(|| panic!("the testkit path {} is not UTF-8", path.display()));
        writeln!(out, "    ({name:?}, include_bytes!({path:?})),").expect("writing to a String");
    }
    out.push_str("]\n");
    let out_dir = std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR");
    let target = Path::new(&out_dir).join("testkit_files.rs");
    std::fs::write(&target, out).unwrap_or_else(|e| panic!("writing {}: {e}", target.display()));
}
