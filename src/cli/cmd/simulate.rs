//! `sowlab simulate` and `sowlab merge`.

use std::fs;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Once;

use super::super::args::{MergeArgs, RunArgs, SimulateArgs};
use super::super::{
    load_rules, progress, repeated, run_flags, Closing, Console, Error, Outcome, Wrote,
};
use crate::engine::Match;
use crate::lang::Setting;
use crate::made;
use crate::outdir::{Kind, OutDir};
use crate::rules::Rules;
use crate::sim::merge::{shard_flag, Shards};
use crate::sim::output::{self, Finish, Job, ReadingInfo, RunInfo, VariantInfo};
use crate::sim::record::{Hex64, Name};
use crate::sim::runner::{units, Entrant, Experiment, Shard};

/// Validated simulation settings: compiled variants, parsed agents.
pub struct Plan {
    /// The experiment.
    pub experiment: Experiment,
    /// Its description for run.json.
    pub info: RunInfo,
}

/// One variant to simulate: its file and the `--set` overrides applied to it.
pub type Source = (PathBuf, Vec<Setting>);

/// Builds the experiment from raw arguments (shared with `compare` and `sweep`). With
/// `tagged`, each variant is labelled with its settings (`Hoyito I [holes=9]`), for grids of
/// one file. `info.command` is the `simulate` command that reproduces the files.
///
/// # Errors
/// Unreadable or invalid variants, two variants with one label.
pub fn plan(sources: &[Source], run: &RunArgs, moves: bool, tagged: bool) -> Result<Plan, Error> {
    let pairings = &run.agents;
    let twice = (1..pairings.len()).find(|&i| pairings[..i].contains(&pairings[i]));
    if let Some(i) = twice {
        return Err(Error::SamePairing(pairings[i].to_string()));
    }
    let mut compiled: Vec<(Name, Rules)> = Vec::new();
    let mut infos = Vec::new();
    for (file, settings) in sources {
        let rules = load_rules(file, settings)?;
        let agents = pairings.iter().flat_map(|p| p.0);
        super::perfect_fits(&rules, agents)?;
        if run.r#match {
            if let Err(e) = Match::new(&rules) {
                return Err(Error::NoMatch(file.clone(), e));
            }
        }
        let label = if tagged {
            let written: Vec<String> = settings.iter().map(ToString::to_string).collect();
            format!("{} [{}]", rules.provenance.name, written.join(" "))
        } else {
            rules.provenance.name.clone()
        };
        if compiled.iter().any(|(l, _)| **l == *label) {
            return Err(Error::SameName(label));
        }
        infos.push(VariantInfo {
            file: file.display().to_string(),
            name: label.clone(),
            rules_hash: Hex64(rules.content_hash()),
            settings: settings.clone(),
            readings: ReadingInfo::of(&rules),
        });
        compiled.push((label.into(), rules));
    }
    if units(compiled.len(), pairings.len(), run.games).is_none() {
        return Err(Error::TooManyGames {
            games: run.games,
            variants: compiled.len(),
            pairings: pairings.len(),
        });
    }
    let files: Vec<String> = sources.iter().map(|(f, _)| made::quote_path(f)).collect();
    let settings = sources.first().map_or(&[][..], |(_, s)| s.as_slice());
    let command = format!(
        "sowlab simulate {}{}{}{}",
        files.join(" "),
        run_flags(run),
        if moves { " --moves" } else { "" },
        repeated("--set", settings)
    );
    let info = RunInfo {
        tool: "sowlab".into(),
        version: made::VERSION.into(),
        commit: made::COMMIT.into(),
        command,
        variants: infos,
        agents: pairings.clone(),
        games: run.games,
        seed: run.seed,
        moves,
        matches: run.r#match,
        opening: run.opening,
        shard: None,
    };
    let experiment = Experiment {
        variants: compiled,
        pairings: run.agents.iter().map(|p| p.0.map(Entrant::from)).collect(),
        games: run.games,
        seed: run.seed,
        record_moves: moves,
        matches: run.r#match,
        opening: run.opening,
    };
    Ok(Plan { experiment, info })
}

