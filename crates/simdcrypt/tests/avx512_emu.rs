//! The AVX-512 rungs of every primitive, alone: the checking kit's checks
//! on them, the stream API's promises, and independent peers, in one test
//! binary small enough to run on an emulated AVX-512 CPU.
//! `tools/avx512emu/run-tests.sh` (run by `.ci/run`) builds this file as a
//! static binary and runs it in one boot of the emulator.
//!
//! The AVX-512 rungs are those the table says need AVX-512 (`needs`):
//! the kit's checks and the default-rung check take them from the table,
//! every ladder that has one (a new ladder is checked without a line here);
//! the other tests take those of their primitive. Each prints the rungs
//! it exercised. On a CPU without AVX-512 they are skipped, with a message,
//! unless `SIMDCRYPT_REQUIRE_AVX512=1` is set (the emulator run sets it):
//! then a missing AVX-512 rung fails the test, so that run cannot pass by
//! skipping. `SIMDCRYPT_REQUIRE_FEATURES=avx512f,vaes,…` (names as
//! `simdcrypt::cpu::Features::list` spells them) also demands CPU features.
//!
//! The vectors, the cross-checks against the specifications' own
//! functions and the round trips are the checking kit's (`simdcrypt::kit`,
//! as `tests/kit.rs` runs them on every rung), given the AVX-512 rungs
//! alone; the kit's vector files are compiled in (the guest has no source
//! tree). The property tests run 32 cases each unless `PROPTEST_CASES`
//! says otherwise, because the emulator runs some 40–100 times slower than
//! the silicon.

// The checking kit is the `kit` feature.
#![cfg(feature = "kit")]

mod common;

use common::{bytes, field, hex, hex_array, json, number, records};
use proptest::prelude::*;
use simdcrypt::RungSet;

/// The variable that makes a missing AVX-512 rung an error.
const REQUIRE_VAR: &str = "SIMDCRYPT_REQUIRE_AVX512";
/// The variable that lists CPU features the run must see.
const FEATURES_VAR: &str = "SIMDCRYPT_REQUIRE_FEATURES";

/// The ladders whose default stays narrower than their AVX-512 rung on a
/// CPU with AVX-512, by measurement: SHA-512, whose `avx2` rung leads
/// `avx512` at every length on Zen 5 and ties it on Zen 4 (bench/NOTES.md,
/// `hash-short-zen5`). Their AVX-512 rungs must still run here.
const NARROWER_DEFAULT: &[&str] = &["sha512"];

/// Whether `SIMDCRYPT_REQUIRE_AVX512` demands the AVX-512 rungs.
fn required() -> bool {
    std::env::var(REQUIRE_VAR).is_ok_and(|v| !v.trim().is_empty() && v.trim() != "0")
}

/// The AVX-512 flags the CPU has and those the dispatchers may use, for
/// messages.
fn cpu_summary() -> String {
    let on = |f: simdcrypt::cpu::Features| {
        f.list()
            .into_iter()
            .filter(|&(name, has)| has && (name.starts_with("avx512") || name == "bmi2"))
            .map(|(name, _)| name)
            .collect::<Vec<_>>()
    };
    format!(
        "CPU has {:?}, usable under SIMDCRYPT_MAX_ISA={:?}: {:?}",
        on(simdcrypt::cpu::detected()),
        std::env::var(simdcrypt::cpu::MAX_ISA_VAR).unwrap_or_default(),
        on(simdcrypt::cpu::features())
    )
}

