//! ASCII armor (c2sp.org/age, "ASCII armor"): strict RFC 7468 PEM.
//!
//! Placeholder: passes input through unchanged.

use std::io::{self, BufRead, Read};

/// Reads an age file that may be armored.
pub struct ArmoredReader<R>(R);

impl<R: BufRead> ArmoredReader<R> {
    /// Wraps `input`.
    pub fn new(input: R) -> Self {
        ArmoredReader(input)
    }
}

impl<R: BufRead> Read for ArmoredReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.0.read(buf)
    }
}

impl<R: BufRead> BufRead for ArmoredReader<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.0.fill_buf()
    }
    fn consume(&mut self, amt: usize) {
        self.0.consume(amt)
    }
}
