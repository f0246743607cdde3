//! Every AES rung this CPU runs against FIPS 197 read literally (the
//! `reference` module's `key_expansion`, `cipher` and `inv_cipher`), with
//! the modes written out here from SP 800-38A: keys of all three sizes,
//! every length from 0 to 40 blocks (past the widest rung's 32) and some
//! KiB, at odd addresses, in place and out of place (nothing written
//! outside the output), CTR counters next to the carries at 2^32 and 2^64
//! and the wrap at 2^128, calls split anywhere; and the published vectors
//! (FIPS 197, SP 800-38A ECB/CBC/CFB/OFB/CTR, RFC 4493 CMAC) on every rung.

// The specification's `reference` module is a `hazmat` item.
#![cfg(feature = "hazmat")]

mod common;

use common::{bytes, field, hex, into_buffer, json, records};
use proptest::prelude::*;
use simdcrypt::aes::{Aes128, Aes192, Aes256, Impl, reference};
use simdcrypt::block::{BlockCipher, Cbc, Cfb, Cmac, Ctr, Ecb, Ofb};

/// The rungs this CPU runs, said in the log.
fn rungs(test: &str) -> Vec<Impl> {
    common::rungs(test)
}

/// Runs `$body` with `$c` the cipher of `$key` (16, 24 or 32 bytes) on
/// rung `$imp`.
macro_rules! with_cipher {
    ($key:expr, $imp:expr, |$c:ident| $body:expr) => {{
        let (key, imp): (&[u8], Impl) = ($key, $imp);
        match key.len() {
            16 => {
                let $c = Aes128::new(key.try_into().unwrap()).with_impl(imp).unwrap();
                $body
            }
            24 => {
                let $c = Aes192::new(key.try_into().unwrap()).with_impl(imp).unwrap();
                $body
            }
            32 => {
                let $c = Aes256::new(key.try_into().unwrap()).with_impl(imp).unwrap();
                $body
            }
            n => panic!("a {n}-byte AES key"),
        }
    }};
}

/// AES as FIPS 197 writes it, and the modes of SP 800-38A over it, block
/// by block.
struct Model {
    w: Vec<[u8; 16]>,
}

impl Model {
    fn new(key: &[u8]) -> Model {
        Model {
            w: reference::key_expansion(key),
        }
    }

    fn cipher(&self, block: &[u8]) -> [u8; 16] {
        reference::cipher(block.try_into().unwrap(), &self.w)
    }

    fn inv_cipher(&self, block: &[u8]) -> [u8; 16] {
        reference::inv_cipher(block.try_into().unwrap(), &self.w)
    }

    /// §6.1: each block enciphered.
    fn ecb(&self, data: &[u8]) -> Vec<u8> {
        data.chunks(16).flat_map(|b| self.cipher(b)).collect()
    }

    /// §6.2: C_j = CIPH(P_j ⊕ C_{j-1}), C_0 = IV.
    fn cbc(&self, iv: &[u8; 16], data: &[u8]) -> Vec<u8> {
        let mut prev = *iv;
        let mut out = Vec::new();
        for p in data.chunks(16) {
            let x: Vec<u8> = p.iter().zip(prev).map(|(a, b)| a ^ b).collect();
            prev = self.cipher(&x);
            out.extend(prev);
        }
        out
    }

    /// §6.2 inverted: P_j = CIPH⁻¹(C_j) ⊕ C_{j-1}.
    fn cbc_inverse(&self, iv: &[u8; 16], data: &[u8]) -> Vec<u8> {
        let mut prev = *iv;
        let mut out = Vec::new();
        for c in data.chunks(16) {
            out.extend(self.inv_cipher(c).iter().zip(prev).map(|(a, b)| a ^ b));
            prev = c.try_into().unwrap();
        }
        out
    }

    /// §6.5 with B.1's counter: block `j` XORed with CIPH(T + j mod
    /// 2^128); the last block may be partial.
    fn ctr(&self, counter: u128, data: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        for (j, chunk) in (0u128..).zip(data.chunks(16)) {
            let ks = self.cipher(&counter.wrapping_add(j).to_be_bytes());
            out.extend(chunk.iter().zip(ks).map(|(a, b)| a ^ b));
        }
        out
    }
}

/// `f` on a copy of `data` `shift` bytes into its allocation (an odd
/// address for odd shifts), in place; the result.
fn in_place(data: &[u8], shift: usize, f: impl FnOnce(&mut [u8])) -> Vec<u8> {
    let mut buf = vec![0x3c; shift + data.len()];
    buf[shift..].copy_from_slice(data);
    f(&mut buf[shift..]);
    assert!(
        buf[..shift].iter().all(|&b| b == 0x3c),
        "written before the data"
    );
    buf[shift..].to_vec()
}

