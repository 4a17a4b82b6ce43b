//! `sowlab trace FILE --moves ... | --random N --seed S [--json]`

use std::io::{BufWriter, Write};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::super::args::TraceArgs;
use super::super::{load_rules, Console, Error, Outcome};
use crate::engine::{move_name, Event, Game};
use crate::report::trace::{describe_move, picture, JsonState};

/// Plays the moves asked for; an illegal move stops the trace with the holes that were legal.
pub fn run(args: &TraceArgs, console: &mut Console<'_>) -> Result<Outcome, Error> {
    let rules = load_rules(&args.file, &args.set)?;
    let mut game = Game::new(&rules);
    let mut rng = ChaCha8Rng::seed_from_u64(args.seed);
    let mut out = BufWriter::new(&mut *console.out);
    let mut print = |text: &str| out.write_all(text.as_bytes()).map_err(Error::Stdout);
    if !args.json {
        print(&format!(
            "{} — rules {} ({})\nstart\n{}",
            rules.provenance.name,
            rules.hash(),
            args.file.display(),
            picture(&rules, &game)
        ))?;
        if let Some(side) = game.to_move() {
            print(&format!("{side} to move\n"))?;
        }
    }
    // One planned hole per move, or `None` for a random one; never a list as long as
    // `--random` (which may be ten million).
    let planned: Box<dyn Iterator<Item = Option<usize>>> = match &args.moves {
        Some(moves) => Box::new(moves.iter().map(|&m| Some(m))),
        None => Box::new(std::iter::repeat_n(None, args.random.unwrap_or(0) as usize)),
    };
    for (turn, planned) in (1..).zip(planned) {
        if game.is_over() {
            if planned.is_some() {
                return Err(Error::GameOver { turn });
            }
            break;
        }
        let Some(player) = game.to_move() else { break };
        let hole = match planned {
            Some(hole) => hole,
            None => {
                let legal = game.legal_moves();
                legal[rng.gen_range(0..legal.len())]
            }
        };
        let mut events: Vec<Event> = Vec::new();
        let report = match game.play_traced(hole, &mut events) {
            Ok(report) => report,
            Err(error) => {
                return Err(Error::IllegalMove {
                    turn,
                    error,
                    side: player,
                    legal: game
                        .legal_moves()
                        .into_iter()
                        .map(|m| move_name(&rules, m))
                        .collect(),
                })
            }
        };
        if args.json {
            let state = JsonState::after(&game, turn, player, hole);
            let line = serde_json::to_string(&state).expect("a state serialises");
            print(&format!("{line}\n"))?;
        } else {
            print(&format!(
                "\n{}{}",
                describe_move(&rules, turn, &report, &events),
                picture(&rules, &game)
            ))?;
            match (game.to_move(), game.outcome()) {
                (Some(side), _) => print(&format!("{side} to move\n"))?,
                (None, Some(outcome)) => {
                    let winner = outcome
                        .winner
                        .map_or("a draw".to_string(), |s| format!("{s} wins"));
                    print(&format!(
                        "game over ({}): {winner}\n",
                        outcome.reason.name()
                    ))?;
                }
                (None, None) => {}
            }
        }
    }
    out.flush().map_err(Error::Stdout)?;
    Ok(Outcome::Done)
}
