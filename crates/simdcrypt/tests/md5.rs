//! MD5 (RFC 1321): the API's promises, and every rung against RustCrypto's
//! `md-5` on random inputs. (Every rung on RFC 1321's suite and against
//! the reference rung is the checking kit's: `tests/kit.rs`.)

mod common;

use md5::Digest as _;
use simdcrypt::hash::{Md5, md5::Rung};

common::hash::hash_api_tests!(Md5, Rung);

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
    #[test]
    fn equals_rustcrypto_md5(seed in proptest::prelude::any::<u64>(), len in 0usize..5000) {
        let data = common::bytes(seed, len);
        let want: [u8; 16] = md5::Md5::digest(&data).into();
        for imp in Rung::available() {
            let mut h = Md5::new().with_rung(imp).expect("available rung");
            h.update(&data);
            proptest::prop_assert_eq!(h.finalize(), want, "{} on {} bytes", imp, len);
        }
    }
}
