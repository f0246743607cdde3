//! SSE2, one block: column quarter-rounds in SIMD, state written back and
//! transposed each round (the classic study's v1).
//!
//! The state is the specification's 4×4 matrix, kept in memory. Its columns
//! are rotated so that the words each column quarter-round starts at line up
//! in one row (the study's "Rotation der Spalten"):
//!
//! ```text
//! x0  x1  x2  x3         x0  x5  x10 x15   ← y0 of every column's quarter-round
//! x4  x5  x6  x7    ⇒    x4  x9  x14 x3    ← y1
//! x8  x9  x10 x11        x8  x13 x2  x7    ← y2
//! x12 x13 x14 x15        x12 x1  x6  x11   ← y3
//! ```
//!
//! Every round loads the four rows into four registers, runs the four column
//! quarter-rounds lane-parallel, and stores the registers back. Then, as the
//! reference's matrix picture has it, the matrix is transposed so that the
//! next column round works on the rows. Undoing the rotation, transposing
//! and rotating for the next round are fused into one permutation of the 16
//! words in memory ([`next_round`]), the study's optimisation. The round
//! trip through memory each round is the point of this rung: `sse2-shuffle`
//! keeps the state in registers instead.

use core::arch::x86_64::{
    __m128i, _mm_add_epi32, _mm_loadu_si128, _mm_storeu_si128, _mm_xor_si128,
};

use super::quarterround;
use crate::simd::rotl_sse2;

/// The matrix with its columns rotated: row `i`, lane `j` holds the word at
/// row `(i + j) mod 4` of column `j`, i.e. step `i` of column `j`'s
/// quarter-round.
type Rotated = [[u32; 4]; 4];

/// The column round on the rotated matrix: load the rows, the four
/// quarter-rounds lane-parallel (`y1 ^= (y0+y3)<<<7`, `y2 ^= (y1+y0)<<<9`,
/// `y3 ^= (y2+y1)<<<13`, `y0 ^= (y3+y2)<<<18`), store the rows back.
#[inline]
#[target_feature(enable = "sse2")]
fn column_round(r: &mut Rotated) {
    // SAFETY: each row is 16 readable bytes; the loads are unaligned.
    let [mut y0, mut y1, mut y2, mut y3]: [__m128i; 4] = r
        .each_ref()
        .map(|row| unsafe { _mm_loadu_si128(row.as_ptr().cast()) });
    quarterround!(_mm_add_epi32, _mm_xor_si128, rotl_sse2; y0, y1, y2, y3);
    for (row, y) in r.iter_mut().zip([y0, y1, y2, y3]) {
        // SAFETY: each row is 16 writable bytes; the store is unaligned.
        unsafe { _mm_storeu_si128(row.as_mut_ptr().cast(), y) };
    }
}

/// Undo the rotation, transpose, rotate for the next round — in one pass.
///
/// With `m[a][b] = r[(a − b) mod 4][b]` and the transpose `m'[a][b] =
/// m[b][a]`, the next rotated matrix is `r'[i][j] = m'[(i + j) mod 4][j] =
/// r[(−i) mod 4][(i + j) mod 4]`: row 0 (the diagonal) stays, rows 1 and 3
/// swap, and each row's lanes turn by its index.
#[inline(always)]
fn next_round(r: &Rotated) -> Rotated {
    std::array::from_fn(|i| std::array::from_fn(|j| r[(4 - i) % 4][(i + j) % 4]))
}

/// The column rotation of the state `x` (row-major matrix).
#[inline(always)]
fn rotate(x: &[u32; 16]) -> Rotated {
    std::array::from_fn(|i| std::array::from_fn(|j| x[4 * ((i + j) % 4) + j]))
}

/// The state of the rotated matrix `r`, row-major: `x[4a + b] = r[(a − b) mod 4][b]`.
#[inline(always)]
fn unrotate(r: &Rotated) -> [u32; 16] {
    std::array::from_fn(|k| {
        let (a, b) = (k / 4, k % 4);
        r[(4 + a - b) % 4][b]
    })
}

/// `double_rounds` double-rounds of the state, without the final addition:
/// `2 · double_rounds` times a column round, then a transpose.
#[inline]
#[target_feature(enable = "sse2")]
pub(super) fn double_rounds(x: &[u32; 16], double_rounds: usize) -> [u32; 16] {
    let mut r = rotate(x);
    for _round in 0..2 * double_rounds {
        column_round(&mut r);
        r = next_round(&r);
    }
    // An even number of transposes: the matrix is back in its own orientation.
    unrotate(&r)
}

#[cfg(test)]
mod tests {
    use super::super::reference;

    /// A fixed-seed xorshift stream, so failures reproduce.
    fn states() -> impl Iterator<Item = [u32; 16]> {
        let mut s: u64 = 0x0a06_bdcb_160d_9001;
        let mut next = move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s as u32
        };
        let random: Vec<[u32; 16]> = (0..32).map(|_| std::array::from_fn(|_| next())).collect();
        let edges = [[0; 16], [u32::MAX; 16], std::array::from_fn(|i| i as u32)];
        edges.into_iter().chain(random)
    }

    #[test]
    fn equals_reference() {
        for x in states() {
            for n in 0..=10 {
                // SAFETY: SSE2 is part of the x86-64 baseline.
                let got = unsafe { super::double_rounds(&x, n) };
                assert_eq!(
                    got,
                    reference::double_rounds(&x, n),
                    "{n} double-rounds of {x:08x?}"
                );
            }
        }
    }

    #[test]
    fn rotation_round_trips() {
        let x: [u32; 16] = std::array::from_fn(|i| i as u32);
        let r = super::rotate(&x);
        assert_eq!(r[0], [0, 5, 10, 15]);
        assert_eq!(r[1], [4, 9, 14, 3]);
        assert_eq!(r[2], [8, 13, 2, 7]);
        assert_eq!(r[3], [12, 1, 6, 11]);
        assert_eq!(super::unrotate(&r), x);
        // The fused step equals undo rotation, transpose, rotate.
        let transposed: [u32; 16] = std::array::from_fn(|k| x[4 * (k % 4) + k / 4]);
        assert_eq!(super::next_round(&r), super::rotate(&transposed));
    }
}
