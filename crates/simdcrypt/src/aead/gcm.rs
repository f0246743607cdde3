//! AES-GCM (NIST SP 800-38D): AES in counter mode with the 32-bit
//! `inc32` counter (§6.2, §6.5), and GHASH (§6.4) of the associated data
//! and the ciphertext, the tag `E(K, J0) ⊕ S` (§7.1).
//!
//! `H = E(K, 0^128)` and its powers are computed once, at [`AesGcm::new`],
//! so that short messages pay only for their own blocks. Where the CPU has
//! VAES and VPCLMULQDQ, every message runs through one stitched kernel
//! ([`GcmKernel`]): AES-CTR interleaved with the GHASH of the ciphertext,
//! 32 blocks a step on zmm registers where the CPU has AVX-512
//! (`gcm_vaes512`), else 16 on ymm (`gcm_vaes`); `bench/NOTES.md`
//! (`aes-gcm-zmm`) has the measurements behind that choice. On aarch64
//! with the AES instructions and PMULL, the kernel is `gcm_armv8`, 8
//! blocks a step. Elsewhere, or
//! on rungs chosen with [`AesGcm::with_rung`], the message is encrypted a chunk at a time on
//! AES's rung and hashed on GHASH's while the chunk is still in cache;
//! decryption hashes a chunk, then decrypts it, and zeroes the whole output
//! when the tag does not match.

use std::fmt;

use subtle::ConstantTimeEq;
use zeroize::{Zeroize, Zeroizing};

use super::{NONCE_LEN, TAG_LEN, aead_methods, sealed_parts};
use crate::Error;
use crate::aes::{self, Aes, Bits128, Bits192, Bits256, KeySize};
use crate::block::BlockCipher;
use crate::block::Counter32;
use crate::block::sealed::Core;
use crate::ghash::{self, Variant};
use crate::xor::InOut;

/// The longest plaintext, in bytes: 2^32 − 2 blocks (SP 800-38D §5.2.1.1,
/// `len(P) ≤ 2^39 − 256` bits), so that no counter block repeats.
pub const GCM_P_MAX: u64 = (1 << 36) - 32;
/// The longest associated data, in bytes (`len(A) ≤ 2^64 − 1` bits).
pub const GCM_A_MAX: u64 = (1 << 61) - 1;

/// How much is encrypted and then hashed at a time off the stitched
/// kernel: a multiple of the block, small enough to stay in L1/L2.
const CHUNK: usize = 16 << 10;

/// The counter of GCM: `inc32`, the last 32 bits big-endian (§6.2).
const INC32: Counter32 = Counter32::LastBigEndian;

/// AES-GCM with a key of size `K` (NIST SP 800-38D): use the aliases
/// [`Aes128Gcm`], [`Aes192Gcm`], [`Aes256Gcm`]. 96-bit nonces through the
/// methods every AEAD here has; IVs of any other non-zero length through
/// the `_with_iv` forms. The tag (16 bytes) follows the ciphertext.
/// Plaintexts up to [`GCM_P_MAX`] bytes. The key schedule, `H` and its
/// powers are zeroized on drop.
///
/// ```
/// use simdcrypt::aead::Aes128Gcm;
///
/// let aead = Aes128Gcm::new(&[0x42; 16]);
/// let sealed = aead.encrypt(&[7; 12], b"header", b"a secret");
/// assert_eq!(aead.decrypt(&[7; 12], b"header", &sealed)?, b"a secret");
/// // An IV of another length (J0 then comes from GHASH, §7.1 step 2).
/// let sealed = aead.encrypt_with_iv(&[7; 8], b"header", b"a secret")?;
/// assert_eq!(aead.decrypt_with_iv(&[7; 8], b"header", &sealed)?, b"a secret");
/// assert!(aead.encrypt_with_iv(&[], b"", b"").is_err());
/// # Ok::<(), simdcrypt::Error>(())
/// ```
#[derive(Clone)]
pub struct AesGcm<K: KeySize> {
    aes: Aes<K>,
    /// GHASH under `H`, with `H^8 … H^1`.
    hash: ghash::Key,
    /// The stitched kernel messages run through, if any.
    kernel: Option<GcmKernel>,
    /// What the zmm kernel reads per key (zeros for the others).
    wide: Zeroizing<WideTables>,
}

