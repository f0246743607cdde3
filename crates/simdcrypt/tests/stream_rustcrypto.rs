//! The stream ciphers (Salsa20, ChaCha20 and their forms) in RustCrypto's
//! `cipher` traits (feature `rustcrypto`): through the traits our types
//! give the bytes of the inherent API, positions round-trip through every
//! `SeekNum`, the end of the keystream is refused as the inherent API
//! refuses it, and the keystream equals RustCrypto's own `salsa20` 0.11 and
//! `chacha20` 0.10 on every rung.
#![cfg(feature = "rustcrypto")]

mod common;

use cipher::{KeyIvInit, StreamCipher, StreamCipherSeek};
use common::{BLOCK_EDGES, EDGE_COUNTERS, GUARD, bytes};
use simdcrypt::chacha20::{self, ChaCha20, ChaCha20Legacy, XChaCha20};
use simdcrypt::salsa20::{self, Salsa, Salsa20, Salsa20_8, Salsa20_12, XSalsa20};

/// One past the last keystream byte of 2^64 blocks of 64 bytes (Salsa20,
/// the original ChaCha20, XChaCha20).
const END: u128 = 1 << 70;

/// Our cipher types, with the inherent calls the traits must agree with.
trait Ours: KeyIvInit + StreamCipher + StreamCipherSeek + Sized {
    /// The primitive's rung enum.
    type Rung: Copy + std::fmt::Display;
    const NAME: &'static str;
    /// One past the last keystream byte.
    const END: u128;
    /// The rungs this CPU runs.
    fn rungs() -> Vec<Self::Rung>;
    fn on(self, imp: Self::Rung) -> Self;
    fn inherent_apply(&mut self, data: &mut [u8]);
    fn inherent_seek(&mut self, pos: u128);
    fn inherent_position(&self) -> u128;
}

/// The inherent calls of `Ours`, the same for every type.
macro_rules! inherent_calls {
    ($impl:ty) => {
        type Rung = $impl;
        fn rungs() -> Vec<$impl> {
            <$impl>::available().collect()
        }
        fn on(self, imp: $impl) -> Self {
            self.with_rung(imp).unwrap()
        }
        fn inherent_apply(&mut self, data: &mut [u8]) {
            self.apply_keystream(data).unwrap();
        }
        fn inherent_seek(&mut self, pos: u128) {
            self.seek(pos).unwrap();
        }
        fn inherent_position(&self) -> u128 {
            self.position()
        }
    };
}

impl<const DR: usize> Ours for Salsa<DR> {
    const NAME: &'static str = match DR {
        10 => "salsa20",
        6 => "salsa20/12",
        _ => "salsa20/8",
    };
    const END: u128 = END;
    inherent_calls!(salsa20::Rung);
}

impl Ours for XSalsa20 {
    const NAME: &'static str = "xsalsa20";
    const END: u128 = END;
    inherent_calls!(salsa20::Rung);
}

impl Ours for ChaCha20 {
    const NAME: &'static str = "chacha20";
    /// RFC 8439's 32-bit counter: 2^32 blocks.
    const END: u128 = 1 << 38;
    inherent_calls!(chacha20::Rung);
}

impl Ours for ChaCha20Legacy {
    const NAME: &'static str = "chacha20-legacy";
    const END: u128 = END;
    inherent_calls!(chacha20::Rung);
}

impl Ours for XChaCha20 {
    const NAME: &'static str = "xchacha20";
    const END: u128 = END;
    inherent_calls!(chacha20::Rung);
}

/// The rungs of `C` this CPU runs, printed so the log shows what was
/// exercised.
fn rungs<C: Ours>(test: &str) -> Vec<C::Rung> {
    let run = C::rungs();
    let names: Vec<String> = run.iter().map(|i| i.to_string()).collect();
    eprintln!("{test}: {} rungs exercised: {}", C::NAME, names.join(", "));
    run
}

/// A cipher of type `C` built through `KeyIvInit` from a key and nonce of
/// the right lengths.
fn new<C: KeyIvInit>(seed: u64) -> C {
    let key = bytes(seed, C::key_size());
    let nonce = bytes(!seed, C::iv_size());
    C::new_from_slices(&key, &nonce).unwrap()
}

