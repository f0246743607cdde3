//! `simdcrypt info`: what this CPU has, what the cap allows, and every
//! ladder of the library's table with its rungs, which run here and which
//! the library picks.

use std::io::Write;

use serde_json::{Value, json};
use simdcrypt::Xor;
use simdcrypt::cpu::{self, MAX_ISA_VAR};
use simdcrypt::ladder::{Kind, Ladder, Primitive, RungInfo};

use crate::command::{Context, Subcommand};
use crate::error::CliError;

/// Show the CPU features, the SIMDCRYPT_MAX_ISA cap and every ladder's rungs
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
}

impl Subcommand for Args {
    fn run(self, _: &clap::ArgMatches, _: &Context) -> Result<(), CliError> {
        run(&self)
    }
}

/// Prints the report on stdout, as text or JSON.
///
/// # Errors
///
/// A malformed `SIMDCRYPT_MAX_ISA`; stdout closed.
fn run(args: &Args) -> Result<(), CliError> {
    let cap = cpu::max_isa()?;
    let mut out = crate::io::stdout();
    if args.json {
        serde_json::to_writer_pretty(&mut out, &report(cap))
            .map_err(|e| CliError::Stdout(e.into()))?;
        writeln!(out)?;
        return Ok(());
    }
    writeln!(out, "simdcrypt {}", env!("CARGO_PKG_VERSION"))?;
    writeln!(out, "architecture:     {}", std::env::consts::ARCH)?;
    let joined = |v: Vec<&str>| {
        if v.is_empty() {
            "(none)".to_owned()
        } else {
            v.join(" ")
        }
    };
    writeln!(
        out,
        "CPU features:     {}",
        joined(features(cpu::detected(), true))
    )?;
    writeln!(
        out,
        "  absent:         {}",
        joined(features(cpu::detected(), false))
    )?;
    match cap {
        Some(level) => writeln!(out, "{MAX_ISA_VAR}: {level}")?,
        None => writeln!(out, "{MAX_ISA_VAR}: not set (no cap)")?,
    }
    writeln!(
        out,
        "features allowed: {}",
        joined(features(cpu::features(), true))
    )?;
    for ladder in simdcrypt::ladders() {
        writeln!(out)?;
        let names: Vec<&str> = ladder.primitives.iter().map(|p| p.name).collect();
        writeln!(out, "{} ladder: {}", ladder.name, names.join(", "))?;
        let composed = ladder.composed_of();
        if !composed.is_empty() {
            writeln!(
                out,
                "  no rungs of its own: runs on {}",
                composed.join(", ")
            )?;
        }
        for r in ladder.rungs() {
            let status = if r.available {
                "available".to_owned()
            } else {
                format!("unavailable (needs {})", r.needs)
            };
            let timing = if r.constant_time {
                ""
            } else {
                ", variable-time"
            };
            let chosen = if r.chosen { "  <- chosen" } else { "" };
            writeln!(
                out,
                "  {:<15} {:<17} {status}{timing}{chosen}",
                r.name,
                width(ladder, &r)
            )?;
        }
    }
    let xor = Xor::default();
    let what = match xor {
        Xor::Bytewise => "byte-wise",
        Xor::Simd128 => "16-byte SIMD",
    };
    writeln!(out)?;
    writeln!(
        out,
        "XOR form (single-block rungs): {xor} ({what}) by default"
    )?;
    Ok(())
}

/// The names of the features in `f` that are (`want`) or are not present.
fn features(f: cpu::Features, want: bool) -> Vec<&'static str> {
    f.list()
        .into_iter()
        .filter(|&(_, has)| has == want)
        .map(|(name, _)| name)
        .collect()
}

/// A rung's width in words: blocks of the ladder's block length at once,
/// or messages (multi-buffer hashes) or lanes of `p` (scrypt).
fn width(ladder: &Ladder, r: &RungInfo) -> String {
    let Some(first) = ladder.primitives.first() else {
        return String::new();
    };
    let n = r.par_blocks;
    let plural = if n == 1 { "" } else { "s" };
    match first.kind {
        Kind::MultiBufferHash => format!("{n} message{plural}"),
        Kind::Kdf => format!("{n} lane{plural} of p"),
        _ => format!("{n} block{plural} of {} B", first.block_len),
    }
}

/// The whole report as JSON.
fn report(cap: Option<cpu::IsaLevel>) -> Value {
    let ladders: Vec<Value> = simdcrypt::ladders()
        .iter()
        .map(|ladder| {
            json!({
                "name": ladder.name,
                "composed_of": ladder.composed_of(),
                "chosen": ladder.chosen(),
                "primitives": ladder.primitives.iter().map(primitive).collect::<Vec<_>>(),
                "rungs": ladder.rungs().iter().map(|r| json!({
                    "name": r.name,
                    "needs": r.needs,
                    "available": r.available,
                    "par_blocks": r.par_blocks,
                    "constant_time": r.constant_time,
                    "chosen": r.chosen,
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({
        "version": env!("CARGO_PKG_VERSION"),
        "architecture": std::env::consts::ARCH,
        "features": features(cpu::detected(), true),
        "absent": features(cpu::detected(), false),
        "max_isa": cap.map(|l| l.to_string()),
        "allowed": features(cpu::features(), true),
        "xor_default": Xor::default().to_string(),
        "ladders": ladders,
    })
}

/// One primitive as JSON.
fn primitive(p: &Primitive) -> Value {
    json!({
        "name": p.name,
        "kind": p.kind.name(),
        "summary": p.summary,
        "key_lens": p.key_lens,
        "nonce_len": p.nonce_len,
        "iv_register": p.iv_register,
        "block_len": p.block_len,
        "output_len": p.output_len,
        "params": p.params.iter().map(|q| json!({
            "name": q.name, "default": q.default, "doc": q.doc,
        })).collect::<Vec<_>>(),
    })
}
