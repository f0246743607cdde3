//! Block ciphers and the modes of operation written once over them.
//!
//! A block cipher ([`BlockCipher`]) is a keyed permutation of blocks of a
//! fixed length: 16 bytes for AES, 8 for GOST 28147-89 and Magma. Each
//! implements the trait on whichever rung it was built with, declaring how
//! many blocks that rung processes at once ([`BlockCipher::par_blocks`]).
//!
//! The modes take any of them:
//!
//! | mode | standard | parallel | here |
//! |---|---|---|---|
//! | ECB | SP 800-38A §6.1 | both ways | [`Ecb`] |
//! | CBC | SP 800-38A §6.2 | decryption | [`Cbc`] |
//! | CFB (full block) | SP 800-38A §6.3 | decryption | [`Cfb`] |
//! | OFB | SP 800-38A §6.4 | no | [`Ofb`] |
//! | CTR | SP 800-38A §6.5 | both ways | [`Ctr`] (a [`KeyStream`](crate::KeyStream)) |
//! | CMAC | SP 800-38B, RFC 4493 | no | [`Cmac`] |
//!
//! The parallel forms run on the cipher's widest rung; the chained ones
//! (CBC and CFB encryption, OFB, CMAC) one block at a time on the same
//! rung's single-block path. ECB and CBC pad with PKCS#7 ([`padding`]),
//! removed in constant time with one opaque error whatever was wrong.
//!
//! ```
//! use simdcrypt::aes::{Aes128Cbc, Aes128Ctr};
//!
//! let key = [0x2b; 16];
//! let iv = [0x00; 16];
//! let sealed = Aes128Cbc::new(&key, &iv).encrypt_padded_vec(b"sixteen byte msg and more");
//! assert_eq!(sealed.len(), 32);
//! let opened = Aes128Cbc::new(&key, &iv).decrypt_padded_vec(&sealed)?;
//! assert_eq!(opened, b"sixteen byte msg and more");
//!
//! let mut data = *b"counter mode needs no padding";
//! Aes128Ctr::new(&key, &iv).apply_keystream(&mut data)?;
//! Aes128Ctr::new(&key, &iv).apply_keystream(&mut data)?;
//! assert_eq!(&data, b"counter mode needs no padding");
//! # Ok::<(), simdcrypt::Error>(())
//! ```

mod cbc;
mod cfb;
mod cmac;
mod counter32;
mod ctr;
pub(crate) mod dynamic;
mod ecb;
mod key_size;
mod ofb;
pub mod padding;

pub use cbc::Cbc;
pub use cfb::Cfb;
pub use cmac::Cmac;
pub(crate) use counter32::Counter32;
pub use ctr::{CounterWidth, Ctr, FullBlock, HalfBlock};
pub use ecb::Ecb;
pub use key_size::{Bits128, Bits192, Bits256, KeySize};
pub(crate) use key_size::{sized_block_cipher_impls, sized_key, sized_name};
pub use ofb::Ofb;
pub use padding::{BlockMode, PaddedDecryptor, PaddedEncryptor, Padding};

use crate::xor::InOut;
use crate::{Error, RungSet, Xor};

/// A block cipher on one of its rungs: encrypts and decrypts runs of whole
/// blocks, in place or from an input into an output.
///
/// Implemented by [`Aes128`](crate::aes::Aes128),
/// [`Aes192`](crate::aes::Aes192) and [`Aes256`](crate::aes::Aes256). The
/// trait is sealed: the modes rely on what its implementations promise
/// (each rung checked against its specification).
pub trait BlockCipher: Sized + sealed::Core {
    /// The cipher's name, as the table of ladders has it (`aes-128`).
    const NAME: &'static str;
    /// The block length in bytes.
    const BLOCK_LEN: usize;
    /// One block: `[u8; BLOCK_LEN]`.
    type Block: Copy
        + Default
        + AsRef<[u8]>
        + AsMut<[u8]>
        + std::fmt::Debug
        + Eq
        + Send
        + Sync
        + for<'a> TryFrom<&'a [u8]>;
    /// The key: `[u8; KEY_LEN]`.
    type Key: AsRef<[u8]> + ?Sized;
    /// The cipher's rungs.
    type Rung: RungSet;

