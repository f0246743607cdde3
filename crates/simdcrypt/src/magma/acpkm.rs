//! ACPKM re-keying for Magma (RFC 8645, "Re-keying Mechanisms for
//! Symmetric Keys"; R 1323565.1.017-2018): the key of each section of N
//! bytes is derived from the key of the section before, so that no key
//! enciphers more than N bytes.
//!
//! - ACPKM (RFC 8645 §6.2.1): K^(i+1) = MSB_256(E_K^i(D_1) ‖ … ‖ E_K^i(D_4)),
//!   D = 0x80 ‖ 0x81 ‖ … ‖ 0x9f read as four 64-bit blocks.
//! - CTR-ACPKM (§6.2.2, [`MagmaCtrAcpkm`]): the counter mode of GOST R
//!   34.13-2015 (counter block IV ‖ 0^32) whose key moves on by ACPKM after
//!   every section, the counter running on across sections.
//! - OMAC-ACPKM (§6.3.6, "OMAC-ACPKM-Master"; [`MagmaOmacAcpkm`]): OMAC
//!   whose blocks are enciphered under the key of their section of N
//!   bytes; the section keys K^j and their OMAC subkeys K^j_1 are drawn,
//!   40 bytes a section, from ACPKM-Master (§6.3.1): CTR-ACPKM under the
//!   master key with the IV 1^32 and sections of T* bytes, over zeros.

use zeroize::Zeroize;

use super::{BLOCK_LEN, CTR_IV_LEN, Rung, KEY_LEN, Magma};
use crate::block::BlockCipher;
use crate::block::sealed::Core;
use crate::xor::InOut;
use crate::{Error, KeyStream};

/// The section length of gost-engine's `magma-ctr-acpkm` (its
/// `key_meshing` of 1024 bytes): [`MagmaCtrAcpkm::new`]'s default.
pub const CTR_ACPKM_SECTION_LEN: usize = 1024;

/// The constant D of RFC 8645 §6.2.1: the bytes 0x80 … 0x9f.
const D: [u8; KEY_LEN] = {
    let mut d = [0u8; KEY_LEN];
    let mut i = 0;
    while i < KEY_LEN {
        d[i] = 0x80 + i as u8;
        i += 1;
    }
    d
};

/// The last counter value: the counter is the block's low 32 bits, and
/// the keystream ends after 2^32 blocks, never wrapping into the IV.
const LAST_BLOCK: u128 = u32::MAX as u128;
/// One past the last keystream byte.
const KEYSTREAM_LEN: u128 = (LAST_BLOCK + 1) * BLOCK_LEN as u128;
/// The bytes of ACPKM-Master's output a section of OMAC-ACPKM takes: its
/// key K^j and its subkey K^j_1 (k + n bits).
const KEY_MATERIAL_LEN: usize = KEY_LEN + BLOCK_LEN;

/// ACPKM (RFC 8645 §6.2.1): `cipher`'s key becomes the encryption of D
/// under it, four blocks at once on the cipher's rung.
fn acpkm(cipher: &mut Magma) {
    let mut key = D;
    cipher.encrypt(InOut::in_place(&mut key));
    cipher.engine_mut().rekey(&key);
    key.zeroize();
}

/// `len` as a section length in bytes: a positive multiple of the block.
fn section_len(primitive: &'static str, what: &'static str, len: usize) -> Result<u64, Error> {
    if len == 0 || !len.is_multiple_of(BLOCK_LEN) {
        return Err(Error::BadLength {
            primitive,
            what,
            len,
            expected: format!("a positive multiple of the {BLOCK_LEN}-byte block"),
        });
    }
    Ok(len as u64)
}

