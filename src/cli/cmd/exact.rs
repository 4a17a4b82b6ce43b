//! `sowlab exact VARIANT... --out DIR [--holes A..B] [--seeds A..B] [--max-nodes N]`: the exact
//! value of each variant on a grid of small boards, as a report.

use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use super::super::args::ExactArgs;
use super::super::closing::{Closing, Wrote};
use super::super::{load_rules, Console, Error, Outcome};
use std::path::Path;

use crate::lang::Setting;
use crate::made;
use crate::report::exact::{self, Walked};
use crate::rules::Rules;
use crate::solve::grid::{self, Found, Grid};

/// Solves the grid for every variant, then writes the report in place of `--out`.
pub fn run(args: &ExactArgs, console: &mut Console<'_>) -> Result<Outcome, Error> {
    let files = super::variant_files(&args.variants, console)?;
    let mut units = Vec::new();
    for file in &files {
        let rules = load_rules(file, &[])?;
        let alternatives = play_alternatives(&rules, file);
        units.push(Unit {
            file,
            rules,
            alternative: None,
            setting: None,
        });
        for (reading, name) in alternatives {
            let setting = format!("R{reading}={name}");
            let set = [setting.parse::<Setting>().expect("a reading's name parses")];
            units.push(Unit {
                file,
                rules: load_rules(file, &set)?,
                alternative: Some((reading, name)),
                setting: Some(setting),
            });
        }
    }
    let grid = Grid {
        holes: args.holes.clone(),
        seeds: args.seeds.clone(),
        max_nodes: args.max_nodes,
        memory: args.memory,
        single_game: args.single_game,
    };
    let paths: Vec<String> = args.variants.iter().map(|p| made::quote_path(p)).collect();
    let command = format!(
        "sowlab exact {} --holes {}..{} --seeds {}..{} --max-nodes {} --memory {}{} --out {}",
        paths.join(" "),
        grid.holes.start(),
        grid.holes.end(),
        grid.seeds.start(),
        grid.seeds.end(),
        grid.max_nodes,
        size(grid.memory),
        if grid.single_game {
            " --single-game"
        } else {
            ""
        },
        made::quote_path(&args.out)
    );
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or_else(super::super::values::cores))
        .build()?;
    let spinner = super::super::progress::spinner("solving", console.terminal);
    let done = AtomicU64::new(0);
    let variants: Vec<Walked> = pool.install(|| {
        units
            .par_iter()
            .map(|unit| {
                let board = |holes: u32, seeds: u32| {
                    let set: Vec<Setting> = [format!("holes={holes}"), format!("seeds={seeds}")]
                        .into_iter()
                        .chain(unit.setting.clone())
                        .map(|s| s.parse::<Setting>().expect("a setting in range"))
                        .collect();
                    load_rules(unit.file, &set).map_err(|e| e.to_string())
                };
                let points = grid::walk(board, &grid);
                let solved = points
                    .iter()
                    .filter(|p| matches!(p.found, Found::Solved(_)))
                    .count() as u64;
                let total = done.fetch_add(solved, Ordering::Relaxed) + solved;
                spinner.set_message(format!("{total} boards solved"));
                let rules = &unit.rules;
                let name = &rules.provenance.name;
                Walked {
                    name: match &unit.alternative {
                        Some((n, alternative)) => format!("{name} (R{n}: {alternative})"),
                        None => name.clone(),
                    },
                    file: unit.file.display().to_string(),
                    alternative: unit.setting.clone(),
                    rules_hash: rules.hash(),
                    readings: rules.reading_numbers(),
                    starter: rules.program.board.starter,
                    points,
                }
            })
            .collect()
    });
    spinner.finish_and_clear();
    let setup = exact::Setup {
        command: &command,
        grid: &grid,
        variants: &variants,
    };
    let (dir, ()) =
        super::compare::publish(&args.out, console, |dir, _| Ok(exact::write(dir, &setup)?))?;
    Ok(Outcome::Wrote(Closing {
        what: Wrote::Boards,
        units: done.into_inner(),
        rounds: None,
        dir: dir.path().to_path_buf(),
        files: dir.finish()?,
    }))
}

/// A row of the report: a file under its own readings, or with one alternative chosen.
struct Unit<'a> {
    file: &'a Path,
    rules: Rules,
    alternative: Option<(u16, String)>,
    /// The alternative as `--set` takes it, `R2=after the move`.
    setting: Option<String>,
}

/// The alternatives the file `rules` were read from declares itself that a single game can
/// tell apart from its own readings (an alternative of match rules alone cannot), by reading
/// and name. An inherited one is walked with the file that declares it: the files that
/// extend Hoyito I would otherwise walk its five again, nine times.
fn play_alternatives(rules: &Rules, file: &Path) -> Vec<(u16, String)> {
    rules
        .alternatives
        .iter()
        .filter(|a| Path::new(&a.file) == file && !a.match_only())
        .map(|a| (a.reading, a.name.clone()))
        .collect()
}

/// `256M`: a memory size as `--memory` takes it, in the largest binary unit that divides it.
fn size(bytes: u64) -> String {
    [(30, "G"), (20, "M"), (10, "K")]
        .into_iter()
        .find(|&(shift, _)| bytes >= 1 << shift && bytes.is_multiple_of(1 << shift))
        .map_or_else(
            || bytes.to_string(),
            |(shift, unit)| format!("{}{unit}", bytes >> shift),
        )
}