    /// The key schedule for `key`, on the fastest rung this CPU runs.
    fn new(key: &Self::Key) -> Self;

    /// The same key on rung `imp`.
    ///
    /// # Errors
    ///
    /// When the CPU lacks the rung, or it is not constant-time and the
    /// `hazmat` feature is off (see [`RungSet::is_constant_time`]).
    fn with_rung(self, imp: Self::Rung) -> Result<Self, Error>;

    /// The rung in use.
    fn rung(&self) -> Self::Rung;

    /// How many blocks the rung processes at once: the parallel modes
    /// feed it at least this many when they have them.
    fn par_blocks(&self) -> usize;

    /// Encrypts one block in place.
    #[inline]
    fn encrypt_block(&self, block: &mut Self::Block) {
        self.encrypt_one(block.as_mut());
    }

    /// Decrypts one block in place.
    #[inline]
    fn decrypt_block(&self, block: &mut Self::Block) {
        self.decrypt_one(block.as_mut());
    }

    /// Encrypts whole blocks in place (ECB on raw blocks).
    ///
    /// # Errors
    ///
    /// [`Error::NotWholeBlocks`] when `data` is not a multiple of the block.
    fn encrypt_blocks(&self, data: &mut [u8]) -> Result<(), Error> {
        whole_blocks::<Self>(data.len())?;
        self.encrypt(InOut::in_place(data));
        Ok(())
    }

    /// Decrypts whole blocks in place.
    ///
    /// # Errors
    ///
    /// [`Error::NotWholeBlocks`] when `data` is not a multiple of the block.
    fn decrypt_blocks(&self, data: &mut [u8]) -> Result<(), Error> {
        whole_blocks::<Self>(data.len())?;
        self.decrypt(InOut::in_place(data));
        Ok(())
    }

    /// Encrypts the whole blocks of `input` into `output`.
    ///
    /// # Errors
    ///
    /// [`Error::LengthMismatch`] when the two lengths differ,
    /// [`Error::NotWholeBlocks`] when they are not a multiple of the block.
    fn encrypt_blocks_into(&self, input: &[u8], output: &mut [u8]) -> Result<(), Error> {
        let data = InOut::apart(input, output)?;
        whole_blocks::<Self>(data.len())?;
        self.encrypt(data);
        Ok(())
    }

    /// Decrypts the whole blocks of `input` into `output`.
    ///
    /// # Errors
    ///
    /// As [`BlockCipher::encrypt_blocks_into`].
    fn decrypt_blocks_into(&self, input: &[u8], output: &mut [u8]) -> Result<(), Error> {
        let data = InOut::apart(input, output)?;
        whole_blocks::<Self>(data.len())?;
        self.decrypt(data);
        Ok(())
    }
}

pub(crate) mod sealed {
    use crate::xor::InOut;