/// Counter blocks where carries happen: out of the low 32 bits, out of the
/// low 64 at every place in a batch of 32 blocks, and out of all 128 (the
/// wrap to 0), and an arbitrary one.
fn edge_counters() -> Vec<u128> {
    let mut counters = vec![0, 0x0123_4567_89ab_cdef_fedc_ba98_7654_3210];
    for k in [1u128, 2, 3, 5, 8, 9, 16, 17, 31, 32, 33, 40] {
        counters.push((1 << 32) - k);
        counters.push((1 << 64) - k);
        counters.push(0xffff_0000_0000_0000_0000_0000_0000_0000 + (1 << 64) - k);
        counters.push(0u128.wrapping_sub(k));
    }
    counters
}

/// Checks rung `imp` under `key` on `data` (whole blocks for ECB and CBC,
/// any length for CTR, which runs from `counter`), in place and out of
/// place at the shifts given, against `model`.
fn check_modes(
    model: &Model,
    key: &[u8],
    imp: Impl,
    data: &[u8],
    counter: u128,
    shifts: (usize, usize),
) {
    let (sa, sb) = shifts;
    let len = data.len();
    let what = |mode: &str| {
        format!(
            "{imp}, {}-bit key, {mode}, {len} bytes, shifts {shifts:?}",
            key.len() * 8
        )
    };
    let iv = counter.to_be_bytes();
    // CTR, any length: in place, out of place, and in two calls.
    let want = model.ctr(counter, data);
    with_cipher!(key, imp, |c| {
        let got = in_place(data, sa, |d| {
            Ctr::from_cipher(c.clone(), &iv).apply_keystream(d).unwrap()
        });
        assert_eq!(got, want, "{}", what("ctr in place"));
        let got = into_buffer(data, sa, sb, len, |i, o| {
            Ctr::from_cipher(c.clone(), &iv).xor_into(i, o).unwrap()
        });
        assert_eq!(got, want, "{}", what("ctr out of place"));
        let split = (sa * 37 + sb * 11) % (len + 1);
        let got = in_place(data, sb, |d| {
            let mut ctr = Ctr::from_cipher(c.clone(), &iv);
            let (a, b) = d.split_at_mut(split);
            ctr.apply_keystream(a).unwrap();
            ctr.apply_keystream(b).unwrap();
        });
        assert_eq!(got, want, "{}", what(&format!("ctr split at {split}")));
    });
    if !len.is_multiple_of(16) {
        return;
    }
    // ECB and CBC, both ways, in place and out of place.
    let ecb = model.ecb(data);
    let cbc = model.cbc(&iv, data);
    assert_eq!(model.cbc_inverse(&iv, &cbc), data);
    let last = |ct: &[u8]| -> [u8; 16] {
        if len == 0 {
            iv
        } else {
            ct[len - 16..].try_into().unwrap()
        }
    };
    with_cipher!(key, imp, |c| {
        let got = in_place(data, sa, |d| c.encrypt_blocks(d).unwrap());
        assert_eq!(got, ecb, "{}", what("ecb encrypt in place"));
        let got = into_buffer(data, sa, sb, len, |i, o| {
            c.encrypt_blocks_into(i, o).unwrap()
        });
        assert_eq!(got, ecb, "{}", what("ecb encrypt out of place"));
        let got = in_place(&ecb, sb, |d| {
            Ecb::from_cipher(c.clone()).decrypt(d).unwrap()
        });
        assert_eq!(got, data, "{}", what("ecb decrypt in place"));
        let got = into_buffer(&ecb, sb, sa, len, |i, o| {
            c.decrypt_blocks_into(i, o).unwrap()
        });
        assert_eq!(got, data, "{}", what("ecb decrypt out of place"));

        let mut chain = [0; 16];
        let got = in_place(data, sa, |d| {
            let mut cbc = Cbc::from_cipher(c.clone(), &iv);
            cbc.encrypt(d).unwrap();
            chain = *cbc.chain();
        });
        assert_eq!(got, cbc, "{}", what("cbc encrypt in place"));
        assert_eq!(chain, last(&cbc), "{}", what("cbc encrypt chain"));
        let got = into_buffer(data, sa, sb, len, |i, o| {
            Cbc::from_cipher(c.clone(), &iv).encrypt_into(i, o).unwrap()
        });
        assert_eq!(got, cbc, "{}", what("cbc encrypt out of place"));
        let got = in_place(&cbc, sb, |d| {
            let mut dec = Cbc::from_cipher(c.clone(), &iv);
            dec.decrypt(d).unwrap();
            chain = *dec.chain();
        });
        assert_eq!(got, data, "{}", what("cbc decrypt in place"));
        assert_eq!(chain, last(&cbc), "{}", what("cbc decrypt chain"));
        let got = into_buffer(&cbc, sb, sa, len, |i, o| {
            Cbc::from_cipher(c.clone(), &iv).decrypt_into(i, o).unwrap()
        });
        assert_eq!(got, data, "{}", what("cbc decrypt out of place"));
        // Split in two calls at a block boundary, each way.
        let split = 16 * ((sa + sb) % (len / 16 + 1));
        let got = in_place(&cbc, sa, |d| {
            let mut dec = Cbc::from_cipher(c.clone(), &iv);
            let (a, b) = d.split_at_mut(split);
            dec.decrypt(a).unwrap();
            dec.decrypt(b).unwrap();
        });
        assert_eq!(
            got,
            data,
            "{}",
            what(&format!("cbc decrypt split at {split}"))
        );
    });
}

