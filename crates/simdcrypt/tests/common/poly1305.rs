//! What the Poly1305 tests share beyond the checking kit: RustCrypto's
//! `poly1305` as an independent peer, and the lanes' switch seen through
//! `Debug` (`poly1305_rungs` on every rung this CPU runs, `avx512_emu` on
//! the AVX-512 rung alone).

use super::bytes;
use ::poly1305::universal_hash::KeyInit;
use simdcrypt::poly1305::{Poly1305, Rung};

/// RustCrypto's tag.
fn rustcrypto(key: &[u8; 32], msg: &[u8]) -> [u8; 16] {
    ::poly1305::Poly1305::new(key.into())
        .compute_unpadded(msg)
        .into()
}

/// Every rung's tag equals RustCrypto's: every length to `max_len` bytes
/// (random keys), keys whose `r` and `s` are all ones or zero over
/// messages of 0xff and 0x00, and 1 MiB.
pub fn equals_rustcrypto(rungs: &[Rung], max_len: usize) {
    let extremes = [0x00, 0xff].into_iter().flat_map(|r| {
        [0x00, 0xff].into_iter().flat_map(move |s| {
            let mut k = [r; 32];
            k[16..].fill(s);
            [(k, vec![0x00; 1000]), (k, vec![0xff; 1000])]
        })
    });
    let random = (0..=max_len).map(|len| {
        let key: [u8; 32] = bytes(len as u64, 32).try_into().unwrap();
        (key, bytes(1_000_000 + len as u64, len))
    });
    let big = ([7; 32], bytes(43, 1 << 20));
    for (key, msg) in random.chain(extremes).chain([big]) {
        let want = rustcrypto(&key, &msg);
        for &imp in rungs {
            let mut p = Poly1305::new(&key).with_rung(imp).unwrap();
            p.update(&msg);
            assert_eq!(p.finalize(), want, "rung {imp}, {} bytes", msg.len());
        }
    }
}

/// A long run moves a vector rung's accumulator into its lanes (the
/// `Debug` form says so), and a short one does not.
pub fn vector_rungs_switch_to_the_lanes(rungs: &[Rung]) {
    for &imp in rungs {
        let vector = imp.min_vector_blocks() < usize::MAX;
        let mut p = Poly1305::new(&[1; 32]).with_rung(imp).unwrap();
        p.update(&[7; 64]);
        assert!(
            format!("{p:?}").contains("vector_lanes_in_use: false"),
            "rung {imp}: {p:?}"
        );
        p.update(&[7; 16 * 64]);
        let lanes = format!("{p:?}").contains("vector_lanes_in_use: true");
        assert_eq!(lanes, vector, "rung {imp}: {p:?}");
    }
}
