//! AVX2, 2 × 32 blocks bytesliced: each ymm register holds one byte of one
//! half of 32 blocks (byte `j` of `N1` or of `N2`, RFC 5830 §5.1), so a
//! half is four registers and the round's rotation left by 11 bits is, for
//! its 8-bit part, a renaming of registers; the other 3 bits are folded into
//! the `vpshufb` tables of the Baikal-T1 article's SIMD S-box.
//!
//! - Loading transposes 32 blocks (256 bytes, 8 registers) into the 8 byte
//!   planes: a `vpshufb` per register gathers each lane's two blocks into
//!   16-bit words by byte of the integer `N2 ‖ N1` (the [`Order`] folded
//!   in), then three stages of unpacks (16, 32, 64 bits) transpose the
//!   8 × 8 words; storing runs the same steps backwards.
//! - The planes are held biased, every byte XOR 0x80, so that a signed byte
//!   compare is an unsigned one. The key addition modulo 2^32 adds byte by
//!   byte; the carry out of byte `i` is `a_i > 255 − k_i` (a compare with a
//!   per-round constant, in parallel with the add) or, where
//!   `a_i = 255 − k_i`, the carry into it (`vpblendvb`), and each carry is
//!   subtracted as a mask (−1) from the next byte.
//! - Byte `m` of the sum has two nibbles, looked up by `vpshufb` in tables
//!   made for its plane: the low nibble's `K(2m+1)` shifted left 3 (bits
//!   3–6 of byte `m+1` of `f`), the high nibble's `K(2m+2)` split into its
//!   bit 0 (bit 7 of byte `m+1`) and bits 1–3 (bits 0–2 of byte `m+2`),
//!   the high tables indexed by the biased nibble. Each lookup is XORed
//!   into its plane of the other half.
//!
//! A round of 32 blocks is 50 instructions: 14 for the key addition (4
//! adds, 3 + 2 compares, 2 blends, 3 subtractions), 12 to split nibbles
//! (AND, shift, AND), 12 `vpshufb` and 12 XORs; 18 of them (the shuffles,
//! shifts and blends) share two of Zen 4's four vector pipes. Two groups
//! of 32 blocks run interleaved ([`GROUPS`]): 1.53 TSC ticks a byte
//! (about 1.70 GB/s, 16 KiB ECB) on the Zen 4 this was written on, about
//! 17 core cycles a round and group. Fewer than 64 blocks run as one group, and the last
//! fewer than 32 through a zero-padded buffer on the stack.
//!
//! The single-block path ([`rounds`], for the chained modes) is SSSE3 on
//! one xmm register, latency first: see [`OneBlock`].

use core::arch::x86_64::{
    __m128i, __m256i, _mm_add_epi32, _mm_and_si128, _mm_cvtsi32_si128, _mm_cvtsi128_si32,
    _mm_load_si128, _mm_or_si128, _mm_set1_epi8, _mm_setr_epi8, _mm_shuffle_epi8, _mm_srli_epi16,
    _mm_xor_si128, _mm256_add_epi8, _mm256_and_si256, _mm256_blendv_epi8, _mm256_cmpeq_epi8,
    _mm256_cmpgt_epi8, _mm256_load_si256, _mm256_loadu_si256, _mm256_set1_epi8, _mm256_set1_epi32,
    _mm256_shuffle_epi8, _mm256_srli_epi16, _mm256_storeu_si256, _mm256_sub_epi8,
    _mm256_unpackhi_epi16, _mm256_unpackhi_epi32, _mm256_unpackhi_epi64, _mm256_unpacklo_epi16,
    _mm256_unpacklo_epi32, _mm256_unpacklo_epi64, _mm256_xor_si256,
};

use zeroize::Zeroize;

use super::{Order, SBox};
use crate::xor::InOut;

/// How many blocks the rung processes at once: two groups of 32.
pub(super) const PAR_BLOCKS: usize = GROUPS * 32;

/// Groups of 32 blocks run side by side: one round's chain (the carries,
/// the lookups, the XORs) leaves the vector pipes half idle; two fill
/// them (1.86 → 1.53 TSC ticks a byte on Zen 4, each table and round
/// constant loaded once for both), more spill registers.
const GROUPS: usize = 2;

/// The bytes of one group.
const BATCH_LEN: usize = 8 * 32;

type V = __m256i;

