//! The Merkle–Damgård construction the hashes share: buffering a message
//! into blocks, the length-padding of RFC 1321 §3.1–3.2 and FIPS 180-4
//! §5.1, and the chaining state a family's compression function updates.

use zeroize::Zeroize;

/// A hash family's chaining state and its compression function, over
/// `BLOCK`-byte blocks (64 for MD5, SHA-1 and SHA-256; 128 for SHA-512).
pub(crate) trait Family<const BLOCK: usize>: Copy + Zeroize {
    /// The family's rungs.
    type Rung: Copy;
    /// Bytes of the message length at the end of the padding: 8, or 16
    /// for SHA-512 (FIPS 180-4 §5.1.2).
    const LENGTH_LEN: usize;
    /// The length, and the output words, are little-endian (MD5) rather
    /// than big-endian (the SHA family).
    const LITTLE_ENDIAN: bool;
    /// The family's fastest rung on this CPU.
    fn best() -> Self::Rung;
    /// Absorbs whole blocks on the rung `imp` (already known available).
    fn compress(&mut self, imp: Self::Rung, blocks: &[[u8; BLOCK]]);
    /// The state as bytes, as many as `out` takes: the truncated outputs
    /// (SHA-224, SHA-384, SHA-512/256) are prefixes of the whole.
    fn write_output(&self, out: &mut [u8]);
}

/// A chaining value: `N` words of `W` (the `H` of FIPS 180-4 §6, RFC
/// 1321's `A, B, C, D`), each family's [`Family`]. Zeroized with the
/// engine that holds it.
#[derive(Clone, Copy)]
pub(crate) struct Words<W, const N: usize>(pub(crate) [W; N]);

impl<W: Zeroize, const N: usize> Zeroize for Words<W, N> {
    fn zeroize(&mut self) {
        self.0.zeroize();
    }
}

/// Writes the length of a message of `total` bytes, in bits, at the end of
/// the last padding block, as `F` writes it (RFC 1321 §3.2, FIPS 180-4
/// §5.1): the padding takes it modulo 2^64 or 2^128 bits.
fn write_length<F: Family<BLOCK>, const BLOCK: usize>(block: &mut [u8; BLOCK], total: u128) {
    let bits = total.wrapping_mul(8);
    let field = &mut block[BLOCK - F::LENGTH_LEN..];
    if F::LITTLE_ENDIAN {
        field.copy_from_slice(&bits.to_le_bytes()[..F::LENGTH_LEN]);
    } else {
        field.copy_from_slice(&bits.to_be_bytes()[16 - F::LENGTH_LEN..]);
    }
}

/// Fills `blocks` (two or more, zeroed) with the final one or two blocks
/// of a message of `total` bytes whose last `tail.len() < BLOCK` bytes are
/// `tail`: the tail, the 0x80 byte, zeros (already there), and the length
/// in bits (RFC 1321 §3.1–3.2, FIPS 180-4 §5.1). Returns how many there
/// are.
fn pad_into<F: Family<BLOCK>, const BLOCK: usize>(
    blocks: &mut [[u8; BLOCK]],
    tail: &[u8],
    total: u128,
) -> usize {
    if !tail.is_empty() {
        blocks[0][..tail.len()].copy_from_slice(tail);
    }
    blocks[0][tail.len()] = 0x80;
    // The length field fits after the tail and the 0x80 byte, or goes at
    // the end of one more block of zeros.
    let count = if tail.len() < BLOCK - F::LENGTH_LEN {
        1
    } else {
        2
    };
    write_length::<F, BLOCK>(&mut blocks[count - 1], total);
    count
}

/// The final one or two blocks of a message of `total` bytes whose last
/// `tail.len() < BLOCK` bytes are `tail`, and how many there are.
pub(crate) fn padding<F: Family<BLOCK>, const BLOCK: usize>(
    tail: &[u8],
    total: u128,
) -> ([[u8; BLOCK]; 2], usize) {
    let mut blocks = [[0u8; BLOCK]; 2];
    let count = pad_into::<F, BLOCK>(&mut blocks, tail, total);
    (blocks, count)
}

