//! The types of the table of ladders: what a [`Ladder`] and each of its
//! [`Primitive`]s declare in their own folder (names, kind, lengths,
//! parameters, rungs, how to build them by name, their checks). The table
//! itself, the list of every ladder, is the crate root's
//! ([`crate::ladders`]); [`crate::table`] looks primitives up in it.
//!
//! This module sits at the bottom of the library's layers
//! (docs/architecture.md): the families import it, and it names no
//! family.

use crate::RungSet;

/// What a primitive is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Kind {
    /// A keystream XORed into data, addressable by block (seek).
    StreamCipher,
    /// A keyed permutation of fixed-size blocks.
    BlockCipher,
    /// A mode of operation over a block cipher.
    Mode,
    /// A message authentication code.
    Mac,
    /// Authenticated encryption with associated data.
    Aead,
    /// A hash function.
    Hash,
    /// Many messages hashed at once, one per SIMD lane.
    MultiBufferHash,
    /// A key derivation function.
    Kdf,
    /// A function of the specification the others build on (HSalsa20,
    /// HChaCha20).
    Core,
}

impl Kind {
    /// The kind's name, as `info --json` writes it.
    pub fn name(self) -> &'static str {
        match self {
            Kind::StreamCipher => "stream cipher",
            Kind::BlockCipher => "block cipher",
            Kind::Mode => "block-cipher mode",
            Kind::Mac => "MAC",
            Kind::Aead => "AEAD",
            Kind::Hash => "hash",
            Kind::MultiBufferHash => "multi-buffer hash",
            Kind::Kdf => "KDF",
            Kind::Core => "core function",
        }
    }
}

/// A parameter a primitive takes beyond its key and IV, declared in its
/// table entry: what the dynamic layer checks given values against and
/// fills in when none is given (see [`Primitive::new_mode`]), and what the
/// tool makes its flags from. Every primitive that declares a parameter of
/// one name declares it alike (its kind and help), with a default of its
/// own.
#[derive(Clone, Copy, Debug)]
pub struct Param {
    /// Its name (`sbox`, `key-meshing`): the key of
    /// [`Params`](crate::dynamic::Params) and the tool's flag.
    pub name: &'static str,
    /// What values it takes.
    pub kind: ParamKind,
    /// Its default, as written on the command line.
    pub default: &'static str,
    /// What it is, for this primitive.
    pub doc: &'static str,
    /// The help of the tool's flag: the same for every primitive that
    /// declares the parameter.
    pub help: &'static str,
}

/// The values a [`Param`] takes.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub enum ParamKind {
    /// On or off, written `on` and `off`. The tool's flag turns it from
    /// its default: `--no-NAME` for one on by default, `--NAME` for one
    /// off.
    Switch,
    /// A whole number from `min` to `max`; the tool's flag is `--NAME <N>`.
    Number {
        /// The least it takes.
        min: u64,
        /// The most it takes.
        max: u64,
    },
    /// A value its primitive's folder parses: `check` says whether it takes
    /// one, and if not why. The tool's flag is `--NAME <VALUE_NAME>`.
    Value {
        /// The value's name in the tool's help (`NAME`, `HEX`).
        value_name: &'static str,
        /// `Ok` for a value the primitive takes; the error says why not.
        check: fn(&str) -> Result<(), crate::Error>,
    },
}

impl Param {
    /// Whether `value` is one this parameter takes.
    ///
    /// # Errors
    ///
    /// [`Error::BadParamValue`](crate::Error::BadParamValue) for a switch
    /// given neither `on` nor `off`, or a number out of its range; what the
    /// primitive's `check` says for a value.
    pub fn check(&self, primitive: &'static str, value: &str) -> Result<(), crate::Error> {
        let bad = |expected: String| crate::Error::BadParamValue {
            primitive,
            param: self.name,
            value: value.to_owned(),
            expected,
        };
        match self.kind {
            ParamKind::Switch if matches!(value, "on" | "off") => Ok(()),
            ParamKind::Switch => Err(bad("on or off".to_owned())),
            ParamKind::Number { min, max } => match value.parse::<u64>() {
                Ok(n) if (min..=max).contains(&n) => Ok(()),
                _ => Err(bad(format!("a whole number from {min} to {max}"))),
            },
            ParamKind::Value { check, .. } => check(value),
        }
    }
}

