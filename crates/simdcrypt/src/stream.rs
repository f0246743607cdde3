//! What every counter-mode stream cipher shares: the public [`KeyStream`]
//! trait, and behind it a byte position in a keystream of a fixed number of
//! blocks (64 bytes for Salsa20 and ChaCha20, a block cipher's block for a
//! mode such as CTR), resumable at any byte, that refuses to run past the
//! last block.

use crate::Error;
use crate::xor::{InOut, Parts};

/// The keystream block size of Salsa20 and ChaCha20, in bytes.
pub(crate) const BLOCK_LEN: usize = 64;

/// A stream cipher: a keystream of fixed-size blocks, addressable at any
/// byte, XORed into data in place or from an input into an output.
///
/// Implemented by [`Salsa20`], [`Salsa20_12`] and [`Salsa20_8`] (the
/// Salsa20 specification, §10), [`XSalsa20`] ("Extending the Salsa20
/// nonce", §3), [`ChaCha20`] (RFC 8439, §2.4), [`ChaCha20Legacy`] (ChaCha
/// as first published, with a 64-bit counter) and [`XChaCha20`]
/// (draft-irtf-cfrg-xchacha-03, §2.3), on whichever rung each was built
/// with. Each type also has these methods as inherent ones, so a caller
/// that names the type needs no import; code generic over the ciphers, or
/// holding one as `Box<dyn KeyStream>` (the trait is dyn-compatible), uses
/// the trait.
///
/// Byte `p` of the keystream is byte `p % block_len()` of block
/// `p / block_len()`. A cipher starts at byte 0 and every call resumes
/// where the last one stopped, so calls of 5 and 70 bytes equal one of 75.
/// The keystream is finite ([`KeyStream::keystream_len`]); a request that
/// would run past its end is refused whole, never wrapped into keystream
/// already used.
///
/// ```
/// use simdcrypt::KeyStream;
/// use simdcrypt::chacha20::{ChaCha20, XChaCha20};
///
/// /// Encrypts `message` from byte `at` of any stream cipher's keystream.
/// fn encrypt_at(cipher: &mut dyn KeyStream, at: u128, message: &[u8]) -> Result<Vec<u8>, simdcrypt::Error> {
///     let mut out = vec![0; message.len()];
///     cipher.seek(at)?;
///     cipher.xor_into(message, &mut out)?;
///     Ok(out)
/// }
///
/// let sealed = encrypt_at(&mut ChaCha20::new(&[1; 32], &[2; 12]), 64, b"attack at dawn")?;
/// let mut opened = sealed.clone();
/// let mut cipher = ChaCha20::new(&[1; 32], &[2; 12]);
/// KeyStream::seek(&mut cipher, 64)?;
/// KeyStream::apply_keystream(&mut cipher, &mut opened)?;
/// assert_eq!(opened, b"attack at dawn");
/// assert_eq!(XChaCha20::new(&[1; 32], &[2; 24]).keystream_len(), 1 << 70);
/// # Ok::<(), simdcrypt::Error>(())
/// ```
///
/// [`Salsa20`]: crate::salsa20::Salsa20
/// [`Salsa20_12`]: crate::salsa20::Salsa20_12
/// [`Salsa20_8`]: crate::salsa20::Salsa20_8
/// [`XSalsa20`]: crate::salsa20::XSalsa20
/// [`ChaCha20`]: crate::chacha20::ChaCha20
/// [`ChaCha20Legacy`]: crate::chacha20::ChaCha20Legacy
/// [`XChaCha20`]: crate::chacha20::XChaCha20
pub trait KeyStream {
    /// The keystream block length in bytes (64 for Salsa20 and ChaCha20):
    /// the unit the block counter counts.
    fn block_len(&self) -> usize;

    /// The length of the keystream in bytes: one past its last byte, the
    /// largest offset [`KeyStream::seek`] takes. 2^70 (2^64 blocks) for
    /// the 64-bit counters, 2^38 (2^32 blocks) for RFC 8439's [`ChaCha20`].
    ///
    /// [`ChaCha20`]: crate::chacha20::ChaCha20
    fn keystream_len(&self) -> u128;

    /// The current byte offset in the keystream.
    fn position(&self) -> u128;