/// The AVX-512 rungs of `I` (those that need AVX-512) this CPU runs. A rung it
/// lacks fails the test when `SIMDCRYPT_REQUIRE_AVX512` is set, and is
/// skipped otherwise; with `test`, the log says which were exercised or
/// skipped.
fn avx512_rungs<I: RungSet>(test: Option<&str>) -> Vec<I> {
    let all: Vec<I> = I::all()
        .iter()
        .copied()
        .filter(|i| needs_avx512(i.needs()))
        .collect();
    assert!(
        !all.is_empty(),
        "{}: no AVX-512 rung declared",
        I::PRIMITIVE
    );
    let (run, missing): (Vec<I>, Vec<I>) = all.into_iter().partition(|i| i.is_available());
    let names = |v: &[I]| v.iter().map(|i| i.name()).collect::<Vec<_>>();
    if !missing.is_empty() {
        let why = format!(
            "{} AVX-512 rungs {:?} do not run here (they need {}; {})",
            I::PRIMITIVE,
            names(&missing),
            missing[0].needs(),
            cpu_summary()
        );
        assert!(!required(), "{why}, and {REQUIRE_VAR} demands them");
        if let Some(test) = test {
            eprintln!(
                "{test}: SKIPPED: {why}. Set {REQUIRE_VAR}=1 to make this an error; \
                 tools/avx512emu/run-tests.sh runs them on an emulated AVX-512 CPU"
            );
        }
    }
    if let (Some(test), false) = (test, run.is_empty()) {
        eprintln!(
            "{test}: {} AVX-512 rungs exercised {:?}",
            I::PRIMITIVE,
            names(&run)
        );
    }
    run
}

/// [`avx512_rungs`], saying in the log what `test` exercised.
fn rungs<I: RungSet>(test: &str) -> Vec<I> {
    avx512_rungs(Some(test))
}

/// [`avx512_rungs`] without a word, for proptest bodies.
fn quiet<I: RungSet>() -> Vec<I> {
    avx512_rungs(None)
}

/// 32 cases unless `PROPTEST_CASES` says otherwise; no failure files (the
/// guest has no source tree to keep them beside).
fn config() -> ProptestConfig {
    let mut config = ProptestConfig::default();
    if std::env::var_os("PROPTEST_CASES").is_none() {
        config.cases = 32;
    }
    config.failure_persistence = None;
    config
}

/// Data of 0 to `max_len` bytes from a random seed: cheaper to draw than
/// random bytes each, on the slow emulator.
fn seeded(max_len: usize) -> impl Strategy<Value = Vec<u8>> {
    (0..=max_len, any::<u64>()).prop_map(|(len, seed)| bytes(seed, len))
}

/// The check the others stand on: with `SIMDCRYPT_REQUIRE_AVX512` set, the
/// CPU has AVX-512, every AVX-512 rung runs, and each primitive's default
/// dispatch picks it; the log lists the CPU's features and the rungs.
#[test]
fn avx512_rungs_run_here_and_are_the_default() {
    #[cfg(target_arch = "x86_64")]
    let avx512f = std::is_x86_feature_detected!("avx512f");
    #[cfg(not(target_arch = "x86_64"))]
    let avx512f = false;
    eprintln!(
        "is_x86_feature_detected!(\"avx512f\") = {avx512f}; {}",
        cpu_summary()
    );
    let detected = simdcrypt::cpu::detected().list();
    eprintln!(
        "simdcrypt::cpu::detected(): {:?}",
        detected
            .iter()
            .filter(|f| f.1)
            .map(|f| f.0)
            .collect::<Vec<_>>()
    );
    if !required() {
        if !simdcrypt::cpu::features().avx512f {
            eprintln!(
                "SKIPPED the AVX-512 assertion: AVX-512 is absent or capped here and \
                 {REQUIRE_VAR} is not set; tools/avx512emu/run-tests.sh runs these tests on an \
                 emulated AVX-512 CPU"
            );
        }
        return;
    }
    assert!(avx512f, "{REQUIRE_VAR} is set but the CPU has no AVX-512F");
    // Every ladder of the table with an AVX-512 rung: every such rung
    // runs here, and the ladder's choice is one of them.
    let mut exercised = Vec::new();
    for ladder in simdcrypt::ladders().iter().filter(|l| has_avx512_rung(l)) {
        let rungs = ladder.rungs();
        let wide: Vec<_> = rungs.iter().filter(|r| needs_avx512(r.needs)).collect();
        let missing: Vec<&str> = wide
            .iter()
            .filter(|r| !r.available)
            .map(|r| r.name)
            .collect();
        assert!(
            missing.is_empty(),
            "{}: AVX-512 rungs {missing:?} do not run here; {}",
            ladder.name,
            cpu_summary()
        );
        let chosen = rungs.iter().find(|r| r.chosen).expect("a chosen rung");
        assert!(
            needs_avx512(chosen.needs) || NARROWER_DEFAULT.contains(&ladder.name),
            "{}: the default rung is {}, not an AVX-512 one",
            ladder.name,
            chosen.name
        );
        exercised.extend(wide.iter().map(|r| format!("{}/{}", ladder.name, r.name)));
    }
    eprintln!("AVX-512 rungs available and the default: {exercised:?}");
}

