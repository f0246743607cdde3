//! What every counter-mode stream cipher shares: a byte position in a
//! keystream of a fixed number of 64-byte blocks, resumable at any byte, and
//! the refusal to run past the last block.

use crate::Error;

/// The keystream block size of Salsa20 and ChaCha20, in bytes.
pub(crate) const BLOCK_LEN: usize = 64;

/// How much `xor_into` copies before XORing in place: small enough to stay in
/// L1 between the copy and the XOR.
const XOR_INTO_CHUNK: usize = 4096;

/// A keystream generator addressed by 64-byte block number.
pub(crate) trait BlockKeystream {
    /// The primitive's name, for errors.
    const PRIMITIVE: &'static str;
    /// The last block number the counter can address.
    const LAST_BLOCK: u64;

    /// XORs keystream into `data`, whose first byte is the first byte of
    /// block `counter`. `data` may end inside a block; the caller guarantees
    /// every byte lies at or before the end of block [`Self::LAST_BLOCK`].
    fn xor_blocks(&self, counter: u64, data: &mut [u8]);

    /// XORs the keystream bytes `offset..offset + data.len()` of block
    /// `counter` into `data` (`offset + data.len() <= 64`).
    fn xor_partial_block(&self, counter: u64, offset: usize, data: &mut [u8]);
}

/// A byte position in a keystream of `LAST_BLOCK + 1` blocks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Position(u128);

impl Position {
    /// One past the last keystream byte of `K`.
    #[inline]
    fn end<K: BlockKeystream>() -> u128 {
        (u128::from(K::LAST_BLOCK) + 1) * BLOCK_LEN as u128
    }

    /// The current byte position.
    pub(crate) fn get(self) -> u128 {
        self.0
    }

    /// Moves to `byte_offset`; the end of the keystream itself is allowed.
    pub(crate) fn seek<K: BlockKeystream>(&mut self, byte_offset: u128) -> Result<(), Error> {
        if byte_offset > Self::end::<K>() {
            return Err(exhausted::<K>());
        }
        self.0 = byte_offset;
        Ok(())
    }

    /// The position after `len` more bytes, if the keystream reaches it.
    #[inline]
    fn advance<K: BlockKeystream>(self, len: usize) -> Result<u128, Error> {
        // No overflow: a position never passes the end (below 2^71), and
        // `len` is below 2^64.
        let end = self.0 + len as u128;
        if end <= Self::end::<K>() {
            Ok(end)
        } else {
            Err(exhausted::<K>())
        }
    }

    /// XORs the keystream at this position into `data` and moves past it;
    /// nothing is written when the keystream is too short.
    #[inline]
    pub(crate) fn apply<K: BlockKeystream>(&mut self, k: &K, data: &mut [u8]) -> Result<(), Error> {
        let end = self.advance::<K>(data.len())?;
        // Moved before the XOR (which cannot fail), so that nothing is
        // left to do after it but return: the XOR is then the last call,
        // and nothing need be kept in registers across it.
        let start = std::mem::replace(self, Position(end));
        start.apply_checked(k, data);
        Ok(())
    }

    /// `output = input ⊕ keystream`, then moves past it. The input is
    /// copied a few KiB at a time and XORed in place while it is in L1.
    pub(crate) fn xor_into<K: BlockKeystream>(
        &mut self,
        k: &K,
        input: &[u8],
        output: &mut [u8],
    ) -> Result<(), Error> {
        if input.len() != output.len() {
            return Err(Error::LengthMismatch {
                input: input.len(),
                output: output.len(),
            });
        }
        let end = self.advance::<K>(input.len())?;
        for (i, o) in input
            .chunks(XOR_INTO_CHUNK)
            .zip(output.chunks_mut(XOR_INTO_CHUNK))
        {
            o.copy_from_slice(i);
            self.apply_checked(k, o);
            self.0 += o.len() as u128;
        }
        self.0 = end;
        Ok(())
    }

