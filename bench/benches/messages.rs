//! Issue 28's tables: simdcrypt beside its peers one message at a time,
//! at 64 B, 1 KiB, 16 KiB and 1 MiB — AES-128-CTR, AES-256-CTR,
//! AES-128-CBC both ways, Salsa20, XSalsa20, ChaCha20 (RFC 8439),
//! XChaCha20, SHA-256, SHA-512, HMAC-SHA256, HMAC-SHA512 — and scrypt at
//! N = 2^14 and 2^17 (r = 8, p = 1, 64 bytes out).
//!
//! The conventions (the harness is `src/table.rs`): every contender keyed
//! once, outside the timed loop (key schedule, HMAC pads, OpenSSL's
//! context); per message only what a new message needs (a new IV or
//! nonce, the counter from 0, the HMAC restarted from its pads); out of
//! place where the peer has such a call; calls chained, inputs and
//! outputs through `black_box`. Salsa20 and ChaCha20 have no key schedule:
//! every contender sets up key and nonce per message (a copy). Who copies:
//! aws-lc-rs's `EncryptingKey`/`DecryptingKey` work in place only, so its
//! CTR and CBC copy the input into the output first, inside the timed
//! call. Peers that allocate per call because their API does: aws-lc-rs's
//! and ring's HMAC contexts clone the keyed key; OpenSSL's `HMAC_Init_ex`
//! duplicates its digest contexts; the scrypt peers (RustCrypto,
//! libsodium, OpenSSL) allocate V per derivation, as their one-shot APIs
//! do, while simdcrypt derives on a kept `Scrypt`.
//!
//! simdcrypt per message: CTR and CBC keyed once, `set_iv` (the key
//! schedule kept) then `xor_into`, `encrypt_into` or `decrypt_into`;
//! Salsa20 and ChaCha20 `new` + `xor_into`; `Sha256::digest`; HMAC
//! `update` + `finalize_reset` on a kept `Hmac`. Before anything is timed, every
//! contender's output (two messages in a row) is checked against
//! simdcrypt's reference rung.
//!
//! Each row: time per message, the median of the rounds (min–max), and
//! simdcrypt ÷ the best peer of each round (above 1 simdcrypt is ahead),
//! median (min–max), naming the peer of the lowest median.
//!
//! ```sh
//! taskset -c 1 cargo bench -p simdcrypt-bench --bench messages [-- aes-128-ctr sha …]
//! ```
//!
//! Arguments are substrings of the table names; `MESSAGES_ROUNDS` sets the
//! rounds (3); `TABLE_RAW=1` adds each round's figures as tab-separated
//! `raw` lines (for `bench/both-builds.sh`).

use aes::cipher::block_padding::NoPadding;
use aes::cipher::{BlockDecryptMut, BlockEncryptMut, InnerIvInit, KeyInit, StreamCipher};
use aws_lc_rs::cipher::{
    AES_128, AES_256, DecryptingKey, DecryptionContext, EncryptingKey, EncryptionContext,
    UnboundCipherKey,
};
use simdcrypt::aes::{Aes128, Aes256};
use simdcrypt::block::BlockCipher;
use simdcrypt::chacha20::{ChaCha20, XChaCha20};
use simdcrypt::hash::{Sha256, Sha512};
use simdcrypt::hmac::Hmac;
use simdcrypt::kdf::scrypt::Scrypt;
use simdcrypt::salsa20::{Salsa20, XSalsa20};
use simdcrypt_bench::peers::{self, libsodium, openssl};
use simdcrypt_bench::table::{Args, BURSTS, Contender, Row, Unit, check, cpu_name, table};

const KEY: [u8; 32] = [
    0x60, 0x3d, 0xeb, 0x10, 0x15, 0xca, 0x71, 0xbe, 0x2b, 0x73, 0xae, 0xf0, 0x85, 0x7d, 0x77, 0x81,
    0x1f, 0x35, 0x2c, 0x07, 0x3b, 0x61, 0x08, 0xd7, 0x2d, 0x98, 0x10, 0xa3, 0x09, 0x14, 0xdf, 0xf4,
];
const SALT: &[u8] = b"SodiumChloride";