/// One primitive: its name on the command line and its lengths in bytes.
#[derive(Clone, Copy, Debug)]
pub struct Primitive {
    /// The stable lower-case name the tool uses.
    pub name: &'static str,
    /// The name as its specification writes it (`SHA-512/256`), where that
    /// differs from `name`'s spelling; else `name`.
    pub display: &'static str,
    /// What it is.
    pub kind: Kind,
    /// What it is, in a few words, with its specification.
    pub summary: &'static str,
    /// The key lengths it takes (empty for an unkeyed hash).
    pub key_lens: &'static [usize],
    /// The nonce or IV length, if it takes one.
    pub nonce_len: Option<usize>,
    /// Whether its IV is a register of any whole number of blocks
    /// (GOST R 34.13-2015's CBC, OFB and CFB, §5.3–§5.5: m = z·n, z ≥ 1),
    /// [`nonce_len`](Self::nonce_len) being the usual one; else the IV is
    /// exactly `nonce_len` bytes.
    pub iv_register: bool,
    /// The block length: of the keystream, the cipher or the compression
    /// function.
    pub block_len: usize,
    /// The tag length of a MAC or an AEAD, or the digest length of a hash.
    pub output_len: Option<usize>,
    /// Its parameters and their defaults.
    pub params: &'static [Param],
    /// How to build it by name.
    pub construct: Construct,
}

/// How to build a primitive chosen by name (see [`crate::dynamic`]).
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub enum Construct {
    /// A stream cipher from a key, a nonce and options: built through
    /// [`Primitive::new_stream`], which checks its parameters and fills in
    /// their defaults.
    Stream(Build<crate::dynamic::StreamConstructor>),
    /// A hash, on a rung.
    Hash(crate::dynamic::HashConstructor),
    /// A MAC from a key, on a rung, with its parameters: built through
    /// [`Primitive::new_mac`], which checks them and fills in their
    /// defaults.
    Mac(Build<crate::dynamic::MacConstructor>),
    /// An AEAD from a key.
    Aead {
        /// Builds it.
        new: crate::dynamic::AeadConstructor,
        /// Whether it authenticates associated data: false for
        /// XSalsa20-Poly1305 (NaCl's `crypto_secretbox`), whose
        /// [`DynAead`](crate::dynamic::DynAead) refuses any with
        /// [`Error::AssociatedDataUnsupported`](crate::Error::AssociatedDataUnsupported).
        associated_data: bool,
    },
    /// A block-cipher mode from a key, an IV, its direction and its
    /// parameters: built through [`Primitive::new_mode`], which checks
    /// them and fills in their defaults.
    Mode(Build<crate::dynamic::ModeConstructor>),
    /// Many messages of the hash named `of` at once, one per lane.
    Many {
        /// The hash it computes.
        of: &'static str,
        /// Its digests of many messages, on a rung.
        new: crate::dynamic::ManyConstructor,
    },
    /// Not built by name (yet): called through its own type.
    TypeOnly,
}

impl Primitive {
    /// A stream cipher with 64-byte keystream blocks.
    pub(crate) const fn stream(
        name: &'static str,
        summary: &'static str,
        key_lens: &'static [usize],
        nonce_len: usize,
        new: crate::dynamic::StreamConstructor,
    ) -> Primitive {
        Primitive {
            name,
            display: name,
            kind: Kind::StreamCipher,
            summary,
            key_lens,
            nonce_len: Some(nonce_len),
            iv_register: false,
            block_len: crate::stream::BLOCK_LEN,
            output_len: None,
            params: &[],
            construct: Construct::stream(new),
        }
    }

    /// A function from a 32-byte key and 16 input bytes to a 32-byte
    /// subkey, on a 64-byte core (HSalsa20, HChaCha20).
    pub(crate) const fn subkey(name: &'static str, summary: &'static str) -> Primitive {
        Primitive {
            name,
            display: name,
            kind: Kind::Core,
            summary,
            key_lens: &[32],
            nonce_len: Some(16),
            iv_register: false,
            block_len: crate::stream::BLOCK_LEN,
            output_len: Some(32),
            params: &[],
            construct: Construct::TypeOnly,
        }
    }

