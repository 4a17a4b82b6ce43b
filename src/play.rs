//! A game at the keyboard (`sowlab play`): the [`Session`] that takes one command line at a
//! time, plays it (and the agent's replies), and answers with the text to print.

use std::fmt::Write;
use std::path::PathBuf;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::agents::{Agent, AgentSpec, AlphaBeta, WIN};
use crate::engine::{EndReason, Event, Game, Move, PlayError};
use crate::report::diagram::captured;
use crate::report::trace::{
    describe_move, marked_picture, picture, summarise_move, Marks, OverAtStart,
};
use crate::rules::{Rules, Side};

/// The depth of `hint` when the command gives none: instant on the shipped boards.
pub const HINT_DEPTH: u8 = 8;

/// The deepest `hint`, as for `alphabeta:D`.
pub const MAX_HINT_DEPTH: u8 = 12;

/// The random stream of the agent's moves (see [`Session::rng`]).
const AGENT_STREAM: u64 = 0;
/// The random stream of hints.
const HINT_STREAM: u64 = 1;

/// How a session is set up: who plays, and how its text looks.
#[derive(Clone, Debug)]
pub struct Setup {
    /// The agent that plays the seat the human does not; `None`: two people take turns.
    pub opponent: Option<AgentSpec>,
    /// The human's seat against an agent.
    pub human: Side,
    /// The seed of the agent's draws and of the tie-breaks of hints.
    pub seed: u64,
    /// The variant file as the user named it, for the opening lines.
    pub source: String,
    /// The command that replays a saved move list, up to its `--moves`:
    /// `sowlab trace FILE [--set ...]`.
    pub replay: String,
    /// ANSI colours, for a terminal.
    pub colour: bool,
    /// A player with one legal move has it played for them (`--forced`).
    pub forced: bool,
}

/// What a command gave: text to print, a file to write, and whether the session is over.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reply {
    /// What to print, whole lines.
    pub text: String,
    /// `save FILE`: what to write where (the caller writes it, and says how it went).
    pub save: Option<Save>,
    /// `quit`: the session is over.
    pub quit: bool,
}

/// A move list to write.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Save {
    /// The file, as given.
    pub path: PathBuf,
    /// The moves, comma-separated, as `sowlab trace FILE --moves` takes them, and a newline.
    pub contents: String,
    /// `save!`: an existing file is replaced; `save` refuses it.
    pub replace: bool,
    /// The line to print once it is written.
    pub done: String,
}

/// A command, as typed.
enum Command<'a> {
    Move(Move),
    Undo,
    Hint(u8),
    Moves,
    Board,
    Details,
    Help,
    Save { path: &'a str, replace: bool },
    Quit,
    Nothing,
}

impl Command<'_> {
    fn parse(line: &str) -> Result<Command<'_>, String> {
        let line = line.trim();
        let (word, rest) = line
            .split_once(char::is_whitespace)
            .map_or((line, ""), |(w, r)| (w, r.trim()));
        let alone = |command| {
            if rest.is_empty() {
                Ok(command)
            } else {
                Err(format!("`{word}` takes nothing after it"))
            }
        };
        match word.to_ascii_lowercase().as_str() {
            "" => Ok(Command::Nothing),
            "undo" => alone(Command::Undo),
            "moves" | "legal" => alone(Command::Moves),
            "board" => alone(Command::Board),
            "details" | "laps" => alone(Command::Details),
            "help" | "?" => alone(Command::Help),
            "quit" | "exit" | "q" => alone(Command::Quit),
            "hint" if rest.is_empty() => Ok(Command::Hint(HINT_DEPTH)),
            "hint" => match rest.parse() {
                Ok(depth @ 1..=MAX_HINT_DEPTH) => Ok(Command::Hint(depth)),
                _ => Err(format!(
                    "`hint` takes a depth from 1 to {MAX_HINT_DEPTH}, or none for {HINT_DEPTH}"
                )),
            },
            "save" | "save!" if rest.is_empty() => {
                Err(format!("`{word}` needs a file name: {word} FILE"))
            }
            "save" => Ok(Command::Save {
                path: rest,
                replace: false,
            }),
            "save!" => Ok(Command::Save {
                path: rest,
                replace: true,
            }),
            _ => match Move::parse(line) {
                Some(mv) if rest.is_empty() => Ok(Command::Move(mv)),
                _ => Err(format!(
                    "`{line}` is neither a move nor a command; type help for the list"
                )),
            },
        }
    }
}

