//! Magma (GOST R 34.12-2015, RFC 8891) and its modes (GOST R 34.13-2015,
//! RFC 9058's MGM): the RFC 8891 examples (with the round values, under
//! `hazmat`), every mode and the MAC of GOST R 34.13-2015 A.2, RFC 9058's
//! MGM example; then the CTR limit of 2^32 blocks and properties of the
//! modes with longer IVs and of MGM.

mod common;

use common::{bytes, field, hex, hex_array, json};
use simdcrypt::KeyStream;
use simdcrypt::block::Padding;
use simdcrypt::magma::{
    Magma, MagmaCbc, MagmaCfb, MagmaCtr, MagmaCtrAcpkm, MagmaEcb, MagmaMac, MagmaMgm, MagmaOfb,
    MagmaOmacAcpkm, Rung,
};

const RFC8891: &str = include_str!("data/gost/rfc8891_magma.json");
const MODES: &str = include_str!("data/gost/gost_r_34_13_2015_magma_modes.json");
const MGM: &str = include_str!("data/gost/rfc9058_mgm_magma.json");
const ACPKM: &str = include_str!("data/gost/rfc8645_acpkm_magma.json");

/// The rungs the tests run: every available one under `hazmat`, the
/// constant-time ones without it.
fn rungs(test: &str) -> Vec<Rung> {
    common::choosable_rungs(test)
}

#[test]
fn rfc8891_encryption_and_decryption() {
    let v = json(RFC8891);
    let e = &v["encryption"];
    let key = hex_array(field(e, "key"));
    for imp in rungs("rfc8891_encryption_and_decryption") {
        let magma = Magma::new(&key).with_rung(imp).unwrap();
        let mut block = hex(field(e, "plaintext"));
        magma.encrypt_blocks(&mut block).unwrap();
        assert_eq!(block, hex(field(e, "ciphertext")), "{imp}");
        magma.decrypt_blocks(&mut block).unwrap();
        assert_eq!(block, hex(field(e, "plaintext")), "{imp}");
    }
}

/// RFC 8891 A.1–A.4 literally: t, g, the key schedule and every round
/// value, through the specification's own functions.
#[cfg(feature = "hazmat")]
#[test]
fn rfc8891_round_values() {
    use simdcrypt::gost28147::{SBox, reference};
    let v = json(RFC8891);
    let word = |s: &str| u32::from_str_radix(s, 16).unwrap();
    let sbox = SBox::PARAM_Z;
    // A.2: g[k](a) = t(a + k) <<< 11: RFC 5830's f.
    for r in v["transformation_g"].as_array().unwrap() {
        let got = reference::f(&sbox, word(field(r, "a")), word(field(r, "k")));
        assert_eq!(got, word(field(r, "output")), "g {r}");
    }
    // A.1: t(a) = g[0](a) >>> 11.
    for r in v["transformation_t"].as_array().unwrap() {
        let got = reference::f(&sbox, word(field(r, "input")), 0).rotate_right(11);
        assert_eq!(got, word(field(r, "output")), "t {r}");
    }
    // A.3 and A.4: the 32 round keys and the (a1, a0) after each round.
    let ks = &v["key_schedule"];
    let keys: Vec<u32> = ks["round_keys"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| word(k.as_str().unwrap()))
        .collect();
    let e = &v["encryption"];
    let pt = u64::from_str_radix(field(e, "plaintext"), 16).unwrap();
    let start = [pt as u32, (pt >> 32) as u32];
    for r in e["round_trace"].as_array().unwrap() {
        let i = r["after_round"].as_u64().unwrap() as usize;
        let n = reference::rounds(&sbox, &keys[..i], start);
        // Without swaps, the half written last is a0 after an odd round.
        let (a1, a0) = if i % 2 == 1 {
            (n[0], n[1])
        } else {
            (n[1], n[0])
        };
        if i < 32 {
            assert_eq!(
                (a1, a0),
                (word(field(r, "a1")), word(field(r, "a0"))),
                "round {i}"
            );
        }
    }
}