/// `SIMDCRYPT_REQUIRE_FEATURES` (comma-separated names as
/// [`simdcrypt::cpu::Features::list`] spells them) are all detected.
#[test]
fn required_cpu_features_are_detected() {
    let Ok(wanted) = std::env::var(FEATURES_VAR) else {
        eprintln!("{FEATURES_VAR} not set: no features demanded");
        return;
    };
    let detected = simdcrypt::cpu::detected().list();
    let mut missing = Vec::new();
    for name in wanted.split(',').map(str::trim).filter(|n| !n.is_empty()) {
        let Some(&(_, has)) = detected.iter().find(|f| f.0 == name) else {
            panic!(
                "{FEATURES_VAR}: unknown feature {name:?}; known: {:?}",
                detected.iter().map(|f| f.0).collect::<Vec<_>>()
            );
        };
        eprintln!("{name}: {}", if has { "detected" } else { "MISSING" });
        if !has {
            missing.push(name);
        }
    }
    assert!(missing.is_empty(), "{FEATURES_VAR}: missing {missing:?}");
}

/// Whether a rung that needs `needs` (as the table says it) is an
/// AVX-512 one this CPU computes right: one that needs GFNI is left out
/// where the CPU's GFNI is wrong ([`gfni_is_wrong`]).
fn needs_avx512(needs: &str) -> bool {
    needs.contains("AVX-512") && !(needs.contains("GFNI") && gfni_is_wrong())
}

/// Whether this CPU reports GFNI but computes it wrong, as the emulator
/// of `tools/avx512emu` (Bochs 2.7) does: its `vgf2p8affineqb` takes the
/// parity of a row as 1 for an even count, so every result bit comes out
/// complemented (the byte 0 under the identity matrix gives 0xff, not
/// 0). The rungs that need GFNI (Camellia's `gfni`) are checked on
/// silicon instead, by `tests/kit.rs` and the ladder's unit tests; here
/// they are left out, and the log says so.
fn gfni_is_wrong() -> bool {
    static WRONG: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *WRONG.get_or_init(|| {
        #[cfg(target_arch = "x86_64")]
        if simdcrypt::cpu::features().gfni {
            #[target_feature(enable = "gfni")]
            fn identity_of_zero() -> i64 {
                use std::arch::x86_64::{
                    _mm_cvtsi128_si64, _mm_gf2p8affine_epi64_epi8, _mm_set1_epi64x,
                    _mm_setzero_si128,
                };
                let identity = _mm_set1_epi64x(0x0102_0408_1020_4080);
                _mm_cvtsi128_si64(_mm_gf2p8affine_epi64_epi8::<0>(
                    _mm_setzero_si128(),
                    identity,
                ))
            }
            // SAFETY: the CPU reports GFNI.
            let wrong = unsafe { identity_of_zero() } != 0;
            if wrong {
                eprintln!(
                    "this CPU's GFNI is wrong (vgf2p8affineqb of 0 under the identity is not 0: \
                     Bochs 2.7): the rungs that need GFNI are left out"
                );
            }
            return wrong;
        }
        false
    })
}

/// Whether `ladder` has an AVX-512 rung.
fn has_avx512_rung(ladder: &simdcrypt::ladder::Ladder) -> bool {
    ladder.rungs().iter().any(|r| needs_avx512(r.needs))
}

/// Whether the rung named `name` is an AVX-512 one of some ladder (the
/// kit's rows name rungs; a composed ladder's rows take the names of the
/// rungs they run on).
fn is_avx512(name: &str) -> bool {
    simdcrypt::ladders()
        .iter()
        .flat_map(|l| l.rungs())
        .any(|r| r.name == name && needs_avx512(r.needs))
}

