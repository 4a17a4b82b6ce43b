//! `sowlab simulate` and `sowlab merge`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use super::super::args::{MergeArgs, RunArgs, SimulateArgs};
use super::super::{load_rules, progress, repeated, run_flags, Failure};
use crate::agents::AgentSpec;
use crate::rules::Rules;
use crate::sim::output::{self, Finish, RunInfo, VariantInfo};
use crate::sim::runner::Experiment;

/// Validated simulation settings: compiled variants, parsed agents.
pub struct Plan {
    /// The experiment.
    pub experiment: Experiment,
    /// Its description for run.json.
    pub info: RunInfo,
}

/// One variant to simulate: its file and the `--set` overrides applied to it.
pub type Source = (PathBuf, Vec<String>);

/// Builds the experiment from raw arguments (shared with `compare` and `sweep`). With
/// `tagged`, each variant is labelled with its settings (`Hoyito I [holes=9]`), for grids of
/// one file. `info.command` is the `simulate` command that reproduces the files.
///
/// # Errors
/// Bad agents, zero games, unreadable or invalid variants, two variants with one label.
pub fn plan(sources: &[Source], run: &RunArgs, moves: bool, tagged: bool) -> Result<Plan, Failure> {
    if run.games == 0 {
        return Err(Failure::input("--games must be at least 1"));
    }
    let mut pairings = Vec::new();
    for pair in &run.agents {
        let specs: Vec<AgentSpec> = pair
            .split(',')
            .map(|a| {
                a.trim()
                    .parse::<AgentSpec>()
                    .map_err(|e| Failure::input(e.to_string()))
            })
            .collect::<Result<_, _>>()?;
        match specs.as_slice() {
            [a, b] => pairings.push([*a, *b]),
            _ => {
                return Err(Failure::input(format!(
                    "--agents {pair}: give two agents, e.g. `random,alphabeta:4`"
                )))
            }
        }
    }
    let pairing_names: Vec<String> = pairings.iter().map(|[a, b]| format!("{a},{b}")).collect();
    let mut compiled: Vec<(String, Rules)> = Vec::new();
    let mut infos = Vec::new();
    for (file, settings) in sources {
        let rules = load_rules(file, settings)?;
        let label = if tagged {
            format!("{} [{}]", rules.provenance.name, settings.join(" "))
        } else {
            rules.provenance.name.clone()
        };
        if compiled.iter().any(|(l, _)| *l == label) {
            return Err(Failure::input(format!(
                "two variants are named \"{label}\"; give each a distinct `game` name"
            )));
        }
        infos.push(VariantInfo {
            file: file.display().to_string(),
            name: label.clone(),
            rules_hash: rules.hash(),
            settings: settings.clone(),
            readings: rules
                .readings
                .iter()
                .map(|r| format!("R{} {}", r.number, r.rule))
                .collect(),
        });
        compiled.push((label, rules));
    }
    let files: Vec<String> = sources
        .iter()
        .map(|(f, _)| f.display().to_string())
        .collect();
    let settings = sources.first().map_or(&[][..], |(_, s)| s.as_slice());
    let command = format!(
        "sowlab simulate {}{}{}{}",
        files.join(" "),
        run_flags(run.games, &pairing_names, run.seed),
        if moves { " --moves" } else { "" },
        repeated("--set", settings)
    );
    let info = RunInfo {
        tool: "sowlab".into(),
        version: env!("CARGO_PKG_VERSION").into(),
        command,
        variants: infos,
        agents: pairing_names,
        games: run.games,
        seed: run.seed,
        moves,
        shard: None,
    };
    let experiment = Experiment {
        variants: compiled,
        pairings,
        games: run.games,
        seed: run.seed,
        record_moves: moves,
    };
    Ok(Plan { experiment, info })
}

/// Runs a plan into `out` on `threads` threads, with a progress bar and Ctrl-C handling.
///
/// # Errors
/// Output errors; an interrupted run is reported as a failure with exit code 130.
pub fn execute(
    plan: &Plan,
    shard: Option<(u64, u64)>,
    out: &Path,
    resume: bool,
    threads: Option<usize>,
) -> Result<(), Failure> {
    let mut info = plan.info.clone();
    let units = match shard {
        Some((k, m)) => {
            info.shard = Some(format!("{k}/{m}"));
            plan.experiment.shard(k, m)
        }
        None => 0..plan.experiment.units(),
    };
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    // A second handler cannot be installed (e.g. in tests running several commands): then
    // Ctrl-C simply kills the process, which a resume also survives.
    let _ = ctrlc::set_handler(move || flag.store(true, Ordering::Relaxed));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .build()
        .map_err(|e| Failure::input(format!("cannot start worker threads: {e}")))?;
    let bar = progress::bar(units.end - units.start, "simulate");
    let finish = pool.install(|| {
        output::run(
            &plan.experiment,
            &info,
            units,
            out,
            resume,
            &stop,
            |done, total| {
                bar.set_length(total);
                bar.set_position(done);
            },
        )
    });
    bar.finish_and_clear();
    match finish.map_err(|e| Failure::input(e.to_string()))? {
        Finish::Complete => Ok(()),
        Finish::Interrupted { done } => Err(Failure {
            message: format!("interrupted after {done} games; `--resume` with the same arguments finishes the run"),
            code: 130,
        }),
    }
}

/// `sowlab simulate`.
pub fn run(args: &SimulateArgs) -> Result<ExitCode, Failure> {
    let shard = args.shard.as_deref().map(parse_shard).transpose()?;
    if args.run.threads == Some(0) {
        return Err(Failure::input("--threads must be at least 1"));
    }
    let sources: Vec<Source> = args
        .variants
        .iter()
        .map(|v| (v.clone(), args.set.clone()))
        .collect();
    let plan = plan(&sources, &args.run, args.moves, false)?;
    execute(&plan, shard, &args.out, args.resume, args.run.threads)?;
    Ok(ExitCode::SUCCESS)
}

fn parse_shard(s: &str) -> Result<(u64, u64), Failure> {
    let bad = || {
        Failure::input(format!(
            "--shard {s}: expected K/M with 1 <= K <= M, e.g. 2/8"
        ))
    };
    let (k, m) = s.split_once('/').ok_or_else(bad)?;
    let (k, m): (u64, u64) = (k.parse().map_err(|_| bad())?, m.parse().map_err(|_| bad())?);
    if k == 0 || k > m {
        return Err(bad());
    }
    Ok((k, m))
}

/// `sowlab merge`.
pub fn merge(args: &MergeArgs) -> Result<ExitCode, Failure> {
    output::merge(&args.shards, &args.out).map_err(|e| Failure::input(e.to_string()))?;
    Ok(ExitCode::SUCCESS)
}