/// CTR-ACPKM under Magma (RFC 8645 §6.2.2, R 1323565.1.017-2018): the CTR
/// of GOST R 34.13-2015 §5.2 (4-byte IV, counter block IV ‖ 0^32, as
/// [`MagmaCtr`](super::MagmaCtr)) with the key replaced by ACPKM of itself
/// after every section of N bytes; the counter runs on. A [`KeyStream`] of
/// 2^32 blocks, refused past its end (never wrapped), resumable at any
/// byte and seekable (a seek backwards derives the section keys again
/// from the start, as many ACPKM steps as the section's number).
///
/// [`new`](Self::new) takes N = 1024 bytes, as gost-engine's
/// `magma-ctr-acpkm` (with its 4-byte IV) does.
///
/// ```
/// use simdcrypt::magma::MagmaCtrAcpkm;
///
/// let (key, iv) = ([7u8; 32], [1, 2, 3, 4]);
/// let mut data = *b"re-keyed every section";
/// MagmaCtrAcpkm::with_section_len(&key, &iv, 16)?.apply_keystream(&mut data)?;
/// MagmaCtrAcpkm::with_section_len(&key, &iv, 16)?.apply_keystream(&mut data)?;
/// assert_eq!(&data, b"re-keyed every section");
/// # Ok::<(), simdcrypt::Error>(())
/// ```
#[derive(Clone)]
pub struct MagmaCtrAcpkm {
    /// The cipher under the first section's key.
    initial: Magma,
    /// The cipher under the key of section `section`.
    cipher: Magma,
    section: u64,
    iv: [u8; CTR_IV_LEN],
    section_len: u64,
    position: u128,
}

impl MagmaCtrAcpkm {
    /// CTR-ACPKM under `key` from the 4-byte `iv` with sections of
    /// [`CTR_ACPKM_SECTION_LEN`] (1024) bytes, on the fastest constant-time
    /// rung.
    pub fn new(key: &[u8; KEY_LEN], iv: &[u8; CTR_IV_LEN]) -> Self {
        Self::from_cipher(Magma::new(key), iv, CTR_ACPKM_SECTION_LEN)
            .expect("1024 is a multiple of the block")
    }

    /// CTR-ACPKM under `key` from `iv` with sections of `section_len`
    /// bytes (RFC 8645's N; its Magma example takes 16).
    ///
    /// # Errors
    ///
    /// [`Error::BadLength`] when `section_len` is not a positive multiple
    /// of 8.
    pub fn with_section_len(
        key: &[u8; KEY_LEN],
        iv: &[u8; CTR_IV_LEN],
        section_len: usize,
    ) -> Result<Self, Error> {
        Self::from_cipher(Magma::new(key), iv, section_len)
    }

    /// CTR-ACPKM over a cipher already keyed (on any rung), from `iv`, with
    /// sections of `section_len` bytes.
    ///
    /// # Errors
    ///
    /// As [`with_section_len`](Self::with_section_len).
    pub fn from_cipher(
        cipher: Magma,
        iv: &[u8; CTR_IV_LEN],
        section_len: usize,
    ) -> Result<Self, Error> {
        Ok(MagmaCtrAcpkm {
            section_len: self::section_len("magma-ctr-acpkm", "section", section_len)?,
            initial: cipher.clone(),
            cipher,
            section: 0,
            iv: *iv,
            position: 0,
        })
    }

    /// The same key on rung `imp`, from the same position.
    ///
    /// # Errors
    ///
    /// As [`Magma::with_rung`].
    pub fn with_rung(mut self, imp: Rung) -> Result<Self, Error> {
        self.initial = self.initial.clone().with_rung(imp)?;
        self.restart();
        Ok(self)
    }

    /// Renamed [`with_rung`](Self::with_rung).
    #[deprecated(note = "renamed `with_rung`")]
    pub fn with_impl(self, imp: Rung) -> Result<Self, Error> {
        self.with_rung(imp)
    }

    /// The rung in use.
    pub fn rung(&self) -> Rung {
        self.initial.rung()
    }

    /// Renamed [`rung`](Self::rung).
    #[deprecated(note = "renamed `rung`")]
    pub fn implementation(&self) -> Rung {
        self.rung()
    }

    /// The section length N in bytes.
    pub fn section_len(&self) -> usize {
        self.section_len as usize
    }

    /// Back to the first section's key.
    fn restart(&mut self) {
        self.cipher = self.initial.clone();
        self.section = 0;
    }

    /// Moves the key to section `section`'s (from the start when it lies
    /// behind).
    fn goto(&mut self, section: u64) {
        if section < self.section {
            self.restart();
        }
        while self.section < section {
            acpkm(&mut self.cipher);
            self.section += 1;
        }
    }

    /// The counter block of block `block`: IV ‖ `block` as 32 bits.
    fn counter(&self, block: u64) -> [u8; BLOCK_LEN] {
        let mut c = [0u8; BLOCK_LEN];
        c[..CTR_IV_LEN].copy_from_slice(&self.iv);
        c[CTR_IV_LEN..].copy_from_slice(&(block as u32).to_be_bytes());
        c
    }

