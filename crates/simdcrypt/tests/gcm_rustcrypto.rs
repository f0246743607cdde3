//! AES-GCM and AES-GCM-SIV against RustCrypto's `aes-gcm` 0.10 and
//! `aes-gcm-siv` 0.11, independent implementations: the same sealed bytes
//! from simdcrypt's `aead` 0.6 traits (feature `rustcrypto`) and inherent
//! methods, at the lengths around every step of the stitched kernel
//! (8 and 16 blocks) and its tail; IVs of other lengths than 96 bits
//! against `aes-gcm`'s generic nonce size.
#![cfg(feature = "rustcrypto")]

mod common;

use aead::{Aead, AeadInOut, KeyInit, Payload};
use aes_gcm::aead::{Aead as _, KeyInit as _, Payload as TheirPayload};
use common::bytes;
use simdcrypt::aead::{Aes128Gcm, Aes128GcmSiv, Aes256Gcm, Aes256GcmSiv};

/// Lengths at the edges of the kernel's 128- and 256-byte steps.
const LENGTHS: [usize; 18] = [
    0, 1, 15, 16, 17, 64, 127, 128, 129, 255, 256, 257, 383, 384, 511, 1000, 4101, 16387,
];

/// Ours through the `aead` 0.6 traits, in place detached and combined,
/// and theirs: the same sealed bytes, and ours opens them.
macro_rules! same_as_theirs {
    ($ours:ty, $theirs:ty, $key_len:literal) => {
        for (i, &len) in LENGTHS.iter().enumerate() {
            let key = bytes(i as u64, $key_len);
            let nonce = bytes(0x40 + i as u64, 12);
            let aad = bytes(0x80, (i * 7) % 45);
            let pt = bytes(0xc0, len);
            let theirs = <$theirs>::new_from_slice(&key)
                .unwrap()
                .encrypt(
                    nonce.as_slice().into(),
                    TheirPayload {
                        msg: &pt,
                        aad: &aad,
                    },
                )
                .unwrap();
            let ours = <$ours as KeyInit>::new_from_slice(&key).unwrap();
            let nonce = aead::Nonce::<$ours>::try_from(nonce.as_slice()).unwrap();
            let sealed = Aead::encrypt(
                &ours,
                &nonce,
                Payload {
                    msg: &pt,
                    aad: &aad,
                },
            )
            .unwrap();
            assert_eq!(sealed, theirs, "{} at {len} bytes", stringify!($ours));
            let mut data = pt.clone();
            let tag = ours
                .encrypt_inout_detached(&nonce, &aad, data.as_mut_slice().into())
                .unwrap();
            assert_eq!([&data[..], &tag[..]].concat(), theirs);
            let opened = Aead::decrypt(
                &ours,
                &nonce,
                Payload {
                    msg: &theirs,
                    aad: &aad,
                },
            );
            assert_eq!(opened.unwrap(), pt);
        }
    };
}

#[test]
fn aes_gcm_seals_as_rustcrypto_does() {
    same_as_theirs!(Aes128Gcm, aes_gcm::Aes128Gcm, 16);
    same_as_theirs!(Aes256Gcm, aes_gcm::Aes256Gcm, 32);
}

#[test]
fn aes_gcm_siv_seals_as_rustcrypto_does() {
    same_as_theirs!(Aes128GcmSiv, aes_gcm_siv::Aes128GcmSiv, 16);
    same_as_theirs!(Aes256GcmSiv, aes_gcm_siv::Aes256GcmSiv, 32);
}

#[test]
fn other_iv_lengths_seal_as_rustcrypto_does() {
    type Gcm8 = aes_gcm::AesGcm<aes_gcm::aes::Aes128, aes_gcm::aead::consts::U8>;
    type Gcm16 = aes_gcm::AesGcm<aes_gcm::aes::Aes128, aes_gcm::aead::consts::U16>;
    let key = bytes(1, 16);
    let ours = Aes128Gcm::new(key.as_slice().try_into().unwrap());
    for &len in &LENGTHS {
        let pt = bytes(2, len);
        let iv8 = bytes(3, 8);
        let iv16 = bytes(4, 16);
        let theirs8 = Gcm8::new_from_slice(&key)
            .unwrap()
            .encrypt(
                iv8.as_slice().into(),
                TheirPayload {
                    msg: &pt,
                    aad: b"ad",
                },
            )
            .unwrap();
        let theirs16 = Gcm16::new_from_slice(&key)
            .unwrap()
            .encrypt(
                iv16.as_slice().into(),
                TheirPayload {
                    msg: &pt,
                    aad: b"ad",
                },
            )
            .unwrap();
        assert_eq!(ours.encrypt_with_iv(&iv8, b"ad", &pt).unwrap(), theirs8);
        assert_eq!(ours.encrypt_with_iv(&iv16, b"ad", &pt).unwrap(), theirs16);
        assert_eq!(ours.decrypt_with_iv(&iv16, b"ad", &theirs16).unwrap(), pt);
    }
}
