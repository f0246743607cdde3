//! The tool's parsing of keys, IVs and nonces (`simdcrypt_cli::key`, the
//! package's library) on fuzzer-chosen text: no input panics; what parses
//! as hex is the bytes the digits say (written back, the same digits in
//! lower case), of a length the call allows; every mode of the table takes
//! or refuses the text as an IV by its declared length or register; and the
//! identity and recipients files of `-i` and `-R` (`simdcrypt_age::keys`)
//! parse or are refused, every key parsed written back reading back the
//! same.
#![no_main]

use libfuzzer_sys::fuzz_target;
use simdcrypt::ladder::{self, Kind};
use simdcrypt_age::keys::{parse_identities, parse_recipients};
use simdcrypt_cli::key::{parse_hex, parse_iv, parse_key, parse_table_key};

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fuzz_target!(|input: &[u8]| {
    let Some((&lens, text)) = input.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(text) else {
        return;
    };
    let allowed = [usize::from(lens & 0x3f), usize::from(lens >> 2)];
    for lens in [&allowed[..], &[]] {
        if let Ok(bytes) = parse_hex("--x", text, lens, "thing") {
            assert_eq!(hex(&bytes), text.to_ascii_lowercase());
            assert!(lens.is_empty() || lens.contains(&bytes.len()));
        }
    }
    if let Ok(key) = parse_key(text, lens & 1 == 1, "cipher") {
        assert!(matches!(key.bytes().len(), 16 | 32));
    }
    for (_, p) in ladder::primitives().filter(|(_, p)| p.kind == Kind::Mode) {
        if let Ok(iv) = parse_iv(text, p) {
            let len = p.nonce_len.unwrap_or(0);
            assert!(
                iv.len() == len || (p.iv_register && !iv.is_empty() && iv.len() % p.block_len == 0),
                "{}: an IV of {} bytes",
                p.name,
                iv.len()
            );
        }
        if let Ok(key) = parse_table_key(text, p) {
            assert!(p.key_lens.contains(&key.len()) || p.key_lens.is_empty());
        }
    }
    if let Ok(identities) = parse_identities(text) {
        for identity in &identities {
            let written = identity.to_bech32();
            let again = parse_identities(&written).expect("an identity written back reads back");
            assert_eq!(again.len(), 1);
            assert_eq!(again[0].to_bech32(), written);
        }
    }
    if let Ok((recipients, _)) = parse_recipients(text) {
        for recipient in &recipients {
            let written = recipient.to_string();
            let (again, _) =
                parse_recipients(&written).expect("a recipient written back reads back");
            assert_eq!(again.len(), 1);
            assert_eq!(again[0].to_string(), written);
        }
    }
});
