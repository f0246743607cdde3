//! The `Rung` enum every primitive declares: its rungs, their command-line
//! names, what each needs from the CPU, and choosing one by name; and the
//! [`Rung`] trait they all implement, for code generic over primitives.

use std::fmt;

/// What every primitive's `Rung` enum offers (each is declared by one
/// macro, so the inherent methods of the same names agree): for code
/// generic over the primitives, such as the tool's `verify` and the tests.
pub trait RungSet: Copy + Eq + fmt::Debug + fmt::Display + 'static {
    /// The primitive these rungs implement, as the CLI names it.
    const PRIMITIVE: &'static str;
    /// Every rung, slowest (the reference) first.
    fn all() -> &'static [Self];
    /// The rung's stable command-line name.
    fn name(self) -> &'static str;
    /// The CPU features the rung needs, for messages.
    fn needs(self) -> &'static str;
    /// Whether this CPU, under the `SIMDCRYPT_MAX_ISA` cap, runs the rung.
    fn is_available(self) -> bool;
    /// Whether the rung's time and memory accesses are independent of
    /// secret data; a rung that is not can be chosen only with the
    /// `hazmat` feature.
    fn is_constant_time(self) -> bool;
}

/// Declares a primitive's `Rung` enum, listing its rungs slowest first.
///
/// Each rung has a stable lower-case `name` (used on the command line), a
/// human-readable statement of the CPU features it `needs`, and a predicate
/// over [`crate::cpu::Features`] (`available`) that says whether this CPU,
/// under the `SIMDCRYPT_MAX_ISA` cap, can run it. A rung written for one
/// architecture (`arch = "x86_64"`, `arch = "aarch64"`) is never available
/// on another, whatever the predicate says; a portable one says `arch = any`.
macro_rules! rungs {
    (
        primitive = $primitive:literal;
        $(#[$meta:meta])*
        pub enum Rung {
            $(
                $(#[$vmeta:meta])*
                $Variant:ident = $name:literal, needs $needs:literal,
                    if |$f:ident| $available:expr, arch = $arch:tt
                    $(, constant_time = $ct:literal)?;
            )+
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum Rung {
            $( $(#[$vmeta])* $Variant, )+
        }

        /// Renamed [`Rung`].
        #[deprecated(note = "renamed `Rung`")]
        pub type Impl = Rung;

        impl Rung {
            /// Every rung, slowest (the reference) first.
            pub const ALL: &'static [Rung] = &[ $( Rung::$Variant, )+ ];

            /// The primitive these rungs implement, as the CLI names it.
            pub const PRIMITIVE: &'static str = $primitive;

            /// The rung's stable command-line name.
            pub fn name(self) -> &'static str {
                match self { $( Rung::$Variant => $name, )+ }
            }

            /// The CPU features the rung needs, for messages and `info`.
            pub fn needs(self) -> &'static str {
                match self { $( Rung::$Variant => $needs, )+ }
            }

            /// Whether this CPU, under the `SIMDCRYPT_MAX_ISA` cap, runs the rung.
            pub fn is_available(self) -> bool {
                let features = $crate::cpu::features();
                match self {
                    $( Rung::$Variant => {
                        let predicate = |$f: $crate::cpu::Features| $available;
                        $crate::rung::on_arch!($arch) && predicate(features)
                    } )+
                }
            }

            /// Whether the rung's time and memory accesses are independent
            /// of secret data. One that is not (a table lookup by a secret
            /// index, a branch on a secret) is refused by
            /// [`require`](Self::require) unless the `hazmat` feature is on.
            pub fn is_constant_time(self) -> bool {
                match self { $( Rung::$Variant => true $(&& $ct)?, )+ }
            }

            /// The rungs this CPU can run, slowest first.
            pub fn available() -> impl Iterator<Item = Rung> {
                Rung::ALL.iter().copied().filter(|i| i.is_available())
            }

            /// Looks a rung up by its command-line name.
            ///
            /// # Errors
            ///
            /// [`Error::UnknownRung`](crate::Error::UnknownRung) when no rung has that name.
            pub fn from_name(name: &str) -> Result<Rung, $crate::Error> {
                Rung::ALL
                    .iter()
                    .copied()
                    .find(|i| i.name() == name)
                    .ok_or_else(|| $crate::Error::UnknownRung {
                        primitive: $primitive,
                        name: name.to_owned(),
                        expected: Rung::ALL.iter().map(|i| i.name()).collect::<Vec<_>>().join(", "),
                    })
            }

            /// `Ok(self)` when the CPU runs this rung and it may be chosen.
            ///
            /// # Errors
            ///
            /// [`Error::VariableTimeRung`](crate::Error::VariableTimeRung)
            /// for a rung that is not constant-time, without the `hazmat`
            /// feature; [`Error::RungUnavailable`](crate::Error::RungUnavailable)
            /// when the CPU lacks it.
            pub fn require(self) -> Result<Rung, $crate::Error> {
                if !self.is_constant_time() && !cfg!(feature = "hazmat") {
                    Err($crate::Error::VariableTimeRung {
                        primitive: $primitive,
                        name: self.name(),
                    })
                } else if self.is_available() {
                    Ok(self)
                } else {
                    Err($crate::Error::RungUnavailable {
                        primitive: $primitive,
                        name: self.name(),
                        needs: self.needs(),
                    })
                }
            }
        }

        impl ::std::fmt::Display for Rung {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.name())
            }
        }

        impl $crate::RungSet for Rung {
            const PRIMITIVE: &'static str = $primitive;
            fn all() -> &'static [Rung] {
                Rung::ALL
            }
            fn name(self) -> &'static str {
                Rung::name(self)
            }
            fn needs(self) -> &'static str {
                Rung::needs(self)
            }
            fn is_available(self) -> bool {
                Rung::is_available(self)
            }
            fn is_constant_time(self) -> bool {
                Rung::is_constant_time(self)
            }
        }

        impl ::std::str::FromStr for Rung {
            type Err = $crate::Error;
            fn from_str(s: &str) -> Result<Rung, $crate::Error> {
                Rung::from_name(s)
            }
        }
    };
}

/// Whether the code is built for the rung's architecture: `any`, or a
/// `target_arch` value.
macro_rules! on_arch {
    (any) => {
        true
    };
    ($arch:literal) => {
        cfg!(target_arch = $arch)
    };
}

pub(crate) use {on_arch, rungs};