// The checking kit's checks (`simdcrypt::kit`, as `tests/kit.rs` runs them
// on every rung) on the AVX-512 rungs alone, of every ladder of the table
// that has one: their vectors, the cross-check against the specifications'
// own functions, round trips with every other rung. With
// `SIMDCRYPT_REQUIRE_AVX512` set, a skipped AVX-512 rung fails.
mod kit {
    use simdcrypt::kit::Check;

    /// The check on every ladder with an AVX-512 rung.
    fn on_avx512(check: Check) {
        crate::common::kit::every_ladder(
            check,
            super::has_avx512_rung,
            super::is_avx512,
            super::required(),
        );
    }

    #[test]
    fn vectors() {
        on_avx512(Check::Vectors);
    }

    #[test]
    fn cross_check() {
        on_avx512(Check::CrossCheck);
    }

    #[test]
    fn round_trip() {
        on_avx512(Check::RoundTrip);
    }
}

/// AES-GCM's zmm kernel (the `vaes512` row of the `aes-gcm` checks: GCM
/// on the kernel, GCM-SIV on AES's `vaes512` rung) through the kit's
/// checks: the spec's cases and Wycheproof, every length to 1100 bytes in
/// place and out of place, the counter started below its wrap, round
/// trips with every other path. The `aes-gcm` ladder is composed of AES
/// and GHASH and lists no rungs of its own, so the table-driven `kit`
/// tests above do not reach its kernels: they are named here.
mod aes_gcm_vaes512 {
    use simdcrypt::kit::Check;

    fn passes(check: Check) {
        crate::common::kit::passes("aes-gcm", check, |r| r == "vaes512", super::required());
    }

    #[test]
    fn vectors() {
        passes(Check::Vectors);
    }

    #[test]
    fn cross_check() {
        passes(Check::CrossCheck);
    }

    #[test]
    fn round_trip() {
        passes(Check::RoundTrip);
    }

    /// The zmm kernel is the one AES-GCM picks on an AVX-512 CPU.
    #[test]
    fn is_the_default() {
        use simdcrypt::aead::{Aes128Gcm, GcmKernel};
        if !GcmKernel::Vaes512.is_available() && !super::required() {
            eprintln!("aes-gcm vaes512: skipped, {}", super::cpu_summary());
            return;
        }
        assert_eq!(Aes128Gcm::new(&[0; 16]).kernel(), Some(GcmKernel::Vaes512));
        eprintln!("aes-gcm vaes512 exercised, and the default");
    }
}

/// The stream API's promises on Salsa20's `avx512` rung.
mod salsa20_avx512 {
    use simdcrypt::salsa20::{Rung, Salsa20};

    crate::common::stream_api_tests!(
        |imp| Salsa20::new(&[9; 32], &[4; 8]).with_rung(imp).unwrap(),
        super::rungs::<Rung>
    );
}

/// ChaCha20 on the `avx512` and `avx512vl` rungs: the stream API's
/// promises, and RustCrypto's `chacha20` as an independent peer.
mod chacha20_avx512 {
    use super::*;
    use chacha20::cipher::KeyIvInit as _;
    use common::chacha20::matches_peer;
    use simdcrypt::chacha20::{ChaCha20, Rung, XChaCha20};

    crate::common::stream_api_tests!(
        |imp| ChaCha20::new(&[9; 32], &[4; 12]).with_rung(imp).unwrap(),
        super::rungs::<Rung>
    );

    proptest! {
        #![proptest_config(config())]

        /// XChaCha20 and ChaCha20 against RustCrypto's `chacha20`, an
        /// independent peer, at random offsets and lengths.
        #[test]
        fn matches_rustcrypto(
            key in any::<[u8; 32]>(),
            nonce in any::<[u8; 24]>(),
            offset in prop_oneof![0u64..100_000, any::<u64>().prop_map(|o| o >> 28)],
            data in seeded(2200),
        ) {
            let n12: [u8; 12] = nonce[..12].try_into().unwrap();
            matches_peer(
                quiet::<Rung>(),
                chacha20::XChaCha20::new(&key.into(), &nonce.into()),
                |imp| XChaCha20::new(&key, &nonce).with_rung(imp).unwrap(),
                offset,
                &data,
            )?;
            matches_peer(
                quiet::<Rung>(),
                chacha20::ChaCha20::new(&key.into(), &n12.into()),
                |imp| ChaCha20::new(&key, &n12).with_rung(imp).unwrap(),
                offset,
                &data,
            )?;
        }
    }
}

