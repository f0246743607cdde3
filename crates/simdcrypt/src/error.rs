//! The one error type of the library.

use thiserror::Error as ThisError;

/// Everything that can go wrong in simdcrypt. Every variant names what was
/// wrong and what was expected; none carries secret data.
#[derive(Clone, Debug, PartialEq, Eq, ThisError)]
#[non_exhaustive]
pub enum Error {
    /// A rung was asked for by a name no rung of that primitive has.
    #[error("unknown {primitive} rung `{name}`: expected one of {expected}")]
    UnknownRung {
        /// The primitive, e.g. `salsa20`.
        primitive: &'static str,
        /// The name given.
        name: String,
        /// The names that exist, comma-separated.
        expected: String,
    },
    /// A rung was forced that this CPU (or the `SIMDCRYPT_MAX_ISA` cap) lacks.
    #[error(
        "{primitive} rung `{name}` needs {needs}, which this CPU lacks or SIMDCRYPT_MAX_ISA excludes"
    )]
    RungUnavailable {
        /// The primitive, e.g. `salsa20`.
        primitive: &'static str,
        /// The rung's name.
        name: &'static str,
        /// The CPU features it needs.
        needs: &'static str,
    },
    /// `SIMDCRYPT_MAX_ISA` holds a value that is not a level.
    #[error("SIMDCRYPT_MAX_ISA is `{value}`: expected one of {expected}")]
    BadIsaCap {
        /// The value found.
        value: String,
        /// This architecture's levels, comma-separated.
        expected: String,
    },
    /// The request would run the keystream past its last block; the cipher
    /// refuses rather than wrap the counter and reuse keystream.
    #[error(
        "{primitive} keystream exhausted: the request runs past block {last_block}, the last one its counter can address"
    )]
    KeystreamExhausted {
        /// The primitive, e.g. `salsa20`.
        primitive: &'static str,
        /// The number of the last block of keystream.
        last_block: u128,
    },
    /// The operating system's random number generator gave nothing.
    #[error("the operating system's random number generator failed: {0}")]
    Random(String),
    /// [`crate::cpu::set_max_isa`] was called after the rungs were chosen,
    /// or twice.
    #[error(
        "the instruction-set cap must be set once, before any primitive runs: the rungs were chosen already"
    )]
    CapTooLate,
    /// A rung that is not constant-time was asked for without the
    /// `hazmat` feature.
    #[error(
        "{primitive} implementation `{name}` is not constant-time (its timing can leak secrets): it can be chosen only with simdcrypt's `hazmat` feature"
    )]
    VariableTimeRung {
        /// The primitive, e.g. `poly1305`.
        primitive: &'static str,
        /// The rung.
        name: &'static str,
    },
    /// A key, nonce or other input of the wrong length, for a primitive
    /// chosen by name.
    #[error("{primitive} {what} is {len} bytes: expected {expected}")]
    BadLength {
        /// The primitive, e.g. `xsalsa20`.
        primitive: &'static str,
        /// What: `key`, `nonce`.
        what: &'static str,
        /// Its length.
        len: usize,
        /// The lengths it may have.
        expected: String,
    },
    /// Input and output buffers differ in length.
    #[error("output buffer is {output} bytes but the input is {input}: they must be equally long")]
    LengthMismatch {
        /// Input length in bytes.
        input: usize,
        /// Output length in bytes.
        output: usize,
    },
    /// A named XOR form does not exist.
    #[error("unknown XOR form `{name}`: expected c0 (byte-wise) or c1 (16-byte SIMD)")]
    UnknownXor {
        /// The name given.
        name: String,
    },
    /// A tag did not match: the message, its associated data, the key or
    /// the nonce is not what was sealed. Nothing else is said, on purpose.
    #[error("authentication failed")]
    AuthenticationFailed,
    /// A sealed message is shorter than its tag, so it cannot be one.
    #[error("sealed message is {len} bytes, shorter than the {tag_len}-byte tag it must carry")]
    SealedTooShort {
        /// The length given, in bytes.
        len: usize,
        /// The tag length, in bytes.
        tag_len: usize,
    },
    /// A buffer for an AEAD's sealed form is not its plaintext's length
    /// plus the tag's.
    #[error(
        "sealed message is {sealed} bytes and its plaintext {plaintext}: the sealed form is the plaintext and a {tag_len}-byte tag"
    )]
    SealedLength {
        /// The length of the sealed form given, in bytes.
        sealed: usize,
        /// The length of the plaintext given, in bytes.
        plaintext: usize,
        /// The tag length, in bytes.
        tag_len: usize,
    },
    /// A message is longer than the AEAD allows.
    #[error("message is {len} bytes, longer than the {max} the AEAD allows")]
    MessageTooLong {
        /// The length given, in bytes.
        len: u64,
        /// The most the AEAD takes, in bytes.
        max: u64,
    },
    /// Associated data was given to an AEAD that authenticates none.
    #[error("{aead} authenticates no associated data, but {len} bytes were given: pass none")]
    AssociatedDataUnsupported {
        /// The AEAD, e.g. `XSalsa20-Poly1305`.
        aead: &'static str,
        /// The length given, in bytes.
        len: usize,
    },
    /// A truncated MAC tag is shorter than the safe minimum or longer than
    /// the MAC's output.
    #[error("MAC tag is {len} bytes: expected between {min} and {max}")]
    TagLength {
        /// The length given, in bytes.
        len: usize,
        /// The shortest tag accepted, in bytes.
        min: usize,
        /// The MAC's full output, in bytes.
        max: usize,
    },
    /// A key derivation was asked for more output than it can give.
    #[error("{kdf} output of {len} bytes asked for: it gives at most {max}")]
    KdfOutputTooLong {
        /// The function, e.g. `HKDF-SHA-256`.
        kdf: &'static str,
        /// The length asked for, in bytes.
        len: u64,
        /// The most it gives, in bytes.
        max: u64,
    },
    /// A key derivation parameter is outside the bounds of its specification.
    #[error("{kdf} parameter {parameter} = {value}: expected {expected}")]
    KdfParameter {
        /// The function, e.g. `scrypt`.
        kdf: &'static str,
        /// The parameter's name, e.g. `log_n`.
        parameter: &'static str,
        /// The value given.
        value: u64,
        /// What the specification allows.
        expected: String,
    },
    /// Memory the computation needs could not be had (or cannot be
    /// addressed on this platform); nothing was computed.
    #[error("{what} needs {bytes} bytes of memory, which could not be allocated")]
    OutOfMemory {
        /// What needed it, e.g. `scrypt's V array (128·r·N)`.
        what: &'static str,
        /// The bytes needed.
        bytes: u128,
    },
    /// A block mode without padding was given a length that is not a
    /// whole number of blocks.
    #[error("{primitive} input is {len} bytes: expected a multiple of the {block_len}-byte block")]
    NotWholeBlocks {
        /// The block cipher, e.g. `aes-128`.
        primitive: &'static str,
        /// The input's length, in bytes.
        len: usize,
        /// The block length, in bytes.
        block_len: usize,
    },
    /// Decryption with PKCS#7 padding found no valid padding at the end:
    /// the ciphertext, the key or the IV is wrong. Which byte was wrong is
    /// not said, on purpose (no padding oracle).
    #[error("bad decrypt: the padding is not valid (wrong key, IV or ciphertext)")]
    BadPadding,
    /// A parameter was given to a primitive that takes none of that name.
    #[error("{primitive} takes no {param} parameter")]
    ParamUnsupported {
        /// The primitive, e.g. `aes-128-cbc`.
        primitive: &'static str,
        /// The parameter, e.g. `sbox`.
        param: String,
    },
    /// A parameter was given a value it does not take.
    #[error("{primitive} parameter {param} = {value:?}: expected {expected}")]
    BadParamValue {
        /// The primitive, e.g. `gost89`.
        primitive: &'static str,
        /// The parameter, e.g. `key-meshing`.
        param: &'static str,
        /// The value given.
        value: String,
        /// What it takes, e.g. `on or off`.
        expected: String,
    },
    /// A constructor that takes a parameter was not given it: it was
    /// called other than through its table entry, which fills in the
    /// defaults ([`Primitive::new_mode`](crate::ladder::Primitive::new_mode),
    /// [`new_mac`](crate::ladder::Primitive::new_mac)).
    #[error("parameter {param} was not given: build the primitive through its table entry")]
    ParamMissing {
        /// The parameter, e.g. `sbox`.
        param: &'static str,
    },
    /// A primitive was asked to be built as what it is not (a hash as a
    /// block-cipher mode).
    #[error("{primitive} is not a {kind}")]
    NotOfKind {
        /// The primitive, e.g. `sha256`.
        primitive: &'static str,
        /// What it was asked to be, e.g. `MAC`.
        kind: &'static str,
    },
    /// An S-box set for GOST 28147-89 that is not known or not valid.
    #[error("{what}: expected {expected}")]
    BadSBox {
        /// What was given, and what was wrong with it.
        what: String,
        /// What is accepted.
        expected: String,
    },
    /// An output buffer has no room for what the call writes.
    #[error("output buffer is {got} bytes: {need} are needed")]
    OutputTooShort {
        /// The bytes the call writes.
        need: usize,
        /// The buffer's length.
        got: usize,
    },
}