/// A game between a person and an agent, or two people, one command at a time.
pub struct Session<'r> {
    rules: &'r Rules,
    setup: Setup,
    /// The agent, if one plays.
    agent: Option<Box<dyn Agent>>,
    /// Every move from the start, with who made it. Undo cuts this list and replays it from
    /// the start rather than keeping a game per move: a game is a pure function of the rules
    /// and the moves, so the replay is exactly the game before those moves (repetition
    /// history, quiet counters and all), and the list is the one record the session keeps;
    /// it is also what `save` writes and `trace --moves` replays, so an undone game is by
    /// construction what `trace` would show. A replay of a game played by hand is instant.
    moves: Vec<(Move, Side)>,
    game: Game<'r>,
    /// The full accounts (every seed sown) of the moves the last command played.
    details: Vec<String>,
}

impl<'r> Session<'r> {
    /// A new game of `rules`; also the opening text: the variant, the board, the agent's
    /// moves if it starts, and who is to move.
    pub fn start(rules: &'r Rules, setup: Setup) -> (Session<'r>, String) {
        let mut session = Session {
            rules,
            agent: setup.opponent.map(AgentSpec::build),
            setup,
            moves: Vec::new(),
            game: Game::new(rules),
            details: Vec::new(),
        };
        let mut text = format!(
            "{} — rules {} ({})\n",
            rules.provenance.name,
            rules.hash(),
            session.setup.source
        );
        match session.setup.opponent {
            Some(spec) => {
                let _ = writeln!(
                    text,
                    "you play {} against {spec} (seed {})",
                    session.setup.human.name(),
                    session.setup.seed
                );
            }
            None => text.push_str("two players take turns at the keyboard\n"),
        }
        text.push_str("type a hole number to play it, or help for the commands\n\n");
        text.push_str(&picture(rules, &session.game));
        text.push_str(&session.replies());
        text.push_str(&session.status());
        (session, text)
    }

    /// Runs one command line: a move, `undo`, `hint [DEPTH]`, `moves`, `board`, `help`,
    /// `save FILE` or `quit`. A command that cannot be carried out (an illegal move, a
    /// misspelt word) is answered with the reason, and the game goes on.
    pub fn command(&mut self, line: &str) -> Reply {
        let text = match Command::parse(line) {
            Err(why) => format!("{why}\n"),
            Ok(Command::Nothing) => String::new(),
            Ok(Command::Move(mv)) => self.human_move(mv),
            Ok(Command::Undo) => self.undo(),
            Ok(Command::Hint(depth)) => self.hint(depth),
            Ok(Command::Moves) => self.status(),
            Ok(Command::Board) => picture(self.rules, &self.game) + &self.status(),
            Ok(Command::Details) => self.details(),
            Ok(Command::Help) => self.help(),
            Ok(Command::Save { path, replace }) => return self.save(path, replace),
            Ok(Command::Quit) => {
                return Reply {
                    text: format!("quit {}", self.played()),
                    quit: true,
                    ..Reply::default()
                }
            }
        };
        Reply {
            text,
            ..Reply::default()
        }
    }

    /// What to say when the input ends (the session ends with it).
    pub fn end_of_input(&self) -> String {
        format!("end of input: the session ends {}", self.played())
    }

    /// The prompt before a command: who is to move.
    pub fn prompt(&self) -> String {
        match self.game.to_move() {
            None => "game over> ".into(),
            Some(side) => format!("{}{}> ", side.name(), self.role(side)),
        }
    }

