//! The counter mode ("gamma") of GOST 28147-89 (RFC 5830 §6): the IV
//! enciphered once gives the counter pair (N3, N4); before each block N3
//! gains C2 = 0x01010101 modulo 2^32 and N4 gains C1 = 0x01010104 modulo
//! 2^32 − 1, and the pair enciphered is the block's gamma. With CryptoPro
//! key meshing (RFC 4357 §2.3.2) the key changes every 1024 bytes and the
//! pair is enciphered again under the new one, as gost-engine's
//! `gost89-cnt` does.
//!
//! Pair number i of a section is computable directly from i (two
//! multiplications), so the gamma of a whole batch of blocks is enciphered
//! at once on the widest rung, and the stream is seekable.

use zeroize::Zeroize;

use super::meshing::{SECTION, mesh};
use super::{BLOCK_LEN, Gost28147, Rung, KEY_LEN, SBox};
use crate::block::with_scratch;
use crate::xor::InOut;
use crate::{Error, KeyStream, Xor};

/// C1 of RFC 5830 §6.1, added to N4 modulo 2^32 − 1.
const C1: u32 = 0x0101_0104;
/// C2 of RFC 5830 §6.1, added to N3 modulo 2^32.
const C2: u32 = 0x0101_0101;
/// 2^32 − 1, N4's modulus.
const M: u64 = 0xffff_ffff;
/// Blocks a section holds between two key meshings.
const SECTION_BLOCKS: u64 = (SECTION / BLOCK_LEN) as u64;
/// The last block before the pair (N3, N4) comes round again: N3 runs
/// through 2^32 values and N4 through 2^32 − 1 (C1 is prime to it).
const LAST_BLOCK: u128 = (1u128 << 32) * M as u128 - 1;

/// GOST 28147-89 in counter mode ("gamma", RFC 5830 §6), with CryptoPro
/// key meshing unless turned off: a [`KeyStream`], resumable at any byte and
/// seekable (backwards too: the key is meshed again from the start).
///
/// ```
/// use simdcrypt::gost28147::{Gost28147Cnt, SBox};
///
/// let (key, iv) = ([7u8; 32], [9u8; 8]);
/// let mut data = *b"gamma";
/// Gost28147Cnt::with_sbox(&key, &iv, SBox::CRYPTOPRO_A).apply_keystream(&mut data)?;
/// Gost28147Cnt::with_sbox(&key, &iv, SBox::CRYPTOPRO_A).apply_keystream(&mut data)?;
/// assert_eq!(&data, b"gamma");
/// # Ok::<(), simdcrypt::Error>(())
/// ```
#[derive(Clone)]
pub struct Gost28147Cnt {
    /// The cipher under the original key.
    initial: Gost28147,
    /// The cipher under the key of section `section`.
    cipher: Gost28147,
    /// E(IV) under the original key: section 0's pair before its first
    /// step.
    base0: [u32; 2],
    /// Section `section`'s pair (N3, N4) before its first step.
    base: [u32; 2],
    section: u64,
    meshing: bool,
    position: u128,
}

impl Gost28147Cnt {
    /// The counter mode under `key` from `iv` with the S-box set
    /// CryptoPro-A (gost-engine's `gost89-cnt`) and key meshing.
    pub fn new(key: &[u8; KEY_LEN], iv: &[u8; BLOCK_LEN]) -> Self {
        Self::with_sbox(key, iv, SBox::CRYPTOPRO_A)
    }

    /// The counter mode under `key` from `iv` with the S-box set `sbox`
    /// (`param-z` for gost-engine's `gost89-cnt-12`) and key meshing.
    pub fn with_sbox(key: &[u8; KEY_LEN], iv: &[u8; BLOCK_LEN], sbox: SBox) -> Self {
        Self::from_cipher(Gost28147::with_sbox(key, sbox), iv)
    }

    /// The counter mode over a cipher already keyed (any S-box set, any
    /// rung), with key meshing.
    pub fn from_cipher(cipher: Gost28147, iv: &[u8; BLOCK_LEN]) -> Self {
        let mut block = *iv;
        cipher
            .engine()
            .crypt_one(&cipher.engine().schedule().enc, &mut block);
        let base0 = pair(&block);
        block.zeroize();
        Gost28147Cnt {
            initial: cipher.clone(),
            cipher,
            base0,
            base: base0,
            section: 0,
            meshing: true,
            position: 0,
        }
    }

    /// The same stream with CryptoPro key meshing on or off (on by
    /// default, as gost-engine has it for every parameter set), from the
    /// same position.
    pub fn with_key_meshing(mut self, on: bool) -> Self {
        self.meshing = on;
        self.restart();
        self
    }

    /// The same key on rung `imp`.
    ///
    /// # Errors
    ///
    /// As [`Gost28147::with_rung`].
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

    /// Whether CryptoPro key meshing is on.
    pub fn key_meshing(&self) -> bool {
        self.meshing
    }

    /// Back to section 0's key and pair.
    fn restart(&mut self) {
        self.cipher = self.initial.clone();
        self.base = self.base0;
        self.section = 0;
    }

