//! The library without the `hazmat` feature: a rung that is not
//! constant-time cannot be chosen, whatever the CPU (`cargo test -p
//! simdcrypt`, without features, runs this; `.ci/run` has a step for it).

#![cfg(not(feature = "hazmat"))]

use simdcrypt::Error;
use simdcrypt::poly1305::{Poly1305, Rung};

#[test]
fn a_variable_time_rung_is_refused_without_hazmat() {
    assert!(!Rung::Reference.is_constant_time());
    let err = Poly1305::new(&[7; 32])
        .with_rung(Rung::Reference)
        .expect_err("refused");
    assert!(
        matches!(
            err,
            Error::VariableTimeRung {
                primitive: "poly1305",
                name: "reference"
            }
        ),
        "{err}"
    );
    assert!(err.to_string().contains("hazmat"), "{err}");
    // By name, as the tool would ask for it.
    assert!("reference".parse::<Rung>().unwrap().require().is_err());
    // The constant-time rungs stay choosable.
    assert!(Poly1305::new(&[7; 32]).with_rung(Rung::Scalar64).is_ok());
}

#[test]
fn the_table_marks_the_variable_time_rung() {
    let poly = simdcrypt::ladders()
        .iter()
        .find(|l| l.name == "poly1305")
        .unwrap();
    let rungs = poly.rungs();
    let reference = rungs.iter().find(|r| r.name == "reference").unwrap();
    assert!(!reference.constant_time && !reference.chosen);
    assert!(
        rungs
            .iter()
            .filter(|r| r.name != "reference")
            .all(|r| r.constant_time)
    );
}

#[test]
fn aes_tables_and_reference_are_refused_and_never_chosen() {
    use simdcrypt::aes::{self, Aes128};
    for imp in [aes::Rung::Reference, aes::Rung::Tables] {
        assert!(!imp.is_constant_time());
        let err = Aes128::new(&[1; 16]).with_rung(imp).expect_err("refused");
        assert!(
            matches!(
                err,
                Error::VariableTimeRung {
                    primitive: "aes",
                    ..
                }
            ),
            "{err}"
        );
    }
    assert!(aes::Rung::best().is_constant_time());
    assert!(Aes128::new(&[1; 16]).rung().is_constant_time());
    // The modes refuse them too, whoever builds them.
    assert!(
        aes::Aes128Cbc::new(&[1; 16], &[0; 16])
            .with_rung(aes::Rung::Tables)
            .is_err()
    );
}
