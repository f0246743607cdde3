//! Multi-buffer hashing: many independent messages at once, one message
//! per SIMD lane, for SHA-256 (FIPS 180-4 §6.2) and MD5 (RFC 1321 §3.4).
//!
//! | rung | CPU | technique |
//! |---|---|---|
//! | `sequential` | any | each message on its family's fastest single-message rung, one after another |
//! | `avx2` | AVX2 | 8 messages, word `i` of each in one ymm register (MD5: 16, as two groups of 8 side by side); blocks loaded as rows and transposed, byte-swapped with `vpshufb` |
//! | `avx512` | AVX-512F/BW | 16 messages in zmm registers; `vprold`/`vprord` rotates, `vpternlogd` for Ch, Maj, the three-way XORs and MD5's F, G, H, I |
//!
//! Messages of different lengths share the lanes: the longest are started
//! first, a lane whose message is done (its padding included, computed in
//! the lane) takes the next one from the queue, and the lanes run while at
//! least a rung-and-family threshold of them is busy (idle lanes read a
//! block of zeros); below it the messages still in lanes are finished on
//! the single-message rung, which is then faster.
//!
//! Measured on an AMD EPYC (Zen 3, TSC 2.445 GHz, 2 vCPUs shared with
//! other builds, so noisy: the best of 2000 runs with `std::time::Instant`),
//! whole calls:
//!
//! | messages | SHA-256 one after another on SHA-NI (RustCrypto `sha2` as the stand-in) | SHA-256 `avx2` | MD5 `sequential` (`scalar` rung) | MD5 `avx2` |
//! |---|---:|---:|---:|---:|
//! | 16 × 1 KiB | 10.9 µs | 11.7 µs (0.93×) | 24.9 µs | 3.5 µs (7.1×) |
//! | 16 × 4 KiB | 41.4 µs | 41.9 µs (0.99×) | 94.0 µs | 11.7 µs (8.0×) |
//! | 16 × 256 B | 3.3 µs | 4.3 µs (0.77×) | 7.6 µs | 1.7 µs (4.5×) |
//! | 16 × 64 B | 1.3 µs | 2.3 µs (0.58×) | 3.2 µs | 1.2 µs (2.6×) |
//! | 33 of 0–300 B | 6.9 µs | 9.8 µs (0.70×) | 16.4 µs | 4.3 µs (3.8×) |
//!
//! SHA-NI computes a SHA-256 block in about 1.5 cycles a byte; eight lanes
//! of AVX2 take about 890 cycles a block of each (1.75 cycles a byte):
//! every rotate is two shifts and an OR, 1248 shifts a block, and Zen 3
//! has two vector shift pipes. So the `avx2` rung does not beat SHA-NI, let
//! alone reach 3× it: where the CPU has SHA-NI and no AVX-512,
//! [`sha256_many`] runs `sequential`; `avx2` is chosen only without
//! SHA-NI. The `avx512` rung (one `vprord` per rotate, one `vpternlogd` per
//! Ch, Maj and three-way XOR: about 1550 instructions a block of 16 lanes
//! against some 2400 for 8 lanes of AVX2) could not be timed here (no
//! AVX-512 on this machine; it is checked in an emulator), and is chosen
//! wherever AVX-512F/BW is present.

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;

use super::md::{self, Family};
use super::{md5, sha256};
use crate::Error;
use crate::table::{Kind, Primitive, Rungs, rung_infos};
use crate::rung::rungs;

rungs! {
    primitive = "hash-many";
    /// The implementations of multi-buffer hashing, slowest first (for
    /// many messages; which is fastest depends on the family and the CPU,
    /// see [`Rung::best_sha256`] and [`Rung::best_md5`]).
    pub enum Rung {
        /// One message after another on the family's fastest rung.
        Sequential = "sequential", needs "nothing", if |_f| true, arch = any;
        /// 8 messages in the lanes of ymm registers.
        Avx2 = "avx2", needs "AVX2", if |f| f.avx2, arch = "x86_64";
        /// 16 messages in the lanes of zmm registers.
        Avx512 = "avx512", needs "AVX-512F and AVX-512BW", if |f| f.avx512f && f.avx512bw, arch = "x86_64";
    }
}

