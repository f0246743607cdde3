//! AES-GCM and AES-GCM-SIV peers keyed once, sealing and opening many
//! messages out of place behind one trait ([`Gcm`]): OpenSSL's EVP (the key
//! schedule set once in a context per direction, each message
//! re-initialised with its IV only), aws-lc-rs (`LessSafeKey`, out of
//! place through `seal_out_of_place_scatter` and `open_separate_gather`),
//! ring's `LessSafeKey` and RustCrypto's `aes-gcm` 0.10 and `aes-gcm-siv`
//! 0.11, which work in place only: they copy the input into the output
//! first, inside the timed call (the copy is theirs: the API forces it).

use std::ffi::c_int;
use std::ptr;

use aes_gcm::aead::generic_array::GenericArray;
use aes_gcm::aead::{AeadInPlace, KeyInit};
use openssl_sys as ffi;
use simdcrypt::aead::{Aes128Gcm, Aes128GcmSiv, Aes256Gcm, Aes256GcmSiv, GcmKernel};

use crate::table::{self, Row};
use crate::{SIZES, pattern};

/// `EVP_CTRL_AEAD_GET_TAG`.
const GET_TAG: c_int = 0x10;
/// `EVP_CTRL_AEAD_SET_TAG`.
const SET_TAG: c_int = 0x11;

/// An AEAD of 12-byte nonces and 16-byte tags, keyed once, with no
/// associated data: what the GCM benches time.
pub trait Gcm {
    /// Seals `pt` under `nonce` into `sealed` (ciphertext ‖ tag, 16 bytes
    /// longer).
    fn seal(&self, nonce: &[u8; 12], pt: &[u8], sealed: &mut [u8]);
    /// Opens `sealed` under `nonce` into `pt` (16 bytes shorter): whether
    /// the tag matched.
    fn open(&self, nonce: &[u8; 12], sealed: &[u8], pt: &mut [u8]) -> bool;
}

/// simdcrypt's AEADs through `encrypt_into` and `decrypt_into`.
macro_rules! ours {
    ($($t:ty),+) => {$(
        impl Gcm for $t {
            fn seal(&self, nonce: &[u8; 12], pt: &[u8], sealed: &mut [u8]) {
                self.encrypt_into(nonce, &[], pt, sealed).expect("lengths");
            }
            fn open(&self, nonce: &[u8; 12], sealed: &[u8], pt: &mut [u8]) -> bool {
                self.decrypt_into(nonce, &[], sealed, pt).is_ok()
            }
        }
    )+};
}
ours!(
    simdcrypt::aead::Aes128Gcm,
    simdcrypt::aead::Aes256Gcm,
    simdcrypt::aead::Aes128GcmSiv,
    simdcrypt::aead::Aes256GcmSiv
);

/// OpenSSL's AES-GCM through EVP: one context keyed for encryption, one
/// for decryption.
pub struct OpenSsl {
    enc: *mut ffi::EVP_CIPHER_CTX,
    dec: *mut ffi::EVP_CIPHER_CTX,
}

impl OpenSsl {
    /// AES-GCM under `key` (16 or 32 bytes).
    pub fn new(key: &[u8]) -> Self {
        ffi::init();
        // SAFETY: returns pointers to static cipher descriptions.
        let cipher = unsafe {
            match key.len() {
                16 => ffi::EVP_aes_128_gcm(),
                32 => ffi::EVP_aes_256_gcm(),
                n => panic!("no AES-GCM with a {n}-byte key"),
            }
        };
        // SAFETY: fresh contexts, checked for null; each init reads the
        // key (of the cipher's length) and sets no IV yet.
        unsafe {
            let enc = ffi::EVP_CIPHER_CTX_new();
            let dec = ffi::EVP_CIPHER_CTX_new();
            assert!(
                !enc.is_null() && !dec.is_null(),
                "EVP_CIPHER_CTX_new failed"
            );
            let null = ptr::null_mut();
            assert_eq!(
                ffi::EVP_EncryptInit_ex(enc, cipher, null, key.as_ptr(), ptr::null()),
                1
            );
            assert_eq!(
                ffi::EVP_DecryptInit_ex(dec, cipher, null, key.as_ptr(), ptr::null()),
                1
            );
            OpenSsl { enc, dec }
        }
    }
}

