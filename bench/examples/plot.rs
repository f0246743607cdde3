//! One plot of a primitive: simdcrypt's rungs beside its peers, GB/s
//! against message size on a log axis, as SVG, titled with the CPU.
//! `bench/plots.sh` runs it once per plot.
//!
//! ```text
//! plot --out FILE.svg [--rungs CLI.json] [--criterion DIR]...
//! ```
//!
//! The rungs come from `simdcrypt bench --json` (`--rungs`: each rung's
//! median GB/s, TSC-timed), drawn solid; the peers from criterion's
//! results (`--criterion target/criterion/GROUP`: each
//! `SIZE/CONTENDER/new/sample.json`'s fastest sample, time per iteration,
//! and `benchmark.json`'s bytes), drawn dashed and named `… (criterion)`.
//! The fastest sample rather than criterion's estimates, which average
//! over samples of many milliseconds of wall clock: on a machine shared
//! with other work those take in the time the CPU ran something else,
//! as the shortest samples (and the TSC-timed bursts of the rungs) mostly
//! do not. A
//! criterion contender that is a rung of the JSON is left out (the rung is
//! drawn already); simdcrypt's default in criterion (`simdcrypt-best`,
//! `simdcrypt`) stays, timed as the peers are. What is missing (a group, a
//! contender at some size, the JSON) is said on stderr and the rest drawn.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde_json::Value;

/// The tool's `bench --plot` drawing: the tool is not a library.
#[path = "../../crates/simdcrypt-cli/src/bench/plot.rs"]
mod plot;

use plot::Series;

/// What the command line asks for.
struct Args {
    out: PathBuf,
    rungs: Option<PathBuf>,
    criterion: Vec<PathBuf>,
}

fn parse_args() -> Result<Args, String> {
    let mut out = None;
    let mut rungs = None;
    let mut criterion = Vec::new();
    let mut args = std::env::args_os().skip(1);
    while let Some(flag) = args.next() {
        let mut value = || {
            args.next()
                .map(PathBuf::from)
                .ok_or(format!("{} needs a value", flag.display()))
        };
        match flag.to_str() {
            Some("--out") => out = Some(value()?),
            Some("--rungs") => rungs = Some(value()?),
            Some("--criterion") => criterion.push(value()?),
            _ => {
                return Err(format!(
                    "unknown argument {}: expected --out FILE.svg, --rungs CLI.json, \
                     --criterion DIR",
                    flag.display()
                ));
            }
        }
    }
    let out = out.ok_or("--out FILE.svg is required")?;
    Ok(Args {
        out,
        rungs,
        criterion,
    })
}

/// A JSON file, or why not.
fn read_json(path: &Path) -> Result<Value, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// The rungs' series of a `simdcrypt bench --json` document, and its
/// title: the primitive, and the direction when it decrypts.
fn rung_series(doc: &Value) -> (String, Vec<Series>) {
    let mut by_rung: Vec<Series> = Vec::new();
    for r in doc["results"].as_array().into_iter().flatten() {
        let (Some(name), Some(size), Some(gb)) = (
            r["impl"].as_str(),
            r["size_bytes"].as_u64(),
            r["gb_per_s_median"].as_f64(),
        ) else {
            continue;
        };
        match by_rung.iter_mut().find(|s| s.name == name) {
            Some(s) => s.points.push((size, gb)),
            None => by_rung.push(Series {
                name: name.to_owned(),
                peer: false,
                points: vec![(size, gb)],
            }),
        }
    }
    let mut title = doc["algo"].as_str().unwrap_or("?").to_owned();
    if doc["direction"] == "decrypt" {
        title.push_str(" decryption");
    }
    (title, by_rung)
}