    /// Moves the key and the pair to section `section` (meshing from the
    /// start when it lies behind).
    fn goto(&mut self, section: u64) {
        if section < self.section {
            self.restart();
        }
        while self.section < section {
            // The pair after the section's last step, enciphered under the
            // new key (RFC 4357 §2.3.2).
            let mut state = counter_block(self.base, SECTION_BLOCKS - 1);
            mesh(self.cipher.engine_mut(), Some(&mut state));
            self.base = pair(&state);
            state.zeroize();
            self.section += 1;
        }
    }

    /// XORs the gamma of blocks `t`, `t + 1`, … of the current section,
    /// from byte `offset` of block `t`, into `data`.
    fn xor_section(&self, mut t: u64, mut offset: usize, data: InOut<'_>) {
        let engine = self.cipher.engine();
        with_scratch(offset + data.len(), |gamma| {
            let batch = (engine.rung().par_blocks() * BLOCK_LEN).clamp(BLOCK_LEN, gamma.len());
            let mut rest = data;
            while !rest.is_empty() {
                let n = (offset + rest.len())
                    .div_ceil(BLOCK_LEN)
                    .min(batch / BLOCK_LEN);
                // The batch's first pair from its index, the others by the
                // standard's steps (cheaper than the index's divisions).
                let [mut n3, mut n4] = pair(&counter_block(self.base, t));
                for block in gamma[..n * BLOCK_LEN].chunks_exact_mut(BLOCK_LEN) {
                    block.copy_from_slice(&(u64::from(n4) << 32 | u64::from(n3)).to_le_bytes());
                    [n3, n4] = step([n3, n4]);
                }
                engine.crypt(
                    &engine.schedule().enc,
                    InOut::in_place(&mut gamma[..n * BLOCK_LEN]),
                );
                let take = (n * BLOCK_LEN - offset).min(rest.len());
                let (head, tail) = rest.split_at(take);
                Xor::Simd128.apply(head, &gamma[offset..offset + take]);
                t += n as u64;
                offset = 0;
                rest = tail;
            }
        });
    }

    fn apply(&mut self, data: InOut<'_>) -> Result<(), Error> {
        let end = self
            .position
            .checked_add(data.len() as u128)
            .filter(|&end| end <= self.keystream_len())
            .ok_or(Error::KeystreamExhausted {
                primitive: "gost28147-cnt",
                last_block: LAST_BLOCK,
            })?;
        let mut pos = self.position;
        let mut rest = data;
        while !rest.is_empty() {
            let block = (pos / BLOCK_LEN as u128) as u64;
            let offset = (pos % BLOCK_LEN as u128) as usize;
            let (section, t, left) = if self.meshing {
                let left = SECTION - (pos % SECTION as u128) as usize;
                (block / SECTION_BLOCKS, block % SECTION_BLOCKS, left)
            } else {
                (0, block, usize::MAX)
            };
            self.goto(section);
            let take = rest.len().min(left);
            let (head, tail) = rest.split_at(take);
            pos += head.len() as u128;
            self.xor_section(t, offset, head);
            rest = tail;
        }
        self.position = end;
        Ok(())
    }
}

/// The pair (N3, N4) of a block: its little-endian words.
fn pair(block: &[u8; BLOCK_LEN]) -> [u32; 2] {
    let v = u64::from_le_bytes(*block);
    [v as u32, (v >> 32) as u32]
}

/// One step of RFC 5830 §6.1 on the pair (N3, N4): N3 + C2 modulo 2^32,
/// N4 + C1 modulo 2^32 − 1 with gost-engine's end-around carry (the sum's
/// carry out of 32 bits added back in).
fn step([n3, n4]: [u32; 2]) -> [u32; 2] {
    let (sum, carry) = n4.overflowing_add(C1);
    [n3.wrapping_add(C2), sum + u32::from(carry)]
}

/// The counter block of step `t + 1` from the pair `base`: N3 + (t + 1)·C2
/// modulo 2^32 and N4 + (t + 1)·C1 modulo 2^32 − 1, the latter written as
/// gost-engine's end-around carry leaves it (in 1 … 2^32 − 1, never 0).
fn counter_block(base: [u32; 2], t: u64) -> [u8; BLOCK_LEN] {
    let steps = t + 1;
    let n3 = base[0].wrapping_add((steps as u32).wrapping_mul(C2));
    let r = (u64::from(base[1]) % M + (steps % M) * u64::from(C1) % M) % M;
    let n4 = if r == 0 { M as u32 } else { r as u32 };
    (u64::from(n4) << 32 | u64::from(n3)).to_le_bytes()
}

impl KeyStream for Gost28147Cnt {
    fn block_len(&self) -> usize {
        BLOCK_LEN
    }

    fn keystream_len(&self) -> u128 {
        (LAST_BLOCK + 1) * BLOCK_LEN as u128
    }

    fn position(&self) -> u128 {
        self.position
    }

    fn seek(&mut self, byte_offset: u128) -> Result<(), Error> {
        if byte_offset > self.keystream_len() {
            return Err(Error::KeystreamExhausted {
                primitive: "gost28147-cnt",
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

crate::stream::inherent_keystream!([] Gost28147Cnt);

impl Drop for Gost28147Cnt {
    fn drop(&mut self) {
        self.base0.zeroize();
        self.base.zeroize();
    }
}

/// The S-box set, the rung and the position; never the key.
impl std::fmt::Debug for Gost28147Cnt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Gost28147Cnt")
            .field("cipher", &self.initial)
            .field("key_meshing", &self.meshing)
            .field("position", &self.position)
            .finish_non_exhaustive()
    }
}
