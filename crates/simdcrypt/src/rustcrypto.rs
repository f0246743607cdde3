//! What the RustCrypto traits of simdcrypt's types share (feature
//! `rustcrypto`): the two buffers of `cipher`'s and `aead`'s `inout`
//! buffers, and [`stream_cipher_traits`], which stamps the `cipher` 0.5
//! traits `KeySizeUser`, `IvSizeUser`, `KeyIvInit`, `StreamCipher` and
//! `StreamCipherSeek` on a stream cipher, written once over
//! [`KeyStream`] (the orphan rule forbids a blanket impl), and
//! [`block_cipher_traits`], which stamps `KeySizeUser`, `KeyInit`,
//! `BlockSizeUser`, `BlockCipherEncrypt` and `BlockCipherDecrypt` on a
//! 16-byte block cipher, written once over its [`BlockCipher`] through
//! [`Backend`]. Each family stamps its own types in its folder
//! (`salsa20/rustcrypto.rs`, `chacha20/rustcrypto.rs`,
//! `aes/rustcrypto.rs`, `camellia/rustcrypto.rs`); this module names none.
//!
//! Unlike RustCrypto's own ciphers, which keep the last block back, the
//! keystream is the whole of it; a request past its end is a
//! `StreamCipherError` from the checked methods, and a panic from the
//! `unchecked_*` ones, which never wrap the counter. Separate input and
//! output buffers go to [`KeyStream::xor_into`], which reads one and
//! writes the other in the rung: no copy.

use core::ptr;

use cipher::consts::{U8, U16};
use cipher::{
    Block, BlockCipherDecBackend, BlockCipherEncBackend, BlockSizeUser, InOut, InOutBuf,
    OverflowError, ParBlocks, ParBlocksSizeUser, SeekNum, StreamCipherError,
};

use crate::block::BlockCipher;
use crate::xor::{InOut as Data, Parts};
use crate::{Error, KeyStream};

/// The two buffers of an `inout` buffer (as `cipher` and `aead` hand them
/// over): one buffer in place, or an input and an output apart.
pub(crate) fn parts<'a>(mut buf: InOutBuf<'a, 'a, u8>) -> Parts<'a> {
    let len = buf.len();
    let (input, output) = buf.reborrow().into_raw();
    if ptr::eq(input, output) {
        return Parts::InPlace(buf.into_out());
    }
    let (input, output) = buf.into_raw();
    // SAFETY: an `InOutBuf` holds either one buffer (the pointers equal,
    // taken above) or an input valid for reads and an output valid for
    // writes of `len` elements for its lifetimes, which do not overlap
    // (`InOutBuf::new` takes a shared and a mutable slice); `'a` is both.
    let (input, output) = unsafe {
        (
            core::slice::from_raw_parts(input, len),
            core::slice::from_raw_parts_mut(output, len),
        )
    };
    Parts::Apart(input, output)
}

/// The bytes of an `inout` run of byte arrays (blocks), as [`parts`].
pub(crate) fn array_parts<'a, N: cipher::array::ArraySize>(
    buf: InOutBuf<'a, 'a, cipher::array::Array<u8, N>>,
) -> Parts<'a> {
    let len = buf.len() * N::USIZE;
    let (input, output) = buf.into_raw();
    // SAFETY: `Array<u8, N>` is `repr(transparent)` over `[u8; N]`, so `len`
    // arrays are `len · N` contiguous bytes; the pointers are the buffer's
    // own, with its lifetimes and its guarantee (one buffer or two that do
    // not overlap), which `parts` relies on in turn.
    let bytes = unsafe { InOutBuf::from_raw(input.cast::<u8>(), output.cast::<u8>(), len) };
    parts(bytes)
}

/// Arrays that are bytes and nothing else: a block, and a run of blocks
/// (`hybrid_array`'s `Array` is `repr(transparent)` over a Rust array).
pub(crate) trait Bytes {}
impl<N: cipher::array::ArraySize> Bytes for cipher::array::Array<u8, N> {}
impl<N: cipher::array::ArraySize, M: cipher::array::ArraySize> Bytes
    for cipher::array::Array<cipher::array::Array<u8, N>, M>
{
}

/// The bytes of one `inout` block, or run of blocks held as one array, as
/// [`parts`].
pub(crate) fn one_parts<'a, T: Bytes>(buf: cipher::InOut<'a, 'a, T>) -> Parts<'a> {
    let (input, output) = buf.into_raw();
    // SAFETY: a `Bytes` type is `size_of::<T>()` contiguous bytes with no
    // padding (arrays of `u8`, or of arrays of `u8`, all `repr(transparent)`
    // over Rust arrays); the pointers are the `InOut`'s own, with its
    // lifetimes and its guarantee (one value or two that do not overlap).
    let bytes = unsafe {
        InOutBuf::from_raw(
            input.cast::<u8>(),
            output.cast::<u8>(),
            core::mem::size_of::<T>(),
        )
    };
    parts(bytes)
}

