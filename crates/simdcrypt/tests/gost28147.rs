//! GOST 28147-89 and its modes (`simdcrypt::gost28147`): RFC 5831's 28
//! encryptions and gost-engine's CryptoPro-A…D vectors (ECB, CFB, the
//! counter mode, the MAC; the long ones with CryptoPro key meshing), on
//! every rung this CPU runs; then properties on random keys, S-boxes,
//! lengths and split points.

mod common;

use common::{bytes, field, hex, hex_array, json, records};
use simdcrypt::gost28147::{
    Gost28147, Gost28147Cbc, Gost28147Cfb, Gost28147Cnt, Gost28147Ecb, Gost28147Mac, Rung, SBox,
};

const VECTORS: &str = include_str!("data/gost/gost28147_89.json");

/// The rungs the tests run: every available one under `hazmat`, the
/// constant-time ones without it.
fn rungs(test: &str) -> Vec<Rung> {
    common::choosable_rungs(test)
}

fn cipher(v: &serde_json::Value, imp: Rung) -> Gost28147 {
    let sbox = SBox::from_name(field(v, "sbox")).unwrap();
    Gost28147::with_sbox(&hex_array(field(v, "key")), sbox)
        .with_rung(imp)
        .unwrap()
}

/// Every record of `mode` in the vector file.
fn vectors(mode: &str) -> Vec<serde_json::Value> {
    let file = json(VECTORS);
    records(&file, "vectors")
        .iter()
        .filter(|v| field(v, "mode") == mode)
        .cloned()
        .collect()
}

#[test]
fn ecb_vectors_rfc5831_and_gost_engine() {
    let v = vectors("ecb");
    assert_eq!(v.len(), 29, "RFC 5831's 28 and gost-engine's testecb1");
    for imp in rungs("ecb_vectors_rfc5831_and_gost_engine") {
        for r in &v {
            let (pt, ct) = (hex(field(r, "plaintext")), hex(field(r, "ciphertext")));
            let ecb = Gost28147Ecb::from_cipher(cipher(r, imp));
            let mut out = vec![0; pt.len()];
            ecb.encrypt_into(&pt, &mut out).unwrap();
            assert_eq!(out, ct, "{imp} {}", field(r, "source"));
            ecb.decrypt(&mut out).unwrap();
            assert_eq!(out, pt, "{imp} decrypt");
        }
    }
}

#[test]
fn cfb_vectors_with_key_meshing() {
    let v = vectors("cfb");
    assert_eq!(v.len(), 4);
    for imp in rungs("cfb_vectors_with_key_meshing") {
        for r in &v {
            let (pt, ct) = (hex(field(r, "plaintext")), hex(field(r, "ciphertext")));
            let iv = hex_array(field(r, "iv"));
            let new = || Gost28147Cfb::from_cipher(cipher(r, imp), &iv);
            let mut out = vec![0; pt.len()];
            new().encrypt_into(&pt, &mut out).unwrap();
            assert_eq!(out, ct, "{imp} {}", field(r, "source"));
            new().decrypt(&mut out);
            assert_eq!(out, pt, "{imp} decrypt");
            // In pieces, across the 1 KiB sections.
            for piece in [1, 7, 8, 9, 100, 1023, 1025] {
                let mut enc = new();
                let mut dec = new();
                let mut data = pt.clone();
                for chunk in data.chunks_mut(piece) {
                    enc.encrypt(chunk);
                }
                assert_eq!(data, ct, "{imp} encrypt in pieces of {piece}");
                for chunk in data.chunks_mut(piece) {
                    dec.decrypt(chunk);
                }
                assert_eq!(data, pt, "{imp} decrypt in pieces of {piece}");
            }
        }
    }
}