    /// What a block cipher's rungs compute, below the public trait. Every
    /// length is a multiple of the block unless said otherwise.
    pub trait Core: Clone {
        /// The cipher under `key` given as bytes, on its fastest rung.
        ///
        /// # Errors
        ///
        /// [`crate::Error::BadLength`] for a key of the wrong length.
        fn from_slice(key: &[u8]) -> Result<Self, crate::Error>;
        /// Encrypts whole blocks on the widest rung.
        fn encrypt(&self, blocks: InOut<'_>);
        /// Decrypts whole blocks on the widest rung.
        fn decrypt(&self, blocks: InOut<'_>);
        /// Encrypts one block: the chained modes' path.
        fn encrypt_one(&self, block: &mut [u8]);
        /// Decrypts one block.
        fn decrypt_one(&self, block: &mut [u8]);
        /// CTR: XORs E(`counter`), E(`counter` + 1), … into `data`, which
        /// may end inside a block; the counter is the whole block read as
        /// a big-endian integer, wrapping modulo 2^(8·block length).
        /// Rungs with a kernel of their own override
        /// [`super::ctr_by_blocks`].
        fn ctr(&self, counter: &[u8], data: InOut<'_>);
        /// CBC encryption of whole blocks, `chain` the previous ciphertext
        /// block (the IV at first), left holding the last one. Rungs with
        /// a kernel of their own override [`super::cbc_encrypt_by_blocks`].
        fn cbc_encrypt(&self, chain: &mut [u8], data: InOut<'_>);
        /// CBC decryption of whole blocks, as [`Core::cbc_encrypt`]; the
        /// default is [`super::cbc_decrypt_by_blocks`].
        fn cbc_decrypt(&self, chain: &mut [u8], data: InOut<'_>);
        /// CFB decryption of whole blocks (at least two), as
        /// [`Core::cbc_decrypt`]: `chain` the ciphertext block before them,
        /// left holding the last one. The default is
        /// [`super::cfb_decrypt_by_blocks`].
        fn cfb_decrypt(&self, chain: &mut [u8], data: InOut<'_>)
        where
            Self: super::BlockCipher,
        {
            super::cfb_decrypt_by_blocks(self, chain, data);
        }
        /// CTR with a 32-bit counter inside the block (GCM's `inc32`,
        /// AES-GCM-SIV's little-endian counter; see [`super::Counter32`]):
        /// XORs E(`counter`), E(`counter` + 1), … into `data`, which may end
        /// inside a block, the counter wrapping modulo 2^32 and the rest of
        /// the block unchanged. The caller bounds the length (2^32 blocks at
        /// most). Rungs with a kernel of their own override
        /// [`super::ctr32_by_blocks`].
        fn ctr32(&self, counter: &[u8; 16], data: InOut<'_>, at: super::Counter32)
        where
            Self: super::BlockCipher,
        {
            super::ctr32_by_blocks(self, counter, data, at);
        }
    }
}

/// Runs `f` on each 16-byte block of `data`, read from the input and
/// written to the output: the whole-block form of a single-block rung of
/// a 16-byte cipher (AES's and Camellia's `reference` and `tables`).
#[inline]
pub(crate) fn by_block(data: InOut<'_>, mut f: impl FnMut(&mut [u8; 16])) {
    for chunk in data.chunks(16) {
        let mut block: [u8; 16] = chunk.input().try_into().expect("whole blocks");
        f(&mut block);
        chunk.into_output().copy_from_slice(&block);
    }
}

/// CTR with a 32-bit counter from whole-block encryptions: as
/// [`ctr_by_blocks`], the counter blocks advanced by [`Counter32::add`].
pub(crate) fn ctr32_by_blocks<C: BlockCipher>(
    cipher: &C,
    counter: &[u8; 16],
    data: InOut<'_>,
    at: Counter32,
) {
    let mut next = *counter;
    ctr_with(cipher, data, |blocks| {
        for block in blocks.chunks_exact_mut(16) {
            block.copy_from_slice(&next);
            at.add(&mut next, 1);
        }
    });
}

/// `Ok` when `len` is a whole number of `C`'s blocks.
pub(crate) fn whole_blocks<C: BlockCipher>(len: usize) -> Result<(), Error> {
    if len.is_multiple_of(C::BLOCK_LEN) {
        Ok(())
    } else {
        Err(Error::NotWholeBlocks {
            primitive: C::NAME,
            len,
            block_len: C::BLOCK_LEN,
        })
    }
}

/// The most bytes the generic mode helpers hold on the stack at once.
const BATCH: usize = 4096;

/// The stack buffer a short run gets instead of a whole [`BATCH`].
const SHORT_BATCH: usize = 256;

/// Runs `f` on a zeroed stack buffer for a run of `len` bytes —
/// [`SHORT_BATCH`] bytes for a short one, else [`BATCH`] — and wipes it
/// afterwards: the generic helpers' scratch space (keystream, a batch's
/// counters or ciphertext). Zeroing and wiping a whole 4 KiB batch was
/// most of a 64-byte message's time (`bench/NOTES.md`,
/// `aes-short-messages`).
#[inline]
pub(crate) fn with_scratch<R>(len: usize, f: impl FnOnce(&mut [u8]) -> R) -> R {
    fn on<const N: usize, R>(f: impl FnOnce(&mut [u8]) -> R) -> R {
        let mut buf = [0u8; N];
        let r = f(&mut buf);
        crate::ct::wipe(&mut buf);
        r
    }
    if len <= SHORT_BATCH {
        on::<SHORT_BATCH, R>(f)
    } else {
        on::<BATCH, R>(f)
    }
}

/// Adds `n` to the big-endian integer `block`, modulo 2^(8·`block.len()`).
#[inline]
pub(crate) fn add_be(block: &mut [u8], n: u128) {
    let mut carry = n;
    for byte in block.iter_mut().rev() {
        if carry == 0 {
            break;
        }
        let sum = u128::from(*byte) + (carry & 0xff);
        *byte = sum as u8;
        carry = (carry >> 8) + (sum >> 8);
    }
}

/// CTR from whole-block encryptions: up to [`BATCH`] bytes of counter
/// blocks built on the stack, encrypted at the rung's width, XORed into the
/// data. Counters are public, so the stack copy holds nothing secret
/// beyond the keystream, which is wiped.
pub(crate) fn ctr_by_blocks<C: BlockCipher>(cipher: &C, counter: &[u8], data: InOut<'_>) {
    let bl = C::BLOCK_LEN;
    // The counter block as the big-endian integer it is, counted modulo
    // 2^(8·bl) with integer arithmetic, a store per block.
    let mask = u128::MAX >> (128 - 8 * bl);
    let mut wide = [0u8; 16];
    wide[16 - bl..].copy_from_slice(counter);
    let mut next = u128::from_be_bytes(wide);
    ctr_with(cipher, data, |blocks| {
        for block in blocks.chunks_exact_mut(bl) {
            block.copy_from_slice(&next.to_be_bytes()[16 - bl..]);
            next = next.wrapping_add(1) & mask;
        }
    });
}

/// CTR from whole-block encryptions, `fill` writing the batch's counter
/// blocks (each call continuing where the last ended): the body of
/// [`ctr_by_blocks`] and [`ctr32_by_blocks`].
fn ctr_with<C: BlockCipher>(cipher: &C, data: InOut<'_>, mut fill: impl FnMut(&mut [u8])) {
    let bl = C::BLOCK_LEN;
    with_scratch(data.len(), |keystream| {
        let batch = keystream.len() / bl * bl;
        for chunk in data.chunks(batch) {
            let len = chunk.len().div_ceil(bl) * bl;
            fill(&mut keystream[..len]);
            cipher.encrypt(InOut::in_place(&mut keystream[..len]));
            Xor::Simd128.apply(chunk, &keystream[..len]);
        }
    });
}

/// CBC encryption one block at a time (SP 800-38A §6.2; GOST R 34.13-2015
/// §5.4 with a register of z = `chain.len() / BLOCK_LEN` blocks): each
/// block XORed with the register's first block, enciphered, and shifted
/// into the register.
pub(crate) fn cbc_encrypt_by_blocks<C: BlockCipher>(cipher: &C, chain: &mut [u8], data: InOut<'_>) {
    let bl = C::BLOCK_LEN;
    let mut x = C::Block::default();
    for block in data.chunks(bl) {
        x.as_mut().copy_from_slice(&chain[..bl]);
        xor_in(x.as_mut(), block.input());
        cipher.encrypt_block(&mut x);
        block.into_output().copy_from_slice(x.as_ref());
        shift_in(chain, x.as_ref());
    }
}

/// CBC decryption from whole-block decryptions (SP 800-38A §6.2; GOST R
/// 34.13-2015 §5.4 with a register of z blocks): each batch decrypted at
/// the rung's width, then XORed with the ciphertext blocks z before it
/// (the register's, then the batch's own). In place, the batch's
/// ciphertext is kept on the stack first (it is public).
pub(crate) fn cbc_decrypt_by_blocks<C: BlockCipher>(cipher: &C, chain: &mut [u8], data: InOut<'_>) {
    let bl = C::BLOCK_LEN;
    with_scratch(data.len(), |saved| {
        let batch = (cipher.par_blocks() * bl).clamp(bl, saved.len()) / bl * bl;
        for chunk in data.chunks(batch) {
            let len = chunk.len();
            saved[..len].copy_from_slice(chunk.input());
            let output = {
                let mut chunk = chunk;
                cipher.decrypt(chunk.reborrow());
                chunk.into_output()
            };
            xor_feedback(output, chain, &saved[..len]);
            shift_in(chain, &saved[..len]);
        }
    });
}

/// CFB decryption from whole-block encryptions (SP 800-38A §6.3; GOST R
/// 34.13-2015 §5.5 with a register of z blocks, s = n): a batch's
/// keystream is the cipher of the ciphertext blocks z before each (the
/// register's, then the batch's own), all at once, XORed into the batch.
pub(crate) fn cfb_decrypt_by_blocks<C: BlockCipher>(cipher: &C, chain: &mut [u8], data: InOut<'_>) {
    let bl = C::BLOCK_LEN;
    with_scratch(data.len(), |keystream| {
        for chunk in data.chunks(keystream.len() / bl * bl) {
            let len = chunk.len();
            keystream[..len].fill(0);
            xor_feedback(&mut keystream[..len], chain, chunk.input());
            shift_in(chain, chunk.input());
            cipher.encrypt(InOut::in_place(&mut keystream[..len]));
            Xor::Simd128.apply(chunk, &keystream[..len]);
        }
    });
}

/// The shift register of GOST R 34.13-2015's modes (§5.3–§5.5) from an
/// IV of m = z·n bits: z ≥ 1 whole blocks, the first the oldest.
pub(crate) fn iv_register<C: BlockCipher>(iv: &[u8]) -> Result<Vec<u8>, Error> {
    if iv.is_empty() || !iv.len().is_multiple_of(C::BLOCK_LEN) {
        return Err(Error::BadLength {
            primitive: C::NAME,
            what: "IV",
            len: iv.len(),
            expected: format!("a positive multiple of {}", C::BLOCK_LEN),
        });
    }
    Ok(iv.to_vec())
}

/// Makes `register` the one-block IV `iv` of a new message, the old
/// contents overwritten or wiped, its allocation kept. (The usual case, a
/// register of one block, is one fixed-size copy.)
#[inline]
pub(crate) fn set_register<C: BlockCipher>(register: &mut Vec<u8>, iv: &C::Block) {
    let iv = iv.as_ref();
    if register.len() == C::BLOCK_LEN {
        register.copy_from_slice(iv);
    } else {
        crate::ct::wipe(register);
        register.clear();
        register.extend_from_slice(iv);
    }
}

/// The register after the whole blocks `blocks` have gone in at its end:
/// the last z blocks of `register ‖ blocks` (R = LSB_{m−n}(R) ‖ block,
/// once a block).
#[inline]
pub(crate) fn shift_in(register: &mut [u8], blocks: &[u8]) {
    let len = register.len();
    if let Some(last) = blocks.len().checked_sub(len) {
        // All of it replaced (a one-block register, every block).
        register.copy_from_slice(&blocks[last..]);
        return;
    }
    register.rotate_left(blocks.len());
    register[len - blocks.len()..].copy_from_slice(blocks);
}

/// `out[i] ^= (register ‖ blocks)[i]`: each block of a batch XORed with
/// the block z before it, the register's first and then the batch's own
/// (CBC and CFB decryption with a register of z blocks).
#[inline]
pub(crate) fn xor_feedback(out: &mut [u8], register: &[u8], blocks: &[u8]) {
    let k = out.len().min(register.len());
    xor_in(&mut out[..k], &register[..k]);
    let rest = out.len() - k;
    xor_in(&mut out[k..], &blocks[..rest]);
}

/// The XOR of two equally long byte strings into the first.
#[inline]
pub(crate) fn xor_in(a: &mut [u8], b: &[u8]) {
    for (x, y) in a.iter_mut().zip(b) {
        *x ^= y;
    }
}

#[cfg(test)]
mod tests {
    use super::add_be;

    #[test]
    fn counters_carry_through_every_byte_and_wrap() {
        let mut b = [0xffu8; 16];
        add_be(&mut b, 1);
        assert_eq!(b, [0; 16]);
        let mut b = [0u8; 16];
        b[8..].copy_from_slice(&[0xff; 8]);
        add_be(&mut b, 2);
        assert_eq!(u128::from_be_bytes(b), (1u128 << 64) + 1);
        let mut b = [0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff];
        add_be(&mut b, 0x1_0000_0001);
        assert_eq!(u64::from_be_bytes(b), 0xff00_0001_0000_0000);
        let mut b = 0x1234u128.to_be_bytes();
        add_be(&mut b, u128::MAX);
        assert_eq!(u128::from_be_bytes(b), 0x1233);
    }
}
