//! Salsa20's part of the vertical multi-block form (the form itself, with
//! its lane counters and transposes, is [`crate::vertical`]): the
//! doubleround on 16 registers, one word of `W` blocks each, and the
//! counter's place, words 8 and 9.

use crate::vertical::Counter;

/// The 64-bit block counter of spec §10: words 8 (low) and 9 (high).
pub(super) const COUNTER: Counter = Counter {
    word: 8,
    wide: true,
};

/// doubleround (spec §6) on 16 registers, lane by lane: columnround (§5)
/// then rowround (§4), each quarter-round with [`super::quarterround`].
macro_rules! doubleround {
    ($add:path, $xor:path, $rotl:ident;
     $x0:ident, $x1:ident, $x2:ident, $x3:ident, $x4:ident, $x5:ident, $x6:ident, $x7:ident,
     $x8:ident, $x9:ident, $x10:ident, $x11:ident, $x12:ident, $x13:ident, $x14:ident, $x15:ident) => {
        use $crate::salsa20::quarterround;
        // columnround (spec §5) ...
        quarterround!($add, $xor, $rotl; $x0, $x4, $x8, $x12);
        quarterround!($add, $xor, $rotl; $x5, $x9, $x13, $x1);
        quarterround!($add, $xor, $rotl; $x10, $x14, $x2, $x6);
        quarterround!($add, $xor, $rotl; $x15, $x3, $x7, $x11);
        // ... then rowround (§4).
        quarterround!($add, $xor, $rotl; $x0, $x1, $x2, $x3);
        quarterround!($add, $xor, $rotl; $x5, $x6, $x7, $x4);
        quarterround!($add, $xor, $rotl; $x10, $x11, $x8, $x9);
        quarterround!($add, $xor, $rotl; $x15, $x12, $x13, $x14);
    };
}
pub(super) use doubleround;

#[cfg(all(test, any(target_arch = "x86_64", target_arch = "aarch64")))]
mod tests {
    use crate::Xor;
    use crate::xor::InOut;

    /// Every length 0..=2100 (so every path of the 16/8/4/1 cascade and
    /// every partial last block), counters at and below the carry into word
    /// 9 and at the end of the keystream, Salsa20/20, /12 and /8: the rung's
    /// XOR against the scalar no-transpose rung's, in place and from an
    /// input into an output (at odd addresses).
    fn check(name: &str, xor_keystream: impl Fn(&[u32; 16], usize, InOut<'_>)) {
        const MAX: usize = 2100;
        let pattern: Vec<u8> = (0..MAX).map(|i| (i * 151 + 7) as u8).collect();
        let counters = [
            0,
            5,
            (1 << 32) - 1,
            (1 << 32) - 9,
            (1 << 32) - 17,
            u64::MAX - 40,
        ];
        for double_rounds in [10, 6, 4] {
            for counter in counters {
                let mut state: [u32; 16] =
                    std::array::from_fn(|i| (i as u32 + 1).wrapping_mul(0x9e37_79b9));
                super::COUNTER.set(&mut state, counter);
                let mut expected = pattern.clone();
                super::super::xor_blocks(
                    |x| super::super::no_transpose::double_rounds(x, double_rounds),
                    Xor::Bytewise,
                    &state,
                    InOut::in_place(&mut expected),
                );
                let input = [&[0u8][..], &pattern].concat();
                for len in 0..=MAX {
                    let mut data = pattern[..len].to_vec();
                    xor_keystream(&state, double_rounds, InOut::in_place(&mut data));
                    assert!(
                        data == expected[..len],
                        "{name}: {double_rounds} double-rounds, counter {counter:#x}, {len} bytes"
                    );
                    let mut out = vec![0u8; len + 3];
                    let io = InOut::apart(&input[1..=len], &mut out[3..]).unwrap();
                    xor_keystream(&state, double_rounds, io);
                    assert!(
                        out[3..] == expected[..len] && out[..3] == [0; 3],
                        "{name} out of place: {double_rounds} double-rounds, counter {counter:#x}, {len} bytes"
                    );
                }
            }
        }
    }

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn avx2_matches_no_transpose() {
        if !std::is_x86_feature_detected!("avx2") {
            eprintln!("skipped: this CPU lacks AVX2");
            return;
        }
        check("avx2", |x, n, data| {
            // SAFETY: the CPU has AVX2, checked above.
            unsafe { super::super::avx2::xor_keystream(x, n, data) }
        });
    }

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn avx512_matches_no_transpose() {
        if !(std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512vl"))
        {
            eprintln!("skipped: this CPU lacks AVX-512F and AVX-512VL");
            return;
        }
        check("avx512", |x, n, data| {
            // SAFETY: the CPU has AVX-512F and AVX-512VL, checked above.
            unsafe { super::super::avx512::xor_keystream(x, n, data) }
        });
    }

    #[test]
    #[cfg(target_arch = "aarch64")]
    fn neon_matches_no_transpose() {
        if !std::arch::is_aarch64_feature_detected!("neon") {
            eprintln!("skipped: this CPU lacks NEON");
            return;
        }
        check("neon", |x, n, data| {
            // SAFETY: the CPU has NEON, checked above.
            unsafe { super::super::neon::xor_keystream(x, n, data) }
        });
    }
}