/// The S-box set as `vpshufb` tables, each 16 entries repeated in both
/// lanes; `m` is the byte of the round function's input.
#[derive(Clone)]
#[repr(C, align(32))]
pub(super) struct Tables {
    /// `lo[m][v]`: `K(2m+1)(v) << 3`.
    lo: [[u8; 32]; 4],
    /// `h7[m][v ^ 8]`: bit 0 of `K(2m+2)(v)`, as bit 7.
    h7: [[u8; 32]; 4],
    /// `h3[m][v ^ 8]`: bits 1–3 of `K(2m+2)(v)`, as bits 0–2.
    h3: [[u8; 32]; 4],
    one: OneBlock,
}

/// The single-block S-box: one xmm register holds `x` in its low 32 bits,
/// and a round looks each of the eight nibbles up in its own S-box row
/// with `vpshufb`, placed where it lands in `f(x)` (rotation included).
///
/// The four low nibbles are moved one byte up by one shuffle and looked up
/// in all four rows, each result masked to its byte. Each high nibble is
/// copied to the two bytes it lands in (one shuffle for the nibbles of
/// bytes 0 and 2, one for bytes 1 and 3, which land apart), looked up in a
/// table that holds both of its parts (bit 0 as bit 7, bits 1–3 as bits
/// 0–2), and masked to the part each byte takes. Shuffle controls of
/// 0x80 make index 0 where nothing is looked up, so every table has its
/// entry 0 subtracted (`T[v] ⊕ T[0]`, zero at 0) and `f(0)` is XORed back
/// once: eight lookups give `f(x) ⊕ f(0)`, eleven `vpshufb` a round.
///
/// The high nibbles' path is the round's longest: add, shift, mask,
/// spread, lookup, mask, two ORs and the XOR, 11 cycles on Zen 4
/// (`vpshufb` takes 2); measured, a round takes 12.7 TSC ticks (about 18
/// cycles: the eleven shuffles share two pipes), the `tables` rung's 8.2.
#[derive(Clone)]
#[repr(C, align(16))]
struct OneBlock {
    /// `lo[j][v]`: `(K(2j+1)(v) ⊕ K(2j+1)(0)) << 3`.
    lo: [[u8; 16]; 4],
    /// All ones on byte `j + 1` (mod 4).
    lo_mask: [[u8; 16]; 4],
    /// `hi[j][v]`: `H(v) ⊕ H(0)`, `H(v)` the bits of `K(2j+2)(v)`
    /// rotated right by 1 in a byte (bit 0 to bit 7).
    hi: [[u8; 16]; 4],
    /// Bytes `j` and `j + 2` (the high nibbles) each to the two bytes
    /// after it (mod 4), `j` = 0, 1.
    hi_spread: [[u8; 16]; 2],
    /// 0x80 on byte `j + 1`, 0x07 on byte `j + 2` (mod 4).
    hi_mask: [[u8; 16]; 4],
    /// `f(0)`.
    f0: u32,
}

impl Tables {
    pub(super) fn new(sbox: &SBox) -> Tables {
        let rows = sbox.rows();
        let lanes = |t: [u8; 16]| -> [u8; 32] { std::array::from_fn(|i| t[i % 16]) };
        let lo = std::array::from_fn(|m| lanes(rows[2 * m].map(|s| s << 3)));
        let h7 = std::array::from_fn(|m| {
            lanes(std::array::from_fn(|v| (rows[2 * m + 1][v ^ 8] & 1) << 7))
        });
        let h3 =
            std::array::from_fn(|m| lanes(std::array::from_fn(|v| rows[2 * m + 1][v ^ 8] >> 1)));
        // Byte `j` of dword 0 is `b`, the rest `rest`.
        let bytes = |pairs: &[(usize, u8)], rest: u8| -> [u8; 16] {
            let mut t = [rest; 16];
            for &(j, b) in pairs {
                t[j % 4] = b;
            }
            t
        };
        let h = |j: usize, v: usize| {
            let s = rows[2 * j + 1][v];
            (s & 1) << 7 | s >> 1
        };
        let s0 = rows
            .iter()
            .enumerate()
            .fold(0u32, |s, (i, row)| s | u32::from(row[0]) << (4 * i));
        let one = OneBlock {
            lo: std::array::from_fn(|j| rows[2 * j].map(|s| (s ^ rows[2 * j][0]) << 3)),
            lo_mask: std::array::from_fn(|j| bytes(&[(j + 1, 0xff)], 0)),
            hi: std::array::from_fn(|j| std::array::from_fn(|v| h(j, v) ^ h(j, 0))),
            hi_spread: std::array::from_fn(|j| {
                let (a, b) = (j as u8, j as u8 + 2);
                bytes(&[(j + 1, a), (j + 2, a), (j + 3, b), (j + 4, b)], 0x80)
            }),
            hi_mask: std::array::from_fn(|j| bytes(&[(j + 1, 0x80), (j + 2, 0x07)], 0)),
            f0: s0.rotate_left(11),
        };
        Tables { lo, h7, h3, one }
    }
}

