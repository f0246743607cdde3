//! The bound of AES-GCM's stitched zmm kernel (`gcm_vaes512`) on this
//! CPU: its instructions on the vector units, without the data.
//!
//! - `vaes-zmm/N`, `vpclmulqdq-zmm/N`, `vpclmulqdq-ymm/N`: one instruction
//!   on `N` independent registers, as instructions per second (criterion's
//!   `elem/s`): their throughput, and with `N = 1` their latency.
//! - `aes-gcm-arith-128` and `-256`: two of the kernel's steps (1024
//!   bytes) of VAES and VPCLMULQDQ alone — 8 registers through the 10 (or
//!   14) AES rounds twice, GHASH's 50 carry-less products (Karatsuba's
//!   three for each of 16 registers, two for the one reduction per 64
//!   blocks), spread evenly over the rounds as the kernel spreads them —
//!   as bytes per second.
//! - `aes-gcm-mix-128` and `-256`: the same with every other vector
//!   instruction of the kernel's two steps, in the kernel's numbers
//!   ([`x86::MIX`]: byte reversals, unpacks, XORs, three-way XORs,
//!   counter additions): what the kernel would reach if nothing but its
//!   instructions' issue held it (no loads, stores, dependencies between
//!   GHASH and AES, or branches). On Zen 5 this is the bound: VAES and
//!   VPCLMULQDQ issue apart, but every other instruction competes with
//!   them for the four vector pipes (`bench/NOTES.md`, `aes-gcm-zmm`).
//! - `aes-ctr-128`: the AES rounds alone, the same way.
//! - `gcm-bound-mem-16kib` and `-1024kib`: the mixes and the AES rounds
//!   alone (`aes-ctr-*`: CTR without GHASH) over a 16 KiB or 1 MiB buffer
//!   into another, out of place, each step loading its text, XORing the
//!   AES output into it and storing it, as the kernel does ([`x86::mix_mem`]):
//!   its memory traffic beside its instructions (at 1 MiB the two buffers
//!   exceed Zen 5's 2 MiB L2), still without its dependencies.
//! - `gcm-bound-loads`: the AES-128 mix over 16 KiB as above (`mix`),
//!   then changed one way at a time ([`x86::mix_mem`]'s `VARIANT`): with
//!   [`x86::APART`] vector loads a step into registers of their own
//!   (`loads-apart`: the kernel's round keys and powers of `H` when LLVM
//!   loads them apart), every VAES round key read from memory
//!   (`vaes-from-memory`), every VPCLMULQDQ factor read from memory
//!   (`clmul-from-memory`), without the VAES rounds (`ghash-alone`: what
//!   GHASH's own instructions allow), with GHASH's products made of the
//!   byte reversals' output and summed in a chain (`ghash-dependent`),
//!   and with each step's byte reversals before its rounds rather than
//!   among them (`shuffles-first`).
//!
//! The mixes are written in assembly (`.rept` spreading each kind of
//! instruction over the rounds), so that no compiler schedule makes the
//! bound.
//!
//! `bench/NOTES.md` (`aes-gcm-zmm`) puts the kernel's figures beside these.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use simdcrypt_bench::config;

#[cfg(target_arch = "x86_64")]
mod x86 {
    use core::arch::x86_64::{
        __m256i, __m512i, _mm256_clmulepi64_epi128, _mm256_set1_epi32, _mm256_xor_si256,
        _mm512_aesenc_epi128, _mm512_clmulepi64_epi128, _mm512_set1_epi32, _mm512_setzero_si512,
        _mm512_xor_si512,
    };

    /// Whether the CPU runs what this file measures.
    pub fn available() -> bool {
        std::is_x86_feature_detected!("avx512f")
            && std::is_x86_feature_detected!("avx512bw")
            && std::is_x86_feature_detected!("vaes")
            && std::is_x86_feature_detected!("vpclmulqdq")
    }

    /// `N` registers from `seed`, each different.
    #[target_feature(enable = "avx512f")]
    fn regs<const N: usize>(seed: i32) -> [__m512i; N] {
        std::array::from_fn(|i| _mm512_set1_epi32(seed.wrapping_add(i as i32)))
    }

