//! The bound of SHA-512 on this CPU: the 80 rounds of the compression
//! function alone (FIPS 180-4 §6.4.2 step 3), with `K_t + W_t` read from a
//! table in L1 and no message schedule, beside `simdcrypt` and OpenSSL
//! hashing 16 KiB, as bytes per second.
//!
//! The rounds are written in assembly as OpenSSL's BMI2 code writes them
//! (`rorx` for the rotations, Ch as `((f ^ g) & e) ^ g`, Maj as
//! `((a ^ b) & (b ^ c)) ^ b` with the previous round's `a ^ b`: 24
//! instructions a round), so that no compiler schedule makes the bound.
//! Each round depends on the one before (the working variables), each
//! block on the one before (the chaining value): what is left is the
//! rounds' own latency and issue, which every implementation pays; the
//! message schedule, which the SIMD rungs compute beside the rounds, is
//! the difference. `bench/NOTES.md` (`sha512-bound`) puts the figures
//! side by side.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use simdcrypt_bench::{config, pattern, peers::openssl};

/// 16 KiB: 128 blocks.
const LEN: usize = 16 << 10;

#[cfg(target_arch = "x86_64")]
mod x86 {
    /// `K_t + W_t` for the 80 rounds (any values: the rounds' cost does
    /// not depend on them).
    #[unsafe(no_mangle)]
    static SHA512_BOUND_WK: [u64; 80] = {
        let mut wk = [0; 80];
        let mut t = 0;
        while t < 80 {
            wk[t] = (t as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            t += 1;
        }
        wk
    };

    /// One round on the registers named `a` … `h`; `x` holds `b ^ c`
    /// and gets this round's Maj, `y` gets `a ^ b` (the next round's `x`).
    macro_rules! round {
        ($a:ident $b:ident $c:ident $d:ident $e:ident $f:ident $g:ident $h:ident, $x:ident $y:ident, $t:expr) => {
            concat!(
                "add {",
                stringify!($h),
                "}, qword ptr [rip + SHA512_BOUND_WK + 8 * ",
                $t,
                "]\n",
                "mov {t0}, {",
                stringify!($f),
                "}\n",
                "xor {t0}, {",
                stringify!($g),
                "}\n",
                "and {t0}, {",
                stringify!($e),
                "}\n",
                "xor {t0}, {",
                stringify!($g),
                "}\n",
                "rorx {t1}, {",
                stringify!($e),
                "}, 14\n",
                "rorx {t2}, {",
                stringify!($e),
                "}, 18\n",
                "xor {t1}, {t2}\n",
                "rorx {t2}, {",
                stringify!($e),
                "}, 41\n",
                "xor {t1}, {t2}\n",
                "add {",
                stringify!($h),
                "}, {t0}\n",
                "add {",
                stringify!($h),
                "}, {t1}\n",
                "add {",
                stringify!($d),
                "}, {",
                stringify!($h),
                "}\n",
                "mov {",
                stringify!($y),
                "}, {",
                stringify!($a),
                "}\n",
                "xor {",
                stringify!($y),
                "}, {",
                stringify!($b),
                "}\n",
                "and {",
                stringify!($x),
                "}, {",
                stringify!($y),
                "}\n",
                "xor {",
                stringify!($x),
                "}, {",
                stringify!($b),
                "}\n",
                "rorx {t1}, {",
                stringify!($a),
                "}, 28\n",
                "rorx {t2}, {",
                stringify!($a),
                "}, 34\n",
                "xor {t1}, {t2}\n",
                "rorx {t2}, {",
                stringify!($a),
                "}, 39\n",
                "xor {t1}, {t2}\n",
                "add {",
                stringify!($h),
                "}, {",
                stringify!($x),
                "}\n",
                "add {",
                stringify!($h),
                "}, {t1}\n",
            )
        };
    }

    /// Eight rounds from round `8 * $i`: the names turn once round.
    macro_rules! eight {
        ($i:literal) => {
            concat!(
                round!(a b c d e f g h, x y, concat!("(8 * ", $i, " + 0)")),
                round!(h a b c d e f g, y x, concat!("(8 * ", $i, " + 1)")),
                round!(g h a b c d e f, x y, concat!("(8 * ", $i, " + 2)")),
                round!(f g h a b c d e, y x, concat!("(8 * ", $i, " + 3)")),
                round!(e f g h a b c d, x y, concat!("(8 * ", $i, " + 4)")),
                round!(d e f g h a b c, y x, concat!("(8 * ", $i, " + 5)")),
                round!(c d e f g h a b, x y, concat!("(8 * ", $i, " + 6)")),
                round!(b c d e f g h a, y x, concat!("(8 * ", $i, " + 7)")),
            )
        };
    }

    /// `blocks` compressions, each on the last one's chaining value.
    ///
    /// # Safety
    ///
    /// The CPU has BMI2.
    #[target_feature(enable = "bmi2")]
    pub unsafe fn rounds(blocks: usize, mut state: [u64; 8]) -> [u64; 8] {
        for _ in 0..blocks {
            let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = state;
            let mut x = b ^ c;
            // SAFETY: registers only, and loads from the static table; the
            // caller's CPU has BMI2.
            unsafe {
                core::arch::asm!(
                    eight!(0), eight!(1), eight!(2), eight!(3), eight!(4),
                    eight!(5), eight!(6), eight!(7), eight!(8), eight!(9),
                    a = inout(reg) a, b = inout(reg) b, c = inout(reg) c, d = inout(reg) d,
                    e = inout(reg) e, f = inout(reg) f, g = inout(reg) g, h = inout(reg) h,
                    x = inout(reg) x, y = out(reg) _,
                    t0 = out(reg) _, t1 = out(reg) _, t2 = out(reg) _,
                    options(pure, readonly, nostack),
                );
            }
            let _ = x;
            for (s, v) in state.iter_mut().zip([a, b, c, d, e, f, g, h]) {
                *s = s.wrapping_add(v);
            }
        }
        state
    }
}

#[cfg(target_arch = "x86_64")]
fn bound(c: &mut Criterion) {
    if !std::arch::is_x86_feature_detected!("bmi2") {
        eprintln!("sha512-bound: SKIPPED: the CPU has no BMI2");
        return;
    }
    let msg = pattern(LEN);
    let mut out = [0u8; 64];
    let mut g = c.benchmark_group("sha512-bound-16kib");
    g.throughput(Throughput::Bytes(LEN as u64));
    g.bench_function("rounds-alone", |b| {
        // SAFETY: the CPU has BMI2 (checked above).
        b.iter(|| unsafe { x86::rounds(black_box(LEN / 128), black_box([1; 8])) })
    });
    g.bench_function("simdcrypt", |b| {
        b.iter(|| simdcrypt::hash::Sha512::digest(black_box(&msg)))
    });
    g.bench_function("openssl", |b| {
        b.iter(|| openssl::sha512_into(black_box(&msg), black_box(&mut out)))
    });
    g.finish();
}

#[cfg(not(target_arch = "x86_64"))]
fn bound(_: &mut Criterion) {
    eprintln!("sha512-bound: SKIPPED: x86-64 only");
}

criterion_group! {
    name = benches;
    config = config();
    targets = bound
}
criterion_main!(benches);