/// The three key sizes, keys from `seed`.
fn keys(seed: u64) -> [Vec<u8>; 3] {
    [16, 24, 32].map(|len| bytes(seed + len as u64, len))
}

#[test]
fn every_length_to_40_blocks_at_odd_addresses() {
    let rungs = rungs("every_length_to_40_blocks_at_odd_addresses");
    let counters = edge_counters();
    for (k, key) in keys(1).iter().enumerate() {
        let model = Model::new(key);
        for blocks in 0..=40 {
            for tail in [0, 1, 9, 15] {
                let len = 16 * blocks + tail;
                let data = bytes((len + k) as u64, len);
                let counter = counters[(blocks * 4 + tail + k) % counters.len()];
                let shifts = (len % 16, (len * 7 + 3) % 16);
                for &imp in &rungs {
                    check_modes(&model, key, imp, &data, counter, shifts);
                }
            }
        }
    }
}

#[test]
fn kilobytes_at_every_edge_counter() {
    let rungs = rungs("kilobytes_at_every_edge_counter");
    for (k, key) in keys(2).iter().enumerate() {
        let model = Model::new(key);
        for (i, &counter) in edge_counters().iter().enumerate() {
            let len = [1024, 4096 + 48, 8192 + 16 * 31, 3000 + 5][(i + k) % 4];
            let data = bytes(i as u64, len);
            for &imp in &rungs {
                check_modes(&model, key, imp, &data, counter, (i % 16, 15 - i % 16));
            }
        }
    }
}

