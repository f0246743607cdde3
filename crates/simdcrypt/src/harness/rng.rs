//! The kit's random generator, seeded so that every failure reproduces,
//! and the edge lengths every family's random cases favour.

/// xoshiro256** seeded through splitmix64: small, fast, reproducible; or,
/// for the fuzz targets, the fuzzer's bytes themselves
/// ([`Rng::from_bytes`]).
#[derive(Clone, Debug)]
pub struct Rng(Source);

/// Where a generator's bits come from.
#[derive(Clone, Debug)]
enum Source {
    Xoshiro([u64; 4]),
    /// Bytes, read front to back.
    Bytes(Vec<u8>, usize),
}

impl Rng {
    /// The generator whose output is `bytes`, then the generator seeded by
    /// their length: a fuzzer's input read by the checks' own random cases,
    /// so that the fuzzer steers every choice a case makes (its lengths,
    /// keys, IVs near a carry, pieces); past its end the choices go on at
    /// random (a loop that draws until it is done ends).
    pub fn from_bytes(bytes: &[u8]) -> Rng {
        Rng(Source::Bytes(bytes.to_vec(), 0))
    }

    /// The generator of `seed`.
    pub fn new(seed: u64) -> Rng {
        let mut s = seed;
        let mut next = || {
            s = s.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = s;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        Rng(Source::Xoshiro([next(), next(), next(), next()]))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let s = match &mut self.0 {
            Source::Xoshiro(s) => s,
            Source::Bytes(bytes, at) if *at < bytes.len() => {
                let mut word = [0u8; 8];
                let take = (bytes.len() - *at).min(8);
                word[..take].copy_from_slice(&bytes[*at..*at + take]);
                *at += take;
                return u64::from_le_bytes(word);
            }
            Source::Bytes(bytes, _) => {
                *self = Rng::new(bytes.len() as u64);
                return self.next_u64();
            }
        };
        let result = s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }

    /// Uniform in `0..n` (`n > 0`), by rejection.
    pub fn below(&mut self, n: u64) -> u64 {
        let zone = u64::MAX - u64::MAX % n;
        loop {
            let x = self.next_u64();
            if x < zone {
                return x % n;
            }
        }
    }

    /// Uniform in `0..n` for `n ≤ usize::MAX`.
    pub fn index(&mut self, n: usize) -> usize {
        self.below(n as u64) as usize
    }

    /// `len` random bytes.
    pub fn bytes(&mut self, len: usize) -> Vec<u8> {
        let mut v = Vec::with_capacity(len + 8);
        while v.len() < len {
            v.extend_from_slice(&self.next_u64().to_le_bytes());
        }
        v.truncate(len);
        v
    }

    /// Random bytes, fewer than `max` of them (a random count).
    pub fn bytes_below(&mut self, max: usize) -> Vec<u8> {
        let len = self.index(max);
        self.bytes(len)
    }

    /// `N` random bytes.
    pub fn array<const N: usize>(&mut self) -> [u8; N] {
        let mut a = [0u8; N];
        a.copy_from_slice(&self.bytes(N));
        a
    }

    /// A message length: half the time one of `edges`, else uniform in
    /// `0..=max`.
    pub fn length(&mut self, edges: &[usize], max: u64) -> usize {
        if self.below(2) == 0 {
            edges[self.index(edges.len())]
        } else {
            self.below(max + 1) as usize
        }
    }

    /// `data` cut at random points into pieces of at most `max_piece`
    /// bytes (some empty).
    pub fn pieces<'a>(&mut self, data: &'a [u8], max_piece: usize) -> Vec<&'a [u8]> {
        let mut pieces = Vec::new();
        let mut rest = data;
        while !rest.is_empty() {
            let (piece, tail) = rest.split_at(self.index(max_piece.min(rest.len()) + 1));
            pieces.push(piece);
            rest = tail;
        }
        pieces
    }
}

/// Every length up to 8 bytes, the 16-byte edges of the first block, every
/// multiple of 64 up to 17 blocks with one byte either side (the tails of
/// every SIMD width), and "16 + 8 + 4 + 2 + 1" blocks and a few bytes,
/// which walks a whole wide-to-narrow tail cascade.
pub const BLOCK_EDGES: [usize; 69] = block_edges();

const fn block_edges() -> [usize; 69] {
    let mut out = [0usize; 69];
    let head = [1, 2, 3, 4, 5, 6, 7, 8, 15, 16, 17, 31, 32, 33];
    let mut i = 0;
    while i < head.len() {
        out[i] = head[i];
        i += 1;
    }
    let mut block = 0;
    while block < 17 {
        let n = (block + 1) * 64;
        out[i] = n - 1;
        out[i + 1] = n;
        out[i + 2] = n + 1;
        i += 3;
        block += 1;
    }
    // Empty, a block past the last edge, the whole cascade, and past 4 KiB
    // (the pieces the out-of-place forms once copied).
    out[i] = 0;
    out[i + 1] = 18 * 64 + 1;
    out[i + 2] = 31 * 64 + 5;
    out[i + 3] = 4096 + 64 + 1;
    out
}