/// The bytes one iteration processes and the GB/s of the fastest sample
/// (`sample.json`: each sample's total `times` in ns over its `iters`),
/// of one criterion benchmark's directory.
fn criterion_point(dir: &Path) -> Result<(u64, f64), String> {
    let sample = read_json(&dir.join("new/sample.json"))?;
    let benchmark = read_json(&dir.join("new/benchmark.json"))?;
    let column = |key: &str| {
        sample[key]
            .as_array()
            .into_iter()
            .flatten()
            .map(Value::as_f64)
    };
    let ns = column("times")
        .zip(column("iters"))
        .filter_map(|(t, n)| Some(t? / n?))
        .filter(|ns| ns.is_finite())
        .reduce(f64::min)
        .ok_or_else(|| format!("{}: no samples", dir.display()))?;
    let bytes = benchmark["throughput"]["Bytes"]
        .as_u64()
        .ok_or_else(|| format!("{}: no throughput in bytes", dir.display()))?;
    Ok((bytes, bytes as f64 / ns))
}

/// The names of the subdirectories of `dir`, sorted; none if it cannot be
/// read.
fn subdirs(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.path().is_dir())
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|n| n != "report")
        .collect();
    names.sort();
    names
}

/// The peers' series of one criterion group (`GROUP/SIZE/CONTENDER`),
/// leaving out the contenders named in `rungs`; what is missing, on
/// stderr.
fn peer_series(group: &Path, rungs: &[String]) -> Vec<Series> {
    let sizes = subdirs(group);
    if sizes.is_empty() {
        eprintln!("plot: {}: no criterion results", group.display());
        return Vec::new();
    }
    let mut by_peer: BTreeMap<String, Vec<(u64, f64)>> = BTreeMap::new();
    for size in &sizes {
        for contender in subdirs(&group.join(size)) {
            if rungs.contains(&contender) {
                continue;
            }
            match criterion_point(&group.join(size).join(&contender)) {
                Ok(point) => by_peer.entry(contender).or_default().push(point),
                Err(e) => eprintln!("plot: {e}"),
            }
        }
    }
    for (peer, points) in &by_peer {
        if points.len() < sizes.len() {
            eprintln!(
                "plot: {}: {peer} at {} of the {} sizes ({})",
                group.display(),
                points.len(),
                sizes.len(),
                sizes.join(", ")
            );
        }
    }
    let names: Vec<&str> = by_peer.keys().map(String::as_str).collect();
    eprintln!("plot: {}: peers {}", group.display(), names.join(", "));
    by_peer
        .into_iter()
        .map(|(name, mut points)| {
            // The size directories sort by name: 01mib before 16kib.
            points.sort_by_key(|p| p.0);
            Series {
                name: format!("{name} (criterion)"),
                peer: true,
                points,
            }
        })
        .collect()
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(args) => args,
        Err(e) => {
            eprintln!("plot: {e}");
            return ExitCode::from(2);
        }
    };
    let (title, mut series) = match args.rungs.as_deref().map(read_json) {
        Some(Ok(doc)) => rung_series(&doc),
        Some(Err(e)) => {
            eprintln!("plot: no rungs: {e}");
            (String::new(), Vec::new())
        }
        None => (String::new(), Vec::new()),
    };
    let rungs: Vec<String> = series.iter().map(|s| s.name.clone()).collect();
    for group in &args.criterion {
        series.extend(peer_series(group, &rungs));
    }
    if series.is_empty() {
        eprintln!("plot: {}: nothing to draw", args.out.display());
        return ExitCode::FAILURE;
    }
    let title = match title.as_str() {
        "" => args
            .out
            .file_stem()
            .map_or_else(String::new, |s| s.to_string_lossy().into_owned()),
        _ => title,
    };
    let title = format!("{title} on {}", plot::cpu_name());
    let written = plot::svg(&title, &series)
        .ok_or_else(|| "drawing failed".to_owned())
        .and_then(|svg| std::fs::write(&args.out, svg).map_err(|e| e.to_string()));
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("plot: {}: {e}", args.out.display());
            ExitCode::FAILURE
        }
    }
}