#[test]
fn gost_r_34_13_2015_a2_every_mode() {
    let v = json(MODES);
    let key = hex_array(field(&v, "key"));
    let pt = hex(field(&v, "plaintext"));
    let ct = |mode: &str| hex(field(&v[mode], "ciphertext"));
    let iv = |mode: &str| hex(field(&v[mode], "iv"));
    for imp in rungs("gost_r_34_13_2015_a2_every_mode") {
        let magma = || Magma::new(&key).with_rung(imp).unwrap();
        // A.2.1 ECB.
        let mut out = vec![0; pt.len()];
        MagmaEcb::from_cipher(magma())
            .encrypt_into(&pt, &mut out)
            .unwrap();
        assert_eq!(out, ct("ecb"), "{imp} ECB");
        // A.2.2 CTR, IV of 4 bytes.
        let mut out = pt.clone();
        MagmaCtr::from_cipher_half_iv(magma(), &iv("ctr"))
            .unwrap()
            .apply_keystream(&mut out)
            .unwrap();
        assert_eq!(out, ct("ctr"), "{imp} CTR");
        let mut c = MagmaCtr::new(&key, &hex_array(field(&v["ctr"], "iv")));
        c.seek(9).unwrap();
        let mut tail = pt[9..].to_vec();
        c.apply_keystream(&mut tail).unwrap();
        assert_eq!(tail, ct("ctr")[9..], "{imp} CTR seek");
        // A.2.3 OFB, m = 2n.
        let mut out = pt.clone();
        MagmaOfb::from_cipher_with_iv_register(magma(), &iv("ofb"))
            .unwrap()
            .apply_keystream(&mut out);
        assert_eq!(out, ct("ofb"), "{imp} OFB");
        // A.2.4 CBC, m = 3n, both ways, and in pieces.
        let mut cbc = MagmaCbc::from_cipher_with_iv_register(magma(), &iv("cbc")).unwrap();
        let mut out = pt.clone();
        cbc.encrypt(&mut out[..8]).unwrap();
        cbc.encrypt(&mut out[8..]).unwrap();
        assert_eq!(out, ct("cbc"), "{imp} CBC");
        MagmaCbc::from_cipher_with_iv_register(magma(), &iv("cbc"))
            .unwrap()
            .decrypt(&mut out)
            .unwrap();
        assert_eq!(out, pt, "{imp} CBC decrypt");
        // A.2.5 CFB, m = 2n.
        let mut out = vec![0; pt.len()];
        MagmaCfb::from_cipher_with_iv_register(magma(), &iv("cfb"))
            .unwrap()
            .encrypt_into(&pt, &mut out)
            .unwrap();
        assert_eq!(out, ct("cfb"), "{imp} CFB");
        let mut back = out.clone();
        MagmaCfb::from_cipher_with_iv_register(magma(), &iv("cfb"))
            .unwrap()
            .decrypt(&mut back);
        assert_eq!(back, pt, "{imp} CFB decrypt");
        // A.2.6 the MAC: OMAC1 with B64, truncated to 32 bits.
        let mut mac = MagmaMac::from_cipher(magma());
        mac.update(&pt);
        let full = mac.clone().finalize();
        assert_eq!(
            full[..],
            hex(field(&v["mac"], "mac_64_bits_informative"))[..],
            "{imp} MAC"
        );
        assert_eq!(full[..4], hex(field(&v["mac"], "mac"))[..]);
        mac.verify(&hex(field(&v["mac"], "mac"))).unwrap();
    }
}

/// The subkeys of A.2.6 (computed, marked so in the file): K1 = L·x,
/// K2 = L·x^2 with L = E_K(0^64) and B64 = 0x1b, checked through the MAC
/// of one whole block (its last block takes K1) and of a partial one (K2).
#[test]
fn gost_r_34_13_2015_a2_6_subkeys() {
    let v = json(MODES);
    let key = hex_array(field(&v, "key"));
    let k1 = hex(field(&v["mac"], "K1"));
    let k2 = hex(field(&v["mac"], "K2"));
    let magma = Magma::new(&key);
    // MAC(M) for one whole block M = E_K(M ⊕ K1): M = K1 gives E_K(0).
    let mut zero = [0u8; 8];
    magma.encrypt_blocks(&mut zero).unwrap();
    assert_eq!(MagmaMac::mac(&key, &k1), zero);
    // The empty message pads to 1‖0^63, XORed with K2.
    let mut block = [0u8; 8];
    block[0] = 0x80;
    for (b, k) in block.iter_mut().zip(&k2) {
        *b ^= k;
    }
    magma.encrypt_blocks(&mut block).unwrap();
    assert_eq!(MagmaMac::mac(&key, b""), block);
}