/// `cipher`'s error is opaque: every simdcrypt error (here only
/// [`Error::KeystreamExhausted`]) becomes [`StreamCipherError`].
pub(crate) fn opaque(_: Error) -> StreamCipherError {
    StreamCipherError
}

/// Whether `len` more bytes of keystream follow `c`'s position.
pub(crate) fn check_remaining<C: KeyStream>(c: &C, len: usize) -> Result<(), StreamCipherError> {
    match c.position().checked_add(len as u128) {
        Some(last) if last <= c.keystream_len() => Ok(()),
        _ => Err(StreamCipherError),
    }
}

/// XORs the keystream into `buf`, in place or from its input into its
/// output; nothing is written on an error.
pub(crate) fn apply_inout<C: KeyStream>(c: &mut C, buf: InOutBuf<'_, '_, u8>) -> Result<(), Error> {
    match parts(buf) {
        Parts::InPlace(data) => c.apply_keystream(data),
        Parts::Apart(input, output) => c.xor_into(input, output),
    }
}

/// `buf = keystream`.
pub(crate) fn write_keystream<C: KeyStream>(c: &mut C, buf: &mut [u8]) -> Result<(), Error> {
    if check_remaining(c, buf.len()).is_ok() {
        buf.fill(0);
    }
    c.apply_keystream(buf)
}

/// The trait's position, a [`SeekNum`], from our byte offset. `SeekNum`
/// converts (block, byte, block size) triples; with a block size of one
/// byte the block number is the byte offset itself, so every offset `T`
/// can hold converts exactly (with 64-byte blocks the multiplication would
/// overflow `T` in the last block below its maximum).
pub(crate) fn current_pos<T: SeekNum>(position: u128) -> Result<T, OverflowError> {
    T::from_block_byte(position, 1, 1)
}

/// Our byte offset from the trait's position (block size one byte, as in
/// [`current_pos`]); negative positions are an error.
pub(crate) fn seek_target<T: SeekNum>(pos: T) -> Result<u128, StreamCipherError> {
    let (byte_offset, _) = pos.into_block_byte::<u128>(1)?;
    Ok(byte_offset)
}

/// The `cipher` traits for one of our stream ciphers: `$ty` (with the generic
/// parameters in brackets), its key and nonce sizes, and a phrase for the
/// docs. Everything but `new` goes through [`KeyStream`].
macro_rules! stream_cipher_traits {
    ([$($generics:tt)*] $ty:ty, key = $key:ty, iv = $iv:ty, $what:literal) => {
        #[doc = concat!("The key size of ", $what, ".")]
        #[cfg_attr(docsrs, doc(cfg(feature = "rustcrypto")))]
        impl<$($generics)*> ::cipher::KeySizeUser for $ty {
            type KeySize = $key;
        }

        #[doc = concat!("The nonce size of ", $what, ".")]
        #[cfg_attr(docsrs, doc(cfg(feature = "rustcrypto")))]
        impl<$($generics)*> ::cipher::IvSizeUser for $ty {
            type IvSize = $iv;
        }

        /// The inherent `new`: at byte 0, on the fastest rung.
        #[cfg_attr(docsrs, doc(cfg(feature = "rustcrypto")))]
        impl<$($generics)*> ::cipher::KeyIvInit for $ty {
            fn new(key: &::cipher::Key<Self>, iv: &::cipher::Iv<Self>) -> Self {
                <$ty>::new(key.into(), iv.into())
            }
        }

        /// The keystream through [`KeyStream`]($crate::KeyStream); requests past the end of
        /// the keystream are refused, never wrapped.
        #[cfg_attr(docsrs, doc(cfg(feature = "rustcrypto")))]
        impl<$($generics)*> ::cipher::StreamCipher for $ty {
            fn check_remaining(&self, data_len: usize) -> Result<(), ::cipher::StreamCipherError> {
                $crate::rustcrypto::check_remaining(self, data_len)
            }

            fn try_apply_keystream_inout(
                &mut self,
                buf: ::cipher::InOutBuf<'_, '_, u8>,
            ) -> Result<(), ::cipher::StreamCipherError> {
                $crate::rustcrypto::apply_inout(self, buf).map_err($crate::rustcrypto::opaque)
            }

            /// # Panics
            ///
            /// Past the end of the keystream: simdcrypt never wraps the counter.
            fn unchecked_apply_keystream_inout(&mut self, buf: ::cipher::InOutBuf<'_, '_, u8>) {
                if let Err(e) = $crate::rustcrypto::apply_inout(self, buf) {
                    panic!("{e}");
                }
            }

            /// # Panics
            ///
            /// Past the end of the keystream: simdcrypt never wraps the counter.
            fn unchecked_write_keystream(&mut self, buf: &mut [u8]) {
                if let Err(e) = $crate::rustcrypto::write_keystream(self, buf) {
                    panic!("{e}");
                }
            }
        }

        /// Byte positions: [`KeyStream::position`]($crate::KeyStream::position) and
        /// [`KeyStream::seek`]($crate::KeyStream::seek).
        #[cfg_attr(docsrs, doc(cfg(feature = "rustcrypto")))]
        impl<$($generics)*> ::cipher::StreamCipherSeek for $ty {
            fn try_current_pos<T: ::cipher::SeekNum>(&self) -> Result<T, ::cipher::OverflowError> {
                $crate::rustcrypto::current_pos($crate::KeyStream::position(self))
            }

            fn try_seek<T: ::cipher::SeekNum>(&mut self, pos: T) -> Result<(), ::cipher::StreamCipherError> {
                let byte_offset = $crate::rustcrypto::seek_target(pos)?;
                $crate::KeyStream::seek(self, byte_offset).map_err($crate::rustcrypto::opaque)
            }
        }
    };
}
pub(crate) use stream_cipher_traits;

