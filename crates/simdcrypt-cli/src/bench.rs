//! `simdcrypt bench`: TSC ticks per byte and GB/s of every rung of a cipher,
//! of Poly1305, of an AEAD's seal (or, `--decrypt`, its opening) or of a
//! hash at several message sizes, and for the ciphers the time of one block.
//!
//! Method: a warm-up, then many timed repetitions (as many as fit in about
//! 0.2 s per cell, or `--reps`); each repetition times a few calls between two
//! serialised TSC reads, minus the measured cost of an empty timed region.
//! The minimum and the median per call are reported; GB/s comes from the
//! median and the TSC frequency measured against the system clock.

use std::hint::black_box;
use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use simdcrypt::Error;
use simdcrypt::block::Padding;
use simdcrypt::dynamic::{Direction, DynMode, MacOptions, ModeOptions, StreamOptions};
use simdcrypt::ladder::{self, Construct, Ladder, Primitive};
use simdcrypt::timer::{self, UNIT, Unit};

use crate::command::{Context, Subcommand};
use crate::error::CliError;
use crate::output::{Content, Output};

/// Measure every rung: TSC ticks per byte and GB/s
#[derive(Debug, clap::Args)]
pub struct Args {
    /// What to measure: a stream cipher, MAC, AEAD (sealing) or hash of the
    /// library's table (listed here at run time) [default: the table's
    /// first stream cipher]
    #[arg(long, value_name = "NAME")]
    pub algo: Option<String>,

    /// `all` (every rung this CPU runs) or one rung's name.
    #[arg(
        long,
        visible_alias = "impl",
        value_name = "NAME",
        default_value = "all"
    )]
    pub rung: String,

    /// Message sizes in bytes [default: 64 1024 8192 16384 1048576].
    #[arg(
        long,
        value_name = "BYTES",
        num_args = 1..,
        value_parser = clap::value_parser!(u64).range(1..=1 << 30),
    )]
    pub size: Vec<u64>,

    /// Timed repetitions per cell [default: as many as fit in about 0.2 s].
    #[arg(
        long,
        value_name = "N",
        value_parser = clap::value_parser!(u64).range(1..=100_000_000),
    )]
    pub reps: Option<u64>,

    /// Measure decryption: of a block-cipher mode whose decryption is not
    /// its encryption (ECB, CBC, CFB), or an AEAD's opening of a message
    /// sealed beforehand, out of place.
    #[arg(long, conflicts_with = "leak")]
    pub decrypt: bool,

    /// Print JSON on stdout.
    #[arg(long, conflicts_with = "csv")]
    pub json: bool,

    /// Print CSV on stdout.
    #[arg(long)]
    pub csv: bool,

    /// Run exactly N untimed calls per rung and size, and print nothing:
    /// for instruction counts under `valgrind --tool=callgrind`, which
    /// repeat exactly (bench/callgrind.sh divides two of them).
    #[arg(
        long,
        value_name = "N",
        conflicts_with_all = ["reps", "json", "csv", "plot"],
        value_parser = clap::value_parser!(u64).range(1..=100_000_000),
    )]
    pub calls: Option<u64>,

    /// Also draw each rung's GB/s against message size as an SVG plot in
    /// FILE (without --size: every power of two from 64 B to 1 MiB).
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,

    /// Replace an existing --plot file.
    #[arg(long, requires = "plot")]
    pub force: bool,

    /// Instead of speed, test each rung for timing leaks (dudect's
    /// fixed-against-random Welch t-test) with N calls per class; --algo
    /// also takes a ladder's name (`--leak --algo aes`)
    #[arg(
        long,
        value_name = "N",
        num_args = 0..=1,
        default_missing_value = "1000000",
        conflicts_with_all = ["calls", "plot", "json", "csv", "size"],
        value_parser = clap::value_parser!(u64).range(1000..=100_000_000),
    )]
    pub leak: Option<u64>,
}

