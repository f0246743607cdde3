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
