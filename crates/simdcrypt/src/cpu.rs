//! CPU feature detection, done once and cached, and the `SIMDCRYPT_MAX_ISA`
//! override that caps what the dispatchers may use.
//!
//! The override makes the fallbacks testable on a CPU that has everything.
//! On x86-64, `SIMDCRYPT_MAX_ISA=scalar` hides every SIMD extension, `sse2`
//! keeps the 128-bit ones (SSE2 … SSE4.2, AES-NI, PCLMULQDQ, SHA-NI), `avx2`
//! adds AVX, AVX2, BMI1, BMI2, VAES, VPCLMULQDQ and GFNI, and `avx512` (the
//! default) adds the AVX-512 family. On aarch64, `scalar` hides NEON too,
//! `neon` keeps Advanced SIMD alone, `crypto` adds the AES, PMULL, SHA-1
//! and SHA-256 instructions, and `sha3` (the default) the SHA-512 and SHA-3
//! ones. QEMU cannot switch the crypto extensions off, so the cap is how
//! the fallbacks run under emulation.
//!
//! The cap chooses rungs. SSE2 and NEON are part of their architectures'
//! baselines, so even under `scalar` the compiler's own code and the `c1`
//! XOR form still use them.

use std::fmt;
use std::sync::OnceLock;

use crate::Error;

/// The environment variable that caps the instruction set the dispatchers use.
pub const MAX_ISA_VAR: &str = "SIMDCRYPT_MAX_ISA";

/// An instruction-set level, the unit of the `SIMDCRYPT_MAX_ISA` cap. Each
/// architecture has its own levels above [`Scalar`](IsaLevel::Scalar)
/// ([`IsaLevel::ALL`] lists this one's); a level of another architecture
/// is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum IsaLevel {
    /// No SIMD at all: portable scalar code only.
    Scalar,
    /// x86-64's 128-bit SIMD: SSE2 to SSE4.2, and the 128-bit AES-NI,
    /// PCLMULQDQ, SHA-NI.
    Sse2,
    /// x86-64's 256-bit SIMD: AVX, AVX2, BMI2, and VAES, VPCLMULQDQ, GFNI.
    Avx2,
    /// x86-64's 512-bit SIMD: the AVX-512 family.
    Avx512,
    /// aarch64's Advanced SIMD (NEON), without the crypto extensions.
    Neon,
    /// aarch64's NEON with the AES, PMULL, SHA-1 and SHA-256 instructions
    /// (FEAT_AES, FEAT_PMULL, FEAT_SHA1, FEAT_SHA256).
    Crypto,
    /// aarch64's crypto extensions with the SHA-512 and SHA-3 instructions
    /// (FEAT_SHA512, FEAT_SHA3).
    Sha3,
}

/// x86-64's levels, lowest first.
const X86_64: &[IsaLevel] = &[
    IsaLevel::Scalar,
    IsaLevel::Sse2,
    IsaLevel::Avx2,
    IsaLevel::Avx512,
];

/// aarch64's levels, lowest first.
const AARCH64: &[IsaLevel] = &[
    IsaLevel::Scalar,
    IsaLevel::Neon,
    IsaLevel::Crypto,
    IsaLevel::Sha3,
];

