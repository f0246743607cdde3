//! The header's limits against hostile input: a header that runs on past
//! `MAX_HEADER`, in one endless body or in stanzas of 64 KB lines, is
//! refused with a clear message after reading little more than the cap,
//! and parsing it holds at most about the cap; one-character arguments stop
//! at `MAX_ARGS`. And the limits are far from any real header: one exactly
//! at the cap parses, and so do `MAX_STANZAS` post-quantum stanzas. What
//! we write stays within what age reads: `MAX_RECIPIENT_STANZAS`.
//!
//! A counting global allocator measures, per thread, the most bytes the
//! parser holds at once.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::io::{self, BufReader, Read};

use simdcrypt_age::format::{MAX_ARGS, MAX_HEADER, MAX_RECIPIENT_STANZAS, MAX_STANZAS};
use simdcrypt_age::{
    Encryptor, Error, FileKey, Header, Identity, Recipient, Stanza, Threads, pq, x25519,
};

/// The global allocator: `System`, counting the bytes each thread holds and
/// the most it has held.
struct Counting;

thread_local! {
    static LIVE: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

/// Adds `delta` to the bytes this thread holds. The thread-locals are
/// const-initialized and have no destructor: touching them never
/// allocates, and `try_with` only fails while the thread is torn down.
fn track(delta: isize) {
    let _ = LIVE.try_with(|live| {
        let now = live.get() + delta;
        live.set(now);
        let _ = PEAK.try_with(|peak| peak.set(peak.get().max(now)));
    });
}

/// A size as a signed count; an allocation never exceeds `isize::MAX`.
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

/// The most a parse may hold at once, a `realloc` counted with its old and
/// new blocks both live. Bodies decode to 3 bytes for 4 characters, and the
/// buffer a body grows in never passes what the rest of the header could
/// decode to, 3/4 of the cap at most; so moving it, or shrinking it to fit,
/// holds at most twice that beside the stanzas before it: 3/2 of the cap.
/// 2 MiB more cover a line, the `BufReader`, the `Stanza`s and the `String`s
/// of up to `MAX_ARGS` arguments.
const HELD: usize = MAX_HEADER / 2 * 3 + (2 << 20);

/// Reads `head`, then `unit` over and over: for ever as far as a parser
/// that keeps to the cap can tell, but it stops after four times the cap,
/// so that one which does not fails rather than runs out of memory.
struct Endless {
    head: &'static [u8],
    unit: Vec<u8>,
    pos: usize,
    left: usize,
}

impl Endless {
    fn new(head: &'static [u8], unit: Vec<u8>) -> Self {
        Endless {
            head,
            unit,
            pos: 0,
            left: 4 * MAX_HEADER,
        }
    }
}

impl Read for Endless {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if !self.head.is_empty() {
            return self.head.read(buf);
        }
        let n = buf.len().min(self.left);
        for byte in &mut buf[..n] {
            *byte = self.unit[self.pos];
            self.pos = (self.pos + 1) % self.unit.len();
        }
        self.left -= n;
        Ok(n)
    }
}

/// Counts the bytes read through it.
struct Counted<R> {
    inner: R,
    read: usize,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read += n;
        Ok(n)
    }
}

/// Parses the header `input` gives through a `BufReader`; returns the
/// outcome, the bytes read from `input` and the most bytes held at once.
fn parse(input: impl Read) -> (Result<Header, Error>, usize, usize) {
    let mut counted = Counted {
        inner: input,
        read: 0,
    };
    let (result, peak) = peak_of(|| Header::read(&mut BufReader::new(&mut counted)));
    (result, counted.read, peak)
}

/// The message of a header error, or a panic.
fn header_error(result: Result<Header, Error>) -> String {
    match result {
        Err(Error::Header(reason)) => reason,
        Err(e) => panic!("expected a header error, got {e}"),
        Ok(_) => panic!("expected a header error, got a header"),
    }
}