/// A one-shot scrypt: password, salt, log2 N, r, p, output.
type Kdf = fn(&[u8], &[u8], u8, u32, u32, &mut [u8]);
/// A table's name and how to make it.
type Named = (&'static str, fn() -> Table);

/// The message sizes of the byte tables.
const SIZES: [(&str, usize); 4] = [
    ("64 B", 64),
    ("1 KiB", 1 << 10),
    ("16 KiB", 16 << 10),
    ("1 MiB", 1 << 20),
];

/// The IV (initial counter block) of message `i`.
fn iv(i: u64) -> [u8; 16] {
    let mut b = [0xf0; 16];
    b[..8].copy_from_slice(&i.to_be_bytes());
    b
}

/// OpenSSL's ChaCha20 IV of message `i`: the 32-bit block counter, 0,
/// then the 96-bit nonce.
fn chacha20_iv(i: u64) -> [u8; 16] {
    let mut b = [0; 16];
    b[4..].copy_from_slice(&nonce::<12>(i));
    b
}

/// The `N`-byte nonce of message `i`: a fixed prefix, then `i`.
fn nonce<const N: usize>(i: u64) -> [u8; N] {
    let mut n = [0xa5; N];
    n[N - 8..].copy_from_slice(&i.to_le_bytes());
    n
}

/// One table: its contenders, the reference they are checked against,
/// its rows, and the output length of an input length.
struct Table {
    reference: Contender<'static>,
    list: Vec<Contender<'static>>,
    rows: Vec<Row>,
    /// Lengths the check runs.
    check_lengths: Vec<usize>,
    output_len: fn(usize) -> usize,
}

/// A table of the byte sizes; `block` (CBC) rounds the lengths the check
/// runs down to whole 16-byte blocks, and `output_len` gives the output
/// length (the input's, or a digest's).
fn bytes_table(
    reference: Contender<'static>,
    list: Vec<Contender<'static>>,
    block: bool,
    output_len: fn(usize) -> usize,
) -> Table {
    let round = |len: usize| if block { len / 16 * 16 } else { len };
    Table {
        reference,
        list,
        rows: SIZES
            .iter()
            .map(|&(label, len)| Row::bytes(label, len, output_len(len)))
            .collect(),
        check_lengths: [0, 64, 1007, 1024, 16 << 10, 1 << 20]
            .into_iter()
            .map(round)
            .collect(),
        output_len,
    }
}

/// simdcrypt's AES-CTR keyed once with `cipher`: per message `set_iv`
/// (the key schedule kept, the counter from 0) and `xor_into`.
fn ours_ctr<C>(name: &'static str, cipher: C) -> Contender<'static>
where
    C: BlockCipher<Block = [u8; 16]> + 'static,
{
    let mut ctr = simdcrypt::block::Ctr::from_cipher(cipher, &iv(0));
    Contender::new(name, move |i, input: &[u8], output: &mut [u8]| {
        ctr.set_iv(&iv(i));
        ctr.xor_into(input, output).expect("within the keystream");
    })
}

/// simdcrypt's AES-CBC keyed once with `cipher`: per message `set_iv`
/// and `encrypt_into` or `decrypt_into`.
fn ours_cbc<C>(name: &'static str, cipher: C, encrypt: bool) -> Contender<'static>
where
    C: BlockCipher<Block = [u8; 16]> + 'static,
{
    let mut cbc = simdcrypt::block::Cbc::from_cipher(cipher, &iv(0));
    Contender::new(name, move |i, input: &[u8], output: &mut [u8]| {
        cbc.set_iv(&iv(i));
        if encrypt {
            cbc.encrypt_into(input, output)
        } else {
            cbc.decrypt_into(input, output)
        }
        .expect("whole blocks");
    })
}

/// OpenSSL's cipher `name` keyed once, the IV `iv(i)` of message `i` set
/// per message.
fn openssl_cipher<const N: usize>(
    name: &'static std::ffi::CStr,
    key: &[u8],
    encrypt: bool,
    iv: fn(u64) -> [u8; N],
) -> Contender<'static> {
    let mut evp = openssl::KeyedCipher::new(name, key, encrypt);
    Contender::new("openssl", move |i, input: &[u8], output: &mut [u8]| {
        evp.run(&iv(i), input, output);
    })
}

/// aws-lc-rs's CTR or CBC encryption keyed once: in place only, so the
/// input is copied into the output first.
fn aws_lc_encrypt(key: EncryptingKey) -> Contender<'static> {
    Contender::new("aws-lc-rs", move |i, input: &[u8], output: &mut [u8]| {
        output.copy_from_slice(input);
        key.less_safe_encrypt(output, EncryptionContext::Iv128(iv(i).into()))
            .expect("whole blocks");
    })
}

/// AES-CTR with the simdcrypt cipher `$ours`, RustCrypto's `$theirs`,
/// aws-lc-rs's `$aws` and OpenSSL's `$openssl`, under the first
/// `$len` bytes of [`KEY`].
macro_rules! aes_ctr {
    ($len:literal, $ours:ty, $theirs:ty, $aws:expr, $openssl:literal) => {{
        let key: &[u8; $len] = KEY[..$len].try_into().expect("the key length");
        let reference = <$ours>::new(key)
            .with_rung(simdcrypt::aes::Rung::Reference)
            .expect("the reference rung");
        let theirs = <$theirs>::new(key.into());
        let unbound = || UnboundCipherKey::new($aws, key).expect("the key length");
        bytes_table(
            ours_ctr("reference", reference),
            vec![
                ours_ctr("simdcrypt", <$ours>::new(key)),
                aws_lc_encrypt(EncryptingKey::ctr(unbound()).expect("CTR")),
                openssl_cipher($openssl, key, true, iv),
                Contender::new("rustcrypto", move |i, input: &[u8], output: &mut [u8]| {
                    let core = ctr::CtrCore::inner_iv_init(theirs.clone(), &iv(i).into());
                    ctr::Ctr128BE::<$theirs>::from_core(core)
                        .apply_keystream_b2b(input, output)
                        .expect("equal lengths");
                }),
            ],
            false,
            |len| len,
        )
    }};
}

/// AES-128-CBC encryption, or decryption.
fn aes_cbc(encrypt: bool) -> Table {
    let key: &[u8; 16] = KEY[..16].try_into().expect("16 bytes");
    let reference = Aes128::new(key)
        .with_rung(simdcrypt::aes::Rung::Reference)
        .expect("the reference rung");
    let unbound = || UnboundCipherKey::new(&AES_128, key).expect("16 bytes");
    let (aws, theirs) = if encrypt {
        let cipher = aes::Aes128Enc::new(key.into());
        let theirs = move |i, input: &[u8], output: &mut [u8]| {
            cbc::Encryptor::<aes::Aes128Enc>::inner_iv_init(cipher.clone(), &iv(i).into())
                .encrypt_padded_b2b_mut::<NoPadding>(input, output)
                .expect("whole blocks");
        };
        (
            aws_lc_encrypt(EncryptingKey::cbc(unbound()).expect("CBC")),
            Contender::new("rustcrypto", theirs),
        )
    } else {
        let cipher = aes::Aes128Dec::new(key.into());
        let theirs = move |i, input: &[u8], output: &mut [u8]| {
            cbc::Decryptor::<aes::Aes128Dec>::inner_iv_init(cipher.clone(), &iv(i).into())
                .decrypt_padded_b2b_mut::<NoPadding>(input, output)
                .expect("whole blocks");
        };
        let key = DecryptingKey::cbc(unbound()).expect("CBC");
        let aws = move |i, input: &[u8], output: &mut [u8]| {
            output.copy_from_slice(input);
            key.decrypt(output, DecryptionContext::Iv128(iv(i).into()))
                .expect("whole blocks");
        };
        (
            Contender::new("aws-lc-rs", aws),
            Contender::new("rustcrypto", theirs),
        )
    };
    bytes_table(
        ours_cbc("reference", reference, encrypt),
        vec![
            ours_cbc("simdcrypt", Aes128::new(key), encrypt),
            aws,
            openssl_cipher(c"AES-128-CBC", key, encrypt, iv),
            theirs,
        ],
        true,
        |len| len,
    )
}

/// A stream cipher of simdcrypt (`$ours`, its rung type `$rung`) made
/// from key and nonce per message, beside libsodium's and RustCrypto's
/// `$peer_fn` (`xor_into` forms) and `$more` contenders.
macro_rules! stream {
    ($ours:ty, $rung:ty, $n:literal, $peer_fn:ident, [$($more:expr),*]) => {{
        bytes_table(
            Contender::new("reference", |i, input: &[u8], output: &mut [u8]| {
                <$ours>::new(&KEY, &nonce::<$n>(i))
                    .with_rung(<$rung>::Reference)
                    .expect("the reference rung")
                    .xor_into(input, output)
                    .expect("within the keystream");
            }),
            vec![
                // Called as the peers are, with nothing but the call in
                // the closure (a choice of rung in it, made per message,
                // had moved the cipher through memory: about 4 ns of
                // Salsa20's 85 at 64 B).
                Contender::new("simdcrypt", |i, input: &[u8], output: &mut [u8]| {
                    <$ours>::new(&KEY, &nonce::<$n>(i))
                        .xor_into(input, output)
                        .expect("within the keystream");
                }),
                Contender::new("libsodium", |i, input: &[u8], output: &mut [u8]| {
                    libsodium::$peer_fn(&KEY, &nonce::<$n>(i), input, output)
                }),
                Contender::new("rustcrypto", |i, input: &[u8], output: &mut [u8]| {
                    peers::rustcrypto::$peer_fn(&KEY, &nonce::<$n>(i), input, output)
                }),
                $($more),*
            ],
            false,
            |len| len,
        )
    }};
}

/// A hash of simdcrypt (`$ours`, its rung type `$rung`, digests of `$out`
/// bytes) beside aws-lc-rs's and ring's `$alg`, OpenSSL's and libsodium's
/// `$into` and RustCrypto's `$theirs`.
macro_rules! hash {
    ($ours:ty, $rung:ty, $out:literal, $alg:ident, $into:ident, $theirs:ty) => {{
        let reference = <$ours>::new()
            .with_rung(<$rung>::Reference)
            .expect("the reference rung");
        bytes_table(
            Contender::new("reference", move |_, input: &[u8], output: &mut [u8]| {
                let mut h = reference.clone();
                h.update(input);
                output.copy_from_slice(&h.finalize());
            }),
            vec![
                Contender::new("simdcrypt", |_, input: &[u8], output: &mut [u8]| {
                    output.copy_from_slice(&<$ours>::digest(input));
                }),
                Contender::new("aws-lc-rs", |_, input: &[u8], output: &mut [u8]| {
                    let d = aws_lc_rs::digest::digest(&aws_lc_rs::digest::$alg, input);
                    output.copy_from_slice(d.as_ref());
                }),
                Contender::new("openssl", |_, input: &[u8], output: &mut [u8]| {
                    openssl::$into(input, output)
                }),
                Contender::new("ring", |_, input: &[u8], output: &mut [u8]| {
                    output
                        .copy_from_slice(ring::digest::digest(&ring::digest::$alg, input).as_ref());
                }),
                Contender::new("libsodium", |_, input: &[u8], output: &mut [u8]| {
                    libsodium::$into(input, output)
                }),
                Contender::new("rustcrypto", |_, input: &[u8], output: &mut [u8]| {
                    output.copy_from_slice(&<$theirs as sha2::Digest>::digest(input));
                }),
            ],
            false,
            |_| $out,
        )
    }};
}

/// HMAC over simdcrypt's `$ours` (its rung type `$rung`, tags of `$out`
/// bytes) under [`KEY`], every contender keyed once: aws-lc-rs's and
/// ring's `$alg`, OpenSSL's digest `$md`, libsodium's `$sodium`,
/// RustCrypto's `hmac` over `$theirs`.
macro_rules! hmac {
    ($ours:ty, $rung:ty, $out:literal, $alg:ident, $md:literal, $sodium:ident, $theirs:ty) => {{
        fn ours(mut mac: Hmac<$ours>) -> impl FnMut(u64, &[u8], &mut [u8]) {
            move |_, input, output| {
                mac.update(input);
                output.copy_from_slice(&mac.finalize_reset());
            }
        }
        let reference = <$ours>::new()
            .with_rung(<$rung>::Reference)
            .expect("the reference rung");
        let aws = aws_lc_rs::hmac::Key::new(aws_lc_rs::hmac::$alg, &KEY);
        let ring = ring::hmac::Key::new(ring::hmac::$alg, &KEY);
        let mut evp = openssl::KeyedHmac::new($md, &KEY);
        let sodium = libsodium::$sodium(&KEY);
        let theirs = <hmac::Hmac<$theirs> as hmac::Mac>::new_from_slice(&KEY).expect("any key");
        bytes_table(
            Contender::new("reference", ours(Hmac::with_hash(reference, &KEY))),
            vec![
                Contender::new("simdcrypt", ours(Hmac::new(&KEY))),
                Contender::new("aws-lc-rs", move |_, input: &[u8], output: &mut [u8]| {
                    output.copy_from_slice(aws_lc_rs::hmac::sign(&aws, input).as_ref());
                }),
                Contender::new("openssl", move |_, input: &[u8], output: &mut [u8]| {
                    evp.mac(input, output)
                }),
                Contender::new("ring", move |_, input: &[u8], output: &mut [u8]| {
                    output.copy_from_slice(ring::hmac::sign(&ring, input).as_ref());
                }),
                Contender::new("libsodium", move |_, input: &[u8], output: &mut [u8]| {
                    sodium.mac(input, output)
                }),
                Contender::new("rustcrypto", move |_, input: &[u8], output: &mut [u8]| {
                    let mut mac = theirs.clone();
                    hmac::Mac::update(&mut mac, input);
                    output.copy_from_slice(&hmac::Mac::finalize(mac).into_bytes());
                }),
            ],
            false,
            |_| $out,
        )
    }};
}

/// scrypt at N = 2^`log_n`, r = 8, p = 1: the input is the password, the
/// output 64 bytes; simdcrypt on a kept `Scrypt`, the peers' one-shot
/// calls.
fn scrypt(log_n: u8) -> Table {
    use simdcrypt::kdf::scrypt::Rung;
    fn ours(mut s: Scrypt) -> impl FnMut(u64, &[u8], &mut [u8]) {
        move |_, password, out| s.derive(password, SALT, out).expect("valid parameters")
    }
    let kept = Scrypt::new(log_n, 8, 1).expect("valid parameters");
    let peer = |name, f: Kdf| {
        Contender::new(name, move |_, password: &[u8], out: &mut [u8]| {
            f(password, SALT, log_n, 8, 1, out)
        })
    };
    let password = b"pleaseletmein";
    let scalar = Scrypt::new(log_n, 8, 1)
        .and_then(|s| s.with_rung(Rung::Scalar))
        .expect("valid parameters");
    Table {
        reference: Contender::new("reference", ours(scalar)),
        list: vec![
            Contender::new("simdcrypt", ours(kept)),
            peer("openssl", peers::openssl::scrypt),
            peer("libsodium", peers::libsodium::scrypt),
            peer("rustcrypto", peers::rustcrypto::scrypt),
        ],
        rows: vec![Row {
            label: format!("N = 2^{log_n}, r = 8, p = 1"),
            len: password.len(),
            inputs: vec![password.to_vec()],
            output_len: 64,
            calls: 1,
            bursts: if log_n > 14 { 3 } else { 10 },
        }],
        check_lengths: vec![password.len()],
        output_len: |_| 64,
    }
}

fn main() {
    let args = Args::new("MESSAGES_ROUNDS", 3);
    println!(
        "{}; {} rounds of the fastest of {BURSTS} bursts of about 512 KiB \
         (scrypt: of 10 derivations at N = 2^14, 3 at 2^17); time per message",
        cpu_name(),
        args.rounds,
    );
    let tables: [Named; 14] = [
        ("aes-128-ctr", || {
            aes_ctr!(16, Aes128, aes::Aes128Enc, &AES_128, c"AES-128-CTR")
        }),
        ("aes-256-ctr", || {
            aes_ctr!(32, Aes256, aes::Aes256Enc, &AES_256, c"AES-256-CTR")
        }),
        ("aes-128-cbc-encrypt", || aes_cbc(true)),
        ("aes-128-cbc-decrypt", || aes_cbc(false)),
        ("salsa20", || {
            stream!(Salsa20, simdcrypt::salsa20::Rung, 8, salsa20_xor_into, [])
        }),
        ("xsalsa20", || {
            stream!(
                XSalsa20,
                simdcrypt::salsa20::Rung,
                24,
                xsalsa20_xor_into,
                []
            )
        }),
        ("chacha20", || {
            stream!(
                ChaCha20,
                simdcrypt::chacha20::Rung,
                12,
                chacha20_xor_into,
                [openssl_cipher(c"ChaCha20", &KEY, true, chacha20_iv)]
            )
        }),
        ("xchacha20", || {
            stream!(
                XChaCha20,
                simdcrypt::chacha20::Rung,
                24,
                xchacha20_xor_into,
                []
            )
        }),
        ("sha256", || {
            hash!(
                Sha256,
                simdcrypt::hash::sha256::Rung,
                32,
                SHA256,
                sha256_into,
                sha2::Sha256
            )
        }),
        ("sha512", || {
            hash!(
                Sha512,
                simdcrypt::hash::sha512::Rung,
                64,
                SHA512,
                sha512_into,
                sha2::Sha512
            )
        }),
        ("hmac-sha256", || {
            hmac!(
                Sha256,
                simdcrypt::hash::sha256::Rung,
                32,
                HMAC_SHA256,
                c"SHA256",
                hmac_sha256,
                sha2::Sha256
            )
        }),
        ("hmac-sha512", || {
            hmac!(
                Sha512,
                simdcrypt::hash::sha512::Rung,
                64,
                HMAC_SHA512,
                c"SHA512",
                hmac_sha512,
                sha2::Sha512
            )
        }),
        ("scrypt-n2e14", || scrypt(14)),
        ("scrypt-n2e17", || scrypt(17)),
    ];
    for (name, make) in &tables {
        if !args.wanted(name) {
            continue;
        }
        let mut t = make();
        check(
            name,
            &mut t.reference,
            &mut t.list,
            &t.check_lengths,
            t.output_len,
        );
        table(name, &mut t.list, &t.rows, Unit::PerMessage, args.rounds);
    }
}
