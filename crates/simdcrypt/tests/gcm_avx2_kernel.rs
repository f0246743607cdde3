//! AES-GCM's stitched kernel in its AVX2 form: the instruction sets capped
//! at AVX2 (VAES and VPCLMULQDQ stay, AVX-512 goes), so that on a CPU with
//! AVX-512VL the kit's checks run the form other CPUs get. One test in its
//! own process, since the cap is fixed at the first use of any primitive.

#![cfg(all(feature = "kit", target_arch = "x86_64"))]

use simdcrypt::aead::{Aes128Gcm, GcmKernel};
use simdcrypt::cpu::{self, IsaLevel};

mod common;

#[test]
fn the_avx2_form_of_the_kernel_passes_every_check() {
    cpu::set_max_isa(IsaLevel::Avx2).expect("the first use of the library");
    assert!(!cpu::features().avx512f);
    // The ymm kernel is the one chosen where VAES runs without AVX-512.
    let expected = GcmKernel::Vaes.is_available().then_some(GcmKernel::Vaes);
    assert_eq!(Aes128Gcm::new(&[0; 16]).kernel(), expected);
    for check in simdcrypt::kit::Check::ALL {
        common::kit::passes("aes-gcm", check, |_| true, false);
    }
}