    /// The registers XORed into one.
    #[target_feature(enable = "avx512f")]
    fn fold(regs: &[__m512i]) -> __m512i {
        regs.iter()
            .fold(_mm512_set1_epi32(0), |a, x| _mm512_xor_si512(a, *x))
    }

    /// `iters` × 10 rounds of `vaesenc` on `N` independent registers.
    #[target_feature(enable = "avx512f,vaes")]
    pub fn vaes<const N: usize>(iters: u64, seed: i32) -> __m512i {
        let mut x = regs::<N>(seed);
        let k = _mm512_set1_epi32(seed ^ 0x5a5a);
        for _ in 0..iters {
            for _ in 0..10 {
                for x in x.iter_mut() {
                    *x = _mm512_aesenc_epi128(*x, k);
                }
            }
        }
        fold(&x)
    }

    /// `iters` × 10 zmm `vpclmulqdq` on `N` independent registers.
    #[target_feature(enable = "avx512f,vpclmulqdq")]
    pub fn clmul_zmm<const N: usize>(iters: u64, seed: i32) -> __m512i {
        let mut x = regs::<N>(seed);
        let k = _mm512_set1_epi32(seed ^ 0x5a5a);
        for _ in 0..iters {
            for _ in 0..10 {
                for x in x.iter_mut() {
                    *x = _mm512_clmulepi64_epi128::<0x01>(*x, k);
                }
            }
        }
        fold(&x)
    }

    /// `iters` × 10 ymm `vpclmulqdq` on `N` independent registers.
    #[target_feature(enable = "avx2,vpclmulqdq")]
    pub fn clmul_ymm<const N: usize>(iters: u64, seed: i32) -> __m256i {
        let mut x: [__m256i; N] =
            std::array::from_fn(|i| _mm256_set1_epi32(seed.wrapping_add(i as i32)));
        let k = _mm256_set1_epi32(seed ^ 0x5a5a);
        for _ in 0..iters {
            for _ in 0..10 {
                for x in x.iter_mut() {
                    *x = _mm256_clmulepi64_epi128::<0x01>(*x, k);
                }
            }
        }
        x.iter()
            .fold(_mm256_set1_epi32(0), |a, x| _mm256_xor_si256(a, *x))
    }

    /// The kernel's vector instructions in two steps (1024 bytes) beside
    /// the VAES rounds, counted in its compiled loop: VPCLMULQDQ (GHASH's
    /// 50 products), VPSHUFB (the byte reversals), VPUNPCK[LH]QDQ
    /// (Karatsuba's sums two registers at a time), VPXORD (the first round
    /// key, the text, the sums), VPADDD (the counters), VPTERNLOGD (the
    /// products added two at a time, the reduction), VPSHUFD and lane
    /// extracts (the reduction).
    pub const MIX: [usize; 7] = [50, 18, 16, 44, 17, 27, 4];

    /// Vector loads a step of the kernel makes apart from its text: the
    /// 11 round keys of AES-128 and 12 registers of powers of `H`
    /// (`gcm-bound-loads`).
    pub const APART: usize = 23;

    /// [`mix_mem`]'s `VARIANT`: the mix as it is.
    pub const MIX_AS_IS: usize = 0;
    /// With [`APART`] loads a step, each into a register of its own.
    pub const LOADS_APART: usize = 1;
    /// With every VAES round key read from memory.
    pub const VAES_FROM_MEMORY: usize = 2;
    /// With every VPCLMULQDQ factor read from memory.
    pub const CLMUL_FROM_MEMORY: usize = 3;
    /// Without the VAES rounds: GHASH's instructions alone.
    pub const GHASH_ALONE: usize = 4;
    /// With each product's factor the output of a byte reversal, and the
    /// products summed in one chain of three-way XORs.
    pub const GHASH_DEPENDENT: usize = 5;
    /// With each step's byte reversals all before its first round, not
    /// spread over the rounds.
    pub const SHUFFLES_FIRST: usize = 6;