    /// An AEAD with a 32-byte key and a 16-byte tag, which authenticates
    /// associated data or not (see [`Construct::Aead`]).
    pub(crate) const fn aead(
        name: &'static str,
        summary: &'static str,
        nonce_len: usize,
        associated_data: bool,
        new: crate::dynamic::AeadConstructor,
    ) -> Primitive {
        Primitive {
            name,
            display: name,
            kind: Kind::Aead,
            summary,
            key_lens: &[32],
            nonce_len: Some(nonce_len),
            iv_register: false,
            block_len: crate::stream::BLOCK_LEN,
            output_len: Some(16),
            params: &[],
            construct: Construct::Aead {
                new,
                associated_data,
            },
        }
    }

    /// A hash of `block_len`-byte blocks and an `output_len`-byte digest,
    /// or another primitive of that shape (a MAC, a KDF) with any key
    /// length.
    pub(crate) const fn hash(
        name: &'static str,
        kind: Kind,
        summary: &'static str,
        block_len: usize,
        output_len: usize,
        construct: Construct,
    ) -> Primitive {
        Primitive {
            output_len: Some(output_len),
            ..Primitive::block(name, kind, summary, &[], block_len, construct)
        }
    }

    /// A block cipher of `block_len`-byte blocks under keys of `key_lens`
    /// bytes, or (`kind`) a mode or MAC over it, with no IV, output or
    /// parameters; another shape overrides fields with struct update (a
    /// hash's too: [`Primitive::hash`]).
    pub(crate) const fn block(
        name: &'static str,
        kind: Kind,
        summary: &'static str,
        key_lens: &'static [usize],
        block_len: usize,
        construct: Construct,
    ) -> Primitive {
        Primitive {
            name,
            display: name,
            kind,
            summary,
            key_lens,
            nonce_len: None,
            iv_register: false,
            block_len,
            output_len: None,
            params: &[],
            construct,
        }
    }
}

/// The primitives of a block cipher of 16-byte blocks keyed with 128, 192
/// or 256 bits (AES, Camellia), a `[Primitive; 19]` in the table's order:
/// at each key size the cipher, `NAME-128` (its summary `DISPLAY-128
/// (SPEC)`), and its modes of SP 800-38A, `NAME-128-ecb`, `-cbc`, `-cfb`,
/// `-ofb` and `-ctr`, built by [`construct`](crate::block::dynamic::construct)
/// over `CIPHER<Bits128>`; then `NAME-cmac`, CMAC (SP 800-38B) under a key
/// of any of the three sizes, with the summary `CMAC`. `CIPHER` is the
/// family's cipher type, generic over [`KeySize`](crate::block::KeySize):
/// `sized_block_cipher!(Aes, "aes", "AES", "FIPS 197", "AES-CMAC (…)")`.
macro_rules! sized_block_cipher {
    ($Cipher:ident, $name:literal, $display:literal, $spec:literal, $cmac:literal) => {{
        use $crate::block::{Bits128, Bits192, Bits256};
        use $crate::table::{Construct, Kind, Primitive};
        const SIZES: [[Primitive; 6]; 3] = [
            $crate::table::sized_block_cipher!(@size $Cipher<Bits128>, $name, $display, $spec, "128", 16),
            $crate::table::sized_block_cipher!(@size $Cipher<Bits192>, $name, $display, $spec, "192", 24),
            $crate::table::sized_block_cipher!(@size $Cipher<Bits256>, $name, $display, $spec, "256", 32),
        ];
        let mut all = [SIZES[0][0]; 19];
        let mut i = 0;
        while i < 18 {
            all[i] = SIZES[i / 6][i % 6];
            i += 1;
        }
        all[18] = Primitive {
            output_len: Some(16),
            ..Primitive::block(
                concat!($name, "-cmac"),
                Kind::Mac,
                $cmac,
                &[16, 24, 32],
                16,
                Construct::mac(|key, options| {
                    $crate::block::dynamic::cmac_by_key_len::<
                        $Cipher<Bits128>,
                        $Cipher<Bits192>,
                        $Cipher<Bits256>,
                    >(concat!($name, "-cmac"), key, options)
                }),
            )
        };
        all
    }};
    // The block cipher and its modes at one key size.
    (@size $C:ty, $name:literal, $display:literal, $spec:literal, $bits:literal, $len:literal) => {{
        use $crate::table::{Construct, Kind, Primitive};
        [
            Primitive::block(
                concat!($name, "-", $bits),
                Kind::BlockCipher,
                concat!($display, "-", $bits, " (", $spec, ")"),
                &[$len],
                16,
                Construct::TypeOnly,
            ),
            $crate::table::sized_block_cipher!(@mode $C, $name, $display, $bits, $len,
                "ecb", Ecb, None, "ECB mode (SP 800-38A §6.1), PKCS#7 padding"),
            $crate::table::sized_block_cipher!(@mode $C, $name, $display, $bits, $len,
                "cbc", Cbc, Some(16), "CBC mode (SP 800-38A §6.2), PKCS#7 padding"),
            $crate::table::sized_block_cipher!(@mode $C, $name, $display, $bits, $len,
                "cfb", Cfb, Some(16), "full-block CFB mode (SP 800-38A §6.3)"),
            $crate::table::sized_block_cipher!(@mode $C, $name, $display, $bits, $len,
                "ofb", Ofb, Some(16), "OFB mode (SP 800-38A §6.4)"),
            $crate::table::sized_block_cipher!(@mode $C, $name, $display, $bits, $len,
                "ctr", Ctr, Some(16),
                "CTR mode (SP 800-38A §6.5): a 128-bit big-endian counter block"),
        ]
    }};
    // One mode at one key size, with its IV's length.
    (@mode $C:ty, $name:literal, $display:literal, $bits:literal, $len:literal,
        $mode:literal, $Kind:ident, $iv:expr, $what:literal) => {
        $crate::table::Primitive {
            nonce_len: $iv,
            ..$crate::table::Primitive::block(
                concat!($name, "-", $bits, "-", $mode),
                $crate::table::Kind::Mode,
                concat!($display, "-", $bits, " in ", $what),
                &[$len],
                16,
                $crate::table::Construct::mode(|k, iv, o| {
                    use $crate::block::dynamic::{ModeKind, construct};
                    construct::<$C>(ModeKind::$Kind, k, iv, o)
                }),
            )
        }
    };
}
pub(crate) use sized_block_cipher;

