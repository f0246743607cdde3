//! Magma, the 64-bit block cipher of GOST R 34.12-2015 (RFC 8891): GOST
//! 28147-89 with its S-box fixed to `π'` (the set `param-z`) and its
//! blocks and key read big-endian, on the same ladder
//! ([`Rung`], shared with [`crate::gost28147`]); with the modes of
//! GOST R 34.13-2015 over the block layer.
//!
//! ```
//! use simdcrypt::magma::Magma;
//!
//! // RFC 8891 Appendix A.5.
//! let key: [u8; 32] = core::array::from_fn(|i| {
//!     if i < 16 { 0xff - 0x11 * i as u8 } else { 0xf0 + (i - 16) as u8 }
//! });
//! let mut block = 0xfedcba9876543210u64.to_be_bytes();
//! Magma::new(&key).encrypt_blocks(&mut block)?;
//! assert_eq!(block, 0x4ee901e5c2d8ca3du64.to_be_bytes());
//! # Ok::<(), simdcrypt::Error>(())
//! ```

mod acpkm;
// The checks of the kit (`simdcrypt::kit`), beside the entry in the table.
#[cfg(feature = "kit")]
pub(crate) mod checks;
mod ladder;
pub(crate) use ladder::LADDER;
mod mgm;
#[cfg(target_arch = "x86_64")]
mod pclmul;

pub use acpkm::{CTR_ACPKM_SECTION_LEN, MagmaCtrAcpkm, MagmaOmacAcpkm};

pub use mgm::{MGM_MAX, MagmaMgm, NONCE_LEN as MGM_NONCE_LEN, TAG_LEN as MGM_TAG_LEN};

use crate::block::{Cbc, Cfb, Cmac, Ctr, Ecb, HalfBlock, Ofb};
pub use crate::gost28147::{BLOCK_LEN, Rung, KEY_LEN};
use crate::gost28147::{Engine, Order, SBox, engine_block_cipher};

/// Magma (GOST R 34.12-2015, RFC 8891) under a 256-bit key, on one rung.
#[derive(Clone)]
pub struct Magma {
    engine: Engine,
}

/// ECB under Magma (GOST R 34.13-2015 §5.1; [`Ecb`]).
pub type MagmaEcb = Ecb<Magma>;
/// CBC under Magma (GOST R 34.13-2015 §5.4; [`Cbc`]): `new` with a
/// one-block IV, `with_iv_register` with the standard's IV of z blocks
/// (A.2.4 uses three).
pub type MagmaCbc = Cbc<Magma>;
/// CFB under Magma with s = n (GOST R 34.13-2015 §5.5; [`Cfb`]): `new`
/// with a one-block IV, `with_iv_register` with z blocks (A.2.5 uses two).
pub type MagmaCfb = Cfb<Magma>;
/// OFB under Magma with s = n (GOST R 34.13-2015 §5.3; [`Ofb`]): `new`
/// with a one-block IV, `with_iv_register` with z blocks (A.2.3 uses two).
pub type MagmaOfb = Ofb<Magma>;
/// CTR under Magma (GOST R 34.13-2015 §5.2; [`Ctr`] counting in half a
/// block): the counter block is IV ‖ 0^32 for a 4-byte IV, and the
/// keystream ends after 2^32 blocks (32 GiB): a request past it is
/// [`Error::KeystreamExhausted`](crate::Error::KeystreamExhausted), never a wrap (gost-engine's `magma-ctr`
/// wraps into the IV).
///
/// ```
/// use simdcrypt::magma::MagmaCtr;
///
/// let mut ctr = MagmaCtr::new(&[1; 32], &[0x12, 0x34, 0x56, 0x78]);
/// assert_eq!(ctr.keystream_len(), 8 << 32);
/// ctr.seek((8 << 32) - 1)?;
/// ctr.apply_keystream(&mut [0u8; 1])?;
/// assert!(ctr.apply_keystream(&mut [0u8; 1]).is_err());
/// # Ok::<(), simdcrypt::Error>(())
/// ```
pub type MagmaCtr = Ctr<Magma, HalfBlock>;

/// The length of MagmaCtr's IV (n/2 bits), in bytes.
pub const CTR_IV_LEN: usize = BLOCK_LEN / 2;

impl Ctr<Magma, HalfBlock> {
    /// CTR under `key` from the 4-byte `iv` (GOST R 34.13-2015 §5.2), on
    /// the fastest constant-time rung.
    pub fn new(key: &[u8; KEY_LEN], iv: &[u8; CTR_IV_LEN]) -> Self {
        Self::from_cipher_half_iv(Magma::new(key), iv).expect("a 4-byte IV")
    }
}
/// The MAC of GOST R 34.13-2015 §5.6 under Magma: OMAC1 with
/// B64 = 0^59‖11011, the same construction as CMAC ([`Cmac`]).
pub type MagmaMac = Cmac<Magma>;

impl Magma {
    /// The key schedule of `key` (RFC 8891 §4.3), on the fastest
    /// constant-time rung.
    pub fn new(key: &[u8; KEY_LEN]) -> Self {
        Magma {
            engine: Engine::new(key, SBox::PARAM_Z, Order::Be),
        }
    }
}

/// The rung; never the key.
impl std::fmt::Debug for Magma {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Magma")
            .field("implementation", &self.engine.rung())
            .finish_non_exhaustive()
    }
}

engine_block_cipher!(Magma, "magma", Magma::new);