    /// The game as it stands.
    pub fn game(&self) -> &Game<'r> {
        &self.game
    }

    /// The moves played so far, named as `trace --moves` takes them.
    pub fn moves(&self) -> Vec<String> {
        self.moves
            .iter()
            .map(|&(mv, _)| mv.name(self.rules))
            .collect()
    }

    /// `after N move(s): 3,7,1`, for the last line of a session.
    fn played(&self) -> String {
        match self.moves.len() {
            0 => "before any move\n".into(),
            n => format!("after {n} move(s): {}\n", self.moves().join(",")),
        }
    }

    fn human_move(&mut self, mv: Move) -> String {
        if self.game.is_over() {
            return "the game is over: undo takes back the last move, save FILE keeps it, quit ends\n".into();
        }
        let side = self.game.to_move().expect("the game is not over");
        if mv.clockwise() && !self.rules.program.sowing.direction.has_choice() {
            return format!(
                "in this variant the direction is not chosen: give the hole alone; {side} can play {}\n",
                self.legal()
            );
        }
        self.details.clear();
        match self.play(mv) {
            Ok(account) => account + &self.replies() + &self.status(),
            Err(error) => format!(
                "hole {} cannot be played: {}; {side} can play {}\n",
                error.mv.name(self.rules),
                error.reason,
                self.legal()
            ),
        }
    }

    /// Plays a move: a line a lap of its sowing (the full account kept for `details`), and
    /// the board after it with the hole played and the holes captured from marked.
    fn play(&mut self, mv: Move) -> Result<String, PlayError> {
        let mut events: Vec<Event> = Vec::new();
        let report = self.game.play_traced(mv, &mut events)?;
        let side = report.side.expect("a move has a mover");
        self.moves.push((mv, side));
        let turn = self.moves.len() as u32;
        self.details
            .push(describe_move(self.rules, turn, &report, &events));
        let account = summarise_move(self.rules, turn, &report, &events);
        let marks = Marks {
            played: Some(mv.hole()),
            captured: captured(&events),
            colour: self.setup.colour,
        };
        Ok(self.highlight(&account) + &marked_picture(self.rules, &self.game, &marks))
    }

    /// The moves that follow a move without asking: the agent's while it is to move, and,
    /// with `--forced`, a player's only legal move.
    fn replies(&mut self) -> String {
        let mut text = String::new();
        while let Some(side) = self.game.to_move() {
            let mut rng = self.rng(AGENT_STREAM);
            let mv = match self.agent.as_mut().filter(|_| side != self.setup.human) {
                // The agent plays on a copy; its move is then played here with its events told.
                Some(agent) => agent.play(&mut self.game.clone(), &mut rng).mv,
                None => match self.game.legal_moves()[..] {
                    [only] if self.setup.forced => {
                        let _ = write!(
                            text,
                            "\n{side}{} has one legal move, {}: played (--forced)",
                            self.role(side),
                            only.name(self.rules)
                        );
                        only
                    }
                    _ => break,
                },
            };
            text.push('\n');
            text.push_str(&self.play(mv).expect("agents and forced moves are legal"));
        }
        text
    }

    /// The full account of the moves the last command played: every seed sown.
    fn details(&self) -> String {
        if self.details.is_empty() {
            return "no move has been played yet\n".into();
        }
        self.details.concat()
    }

    /// Takes back the last move; against an agent, back to the human's previous turn.
    fn undo(&mut self) -> String {
        let from = match self.setup.opponent {
            None => self.moves.len().checked_sub(1),
            Some(_) => self
                .moves
                .iter()
                .rposition(|&(_, side)| side == self.setup.human),
        };
        let Some(from) = from else {
            return match self.setup.opponent {
                None => "nothing to undo: no move has been played\n",
                Some(_) => "nothing to undo: you have not moved yet\n",
            }
            .into();
        };
        let taken: Vec<String> = (from..self.moves.len())
            .map(|i| {
                let (mv, side) = self.moves[i];
                format!("move {} ({side} {})", i + 1, mv.name(self.rules))
            })
            .collect();
        self.moves.truncate(from);
        self.game = Game::new(self.rules);
        for &(mv, _) in &self.moves {
            self.game
                .play(mv)
                .expect("moves played once are legal again from the same start");
        }
        format!("took back {}\n", taken.join(", "))
            + &picture(self.rules, &self.game)
            + &self.status()
    }

    /// What alpha-beta to `depth` would play, and what its search says of it, in words.
    fn hint(&mut self, depth: u8) -> String {
        let Some(side) = self.game.to_move() else {
            return "the game is over: there is nothing to hint\n".into();
        };
        let mut game = self.game.clone();
        let (mv, value) = AlphaBeta::new(depth).search(&mut game, &mut self.rng(HINT_STREAM));
        format!(
            "hint: play {} — {} (alphabeta:{depth})\n",
            mv.name(self.rules),
            hint_words(side, value, depth)
        )
    }

    fn save(&self, path: &str, replace: bool) -> Reply {
        if self.moves.is_empty() {
            return Reply {
                text: "no moves to save yet\n".into(),
                ..Reply::default()
            };
        }
        let list = self.moves().join(",");
        Reply {
            save: Some(Save {
                path: PathBuf::from(path),
                contents: format!("{list}\n"),
                replace,
                done: format!(
                    "saved {} move(s) to {path}; `{} --moves \"$(cat {})\"` replays them\n",
                    self.moves.len(),
                    self.setup.replay,
                    crate::made::quote(path),
                ),
            }),
            ..Reply::default()
        }
    }

    fn help(&self) -> String {
        let mut text = String::from("commands:\n");
        let direction = if self.rules.program.sowing.direction.has_choice() {
            "3cw, 3ccw      sow hole 3 clockwise or counterclockwise (3 alone: counterclockwise)"
        } else {
            "3              sow hole 3 (holes are numbered on the board)"
        };
        for line in [
            direction,
            "moves, legal   the legal moves",
            "board          the board again",
            "details        every seed sown by the moves just played (a lap a line otherwise)",
            "undo           take back the last move (against an agent: back to your previous turn)",
        ] {
            let _ = writeln!(text, "  {line}");
        }
        let _ = writeln!(
            text,
            "  hint [DEPTH]   the move alphabeta:DEPTH would play and its value (depth {HINT_DEPTH} if not given, 1 to {MAX_HINT_DEPTH})"
        );
        let _ = writeln!(
            text,
            "  save FILE      write the moves played, comma-separated, as `sowlab trace` replays them:\n                 {} --moves \"$(cat FILE)\"\n  save! FILE     the same, replacing FILE if it exists",
            self.setup.replay
        );
        text.push_str("  help           this list\n  quit           end the session (so does the end of the input)\n");
        text
    }

    /// Who is to move and what they can play, or how the game ended.
    fn status(&mut self) -> String {
        let Some(side) = self.game.to_move() else {
            return self.result();
        };
        let line = format!(
            "{side}{} to move; legal moves: {}",
            self.role(side),
            self.legal()
        );
        format!("{}\n", self.paint(BOLD, &line))
    }

    /// The end of the game: the result, why, the final totals, and how to keep the game; for
    /// a game over before its first move, the one line that says so, and why.
    fn result(&self) -> String {
        if let Some(over) = OverAtStart::of(&self.game) {
            let line = format!("game over before the first move: {over}");
            return format!("{}\n", self.paint(BOLD, &line));
        }
        let outcome = self.game.outcome().expect("the game is over");
        let winner = match outcome.winner {
            Some(side) => format!("{side}{} wins", self.role(side)),
            None => "a draw".into(),
        };
        let [south, north] = self.game.position().stores();
        let left = match self.game.position().board_seeds() {
            0 => String::new(),
            n => format!(", {n} left on the board"),
        };
        let mut text = self.paint(
            BOLD,
            &format!(
                "game over: {winner} ({}: {})",
                outcome.reason.name(),
                ending(outcome.reason)
            ),
        );
        let _ = write!(
            text,
            "\nfinal totals: south {south}, north {north}{left}\nsave FILE keeps the moves for `sowlab trace`; undo takes back the last move; quit ends\n"
        );
        text
    }

    /// ` (you)` or ` (alphabeta:6)` against an agent; nothing between two people.
    fn role(&self, side: Side) -> String {
        match self.setup.opponent {
            None => String::new(),
            Some(_) if side == self.setup.human => " (you)".into(),
            Some(spec) => format!(" ({spec})"),
        }
    }

    /// The legal moves, named, space-separated.
    fn legal(&mut self) -> String {
        let legal: Vec<String> = self
            .game
            .legal_moves()
            .into_iter()
            .map(|mv| mv.name(self.rules))
            .collect();
        legal.join(" ")
    }

    /// The draws for the move about to be made (or hinted): a stream of the seed per move
    /// number, so an undone move answered again meets the same draws, and a session is a pure
    /// function of its setup and its input.
    fn rng(&self, purpose: u64) -> ChaCha8Rng {
        let mut rng = ChaCha8Rng::seed_from_u64(self.setup.seed);
        rng.set_stream(2 * self.moves.len() as u64 + purpose);
        rng
    }

    /// Captures and extra turns in colour, on a terminal.
    fn highlight(&self, account: &str) -> String {
        account
            .lines()
            .map(|line| {
                let trimmed = line.trim_start();
                let colour = if trimmed.starts_with("capture") || trimmed.starts_with("raid") {
                    Some(YELLOW)
                } else if trimmed.starts_with("another turn") || trimmed.starts_with("house") {
                    Some(CYAN)
                } else {
                    None
                };
                match colour {
                    Some(code) => self.paint(code, line) + "\n",
                    None => format!("{line}\n"),
                }
            })
            .collect()
    }

    fn paint(&self, code: &str, text: &str) -> String {
        if self.setup.colour {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }
}

