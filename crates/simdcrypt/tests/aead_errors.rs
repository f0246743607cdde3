//! The AEADs' errors: `crypto_secretbox` refuses associated data where
//! the table and the traits give it a place, and a sealed message shorter
//! than a tag is its own error. (Every AEAD on RFC 8439 §2.8.2 and A.5,
//! the XChaCha draft, every Wycheproof case and NaCl's `crypto_secretbox`
//! example, combined and detached, is the checking kit's: `tests/kit.rs`.)

use simdcrypt::Error;
use simdcrypt::aead::{ChaCha20Poly1305, XChaCha20Poly1305, XSalsa20Poly1305};
use simdcrypt::ladder::{self, Construct};

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
        let aead = new(&vec![1; p.key_lens[0]]).expect("a key of its length");
        let nonce = &[2; 24][..p.nonce_len.expect("a nonce")];
        let mut data = *b"message";
        let mut tag = vec![0u8; aead.tag_len()];
        let sealed = aead.encrypt_in_place_detached(nonce, b"aad", &mut data, &mut tag);
        if associated_data {
            sealed.expect("sealed");
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
        aead.encrypt_in_place_detached(nonce, &[], &mut data, &mut tag)
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

/// The table's AEADs open out of place as in place: the plaintext in the
/// output and the sealed message untouched; with a tag that does not
/// match, an error and zeros in the output; with buffers of two lengths,
/// an error and nothing written.
#[test]
fn every_aead_of_the_table_opens_out_of_place() {
    for (_, p) in ladder::primitives() {
        let Construct::Aead { new, .. } = p.construct else {
            continue;
        };
        let aead = new(&vec![3; p.key_lens[0]]).expect("a key of its length");
        let nonce = &[4; 24][..p.nonce_len.expect("a nonce")];
        let mut sealed = *b"a message of 32 bytes, sealed...";
        let mut tag = vec![0u8; aead.tag_len()];
        aead.encrypt_in_place_detached(nonce, &[], &mut sealed, &mut tag)
            .expect("sealed");
        let copy = sealed;
        let mut out = [0xff; 32];
        aead.decrypt_detached_into(nonce, &[], &sealed, &mut out, &tag)
            .expect("opened");
        assert_eq!(
            (&out, &sealed),
            (b"a message of 32 bytes, sealed...", &copy),
            "{}",
            p.name
        );
        tag[0] ^= 1;
        let mut out = [0xff; 32];
        assert_eq!(
            aead.decrypt_detached_into(nonce, &[], &sealed, &mut out, &tag),
            Err(Error::AuthenticationFailed),
            "{}",
            p.name
        );
        assert_eq!(out, [0; 32], "{}: zeros after a failed open", p.name);
        let mut short = [0xff; 31];
        assert!(
            matches!(
                aead.decrypt_detached_into(nonce, &[], &sealed, &mut short, &tag),
                Err(Error::LengthMismatch { .. })
            ),
            "{}",
            p.name
        );
        assert_eq!(short, [0xff; 31], "{}: nothing written", p.name);
    }
}
