//! What every primitive's tests share: the table of edge lengths and
//! counters, hex, and vector files.
// Each test binary uses its own part of this module.
#![allow(dead_code, unused_macros, unused_imports)]

pub mod chacha20;
pub mod hash;
// The checking kit's tests.
#[cfg(feature = "kit")]
pub mod kit;
pub mod poly1305;

/// Lengths at the edges of every path: 0–8, a block ± 1, every vector
/// width (4, 8, 16 blocks) ± 1, and "16 + 8 + 4 + 2 + 1" blocks plus a few
/// bytes, which walks a whole wide-to-narrow tail cascade.
pub const EDGE_LENGTHS: &[usize] = &[
    0,
    1,
    2,
    3,
    4,
    5,
    6,
    7,
    8,
    15,
    16,
    17,
    31,
    32,
    33,
    63,
    64,
    65,
    127,
    128,
    129,
    191,
    192,
    193,
    255,
    256,
    257,
    511,
    512,
    513,
    1023,
    1024,
    1025,
    2047,
    2048,
    2049,
    31 * 64 + 5,
    4096 + 64 + 1,
];

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

/// Decodes hex (either case); panics on bad input, which in a test is a bad
/// vector file.
pub fn hex(s: &str) -> Vec<u8> {
    assert!(s.len().is_multiple_of(2), "odd hex length: {s}");
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap_or_else(|_| panic!("bad hex: {s}")))
        .collect()
}

/// `hex` into a fixed-size array.
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

/// A deterministic filler: `len` bytes from a seed (splitmix64).
pub fn bytes(seed: u64, len: usize) -> Vec<u8> {
    let mut s = seed;
    (0..len)
        .map(|_| {
            s = s.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = s;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            (z ^ (z >> 31)) as u8
        })
        .collect()
}

/// The byte around an out-of-place output that nothing may write.
pub const CANARY: u8 = 0xa5;

/// `f(input, output)` with `data` as the input and an `out_len`-byte output
/// (filled with [`CANARY`]), `in_shift` and `out_shift` bytes past the
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
    let mut output = vec![CANARY; out_shift + out_len + 7];
    f(
        &input[in_shift..],
        &mut output[out_shift..out_shift + out_len],
    );
    assert!(
        output[..out_shift].iter().all(|&b| b == CANARY)
            && output[out_shift + out_len..].iter().all(|&b| b == CANARY),
        "written outside the output"
    );
    assert_eq!(&input[in_shift..], data, "the input changed");
    output[out_shift..out_shift + out_len].to_vec()
}

/// A vector file's text as JSON; panics on a bad file.
pub fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).expect("vector file is JSON")
}

/// The list `v[key]` of a vector file.
pub fn records<'a>(v: &'a serde_json::Value, key: &str) -> &'a [serde_json::Value] {
    v[key]
        .as_array()
        .unwrap_or_else(|| panic!("no `{key}` list"))
}

/// The string `v[key]` of a vector record.
pub fn field<'a>(v: &'a serde_json::Value, key: &str) -> &'a str {
    v[key]
        .as_str()
        .unwrap_or_else(|| panic!("no `{key}` string in {v}"))
}

/// The number `v[key]` of a vector record.
pub fn number(v: &serde_json::Value, key: &str) -> u64 {
    v[key]
        .as_u64()
        .unwrap_or_else(|| panic!("no `{key}` number in {v}"))
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