impl Subcommand for Args {
    fn customize(command: clap::Command) -> clap::Command {
        use simdcrypt::ladder::{Kind, names_of};
        let subjects = [
            Kind::StreamCipher,
            Kind::Mode,
            Kind::Mac,
            Kind::Aead,
            Kind::Hash,
        ]
        .map(names_of)
        .join(", ");
        let first = names_of(Kind::StreamCipher);
        command.mut_arg("algo", |a| {
            a.help(format!(
                "What to measure: {subjects} [default: the first, {}]",
                first.split(", ").next().unwrap_or_default()
            ))
        })
    }

    fn run(self, _: &clap::ArgMatches, _: &Context) -> Result<(), CliError> {
        run(&self)
    }
}

mod leak;
mod plot;

/// Message sizes when `--size` is not given.
const DEFAULT_SIZES: [u64; 5] = [64, 1024, 8192, 16384, 1 << 20];
/// Message sizes of a plot when `--size` is not given: every power of two
/// from 64 B (2^6) to 1 MiB (2^20).
const PLOT_SIZES: std::ops::RangeInclusive<u32> = 6..=20;
/// Time spent measuring one cell when `--reps` is not given.
const CELL_TIME: Duration = Duration::from_millis(200);
/// Time spent warming up before each cell.
const WARM_UP: Duration = Duration::from_millis(20);
/// Bytes processed per repetition, at least: short messages are timed a
/// few calls at a time so that one repetition is well above the clock's
/// resolution.
const BYTES_PER_REP: u64 = 4096;

/// Minimum and median of one measurement, in ticks per call.
#[derive(Clone, Copy, Debug)]
struct Stats {
    min: f64,
    median: f64,
    reps: usize,
}

/// What is measured: a primitive of the library's table of ladders, built
/// by name: a stream cipher, a MAC, an AEAD's seal or a hash.
#[derive(Clone, Copy)]
struct Subject {
    ladder: &'static Ladder,
    primitive: &'static Primitive,
    /// Which way a cipher runs: decryption only for a mode or an AEAD
    /// ([`Subject::decrypting`]).
    direction: Direction,
}

/// The associated data of an AEAD seal: a TLS 1.2 record header's length
/// (for an AEAD that takes associated data).
const AAD: [u8; 13] = [0x17; 13];

/// The fixed key bytes every keyed subject is keyed with: all different,
/// for a key of equal words makes Magma an involution, its decryption its
/// encryption (GOST 28147-89's schedule reverses only the order of the
/// subkeys), which [`Subject::decryption_is_encryption`] would take for a
/// keystream mode.
const KEY: [u8; 64] = {
    let mut key = [0; 64];
    let mut i = 0;
    while i < key.len() {
        key[i] = 0x42 ^ (i as u8).wrapping_mul(37);
        i += 1;
    }
    key
};

/// The fixed nonce bytes.
const NONCE: [u8; 64] = [0x24; 64];

/// The operation timed: one whole call on a message in place.
type Op = Box<dyn FnMut(&mut [u8]) -> Result<(), Error>>;

/// One implementation of the subject: a rung, or for a primitive with no
/// rungs of its own (the AEADs, HMAC) the library's default composition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Rung {
    name: &'static str,
    needs: &'static str,
    available: bool,
    /// Blocks a stream cipher's rung computes at once; 0 for the others.
    par_blocks: usize,
}

/// The rung name of a composed primitive's one implementation.
const DEFAULT_RUNG: &str = "default";

impl Subject {
    /// `primitive` of `ladder`, encrypting.
    fn new(ladder: &'static Ladder, primitive: &'static Primitive) -> Subject {
        Subject {
            ladder,
            primitive,
            direction: Direction::Encrypt,
        }
    }

    fn from_name(name: &str) -> Result<Subject, CliError> {
        ladder::find(name)
            .filter(|(_, p)| benchable(p))
            .map(|(ladder, primitive)| Subject::new(ladder, primitive))
            .ok_or_else(|| CliError::UnknownCipher {
                flag: "--algo",
                name: name.to_owned(),
                expected: ladder::primitives()
                    .filter(|(_, p)| benchable(p))
                    .map(|(_, p)| p.name)
                    .collect::<Vec<_>>()
                    .join(", "),
            })
    }

