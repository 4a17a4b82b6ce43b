//! `sowlab solve FILE [--set ...] [--memory SIZE] [--max-states N] [--max-nodes N] [--json]`:
//! solves a small board and prints its value, best first moves and the search's counts.

use std::time::Instant;

use serde::Serialize;

use super::super::args::SolveArgs;
use super::super::{load_rules, Console, Error, Outcome};
use crate::engine::{EndReason, Move};
use crate::rules::{Rules, Side};
use crate::solve::{self, tablebase, Limits, SolveError, Tablebase, TablebaseError, Value};

/// The line of `--json`.
#[derive(Serialize)]
struct JsonSolution {
    variant: String,
    rules: String,
    holes_per_row: usize,
    seeds: u32,
    estimate: String,
    margin: i32,
    winner: Option<Side>,
    best: Vec<String>,
    moves: Vec<JsonMove>,
    line: Vec<JsonTurn>,
    end: &'static str,
    unfinished: bool,
    nodes: u64,
    table: u64,
    capacity: u64,
    recurrences: u64,
    move_count_keyed: bool,
    stretch_keyed: bool,
    store_free: bool,
    /// A variant with match rules solved as one game, its first round (`--single-game`).
    single_game: bool,
    /// The most seeds on the board of a position the tablebase holds, if one was read.
    tablebase_seeds: Option<u32>,
    /// Its layers read from files rather than built.
    tablebase_layers_read: u32,
    /// Positions whose value the tablebase gave.
    probes: u64,
    seconds: f64,
}

#[derive(Serialize)]
struct JsonMove {
    #[serde(rename = "move")]
    mv: String,
    margin: i32,
    winner: Option<Side>,
}

#[derive(Serialize)]
struct JsonTurn {
    side: Side,
    #[serde(rename = "move")]
    mv: String,
}

/// Solves the board, or refuses it with one line (exit 2).
pub fn run(args: &SolveArgs, console: &mut Console<'_>) -> Result<Outcome, Error> {
    let rules = load_rules(&args.file, &args.set)?;
    let started = Instant::now();
    let limits = Limits {
        max_states: args.max_states,
        max_nodes: args.max_nodes,
        memory: args.memory,
        threads: args.threads,
        single_game: args.single_game,
    };
    let spinner = super::super::progress::spinner("solving", console.terminal);
    let report = |p: solve::Progress| {
        spinner.set_message(format!(
            "{} nodes, {} of {} first moves solved, table {:.0}% full",
            p.nodes,
            p.first_moves_solved,
            p.first_moves,
            100.0 * p.entries as f64 / p.capacity as f64
        ));
    };
    let tablebase = match args.tablebase_seeds {
        Some(seeds) => tablebase(&rules, seeds, args, &spinner, console)?,
        None => None,
    };
    let solved = solve::solve_reporting(&rules, limits, tablebase.as_ref(), &report);
    spinner.finish_and_clear();
    let solution = solved.map_err(|error| Error::Solve {
        board: board(&rules),
        advice: advice(&rules, &error),
        error,
    })?;
    let seconds = started.elapsed().as_secs_f64();
    if solution.line.is_empty() {
        // Said on stderr too, for a reader of `--json`, as `simulate` says it of such games.
        let _ = writeln!(
            console.err,
            "warning: {} is over before its first move, so its value says nothing of play (`sowlab trace` says why)",
            rules.provenance.name
        );
    }
    let name = |mv: Move| mv.name(&rules);
    let one_round = args.single_game && rules.program.matches.is_some();
    let text = if args.json {
        let line = JsonSolution {
            variant: rules.provenance.name.clone(),
            rules: rules.hash(),
            holes_per_row: rules.holes_per_row(),
            seeds: rules.total_seeds(),
            estimate: solve::estimate_text(solve::estimate(&rules)),
            margin: solution.value.margin,
            winner: solution.value.winner(),
            best: solution.best().into_iter().map(name).collect(),
            moves: solution
                .moves
                .iter()
                .map(|&(mv, v)| JsonMove {
                    mv: name(mv),
                    margin: v.margin,
                    winner: v.winner(),
                })
                .collect(),
            line: solution
                .line
                .iter()
                .map(|&(side, mv)| JsonTurn { side, mv: name(mv) })
                .collect(),
            end: solution.end.name(),
            unfinished: solution.end.class().unfinished(),
            nodes: solution.nodes,
            table: solution.table,
            capacity: solution.capacity,
            recurrences: solution.recurrences,
            move_count_keyed: solution.move_count_keyed,
            stretch_keyed: solution.stretch_keyed,
            store_free: solution.store_free,
            single_game: one_round,
            tablebase_seeds: tablebase.as_ref().map(Tablebase::max_seeds),
            tablebase_layers_read: tablebase.as_ref().map_or(0, |t| t.read),
            probes: solution.probes,
            seconds,
        };
        format!("{}\n", serde_json::to_string(&line).expect("plain data"))
    } else {
        let over = solution.line.is_empty();
        let mut text = format!(
            "{}: {} {} (margin {:+})\n",
            board(&rules),
            Value::verdict(solution.value),
            if over {
                "without a move played"
            } else {
                "with perfect play"
            },
            solution.value.margin
        );
        let best: Vec<String> = solution.best().into_iter().map(name).collect();
        if over {
            text += &format!(
                "the game is over before its first move (by {}): the value says nothing of play\n",
                solution.end.name()
            );
        } else {
            let moves: Vec<String> = solution
                .moves
                .iter()
                .map(|&(mv, v)| format!("{} {}", name(mv), short(v)))
                .collect();
            let to_move = if rules.program.board.starter == Side::South {
                "South"
            } else {
                "North"
            };
            let line: Vec<String> = solution
                .line
                .iter()
                .map(|&(side, mv)| format!("{}{}", initial(side), name(mv)))
                .collect();
            text += &format!(
                "best first move{} for {to_move}: {}\nevery first move: {}\nperfect play (S South, N North): {}\n{}\n",
                if best.len() == 1 { "" } else { "s" },
                best.join(", "),
                moves.join(", "),
                line.join(" "),
                ending(solution.end)
            );
        }
        if one_round {
            text += "solved as one game, its first round, as `sowlab simulate` plays it without --match: the value of the match would depend on the rounds after it\n";
        }
        if let Some(base) = &tablebase {
            text += &format!(
                "tablebase: every position with up to {} seeds on the board, {} MB, {} of {} layers read from files, {} positions answered\n",
                base.max_seeds(),
                base.bytes().div_ceil(1 << 20),
                base.read,
                base.max_seeds() + 1,
                solution.probes
            );
        }
        text += &format!(
            "searched {} nodes, {} of {} table entries{}{}{}, {seconds:.2} s\n",
            solution.nodes,
            solution.table,
            solution.capacity,
            if solution.store_free {
                ", keyed without the stores"
            } else {
                ""
            },
            if solution.recurrences > 0 {
                format!(", {} visits to a repeated position", solution.recurrences)
            } else {
                String::new()
            },
            if solution.move_count_keyed {
                ", keyed on the move count (a line reaches the move cap)"
            } else {
                ""
            }
        );
        text
    };
    console
        .out
        .write_all(text.as_bytes())
        .map_err(Error::Stdout)?;
    Ok(Outcome::Done)
}

