//! `sowlab compare` and `sowlab sweep`: a simulation run plus a report, built in a scratch
//! directory and moved into place only when complete, so a report directory is never half
//! written.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::super::args::{CompareArgs, SweepArgs};
use super::super::{repeated, run_flags, Failure};
use super::simulate::{execute, plan, Plan, Source};
use crate::report;

/// `sowlab compare`.
pub fn compare(args: &CompareArgs) -> Result<ExitCode, Failure> {
    let sources: Vec<Source> = args
        .variants
        .iter()
        .map(|v| (v.clone(), args.set.clone()))
        .collect();
    let plan = plan(&sources, &args.run, true, false)?;
    let files: Vec<String> = args
        .variants
        .iter()
        .map(|v| v.display().to_string())
        .collect();
    let command = format!(
        "sowlab compare {}{} --out {}{}",
        files.join(" "),
        run_flags(args.run.games, &args.run.agents, args.run.seed),
        args.out.display(),
        repeated("--set", &args.set)
    );
    build(&plan, &args.out, args.run.threads, |dir| {
        report::compare::write(dir, &command)
    })
}

/// `sowlab sweep`.
pub fn sweep(args: &SweepArgs) -> Result<ExitCode, Failure> {
    let mut axes: Vec<(String, Vec<String>)> = Vec::new();
    for s in &args.set {
        let (key, range) = s.split_once('=').ok_or_else(|| {
            Failure::input(format!("--set {s}: expected KEY=RANGE, e.g. holes=6..12"))
        })?;
        axes.push((
            key.trim().to_string(),
            values(range).map_err(|e| Failure::input(format!("--set {s}: {e}")))?,
        ));
    }
    let swept: Vec<String> = axes
        .iter()
        .filter(|(_, v)| v.len() > 1)
        .map(|(k, _)| k.clone())
        .collect();
    if swept.is_empty() {
        return Err(Failure::input(
            "give at least one range to sweep, e.g. --set holes=6..12",
        ));
    }
    // The grid, first parameter varying slowest.
    let mut grid: Vec<Vec<String>> = vec![Vec::new()];
    for (key, values) in &axes {
        grid = grid
            .iter()
            .flat_map(|point| {
                values
                    .iter()
                    .map(move |v| [point.clone(), vec![format!("{key}={v}")]].concat())
            })
            .collect();
    }
    let sources: Vec<Source> = grid
        .into_iter()
        .map(|point| (args.variant.clone(), point))
        .collect();
    let mut plan = plan(&sources, &args.run, false, true)?;
    let command = format!(
        "sowlab sweep {}{}{} --out {}",
        args.variant.display(),
        repeated("--set", &args.set),
        run_flags(args.run.games, &args.run.agents, args.run.seed),
        args.out.display()
    );
    // A grid has no single `simulate` command; the sweep's own reproduces it.
    plan.info.command = command.clone();
    build(&plan, &args.out, args.run.threads, |dir| {
        report::sweep::write(dir, &command, &swept)
    })
}

/// `6..12` (inclusive), `3,4,6` or a single value.
fn values(range: &str) -> Result<Vec<String>, String> {
    if let Some((a, b)) = range.split_once("..") {
        let (a, b): (u32, u32) = (
            a.trim().parse().map_err(|_| "bad range start")?,
            b.trim().parse().map_err(|_| "bad range end")?,
        );
        if a > b || b - a > 100 {
            return Err("a range must go up, by at most 100 steps".into());
        }
        return Ok((a..=b).map(|v| v.to_string()).collect());
    }
    Ok(range
        .split(',')
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty())
        .collect())
}

/// Simulates into a scratch directory beside `out`, writes the report there, then swaps it
/// in for `out` (which may hold only an earlier report).
fn build(
    plan: &Plan,
    out: &Path,
    threads: Option<usize>,
    report: impl FnOnce(&Path) -> Result<(), String>,
) -> Result<ExitCode, Failure> {
    if threads == Some(0) {
        return Err(Failure::input("--threads must be at least 1"));
    }
    if out.exists() && !is_report(out) {
        return Err(Failure::input(format!(
            "`{}` exists and is not a sowlab report; choose another --out",
            out.display()
        )));
    }
    let name = out
        .file_name()
        .map_or_else(|| "report".into(), |n| n.to_string_lossy().into_owned());
    let parent = out
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    let scratch = parent.join(format!(".{name}.partial"));
    let old = parent.join(format!(".{name}.old"));
    for dir in [&scratch, &old] {
        if dir.exists() {
            std::fs::remove_dir_all(dir)
                .map_err(|e| Failure::input(format!("{}: {e}", dir.display())))?;
        }
    }
    execute(plan, None, &scratch, false, threads)?;
    report(&scratch).map_err(Failure::input)?;
    let io = |e: std::io::Error| Failure::input(format!("{}: {e}", out.display()));
    if out.exists() {
        std::fs::rename(out, &old).map_err(io)?;
    }
    std::fs::rename(&scratch, out).map_err(io)?;
    if old.exists() {
        std::fs::remove_dir_all(&old).map_err(io)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Whether `dir` holds a report sowlab wrote (or nothing at all).
fn is_report(dir: &Path) -> bool {
    dir.is_dir()
        && (dir.join("run.json").exists()
            || std::fs::read_dir(dir).map_or(false, |mut d| d.next().is_none()))
}
