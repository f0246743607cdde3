//! Issue 31's tables: Camellia (RFC 3713) with 128- and 256-bit keys one
//! message at a time, at 64 B, 1 KiB, 16 KiB and 1 MiB, in CTR, ECB
//! encryption and decryption, CBC encryption and decryption and CFB
//! decryption: every simdcrypt rung this CPU runs (`simdcrypt-<rung>`)
//! and simdcrypt's default (`simdcrypt`), beside libgcrypt, OpenSSL's EVP
//! ciphers
//! (`CAMELLIA-{128,256}-{CTR,ECB,CBC,CFB}`) and RustCrypto's `camellia`
//! 0.1 with `ctr` 0.9 (`Ctr128BE`), `ecb` 0.1, `cbc` 0.1 and `cfb-mode`
//! 0.8.
//!
//! The conventions are `benches/messages.rs`'s (the harness is
//! `src/table.rs`): every contender keyed once, outside the timed loop;
//! per message only its IV (the initial counter block in CTR, nothing in
//! ECB), made from the message's number; out of place; calls chained,
//! inputs and outputs through `black_box`. simdcrypt's modes are made
//! once from the keyed cipher, then `set_iv` per message (the key schedule
//! kept) and `xor_into`, `encrypt_into` or `decrypt_into`. RustCrypto's
//! modes take their
//! cipher by value, so each message starts from a copy of the keyed one
//! (as `messages`' AES rows do). Before anything is timed, two messages in
//! a row of every contender are checked against simdcrypt's reference
//! rung at 0, 64, 1007 (ECB and CBC: 992), 1024 bytes, 16 KiB and 1 MiB.
//!
//! Each row: GB/s, the median of the rounds (min–max), and simdcrypt ÷
//! the best peer of each round (above 1 simdcrypt is ahead; the
//! `simdcrypt-<rung>` columns are not peers), median (min–max), naming
//! the peer of the lowest median.
//!
//! ```sh
//! taskset -c 1 cargo bench -p simdcrypt-bench --bench camellia [-- camellia-128-ctr ecb …]
//! ```
//!
//! Arguments are substrings of the table names (`camellia-128-ctr`,
//! `camellia-256-cbc-decrypt` …); `CAMELLIA_ROUNDS` sets the rounds (3).

use camellia::cipher::block_padding::NoPadding;
use camellia::cipher::consts::U16;
use camellia::cipher::crypto_common::InnerInit;
use camellia::cipher::{
    AsyncStreamCipher, BlockCipher, BlockDecrypt, BlockDecryptMut, BlockEncrypt, BlockEncryptMut,
    BlockSizeUser, InnerIvInit, KeyInit, StreamCipher,
};
use simdcrypt::block::{Cbc, Cfb, Ctr, Ecb};
use simdcrypt::camellia::{Camellia128, Camellia256, Rung};
use simdcrypt_bench::peers::{libgcrypt, openssl};
use simdcrypt_bench::table::{
    Args, BURST_BYTES, BURSTS, Contender, Row, Unit, check, cpu_name, table,
};

const KEY: [u8; 32] = [
    0x60, 0x3d, 0xeb, 0x10, 0x15, 0xca, 0x71, 0xbe, 0x2b, 0x73, 0xae, 0xf0, 0x85, 0x7d, 0x77, 0x81,
    0x1f, 0x35, 0x2c, 0x07, 0x3b, 0x61, 0x08, 0xd7, 0x2d, 0x98, 0x10, 0xa3, 0x09, 0x14, 0xdf, 0xf4,
];

/// The message sizes of the tables.
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

/// What a table does to each message: a mode and a direction.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Op {
    Ctr,
    EcbEncrypt,
    EcbDecrypt,
    CbcEncrypt,
    CbcDecrypt,
    CfbDecrypt,
}

impl Op {
    const ALL: [Op; 6] = [
        Op::Ctr,
        Op::EcbEncrypt,
        Op::EcbDecrypt,
        Op::CbcEncrypt,
        Op::CbcDecrypt,
        Op::CfbDecrypt,
    ];

