//! The exact-values report: each variant's value with perfect play on a grid of small boards
//! ([`crate::solve::grid`]), as `values.csv`, a table a row count, a chart and the pages.
//! Nothing in it depends on the time or the machine, so its command makes it again byte for
//! byte.

use serde::Serialize;

use super::chart::{self, Chart, Plot, Scale};
use super::compare::write_table;
use super::document::{self, Block};
use super::error::ReportError;
use crate::outdir::OutDir;
use crate::rules::Side;
use crate::solve::grid::{Found, Grid, Point};

/// One variant's walk over the grid.
pub struct Walked {
    /// The variant's name.
    pub name: String,
    /// Its file, as given.
    pub file: String,
    /// The alternative reading chosen, as `--set` takes it (`R2=after the move`); none for
    /// the file's own readings.
    pub alternative: Option<String>,
    /// Its rules hash on its own board.
    pub rules_hash: String,
    /// The readings it rests on, by number.
    pub readings: Vec<u16>,
    /// Who moves first: values are given to them.
    pub starter: Side,
    /// The boards walked.
    pub points: Vec<Point>,
}

/// What [`write`] needs.
pub struct Setup<'a> {
    /// The command that made the report.
    pub command: &'a str,
    /// The grid and budget.
    pub grid: &'a Grid,
    /// Every variant, in the order given.
    pub variants: &'a [Walked],
}

/// One row of `values.csv`.
#[derive(Serialize)]
struct Row<'a> {
    variant: &'a str,
    file: &'a str,
    alternative: &'a str,
    holes_per_row: u32,
    seeds_per_hole: u32,
    seeds: u32,
    rules_hash: &'a str,
    status: &'static str,
    first_player: Option<Side>,
    first_player_margin: Option<i32>,
    winner: Option<String>,
    best_first_moves: String,
    end: &'static str,
    unfinished: Option<bool>,
    nodes: Option<u64>,
    note: &'a str,
}

/// The value of a solved board to the player who moves first: their margin, and the winner
/// as `first`, `second` or `draw`; none where the game is over before its first move.
fn to_first(point: &Point, starter: Side) -> Option<(i32, &'static str)> {
    let Found::Solved(solution) = &point.found else {
        return None;
    };
    if over_at_start(&point.found) {
        return None;
    }
    let winner = match solution.value.winner() {
        Some(side) if side == starter => "first",
        Some(_) => "second",
        None => "draw",
    };
    Some((solution.value.margin_to(starter), winner))
}

/// Whether a solved board's game is over before its first move (no legal first move): its
/// value says nothing of play.
fn over_at_start(found: &Found) -> bool {
    matches!(found, Found::Solved(s) if s.line.is_empty())
}

fn status(found: &Found) -> &'static str {
    match found {
        Found::Solved(_) if over_at_start(found) => "over-at-start",
        Found::Solved(_) => "solved",
        Found::BeyondBudget => "beyond-budget",
        Found::Refused(_) => "refused",
        Found::NoBoard(_) => "no-board",
    }
}