/// The constructor of a primitive that takes parameters, called only
/// through [`Primitive`]'s methods ([`Primitive::new_mode`],
/// [`Primitive::new_mac`]), which check the parameters given against the
/// declaration and fill in the defaults first.
#[derive(Clone, Copy, Debug)]
pub struct Build<F>(F);

impl Construct {
    /// A stream cipher built by `new`.
    pub(crate) const fn stream(new: crate::dynamic::StreamConstructor) -> Construct {
        Construct::Stream(Build(new))
    }

    /// A block-cipher mode built by `new`.
    pub(crate) const fn mode(new: crate::dynamic::ModeConstructor) -> Construct {
        Construct::Mode(Build(new))
    }

    /// A MAC built by `new`.
    pub(crate) const fn mac(new: crate::dynamic::MacConstructor) -> Construct {
        Construct::Mac(Build(new))
    }
}

impl Primitive {
    /// The stream cipher under `key` and `nonce`, as `options` say, its
    /// parameters checked and completed as [`new_mode`](Self::new_mode)'s.
    ///
    /// # Errors
    ///
    /// As [`new_mode`](Self::new_mode)'s, for a stream cipher.
    pub fn new_stream(
        &self,
        key: &[u8],
        nonce: &[u8],
        options: &crate::dynamic::StreamOptions<'_>,
    ) -> Result<Box<dyn crate::dynamic::DynStreamCipher>, crate::Error> {
        let Construct::Stream(Build(new)) = self.construct else {
            return Err(self.not_a("stream cipher"));
        };
        let params = self.resolve(&options.params)?;
        new(
            key,
            nonce,
            &crate::dynamic::StreamOptions {
                params: crate::dynamic::Params(&params),
                ..*options
            },
        )
    }

