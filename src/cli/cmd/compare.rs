//! `sowlab compare` and `sowlab sweep`: a simulation run plus a report, built in a scratch
//! directory beside `--out` and moved into place only when complete, so a report directory
//! is never half written. Only a directory sowlab wrote as a report is ever replaced.

use std::path::{Path, PathBuf};

use super::super::args::{BalanceArgs, CompareArgs, ReadingsArgs, RunArgs, SweepArgs};
use super::super::{load_rules, repeated, run_flags, Closing, Console, Error, Outcome, Wrote};
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
    let exact: Vec<String> = plan
        .experiment
        .variants
        .iter()
        .map(|(_, rules)| match solve::solve(rules, quick_solve()) {
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

/// `sowlab readings`: every combination of the file's alternative readings (or a sample of
/// them), played on the same seeds, solved on a small board, then the readings report.
pub fn readings(args: &ReadingsArgs, console: &mut Console<'_>) -> Result<Outcome, Error> {
    let run = args.run();
    let rules = load_rules(&args.variant, &args.set)?;
    let (design, settings) = design(&rules, args)?;
    let sources: Vec<Source> = settings
        .iter()
        .map(|s| {
            let mut all = args.set.clone();
            all.extend(s.iter().cloned());
            (args.variant.clone(), all)
        })
        .collect();
    let mut plan = plan(&sources, &run, false, true)?;
    let only = if args.only.is_empty() {
        String::new()
    } else {
        let ids: Vec<String> = args.only.iter().map(|n| format!("R{n}")).collect();
        format!(" --only {}", ids.join(","))
    };
    let exact_flag = if args.no_exact {
        " --no-exact".to_string()
    } else {
        format!(" --exact {},{}", args.exact.0, args.exact.1)
    };
    let command = format!(
        "sowlab readings {}{only} --most {}{}{exact_flag}{} --out {}",
        made::quote_path(&args.variant),
        args.most,
        repeated("--set", &args.set),
        run_flags(&run),
        made::quote_path(&args.out),
    );
    plan.info.command = command.clone();
    let exact = if args.no_exact {
        Vec::new()
    } else {
        exact_values(&sources, args.exact)?
    };
    let name = rules.provenance.name.clone();
    build(
        &plan,
        &args.out,
        args.threads,
        console,
        |dir, _, carried| {
            let setup = report::readings::Setup {
                command: &command,
                name: &name,
                design: &design,
                exact: &exact,
                carried,
            };
            report::readings::write(dir, &setup)
        },
    )
}

/// The readings to vary (their levels: the file's own, then its alternatives) and the
/// combinations to play, with the `--set R<n>=NAME` settings of each.
fn design(
    rules: &Rules,
    args: &ReadingsArgs,
) -> Result<(report::readings::Design, Vec<Vec<Setting>>), Error> {
    use report::readings::{Design, Factor, Level};
    let mut factors: Vec<Factor> = Vec::new();
    let mut notes = Vec::new();
    for a in &rules.alternatives {
        if !args.only.is_empty() && !args.only.contains(&a.reading) {
            continue;
        }
        // Single games never reach the match rules: an alternative of those alone changes
        // nothing here.
        if a.match_only() {
            notes.push(format!(
                "R{} \"{}\" changes only match rules, and single games are played: left out.",
                a.reading, a.name
            ));
            continue;
        }
        let changes = a
            .changes
            .iter()
            .map(|d| {
                format!(
                    "{}: {}",
                    d.topic,
                    d.b.as_deref().unwrap_or("(no such rule)")
                )
            })
            .collect();
        let level = Level {
            name: a.name.clone(),
            changes,
        };
        match factors.iter_mut().find(|f| f.reading == a.reading) {
            Some(f) => f.levels.push(level),
            None => factors.push(Factor {
                reading: a.reading,
                text: rules.reading_text(a.reading).to_string(),
                levels: vec![
                    Level {
                        name: "default".into(),
                        changes: Vec::new(),
                    },
                    level,
                ],
            }),
        }
    }
    if let Some(&n) = args
        .only
        .iter()
        .find(|&&n| !factors.iter().any(|f| f.reading == n))
    {
        return Err(Error::NoAlternatives(format!(
            "{} offers no alternative for R{n} that single games can tell apart",
            args.variant.display()
        )));
    }
    if factors.is_empty() {
        return Err(Error::NoAlternatives(format!(
            "{} offers no alternative readings; write them as `alternative R<n> \"name\" {{ ... }}` blocks (docs/language.md)",
            args.variant.display()
        )));
    }
    factors.sort_by_key(|f| f.reading);
    // Every combination, the first factor varying slowest.
    let mut all: Vec<Vec<usize>> = vec![Vec::new()];
    for f in &factors {
        all = all
            .iter()
            .flat_map(|c| (0..f.levels.len()).map(move |l| [c.clone(), vec![l]].concat()))
            .collect();
    }
    let count = all.len();
    let most = usize::from(args.most);
    let combinations = if count <= most {
        all
    } else {
        sample(all, most, args.seed)
    };
    let settings = combinations
        .iter()
        .map(|c| {
            factors
                .iter()
                .zip(c)
                .map(|(f, &l)| {
                    format!("R{}={}", f.reading, f.levels[l].name)
                        .parse()
                        .expect("KEY=VALUE parses")
                })
                .collect()
        })
        .collect();
    let design = Design {
        factors,
        combinations,
        all: count,
        notes,
    };
    Ok((design, settings))
}

/// `most` of `all` combinations: the file's own readings, each alternative alone, then others
/// drawn at random from `seed`, in the order of `all`.
fn sample(all: Vec<Vec<usize>>, most: usize, seed: u64) -> Vec<Vec<usize>> {
    use rand::seq::SliceRandom;
    use rand::SeedableRng;
    let (mut keep, mut rest): (Vec<_>, Vec<_>) = all
        .into_iter()
        .enumerate()
        .partition(|(_, c)| c.iter().filter(|&&l| l > 0).count() <= 1);
    rest.shuffle(&mut rand_chacha::ChaCha8Rng::seed_from_u64(seed));
    let room = most.saturating_sub(keep.len());
    keep.extend(rest.into_iter().take(room));
    keep.sort_by_key(|(i, _)| *i);
    keep.into_iter().map(|(_, c)| c).collect()
}

/// The budget of the exact values a report shows beside its estimates: small enough boards
/// are solved in about a second, larger ones are said to be beyond it.
fn quick_solve() -> solve::Limits {
    solve::Limits {
        max_states: Some(1_000_000),
        max_nodes: Some(5_000_000),
        ..solve::Limits::default()
    }
}

/// Each combination's exact value on a `holes`×`seeds` board, within [`quick_solve`]'s budget.
fn exact_values(
    sources: &[Source],
    (holes, seeds): (u16, u16),
) -> Result<Vec<report::readings::Exact>, Error> {
    let limits = solve::Limits {
        // Single games are what the run plays.
        single_game: true,
        ..quick_solve()
    };
    let board = format!("{holes}×{seeds}");
    sources
        .iter()
        .map(|(file, settings)| {
            let mut settings = settings.clone();
            for s in [format!("holes={holes}"), format!("seeds={seeds}")] {
                settings.push(s.parse().expect("KEY=VALUE parses"));
            }
            let value = match load_rules(file, &settings) {
                Ok(rules) => match solve::solve(&rules, limits) {
                    Ok(solution) if solution.moves.is_empty() => {
                        Err("the game is over before its first move".to_string())
                    }
                    Ok(solution) => Ok(i64::from(
                        solution.value.margin_to(rules.program.board.starter),
                    )),
                    Err(e) => Err(e.to_string()),
                },
                Err(Error::Compile(e)) => Err(format!("no such board: {}", e.0[0].kind)),
                Err(e) => return Err(e),
            };
            Ok(report::readings::Exact {
                board: board.clone(),
                value,
            })
        })
        .collect()
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
