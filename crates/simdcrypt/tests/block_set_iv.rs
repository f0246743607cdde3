//! `set_iv` on the modes that carry state from call to call (CTR, CBC,
//! CFB, OFB): after a message of any length — ending inside a block, or a
//! z-block register for GOST R 34.13-2015 — the object keyed once and given
//! a new IV works as one made afresh from the key and that IV, on every
//! AES rung and for Magma's register form.

mod common;

use common::{Rng, bytes, choosable_rungs};
use simdcrypt::aes::{Aes128, Aes256, Rung};
use simdcrypt::block::{BlockCipher, Cbc, Cfb, Ctr, Ofb};
use simdcrypt::magma::{MagmaCbc, MagmaCfb, MagmaOfb};

/// The lengths each message takes: none, inside one block, the edges of
/// the rungs' batches (1–32 blocks, zmm's four-register batch at 256
/// bytes), and some drawn at random.
fn lengths(rng: &mut Rng) -> Vec<usize> {
    let mut v = vec![
        0, 1, 15, 16, 17, 63, 64, 65, 127, 128, 255, 256, 257, 512, 1000,
    ];
    v.extend((0..12).map(|_| rng.below(700) as usize));
    v
}

/// Whole blocks of `len` bytes for the modes that take only those.
fn whole(len: usize) -> usize {
    len / 16 * 16
}

/// What a mode's test needs of it: a new object, the new-IV call, and one
/// message's encryption (in place; whole blocks for CBC).
trait Mode: Sized {
    type C: BlockCipher<Block = [u8; 16]>;
    fn new(cipher: Self::C, iv: &[u8; 16]) -> Self;
    fn set_iv(&mut self, iv: &[u8; 16]);
    fn run(&mut self, data: &mut [u8]);
}

macro_rules! mode {
    ($name:ident, $ty:ident, |$m:ident, $d:ident| $run:expr) => {
        struct $name<C: BlockCipher<Block = [u8; 16]>>($ty<C>);
        impl<C: BlockCipher<Block = [u8; 16]>> Mode for $name<C> {
            type C = C;
            fn new(cipher: C, iv: &[u8; 16]) -> Self {
                $name($ty::from_cipher(cipher, iv))
            }
            fn set_iv(&mut self, iv: &[u8; 16]) {
                self.0.set_iv(iv);
            }
            fn run(&mut self, $d: &mut [u8]) {
                let $m = &mut self.0;
                $run
            }
        }
    };
}

mode!(CtrMode, Ctr, |m, d| m.apply_keystream(d).unwrap());
mode!(CbcEncrypt, Cbc, |m, d| {
    let n = whole(d.len());
    m.encrypt(&mut d[..n]).unwrap()
});
mode!(CbcDecrypt, Cbc, |m, d| {
    let n = whole(d.len());
    m.decrypt(&mut d[..n]).unwrap()
});
mode!(CfbEncrypt, Cfb, |m, d| m.encrypt(d));
mode!(CfbDecrypt, Cfb, |m, d| m.decrypt(d));
mode!(OfbMode, Ofb, |m, d| m.apply_keystream(d));

/// Message after message on one object, a new IV before each, equals each
/// message on a fresh object.
fn new_iv_is_a_fresh_object<M: Mode>(cipher: M::C, seed: u64) {
    let mut rng = Rng::new(seed);
    let iv = |rng: &mut Rng| -> [u8; 16] { rng.bytes(16).try_into().unwrap() };
    let mut kept = M::new(cipher.clone(), &iv(&mut rng));
    for len in lengths(&mut rng) {
        let first = rng.below(100) as usize;
        kept.run(&mut bytes(seed, first));
        let new_iv = iv(&mut rng);
        kept.set_iv(&new_iv);
        let message = bytes(seed ^ len as u64, len);
        let (mut got, mut want) = (message.clone(), message);
        kept.run(&mut got);
        M::new(cipher.clone(), &new_iv).run(&mut want);
        assert_eq!(got, want, "{len} bytes after {first}");
    }
}

fn every_mode<C: BlockCipher<Block = [u8; 16]>>(cipher: C, seed: u64) {
    new_iv_is_a_fresh_object::<CtrMode<C>>(cipher.clone(), seed);
    new_iv_is_a_fresh_object::<CbcEncrypt<C>>(cipher.clone(), seed + 1);
    new_iv_is_a_fresh_object::<CbcDecrypt<C>>(cipher.clone(), seed + 2);
    new_iv_is_a_fresh_object::<CfbEncrypt<C>>(cipher.clone(), seed + 3);
    new_iv_is_a_fresh_object::<CfbDecrypt<C>>(cipher.clone(), seed + 4);
    new_iv_is_a_fresh_object::<OfbMode<C>>(cipher, seed + 5);
}

#[test]
fn aes_modes_take_a_new_iv_on_every_rung() {
    for rung in choosable_rungs::<Rung>("aes set_iv") {
        every_mode(Aes128::new(&[0x2b; 16]).with_rung(rung).unwrap(), 1);
        every_mode(Aes256::new(&[0x60; 32]).with_rung(rung).unwrap(), 2);
    }
}

/// GOST R 34.13-2015's register of z blocks gives way to the one-block IV
/// `set_iv` takes.
#[test]
fn a_register_of_blocks_becomes_the_one_block_iv() {
    let key = [0x88; 32];
    let register = bytes(3, 24);
    let (iv, message) = ([0x12; 8], bytes(4, 40));
    let mut want = message.clone();
    MagmaCbc::new(&key, &iv).encrypt(&mut want).unwrap();
    let mut cbc = MagmaCbc::with_iv_register(&key, &register).unwrap();
    cbc.encrypt(&mut bytes(5, 16)).unwrap();
    cbc.set_iv(&iv);
    let mut got = message.clone();
    cbc.encrypt(&mut got).unwrap();
    assert_eq!(got, want, "CBC");

    let mut want = message.clone();
    MagmaCfb::new(&key, &iv).encrypt(&mut want);
    let mut cfb = MagmaCfb::with_iv_register(&key, &register).unwrap();
    cfb.encrypt(&mut bytes(5, 13));
    cfb.set_iv(&iv);
    let mut got = message.clone();
    cfb.encrypt(&mut got);
    assert_eq!(got, want, "CFB");

    let mut want = message.clone();
    MagmaOfb::new(&key, &iv).apply_keystream(&mut want);
    let mut ofb = MagmaOfb::with_iv_register(&key, &register).unwrap();
    ofb.apply_keystream(&mut bytes(5, 13));
    ofb.set_iv(&iv);
    let mut got = message;
    ofb.apply_keystream(&mut got);
    assert_eq!(got, want, "OFB");
}
