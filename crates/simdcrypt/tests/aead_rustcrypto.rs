//! The `aead` 0.6 traits (feature `rustcrypto`): code written against
//! `AeadInOut` and `Aead` gets the same bytes from simdcrypt as from
//! RustCrypto's own crates and from simdcrypt's inherent methods, in place
//! and with separate input and output buffers.
#![cfg(feature = "rustcrypto")]

mod common;

use aead::{Aead, AeadInOut, KeyInit, Payload};
use common::{GUARD, bytes};
use simdcrypt::aead::{ChaCha20Poly1305, XChaCha20Poly1305, XSalsa20Poly1305};

/// Seals and opens `pt` through the traits of `A`, detached and combined.
fn through_traits<A: AeadInOut + Aead + KeyInit<KeySize = aead::consts::U32>>(
    nonce: &[u8],
    aad: &[u8],
    pt: &[u8],
) -> Vec<u8> {
    let aead = A::new(&[0x33; 32].into());
    let nonce = aead::Nonce::<A>::try_from(nonce).expect("nonce length");
    let sealed = aead
        .encrypt(&nonce, Payload { msg: pt, aad })
        .expect("seal");
    let opened = aead
        .decrypt(&nonce, Payload { msg: &sealed, aad })
        .expect("open");
    assert_eq!(opened, pt);
    let mut bad = sealed.clone();
    bad[0] ^= 1;
    assert!(aead.decrypt(&nonce, Payload { msg: &bad, aad }).is_err());

    let mut data = pt.to_vec();
    let tag = aead
        .encrypt_inout_detached(&nonce, aad, data.as_mut_slice().into())
        .expect("seal");
    // The in-out form with distinct buffers.
    let mut out = vec![0u8; pt.len()];
    let tag2 = aead
        .encrypt_inout_detached(
            &nonce,
            aad,
            aead::inout::InOutBuf::new(pt, &mut out).expect("same length"),
        )
        .expect("seal");
    assert_eq!((&out, &tag2), (&data, &tag));
    // Opened into a distinct buffer; altered, that buffer is zeroed.
    let mut opened = vec![GUARD; pt.len()];
    aead.decrypt_inout_detached(
        &nonce,
        aad,
        aead::inout::InOutBuf::new(&data, &mut opened).expect("same length"),
        &tag,
    )
    .expect("open");
    assert_eq!(opened, pt);
    let mut bad_tag = tag.clone();
    bad_tag[3] ^= 8;
    let mut opened = vec![GUARD; pt.len()];
    let buf = aead::inout::InOutBuf::new(&data, &mut opened).expect("same length");
    assert!(
        aead.decrypt_inout_detached(&nonce, aad, buf, &bad_tag)
            .is_err()
    );
    // (simdcrypt zeroes the output; RustCrypto's crates leave it alone.)
    if std::any::type_name::<A>().starts_with("simdcrypt") {
        assert!(opened.iter().all(|&b| b == 0));
    }
    aead.decrypt_inout_detached(&nonce, aad, data.as_mut_slice().into(), &tag)
        .expect("open");
    assert_eq!(data, pt);
    sealed
}

#[test]
fn traits_agree_with_inherent_methods_and_rustcrypto() {
    for len in [0, 1, 15, 16, 17, 64, 255, 1000, 5000] {
        let pt = bytes(len as u64, len);
        let aad = bytes(7, len % 29);
        let n24 = bytes(8, 24);
        let n12 = &n24[..12];
        let key = [0x33; 32];

        let sealed = through_traits::<ChaCha20Poly1305>(n12, &aad, &pt);
        assert_eq!(
            sealed,
            ChaCha20Poly1305::new(&key).encrypt(n12.try_into().unwrap(), &aad, &pt)
        );
        assert_eq!(
            sealed,
            through_traits::<chacha20poly1305::ChaCha20Poly1305>(n12, &aad, &pt)
        );

        let sealed = through_traits::<XChaCha20Poly1305>(&n24, &aad, &pt);
        assert_eq!(
            sealed,
            XChaCha20Poly1305::new(&key).encrypt(n24[..].try_into().unwrap(), &aad, &pt)
        );
        assert_eq!(
            sealed,
            through_traits::<chacha20poly1305::XChaCha20Poly1305>(&n24, &aad, &pt)
        );

        // crypto_secretbox: the tag comes first, and there is no AAD.
        let sealed = through_traits::<XSalsa20Poly1305>(&n24, &[], &pt);
        assert_eq!(
            sealed,
            XSalsa20Poly1305::new(&key).encrypt(n24[..].try_into().unwrap(), &pt)
        );
    }
}

#[test]
fn secretbox_refuses_associated_data_through_the_traits() {
    let aead = <XSalsa20Poly1305 as KeyInit>::new(&[1; 32].into());
    let nonce = [2u8; 24].into();
    let payload = Payload {
        msg: b"m",
        aad: b"ad",
    };
    assert!(Aead::encrypt(&aead, &nonce, payload).is_err());
    let sealed = Aead::encrypt(&aead, &nonce, &b"m"[..]).expect("sealed without");
    let payload = Payload {
        msg: &sealed,
        aad: b"ad",
    };
    assert!(Aead::decrypt(&aead, &nonce, payload).is_err());
    let mut data = *b"m";
    assert!(
        aead.encrypt_inout_detached(&nonce, b"ad", (&mut data[..]).into())
            .is_err()
    );
    assert_eq!(&data, b"m", "nothing written");
}