/// Writes the report into `dir`.
///
/// # Errors
/// An unwritable file or a chart that cannot be drawn.
pub fn write(dir: &mut OutDir, setup: &Setup<'_>) -> Result<(), ReportError> {
    let mut rows = Vec::new();
    for v in setup.variants {
        for p in &v.points {
            let solved = match &p.found {
                Found::Solved(s) => Some(s),
                _ => None,
            };
            let note = match &p.found {
                Found::Refused(why) | Found::NoBoard(why) => why.as_str(),
                _ => "",
            };
            rows.push(Row {
                variant: &v.name,
                file: &v.file,
                alternative: v.alternative.as_deref().unwrap_or(""),
                holes_per_row: p.holes,
                seeds_per_hole: p.seeds,
                seeds: 2 * p.holes * p.seeds,
                rules_hash: p.rules_hash.as_deref().unwrap_or(""),
                status: status(&p.found),
                first_player: solved.map(|_| v.starter),
                first_player_margin: to_first(p, v.starter).map(|(m, _)| m),
                winner: to_first(p, v.starter).map(|(_, w)| w.to_string()),
                best_first_moves: solved.map_or_else(String::new, |s| {
                    let best: Vec<String> = s.best().iter().map(ToString::to_string).collect();
                    best.join(" ")
                }),
                end: solved.map_or("", |s| s.end.name()),
                unfinished: solved.map(|s| s.end.class().unfinished()),
                nodes: solved.map(|s| s.nodes),
                note,
            });
        }
    }
    write_table(dir, "values.csv", &rows)?;
    let mut blocks = vec![
        Block::Heading(1, "Exact values on small boards".into()),
        Block::Paragraph(format!(
            "The value of a single game of each variant from its start position with perfect play by both players, found by `sowlab solve`'s search, on boards of {} to {} holes a row and {} to {} seeds a hole. Each value is given to the player who moves first: their final store less the other's (after the end rules' awards) when both play perfectly; `+2` is a win by 2, `0` a draw by equal stores unless marked. A board is searched on one thread within {} moves of the search: in a row, larger fills are tried until two in turn are beyond that budget (·), and no larger row is tried after two rows in turn with nothing solved.{}",
            setup.grid.holes.start(),
            setup.grid.holes.end(),
            setup.grid.seeds.start(),
            setup.grid.seeds.end(),
            document::thousands(setup.grid.max_nodes),
            if setup.grid.single_game {
                " Variants with match rules are solved as one game each, their first round, as `sowlab simulate` plays them without `--match`: a match's value would depend on the rounds after it."
            } else {
                ""
            }
        )),
        Block::Paragraph(format!(
            "Made by sowlab {} with the command below; nothing in the report depends on the machine or the date, so the command makes it again byte for byte. `values.csv` has one row a board walked (its columns are in docs/outputs.md).",
            crate::made::VERSION
        )),
        Block::Code(setup.command.to_string()),
        Block::List(vec![
            "`+n`: the first player wins by n; `-n`: loses by n; `0`: a draw.".into(),
            "`×`: the game is over before its first move (no player has a legal first move): its value says nothing of play, and it is not given.".into(),
            "`†`: perfect play never finishes the game: the move cap or a repetition stops it, and the value is that of the stopped game.".into(),
            "`=`: the stores are equal but the rules name a winner (`+0=` the first player, `-0=` the second), or unequal stores are a draw.".into(),
            "`·`: not solved within the budget; `—`: the solver cannot search these rules (match play, without `--single-game`), or the variant has no such board; blank: not tried, as smaller boards of the row (or the rows before) were beyond the budget.".into(),
        ]),
    ];
    let holes: Vec<u32> = setup.grid.holes.clone().collect();
    let seeds: Vec<u32> = setup.grid.seeds.clone().collect();
    for &h in &holes {
        let mut header = vec!["variant".to_string()];
        header.extend(seeds.iter().map(|s| format!("{h} × {s}")));
        let table: Vec<Vec<String>> = setup
            .variants
            .iter()
            .map(|v| {
                let mut row = vec![v.name.clone()];
                row.extend(seeds.iter().map(|&s| cell(v, h, s)));
                row
            })
            .collect();
        blocks.push(Block::Heading(2, format!("{h} holes a row")));
        blocks.push(Block::Table(header, table));
    }
    blocks.push(Block::Heading(2, "Who wins with perfect play".into()));
    for &h in &holes {
        let Some(chart) = share_chart(setup, h, &seeds) else {
            continue;
        };
        let stem = format!("first-player-{h}");
        chart::save(&chart, dir, &stem)?;
        blocks.push(Block::Chart(
            stem,
            format!("Boards of {h} holes a row, by seeds a hole: the share of the {} variants won by the first player, drawn, won by the second, stopped unfinished (by the move cap or a repetition), over before its first move, and not solved (beyond the budget, refused, no such board, or not tried).", setup.variants.len()),
        ));
    }
    blocks.extend(readings_section(setup.variants));
    Ok(document::write_pages(dir, "sowlab exact values", &blocks)?)
}

