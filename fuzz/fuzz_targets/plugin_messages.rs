//! The age plugin protocol's reader (c2sp.org/age-plugin, "Wire format":
//! stanzas, read by `Stanza::read` as the client reads a plugin's
//! messages) on fuzzer-chosen bytes: it ends in a stanza or an error,
//! never a panic, within its bounds; every stanza read writes back in its
//! canonical form, which reads back the same.
#![no_main]

use std::io::BufReader;

use libfuzzer_sys::fuzz_target;
use simdcrypt_age::Stanza;

fuzz_target!(|input: &[u8]| {
    let mut reader = BufReader::new(input);
    // A message at a time, as the client reads them, until one is refused.
    for _ in 0..64 {
        let Ok(stanza) = Stanza::read(&mut reader) else {
            return;
        };
        let mut written = Vec::new();
        stanza.write(&mut written).unwrap();
        let again = Stanza::read(&mut &written[..]).expect("our own form reads back");
        assert_eq!(again, stanza);
    }
});