/// The tablebase of `rules` up to `seeds` seeds, read from or written to `--tablebase`.
fn tablebase(
    rules: &Rules,
    seeds: u32,
    args: &SolveArgs,
    spinner: &indicatif::ProgressBar,
    console: &mut Console<'_>,
) -> Result<Option<Tablebase>, Error> {
    let report = |layer: tablebase::LayerReport| {
        spinner.set_message(format!(
            "tablebase: layer {} of {seeds} {}",
            layer.seeds,
            if layer.read { "read" } else { "built" }
        ));
    };
    match Tablebase::open(
        rules,
        seeds,
        args.tablebase.as_deref(),
        args.threads,
        &report,
    ) {
        Ok(tablebase) => Ok(Some(tablebase)),
        Err(TablebaseError::Unsupported(why)) => {
            let _ = writeln!(
                console.err,
                "warning: no tablebase for {}: {why}; solving without one",
                rules.provenance.name
            );
            Ok(None)
        }
        Err(e) => Err(e.into()),
    }
}

/// How perfect play ends the game, saying so where the rules stop it unfinished.
fn ending(end: EndReason) -> String {
    if end.class().unfinished() {
        format!(
            "perfect play never finishes the game: it is stopped by {} (R10), and the value is that of the stopped game",
            end.name()
        )
    } else {
        format!("perfect play ends the game by {}", end.name())
    }
}

/// `S` or `N`.
fn initial(side: Side) -> char {
    match side {
        Side::South => 'S',
        Side::North => 'N',
    }
}

/// `Kalah on 2 × 3 holes with 12 seeds`.
fn board(rules: &Rules) -> String {
    format!(
        "{} on 2 × {} holes with {} seeds",
        rules.provenance.name,
        rules.holes_per_row(),
        rules.total_seeds()
    )
}

/// A first move's value in a list: its margin, and the winner where it is not the margin's
/// sign.
fn short(value: Value) -> String {
    let sign = value.margin.signum() as i8;
    if sign == value.result {
        format!("{:+}", value.margin)
    } else {
        format!("{:+} ({})", value.margin, Value::verdict(value))
    }
}

/// How to get under the limit.
fn advice(rules: &Rules, error: &SolveError) -> String {
    let limit = match error {
        SolveError::Unsupported { .. } => return "no board of these rules can be solved".into(),
        SolveError::NoMemory { .. } => return "give a smaller --memory".into(),
        SolveError::TooDeep | SolveError::TooWide { .. } => {
            return "the board is too large to solve".into()
        }
        SolveError::TooManyNodes { limit } => {
            return format!("solve a smaller board, or raise --max-nodes (now {limit})")
        }
        SolveError::TooLarge { limit, .. } => *limit,
    };
    let raise = format!(
        "raise --max-states (now {limit}, at most {}) or leave it out",
        solve::MAX_MAX_STATES
    );
    let n = rules.holes_per_row();
    let per_hole = (rules.total_seeds() / (2 * n as u32)).max(1);
    let smaller = (1..=n).rev().find_map(|holes| {
        (1..=per_hole)
            .rev()
            .find(|&seeds| {
                solve::estimate_board(holes, seeds * 2 * holes as u32) <= u128::from(limit)
            })
            .map(|seeds| (holes, seeds))
    });
    match smaller {
        Some((holes, seeds)) => {
            format!(
                "solve a smaller board, e.g. --set holes={holes} --set seeds={seeds}, or {raise}"
            )
        }
        None => raise,
    }
}
