//! SHA-512, SHA-384 and SHA-512/256 (FIPS 180-4 §6.4, §6.5, §6.7): every
//! rung on the NIST CAVP byte-oriented vectors (SHA-512) and on the FIPS
//! 180 examples, against the reference on every length to 1000 bytes and
//! on random splits, and against RustCrypto's `sha2` on large inputs.

mod common;

mod sha512 {
    use simdcrypt::hash::{Sha512, sha512::Impl};

    crate::common::hash::hash_ladder_tests!(Sha512, Impl, crate::common::hash::sha512_vectors());
}

mod sha384 {
    use simdcrypt::hash::{Sha384, sha512::Impl};

    crate::common::hash::hash_ladder_tests!(Sha384, Impl, crate::common::hash::sha384_vectors());
}

mod sha512_256 {
    use simdcrypt::hash::{Sha512_256, sha512::Impl};

    crate::common::hash::hash_ladder_tests!(
        Sha512_256,
        Impl,
        crate::common::hash::sha512_256_vectors()
    );
}

/// All three functions on every rung against RustCrypto's `sha2`, on large
/// random inputs cut at odd places (the cuts leave partial blocks buffered
/// and odd numbers of whole blocks for the multi-block rungs).
#[test]
fn sha2_crate_agrees_on_large_inputs_with_odd_splits() {
    use simdcrypt::hash::sha512::Impl;

    common::hash::sha2_crate_agrees_on_large_inputs(
        &Impl::available().collect::<Vec<_>>(),
        &[
            (1, 100_003),
            (2, 128 * 37),
            (3, 128 * 64 + 1),
            (4, 262_144 + 77),
        ],
        &[1, 127, 128 * 3 + 5, 128 * 8, 10_007, 65_537],
    );
}
