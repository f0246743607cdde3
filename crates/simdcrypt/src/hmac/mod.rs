//! HMAC (RFC 2104) over every hash of [`crate::hash`].
//!
//! ```
//! use simdcrypt::hash::Sha256;
//! use simdcrypt::hmac::{Hmac, hmac_sha256};
//!
//! let mut mac = Hmac::<Sha256>::new(b"key");
//! mac.update(b"The quick brown fox ");
//! mac.update(b"jumps over the lazy dog");
//! let tag = mac.clone().finalize();
//! assert_eq!(tag, hmac_sha256(b"key", b"The quick brown fox jumps over the lazy dog"));
//! mac.verify(&tag)?;
//! # Ok::<(), simdcrypt::Error>(())
//! ```

// The checks of the kit (`simdcrypt::kit`), beside the entry in the table.
#[cfg(feature = "kit")]
pub(crate) mod checks;

use std::fmt;

use zeroize::Zeroize;

use crate::Error;
use crate::hash::{Hash, Sha256, Sha512};

/// The longest block of any hash here (SHA-512's 128 bytes), the size of
/// the buffer the padded key `K0` is built in.
const MAX_BLOCK_LEN: usize = 128;

/// The inner pad byte `ipad` (RFC 2104 §2).
const IPAD: u8 = 0x36;
/// The outer pad byte `opad` (RFC 2104 §2).
const OPAD: u8 = 0x5c;

/// HMAC over the hash `H` (RFC 2104 §2):
/// `H(K ⊕ opad ‖ H(K ⊕ ipad ‖ text))`.
///
/// The two keyed hash states (after absorbing `K ⊕ ipad` and `K ⊕ opad`)
/// are computed once in [`Hmac::new`]; [`Hmac::finalize_reset`] and
/// [`Hmac::reset`] start over from them, so a key used for many messages is
/// never hashed again (PBKDF2 relies on this). Every hash state, and so all
/// key material, is zeroized on drop by the hash types themselves.
///
/// ```
/// use simdcrypt::hash::{Sha256, Sha512, sha256};
/// use simdcrypt::hmac::Hmac;
///
/// // One key, many messages: the key is hashed once, in `new`.
/// let mut mac = Hmac::<Sha512>::new(b"a key of any length");
/// mac.update(b"first message");
/// let first = mac.finalize_reset();
/// mac.update(b"second message");
/// let second = mac.finalize();
/// assert_ne!(first, second);
///
/// // The receiver checks in constant time, the whole tag or (RFC 2104 §5)
/// // at least half of it.
/// let mut check = Hmac::<Sha512>::new(b"a key of any length");
/// check.update(b"first message");
/// check.clone().verify(&first)?;
/// check.verify_truncated(&first[..32])?;
///
/// // Over a hash forced to one rung.
/// let hash = Sha256::new().with_rung(sha256::Rung::Reference)?;
/// let mut mac = Hmac::with_hash(hash, b"key");
/// mac.update(b"message");
/// assert_eq!(mac.finalize(), Hmac::<Sha256>::mac(b"key", b"message"));
/// # Ok::<(), simdcrypt::Error>(())
/// ```
#[derive(Clone)]
pub struct Hmac<H: Hash> {
    /// The hash after absorbing `K0 ⊕ ipad`.
    inner_keyed: H,
    /// The hash after absorbing `K0 ⊕ opad`.
    outer_keyed: H,
    /// The inner hash of the message being authenticated.
    inner: H,
}

impl<H: Hash> Hmac<H> {
    /// Output (tag) length in bytes: the hash's digest length `L`.
    pub const OUTPUT_LEN: usize = H::OUTPUT_LEN;

    /// The shortest tag [`Hmac::verify_truncated`] accepts: RFC 2104 §5
    /// recommends keeping "not less than half the length of the hash output
    /// … and not less than 80 bits".
    pub const MIN_TRUNCATED_LEN: usize = if H::OUTPUT_LEN / 2 > 10 {
        H::OUTPUT_LEN / 2
    } else {
        10
    };

