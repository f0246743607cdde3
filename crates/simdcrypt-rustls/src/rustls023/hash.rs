//! The transcript hashes (SHA-256, SHA-384: FIPS 180-4 §6.2, §6.5) and
//! HMAC (RFC 2104) rustls asks a provider for, on simdcrypt's fastest
//! rungs.

use rustls::crypto::hash::{self, HashAlgorithm};
use rustls::crypto::hmac;
use simdcrypt::hash::{Hash, Sha256, Sha384};
use simdcrypt::hmac::Hmac;

/// A hash function of simdcrypt's as rustls's [`hash::Hash`].
pub(crate) struct Transcript<H> {
    algorithm: HashAlgorithm,
    new: fn() -> H,
}

/// SHA-256, the hash of the `*_SHA256` suites.
pub(crate) static SHA256: Transcript<Sha256> = Transcript {
    algorithm: HashAlgorithm::SHA256,
    new: Sha256::new,
};

/// SHA-384, the hash of the `*_SHA384` suites.
pub(crate) static SHA384: Transcript<Sha384> = Transcript {
    algorithm: HashAlgorithm::SHA384,
    new: Sha384::new,
};

impl<H: Hash + Send + Sync + 'static> hash::Hash for Transcript<H> {
    fn start(&self) -> Box<dyn hash::Context> {
        Box::new(Context((self.new)()))
    }

    fn hash(&self, data: &[u8]) -> hash::Output {
        hash::Output::new(H::digest(data).as_ref())
    }

    fn output_len(&self) -> usize {
        H::OUTPUT_LEN
    }

    fn algorithm(&self) -> HashAlgorithm {
        self.algorithm
    }
}

/// A running hash: the transcript so far.
struct Context<H>(H);

impl<H: Hash + Send + Sync + 'static> hash::Context for Context<H> {
    fn fork_finish(&self) -> hash::Output {
        hash::Output::new(self.0.clone().finalize().as_ref())
    }

    fn fork(&self) -> Box<dyn hash::Context> {
        Box::new(Context(self.0.clone()))
    }

    fn finish(self: Box<Self>) -> hash::Output {
        hash::Output::new(self.0.finalize().as_ref())
    }

    fn update(&mut self, data: &[u8]) {
        self.0.update(data);
    }
}

/// HMAC over a hash of simdcrypt's as rustls's [`hmac::Hmac`]: what
/// rustls's `HkdfUsingHmac` (RFC 5869) and `PrfUsingHmac` (RFC 5246 §5)
/// build the key schedules on.
pub(crate) struct HmacOver<H>(core::marker::PhantomData<fn() -> H>);

/// HMAC-SHA-256.
pub(crate) static HMAC_SHA256: HmacOver<Sha256> = HmacOver(core::marker::PhantomData);
/// HMAC-SHA-384.
pub(crate) static HMAC_SHA384: HmacOver<Sha384> = HmacOver(core::marker::PhantomData);

impl<H: Hash + Send + Sync + 'static> hmac::Hmac for HmacOver<H> {
    fn with_key(&self, key: &[u8]) -> Box<dyn hmac::Key> {
        Box::new(Keyed(Hmac::<H>::new(key)))
    }

    fn hash_output_len(&self) -> usize {
        H::OUTPUT_LEN
    }
}

/// HMAC keyed once (the keyed inner and outer states computed), then
/// cloned for each tag. Its key material is zeroized on drop by
/// [`Hmac`].
struct Keyed<H: Hash>(Hmac<H>);

impl<H: Hash + Send + Sync + 'static> hmac::Key for Keyed<H> {
    fn sign_concat(&self, first: &[u8], middle: &[&[u8]], last: &[u8]) -> hmac::Tag {
        let mut mac = self.0.clone();
        mac.update(first);
        for part in middle {
            mac.update(part);
        }
        mac.update(last);
        hmac::Tag::new(mac.finalize().as_ref())
    }

    fn tag_len(&self) -> usize {
        H::OUTPUT_LEN
    }
}