impl IsaLevel {
    /// Every level of this architecture, lowest first (`scalar` alone off
    /// x86-64 and aarch64).
    pub const ALL: &'static [IsaLevel] = if cfg!(target_arch = "x86_64") {
        X86_64
    } else if cfg!(target_arch = "aarch64") {
        AARCH64
    } else {
        &[IsaLevel::Scalar]
    };

    /// The level's name as `SIMDCRYPT_MAX_ISA` spells it.
    pub fn name(self) -> &'static str {
        match self {
            IsaLevel::Scalar => "scalar",
            IsaLevel::Sse2 => "sse2",
            IsaLevel::Avx2 => "avx2",
            IsaLevel::Avx512 => "avx512",
            IsaLevel::Neon => "neon",
            IsaLevel::Crypto => "crypto",
            IsaLevel::Sha3 => "sha3",
        }
    }

    /// This architecture's highest level: no cap.
    pub fn highest() -> IsaLevel {
        *IsaLevel::ALL.last().expect("scalar at least")
    }

    /// The level's place in its architecture's order, 0 for `scalar`.
    fn rank(self) -> usize {
        [X86_64, AARCH64]
            .iter()
            .find_map(|levels| levels.iter().position(|&l| l == self))
            .expect("every level is in a list")
    }

    /// `Ok(self)` when this architecture has the level.
    fn on_this_arch(self) -> Result<IsaLevel, Error> {
        if IsaLevel::ALL.contains(&self) {
            Ok(self)
        } else {
            Err(IsaLevel::refused(self.name()))
        }
    }

    /// The error for `value`, naming this architecture's levels.
    fn refused(value: &str) -> Error {
        Error::BadIsaCap {
            value: value.to_owned(),
            expected: IsaLevel::ALL
                .iter()
                .map(|l| l.name())
                .collect::<Vec<_>>()
                .join(", "),
        }
    }
}

impl fmt::Display for IsaLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for IsaLevel {
    type Err = Error;

    /// Parses one of this architecture's levels by name (ASCII case
    /// ignored): `scalar`, `sse2`, `avx2` or `avx512` on x86-64, `scalar`,
    /// `neon`, `crypto` or `sha3` on aarch64. Another architecture's level
    /// is refused, as an unknown name is.
    fn from_str(s: &str) -> Result<Self, Error> {
        IsaLevel::ALL
            .iter()
            .copied()
            .find(|level| level.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| IsaLevel::refused(s))
    }
}

/// The CPU features simdcrypt's rungs use; `true` means present (and, for
/// [`features`], allowed by the cap). The x86-64 features are `false` on
/// aarch64, and the reverse.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[allow(missing_docs)] // each field is the feature of its name
pub struct Features {
    pub sse2: bool,
    pub ssse3: bool,
    pub sse41: bool,
    pub sse42: bool,
    pub avx: bool,
    pub avx2: bool,
    pub bmi1: bool,
    pub bmi2: bool,
    pub avx512f: bool,
    pub avx512bw: bool,
    pub avx512vl: bool,
    pub avx512vbmi: bool,
    pub avx512vbmi2: bool,
    pub avx512ifma: bool,
    /// AES-NI on x86-64, FEAT_AES (AESE, AESD, AESMC, AESIMC) on aarch64.
    pub aes: bool,
    pub vaes: bool,
    pub pclmulqdq: bool,
    pub vpclmulqdq: bool,
    pub gfni: bool,
    /// SHA-NI (SHA-1 and SHA-256) on x86-64.
    pub sha: bool,
    /// aarch64's Advanced SIMD.
    pub neon: bool,
    /// aarch64's 64 × 64-bit carry-less multiplication (FEAT_PMULL).
    pub pmull: bool,
    /// aarch64's SHA-1 and SHA-256 instructions (FEAT_SHA1, FEAT_SHA256).
    pub sha2: bool,
    /// aarch64's SHA-512 and SHA-3 instructions (FEAT_SHA512, FEAT_SHA3).
    pub sha3: bool,
}