const BOLD: &str = "1";
const YELLOW: &str = "33";
const CYAN: &str = "36";

/// An end reason in words.
fn ending(reason: EndReason) -> &'static str {
    match reason {
        EndReason::LastSeeds => "the last seeds went to a player",
        EndReason::Majority => "a player captured more than half the seeds",
        EndReason::EmptyRow => "a move left a row empty",
        EndReason::Singletons => "no hole holds more than one seed",
        EndReason::Quiet => "too many moves without a capture",
        EndReason::Emptied => "the mover emptied their own holes",
        EndReason::Unfeedable => "the opponent's row was empty and no move could feed it",
        EndReason::GrandSlam => "a grand slam",
        EndReason::Stuck => "the player to move could not move",
        EndReason::EndlessMove => "a move whose sowing never ends",
        EndReason::BoardEmpty => "no seed is left in play",
        EndReason::NoMoves => "neither player could move",
        EndReason::Cap => "the move cap was reached",
        EndReason::Repetition => "a position occurred for the third time",
    }
}

/// What a search value means for `side`, in words: a result the search saw to the end of the
/// game with best play by both, or a lead in captures `depth` moves ahead.
pub fn hint_words(side: Side, value: i32, depth: u8) -> String {
    let ahead = format!("{depth} moves ahead, with best play by both");
    // A finished game is worth WIN plus the mover's final margin, won, or minus WIN plus it,
    // lost (a game may be won by a rule other than the larger store).
    let margin = |m: i32| match m {
        0 => "level in seeds".to_string(),
        m if m > 0 => format!("{m} seeds ahead"),
        m => format!("{} seeds behind", -m),
    };
    match value {
        v if v > WIN / 2 && v - WIN > 0 => format!("{side} wins by {} with best play", v - WIN),
        v if v > WIN / 2 => format!("{side} wins, {}, with best play", margin(v - WIN)),
        v if v < -WIN / 2 && v + WIN < 0 => {
            format!("{side} loses by {} with best play", -(v + WIN))
        }
        v if v < -WIN / 2 => format!("{side} loses, {}, with best play", margin(v + WIN)),
        0 => format!("level in captures {ahead}"),
        v if v > 0 => format!("{side} leads by {v} {ahead}"),
        v => format!("{side} trails by {} {ahead}", -v),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang;

    /// Kalah, on a board of `holes` holes of `seeds` seeds.
    fn kalah(holes: u32, seeds: u32) -> Rules {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("variants/kalah.sow");
        let settings = [
            ("holes".to_string(), holes.to_string()),
            ("seeds".to_string(), seeds.to_string()),
        ];
        lang::compile_path(&path, &settings).expect("kalah compiles")
    }

    fn setup(opponent: Option<AgentSpec>) -> Setup {
        Setup {
            opponent,
            human: Side::South,
            seed: 7,
            source: "kalah.sow".into(),
            replay: "sowlab trace kalah.sow".into(),
            colour: false,
            forced: false,
        }
    }

    #[test]
    fn two_people_play_to_the_end_and_save_the_moves_as_trace_takes_them() {
        let rules = kalah(3, 2);
        let (mut session, opening) = Session::start(&rules, setup(None));
        assert!(
            opening.ends_with("south to move; legal moves: 0 1 2\n"),
            "{opening}"
        );
        let mut last = String::new();
        for mv in ["0", "3", "2", "5", "0", "3", "1", "3", "2"] {
            last = session.command(mv).text;
        }
        assert!(last.contains("game over: north wins (empty-row"), "{last}");
        assert!(last.contains("final totals: south 3, north 9\n"), "{last}");
        assert_eq!(session.prompt(), "game over> ");
        let save = session
            .command("save  my game.txt ")
            .save
            .expect("a file to write");
        assert_eq!(save.path, PathBuf::from("my game.txt"));
        assert_eq!(save.contents, "0,3,2,5,0,3,1,3,2\n");
        let quit = session.command("quit");
        assert!(
            quit.quit && quit.text.contains("after 9 move(s)"),
            "{quit:?}"
        );
    }

    #[test]
    fn refused_commands_change_nothing() {
        let rules = kalah(6, 4);
        let (mut session, _) = Session::start(&rules, setup(None));
        for (line, answer) in [
            (
                "7",
                "hole 7 cannot be played: it is not the mover's hole; south can play 0 1 2 3 4 5\n",
            ),
            ("2cw", "in this variant the direction is not chosen"),
            ("undo", "nothing to undo: no move has been played\n"),
            ("hint 0", "`hint` takes a depth from 1 to 12"),
            ("save", "`save` needs a file name"),
            ("save x.txt", "no moves to save yet\n"),
            ("undo now", "`undo` takes nothing after it\n"),
            ("play 3", "`play 3` is neither a move nor a command"),
        ] {
            let reply = session.command(line);
            assert!(reply.text.starts_with(answer), "{line}: {}", reply.text);
            assert!(reply.save.is_none() && !reply.quit, "{line}");
        }
        assert!(session.moves().is_empty() && session.command("").text.is_empty());
    }

    #[test]
    fn undo_against_an_agent_meets_the_same_reply_again() {
        let rules = kalah(6, 4);
        let (mut session, _) = Session::start(&rules, setup(Some(AgentSpec::Random)));
        let first = session.command("1").text;
        let moves = session.moves();
        assert!(moves.len() > 1, "the agent replied: {first}");
        let undone = session.command("undo").text;
        assert!(
            undone.starts_with("took back move 1 (south 1), move 2 (north "),
            "{undone}"
        );
        assert!(session.moves().is_empty() && session.game().position().stores() == [0, 0]);
        assert_eq!(session.command("1").text, first);
        assert_eq!(session.moves(), moves);
    }

    #[test]
    fn hint_reads_a_won_game_as_a_win() {
        let rules = kalah(2, 1);
        let (mut session, _) = Session::start(&rules, setup(None));
        let hint = session.command("hint 12").text;
        assert!(
            hint.contains(" — south wins by ")
                && hint.ends_with(" with best play (alphabeta:12)\n"),
            "{hint}"
        );
        // Asking does not play.
        assert!(session.moves().is_empty());
    }
}
