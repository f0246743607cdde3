//! The `digest` 0.11 traits (feature `rustcrypto`): through `Digest` every
//! hash type gives the bytes of its inherent API, in one call, in pieces,
//! and after `finalize_reset`, and says its block and output sizes.
#![cfg(feature = "rustcrypto")]

mod common;

use common::bytes;
use digest::Digest;
use digest::common::BlockSizeUser;
use simdcrypt::hash::{Hash, Md5, Sha1, Sha224, Sha256, Sha384, Sha512, Sha512_256};

/// The trait path against the inherent one for `H`.
fn agrees<H: Hash + Digest + BlockSizeUser + digest::FixedOutputReset>() {
    assert_eq!(<H as Digest>::output_size(), <H as Hash>::OUTPUT_LEN);
    assert_eq!(<H as BlockSizeUser>::block_size(), <H as Hash>::BLOCK_LEN);
    for len in [0, 1, 55, 56, 63, 64, 65, 111, 112, 127, 128, 129, 1000] {
        let msg = bytes(len as u64, len);
        let want = <H as Hash>::digest(&msg);
        assert_eq!(
            <H as Digest>::digest(&msg)[..],
            want.as_ref()[..],
            "{}: {len}",
            H::NAME
        );
        let mut d = <H as Digest>::new();
        let (a, b) = msg.split_at(len / 3);
        Digest::update(&mut d, a);
        Digest::update(&mut d, b);
        assert_eq!(
            Digest::finalize_reset(&mut d)[..],
            want.as_ref()[..],
            "{}: {len} in two",
            H::NAME
        );
        Digest::update(&mut d, &msg);
        assert_eq!(
            Digest::finalize(d)[..],
            want.as_ref()[..],
            "{}: {len} after reset",
            H::NAME
        );
    }
}

#[test]
fn every_hash_is_a_digest() {
    agrees::<Md5>();
    agrees::<Sha1>();
    agrees::<Sha224>();
    agrees::<Sha256>();
    agrees::<Sha384>();
    agrees::<Sha512>();
    agrees::<Sha512_256>();
}
