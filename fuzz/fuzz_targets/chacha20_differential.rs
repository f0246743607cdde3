//! Differential fuzzing through the checking kit: every ChaCha20 rung
//! against RFC 8439's own functions (`kit::cases::stream`), at
//! fuzzer-chosen keys, nonces, starting bytes (near the 2^32 carry of the
//! original form, the end of RFC 8439's 2^32 blocks, and past it too),
//! lengths and split points, all three forms, in place and out of place,
//! both XOR forms.
#![no_main]

mod stream_case;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: &[u8]| {
    stream_case::run(&["chacha20", "chacha20-legacy", "xchacha20"], input);
});