/// The zmm kernel's tables of a key (`gcm_vaes512`), made once at
/// [`AesGcm::new`] rather than at each message, and 64-byte aligned: the
/// round keys, each broadcast to four lanes, and `H^64 … H^1`. A copy
/// made per message cost the short messages some 40 cycles (15 stores,
/// and 15 more to wipe them): `bench/NOTES.md`, `aes-gcm-zmm`.
#[derive(Clone)]
#[repr(C, align(64))]
pub(crate) struct WideTables {
    /// Round keys `0..=Nr` in all four lanes (zeros after).
    pub(crate) keys: [[u8; 64]; 15],
    /// `H^64 … H^1`.
    pub(crate) powers: [u128; 64],
}

impl Zeroize for WideTables {
    fn zeroize(&mut self) {
        self.keys.zeroize();
        self.powers.zeroize();
    }
}

/// AES-GCM's stitched kernels: AES-CTR and GHASH interleaved in one loop
/// over the message, the tail and short messages inside it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GcmKernel {
    /// VAES and VPCLMULQDQ on ymm registers (AVX2; AVX-512VL's 32
    /// registers where the CPU has them): 16 blocks a step, as eight
    /// registers of two.
    Vaes,
    /// VAES and VPCLMULQDQ on zmm registers (AVX-512F, BW and VL): 32
    /// blocks a step as eight registers of four, the tail through masked
    /// loads and stores.
    Vaes512,
    /// ARMv8's AES instructions and PMULL (aarch64): 8 blocks a step, one
    /// a register.
    Armv8,
}

impl GcmKernel {
    /// Every kernel: x86-64's, narrowest first, then aarch64's.
    pub const ALL: [GcmKernel; 3] = [GcmKernel::Vaes, GcmKernel::Vaes512, GcmKernel::Armv8];

    /// The kernel's name: `vaes`, `vaes512` or `armv8`, as AES's rungs of
    /// the same instructions are named.
    pub fn name(self) -> &'static str {
        match self {
            GcmKernel::Vaes => "vaes",
            GcmKernel::Vaes512 => "vaes512",
            GcmKernel::Armv8 => "armv8",
        }
    }

    /// What the kernel needs from the CPU, in words.
    pub fn needs(self) -> &'static str {
        match self {
            GcmKernel::Vaes => "VAES, VPCLMULQDQ, AES-NI, PCLMULQDQ and AVX2",
            GcmKernel::Vaes512 => "VAES, VPCLMULQDQ, AES-NI, PCLMULQDQ and AVX-512F/BW/VL",
            GcmKernel::Armv8 => "NEON, AES and PMULL",
        }
    }

    /// Whether this CPU, under the `SIMDCRYPT_MAX_ISA` cap, runs it.
    pub fn is_available(self) -> bool {
        match self {
            GcmKernel::Vaes => super::gcm_vaes::available(),
            #[cfg(target_arch = "x86_64")]
            GcmKernel::Vaes512 => super::gcm_vaes512::available(),
            #[cfg(not(target_arch = "x86_64"))]
            GcmKernel::Vaes512 => false,
            #[cfg(target_arch = "aarch64")]
            GcmKernel::Armv8 => super::gcm_armv8::available(),
            #[cfg(not(target_arch = "aarch64"))]
            GcmKernel::Armv8 => false,
        }
    }

    /// The kernel, if this CPU runs it; for `primitive`'s error otherwise.
    ///
    /// # Errors
    ///
    /// [`Error::RungUnavailable`] when the CPU lacks the kernel.
    pub(crate) fn require(self, primitive: &'static str) -> Result<GcmKernel, Error> {
        if self.is_available() {
            Ok(self)
        } else {
            Err(Error::RungUnavailable {
                primitive,
                name: self.name(),
                needs: self.needs(),
            })
        }
    }

    /// The kernel [`AesGcm::new`] picks: `vaes512` wherever it runs (on
    /// every CPU with AVX-512 measured so far the zmm kernel is the faster:
    /// `bench/NOTES.md`, `aes-gcm-zmm`), else `vaes`; on aarch64 `armv8`;
    /// else none.
    pub fn best() -> Option<GcmKernel> {
        [GcmKernel::Vaes512, GcmKernel::Vaes, GcmKernel::Armv8]
            .into_iter()
            .find(|k| k.is_available())
    }
}

