//! `sowlab exact VARIANT... --out DIR [--holes A..B] [--seeds A..B] [--max-nodes N]`: the exact
//! value of each variant on a grid of small boards, as a report.

use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use super::super::args::ExactArgs;
use super::super::closing::{Closing, Wrote};
use super::super::{load_rules, Console, Error, Outcome};
use crate::lang::Setting;
use crate::made;
use crate::report::exact::{self, Walked};
use crate::solve::grid::{self, Found, Grid};

/// Solves the grid for every variant, then writes the report in place of `--out`.
pub fn run(args: &ExactArgs, console: &mut Console<'_>) -> Result<Outcome, Error> {
    let files = super::variant_files(&args.variants, console)?;
    let compiled = files
        .iter()
        .map(|file| Ok((file, load_rules(file, &[])?)))
        .collect::<Result<Vec<_>, Error>>()?;
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
        compiled
            .par_iter()
            .map(|(file, rules)| {
                let board = |holes: u32, seeds: u32| {
                    let set = [format!("holes={holes}"), format!("seeds={seeds}")]
                        .map(|s| s.parse::<Setting>().expect("a setting in range"));
                    load_rules(file, &set).map_err(|e| e.to_string())
                };
                let points = grid::walk(board, &grid);
                let solved = points
                    .iter()
                    .filter(|p| matches!(p.found, Found::Solved(_)))
                    .count() as u64;
                let total = done.fetch_add(solved, Ordering::Relaxed) + solved;
                spinner.set_message(format!("{total} boards solved"));
                Walked {
                    name: rules.provenance.name.clone(),
                    file: file.display().to_string(),
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
