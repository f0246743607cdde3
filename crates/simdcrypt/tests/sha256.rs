//! SHA-256 and SHA-224 (FIPS 180-4 §6.2, §6.3): every rung on the NIST CAVP
//! byte-oriented vectors and the FIPS 180 examples, and against the
//! reference on every length to 1000 bytes and on random splits.

mod common;

use common::hash::{cavp, fips180};

mod sha256 {
    use super::*;
    use simdcrypt::hash::{Sha256, sha256::Impl};

    crate::common::hash::hash_ladder_tests!(Sha256, Impl, {
        let mut v = cavp(include_str!("data/sha/SHA256ShortMsg.rsp"));
        v.extend(cavp(include_str!("data/sha/SHA256LongMsg.rsp")));
        v.extend(fips180("SHA-256"));
        v
    });
}

mod sha224 {
    use simdcrypt::hash::{Sha224, sha256::Impl};

    // SHA-224 has no CAVP file here: its known answers are FIPS 180-4's
    // examples as given in RFC 6234 §8.4 (tests 1, 2 and 4 for SHA-224).
    crate::common::hash::hash_ladder_tests!(Sha224, Impl, {
        vec![
            (
                b"abc".to_vec(),
                crate::common::hex("23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7"),
            ),
            (
                b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".to_vec(),
                crate::common::hex("75388b16512776cc5dba5da1fd890150b0c6455cb4f58b1952522525"),
            ),
            (
                b"a".repeat(1_000_000),
                crate::common::hex("20794655980c91d8bbb4c1ea97618a4bf03f42581948b2ee4ee7ad67"),
            ),
            (
                b"0123456701234567012345670123456701234567012345670123456701234567".repeat(10),
                crate::common::hex("567f69f168cd7844e65259ce658fe7aadfa25216e68eca0eb7ab8262"),
            ),
        ]
    });
}
