//! `sowlab compare` and `sowlab sweep`: a simulation run plus a report, built in a scratch
//! directory beside `--out` and moved into place only when complete, so a report directory
//! is never half written. Only a directory sowlab wrote as a report is ever replaced.

use std::path::{Path, PathBuf};

use super::super::args::{BalanceArgs, CompareArgs, RunArgs, SweepArgs};
use super::super::{repeated, run_flags, Closing, Console, Error, Outcome, Wrote};
use super::simulate::{execute, plan, Plan, Source};
use crate::agents::Pairing;
use crate::lang::Setting;
use crate::made;
use crate::outdir::{self, Kind, OutDir, OutDirError};
use crate::report;
use crate::report::error::ReportError;
use crate::report::variants::Carried;
use crate::rules::Rules;
use crate::sim::output::Finish;
use crate::solve;

/// `sowlab compare`.
pub fn compare(args: &CompareArgs, console: &mut Console<'_>) -> Result<Outcome, Error> {
    let (sources, files) = sources(&args.variants, &args.set);
    let plan = plan(&sources, &args.run, true, false)?;
    let command = format!(
        "sowlab compare {files}{} --out {}{}{}",
        run_flags(&args.run),
        made::quote_path(&args.out),
        repeated("--set", &args.set),
        scoring_flag(args.score_unfinished)
    );
    build(
        &plan,
        &args.out,
        args.run.threads,
        console,
        |dir, _, carried| report::compare::write(dir, &command, args.score_unfinished, carried),
    )
}

/// Every variant file with the same `--set` overrides, and the files as a command line gives
/// them.
fn sources(variants: &[PathBuf], set: &[Setting]) -> (Vec<Source>, String) {
    let sources = variants.iter().map(|v| (v.clone(), set.to_vec())).collect();
    let files: Vec<String> = variants.iter().map(|v| made::quote_path(v)).collect();
    (sources, files.join(" "))
}

/// `sowlab sweep`.
pub fn sweep(args: &SweepArgs, console: &mut Console<'_>) -> Result<Outcome, Error> {
    let swept: Vec<String> = args
        .set
        .iter()
        .filter(|axis| axis.values.len() > 1)
        .map(|axis| axis.key.clone())
        .collect();
    if swept.is_empty() {
        return Err(Error::NothingToSweep);
    }
    // The grid, first parameter varying slowest.
    let mut grid: Vec<Vec<String>> = vec![Vec::new()];
    for axis in &args.set {
        grid = grid
            .iter()
            .flat_map(|point| {
                axis.values
                    .iter()
                    .map(move |v| [point.clone(), vec![format!("{}={v}", axis.key)]].concat())
            })
            .collect();
    }
    let sources: Vec<Source> = grid
        .into_iter()
        .map(|point| {
            let settings = point
                .iter()
                .map(|s| s.parse().expect("KEY=VALUE parses"))
                .collect();
            (args.variant.clone(), settings)
        })
        .collect();
    let mut plan = plan(&sources, &args.run, false, true)?;
    let command = format!(
        "sowlab sweep {}{}{} --out {}{}",
        made::quote_path(&args.variant),
        repeated("--set", &args.set),
        run_flags(&args.run),
        made::quote_path(&args.out),
        scoring_flag(args.score_unfinished)
    );
    // A grid has no single `simulate` command; the sweep's own reproduces it.
    plan.info.command = command.clone();
    build(
        &plan,
        &args.out,
        args.run.threads,
        console,
        |dir, _, carried| {
            report::sweep::write(dir, &command, &swept, args.score_unfinished, carried)
        },
    )
}

/// `sowlab balance`: a run of self-play at every rung of the ladder and of every rung against
/// the next (both seatings, as every run plays), then the balance report.
pub fn balance(args: &BalanceArgs, console: &mut Console<'_>) -> Result<Outcome, Error> {
    let rungs = &args.ladder.0;
    let selfplay = rungs.iter().map(|&a| Pairing([a, a]));
    let steps = rungs.windows(2).map(|w| Pairing([w[0], w[1]]));
    let run = RunArgs {
        games: args.games,
        agents: selfplay.chain(steps).collect(),
        seed: args.seed,
        threads: args.threads,
        r#match: false,
        opening: args.opening,
    };
    let (sources, files) = sources(&args.variants, &args.set);
    let mut plan = plan(&sources, &run, true, false)?;
    let command = format!(
        "sowlab balance {files} --ladder {} --games {} --seed {} --opening {} --out {}{}",
        args.ladder,
        args.games,
        args.seed,
        args.opening,
        made::quote_path(&args.out),
        repeated("--set", &args.set)
    ) + scoring_flag(args.score_unfinished);
    plan.info.command = command.clone();
    let ladder: Vec<String> = rungs.iter().map(ToString::to_string).collect();
    // The ground truth beside the estimates, where the board is small enough to solve soon.
    let limits = solve::Limits {
        max_states: Some(1_000_000),
        max_nodes: Some(5_000_000),
        ..solve::Limits::default()
    };
    let exact: Vec<String> = plan
        .experiment
        .variants
        .iter()
        .map(|(_, rules)| match solve::solve(rules, limits) {
            Ok(solution) => format!(
                "{} with perfect play (exact, by `sowlab solve`)",
                solution.value.verdict()
            ),
            Err(e) => format!("not solved: {e}"),
        })
        .collect();
    build(
        &plan,
        &args.out,
        args.threads,
        console,
        |dir, seconds, carried| {
            let setup = report::balance::Setup {
                command: &command,
                ladder: &ladder,
                exact: &exact,
                seconds,
                score_unfinished: args.score_unfinished,
                carried,
            };
            report::balance::write(dir, &setup)
        },
    )
}