    /// Moves to byte `byte_offset` of the keystream (block `byte_offset /
    /// block_len()`); the end of the keystream itself is allowed.
    ///
    /// # Errors
    ///
    /// [`Error::KeystreamExhausted`] beyond [`KeyStream::keystream_len`];
    /// the position stays.
    fn seek(&mut self, byte_offset: u128) -> Result<(), Error>;

    /// XORs the keystream into `data` in place, resuming where the last
    /// call stopped.
    ///
    /// # Errors
    ///
    /// [`Error::KeystreamExhausted`] when `data` runs past the end of the
    /// keystream; then nothing is written and the position stays.
    fn apply_keystream(&mut self, data: &mut [u8]) -> Result<(), Error>;

    /// `output = input ⊕ keystream`, resuming where the last call stopped:
    /// the rung reads `input` and writes `output` in one pass, as fast as
    /// [`KeyStream::apply_keystream`] (which is this with the output the
    /// input).
    ///
    /// # Errors
    ///
    /// [`Error::LengthMismatch`] when the buffers differ in length,
    /// [`Error::KeystreamExhausted`] as for
    /// [`KeyStream::apply_keystream`]; then nothing is written and the
    /// position stays.
    fn xor_into(&mut self, input: &[u8], output: &mut [u8]) -> Result<(), Error>;
}

/// XORs `cipher`'s keystream into `data` through the public methods, in
/// place or from its input into its output; returns the output.
///
/// # Errors
///
/// As [`KeyStream::apply_keystream`]; nothing is written then.
#[inline]
pub(crate) fn apply<'a, C: KeyStream + ?Sized>(
    cipher: &mut C,
    data: InOut<'a>,
) -> Result<&'a mut [u8], Error> {
    match data.into_parts() {
        Parts::InPlace(data) => cipher.apply_keystream(data).map(|()| data),
        Parts::Apart(input, output) => cipher.xor_into(input, output).map(|()| output),
    }
}

/// A keystream generator addressed by block number: what a rung computes,
/// below the byte position.
pub(crate) trait BlockKeystream {
    /// The primitive's name, for errors.
    const PRIMITIVE: &'static str;
    /// The keystream block length in bytes.
    const BLOCK_LEN: usize;
    /// The last block number the counter can address.
    const LAST_BLOCK: u128;