#[test]
fn rfc9058_mgm_example() {
    let v = json(MGM);
    let key = hex_array(field(&v, "key"));
    let nonce = hex_array(field(&v, "nonce"));
    let aad = hex(field(&v, "associated_data"));
    let pt = hex(field(&v, "plaintext"));
    let sealed = [hex(field(&v, "ciphertext")), hex(field(&v, "tag"))].concat();
    for imp in rungs("rfc9058_mgm_example") {
        let aead = MagmaMgm::new(&key).with_rung(imp).unwrap();
        assert_eq!(aead.encrypt(&nonce, &aad, &pt), sealed, "{imp}");
        assert_eq!(aead.decrypt(&nonce, &aad, &sealed).unwrap(), pt, "{imp}");
        let mut bad = sealed.clone();
        bad[3] ^= 1;
        let mut out = vec![0xffu8; pt.len()];
        assert!(aead.decrypt_into(&nonce, &aad, &bad, &mut out).is_err());
        assert!(out.iter().all(|&b| b == 0), "nothing released");
    }
    // The nonce's first bit must be 0.
    let mut high = nonce;
    high[0] |= 0x80;
    let mut out = [0u8; 8];
    assert!(
        MagmaMgm::new(&key)
            .encrypt_into(&high, b"", b"", &mut out)
            .is_err()
    );
}

/// MGM: in place equals apart, decryption inverts encryption, any change
/// fails, at lengths around the batches; random keys and nonces.
#[test]
fn mgm_round_trips_and_rejects_changes() {
    for len in [0usize, 1, 7, 8, 9, 255, 256, 257, 1000] {
        let key: [u8; 32] = bytes(len as u64, 32).try_into().unwrap();
        let mut nonce: [u8; 8] = bytes(len as u64 + 1, 8).try_into().unwrap();
        nonce[0] &= 0x7f;
        let aad = bytes(len as u64 + 2, len % 300);
        let pt = bytes(len as u64 + 3, len);
        let aead = MagmaMgm::new(&key);
        let sealed = aead.encrypt(&nonce, &aad, &pt);
        let mut data = pt.clone();
        let tag = aead.encrypt_in_place_detached(&nonce, &aad, &mut data);
        assert_eq!([&data[..], &tag[..]].concat(), sealed);
        assert_eq!(aead.decrypt(&nonce, &aad, &sealed).unwrap(), pt);
        for i in [0, sealed.len() / 2, sealed.len() - 1] {
            let mut bad = sealed.clone();
            bad[i] ^= 0x10;
            assert!(aead.decrypt(&nonce, &aad, &bad).is_err(), "{len}: byte {i}");
        }
        if !aad.is_empty() {
            let mut other = aad.clone();
            other[0] ^= 1;
            assert!(aead.decrypt(&nonce, &other, &sealed).is_err());
        }
    }
}

/// Magma CTR's keystream ends after 2^32 blocks: the last byte is there,
/// the next is refused (nothing written), seeking past the end is refused,
/// and the last blocks equal ECB on IV ‖ 0xffffffff and below.
#[test]
fn ctr_stops_after_2_pow_32_blocks() {
    let key = [9u8; 32];
    let iv = [0xde, 0xad, 0xbe, 0xef];
    ends_after_2_pow_32_blocks(&mut MagmaCtr::new(&key, &iv), iv, &Magma::new(&key));
    assert!(MagmaCtr::from_cipher_half_iv(Magma::new(&key), &[0; 8]).is_err());
}

