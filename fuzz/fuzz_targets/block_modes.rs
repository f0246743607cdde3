//! Differential fuzzing of the block layer: every mode of `simdcrypt::block`
//! (ECB, CBC, CFB, OFB, CTR) over AES-128, AES-256 and Magma, on every rung
//! this CPU runs, fed in fuzzer-chosen pieces, against the same mode
//! written out here from SP 800-38A over the cipher's `reference` rung one
//! block at a time; and decrypted back. The mode code is generic over the
//! block cipher, so this checks it for 16- and 8-byte blocks at once.
#![no_main]

use libfuzzer_sys::fuzz_target;
use simdcrypt::RungSet;
use simdcrypt::aes::{Aes128, Aes256};
use simdcrypt::block::{BlockCipher, Cbc, Cfb, Ctr, Ecb, Ofb};
use simdcrypt::magma::Magma;

/// The modes, written out.
#[derive(Clone, Copy, Debug)]
enum Mode {
    Ecb,
    Cbc,
    Cfb,
    Ofb,
    Ctr,
}

/// `block` enciphered (or deciphered) on the reference rung.
fn one<C: BlockCipher>(cipher: &C, block: &[u8], decrypt: bool) -> Vec<u8> {
    let mut b = block.to_vec();
    if decrypt {
        cipher.decrypt_blocks(&mut b).expect("one block");
    } else {
        cipher.encrypt_blocks(&mut b).expect("one block");
    }
    b
}

/// SP 800-38A's mode `mode` of `data` under `cipher` (the reference rung)
/// from `iv`: §6.1–§6.5, full-block CFB, CTR's whole block a big-endian
/// counter modulo 2^(8·block length).
fn written_out<C: BlockCipher>(
    cipher: &C,
    mode: Mode,
    iv: &[u8],
    data: &[u8],
    decrypt: bool,
) -> Vec<u8> {
    let bl = C::BLOCK_LEN;
    let xor = |a: &[u8], b: &[u8]| a.iter().zip(b).map(|(x, y)| x ^ y).collect::<Vec<u8>>();
    let mut out = Vec::with_capacity(data.len());
    let mut chain = iv.to_vec();
    for block in data.chunks(bl) {
        match mode {
            Mode::Ecb => out.extend(one(cipher, block, decrypt)),
            Mode::Cbc if decrypt => {
                out.extend(xor(&one(cipher, block, true), &chain));
                chain = block.to_vec();
            }
            Mode::Cbc => {
                chain = one(cipher, &xor(block, &chain), false);
                out.extend(&chain);
            }
            Mode::Cfb => {
                let ks = one(cipher, &chain, false);
                let c = xor(block, &ks);
                chain = if decrypt { block.to_vec() } else { c.clone() };
                out.extend(c);
            }
            Mode::Ofb => {
                chain = one(cipher, &chain, false);
                out.extend(xor(block, &chain));
            }
            Mode::Ctr => {
                out.extend(xor(block, &one(cipher, &chain, false)));
                for byte in chain.iter_mut().rev() {
                    *byte = byte.wrapping_add(1);
                    if *byte != 0 {
                        break;
                    }
                }
            }
        }
    }
    out
}

/// `data` through the library's `mode` over `cipher` (on its rung), in the
/// pieces `cuts` makes (whole blocks for ECB and CBC).
fn library<C: BlockCipher>(
    cipher: C,
    mode: Mode,
    iv: &C::Block,
    data: &[u8],
    cuts: &[usize],
    decrypt: bool,
) -> Vec<u8> {
    let mut out = data.to_vec();
    let bl = C::BLOCK_LEN;
    let whole = matches!(mode, Mode::Ecb | Mode::Cbc);
    let mut pieces = Vec::new();
    let mut at = 0;
    for &cut in cuts {
        let mut end = (at + cut).min(out.len());
        if whole {
            end -= (end - at) % bl;
        }
        pieces.push(at..end);
        at = end;
    }
    pieces.push(at..out.len());
    let (mut cbc, mut cfb, mut ofb, mut ctr) = (
        Cbc::from_cipher(cipher.clone(), iv),
        Cfb::from_cipher(cipher.clone(), iv),
        Ofb::from_cipher(cipher.clone(), iv),
        Ctr::from_cipher(cipher.clone(), iv),
    );
    let ecb = Ecb::from_cipher(cipher);
    for range in pieces {
        let piece = &mut out[range];
        match (mode, decrypt) {
            (Mode::Ecb, false) => ecb.encrypt(piece).expect("whole blocks"),
            (Mode::Ecb, true) => ecb.decrypt(piece).expect("whole blocks"),
            (Mode::Cbc, false) => cbc.encrypt(piece).expect("whole blocks"),
            (Mode::Cbc, true) => cbc.decrypt(piece).expect("whole blocks"),
            (Mode::Cfb, false) => cfb.encrypt(piece),
            (Mode::Cfb, true) => cfb.decrypt(piece),
            (Mode::Ofb, _) => ofb.apply_keystream(piece),
            (Mode::Ctr, _) => simdcrypt::KeyStream::apply_keystream(&mut ctr, piece)
                .expect("within the keystream"),
        }
    }
    out
}

/// Every rung of `C` against the written-out mode, both directions.
fn check<C: BlockCipher>(key: &C::Key, mode: Mode, iv: &C::Block, data: &[u8], cuts: &[usize]) {
    let reference = C::new(key)
        .with_rung(C::Rung::all()[0])
        .expect("the reference runs anywhere");
    let data = match mode {
        Mode::Ecb | Mode::Cbc => &data[..data.len() / C::BLOCK_LEN * C::BLOCK_LEN],
        _ => data,
    };
    if matches!(mode, Mode::Ctr) && C::BLOCK_LEN != 16 {
        return; // Magma's CTR is GOST's half-block form: its ladder checks it.
    }
    let want = written_out(&reference, mode, iv.as_ref(), data, false);
    for &rung in C::Rung::all().iter().filter(|r| r.is_available()) {
        let cipher = C::new(key).with_rung(rung).expect("available");
        let sealed = library(cipher.clone(), mode, iv, data, cuts, false);
        assert!(
            sealed == want,
            "{} {mode:?} on {rung}: {} bytes in {cuts:?}",
            C::NAME,
            data.len()
        );
        let opened = library(cipher, mode, iv, &sealed, cuts, true);
        assert!(
            opened == data,
            "{} {mode:?} on {rung}: not decrypted back",
            C::NAME
        );
    }
}

fuzz_target!(|input: &[u8]| {
    if input.len() < 2 + 32 + 16 + 4 {
        return;
    }
    let (head, rest) = input.split_at(2 + 32 + 16 + 4);
    let mode = [Mode::Ecb, Mode::Cbc, Mode::Cfb, Mode::Ofb, Mode::Ctr][usize::from(head[0]) % 5];
    let cuts: Vec<usize> = head[50..54].iter().map(|&b| usize::from(b)).collect();
    let key = &head[2..34];
    let iv = &head[34..50];
    match head[1] % 3 {
        0 => check::<Aes128>(
            key[..16].try_into().unwrap(),
            mode,
            iv.try_into().unwrap(),
            rest,
            &cuts,
        ),
        1 => check::<Aes256>(
            key.try_into().unwrap(),
            mode,
            iv.try_into().unwrap(),
            rest,
            &cuts,
        ),
        _ => check::<Magma>(
            key.try_into().unwrap(),
            mode,
            iv[..8].try_into().unwrap(),
            rest,
            &cuts,
        ),
    }
});