    /// The XOR, once `advance` has said the keystream reaches far enough.
    #[inline]
    fn apply_checked<K: BlockKeystream>(self, k: &K, data: &mut [u8]) {
        if data.is_empty() {
            return;
        }
        // `data` is not empty and ends within the keystream, so the block
        // number of its first byte is at most LAST_BLOCK and fits a u64.
        let counter = (self.0 / BLOCK_LEN as u128) as u64;
        match (self.0 % BLOCK_LEN as u128) as usize {
            0 => k.xor_blocks(counter, data),
            offset => apply_from_offset(k, counter, offset, data),
        }
    }
}

/// The XOR of `data` (not empty) from byte `offset` (1–63) of block
/// `counter` on: the rest of that block, then whole blocks. Out of line, so
/// that a call at a block boundary (every one-shot call) calls `xor_blocks`
/// last and keeps nothing across it.
#[inline(never)]
fn apply_from_offset<K: BlockKeystream>(k: &K, counter: u64, offset: usize, data: &mut [u8]) {
    let take = data.len().min(BLOCK_LEN - offset);
    let (head, rest) = data.split_at_mut(take);
    k.xor_partial_block(counter, offset, head);
    if !rest.is_empty() {
        k.xor_blocks(counter + 1, rest);
    }
}

/// The methods every counter-mode cipher type shares, inside its `impl`
/// block: the type has fields `core` (a [`BlockKeystream`] of type `$core`
/// with fields `imp: $imp` and `xor: Xor`) and `position` (a [`Position`]).
macro_rules! cipher_methods {
    ($imp:ty, $core:ty) => {
        /// The same cipher on the rung `imp`.
        ///
        /// # Errors
        ///
        /// [`Error::ImplUnavailable`] when this CPU (or `SIMDCRYPT_MAX_ISA`)
        /// lacks what the rung needs.
        pub fn with_impl(mut self, imp: $imp) -> Result<Self, Error> {
            self.core.imp = imp.require()?;
            Ok(self)
        }

        /// The same cipher XORing with `xor` on its single-block rungs (the
        /// vertical rungs XOR from their registers).
        pub fn with_xor(mut self, xor: Xor) -> Self {
            self.core.xor = xor;
            self
        }

        /// The rung in use.
        pub fn implementation(&self) -> $imp {
            self.core.imp
        }

        /// Moves to byte `byte_offset` of the keystream (block
        /// `byte_offset / 64`); the end of the keystream itself (see the
        /// type) is allowed.
        ///
        /// # Errors
        ///
        /// [`Error::KeystreamExhausted`] beyond the end.
        pub fn seek(&mut self, byte_offset: u128) -> Result<(), Error> {
            self.position.seek::<$core>(byte_offset)
        }

        /// The current byte offset in the keystream.
        pub fn position(&self) -> u128 {
            self.position.get()
        }

        /// XORs the keystream into `data` in place, resuming where the last
        /// call stopped: calls of 5 and 70 bytes equal one of 75.
        ///
        /// # Errors
        ///
        /// [`Error::KeystreamExhausted`] when `data` runs past the last
        /// block; then nothing is written and the position stays.
        pub fn apply_keystream(&mut self, data: &mut [u8]) -> Result<(), Error> {
            self.position.apply(&self.core, data)
        }

        /// `output = input ⊕ keystream`, resuming where the last call
        /// stopped.
        ///
        /// # Errors
        ///
        /// [`Error::LengthMismatch`] when the buffers differ in length,
        /// [`Error::KeystreamExhausted`] as for `apply_keystream`; then
        /// nothing is written.
        pub fn xor_into(&mut self, input: &[u8], output: &mut [u8]) -> Result<(), Error> {
            self.position.xor_into(&self.core, input, output)
        }
    };
}
pub(crate) use cipher_methods;

fn exhausted<K: BlockKeystream>() -> Error {
    Error::KeystreamExhausted {
        primitive: K::PRIMITIVE,
        last_block: K::LAST_BLOCK,
    }
}
