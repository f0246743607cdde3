//! The stream ciphers the commands run, behind one type: Salsa20/20, /12,
//! /8 and XSalsa20.

use simdcrypt::salsa20::{self, Impl, Salsa20, Salsa20_8, Salsa20_12, XSalsa20};
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
}

/// The names, for messages.
pub const NAMES: &str = "salsa20, salsa20/12, salsa20/8, xsalsa20";

impl Algo {
    /// Every cipher.
    pub const ALL: [Algo; 4] = [
        Algo::Salsa20,
        Algo::Salsa20_12,
        Algo::Salsa20_8,
        Algo::XSalsa20,
    ];

    /// The command-line name.
    pub fn name(self) -> &'static str {
        match self {
            Algo::Salsa20 => "salsa20",
            Algo::Salsa20_12 => "salsa20/12",
            Algo::Salsa20_8 => "salsa20/8",
            Algo::XSalsa20 => "xsalsa20",
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

    /// Double-rounds of the core: 10, 6 or 4.
    pub fn double_rounds(self) -> usize {
        match self {
            Algo::Salsa20 | Algo::XSalsa20 => 10,
            Algo::Salsa20_12 => 6,
            Algo::Salsa20_8 => 4,
        }
    }

    /// Nonce length in bytes.
    pub fn nonce_len(self) -> usize {
        match self {
            Algo::XSalsa20 => salsa20::XNONCE_LEN,
            _ => salsa20::NONCE_LEN,
        }
    }

    /// Whether the 128-bit key form exists.
    pub fn has_128_bit_keys(self) -> bool {
        self != Algo::XSalsa20
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
}

/// Runs `$body` with `$c` bound to the cipher inside, whatever its type.
macro_rules! each {
    ($self:expr, $c:ident => $body:expr) => {
        match $self {
            Cipher::S20($c) => $body,
            Cipher::S12($c) => $body,
            Cipher::S8($c) => $body,
            Cipher::X($c) => $body,
        }
    };
}

impl Cipher {
    /// `algo` keyed with `key` and `nonce`, on the fastest rung, at byte 0.
    ///
    /// # Errors
    ///
    /// When the nonce has the wrong length or a 128-bit key is given to
    /// XSalsa20 (the CLI checks both before).
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
        macro_rules! salsa {
            ($t:ty, $v:ident) => {{
                let n: &[u8; salsa20::NONCE_LEN] = nonce.try_into().map_err(|_| nonce_err())?;
                Cipher::$v(match key {
                    Key::K256(k) => <$t>::new(k, n),
                    Key::K128(k) => <$t>::new_128(k, n),
                })
            }};
        }
        Ok(match algo {
            Algo::Salsa20 => salsa!(Salsa20, S20),
            Algo::Salsa20_12 => salsa!(Salsa20_12, S12),
            Algo::Salsa20_8 => salsa!(Salsa20_8, S8),
            Algo::XSalsa20 => {
                let n: &[u8; salsa20::XNONCE_LEN] = nonce.try_into().map_err(|_| nonce_err())?;
                match key {
                    Key::K256(k) => Cipher::X(XSalsa20::new(k, n)),
                    Key::K128(_) => {
                        return Err(CliError::bad_arg(
                            "--key",
                            "xsalsa20 needs a 256-bit key (64 hex digits)",
                        ));
                    }
                }
            }
        })
    }

    /// The same cipher on rung `imp`.
    ///
    /// # Errors
    ///
    /// [`Error::ImplUnavailable`] when the CPU lacks the rung.
    pub fn with_impl(self, imp: Impl) -> Result<Cipher, Error> {
        Ok(match self {
            Cipher::S20(c) => Cipher::S20(c.with_impl(imp)?),
            Cipher::S12(c) => Cipher::S12(c.with_impl(imp)?),
            Cipher::S8(c) => Cipher::S8(c.with_impl(imp)?),
            Cipher::X(c) => Cipher::X(c.with_impl(imp)?),
        })
    }

    /// The same cipher with XOR form `xor`.
    pub fn with_xor(self, xor: Xor) -> Cipher {
        match self {
            Cipher::S20(c) => Cipher::S20(c.with_xor(xor)),
            Cipher::S12(c) => Cipher::S12(c.with_xor(xor)),
            Cipher::S8(c) => Cipher::S8(c.with_xor(xor)),
            Cipher::X(c) => Cipher::X(c.with_xor(xor)),
        }
    }

    /// Moves to keystream byte `offset`.
    ///
    /// # Errors
    ///
    /// [`Error::KeystreamExhausted`] beyond 2^70.
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
