//! The driver: each part and each positive control in a valgrind run of
//! its own, judged by its exit status and memcheck's log.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Instant;

use crate::controls::{self, Control};
use crate::memcheck::{self, Report};

/// Crates whose findings `part x25519` reports without failing.
const NOT_GATED: &[&str] = &["x25519_dalek", "curve25519_dalek"];

/// A child run under valgrind.
struct Run {
    /// valgrind's exit status (1 when memcheck reported errors).
    status: Option<i32>,
    /// What the child printed.
    stdout: String,
    /// What the child printed on stderr (valgrind's own log is in `log`).
    stderr: String,
    /// Memcheck's errors.
    reports: Vec<Report>,
    /// Memcheck's error count.
    errors: Option<usize>,
    /// Seconds it took.
    seconds: f64,
    /// Its log file.
    log: PathBuf,
}

impl Run {
    /// Its exit status, error count, time and log, in one line.
    fn outcome(&self) -> String {
        format!(
            "exit status {:?}, {} memcheck error(s), {:.1} s ({})",
            self.status,
            self.errors
                .map_or("no count of".to_owned(), |n| n.to_string()),
            self.seconds,
            self.log.display()
        )
    }
}

/// Runs `args` of this program under memcheck, its log in `logs`.
fn child(valgrind: &str, logs: &Path, name: &str, args: &[&str]) -> Result<Run, String> {
    let exe = std::env::current_exe().map_err(|e| format!("this program's path: {e}"))?;
    let log = logs.join(format!("{name}.log"));
    let start = Instant::now();
    let output = Command::new(valgrind)
        .args([
            "--tool=memcheck",
            "--error-exitcode=1",
            // Past 1,000 distinct errors or 10,000,000 in all, memcheck
            // stops reporting and counting (valgrind manual §2.6.4,
            // --error-limit): the variable-time part would go blind.
            "--error-limit=no",
            "--leak-check=no",
            "--num-callers=40",
        ])
        .arg(format!("--log-file={}", log.display()))
        .arg(&exe)
        .args(args)
        .output()
        .map_err(|e| format!("cannot run {valgrind}: {e}"))?;
    let seconds = start.elapsed().as_secs_f64();
    let text = std::fs::read_to_string(&log).map_err(|e| format!("{}: {e}", log.display()))?;
    let (reports, errors) = memcheck::read(&text);
    Ok(Run {
        status: output.status.code(),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        reports,
        errors,
        seconds,
        log,
    })
}

/// Prints `text` indented.
fn indented(text: &str) {
    for line in text.lines() {
        println!("    {line}");
    }
}

/// Prints a report: its message and its first frames.
fn show(report: &Report, frames: usize) {
    println!("      {}", report.message);
    for frame in report.frames.iter().take(frames) {
        println!("        {frame}");
    }
}