/// Poly1305 on the `avx512ifma` rung: RustCrypto's `poly1305` as an
/// independent peer, and the lanes in use after a long run.
mod poly1305_avx512ifma {
    use super::*;
    use common::poly1305 as peer;

    #[test]
    fn equals_rustcrypto() {
        peer::equals_rustcrypto(&rungs("poly1305_avx512ifma::equals_rustcrypto"), 1100);
    }

    #[test]
    fn switches_to_the_lanes() {
        peer::vector_rungs_switch_to_the_lanes(&rungs(
            "poly1305_avx512ifma::switches_to_the_lanes",
        ));
    }
}

/// SHA-512, SHA-384 and SHA-512/256 on the SHA-512 `avx512` rung against
/// RustCrypto's `sha2`, cut so that odd numbers of whole blocks reach the
/// four-block schedule.
#[test]
fn sha512_avx512_equals_sha2_on_large_inputs() {
    common::hash::sha2_crate_agrees_on_large_inputs(
        &rungs("sha512_avx512_equals_sha2_on_large_inputs"),
        &[(1, 100_003), (3, 128 * 64 + 1)],
        &[1, 127, 128 * 3 + 5, 128 * 8, 10_007],
    );
}

/// ChaCha20-Poly1305 and XChaCha20-Poly1305 on the AVX-512 rungs: RFC 8439
/// §2.8.2 and A.5 and every Wycheproof case, built from ChaCha20 on
/// `avx512`/`avx512vl` and Poly1305 on `avx512ifma`, and through the AEAD
/// types (whose default rungs are the AVX-512 ones where they run).
mod aead_avx512 {
    use super::*;
    use simdcrypt::aead::{ChaCha20Poly1305, XChaCha20Poly1305};
    use simdcrypt::chacha20::{self, ChaCha20, hchacha20};
    use simdcrypt::poly1305::{self, Poly1305};

    /// RFC 8439 §2.8 on the given rungs: ciphertext and tag.
    fn seal(
        rungs: (chacha20::Rung, poly1305::Rung),
        key: &[u8; 32],
        nonce: &[u8; 12],
        aad: &[u8],
        msg: &[u8],
    ) -> (Vec<u8>, [u8; 16]) {
        let mut c = ChaCha20::new(key, nonce).with_rung(rungs.0).unwrap();
        let mut otk = [0u8; 64];
        c.apply_keystream(&mut otk).unwrap();
        let mut ct = msg.to_vec();
        c.apply_keystream(&mut ct).unwrap();
        let mut p = Poly1305::new(otk[..32].try_into().unwrap())
            .with_rung(rungs.1)
            .unwrap();
        p.update_padded(aad);
        p.update_padded(&ct);
        p.update(&(aad.len() as u64).to_le_bytes());
        p.update(&(ct.len() as u64).to_le_bytes());
        (ct, p.finalize())
    }

    /// XChaCha20-Poly1305: the same under HChaCha20's subkey.
    fn xseal(
        rungs: (chacha20::Rung, poly1305::Rung),
        key: &[u8; 32],
        nonce: &[u8; 24],
        aad: &[u8],
        msg: &[u8],
    ) -> (Vec<u8>, [u8; 16]) {
        let subkey = hchacha20(key, nonce[..16].try_into().unwrap());
        let mut n12 = [0u8; 12];
        n12[4..].copy_from_slice(&nonce[16..]);
        seal(rungs, &subkey, &n12, aad, msg)
    }

    /// Every pair of an AVX-512 ChaCha20 rung and an AVX-512 Poly1305 rung.
    fn pairs(test: &str) -> Vec<(chacha20::Rung, poly1305::Rung)> {
        let (c, p) = (rungs::<chacha20::Rung>(test), rungs::<poly1305::Rung>(test));
        c.iter()
            .flat_map(|&c| p.iter().map(move |&p| (c, p)))
            .collect()
    }

