//! `simdcrypt info`: what this CPU has, what the cap allows, which rungs run.

use std::io::Write;

use simdcrypt::Xor;
use simdcrypt::cpu::{self, MAX_ISA_VAR};
use simdcrypt::{chacha20, poly1305, salsa20};

use crate::error::CliError;

/// One rung's line: its name, blocks at once, whether it runs, and whether
/// the library picks it.
struct Line {
    name: &'static str,
    needs: &'static str,
    available: bool,
    blocks: String,
    chosen: bool,
}

/// The lines of a ladder: `$imp` is the primitive's `Impl` type, `$unit` its
/// block size in bytes.
macro_rules! ladder {
    ($imp:ty, $unit:literal) => {
        <$imp>::ALL
            .iter()
            .map(|&i| Line {
                name: i.name(),
                needs: i.needs(),
                available: i.is_available(),
                blocks: match i.par_blocks() {
                    1 => format!("1 block of {} B", $unit),
                    n => format!("{n} blocks of {} B", $unit),
                },
                chosen: i == <$imp>::best(),
            })
            .collect::<Vec<_>>()
    };
}

/// Prints the report on stdout.
///
/// # Errors
///
/// A malformed `SIMDCRYPT_MAX_ISA`; stdout closed.
pub fn run() -> Result<(), CliError> {
    let cap = cpu::max_isa()?;
    let mut out = crate::io::stdout();
    writeln!(out, "simdcrypt {}", env!("CARGO_PKG_VERSION"))?;
    writeln!(out, "architecture:     {}", std::env::consts::ARCH)?;
    let names = |f: cpu::Features, want: bool| {
        let v: Vec<&str> = f
            .list()
            .into_iter()
            .filter(|&(_, has)| has == want)
            .map(|(name, _)| name)
            .collect();
        if v.is_empty() {
            "(none)".to_owned()
        } else {
            v.join(" ")
        }
    };
    writeln!(out, "CPU features:     {}", names(cpu::detected(), true))?;
    writeln!(out, "  absent:         {}", names(cpu::detected(), false))?;
    match cap {
        Some(level) => writeln!(out, "{MAX_ISA_VAR}: {level}")?,
        None => writeln!(out, "{MAX_ISA_VAR}: not set (no cap)")?,
    }
    writeln!(out, "features allowed: {}", names(cpu::features(), true))?;
    writeln!(out)?;
    let ladders = [
        (
            "salsa20, salsa20/12, salsa20/8, xsalsa20, hsalsa20",
            ladder!(salsa20::Impl, 64),
        ),
        (
            "chacha20, chacha20-legacy, xchacha20, hchacha20",
            ladder!(chacha20::Impl, 64),
        ),
        ("poly1305 (and the AEADs' MAC)", ladder!(poly1305::Impl, 16)),
    ];
    for (what, lines) in ladders {
        writeln!(out, "{what}:")?;
        for l in lines {
            let status = if l.available {
                "available".to_owned()
            } else {
                format!("unavailable (needs {})", l.needs)
            };
            let chosen = if l.chosen { "  <- chosen" } else { "" };
            writeln!(out, "  {:<15} {:<17} {status}{chosen}", l.name, l.blocks)?;
        }
    }
    let xor = Xor::default();
    let what = match xor {
        Xor::Bytewise => "byte-wise",
        Xor::Simd128 => "16-byte SIMD",
    };
    writeln!(
        out,
        "XOR form (single-block rungs): {xor} ({what}) by default"
    )?;
    Ok(())
}