    /// The primitive named `name`, or the first benchable one of the
    /// ladder of that name (`--leak --algo aes`: AES-128 in ECB).
    fn from_ladder_or_name(name: &str) -> Result<Subject, CliError> {
        let of_ladder = ladder::ladders()
            .iter()
            .filter(|l| l.name == name)
            .find_map(|l| l.primitives.iter().find(|p| benchable(p)).map(|p| (l, p)));
        match of_ladder {
            Some((ladder, primitive)) => Ok(Subject::new(ladder, primitive)),
            None => Subject::from_name(name),
        }
    }

    /// The table's first stream cipher, measured when `--algo` is not
    /// given.
    fn first_stream_cipher() -> Result<Subject, CliError> {
        ladder::primitives()
            .find(|(_, p)| matches!(p.construct, Construct::Stream(_)))
            .map(|(ladder, primitive)| Subject::new(ladder, primitive))
            .ok_or(CliError::Internal("the table has no stream cipher"))
    }

    fn name(self) -> &'static str {
        self.primitive.name
    }

    /// This subject decrypting, or why it cannot: only a mode whose
    /// decryption differs from its encryption, and an AEAD, decrypt.
    fn decrypting(self) -> Result<Subject, CliError> {
        let refuse = |message| {
            Err(CliError::BadArg {
                flag: "--decrypt",
                message,
            })
        };
        let name = self.name();
        match self.primitive.construct {
            Construct::Aead { .. } => {}
            Construct::Mode(_) if !self.decryption_is_encryption()? => {}
            Construct::Mode(_) | Construct::Stream(_) => {
                return refuse(format!(
                    "{name} decrypts with the same keystream XOR it encrypts with: \
                     measure it without --decrypt"
                ));
            }
            _ => {
                return refuse(format!(
                    "{name} is a {}, with nothing to decrypt: expected a block-cipher \
                     mode (ECB, CBC, CFB) or an AEAD",
                    self.primitive.kind.name()
                ));
            }
        }
        Ok(Subject {
            direction: Direction::Decrypt,
            ..self
        })
    }

    /// Whether the mode's decryption is its encryption (CTR and OFB XOR a
    /// keystream both ways): both directions, on the same eight blocks
    /// (past a GOST CFB's IV register of several blocks), write the same.
    fn decryption_is_encryption(self) -> Result<bool, CliError> {
        let input: Vec<u8> = (0..8 * self.primitive.block_len).map(|i| i as u8).collect();
        let run = |direction| -> Result<Vec<u8>, CliError> {
            let mut output = vec![0; input.len()];
            self.new_mode(None, direction)?
                .update(&input, &mut output)?;
            Ok(output)
        };
        Ok(run(Direction::Encrypt)? == run(Direction::Decrypt)?)
    }

    /// The mode on `rung` (or its best), keyed with fixed bytes, running
    /// `direction` without padding.
    fn new_mode(
        self,
        rung: Option<&str>,
        direction: Direction,
    ) -> Result<Box<dyn DynMode>, CliError> {
        let options = ModeOptions {
            direction,
            padding: Padding::None,
            rung,
            ..Default::default()
        };
        Ok(self
            .primitive
            .new_mode(&KEY[..self.key_len()], self.nonce(), &options)?)
    }

    /// The fixed nonce or IV of its length.
    fn nonce(self) -> &'static [u8] {
        &NONCE[..self.primitive.nonce_len.unwrap_or(0)]
    }

    /// Which way it was measured, as the JSON and CSV say it: none for a
    /// hash or a MAC.
    fn direction_name(self) -> Option<&'static str> {
        match self.primitive.construct {
            Construct::Hash(_) | Construct::Mac(_) => None,
            _ if self.direction == Direction::Decrypt => Some("decrypt"),
            _ => Some("encrypt"),
        }
    }

    /// Where the output goes, as the JSON and CSV say it: over the input
    /// (stream ciphers, AEAD seals), or into a buffer of its own (modes,
    /// AEAD opens: the sealed message read from one buffer, the plaintext
    /// written to another); none for a hash or a MAC.
    fn placement(self) -> Option<&'static str> {
        match self.primitive.construct {
            Construct::Stream(_) => Some("in-place"),
            Construct::Mode(_) => Some("out-of-place"),
            Construct::Aead { .. } if self.direction == Direction::Decrypt => Some("out-of-place"),
            Construct::Aead { .. } => Some("in-place"),
            _ => None,
        }
    }

    /// What the header says is measured.
    fn describe(self) -> String {
        let how = match self.primitive.construct {
            Construct::Stream(_) => "keystream XORed in place from byte 0".to_owned(),
            Construct::Hash(_) => "one-shot digest".to_owned(),
            Construct::Mac(_) => "one-shot MAC from a fresh key".to_owned(),
            Construct::Mode(_) => format!(
                "{} from input to output, continuing one message, no padding",
                match self.direction {
                    Direction::Encrypt => "encryption",
                    Direction::Decrypt => "decryption",
                }
            ),
            _ => {
                let what = if self.direction == Direction::Decrypt {
                    "open out of place (a message sealed beforehand, read from its \
                     buffer, the plaintext written to another)"
                } else {
                    "seal in place"
                };
                match self.aead_aad().len() {
                    0 => format!("{what}, detached tag, keyed once"),
                    n => format!(
                        "{what} with {n} bytes of associated data, detached tag, keyed once"
                    ),
                }
            }
        };
        format!("{}: {} ({how})", self.name(), self.primitive.summary)
    }

    /// Every implementation, slowest first.
    fn rungs(self) -> Vec<Rung> {
        let stream = matches!(
            self.primitive.construct,
            Construct::Stream(_) | Construct::Mode(_)
        );
        let rungs = self.ladder.rungs();
        if rungs.is_empty() {
            return vec![Rung {
                name: DEFAULT_RUNG,
                needs: "nothing",
                available: true,
                par_blocks: 0,
            }];
        }
        rungs
            .into_iter()
            .map(|r| Rung {
                name: r.name,
                needs: r.needs,
                available: r.available,
                par_blocks: if stream { r.par_blocks } else { 0 },
            })
            .collect()
    }

    /// The associated data an AEAD seal is timed with: none for one that
    /// authenticates none (XSalsa20-Poly1305), as the table says.
    fn aead_aad(self) -> &'static [u8] {
        match self.primitive.construct {
            Construct::Aead {
                associated_data: true,
                ..
            } => &AAD,
            _ => &[],
        }
    }

    /// The key length the subject is keyed with: its first.
    fn key_len(self) -> usize {
        self.primitive.key_lens.first().copied().unwrap_or(32)
    }

    /// The operation on `rung`, keyed with fixed bytes.
    fn op(self, rung: &'static str) -> Result<Op, CliError> {
        let key = &KEY[..self.key_len()];
        let nonce = self.nonce();
        let out_len = self.primitive.output_len.unwrap_or(0);
        let imp = (rung != DEFAULT_RUNG || !self.ladder.rungs().is_empty()).then_some(rung);
        Ok(match self.primitive.construct {
            Construct::Stream(_) => {
                let options = StreamOptions {
                    rung: imp,
                    ..Default::default()
                };
                let mut cipher = self.primitive.new_stream(key, nonce, &options)?;
                Box::new(move |buf| {
                    cipher.seek(0)?;
                    cipher.apply_keystream(buf)
                })
            }
            Construct::Hash(new) => {
                let fresh = new(imp)?;
                Box::new(move |buf| {
                    let mut h = fresh.box_clone();
                    h.update(buf);
                    let mut digest = [0u8; 64];
                    h.finalize_into(&mut digest[..out_len]);
                    black_box(digest);
                    Ok(())
                })
            }
            Construct::Mac(_) => {
                let options = MacOptions {
                    rung: imp,
                    ..Default::default()
                };
                let primitive = self.primitive;
                drop(primitive.new_mac(key, &options)?);
                Box::new(move |buf| {
                    let mut mac = primitive.new_mac(key, &options)?;
                    mac.update(buf);
                    let mut tag = [0u8; 64];
                    mac.finalize_into(&mut tag[..out_len]);
                    black_box(tag);
                    Ok(())
                })
            }
            Construct::Aead { new, .. } => {
                // Keyed once: a key seals many messages, and the setup
                // (AES's key schedule, GHASH's powers of H) is no part of
                // a seal. (ChaCha20's and XSalsa20's setup is a copy.)
                let aad = self.aead_aad();
                let aead = new(key)?;
                let mut tag = [0u8; 16];
                let tag_len = aead.tag_len();
                if self.direction == Direction::Decrypt {
                    // Sealed once per message length, before the calls
                    // timed at that length open it.
                    let mut sealed = Vec::new();
                    return Ok(Box::new(move |buf| {
                        if sealed.len() != buf.len() {
                            sealed = vec![0; buf.len()];
                            aead.encrypt_in_place_detached(
                                nonce,
                                aad,
                                &mut sealed,
                                &mut tag[..tag_len],
                            )?;
                        }
                        aead.decrypt_detached_into(nonce, aad, &sealed, buf, &tag[..tag_len])
                    }));
                }
                Box::new(move |buf| {
                    aead.encrypt_in_place_detached(nonce, aad, buf, &mut tag[..tag_len])?;
                    black_box(&tag);
                    Ok(())
                })
            }
            Construct::Mode(_) => {
                let mut mode = self.new_mode(imp, self.direction)?;
                let mut out = Vec::new();
                Box::new(move |buf| {
                    out.resize(buf.len(), 0);
                    mode.update(buf, &mut out)?;
                    black_box(&out);
                    Ok(())
                })
            }
            _ => return Err(CliError::Internal("a subject that cannot be built")),
        })
    }
}

