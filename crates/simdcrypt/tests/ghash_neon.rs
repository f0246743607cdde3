//! GHASH's `neon` rung and AES-GCM over it: the instruction sets capped
//! at NEON (no AES, no PMULL), so that on a CPU with the crypto
//! extensions the kit's checks run what a core without them gets. One
//! test in its own process, since the cap is fixed at the first use of
//! any primitive.

#![cfg(all(feature = "kit", target_arch = "aarch64"))]

use simdcrypt::aead::Aes128Gcm;
use simdcrypt::cpu::{self, IsaLevel};
use simdcrypt::ghash;

mod common;

#[test]
fn the_neon_rung_is_chosen_without_pmull_and_passes_every_check() {
    cpu::set_max_isa(IsaLevel::Neon).expect("the first use of the library");
    if !cpu::features().neon {
        // SIMDCRYPT_MAX_ISA=scalar in the environment: the lower cap holds.
        eprintln!("skipped: the cap is below NEON");
        return;
    }
    assert!(!cpu::features().pmull);
    assert_eq!(ghash::Rung::best(), ghash::Rung::Neon);
    let gcm = Aes128Gcm::new(&[0; 16]);
    assert_eq!(gcm.kernel(), None);
    assert_eq!(gcm.rung().1, ghash::Rung::Neon);
    for check in simdcrypt::kit::Check::ALL {
        common::kit::passes("ghash", check, |_| true, false);
        common::kit::passes("aes-gcm", check, |_| true, false);
    }
}
