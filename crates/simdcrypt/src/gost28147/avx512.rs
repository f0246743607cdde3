//! AVX-512 (F, BW, VL, VBMI), sixteen blocks a zmm register pair:
//! `vpermb` looking four S-boxes up at once in a 64-byte table, the index
//! of each byte its nibble and its position (`n | j << 4`), so two lookups
//! substitute all eight nibbles; `vpternlogd` builds the indexes and folds
//! the ORs into the XOR; `vpermt2b` loads and stores the blocks in either
//! byte order; eight groups interleaved. The single-block rounds of the
//! chained modes run the same instructions on one lane.
//!
//! Each half is kept rotated right by 11 bits (`N' = N >>> 11`), so that
//! the round `N2 ^= (S(N1 + K) <<< 11)` becomes `N2' ^= S((N1' <<< 11) +
//! K)`: one `vprold` before the key addition, and the substitution's two
//! halves XORed into the other half by one `vpternlogd`.

use core::arch::x86_64::{
    __m128i, __m512i, _mm_add_epi32, _mm_blend_epi16, _mm_cvtsi32_si128, _mm_cvtsi128_si32,
    _mm_permutexvar_epi8, _mm_rol_epi32, _mm_ror_epi32, _mm_set_epi64x, _mm_set1_epi32,
    _mm_srli_epi32, _mm_ternarylogic_epi32, _mm_xor_si128, _mm512_add_epi32,
    _mm512_mask_storeu_epi8, _mm512_maskz_loadu_epi8, _mm512_permutex2var_epi8,
    _mm512_permutexvar_epi8, _mm512_rol_epi32, _mm512_ror_epi32, _mm512_set1_epi32,
    _mm512_srli_epi32, _mm512_ternarylogic_epi32,
};

use super::nibbles::{self, KEEP};
use super::{Order, SBox};
use crate::xor::InOut;

/// Groups of sixteen blocks interleaved in the bulk loop: a round is a
/// chain of six dependent instructions, eight groups keep the units busy
/// (measured on Zen 4: 2.9 GB/s against 1.9 with two).
const GROUPS: usize = 8;

/// Eight groups of sixteen blocks.
pub(super) const PAR_BLOCKS: usize = GROUPS * LANES;

/// Blocks a zmm register pair holds.
const LANES: usize = 16;

/// `vpternlogd` truth tables (operands `a`, `b`, `c` as 0xf0, 0xcc, 0xaa).
/// `(a & b) | c`: a nibble mask and the position bits.
const AND_OR: i32 = 0xea;
/// `a ^ (b | c)`: the two lookups into the other half.
const XOR_OR: i32 = 0x1e;
/// `a ? b : c`, bit by bit.
const SELECT: i32 = 0xca;

/// The two 64-byte tables of [`SBox::byte_tables`]: `lo[n | j << 4] =
/// K(2j+1)(n)` for the low nibble of byte `j`, `hi[n | j << 4] =
/// K(2j+2)(n) << 4` for its high nibble.
/// And the `ssse3` rung's pair tables, for the single-block rounds.
#[derive(Clone)]
pub(super) struct Tables {
    lo: [u8; 64],
    hi: [u8; 64],
    pairs: nibbles::Tables,
}

impl Tables {
    pub(super) fn new(sbox: &SBox) -> Tables {
        let [lo, hi] = sbox.byte_tables();
        Tables {
            lo,
            hi,
            pairs: nibbles::Tables::new(sbox),
        }
    }
}

/// `vpermt2b` indexes: from two registers of blocks in `order` (128
/// bytes) to `[N1 × 16]` and `[N2 × 16]` (`load`), and from `[N1 × 16]`
/// and `[N2 × 16]` back to blocks `N1 << 32 | N2` (`store`).
struct Shuffles {
    load: [[u8; 64]; 2],
    store: [[u8; 64]; 2],
}

const fn shuffles(big_endian: bool) -> Shuffles {
    let mut s = Shuffles {
        load: [[0; 64]; 2],
        store: [[0; 64]; 2],
    };
    let mut i = 0;
    while i < 128 {
        // Byte `b` (least significant first) of half `h` of block `blk`.
        let (blk, h, b) = (i / 8, i % 8 / 4, i % 4);
        // Where it is in the block: N1 the low word of the u64 in order.
        let at = 8 * blk
            + if big_endian {
                7 - (4 * h + b)
            } else {
                4 * h + b
            };
        s.load[h][4 * blk + b] = at as u8;
        // The output block is `N1 << 32 | N2`: half `h` is the output's
        // word `1 - h`, taken from register `h` (index bit 6).
        let out = 8 * blk
            + if big_endian {
                7 - (4 * (1 - h) + b)
            } else {
                4 * (1 - h) + b
            };
        s.store[out / 64][out % 64] = (64 * h + 4 * blk + b) as u8;
        i += 1;
    }
    s
}

