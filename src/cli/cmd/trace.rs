//! `sowlab trace FILE --moves ... | --random N --seed S [--match] [--json]`

use std::io::{BufWriter, Write};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::super::args::TraceArgs;
use super::super::{load_rules, Console, Error, Outcome};
use crate::engine::{Event, Match, Move, Table};
use crate::report::trace::{
    describe_move, describe_round_end, picture, JsonOverAtStart, JsonRoundEnd, JsonState,
    OverAtStart,
};

/// Plays the moves asked for, through the rounds of a match with `--match`; an illegal move
/// stops the trace with the moves that were legal. A game (or round) over before its first
/// move is said so, with why.
pub fn run(args: &TraceArgs, console: &mut Console<'_>) -> Result<Outcome, Error> {
    let rules = load_rules(&args.file, &args.set)?;
    let mut table = if args.r#match {
        Table::Match(Match::new(&rules).map_err(|e| Error::NoMatch(args.file.clone(), e))?)
    } else {
        Table::Game(crate::engine::Game::new(&rules))
    };
    let mut rng = ChaCha8Rng::seed_from_u64(args.seed);
    let mut out = BufWriter::new(&mut *console.out);
    let mut print = |text: &str| out.write_all(text.as_bytes()).map_err(Error::Stdout);
    if args.json {
        print(&over_line(&table))?;
    } else {
        let round = if args.r#match { "round 1\n" } else { "" };
        print(&format!(
            "{} — rules {} ({})\n{round}start\n{}{}",
            rules.provenance.name,
            rules.hash(),
            args.file.display(),
            picture(&rules, table.game()),
            status(&table)
        ))?;
    }
    close_rounds(&mut table, args.json, &mut print)?;
    // One planned move per turn, or `None` for a random one; never a list as long as
    // `--random` (which may be ten million).
    let planned: Box<dyn Iterator<Item = Option<Move>>> = match &args.moves {
        Some(moves) => Box::new(moves.iter().map(|&m| Some(m))),
        None => Box::new(std::iter::repeat_n(None, args.random.unwrap_or(0) as usize)),
    };
    let mut turn = 0;
    for planned in planned {
        if table.is_over() {
            if planned.is_some() {
                return Err(Error::GameOver { turn: turn + 1 });
            }
            break;
        }
        let game = table.game_mut();
        let Some(player) = game.to_move() else { break };
        turn += 1;
        let mv = match planned {
            Some(mv) => mv,
            None => {
                let legal = game.legal_moves();
                legal[rng.gen_range(0..legal.len())]
            }
        };
        let mut events: Vec<Event> = Vec::new();
        let report = match game.play_traced(mv, &mut events) {
            Ok(report) => report,
            Err(error) => {
                let legal = game.legal_moves();
                return Err(Error::IllegalMove {
                    turn,
                    error,
                    side: player,
                    legal: legal.into_iter().map(|m| m.name(&rules)).collect(),
                });
            }
        };
        if args.json {
            let state = JsonState::on(&table, turn, player, mv);
            print(&(serde_json::to_string(&state).expect("a state serialises") + "\n"))?;
        } else {
            print(&format!(
                "\n{}{}",
                describe_move(&rules, turn, &report, &events),
                picture(&rules, table.game())
            ))?;
            print(&status(&table))?;
        }
        if close_rounds(&mut table, args.json, &mut print)? {
            // Moves are numbered within each round, as the JSON states and golden cases have it.
            turn = 0;
        }
    }
    out.flush().map_err(Error::Stdout)?;
    Ok(Outcome::Done)
}

/// In a match whose round is over: prints its end and the next round's start, and goes on
/// while rounds end before their first move. Whether a round ended.
fn close_rounds(
    table: &mut Table<'_>,
    json: bool,
    print: &mut dyn FnMut(&str) -> Result<(), Error>,
) -> Result<bool, Error> {
    let mut closed = false;
    while let Some((result, refill)) = table.round_over() {
        closed = true;
        let Table::Match(m) = &*table else {
            unreachable!("only a match has rounds")
        };
        if json {
            let end = JsonRoundEnd::new(m, &result, refill.as_ref());
            print(&(end.line() + "\n"))?;
            if refill.is_some() {
                print(&over_line(table))?;
            }
        } else {
            print(&format!(
                "\n{}",
                describe_round_end(m, &result, refill.as_ref())
            ))?;
            if refill.is_some() {
                print(&format!(
                    "{}{}",
                    picture(m.game().rules(), m.game()),
                    status(table)
                ))?;
            }
        }
    }
    Ok(closed)
}

/// `trace --json`'s line for a game (or round) over before its first move, or nothing.
fn over_line(table: &Table<'_>) -> String {
    JsonOverAtStart::of(table).map_or_else(String::new, |over| over.line() + "\n")
}

/// Who is to move, or how the game ended.
fn status(table: &Table<'_>) -> String {
    let game = table.game();
    let what = if matches!(table, Table::Match(_)) {
        "round"
    } else {
        "game"
    };
    match (game.to_move(), game.outcome(), OverAtStart::of(game)) {
        (Some(side), ..) => format!("{side} to move\n"),
        (None, _, Some(over)) => format!("{what} over before the first move: {over}\n"),
        (None, Some(outcome), None) => {
            let winner = outcome
                .winner
                .map_or("a draw".to_string(), |s| format!("{s} wins"));
            format!("{what} over ({}): {winner}\n", outcome.reason.name())
        }
        (None, None, None) => String::new(),
    }
}