/// The tables in registers (or wherever the compiler keeps them).
struct Loaded {
    lo: [V; 4],
    h7: [V; 4],
    h3: [V; 4],
}

impl Loaded {
    #[target_feature(enable = "avx2")]
    #[inline]
    fn new(t: &Tables) -> Loaded {
        // SAFETY: each row is 32 bytes at a 32-byte aligned offset of the
        // 32-byte aligned `Tables`.
        let load = |r: &[u8; 32]| unsafe { _mm256_load_si256(r.as_ptr().cast()) };
        Loaded {
            lo: t.lo.each_ref().map(load),
            h7: t.h7.each_ref().map(load),
            h3: t.h3.each_ref().map(load),
        }
    }
}

/// The round's constants from the key word `k`, each byte repeated in a
/// 32-bit word for `vpbroadcastd`: its bytes `k0`…`k3`, then the biased
/// carry thresholds `(255 − k_i) ⊕ 0x80` of bytes 0–2.
fn round_constants(k: u32) -> [u32; 8] {
    let kb = k.to_le_bytes();
    let splat = |b: u8| u32::from(b) * 0x0101_0101;
    std::array::from_fn(|i| match i {
        0..4 => splat(kb[i]),
        4..7 => splat((255 - kb[i - 4]) ^ 0x80),
        _ => 0,
    })
}

/// One round on `G` groups of 32 blocks: `b ^= f(a + k)`, both halves as
/// biased byte planes, `c` from [`round_constants`]. Each constant and
/// table is loaded once for all the groups.
#[target_feature(enable = "avx2")]
#[inline]
fn round<const G: usize>(t: &Loaded, c: &[u32; 8], a: &[[V; 4]; G], b: &mut [[V; 4]; G]) {
    let k: [V; 7] = std::array::from_fn(|i| _mm256_set1_epi32(c[i] as i32));
    let s: [[V; 4]; G] = std::array::from_fn(|g| {
        let [a0, a1, a2, a3] = a[g];
        // Carry out of byte i: a_i > 255 − k_i, or a_i = 255 − k_i and a
        // carry in. `opaque`: seeing compare masks subtracted, LLVM would
        // add them as 0/1 instead, at one more AND each.
        let c0 = opaque(_mm256_cmpgt_epi8(a0, k[4]));
        let c1 = _mm256_blendv_epi8(_mm256_cmpgt_epi8(a1, k[5]), c0, _mm256_cmpeq_epi8(a1, k[5]));
        let c2 = _mm256_blendv_epi8(_mm256_cmpgt_epi8(a2, k[6]), c1, _mm256_cmpeq_epi8(a2, k[6]));
        [
            _mm256_add_epi8(a0, k[0]),
            _mm256_sub_epi8(_mm256_add_epi8(a1, k[1]), c0),
            _mm256_sub_epi8(_mm256_add_epi8(a2, k[2]), c1),
            _mm256_sub_epi8(_mm256_add_epi8(a3, k[3]), c2),
        ]
    });
    let nibble = _mm256_set1_epi8(0x0f);
    for m in 0..4 {
        for g in 0..G {
            let lo = _mm256_and_si256(s[g][m], nibble);
            let hi = _mm256_and_si256(_mm256_srli_epi16::<4>(s[g][m]), nibble);
            let byte = _mm256_xor_si256(
                _mm256_shuffle_epi8(t.lo[m], lo),
                _mm256_shuffle_epi8(t.h7[m], hi),
            );
            b[g][(m + 1) % 4] = _mm256_xor_si256(b[g][(m + 1) % 4], byte);
            b[g][(m + 2) % 4] =
                _mm256_xor_si256(b[g][(m + 2) % 4], _mm256_shuffle_epi8(t.h3[m], hi));
        }
    }
}