    /// The block-cipher mode under `key` and `iv`, as `options` say, its
    /// parameters checked against the declaration ([`Primitive::params`])
    /// and those not given at their defaults.
    ///
    /// # Errors
    ///
    /// [`Error::NotOfKind`](crate::Error::NotOfKind) for a primitive that is
    /// no mode; a parameter it does not take, or a value it refuses; what
    /// the mode's constructor says of the key, the IV and the rung.
    pub fn new_mode(
        &self,
        key: &[u8],
        iv: &[u8],
        options: &crate::dynamic::ModeOptions<'_>,
    ) -> Result<Box<dyn crate::dynamic::DynMode>, crate::Error> {
        let Construct::Mode(Build(new)) = self.construct else {
            return Err(self.not_a("block-cipher mode"));
        };
        let params = self.resolve(&options.params)?;
        new(
            key,
            iv,
            &crate::dynamic::ModeOptions {
                params: crate::dynamic::Params(&params),
                ..*options
            },
        )
    }

    /// The MAC under `key`, as `options` say, its parameters checked and
    /// completed as [`new_mode`](Self::new_mode)'s.
    ///
    /// # Errors
    ///
    /// As [`new_mode`](Self::new_mode)'s, for a MAC.
    pub fn new_mac(
        &self,
        key: &[u8],
        options: &crate::dynamic::MacOptions<'_>,
    ) -> Result<Box<dyn crate::dynamic::DynDigest>, crate::Error> {
        let Construct::Mac(Build(new)) = self.construct else {
            return Err(self.not_a("MAC"));
        };
        let params = self.resolve(&options.params)?;
        new(
            key,
            &crate::dynamic::MacOptions {
                params: crate::dynamic::Params(&params),
                ..*options
            },
        )
    }

    /// The parameters `given`, each checked against this primitive's
    /// declaration, and the defaults of those not given.
    ///
    /// # Errors
    ///
    /// [`Error::ParamUnsupported`](crate::Error::ParamUnsupported) for one
    /// it does not declare; [`Param::check`]'s error for a value it
    /// refuses.
    pub fn resolve<'a>(
        &self,
        given: &crate::dynamic::Params<'a>,
    ) -> Result<Vec<(&'a str, &'a str)>, crate::Error> {
        for &(name, value) in given.0 {
            let param = self.params.iter().find(|p| p.name == name).ok_or_else(|| {
                crate::Error::ParamUnsupported {
                    primitive: self.name,
                    param: name.to_owned(),
                }
            })?;
            param.check(self.name, value)?;
        }
        Ok(self
            .params
            .iter()
            .map(|p| (p.name, given.get(p.name).unwrap_or(p.default)))
            .collect())
    }

    /// What an AEAD's fuzz case needs to know of it; `None` for another
    /// kind.
    #[cfg(feature = "kit")]
    pub(crate) fn aead_shape(&self) -> Option<crate::harness::AeadShape> {
        match self.construct {
            Construct::Aead {
                associated_data, ..
            } => Some(crate::harness::AeadShape {
                name: self.name,
                key_lens: self.key_lens,
                nonce_len: self.nonce_len?,
                aad: associated_data,
            }),
            _ => None,
        }
    }

    /// The AEADs of `ladder`, as their fuzz case makes inputs for them.
    #[cfg(feature = "kit")]
    pub(crate) fn aead_shapes(ladder: &Ladder) -> Vec<crate::harness::AeadShape> {
        ladder
            .primitives
            .iter()
            .filter_map(Primitive::aead_shape)
            .collect()
    }

    /// The error for asking this primitive to be built as a `kind`.
    fn not_a(&self, kind: &'static str) -> crate::Error {
        crate::Error::NotOfKind {
            primitive: self.name,
            kind,
        }
    }

    /// The same AEAD with a tag of `tag_len` bytes.
    pub(crate) const fn tag_len(self, tag_len: usize) -> Primitive {
        Primitive {
            output_len: Some(tag_len),
            ..self
        }
    }

    /// The same primitive with other key lengths.
    pub(crate) const fn key_lens(self, key_lens: &'static [usize]) -> Primitive {
        Primitive { key_lens, ..self }
    }

    /// The same mode with an IV register of any whole number of blocks.
    pub(crate) const fn iv_register(self) -> Primitive {
        Primitive {
            iv_register: true,
            ..self
        }
    }

    /// The same primitive with its specification's spelling of the name.
    pub(crate) const fn display(self, display: &'static str) -> Primitive {
        Primitive { display, ..self }
    }
}

