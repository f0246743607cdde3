//! SHA-512, SHA-384 and SHA-512/256 (FIPS 180-4 §6.4, §6.5, §6.7): the
//! API's promises, and every rung against RustCrypto's `sha2` on large
//! inputs. (Every rung on the vectors and against the reference rung is
//! the checking kit's: `tests/kit.rs`.)

mod common;

mod sha512 {
    use simdcrypt::hash::{Sha512, sha512::Rung};

    crate::common::hash::hash_api_tests!(Sha512, Rung);
}

mod sha384 {
    use simdcrypt::hash::{Sha384, sha512::Rung};

    crate::common::hash::hash_api_tests!(Sha384, Rung);
}

mod sha512_256 {
    use simdcrypt::hash::{Sha512_256, sha512::Rung};

    crate::common::hash::hash_api_tests!(Sha512_256, Rung);
}

/// All three functions on every rung against RustCrypto's `sha2`, on large
/// random inputs cut at odd places (the cuts leave partial blocks buffered
/// and odd numbers of whole blocks for the multi-block rungs).
#[test]
fn sha2_crate_agrees_on_large_inputs_with_odd_splits() {
    use simdcrypt::hash::sha512::Rung;

    common::hash::sha2_crate_agrees_on_large_inputs(
        &Rung::available().collect::<Vec<_>>(),
        &[
            (1, 100_003),
            (2, 128 * 37),
            (3, 128 * 64 + 1),
            (4, 262_144 + 77),
        ],
        &[1, 127, 128 * 3 + 5, 128 * 8, 10_007, 65_537],
    );
}