/// `x`, unchanged, through an empty `asm!` block that hides its value from
/// the optimiser. Costs no instruction.
#[target_feature(enable = "avx2")]
#[inline]
fn opaque(x: V) -> V {
    let mut x = x;
    // SAFETY: the template is empty: no instruction runs, no register,
    // memory or flag changes.
    unsafe {
        core::arch::asm!("/* {0} */", inout(ymm_reg) x, options(pure, nomem, nostack, preserves_flags));
    }
    x
}

/// The 8 × 8 transposition of 16-bit words within each lane: word `w` of
/// output `w'`… is word `w'` of input `w` (its own inverse).
#[target_feature(enable = "avx2")]
#[inline]
fn transpose(x: [V; 8]) -> [V; 8] {
    let a = [
        _mm256_unpacklo_epi16(x[0], x[1]),
        _mm256_unpackhi_epi16(x[0], x[1]),
        _mm256_unpacklo_epi16(x[2], x[3]),
        _mm256_unpackhi_epi16(x[2], x[3]),
        _mm256_unpacklo_epi16(x[4], x[5]),
        _mm256_unpackhi_epi16(x[4], x[5]),
        _mm256_unpacklo_epi16(x[6], x[7]),
        _mm256_unpackhi_epi16(x[6], x[7]),
    ];
    let b = [
        _mm256_unpacklo_epi32(a[0], a[2]),
        _mm256_unpackhi_epi32(a[0], a[2]),
        _mm256_unpacklo_epi32(a[1], a[3]),
        _mm256_unpackhi_epi32(a[1], a[3]),
        _mm256_unpacklo_epi32(a[4], a[6]),
        _mm256_unpackhi_epi32(a[4], a[6]),
        _mm256_unpacklo_epi32(a[5], a[7]),
        _mm256_unpackhi_epi32(a[5], a[7]),
    ];
    [
        _mm256_unpacklo_epi64(b[0], b[4]),
        _mm256_unpackhi_epi64(b[0], b[4]),
        _mm256_unpacklo_epi64(b[1], b[5]),
        _mm256_unpackhi_epi64(b[1], b[5]),
        _mm256_unpacklo_epi64(b[2], b[6]),
        _mm256_unpackhi_epi64(b[2], b[6]),
        _mm256_unpacklo_epi64(b[3], b[7]),
        _mm256_unpackhi_epi64(b[3], b[7]),
    ]
}

/// The `vpshufb` controls that gather a lane's two blocks by byte of the
/// integer `N2 ‖ N1` (word `w` = byte `w` of both), and back.
fn gather_controls(order: Order) -> ([u8; 32], [u8; 32]) {
    // Byte `w` of the integer is byte `pos(w)` of its block.
    let pos = |w: usize| match order {
        Order::Le => w,
        Order::Be => 7 - w,
    };
    let gather = std::array::from_fn(|i| (pos(i % 16 / 2) + 8 * (i % 2)) as u8);
    let scatter = std::array::from_fn(|i| {
        let (block, byte) = (i % 16 / 8, i % 8);
        (2 * pos(byte) + block) as u8
    });
    (gather, scatter)
}

/// The 32 rounds on `G` groups of 32 blocks at `src`, written to `dst`,
/// the groups' rounds interleaved.
///
/// # Safety
///
/// `src` readable and `dst` writable for `G` × 256 bytes, the same or
/// apart.
#[target_feature(enable = "avx2")]
unsafe fn batch<const G: usize>(
    t: &Loaded,
    keys: &[[u32; 8]; 32],
    shuffles: &[V; 2],
    src: *const u8,
    dst: *mut u8,
) {
    let bias = _mm256_set1_epi8(-0x80);
    let mut n1 = [[bias; 4]; G];
    let mut n2 = [[bias; 4]; G];
    for g in 0..G {
        // SAFETY: 8 loads of 32 bytes within the G × 256 the caller
        // vouches for.
        let blocks: [V; 8] = std::array::from_fn(|r| unsafe {
            _mm256_shuffle_epi8(
                _mm256_loadu_si256(src.add(BATCH_LEN * g + 32 * r).cast()),
                shuffles[0],
            )
        });
        let planes = transpose(blocks).map(|p| _mm256_xor_si256(p, bias));
        n1[g] = [planes[0], planes[1], planes[2], planes[3]];
        n2[g] = [planes[4], planes[5], planes[6], planes[7]];
    }
    for pair in keys.chunks_exact(2) {
        round(t, &pair[0], &n1, &mut n2);
        round(t, &pair[1], &n2, &mut n1);
    }
    for g in 0..G {
        // The output is N1 ‖ N2 read as N1 << 32 | N2: the halves trade
        // places.
        let (a, b) = (n2[g], n1[g]);
        let planes = [a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3]];
        for (r, v) in transpose(planes.map(|p| _mm256_xor_si256(p, bias)))
            .into_iter()
            .enumerate()
        {
            // SAFETY: 8 stores of 32 bytes within the G × 256 the caller
            // vouches for, after every load.
            unsafe {
                _mm256_storeu_si256(
                    dst.add(BATCH_LEN * g + 32 * r).cast(),
                    _mm256_shuffle_epi8(v, shuffles[1]),
                )
            };
        }
    }
}

