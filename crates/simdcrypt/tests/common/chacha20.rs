//! What the ChaCha20 tests share beyond the checking kit: the comparison
//! with RustCrypto's `chacha20`, an independent peer (`chacha20_rungs`
//! on every rung this CPU runs, `avx512_emu` on the AVX-512 rungs alone).

use ::chacha20::cipher::{StreamCipher, StreamCipherSeek};
use proptest::prelude::*;
use simdcrypt::KeyStream;
use simdcrypt::chacha20::Rung;

/// `data` through RustCrypto's cipher `peer` and through ours, `ours(imp)`
/// for each rung, from byte `offset`: the same bytes.
pub fn matches_peer<C: KeyStream>(
    rungs: impl IntoIterator<Item = Rung>,
    mut peer: impl StreamCipher + StreamCipherSeek,
    ours: impl Fn(Rung) -> C,
    offset: u64,
    data: &[u8],
) -> Result<(), TestCaseError> {
    let mut want = data.to_vec();
    peer.seek(offset);
    peer.apply_keystream(&mut want);
    for imp in rungs {
        let mut got = data.to_vec();
        let mut c = ours(imp);
        c.seek(u128::from(offset)).unwrap();
        c.apply_keystream(&mut got).unwrap();
        prop_assert_eq!(&got, &want, "{}", imp);
    }
    Ok(())
}