impl Rung {
    /// The fastest rung for SHA-256 on this CPU: `avx512` where it runs;
    /// else `sequential` where the CPU has SHA-NI (which is as fast as 8
    /// lanes of AVX2, see the module docs); else `avx2` where it runs.
    pub fn best_sha256() -> Rung {
        if Rung::Avx512.is_available() {
            Rung::Avx512
        } else if crate::cpu::features().sha || !Rung::Avx2.is_available() {
            Rung::Sequential
        } else {
            Rung::Avx2
        }
    }

    /// The fastest rung for MD5 on this CPU: the widest that runs.
    pub fn best_md5() -> Rung {
        [Rung::Avx512, Rung::Avx2]
            .into_iter()
            .find(|i| i.is_available())
            .unwrap_or(Rung::Sequential)
    }
}

/// The SHA-256 digests (FIPS 180-4 §6.2) of `msgs`, in order, on the
/// fastest rung for SHA-256 ([`Rung::best_sha256`]).
///
/// ```
/// use simdcrypt::hash::{Sha256, many, sha256_many};
///
/// let files: [&[u8]; 3] = [b"one", b"two", b"a longer third message"];
/// let digests = sha256_many(&files);
/// for (file, digest) in files.iter().zip(&digests) {
///     assert_eq!(*digest, Sha256::digest(file));
/// }
/// // Any rung by name, e.g. to compare them.
/// assert_eq!(many::sha256_many_with(many::Rung::Sequential, &files)?, digests);
/// # Ok::<(), simdcrypt::Error>(())
/// ```
pub fn sha256_many(msgs: &[&[u8]]) -> Vec<[u8; 32]> {
    digests(sha256_states(Rung::best_sha256(), msgs))
}

/// The MD5 digests (RFC 1321) of `msgs`, in order, on the fastest rung for
/// MD5 ([`Rung::best_md5`]). MD5 is broken for collision resistance: for
/// compatibility and checksums only.
pub fn md5_many(msgs: &[&[u8]]) -> Vec<[u8; 16]> {
    digests(md5_states(Rung::best_md5(), msgs))
}

/// [`sha256_many`] on the rung `imp`.
///
/// # Errors
///
/// [`Error::RungUnavailable`] when the CPU lacks the rung.
pub fn sha256_many_with(imp: Rung, msgs: &[&[u8]]) -> Result<Vec<[u8; 32]>, Error> {
    Ok(digests(sha256_states(imp.require()?, msgs)))
}

/// [`md5_many`] on the rung `imp`.
///
/// # Errors
///
/// [`Error::RungUnavailable`] when the CPU lacks the rung.
pub fn md5_many_with(imp: Rung, msgs: &[&[u8]]) -> Result<Vec<[u8; 16]>, Error> {
    Ok(digests(md5_states(imp.require()?, msgs)))
}

/// Fewest busy lanes for which a vector rung is faster than finishing the
/// messages in them on the single-message rung. SHA-256 on `avx2` (about
/// 890 cycles a block in all 8 lanes): 8 beside SHA-NI (about 100 cycles a
/// block), 3 beside the scalar rungs (some 300).
#[cfg(target_arch = "x86_64")]
fn sha256_min_lanes_avx2() -> usize {
    if crate::cpu::features().sha { 8 } else { 3 }
}
/// As [`sha256_min_lanes_avx2`], for `avx512` (an estimate, not measured:
/// 16 lanes for about the cost of 8 on AVX2).
#[cfg(target_arch = "x86_64")]
fn sha256_min_lanes_avx512() -> usize {
    if crate::cpu::features().sha { 6 } else { 2 }
}
/// As [`sha256_min_lanes_avx2`], for MD5 on `avx2`: all 16 lanes (two
/// groups of 8) take about 530 cycles a block, the `scalar` rung about 220.
#[cfg(target_arch = "x86_64")]
const MD5_MIN_LANES_AVX2: usize = 3;
/// As [`MD5_MIN_LANES_AVX2`], for `avx512` (an estimate).
#[cfg(target_arch = "x86_64")]
const MD5_MIN_LANES_AVX512: usize = 2;

