//! The primitives behind object-safe traits, built by name from the table
//! of ladders: for code that picks a primitive at run time (the tool, the
//! checks, benchmarks) and so cannot name its type.
//!
//! ```
//! use simdcrypt::ladder::{self, Construct};
//!
//! let (_, xsalsa20) = ladder::find("xsalsa20").unwrap();
//! let Construct::Stream(new) = xsalsa20.construct else { unreachable!() };
//! let mut cipher = new(&[0x42; 32], &[0x24; 24], &Default::default())?;
//! let mut data = *b"attack at dawn";
//! cipher.apply_keystream(&mut data)?;
//! # Ok::<(), simdcrypt::Error>(())
//! ```

use crate::chacha20::{ChaCha20, ChaCha20Legacy, XChaCha20};
use crate::salsa20::{Salsa, XSalsa20};
use crate::{Error, KeyStream, Xor};

/// A stream cipher keyed and at a keystream position, whatever its type:
/// [`KeyStream`] and the rung it runs on.
pub trait DynStreamCipher: KeyStream + Send {
    /// The name of the rung in use.
    fn implementation(&self) -> &'static str;
}

/// How to build a stream cipher beyond its key and nonce.
#[derive(Clone, Copy, Debug, Default)]
pub struct StreamOptions<'a> {
    /// The rung, by its command-line name; the fastest when `None`.
    pub imp: Option<&'a str>,
    /// The XOR form of the single-block rungs; the default when `None`.
    pub xor: Option<Xor>,
}

/// Builds a stream cipher from a key, a nonce and options.
pub type StreamConstructor = fn(
    key: &[u8],
    nonce: &[u8],
    options: &StreamOptions<'_>,
) -> Result<Box<dyn DynStreamCipher>, Error>;

/// `bytes` as an array of `N`, or the error naming what it is for.
pub(crate) fn exact<'a, const N: usize>(
    primitive: &'static str,
    what: &'static str,
    bytes: &'a [u8],
) -> Result<&'a [u8; N], Error> {
    bytes.try_into().map_err(|_| Error::BadLength {
        primitive,
        what,
        len: bytes.len(),
        expected: N.to_string(),
    })
}

/// Implements [`DynStreamCipher`] for stream cipher types.
macro_rules! dyn_stream {
    ($($t:ty),+) => {$(
        impl DynStreamCipher for $t {
            fn implementation(&self) -> &'static str {
                <$t>::implementation(self).name()
            }
        }
    )+};
}

dyn_stream!(
    Salsa<10>,
    Salsa<6>,
    Salsa<4>,
    XSalsa20,
    ChaCha20,
    ChaCha20Legacy,
    XChaCha20
);

/// Applies `options` to a freshly keyed cipher of any of the types above.
macro_rules! with_options {
    ($cipher:expr, $imp:ty, $options:expr) => {{
        let mut cipher = $cipher;
        if let Some(name) = $options.imp {
            cipher = cipher.with_impl(name.parse::<$imp>()?)?;
        }
        if let Some(xor) = $options.xor {
            cipher = cipher.with_xor(xor);
        }
        Ok(Box::new(cipher))
    }};
}

/// Salsa20 with `DR` double rounds, under the name `name`: a 32- or 16-byte
/// key and an 8-byte nonce.
pub(crate) fn salsa<const DR: usize>(
    name: &'static str,
    key: &[u8],
    nonce: &[u8],
    options: &StreamOptions<'_>,
) -> Result<Box<dyn DynStreamCipher>, Error>
where
    Salsa<DR>: DynStreamCipher,
{
    let nonce = exact(name, "nonce", nonce)?;
    let cipher = match key.len() {
        16 => Salsa::<DR>::new_128(exact(name, "key", key)?, nonce),
        _ => Salsa::<DR>::new(
            key.try_into().map_err(|_| Error::BadLength {
                primitive: name,
                what: "key",
                len: key.len(),
                expected: "32 or 16".into(),
            })?,
            nonce,
        ),
    };
    with_options!(cipher, crate::salsa20::Impl, options)
}

/// XSalsa20: a 32-byte key and a 24-byte nonce.
pub(crate) fn xsalsa20(
    key: &[u8],
    nonce: &[u8],
    options: &StreamOptions<'_>,
) -> Result<Box<dyn DynStreamCipher>, Error> {
    let cipher = XSalsa20::new(
        exact("xsalsa20", "key", key)?,
        exact("xsalsa20", "nonce", nonce)?,
    );
    with_options!(cipher, crate::salsa20::Impl, options)
}