/// Writes to `out` the digest of a message whose first `prefix` bytes (a
/// whole number of blocks) `state` has absorbed and whose rest is `data`,
/// on the rung `imp`: the one-shot digest, and HMAC's outer hash. Whole
/// blocks are read straight from `data`; the last of them goes with the
/// padding, on the stack, into one call of the rung, so a message of up
/// to a block and a bit is a single call.
pub(crate) fn digest_from<F: Family<BLOCK>, const BLOCK: usize>(
    mut state: F,
    imp: F::Rung,
    prefix: u128,
    data: &[u8],
    out: &mut [u8],
) {
    /// The last whole block, if any, then the padding: aligned to a cache
    /// line, so that wide stores filling it (zmm ones under `-C
    /// target-cpu=native`) do not straddle two.
    #[repr(C, align(64))]
    struct Last<const BLOCK: usize>([[u8; BLOCK]; 3]);
    let (blocks, tail) = data.as_chunks::<BLOCK>();
    let mut last = Last([[0u8; BLOCK]; 3]);
    let first = match blocks.split_last() {
        Some((block, before)) => {
            if !before.is_empty() {
                state.compress(imp, before);
            }
            last.0[0] = *block;
            0
        }
        None => 1,
    };
    let total = prefix.wrapping_add(data.len() as u128);
    let count = pad_into::<F, BLOCK>(&mut last.0[1..], tail, total);
    state.compress(imp, &last.0[first..=count]);
    state.write_output(out);
    state.zeroize();
    crate::ct::wipe(last.0.as_flattened_mut());
}

/// A message being hashed: the chaining state, the bytes not compressed yet
/// (up to a block), and the length so far. Zeroized on drop, since HMAC
/// keys its hashes with secrets.
#[derive(Clone)]
pub(crate) struct Engine<F: Family<BLOCK>, const BLOCK: usize> {
    imp: F::Rung,
    iv: F,
    state: F,
    buffer: [u8; BLOCK],
    buffered: usize,
    /// Bytes absorbed so far (the padding takes it modulo 2^64 or 2^128
    /// bits, as the specifications do).
    length: u128,
}

impl<F: Family<BLOCK>, const BLOCK: usize> Engine<F, BLOCK> {
    /// An empty message on the rung `imp` (already known available).
    pub(crate) fn with_rung(iv: F, imp: F::Rung) -> Self {
        Engine {
            imp,
            iv,
            state: iv,
            buffer: [0; BLOCK],
            buffered: 0,
            length: 0,
        }
    }

    /// The rung in use.
    pub(crate) fn rung(&self) -> F::Rung {
        self.imp
    }

    /// Moves to the rung `imp` (already known available); data absorbed
    /// so far carries over.
    pub(crate) fn set_impl(&mut self, imp: F::Rung) {
        self.imp = imp;
    }

    /// Absorbs `data`: calls of 5 and 70 bytes equal one of 75. Whole
    /// blocks are read straight from `data`, in one call of the rung, but
    /// for a last one with nothing after it, which is buffered (a full
    /// buffer).
    pub(crate) fn update(&mut self, data: &[u8]) {
        let mut data = data;
        self.length = self.length.wrapping_add(data.len() as u128);
        if self.buffered > 0 {
            let take = (BLOCK - self.buffered).min(data.len());
            self.buffer[self.buffered..self.buffered + take].copy_from_slice(&data[..take]);
            self.buffered += take;
            data = &data[take..];
            if self.buffered < BLOCK {
                return;
            }
            let block = self.buffer;
            self.state.compress(self.imp, &[block]);
            self.buffered = 0;
        }
        let (mut blocks, mut rest) = data.as_chunks::<BLOCK>();
        // A last whole block stays buffered, so that `finalize` hands it
        // to the rung with the padding in one call (HMAC's inner hash of a
        // one-block message); the next `update` compresses it.
        if rest.is_empty()
            && let Some((last, before)) = blocks.split_last()
        {
            blocks = before;
            rest = last;
        }
        if !blocks.is_empty() {
            self.state.compress(self.imp, blocks);
        }
        if !rest.is_empty() {
            self.buffer[..rest.len()].copy_from_slice(rest);
        }
        self.buffered = rest.len();
    }