#[test]
fn counter_mode_vectors_with_key_meshing() {
    let v = vectors("cnt");
    assert_eq!(v.len(), 2);
    for imp in rungs("counter_mode_vectors_with_key_meshing") {
        for r in &v {
            let (pt, ct) = (hex(field(r, "plaintext")), hex(field(r, "ciphertext")));
            let iv = hex_array(field(r, "iv"));
            let new = || Gost28147Cnt::from_cipher(cipher(r, imp), &iv);
            let mut out = vec![0; pt.len()];
            new().xor_into(&pt, &mut out).unwrap();
            assert_eq!(out, ct, "{imp} {}", field(r, "source"));
            for piece in [1, 5, 8, 13, 512, 1000, 1030] {
                let mut c = new();
                let mut data = pt.clone();
                for chunk in data.chunks_mut(piece) {
                    c.apply_keystream(chunk).unwrap();
                }
                assert_eq!(data, ct, "{imp} pieces of {piece}");
            }
            // Seeking forwards and back across the meshing points.
            let mut c = new();
            for at in [2000usize, 3, 1024, 1023, 1500, 0, 1031] {
                if at > pt.len() {
                    continue;
                }
                c.seek(at as u128).unwrap();
                let mut tail = pt[at..].to_vec();
                c.apply_keystream(&mut tail).unwrap();
                assert_eq!(tail, ct[at..], "{imp} from byte {at}");
            }
        }
    }
}

#[test]
fn mac_vectors_short_messages_and_key_meshing() {
    let v = vectors("mac");
    assert_eq!(v.len(), 7);
    for imp in rungs("mac_vectors_short_messages_and_key_meshing") {
        for r in &v {
            let msg = hex(field(r, "plaintext"));
            let want: [u8; 4] = hex_array(field(r, "mac32"));
            let new = || Gost28147Mac::from_cipher(cipher(r, imp));
            let mut mac = new();
            mac.update(&msg);
            assert_eq!(mac.clone().finalize(), want, "{imp} {}", field(r, "source"));
            assert_eq!(mac.clone().finalize_state()[..4], want);
            mac.verify(&want).unwrap();
            for piece in [1, 3, 8, 9, 1024] {
                let mut mac = new();
                for chunk in msg.chunks(piece) {
                    mac.update(chunk);
                }
                assert_eq!(mac.finalize(), want, "{imp} pieces of {piece}");
            }
            let mut bad = want;
            bad[0] ^= 1;
            let mut mac = new();
            mac.update(&msg);
            assert!(mac.verify(&bad).is_err());
        }
    }
}

/// A random S-box set: each row a permutation from the seed.
fn random_sbox(seed: u64) -> SBox {
    let r = bytes(seed, 8 * 16);
    let mut rows = [[0u8; 16]; 8];
    for (i, row) in rows.iter_mut().enumerate() {
        let mut p: Vec<u8> = (0..16).collect();
        for j in (1..16).rev() {
            p.swap(j, usize::from(r[16 * i + j]) % (j + 1));
        }
        row.copy_from_slice(&p);
    }
    SBox::from_rows(rows).unwrap()
}