/// AES-128-GCM (`AEAD_AES_128_GCM`, RFC 5116 §5.1).
pub type Aes128Gcm = AesGcm<Bits128>;
/// AES-192-GCM.
pub type Aes192Gcm = AesGcm<Bits192>;
/// AES-256-GCM (`AEAD_AES_256_GCM`, RFC 5116 §5.2).
pub type Aes256Gcm = AesGcm<Bits256>;

/// The primitive's name in the table and in messages.
fn name<K: KeySize>() -> &'static str {
    match K::LEN {
        16 => "aes-128-gcm",
        24 => "aes-192-gcm",
        _ => "aes-256-gcm",
    }
}

/// Refuses what SP 800-38D §5.2.1.1 does not allow: a plaintext over
/// [`GCM_P_MAX`] bytes or associated data over [`GCM_A_MAX`].
fn check_len(aad: &[u8], len: usize) -> Result<(), Error> {
    for (len, max) in [(len, GCM_P_MAX), (aad.len(), GCM_A_MAX)] {
        if len as u64 > max {
            return Err(Error::MessageTooLong {
                len: len as u64,
                max,
            });
        }
    }
    Ok(())
}

impl<K: KeySize> AesGcm<K> {
    /// The AEAD under `key`: the AES key schedule, `H = E(K, 0^128)` and
    /// its powers, on the fastest rungs (the stitched kernel where the CPU
    /// runs it).
    pub fn new(key: &K::Key) -> Self {
        Self::from_cipher(Aes::new(key))
    }

    /// The AEAD over the cipher `aes`.
    fn from_cipher(aes: Aes<K>) -> Self {
        let mut h = [0u8; 16];
        aes.encrypt_block(&mut h);
        let hash = ghash::Key::new(Variant::Ghash, &h);
        h.zeroize();
        AesGcm {
            aes,
            hash,
            kernel: None,
            wide: Zeroizing::new(WideTables {
                keys: [[0; 64]; 15],
                powers: [0; 64],
            }),
        }
        .on_kernel(GcmKernel::best())
    }

    /// The same on the stitched kernel `kernel` (or none), with the tables
    /// it reads.
    fn on_kernel(mut self, kernel: Option<GcmKernel>) -> Self {
        if kernel == Some(GcmKernel::Vaes512) {
            for (wide, key) in self.wide.keys.iter_mut().zip(self.aes.round_keys()) {
                for lane in wide.chunks_exact_mut(16) {
                    lane.copy_from_slice(key);
                }
            }
            self.wide.powers = self.hash.powers64();
        }
        AesGcm { kernel, ..self }
    }

    /// The same key on the stitched kernel `kernel` (AES's and GHASH's
    /// rungs then hash only IVs of other lengths than 96 bits).
    ///
    /// # Errors
    ///
    /// [`Error::RungUnavailable`] when the CPU lacks the kernel.
    pub fn with_kernel(self, kernel: GcmKernel) -> Result<Self, Error> {
        Ok(self.on_kernel(Some(kernel.require(name::<K>())?)))
    }

