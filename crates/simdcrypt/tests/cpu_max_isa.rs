//! A program caps the instruction sets from code (`cpu::set_max_isa`), as
//! `SIMDCRYPT_MAX_ISA` does: one test in its own process, since the cap is
//! fixed at the first use of any primitive.

use simdcrypt::Error;
use simdcrypt::cpu::{self, IsaLevel};

#[test]
fn the_cap_from_code_holds_for_every_ladder_and_is_set_once() {
    cpu::set_max_isa(IsaLevel::Scalar).unwrap();
    assert_eq!(cpu::features(), cpu::Features::default());
    for ladder in simdcrypt::ladders() {
        for rung in ladder.rungs() {
            if rung.chosen {
                assert_eq!(rung.needs, "nothing", "{}: {}", ladder.name, rung.name);
            }
            if rung.needs != "nothing" {
                assert!(!rung.available, "{}: {}", ladder.name, rung.name);
            }
        }
    }
    // Too late now, and once only.
    assert!(matches!(
        cpu::set_max_isa(IsaLevel::highest()),
        Err(Error::CapTooLate)
    ));
    assert!(cpu::cap_error().is_none() || std::env::var_os(cpu::MAX_ISA_VAR).is_some());
}
