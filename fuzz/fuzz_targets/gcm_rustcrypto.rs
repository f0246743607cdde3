//! AES-GCM and AES-GCM-SIV against RustCrypto's `aes-gcm` and
//! `aes-gcm-siv`, an independent implementation: at fuzzer-chosen keys
//! (128 and 256 bits), nonces, associated data and messages, both seal the
//! same, each opens the other's, and a flipped bit is refused by both.
#![no_main]

use aes_gcm::aead::{Aead, KeyInit, Payload};
use libfuzzer_sys::fuzz_target;
use simdcrypt::aead::{Aes128Gcm, Aes128GcmSiv, Aes256Gcm, Aes256GcmSiv};

/// Sealing and opening of one AEAD, ours and theirs.
macro_rules! compare {
    ($ours:ty, $theirs:ty, $key:expr, $nonce:expr, $aad:expr, $pt:expr, $flip:expr) => {{
        let ours = <$ours>::new($key.try_into().unwrap());
        let theirs = <$theirs>::new_from_slice($key).unwrap();
        let nonce: &[u8; 12] = $nonce;
        let sealed = ours.encrypt(nonce, $aad, $pt);
        let want = theirs
            .encrypt(
                nonce.into(),
                Payload {
                    msg: $pt,
                    aad: $aad,
                },
            )
            .unwrap();
        assert!(sealed == want, "{}: sealed differently", stringify!($ours));
        assert_eq!(ours.decrypt(nonce, $aad, &want).unwrap(), $pt);
        let mut tampered = sealed;
        let bit = $flip % (8 * tampered.len());
        tampered[bit / 8] ^= 1 << (bit % 8);
        assert!(
            ours.decrypt(nonce, $aad, &tampered).is_err(),
            "accepted a flipped bit"
        );
        assert!(
            theirs
                .decrypt(
                    nonce.into(),
                    Payload {
                        msg: &tampered,
                        aad: $aad
                    }
                )
                .is_err()
        );
    }};
}

fuzz_target!(|input: &[u8]| {
    if input.len() < 1 + 32 + 12 + 3 {
        return;
    }
    let (head, rest) = input.split_at(1 + 32 + 12 + 3);
    let key = &head[1..33];
    let nonce: &[u8; 12] = head[33..45].try_into().unwrap();
    let aad_len = usize::from(head[45]).min(rest.len());
    let (aad, pt) = rest.split_at(aad_len);
    let flip = usize::from(u16::from_le_bytes([head[46], head[47]]));
    match head[0] % 4 {
        0 => compare!(
            Aes128Gcm,
            aes_gcm::Aes128Gcm,
            &key[..16],
            nonce,
            aad,
            pt,
            flip
        ),
        1 => compare!(Aes256Gcm, aes_gcm::Aes256Gcm, key, nonce, aad, pt, flip),
        2 => compare!(
            Aes128GcmSiv,
            aes_gcm_siv::Aes128GcmSiv,
            &key[..16],
            nonce,
            aad,
            pt,
            flip
        ),
        _ => compare!(
            Aes256GcmSiv,
            aes_gcm_siv::Aes256GcmSiv,
            key,
            nonce,
            aad,
            pt,
            flip
        ),
    }
});