    /// XORs the keystream from byte `offset` of block `block` on into
    /// `data`, all under the current key: the rest of that block, then the
    /// whole blocks at the rung's width.
    fn xor_section(&self, mut block: u64, offset: usize, data: InOut<'_>) {
        let mut rest = data;
        if offset != 0 {
            let take = rest.len().min(BLOCK_LEN - offset);
            let (head, tail) = rest.split_at(take);
            let mut gamma = self.counter(block);
            self.cipher.encrypt_block(&mut gamma);
            head.xor_bytewise(&gamma[offset..]);
            gamma.zeroize();
            block += 1;
            rest = tail;
        }
        if !rest.is_empty() {
            self.cipher.ctr(&self.counter(block), rest);
        }
    }

    fn apply(&mut self, data: InOut<'_>) -> Result<(), Error> {
        let end = self
            .position
            .checked_add(data.len() as u128)
            .filter(|&end| end <= KEYSTREAM_LEN)
            .ok_or(Error::KeystreamExhausted {
                primitive: "magma-ctr-acpkm",
                last_block: LAST_BLOCK,
            })?;
        let n = u128::from(self.section_len);
        let mut pos = self.position;
        let mut rest = data;
        while !rest.is_empty() {
            self.goto((pos / n) as u64);
            let left = (n - pos % n) as usize;
            let take = rest.len().min(left);
            let (head, tail) = rest.split_at(take);
            let block = (pos / BLOCK_LEN as u128) as u64;
            let offset = (pos % BLOCK_LEN as u128) as usize;
            pos += head.len() as u128;
            self.xor_section(block, offset, head);
            rest = tail;
        }
        self.position = end;
        Ok(())
    }
}

impl KeyStream for MagmaCtrAcpkm {
    fn block_len(&self) -> usize {
        BLOCK_LEN
    }

    fn keystream_len(&self) -> u128 {
        KEYSTREAM_LEN
    }

    fn position(&self) -> u128 {
        self.position
    }

    fn seek(&mut self, byte_offset: u128) -> Result<(), Error> {
        if byte_offset > KEYSTREAM_LEN {
            return Err(Error::KeystreamExhausted {
                primitive: "magma-ctr-acpkm",
                last_block: LAST_BLOCK,
            });
        }
        self.position = byte_offset;
        Ok(())
    }

    fn apply_keystream(&mut self, data: &mut [u8]) -> Result<(), Error> {
        self.apply(InOut::in_place(data))
    }

    fn xor_into(&mut self, input: &[u8], output: &mut [u8]) -> Result<(), Error> {
        self.apply(InOut::apart(input, output)?)
    }
}

crate::stream::inherent_keystream!([] MagmaCtrAcpkm);

/// The rung, the section length and the position; never the key.
impl std::fmt::Debug for MagmaCtrAcpkm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MagmaCtrAcpkm")
            .field("implementation", &self.rung())
            .field("section_len", &self.section_len)
            .field("position", &self.position)
            .finish_non_exhaustive()
    }
}

/// OMAC-ACPKM under Magma (RFC 8645 §6.3.6 "OMAC-ACPKM-Master", R
/// 1323565.1.017-2018): the MAC of GOST R 34.13-2015 §5.6 whose block i is enciphered under the key
/// K^j of its section j of N bytes, the last block XORed with that
/// section's K^j_1 when whole and with K^j_1 doubled (·x in GF(2^64),
/// B64 = 0^59‖11011) when padded. K^1 ‖ K^1_1 ‖ K^2 ‖ K^2_1 ‖ … is
/// ACPKM-Master (§6.3.1) of the master key with sections of T* bytes: the
/// CTR-ACPKM keystream under it from the IV 1^32. Streaming:
/// [`update`](Self::update) with the message in pieces, then
/// [`finalize`](Self::finalize) or [`verify`](Self::verify).
///
/// ```
/// use simdcrypt::magma::MagmaOmacAcpkm;
///
/// // RFC 8645 Appendix A, the Magma OMAC-ACPKM example: N = 128 bits, T* = 640 bits.
/// let key = [
///     0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff, 0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
///     0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10, 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,
/// ];
/// let mut mac = MagmaOmacAcpkm::new(&key, 16, 80)?;
/// mac.update(&[0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x00, 0xff, 0xee, 0xdd, 0xcc])?;
/// assert_eq!(mac.finalize(), [0xa0, 0x54, 0x0e, 0x37, 0x30, 0xac, 0xbc, 0xf3]);
/// # Ok::<(), simdcrypt::Error>(())
/// ```
#[derive(Clone)]
pub struct MagmaOmacAcpkm {
    /// ACPKM-Master's keystream: the section keys and subkeys not yet
    /// drawn.
    master: MagmaCtrAcpkm,
    /// The cipher under the key of the last section drawn.
    cipher: Magma,
    /// That section's K^j_1.
    k1: [u8; BLOCK_LEN],
    /// Sections whose keys were drawn.
    drawn: u64,
    /// N in blocks.
    section_blocks: u64,
    /// The chain: the cipher of every block before `buffer`.
    state: [u8; BLOCK_LEN],
    /// The last bytes of the message, up to a whole block, not enciphered
    /// until the message is known to go on.
    buffer: [u8; BLOCK_LEN],
    buffered: usize,
    /// Blocks enciphered into `state`.
    blocks: u64,
}