/// The backend the block traits hand to their closures: the 16-byte
/// block cipher itself. Runs of blocks (RustCrypto's modes drive eight at
/// a time) go straight to the rung's whole-block form.
pub(crate) struct Backend<'a, C>(pub(crate) &'a C);

impl<C: BlockCipher<Block = [u8; 16]>> BlockSizeUser for Backend<'_, C> {
    type BlockSize = U16;
}

impl<C: BlockCipher<Block = [u8; 16]>> ParBlocksSizeUser for Backend<'_, C> {
    type ParBlocksSize = U8;
}

impl<C: BlockCipher<Block = [u8; 16]>> BlockCipherEncBackend for Backend<'_, C> {
    fn encrypt_block(&self, block: InOut<'_, '_, Block<Self>>) {
        self.0.encrypt(Data::from_parts(one_parts(block)));
    }

    fn encrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
        self.0.encrypt(Data::from_parts(one_parts(blocks)));
    }

    fn encrypt_tail_blocks(&self, blocks: InOutBuf<'_, '_, Block<Self>>) {
        self.0.encrypt(Data::from_parts(array_parts(blocks)));
    }
}

impl<C: BlockCipher<Block = [u8; 16]>> BlockCipherDecBackend for Backend<'_, C> {
    fn decrypt_block(&self, block: InOut<'_, '_, Block<Self>>) {
        self.0.decrypt(Data::from_parts(one_parts(block)));
    }

    fn decrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
        self.0.decrypt(Data::from_parts(one_parts(blocks)));
    }

    fn decrypt_tail_blocks(&self, blocks: InOutBuf<'_, '_, Block<Self>>) {
        self.0.decrypt(Data::from_parts(array_parts(blocks)));
    }
}

/// The `cipher` block traits for our 16-byte block ciphers: each `$ty`
/// with its key size `$key` and a phrase for the docs. `new` is the
/// type's own; everything else goes through [`Backend`].
macro_rules! block_cipher_traits {
    ($($ty:ty => $key:ty, $what:literal;)+) => {$(
        #[doc = concat!("The key size of ", $what, ".")]
        #[cfg_attr(docsrs, doc(cfg(feature = "rustcrypto")))]
        impl ::cipher::KeySizeUser for $ty {
            type KeySize = $key;
        }

        /// The inherent `new`: on the fastest constant-time rung.
        #[cfg_attr(docsrs, doc(cfg(feature = "rustcrypto")))]
        impl ::cipher::KeyInit for $ty {
            fn new(key: &::cipher::Key<Self>) -> Self {
                <$ty>::new(key.into())
            }
        }

        /// The 128-bit block.
        #[cfg_attr(docsrs, doc(cfg(feature = "rustcrypto")))]
        impl ::cipher::BlockSizeUser for $ty {
            type BlockSize = ::cipher::consts::U16;
        }

        /// Encryption on the rung in use; runs of blocks at its width.
        #[cfg_attr(docsrs, doc(cfg(feature = "rustcrypto")))]
        impl ::cipher::BlockCipherEncrypt for $ty {
            fn encrypt_with_backend(
                &self,
                f: impl ::cipher::BlockCipherEncClosure<BlockSize = ::cipher::consts::U16>,
            ) {
                f.call(&$crate::rustcrypto::Backend(self));
            }

            fn encrypt_blocks_inout(&self, blocks: ::cipher::InOutBuf<'_, '_, ::cipher::Block<Self>>) {
                $crate::block::sealed::Core::encrypt(
                    self,
                    $crate::xor::InOut::from_parts($crate::rustcrypto::array_parts(blocks)),
                );
            }
        }

        /// Decryption on the rung in use; runs of blocks at its width.
        #[cfg_attr(docsrs, doc(cfg(feature = "rustcrypto")))]
        impl ::cipher::BlockCipherDecrypt for $ty {
            fn decrypt_with_backend(
                &self,
                f: impl ::cipher::BlockCipherDecClosure<BlockSize = ::cipher::consts::U16>,
            ) {
                f.call(&$crate::rustcrypto::Backend(self));
            }

            fn decrypt_blocks_inout(&self, blocks: ::cipher::InOutBuf<'_, '_, ::cipher::Block<Self>>) {
                $crate::block::sealed::Core::decrypt(
                    self,
                    $crate::xor::InOut::from_parts($crate::rustcrypto::array_parts(blocks)),
                );
            }
        }
    )+};
}
pub(crate) use block_cipher_traits;