    #[test]
    fn rfc8439_and_draft_vectors() {
        let rfc = json(include_str!("data/rfc8439/rfc8439.json"));
        let draft = json(include_str!("data/xchacha/draft-irtf-cfrg-xchacha-03.json"));
        let sections = |v: &serde_json::Value| -> Vec<serde_json::Value> {
            v.as_object()
                .unwrap()
                .iter()
                .filter(|(k, _)| k.contains("aead"))
                .flat_map(|(_, list)| list.as_array().cloned().unwrap_or_default())
                .collect()
        };
        let (rfc_aead, draft_aead) = (sections(&rfc), sections(&draft));
        assert!(!rfc_aead.is_empty() && !draft_aead.is_empty());
        let pairs = pairs("aead_avx512::rfc8439_and_draft_vectors");
        for (list, x) in [(&rfc_aead, false), (&draft_aead, true)] {
            for r in list {
                let key = hex_array::<32>(field(r, "key"));
                let nonce = hex(field(r, "nonce"));
                let aad = hex(field(r, "aad"));
                let ct = hex(field(r, "ciphertext"));
                let tag = hex_array::<16>(field(r, "tag"));
                let pt = hex(field(r, "plaintext"));
                for &rungs in &pairs {
                    let got = if x {
                        xseal(rungs, &key, &nonce.clone().try_into().unwrap(), &aad, &pt)
                    } else {
                        seal(rungs, &key, &nonce.clone().try_into().unwrap(), &aad, &pt)
                    };
                    assert_eq!(got, (ct.clone(), tag), "{rungs:?}: {r}");
                }
            }
        }
    }

    /// Every Wycheproof case with a nonce the AEAD takes: the valid ones
    /// seal to their ciphertext and tag, on every pair of AVX-512 rungs and
    /// through the AEAD types; the invalid ones do not, and do not open.
    #[test]
    fn wycheproof() {
        let pairs = pairs("aead_avx512::wycheproof");
        for (text, nonce_len) in [
            (
                include_str!("data/wycheproof/chacha20_poly1305_test.json"),
                12,
            ),
            (
                include_str!("data/wycheproof/xchacha20_poly1305_test.json"),
                24,
            ),
        ] {
            let file = json(text);
            let mut count = 0;
            for group in records(&file, "testGroups") {
                if number(group, "ivSize") as usize != nonce_len * 8 {
                    continue;
                }
                for t in records(group, "tests") {
                    count += 1;
                    let key = hex_array::<32>(field(t, "key"));
                    let nonce = hex(field(t, "iv"));
                    let (aad, msg) = (hex(field(t, "aad")), hex(field(t, "msg")));
                    let (ct, tag) = (hex(field(t, "ct")), hex(field(t, "tag")));
                    let valid = field(t, "result") == "valid";
                    let id = number(t, "tcId");
                    for &rungs in &pairs {
                        let (c, g) = if nonce_len == 12 {
                            seal(rungs, &key, &nonce.clone().try_into().unwrap(), &aad, &msg)
                        } else {
                            xseal(rungs, &key, &nonce.clone().try_into().unwrap(), &aad, &msg)
                        };
                        assert_eq!(c == ct && g[..] == tag[..], valid, "{rungs:?}: tcId {id}");
                    }
                    let sealed = [&ct[..], &tag].concat();
                    let opened = if nonce_len == 12 {
                        let n: [u8; 12] = nonce.clone().try_into().unwrap();
                        let aead = ChaCha20Poly1305::new(&key);
                        if valid {
                            assert_eq!(aead.encrypt(&n, &aad, &msg), sealed, "tcId {id}");
                        }
                        aead.decrypt(&n, &aad, &sealed)
                    } else {
                        let n: [u8; 24] = nonce.clone().try_into().unwrap();
                        let aead = XChaCha20Poly1305::new(&key);
                        if valid {
                            assert_eq!(aead.encrypt(&n, &aad, &msg), sealed, "tcId {id}");
                        }
                        aead.decrypt(&n, &aad, &sealed)
                    };
                    match opened {
                        Ok(pt) => assert!(valid && pt == msg, "tcId {id} opened"),
                        Err(_) => assert!(!valid, "tcId {id} refused"),
                    }
                }
            }
            assert!(count > 300, "{count} Wycheproof cases");
        }
    }