impl Gcm for OpenSsl {
    fn seal(&self, nonce: &[u8; 12], pt: &[u8], sealed: &mut [u8]) {
        assert_eq!(sealed.len(), pt.len() + 16);
        let len = c_int::try_from(pt.len()).expect("a message under 2 GiB");
        let mut outl: c_int = 0;
        // SAFETY: the context was keyed in `new`; the IV is 12 bytes (the
        // default length); `pt` is read and `sealed` written for `len`
        // bytes (asserted), then the 16-byte tag after them.
        unsafe {
            let (ctx, null) = (self.enc, ptr::null_mut());
            assert_eq!(
                ffi::EVP_EncryptInit_ex(ctx, ptr::null(), null, ptr::null(), nonce.as_ptr()),
                1
            );
            let out = sealed.as_mut_ptr();
            assert_eq!(
                ffi::EVP_EncryptUpdate(ctx, out, &mut outl, pt.as_ptr(), len),
                1
            );
            assert_eq!(
                ffi::EVP_EncryptFinal_ex(ctx, out.add(pt.len()), &mut outl),
                1
            );
            let tag = out.add(pt.len()).cast();
            assert_eq!(ffi::EVP_CIPHER_CTX_ctrl(ctx, GET_TAG, 16, tag), 1);
        }
    }

    fn open(&self, nonce: &[u8; 12], sealed: &[u8], pt: &mut [u8]) -> bool {
        assert_eq!(sealed.len(), pt.len() + 16);
        let len = c_int::try_from(pt.len()).expect("a message under 2 GiB");
        let mut outl: c_int = 0;
        // SAFETY: as in `seal`, the tag (16 bytes after the ciphertext)
        // read by SET_TAG, which copies it.
        unsafe {
            let (ctx, null) = (self.dec, ptr::null_mut());
            assert_eq!(
                ffi::EVP_DecryptInit_ex(ctx, ptr::null(), null, ptr::null(), nonce.as_ptr()),
                1
            );
            let out = pt.as_mut_ptr();
            assert_eq!(
                ffi::EVP_DecryptUpdate(ctx, out, &mut outl, sealed.as_ptr(), len),
                1
            );
            let tag = sealed.as_ptr().add(pt.len()).cast_mut().cast();
            assert_eq!(ffi::EVP_CIPHER_CTX_ctrl(ctx, SET_TAG, 16, tag), 1);
            ffi::EVP_DecryptFinal_ex(ctx, out.add(pt.len()), &mut outl) == 1
        }
    }
}

impl Drop for OpenSsl {
    fn drop(&mut self) {
        // SAFETY: the pointers came from EVP_CIPHER_CTX_new and are freed
        // once.
        unsafe {
            ffi::EVP_CIPHER_CTX_free(self.enc);
            ffi::EVP_CIPHER_CTX_free(self.dec);
        }
    }
}

/// aws-lc-rs's `LessSafeKey`, out of place both ways.
pub struct AwsLc(aws_lc_rs::aead::LessSafeKey);

impl AwsLc {
    /// AES-GCM under `key` (16 or 32 bytes), or with `siv` AES-GCM-SIV.
    pub fn new(key: &[u8], siv: bool) -> Self {
        use aws_lc_rs::aead;
        let algorithm = match (key.len(), siv) {
            (16, false) => &aead::AES_128_GCM,
            (_, false) => &aead::AES_256_GCM,
            (16, true) => &aead::AES_128_GCM_SIV,
            (_, true) => &aead::AES_256_GCM_SIV,
        };
        AwsLc(aead::LessSafeKey::new(
            aead::UnboundKey::new(algorithm, key).expect("a key of the algorithm's length"),
        ))
    }
}

impl Gcm for AwsLc {
    fn seal(&self, nonce: &[u8; 12], pt: &[u8], sealed: &mut [u8]) {
        use aws_lc_rs::aead::{Aad, Nonce};
        let (ct, tag) = sealed.split_at_mut(pt.len());
        self.0
            .seal_out_of_place_scatter(
                Nonce::assume_unique_for_key(*nonce),
                Aad::empty(),
                pt,
                ct,
                &[],
                tag,
            )
            .expect("lengths");
    }

    fn open(&self, nonce: &[u8; 12], sealed: &[u8], pt: &mut [u8]) -> bool {
        use aws_lc_rs::aead::{Aad, Nonce};
        let (ct, tag) = sealed.split_at(pt.len());
        self.0
            .open_separate_gather(
                Nonce::assume_unique_for_key(*nonce),
                Aad::empty(),
                ct,
                tag,
                pt,
            )
            .is_ok()
    }
}