/// Whether `bench` can build and time `p`.
fn benchable(p: &Primitive) -> bool {
    matches!(
        p.construct,
        Construct::Stream(_)
            | Construct::Hash(_)
            | Construct::Mac(_)
            | Construct::Aead { .. }
            | Construct::Mode(_)
    )
}

/// One rung at one size.
struct Cell {
    imp: Rung,
    size: u64,
    stats: Stats,
}

/// One rung's time per block (64 bytes for Salsa20 and ChaCha20, 16 for
/// AES's modes).
struct PerBlock {
    imp: Rung,
    /// Blocks per timed call: 1 (a core call) or the rung's batch.
    batch: usize,
    /// Ticks per block.
    stats: Stats,
}

/// Runs the command.
///
/// # Errors
///
/// An unknown subject or rung, a rung this CPU lacks; stdout closed.
fn run(args: &Args) -> Result<(), CliError> {
    let subject = match &args.algo {
        Some(name) if args.leak.is_some() => Subject::from_ladder_or_name(name)?,
        Some(name) => Subject::from_name(name)?,
        None => Subject::first_stream_cipher()?,
    };
    let subject = if args.decrypt {
        subject.decrypting()?
    } else {
        subject
    };
    let all = subject.rungs();
    let rungs: Vec<Rung> = if args.rung == "all" {
        all
    } else {
        let Some(&rung) = all.iter().find(|r| r.name == args.rung) else {
            return Err(CliError::Library(Error::UnknownRung {
                primitive: subject.ladder.name,
                name: args.rung.clone(),
                expected: all.iter().map(|r| r.name).collect::<Vec<_>>().join(", "),
            }));
        };
        // Building it says why a rung this CPU lacks cannot run.
        drop(subject.op(rung.name)?);
        vec![rung]
    };
    if let Some(per_class) = args.leak {
        let leaks = leak::run(subject, &rungs, per_class)?;
        return leak::print(&mut crate::io::stdout(), subject, &leaks);
    }
    let sizes = match (&args.size, &args.plot) {
        (given, _) if !given.is_empty() => given.clone(),
        (_, Some(_)) => PLOT_SIZES.map(|k| 1 << k).collect(),
        (_, None) => DEFAULT_SIZES.to_vec(),
    };
    // An output that cannot be written is refused before the measuring.
    let plot_output = match &args.plot {
        Some(path) => Some(Output::open(path, args.force, Content::Text)?),
        None => None,
    };
    if let Some(calls) = args.calls {
        return run_untimed(subject, &rungs, &sizes, calls);
    }
    let clock = Clock::calibrate();

    let mut cells = Vec::new();
    let mut per_block = Vec::new();
    let mut skipped = Vec::new();
    for &imp in &rungs {
        if !imp.available {
            skipped.push(imp);
            continue;
        }
        let mut op = subject.op(imp.name)?;
        for &size in &sizes {
            let stats = measure(&mut op, size, args.reps, &clock)?;
            cells.push(Cell { imp, size, stats });
        }
        if imp.par_blocks > 0 {
            let block_len = subject.primitive.block_len;
            per_block.push(measure_block(&mut op, imp, block_len, args.reps, &clock)?);
        }
    }

    let mut out = crate::io::stdout();
    if args.json {
        print_json(&mut out, subject, &clock, &cells, &per_block, &skipped)?;
    } else if args.csv {
        print_csv(&mut out, subject, &clock, &cells, &per_block)?;
    } else {
        print_text(&mut out, subject, &clock, &cells, &per_block, &skipped)?;
    }
    out.flush()?;
    if let Some(mut output) = plot_output {
        let series: Vec<plot::Series> = rungs
            .iter()
            .filter(|r| r.available)
            .map(|r| plot::Series {
                name: r.name.to_owned(),
                peer: false,
                points: cells
                    .iter()
                    .filter(|c| c.imp == *r)
                    .map(|c| (c.size, clock.gb_per_s(c.size, c.stats.median)))
                    .collect(),
            })
            .collect();
        let direction = match subject.direction {
            Direction::Decrypt => " decryption",
            Direction::Encrypt => "",
        };
        let title = format!(
            "simdcrypt bench: {}{direction} on {}",
            subject.name(),
            plot::cpu_name()
        );
        let svg =
            plot::svg(&title, &series).ok_or(CliError::Internal("drawing the plot failed"))?;
        output.write_all(svg.as_bytes())?;
        output.finish()?;
    }
    Ok(())
}

