//! `sowlab trace FILE --moves ... | --random N --seed S [--json]`

use std::io::Write;
use std::process::ExitCode;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::super::args::TraceArgs;
use super::super::{load_rules, Failure};
use crate::engine::{Event, Game};
use crate::report::trace::{describe_move, picture, JsonState};

/// Plays the moves asked for; an illegal move stops the trace with exit code 2.
pub fn run(args: &TraceArgs) -> Result<ExitCode, Failure> {
    let rules = load_rules(&args.file, &args.set)?;
    let mut game = Game::new(&rules);
    let mut rng = ChaCha8Rng::seed_from_u64(args.seed);
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    if !args.json {
        writeln!(
            out,
            "{} — rules {} ({})",
            rules.provenance.name,
            rules.hash(),
            args.file.display()
        )?;
        write!(out, "start\n{}", picture(&rules, &game))?;
        if let Some(side) = game.to_move() {
            writeln!(out, "{side} to move")?;
        }
    }
    let planned: Vec<Option<usize>> = match (&args.moves, args.random) {
        (Some(moves), _) => moves.iter().map(|&m| Some(m)).collect(),
        (None, Some(n)) => vec![None; n as usize],
        (None, None) => return Err(Failure::input("give `--moves 3,7,1` or `--random N`")),
    };
    for (i, planned) in planned.into_iter().enumerate() {
        let turn = i as u32 + 1;
        if game.is_over() {
            if planned.is_some() {
                return Err(Failure::input(format!(
                    "move {turn}: the game is already over"
                )));
            }
            break;
        }
        let hole = match planned {
            Some(hole) => hole,
            None => {
                let legal = game.legal_moves();
                legal[rng.gen_range(0..legal.len())]
            }
        };
        let Some(player) = game.to_move() else { break };
        let mut events: Vec<Event> = Vec::new();
        let report = game
            .play_traced(hole, &mut events)
            .map_err(|e| Failure::input(format!("move {turn}: {e}")))?;
        if args.json {
            let state = JsonState::after(&game, turn, player, hole);
            let line = serde_json::to_string(&state).map_err(|e| Failure::input(e.to_string()))?;
            writeln!(out, "{line}")?;
        } else {
            write!(
                out,
                "\n{}{}",
                describe_move(&rules, turn, &report, &events),
                picture(&rules, &game)
            )?;
            match (game.to_move(), game.outcome()) {
                (Some(side), _) => writeln!(out, "{side} to move")?,
                (None, Some(outcome)) => {
                    let winner = outcome
                        .winner
                        .map_or("a draw".to_string(), |s| format!("{s} wins"));
                    writeln!(out, "game over ({}): {winner}", outcome.reason.name())?;
                }
                (None, None) => {}
            }
        }
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