    proptest! {
        #![proptest_config(config())]

        /// Random messages across the Poly1305 switch point and the
        /// ChaCha20 widths: the AEAD type and the explicit rungs agree.
        #[test]
        fn aead_type_equals_the_avx512_rungs(
            key in any::<[u8; 32]>(),
            nonce in any::<[u8; 12]>(),
            aad_len in 0usize..100,
            len in 0usize..3000,
            seed in any::<u64>(),
        ) {
            let (aad, msg) = (bytes(seed, aad_len), bytes(!seed, len));
            let sealed = ChaCha20Poly1305::new(&key).encrypt(&nonce, &aad, &msg);
            for c in quiet::<chacha20::Rung>() {
                for p in quiet::<poly1305::Rung>() {
                    let (ct, tag) = seal((c, p), &key, &nonce, &aad, &msg);
                    prop_assert_eq!(&[&ct[..], &tag].concat(), &sealed, "{} {}", c, p);
                }
            }
        }
    }
}

/// AES's `vaes512` rung (VAES on zmm): FIPS 197 and SP 800-38A's ECB, CBC
/// and CTR examples, and ECB, CBC and CTR against FIPS 197's `cipher` on
/// random keys of every size, lengths past its 32-block batch and counters
/// about to carry or wrap. (Its name does not begin with `avx512`: the
/// rung is chosen here by name.)
mod aes_vaes512 {
    use super::*;
    use simdcrypt::aes::reference::{cipher, inv_cipher, key_expansion};
    use simdcrypt::aes::{Aes, Bits128, Bits192, Bits256, KeySize, Rung};
    use simdcrypt::block::{BlockCipher, Cbc, Ctr};

    /// Whether the rung runs here; a missing one fails under
    /// `SIMDCRYPT_REQUIRE_AVX512`, and is skipped (saying so) otherwise.
    fn here(test: &str) -> bool {
        let ok = Rung::Vaes512.is_available();
        assert!(
            ok || !required(),
            "aes vaes512 does not run here (needs {}; {}), and {REQUIRE_VAR} demands it",
            Rung::Vaes512.needs(),
            cpu_summary()
        );
        eprintln!(
            "{test}: aes rung vaes512 {}",
            if ok { "exercised" } else { "SKIPPED" }
        );
        ok
    }

    /// AES under `key` on `vaes512`.
    fn aes<K: KeySize<Key = [u8; N]>, const N: usize>(key: &[u8]) -> Aes<K> {
        Aes::<K>::new(key.try_into().expect("a key of the size"))
            .with_rung(Rung::Vaes512)
            .expect("the rung runs here")
    }

    /// ECB, CBC and CTR of `data` under `key` and `iv` on `vaes512`, and
    /// CBC decrypted back.
    fn modes<C: BlockCipher<Block = [u8; 16]>>(
        cipher: C,
        iv: &[u8; 16],
        data: &[u8],
    ) -> [Vec<u8>; 4] {
        let whole = &data[..data.len() / 16 * 16];
        let mut ecb = whole.to_vec();
        cipher.encrypt_blocks(&mut ecb).expect("whole blocks");
        let mut cbc = whole.to_vec();
        Cbc::from_cipher(cipher.clone(), iv)
            .encrypt(&mut cbc)
            .expect("whole blocks");
        let mut back = vec![0; cbc.len()];
        Cbc::from_cipher(cipher.clone(), iv)
            .decrypt_into(&cbc, &mut back)
            .expect("whole blocks");
        let mut ctr = data.to_vec();
        Ctr::from_cipher(cipher, iv)
            .apply_keystream(&mut ctr)
            .expect("within the keystream");
        [ecb, cbc, back, ctr]
    }