    /// Its part of the table name.
    fn name(self) -> &'static str {
        match self {
            Op::Ctr => "ctr",
            Op::EcbEncrypt => "ecb-encrypt",
            Op::EcbDecrypt => "ecb-decrypt",
            Op::CbcEncrypt => "cbc-encrypt",
            Op::CbcDecrypt => "cbc-decrypt",
            Op::CfbDecrypt => "cfb-decrypt",
        }
    }

    /// The mode: OpenSSL's name for it and libgcrypt's.
    fn mode(self) -> (&'static str, libgcrypt::Mode) {
        match self {
            Op::Ctr => ("CTR", libgcrypt::Mode::Ctr),
            Op::EcbEncrypt | Op::EcbDecrypt => ("ECB", libgcrypt::Mode::Ecb),
            Op::CbcEncrypt | Op::CbcDecrypt => ("CBC", libgcrypt::Mode::Cbc),
            Op::CfbDecrypt => ("CFB", libgcrypt::Mode::Cfb),
        }
    }

    /// Whether the cipher runs forwards (CTR's keystream too).
    fn encrypt(self) -> bool {
        matches!(self, Op::Ctr | Op::EcbEncrypt | Op::CbcEncrypt)
    }

    /// Whether the mode takes whole blocks only.
    fn whole_blocks(self) -> bool {
        self.mode().1 == libgcrypt::Mode::Ecb || self.mode().1 == libgcrypt::Mode::Cbc
    }

    /// The IV of message `i`: none in ECB.
    fn iv(self, i: u64) -> Vec<u8> {
        match self.mode().1 {
            libgcrypt::Mode::Ecb => Vec::new(),
            _ => iv(i).to_vec(),
        }
    }
}