/// ring's AES-GCM, keyed once: in place only, after a copy.
pub struct Ring(ring::aead::LessSafeKey);

impl Ring {
    /// AES-GCM under `key` (16 or 32 bytes).
    pub fn new(key: &[u8]) -> Self {
        let algorithm = match key.len() {
            16 => &ring::aead::AES_128_GCM,
            _ => &ring::aead::AES_256_GCM,
        };
        Ring(ring::aead::LessSafeKey::new(
            ring::aead::UnboundKey::new(algorithm, key).expect("a key of the algorithm's length"),
        ))
    }
}

impl Gcm for Ring {
    fn seal(&self, nonce: &[u8; 12], pt: &[u8], sealed: &mut [u8]) {
        use ring::aead::{Aad, Nonce};
        let (ct, tag) = sealed.split_at_mut(pt.len());
        ct.copy_from_slice(pt);
        let t = self
            .0
            .seal_in_place_separate_tag(Nonce::assume_unique_for_key(*nonce), Aad::empty(), ct)
            .expect("within the limits");
        tag.copy_from_slice(t.as_ref());
    }

    fn open(&self, nonce: &[u8; 12], sealed: &[u8], pt: &mut [u8]) -> bool {
        use ring::aead::{Aad, Nonce, Tag};
        let (ct, tag) = sealed.split_at(pt.len());
        pt.copy_from_slice(ct);
        let tag = Tag::from(<[u8; 16]>::try_from(tag).expect("16 bytes"));
        self.0
            .open_in_place_separate_tag(
                Nonce::assume_unique_for_key(*nonce),
                Aad::empty(),
                tag,
                pt,
                0..,
            )
            .is_ok()
    }
}

/// RustCrypto's AEADs of `aead` 0.5 (`aes-gcm` 0.10, `aes-gcm-siv`
/// 0.11), keyed once: in place only, after a copy.
pub struct RustCrypto<A>(Box<A>);

impl<A: KeyInit> RustCrypto<A> {
    /// The AEAD under `key`.
    pub fn new(key: &[u8]) -> Self {
        RustCrypto(Box::new(
            A::new_from_slice(key).expect("a key of the AEAD's length"),
        ))
    }
}

impl<A: AeadInPlace> Gcm for RustCrypto<A> {
    fn seal(&self, nonce: &[u8; 12], pt: &[u8], sealed: &mut [u8]) {
        let (ct, tag) = sealed.split_at_mut(pt.len());
        ct.copy_from_slice(pt);
        let t = self
            .0
            .encrypt_in_place_detached(GenericArray::from_slice(nonce), &[], ct)
            .expect("within the limits");
        tag.copy_from_slice(&t);
    }

    fn open(&self, nonce: &[u8; 12], sealed: &[u8], pt: &mut [u8]) -> bool {
        let (ct, tag) = sealed.split_at(pt.len());
        pt.copy_from_slice(ct);
        self.0
            .decrypt_in_place_detached(
                GenericArray::from_slice(nonce),
                &[],
                pt,
                GenericArray::from_slice(tag),
            )
            .is_ok()
    }
}

/// The nonce of message `i`.
pub fn nonce(i: u64) -> [u8; 12] {
    let mut n = [0xa5; 12];
    n[4..].copy_from_slice(&i.to_le_bytes());
    n
}

/// One contender: its id in the bench names and its keyed AEAD.
pub struct Contender {
    /// Its id in the bench names.
    pub name: &'static str,
    /// Its keyed AEAD.
    pub aead: Box<dyn Gcm>,
}

/// `aead` named `name`.
pub fn contender(name: &'static str, aead: impl Gcm + 'static) -> Contender {
    Contender {
        name,
        aead: Box::new(aead),
    }
}

/// The AES-GCM contenders under `key` (16 or 32 bytes), RustCrypto's
/// first (the reference of the checks).
pub fn gcm(key: &[u8]) -> Vec<Contender> {
    let mut list = Vec::new();
    macro_rules! ours {
        ($t:ty, $theirs:ty) => {{
            list.push(contender("rustcrypto", RustCrypto::<$theirs>::new(key)));
            let aead = <$t>::new(key.try_into().expect("the key length"));
            let vaes = (aead.kernel() != Some(GcmKernel::Vaes) && GcmKernel::Vaes.is_available())
                .then(|| {
                    aead.clone()
                        .with_kernel(GcmKernel::Vaes)
                        .expect("available")
                });
            list.push(contender("simdcrypt", aead));
            if let Some(vaes) = vaes {
                list.push(contender("simdcrypt-vaes", vaes));
            }
        }};
    }
    match key.len() {
        16 => ours!(Aes128Gcm, aes_gcm::Aes128Gcm),
        _ => ours!(Aes256Gcm, aes_gcm::Aes256Gcm),
    }
    list.push(contender("aws-lc-rs", AwsLc::new(key, false)));
    list.push(contender("openssl", OpenSsl::new(key)));
    list.push(contender("ring", Ring::new(key)));
    list
}

