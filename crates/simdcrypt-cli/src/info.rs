//! `simdcrypt info`: what this CPU has, what the cap allows, which rungs run.

use std::io::Write;

use simdcrypt::Xor;
use simdcrypt::cpu::{self, MAX_ISA_VAR};
use simdcrypt::salsa20::Impl;

use crate::cipher::NAMES;
use crate::error::CliError;

/// Prints the report on stdout.
///
/// # Errors
///
/// A malformed `SIMDCRYPT_MAX_ISA`; stdout closed.
pub fn run() -> Result<(), CliError> {
    let cap = cpu::max_isa()?;
    let mut out = std::io::stdout().lock();
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
    writeln!(out, "{NAMES}, hsalsa20 (one ladder):")?;
    let best = Impl::best();
    for &imp in Impl::ALL {
        let status = if imp.is_available() {
            "available".to_owned()
        } else {
            format!("unavailable (needs {})", imp.needs())
        };
        let blocks = match imp.par_blocks() {
            1 => "1 block".to_owned(),
            n => format!("{n} blocks"),
        };
        let chosen = if imp == best { "  <- chosen" } else { "" };
        writeln!(out, "  {:<15} {:<9} {status}{chosen}", imp.name(), blocks)?;
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
