//! The age header parser and the armor reader on any bytes: no panic; a
//! header that parses writes back and parses to the same stanzas, and a
//! binary one writes back to the very bytes it was read from; every
//! identity type unwraps or refuses without panicking, and the payload
//! after it is read to its end or refused.
//!
//! A counting global allocator bounds the memory the parse holds, armor
//! reader included: linear in what the input holds (bytes, stanzas,
//! arguments), and never past what `MAX_HEADER` allows, however long the
//! input.

#![no_main]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::io::{BufReader, Read, sink};
use std::num::NonZeroUsize;
use std::sync::LazyLock;

use libfuzzer_sys::fuzz_target;
use simdcrypt_age::armor::ArmoredReader;
use simdcrypt_age::format::{MAX_ARGS, MAX_HEADER, MAX_STANZAS};
use simdcrypt_age::{Decryptor, FileKey, Header, Identity, Threads, pq, scrypt, x25519};

static X25519: LazyLock<x25519::Identity> = LazyLock::new(|| {
    "AGE-SECRET-KEY-1EGTZVFFV20835NWYV6270LXYVK2VKNX2MMDKWYKLMGR48UAWX40Q2P2LM0"
        .parse()
        .unwrap()
});
static HYBRID: LazyLock<pq::Identity> = LazyLock::new(|| {
    "AGE-SECRET-KEY-PQ-1XX76JRALNLXDMEW0CRK45QMCCH4X06SE84UN3VPM33W6HWDX0H3SK3ZQFR"
        .parse()
        .unwrap()
});
/// A passphrase that pays for at most 2^4: the fuzzer stays fast.
static PASSPHRASE: LazyLock<scrypt::Identity> =
    LazyLock::new(|| scrypt::Identity::new(b"password", 4));

/// The global allocator: `System`, counting the bytes this thread holds and
/// the most it has held.
struct Counting;

thread_local! {
    static LIVE: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

/// Adds `delta` to the bytes this thread holds. The thread-locals are
/// const-initialized and have no destructor: touching them never
/// allocates, and `try_with` fails only while the thread is torn down.
fn track(delta: isize) {
    let _ = LIVE.try_with(|live| {
        let now = live.get() + delta;
        live.set(now);
        let _ = PEAK.try_with(|peak| peak.set(peak.get().max(now)));
    });
}

/// A size as a signed count; no allocation exceeds `isize::MAX`.
fn signed(size: usize) -> isize {
    isize::try_from(size).unwrap_or(isize::MAX)
}

// SAFETY: every method hands its call, arguments unchanged, to `System`,
// which upholds `GlobalAlloc`'s contract; the counting around it neither
// allocates nor unwinds.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller keeps `alloc`'s contract (a non-zero size).
        let ptr = unsafe { System.alloc(layout) };
        if !ptr.is_null() {
            track(signed(layout.size()));
        }
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as for `alloc`.
        let ptr = unsafe { System.alloc_zeroed(layout) };
        if !ptr.is_null() {
            track(signed(layout.size()));
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller passes a block this allocator, that is
        // `System`, gave with `layout`.
        unsafe { System.dealloc(ptr, layout) };
        track(-signed(layout.size()));
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // Counted at the moment the old and the new block may both be live.
        track(signed(new_size));
        // SAFETY: the caller passes a block `System` gave with `layout` and
        // a valid non-zero `new_size`.
        let new = unsafe { System.realloc(ptr, layout, new_size) };
        track(-signed(if new.is_null() {
            new_size
        } else {
            layout.size()
        }));
        new
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Runs `f` and returns what it gives with the most bytes this thread held
/// at once meanwhile, beyond what it held before.
fn peak_of<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let base = LIVE.with(Cell::get);
    PEAK.with(|peak| peak.set(base));
    let out = f();
    let peak = PEAK.with(Cell::get) - base;
    (out, usize::try_from(peak).unwrap_or(0))
}

/// The most the parse of `data` may hold at once, a `realloc` counted with
/// its old and new blocks both live, from what `data` and `text` (the bytes
/// the armor reader gives for `data`) hold:
///
/// - the `BufReader`'s 8 KiB; the armor reader's batch (at most 3/4 of the
///   input and 48 KiB, in a buffer that grows by doubling: three times that
///   while it moves), its line, the whitespace it replays; the error, whose
///   message may quote a line of up to 81 bytes escaped, held twice;
/// - a line of at most 64 KiB, in a buffer that grows by doubling: three
///   times the longest;
/// - `Stanza`s of 72 bytes, in a vector that grows by doubling from 4, so
///   three times as many while it moves (`-> ` starts each stanza);
/// - for every argument after a tag (a space before each) a 24-byte
///   `String`;
/// - the tags' and arguments' text, and the bodies, 3 bytes for 4
///   characters; the body being read in a buffer that starts at 48 bytes
///   and grows by doubling, three times its bytes while it moves: at most
///   9/4 of the text.
///
/// This is linear in the input; `MAX_HEADER`, `MAX_STANZAS` and `MAX_ARGS`
/// bound it whatever the input's length: the decoded header is no longer
/// than the cap, and a body's buffer stays under 3/4 of it, moved or
/// shrunk beside the stanzas before it (3/2 of the cap).
fn bound(data: &[u8], text: &[u8]) -> usize {
    let readers = (8 << 10) + 3 * data.len().min(64 << 10) + (4 << 10);
    let line = text
        .split(|&b| b == b'\n')
        .map(|l| l.len() + 1)
        .max()
        .unwrap_or(0)
        .min(64 << 10);
    let stanzas = text
        .windows(3)
        .filter(|w| w == b"-> ")
        .count()
        .min(MAX_STANZAS);
    let args = text.iter().filter(|&&b| b == b' ').count().min(MAX_ARGS);
    let decoded = (text.len() / 4 * 9 + 96).min(MAX_HEADER / 2 * 3);
    readers + 3 * line + 3 * 72 * (stanzas + 4) + 24 * args + decoded
}

fuzz_target!(|data: &[u8]| {
    // What the parser will see, found before measuring it.
    let mut text = Vec::new();
    let _ = ArmoredReader::new(data).read_to_end(&mut text);

    let (parsed, peak) = peak_of(|| Decryptor::new(ArmoredReader::new(BufReader::new(data))));
    let bound = bound(data, &text);
    assert!(
        peak <= bound,
        "the parse of {} bytes held {peak} bytes, above {bound}",
        data.len()
    );

    // A binary header is its stanzas' canonical serialization, byte for
    // byte: what the MAC is computed over.
    let mut rest = data;
    if let Ok(header) = Header::read(&mut rest) {
        let mut written = Vec::new();
        header.write(&mut written).unwrap();
        assert_eq!(
            written,
            data[..data.len() - rest.len()],
            "a binary header writes back to its bytes"
        );
    }

    let Ok(decryptor) = parsed else { return };
    let key = FileKey::from_bytes([7; 16]);
    let header = Header::new(decryptor.header().stanzas().to_vec(), &key)
        .expect("parsed stanzas write back");
    let mut text = Vec::new();
    header.write(&mut text).unwrap();
    let reparsed = Header::read(&mut &text[..]).expect("a written header parses");
    assert_eq!(reparsed.stanzas(), decryptor.header().stanzas());
    reparsed
        .verify_mac(&key)
        .expect("the MAC of a written header verifies");

    let identities: [&dyn Identity; 3] = [&*X25519, &*HYBRID, &*PASSPHRASE];
    if let Ok(file_key) = decryptor.file_key(&identities) {
        let _ = decryptor.decrypt(&file_key, sink(), Threads::Count(NonZeroUsize::MIN));
    }
});