/// A Magma counter mode `c` on the 4-byte `iv` ends after 2^32 blocks:
/// seeking past the end is refused, its last two blocks are `last` (the
/// cipher that encrypts the counter blocks) on IV ‖ 0xfffffffe and IV ‖
/// 0xffffffff, one byte more is refused and nothing written, and a call
/// across the end is refused whole, leaving the position.
fn ends_after_2_pow_32_blocks(c: &mut dyn KeyStream, iv: [u8; 4], last: &Magma) {
    let end = 8u128 << 32;
    assert_eq!(c.keystream_len(), end);
    assert!(c.seek(end + 1).is_err());
    c.seek(end - 16).unwrap();
    let mut got = [0u8; 16];
    c.apply_keystream(&mut got).unwrap();
    let mut want = [iv, [0xff, 0xff, 0xff, 0xfe], iv, [0xff; 4]].concat();
    last.encrypt_blocks(&mut want).unwrap();
    assert_eq!(got[..], want);
    let mut more = [7u8; 1];
    assert!(matches!(
        c.apply_keystream(&mut more),
        Err(simdcrypt::Error::KeystreamExhausted { .. })
    ));
    assert_eq!(more, [7], "nothing written");
    c.seek(end - 5).unwrap();
    let mut over = [1u8; 6];
    assert!(c.apply_keystream(&mut over).is_err());
    assert_eq!(over, [1; 6]);
    assert_eq!(c.position(), end - 5);
}

/// The modes with a register of z blocks: in pieces equal one call, in
/// place equals apart, decryption inverts encryption, z = 1 is the
/// one-block IV, and block i of CBC/CFB/OFB with z blocks depends on block
/// i − z (z interleaved chains).
#[test]
fn modes_with_longer_ivs() {
    for imp in rungs("modes_with_longer_ivs") {
        for z in 1..=4usize {
            for len in [0usize, 8, 16, 24, 64, 520, 1032] {
                let key: [u8; 32] = bytes(z as u64, 32).try_into().unwrap();
                let iv = bytes(z as u64 + 50, 8 * z);
                let pt = bytes(len as u64, len);
                let magma = Magma::new(&key).with_rung(imp).unwrap();
                let split = (len / 3) / 8 * 8;
                // CBC.
                let mut whole = pt.clone();
                MagmaCbc::from_cipher_with_iv_register(magma.clone(), &iv)
                    .unwrap()
                    .encrypt(&mut whole)
                    .unwrap();
                let mut parts = vec![0; len];
                let mut e = MagmaCbc::from_cipher_with_iv_register(magma.clone(), &iv).unwrap();
                e.encrypt_into(&pt[..split], &mut parts[..split]).unwrap();
                e.encrypt_into(&pt[split..], &mut parts[split..]).unwrap();
                assert_eq!(parts, whole, "{imp} CBC z={z} len={len}");
                let mut d = MagmaCbc::from_cipher_with_iv_register(magma.clone(), &iv).unwrap();
                d.decrypt(&mut parts[..split]).unwrap();
                d.decrypt(&mut parts[split..]).unwrap();
                assert_eq!(parts, pt, "{imp} CBC decrypt z={z}");
                if z == 1 {
                    let mut one = pt.clone();
                    MagmaCbc::from_cipher(magma.clone(), &iv[..].try_into().unwrap())
                        .encrypt(&mut one)
                        .unwrap();
                    assert_eq!(one, whole);
                }
                // CFB and OFB, at any byte split.
                let split = len / 3 + 1;
                let mut whole = pt.clone();
                MagmaCfb::from_cipher_with_iv_register(magma.clone(), &iv)
                    .unwrap()
                    .encrypt(&mut whole);
                if len >= split {
                    let mut parts = vec![0; len];
                    let mut e = MagmaCfb::from_cipher_with_iv_register(magma.clone(), &iv).unwrap();
                    e.encrypt_into(&pt[..split], &mut parts[..split]).unwrap();
                    e.encrypt_into(&pt[split..], &mut parts[split..]).unwrap();
                    assert_eq!(parts, whole, "{imp} CFB z={z} len={len}");
                    let mut d = MagmaCfb::from_cipher_with_iv_register(magma.clone(), &iv).unwrap();
                    d.decrypt(&mut parts[..split]);
                    d.decrypt(&mut parts[split..]);
                    assert_eq!(parts, pt, "{imp} CFB decrypt z={z} len={len}");
                    let mut o1 = pt.clone();
                    MagmaOfb::from_cipher_with_iv_register(magma.clone(), &iv)
                        .unwrap()
                        .apply_keystream(&mut o1);
                    let mut o2 = pt.clone();
                    let mut o = MagmaOfb::from_cipher_with_iv_register(magma.clone(), &iv).unwrap();
                    o.apply_keystream(&mut o2[..split]);
                    o.apply_keystream(&mut o2[split..]);
                    assert_eq!(o1, o2, "{imp} OFB z={z} len={len}");
                    // z interleaved chains: OFB's block i is E^(1 + i/z)(IV block i mod z).
                    for (i, block) in o1.chunks(8).enumerate().take(2 * z) {
                        let mut k = iv[8 * (i % z)..8 * (i % z) + 8].to_vec();
                        for _ in 0..=i / z {
                            magma.encrypt_blocks(&mut k).unwrap();
                        }
                        let x: Vec<u8> =
                            block.iter().zip(&pt[8 * i..]).map(|(a, b)| a ^ b).collect();
                        assert_eq!(x, k[..block.len()], "{imp} OFB chain z={z} block {i}");
                    }
                }
            }
        }
        assert!(MagmaCbc::with_iv_register(&[0; 32], &[0; 12]).is_err());
        assert!(MagmaOfb::with_iv_register(&[0; 32], &[]).is_err());
    }
}