fn traits_equal_inherent<C: Ours>(imp: C::Rung) {
    for (seed, &len) in BLOCK_EDGES.iter().enumerate() {
        let input = bytes(seed as u64 + 1000, len);
        for &counter in EDGE_COUNTERS {
            for skip in [0u128, 1, 63, 64 + 5] {
                let pos = u128::from(counter) * 64 + skip;
                if pos + len as u128 > C::END {
                    continue;
                }
                let fresh = || {
                    let mut c = new::<C>(seed as u64).on(imp);
                    c.inherent_seek(pos);
                    c
                };
                let ctx = format!("{} on {imp}: {len} bytes at {pos}", C::NAME);

                let mut want = input.clone();
                let mut inherent = fresh();
                inherent.inherent_apply(&mut want);
                let end = inherent.inherent_position();

                let mut c = fresh();
                let mut got = input.clone();
                c.apply_keystream(&mut got);
                assert_eq!(got, want, "in place, {ctx}");
                assert_eq!(c.current_pos::<u128>(), end, "{ctx}");

                let mut c = fresh();
                let mut out = vec![GUARD; len];
                c.apply_keystream_b2b(&input, &mut out);
                assert_eq!(out, want, "buffer to buffer, {ctx}");
                assert_eq!(c.inherent_position(), end, "{ctx}");

                let mut c = fresh();
                let mut ks = vec![0x5a; len];
                c.write_keystream(&mut ks);
                let mut zeros = vec![0; len];
                fresh().inherent_apply(&mut zeros);
                assert_eq!(ks, zeros, "write_keystream, {ctx}");
            }
        }
    }
}

/// [`traits_equal_inherent`] on every rung of `C`.
fn traits_equal_inherent_on_every_rung<C: Ours>() {
    for imp in rungs::<C>("traits_equal_inherent_api_on_every_rung") {
        traits_equal_inherent::<C>(imp);
    }
}

#[test]
fn traits_equal_inherent_api_on_every_rung() {
    traits_equal_inherent_on_every_rung::<Salsa20>();
    traits_equal_inherent_on_every_rung::<Salsa20_12>();
    traits_equal_inherent_on_every_rung::<Salsa20_8>();
    traits_equal_inherent_on_every_rung::<XSalsa20>();
    traits_equal_inherent_on_every_rung::<ChaCha20>();
    traits_equal_inherent_on_every_rung::<ChaCha20Legacy>();
    traits_equal_inherent_on_every_rung::<XChaCha20>();
}

fn seek_round_trip<C: Ours>() {
    let mut c = new::<C>(7);
    let positions = [
        0,
        1,
        63,
        64,
        65,
        i32::MAX as u128,
        u32::MAX as u128 - 1,
        u32::MAX as u128,
        1 << 32,
        (1 << 38) + 7,
        u64::MAX as u128,
        C::END - 65,
        C::END - 1,
        C::END,
        END,
    ];
    for pos in positions {
        if pos > C::END {
            assert!(c.try_seek(pos).is_err(), "{} at {pos}", C::NAME);
            continue;
        }
        c.try_seek(pos).unwrap();
        assert_eq!(c.inherent_position(), pos);
        assert_eq!(c.try_current_pos::<u128>().unwrap(), pos);
        // Every SeekNum that holds the position converts it exactly, also
        // in the last block below its maximum; the others overflow.
        assert_eq!(
            c.try_current_pos::<u64>().ok(),
            u64::try_from(pos).ok(),
            "{pos}"
        );
        assert_eq!(
            c.try_current_pos::<u32>().ok(),
            u32::try_from(pos).ok(),
            "{pos}"
        );
        assert_eq!(
            c.try_current_pos::<i32>().ok(),
            i32::try_from(pos).ok(),
            "{pos}"
        );
        assert_eq!(
            c.try_current_pos::<usize>().ok(),
            usize::try_from(pos).ok(),
            "{pos}"
        );
        if let Ok(p) = u64::try_from(pos) {
            c.try_seek(0u32).unwrap();
            c.try_seek(p).unwrap();
            assert_eq!(c.inherent_position(), pos);
        }
        if let Ok(p) = u32::try_from(pos) {
            c.try_seek(0u64).unwrap();
            c.try_seek(p).unwrap();
            assert_eq!(c.inherent_position(), pos);
        }
        if let Ok(p) = i32::try_from(pos) {
            c.try_seek(0u64).unwrap();
            c.try_seek(p).unwrap();
            assert_eq!(c.inherent_position(), pos);
        }
    }
    // Past the end and negative positions are refused; the position stays.
    c.try_seek(100u32).unwrap();
    assert!(c.try_seek(C::END + 1).is_err());
    assert!(c.try_seek(u128::MAX).is_err());
    assert!(c.try_seek(-1i32).is_err());
    assert_eq!(c.current_pos::<u64>(), 100);

    // Seeking through the trait lands on the same keystream as the inherent seek.
    for pos in [0u128, 1, 64 * 3 + 17, (1 << 38) - 100, C::END - 100] {
        let mut a = new::<C>(9);
        let mut b = new::<C>(9);
        a.seek(pos);
        b.inherent_seek(pos);
        let (mut x, mut y) = (vec![0; 100], vec![0; 100]);
        a.apply_keystream(&mut x);
        b.inherent_apply(&mut y);
        assert_eq!(x, y, "{} at {pos}", C::NAME);
    }
}

