//! What every primitive's tests share. The checking kit's core
//! (`simdcrypt::kit`, `src/harness/`) gives the seeded generator [`Rng`],
//! the edge lengths [`BLOCK_EDGES`] and the vector-file helpers
//! [`vectors`]; this module re-exports them and adds what only the tests
//! need: panicking forms of the kit's hex and vector readers, the counters
//! where carries happen, the guard byte around an output, the rungs a test
//! runs on, and the stream API's tests. (The tests of `simdcrypt-age` and
//! `simdcrypt-cli` share `crates/simdcrypt-testsupport`; docs/testing.md
//! says where each helper lives.)
// Each test binary uses its own part of this module.
#![allow(dead_code, unused_macros, unused_imports)]

// The 16-byte block ciphers in RustCrypto's traits.
#[cfg(feature = "rustcrypto")]
pub mod block;
pub mod chacha20;
pub mod hash;
// The checking kit's tests.
#[cfg(feature = "kit")]
pub mod kit;
pub mod poly1305;

#[cfg(feature = "kit")]
pub use simdcrypt::kit::{BLOCK_EDGES, Rng, vectors};

// Without the `kit` feature (`cargo test -p simdcrypt`, as a dependent
// builds the library) there is no `simdcrypt::kit`: the same files of the
// kit's core are compiled here instead, so that the tests draw the same
// bytes and lengths either way. Both need nothing of the library.
#[cfg(not(feature = "kit"))]
#[path = "../../src/harness/rng.rs"]
mod rng;
#[cfg(not(feature = "kit"))]
pub use rng::{BLOCK_EDGES, Rng};
#[cfg(not(feature = "kit"))]
#[path = "../../src/harness/vectors.rs"]
pub mod vectors;

/// `len` bytes of the kit's generator seeded with `seed`: made-up keys,
/// nonces and messages, the same on every run.
pub fn bytes(seed: u64, len: usize) -> Vec<u8> {
    Rng::new(seed).bytes(len)
}

/// Block counters where carries happen: "carry bugs in tricky SIMD code"
/// live at 2^32 − 1 and below 2^64.
pub const EDGE_COUNTERS: &[u64] = &[
    0,
    1,
    (1 << 32) - 1,
    (1 << 32) - 3,
    (1 << 32) - 17,
    (1 << 32) - 33,
    i32::MAX as u64,
    u64::MAX - 100,
];

/// The kit's [`vectors::hex`] (either case); panics on bad input, which
/// in a test is a bad vector file.
pub fn hex(s: &str) -> Vec<u8> {
    vectors::hex(s).unwrap_or_else(|| panic!("bad hex: {s}"))
}

/// [`hex`] into a fixed-size array.
pub fn hex_array<const N: usize>(s: &str) -> [u8; N] {
    hex(s)
        .try_into()
        .unwrap_or_else(|v: Vec<u8>| panic!("expected {N} bytes, got {}", v.len()))
}

/// The rungs of `I` this CPU runs, saying in the log which ones `test`
/// exercised and which it skipped (the CPU lacks them or
/// `SIMDCRYPT_MAX_ISA` caps them).
pub fn rungs<I: simdcrypt::RungSet>(test: &str) -> Vec<I> {
    let names = |available: bool| {
        I::all()
            .iter()
            .filter(|i| i.is_available() == available)
            .map(|i| i.name())
            .collect::<Vec<_>>()
    };
    eprintln!(
        "{test}: {} rungs exercised {:?}, skipped (CPU or SIMDCRYPT_MAX_ISA) {:?}",
        I::PRIMITIVE,
        names(true),
        names(false)
    );
    I::all()
        .iter()
        .copied()
        .filter(|i| i.is_available())
        .collect()
}

/// [`rungs`] that a program may choose: every one under `hazmat`, the
/// constant-time ones without it.
pub fn choosable_rungs<I: simdcrypt::RungSet>(test: &str) -> Vec<I> {
    rungs::<I>(test)
        .into_iter()
        .filter(|i| cfg!(feature = "hazmat") || i.is_constant_time())
        .collect()
}

/// The byte around an out-of-place output that nothing may write (the
/// kit's stream checks guard theirs with the same byte).
pub const GUARD: u8 = 0xa5;

/// `f(input, output)` with `data` as the input and an `out_len`-byte output
/// (filled with [`GUARD`]), `in_shift` and `out_shift` bytes past the
/// start of their own allocations; panics if anything is written outside
/// the output slice or the input changes. Returns the output.
pub fn into_buffer(
    data: &[u8],
    in_shift: usize,
    out_shift: usize,
    out_len: usize,
    f: impl FnOnce(&[u8], &mut [u8]),
) -> Vec<u8> {
    let input = [&vec![0x5a; in_shift][..], data].concat();
    let mut output = vec![GUARD; out_shift + out_len + 7];
    f(
        &input[in_shift..],
        &mut output[out_shift..out_shift + out_len],
    );
    assert!(
        output[..out_shift].iter().all(|&b| b == GUARD)
            && output[out_shift + out_len..].iter().all(|&b| b == GUARD),
        "written outside the output"
    );
    assert_eq!(&input[in_shift..], data, "the input changed");
    output[out_shift..out_shift + out_len].to_vec()
}

/// A vector file's text as JSON; panics on a bad file (where the kit's
/// [`vectors::parse`] gives `Null`).
pub fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).expect("vector file is JSON")
}

