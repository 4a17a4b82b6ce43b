//! `sowlab trace FILE --moves ... | --random N --seed S [--match] [--json] [--svg DIR] [--html FILE]`

use std::io::{BufWriter, Write};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::super::args::TraceArgs;
use super::super::{load_rules, Console, Error, Outcome};
use crate::engine::{Event, Game, Match, Move, MoveReport, Table};
use crate::made;
use crate::outdir::disk::{replace_file, Links};
use crate::outdir::{Kind, OutDir};
use crate::report::chart::render_svg;
use crate::report::diagram::{Diagram, Layout, Scene};
use crate::report::error::ReportError;
use crate::report::stepper::Recording;
use crate::report::trace::{
    describe_move, describe_round_end, game_status, picture, JsonOverAtStart, JsonRoundEnd,
    JsonState,
};
use crate::rules::Rules;

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
    let mut pictures = Pictures::new(args, &rules, table.game())?;
    close_rounds(&mut table, args.json, &mut print, &mut pictures)?;
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
        pictures.after_move(table.game(), turn, &report, &events)?;
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
        if close_rounds(&mut table, args.json, &mut print, &mut pictures)? {
            // Moves are numbered within each round, as the JSON states and golden cases have it.
            turn = 0;
        }
    }
    out.flush().map_err(Error::Stdout)?;
    pictures.finish(&command(args))?;
    Ok(Outcome::Done)
}

/// In a match whose round is over: prints its end and the next round's start, and goes on
/// while rounds end before their first move. Whether a round ended.
fn close_rounds<'r>(
    table: &mut Table<'r>,
    json: bool,
    print: &mut dyn FnMut(&str) -> Result<(), Error>,
    pictures: &mut Pictures<'r>,
) -> Result<bool, Error> {
    let mut closed = false;
    while let Some((result, refill)) = table.round_over() {
        closed = true;
        let Table::Match(m) = &*table else {
            unreachable!("only a match has rounds")
        };
        if refill.is_some() {
            let words = describe_round_end(m, &result, refill.as_ref());
            pictures.round_start(m.game(), words.lines().map(str::to_string).collect())?;
        }
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

/// Who is to move, or how the game (the round, in a match) ended.
fn status(table: &Table<'_>) -> String {
    let what = if matches!(table, Table::Match(_)) {
        "round"
    } else {
        "game"
    };
    game_status(table.game(), what)
}

/// `trace`'s command line, as the page records it.
fn command(args: &TraceArgs) -> String {
    let what = match &args.moves {
        Some(moves) => format!(
            " --moves {}",
            moves
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(",")
        ),
        None => format!(
            " --random {} --seed {}",
            args.random.unwrap_or(0),
            args.seed
        ),
    };
    let sets: String = args
        .set
        .iter()
        .map(|s| format!(" --set {}", made::quote(&s.to_string())))
        .collect();
    format!(
        "sowlab trace {}{what}{}{sets}",
        made::quote_path(&args.file),
        if args.r#match { " --match" } else { "" }
    )
}

/// The pictures `--svg` and `--html` ask for, made as the trace goes.
struct Pictures<'r> {
    rules: &'r Rules,
    layout: Layout,
    /// `--svg`'s directory, open.
    svg: Option<OutDir>,
    /// `--html`'s file and the game recorded for it.
    html: Option<(std::path::PathBuf, Recording<'r>)>,
}

impl<'r> Pictures<'r> {
    /// Opens `--svg`'s directory (emptied of the diagrams of an earlier trace) and draws the
    /// start; starts the recording for `--html`.
    fn new(args: &TraceArgs, rules: &'r Rules, game: &Game<'r>) -> Result<Pictures<'r>, Error> {
        let mut pictures = Pictures {
            rules,
            layout: Layout::of(rules),
            svg: None,
            html: args.html.clone().map(|path| (path, Recording::new(game))),
        };
        if let Some(dir) = &args.svg {
            let mut dir = OutDir::open(dir, Kind::Pictures)?;
            dir.clear()?;
            pictures.svg = Some(dir);
            let title = format!("{}: start", rules.provenance.name);
            pictures.draw(&Scene::at(game, title), &file_name(game.round(), 0))?;
        }
        Ok(pictures)
    }

    fn after_move(
        &mut self,
        game: &Game<'r>,
        turn: u32,
        report: &MoveReport,
        events: &[Event],
    ) -> Result<(), Error> {
        if let Some((_, recording)) = &mut self.html {
            recording.push_move(game, turn, report, events);
        }
        if self.svg.is_some() {
            let side = report.side.map_or("?", |s| s.name());
            let title = format!(
                "{}: move {turn}, {side} plays hole {}",
                self.rules.provenance.name,
                report.mv.name(self.rules)
            );
            let scene = Scene::after(game, title, report, events);
            self.draw(&scene, &file_name(game.round(), turn))?;
        }
        Ok(())
    }

    fn round_start(&mut self, game: &Game<'r>, words: Vec<String>) -> Result<(), Error> {
        if let Some((_, recording)) = &mut self.html {
            recording.round_start(game, words);
        }
        if self.svg.is_some() {
            let title = format!(
                "{}: round {}, start",
                self.rules.provenance.name,
                game.round()
            );
            self.draw(&Scene::at(game, title), &file_name(game.round(), 0))?;
        }
        Ok(())
    }

    fn draw(&mut self, scene: &Scene, name: &str) -> Result<(), Error> {
        let Some(dir) = &mut self.svg else {
            return Ok(());
        };
        let diagram = Diagram::new(self.rules, &self.layout, scene);
        let text = render_svg(&diagram).map_err(|message| ReportError::Chart {
            path: dir.path().join(name),
            message,
        })?;
        dir.write_file(name, text.as_bytes())?;
        Ok(())
    }

    /// Writes the page, and closes the directory.
    fn finish(self, command: &str) -> Result<(), Error> {
        if let Some(dir) = self.svg {
            dir.finish()?;
        }
        if let Some((path, recording)) = self.html {
            let title = format!(
                "{} — rules {}",
                self.rules.provenance.name,
                self.rules.hash()
            );
            let made = format!(
                "Made by sowlab {} on {}: {command}",
                made::build(),
                made::today()
            );
            replace_file(
                &path,
                recording.html(&title, &made).as_bytes(),
                Links::Refuse,
            )?;
        }
        Ok(())
    }
}

/// The diagram of move `turn` of `round` (0: the start): `move-0003.svg`, or in the rounds
/// after the first `round-2-move-0003.svg`.
fn file_name(round: u16, turn: u32) -> String {
    if round > 1 {
        format!("round-{round}-move-{turn:04}.svg")
    } else {
        format!("move-{turn:04}.svg")
    }
}
