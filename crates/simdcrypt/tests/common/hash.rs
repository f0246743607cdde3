//! What the hash families' tests share: the NIST CAVP `.rsp` reader, the
//! FIPS 180 examples, and one macro of ladder tests every hash type runs.

use super::{hex, json, records};

/// The `(message, digest)` pairs of a CAVP SHAVS byte-oriented file
/// (`Len = bits`, `Msg = hex`, `MD = hex`; `Len = 0` carries `Msg = 00`,
/// which stands for the empty message).
pub fn cavp(text: &str) -> Vec<(Vec<u8>, Vec<u8>)> {
    let mut out = Vec::new();
    let mut len_bits = None;
    let mut msg = None;
    for line in text.lines().map(str::trim) {
        let Some((key, value)) = line.split_once(" = ") else {
            continue;
        };
        match key {
            "Len" => len_bits = Some(value.parse::<usize>().expect("Len is a number")),
            "Msg" => msg = Some(hex(value)),
            "MD" => {
                let bits = len_bits.take().expect("Len before MD");
                let mut m = msg.take().expect("Msg before MD");
                assert_eq!(bits % 8, 0, "byte-oriented vectors only");
                m.truncate(bits / 8);
                out.push((m, hex(value)));
            }
            _ => {}
        }
    }
    assert!(!out.is_empty(), "no vectors in the CAVP file");
    out
}

/// The FIPS 180 examples (RFC 6234 §8.4) of `algorithm` ("SHA-1",
/// "SHA-256", "SHA-512"): `(message, digest)`, the message repeated as the
/// file says (one million "a" among them).
pub fn fips180(algorithm: &str) -> Vec<(Vec<u8>, Vec<u8>)> {
    let file = json(include_str!("../data/sha/fips180_examples.json"));
    let list: Vec<_> = records(&file, "vectors")
        .iter()
        .filter(|v| v["algorithm"] == algorithm)
        .map(|v| {
            let unit = v["message_ascii"].as_str().expect("message_ascii");
            let repeat = v["repeat"].as_u64().expect("repeat") as usize;
            (
                unit.repeat(repeat).into_bytes(),
                hex(v["digest"].as_str().expect("digest")),
            )
        })
        .collect();
    assert!(!list.is_empty(), "no FIPS 180 examples for {algorithm}");
    list
}

/// The ladder tests of one hash type `$Hash` whose rungs are `$Impl`, over
/// the known answers `$vectors` (an expression giving `(message, digest)`
/// pairs): every rung on every vector; every rung against the reference
/// for every length 0..=1000; random splits of `update` calls; reset.
macro_rules! hash_ladder_tests {
    ($Hash:ty, $Impl:ty, $vectors:expr) => {
        /// The rungs this CPU runs, saying in the log which were skipped.
        fn rungs(test: &str) -> Vec<$Impl> {
            $crate::common::rungs(test)
        }

        fn on(imp: $Impl) -> $Hash {
            <$Hash>::new().with_impl(imp).expect("available rung")
        }

        fn one_shot(imp: $Impl, data: &[u8]) -> Vec<u8> {
            let mut h = on(imp);
            h.update(data);
            h.finalize().to_vec()
        }

        #[test]
        fn known_answers_on_every_rung() {
            let vectors: Vec<(Vec<u8>, Vec<u8>)> = $vectors;
            for imp in rungs("known_answers_on_every_rung") {
                for (i, (msg, want)) in vectors.iter().enumerate() {
                    assert_eq!(
                        &one_shot(imp, msg),
                        want,
                        "{imp}: vector {i} ({} bytes)",
                        msg.len()
                    );
                }
            }
        }

        #[test]
        fn every_length_to_1000_equals_the_reference() {
            let data = $crate::common::bytes(7, 1000);
            let want: Vec<Vec<u8>> = (0..=1000)
                .map(|len| one_shot(<$Impl>::ALL[0], &data[..len]))
                .collect();
            for imp in rungs("every_length_to_1000_equals_the_reference") {
                for len in 0..=1000 {
                    assert_eq!(one_shot(imp, &data[..len]), want[len], "{imp}: {len} bytes");
                }
            }
        }

        #[test]
        fn reset_and_finalize_reset_start_over() {
            for imp in rungs("reset_and_finalize_reset_start_over") {
                let mut h = on(imp);
                h.update(b"something else");
                h.reset();
                h.update(b"abc");
                let first = h.finalize_reset();
                h.update(b"abc");
                assert_eq!(first, h.finalize(), "{imp}");
                assert_eq!(first.to_vec(), one_shot(imp, b"abc"), "{imp}");
                assert_eq!(<$Hash>::digest(b"abc"), first, "{imp}: digest");
            }
        }

        proptest::proptest! {
            #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
            #[test]
            fn random_splits_equal_one_shot(
                seed in proptest::prelude::any::<u64>(),
                len in 0usize..3000,
                cuts in proptest::collection::vec(0usize..3000, 0..8),
            ) {
                let data = $crate::common::bytes(seed, len);
                let want = one_shot(<$Impl>::ALL[0], &data);
                let mut cuts: Vec<usize> = cuts.into_iter().map(|c| c % (len + 1)).collect();
                cuts.sort_unstable();
                for imp in <$Impl>::available() {
                    let mut h = on(imp);
                    let mut at = 0;
                    for &cut in &cuts {
                        h.update(&data[at..cut]);
                        at = cut;
                    }
                    h.update(&data[at..]);
                    proptest::prop_assert_eq!(h.finalize().to_vec(), want.clone(), "{} cuts {:?}", imp, cuts);
                }
            }
        }
    };
}
pub(crate) use hash_ladder_tests;