/// `--calls N`: each available rung on each size, `calls` times, untimed.
fn run_untimed(
    subject: Subject,
    rungs: &[Rung],
    sizes: &[u64],
    calls: u64,
) -> Result<(), CliError> {
    for rung in rungs.iter().filter(|r| r.available) {
        let mut op = subject.op(rung.name)?;
        for &size in sizes {
            let mut buf = message(size)?;
            for _ in 0..calls {
                op(black_box(&mut buf[..]))?;
            }
            black_box(&buf);
        }
    }
    Ok(())
}

/// The timer's unit, frequency and overhead.
struct Clock {
    /// Ticks per second.
    hz: f64,
    /// Ticks of an empty timed region.
    overhead: u64,
}

impl Clock {
    fn calibrate() -> Clock {
        Clock {
            overhead: timer::overhead(),
            hz: timer::frequency(Duration::from_millis(100)),
        }
    }

    fn ns(&self, ticks: f64) -> f64 {
        ticks / self.hz * 1e9
    }

    fn gb_per_s(&self, bytes: u64, ticks: f64) -> f64 {
        if ticks <= 0.0 {
            return f64::INFINITY;
        }
        bytes as f64 / (ticks / self.hz) / 1e9
    }
}

/// Repeats `sample` (which returns the ticks of `calls` calls) after a
/// warm-up, `reps` times or for [`CELL_TIME`]; per-call statistics with
/// the overhead subtracted.
fn repeat(
    clock: &Clock,
    reps: Option<u64>,
    calls: u64,
    mut sample: impl FnMut() -> Result<u64, CliError>,
) -> Result<Stats, CliError> {
    let start = Instant::now();
    let mut warm = 0u32;
    while warm < 2 || start.elapsed() < WARM_UP {
        sample()?;
        warm += 1;
    }
    let per_sample = start.elapsed().as_secs_f64() / f64::from(warm);
    let reps = reps.unwrap_or_else(|| {
        let n = CELL_TIME.as_secs_f64() / per_sample.max(1e-9);
        (n as u64).clamp(5, 2_000_000)
    });
    let mut ticks: Vec<f64> = Vec::with_capacity(reps as usize);
    for _ in 0..reps {
        let t = sample()?.saturating_sub(clock.overhead);
        ticks.push(t as f64 / calls as f64);
    }
    ticks.sort_unstable_by(f64::total_cmp);
    Ok(Stats {
        min: ticks[0],
        median: ticks[ticks.len() / 2],
        reps: ticks.len(),
    })
}