/// Magma ECB and CBC pad with PKCS#7 through the block layer, as every
/// block cipher does.
#[test]
fn padded_ecb_and_cbc_round_trip() {
    let key = [1u8; 32];
    for len in [0usize, 1, 7, 8, 9, 100] {
        let pt = bytes(len as u64, len);
        let sealed = MagmaEcb::new(&key).encrypt_padded_vec(&pt);
        assert_eq!(sealed.len(), (len / 8 + 1) * 8);
        assert_eq!(MagmaEcb::new(&key).decrypt_padded_vec(&sealed).unwrap(), pt);
        let mut enc = MagmaCbc::new(&key, &[2; 8]).encryptor(Padding::Pkcs7);
        let mut out = vec![0; len + 8];
        let n = enc.update(&pt, &mut out).unwrap();
        let m = enc.finalize(&mut out[n..]).unwrap();
        assert_eq!(
            MagmaCbc::new(&key, &[2; 8])
                .decrypt_padded_vec(&out[..n + m])
                .unwrap(),
            pt
        );
    }
}

/// RFC 8645's CTR-ACPKM example for Magma (N = 16 bytes): on every rung,
/// in one call, in every split into two and three pieces, apart and in
/// place; decryption inverts it; each section's keystream is plain CTR
/// under the published section key.
#[test]
fn rfc8645_ctr_acpkm() {
    let v = json(ACPKM);
    let c = &v["ctr_acpkm"];
    let key = hex_array(field(c, "key"));
    let iv = hex_array(field(c, "iv"));
    let n = common::number(c, "section_len") as usize;
    let pt = hex(field(c, "plaintext"));
    let ct = hex(field(c, "ciphertext"));
    let fresh = |imp| {
        MagmaCtrAcpkm::with_section_len(&key, &iv, n)
            .unwrap()
            .with_rung(imp)
            .unwrap()
    };
    for imp in rungs("rfc8645_ctr_acpkm") {
        let mut out = vec![0; pt.len()];
        fresh(imp).xor_into(&pt, &mut out).unwrap();
        assert_eq!(out, ct, "{imp}");
        fresh(imp).apply_keystream(&mut out).unwrap();
        assert_eq!(out, pt, "{imp} decryption");
        for a in 0..=pt.len() {
            for b in a..=pt.len() {
                let mut c = fresh(imp);
                let mut got = pt.clone();
                let (x, rest) = got.split_at_mut(a);
                let (y, z) = rest.split_at_mut(b - a);
                c.apply_keystream(x).unwrap();
                c.apply_keystream(y).unwrap();
                c.apply_keystream(z).unwrap();
                assert_eq!(got, ct, "{imp} pieces {a} {b}");
            }
        }
    }
    // Section s + 1 is CTR under K^(s+2) from block 2(s + 1) on.
    for (s, k) in c["section_keys"].as_array().unwrap().iter().enumerate() {
        let at = n * (s + 1);
        let mut ctr = MagmaCtr::new(&hex_array(k.as_str().unwrap()), &iv);
        ctr.seek(at as u128).unwrap();
        let end = (at + n).min(pt.len());
        let mut got = pt[at..end].to_vec();
        ctr.apply_keystream(&mut got).unwrap();
        assert_eq!(got, ct[at..end], "section {}", s + 1);
    }
}

