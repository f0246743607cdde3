//! What the `simdcrypt` tool parses, as a library: the parsing of keys,
//! IVs and nonces from the command line (`key`) and the tool's errors
//! (`error`), so that the fuzz targets (`fuzz/fuzz_targets/cli_parsing.rs`)
//! reach them. The tool itself is the binary `simdcrypt` of this package;
//! it is not for use as a library otherwise.

pub mod error;
pub mod key;
