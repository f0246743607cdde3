//! The SIMD helpers several primitives' rungs share: the 32-bit lane
//! rotates of Salsa20, ChaCha20 and scrypt's Salsa20/8, one per register
//! width and instruction set (x86-64's, and aarch64's NEON). A rung imports them from here and
//! never from another primitive's folder.
//!
//! They are macros, as every rotate the rungs use is: the rung generators
//! ([`crate::vertical::vertical_batches!`], ChaCha20's `horizontal!`,
//! Salsa20's `double_round!`, scrypt's `simd_rung!`) take the rotate by
//! name and call it as `rotl!(x, 7)`, and the literal count becomes the
//! intrinsic's immediate (`32 − n` included, which a const-generic function
//! cannot compute on stable Rust). Each expands to intrinsics that need the
//! named CPU feature, so it is used inside a function compiled with that
//! feature (`#[target_feature(enable = "…")]`) and needs no `unsafe` there.
//!
//! The byte-shuffle rotates by 16 and 8 (`pshufb`), which only ChaCha20
//! uses, stay with ChaCha20's `ssse3` and `avx2` rungs; they hand the other
//! counts down to [`rotl_sse2!`] and [`rotl_ymm!`].

/// `x <<< n` on each 32-bit lane of an xmm register with SSE2: two shifts
/// and an or.
#[cfg(target_arch = "x86_64")]
macro_rules! rotl_sse2 {
    ($x:expr, $n:literal) => {{
        let x = $x;
        ::core::arch::x86_64::_mm_or_si128(
            ::core::arch::x86_64::_mm_slli_epi32::<$n>(x),
            ::core::arch::x86_64::_mm_srli_epi32::<{ 32 - $n }>(x),
        )
    }};
}
#[cfg(target_arch = "x86_64")]
pub(crate) use rotl_sse2;

/// `x <<< n` on each 32-bit lane of a ymm register with AVX2: two shifts
/// and an or.
#[cfg(target_arch = "x86_64")]
macro_rules! rotl_ymm {
    ($x:expr, $n:literal) => {{
        let x = $x;
        ::core::arch::x86_64::_mm256_or_si256(
            ::core::arch::x86_64::_mm256_slli_epi32::<$n>(x),
            ::core::arch::x86_64::_mm256_srli_epi32::<{ 32 - $n }>(x),
        )
    }};
}
#[cfg(target_arch = "x86_64")]
pub(crate) use rotl_ymm;

/// `x <<< n` on each 32-bit lane of an xmm register: one `vprold`
/// (AVX-512F and AVX-512VL).
#[cfg(target_arch = "x86_64")]
macro_rules! vprold_xmm {
    ($x:expr, $n:literal) => {
        ::core::arch::x86_64::_mm_rol_epi32::<$n>($x)
    };
}
#[cfg(target_arch = "x86_64")]
pub(crate) use vprold_xmm;

/// `x <<< n` on each 32-bit lane of a ymm register: one `vprold`
/// (AVX-512F and AVX-512VL).
#[cfg(target_arch = "x86_64")]
macro_rules! vprold_ymm {
    ($x:expr, $n:literal) => {
        ::core::arch::x86_64::_mm256_rol_epi32::<$n>($x)
    };
}
#[cfg(target_arch = "x86_64")]
pub(crate) use vprold_ymm;

/// `x <<< n` on each 32-bit lane of a zmm register: one `vprold`
/// (AVX-512F).
#[cfg(target_arch = "x86_64")]
macro_rules! vprold_zmm {
    ($x:expr, $n:literal) => {
        ::core::arch::x86_64::_mm512_rol_epi32::<$n>($x)
    };
}
#[cfg(target_arch = "x86_64")]
pub(crate) use vprold_zmm;

/// `x <<< n` on each 32-bit lane of a NEON `uint32x4_t`: a shift left
/// (`shl`), then the bits shifted out inserted at the bottom by a shift
/// right and insert (`sri`), two instructions and no or.
#[cfg(target_arch = "aarch64")]
macro_rules! rotl_neon {
    ($x:expr, $n:literal) => {{
        let x = $x;
        ::core::arch::aarch64::vsriq_n_u32::<{ 32 - $n }>(
            ::core::arch::aarch64::vshlq_n_u32::<$n>(x),
            x,
        )
    }};
}
#[cfg(target_arch = "aarch64")]
pub(crate) use rotl_neon;
