//! The table of ladders: every primitive declared once, in its own folder,
//! and listed here, so that the tool, `verify`, `bench` and the checks can
//! loop over what exists instead of naming it.
//!
//! A [`Ladder`] is one set of rungs (one `Rung` enum) and the
//! [`Primitive`]s it runs: Salsa20's rungs run Salsa20/20, /12, /8 and
//! XSalsa20. A ladder with no rungs of its own (the AEADs, HMAC, HKDF,
//! PBKDF2) names the ladders it is composed of.
//!
//! ```
//! for ladder in simdcrypt::ladders() {
//!     for rung in ladder.rungs() {
//!         if rung.chosen {
//!             println!("{}: {} ({} blocks at once)", ladder.name, rung.name, rung.par_blocks);
//!         }
//!     }
//! }
//! let (ladder, xsalsa20) = simdcrypt::ladder::find("xsalsa20").unwrap();
//! assert_eq!((ladder.name, xsalsa20.nonce_len), ("salsa20", Some(24)));
//! ```

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

/// A parameter of a primitive and its default.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Param {
    /// Its name.
    pub name: &'static str,
    /// Its default, as written on the command line.
    pub default: &'static str,
    /// What it is.
    pub doc: &'static str,
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
    /// A stream cipher from a key, a nonce and options.
    Stream(crate::dynamic::StreamConstructor),
    /// A hash, on a rung.
    Hash(crate::dynamic::HashConstructor),
    /// A MAC from a key, on a rung.
    Mac(crate::dynamic::MacConstructor),
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
    /// A block-cipher mode from a key, an IV and its direction.
    Mode(crate::dynamic::ModeConstructor),
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
            block_len: crate::stream::BLOCK_LEN,
            output_len: None,
            params: &[],
            construct: Construct::Stream(new),
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
            name,
            display: name,
            kind,
            summary,
            key_lens: &[],
            nonce_len: None,
            block_len,
            output_len: Some(output_len),
            params: &[],
            construct,
        }
    }
}

impl Primitive {
    /// The same primitive with other key lengths.
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
    pub(crate) checks: fn(&mut crate::kit::Report),
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
    pub fn check(&self, report: &mut crate::kit::Report) {
        (self.checks)(report);
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

/// Every ladder, in the order `info` shows them.
///
/// ```
/// for ladder in simdcrypt::ladders() {
///     let runs: Vec<_> = ladder.rungs().into_iter().filter(|r| r.available).map(|r| r.name).collect();
///     match ladder.chosen() {
///         Some(chosen) => println!("{}: {chosen} (this CPU runs {})", ladder.name, runs.join(", ")),
///         None => println!("{}: on {}", ladder.name, ladder.composed_of().join(", ")),
///     }
/// }
/// ```
pub fn ladders() -> &'static [Ladder] {
    &[
        crate::salsa20::LADDER,
        crate::chacha20::LADDER,
        crate::poly1305::LADDER,
        crate::aead::LADDER,
        crate::aead::GCM_LADDER,
        crate::aes::LADDER,
        crate::ghash::LADDER,
        crate::gost28147::LADDER,
        crate::magma::LADDER,
        crate::hash::sha256::LADDER,
        crate::hash::sha512::LADDER,
        crate::hash::sha1::LADDER,
        crate::hash::md5::LADDER,
        crate::hash::many::LADDER,
        crate::hmac::LADDER,
        crate::kdf::LADDER,
        crate::kdf::scrypt::LADDER,
    ]
}

/// Every primitive of every ladder, with its ladder.
pub fn primitives() -> impl Iterator<Item = (&'static Ladder, &'static Primitive)> {
    ladders()
        .iter()
        .flat_map(|l| l.primitives.iter().map(move |p| (l, p)))
}

/// The primitive named `name`, with its ladder.
///
/// ```
/// use simdcrypt::ladder::{self, Kind};
///
/// let (ladder, sha256) = ladder::find("sha256").unwrap();
/// assert_eq!((sha256.kind, sha256.output_len), (Kind::Hash, Some(32)));
/// assert!(ladder.rungs().iter().any(|r| r.name == "reference"));
/// assert!(ladder::find("rot13").is_none());
/// ```
pub fn find(name: &str) -> Option<(&'static Ladder, &'static Primitive)> {
    primitives().find(|(_, p)| p.name == name)
}

/// The first primitive of `kind` in the table: the tool's default where it
/// takes one of a kind.
pub fn first_of(kind: Kind) -> Option<&'static Primitive> {
    primitives().map(|(_, p)| p).find(|p| p.kind == kind)
}

/// The names of every primitive of `kind`, comma-separated, for messages
/// ("expected one of …").
pub fn names_of(kind: Kind) -> String {
    primitives()
        .filter(|(_, p)| p.kind == kind)
        .map(|(_, p)| p.name)
        .collect::<Vec<_>>()
        .join(", ")
}