    /// The same key with AES on rung `aes` and GHASH on rung `ghash`,
    /// off the stitched kernel.
    ///
    /// # Errors
    ///
    /// [`Error::RungUnavailable`] when the CPU lacks a rung,
    /// [`Error::VariableTimeRung`] for a `reference` rung without the
    /// `hazmat` feature.
    pub fn with_rung(self, aes: aes::Rung, ghash: ghash::Rung) -> Result<Self, Error> {
        Ok(AesGcm {
            aes: self.aes.with_rung(aes)?,
            hash: self.hash.with_rung(ghash)?,
            kernel: None,
            wide: self.wide,
        })
    }

    /// Renamed [`with_rung`](Self::with_rung).
    #[deprecated(note = "renamed `with_rung`")]
    pub fn with_impl(self, aes: aes::Rung, ghash: ghash::Rung) -> Result<Self, Error> {
        self.with_rung(aes, ghash)
    }

    /// The rungs of AES and GHASH in use, and whether messages run
    /// through a stitched kernel instead ([`Self::kernel`] says which).
    pub fn rung(&self) -> (aes::Rung, ghash::Rung, bool) {
        (
            self.aes.rung(),
            self.hash.rung(),
            self.kernel.is_some(),
        )
    }

    /// Renamed [`rung`](Self::rung).
    #[deprecated(note = "renamed `rung`")]
    pub fn implementation(&self) -> (aes::Rung, ghash::Rung, bool) {
        self.rung()
    }

    /// The stitched kernel messages run through, if any.
    pub fn kernel(&self) -> Option<GcmKernel> {
        self.kernel
    }

    /// GCM-AE (`open` false) or GCM-AD of `data` on the stitched kernel
    /// `kernel`: the tag (to compare, when opening).
    fn stitched(
        &self,
        kernel: GcmKernel,
        j0: &[u8; 16],
        aad: &[u8],
        data: InOut<'_>,
        open: bool,
    ) -> [u8; TAG_LEN] {
        let (keys, powers) = (self.aes.round_keys(), &self.hash.powers);
        match kernel {
            GcmKernel::Vaes => super::gcm_vaes::tag(keys, powers, j0, aad, data, open),
            #[cfg(target_arch = "x86_64")]
            GcmKernel::Vaes512 => {
                super::gcm_vaes512::tag(&self.wide, keys.len() - 1, j0, aad, data, open)
            }
            #[cfg(not(target_arch = "x86_64"))]
            GcmKernel::Vaes512 => unreachable!("no zmm kernel off x86-64"),
            #[cfg(target_arch = "aarch64")]
            GcmKernel::Armv8 => super::gcm_armv8::tag(keys, powers, j0, aad, data, open),
            #[cfg(not(target_arch = "aarch64"))]
            GcmKernel::Armv8 => unreachable!("no ARMv8 kernel off aarch64"),
        }
    }

    /// `J0 = IV ‖ 0^31 ‖ 1` for a 96-bit IV (§7.1, step 2).
    fn j0_of_nonce(nonce: &[u8; NONCE_LEN]) -> [u8; 16] {
        let mut j0 = [0u8; 16];
        j0[..NONCE_LEN].copy_from_slice(nonce);
        j0[15] = 1;
        j0
    }

    /// `J0` for an IV of any non-zero length (§7.1, step 2): as above for
    /// 96 bits, else `GHASH_H(IV ‖ 0^(s+64) ‖ [len(IV)]_64)`.
    fn j0_of_iv(&self, iv: &[u8]) -> Result<[u8; 16], Error> {
        if let Ok(nonce) = iv.try_into() {
            return Ok(Self::j0_of_nonce(nonce));
        }
        let bits = (iv.len() as u64).checked_mul(8);
        let Some(bits) = bits.filter(|&b| b > 0) else {
            return Err(Error::BadLength {
                primitive: name::<K>(),
                what: "IV",
                len: iv.len(),
                expected: "at least 1 byte (12 recommended)".to_owned(),
            });
        };
        let mut acc = 0;
        self.hash.update_padded(&mut acc, iv);
        let mut lengths = [0u8; 16];
        lengths[8..].copy_from_slice(&bits.to_be_bytes());
        self.hash.update(&mut acc, &lengths);
        Ok(self.hash.output(acc))
    }