/// simdcrypt's `cipher` (keyed, on its rung), named `name`: the mode made
/// once from it, per message `set_iv` (the key schedule kept, CTR's
/// counter from 0; nothing in ECB), then `xor_into`, `encrypt_into` or
/// `decrypt_into`.
fn simdcrypt<C>(name: &'static str, cipher: C, op: Op) -> Contender<'static>
where
    C: simdcrypt::block::BlockCipher<Block = [u8; 16]> + 'static,
{
    match op {
        Op::Ctr => {
            let mut ctr = Ctr::from_cipher(cipher, &iv(0));
            Contender::new(name, move |i, input: &[u8], output: &mut [u8]| {
                ctr.set_iv(&iv(i));
                ctr.xor_into(input, output).expect("within the keystream");
            })
        }
        Op::EcbEncrypt | Op::EcbDecrypt => {
            let ecb = Ecb::from_cipher(cipher);
            Contender::new(name, move |_, input: &[u8], output: &mut [u8]| {
                if op.encrypt() {
                    ecb.encrypt_into(input, output)
                } else {
                    ecb.decrypt_into(input, output)
                }
                .expect("whole blocks");
            })
        }
        Op::CbcEncrypt | Op::CbcDecrypt => {
            let mut cbc = Cbc::from_cipher(cipher, &iv(0));
            Contender::new(name, move |i, input: &[u8], output: &mut [u8]| {
                cbc.set_iv(&iv(i));
                if op.encrypt() {
                    cbc.encrypt_into(input, output)
                } else {
                    cbc.decrypt_into(input, output)
                }
                .expect("whole blocks");
            })
        }
        Op::CfbDecrypt => {
            let mut cfb = Cfb::from_cipher(cipher, &iv(0));
            Contender::new(name, move |i, input: &[u8], output: &mut [u8]| {
                cfb.set_iv(&iv(i));
                cfb.decrypt_into(input, output).expect("equal lengths");
            })
        }
    }
}

/// simdcrypt's cipher `C` under `key` (`N` bytes): the reference rung
/// (what every contender is checked against), then every rung this CPU
/// runs as `simdcrypt-<rung>` and the default as `simdcrypt`.
fn ladder<C, const N: usize>(key: &[u8], op: Op) -> (Contender<'static>, Vec<Contender<'static>>)
where
    C: simdcrypt::block::BlockCipher<Block = [u8; 16], Key = [u8; N], Rung = Rung> + 'static,
{
    let key: &[u8; N] = key.try_into().expect("the key length");
    let on = |rung| C::new(key).with_rung(rung).expect("an available rung");
    let reference = simdcrypt("reference", on(Rung::Reference), op);
    let mut list: Vec<_> = Rung::available()
        .map(|rung| {
            // A name per rung and table, leaked: the harness's names are
            // static.
            let name = format!("simdcrypt-{}", rung.name()).leak();
            simdcrypt(name, on(rung), op)
        })
        .collect();
    list.push(simdcrypt("simdcrypt", C::new(key), op));
    (reference, list)
}

/// OpenSSL's `CAMELLIA-{bits}-{mode}` under `key`, keyed once.
fn openssl(key: &'static [u8], op: Op) -> Contender<'static> {
    let name = format!("CAMELLIA-{}-{}", key.len() * 8, op.mode().0);
    let name = std::ffi::CString::new(name).expect("no NUL");
    let mut evp = openssl::KeyedCipher::new(&name, key, op.encrypt());
    Contender::new("openssl", move |i, input: &[u8], output: &mut [u8]| {
        evp.run(&op.iv(i), input, output);
    })
}

/// libgcrypt's Camellia under `key`, keyed once.
fn libgcrypt(key: &'static [u8], op: Op) -> Contender<'static> {
    let algo = match key.len() {
        16 => libgcrypt::Algo::Camellia128,
        _ => libgcrypt::Algo::Camellia256,
    };
    let mut gcry = libgcrypt::KeyedCipher::new(algo, op.mode().1, key);
    Contender::new("libgcrypt", move |i, input: &[u8], output: &mut [u8]| {
        gcry.run(&op.iv(i), op.encrypt(), input, output);
    })
}

/// RustCrypto's cipher `C` (`camellia::Camellia128`, `Camellia256`) under
/// `key`, keyed once, each message's mode made on a copy of it.
fn rustcrypto<C>(key: &'static [u8], op: Op) -> Contender<'static>
where
    C: BlockCipher + BlockSizeUser<BlockSize = U16> + BlockEncrypt + BlockDecrypt,
    C: KeyInit + Clone + 'static,
{
    let c = C::new_from_slice(key).expect("the key length");
    let name = "rustcrypto";
    match op {
        Op::Ctr => Contender::new(name, move |i, input: &[u8], output: &mut [u8]| {
            let core = ctr::CtrCore::inner_iv_init(c.clone(), &iv(i).into());
            ctr::Ctr128BE::<C>::from_core(core)
                .apply_keystream_b2b(input, output)
                .expect("equal lengths");
        }),
        Op::EcbEncrypt => Contender::new(name, move |_, input: &[u8], output: &mut [u8]| {
            ecb::Encryptor::<C>::inner_init(c.clone())
                .encrypt_padded_b2b_mut::<NoPadding>(input, output)
                .expect("whole blocks");
        }),
        Op::EcbDecrypt => Contender::new(name, move |_, input: &[u8], output: &mut [u8]| {
            ecb::Decryptor::<C>::inner_init(c.clone())
                .decrypt_padded_b2b_mut::<NoPadding>(input, output)
                .expect("whole blocks");
        }),
        Op::CbcEncrypt => Contender::new(name, move |i, input: &[u8], output: &mut [u8]| {
            cbc::Encryptor::<C>::inner_iv_init(c.clone(), &iv(i).into())
                .encrypt_padded_b2b_mut::<NoPadding>(input, output)
                .expect("whole blocks");
        }),
        Op::CbcDecrypt => Contender::new(name, move |i, input: &[u8], output: &mut [u8]| {
            cbc::Decryptor::<C>::inner_iv_init(c.clone(), &iv(i).into())
                .decrypt_padded_b2b_mut::<NoPadding>(input, output)
                .expect("whole blocks");
        }),
        Op::CfbDecrypt => Contender::new(name, move |i, input: &[u8], output: &mut [u8]| {
            cfb_mode::Decryptor::<C>::inner_iv_init(c.clone(), &iv(i).into())
                .decrypt_b2b(input, output)
                .expect("equal lengths");
        }),
    }
}

fn main() {
    let args = Args::new("CAMELLIA_ROUNDS", 3);
    println!(
        "{}; libgcrypt {}; {} rounds of the fastest of {BURSTS} bursts of about {} KiB; GB/s",
        cpu_name(),
        libgcrypt::version(),
        args.rounds,
        BURST_BYTES >> 10
    );
    for bits in [128, 256] {
        let key = &KEY[..bits / 8];
        for op in Op::ALL {
            let title = format!("camellia-{bits}-{}", op.name());
            if !args.wanted(&title) {
                continue;
            }
            let (mut reference, mut list) = match bits {
                128 => ladder::<Camellia128, 16>(key, op),
                _ => ladder::<Camellia256, 32>(key, op),
            };
            list.extend([
                libgcrypt(key, op),
                openssl(key, op),
                match bits {
                    128 => rustcrypto::<camellia::Camellia128>(key, op),
                    _ => rustcrypto::<camellia::Camellia256>(key, op),
                },
            ]);
            let round = |len: usize| {
                if op.whole_blocks() {
                    len / 16 * 16
                } else {
                    len
                }
            };
            let lengths: Vec<usize> = [0, 64, 1007, 1024, 16 << 10, 1 << 20]
                .into_iter()
                .map(round)
                .collect();
            check(&title, &mut reference, &mut list, &lengths, |len| len);
            let rows: Vec<Row> = SIZES
                .iter()
                .map(|&(label, len)| Row::bytes(label, len, len))
                .collect();
            table(&title, &mut list, &rows, Unit::GbPerSecond, args.rounds);
        }
    }
}
