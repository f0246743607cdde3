//! Every declassification point is listed in docs/constant-time.md, at its
//! file and line, and every line the list names holds one: a value made
//! public by `ct::declassify` (or `declassify_bytes`) is a claim that the
//! secret may decide it, and the claims are reviewed from that list.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

/// The repository's root (this crate is `crates/simdcrypt`).
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The `.rs` files under `dir`, recursively.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("a source dir") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `file:line` of every call of `declassify` in the library crates'
/// sources (`ct.rs`, which defines them, left out; comments too).
fn calls() -> BTreeSet<String> {
    let root = root();
    let mut found = BTreeSet::new();
    for krate in ["simdcrypt", "simdcrypt-age"] {
        let mut files = Vec::new();
        sources(&root.join("crates").join(krate).join("src"), &mut files);
        for file in files {
            if file.ends_with("simdcrypt/src/ct.rs") {
                continue;
            }
            let text = fs::read_to_string(&file).expect("a source file");
            let relative = file.strip_prefix(&root).expect("under the root");
            for (i, line) in text.lines().enumerate() {
                let code = line.split("//").next().unwrap_or("");
                if code.contains("ct::declassify") {
                    found.insert(format!("{}:{}", relative.display(), i + 1));
                }
            }
        }
    }
    found
}

/// `file:line` of every row of the list in docs/constant-time.md.
fn listed() -> BTreeSet<String> {
    let doc = fs::read_to_string(root().join("docs/constant-time.md")).expect("the doc");
    doc.lines()
        .filter_map(|line| line.strip_prefix("| `"))
        .filter_map(|rest| rest.split('`').next())
        .filter(|place| place.contains(".rs:"))
        .map(str::to_owned)
        .collect()
}

#[test]
fn every_declassification_point_is_listed_where_it_is() {
    let calls = calls();
    let listed = listed();
    assert!(
        !calls.is_empty(),
        "no declassify call found: is the search right?"
    );
    let unlisted: Vec<_> = calls.difference(&listed).collect();
    let stale: Vec<_> = listed.difference(&calls).collect();
    assert!(
        unlisted.is_empty() && stale.is_empty(),
        "docs/constant-time.md's list of declassification points is out of date:\n\
         calls not listed: {unlisted:?}\nlisted lines without a call: {stale:?}"
    );
}