impl Features {
    /// Asks the CPU (CPUID through `std::is_x86_feature_detected!` on
    /// x86-64, the kernel's hardware capabilities through
    /// `std::arch::is_aarch64_feature_detected!` on aarch64); elsewhere
    /// every flag is `false`.
    pub fn detect() -> Features {
        #[cfg(target_arch = "x86_64")]
        {
            use std::is_x86_feature_detected as has;
            Features {
                sse2: has!("sse2"),
                ssse3: has!("ssse3"),
                sse41: has!("sse4.1"),
                sse42: has!("sse4.2"),
                avx: has!("avx"),
                avx2: has!("avx2"),
                bmi1: has!("bmi1"),
                bmi2: has!("bmi2"),
                avx512f: has!("avx512f"),
                avx512bw: has!("avx512bw"),
                avx512vl: has!("avx512vl"),
                avx512vbmi: has!("avx512vbmi"),
                avx512vbmi2: has!("avx512vbmi2"),
                avx512ifma: has!("avx512ifma"),
                aes: has!("aes"),
                vaes: has!("vaes"),
                pclmulqdq: has!("pclmulqdq"),
                vpclmulqdq: has!("vpclmulqdq"),
                gfni: has!("gfni"),
                sha: has!("sha"),
                ..Features::default()
            }
        }
        #[cfg(target_arch = "aarch64")]
        {
            use std::arch::is_aarch64_feature_detected as has;
            Features {
                neon: has!("neon"),
                aes: has!("aes"),
                pmull: has!("pmull"),
                sha2: has!("sha2"),
                sha3: has!("sha3"),
                ..Features::default()
            }
        }
        #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
        {
            Features::default()
        }
    }

    /// These features less everything above `level` (nothing but scalar
    /// code under another architecture's level).
    pub fn capped(self, level: IsaLevel) -> Features {
        let Ok(level) = level.on_this_arch() else {
            return Features::default();
        };
        let rank = level.rank();
        let mut f = self;
        if rank < 3 {
            f.avx512f = false;
            f.avx512bw = false;
            f.avx512vl = false;
            f.avx512vbmi = false;
            f.avx512vbmi2 = false;
            f.avx512ifma = false;
            f.sha3 = false;
        }
        if rank < 2 {
            f.avx = false;
            f.avx2 = false;
            f.bmi1 = false;
            f.bmi2 = false;
            f.vaes = false;
            f.vpclmulqdq = false;
            f.gfni = false;
            f.pmull = false;
            f.sha2 = false;
            if cfg!(target_arch = "aarch64") {
                f.aes = false;
            }
        }
        if rank < 1 {
            f = Features::default();
        }
        f
    }

    /// Each of this architecture's features by its conventional name,
    /// beside its flag, in a fixed order.
    pub fn list(&self) -> Vec<(&'static str, bool)> {
        if cfg!(target_arch = "aarch64") {
            return vec![
                ("neon", self.neon),
                ("aes", self.aes),
                ("pmull", self.pmull),
                ("sha2", self.sha2),
                ("sha3", self.sha3),
            ];
        }
        vec![
            ("sse2", self.sse2),
            ("ssse3", self.ssse3),
            ("sse4.1", self.sse41),
            ("sse4.2", self.sse42),
            ("avx", self.avx),
            ("avx2", self.avx2),
            ("bmi1", self.bmi1),
            ("bmi2", self.bmi2),
            ("avx512f", self.avx512f),
            ("avx512bw", self.avx512bw),
            ("avx512vl", self.avx512vl),
            ("avx512vbmi", self.avx512vbmi),
            ("avx512vbmi2", self.avx512vbmi2),
            ("avx512ifma", self.avx512ifma),
            ("aes", self.aes),
            ("vaes", self.vaes),
            ("pclmulqdq", self.pclmulqdq),
            ("vpclmulqdq", self.vpclmulqdq),
            ("gfni", self.gfni),
            ("sha", self.sha),
        ]
    }
}

/// The features the CPU has, detected once.
pub fn detected() -> Features {
    static DETECTED: OnceLock<Features> = OnceLock::new();
    *DETECTED.get_or_init(Features::detect)
}