/// The list `v[key]` of a vector file, as the kit reads it
/// ([`vectors::records`]); panics if there is none.
pub fn records<'a>(v: &'a serde_json::Value, key: &str) -> &'a [serde_json::Value] {
    let list = vectors::records(v, key);
    assert!(!list.is_empty(), "no `{key}` records");
    list
}

/// The string `v[key]` of a vector record.
pub fn field<'a>(v: &'a serde_json::Value, key: &str) -> &'a str {
    v[key]
        .as_str()
        .unwrap_or_else(|| panic!("no `{key}` string in {v}"))
}

/// The number `v[key]` of a vector record, as the kit reads it
/// ([`vectors::number_field`]).
pub fn number(v: &serde_json::Value, key: &str) -> u64 {
    vectors::number_field(v, key).unwrap_or_else(|| panic!("no `{key}` number in {v}"))
}

/// The tests of the stream API every cipher type shares through one macro
/// in the library (`with_rung`, and the `KeyStream` methods `seek`,
/// `apply_keystream`, `xor_into`): calls resume at any byte, in place and
/// out of place alike, and `xor_into` equals `apply_keystream`.
/// `$new` is a closure from a rung to a fresh cipher on it; `$rungs(test)`
/// lists the rungs this CPU runs.
macro_rules! stream_api_tests {
    ($new:expr, $rungs:expr) => {
        #[test]
        fn calls_resume_at_any_byte() {
            for imp in ($rungs)("calls_resume_at_any_byte") {
                let new = || ($new)(imp);
                let mut whole = $crate::common::bytes(1, 75);
                new().apply_keystream(&mut whole).unwrap();
                let mut parts = $crate::common::bytes(1, 75);
                let mut c = new();
                let (a, b) = parts.split_at_mut(5);
                c.apply_keystream(a).unwrap();
                c.apply_keystream(b).unwrap();
                assert_eq!(parts, whole, "{imp}: 5 + 70 bytes");
                // Byte by byte, then in odd chunks up to 1000 bytes.
                let data = $crate::common::bytes(2, 3000);
                let mut want = data.clone();
                new().apply_keystream(&mut want).unwrap();
                for chunk in [1, 3, 5, 63, 64, 65, 100, 255, 256, 1000] {
                    let mut got = data.clone();
                    let mut c = new();
                    for piece in got.chunks_mut(chunk) {
                        c.apply_keystream(piece).unwrap();
                    }
                    assert_eq!(got, want, "{imp}: chunks of {chunk}");
                }
            }
        }

        #[test]
        fn xor_into_equals_apply_keystream() {
            for imp in ($rungs)("xor_into_equals_apply_keystream") {
                let new = || ($new)(imp);
                for len in [0, 1, 63, 64, 65, 4095, 4096, 4097, 10_000] {
                    let input = $crate::common::bytes(len as u64, len);
                    let mut want = input.clone();
                    let mut c = new();
                    c.seek(17).unwrap();
                    c.apply_keystream(&mut want).unwrap();
                    let mut got = vec![0u8; len];
                    let mut c = new();
                    c.seek(17).unwrap();
                    c.xor_into(&input, &mut got).unwrap();
                    assert_eq!(got, want, "{imp}, {len} bytes");
                    assert_eq!(c.position(), 17 + len as u128);
                }
                let mut out = [0u8; 3];
                let err = new().xor_into(&[0u8; 4], &mut out).unwrap_err();
                assert_eq!(
                    err,
                    simdcrypt::Error::LengthMismatch {
                        input: 4,
                        output: 3
                    }
                );
                assert_eq!(out, [0; 3], "{imp}: nothing written");
            }
        }

        /// Out-of-place calls resume at any byte like in-place ones, and
        /// mix with them; through the trait too (`dyn KeyStream`).
        #[test]
        fn xor_into_resumes_and_mixes_with_apply_keystream() {
            use simdcrypt::KeyStream;
            for imp in ($rungs)("xor_into_resumes_and_mixes_with_apply_keystream") {
                let new = || ($new)(imp);
                let data = $crate::common::bytes(3, 2500);
                let mut want = data.clone();
                new().apply_keystream(&mut want).unwrap();
                for chunk in [1, 7, 64, 65, 511, 1000] {
                    let mut c = new();
                    let cipher: &mut dyn KeyStream = &mut c;
                    let mut got = vec![0u8; data.len()];
                    for (i, (input, output)) in
                        data.chunks(chunk).zip(got.chunks_mut(chunk)).enumerate()
                    {
                        if i % 2 == 0 {
                            cipher.xor_into(input, output).unwrap();
                        } else {
                            output.copy_from_slice(input);
                            cipher.apply_keystream(output).unwrap();
                        }
                    }
                    assert_eq!(got, want, "{imp}: chunks of {chunk}");
                    assert_eq!(cipher.position(), data.len() as u128);
                    assert_eq!(cipher.block_len(), 64);
                }
            }
        }
    };
}
pub(crate) use stream_api_tests;

/// `c` at the end of its keystream: there, an empty call passes and one
/// byte more is refused.
pub fn exhausted(c: &mut dyn simdcrypt::KeyStream, what: &str) {
    assert_eq!(c.position(), c.keystream_len(), "{what}: at the end");
    c.apply_keystream(&mut []).unwrap();
    assert!(
        matches!(
            c.apply_keystream(&mut [0u8; 1]),
            Err(simdcrypt::Error::KeystreamExhausted { .. })
        ),
        "{what}: one byte past the end"
    );
}
