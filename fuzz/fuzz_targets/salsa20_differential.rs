//! Differential fuzzing through the checking kit: every Salsa20 rung
//! against the specification's own functions (`kit::cases::stream`), at
//! fuzzer-chosen keys (32 and 16 bytes), nonces, starting bytes (near the
//! 2^31, 2^32 and 2^64 carries and past the end too), lengths, split
//! points and round counts, in place and out of place, both XOR forms.
#![no_main]

mod stream_case;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: &[u8]| {
    stream_case::run(&["salsa20", "salsa20/12", "salsa20/8", "xsalsa20"], input);
});