fn too_long() -> String {
    format!("the header is longer than {MAX_HEADER} bytes: not an age file, or a hostile one")
}

/// At most a `BufReader`'s buffer is read past the byte that crosses the
/// cap.
fn assert_read_little_past_the_cap(read: usize) {
    assert!(read <= MAX_HEADER + 1 + 8192, "read {read} bytes");
}

#[test]
fn an_endless_body_is_refused_after_the_cap() {
    let mut line = vec![b'A'; 64];
    line.push(b'\n');
    let input = Endless::new(b"age-encryption.org/v1\n-> X25519 AAAA\n", line);
    let (result, read, peak) = parse(input);
    assert_eq!(header_error(result), too_long());
    assert_read_little_past_the_cap(read);
    assert!(peak <= HELD, "held {peak} bytes");
}

#[test]
fn stanzas_of_64_kb_lines_are_refused_after_the_cap() {
    // 4096 of these would be 268 MB.
    let mut stanza = b"-> ".to_vec();
    stanza.resize(65535, b'A');
    stanza.extend_from_slice(b"\n\n");
    let input = Endless::new(b"age-encryption.org/v1\n", stanza);
    let (result, read, peak) = parse(input);
    assert_eq!(header_error(result), too_long());
    assert_read_little_past_the_cap(read);
    assert!(peak <= HELD, "held {peak} bytes");
}

#[test]
fn one_character_arguments_are_refused_past_max_args() {
    // Each 2-byte argument would cost a 24-byte `String` and its byte: 8 MiB
    // of them, 100 MB.
    let mut stanza = b"->".to_vec();
    while stanza.len() < 65530 {
        stanza.extend_from_slice(b" a");
    }
    stanza.extend_from_slice(b"\n\n");
    let input = Endless::new(b"age-encryption.org/v1\n", stanza);
    let (result, read, peak) = parse(input);
    assert_eq!(
        header_error(result),
        format!("the stanzas hold more than {MAX_ARGS} arguments together")
    );
    assert!(read < 4 << 16, "read {read} bytes");
    assert!(peak <= 32 * MAX_ARGS + (128 << 10), "held {peak} bytes");
}

/// The text of `header`, MAC line included.
fn text(header: &Header) -> Vec<u8> {
    let mut text = Vec::new();
    header.write(&mut text).unwrap();
    text
}

#[test]
fn a_header_exactly_at_the_cap_parses_and_one_byte_more_does_not() {
    let key = FileKey::from_bytes([3; 16]);
    let make = |tag_len: usize| {
        let stanza = Stanza {
            tag: "t".repeat(tag_len),
            args: vec![],
            body: vec![0xa5; (MAX_HEADER - 40_000) / 65 * 48],
        };
        Header::new(vec![stanza], &key).unwrap()
    };
    let short = text(&make(1)).len();
    assert!(short < MAX_HEADER);
    let at_cap = text(&make(1 + MAX_HEADER - short));
    assert_eq!(at_cap.len(), MAX_HEADER);

    let (result, read, peak) = parse(&at_cap[..]);
    let parsed = result.unwrap();
    assert_eq!(read, MAX_HEADER);
    assert!(peak <= HELD, "held {peak} bytes");
    assert_eq!(text(&parsed), at_cap, "written back byte for byte");
    parsed.verify_mac(&key).unwrap();

    let over = text(&make(2 + MAX_HEADER - short));
    let (result, read, _) = parse(&over[..]);
    assert_eq!(header_error(result), too_long());
    assert_eq!(read, MAX_HEADER + 1);
}

/// The hybrid identity of the fuzz targets.
const HYBRID: &str =
    "AGE-SECRET-KEY-PQ-1XX76JRALNLXDMEW0CRK45QMCCH4X06SE84UN3VPM33W6HWDX0H3SK3ZQFR";