    /// The tag from the GHASH accumulator over `A` and `C`: the lengths
    /// block `[len(A)]_64 ‖ [len(C)]_64` absorbed, then `E(K, J0) ⊕ S`
    /// (§7.1, steps 5–6).
    fn tag(&self, mut acc: u128, aad_len: usize, ct_len: usize, j0: &[u8; 16]) -> [u8; TAG_LEN] {
        let mut lengths = [0u8; 16];
        lengths[..8].copy_from_slice(&((aad_len as u64) * 8).to_be_bytes());
        lengths[8..].copy_from_slice(&((ct_len as u64) * 8).to_be_bytes());
        self.hash.update(&mut acc, &lengths);
        let s = self.hash.output(acc);
        let mut tag = *j0;
        self.aes.encrypt_block(&mut tag);
        for (t, s) in tag.iter_mut().zip(s) {
            *t ^= s;
        }
        tag
    }

    /// GCM-AE (§7.1) of `data` (in place, or from its input into its
    /// output) with the pre-counter block `j0`: the tag.
    pub(crate) fn seal_j0(
        &self,
        j0: &[u8; 16],
        aad: &[u8],
        mut data: InOut<'_>,
    ) -> Result<[u8; TAG_LEN], Error> {
        check_len(aad, data.len())?;
        if let Some(kernel) = self.kernel {
            return Ok(self.stitched(kernel, j0, aad, data, false));
        }
        let len = data.len();
        let mut acc = 0;
        self.hash.update_padded(&mut acc, aad);
        let mut counter = *j0;
        INC32.add(&mut counter, 1);
        for mut chunk in data.reborrow().chunks(CHUNK) {
            let blocks = chunk.len().div_ceil(16) as u32;
            self.aes.ctr32(&counter, chunk.reborrow(), INC32);
            self.hash.update_padded(&mut acc, chunk.into_output());
            INC32.add(&mut counter, blocks);
        }
        Ok(self.tag(acc, aad.len(), len, j0))
    }

    /// GCM-AD (§7.2) of `data` with the pre-counter block `j0`: the
    /// output holds the plaintext when `tag` matches and zeros when not.
    pub(crate) fn open_j0(
        &self,
        j0: &[u8; 16],
        aad: &[u8],
        mut data: InOut<'_>,
        tag: &[u8; TAG_LEN],
    ) -> Result<(), Error> {
        check_len(aad, data.len())?;
        let len = data.len();
        let expected = if let Some(kernel) = self.kernel {
            self.stitched(kernel, j0, aad, data.reborrow(), true)
        } else {
            let mut acc = 0;
            self.hash.update_padded(&mut acc, aad);
            let mut counter = *j0;
            INC32.add(&mut counter, 1);
            for chunk in data.reborrow().chunks(CHUNK) {
                let blocks = chunk.len().div_ceil(16) as u32;
                self.hash.update_padded(&mut acc, chunk.input());
                self.aes.ctr32(&counter, chunk, INC32);
                INC32.add(&mut counter, blocks);
            }
            self.tag(acc, aad.len(), len, j0)
        };
        // Declassified (docs/constant-time.md): whether the tag matched is
        // the answer the caller is given.
        if crate::ct::declassify(bool::from(expected.ct_eq(tag))) {
            Ok(())
        } else {
            data.into_output().zeroize();
            Err(Error::AuthenticationFailed)
        }
    }

    /// The detached seal under a 96-bit nonce: what every encrypting
    /// method of the common AEAD interface comes to.
    pub(crate) fn seal_inout(
        &self,
        nonce: &[u8; NONCE_LEN],
        aad: &[u8],
        data: InOut<'_>,
    ) -> Result<[u8; TAG_LEN], Error> {
        self.seal_j0(&Self::j0_of_nonce(nonce), aad, data)
    }

    /// The detached open under a 96-bit nonce.
    pub(crate) fn open_inout(
        &self,
        nonce: &[u8; NONCE_LEN],
        aad: &[u8],
        data: InOut<'_>,
        tag: &[u8; TAG_LEN],
    ) -> Result<(), Error> {
        self.open_j0(&Self::j0_of_nonce(nonce), aad, data, tag)
    }