/// Whether a chain of dependent vector steps (`vpaddd`, `vprold`,
/// `vpxor`, each waiting on the last) runs at half the speed of the same
/// chain in general-purpose registers: on AMD's Zen 5 (family 1Ah) each of
/// those takes 2 cycles against 1 for `add`, `rol` and `xor` (measured:
/// bench/NOTES.md, `stream-short` and `scrypt-zen5`), where on Zen 4 and
/// Intel's cores they take 1. Code that is one such chain — a single lane
/// of scrypt's ROMix — then runs faster as scalar code. Read from CPUID
/// once; false off x86-64 and on every other CPU.
pub(crate) fn slow_vector_chains() -> bool {
    static SLOW: OnceLock<bool> = OnceLock::new();
    *SLOW.get_or_init(|| {
        #[cfg(target_arch = "x86_64")]
        {
            use core::arch::x86_64::__cpuid;
            // Leaf 0: the vendor string in EBX, EDX, ECX; leaf 1: the
            // family in EAX, base (bits 8–11) plus extended (bits 20–27)
            // when the base is 0Fh.
            let vendor = __cpuid(0);
            let amd = (vendor.ebx, vendor.edx, vendor.ecx)
                == (
                    u32::from_le_bytes(*b"Auth"),
                    u32::from_le_bytes(*b"enti"),
                    u32::from_le_bytes(*b"cAMD"),
                );
            let eax = __cpuid(1).eax;
            let base = (eax >> 8) & 0xf;
            let family = if base == 0xf {
                base + ((eax >> 20) & 0xff)
            } else {
                base
            };
            amd && family == 0x1a
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            false
        }
    })
}

/// The cap set by `SIMDCRYPT_MAX_ISA`, read once: `Ok(None)` when unset or
/// empty.
///
/// # Errors
///
/// [`Error::BadIsaCap`] when the variable holds anything but one of this
/// architecture's levels ([`IsaLevel::ALL`]). The dispatchers then use scalar code only, the
/// safe reading of a cap nobody can parse; the CLI reports the error.
pub fn max_isa() -> Result<Option<IsaLevel>, Error> {
    static CAP: OnceLock<Result<Option<IsaLevel>, Error>> = OnceLock::new();
    CAP.get_or_init(|| match std::env::var(MAX_ISA_VAR) {
        Ok(v) if v.trim().is_empty() => Ok(None),
        Ok(v) => v.parse().map(Some),
        Err(std::env::VarError::NotPresent) => Ok(None),
        Err(std::env::VarError::NotUnicode(v)) => Err(IsaLevel::refused(&v.to_string_lossy())),
    })
    .clone()
}

/// The features the dispatchers use, fixed at their first use.
static ALLOWED: OnceLock<Features> = OnceLock::new();

/// The cap a program set with [`set_max_isa`].
static CODE_CAP: OnceLock<IsaLevel> = OnceLock::new();

/// The features the dispatchers may use: [`detected`] under the
/// `SIMDCRYPT_MAX_ISA` cap (see [`max_isa`]) and the cap a program set
/// (see [`set_max_isa`]), the lower of the two.
///
/// ```
/// use simdcrypt::cpu;
///
/// let (used, present) = (cpu::features(), cpu::detected());
/// println!("AVX2: present {}, used {}", present.avx2, used.avx2);
/// // The cap only takes away.
/// assert!(used.list().iter().zip(present.list()).all(|(u, p)| !u.1 || p.1));
/// ```
pub fn features() -> Features {
    *ALLOWED.get_or_init(|| {
        let env = max_isa().unwrap_or(Some(IsaLevel::Scalar));
        let cap = [env, CODE_CAP.get().copied()]
            .into_iter()
            .flatten()
            .min()
            .unwrap_or_else(IsaLevel::highest);
        detected().capped(cap)
    })
}

