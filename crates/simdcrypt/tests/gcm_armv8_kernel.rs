//! AES-GCM's ARMv8 kernel is the one `new` picks on aarch64 wherever the
//! AES instructions and PMULL run, and GHASH's rung there is `pmull`.

#![cfg(target_arch = "aarch64")]

use simdcrypt::aead::{Aes128Gcm, Aes256Gcm, GcmKernel};
use simdcrypt::ghash;

#[test]
fn the_armv8_kernel_is_chosen_where_it_runs() {
    let available = GcmKernel::Armv8.is_available();
    let expected = available.then_some(GcmKernel::Armv8);
    assert_eq!(GcmKernel::best(), expected);
    assert_eq!(Aes128Gcm::new(&[0; 16]).kernel(), expected);
    if available {
        assert_eq!(ghash::Rung::best(), ghash::Rung::Pmull);
        // SP 800-38D's test case 14 (AES-256, a zero key, one zero block).
        let sealed = Aes256Gcm::new(&[0; 32]).encrypt(&[0; 12], b"", &[0; 16]);
        assert_eq!(
            sealed[..],
            [
                0xce, 0xa7, 0x40, 0x3d, 0x4d, 0x60, 0x6b, 0x6e, 0x07, 0x4e, 0xc5, 0xd3, 0xba, 0xf3,
                0x9d, 0x18, 0xd0, 0xd1, 0xc8, 0xa7, 0x99, 0x99, 0x6b, 0xf0, 0x26, 0x5b, 0x98, 0xb5,
                0xd4, 0x8a, 0xb9, 0x19,
            ]
        );
    }
}