/// The AES-GCM-SIV contenders under `key`, RustCrypto's first.
pub fn gcm_siv(key: &[u8]) -> Vec<Contender> {
    let k = key.try_into();
    let (theirs, ours) = match key.len() {
        16 => (
            contender(
                "rustcrypto",
                RustCrypto::<aes_gcm_siv::Aes128GcmSiv>::new(key),
            ),
            contender("simdcrypt", Aes128GcmSiv::new(k.expect("16 bytes"))),
        ),
        _ => (
            contender(
                "rustcrypto",
                RustCrypto::<aes_gcm_siv::Aes256GcmSiv>::new(key),
            ),
            contender(
                "simdcrypt",
                Aes256GcmSiv::new(key.try_into().expect("32 bytes")),
            ),
        ),
    };
    vec![theirs, ours, contender("aws-lc-rs", AwsLc::new(key, true))]
}

/// Panics unless every contender seals what the first seals, at each size
/// and a ragged length, opens it, and refuses it with a bit flipped.
pub fn check(group: &str, list: &[Contender]) {
    for len in SIZES.iter().map(|&(_, len)| len).chain([1000 + 7]) {
        let pt = pattern(len);
        let mut want = vec![0; len + 16];
        list[0].aead.seal(&nonce(7), &pt, &mut want);
        for c in list {
            let mut sealed = vec![0; len + 16];
            c.aead.seal(&nonce(7), &pt, &mut sealed);
            assert!(
                sealed == want,
                "{group}: {} seals otherwise at {len} bytes",
                c.name
            );
            let mut opened = vec![0; len];
            assert!(c.aead.open(&nonce(7), &want, &mut opened) && opened == pt);
            want[len / 2] ^= 1;
            assert!(!c.aead.open(&nonce(7), &want, &mut opened), "{}", c.name);
            want[len / 2] ^= 1;
        }
    }
    let names: Vec<_> = list.iter().map(|c| c.name).collect();
    eprintln!("{group}: {} agree", names.join(", "));
}

/// `list` sealing into [`table`] contenders: message `i` under
/// [`nonce`]`(i)`, from the input into the output (16 bytes longer).
pub fn sealing(list: &[Contender]) -> Vec<table::Contender<'_>> {
    list.iter()
        .map(|c| {
            table::Contender::new(c.name, move |i, pt: &[u8], sealed: &mut [u8]| {
                c.aead.seal(&nonce(i), pt, sealed);
            })
        })
        .collect()
}

/// `list` opening into [`table`] contenders: each input is a nonce and
/// the message sealed under it ([`open_row`]); a refused tag panics.
pub fn opening(list: &[Contender]) -> Vec<table::Contender<'_>> {
    list.iter()
        .map(|c| {
            table::Contender::new(c.name, move |_, input: &[u8], pt: &mut [u8]| {
                let (n, sealed) = input.split_at(12);
                let ok = c.aead.open(n.try_into().expect("12 bytes"), sealed, pt);
                assert!(ok, "{} opens what it sealed", c.name);
            })
        })
        .collect()
}

/// The row of sealing `len`-byte messages.
pub fn seal_row(label: &str, len: usize) -> Row {
    Row::bytes(label, len, len + 16)
}

/// The row of opening `len`-byte messages: as many as fit in 256 KiB (at
/// least 2, at most 64), sealed beforehand by `c`, each under its own
/// nonce, which precedes it in the input (see [`opening`]).
pub fn open_row(c: &Contender, label: &str, len: usize) -> Row {
    let count = ((256 << 10) / len).clamp(2, 64) as u64;
    let inputs = (0..count)
        .map(|i| {
            let mut input = vec![0; 12 + len + 16];
            input[..12].copy_from_slice(&nonce(i));
            c.aead.seal(&nonce(i), &pattern(len), &mut input[12..]);
            input
        })
        .collect();
    Row {
        inputs,
        ..Row::bytes(label, len, len)
    }
}