/// `op` on `size` bytes, a few calls per repetition.
fn measure(op: &mut Op, size: u64, reps: Option<u64>, clock: &Clock) -> Result<Stats, CliError> {
    let mut buf = message(size)?;
    let calls = (BYTES_PER_REP / size).max(1);
    repeat(clock, reps, calls, || {
        let t0 = timer::now();
        for _ in 0..calls {
            op(black_box(&mut buf[..]))?;
        }
        let t1 = timer::now();
        black_box(&buf);
        Ok(t1.saturating_sub(t0))
    })
}

/// One batch of `par_blocks` blocks of `block_len` bytes through `op`: a
/// single block on the one-block rungs.
fn measure_block(
    op: &mut Op,
    imp: Rung,
    block_len: usize,
    reps: Option<u64>,
    clock: &Clock,
) -> Result<PerBlock, CliError> {
    let batch = imp.par_blocks;
    let stats = measure(op, (batch * block_len) as u64, reps, clock)?;
    let per = |t: f64| t / batch as f64;
    Ok(PerBlock {
        imp,
        batch,
        stats: Stats {
            min: per(stats.min),
            median: per(stats.median),
            reps: stats.reps,
        },
    })
}

fn size_label(size: u64) -> String {
    match size {
        s if s >= 1 << 20 && s % (1 << 20) == 0 => format!("{} MiB", s >> 20),
        s if s >= 1 << 10 && s % (1 << 10) == 0 => format!("{} KiB", s >> 10),
        s => format!("{s} B"),
    }
}

