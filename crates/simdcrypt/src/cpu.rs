//! CPU feature detection, done once and cached, and the `SIMDCRYPT_MAX_ISA`
//! override that caps what the dispatchers may use.
//!
//! The override makes the fallbacks testable on a CPU that has everything:
//! `SIMDCRYPT_MAX_ISA=scalar` hides every SIMD extension, `sse2` keeps the
//! 128-bit ones (SSE2 … SSE4.2, AES-NI, PCLMULQDQ, SHA-NI), `avx2` adds AVX,
//! AVX2, BMI1, BMI2, VAES, VPCLMULQDQ and GFNI, and `avx512` (the default) adds the
//! AVX-512 family.
//!
//! The cap chooses rungs. SSE2 is part of the x86-64 baseline, so even under
//! `scalar` the compiler's own code and the `c1` XOR form still use it.

use std::fmt;
use std::sync::OnceLock;

use crate::Error;

/// The environment variable that caps the instruction set the dispatchers use.
pub const MAX_ISA_VAR: &str = "SIMDCRYPT_MAX_ISA";

/// An instruction-set level, the unit of the `SIMDCRYPT_MAX_ISA` cap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum IsaLevel {
    /// No SIMD at all: portable scalar code only.
    Scalar,
    /// 128-bit SIMD: SSE2 to SSE4.2, and the 128-bit AES-NI, PCLMULQDQ, SHA-NI.
    Sse2,
    /// 256-bit SIMD: AVX, AVX2, BMI2, and VAES, VPCLMULQDQ, GFNI.
    Avx2,
    /// 512-bit SIMD: the AVX-512 family.
    Avx512,
}

impl IsaLevel {
    /// Every level, lowest first.
    pub const ALL: [IsaLevel; 4] = [
        IsaLevel::Scalar,
        IsaLevel::Sse2,
        IsaLevel::Avx2,
        IsaLevel::Avx512,
    ];

    /// The level's name as `SIMDCRYPT_MAX_ISA` spells it.
    pub fn name(self) -> &'static str {
        match self {
            IsaLevel::Scalar => "scalar",
            IsaLevel::Sse2 => "sse2",
            IsaLevel::Avx2 => "avx2",
            IsaLevel::Avx512 => "avx512",
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

    /// Parses `scalar`, `sse2`, `avx2` or `avx512` (ASCII case ignored).
    fn from_str(s: &str) -> Result<Self, Error> {
        IsaLevel::ALL
            .into_iter()
            .find(|level| level.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| Error::BadIsaCap {
                value: s.to_owned(),
            })
    }
}

/// The CPU features simdcrypt's rungs use; `true` means present (and, for
/// [`features`], allowed by the cap).
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
    pub aes: bool,
    pub vaes: bool,
    pub pclmulqdq: bool,
    pub vpclmulqdq: bool,
    pub gfni: bool,
    pub sha: bool,
}

impl Features {
    /// Asks the CPU (CPUID, through `std::is_x86_feature_detected!`); on other
    /// architectures every flag is `false`.
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
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            Features::default()
        }
    }

    /// These features less everything above `level`.
    pub fn capped(self, level: IsaLevel) -> Features {
        let mut f = self;
        if level < IsaLevel::Avx512 {
            f.avx512f = false;
            f.avx512bw = false;
            f.avx512vl = false;
            f.avx512vbmi = false;
            f.avx512vbmi2 = false;
            f.avx512ifma = false;
        }
        if level < IsaLevel::Avx2 {
            f.avx = false;
            f.avx2 = false;
            f.bmi1 = false;
            f.bmi2 = false;
            f.vaes = false;
            f.vpclmulqdq = false;
            f.gfni = false;
        }
        if level < IsaLevel::Sse2 {
            f = Features::default();
        }
        f
    }

    /// Each feature's conventional name beside its flag, in a fixed order.
    pub fn list(&self) -> [(&'static str, bool); 20] {
        [
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
/// [`Error::BadIsaCap`] when the variable holds anything but `scalar`,
/// `sse2`, `avx2` or `avx512`. The dispatchers then use scalar code only, the
/// safe reading of a cap nobody can parse; the CLI reports the error.
pub fn max_isa() -> Result<Option<IsaLevel>, Error> {
    static CAP: OnceLock<Result<Option<IsaLevel>, Error>> = OnceLock::new();
    CAP.get_or_init(|| match std::env::var(MAX_ISA_VAR) {
        Ok(v) if v.trim().is_empty() => Ok(None),
        Ok(v) => v.parse().map(Some),
        Err(std::env::VarError::NotPresent) => Ok(None),
        Err(std::env::VarError::NotUnicode(v)) => Err(Error::BadIsaCap {
            value: v.to_string_lossy().into_owned(),
        }),
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
            .unwrap_or(IsaLevel::Avx512);
        detected().capped(cap)
    })
}

/// Caps the instruction sets the dispatchers use, as `SIMDCRYPT_MAX_ISA`
/// does (the lower of the two caps holds): for a program that must run
/// its scalar or AVX2 code whatever the CPU and environment. Call it once,
/// before any primitive runs: the rungs are chosen at their first use.
///
/// ```
/// use simdcrypt::chacha20::{ChaCha20, Rung};
/// use simdcrypt::cpu::{self, IsaLevel};
///
/// // First thing in `main`, before any primitive runs.
/// cpu::set_max_isa(IsaLevel::Avx2)?;
/// if let Some(error) = cpu::cap_error() {
///     eprintln!("warning: {error}"); // SIMDCRYPT_MAX_ISA is malformed
/// }
///
/// assert!(!cpu::features().avx512f);
/// let cipher = ChaCha20::new(&[0x42; 32], &[0; 12]);
/// assert!(![Rung::Avx512, Rung::Avx512vl].contains(&cipher.rung()));
/// // The rungs are chosen now: the cap can no longer change.
/// assert!(cpu::set_max_isa(IsaLevel::Scalar).is_err());
/// # Ok::<(), simdcrypt::Error>(())
/// ```
///
/// # Errors
///
/// [`Error::CapTooLate`] when the rungs were chosen already or a cap was
/// set before.
pub fn set_max_isa(level: IsaLevel) -> Result<(), Error> {
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
            ..Features::default()
        };
        assert_eq!(all.capped(IsaLevel::Avx512), all);
        let avx2 = all.capped(IsaLevel::Avx2);
        assert!(avx2.avx2 && avx2.vaes && !avx2.avx512f);
        let sse2 = all.capped(IsaLevel::Sse2);
        assert!(sse2.sse2 && sse2.ssse3 && sse2.sha && !sse2.avx2 && !sse2.vaes);
        assert_eq!(all.capped(IsaLevel::Scalar), Features::default());
    }

    #[test]
    fn levels_parse_by_name() {
        for level in IsaLevel::ALL {
            assert_eq!(level.name().parse::<IsaLevel>().unwrap(), level);
        }
        assert_eq!("AVX2".parse::<IsaLevel>().unwrap(), IsaLevel::Avx2);
        let err = "avx3".parse::<IsaLevel>().unwrap_err().to_string();
        assert!(err.contains("avx3") && err.contains("scalar, sse2, avx2, avx512"));
    }
}