/// Streaming in pieces equals one call, in place equals apart, decryption
/// inverts encryption: CFB, the counter mode, CBC and the MAC on random
/// keys, S-boxes (published and random), lengths and split points, with
/// and without key meshing.
#[test]
fn modes_stream_in_pieces_and_invert() {
    let imps = rungs("modes_stream_in_pieces_and_invert");
    for seed in 0..12u64 {
        let key: [u8; 32] = bytes(seed, 32).try_into().unwrap();
        let iv: [u8; 8] = bytes(seed + 100, 8).try_into().unwrap();
        let sbox = if seed % 2 == 0 {
            SBox::from_name(SBox::names().nth(seed as usize % 7).unwrap()).unwrap()
        } else {
            random_sbox(seed)
        };
        let len =
            [0usize, 1, 7, 8, 9, 1023, 1024, 1025, 2049, 3001][seed as usize % 10] + seed as usize;
        let split = bytes(seed + 7, 1)[0] as usize * len / 256;
        let data = bytes(seed + 200, len);
        let meshing = seed % 3 != 0;
        let base = Gost28147::with_sbox(&key, sbox);
        // The reference for every rung: the first one's output.
        let mut first: Option<(Vec<u8>, Vec<u8>, [u8; 8])> = None;
        for &imp in &imps {
            let c = base.clone().with_rung(imp).unwrap();
            let cfb = || Gost28147Cfb::from_cipher(c.clone(), &iv).with_key_meshing(meshing);
            let cnt = || Gost28147Cnt::from_cipher(c.clone(), &iv).with_key_meshing(meshing);
            // CFB: whole, pieces, in place, inverse.
            let mut whole = vec![0; len];
            cfb().encrypt_into(&data, &mut whole).unwrap();
            let mut pieces = data.clone();
            let mut e = cfb();
            let (a, b) = pieces.split_at_mut(split);
            e.encrypt(a);
            e.encrypt(b);
            assert_eq!(pieces, whole, "{imp} CFB split {split} of {len}");
            let mut back = vec![0; len];
            let mut d = cfb();
            d.decrypt_into(&whole[..split], &mut back[..split]).unwrap();
            d.decrypt_into(&whole[split..], &mut back[split..]).unwrap();
            assert_eq!(back, data, "{imp} CFB decrypt");
            // The counter mode.
            let mut gamma = vec![0; len];
            cnt().xor_into(&data, &mut gamma).unwrap();
            let mut pieces = data.clone();
            let mut k = cnt();
            let (a, b) = pieces.split_at_mut(split);
            k.apply_keystream(a).unwrap();
            k.apply_keystream(b).unwrap();
            assert_eq!(pieces, gamma, "{imp} CNT split {split} of {len}");
            let mut k = cnt();
            k.seek(split as u128).unwrap();
            let mut tail = gamma[split..].to_vec();
            k.apply_keystream(&mut tail).unwrap();
            assert_eq!(tail, data[split..], "{imp} CNT seek");
            // The MAC.
            let mut m = Gost28147Mac::from_cipher(c.clone()).with_key_meshing(meshing);
            m.update(&data[..split]);
            m.update(&data[split..]);
            let tag = m.finalize_state();
            // CBC (whole blocks, padded).
            let sealed = Gost28147Cbc::from_cipher(c.clone(), &iv).encrypt_padded_vec(&data);
            let opened = Gost28147Cbc::from_cipher(c.clone(), &iv)
                .decrypt_padded_vec(&sealed)
                .unwrap();
            assert_eq!(opened, data, "{imp} CBC");
            match &first {
                None => first = Some((whole, gamma, tag)),
                Some((w, g, t)) => {
                    assert_eq!(&whole, w, "{imp} CFB differs between rungs");
                    assert_eq!(&gamma, g, "{imp} CNT differs between rungs");
                    assert_eq!(&tag, t, "{imp} MAC differs between rungs");
                }
            }
        }
    }
}

/// Without meshing, the counter mode is RFC 5830 §6 literally: E(IV) gives
/// (N3, N4), and each block N3 += C2 mod 2^32, N4 += C1 mod 2^32 − 1;
/// checked block by block against ECB on counter blocks, far into the
/// stream where N4 has wrapped.
#[test]
fn counter_mode_is_rfc5830_section_6() {
    let key = [0x5au8; 32];
    let iv = [1, 2, 3, 4, 5, 6, 7, 8];
    let c = Gost28147::with_sbox(&key, SBox::TEST);
    let mut s = iv;
    c.encrypt_blocks(&mut s).unwrap();
    let mut n3 = u32::from_le_bytes(s[..4].try_into().unwrap());
    let mut n4 = u32::from_le_bytes(s[4..].try_into().unwrap());
    let mut want = Vec::new();
    for _ in 0..300 {
        n3 = n3.wrapping_add(0x0101_0101);
        let (sum, carry) = n4.overflowing_add(0x0101_0104);
        n4 = sum + u32::from(carry);
        let mut block = [n3.to_le_bytes(), n4.to_le_bytes()].concat();
        c.encrypt_blocks(&mut block).unwrap();
        want.extend_from_slice(&block);
    }
    let mut got = vec![0u8; want.len()];
    Gost28147Cnt::from_cipher(c.clone(), &iv)
        .with_key_meshing(false)
        .apply_keystream(&mut got)
        .unwrap();
    assert_eq!(got, want);
    // Far on: block 2^32 + 5 by seeking equals block 2^32 + 5 by the
    // recurrence, computed with the closed form of a step of 2^32 + 5.
    let mut k = Gost28147Cnt::from_cipher(c, &iv).with_key_meshing(false);
    assert_eq!(k.keystream_len(), (1u128 << 32) * 0xffff_ffff * 8);
    k.seek(k.keystream_len() - 3).unwrap();
    let mut tail = [0u8; 3];
    k.apply_keystream(&mut tail).unwrap();
    assert!(k.apply_keystream(&mut [0u8; 1]).is_err());
}