    /// The round key (and power of `H`) the loads variants read.
    #[repr(C, align(64))]
    struct Key([u8; 64]);
    static KEY: Key = Key([0x5a; 64]);

    /// `iters` × two steps under `NR` rounds: 8 registers through the
    /// rounds (the chains of the kernel's 8 registers of counter blocks),
    /// and with `GHASH` [`MIX`]'s instructions (with `ALL`, else the
    /// products alone) spread evenly over the `2 NR` rounds, each kind on
    /// registers of its own (no dependencies).
    #[target_feature(enable = "avx512f,avx512bw,vaes,vpclmulqdq")]
    pub fn mix<const NR: usize, const GHASH: bool, const ALL: bool>(
        iters: u64,
        _seed: i32,
    ) -> __m512i {
        // SAFETY: without `MEM`, no memory is touched.
        unsafe {
            mix_mem::<NR, GHASH, ALL, false, MIX_AS_IS>(
                iters,
                core::ptr::null(),
                core::ptr::null_mut(),
            )
        }
    }

    /// [`mix`] over `src` into `dst` (1024 bytes per iteration): with
    /// `MEM`, each step also loads its 512 bytes of text, XORs the AES
    /// output with it (16 of [`MIX`]'s XORs) and stores the result, as the
    /// kernel does — its memory traffic beside its instruction mix, still
    /// without the dependencies between GHASH and AES. With neither
    /// `GHASH` nor `ALL`, that is CTR alone on the kernel's buffers.
    ///
    /// # Safety
    ///
    /// With `MEM`, `1024 iters` bytes readable at `src` and writable at
    /// `dst`.
    #[target_feature(enable = "avx512f,avx512bw,vaes,vpclmulqdq")]
    pub unsafe fn mix_mem<
        const NR: usize,
        const GHASH: bool,
        const ALL: bool,
        const MEM: bool,
        const VARIANT: usize,
    >(
        iters: u64,
        src: *const u8,
        dst: *mut u8,
    ) -> __m512i {
        // SAFETY: the instructions need AVX-512F/BW, VAES and VPCLMULQDQ
        // (enabled); they write only the registers declared clobbered, and
        // with `MEM` the memory the caller vouches for.
        unsafe {
            core::arch::asm!(
                // `gcm_spread n, instruction`: as many of the instruction
                // after round `gcm_r` as bring its count to round
                // `gcm_r + 1`'s share of `n`.
                ".macro gcm_spread n, ins:vararg",
                ".rept ((gcm_r + 1) * \\n / (2 * {nr})) - (gcm_r * \\n / (2 * {nr}))",
                "\\ins",
                ".endr",
                ".endm",
                "2:",
                ".set gcm_r, 0",
                ".rept 2 * {nr}",
                ".if {variant} != {ghash_alone}",
                ".irp j, 0, 1, 2, 3, 4, 5, 6, 7",
                ".if {variant} == {vaes_from_memory}",
                "vaesenc zmm\\j, zmm\\j, [{key}]",
                ".else",
                "vaesenc zmm\\j, zmm\\j, zmm31",
                ".endif",
                ".endr",
                ".endif",
                ".if {variant} == {clmul_from_memory}",
                "gcm_spread {clmul}, vpclmulqdq zmm16, zmm8, [{key}], 0x11",
                ".elseif {variant} == {ghash_dependent}",
                // Products of the byte reversals' output, summed in a chain.
                "gcm_spread {clmul}, vpclmulqdq zmm16, zmm17, zmm30, 0x11",
                ".else",
                "gcm_spread {clmul}, vpclmulqdq zmm16, zmm8, zmm30, 0x11",
                ".endif",
                ".if {variant} == {shuffles_first}",
                ".if gcm_r % {nr} == 0",
                ".rept {shufb} / 2",
                "vpshufb zmm17, zmm9, zmm30",
                ".endr",
                ".endif",
                ".else",
                "gcm_spread {shufb}, vpshufb zmm17, zmm9, zmm30",
                ".endif",
                "gcm_spread {unpck}, vpunpcklqdq zmm18, zmm10, zmm30",
                "gcm_spread {xor}, vpxord zmm19, zmm11, zmm30",
                "gcm_spread {add}, vpaddd zmm20, zmm12, zmm30",
                ".if {variant} == {ghash_dependent}",
                "gcm_spread {tern}, vpternlogd zmm21, zmm16, zmm30, 0x96",
                ".else",
                "gcm_spread {tern}, vpternlogd zmm21, zmm13, zmm30, 0x96",
                ".endif",
                "gcm_spread {shuf}, vpshufd zmm22, zmm14, 0x4e",
                ".if {variant} == {loads_apart}",
                "gcm_spread {apart}, vmovdqu64 zmm24, [{key}]",
                ".endif",
                // After each step's last round: its text in and out.
                ".if {mem} && (gcm_r % {nr} == {nr} - 1)",
                ".irp j, 0, 1, 2, 3, 4, 5, 6, 7",
                "vpxord zmm23, zmm\\j, [{src} + 512 * (gcm_r / {nr}) + 64 * \\j]",
                "vmovdqu64 [{dst} + 512 * (gcm_r / {nr}) + 64 * \\j], zmm23",
                ".endr",
                ".endif",
                ".set gcm_r, gcm_r + 1",
                ".endr",
                ".if {mem}",
                "add {src}, 1024",
                "add {dst}, 1024",
                ".endif",
                "dec {n}",
                "jnz 2b",
                ".purgem gcm_spread",
                n = inout(reg) iters => _,
                src = inout(reg) src => _,
                dst = inout(reg) dst => _,
                mem = const MEM as usize,
                nr = const NR,
                clmul = const if GHASH { MIX[0] } else { 0 },
                shufb = const if ALL { MIX[1] } else { 0 },
                unpck = const if ALL { MIX[2] } else { 0 },
                xor = const if ALL { MIX[3] - if MEM { 16 } else { 0 } } else { 0 },
                add = const if ALL { MIX[4] } else { 0 },
                tern = const if ALL { MIX[5] } else { 0 },
                shuf = const if ALL { MIX[6] } else { 0 },
                variant = const VARIANT,
                loads_apart = const LOADS_APART,
                vaes_from_memory = const VAES_FROM_MEMORY,
                clmul_from_memory = const CLMUL_FROM_MEMORY,
                ghash_alone = const GHASH_ALONE,
                ghash_dependent = const GHASH_DEPENDENT,
                shuffles_first = const SHUFFLES_FIRST,
                apart = const 2 * APART,
                key = in(reg) KEY.0.as_ptr(),
                out("zmm0") _, out("zmm1") _, out("zmm2") _, out("zmm3") _,
                out("zmm4") _, out("zmm5") _, out("zmm6") _, out("zmm7") _,
                out("zmm16") _, out("zmm17") _, out("zmm18") _, out("zmm19") _,
                out("zmm20") _, out("zmm21") _, out("zmm22") _, out("zmm23") _,
                out("zmm24") _,
                options(nostack),
            );
        }
        _mm512_setzero_si512()
    }
}

