//! The library's dependencies point one way (docs/architecture.md): the
//! types of the table and shared helpers at the bottom, the families in the
//! middle, the registry and the kit's runner at the top. A top-level module
//! A depends on B when A's code names `crate::B` (or `$crate::B` in a
//! macro): in a `use`, a grouped `crate::{…}` or inline; code under
//! `cfg(feature = …)` counts, comments, strings and `#[cfg(test)]` items do
//! not, and a name the crate root re-exports (`crate::Error`) counts as
//! its defining module. Two or more modules that reach each other form a
//! cycle, which fails this test; a fixture tree with a cycle shows that the
//! check finds one.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The dependency graph of the crate whose sources are under `src`: each
/// top-level module (the crate root left out) and the modules it names.
fn graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let root = fs::read_to_string(src.join("lib.rs")).expect("lib.rs");
    let mut modules = BTreeMap::new();
    for entry in fs::read_dir(src).expect("src/") {
        let path = entry.expect("an entry").path();
        let name = path.file_stem().and_then(|n| n.to_str()).expect("a name");
        if path.is_dir() || (path.extension().is_some_and(|e| e == "rs") && name != "lib") {
            modules.insert(name.to_owned(), files(&path));
        }
    }
    let reexports = reexports(&root);
    let mut edges = BTreeMap::new();
    for (module, paths) in &modules {
        let mut to = BTreeSet::new();
        for file in paths {
            let text = code(&fs::read_to_string(file).expect("a source file"));
            for name in crate_names(&text) {
                let target = reexports.get(&name).cloned().unwrap_or(name);
                if target != *module && modules.contains_key(&target) {
                    to.insert(target);
                }
            }
        }
        edges.insert(module.clone(), to);
    }
    edges
}

/// The `.rs` files of a module: the file, or every file under the folder.
fn files(path: &Path) -> Vec<PathBuf> {
    if path.is_file() {
        return vec![path.to_owned()];
    }
    let mut found = Vec::new();
    for entry in fs::read_dir(path).expect("a module folder") {
        let p = entry.expect("an entry").path();
        if p.is_dir() {
            found.extend(files(&p));
        } else if p.extension().is_some_and(|e| e == "rs") {
            found.push(p);
        }
    }
    found
}

/// The names the crate root re-exports (`pub use error::Error;`) and the
/// modules that define them.
fn reexports(root: &str) -> BTreeMap<String, String> {
    let mut map = BTreeMap::new();
    let code = code(root);
    for statement in code.split(';') {
        let Some(path) = statement.trim().strip_prefix("pub use ") else {
            continue;
        };
        let path = path.trim().trim_start_matches("crate::");
        let Some((module, rest)) = path.split_once("::") else {
            continue;
        };
        for leaf in leaves(rest) {
            let name = leaf.rsplit(" as ").next().unwrap_or(leaf);
            let name = name.rsplit("::").next().unwrap_or(name).trim();
            map.insert(name.to_owned(), module.trim().to_owned());
        }
    }
    map
}

/// The items of a `use` tree (`{a, b::{c, d}}` or `a`) at its top level.
fn leaves(tree: &str) -> Vec<&str> {
    let tree = tree.trim();
    let Some(inner) = tree.strip_prefix('{').and_then(|t| t.strip_suffix('}')) else {
        return vec![tree];
    };
    let mut items = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(inner[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    items.push(inner[start..].trim());
    items.retain(|i| !i.is_empty());
    items
}

/// The first segment of every `crate::` path in `code` (each item's, for a
/// grouped `crate::{…}`).
fn crate_names(code: &str) -> Vec<String> {
    let mut names = Vec::new();
    let bytes = code.as_bytes();
    let mut at = 0;
    while let Some(found) = code[at..].find("crate::") {
        let start = at + found;
        at = start + "crate::".len();
        // `crate::` inside a longer word (`mycrate::`) is not the crate.
        let before = start.checked_sub(1).map(|i| bytes[i]);
        if before.is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_') {
            continue;
        }
        let rest = code[at..].trim_start();
        if rest.starts_with('{') {
            let end = matching(rest);
            for item in leaves(&rest[..=end]) {
                names.push(first_segment(item));
            }
        } else {
            names.push(first_segment(rest));
        }
    }
    names.retain(|n| !n.is_empty() && n != "self");
    names
}

/// The identifier `path` starts with.
fn first_segment(path: &str) -> String {
    path.chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect()
}

/// The index of the brace closing the one `text` starts with.
fn matching(text: &str) -> usize {
    let mut depth = 0;
    for (i, c) in text.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return i;
                }
            }
            _ => {}
        }
    }
    text.len() - 1
}