impl MagmaOmacAcpkm {
    /// The tag length: one block.
    pub const TAG_LEN: usize = BLOCK_LEN;
    /// The shortest tag [`verify`](Self::verify) accepts: half a block.
    pub const MIN_TAG_LEN: usize = BLOCK_LEN / 2;

    /// OMAC-ACPKM under the master key `key`, with sections of
    /// `section_len` bytes (N) and ACPKM-Master sections of
    /// `key_section_len` bytes (T*); RFC 8645's Magma example takes 16 and
    /// 80. On the fastest constant-time rung.
    ///
    /// # Errors
    ///
    /// [`Error::BadLength`] when either length is not a positive multiple
    /// of 8.
    pub fn new(
        key: &[u8; KEY_LEN],
        section_len: usize,
        key_section_len: usize,
    ) -> Result<Self, Error> {
        Self::from_cipher(Magma::new(key), section_len, key_section_len)
    }

    /// OMAC-ACPKM over a cipher already keyed with the master key (on any
    /// rung).
    ///
    /// # Errors
    ///
    /// As [`new`](Self::new).
    pub fn from_cipher(
        cipher: Magma,
        section_len: usize,
        key_section_len: usize,
    ) -> Result<Self, Error> {
        let n = self::section_len("magma-omac-acpkm", "section", section_len)?;
        let master =
            MagmaCtrAcpkm::from_cipher(cipher.clone(), &[0xff; CTR_IV_LEN], key_section_len)
                .map_err(|e| match e {
                    Error::BadLength { len, expected, .. } => Error::BadLength {
                        primitive: "magma-omac-acpkm",
                        what: "key section (T*)",
                        len,
                        expected,
                    },
                    e => e,
                })?;
        Ok(MagmaOmacAcpkm {
            master,
            cipher,
            k1: [0; BLOCK_LEN],
            drawn: 0,
            section_blocks: n / BLOCK_LEN as u64,
            state: [0; BLOCK_LEN],
            buffer: [0; BLOCK_LEN],
            buffered: 0,
            blocks: 0,
        })
    }

    /// The same keys on rung `imp`, from the same point of the message.
    ///
    /// # Errors
    ///
    /// As [`Magma::with_rung`].
    pub fn with_rung(mut self, imp: Rung) -> Result<Self, Error> {
        self.master = self.master.clone().with_rung(imp)?;
        self.cipher = self.cipher.clone().with_rung(imp)?;
        Ok(self)
    }

    /// Renamed [`with_rung`](Self::with_rung).
    #[deprecated(note = "renamed `with_rung`")]
    pub fn with_impl(self, imp: Rung) -> Result<Self, Error> {
        self.with_rung(imp)
    }

    /// The rung in use.
    pub fn rung(&self) -> Rung {
        self.cipher.rung()
    }

    /// Renamed [`rung`](Self::rung).
    #[deprecated(note = "renamed `rung`")]
    pub fn implementation(&self) -> Rung {
        self.rung()
    }

    /// The section (from 0) of block `block` (from 0).
    fn section_of(&self, block: u64) -> u64 {
        block / self.section_blocks
    }