#[test]
fn max_stanzas_post_quantum_stanzas_fit_under_the_cap() {
    // The largest native stanza, as wrapped for a real recipient.
    let identity: pq::Identity = HYBRID.parse().unwrap();
    let key = FileKey::from_bytes([5; 16]);
    let stanza = identity.to_public().wrap(&key).unwrap().remove(0);
    assert!(identity.unwrap(&stanza).unwrap().is_some());
    let one = text(&Header::new(vec![stanza.clone()], &key).unwrap()).len();

    let header = Header::new(vec![stanza.clone(); MAX_STANZAS], &key).unwrap();
    let full = text(&header);
    assert!(
        full.len() < MAX_HEADER,
        "{MAX_STANZAS} stanzas of {} bytes take {} bytes",
        one - 70,
        full.len()
    );
    let (result, _, peak) = parse(&full[..]);
    let parsed = result.unwrap();
    assert!(peak <= HELD, "held {peak} bytes");
    assert_eq!(parsed.stanzas(), header.stanzas());
    assert_eq!(text(&parsed), full, "written back byte for byte");
    parsed.verify_mac(&key).unwrap();

    // One more is refused by the stanza count, not the cap.
    let over = text(&Header::new(vec![stanza; MAX_STANZAS + 1], &key).unwrap());
    assert!(over.len() < MAX_HEADER);
    let (result, _, _) = parse(&over[..]);
    assert_eq!(
        header_error(result),
        format!("more than {MAX_STANZAS} stanzas")
    );
}

/// What we write, we read, and so does age: a file carries at most
/// `MAX_RECIPIENT_STANZAS` recipient stanzas (age 1.3.2 refuses more),
/// counted before any recipient is wrapped and again after, for
/// recipients that wrap more than one stanza.
#[test]
fn encryption_stops_at_max_recipient_stanzas_and_decryption_reads_them() {
    let identities: Vec<x25519::Identity> = (0..=MAX_RECIPIENT_STANZAS)
        .map(|_| x25519::Identity::generate().unwrap())
        .collect();
    let recipients: Vec<x25519::Recipient> =
        identities.iter().map(x25519::Identity::to_public).collect();
    let refs: Vec<&dyn Recipient> = recipients.iter().map(|r| r as &dyn Recipient).collect();

    let e = Encryptor::new(&refs).err().expect("one recipient too many");
    assert!(matches!(e, Error::TooManyRecipients(n) if n == MAX_RECIPIENT_STANZAS + 1));
    assert!(e.to_string().contains("more than 1024"), "{e}");

    let at_limit = &refs[..MAX_RECIPIENT_STANZAS];
    let mut sealed = Vec::new();
    Encryptor::new(at_limit)
        .unwrap()
        .encrypt(&b"every one"[..], &mut sealed, Threads::Auto)
        .unwrap();
    let mut plain = Vec::new();
    let last = &identities[MAX_RECIPIENT_STANZAS - 1];
    simdcrypt_age::decrypt(&[last as &dyn Identity], &sealed[..], &mut plain).unwrap();
    assert_eq!(plain, b"every one");

    /// A recipient that wraps two stanzas (as a plugin may).
    struct Twice(x25519::Recipient);
    impl Recipient for Twice {
        fn wrap(&self, file_key: &FileKey) -> Result<Vec<Stanza>, Error> {
            let mut stanzas = self.0.wrap(file_key)?;
            stanzas.extend(self.0.wrap(file_key)?);
            Ok(stanzas)
        }
    }
    let twice: Vec<Twice> = recipients[..MAX_RECIPIENT_STANZAS / 2 + 1]
        .iter()
        .map(|r| Twice(*r))
        .collect();
    let refs: Vec<&dyn Recipient> = twice.iter().map(|r| r as &dyn Recipient).collect();
    let e = Encryptor::new(&refs).err().expect("two stanzas too many");
    assert!(matches!(e, Error::TooManyRecipients(n) if n == MAX_RECIPIENT_STANZAS + 2));
}
