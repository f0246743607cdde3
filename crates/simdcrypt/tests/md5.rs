//! MD5 (RFC 1321): every rung on the RFC's test suite (Appendix A.5), against
//! the reference on every length to 1000 bytes and on random splits, and
//! against RustCrypto's `md-5` on random inputs.

mod common;

use common::{field, hex, json, records};
use md5::Digest as _;
use simdcrypt::hash::{Md5, md5::Impl};

common::hash::hash_ladder_tests!(Md5, Impl, {
    let file = json(include_str!("data/sha/md5_rfc1321.json"));
    records(&file, "vectors")
        .iter()
        .map(|v| (hex(field(v, "message_hex")), hex(field(v, "md5"))))
        .collect()
});

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
    #[test]
    fn equals_rustcrypto_md5(seed in proptest::prelude::any::<u64>(), len in 0usize..5000) {
        let data = common::bytes(seed, len);
        let want: [u8; 16] = md5::Md5::digest(&data).into();
        for imp in Impl::available() {
            let mut h = Md5::new().with_impl(imp).expect("available rung");
            h.update(&data);
            proptest::prop_assert_eq!(h.finalize(), want, "{} on {} bytes", imp, len);
        }
    }
}