    /// Seals `plaintext` with `aad` under an IV of any non-zero length
    /// (§8.2: 96 bits is the length to use; others go through GHASH): the
    /// ciphertext and the tag.
    ///
    /// # Errors
    ///
    /// [`Error::BadLength`] for an empty IV; [`Error::MessageTooLong`]
    /// past [`GCM_P_MAX`] or [`GCM_A_MAX`].
    pub fn encrypt_with_iv(
        &self,
        iv: &[u8],
        aad: &[u8],
        plaintext: &[u8],
    ) -> Result<Vec<u8>, Error> {
        check_len(aad, plaintext.len())?;
        let j0 = self.j0_of_iv(iv)?;
        let mut sealed = vec![0u8; plaintext.len() + TAG_LEN];
        let (ct, tag) = sealed.split_at_mut(plaintext.len());
        tag.copy_from_slice(&self.seal_j0(&j0, aad, InOut::apart(plaintext, ct)?)?);
        Ok(sealed)
    }

    /// Opens what [`Self::encrypt_with_iv`] sealed.
    ///
    /// # Errors
    ///
    /// [`Error::AuthenticationFailed`] when the tag does not match (no
    /// plaintext is returned); [`Error::SealedTooShort`] when `sealed`
    /// cannot hold a tag; as [`Self::encrypt_with_iv`].
    pub fn decrypt_with_iv(&self, iv: &[u8], aad: &[u8], sealed: &[u8]) -> Result<Vec<u8>, Error> {
        let (tag_at, ct_at) =
            sealed_parts(sealed.len(), sealed.len().saturating_sub(TAG_LEN), false)?;
        let j0 = self.j0_of_iv(iv)?;
        let tag: &[u8; TAG_LEN] = sealed[tag_at].try_into().expect("TAG_LEN bytes");
        let mut plaintext = vec![0u8; ct_at.len()];
        self.open_j0(&j0, aad, InOut::apart(&sealed[ct_at], &mut plaintext)?, tag)?;
        Ok(plaintext)
    }

    /// Encrypts `data` in place under an IV of any non-zero length and
    /// returns the tag.
    ///
    /// # Errors
    ///
    /// As [`Self::encrypt_with_iv`]; nothing is written then.
    pub fn encrypt_in_place_detached_with_iv(
        &self,
        iv: &[u8],
        aad: &[u8],
        data: &mut [u8],
    ) -> Result<[u8; TAG_LEN], Error> {
        check_len(aad, data.len())?;
        let j0 = self.j0_of_iv(iv)?;
        self.seal_j0(&j0, aad, InOut::in_place(data))
    }

    /// Checks `tag` and decrypts `data` in place under an IV of any
    /// non-zero length.
    ///
    /// # Errors
    ///
    /// [`Error::AuthenticationFailed`] when the tag does not match: `data`
    /// is then all zeros. As [`Self::encrypt_with_iv`] otherwise.
    pub fn decrypt_in_place_detached_with_iv(
        &self,
        iv: &[u8],
        aad: &[u8],
        data: &mut [u8],
        tag: &[u8; TAG_LEN],
    ) -> Result<(), Error> {
        let j0 = self.j0_of_iv(iv)?;
        self.open_j0(&j0, aad, InOut::in_place(data), tag)
    }
}

impl<K: KeySize> fmt::Debug for AesGcm<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct(name::<K>())
            .field("implementation", &self.rung())
            .finish_non_exhaustive()
    }
}

aead_methods! {
    impl[K: KeySize] AesGcm<K>;
    name = name::<K>(),
    nonce = [u8; NONCE_LEN],
    tag_first = false,
    aad = [aad],
    with_aad = " with `aad`",
    check = check_len,
    refused = "the message is longer than [`GCM_P_MAX`] bytes ([`Error::MessageTooLong`])",
}