    /// Writes the digest to `out` (as many bytes as it takes), the
    /// buffered bytes (a partial block, or a whole last one) padded on the
    /// stack by [`digest_from`]. The state is
    /// spent: call [`Engine::reset`] before hashing again.
    pub(crate) fn finalize_into(&mut self, out: &mut [u8]) {
        let prefix = self.length.wrapping_sub(self.buffered as u128);
        let tail = &self.buffer[..self.buffered];
        digest_from(self.state, self.imp, prefix, tail, out);
    }

    /// Absorbs `data` (whole blocks: HMAC's key block) and compresses it
    /// now, leaving nothing buffered, as [`Engine::digest_after`] and
    /// [`Engine::finalize_restart`] need of their keyed state.
    pub(crate) fn absorb_blocks(&mut self, data: &[u8]) {
        debug_assert!(self.buffered == 0 && data.len().is_multiple_of(BLOCK));
        let (blocks, _) = data.as_chunks::<BLOCK>();
        self.state.compress(self.imp, blocks);
        self.length = self.length.wrapping_add(data.len() as u128);
    }

    /// Writes to `out` the digest of everything absorbed (whole blocks:
    /// HMAC's key block) followed by `data`, leaving the engine as it was:
    /// HMAC's outer hash, keyed once.
    pub(crate) fn digest_after(&self, data: &[u8], out: &mut [u8]) {
        debug_assert_eq!(self.buffered, 0, "whole blocks absorbed");
        digest_from(self.state, self.imp, self.length, data, out);
    }

    /// [`Engine::finalize_into`], then starts over from where `start` is
    /// (whole blocks absorbed: HMAC's inner hash, back to its keyed state
    /// without copying all of the engine).
    pub(crate) fn finalize_restart(&mut self, start: &Self, out: &mut [u8]) {
        debug_assert_eq!(start.buffered, 0, "whole blocks absorbed");
        self.finalize_into(out);
        self.state = start.state;
        self.length = start.length;
        self.buffered = 0;
    }

    /// Starts over from the initial value, on the same rung. (The buffer's
    /// old bytes are never read again: they are wiped on drop.)
    pub(crate) fn reset(&mut self) {
        self.state = self.iv;
        self.buffered = 0;
        self.length = 0;
    }
}

impl<F: Family<BLOCK>, const BLOCK: usize> Drop for Engine<F, BLOCK> {
    fn drop(&mut self) {
        self.state.zeroize();
        crate::ct::wipe(&mut self.buffer);
    }
}

/// Writes 32-bit words big-endian (the SHA family, FIPS 180-4 §3.1) into
/// `out`, as many whole words as it takes (every digest is whole words:
/// the truncated ones too). Whole words are fixed-size stores, where a
/// last partial one would make each a call of `memcpy`.
pub(crate) fn write_be32(words: &[u32], out: &mut [u8]) {
    let (chunks, _) = out.as_chunks_mut::<4>();
    for (chunk, word) in chunks.iter_mut().zip(words) {
        *chunk = word.to_be_bytes();
    }
}

/// Writes 64-bit words big-endian into `out`, as many whole words as it
/// takes.
pub(crate) fn write_be64(words: &[u64], out: &mut [u8]) {
    let (chunks, _) = out.as_chunks_mut::<8>();
    for (chunk, word) in chunks.iter_mut().zip(words) {
        *chunk = word.to_be_bytes();
    }
}

/// Writes 32-bit words little-endian (MD5, RFC 1321 §3.5) into `out`.
pub(crate) fn write_le32(words: &[u32], out: &mut [u8]) {
    let (chunks, _) = out.as_chunks_mut::<4>();
    for (chunk, word) in chunks.iter_mut().zip(words) {
        *chunk = word.to_le_bytes();
    }
}
