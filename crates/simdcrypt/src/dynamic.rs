//! The primitives behind object-safe traits, built by name from the table
//! of ladders: for code that picks a primitive at run time (the tool, the
//! checks, benchmarks) and so cannot name its type.
//!
//! ```
//! use simdcrypt::ladder;
//!
//! let (_, xsalsa20) = ladder::find("xsalsa20").unwrap();
//! let mut cipher = xsalsa20.new_stream(&[0x42; 32], &[0x24; 24], &Default::default())?;
//! let mut data = *b"attack at dawn";
//! cipher.apply_keystream(&mut data)?;
//! # Ok::<(), simdcrypt::Error>(())
//! ```

use crate::{Error, KeyStream, Xor};

/// A stream cipher keyed and at a keystream position, whatever its type:
/// [`KeyStream`] and the rung it runs on.
pub trait DynStreamCipher: KeyStream + Send {
    /// The name of the rung in use.
    fn rung(&self) -> &'static str;
}

/// How to build a stream cipher beyond its key and nonce.
#[derive(Clone, Copy, Debug, Default)]
pub struct StreamOptions<'a> {
    /// The rung, by its command-line name; the fastest when `None`.
    pub rung: Option<&'a str>,
    /// The XOR form of the single-block rungs; the default when `None`.
    pub xor: Option<Xor>,
    /// The parameters beyond the key and nonce, by name.
    pub params: Params<'a>,
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

/// `bytes` as a mutable array of `N`, or the error naming `what` of
/// `primitive` and the length expected.
pub(crate) fn exact_mut<'a, const N: usize>(
    primitive: &'static str,
    what: &'static str,
    bytes: &'a mut [u8],
) -> Result<&'a mut [u8; N], Error> {
    let len = bytes.len();
    bytes.try_into().map_err(|_| Error::BadLength {
        primitive,
        what,
        len,
        expected: N.to_string(),
    })
}

/// A hash or a keyed MAC absorbing a message, whatever its type.
pub trait DynDigest: Send + Sync {
    /// Absorbs `data`; any split of the calls gives the same output.
    fn update(&mut self, data: &[u8]);

    /// The digest or tag of everything absorbed, into `out` (whose length
    /// is the primitive's `output_len`).
    fn finalize_into(self: Box<Self>, out: &mut [u8]);

    /// The name of the rung in use.
    fn rung(&self) -> &'static str;
}

/// A hash, whatever its type: a [`DynDigest`] that can be copied (a
/// one-time MAC cannot).
pub trait DynHash: DynDigest {
    /// A copy in the same state, to hash many messages from one start.
    fn box_clone(&self) -> Box<dyn DynHash>;
}

/// Builds a hash on a rung (the fastest when `None`).
pub type HashConstructor = fn(imp: Option<&str>) -> Result<Box<dyn DynHash>, Error>;

/// How a MAC is built: its rung and its cipher's parameters.
#[derive(Clone, Copy, Debug, Default)]
pub struct MacOptions<'a> {
    /// A rung by name, or the fastest.
    pub rung: Option<&'a str>,
    /// The parameters beyond the key, by name.
    pub params: Params<'a>,
}

/// Builds a MAC from a key, on the rung and with the parameters `options`
/// name.
pub type MacConstructor =
    fn(key: &[u8], options: &MacOptions<'_>) -> Result<Box<dyn DynDigest>, Error>;

/// Parameters given by name, as the tool's flags give them
/// (`("sbox", "cryptopro-a")`, `("key-meshing", "off")`): each one the
/// primitive declares ([`Primitive::params`](crate::ladder::Primitive::params)).
/// [`Primitive::new_mode`](crate::ladder::Primitive::new_mode) and
/// [`new_mac`](crate::ladder::Primitive::new_mac) check them against the
/// declaration and hand the constructor every declared one, the defaults
/// filled in.
#[derive(Clone, Copy, Debug, Default)]
pub struct Params<'a>(pub &'a [(&'a str, &'a str)]);

impl<'a> Params<'a> {
    /// The value given for `name`.
    pub fn get(&self, name: &str) -> Option<&'a str> {
        self.0.iter().find(|(n, _)| *n == name).map(|&(_, v)| v)
    }

    /// The value of the parameter `name`, which the constructor asking
    /// declares and so is given, its default filled in.
    ///
    /// # Errors
    ///
    /// [`Error::ParamMissing`] when it is not: the constructor was called
    /// other than through its table entry.
    pub(crate) fn value(&self, name: &'static str) -> Result<&'a str, Error> {
        self.get(name).ok_or(Error::ParamMissing { param: name })
    }

    /// The switch `name` (`on` or `off`), as [`value`](Self::value) finds
    /// it.
    ///
    /// # Errors
    ///
    /// As [`value`](Self::value)'s.
    pub(crate) fn switch(&self, name: &'static str) -> Result<bool, Error> {
        Ok(self.value(name)? == "on")
    }
}