/// Caps the instruction sets the dispatchers use, as `SIMDCRYPT_MAX_ISA`
/// does (the lower of the two caps holds): for a program that must run
/// its scalar (or AVX2, or NEON) code whatever the CPU and environment. Call it once,
/// before any primitive runs: the rungs are chosen at their first use.
///
/// ```
/// use simdcrypt::chacha20::ChaCha20;
/// use simdcrypt::cpu::{self, IsaLevel};
///
/// // First thing in `main`, before any primitive runs.
/// cpu::set_max_isa(IsaLevel::Scalar)?;
/// if let Some(error) = cpu::cap_error() {
///     eprintln!("warning: {error}"); // SIMDCRYPT_MAX_ISA is malformed
/// }
///
/// assert_eq!(cpu::features(), cpu::Features::default());
/// let cipher = ChaCha20::new(&[0x42; 32], &[0; 12]);
/// assert_eq!(cipher.rung().needs(), "nothing");
/// // The rungs are chosen now: the cap can no longer change.
/// assert!(cpu::set_max_isa(IsaLevel::Scalar).is_err());
/// # Ok::<(), simdcrypt::Error>(())
/// ```
///
/// # Errors
///
/// [`Error::BadIsaCap`] for another architecture's level;
/// [`Error::CapTooLate`] when the rungs were chosen already or a cap was
/// set before.
pub fn set_max_isa(level: IsaLevel) -> Result<(), Error> {
    level.on_this_arch()?;
    if ALLOWED.get().is_some() || CODE_CAP.set(level).is_err() {
        return Err(Error::CapTooLate);
    }
    Ok(())
}

/// Why `SIMDCRYPT_MAX_ISA` could not be read, if it could not: the
/// dispatchers then use scalar code only, the safe reading of a cap nobody
/// can parse. A program embedding the library may report it once, as the
/// tool does.
pub fn cap_error() -> Option<Error> {
    max_isa().err()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cap_removes_everything_above_the_level() {
        let all = Features {
            sse2: true,
            ssse3: true,
            avx2: true,
            avx512f: true,
            sha: true,
            vaes: true,
            neon: true,
            aes: true,
            pmull: true,
            sha2: true,
            sha3: true,
            ..Features::default()
        };
        assert_eq!(all.capped(IsaLevel::highest()), all);
        assert_eq!(all.capped(IsaLevel::Scalar), Features::default());
        if cfg!(target_arch = "x86_64") {
            let avx2 = all.capped(IsaLevel::Avx2);
            assert!(avx2.avx2 && avx2.vaes && !avx2.avx512f);
            let sse2 = all.capped(IsaLevel::Sse2);
            assert!(sse2.sse2 && sse2.ssse3 && sse2.sha && sse2.aes && !sse2.avx2 && !sse2.vaes);
            assert_eq!(all.capped(IsaLevel::Crypto), Features::default());
        }
        if cfg!(target_arch = "aarch64") {
            let crypto = all.capped(IsaLevel::Crypto);
            assert!(crypto.neon && crypto.aes && crypto.pmull && crypto.sha2 && !crypto.sha3);
            let neon = all.capped(IsaLevel::Neon);
            assert!(neon.neon && !neon.aes && !neon.pmull && !neon.sha2);
            assert_eq!(all.capped(IsaLevel::Avx2), Features::default());
        }
    }

    #[test]
    fn levels_parse_by_name_on_their_architecture_only() {
        for &level in IsaLevel::ALL {
            assert_eq!(level.name().parse::<IsaLevel>().unwrap(), level);
        }
        assert_eq!(IsaLevel::ALL[0], IsaLevel::Scalar);
        let expected = IsaLevel::ALL
            .iter()
            .map(|l| l.name())
            .collect::<Vec<_>>()
            .join(", ");
        let err = "avx3".parse::<IsaLevel>().unwrap_err().to_string();
        assert!(err.contains("avx3") && err.contains(&expected), "{err}");
        let foreign = if cfg!(target_arch = "aarch64") {
            "AVX2"
        } else {
            "neon"
        };
        let err = foreign.parse::<IsaLevel>().unwrap_err().to_string();
        assert!(err.contains(foreign) && err.contains(&expected), "{err}");
        if cfg!(target_arch = "x86_64") {
            assert_eq!("AVX2".parse::<IsaLevel>().unwrap(), IsaLevel::Avx2);
            assert_eq!(expected, "scalar, sse2, avx2, avx512");
        }
        if cfg!(target_arch = "aarch64") {
            assert_eq!("Crypto".parse::<IsaLevel>().unwrap(), IsaLevel::Crypto);
            assert_eq!(expected, "scalar, neon, crypto, sha3");
        }
    }
}
