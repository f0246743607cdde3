//! The 32-bit counters inside a 16-byte counter block: GCM's `inc32`
//! and AES-GCM-SIV's little-endian counter. (Public in this private
//! module, so that the sealed `Core` trait can name it.)

/// Where a 32-bit block counter sits in a 16-byte counter block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Counter32 {
    /// The last four bytes, big-endian: `inc32` of NIST SP 800-38D §6.2
    /// (GCM).
    LastBigEndian,
    /// The first four bytes, little-endian (RFC 8452 §4, AES-GCM-SIV).
    FirstLittleEndian,
}

impl Counter32 {
    /// The counter read from `block`.
    #[inline]
    pub(crate) fn get(self, block: &[u8; 16]) -> u32 {
        match self {
            Counter32::LastBigEndian => {
                u32::from_be_bytes(block[12..].try_into().expect("4 bytes"))
            }
            Counter32::FirstLittleEndian => {
                u32::from_le_bytes(block[..4].try_into().expect("4 bytes"))
            }
        }
    }

    /// `block` with its counter set to `value`.
    #[inline]
    pub(crate) fn set(self, block: &mut [u8; 16], value: u32) {
        match self {
            Counter32::LastBigEndian => block[12..].copy_from_slice(&value.to_be_bytes()),
            Counter32::FirstLittleEndian => block[..4].copy_from_slice(&value.to_le_bytes()),
        }
    }

    /// `block` with its counter advanced by `n`, modulo 2^32.
    #[inline]
    pub(crate) fn add(self, block: &mut [u8; 16], n: u32) {
        self.set(block, self.get(block).wrapping_add(n));
    }
}