#[test]
fn seek_and_current_pos_round_trip() {
    seek_round_trip::<Salsa20>();
    seek_round_trip::<Salsa20_12>();
    seek_round_trip::<Salsa20_8>();
    seek_round_trip::<XSalsa20>();
    seek_round_trip::<ChaCha20>();
    seek_round_trip::<ChaCha20Legacy>();
    seek_round_trip::<XChaCha20>();
}

fn end_of_keystream<C: Ours>() {
    let mut c = new::<C>(3);
    c.seek(C::END - 10);
    assert!(c.check_remaining(10).is_ok());
    assert!(c.check_remaining(11).is_err());
    assert!(c.check_remaining(usize::MAX).is_err());

    // Too long: nothing written, the position stays.
    let mut data = [0x11; 11];
    assert!(c.try_apply_keystream(&mut data).is_err());
    assert!(c.try_write_keystream(&mut data).is_err());
    let mut out = [0x22; 11];
    assert!(c.try_apply_keystream_b2b(&data, &mut out).is_err());
    assert_eq!((data, out), ([0x11; 11], [0x22; 11]));
    // Unequal lengths are an error too.
    assert!(c.try_apply_keystream_b2b(&data, &mut out[..5]).is_err());
    assert_eq!(c.current_pos::<u128>(), C::END - 10);

    // The last ten bytes are keystream (the last block is not held back).
    let mut last = [0; 10];
    c.try_apply_keystream(&mut last).unwrap();
    let mut want = [0; 10];
    let mut inherent = new::<C>(3);
    inherent.inherent_seek(C::END - 10);
    inherent.inherent_apply(&mut want);
    assert_eq!(last, want);
    assert_eq!(c.current_pos::<u128>(), C::END);
    assert!(c.try_apply_keystream(&mut [0]).is_err());
    c.try_apply_keystream(&mut []).unwrap();
}

#[test]
fn end_of_keystream_is_refused() {
    end_of_keystream::<Salsa20>();
    end_of_keystream::<Salsa20_12>();
    end_of_keystream::<Salsa20_8>();
    end_of_keystream::<XSalsa20>();
    end_of_keystream::<ChaCha20>();
    end_of_keystream::<ChaCha20Legacy>();
    end_of_keystream::<XChaCha20>();
}

#[test]
#[should_panic(expected = "end of keystream reached")]
fn apply_keystream_panics_past_the_end() {
    let mut c = new::<Salsa20>(3);
    // The inherent methods of the same names would win in method syntax.
    StreamCipherSeek::seek(&mut c, END - 1);
    StreamCipher::apply_keystream(&mut c, &mut [0, 0]);
}

#[test]
#[should_panic(expected = "keystream exhausted")]
fn unchecked_apply_refuses_to_wrap() {
    let mut c = new::<XSalsa20>(3);
    StreamCipherSeek::seek(&mut c, END);
    c.unchecked_apply_keystream(&mut [0]);
}