    /// The same from FIPS 197's `cipher` and `inv_cipher`, written out.
    fn reference(key: &[u8], iv: &[u8; 16], data: &[u8]) -> [Vec<u8>; 4] {
        let w = key_expansion(key);
        let block = |b: &[u8]| -> [u8; 16] { b.try_into().expect("16 bytes") };
        let whole = &data[..data.len() / 16 * 16];
        let ecb = whole
            .chunks(16)
            .flat_map(|b| cipher(&block(b), &w))
            .collect();
        let mut chain = *iv;
        let mut cbc = Vec::new();
        for b in whole.chunks(16) {
            chain = cipher(&std::array::from_fn(|i| b[i] ^ chain[i]), &w);
            cbc.extend(chain);
        }
        let mut prev = *iv;
        let mut back = Vec::new();
        for c in cbc.chunks(16) {
            let p = inv_cipher(&block(c), &w);
            back.extend((0..16).map(|i| p[i] ^ prev[i]));
            prev = block(c);
        }
        let t0 = u128::from_be_bytes(*iv);
        let ctr = data
            .chunks(16)
            .enumerate()
            .flat_map(|(j, d)| {
                let k = cipher(&t0.wrapping_add(j as u128).to_be_bytes(), &w);
                d.iter().zip(k).map(|(x, y)| x ^ y).collect::<Vec<_>>()
            })
            .collect();
        [ecb, cbc, back, ctr]
    }

    fn on_vaes512(key: &[u8], iv: &[u8; 16], data: &[u8]) -> [Vec<u8>; 4] {
        match key.len() {
            16 => modes(aes::<Bits128, 16>(key), iv, data),
            24 => modes(aes::<Bits192, 24>(key), iv, data),
            _ => modes(aes::<Bits256, 32>(key), iv, data),
        }
    }

    #[test]
    fn known_answers() {
        if !here("aes_vaes512::known_answers") {
            return;
        }
        let fips = json(include_str!("data/aes/fips197.json"));
        for r in records(&fips, "vectors") {
            let (key, pt, ct) = (
                hex(field(r, "key")),
                hex(field(r, "plaintext")),
                hex(field(r, "ciphertext")),
            );
            assert_eq!(
                on_vaes512(&key, &[0; 16], &pt)[0],
                ct,
                "{}",
                field(r, "section")
            );
        }
        let sp = json(include_str!("data/aes/sp800_38a.json"));
        for r in records(&sp, "vectors")
            .iter()
            .filter(|r| field(r, "direction") == "encrypt")
        {
            let (key, pt, ct) = (
                hex(field(r, "key")),
                hex(field(r, "plaintext")),
                hex(field(r, "ciphertext")),
            );
            let (slot, iv) = match field(r, "mode") {
                "ecb" => (0, vec![0; 16]),
                "cbc" => (1, hex(field(r, "iv"))),
                _ => (3, hex(field(r, "initial_counter_block"))),
            };
            let iv: [u8; 16] = iv.try_into().expect("16 bytes");
            assert_eq!(on_vaes512(&key, &iv, &pt)[slot], ct, "{}", field(r, "name"));
        }
    }

    proptest! {
        #![proptest_config(config())]

        #[test]
        fn ecb_cbc_ctr_match_fips_197(
            key_len in prop::sample::select(vec![16usize, 24, 32]),
            key_seed in any::<u64>(),
            data in seeded(40 * 16 + 15),
            iv_seed in any::<u64>(),
            carry in 0u8..4,
        ) {
            if Rung::Vaes512.is_available() {
                let key = bytes(key_seed, key_len);
                let mut iv: [u8; 16] = bytes(iv_seed, 16).try_into().expect("16 bytes");
                // A quarter just below a carry of the low 32 or 64 bits or the wrap.
                match carry {
                    0 => iv[12..].copy_from_slice(&(u32::MAX - 3).to_be_bytes()),
                    1 => iv[8..].copy_from_slice(&(u64::MAX - 5).to_be_bytes()),
                    2 => iv = (u128::MAX - 7).to_be_bytes(),
                    _ => {}
                }
                prop_assert_eq!(on_vaes512(&key, &iv, &data), reference(&key, &iv, &data));
            } else {
                prop_assert!(!required(), "aes vaes512 does not run here");
            }
        }
    }
}