/// The digests of many messages of one hash at once, one per lane, on a
/// multi-buffer rung (the fastest for that hash when `None`).
pub type ManyConstructor = fn(imp: Option<&str>, messages: &[&[u8]]) -> Result<Vec<Vec<u8>>, Error>;

/// An AEAD keyed, whatever its type: the detached, in-place forms.
///
/// Every AEAD here takes an `aad` argument, XSalsa20-Poly1305 (NaCl's
/// `crypto_secretbox`) included, which authenticates no associated data:
/// it refuses any with [`Error::AssociatedDataUnsupported`]. The table
/// says which AEADs take some ([`Construct::Aead`]'s `associated_data`).
///
/// [`Construct::Aead`]: crate::table::Construct::Aead
pub trait DynAead: Send + Sync {
    /// The tag length in bytes (16 for the AEADs over 128-bit blocks, 8 for
    /// MGM over Magma).
    fn tag_len(&self) -> usize {
        16
    }

    /// Encrypts `data` in place and writes the tag into `tag`, which is
    /// [`tag_len`](DynAead::tag_len) bytes long.
    ///
    /// # Errors
    ///
    /// A nonce or tag buffer of the wrong length; associated data given to
    /// an AEAD that authenticates none
    /// ([`Error::AssociatedDataUnsupported`]); a message longer than the
    /// AEAD allows. Nothing is written then.
    fn encrypt_in_place_detached(
        &self,
        nonce: &[u8],
        aad: &[u8],
        data: &mut [u8],
        tag: &mut [u8],
    ) -> Result<(), Error>;

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
        tag: &[u8],
    ) -> Result<(), Error>;

    /// Checks `tag` and decrypts `input` into `output` (as long), read and
    /// written in one pass: the out-of-place form of
    /// [`decrypt_in_place_detached`](DynAead::decrypt_in_place_detached).
    ///
    /// # Errors
    ///
    /// [`Error::LengthMismatch`] when the buffers differ in length;
    /// otherwise as the in-place form (`output` zeroed when the tag does
    /// not match).
    fn decrypt_detached_into(
        &self,
        nonce: &[u8],
        aad: &[u8],
        input: &[u8],
        output: &mut [u8],
        tag: &[u8],
    ) -> Result<(), Error>;

    /// Whether the type's own `encrypt` puts the tag before the ciphertext
    /// (XSalsa20-Poly1305, as NaCl's `crypto_secretbox_easy`) rather than
    /// after it (the IETF AEADs).
    fn tag_first(&self) -> bool {
        false
    }
}

/// Builds an AEAD from a key.
pub type AeadConstructor = fn(key: &[u8]) -> Result<Box<dyn DynAead>, Error>;

/// Which way a block-cipher mode runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Plaintext in, ciphertext out.
    #[default]
    Encrypt,
    /// Ciphertext in, plaintext out.
    Decrypt,
}

/// A block-cipher mode keyed and running one way, whatever its cipher:
/// [`update`](DynMode::update) as input arrives, then
/// [`finalize`](DynMode::finalize). ECB and CBC write whole blocks and keep
/// the rest (and, decrypting with padding, the last block) for later; CFB,
/// OFB and CTR write every byte at once.
pub trait DynMode: Send {
    /// How many bytes [`update`](DynMode::update) writes for `input_len`
    /// more bytes of input.
    fn update_len(&self, input_len: usize) -> usize;

    /// Runs the mode on `input`, writing [`update_len`](DynMode::update_len)
    /// bytes into `output` and returning that count.
    ///
    /// # Errors
    ///
    /// [`Error::OutputTooShort`] when `output` has no room;
    /// [`Error::KeystreamExhausted`] past the end of CTR's counter.
    fn update(&mut self, input: &[u8], output: &mut [u8]) -> Result<usize, Error>;

    /// Ends the message, writing at most one block into `output` (the
    /// padded last block; decrypting, what is left of it once unpadded)
    /// and returning how many bytes it wrote.
    ///
    /// # Errors
    ///
    /// [`Error::BadPadding`] for a padded decryption whose end is not valid
    /// padding (or not a whole block); [`Error::NotWholeBlocks`] without
    /// padding; [`Error::OutputTooShort`].
    fn finalize(self: Box<Self>, output: &mut [u8]) -> Result<usize, Error>;

    /// The rung in use, by name.
    fn rung(&self) -> &'static str;

    /// For the modes that can be cut into pieces run side by side (ECB both
    /// ways, CTR, CBC and CFB decryption): a new instance without padding
    /// that starts `skip` (whole blocks of input) past this one — CBC and
    /// CFB decryption chain on the last block of `skip`. `None` for the
    /// chained directions (CBC and CFB encryption, OFB), and unless this
    /// one stands at a block boundary holding nothing back.
    fn fork(&self, skip: &[u8]) -> Option<Box<dyn DynMode>>;