/// `source` without its comments, string and character literals (each
/// left as an empty literal) and `#[cfg(test)]` items.
fn code(source: &str) -> String {
    let chars: Vec<char> = source.chars().collect();
    let mut out = String::with_capacity(source.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if c == 'r' && (next == Some('"') || next == Some('#')) && !ident_before(&chars, i) {
            // A raw string: r"…", r#"…"#.
            let mut j = i + 1;
            let mut hashes = 0;
            while chars.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if chars.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            j += 1;
            while j < chars.len() {
                if chars[j] == '"' && (0..hashes).all(|k| chars.get(j + 1 + k) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            out.push_str("\"\"");
            i = j;
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if c == '\'' && is_char_literal(&chars, i) {
            i += 1;
            while i < chars.len() && chars[i] != '\'' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("' '");
        } else {
            out.push(c);
            i += 1;
        }
    }
    without_test_items(&out)
}

/// Whether the character before index `i` continues an identifier.
fn ident_before(chars: &[char], i: usize) -> bool {
    i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '_')
}

/// Whether the `'` at `i` opens a character literal (`'a'`, `'\n'`), not a
/// lifetime or label (`'a`, `'static`).
fn is_char_literal(chars: &[char], i: usize) -> bool {
    matches!(
        (chars.get(i + 1), chars.get(i + 2)),
        (Some('\\'), _) | (Some(_), Some('\''))
    )
}

/// `code` without the items under `#[cfg(test)]`: a `mod x;`, a `use …;`,
/// or an item with a body in braces.
fn without_test_items(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut rest = code;
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        let item = &rest[at + "#[cfg(test)]".len()..];
        let semi = item.find(';').unwrap_or(item.len());
        let brace = item.find('{').unwrap_or(item.len());
        let end = if semi < brace {
            semi + 1
        } else if brace < item.len() {
            brace + matching(&item[brace..]) + 1
        } else {
            item.len()
        };
        rest = &item[end..];
    }
    out.push_str(rest);
    out
}

/// The strongly connected components of two or more modules (Tarjan's
/// algorithm): each a cycle of dependencies.
fn cycles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct State<'a> {
        edges: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        found: Vec<Vec<String>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a str) {
        let i = s.index.len();
        s.index.insert(v, i);
        s.low.insert(v, i);
        s.stack.push(v);
        for w in &s.edges[v] {
            let w = w.as_str();
            if !s.index.contains_key(w) {
                visit(s, w);
                let lw = s.low[w];
                let lv = s.low.get_mut(v).expect("visited");
                *lv = (*lv).min(lw);
            } else if s.stack.contains(&w) {
                let iw = s.index[w];
                let lv = s.low.get_mut(v).expect("visited");
                *lv = (*lv).min(iw);
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = Vec::new();
            while let Some(w) = s.stack.pop() {
                component.push(w.to_owned());
                if w == v {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort();
                s.found.push(component);
            }
        }
    }
    let mut s = State {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        found: Vec::new(),
    };
    for v in edges.keys() {
        if !s.index.contains_key(v.as_str()) {
            visit(&mut s, v);
        }
    }
    s.found
}

/// Each cycle with the edges inside it, for the failure message.
fn describe(edges: &BTreeMap<String, BTreeSet<String>>, found: &[Vec<String>]) -> String {
    let mut text = String::new();
    for component in found {
        text.push_str(&format!("cycle of {}:\n", component.join(", ")));
        for a in component {
            let inside: Vec<&str> = edges[a]
                .iter()
                .filter(|b| component.contains(b))
                .map(String::as_str)
                .collect();
            text.push_str(&format!("  {a} -> {}\n", inside.join(", ")));
        }
    }
    text
}

#[test]
fn the_library_has_no_import_cycle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let edges = graph(&src);
    assert!(edges.len() > 10, "the modules were found: {edges:?}");
    let found = cycles(&edges);
    assert!(found.is_empty(), "{}", describe(&edges, &found));
}

/// The positive control: a fixture crate whose modules a → b → c → a form a
/// cycle, through a grouped `use`, an inline path and a root re-export,
/// must be reported; its edges in comments, strings, `#[cfg(test)]` items
/// and longer words (d → a) must not.
#[test]
fn a_fixture_with_a_cycle_is_reported() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/layers/src");
    let edges = graph(&src);
    let found = cycles(&edges);
    assert_eq!(
        found,
        [vec!["a".to_owned(), "b".to_owned(), "c".to_owned()]],
        "{}",
        describe(&edges, &found)
    );
    assert!(
        edges["d"].is_empty(),
        "d names a only where it does not count"
    );
    assert!(edges["a"].contains("d"), "a -> d through the inline path");
}