/// The last partial step of a stitched kernel (`gcm_vaes`, `gcm_armv8`:
/// 8 blocks), zero-padded on the stack, and the blocks GHASH takes after
/// it: the step's ciphertext, then the lengths block `[len(A)]_64 ‖
/// [len(C)]_64` (SP 800-38D §7.1 step 5). The kernel XORs its keystream
/// into [`Tail::text`] between [`Tail::new`] and [`Tail::finish`]; both
/// buffers are wiped when the `Tail` is dropped.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
pub(super) struct Tail {
    /// The message's last `n` bytes, then zeros.
    pub(super) text: [u8; 128],
    /// The ciphertext's `n` bytes, zero-padded to whole blocks, then the
    /// lengths block.
    hashed: [u8; 144],
    n: usize,
}

#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
impl Tail {
    /// The last `n < 128` bytes of the input at `src`; with `open`, they
    /// are the ciphertext to hash.
    ///
    /// # Safety
    ///
    /// `src` is readable for `n` bytes.
    #[inline]
    pub(super) unsafe fn new(src: *const u8, n: usize, open: bool) -> Tail {
        let mut tail = Tail {
            text: [0; 128],
            hashed: [0; 144],
            n,
        };
        assert!(n < 128, "a tail is shorter than a step");
        // SAFETY: the caller's promise; `n < 128`, the buffer's length.
        unsafe { core::ptr::copy_nonoverlapping(src, tail.text.as_mut_ptr(), n) };
        if open {
            tail.hashed[..n].copy_from_slice(&tail.text[..n]);
        }
        tail
    }

    /// Writes the text (now XORed with the keystream) to `dst` and gives
    /// the blocks left to hash: the ciphertext's, then the lengths block
    /// of `aad_len` bytes of associated data and a `len`-byte message.
    ///
    /// # Safety
    ///
    /// `dst` is writable for the `n` bytes given to [`Tail::new`].
    #[inline]
    pub(super) unsafe fn finish(
        &mut self,
        dst: *mut u8,
        open: bool,
        aad_len: usize,
        len: usize,
    ) -> &[u8] {
        let n = self.n;
        // SAFETY: the caller's promise; `n < 128`.
        unsafe { core::ptr::copy_nonoverlapping(self.text.as_ptr(), dst, n) };
        if !open {
            self.hashed[..n].copy_from_slice(&self.text[..n]);
        }
        let at = 16 * n.div_ceil(16);
        self.hashed[at..at + 8].copy_from_slice(&((aad_len as u64) * 8).to_be_bytes());
        self.hashed[at + 8..at + 16].copy_from_slice(&((len as u64) * 8).to_be_bytes());
        &self.hashed[..at + 16]
    }
}

#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
impl Drop for Tail {
    fn drop(&mut self) {
        crate::ct::wipe(&mut self.text);
        crate::ct::wipe(&mut self.hashed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_limits_of_sp_800_38d_are_errors() {
        assert!(check_len(&[], GCM_P_MAX as usize).is_ok());
        assert!(matches!(
            check_len(&[], GCM_P_MAX as usize + 1),
            Err(Error::MessageTooLong { max: GCM_P_MAX, .. })
        ));
        // 2^32 − 2 blocks: the counter blocks inc32(J0) … never reach J0
        // again, whatever J0's last 32 bits.
        assert_eq!(GCM_P_MAX, ((1u64 << 32) - 2) * 16);
    }

    #[test]
    fn an_empty_iv_is_refused() {
        let aead = Aes128Gcm::new(&[0; 16]);
        assert!(matches!(
            aead.encrypt_with_iv(&[], b"", b"x"),
            Err(Error::BadLength {
                what: "IV",
                len: 0,
                ..
            })
        ));
        let mut data = [1u8; 4];
        assert!(
            aead.decrypt_in_place_detached_with_iv(&[], b"", &mut data, &[0; 16])
                .is_err()
        );
        assert_eq!(data, [1; 4], "nothing decrypted");
    }
}