/// RFC 8645's OMAC-ACPKM examples for Magma (N = 16, T* = 80 bytes): the
/// ACPKM-Master key material (CTR-ACPKM from the IV 1^32 over zeros), the
/// tags on every rung and in every split into two pieces, and `verify`.
#[test]
fn rfc8645_omac_acpkm() {
    let v = json(ACPKM);
    for r in v["omac_acpkm"].as_array().unwrap() {
        let key = hex_array(field(r, "key"));
        let n = common::number(r, "section_len") as usize;
        let t = common::number(r, "key_section_len") as usize;
        let mut master = hex(field(r, "acpkm_master"));
        let want = master.clone();
        master.fill(0);
        MagmaCtrAcpkm::with_section_len(&key, &[0xff; 4], t)
            .unwrap()
            .apply_keystream(&mut master)
            .unwrap();
        assert_eq!(master, want, "ACPKM-Master {r}");
        let msg = hex(field(r, "message"));
        let tag = hex(field(r, "tag"));
        for imp in rungs("rfc8645_omac_acpkm") {
            let fresh = || {
                MagmaOmacAcpkm::new(&key, n, t)
                    .unwrap()
                    .with_rung(imp)
                    .unwrap()
            };
            for split in 0..=msg.len() {
                let mut mac = fresh();
                mac.update(&msg[..split]).unwrap();
                mac.update(&msg[split..]).unwrap();
                assert_eq!(mac.finalize().to_vec(), tag, "{imp} split {split}");
            }
            let mut mac = fresh();
            mac.update(&msg).unwrap();
            mac.clone().verify(&tag).unwrap();
            mac.clone().verify(&tag[..4]).unwrap();
            assert!(mac.clone().verify(&tag[..3]).is_err());
            let mut bad = tag.clone();
            bad[7] ^= 1;
            assert!(matches!(
                mac.verify(&bad),
                Err(simdcrypt::Error::AuthenticationFailed)
            ));
        }
    }
}

/// CTR-ACPKM: chunks of varying sizes equal one call, and a seek to any
/// byte (forwards and back, across sections) gives the keystream there;
/// the section length is a positive multiple of the block, 1024 by
/// default.
#[test]
fn ctr_acpkm_pieces_and_seek_equal_one_call() {
    let key = hex_array::<32>(&"5c".repeat(32));
    let iv = [0xa1, 0xb2, 0xc3, 0xd4];
    assert_eq!(MagmaCtrAcpkm::new(&key, &iv).section_len(), 1024);
    for bad in [0usize, 4, 12, 1020] {
        assert!(MagmaCtrAcpkm::with_section_len(&key, &iv, bad).is_err());
        assert!(MagmaOmacAcpkm::new(&key, bad, 16).is_err());
        assert!(MagmaOmacAcpkm::new(&key, 16, bad).is_err());
    }
    let len = 5000;
    let pt = bytes(13, len);
    for imp in rungs("ctr_acpkm_pieces_and_seek_equal_one_call") {
        for n in [8usize, 24, 136, 1024] {
            let fresh = || {
                MagmaCtrAcpkm::with_section_len(&key, &iv, n)
                    .unwrap()
                    .with_rung(imp)
                    .unwrap()
            };
            let mut whole = vec![0; len];
            fresh().xor_into(&pt, &mut whole).unwrap();
            // The first section is plain CTR under the key.
            let mut first = pt[..n].to_vec();
            MagmaCtr::new(&key, &iv)
                .apply_keystream(&mut first)
                .unwrap();
            assert_eq!(first, whole[..n], "{imp} N = {n}");
            let mut c = fresh();
            let mut got = pt.clone();
            let mut at = 0;
            for step in (1..).map(|i| (i * 37) % 301) {
                let end = (at + step).min(len);
                c.apply_keystream(&mut got[at..end]).unwrap();
                at = end;
                if at == len {
                    break;
                }
            }
            assert_eq!(got, whole, "{imp} N = {n} pieces");
            let mut c = fresh();
            for at in [4000usize, 3, 1024, 1023, 0, 4999, 2051, 8 * 17 + 5] {
                c.seek(at as u128).unwrap();
                let end = (at + 150).min(len);
                let mut got = pt[at..end].to_vec();
                c.apply_keystream(&mut got).unwrap();
                assert_eq!(got, whole[at..end], "{imp} N = {n} seek {at}");
                assert_eq!(c.position(), end as u128);
            }
        }
    }
}

