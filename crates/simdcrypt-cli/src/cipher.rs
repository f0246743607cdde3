//! The stream ciphers the commands run, behind one type: Salsa20/20, /12,
//! /8, XSalsa20, ChaCha20 (RFC 8439), ChaCha20 in its original form, and
//! XChaCha20; and their rungs, by family.

use simdcrypt::chacha20::{self, ChaCha20, ChaCha20Legacy, XChaCha20};
use simdcrypt::salsa20::{self, Salsa20, Salsa20_8, Salsa20_12, XSalsa20};
use simdcrypt::{Error, Xor};

use crate::error::CliError;
use crate::key::Key;

/// A cipher by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algo {
    /// Salsa20/20.
    Salsa20,
    /// Salsa20/12.
    Salsa20_12,
    /// Salsa20/8.
    Salsa20_8,
    /// XSalsa20 (Salsa20/20 with a 192-bit nonce).
    XSalsa20,
    /// ChaCha20 of RFC 8439 (96-bit nonce, 32-bit counter).
    ChaCha20,
    /// ChaCha20 as first published (64-bit nonce, 64-bit counter).
    ChaCha20Legacy,
    /// XChaCha20 (192-bit nonce).
    XChaCha20,
}

/// The names, for messages.
pub const NAMES: &str =
    "salsa20, salsa20/12, salsa20/8, xsalsa20, chacha20, chacha20-legacy, xchacha20";

/// The two families of ciphers, each with its own ladder of rungs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// Salsa20, its reduced-round forms and XSalsa20.
    Salsa20,
    /// ChaCha20 in its three forms.
    ChaCha20,
}

impl Algo {
    /// Every cipher.
    pub const ALL: [Algo; 7] = [
        Algo::Salsa20,
        Algo::Salsa20_12,
        Algo::Salsa20_8,
        Algo::XSalsa20,
        Algo::ChaCha20,
        Algo::ChaCha20Legacy,
        Algo::XChaCha20,
    ];

    /// The command-line name.
    pub fn name(self) -> &'static str {
        match self {
            Algo::Salsa20 => "salsa20",
            Algo::Salsa20_12 => "salsa20/12",
            Algo::Salsa20_8 => "salsa20/8",
            Algo::XSalsa20 => "xsalsa20",
            Algo::ChaCha20 => "chacha20",
            Algo::ChaCha20Legacy => "chacha20-legacy",
            Algo::XChaCha20 => "xchacha20",
        }
    }

    /// Looks a cipher up by name, for option `flag`.
    ///
    /// # Errors
    ///
    /// [`CliError::UnknownCipher`], listing the names.
    pub fn from_name(flag: &'static str, name: &str) -> Result<Algo, CliError> {
        Algo::ALL
            .into_iter()
            .find(|a| a.name() == name)
            .ok_or_else(|| CliError::UnknownCipher {
                flag,
                name: name.to_owned(),
                expected: NAMES,
            })
    }

    /// The family whose rungs run this cipher.
    pub fn family(self) -> Family {
        match self {
            Algo::Salsa20 | Algo::Salsa20_12 | Algo::Salsa20_8 | Algo::XSalsa20 => Family::Salsa20,
            Algo::ChaCha20 | Algo::ChaCha20Legacy | Algo::XChaCha20 => Family::ChaCha20,
        }
    }

    /// Double-rounds of the core: 10, 6 or 4.
    pub fn double_rounds(self) -> usize {
        match self {
            Algo::Salsa20_12 => 6,
            Algo::Salsa20_8 => 4,
            _ => 10,
        }
    }

    /// Nonce length in bytes.
    pub fn nonce_len(self) -> usize {
        match self {
            Algo::XSalsa20 => salsa20::XNONCE_LEN,
            Algo::Salsa20 | Algo::Salsa20_12 | Algo::Salsa20_8 => salsa20::NONCE_LEN,
            Algo::ChaCha20 => chacha20::NONCE_LEN,
            Algo::ChaCha20Legacy => chacha20::LEGACY_NONCE_LEN,
            Algo::XChaCha20 => chacha20::XNONCE_LEN,
        }
    }

    /// Whether the 128-bit key form exists (Salsa20's "expand 16-byte k").
    pub fn has_128_bit_keys(self) -> bool {
        matches!(self, Algo::Salsa20 | Algo::Salsa20_12 | Algo::Salsa20_8)
    }
}

/// A rung of one family's ladder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rung {
    /// A Salsa20 rung.
    Salsa20(salsa20::Impl),
    /// A ChaCha20 rung.
    ChaCha20(chacha20::Impl),
}

/// Forwards a method to the `Impl` inside a [`Rung`].
macro_rules! each_rung {
    ($self:expr, $i:ident => $body:expr) => {
        match $self {
            Rung::Salsa20($i) => $body,
            Rung::ChaCha20($i) => $body,
        }
    };
}

impl Rung {
    /// The rung's command-line name.
    pub fn name(self) -> &'static str {
        each_rung!(self, i => i.name())
    }

    /// What the rung needs from the CPU.
    pub fn needs(self) -> &'static str {
        each_rung!(self, i => i.needs())
    }

    /// Whether this CPU, under the cap, runs it.
    pub fn is_available(self) -> bool {
        each_rung!(self, i => i.is_available())
    }

    /// Blocks computed at once.
    pub fn par_blocks(self) -> usize {
        each_rung!(self, i => i.par_blocks())
    }
}

