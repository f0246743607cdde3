//! The Salsa20 ladder's API: resumable calls, `xor_into`, the end of the
//! keystream as an error, the rungs by name, the reduced-round variants.
//! (Every rung against the specification, on the vectors and in round
//! trips, is the checking kit's: `tests/kit.rs`.)

mod common;

use simdcrypt::Error;
use simdcrypt::salsa20::{Rung, Salsa20, Salsa20_8, Salsa20_12};

/// The rungs this CPU runs, printed once per test so the log shows what was
/// exercised and what was skipped.
fn rungs(test: &str) -> Vec<Rung> {
    common::rungs(test)
}

// Calls resume at any byte, in place and out of place alike; `xor_into`
// equals `apply_keystream`.
common::stream_api_tests!(
    |imp| Salsa20::new(&[9; 32], &[4; 8]).with_rung(imp).unwrap(),
    rungs
);

/// The last block, 2^64 − 1, is usable; one byte past it is a
/// `KeystreamExhausted` error: the counter never wraps.
#[test]
fn keystream_end_is_an_error_not_a_wrap() {
    for imp in rungs("keystream_end_is_an_error_not_a_wrap") {
        let mut c = Salsa20::new(&[5; 32], &[6; 8]).with_rung(imp).unwrap();
        c.seek((1 << 70) - 100).unwrap();
        c.apply_keystream(&mut [0; 100]).unwrap();
        common::exhausted(&mut c, &imp.to_string());
        c.seek((1 << 70) - 10).unwrap();
        let err = c.apply_keystream(&mut [0; 11]).unwrap_err();
        assert!(
            matches!(err, Error::KeystreamExhausted { .. }),
            "{imp}: {err}"
        );
        assert!(err.to_string().contains("exhausted"), "{imp}: {err}");
    }
}

#[test]
fn rungs_are_named_and_forcing_a_missing_one_is_an_error() {
    for &imp in Rung::ALL {
        assert_eq!(Rung::from_name(imp.name()).unwrap(), imp);
        let forced = Salsa20::new(&[0; 32], &[0; 8]).with_rung(imp);
        match forced {
            Ok(c) => assert_eq!(c.rung(), imp),
            Err(e) => {
                assert!(!imp.is_available());
                assert!(e.to_string().contains(imp.needs()), "{e}");
            }
        }
    }
    let err = Rung::from_name("avx1024").unwrap_err().to_string();
    assert!(
        err.contains("avx1024") && err.contains("sse2-shuffle"),
        "{err}"
    );
    assert!(Rung::best().is_available());
}

#[test]
fn reduced_round_variants_differ_from_salsa20() {
    let mut a = [0u8; 64];
    let mut b = [0u8; 64];
    let mut c = [0u8; 64];
    Salsa20::new(&[1; 32], &[0; 8])
        .apply_keystream(&mut a)
        .unwrap();
    Salsa20_12::new(&[1; 32], &[0; 8])
        .apply_keystream(&mut b)
        .unwrap();
    Salsa20_8::new(&[1; 32], &[0; 8])
        .apply_keystream(&mut c)
        .unwrap();
    assert!(a != b && b != c && a != c);
}

/// Short messages, the one-block path of the vertical rungs: every length
/// from 0 to a few blocks, from block starts (the counter's low word about
/// to carry among them) and from inside a block, in place and out of
/// place, for Salsa20/20, /12, /8 and XSalsa20, against the reference rung.
#[test]
fn short_messages_match_the_reference() {
    use simdcrypt::KeyStream;
    use simdcrypt::salsa20::XSalsa20;
    /// A cipher's name, the cipher by default, the cipher on a rung.
    type Maker = (
        &'static str,
        fn() -> Box<dyn KeyStream>,
        fn(Rung) -> Box<dyn KeyStream>,
    );
    let ciphers: [Maker; 4] = [
        (
            "salsa20",
            || Box::new(Salsa20::new(&[3; 32], &[8; 8])),
            |r| Box::new(Salsa20::new(&[3; 32], &[8; 8]).with_rung(r).unwrap()),
        ),
        (
            "salsa20/12",
            || Box::new(Salsa20_12::new(&[3; 32], &[8; 8])),
            |r| Box::new(Salsa20_12::new(&[3; 32], &[8; 8]).with_rung(r).unwrap()),
        ),
        (
            "salsa20/8",
            || Box::new(Salsa20_8::new(&[3; 32], &[8; 8])),
            |r| Box::new(Salsa20_8::new(&[3; 32], &[8; 8]).with_rung(r).unwrap()),
        ),
        (
            "xsalsa20",
            || Box::new(XSalsa20::new(&[3; 32], &[8; 24])),
            |r| Box::new(XSalsa20::new(&[3; 32], &[8; 24]).with_rung(r).unwrap()),
        ),
    ];
    let input: Vec<u8> = (0..260u32).map(|i| (i * 29 + 1) as u8).collect();
    for imp in rungs("short_messages_match_the_reference") {
        for (name, _, on) in &ciphers {
            for at in [0, 64, 1, 63, 130, ((1u128 << 32) - 1) * 64] {
                for len in 0..=input.len() {
                    let mut want = input[..len].to_vec();
                    let mut reference = on(Rung::Reference);
                    reference.seek(at).unwrap();
                    reference.apply_keystream(&mut want).unwrap();
                    let mut c = on(imp);
                    c.seek(at).unwrap();
                    let mut out = vec![0; len];
                    c.xor_into(&input[..len], &mut out).unwrap();
                    assert_eq!(
                        out, want,
                        "{name} on {imp}, at {at}, {len} bytes out of place"
                    );
                    let mut c = on(imp);
                    c.seek(at).unwrap();
                    let mut data = input[..len].to_vec();
                    c.apply_keystream(&mut data).unwrap();
                    assert_eq!(data, want, "{name} on {imp}, at {at}, {len} bytes in place");
                }
            }
        }
        // The default rung's one-shot call, as a message is encrypted.
        for (name, new, on) in &ciphers {
            for len in 0..=input.len() {
                let mut want = vec![0; len];
                on(Rung::Reference)
                    .xor_into(&input[..len], &mut want)
                    .unwrap();
                let mut out = vec![0; len];
                new().xor_into(&input[..len], &mut out).unwrap();
                assert_eq!(out, want, "{name} by default, {len} bytes");
            }
        }
    }
}