/// The 32 rounds under `rk` on whole blocks, 64 at a time, then 32, the
/// last fewer than 32 through a buffer on the stack.
///
/// # Safety
///
/// The CPU has AVX2.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn crypt(t: &Tables, rk: &[u32; 32], order: Order, blocks: InOut<'_>) {
    let (src, dst, len) = blocks.into_raw();
    if len == 0 {
        return;
    }
    let loaded = Loaded::new(t);
    // Written in place (a `from_fn` array is built elsewhere and copied).
    let mut keys = [[0u32; 8]; 32];
    for (c, &k) in keys.iter_mut().zip(rk) {
        *c = round_constants(k);
    }
    let (gather, scatter) = gather_controls(order);
    // SAFETY: both arrays are 32 bytes.
    let shuffles = unsafe {
        [
            _mm256_loadu_si256(gather.as_ptr().cast()),
            _mm256_loadu_si256(scatter.as_ptr().cast()),
        ]
    };
    let whole = len - len % BATCH_LEN;
    let mut at = 0;
    while at + GROUPS * BATCH_LEN <= whole {
        // SAFETY: within both buffers (`into_raw`).
        unsafe { batch::<GROUPS>(&loaded, &keys, &shuffles, src.add(at), dst.add(at)) };
        at += GROUPS * BATCH_LEN;
    }
    while at < whole {
        // SAFETY: `at + 256 <= len`: within both buffers (`into_raw`).
        unsafe { batch::<1>(&loaded, &keys, &shuffles, src.add(at), dst.add(at)) };
        at += BATCH_LEN;
    }
    if whole < len {
        let rest = len - whole;
        let mut buf = [0u8; BATCH_LEN];
        // SAFETY: `rest` bytes from `whole` are within the input; `buf`
        // is 256 bytes, read and written in place; `rest` bytes out again
        // within the output.
        unsafe {
            std::ptr::copy_nonoverlapping(src.add(whole), buf.as_mut_ptr(), rest);
            batch::<1>(&loaded, &keys, &shuffles, buf.as_ptr(), buf.as_mut_ptr());
            std::ptr::copy_nonoverlapping(buf.as_ptr(), dst.add(whole), rest);
        }
    }
    keys.zeroize();
}