/// A table cell: the first player's margin with its marks, or why there is none.
fn cell(v: &Walked, holes: u32, seeds: u32) -> String {
    let Some(point) = v
        .points
        .iter()
        .find(|p| p.holes == holes && p.seeds == seeds)
    else {
        return String::new();
    };
    if over_at_start(&point.found) {
        return "×".into();
    }
    let Found::Solved(solution) = &point.found else {
        return match point.found {
            Found::BeyondBudget => "·".into(),
            _ => "—".into(),
        };
    };
    let (margin, winner) = to_first(point, v.starter).expect("solved, with a first move");
    let by_margin = match margin.signum() {
        1 => "first",
        -1 => "second",
        _ => "draw",
    };
    format!(
        "{}{margin}{}{}",
        if margin > 0 || (margin == 0 && winner == "first") {
            "+"
        } else if margin == 0 && winner == "second" {
            "-"
        } else {
            ""
        },
        if winner == by_margin { "" } else { "=" },
        if solution.end.class().unfinished() {
            "†"
        } else {
            ""
        }
    )
}

/// The share of variants of each outcome on each board of `holes` holes a row; none if no
/// board of the row was solved.
fn share_chart(setup: &Setup<'_>, holes: u32, seeds: &[u32]) -> Option<Chart> {
    const KINDS: [&str; 6] = [
        "first player wins",
        "draw",
        "second player wins",
        "stopped unfinished",
        "over before its first move",
        "not solved",
    ];
    let mut layers: Vec<(String, Vec<f64>)> =
        KINDS.iter().map(|k| (k.to_string(), Vec::new())).collect();
    let n = setup.variants.len().max(1) as f64;
    for &s in seeds {
        let mut counts = [0usize; 6];
        for v in setup.variants {
            let point = v.points.iter().find(|p| p.holes == holes && p.seeds == s);
            let kind = match point.map(|p| (&p.found, to_first(p, v.starter))) {
                Some((found, _)) if over_at_start(found) => 4,
                Some((Found::Solved(s), _)) if s.end.class().unfinished() => 3,
                Some((_, Some((_, "first")))) => 0,
                Some((_, Some((_, "draw")))) => 1,
                Some((_, Some(_))) => 2,
                _ => 5,
            };
            counts[kind] += 1;
        }
        for (layer, &count) in layers.iter_mut().zip(&counts) {
            layer.1.push(count as f64 / n);
        }
    }
    if layers[5].1.iter().all(|&share| share >= 1.0) {
        return None;
    }
    Some(Chart {
        title: format!(
            "{holes} holes a row, by seeds a hole: who wins with perfect play, over {} variants",
            setup.variants.len()
        ),
        y_label: "share of variants".into(),
        y: Scale::Share,
        plot: Plot::Stacked {
            categories: seeds
                .iter()
                .map(|s| format!("{s} seed{}", if *s == 1 { "" } else { "s" }))
                .collect(),
            layers,
        },
    })
}

/// The readings each file rests on: a value of such a file is the value under those
/// readings; the alternatives a file offers, and those shipped as files of their own, are
/// rows of their own.
fn readings_section(variants: &[Walked]) -> Vec<Block> {
    let items: Vec<String> = variants
        .iter()
        .filter(|v| !v.readings.is_empty() && v.alternative.is_none())
        .map(|v| {
            let numbers: Vec<String> = v.readings.iter().map(|n| format!("R{n}")).collect();
            format!("{} (`{}`): {}", v.name, v.file, numbers.join(", "))
        })
        .collect();
    if items.is_empty() {
        return Vec::new();
    }
    vec![
        Block::Heading(2, "Readings".into()),
        Block::Paragraph("These files rest on editorial readings (docs/readings.md): each value above is the value under the readings the file takes. Where a file offers other readings (its own `alternative` blocks, docs/language.md; a file that extends it inherits them, and they are walked with the file that declares them), each that a single game can tell apart is walked as a row of its own, named after the reading and the alternative (`Hoyito I (R2: after the move)` is `--set R2=\"after the move\"`; `values.csv` gives it in its `alternative` column); an alternative of match rules alone is not, as a single game never reaches them. Where another reading is shipped as a file of its own (the `-r7-…` files, say), its values are its own rows too, and the rows side by side show what the reading changes.".into()),
        Block::List(items),
    ]
}