/// The three forms of ChaCha20, by nonce length: 12 (RFC 8439), 8 (the
/// original), 24 (XChaCha20).
macro_rules! chacha {
    ($fn:ident, $t:ty, $name:literal) => {
        #[doc = concat!("`", $name, "`: a 32-byte key and its nonce.")]
        pub(crate) fn $fn(
            key: &[u8],
            nonce: &[u8],
            options: &StreamOptions<'_>,
        ) -> Result<Box<dyn DynStreamCipher>, Error> {
            let cipher = <$t>::new(exact($name, "key", key)?, exact($name, "nonce", nonce)?);
            with_options!(cipher, crate::chacha20::Impl, options)
        }
    };
}

chacha!(chacha20, ChaCha20, "chacha20");
chacha!(chacha20_legacy, ChaCha20Legacy, "chacha20-legacy");
chacha!(xchacha20, XChaCha20, "xchacha20");

/// A hash or a keyed MAC absorbing a message, whatever its type.
pub trait DynDigest: Send + Sync {
    /// Absorbs `data`; any split of the calls gives the same output.
    fn update(&mut self, data: &[u8]);

    /// The digest or tag of everything absorbed, into `out` (whose length
    /// is the primitive's `output_len`).
    fn finalize_into(self: Box<Self>, out: &mut [u8]);

    /// The name of the rung in use.
    fn implementation(&self) -> &'static str;
}

/// A hash, whatever its type: a [`DynDigest`] that can be copied (a
/// one-time MAC cannot).
pub trait DynHash: DynDigest {
    /// A copy in the same state, to hash many messages from one start.
    fn box_clone(&self) -> Box<dyn DynHash>;
}

/// Builds a hash on a rung (the fastest when `None`).
pub type HashConstructor = fn(imp: Option<&str>) -> Result<Box<dyn DynHash>, Error>;

/// Builds a MAC from a key, on a rung (the fastest when `None`).
pub type MacConstructor = fn(key: &[u8], imp: Option<&str>) -> Result<Box<dyn DynDigest>, Error>;

/// The digests of many messages of one hash at once, one per lane, on a
/// multi-buffer rung (the fastest for that hash when `None`).
pub type ManyConstructor = fn(imp: Option<&str>, messages: &[&[u8]]) -> Result<Vec<Vec<u8>>, Error>;

/// Defines the multi-buffer constructors over `hash::many`'s functions.
macro_rules! dyn_many {
    ($($name:ident: $best:ident, $with:ident;)+) => {$(
        #[doc = concat!("`hash::many::", stringify!($with), "` by rung name.")]
        pub(crate) fn $name(
            imp: Option<&str>,
            messages: &[&[u8]],
        ) -> Result<Vec<Vec<u8>>, Error> {
            use crate::hash::many;
            let imp = match imp {
                Some(name) => name.parse()?,
                None => many::Impl::$best(),
            };
            Ok(many::$with(imp, messages)?.iter().map(|d| d.to_vec()).collect())
        }
    )+};
}

dyn_many! {
    sha256_many: best_sha256, sha256_many_with;
    md5_many: best_md5, md5_many_with;
}

/// Implements [`DynDigest`] for hashers (`finalize` returning an array) and
/// defines their constructors.
macro_rules! dyn_digest {
    ($($t:ty: $imp:ty => $new:ident;)+) => {$(
        impl DynDigest for $t {
            fn update(&mut self, data: &[u8]) {
                <$t>::update(self, data);
            }
            fn finalize_into(self: Box<Self>, out: &mut [u8]) {
                out.copy_from_slice(&<$t>::finalize(*self));
            }
            fn implementation(&self) -> &'static str {
                <$t>::implementation(self).name()
            }
        }

        impl DynHash for $t {
            fn box_clone(&self) -> Box<dyn DynHash> {
                Box::new(self.clone())
            }
        }

        #[doc = concat!("A new `", stringify!($t), "` on the rung named `imp`.")]
        pub(crate) fn $new(imp: Option<&str>) -> Result<Box<dyn DynHash>, Error> {
            let mut h = <$t>::new();
            if let Some(name) = imp {
                h = h.with_impl(name.parse::<$imp>()?)?;
            }
            Ok(Box::new(h))
        }
    )+};
}

dyn_digest! {
    crate::hash::Sha256: crate::hash::sha256::Impl => sha256;
    crate::hash::Sha224: crate::hash::sha256::Impl => sha224;
    crate::hash::Sha512: crate::hash::sha512::Impl => sha512;
    crate::hash::Sha384: crate::hash::sha512::Impl => sha384;
    crate::hash::Sha512_256: crate::hash::sha512::Impl => sha512_256;
    crate::hash::Sha1: crate::hash::sha1::Impl => sha1;
    crate::hash::Md5: crate::hash::md5::Impl => md5;
}