    /// Draws the keys of sections up to `section` from ACPKM-Master.
    ///
    /// # Errors
    ///
    /// [`Error::KeystreamExhausted`] when ACPKM-Master has no more; the
    /// callers rule it out first.
    fn draw(&mut self, section: u64) -> Result<(), Error> {
        while self.drawn <= section {
            let mut material = [0u8; KEY_MATERIAL_LEN];
            self.master.apply_keystream(&mut material)?;
            self.cipher.engine_mut().rekey(&material[..KEY_LEN]);
            self.k1.copy_from_slice(&material[KEY_LEN..]);
            material.zeroize();
            self.drawn += 1;
        }
        Ok(())
    }

    /// Adds `data` to the message.
    ///
    /// # Errors
    ///
    /// [`Error::KeystreamExhausted`] when the message would need more
    /// section keys than ACPKM-Master's 2^32 blocks hold (2^35 / 40
    /// sections); nothing is added then.
    pub fn update(&mut self, mut data: &[u8]) -> Result<(), Error> {
        // Every block but the message's last is enciphered here; the last
        // one's section must have keys too, for `finalize`.
        let len = u128::from(self.blocks) * BLOCK_LEN as u128
            + self.buffered as u128
            + data.len() as u128;
        let last_block = len.saturating_sub(1) / BLOCK_LEN as u128;
        let last_section = last_block / u128::from(self.section_blocks);
        if (last_section + 1) * KEY_MATERIAL_LEN as u128 > KEYSTREAM_LEN {
            return Err(Error::KeystreamExhausted {
                primitive: "magma-omac-acpkm (ACPKM-Master)",
                last_block: LAST_BLOCK,
            });
        }
        while !data.is_empty() {
            if self.buffered == BLOCK_LEN {
                self.draw(self.section_of(self.blocks))?;
                xor_in(&mut self.state, &self.buffer);
                self.cipher.encrypt_block(&mut self.state);
                self.blocks += 1;
                self.buffered = 0;
            }
            let take = data.len().min(BLOCK_LEN - self.buffered);
            self.buffer[self.buffered..self.buffered + take].copy_from_slice(&data[..take]);
            self.buffered += take;
            data = &data[take..];
        }
        Ok(())
    }

    /// The tag: the last block (padded with 1 0… when short, GOST R
    /// 34.13-2015 procedure 3) XORed with the chain and its section's
    /// K^j_1 (whole) or K^j_1·x (padded), enciphered under K^j.
    pub fn finalize(mut self) -> [u8; BLOCK_LEN] {
        let section = self.section_of(self.blocks);
        self.draw(section)
            .expect("update ruled out running out of section keys");
        let mut last = self.buffer;
        let mut k = self.k1;
        if self.buffered < BLOCK_LEN {
            last[self.buffered] = 0x80;
            last[self.buffered + 1..].fill(0);
            // K^j_1 · x in GF(2^64): shift left, fold the bit out back in
            // as B64 = 0x1b, without a branch on it.
            let v = u64::from_be_bytes(k);
            k = ((v << 1) ^ ((v >> 63).wrapping_neg() & 0x1b)).to_be_bytes();
        }
        let mut tag = self.state;
        xor_in(&mut tag, &last);
        xor_in(&mut tag, &k);
        self.cipher.encrypt_block(&mut tag);
        last.zeroize();
        k.zeroize();
        tag
    }

    /// Checks `tag` (the whole tag or its first bytes, at least
    /// [`MIN_TAG_LEN`](Self::MIN_TAG_LEN)) in constant time.
    ///
    /// # Errors
    ///
    /// [`Error::TagLength`] for a tag too short or too long;
    /// [`Error::AuthenticationFailed`] when it does not match.
    pub fn verify(self, tag: &[u8]) -> Result<(), Error> {
        crate::tag::verify_truncated(tag, Self::MIN_TAG_LEN, Self::TAG_LEN, || self.finalize())
    }
}

/// `a ^= b`.
fn xor_in(a: &mut [u8; BLOCK_LEN], b: &[u8; BLOCK_LEN]) {
    for (x, y) in a.iter_mut().zip(b) {
        *x ^= y;
    }
}

impl Drop for MagmaOmacAcpkm {
    fn drop(&mut self) {
        self.k1.zeroize();
        self.state.zeroize();
        self.buffer.zeroize();
    }
}

/// The rung and the section length; never a key.
impl std::fmt::Debug for MagmaOmacAcpkm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MagmaOmacAcpkm")
            .field("implementation", &self.rung())
            .field("section_len", &(self.section_blocks * BLOCK_LEN as u64))
            .field("key_section_len", &self.master.section_len)
            .finish_non_exhaustive()
    }
}