fn block_label(batch: usize) -> String {
    if batch == 1 {
        "ns per one-block call".to_owned()
    } else {
        format!("ns per block (one call of {batch})")
    }
}

fn print_text(
    out: &mut impl Write,
    subject: Subject,
    clock: &Clock,
    cells: &[Cell],
    per_block: &[PerBlock],
    skipped: &[Rung],
) -> std::io::Result<()> {
    let unit = UNIT.name();
    writeln!(out, "simdcrypt bench: {}, one thread", subject.describe())?;
    match UNIT {
        Unit::TscTicks => writeln!(
            out,
            "timer: TSC at {:.3} GHz (measured against the system clock); {} ticks of an\n\
             empty timed region subtracted. TSC ticks run at a constant rate: they are not\n\
             core cycles unless the core runs at the TSC frequency. GB/s from the median.",
            clock.hz / 1e9,
            clock.overhead
        )?,
        Unit::Nanoseconds => writeln!(
            out,
            "timer: no time-stamp counter on this target: a monotonic clock in ns; {} ns of\n\
             an empty timed region subtracted. GB/s from the median.",
            clock.overhead
        )?,
    }
    writeln!(out)?;
    let h1 = format!("{unit}/byte");
    writeln!(
        out,
        "{:<15} {:>8}  {:^21}  {:>8}  {:>8}",
        "rung", "size", h1, "GB/s", "reps"
    )?;
    writeln!(
        out,
        "{:<15} {:>8}  {:>10} {:>10}  {:>8}",
        "", "", "min", "median", "(median)"
    )?;
    let mut last = None;
    for c in cells {
        if last.is_some() && last != Some(c.imp) {
            writeln!(out)?;
        }
        last = Some(c.imp);
        let size = c.size as f64;
        writeln!(
            out,
            "{:<15} {:>8}  {:>10.2} {:>10.2}  {:>8.3}  {:>8}",
            c.imp.name,
            size_label(c.size),
            c.stats.min / size,
            c.stats.median / size,
            clock.gb_per_s(c.size, c.stats.median),
            c.stats.reps
        )?;
    }
    if !per_block.is_empty() {
        writeln!(out)?;
        let setup = match subject.primitive.construct {
            Construct::Stream(_) => ", key setup included",
            _ => "",
        };
        writeln!(
            out,
            "one {}-byte block{setup}:",
            subject.primitive.block_len
        )?;
        writeln!(
            out,
            "{:<15} {:>10} {:>10}  what",
            "rung", "ns min", "ns median"
        )?;
    }
    for b in per_block {
        writeln!(
            out,
            "{:<15} {:>10.1} {:>10.1}  {}",
            b.imp.name,
            clock.ns(b.stats.min),
            clock.ns(b.stats.median),
            block_label(b.batch)
        )?;
    }
    for imp in skipped {
        writeln!(out, "{}: skipped (needs {})", imp.name, imp.needs)?;
    }
    Ok(())
}