    /// Moves past `skip` as if it had been run here (its output written by
    /// forks), keeping the padding; `false`, and nothing changed, where
    /// [`fork`](DynMode::fork) gives `None`.
    fn advance(&mut self, skip: &[u8]) -> bool;
}

/// The first `input.len()` bytes of `output`: where a mode that writes
/// every byte as it comes puts a call's output.
///
/// # Errors
///
/// [`Error::OutputTooShort`] when `output` is shorter than `input`.
pub(crate) fn output_for<'a>(input: &[u8], output: &'a mut [u8]) -> Result<&'a mut [u8], Error> {
    let got = output.len();
    output.get_mut(..input.len()).ok_or(Error::OutputTooShort {
        need: input.len(),
        got,
    })
}

/// Whether a stream of blocks is padded: the padding of ECB and CBC
/// ([`crate::block::padding`] adds and removes it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Padding {
    /// PKCS#7: 1 to a whole block of bytes, each holding their count.
    #[default]
    Pkcs7,
    /// None: the message must be a whole number of blocks.
    None,
    /// GOST R 34.13-2015 §4.1.1, procedure 1: zeros up to a whole block,
    /// none when the message already is one. Not removable (the length
    /// must be known otherwise): decryption returns every block.
    GostZeros,
    /// GOST R 34.13-2015 §4.1.2, procedure 2 (ISO/IEC 7816-4): a one bit
    /// then zeros, 1 to a whole block of bytes (0x80 0x00 …); removed in
    /// constant time.
    GostOneZeros,
    /// GOST R 34.13-2015 §4.1.3, procedure 3: none for a message of whole
    /// blocks, procedure 2 otherwise (the MAC's padding). Not removable:
    /// decryption returns every block.
    GostOneZerosIfPartial,
}

/// How a mode is built: its direction, padding (ECB and CBC) and rung.
#[derive(Clone, Copy, Debug, Default)]
pub struct ModeOptions<'a> {
    /// Encrypt or decrypt.
    pub direction: Direction,
    /// The padding of ECB and CBC; the other modes have none.
    pub padding: Padding,
    /// A rung by name, or the fastest.
    pub rung: Option<&'a str>,
    /// The parameters beyond the key and IV, by name.
    pub params: Params<'a>,
}

/// Builds a block-cipher mode from a key and an IV (ignored by ECB).
pub type ModeConstructor =
    fn(key: &[u8], iv: &[u8], options: &ModeOptions<'_>) -> Result<Box<dyn DynMode>, Error>;

/// Implements [`DynStreamCipher`] for stream cipher types: each cipher's
/// folder says it of its own types.
macro_rules! dyn_stream {
    ($($t:ty),+ $(,)?) => {$(
        impl $crate::dynamic::DynStreamCipher for $t {
            fn rung(&self) -> &'static str {
                <$t>::rung(self).name()
            }
        }
    )+};
}
pub(crate) use dyn_stream;

/// A freshly keyed stream cipher on the rung (parsed as `$imp`) and XOR
/// form that `$options` name, boxed.
macro_rules! with_options {
    ($cipher:expr, $imp:ty, $options:expr) => {{
        let mut cipher = $cipher;
        if let Some(name) = $options.rung {
            cipher = cipher.with_rung(name.parse::<$imp>()?)?;
        }
        if let Some(xor) = $options.xor {
            cipher = cipher.with_xor(xor);
        }
        Ok(Box::new(cipher))
    }};
}
pub(crate) use with_options;

/// Implements [`DynDigest`] and [`DynHash`] for hashers (`finalize`
/// returning an array, rungs of type `$imp`) and defines their
/// constructors: each hash's folder says it of its own types.
macro_rules! dyn_hash {
    ($($t:ty: $imp:ty => $new:ident;)+) => {$(
        impl $crate::dynamic::DynDigest for $t {
            fn update(&mut self, data: &[u8]) {
                <$t>::update(self, data);
            }
            fn finalize_into(self: Box<Self>, out: &mut [u8]) {
                out.copy_from_slice(&<$t>::finalize(*self));
            }
            fn rung(&self) -> &'static str {
                <$t>::rung(self).name()
            }
        }

        impl $crate::dynamic::DynHash for $t {
            fn box_clone(&self) -> Box<dyn $crate::dynamic::DynHash> {
                Box::new(self.clone())
            }
        }

        #[doc = concat!("A new `", stringify!($t), "` on the rung named `imp`.")]
        pub(crate) fn $new(
            imp: Option<&str>,
        ) -> Result<Box<dyn $crate::dynamic::DynHash>, $crate::Error> {
            let mut h = <$t>::new();
            if let Some(name) = imp {
                h = h.with_rung(name.parse::<$imp>()?)?;
            }
            Ok(Box::new(h))
        }
    )+};
}
pub(crate) use dyn_hash;