impl DynDigest for crate::poly1305::Poly1305 {
    fn update(&mut self, data: &[u8]) {
        crate::poly1305::Poly1305::update(self, data);
    }
    fn finalize_into(self: Box<Self>, out: &mut [u8]) {
        out.copy_from_slice(&crate::poly1305::Poly1305::finalize(*self));
    }
    fn implementation(&self) -> &'static str {
        crate::poly1305::Poly1305::implementation(self).name()
    }
}

/// Poly1305 keyed with a 32-byte one-time key, on the rung named `imp`.
pub(crate) fn poly1305(key: &[u8], imp: Option<&str>) -> Result<Box<dyn DynDigest>, Error> {
    let mut mac = crate::poly1305::Poly1305::new(exact("poly1305", "key", key)?);
    if let Some(name) = imp {
        mac = mac.with_impl(name.parse()?)?;
    }
    Ok(Box::new(mac))
}

impl<H: crate::hash::Hash + Clone + Send + Sync + 'static> DynDigest for crate::hmac::Hmac<H> {
    fn update(&mut self, data: &[u8]) {
        crate::hmac::Hmac::update(self, data);
    }
    fn finalize_into(self: Box<Self>, out: &mut [u8]) {
        out.copy_from_slice(crate::hmac::Hmac::finalize(*self).as_ref());
    }
    fn implementation(&self) -> &'static str {
        "default"
    }
}

/// HMAC over `H` with a key of any length (its hash's rung is the fastest;
/// `imp` names none).
pub(crate) fn hmac<H: crate::hash::Hash + Clone + Send + Sync + 'static>(
    key: &[u8],
    imp: Option<&str>,
) -> Result<Box<dyn DynDigest>, Error> {
    match imp {
        None | Some("default") => Ok(Box::new(crate::hmac::Hmac::<H>::new(key))),
        Some(name) => Err(Error::UnknownImpl {
            primitive: "hmac",
            name: name.to_owned(),
            expected: "default".to_owned(),
        }),
    }
}

/// An AEAD keyed, whatever its type: the detached, in-place forms.
pub trait DynAead: Send + Sync {
    /// Encrypts `data` in place and returns the tag.
    ///
    /// # Errors
    ///
    /// A nonce of the wrong length; associated data the AEAD refuses; a
    /// message longer than the AEAD allows.
    fn encrypt_in_place_detached(
        &self,
        nonce: &[u8],
        aad: &[u8],
        data: &mut [u8],
    ) -> Result<[u8; 16], Error>;

    /// Checks `tag` and decrypts `data` in place.
    ///
    /// # Errors
    ///
    /// [`Error::AuthenticationFailed`] (and `data` zeroed) when the tag does
    /// not match; the errors of encryption.
    fn decrypt_in_place_detached(
        &self,
        nonce: &[u8],
        aad: &[u8],
        data: &mut [u8],
        tag: &[u8; 16],
    ) -> Result<(), Error>;
}

/// Builds an AEAD from a key.
pub type AeadConstructor = fn(key: &[u8]) -> Result<Box<dyn DynAead>, Error>;

/// Implements [`DynAead`] for the AEAD types and defines their
/// constructors.
macro_rules! dyn_aead {
    ($($t:ident, $name:literal => $new:ident;)+) => {$(
        impl DynAead for crate::aead::$t {
            fn encrypt_in_place_detached(
                &self,
                nonce: &[u8],
                aad: &[u8],
                data: &mut [u8],
            ) -> Result<[u8; 16], Error> {
                self.try_encrypt_in_place_detached(exact($name, "nonce", nonce)?, aad, data)
            }
            fn decrypt_in_place_detached(
                &self,
                nonce: &[u8],
                aad: &[u8],
                data: &mut [u8],
                tag: &[u8; 16],
            ) -> Result<(), Error> {
                crate::aead::$t::decrypt_in_place_detached(
                    self,
                    exact($name, "nonce", nonce)?,
                    aad,
                    data,
                    tag,
                )
            }
        }

        #[doc = concat!("`", $name, "` keyed with a 32-byte key.")]
        pub(crate) fn $new(key: &[u8]) -> Result<Box<dyn DynAead>, Error> {
            Ok(Box::new(crate::aead::$t::new(exact($name, "key", key)?)))
        }
    )+};
}

dyn_aead! {
    ChaCha20Poly1305, "chacha20-poly1305" => chacha20_poly1305;
    XChaCha20Poly1305, "xchacha20-poly1305" => xchacha20_poly1305;
    XSalsa20Poly1305, "xsalsa20-poly1305" => xsalsa20_poly1305;
}
