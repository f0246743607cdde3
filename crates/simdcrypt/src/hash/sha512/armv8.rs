//! The Armv8.2 SHA-512 instructions (FEAT_SHA512, Arm ARM C7.2:
//! `SHA512H`, `SHA512H2`, `SHA512SU0`, `SHA512SU1`): `sha512h` and
//! `sha512h2` do two rounds of FIPS 180-4 §6.4.2 step 3, the first adding
//! Σ1 and Ch into the new e and f (T1), the second Σ0 and Maj into the new
//! a and b; `sha512su0` and `sha512su1` compute the schedule (step 1) two
//! words at a time. The state stays in the hash value's order, two words a
//! register (AB, CD, EF, GH, a in lane 0), and each double round renames
//! the registers instead of moving them, as in Arm's and OpenSSL's
//! `sha512_block_armv8`. All blocks run in one loop.

use core::arch::aarch64::{
    uint64x2_t, vaddq_u64, vextq_u64, vsha512h2q_u64, vsha512hq_u64, vsha512su0q_u64,
    vsha512su1q_u64,
};

use super::K512;
use super::neon::{load_be, load_words, store};

/// Rounds `2j` and `2j + 1` on the registers named, this double round,
/// `x0 … x3` (AB, CD, EF, GH renamed: each double round's x0 is the
/// previous one's x3). `s[j % 8]` holds W_{2j} and W_{2j+1}, computed
/// first from the words 16, 15, 7 and 2 back for j ≥ 8. The new e and f
/// (`x1` + T1) replace `x1`, the new a and b (T1 + T2) replace `x3`.
macro_rules! double_round {
    ($j:expr, $s:ident, $k:ident, $x0:ident $x1:ident $x2:ident $x3:ident) => {
        if $j >= 8 {
            $s[$j % 8] = vsha512su1q_u64(
                vsha512su0q_u64($s[$j % 8], $s[($j + 1) % 8]),
                $s[($j + 7) % 8],
                vextq_u64::<1>($s[($j + 4) % 8], $s[($j + 5) % 8]),
            );
        }
        let wk = vaddq_u64($s[$j % 8], load_words(&$k[$j]));
        // h + K_t + W_t for the first round in the high lane.
        let hwk = vaddq_u64(vextq_u64::<1>(wk, wk), $x3);
        let t1 = vsha512hq_u64(hwk, vextq_u64::<1>($x2, $x3), vextq_u64::<1>($x1, $x2));
        $x3 = vsha512h2q_u64(t1, $x1, $x0);
        $x1 = vaddq_u64($x1, t1);
    };
}

/// Double rounds `j … j + 3`, after which the names are back in place.
macro_rules! four_double_rounds {
    ($j:expr, $s:ident, $k:ident, $ab:ident $cd:ident $ef:ident $gh:ident) => {
        double_round!($j, $s, $k, $ab $cd $ef $gh);
        double_round!($j + 1, $s, $k, $gh $ab $cd $ef);
        double_round!($j + 2, $s, $k, $ef $gh $ab $cd);
        double_round!($j + 3, $s, $k, $cd $ef $gh $ab);
    };
}

/// Hashes whole 1024-bit blocks into the hash value `state` (§6.4.2).
#[target_feature(enable = "neon,sha3")]
pub(super) fn compress(state: &mut [u64; 8], blocks: &[[u8; 128]]) {
    let (k, _) = K512.as_chunks::<2>();
    let (pairs, _) = state.as_chunks_mut::<2>();
    let [mut ab, mut cd, mut ef, mut gh] = [0, 1, 2, 3].map(|i| load_words(&pairs[i]));
    for block in blocks {
        let saved = [ab, cd, ef, gh];
        let (chunks, _) = block.as_chunks::<16>();
        let mut s: [uint64x2_t; 8] = core::array::from_fn(|i| load_be(&chunks[i]));
        four_double_rounds!(0, s, k, ab cd ef gh);
        four_double_rounds!(4, s, k, ab cd ef gh);
        four_double_rounds!(8, s, k, ab cd ef gh);
        four_double_rounds!(12, s, k, ab cd ef gh);
        four_double_rounds!(16, s, k, ab cd ef gh);
        four_double_rounds!(20, s, k, ab cd ef gh);
        four_double_rounds!(24, s, k, ab cd ef gh);
        four_double_rounds!(28, s, k, ab cd ef gh);
        four_double_rounds!(32, s, k, ab cd ef gh);
        four_double_rounds!(36, s, k, ab cd ef gh);
        // Step 4: the intermediate hash value.
        ab = vaddq_u64(ab, saved[0]);
        cd = vaddq_u64(cd, saved[1]);
        ef = vaddq_u64(ef, saved[2]);
        gh = vaddq_u64(gh, saved[3]);
    }
    for (pair, v) in pairs.iter_mut().zip([ab, cd, ef, gh]) {
        store(pair, v);
    }
}