impl Family {
    /// Every rung of the family, slowest first.
    pub fn rungs(self) -> Vec<Rung> {
        match self {
            Family::Salsa20 => salsa20::Impl::ALL
                .iter()
                .map(|&i| Rung::Salsa20(i))
                .collect(),
            Family::ChaCha20 => chacha20::Impl::ALL
                .iter()
                .map(|&i| Rung::ChaCha20(i))
                .collect(),
        }
    }
}

/// A keyed cipher at a keystream position.
#[derive(Debug)]
pub enum Cipher {
    /// Salsa20/20.
    S20(Salsa20),
    /// Salsa20/12.
    S12(Salsa20_12),
    /// Salsa20/8.
    S8(Salsa20_8),
    /// XSalsa20.
    X(XSalsa20),
    /// ChaCha20 (RFC 8439).
    C20(ChaCha20),
    /// ChaCha20, original form.
    C20L(ChaCha20Legacy),
    /// XChaCha20.
    XC20(XChaCha20),
}

/// Runs `$body` with `$c` bound to the cipher inside, whatever its type.
macro_rules! each {
    ($self:expr, $c:ident => $body:expr) => {
        match $self {
            Cipher::S20($c) => $body,
            Cipher::S12($c) => $body,
            Cipher::S8($c) => $body,
            Cipher::X($c) => $body,
            Cipher::C20($c) => $body,
            Cipher::C20L($c) => $body,
            Cipher::XC20($c) => $body,
        }
    };
}

/// Replaces the cipher inside `$self` by `$body`, keeping its variant.
macro_rules! rewrap {
    ($self:expr, $c:ident => $body:expr) => {
        match $self {
            Cipher::S20($c) => Cipher::S20($body),
            Cipher::S12($c) => Cipher::S12($body),
            Cipher::S8($c) => Cipher::S8($body),
            Cipher::X($c) => Cipher::X($body),
            Cipher::C20($c) => Cipher::C20($body),
            Cipher::C20L($c) => Cipher::C20L($body),
            Cipher::XC20($c) => Cipher::XC20($body),
        }
    };
}

impl Cipher {
    /// `algo` keyed with `key` and `nonce`, on the fastest rung, at byte 0.
    ///
    /// # Errors
    ///
    /// When the nonce has the wrong length or a 128-bit key is given to a
    /// cipher without that form (the CLI checks both before).
    pub fn new(algo: Algo, key: &Key, nonce: &[u8]) -> Result<Cipher, CliError> {
        let nonce_err = || {
            CliError::bad_arg(
                "--nonce",
                format!(
                    "{} bytes: expected {} for {}",
                    nonce.len(),
                    algo.nonce_len(),
                    algo.name()
                ),
            )
        };
        let k256 = || match key {
            Key::K256(k) => Ok(k),
            Key::K128(_) => Err(CliError::bad_arg(
                "--key",
                format!("{} needs a 256-bit key (64 hex digits)", algo.name()),
            )),
        };
        macro_rules! salsa {
            ($t:ty, $v:ident) => {{
                let n = nonce.try_into().map_err(|_| nonce_err())?;
                Cipher::$v(match key {
                    Key::K256(k) => <$t>::new(k, n),
                    Key::K128(k) => <$t>::new_128(k, n),
                })
            }};
        }
        macro_rules! key256 {
            ($t:ty, $v:ident) => {
                Cipher::$v(<$t>::new(
                    k256()?,
                    nonce.try_into().map_err(|_| nonce_err())?,
                ))
            };
        }
        Ok(match algo {
            Algo::Salsa20 => salsa!(Salsa20, S20),
            Algo::Salsa20_12 => salsa!(Salsa20_12, S12),
            Algo::Salsa20_8 => salsa!(Salsa20_8, S8),
            Algo::XSalsa20 => key256!(XSalsa20, X),
            Algo::ChaCha20 => key256!(ChaCha20, C20),
            Algo::ChaCha20Legacy => key256!(ChaCha20Legacy, C20L),
            Algo::XChaCha20 => key256!(XChaCha20, XC20),
        })
    }

    /// The same cipher on the rung of its family named `name`.
    ///
    /// # Errors
    ///
    /// [`Error::UnknownImpl`] when the family has no such rung,
    /// [`Error::ImplUnavailable`] when the CPU lacks it.
    pub fn with_impl(self, name: &str) -> Result<Cipher, Error> {
        Ok(rewrap!(self, c => c.with_impl(name.parse()?)?))
    }

    /// The same cipher with XOR form `xor`.
    pub fn with_xor(self, xor: Xor) -> Cipher {
        rewrap!(self, c => c.with_xor(xor))
    }

    /// Moves to keystream byte `offset`.
    ///
    /// # Errors
    ///
    /// [`Error::KeystreamExhausted`] beyond the end of the keystream.
    pub fn seek(&mut self, offset: u128) -> Result<(), Error> {
        each!(self, c => c.seek(offset))
    }

    /// XORs keystream into `data`, resuming where the last call stopped.
    ///
    /// # Errors
    ///
    /// [`Error::KeystreamExhausted`] past the last block.
    #[inline]
    pub fn apply_keystream(&mut self, data: &mut [u8]) -> Result<(), Error> {
        each!(self, c => c.apply_keystream(data))
    }
}