/// `--score-unfinished` as the command line that made a report gives it.
fn scoring_flag(score_unfinished: bool) -> &'static str {
    if score_unfinished {
        " --score-unfinished"
    } else {
        ""
    }
}

/// `.NAME.partial` and `.NAME.old` beside `out`: where the new report is built, and where the
/// old one waits while the new one takes its place.
fn beside(out: &Path) -> (PathBuf, PathBuf) {
    let name = out
        .file_name()
        .map_or_else(|| "report".into(), |n| n.to_string_lossy().into_owned());
    let parent = out
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    (
        parent.join(format!(".{name}.partial")),
        parent.join(format!(".{name}.old")),
    )
}

/// Simulates into a scratch directory beside `out`, writes the report there, then swaps it
/// in for `out` ([`publish`]).
fn build(
    plan: &Plan,
    out: &Path,
    threads: Option<usize>,
    console: &mut Console<'_>,
    report: impl FnOnce(&mut OutDir, &[f64], &[Carried]) -> Result<(), ReportError>,
) -> Result<Outcome, Error> {
    let mut rounds = 0;
    let (dir, units) = publish(out, console, |dir, console| {
        let (units, played, seconds) =
            match execute(plan, None, dir, false, threads, console.terminal)? {
                Finish::Complete {
                    units,
                    rounds,
                    seconds,
                } => (units, rounds, seconds),
                Finish::Unchanged { units } => (units, 0, Vec::new()),
                Finish::Interrupted { done } => {
                    return Err(Error::InterruptedReport {
                        done,
                        out: out.to_path_buf(),
                    })
                }
            };
        rounds = played;
        super::warn_few_finished(dir.path(), console)?;
        // A sweep's points are one file under other settings: carried once.
        let compiled: Vec<&Rules> = plan.experiment.variants.iter().map(|(_, r)| r).collect();
        let distinct = if plan
            .info
            .variants
            .iter()
            .all(|v| v.file == plan.info.variants[0].file)
        {
            &compiled[..compiled.len().min(1)]
        } else {
            &compiled[..]
        };
        let carried = report::variants::carry(dir, distinct, &plan.info)?;
        report(dir, &seconds, &carried)?;
        Ok(units)
    })?;
    Ok(Outcome::Wrote(Closing {
        what: Wrote::Files,
        units,
        rounds: plan.info.matches.then_some(rounds),
        dir: dir.path().to_path_buf(),
        files: dir.finish()?,
    }))
}

/// Makes a report in a scratch directory beside `out` with `fill`, then swaps it in for
/// `out`: the old report (only ever a report sowlab wrote) is moved aside first and removed
/// once the new one is in place. Returns the report's directory and what `fill` returned.
pub(super) fn publish<T>(
    out: &Path,
    console: &mut Console<'_>,
    fill: impl FnOnce(&mut OutDir, &mut Console<'_>) -> Result<T, Error>,
) -> Result<(OutDir, T), Error> {
    let out = &super::out_dir(out, console)?;
    outdir::check_replaceable(out)?;
    let (scratch, old) = beside(out);
    // Refused before any work is done.
    outdir::check(out, Kind::Report)?;
    outdir::check(&old, Kind::Report)?;
    // The scratch directory's lock is the report's: a second run to the same `--out` stops
    // here, naming the first.
    let mut dir = OutDir::open(&scratch, Kind::Report).map_err(|e| match e {
        OutDirError::InUse { pid, .. } => OutDirError::InUse {
            dir: out.to_path_buf(),
            pid,
        },
        e => e,
    })?;
    // What a stopped or failed run left there.
    dir.clear()?;
    let made = fill(&mut dir, console)?;
    if old.exists() {
        OutDir::open(&old, Kind::Report)?.remove()?;
    }
    let previous = if out.exists() {
        let mut previous = OutDir::open(out, Kind::Report)?;
        previous.rename(&old)?;
        Some(previous)
    } else {
        None
    };
    dir.rename(out)?;
    if let Some(previous) = previous {
        previous.remove()?;
    }
    Ok((dir, made))
}
