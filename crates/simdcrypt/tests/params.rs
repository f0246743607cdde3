//! Parameters declared once, in the table: what the primitives declare
//! beyond key and IV is what `Primitive::new_mode` and `new_mac` check
//! given values against and fill in when none is given; every declaration
//! of one name agrees (the tool makes one flag of it); a constructor reads
//! the defaults from the declaration, not a copy of its own.

use simdcrypt::Error;
use simdcrypt::dynamic::{Direction, MacOptions, ModeOptions, Params, StreamOptions};
use simdcrypt::ladder::{self, Construct, ParamKind, Primitive};

/// The primitive of the table named `name`.
fn primitive(name: &str) -> &'static Primitive {
    ladder::find(name)
        .unwrap_or_else(|| panic!("{name} in the table"))
        .1
}

/// The kind of a parameter, as a word (`ParamKind` holds a function).
fn kind(k: ParamKind) -> String {
    match k {
        ParamKind::Switch => "switch".to_owned(),
        ParamKind::Number { min, max } => format!("number {min}..={max}"),
        ParamKind::Value { value_name, .. } => format!("value {value_name}"),
        _ => "other".to_owned(),
    }
}

#[test]
fn every_declaration_of_a_name_agrees_and_its_default_is_taken() {
    let mut seen: Vec<(&str, String, &str)> = Vec::new();
    for (_, p) in ladder::primitives() {
        for param in p.params {
            let this = (param.name, kind(param.kind), param.help);
            match seen.iter().find(|s| s.0 == param.name) {
                Some(first) => assert_eq!(*first, this, "{}: {}", p.name, param.name),
                None => seen.push(this),
            }
            param
                .check(p.name, param.default)
                .unwrap_or_else(|e| panic!("{}: default of {}: {e}", p.name, param.name));
            assert!(!param.help.is_empty() && !param.doc.is_empty());
        }
    }
    assert!(seen.len() >= 2, "{seen:?}");
}

#[test]
fn given_values_are_checked_against_the_declaration() {
    let gost89 = primitive("gost89");
    let given = |pairs: &[(&str, &str)]| {
        gost89.resolve(&Params(pairs)).map(|v| {
            v.into_iter()
                .map(|(n, v)| format!("{n}={v}"))
                .collect::<Vec<_>>()
        })
    };
    // The defaults, filled in; a value given replaces one.
    assert_eq!(given(&[]).unwrap(), ["sbox=param-z", "key-meshing=on"]);
    assert_eq!(
        given(&[("key-meshing", "off")]).unwrap(),
        ["sbox=param-z", "key-meshing=off"]
    );
    // A parameter it does not declare, a switch neither on nor off, a
    // value its family's check refuses.
    assert!(matches!(
        given(&[("rounds", "8")]),
        Err(Error::ParamUnsupported {
            primitive: "gost89",
            ..
        })
    ));
    assert!(matches!(
        given(&[("key-meshing", "maybe")]),
        Err(Error::BadParamValue { .. })
    ));
    assert!(matches!(
        given(&[("sbox", "nope")]),
        Err(Error::BadSBox { .. })
    ));
    // A primitive that declares none refuses any, by the same rule.
    let cbc = primitive("aes-128-cbc");
    let e = cbc
        .new_mode(
            &[0; 16],
            &[0; 16],
            &ModeOptions {
                params: Params(&[("sbox", "param-z")]),
                ..Default::default()
            },
        )
        .err()
        .expect("refused");
    assert_eq!(e.to_string(), "aes-128-cbc takes no sbox parameter");
    // Numbers within their declared range.
    let scrypt = primitive("scrypt");
    assert!(scrypt.resolve(&Params(&[("log-n", "20")])).is_ok());
    assert!(matches!(
        scrypt.resolve(&Params(&[("log-n", "0")])),
        Err(Error::BadParamValue { .. })
    ));
}

#[test]
fn the_declared_default_is_what_the_constructor_runs() {
    // Every stream cipher, mode and MAC that declares parameters, built
    // without them, equals it given their declared defaults; GOST's differ
    // with another S-box set.
    let key = [7u8; 32];
    let iv = [9u8; 8];
    let message = [0x42u8; 100];
    for (_, p) in ladder::primitives().filter(|(_, p)| !p.params.is_empty()) {
        let defaults: Vec<(&str, &str)> = p.params.iter().map(|q| (q.name, q.default)).collect();
        let run = |params: &[(&str, &str)]| -> Option<Vec<u8>> {
            match p.construct {
                Construct::Stream(_) => {
                    let options = StreamOptions {
                        params: Params(params),
                        ..Default::default()
                    };
                    let mut cipher = p.new_stream(&key[..p.key_lens[0]], &iv, &options).ok()?;
                    let mut out = message.to_vec();
                    cipher.apply_keystream(&mut out).ok()?;
                    Some(out)
                }
                Construct::Mode(_) => {
                    let options = ModeOptions {
                        direction: Direction::Encrypt,
                        params: Params(params),
                        ..Default::default()
                    };
                    let mut mode = p.new_mode(&key, &iv, &options).ok()?;
                    let mut out = vec![0; 200];
                    let n = mode.update(&message, &mut out).ok()?;
                    let m = mode.finalize(&mut out[n..]).ok()?;
                    out.truncate(n + m);
                    Some(out)
                }
                Construct::Mac(_) => {
                    let options = MacOptions {
                        params: Params(params),
                        ..Default::default()
                    };
                    let mut mac = p.new_mac(&key, &options).ok()?;
                    mac.update(&message);
                    let mut tag = vec![0; p.output_len.unwrap_or(0)];
                    mac.finalize_into(&mut tag);
                    Some(tag)
                }
                _ => None,
            }
        };
        let Some(plain) = run(&[]) else {
            continue;
        };
        assert_eq!(Some(&plain), run(&defaults).as_ref(), "{}", p.name);
        if p.params.iter().any(|q| q.name == "sbox") {
            let other = if p.params[0].default == "test" {
                "cryptopro-b"
            } else {
                "test"
            };
            assert_ne!(Some(&plain), run(&[("sbox", other)]).as_ref(), "{}", p.name);
        }
    }
}

#[test]
fn a_primitive_is_built_only_as_what_it_is() {
    let sha256 = primitive("sha256");
    assert!(matches!(
        sha256.new_mode(&[], &[], &ModeOptions::default()),
        Err(Error::NotOfKind {
            primitive: "sha256",
            ..
        })
    ));
    assert!(matches!(
        sha256.new_mac(&[], &MacOptions::default()),
        Err(Error::NotOfKind { .. })
    ));
}
