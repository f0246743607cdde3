//! What the CLI's test binaries share.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `command` to its end, feeding it `stdin` from a thread (the child
/// may exit without reading, on an error: the broken pipe is ignored), and
/// collects its status, stdout and stderr.
pub fn run_command(command: &mut Command, stdin: &[u8]) -> Output {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the program runs");
    let mut input = child.stdin.take().expect("a piped stdin");
    let data = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let out = child.wait_with_output().expect("the program's output");
    writer.join().expect("the stdin writer");
    out
}

/// Deterministic test data: `len` bytes of an xorshift stream from `seed`.
#[allow(dead_code, reason = "not every test binary hashes made-up data")]
pub fn data(len: usize, seed: u64) -> Vec<u8> {
    let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect()
}