    /// HMAC keyed with `key` of any length, on the hash's fastest rung
    /// (RFC 2104 §2: keys longer than the block are hashed first).
    pub fn new(key: &[u8]) -> Self {
        Self::with_hash(H::new(), key)
    }

    /// HMAC keyed with `key` over the hash `hash` (started over first),
    /// e.g. a hash forced to one rung with its `with_rung`.
    pub fn with_hash(mut hash: H, key: &[u8]) -> Self {
        debug_assert!(H::BLOCK_LEN <= MAX_BLOCK_LEN);
        hash.reset();
        // K0 (RFC 2104 §2, step 1): the key, or its hash when longer than
        // the block, padded with zeros to the block length.
        let mut k0 = [0u8; MAX_BLOCK_LEN];
        if key.len() > H::BLOCK_LEN {
            let mut h = hash.clone();
            h.update(key);
            let mut digest = h.finalize();
            k0[..H::OUTPUT_LEN].copy_from_slice(digest.as_ref());
            digest.as_mut().zeroize();
        } else {
            k0[..key.len()].copy_from_slice(key);
        }
        let k0 = &mut k0[..H::BLOCK_LEN];
        let keyed = |k0: &mut [u8], pad: u8| {
            k0.iter_mut().for_each(|b| *b ^= pad);
            let mut h = hash.clone();
            h.absorb_blocks(k0);
            k0.iter_mut().for_each(|b| *b ^= pad);
            h
        };
        let inner_keyed = keyed(k0, IPAD);
        let outer_keyed = keyed(k0, OPAD);
        k0.zeroize();
        Hmac {
            inner: inner_keyed.clone(),
            inner_keyed,
            outer_keyed,
        }
    }

    /// Absorbs `data`, the `text` of RFC 2104; any split of the calls gives
    /// the same tag.
    #[inline]
    pub fn update(&mut self, data: &[u8]) {
        self.inner.update(data);
    }

    /// The tag of everything absorbed.
    pub fn finalize(mut self) -> H::Digest {
        self.finalize_reset()
    }

    /// The tag of everything absorbed; the MAC starts over with the same
    /// key, without hashing it again: RFC 2104 §2 steps 5–9, the inner
    /// hash restarted from its keyed state and the outer one finished from
    /// its own, which stays as it is.
    pub fn finalize_reset(&mut self) -> H::Digest {
        let mut inner_digest = self.inner.finalize_restart(&self.inner_keyed);
        let tag = self.outer_keyed.digest_after(inner_digest.as_ref());
        crate::ct::wipe(inner_digest.as_mut());
        tag
    }

    /// Starts over with an empty message and the same key.
    pub fn reset(&mut self) {
        self.inner = self.inner_keyed.clone();
    }

    /// Checks, in constant time, that `tag` is the tag of everything
    /// absorbed.
    ///
    /// # Errors
    ///
    /// [`Error::AuthenticationFailed`] when it is not.
    pub fn verify(self, tag: &H::Digest) -> Result<(), Error> {
        self.verify_truncated(tag.as_ref())
    }

    /// Checks, in constant time, that `tag` is the first `tag.len()` bytes
    /// of the tag of everything absorbed (a truncated HMAC, RFC 2104 §5).
    /// Tags shorter than [`Hmac::MIN_TRUNCATED_LEN`] are refused.
    ///
    /// # Errors
    ///
    /// [`Error::TagLength`] when `tag` is shorter than
    /// [`Hmac::MIN_TRUNCATED_LEN`] or longer than [`Hmac::OUTPUT_LEN`];
    /// [`Error::AuthenticationFailed`] when it does not match.
    pub fn verify_truncated(self, tag: &[u8]) -> Result<(), Error> {
        crate::tag::verify_truncated(tag, Self::MIN_TRUNCATED_LEN, Self::OUTPUT_LEN, || {
            self.finalize()
        })
    }

    /// The tag of `message` under `key`, in one call.
    pub fn mac(key: &[u8], message: &[u8]) -> H::Digest {
        let mut mac = Self::new(key);
        mac.update(message);
        mac.finalize()
    }
}

