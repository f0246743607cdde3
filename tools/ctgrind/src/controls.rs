//! The positive controls: code that leaks a secret on purpose, one for
//! each kind of secret and of leak, which memcheck must flag — at the
//! place, and as the kind of error, each names. If memcheck stopped
//! seeing what the check relies on (the poison not reaching the code, a
//! build that moves the leak elsewhere, a valgrind that no longer reports
//! it), a control would pass silently and the driver fails.
//!
//! Two are library rungs that are variable-time by design (chosen only
//! with `hazmat`); three are test-only code here, written as the mistakes
//! they stand for.

use std::hint::black_box;

use simdcrypt::aes::{Aes128, Rung};
use simdcrypt::block::BlockCipher as _;
use simdcrypt::ct;
use simdcrypt::hash::Sha256;
use simdcrypt::hmac::Hmac;
use simdcrypt::kit::Rng;

use crate::coverage::SEED;

/// The kind of memcheck error a control must cause.
#[derive(Clone, Copy, Debug)]
pub enum Flag {
    /// A conditional jump on a secret: "Conditional jump or move depends
    /// on uninitialised value(s)".
    Branch,
    /// A memory address computed from a secret: "Use of uninitialised
    /// value of size N".
    Address,
}

impl Flag {
    /// The start of memcheck's message for this kind.
    pub fn message(self) -> &'static str {
        match self {
            Flag::Branch => "Conditional jump or move depends on uninitialised value",
            Flag::Address => "Use of uninitialised value of size",
        }
    }
}

/// A positive control.
pub struct Control {
    /// Its name on the command line.
    pub name: &'static str,
    /// The secret and the leak.
    pub what: &'static str,
    /// The error memcheck must report.
    pub flag: Flag,
    /// A function that must be on the error's stack (a prefix of its
    /// demangled path).
    pub frame: &'static str,
    /// Runs it.
    pub run: fn(),
}

/// Every positive control.
pub const ALL: &[Control] = &[
    Control {
        name: "aes-tables",
        what: "a key-dependent table lookup: AES's `tables` rung (T-tables indexed by key and state)",
        flag: Flag::Address,
        frame: "simdcrypt::aes::tables::",
        run: aes_tables,
    },
    // Not a branch: `xtime`'s `if` on the state's top bit compiles to a
    // select (`cmov`), which memcheck follows as a data flow rather than
    // reporting (valgrind manual, §4.2.2: only jumps and moves *into the
    // program counter's choice* are errors), so the leak memcheck sees in
    // `reference` is the S-box lookup's address.
    Control {
        name: "aes-reference",
        what: "a state-indexed S-box: AES's `reference` rung (FIPS 197 §5.1.1, SubBytes as `SBOX[b]`)",
        flag: Flag::Address,
        frame: "simdcrypt::aes::reference::",
        run: aes_reference,
    },
    Control {
        name: "tag-eq",
        what: "an HMAC tag under a secret key compared with `==` (test-only code)",
        flag: Flag::Branch,
        // A prefix: `tag_eq` itself, or `tag_eq_control`, where the
        // compiler may fold the comparison into the branch on its result.
        frame: "ctgrind::controls::tag_eq",
        run: tag_eq_control,
    },
    Control {
        name: "unpad-branching",
        what: "PKCS#7 padding under a secret key removed with branches (test-only code)",
        flag: Flag::Branch,
        frame: "ctgrind::controls::branching_unpad",
        run: unpad_control,
    },
    Control {
        name: "hashed-byte",
        what: "a branch on a byte of the SHA-256 of a secret password (test-only code)",
        flag: Flag::Branch,
        frame: "ctgrind::controls::branch_on_hashed_byte",
        run: hashed_byte_control,
    },
];

/// The control named `name`.
pub fn find(name: &str) -> Option<&'static Control> {
    ALL.iter().find(|c| c.name == name)
}

/// A secret array of `N` random bytes.
fn secret<const N: usize>(rng: &mut Rng) -> [u8; N] {
    let mut bytes = rng.array();
    ct::poison(&mut bytes);
    bytes
}

/// AES-128 on `rung` under a secret key, of a secret block.
fn aes_on(rung: Rung) {
    let mut rng = Rng::new(SEED);
    let key = secret::<16>(&mut rng);
    let mut block = secret::<16>(&mut rng);
    let aes = Aes128::new(&key)
        .with_rung(rung)
        .expect("the rung (hazmat is on)");
    aes.encrypt_block(&mut block);
    ct::declassify_bytes(&mut block);
    black_box(block);
}

fn aes_tables() {
    aes_on(Rung::Tables);
}

fn aes_reference() {
    aes_on(Rung::Reference);
}

/// The mistake: a tag compared with `==`, which stops at the first byte
/// that differs.
#[inline(never)]
fn tag_eq(computed: &[u8; 32], received: &[u8; 32]) -> bool {
    computed == received
}

fn tag_eq_control() {
    let mut rng = Rng::new(SEED);
    let key = secret::<32>(&mut rng);
    let received: [u8; 32] = rng.array();
    let mut mac = Hmac::<Sha256>::new(&key);
    mac.update(b"a message");
    let computed = mac.finalize();
    if tag_eq(black_box(&computed), &received) {
        println!("accepted");
    }
}

/// The mistake: PKCS#7 padding removed with a branch for each check, the
/// padding's length read before it is known to be valid.
#[inline(never)]
fn branching_unpad(block: &[u8; 16]) -> Option<usize> {
    let n = block[15];
    if n == 0 || n > 16 {
        return None;
    }
    for &b in &block[16 - usize::from(n)..] {
        if b != n {
            return None;
        }
    }
    Some(16 - usize::from(n))
}

fn unpad_control() {
    let mut rng = Rng::new(SEED);
    let key: [u8; 16] = rng.array();
    // The last block of a padded message, encrypted on defined inputs,
    // then decrypted under the secret key: its plaintext is secret.
    let mut block = [5u8; 16];
    block[..11].copy_from_slice(b"hello world");
    Aes128::new(&key).encrypt_block(&mut block);
    let mut secret_key = key;
    ct::poison(&mut secret_key);
    Aes128::new(&secret_key).decrypt_block(&mut block);
    let len = branching_unpad(black_box(&block));
    println!(
        "{}",
        if ct::declassify(len.is_some()) {
            "unpadded"
        } else {
            "bad padding"
        }
    );
}

/// The mistake: a branch on a byte of a hash of a secret.
#[inline(never)]
fn branch_on_hashed_byte(digest: &[u8; 32]) -> usize {
    if digest[0] & 1 == 1 { odd(digest) } else { 0 }
}

/// The work one side of the branch does.
#[inline(never)]
fn odd(digest: &[u8; 32]) -> usize {
    black_box(digest.len())
}

fn hashed_byte_control() {
    let mut rng = Rng::new(SEED);
    let password = secret::<20>(&mut rng);
    let mut hash = Sha256::new();
    hash.update(&password);
    let digest = hash.finalize();
    black_box(branch_on_hashed_byte(black_box(&digest)));
}