const LE: Shuffles = shuffles(false);
const BE: Shuffles = shuffles(true);

/// A 64-byte constant in a register.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi")]
#[inline]
fn reg(b: &[u8; 64]) -> __m512i {
    // SAFETY: `b` is 64 readable bytes; every byte is loaded (all-ones
    // mask), and AVX-512BW is enabled.
    unsafe { _mm512_maskz_loadu_epi8(!0, b.as_ptr().cast()) }
}

/// The tables and constants in registers.
#[derive(Clone, Copy)]
struct Regs {
    lo: __m512i,
    hi: __m512i,
    nibble: __m512i,
    position: __m512i,
}

#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi")]
#[inline]
fn regs(t: &Tables) -> Regs {
    Regs {
        lo: reg(&t.lo),
        hi: reg(&t.hi),
        nibble: _mm512_set1_epi32(0x0f0f_0f0f),
        position: _mm512_set1_epi32(0x3020_1000),
    }
}

/// One round on rotated halves: `m' ^= S((n' <<< 11) + k)`.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi")]
#[inline]
fn round(c: &Regs, k: __m512i, n: __m512i, m: __m512i) -> __m512i {
    let x = _mm512_add_epi32(_mm512_rol_epi32::<11>(n), k);
    let lo = _mm512_ternarylogic_epi32::<AND_OR>(x, c.nibble, c.position);
    let hi = _mm512_ternarylogic_epi32::<AND_OR>(_mm512_srli_epi32::<4>(x), c.nibble, c.position);
    _mm512_ternarylogic_epi32::<XOR_OR>(
        m,
        _mm512_permutexvar_epi8(lo, c.lo),
        _mm512_permutexvar_epi8(hi, c.hi),
    )
}

/// The 32 rounds on `G` groups of sixteen blocks at `src` (`mask[2g]`,
/// `mask[2g + 1]`: the bytes of each register present), written to `dst`.
///
/// # Safety
///
/// The bytes the masks select are readable at `src` and writable at
/// `dst`, the same address or not overlapping.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi")]
#[inline]
unsafe fn groups<const G: usize>(
    c: &Regs,
    k: &[__m512i; 32],
    s: &[__m512i; 4],
    mask: [u64; 2],
    src: *const u8,
    dst: *mut u8,
) {
    let mut n1 = [_mm512_set1_epi32(0); G];
    let mut n2 = [_mm512_set1_epi32(0); G];
    for g in 0..G {
        let m = if g + 1 == G { mask } else { [!0; 2] };
        // SAFETY: the caller's bytes; masked-off bytes are not touched.
        let (r0, r1) = unsafe {
            (
                _mm512_maskz_loadu_epi8(m[0], src.add(128 * g).cast()),
                _mm512_maskz_loadu_epi8(m[1], src.add(128 * g + 64).cast()),
            )
        };
        n1[g] = _mm512_ror_epi32::<11>(_mm512_permutex2var_epi8(r0, s[0], r1));
        n2[g] = _mm512_ror_epi32::<11>(_mm512_permutex2var_epi8(r0, s[1], r1));
    }
    for pair in k.chunks_exact(2) {
        for g in 0..G {
            n2[g] = round(c, pair[0], n1[g], n2[g]);
        }
        for g in 0..G {
            n1[g] = round(c, pair[1], n2[g], n1[g]);
        }
    }
    for g in 0..G {
        let (a, b) = (_mm512_rol_epi32::<11>(n1[g]), _mm512_rol_epi32::<11>(n2[g]));
        let m = if g + 1 == G { mask } else { [!0; 2] };
        // SAFETY: the bytes read above, writable (the caller).
        unsafe {
            _mm512_mask_storeu_epi8(
                dst.add(128 * g).cast(),
                m[0],
                _mm512_permutex2var_epi8(a, s[2], b),
            );
            _mm512_mask_storeu_epi8(
                dst.add(128 * g + 64).cast(),
                m[1],
                _mm512_permutex2var_epi8(a, s[3], b),
            );
        }
    }
}

/// The bytes of a register pair present when `bytes` (≤ 128) remain.
fn masks(bytes: usize) -> [u64; 2] {
    let m = |n: usize| if n >= 64 { !0 } else { (1u64 << n) - 1 };
    [m(bytes), m(bytes.saturating_sub(64))]
}