/// Our `C` on rung `imp` against RustCrypto's `R`: random keys, nonces,
/// offsets (the counter edges among them) and lengths, whole and cut into
/// random pieces, in place and buffer to buffer.
///
/// `peer_blocks` is how many blocks the peer's counter addresses (2^32 for
/// RustCrypto's RFC 8439 forms, XChaCha20 among them).
fn equals_rustcrypto<C: Ours, R: KeyIvInit + StreamCipher + StreamCipherSeek>(
    imp: C::Rung,
    peer_blocks: u64,
) {
    for seed in 0..64u64 {
        let r = bytes(seed ^ 0x5eed, 16);
        let word = |i: usize| u64::from_le_bytes(r[8 * (i % 2)..][..8].try_into().unwrap());
        let len = match seed % 4 {
            0 => BLOCK_EDGES[(word(0) % BLOCK_EDGES.len() as u64) as usize],
            _ => (word(0) % 3000) as usize,
        };
        // RustCrypto holds the last block back; stay clear of it.
        let counter = match seed % 3 {
            0 => EDGE_COUNTERS[(word(1) % EDGE_COUNTERS.len() as u64) as usize],
            1 => word(1) % 4,
            _ => word(1),
        } % (peer_blocks - 200);
        let pos = u128::from(counter) * 64 + u128::from(word(0) >> 58);
        let key = bytes(seed, 32);
        let nonce = bytes((seed + 1) << 20, C::iv_size());
        let ctx = format!("{} on {imp}: {len} bytes at {pos}, seed {seed}", C::NAME);

        let mut ours = C::new_from_slices(&key, &nonce).unwrap().on(imp);
        let mut theirs = R::new_from_slices(&key, &nonce).unwrap();
        ours.seek(pos);
        theirs.seek(pos);
        assert_eq!(ours.current_pos::<u128>(), theirs.current_pos::<u128>());

        let input = bytes((seed + 2) << 20, len);
        let mut want = input.clone();
        theirs.apply_keystream(&mut want);
        let mut got = input.clone();
        ours.apply_keystream(&mut got);
        assert_eq!(got, want, "{ctx}");
        assert_eq!(
            ours.current_pos::<u128>(),
            theirs.current_pos::<u128>(),
            "{ctx}"
        );

        // Again from `pos`, in random pieces, alternating in place and b2b.
        ours.seek(pos);
        let mut out = vec![0; len];
        let mut at = 0;
        let mut cut = seed;
        while at < len {
            cut = cut
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let n = ((cut >> 33) as usize % 200).min(len - at);
            if cut & 1 == 0 {
                out[at..at + n].copy_from_slice(&input[at..at + n]);
                ours.apply_keystream(&mut out[at..at + n]);
            } else {
                ours.apply_keystream_b2b(&input[at..at + n], &mut out[at..at + n]);
            }
            at += n;
        }
        assert_eq!(out, want, "in pieces, {ctx}");
    }
}

#[test]
fn equals_rustcrypto_salsa20_on_every_rung() {
    for imp in rungs::<Salsa20>("equals_rustcrypto_salsa20_on_every_rung") {
        equals_rustcrypto::<Salsa20, ::salsa20::Salsa20>(imp, u64::MAX);
        equals_rustcrypto::<Salsa20_12, ::salsa20::Salsa12>(imp, u64::MAX);
        equals_rustcrypto::<Salsa20_8, ::salsa20::Salsa8>(imp, u64::MAX);
        equals_rustcrypto::<XSalsa20, ::salsa20::XSalsa20>(imp, u64::MAX);
    }
}

#[test]
fn equals_rustcrypto_chacha20_on_every_rung() {
    for imp in rungs::<ChaCha20>("equals_rustcrypto_chacha20_on_every_rung") {
        equals_rustcrypto::<ChaCha20, ::chacha20::ChaCha20>(imp, 1 << 32);
        equals_rustcrypto::<ChaCha20Legacy, ::chacha20::ChaCha20Legacy>(imp, u64::MAX);
        equals_rustcrypto::<XChaCha20, ::chacha20::XChaCha20>(imp, 1 << 32);
    }
}

/// RFC 8439's keystream ends after block 2^32 − 1 through the traits too.
#[test]
#[should_panic(expected = "end of keystream reached")]
fn chacha20_apply_keystream_panics_past_block_2_pow_32() {
    let mut c = new::<ChaCha20>(3);
    StreamCipherSeek::seek(&mut c, (1u64 << 38) - 1);
    StreamCipher::apply_keystream(&mut c, &mut [0, 0]);
}
