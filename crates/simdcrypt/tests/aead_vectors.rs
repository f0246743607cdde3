//! The AEADs on their official vectors: RFC 8439 §2.8.2 and A.5, the
//! XChaCha draft's A.3.1, every case of Wycheproof's ChaCha20-Poly1305 and
//! XChaCha20-Poly1305 files (every invalid one must be refused), and NaCl's
//! `crypto_secretbox` example as libsodium carries it. Each vector runs in
//! the combined and the detached form, both directions.

mod common;

use common::{hex, hex_array};
use serde_json::Value;
use simdcrypt::Error;
use simdcrypt::aead::{ChaCha20Poly1305, XChaCha20Poly1305, XSalsa20Poly1305};
use simdcrypt::ladder::{self, Construct};

/// The vector files, compiled in (the tests also run where the source tree
/// is not, such as the AVX-512 emulator's guest), by their path under
/// `tests/data`.
fn load(path: &str) -> Value {
    let text = match path {
        "rfc8439/rfc8439.json" => include_str!("data/rfc8439/rfc8439.json"),
        "xchacha/draft-irtf-cfrg-xchacha-03.json" => {
            include_str!("data/xchacha/draft-irtf-cfrg-xchacha-03.json")
        }
        "salsa20/xsalsa20_nacl.json" => include_str!("data/salsa20/xsalsa20_nacl.json"),
        "wycheproof/chacha20_poly1305_test.json" => {
            include_str!("data/wycheproof/chacha20_poly1305_test.json")
        }
        "wycheproof/xchacha20_poly1305_test.json" => {
            include_str!("data/wycheproof/xchacha20_poly1305_test.json")
        }
        other => panic!("no vector file {other}"),
    };
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn field(v: &Value, key: &str) -> Vec<u8> {
    hex(v[key].as_str().unwrap_or_else(|| panic!("missing {key}")))
}

/// One AEAD seen through the operations the vectors need, whatever its
/// nonce length, tag position and associated data. `None` when the nonce
/// has a length the AEAD cannot take, or associated data is given to one
/// that takes none (the type system refuses both).
trait Aead {
    fn seal(key: &[u8; 32], nonce: &[u8], aad: &[u8], pt: &[u8]) -> Option<Vec<u8>>;
    fn open(
        key: &[u8; 32],
        nonce: &[u8],
        aad: &[u8],
        sealed: &[u8],
    ) -> Option<Result<Vec<u8>, Error>>;
    fn seal_detached(key: &[u8; 32], nonce: &[u8], aad: &[u8], data: &mut [u8])
    -> Option<[u8; 16]>;
    fn open_detached(
        key: &[u8; 32],
        nonce: &[u8],
        aad: &[u8],
        data: &mut [u8],
        tag: &[u8; 16],
    ) -> Option<Result<(), Error>>;
    /// The combined form of ciphertext and tag.
    fn combine(ct: &[u8], tag: &[u8]) -> Vec<u8>;
}

/// `None` when `aad` is not empty and the type takes none.
fn fits(takes_aad: bool, aad: &[u8]) -> Option<()> {
    (takes_aad || aad.is_empty()).then_some(())
}

/// Implements [`Aead`] for `$t`; `aad => [aad]` passes the associated
/// data on to the type's methods, `aad => []` passes none (secretbox,
/// which takes none).
macro_rules! aead_impl {
    (
        $t:ident,
        tag_first = $tag_first:literal,
        takes_aad = $takes_aad:literal,
        $aad:ident => [$($pass:ident)?]
    ) => {
        impl Aead for $t {
            fn seal(key: &[u8; 32], nonce: &[u8], $aad: &[u8], pt: &[u8]) -> Option<Vec<u8>> {
                fits($takes_aad, $aad)?;
                Some($t::new(key).encrypt(nonce.try_into().ok()?, $($pass,)? pt))
            }
            fn open(
                key: &[u8; 32],
                nonce: &[u8],
                $aad: &[u8],
                sealed: &[u8],
            ) -> Option<Result<Vec<u8>, Error>> {
                fits($takes_aad, $aad)?;
                Some($t::new(key).decrypt(nonce.try_into().ok()?, $($pass,)? sealed))
            }
            fn seal_detached(
                key: &[u8; 32],
                nonce: &[u8],
                $aad: &[u8],
                data: &mut [u8],
            ) -> Option<[u8; 16]> {
                fits($takes_aad, $aad)?;
                let nonce = nonce.try_into().ok()?;
                Some($t::new(key).encrypt_in_place_detached(nonce, $($pass,)? data))
            }
            fn open_detached(
                key: &[u8; 32],
                nonce: &[u8],
                $aad: &[u8],
                data: &mut [u8],
                tag: &[u8; 16],
            ) -> Option<Result<(), Error>> {
                fits($takes_aad, $aad)?;
                let nonce = nonce.try_into().ok()?;
                Some($t::new(key).decrypt_in_place_detached(nonce, $($pass,)? data, tag))
            }
            fn combine(ct: &[u8], tag: &[u8]) -> Vec<u8> {
                if $tag_first {
                    [tag, ct].concat()
                } else {
                    [ct, tag].concat()
                }
            }
        }
    };
}

aead_impl!(ChaCha20Poly1305, tag_first = false, takes_aad = true, aad => [aad]);
aead_impl!(XChaCha20Poly1305, tag_first = false, takes_aad = true, aad => [aad]);
aead_impl!(XSalsa20Poly1305, tag_first = true, takes_aad = false, aad => []);

/// A vector that must seal to `ct`/`tag` and open back to `pt`, in both
/// forms; and must be refused once its tag or ciphertext is altered.
fn check_valid<A: Aead>(
    name: &str,
    key: &[u8; 32],
    nonce: &[u8],
    aad: &[u8],
    pt: &[u8],
    ct: &[u8],
    tag: &[u8],
) {
    let sealed = A::combine(ct, tag);
    assert_eq!(
        A::seal(key, nonce, aad, pt).as_deref(),
        Some(&sealed[..]),
        "{name}: seal"
    );
    assert_eq!(
        A::open(key, nonce, aad, &sealed),
        Some(Ok(pt.to_vec())),
        "{name}: open"
    );

    let mut data = pt.to_vec();
    let t = A::seal_detached(key, nonce, aad, &mut data).expect("nonce length");
    assert_eq!((&data[..], &t[..]), (ct, tag), "{name}: detached seal");
    let tag: &[u8; 16] = tag.try_into().expect("16-byte tag");
    assert_eq!(
        A::open_detached(key, nonce, aad, &mut data, tag),
        Some(Ok(())),
        "{name}: detached open"
    );
    assert_eq!(data, pt, "{name}: detached open");

    let mut bad_tag = *tag;
    bad_tag[15] ^= 0x80;
    let mut data = ct.to_vec();
    assert_eq!(
        A::open_detached(key, nonce, aad, &mut data, &bad_tag),
        Some(Err(Error::AuthenticationFailed)),
        "{name}: altered tag"
    );
    assert!(
        data.iter().all(|&b| b == 0),
        "{name}: a refused message must leave zeros"
    );
}

/// A vector that must be refused, in both forms, leaving zeros.
fn check_invalid<A: Aead>(
    name: &str,
    key: &[u8; 32],
    nonce: &[u8],
    aad: &[u8],
    ct: &[u8],
    tag: &[u8],
) {
    let sealed = A::combine(ct, tag);
    match A::open(key, nonce, aad, &sealed) {
        None => return, // a nonce length the type cannot even express
        Some(r) => assert_eq!(
            r,
            Err(Error::AuthenticationFailed),
            "{name}: must be refused"
        ),
    }
    let mut data = ct.to_vec();
    let tag: &[u8; 16] = tag.try_into().expect("16-byte tag");
    assert_eq!(
        A::open_detached(key, nonce, aad, &mut data, tag),
        Some(Err(Error::AuthenticationFailed)),
        "{name}: detached must be refused"
    );
    assert!(
        data.iter().all(|&b| b == 0),
        "{name}: a refused message must leave zeros"
    );
}

/// Every record of list `list` in `file` as a valid vector of `A`; `aad`
/// names the associated data's field, `None` for `crypto_secretbox`.
/// Returns how many ran.
fn records<A: Aead>(file: &str, list: &str, aad: Option<&str>) -> usize {
    let v = load(file);
    let records = v[list].as_array().expect("records");
    for r in records {
        let name = format!(
            "{file} {}",
            r.get("section").or(r.get("name")).unwrap_or(&Value::Null)
        );
        let aad = aad.map_or(Vec::new(), |key| field(r, key));
        check_valid::<A>(
            &name,
            &hex_array(r["key"].as_str().expect("key")),
            &field(r, "nonce"),
            &aad,
            &field(r, "plaintext"),
            &field(r, "ciphertext"),
            &field(r, "tag"),
        );
    }
    records.len()
}

/// RFC 8439 §2.8.2 and A.5, the XChaCha draft's A.1/A.3.1, and NaCl's
/// secretbox example.
#[test]
fn rfc_draft_and_nacl_vectors() {
    let (rfc, draft) = (
        "rfc8439/rfc8439.json",
        "xchacha/draft-irtf-cfrg-xchacha-03.json",
    );
    let nacl = "salsa20/xsalsa20_nacl.json";
    assert_eq!(
        records::<ChaCha20Poly1305>(rfc, "aead_chacha20_poly1305", Some("aad")),
        2
    );
    assert_eq!(
        records::<XChaCha20Poly1305>(draft, "aead_xchacha20_poly1305", Some("aad")),
        1
    );
    assert_eq!(
        records::<XSalsa20Poly1305>(nacl, "secretbox_xsalsa20poly1305", None),
        1
    );
}

/// Every case of a Wycheproof AEAD file; returns (valid, invalid) counts.
fn wycheproof<A: Aead>(file: &str) -> (usize, usize) {
    let v = load(file);
    let (mut valid, mut invalid) = (0, 0);
    for group in v["testGroups"].as_array().expect("groups") {
        for t in group["tests"].as_array().expect("tests") {
            let name = format!("{file} tcId {} ({})", t["tcId"], t["comment"]);
            let key = hex_array(t["key"].as_str().expect("key"));
            let (nonce, aad, ct, tag) = (
                field(t, "iv"),
                field(t, "aad"),
                field(t, "ct"),
                field(t, "tag"),
            );
            match t["result"].as_str() {
                Some("valid") => {
                    check_valid::<A>(&name, &key, &nonce, &aad, &field(t, "msg"), &ct, &tag);
                    valid += 1;
                }
                Some("invalid") => {
                    check_invalid::<A>(&name, &key, &nonce, &aad, &ct, &tag);
                    invalid += 1;
                }
                other => panic!("{name}: unexpected result {other:?}"),
            }
        }
    }
    (valid, invalid)
}

#[test]
fn wycheproof_chacha20_poly1305() {
    assert_eq!(
        wycheproof::<ChaCha20Poly1305>("wycheproof/chacha20_poly1305_test.json"),
        (256, 69)
    );
}

#[test]
fn wycheproof_xchacha20_poly1305() {
    assert_eq!(
        wycheproof::<XChaCha20Poly1305>("wycheproof/xchacha20_poly1305_test.json"),
        (246, 69)
    );
}

/// `crypto_secretbox`'s type has no place for associated data; the
/// RustCrypto traits and the dynamic layer do, and refuse any with an
/// error. The table says which AEADs take some.
#[test]
fn secretbox_refuses_associated_data_through_the_table() {
    for (_, p) in ladder::primitives() {
        let Construct::Aead {
            new,
            associated_data,
        } = p.construct
        else {
            continue;
        };
        assert_eq!(associated_data, p.name != "xsalsa20-poly1305", "{}", p.name);
        let aead = new(&[1; 32]).expect("a 32-byte key");
        let nonce = &[2; 24][..p.nonce_len.expect("a nonce")];
        let mut data = *b"message";
        let sealed = aead.encrypt_in_place_detached(nonce, b"aad", &mut data);
        if associated_data {
            let tag = sealed.expect("sealed");
            let opened = aead.decrypt_in_place_detached(nonce, b"aad", &mut data, &tag);
            assert_eq!((opened, &data), (Ok(()), b"message"), "{}", p.name);
            continue;
        }
        assert_eq!(
            sealed,
            Err(Error::AssociatedDataUnsupported {
                aead: "XSalsa20-Poly1305",
                len: 3
            })
        );
        assert_eq!(&data, b"message", "nothing written");
        let tag = aead
            .encrypt_in_place_detached(nonce, &[], &mut data)
            .expect("sealed");
        assert!(matches!(
            aead.decrypt_in_place_detached(nonce, b"aad", &mut data, &tag),
            Err(Error::AssociatedDataUnsupported { .. })
        ));
        assert_eq!(
            aead.decrypt_in_place_detached(nonce, &[], &mut data, &tag),
            Ok(())
        );
        assert_eq!(&data, b"message");
    }
}

#[test]
fn sealed_messages_shorter_than_a_tag_are_refused() {
    for len in 0..16 {
        let sealed = vec![0u8; len];
        let want = Err(Error::SealedTooShort { len, tag_len: 16 });
        assert_eq!(
            ChaCha20Poly1305::new(&[1; 32]).decrypt(&[0; 12], &[], &sealed),
            want
        );
        assert_eq!(
            XChaCha20Poly1305::new(&[1; 32]).decrypt(&[0; 24], &[], &sealed),
            want
        );
        assert_eq!(
            XSalsa20Poly1305::new(&[1; 32]).decrypt(&[0; 24], &sealed),
            want
        );
    }
}