/// One rung as the table shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RungInfo {
    /// Its stable command-line name.
    pub name: &'static str,
    /// The CPU features it needs.
    pub needs: &'static str,
    /// Whether this CPU, under the cap, runs it.
    pub available: bool,
    /// How many blocks it processes at once (lanes, for multi-buffer and
    /// scrypt rungs).
    pub par_blocks: usize,
    /// Whether its running time and memory accesses are independent of
    /// secret data.
    pub constant_time: bool,
    /// Whether the library picks it on this CPU.
    pub chosen: bool,
}

/// One ladder: a set of rungs and the primitives they run.
#[derive(Clone, Copy, Debug)]
pub struct Ladder {
    /// The ladder's name: the `Rung` enum's primitive, as `--impl` errors
    /// and `info` name it.
    pub name: &'static str,
    /// The primitives its rungs run.
    pub primitives: &'static [Primitive],
    /// The rungs, or for a composed ladder the ladders it is built on.
    pub rungs: Rungs,
    /// Its checks: the function that adds the rows of its primitives to a
    /// report, declared in the ladder's own folder (`<primitive>/checks.rs`);
    /// see [`Ladder::check`].
    #[cfg(feature = "kit")]
    pub(crate) checks: fn(&mut crate::harness::Report),
    /// Its differential fuzz case, declared beside its checks; see
    /// [`Ladder::fuzz`].
    #[cfg(feature = "kit")]
    pub(crate) fuzz: fn(&[u8]) -> crate::harness::Tally,
}

/// Where a ladder's rungs come from.
#[derive(Clone, Copy, Debug)]
pub enum Rungs {
    /// Its own `Rung` enum, listed by this function.
    Own(fn() -> Vec<RungInfo>),
    /// None of its own: it runs on the chosen rungs of these ladders.
    ComposedOf(&'static [&'static str]),
}

impl Ladder {
    /// The rungs, slowest first; empty for a composed ladder.
    pub fn rungs(&self) -> Vec<RungInfo> {
        match self.rungs {
            Rungs::Own(list) => list(),
            Rungs::ComposedOf(_) => Vec::new(),
        }
    }

    /// The ladders a composed ladder runs on; empty for one with rungs.
    pub fn composed_of(&self) -> &'static [&'static str] {
        match self.rungs {
            Rungs::Own(_) => &[],
            Rungs::ComposedOf(names) => names,
        }
    }

    /// Adds the rows of its primitives' checks to `report`: every rung on
    /// the official vectors, against the specification's own functions,
    /// and in round trips (see [`crate::kit`]).
    #[cfg(feature = "kit")]
    #[cfg_attr(docsrs, doc(cfg(feature = "kit")))]
    pub fn check(&self, report: &mut crate::harness::Report) {
        report.enter(self.name);
        (self.checks)(report);
    }

    /// One differential case of its primitives made of a fuzzer's `input`,
    /// on every rung (or path) this CPU runs, against the specification's
    /// own functions or its `reference` rung: the first byte picks a
    /// primitive or mode, the rest steers every choice the checks' random
    /// cases make ([`Rng::from_bytes`](crate::kit::Rng::from_bytes)). The
    /// fuzz target `ladder` runs it for every ladder of the table; a short
    /// input makes a short case.
    #[cfg(feature = "kit")]
    #[cfg_attr(docsrs, doc(cfg(feature = "kit")))]
    pub fn fuzz(&self, input: &[u8]) -> crate::harness::Tally {
        (self.fuzz)(input)
    }

    /// The name of the rung the library picks on this CPU, if the ladder
    /// has rungs.
    pub fn chosen(&self) -> Option<&'static str> {
        self.rungs().into_iter().find(|r| r.chosen).map(|r| r.name)
    }
}

/// The rungs of `I`, with `chosen` the library's pick on this CPU and
/// `par_blocks` each rung's width.
pub(crate) fn rung_infos<I: RungSet>(chosen: I, par_blocks: impl Fn(I) -> usize) -> Vec<RungInfo> {
    I::all()
        .iter()
        .map(|&i| RungInfo {
            name: i.name(),
            needs: i.needs(),
            available: i.is_available(),
            par_blocks: par_blocks(i),
            constant_time: i.is_constant_time(),
            chosen: i == chosen,
        })
        .collect()
}