/// CTR-ACPKM ends with MagmaCtr's 2^32 blocks: with sections of 2^34
/// bytes the last two blocks are ECB of IV ‖ 0xfffffffe and IV ‖
/// 0xffffffff under ACPKM(K); the next byte is refused and nothing is
/// written.
#[test]
fn ctr_acpkm_stops_after_2_pow_32_blocks() {
    let key = [3u8; 32];
    let iv = [0xde, 0xad, 0xbe, 0xef];
    let mut c = MagmaCtrAcpkm::with_section_len(&key, &iv, 1 << 34).unwrap();
    let mut k2: [u8; 32] = std::array::from_fn(|i| 0x80 + i as u8);
    Magma::new(&key).encrypt_blocks(&mut k2).unwrap();
    ends_after_2_pow_32_blocks(&mut c, iv, &Magma::new(&k2));
}

/// OMAC-ACPKM against RFC 8645 §6.4.2 written out over the public pieces
/// (ACPKM-Master through CTR-ACPKM, blocks through Magma ECB): block i in
/// section ⌈i·n/N⌉, the last one under its own section's key and K^j_1
/// (whole) or K^j_1·x (padded); in pieces as in one call.
#[test]
fn omac_acpkm_follows_the_rfc_text() {
    let key = hex_array::<32>(&"e7".repeat(32));
    for (n, t) in [(8usize, 8usize), (16, 80), (24, 40), (64, 32)] {
        for len in 0..=100usize {
            let msg = bytes(len as u64 + 1000, len);
            let m = len.div_ceil(8).max(1);
            let sections = (m * 8).div_ceil(n);
            let mut keys = vec![0u8; 40 * sections];
            MagmaCtrAcpkm::with_section_len(&key, &[0xff; 4], t)
                .unwrap()
                .apply_keystream(&mut keys)
                .unwrap();
            let cipher = |j: usize| Magma::new(&keys[40 * j..40 * j + 32].try_into().unwrap());
            let mut c = [0u8; 8];
            for i in 0..m - 1 {
                for (x, y) in c.iter_mut().zip(&msg[8 * i..8 * i + 8]) {
                    *x ^= y;
                }
                cipher(i * 8 / n).encrypt_blocks(&mut c).unwrap();
            }
            let j = (m - 1) * 8 / n;
            let k1 = u64::from_be_bytes(keys[40 * j + 32..40 * j + 40].try_into().unwrap());
            let tail = &msg[8 * (m - 1)..];
            let mut last = [0u8; 8];
            last[..tail.len()].copy_from_slice(tail);
            let k = if tail.len() == 8 {
                k1
            } else {
                last[tail.len()] = 0x80;
                (k1 << 1) ^ if k1 >> 63 == 1 { 0x1b } else { 0 }
            };
            for ((x, y), z) in c.iter_mut().zip(last).zip(k.to_be_bytes()) {
                *x ^= y ^ z;
            }
            cipher(j).encrypt_blocks(&mut c).unwrap();
            let mut mac = MagmaOmacAcpkm::new(&key, n, t).unwrap();
            for piece in msg.chunks(7) {
                mac.update(piece).unwrap();
            }
            assert_eq!(mac.finalize(), c, "N = {n} T* = {t} len {len}");
        }
    }
}
