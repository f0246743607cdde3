//! Reading the vector files: JSON records with hex fields, Wycheproof's
//! test groups, words written in hex.

use serde_json::Value;

/// The JSON text of a vector file, parsed; `Null` (no records, so a vector
/// check fails) if it does not parse.
pub fn parse(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or(Value::Null)
}

/// The bytes written as `text` in hex (either case), or `None`.
pub fn hex(text: &str) -> Option<Vec<u8>> {
    let digits: Vec<u8> = text
        .chars()
        .map(|c| c.to_digit(16).map(|d| d as u8))
        .collect::<Option<_>>()?;
    if !digits.len().is_multiple_of(2) {
        return None;
    }
    Some(digits.chunks_exact(2).map(|p| p[0] << 4 | p[1]).collect())
}

/// The records `key` of `v`: an array of them, or a single one (an
/// object); none if there is no such field.
pub fn records<'a>(v: &'a Value, key: &str) -> &'a [Value] {
    match &v[key] {
        Value::Array(list) => list,
        one @ Value::Object(_) => std::slice::from_ref(one),
        _ => &[],
    }
}

/// The hex field `key` of `v`, decoded.
pub fn hex_field(v: &Value, key: &str) -> Option<Vec<u8>> {
    v[key].as_str().and_then(hex)
}

/// A hex field of exactly `N` bytes.
pub fn hex_array<const N: usize>(v: &Value, key: &str) -> Option<[u8; N]> {
    hex_field(v, key).and_then(|b| b.try_into().ok())
}

/// A number written as a decimal string or a JSON number.
pub fn number_field(v: &Value, key: &str) -> Option<u64> {
    v[key]
        .as_u64()
        .or_else(|| v[key].as_str().and_then(|s| s.parse().ok()))
}

/// A record's name for messages.
pub fn label(v: &Value) -> String {
    let name = ["name", "section", "comment"]
        .iter()
        .find_map(|k| v[*k].as_str())
        .unwrap_or("record");
    let name: String = name.chars().take(60).collect();
    match v["tcId"].as_u64() {
        Some(id) => format!("tcId {id} ({name})"),
        None => name,
    }
}

/// The test cases of a Wycheproof file, all groups together.
pub fn wycheproof_tests(file: &Value) -> impl Iterator<Item = &Value> {
    records(file, "testGroups")
        .iter()
        .flat_map(|g| records(g, "tests"))
}

/// Compares a result with the expected bytes.
pub fn same(got: &Result<Vec<u8>, String>, want: &[u8]) -> bool {
    matches!(got, Ok(g) if g == want)
}

/// 16 little-endian words from 64 bytes.
pub fn words_le(bytes: &[u8]) -> Option<[u32; 16]> {
    let (words, rest) = bytes.as_chunks::<4>();
    if words.len() != 16 || !rest.is_empty() {
        return None;
    }
    Some(std::array::from_fn(|i| u32::from_le_bytes(words[i])))
}

/// The words as little-endian bytes.
pub fn bytes_le(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// Words written as 8-digit hex strings (the round examples of the specs).
pub fn word_list<const N: usize>(v: &Value) -> Option<[u32; N]> {
    let list = v.as_array()?;
    if list.len() != N {
        return None;
    }
    let mut out = [0u32; N];
    for (o, w) in out.iter_mut().zip(list) {
        *o = u32::from_str_radix(w.as_str()?, 16).ok()?;
    }
    Some(out)
}

/// `data ^= keystream`, byte by byte.
pub fn xor_in(data: &mut [u8], keystream: &[u8]) {
    for (d, k) in data.iter_mut().zip(keystream) {
        *d ^= k;
    }
}
