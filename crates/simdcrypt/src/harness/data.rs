//! The vector files several families read, from the library's own
//! `tests/data/` (see its README for each file's source), parsed once.
//! A family's own files are included beside its checks.

use std::sync::OnceLock;

use serde_json::Value;

use super::vectors::parse;

const SALSA20_SPEC: &str = include_str!("../../tests/data/salsa20/salsa20_spec.json");
const SALSA20_ESTREAM: &str = include_str!("../../tests/data/salsa20/salsa20_estream_subset.json");
const NACL: &str = include_str!("../../tests/data/salsa20/xsalsa20_nacl.json");
const RFC7914: &str = include_str!("../../tests/data/salsa20/salsa20_8_rfc7914.json");
const FIPS180: &str = include_str!("../../tests/data/sha/fips180_examples.json");
const SHA_EXAMPLES: &str = include_str!("../../tests/data/sha/sha2_truncated_examples.json");
const MD5: &str = include_str!("../../tests/data/sha/md5_rfc1321.json");
const RFC8439: &str = include_str!("../../tests/data/rfc8439/rfc8439.json");
const XCHACHA: &str = include_str!("../../tests/data/xchacha/draft-irtf-cfrg-xchacha-03.json");
const WYCHEPROOF_CHACHA: &str =
    include_str!("../../tests/data/wycheproof/chacha20_poly1305_test.json");
const WYCHEPROOF_XCHACHA: &str =
    include_str!("../../tests/data/wycheproof/xchacha20_poly1305_test.json");

/// The vector files, parsed.
pub(crate) struct Data {
    pub(crate) salsa20_spec: Value,
    pub(crate) estream: Value,
    pub(crate) nacl: Value,
    pub(crate) rfc7914: Value,
    pub(crate) rfc8439: Value,
    pub(crate) xchacha: Value,
    pub(crate) wycheproof_chacha: Value,
    pub(crate) wycheproof_xchacha: Value,
    pub(crate) fips180: Value,
    pub(crate) sha_examples: Value,
    pub(crate) md5: Value,
}

/// The files, parsed on first use.
pub(crate) fn data() -> &'static Data {
    static DATA: OnceLock<Data> = OnceLock::new();
    DATA.get_or_init(|| Data {
        salsa20_spec: parse(SALSA20_SPEC),
        estream: parse(SALSA20_ESTREAM),
        nacl: parse(NACL),
        rfc7914: parse(RFC7914),
        rfc8439: parse(RFC8439),
        xchacha: parse(XCHACHA),
        wycheproof_chacha: parse(WYCHEPROOF_CHACHA),
        wycheproof_xchacha: parse(WYCHEPROOF_XCHACHA),
        fips180: parse(FIPS180),
        sha_examples: parse(SHA_EXAMPLES),
        md5: parse(MD5),
    })
}