/// CTR on every rung equals the reference rung across the 2^64 carry and
/// the 2^128 wrap at every length up to 70 blocks.
#[test]
fn ctr_carries_at_every_length() {
    let rungs = rungs("ctr_carries_at_every_length");
    let key = bytes(3, 16);
    let model = Model::new(&key);
    for start in [(1u128 << 64) - 35, 0u128.wrapping_sub(35), (1 << 32) - 35] {
        for len in (0..=70 * 16).step_by(13) {
            let data = bytes(len as u64, len);
            let want = model.ctr(start, &data);
            for &imp in &rungs {
                let mut got = data.clone();
                Ctr::from_cipher(
                    Aes128::new(key[..].try_into().unwrap())
                        .with_impl(imp)
                        .unwrap(),
                    &start.to_be_bytes(),
                )
                .apply_keystream(&mut got)
                .unwrap();
                assert_eq!(got, want, "{imp}, counter {start:#x}, {len} bytes");
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// Random keys of every size, data, counters, addresses.
    #[test]
    fn random_cases(
        size in 0usize..3,
        key in prop::collection::vec(any::<u8>(), 32),
        blocks in 0usize..=44,
        tail in 0usize..16,
        seed in any::<u64>(),
        counter in prop_oneof![
            any::<u128>(),
            ((1u128 << 64) - 48)..((1u128 << 64) + 8),
            (u128::MAX - 48)..=u128::MAX,
            ((1u128 << 32) - 48)..((1u128 << 32) + 8),
        ],
        shifts in (0usize..16, 0usize..16),
    ) {
        let key = &key[..[16, 24, 32][size]];
        let model = Model::new(key);
        let data = bytes(seed, 16 * blocks + tail);
        for imp in Impl::available() {
            check_modes(&model, key, imp, &data, counter, shifts);
        }
    }
}

/// FIPS 197 Appendices B and C: one block each way, on every rung.
#[test]
fn fips_197_vectors() {
    let file = json(include_str!("data/aes/fips197.json"));
    for imp in rungs("fips_197_vectors") {
        for v in records(&file, "vectors") {
            let key = hex(field(v, "key"));
            let pt: [u8; 16] = hex(field(v, "plaintext")).try_into().unwrap();
            let ct: [u8; 16] = hex(field(v, "ciphertext")).try_into().unwrap();
            let section = field(v, "section");
            with_cipher!(&key, imp, |c| {
                let mut block = pt;
                c.encrypt_block(&mut block);
                assert_eq!(block, ct, "{imp}: {section}");
                c.decrypt_block(&mut block);
                assert_eq!(block, pt, "{imp}: {section}, decrypt");
                let mut block = pt;
                c.encrypt_blocks(&mut block).unwrap();
                assert_eq!(block, ct, "{imp}: {section}, as blocks");
            });
        }
    }
}

/// SP 800-38A Appendix F: ECB, CBC and CTR (F.1, F.2, F.5), CFB and OFB
/// (F.3, F.4), on every rung, both ways.
#[test]
fn sp800_38a_vectors() {
    let main = json(include_str!("data/aes/sp800_38a.json"));
    let cfb_ofb = json(include_str!("data/aes/sp800_38a_cfb_ofb.json"));
    let all: Vec<_> = records(&main, "vectors")
        .iter()
        .chain(records(&cfb_ofb, "vectors"))
        .collect();
    let rungs = rungs("sp800_38a_vectors");
    let mut count = 0;
    for &v in &all {
        let key = hex(field(v, "key"));
        let pt = hex(field(v, "plaintext"));
        let ct = hex(field(v, "ciphertext"));
        let name = field(v, "name");
        let iv: [u8; 16] = match field(v, "mode") {
            "ctr" => hex(field(v, "initial_counter_block")),
            "ecb" => vec![0; 16],
            _ => hex(field(v, "iv")),
        }
        .try_into()
        .unwrap();
        for &imp in &rungs {
            let (mut enc, mut dec) = (pt.clone(), ct.clone());
            with_cipher!(&key, imp, |c| {
                match field(v, "mode") {
                    "ecb" => {
                        Ecb::from_cipher(c.clone()).encrypt(&mut enc).unwrap();
                        Ecb::from_cipher(c).decrypt(&mut dec).unwrap();
                    }
                    "cbc" => {
                        Cbc::from_cipher(c.clone(), &iv).encrypt(&mut enc).unwrap();
                        Cbc::from_cipher(c, &iv).decrypt(&mut dec).unwrap();
                    }
                    "ctr" => {
                        Ctr::from_cipher(c.clone(), &iv)
                            .apply_keystream(&mut enc)
                            .unwrap();
                        Ctr::from_cipher(c, &iv).apply_keystream(&mut dec).unwrap();
                    }
                    "cfb" => {
                        Cfb::from_cipher(c.clone(), &iv).encrypt(&mut enc);
                        Cfb::from_cipher(c, &iv).decrypt(&mut dec);
                    }
                    "ofb" => {
                        Ofb::from_cipher(c.clone(), &iv).apply_keystream(&mut enc);
                        Ofb::from_cipher(c, &iv).apply_keystream(&mut dec);
                    }
                    mode => panic!("unknown mode {mode}"),
                }
            });
            assert_eq!(enc, ct, "{imp}: {name}");
            assert_eq!(dec, pt, "{imp}: {name}, decrypt");
            count += 1;
        }
    }
    assert_eq!(count, all.len() * rungs.len(), "every vector on every rung");
}

/// RFC 4493 §4: AES-CMAC, on every rung.
#[test]
fn rfc_4493_vectors() {
    let file = json(include_str!("data/aes/rfc4493.json"));
    for imp in rungs("rfc_4493_vectors") {
        for v in records(&file, "vectors") {
            let key: [u8; 16] = hex(field(v, "key")).try_into().unwrap();
            let mut mac = Cmac::from_cipher(Aes128::new(&key).with_impl(imp).unwrap());
            mac.update(&hex(field(v, "message")));
            assert_eq!(
                mac.finalize().to_vec(),
                hex(field(v, "tag")),
                "{imp}: {}",
                field(v, "section")
            );
        }
    }
}

/// The default is the widest constant-time rung the CPU runs, and every
/// rung says how many blocks it takes at once.
#[test]
fn best_and_widths() {
    let best = Impl::best();
    assert!(best.is_available());
    assert_eq!(Aes128::new(&[0; 16]).implementation(), best);
    let expected = |imp: Impl| match imp {
        Impl::Aesni => 8,
        Impl::Vaes => 16,
        Impl::Vaes512 => 32,
        _ => imp.par_blocks(),
    };
    for &imp in Impl::ALL {
        assert_eq!(imp.par_blocks(), expected(imp), "{imp}");
        assert!(imp.par_blocks() >= 1);
    }
    for imp in [Impl::Vaes512, Impl::Vaes, Impl::Aesni] {
        if imp.is_available() {
            assert!(imp.is_constant_time());
            assert!(
                best.par_blocks() >= imp.par_blocks(),
                "{best} is not the widest"
            );
        }
    }
}