/// Set by Ctrl-C. One handler serves every run of the process (a handler can be installed
/// only once); each run clears the flag when it starts.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

fn interrupt_flag() -> &'static AtomicBool {
    static HANDLER: Once = Once::new();
    HANDLER.call_once(|| {
        // Without a handler (another library installed one), Ctrl-C kills the process,
        // which a resume also survives.
        let _ = ctrlc::set_handler(|| INTERRUPTED.store(true, Ordering::Relaxed));
    });
    INTERRUPTED.store(false, Ordering::Relaxed);
    &INTERRUPTED
}

/// Runs a plan (or one shard of it) into `dir` on `threads` threads, with a progress bar on a
/// `terminal` and Ctrl-C handling.
///
/// # Errors
/// Output errors.
pub fn execute(
    plan: &Plan,
    shard: Option<Shard>,
    dir: &mut OutDir,
    resume: bool,
    threads: Option<usize>,
    terminal: bool,
) -> Result<Finish, Error> {
    let mut info = plan.info.clone();
    let total = plan.experiment.units();
    let units = match shard {
        Some(shard) => {
            info.shard = Some(shard);
            info.command.push_str(&shard_flag(shard));
            shard.units(total)
        }
        None => 0..total,
    };
    let stop = interrupt_flag();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .build()?;
    let bar = progress::bar(units.end - units.start, "simulate", terminal);
    let job = Job {
        experiment: &plan.experiment,
        info: &info,
        units,
        date: made::today(),
        checkpoint_every: output::CHECKPOINT_EVERY,
    };
    let finish = pool.install(|| {
        output::run(&job, dir, resume, stop, |done, total| {
            bar.set_length(total);
            bar.set_position(done);
        })
    });
    bar.finish_and_clear();
    Ok(finish?)
}

/// `sowlab simulate`.
pub fn run(args: &SimulateArgs, console: &mut Console<'_>) -> Result<Outcome, Error> {
    let sources: Vec<Source> = args
        .variants
        .iter()
        .map(|v| (v.clone(), args.set.clone()))
        .collect();
    let plan = plan(&sources, &args.run, args.moves, false)?;
    let out = super::out_dir(&args.out, console)?;
    let mut dir = OutDir::open(&out, Kind::Run)?;
    let finish = execute(
        &plan,
        args.shard,
        &mut dir,
        args.resume,
        args.run.threads,
        console.terminal,
    )?;
    let files = dir.finish()?;
    let (what, units, rounds) = match finish {
        Finish::Complete { units, rounds, .. } => {
            super::warn_few_finished(&out, console)?;
            (Wrote::Files, units, rounds)
        }
        Finish::Unchanged { units } => (Wrote::Nothing, units, 0),
        Finish::Interrupted { done } => return Err(Error::Interrupted { done }),
    };
    Ok(Outcome::Wrote(Closing {
        what,
        units,
        rounds: args.run.r#match.then_some(rounds),
        dir: out,
        files,
    }))
}

/// `sowlab merge`.
pub fn merge(args: &MergeArgs, console: &mut Console<'_>) -> Result<Outcome, Error> {
    // The shards are checked before `--out` is created.
    let shards = Shards::read(&args.shards)?;
    let out = super::out_dir(&args.out, console)?;
    let created = fs::symlink_metadata(&out).is_err();
    let mut dir = OutDir::open(&out, Kind::Run)?;
    let merged = match shards.merge_into(&mut dir, &made::today()) {
        Ok(merged) => {
            super::warn_few_finished(&out, console)?;
            merged
        }
        Err(e) => {
            // A directory made for a merge that failed goes with it.
            if created {
                let _ = dir.remove();
            }
            return Err(e.into());
        }
    };
    Ok(Outcome::Wrote(Closing {
        what: Wrote::Merged(merged.shards),
        units: merged.units,
        rounds: merged.rounds,
        dir: out,
        files: dir.finish()?,
    }))
}