/// Runs and judges everything: the exit status of the whole check.
pub fn main() -> ExitCode {
    if simdcrypt::ct::running_on_valgrind() {
        eprintln!("ctgrind: the driver runs valgrind itself; run it outside valgrind");
        return ExitCode::from(2);
    }
    let valgrind = std::env::var("CTGRIND_VALGRIND").unwrap_or_else(|_| "valgrind".to_owned());
    let version = match Command::new(&valgrind).arg("--version").output() {
        Ok(out) if out.status.success() => String::from_utf8_lossy(&out.stdout).trim().to_owned(),
        _ => {
            eprintln!(
                "ctgrind: cannot run {valgrind:?} (install valgrind, or set CTGRIND_VALGRIND)"
            );
            return ExitCode::from(2);
        }
    };
    let logs = match std::env::var_os("CTGRIND_LOGS") {
        Some(dir) => PathBuf::from(dir),
        None => std::env::temp_dir().join(format!("ctgrind-{}", std::process::id())),
    };
    if let Err(e) = std::fs::create_dir_all(&logs) {
        eprintln!("ctgrind: {}: {e}", logs.display());
        return ExitCode::from(2);
    }
    println!("ctgrind: {version}, memcheck's logs in {}", logs.display());
    let start = Instant::now();
    let mut failures = Vec::new();

    println!("\n== positive controls: each must be flagged");
    let mut caught = 0;
    for control in controls::ALL {
        match judge_control(&valgrind, &logs, control) {
            Ok(()) => caught += 1,
            Err(why) => failures.push(format!("control {}: {why}", control.name)),
        }
    }
    let mut summary = vec![format!(
        "positive controls flagged: {caught} of {}",
        controls::ALL.len()
    )];

    println!("\n== part variable-time: every variable-time rung, each must be flagged");
    match child(
        &valgrind,
        &logs,
        "variable-time",
        &["part", "variable-time"],
    ) {
        Err(why) => failures.push(why),
        Ok(run) => {
            indented(&run.stdout);
            indented(&run.stderr);
            println!("  {}", run.outcome());
            let done = run
                .stdout
                .lines()
                .any(|l| l.starts_with(crate::checks::VARIABLE_TIME_DONE));
            let rungs = run
                .stdout
                .lines()
                .filter(|l| l.contains(" pieces flagged ("))
                .count();
            let flagged = run
                .stdout
                .lines()
                .filter(|l| l.contains(" pieces flagged (") && !l.contains(": 0 of "))
                .count();
            summary.push(format!("variable-time rungs flagged: {flagged} of {rungs}"));
            if run.status != Some(1) || !done {
                failures.push(format!(
                    "part variable-time: exit status {:?}, and not every variable-time rung flagged",
                    run.status
                ));
            }
        }
    }

    println!("\n== part check: every constant-time rung, no error allowed");
    match child(&valgrind, &logs, "check", &["part", "check"]) {
        Err(why) => failures.push(why),
        Ok(run) => {
            indented(&run.stdout);
            indented(&run.stderr);
            for report in &run.reports {
                show(report, 12);
            }
            println!("  {}", run.outcome());
            if let Some(line) = run
                .stdout
                .lines()
                .find(|l| l.starts_with(crate::checks::CHECK_SUMMARY))
            {
                summary.push(line.trim_start_matches("ctgrind: ").to_owned());
            }
            if run.status != Some(0) || run.errors != Some(0) {
                failures.push(format!(
                    "part check: exit status {:?}, {:?} memcheck error(s)",
                    run.status, run.errors
                ));
            }
        }
    }

    println!("\n== part x25519: x25519-dalek reported, not gated; our code gated");
    match child(&valgrind, &logs, "x25519", &["part", "x25519"]) {
        Err(why) => failures.push(why),
        Ok(run) => {
            indented(&run.stdout);
            indented(&run.stderr);
            let (theirs, ours): (Vec<_>, Vec<_>) = run
                .reports
                .iter()
                .partition(|r| NOT_GATED.contains(&r.owner()));
            println!(
                "  {} error(s) in x25519-dalek/curve25519-dalek (reported), {} in our code, {:.1} s ({})",
                theirs.len(),
                ours.len(),
                run.seconds,
                run.log.display()
            );
            for report in &theirs {
                println!("    in {}:", report.owner());
                show(report, 4);
            }
            for report in &ours {
                println!("    in {} (ours):", report.owner());
                show(report, 12);
            }
            summary.push(format!(
                "x25519 (reported, not gated): {} finding(s) in x25519-dalek, {} in our code",
                theirs.len(),
                ours.len()
            ));
            if !ours.is_empty() {
                failures.push(format!(
                    "part x25519: {} memcheck error(s) in our code",
                    ours.len()
                ));
            }
            if !matches!(run.status, Some(0 | 1)) {
                failures.push(format!("part x25519: exit status {:?}", run.status));
            }
        }
    }

    println!("\n== summary");
    for line in &summary {
        println!("ctgrind: {line}");
    }
    println!("ctgrind: {:.1} s in all", start.elapsed().as_secs_f64());
    if failures.is_empty() {
        println!("ctgrind: passed (every control flagged, the check clean)");
        ExitCode::SUCCESS
    } else {
        for failure in &failures {
            println!("ctgrind: FAILED: {failure}");
        }
        ExitCode::FAILURE
    }
}

/// Runs one control: `Ok` when memcheck flagged it as it must.
fn judge_control(valgrind: &str, logs: &Path, control: &Control) -> Result<(), String> {
    let run = child(
        valgrind,
        logs,
        &format!("control-{}", control.name),
        &["control", control.name],
    )?;
    let hits: Vec<&Report> = run
        .reports
        .iter()
        .filter(|r| r.message.starts_with(control.flag.message()) && r.has_frame(control.frame))
        .collect();
    let flagged = run.status == Some(1) && !hits.is_empty();
    println!(
        "  {:<16} {}: {} — exit status {:?}, {} memcheck error(s), {} of them \"{}…\" in {}, {:.1} s",
        control.name,
        control.what,
        if flagged {
            "FLAGGED, as it must be"
        } else {
            "NOT FLAGGED"
        },
        run.status,
        run.errors.unwrap_or(0),
        hits.len(),
        control.flag.message(),
        control.frame.trim_end_matches("::"),
        run.seconds,
    );
    if let Some(first) = hits.first() {
        show(first, 4);
    }
    if flagged {
        Ok(())
    } else {
        indented(&run.stdout);
        indented(&run.stderr);
        Err(format!(
            "not flagged as {:?} in {} (log: {})",
            control.flag,
            control.frame,
            run.log.display()
        ))
    }
}