/// The final SHA-256 states of `msgs` on the rung `imp` (known available).
fn sha256_states(imp: Rung, msgs: &[&[u8]]) -> Vec<sha256::State> {
    match imp {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: this rung passed `require()`, so the CPU has AVX2.
        Rung::Avx2 => unsafe { avx2::sha256(msgs, sha256_min_lanes_avx2()) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: this rung passed `require()`, so the CPU has AVX-512F/BW.
        Rung::Avx512 => unsafe { avx512::sha256(msgs, sha256_min_lanes_avx512()) },
        // Sequential, and the SIMD rungs off x86-64 (never available).
        _ => msgs.iter().map(|m| one(sha256::H256, m)).collect(),
    }
}

/// The final MD5 states of `msgs` on the rung `imp` (known available).
fn md5_states(imp: Rung, msgs: &[&[u8]]) -> Vec<md5::State> {
    match imp {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: this rung passed `require()`, so the CPU has AVX2.
        Rung::Avx2 => unsafe { avx2::md5(msgs, MD5_MIN_LANES_AVX2) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: this rung passed `require()`, so the CPU has AVX-512F/BW.
        Rung::Avx512 => unsafe { avx512::md5(msgs, MD5_MIN_LANES_AVX512) },
        // Sequential, and the SIMD rungs off x86-64 (never available).
        _ => msgs.iter().map(|m| one(md5::IV, m)).collect(),
    }
}

/// The digests of final states.
fn digests<F: Family<64>, const OUT: usize>(states: Vec<F>) -> Vec<[u8; OUT]> {
    states
        .iter()
        .map(|s| {
            let mut out = [0; OUT];
            s.write_output(&mut out);
            out
        })
        .collect()
}

/// The final state of the message `msg` from `iv` on the family's fastest
/// single-message rung.
fn one<F: Family<64>>(iv: F, msg: &[u8]) -> F {
    let (whole, tail) = msg.as_chunks::<64>();
    let (pad, count) = md::padding::<F, 64>(tail, msg.len() as u128);
    let mut state = iv;
    state.compress(F::best(), whole);
    state.compress(F::best(), &pad[..count]);
    state
}

/// A family whose chaining value is `W` 32-bit words, as the lanes hold it.
#[cfg(target_arch = "x86_64")]
pub(crate) trait LaneState<const W: usize>: Family<64> {
    /// The chaining value's words.
    fn to_words(self) -> [u32; W];
    /// The chaining value of these words.
    fn from_words(words: [u32; W]) -> Self;
}

#[cfg(target_arch = "x86_64")]
impl LaneState<8> for sha256::State {
    fn to_words(self) -> [u32; 8] {
        self.0
    }
    fn from_words(words: [u32; 8]) -> Self {
        md::Words(words)
    }
}

#[cfg(target_arch = "x86_64")]
impl LaneState<4> for md5::State {
    fn to_words(self) -> [u32; 4] {
        self.0
    }
    fn from_words(words: [u32; 4]) -> Self {
        md::Words(words)
    }
}

/// Blocks a kernel call runs at most in each lane.
#[cfg(target_arch = "x86_64")]
const MAX_RUN: usize = 16;

/// What an idle lane reads.
#[cfg(target_arch = "x86_64")]
static ZEROS: [[u8; 64]; MAX_RUN] = [[0; 64]; MAX_RUN];

/// A message in a lane: its whole blocks not yet hashed, then its padding
/// blocks (RFC 1321 §3.1–3.2, FIPS 180-4 §5.1.1).
#[cfg(target_arch = "x86_64")]
struct Lane<'a> {
    /// The message's index in the caller's list.
    msg: usize,
    /// Whole blocks still to hash.
    whole: &'a [[u8; 64]],
    /// The last block or two: the tail, 0x80, zeros, the length.
    pad: [[u8; 64]; 2],
    /// Padding blocks `pad_from..pad_to` are still to hash.
    pad_from: usize,
    /// How many padding blocks there are.
    pad_to: usize,
}

#[cfg(target_arch = "x86_64")]
impl<'a> Lane<'a> {
    /// The message `data`, number `msg`, nothing hashed yet.
    fn new<F: Family<64>>(msg: usize, data: &'a [u8]) -> Self {
        let (whole, tail) = data.as_chunks::<64>();
        let (pad, count) = md::padding::<F, 64>(tail, data.len() as u128);
        Lane {
            msg,
            whole,
            pad,
            pad_from: 0,
            pad_to: count,
        }
    }

    /// The blocks to hash next without a break: the rest of the whole
    /// blocks, else the rest of the padding (empty when done).
    fn blocks(&self) -> &[[u8; 64]] {
        if self.whole.is_empty() {
            &self.pad[self.pad_from..self.pad_to]
        } else {
            self.whole
        }
    }

    /// Steps past `n <= self.blocks().len()` blocks; `true` when the
    /// message is done.
    fn advance(&mut self, n: usize) -> bool {
        if self.whole.is_empty() {
            self.pad_from += n;
        } else {
            self.whole = &self.whole[n..];
        }
        self.whole.is_empty() && self.pad_from == self.pad_to
    }
}

/// Runs `msgs` through `N` lanes from the initial value `iv` and returns
/// their final states: `kernel(state, blocks, run)` hashes blocks
/// `0..run` of `blocks[l]` into lane `l` of `state` (word `w` of lane `l`
/// in `state[w][l]`) for every lane. Longest messages go first; a lane
/// whose message is done takes the next; while fewer than `min_lanes` are
/// busy, the messages in them are finished on the single-message rung.
/// Inlined into each rung's `#[target_feature]` function, so the kernel is
/// too.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn schedule<'m, F: LaneState<W>, const N: usize, const W: usize>(
    msgs: &[&'m [u8]],
    iv: F,
    min_lanes: usize,
    mut kernel: impl FnMut(&mut [[u32; N]; W], &[&[[u8; 64]]; N], usize),
) -> Vec<F> {
    let mut out = vec![iv; msgs.len()];
    let mut order: Vec<usize> = (0..msgs.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(msgs[i].len()));
    let mut queue = order.into_iter();
    let iv_words = iv.to_words();
    let mut state = [[0u32; N]; W];
    let mut lanes: [Option<Lane<'m>>; N] = std::array::from_fn(|_| None);
    let mut refill = |lane: &mut Option<Lane<'m>>, state: &mut [[u32; N]; W], l: usize| {
        *lane = queue.next().map(|i| Lane::new::<F>(i, msgs[i]));
        for (word, &v) in state.iter_mut().zip(&iv_words) {
            word[l] = v;
        }
    };
    for (l, lane) in lanes.iter_mut().enumerate() {
        refill(lane, &mut state, l);
    }
    loop {
        let busy = lanes.iter().flatten().count();
        if busy == 0 {
            break;
        }
        if busy < min_lanes {
            // Fewer than `min_lanes` messages are left (the queue is
            // empty, or a lane would have taken one).
            for (l, lane) in lanes.iter().enumerate() {
                if let Some(lane) = lane {
                    let mut s = F::from_words(std::array::from_fn(|w| state[w][l]));
                    s.compress(F::best(), lane.whole);
                    s.compress(F::best(), &lane.pad[lane.pad_from..lane.pad_to]);
                    out[lane.msg] = s;
                }
            }
            break;
        }
        let run = lanes
            .iter()
            .flatten()
            .map(|lane| lane.blocks().len())
            .fold(MAX_RUN, usize::min);
        let blocks: [&[[u8; 64]]; N] = std::array::from_fn(|l| match &lanes[l] {
            Some(lane) => &lane.blocks()[..run],
            None => &ZEROS[..run],
        });
        kernel(&mut state, &blocks, run);
        for (l, lane) in lanes.iter_mut().enumerate() {
            if let Some(busy) = lane
                && busy.advance(run)
            {
                out[busy.msg] = F::from_words(std::array::from_fn(|w| state[w][l]));
                refill(lane, &mut state, l);
            }
        }
    }
    out
}

/// One SHA-256 round (FIPS 180-4 §6.2.2 step 3) on lane vectors, the
/// working variables renamed instead of moved: `T1 = h + Σ1(e) + Ch(e,f,g)
/// + K_t + W_t`, `d += T1`, `h = T1 + Σ0(a) + Maj(a,b,c)`. With `sched`,
/// first computes `W_t` (step 1) over the 16-word window `w` (`W_t` in
/// `w[t mod 16]`). Uses the rung's `add`, `splat`, `ch`, `maj` and the
/// sigma functions of [`lane_kernels!`].
#[cfg(target_arch = "x86_64")]
macro_rules! sha256_round {
    ($w:ident, $k:ident, $i:literal, $sched:literal;
     $a:ident $b:ident $c:ident $d:ident $e:ident $f:ident $g:ident $h:ident) => {
        if $sched {
            $w[$i] = add(
                add(small_sigma1($w[($i + 14) % 16]), $w[($i + 9) % 16]),
                add(small_sigma0($w[($i + 1) % 16]), $w[$i]),
            );
        }
        let t1 = add(
            add($h, big_sigma1($e)),
            add(ch($e, $f, $g), add(splat($k[$i]), $w[$i])),
        );
        $d = add($d, t1);
        $h = add(t1, add(big_sigma0($a), maj($a, $b, $c)));
    };
}
#[cfg(target_arch = "x86_64")]
use sha256_round;

/// Sixteen SHA-256 rounds `t..t + 16` (`t` a multiple of 16) with the
/// round constants `k` = `K[t..t + 16]`, the working variables' names
/// rotating one place a round.
#[cfg(target_arch = "x86_64")]
macro_rules! sha256_rounds16 {
    ($w:ident, $k:ident, $sched:literal; $a:ident $b:ident $c:ident $d:ident $e:ident $f:ident $g:ident $h:ident) => {
        use $crate::hash::many::sha256_round;
        sha256_round!($w, $k, 0, $sched; $a $b $c $d $e $f $g $h);
        sha256_round!($w, $k, 1, $sched; $h $a $b $c $d $e $f $g);
        sha256_round!($w, $k, 2, $sched; $g $h $a $b $c $d $e $f);
        sha256_round!($w, $k, 3, $sched; $f $g $h $a $b $c $d $e);
        sha256_round!($w, $k, 4, $sched; $e $f $g $h $a $b $c $d);
        sha256_round!($w, $k, 5, $sched; $d $e $f $g $h $a $b $c);
        sha256_round!($w, $k, 6, $sched; $c $d $e $f $g $h $a $b);
        sha256_round!($w, $k, 7, $sched; $b $c $d $e $f $g $h $a);
        sha256_round!($w, $k, 8, $sched; $a $b $c $d $e $f $g $h);
        sha256_round!($w, $k, 9, $sched; $h $a $b $c $d $e $f $g);
        sha256_round!($w, $k, 10, $sched; $g $h $a $b $c $d $e $f);
        sha256_round!($w, $k, 11, $sched; $f $g $h $a $b $c $d $e);
        sha256_round!($w, $k, 12, $sched; $e $f $g $h $a $b $c $d);
        sha256_round!($w, $k, 13, $sched; $d $e $f $g $h $a $b $c);
        sha256_round!($w, $k, 14, $sched; $c $d $e $f $g $h $a $b);
        sha256_round!($w, $k, 15, $sched; $b $c $d $e $f $g $h $a);
    };
}
#[cfg(target_arch = "x86_64")]
use sha256_rounds16;

/// One MD5 step `[abcd k s i]` (RFC 1321 §3.4) on lane vectors, in each
/// of the independent groups of lanes `a[g]`, `b[g]`, …:
/// `a = b + ((a + f(b,c,d) + X[k] + T[i]) <<< s)`, `X[k] + T[i]` added to
/// `a` first. The rung's `md5_f` … `md5_i` compute `a + f(b,c,d)`. MD5 is
/// one chain of dependent steps, so several groups side by side fill the
/// pipes where one group would wait on latency.
#[cfg(target_arch = "x86_64")]
macro_rules! md5_lane_step {
    ($x:ident, F, $($rest:tt)*) => { $crate::hash::many::md5_lane_step!(@ md5_f, $x, $($rest)*) };
    ($x:ident, G, $($rest:tt)*) => { $crate::hash::many::md5_lane_step!(@ md5_g, $x, $($rest)*) };
    ($x:ident, H, $($rest:tt)*) => { $crate::hash::many::md5_lane_step!(@ md5_h, $x, $($rest)*) };
    ($x:ident, I, $($rest:tt)*) => { $crate::hash::many::md5_lane_step!(@ md5_i, $x, $($rest)*) };
    (@ $fun:ident, $x:ident, $a:ident, $b:ident, $c:ident, $d:ident, $k:literal, $s:tt, $i:tt) => {
        for g in 0..$a.len() {
            $a[g] = add($a[g], add($x[g][$k], splat($crate::hash::md5::T[$i])));
            $a[g] = add(rotl::<{ $s as i32 }>($fun($a[g], $b[g], $c[g], $d[g])), $b[g]);
        }
    };
}
#[cfg(target_arch = "x86_64")]
use md5_lane_step;

/// Generates a vector rung's kernels and entry points from its lane
/// primitives over `V` (`LANES` 32-bit lanes), all `#[target_feature]`
/// functions of the rung file: `splat`, `add`, `xor3`, `rotr::<N>`,
/// `shr::<N>`, `rotl::<N>`, `ch`, `maj`, `md5_f` … `md5_i` (`a + f(b,c,d)`),
/// `load_lanes`/`store_lanes` (a state word of every lane) and
/// `load_words` (word `i` of block `j` of every lane, little-endian); and
/// `MD5_GROUPS`, the groups of `LANES` lanes MD5 runs side by side.
#[cfg(target_arch = "x86_64")]
macro_rules! lane_kernels {
    ($feature:literal) => {
        /// Σ0 (FIPS 180-4 §4.1.2, (4.4)), lane by lane.
        #[target_feature(enable = $feature)]
        #[inline]
        fn big_sigma0(x: V) -> V {
            xor3(rotr::<2>(x), rotr::<13>(x), rotr::<22>(x))
        }

        /// Σ1 (§4.1.2, (4.5)), lane by lane.
        #[target_feature(enable = $feature)]
        #[inline]
        fn big_sigma1(x: V) -> V {
            xor3(rotr::<6>(x), rotr::<11>(x), rotr::<25>(x))
        }

        /// σ0 (§4.1.2, (4.6)), lane by lane.
        #[target_feature(enable = $feature)]
        #[inline]
        fn small_sigma0(x: V) -> V {
            xor3(rotr::<7>(x), rotr::<18>(x), shr::<3>(x))
        }

        /// σ1 (§4.1.2, (4.7)), lane by lane.
        #[target_feature(enable = $feature)]
        #[inline]
        fn small_sigma1(x: V) -> V {
            xor3(rotr::<17>(x), rotr::<19>(x), shr::<10>(x))
        }

        /// SHA-256's compression (FIPS 180-4 §6.2.2) of blocks `0..run` of
        /// `blocks[l]` into lane `l` of `state`, for every lane.
        #[target_feature(enable = $feature)]
        #[inline]
        fn sha256_blocks(state: &mut [[u32; LANES]; 8], blocks: &[&[[u8; 64]]; LANES], run: usize) {
            let mut hv: [V; 8] = core::array::from_fn(|i| load_lanes(&state[i]));
            for j in 0..run {
                let words = load_words(blocks, j);
                let mut w: [V; 16] = core::array::from_fn(|i| bswap(words[i]));
                let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = hv;
                // K in four chunks of 16, indexed by constants.
                let (k16, _) = $crate::hash::sha256::K.as_chunks::<16>();
                let k = &k16[0];
                $crate::hash::many::sha256_rounds16!(w, k, false; a b c d e f g h);
                for k in &k16[1..] {
                    $crate::hash::many::sha256_rounds16!(w, k, true; a b c d e f g h);
                }
                for (x, v) in hv.iter_mut().zip([a, b, c, d, e, f, g, h]) {
                    *x = add(*x, v);
                }
            }
            for (row, v) in state.iter_mut().zip(hv) {
                store_lanes(row, v);
            }
        }

        /// MD5's compression (RFC 1321 §3.4) of blocks `0..run` of
        /// `blocks[l]` into lane `l` of `state`, for every lane, in
        /// `MD5_GROUPS` groups of `LANES` lanes side by side.
        #[target_feature(enable = $feature)]
        #[inline]
        fn md5_blocks(
            state: &mut [[u32; LANES * MD5_GROUPS]; 4],
            blocks: &[&[[u8; 64]]; LANES * MD5_GROUPS],
            run: usize,
        ) {
            use $crate::hash::many::md5_lane_step;
            // Loops rather than closures: closures here were left out of
            // line.
            let (groups, _) = blocks.as_chunks::<LANES>();
            let mut sv = [[splat(0); MD5_GROUPS]; 4];
            for (s, row) in sv.iter_mut().zip(state.iter()) {
                for (s, part) in s.iter_mut().zip(row.as_chunks::<LANES>().0) {
                    *s = load_lanes(part);
                }
            }
            for j in 0..run {
                let mut x = [[splat(0); 16]; MD5_GROUPS];
                for (x, group) in x.iter_mut().zip(groups) {
                    *x = load_words(group, j);
                }
                let [mut a, mut b, mut c, mut d] = sv;
                $crate::hash::md5::md5_steps!(md5_lane_step!(x,) [a b c d]);
                for (s, v) in sv.iter_mut().zip([a, b, c, d]) {
                    for (s, v) in s.iter_mut().zip(v) {
                        *s = add(*s, v);
                    }
                }
            }
            for (row, v) in state.iter_mut().zip(sv) {
                for (part, v) in row.as_chunks_mut::<LANES>().0.iter_mut().zip(v) {
                    store_lanes(part, v);
                }
            }
        }

        /// The final SHA-256 states of `msgs`, `LANES` at a time; the
        /// messages left when fewer than `min_lanes` are go to the
        /// single-message rung.
        #[target_feature(enable = $feature)]
        pub(super) fn sha256(msgs: &[&[u8]], min_lanes: usize) -> Vec<$crate::hash::sha256::State> {
            super::schedule(msgs, $crate::hash::sha256::H256, min_lanes, |s, b, r| {
                sha256_blocks(s, b, r)
            })
        }

        /// The final MD5 states of `msgs`, as [`sha256`].
        #[target_feature(enable = $feature)]
        pub(super) fn md5(msgs: &[&[u8]], min_lanes: usize) -> Vec<$crate::hash::md5::State> {
            super::schedule(msgs, $crate::hash::md5::IV, min_lanes, |s, b, r| md5_blocks(s, b, r))
        }
    };
}
#[cfg(target_arch = "x86_64")]
use lane_kernels;

/// Multi-buffer hashing's entry in the table of ladders. The chosen rung
/// shown is SHA-256's ([`Rung::best_sha256`]); MD5 takes the widest
/// ([`Rung::best_md5`]).
pub(crate) const LADDER: crate::table::Ladder = crate::table::Ladder {
    name: Rung::PRIMITIVE,
    primitives: &[
        Primitive::hash(
            "sha256-many",
            Kind::MultiBufferHash,
            "SHA-256 of many messages, one per lane",
            64,
            32,
            crate::table::Construct::Many {
                of: "sha256",
                new: dyn_sha256_many,
            },
        ),
        Primitive::hash(
            "md5-many",
            Kind::MultiBufferHash,
            "MD5 of many messages, one per lane",
            64,
            16,
            crate::table::Construct::Many {
                of: "md5",
                new: dyn_md5_many,
            },
        ),
    ],
    rungs: Rungs::Own(|| {
        rung_infos(Rung::best_sha256(), |i| match i {
            Rung::Sequential => 1,
            Rung::Avx2 => 8,
            Rung::Avx512 => 16,
        })
    }),
    #[cfg(feature = "kit")]
    checks: crate::hash::checks::many,
    #[cfg(feature = "kit")]
    fuzz: crate::hash::checks::fuzz_many,
};

/// Defines the multi-buffer constructors over `hash::many`'s functions.
macro_rules! dyn_many {
    ($($name:ident: $best:ident, $with:ident;)+) => {$(
        #[doc = concat!("`hash::many::", stringify!($with), "` by rung name.")]
        fn $name(
            imp: Option<&str>,
            messages: &[&[u8]],
        ) -> Result<Vec<Vec<u8>>, crate::Error> {
            let imp = match imp {
                Some(name) => name.parse()?,
                None => Rung::$best(),
            };
            Ok($with(imp, messages)?.iter().map(|d| d.to_vec()).collect())
        }
    )+};
}

dyn_many! {
    dyn_sha256_many: best_sha256, sha256_many_with;
    dyn_md5_many: best_md5, md5_many_with;
}