fn print_csv(
    out: &mut impl Write,
    subject: Subject,
    clock: &Clock,
    cells: &[Cell],
    per_block: &[PerBlock],
) -> std::io::Result<()> {
    let u = UNIT.field();
    writeln!(
        out,
        "impl,size_bytes,{u}_per_byte_min,{u}_per_byte_median,gb_per_s_median,reps,\
         ns_per_block_median,block_batch,direction,placement"
    )?;
    for c in cells {
        let block = per_block.iter().find(|b| b.imp == c.imp);
        let size = c.size as f64;
        writeln!(
            out,
            "{},{},{:.4},{:.4},{:.4},{},{},{},{},{}",
            c.imp.name,
            c.size,
            c.stats.min / size,
            c.stats.median / size,
            clock.gb_per_s(c.size, c.stats.median),
            c.stats.reps,
            block.map_or(String::new(), |b| format!(
                "{:.2}",
                clock.ns(b.stats.median)
            )),
            block.map_or(String::new(), |b| b.batch.to_string()),
            subject.direction_name().unwrap_or_default(),
            subject.placement().unwrap_or_default(),
        )?;
    }
    Ok(())
}

fn print_json(
    out: &mut impl Write,
    subject: Subject,
    clock: &Clock,
    cells: &[Cell],
    per_block: &[PerBlock],
    skipped: &[Rung],
) -> std::io::Result<()> {
    let u = UNIT.field();
    let results: Vec<Value> = cells
        .iter()
        .map(|c| {
            let size = c.size as f64;
            let mut v = json!({
                "impl": c.imp.name,
                "size_bytes": c.size,
                "gb_per_s_median": clock.gb_per_s(c.size, c.stats.median),
                "reps": c.stats.reps,
            });
            v[format!("{u}_per_byte_min")] = json!(c.stats.min / size);
            v[format!("{u}_per_byte_median")] = json!(c.stats.median / size);
            v
        })
        .collect();
    let blocks: Vec<Value> = per_block
        .iter()
        .map(|b| {
            json!({
                "impl": b.imp.name,
                "what": block_label(b.batch),
                "block_batch": b.batch,
                "ns_per_block_min": clock.ns(b.stats.min),
                "ns_per_block_median": clock.ns(b.stats.median),
                "reps": b.stats.reps,
            })
        })
        .collect();
    let skipped: Vec<Value> = skipped
        .iter()
        .map(|i| json!({ "impl": i.name, "needs": i.needs }))
        .collect();
    let mut timer = json!({ "unit": UNIT.name() });
    timer[format!("{u}_per_s")] = json!(clock.hz);
    timer[format!("overhead_{u}")] = json!(clock.overhead);
    let params: Vec<Value> = subject
        .primitive
        .params
        .iter()
        .map(|p| json!({ "name": p.name, "default": p.default }))
        .collect();
    let doc = json!({
        "algo": subject.name(),
        "what": subject.describe(),
        "direction": subject.direction_name(),
        "placement": subject.placement(),
        "params": params,
        "timer": timer,
        "results": results,
        "per_block": blocks,
        "skipped": skipped,
    });
    serde_json::to_writer_pretty(&mut *out, &doc)?;
    writeln!(out)
}

/// A zeroed message of `size` bytes, allocated fallibly: the size comes
/// from the command line.
fn message(size: u64) -> Result<Vec<u8>, CliError> {
    let mut buf = Vec::new();
    usize::try_from(size)
        .ok()
        .and_then(|len| buf.try_reserve_exact(len).ok())
        .ok_or(CliError::OutOfMemory {
            what: "a message of --size",
            bytes: size,
        })?;
    buf.resize(size as usize, 0);
    Ok(buf)
}