    /// XORs keystream into `data`, whose first byte is the first byte of
    /// block `counter`. `data` may end inside a block; the caller guarantees
    /// every byte lies at or before the end of block [`Self::LAST_BLOCK`].
    fn xor_blocks(&self, counter: u128, data: InOut<'_>);

    /// XORs the keystream bytes `offset..offset + data.len()` of block
    /// `counter` into `data` (`offset + data.len() <= BLOCK_LEN`).
    fn xor_partial_block(&self, counter: u128, offset: usize, data: InOut<'_>);
}

/// A byte position in a keystream of `LAST_BLOCK + 1` blocks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Position(u128);

impl Position {
    /// One past the last keystream byte of `K`; a keystream longer than a
    /// `u128` counts bytes (AES-CTR's 2^132) is addressed up to
    /// `u128::MAX`.
    #[inline]
    pub(crate) fn end<K: BlockKeystream>() -> u128 {
        K::LAST_BLOCK
            .checked_add(1)
            .and_then(|blocks| blocks.checked_mul(K::BLOCK_LEN as u128))
            .unwrap_or(u128::MAX)
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
        match self.0.checked_add(len as u128) {
            Some(end) if end <= Self::end::<K>() => Ok(end),
            _ => Err(exhausted::<K>()),
        }
    }

    /// XORs the keystream at this position into `data` and moves past it;
    /// nothing is written when the keystream is too short.
    #[inline]
    pub(crate) fn apply<K: BlockKeystream>(&mut self, k: &K, data: InOut<'_>) -> Result<(), Error> {
        let end = self.advance::<K>(data.len())?;
        // Moved before the XOR (which cannot fail), so that nothing is
        // left to do after it but return: the XOR is then the last call,
        // and nothing need be kept in registers across it.
        let start = std::mem::replace(self, Position(end));
        start.apply_checked(k, data);
        Ok(())
    }

    /// `output = input ⊕ keystream`, then moves past it: [`Position::apply`]
    /// of the two buffers, whose lengths are checked first.
    #[inline]
    pub(crate) fn xor_into<K: BlockKeystream>(
        &mut self,
        k: &K,
        input: &[u8],
        output: &mut [u8],
    ) -> Result<(), Error> {
        self.apply(k, InOut::apart(input, output)?)
    }

    /// The XOR, once `advance` has said the keystream reaches far enough.
    #[inline]
    fn apply_checked<K: BlockKeystream>(self, k: &K, data: InOut<'_>) {
        if data.is_empty() {
            return;
        }
        // `data` is not empty and ends within the keystream, so the block
        // number of its first byte is at most LAST_BLOCK.
        let counter = self.0 / K::BLOCK_LEN as u128;
        match (self.0 % K::BLOCK_LEN as u128) as usize {
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
fn apply_from_offset<K: BlockKeystream>(k: &K, counter: u128, offset: usize, data: InOut<'_>) {
    let take = data.len().min(K::BLOCK_LEN - offset);
    let (head, rest) = data.split_at(take);
    k.xor_partial_block(counter, offset, head);
    if !rest.is_empty() {
        k.xor_blocks(counter + 1, rest);
    }
}

/// Makes a counter-mode cipher type a [`KeyStream`], and gives it the
/// trait's methods as inherent ones (so callers need no import). The type
/// (with its generic parameters in brackets) has fields `core`, a
/// [`BlockKeystream`] of type `$core`, and `position`, a [`Position`].
macro_rules! keystream {
    ([$($generics:tt)*] $ty:ty, core = $core:ty) => {
        impl<$($generics)*> $crate::KeyStream for $ty {
            #[inline]
            fn block_len(&self) -> usize {
                <$core as $crate::stream::BlockKeystream>::BLOCK_LEN
            }

            #[inline]
            fn keystream_len(&self) -> u128 {
                $crate::stream::Position::end::<$core>()
            }

            #[inline]
            fn position(&self) -> u128 {
                self.position.get()
            }

            #[inline]
            fn seek(&mut self, byte_offset: u128) -> Result<(), Error> {
                self.position.seek::<$core>(byte_offset)
            }

            #[inline]
            fn apply_keystream(&mut self, data: &mut [u8]) -> Result<(), Error> {
                self.position.apply(&self.core, $crate::xor::InOut::in_place(data))
            }

            #[inline]
            fn xor_into(&mut self, input: &[u8], output: &mut [u8]) -> Result<(), Error> {
                self.position.xor_into(&self.core, input, output)
            }
        }

        $crate::stream::inherent_keystream!([$($generics)*] $ty);
    };
}
pub(crate) use keystream;

/// The [`KeyStream`] methods as inherent ones of `$ty` (so callers need no
/// import), for a type that implements the trait: by [`keystream!`], or by
/// hand where its keystream is more than a block function (GOST
/// 28147-89's counter mode with key meshing, Magma's CTR-ACPKM).
macro_rules! inherent_keystream {
    ([$($generics:tt)*] $ty:ty) => {
        impl<$($generics)*> $ty {
            /// The length of the keystream in bytes: [`KeyStream::keystream_len`].
            ///
            /// [`KeyStream::keystream_len`]: crate::KeyStream::keystream_len
            #[inline]
            pub fn keystream_len(&self) -> u128 {
                $crate::KeyStream::keystream_len(self)
            }

            /// The current byte offset in the keystream:
            /// [`KeyStream::position`].
            ///
            /// [`KeyStream::position`]: crate::KeyStream::position
            #[inline]
            pub fn position(&self) -> u128 {
                $crate::KeyStream::position(self)
            }

            /// Moves to byte `byte_offset` of the keystream (block
            /// `byte_offset / block_len`): [`KeyStream::seek`].
            ///
            /// # Errors
            ///
            /// [`Error::KeystreamExhausted`] beyond the end of the keystream.
            ///
            /// [`KeyStream::seek`]: crate::KeyStream::seek
            #[inline]
            pub fn seek(&mut self, byte_offset: u128) -> Result<(), Error> {
                $crate::KeyStream::seek(self, byte_offset)
            }

            /// XORs the keystream into `data` in place, resuming where the
            /// last call stopped: [`KeyStream::apply_keystream`].
            ///
            /// # Errors
            ///
            /// [`Error::KeystreamExhausted`] when `data` runs past the end of
            /// the keystream; then nothing is written and the position stays.
            ///
            /// [`KeyStream::apply_keystream`]: crate::KeyStream::apply_keystream
            #[inline]
            pub fn apply_keystream(&mut self, data: &mut [u8]) -> Result<(), Error> {
                $crate::KeyStream::apply_keystream(self, data)
            }

            /// `output = input ⊕ keystream`, read and written in one pass,
            /// resuming where the last call stopped: [`KeyStream::xor_into`].
            ///
            /// # Errors
            ///
            /// [`Error::LengthMismatch`] when the buffers differ in length,
            /// [`Error::KeystreamExhausted`] as for `apply_keystream`; then
            /// nothing is written.
            ///
            /// [`KeyStream::xor_into`]: crate::KeyStream::xor_into
            #[inline]
            pub fn xor_into(&mut self, input: &[u8], output: &mut [u8]) -> Result<(), Error> {
                $crate::KeyStream::xor_into(self, input, output)
            }
        }
    };
}
pub(crate) use inherent_keystream;

/// The [`KeyStream`] impl and methods of a Salsa20 or ChaCha20 type (see
/// [`keystream!`]) and its rung choice: `with_rung`, `with_xor` and
/// `implementation`, its `core` having fields `imp: $imp` and `xor: Xor`.
macro_rules! stream_cipher {
    ([$($generics:tt)*] $ty:ty, impl = $imp:ty, core = $core:ty) => {
        $crate::stream::keystream!([$($generics)*] $ty, core = $core);

        impl<$($generics)*> $ty {
            /// The same cipher on the rung `imp`.
            ///
            /// # Errors
            ///
            /// [`Error::RungUnavailable`] when this CPU (or `SIMDCRYPT_MAX_ISA`)
            /// lacks what the rung needs.
            pub fn with_rung(mut self, imp: $imp) -> Result<Self, Error> {
                self.core.imp = imp.require()?;
                Ok(self)
            }

            /// Renamed [`with_rung`](Self::with_rung).
            #[deprecated(note = "renamed `with_rung`")]
            pub fn with_impl(self, imp: $imp) -> Result<Self, Error> {
                self.with_rung(imp)
            }

            /// The same cipher XORing with `xor` on its single-block rungs (the
            /// vertical rungs XOR from their registers).
            pub fn with_xor(mut self, xor: Xor) -> Self {
                self.core.xor = xor;
                self
            }

            /// The rung in use.
            pub fn rung(&self) -> $imp {
                self.core.imp
            }

            /// Renamed [`rung`](Self::rung).
            #[deprecated(note = "renamed `rung`")]
            pub fn implementation(&self) -> $imp {
                self.rung()
            }

        }
    };
}
pub(crate) use stream_cipher;

/// Keeps four words in general-purpose registers here: an empty `asm!`
/// the compiler must take as reading and rewriting them. Once per double
/// round of a scalar one-block form, it makes vectorising the rounds
/// (which LLVM's SLP vectoriser does in a build for a CPU with AVX-512)
/// cost moves out of and back into vectors every round, so they stay
/// scalar: one block is a chain of dependent adds, xors and rotates, which
/// on Zen 5 take 1 cycle each on the integer units and 2 on the vector
/// units (XChaCha20 of 64 bytes, `-C target-cpu=native`: 225 ns vectorised,
/// NOTES: stream-short).
#[inline(always)]
pub(crate) fn in_registers(w: [&mut u32; 4]) {
    let [a, b, c, d] = w;
    #[cfg(target_arch = "x86_64")]
    // SAFETY: the template is empty: it reads and writes only the four
    // registers it names, and touches no memory, stack or flags.
    unsafe {
        core::arch::asm!(
            "/* {0:e} {1:e} {2:e} {3:e} */",
            inout(reg) * a,
            inout(reg) * b,
            inout(reg) * c,
            inout(reg) * d,
            options(pure, nomem, nostack, preserves_flags),
        );
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (a, b, c, d);
}

fn exhausted<K: BlockKeystream>() -> Error {
    Error::KeystreamExhausted {
        primitive: K::PRIMITIVE,
        last_block: K::LAST_BLOCK,
    }
}
