//! PKCS#7 removal (RFC 5652 §6.3): a fuzzer-chosen message of whole blocks
//! enciphered with ECB and no padding, then deciphered with PKCS#7 removal,
//! in one call and streamed in two pieces: the result is the message
//! without its padding exactly when its last block ends in valid padding
//! (1 to 16 bytes, each holding the count), and the one error
//! `BadPadding` otherwise, with nothing released.
#![no_main]

use libfuzzer_sys::fuzz_target;
use simdcrypt::Error;
use simdcrypt::aes::Aes128;
use simdcrypt::block::{Ecb, Padding};

/// The padding's length when `message` ends in valid PKCS#7 padding.
fn valid(message: &[u8]) -> Option<usize> {
    let &n = message.last()?;
    let n = usize::from(n);
    (1..=16).contains(&n).then_some(())?;
    let pad = message.get(message.len().checked_sub(n)?..)?;
    pad.iter().all(|&b| usize::from(b) == n).then_some(n)
}

fuzz_target!(|input: &[u8]| {
    if input.len() < 17 {
        return;
    }
    let (head, rest) = input.split_at(17);
    let key: [u8; 16] = head[..16].try_into().unwrap();
    let message = &rest[..rest.len() / 16 * 16];
    let ecb = Ecb::<Aes128>::new(&key);
    let mut sealed = message.to_vec();
    ecb.encrypt(&mut sealed).unwrap();
    let want = valid(message).map(|n| message[..message.len() - n].to_vec());

    let got = Ecb::<Aes128>::new(&key).decrypt_padded_vec(&sealed);
    match (&want, &got) {
        (Some(w), Ok(g)) => assert!(w == g, "{} bytes: wrong message", message.len()),
        (None, Err(Error::BadPadding)) => {}
        _ => panic!(
            "{} bytes: expected {:?}, got {:?}",
            message.len(),
            want.is_some(),
            got.as_ref().map(Vec::len)
        ),
    }

    // The same streamed: two pieces cut at the fuzzer's point.
    let cut = usize::from(head[16]).min(sealed.len());
    let mut decryptor = Ecb::<Aes128>::new(&key).decryptor(Padding::Pkcs7);
    let mut out = vec![0u8; sealed.len() + 16];
    let a = decryptor.update(&sealed[..cut], &mut out).unwrap();
    let b = decryptor.update(&sealed[cut..], &mut out[a..]).unwrap();
    let end = decryptor.finalize(&mut out[a + b..]);
    match (&want, end) {
        (Some(w), Ok(c)) => assert!(out[..a + b + c] == w[..], "streamed: wrong message"),
        (None, Err(Error::BadPadding)) => {}
        (_, end) => panic!("streamed: expected {:?}, got {end:?}", want.is_some()),
    }
});