impl<H: Hash> fmt::Debug for Hmac<H> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Hmac")
            .field("hash", &H::NAME)
            .finish_non_exhaustive()
    }
}

/// HMAC-SHA-256 (RFC 2104, RFC 4231) of `message` under `key`.
///
/// ```
/// use simdcrypt::hmac::hmac_sha256;
///
/// // RFC 4231, test case 2.
/// let tag = hmac_sha256(b"Jefe", b"what do ya want for nothing?");
/// let hex: String = tag.iter().map(|b| format!("{b:02x}")).collect();
/// assert_eq!(hex, "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
/// ```
///
/// Check a tag received with [`Hmac::verify`], in constant time, not with
/// `==`.
pub fn hmac_sha256(key: &[u8], message: &[u8]) -> [u8; 32] {
    Hmac::<Sha256>::mac(key, message)
}

/// HMAC-SHA-512 (RFC 2104, RFC 4231) of `message` under `key`.
///
/// ```
/// use simdcrypt::hmac::hmac_sha512;
///
/// // RFC 4231, test case 2.
/// let tag = hmac_sha512(b"Jefe", b"what do ya want for nothing?");
/// let hex: String = tag.iter().map(|b| format!("{b:02x}")).collect();
/// assert_eq!(hex, concat!(
///     "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea250554",
///     "9758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737",
/// ));
/// ```
pub fn hmac_sha512(key: &[u8], message: &[u8]) -> [u8; 64] {
    Hmac::<Sha512>::mac(key, message)
}

/// HMAC's entry in the table of ladders: no rungs of its own, it runs on
/// its hash's. Its key may have any length.
pub(crate) const LADDER: crate::table::Ladder = crate::table::Ladder {
    name: "hmac",
    primitives: &[
        crate::table::Primitive::hash(
            "hmac-sha256",
            Kind::Mac,
            "HMAC-SHA-256 (RFC 2104, FIPS 198-1)",
            64,
            32,
            crate::table::Construct::mac(dyn_hmac::<crate::hash::Sha256>),
        ),
        crate::table::Primitive::hash(
            "hmac-sha512",
            Kind::Mac,
            "HMAC-SHA-512 (RFC 2104, FIPS 198-1)",
            128,
            64,
            crate::table::Construct::mac(dyn_hmac::<crate::hash::Sha512>),
        ),
        crate::table::Primitive::hash(
            "hmac-sha1",
            Kind::Mac,
            "HMAC-SHA-1 (RFC 2104)",
            64,
            20,
            crate::table::Construct::mac(dyn_hmac::<crate::hash::Sha1>),
        ),
    ],
    rungs: crate::table::Rungs::ComposedOf(&["sha256", "sha512", "sha1"]),
    #[cfg(feature = "kit")]
    checks: checks::run,
    #[cfg(feature = "kit")]
    fuzz: checks::fuzz,
};

use crate::table::Kind;

impl<H: Hash + Clone + Send + Sync + 'static> crate::dynamic::DynDigest for Hmac<H> {
    fn update(&mut self, data: &[u8]) {
        Hmac::update(self, data);
    }
    fn finalize_into(self: Box<Self>, out: &mut [u8]) {
        out.copy_from_slice(Hmac::finalize(*self).as_ref());
    }
    fn rung(&self) -> &'static str {
        "default"
    }
}

/// HMAC over `H` with a key of any length, the table's constructor (its
/// hash's rung is the fastest; `imp` names none but `default`).
fn dyn_hmac<H: Hash + Clone + Send + Sync + 'static>(
    key: &[u8],
    options: &crate::dynamic::MacOptions<'_>,
) -> Result<Box<dyn crate::dynamic::DynDigest>, crate::Error> {
    match options.rung {
        None | Some("default") => Ok(Box::new(Hmac::<H>::new(key))),
        Some(name) => Err(crate::Error::UnknownRung {
            primitive: "hmac",
            name: name.to_owned(),
            expected: "default".to_owned(),
        }),
    }
}