/// The rounds under `rk` of one block `[N1, N2]` (the form
/// [`super::Engine::rounds`] describes), each in the low 32 bits of an xmm
/// register ([`OneBlock`]).
///
/// # Safety
///
/// The CPU has AVX2.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn rounds(t: &Tables, rk: &[u32], [n1, n2]: [u32; 2]) -> [u32; 2] {
    let o = &t.one;
    // SAFETY: each row is 16 bytes at a 16-byte aligned offset of the
    // 16-byte aligned `OneBlock`.
    let load = |r: &[u8; 16]| unsafe { _mm_load_si128(r.as_ptr().cast()) };
    let lo = o.lo.each_ref().map(load);
    let lo_mask = o.lo_mask.each_ref().map(load);
    let hi = o.hi.each_ref().map(load);
    let hi_spread = o.hi_spread.each_ref().map(load);
    let hi_mask = o.hi_mask.each_ref().map(load);
    let f0 = _mm_cvtsi32_si128(o.f0 as i32);
    let nibble = _mm_set1_epi8(0x0f);
    // Byte p of the low word from byte p − 1 (mod 4); the rest zero.
    let up = _mm_setr_epi8(3, 0, 1, 2, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
    // `other ^ f(half + k)`.
    let step = |half: __m128i, other: __m128i, k: u32| {
        let x = _mm_add_epi32(half, _mm_cvtsi32_si128(k as i32));
        let low = _mm_shuffle_epi8(_mm_and_si128(x, nibble), up);
        let high = _mm_and_si128(_mm_srli_epi16::<4>(x), nibble);
        let l = |j: usize| _mm_and_si128(_mm_shuffle_epi8(lo[j], low), lo_mask[j]);
        let spread = [
            _mm_shuffle_epi8(high, hi_spread[0]),
            _mm_shuffle_epi8(high, hi_spread[1]),
        ];
        let h = |j: usize| _mm_and_si128(_mm_shuffle_epi8(hi[j], spread[j % 2]), hi_mask[j]);
        let highs = _mm_or_si128(_mm_or_si128(h(0), h(1)), _mm_or_si128(h(2), h(3)));
        // The eight parts hold disjoint bits: ORed, so that the compiler
        // keeps the XORs with `other` and `f(0)` off the lookups' path.
        let lows = _mm_or_si128(_mm_or_si128(l(0), l(1)), _mm_or_si128(l(2), l(3)));
        _mm_xor_si128(_mm_xor_si128(other, f0), _mm_or_si128(lows, highs))
    };
    let (mut n1, mut n2) = (_mm_cvtsi32_si128(n1 as i32), _mm_cvtsi32_si128(n2 as i32));
    let mut pairs = rk.chunks_exact(2);
    for k in &mut pairs {
        n2 = step(n1, n2, k[0]);
        n1 = step(n2, n1, k[1]);
    }
    if let [k] = pairs.remainder() {
        n2 = step(n1, n2, *k);
    }
    [_mm_cvtsi128_si32(n1) as u32, _mm_cvtsi128_si32(n2) as u32]
}

#[cfg(test)]
mod tests {
    use super::super::{Order, SBox, reference};
    use crate::xor::InOut;

    /// The carries between byte planes at their edges: key words with
    /// bytes 0x00, 0x7f, 0x80 and 0xff, and halves that make the first
    /// round's sum carry through one, two or three bytes (`a_i = 255 −
    /// k_i` all the way) or stop just short, in every lane of a batch.
    #[test]
    fn carries_at_the_edges_agree_with_the_reference() {
        if !std::is_x86_feature_detected!("avx2") {
            return;
        }
        let keys = [
            0,
            0xffff_ffff,
            0xff,
            0xffff,
            0xff_ffff,
            0xff00_0000,
            0x8080_8080,
            0x7f7f_7f7f,
            0x0101_0101,
            0xfefe_fefe,
            0x00ff_00ff,
            0x1234_5678,
        ];
        let sbox = SBox::CRYPTOPRO_A;
        let t = super::Tables::new(&sbox);
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for &k in &keys {
            let mut rk: [u32; 32] = std::array::from_fn(|_| next() as u32);
            rk[0] = k;
            let neg = k.wrapping_neg();
            let halves: Vec<u32> = [
                0,
                1,
                u32::MAX,
                neg,
                neg.wrapping_sub(1),
                neg.wrapping_add(1),
            ]
            .into_iter()
            .chain((0..4).map(|i| !k & (u32::MAX >> (8 * i))))
            .chain((0..4).map(|i| (!k & (u32::MAX >> (8 * i))).wrapping_add(1)))
            .collect();
            let blocks: Vec<u64> = (0..67)
                .map(|i| u64::from(halves[i % halves.len()]) | next() << 32)
                .collect();
            let input: Vec<u8> = blocks.iter().flat_map(|b| b.to_le_bytes()).collect();
            let mut got = vec![0u8; input.len()];
            // SAFETY: the CPU has AVX2 (checked above).
            unsafe { super::crypt(&t, &rk, Order::Le, InOut::apart(&input, &mut got).unwrap()) };
            for (i, (&b, out)) in blocks.iter().zip(got.chunks_exact(8)).enumerate() {
                let [n1, n2] = reference::rounds(&sbox, &rk, [b as u32, (b >> 32) as u32]);
                let want = u64::from(n1) << 32 | u64::from(n2);
                assert_eq!(out, want.to_le_bytes(), "key {k:#x}, block {i}");
                // SAFETY: as above.
                let one = unsafe { super::rounds(&t, &rk, [b as u32, (b >> 32) as u32]) };
                assert_eq!(one, [n1, n2], "one block, key {k:#x}, block {i}");
            }
        }
    }
}
