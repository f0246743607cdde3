//! AES in software: simdcrypt's `tables`, `bitsliced` and `bitsliced-avx2`
//! rungs and its default beside RustCrypto's `aes` 0.8, bulk encryption of
//! 16 KiB with AES-128: ECB (whole blocks in place; RustCrypto's
//! `encrypt_blocks_inout`) and CTR (RustCrypto's `aes` with `ctr` 0.9).
//! Each cipher is keyed once, outside the timing: the figures are bulk
//! throughput. Before anything is timed, every contender's output is
//! checked against simdcrypt's `reference` rung.
//!
//! RustCrypto's `aes` chooses AES-NI at run time; its software path (the
//! fixsliced one, 4 blocks in 64-bit words, the peer of `bitsliced`) is
//! compiled only with `--cfg aes_force_soft`. That flag applies to the
//! whole build (simdcrypt ignores it), so build with it into a target
//! directory of its own, not to rebuild the usual one:
//!
//! ```sh
//! RUSTFLAGS="--cfg aes_force_soft" CARGO_TARGET_DIR=target/aes-soft \
//!     cargo bench -p simdcrypt-bench --bench aes_soft
//! ```
//!
//! The peer is named `rustcrypto-soft` in such a build and `rustcrypto`
//! (AES-NI) otherwise.

use aes::cipher::inout::InOutBuf;
use aes::cipher::{BlockEncrypt, InnerIvInit, KeyInit, StreamCipher};
use criterion::{Criterion, criterion_group, criterion_main};
use simdcrypt::aes::{Aes128, Aes128Ctr, Rung};
use simdcrypt_bench::{Contender, config, run};

const KEY: [u8; 16] = [
    0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae, 0xd2, 0xa6, 0xab, 0xf7, 0x15, 0x88, 0x09, 0xcf, 0x4f, 0x3c,
];
const IV: [u8; 16] = [
    0xf0, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8, 0xf9, 0xfa, 0xfb, 0xfc, 0xfd, 0xfe, 0xff,
];

/// The size measured.
const SIZES: [(&str, usize); 1] = [("16kib", 16 << 10)];

/// The rungs measured: the software ones, whichever this CPU runs.
fn software_rungs() -> impl Iterator<Item = Rung> {
    [Rung::Tables, Rung::Bitsliced, Rung::BitslicedAvx2]
        .into_iter()
        .filter(|i| i.is_available())
}

/// `contender(name, rung)` for each software rung this CPU runs, then
/// for the default (`None`) as `simdcrypt-best`.
fn ladder(contender: impl Fn(&str, Option<Rung>) -> Contender<()>) -> Vec<Contender<()>> {
    software_rungs()
        .map(|i| contender(i.name(), Some(i)))
        .chain([contender("simdcrypt-best", None)])
        .collect()
}

/// The RustCrypto contender's name: which path of `aes` this build has.
const PEER: &str = if cfg!(aes_force_soft) {
    "rustcrypto-soft"
} else {
    "rustcrypto"
};

/// simdcrypt's AES-128 on `imp` (`None`: the default), keyed once.
fn aes128(imp: Option<Rung>) -> Aes128 {
    let aes = Aes128::new(&KEY);
    match imp {
        Some(i) => aes.with_rung(i).expect("an available rung"),
        None => aes,
    }
}

/// The whole blocks of `data`: the check also runs a ragged length.
fn whole(data: &mut [u8]) -> &mut [u8] {
    let n = data.len() / 16 * 16;
    &mut data[..n]
}

fn ecb(c: &mut Criterion) {
    let contender = |name: &str, imp: Option<Rung>| {
        let aes = aes128(imp);
        Contender::new(name, move |d: &mut [u8]| {
            aes.encrypt_blocks(whole(d)).expect("whole blocks")
        })
    };
    let mut contenders = ladder(contender);
    let peer = aes::Aes128::new(&KEY.into());
    contenders.push(Contender::new(PEER, move |d: &mut [u8]| {
        let (blocks, _) = InOutBuf::from(whole(d)).into_chunks();
        peer.encrypt_blocks_inout(blocks);
    }));
    eprintln!("aes: simdcrypt-best = {}", Rung::best().name());
    let reference = contender("reference", Some(Rung::Reference));
    run(c, "aes128-ecb", &SIZES, &reference, &contenders);
}

fn ctr(c: &mut Criterion) {
    let contender = |name: &str, imp: Option<Rung>| {
        let aes = aes128(imp);
        Contender::new(name, move |d: &mut [u8]| {
            Aes128Ctr::from_cipher(aes.clone(), &IV)
                .apply_keystream(d)
                .expect("within the keystream")
        })
    };
    let mut contenders = ladder(contender);
    let peer = aes::Aes128::new(&KEY.into());
    contenders.push(Contender::new(PEER, move |d: &mut [u8]| {
        let core = ctr::CtrCore::inner_iv_init(peer.clone(), &IV.into());
        ctr::Ctr128BE::<aes::Aes128>::from_core(core).apply_keystream(d)
    }));
    let reference = contender("reference", Some(Rung::Reference));
    run(c, "aes128-ctr", &SIZES, &reference, &contenders);
}

criterion_group! {
    name = benches;
    config = config();
    targets = ecb, ctr
}
criterion_main!(benches);