/// The 32 rounds under `rk` on whole blocks: eight groups of sixteen at a
/// time, then four, two and one as they fit, the last blocks by masked
/// loads and stores.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi")]
pub(super) fn crypt(t: &Tables, rk: &[u32; 32], order: Order, blocks: InOut<'_>) {
    const GROUP: usize = 8 * LANES;
    let c = regs(t);
    let k = rk.map(|w| _mm512_set1_epi32(w as i32));
    let sh = match order {
        Order::Le => &LE,
        Order::Be => &BE,
    };
    let s = [
        reg(&sh.load[0]),
        reg(&sh.load[1]),
        reg(&sh.store[0]),
        reg(&sh.store[1]),
    ];
    let (src, dst, len) = blocks.into_raw();
    let mut done = 0;
    while len - done >= GROUPS * GROUP {
        // SAFETY: `into_raw` gives `len` bytes to read at `src` and write at
        // `dst`, the same address or apart; these are the next
        // `GROUPS · GROUP`.
        unsafe { groups::<GROUPS>(&c, &k, &s, [!0; 2], src.add(done), dst.add(done)) };
        done += GROUPS * GROUP;
    }
    if len - done >= 4 * GROUP {
        // SAFETY: as above, the next `4 · GROUP` bytes.
        unsafe { groups::<4>(&c, &k, &s, [!0; 2], src.add(done), dst.add(done)) };
        done += 4 * GROUP;
    }
    if len - done >= 2 * GROUP {
        // SAFETY: as above, the next `2 · GROUP` bytes.
        unsafe { groups::<2>(&c, &k, &s, [!0; 2], src.add(done), dst.add(done)) };
        done += 2 * GROUP;
    }
    while done < len {
        let n = (len - done).min(GROUP) / 8 * 8;
        if n == 0 {
            break;
        }
        // SAFETY: as above; the masks select bytes `done..done + n`.
        unsafe { groups::<1>(&c, &k, &s, masks(n), src.add(done), dst.add(done)) };
        done += n;
    }
}

/// The rounds under `rk` of one block `[N1, N2]`, in lane 0 of xmm
/// registers (the chained modes' path: its latency is the round's).
///
/// A 64-byte `vpermb` takes five cycles on Zen 4 and a 16-byte one two,
/// so this path looks the nibbles up as the `ssse3` rung does, in the
/// four pair tables of [`super::nibbles`] with `vpermb` on xmm (which
/// reads only the index's low nibble: no masking), the indexes by
/// `vpblendw` and the selections by `vpternlogd`: about 9 TSC ticks a
/// round on Zen 4, where the 64-byte lookup took 9.8.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi")]
pub(super) fn rounds(t: &Tables, rk: &[u32], [n1, n2]: [u32; 2]) -> [u32; 2] {
    let p = t.pairs.t.map(|b| {
        let v = u128::from_le_bytes(b);
        _mm_set_epi64x((v >> 64) as i64, v as i64)
    });
    let keep = KEEP.map(|m| _mm_set1_epi32(m as i32));
    let keep01 = _mm_set1_epi32((KEEP[0] | KEEP[1]) as i32);
    // `m' ^= S((n' <<< 11) + k)`.
    let round = |k: u32, n: __m128i, m: __m128i| {
        let x = _mm_add_epi32(_mm_rol_epi32::<11>(n), _mm_cvtsi32_si128(k as i32));
        let s = _mm_srli_epi32::<4>(x);
        let (a, b) = (
            _mm_blend_epi16::<0b1010_1010>(x, s),
            _mm_blend_epi16::<0b1010_1010>(s, x),
        );
        let q = _mm_ternarylogic_epi32::<SELECT>(
            keep[0],
            _mm_permutexvar_epi8(a, p[0]),
            _mm_permutexvar_epi8(a, p[1]),
        );
        let r = _mm_ternarylogic_epi32::<SELECT>(
            keep[2],
            _mm_permutexvar_epi8(b, p[2]),
            _mm_permutexvar_epi8(b, p[3]),
        );
        _mm_xor_si128(m, _mm_ternarylogic_epi32::<SELECT>(keep01, q, r))
    };
    let word = |w: u32| _mm_ror_epi32::<11>(_mm_cvtsi32_si128(w as i32));
    let (mut a, mut b) = (word(n1), word(n2));
    let mut pairs = rk.chunks_exact(2);
    for k in &mut pairs {
        b = round(k[0], a, b);
        a = round(k[1], b, a);
    }
    if let [k] = pairs.remainder() {
        b = round(*k, a, b);
    }
    let half = |v: __m128i| _mm_cvtsi128_si32(_mm_rol_epi32::<11>(v)) as u32;
    [half(a), half(b)]
}