/// Calls per timed iteration.
const ITERS: u64 = 1000;

#[cfg(target_arch = "x86_64")]
fn bound(c: &mut Criterion) {
    if !x86::available() {
        eprintln!("gcm-bound: SKIPPED: the CPU lacks AVX-512BW, VAES or VPCLMULQDQ");
        return;
    }
    let seed = black_box(0x1234_5678);
    macro_rules! each {
        ($group:literal, $per_iter:expr, $($name:literal => $f:expr),+ $(,)?) => {{
            let mut g = c.benchmark_group($group);
            $(
                g.throughput($per_iter($name));
                // SAFETY: the CPU runs AVX-512F/BW, VAES and VPCLMULQDQ
                // (checked above).
                g.bench_function($name, |b| b.iter(|| unsafe { $f(black_box(ITERS), seed) }));
            )+
            g.finish();
        }};
    }
    let instructions = |n: &str| Throughput::Elements(ITERS * 10 * n.parse::<u64>().expect("N"));
    each!("gcm-bound-vaes-zmm", instructions,
        "1" => x86::vaes::<1>, "2" => x86::vaes::<2>, "4" => x86::vaes::<4>, "8" => x86::vaes::<8>);
    each!("gcm-bound-vpclmulqdq-zmm", instructions,
        "1" => x86::clmul_zmm::<1>, "4" => x86::clmul_zmm::<4>, "8" => x86::clmul_zmm::<8>);
    each!("gcm-bound-vpclmulqdq-ymm", instructions,
        "1" => x86::clmul_ymm::<1>, "4" => x86::clmul_ymm::<4>, "8" => x86::clmul_ymm::<8>);
    let bytes = |_: &str| Throughput::Bytes(ITERS * 1024);
    each!("gcm-bound-mix", bytes,
        "aes-gcm-mix-128" => x86::mix::<10, true, true>,
        "aes-gcm-mix-256" => x86::mix::<14, true, true>,
        "aes-gcm-arith-128" => x86::mix::<10, true, false>,
        "aes-gcm-arith-256" => x86::mix::<14, true, false>,
        "aes-ctr-128" => x86::mix::<10, false, false>);
    // The same over the kernel's buffers, out of place, as bytes per
    // second: 16 KiB stays in L1/L2, two 1 MiB buffers exceed the L2.
    for size in [16 << 10, 1 << 20] {
        let (src, mut dst) = (vec![0x5a_u8; size], vec![0_u8; size]);
        let mut g = c.benchmark_group(format!("gcm-bound-mem-{}kib", size >> 10));
        g.throughput(Throughput::Bytes(size as u64));
        macro_rules! over {
            ($g:ident; $($name:literal => $f:expr),+ $(,)?) => {$(
                // SAFETY: the CPU runs AVX-512F/BW, VAES and VPCLMULQDQ
                // (checked above); `size` bytes, 1024 per iteration, at
                // `src` and `dst`.
                $g.bench_function($name, |b| b.iter(|| unsafe {
                    $f(black_box(size as u64 / 1024), src.as_ptr(), dst.as_mut_ptr())
                }));
            )+};
        }
        over!(g;
            "aes-gcm-mix-128" => x86::mix_mem::<10, true, true, true, { x86::MIX_AS_IS }>,
            "aes-gcm-mix-256" => x86::mix_mem::<14, true, true, true, { x86::MIX_AS_IS }>,
            "aes-ctr-128" => x86::mix_mem::<10, false, false, true, { x86::MIX_AS_IS }>,
            "aes-ctr-256" => x86::mix_mem::<14, false, false, true, { x86::MIX_AS_IS }>,
        );
        g.finish();
        if size == 16 << 10 {
            // The AES-128 mix over 16 KiB, changed one way at a time.
            let mut g = c.benchmark_group("gcm-bound-loads");
            g.throughput(Throughput::Bytes(size as u64));
            over!(g;
                "mix" => x86::mix_mem::<10, true, true, true, { x86::MIX_AS_IS }>,
                "loads-apart" => x86::mix_mem::<10, true, true, true, { x86::LOADS_APART }>,
                "vaes-from-memory" => x86::mix_mem::<10, true, true, true, { x86::VAES_FROM_MEMORY }>,
                "clmul-from-memory" => x86::mix_mem::<10, true, true, true, { x86::CLMUL_FROM_MEMORY }>,
                "ghash-alone" => x86::mix_mem::<10, true, true, true, { x86::GHASH_ALONE }>,
                "ghash-dependent" => x86::mix_mem::<10, true, true, true, { x86::GHASH_DEPENDENT }>,
                "shuffles-first" => x86::mix_mem::<10, true, true, true, { x86::SHUFFLES_FIRST }>,
            );
            g.finish();
        }
        black_box(&mut dst);
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn bound(_: &mut Criterion) {
    eprintln!("gcm-bound: SKIPPED: x86-64 only");
}

criterion_group! {
    name = benches;
    config = config();
    targets = bound
}
criterion_main!(benches);
