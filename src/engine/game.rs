//! A game in progress: the position plus what the end rules need (history, counters), legal
//! moves, playing a move, passes, and the end of the game.
//!
//! A move is a hole, plus [`CLOCKWISE`] when the variant lets the mover choose the direction
//! and the mover sows it clockwise (see [`Game::legal_moves`] and [`move_name`]).

use serde::{Deserialize, Serialize};

use crate::rules::{
    Award, Direction, DirectionRule, Endless, FeedDuty, LastSeedsCheck, MoveFilter, NoMove,
    RowTest, Rules, Scoring, Side, Unfeedable,
};

use super::event::{Event, EventSink};
use super::position::{Position, Scan};
use super::sow::{sow, Context, Refusal, Sown};

/// Added to a hole, a move that sows it clockwise, where the mover chooses the direction.
pub const CLOCKWISE: usize = 32;

/// A move as traces write it: the hole, then `cw`/`ccw` where the mover chose the direction.
pub fn move_name(rules: &Rules, mv: usize) -> String {
    let hole = mv % CLOCKWISE;
    let n = rules.holes_per_row();
    if !rules.program.sowing.direction.chooses_at(hole % n, n) {
        return hole.to_string();
    }
    if mv >= CLOCKWISE {
        format!("{hole}cw")
    } else {
        format!("{hole}ccw")
    }
}

/// Reads a move as [`move_name`] writes it (`7`, `7cw`, `7ccw`); `None` if it is not one.
pub fn parse_move(text: &str) -> Option<usize> {
    let text = text.trim();
    let (digits, clockwise) = if let Some(d) = text.strip_suffix("ccw") {
        (d, false)
    } else if let Some(d) = text.strip_suffix("cw") {
        (d, true)
    } else {
        (text, false)
    };
    let hole: usize = digits.parse().ok()?;
    (hole < CLOCKWISE).then_some(hole + usize::from(clockwise) * CLOCKWISE)
}

/// Why a game ended: serialised (in `games.csv`, traces) by its [`EndReason::name`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EndReason {
    /// The last seeds went to a player (R2). The default only names CSV columns
    /// (`sim::record`).
    #[default]
    LastSeeds,
    /// A player captured more than half the seeds.
    Majority,
    /// A move left a row empty (Kalah).
    EmptyRow,
    /// A move left no hole with more than one seed.
    Singletons,
    /// Moves went by without a capture, as many as the rules allow.
    Quiet,
    /// The mover emptied their own holes, which wins.
    Emptied,
    /// The opponent's row was empty and no move could feed it (R8).
    Unfeedable,
    /// A grand slam ended the game (the seeds left go to the player captured from).
    GrandSlam,
    /// The player to move could not move and the rules end the game then (En Dodoi).
    Stuck,
    /// A move whose sowing never ends was chosen, and the rules end the game then (R11).
    EndlessMove,
    /// No seed is left in play: every one was captured, or lies in a house.
    BoardEmpty,
    /// Neither player had a legal move, seeds still on the board.
    NoMoves,
    /// The move cap was reached (R10).
    Cap,
    /// A position occurred for the third time (R10).
    Repetition,
}

/// The class of a game's end, as traces and CSV files give it: serialised by its
/// [`EndClass::name`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EndClass {
    /// An end rule of the variant. The default only names CSV columns (`sim::record`).
    #[default]
    Normal,
    /// Neither player had a legal move, seeds still on the board.
    NoMoves,
    /// The move cap was reached (R10).
    Cap,
    /// A position occurred for the third time (R10).
    Repetition,
}

impl EndClass {
    /// `normal`, `no-moves`, `cap` or `repetition`.
    pub fn name(self) -> &'static str {
        match self {
            EndClass::Normal => "normal",
            EndClass::NoMoves => "no-moves",
            EndClass::Cap => "cap",
            EndClass::Repetition => "repetition",
        }
    }

    /// Whether the game was stopped (by the move cap or by repetition) rather than ended by
    /// a rule or by nobody being able to move.
    pub fn unfinished(self) -> bool {
        matches!(self, EndClass::Cap | EndClass::Repetition)
    }
}

impl EndReason {
    /// The reason's class: [`EndClass::Normal`] for an end rule of the variant, else the
    /// reason itself.
    pub fn class(self) -> EndClass {
        match self {
            EndReason::NoMoves => EndClass::NoMoves,
            EndReason::Cap => EndClass::Cap,
            EndReason::Repetition => EndClass::Repetition,
            EndReason::LastSeeds
            | EndReason::Majority
            | EndReason::EmptyRow
            | EndReason::Singletons
            | EndReason::Quiet
            | EndReason::Emptied
            | EndReason::Unfeedable
            | EndReason::GrandSlam
            | EndReason::Stuck
            | EndReason::EndlessMove
            | EndReason::BoardEmpty => EndClass::Normal,
        }
    }

    /// The precise rule, kebab-case (`last-seeds`, `unfeedable`, ...).
    pub fn name(self) -> &'static str {
        match self {
            EndReason::LastSeeds => "last-seeds",
            EndReason::Majority => "majority",
            EndReason::EmptyRow => "empty-row",
            EndReason::Singletons => "singletons",
            EndReason::Quiet => "quiet",
            EndReason::Emptied => "emptied",
            EndReason::Unfeedable => "unfeedable",
            EndReason::GrandSlam => "grand-slam",
            EndReason::Stuck => "stuck",
            EndReason::EndlessMove => "endless-move",
            EndReason::BoardEmpty => "board-empty",
            EndReason::NoMoves => "no-moves",
            EndReason::Cap => "cap",
            EndReason::Repetition => "repetition",
        }
    }
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Outcome {
    /// Why.
    pub reason: EndReason,
    /// The winner; `None` is a draw.
    pub winner: Option<Side>,
}

/// Counters kept over a game, for the simulation records.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct GameStats {
    /// Moves played (chosen holes; extra turns count, passes do not).
    pub moves: u32,
    /// Passes.
    pub passes: u32,
    /// Extra turns earned.
    pub extra_turns: u32,
    /// Capture events.
    pub captures: u32,
    /// The most laps in one move.
    pub max_laps: u32,
    /// Holes that were refused only because their sowing would never end (R11), summed over
    /// the turns of the game.
    pub endless_refused: u32,
    /// Times the drop cap was reached (R11's safety net): holes whose sowing reached it,
    /// summed over the turns of the game as they were met, and moves cut short at it.
    pub drop_cap_hits: u32,
}

/// What one move did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct MoveReport {
    /// The move played (a hole, plus [`CLOCKWISE`] for a chosen clockwise sowing).
    pub hole: usize,
    /// Who played it.
    pub side: Option<Side>,
    /// Laps sown.
    pub laps: u32,
    /// Seeds dropped.
    pub sown: u32,
    /// Capture events.
    pub captures: u32,
    /// Seeds captured.
    pub captured: u32,
    /// The move earned another turn.
    pub extra_turn: bool,
    /// Passes that followed it.
    pub passes: u32,
}

/// A move that cannot be played, with the reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("hole {hole} cannot be played: {reason}")]
pub struct PlayError {
    /// The move asked for.
    pub hole: usize,
    /// Why not.
    pub reason: Refusal,
}

/// What is known of the moves of the player to move this turn. Moves are sown only when
/// needed (to find whether any move exists, or when chosen), so a random game sows about two
/// holes per move instead of every candidate.
#[derive(Default)]
struct Turn {
    /// The moves the player to move could make, as a bit mask (holes; `CLOCKWISE` above them).
    candidates: u64,
    /// Candidates already sown.
    examined: u64,
    /// Examined candidates that are legal.
    legal: u64,
    /// The opponent's row is empty: a move must feed it.
    must_feed: bool,
    /// Every candidate is legal (see `Dispatch::candidates_legal`, and no duty to feed): a
    /// move is sown only when played, straight onto the position.
    sure: bool,
    /// Examined moves refused only because they do not feed the opponent.
    not_feeding: u64,
    /// A legal move already drawn at random for this turn by [`Game::random_playout`].
    drawn: Option<usize>,
    /// Seeds sown past the end of the mover's row leave the board this turn (`bear off`).
    bear_off: bool,
    /// The result of each examined move, by move.
    results: Vec<(Position, Sown)>,
}

/// A game: the rules, the position, and everything the end rules need.
pub struct Game<'r> {
    rules: &'r Rules,
    position: Position,
    stats: GameStats,
    last_capturer: Option<Side>,
    last_mover: Option<Side>,
    /// Who moved first (the awards `to starter`).
    starter: Side,
    /// Moves since the last capture.
    quiet: u32,
    /// The turn now being played was earned by a capture.
    capture_turn: bool,
    /// Whether each player has moved yet (for the first-move rule), South first.
    moved: [bool; 2],
    outcome: Option<Outcome>,
    /// Positions since the captured totals last changed (no earlier one can recur).
    history: History,
    round: u16,
    previous_winner: Option<Side>,
    turn: Turn,
}

// Cloned by hand so that `clone_from` keeps the turn cache's and the history's allocations:
// MCTS starts every playout from a copy of the game, and a simulation every game from a
// copy of the start.
impl Clone for Turn {
    fn clone(&self) -> Turn {
        Turn {
            results: self.results.clone(),
            ..*self
        }
    }

    fn clone_from(&mut self, source: &Turn) {
        let mut results = std::mem::take(&mut self.results);
        if results.len() == source.results.len() {
            // Only the examined moves' results are ever read: the others need not be copied.
            let mut examined = source.examined;
            while examined != 0 {
                let mv = examined.trailing_zeros() as usize;
                results[mv] = source.results[mv];
                examined &= examined - 1;
            }
        } else {
            results.clone_from(&source.results);
        }
        *self = Turn { results, ..*source };
    }
}

impl Clone for Game<'_> {
    fn clone(&self) -> Self {
        Game {
            history: self.history.clone(),
            turn: self.turn.clone(),
            ..*self
        }
    }

    fn clone_from(&mut self, source: &Self) {
        let (mut history, mut turn) = (
            std::mem::take(&mut self.history),
            std::mem::take(&mut self.turn),
        );
        history.clone_from(&source.history);
        turn.clone_from(&source.turn);
        *self = Game {
            history,
            turn,
            ..*source
        };
    }
}

impl<'r> Game<'r> {
    /// A new single game from the start position.
    pub fn new(rules: &'r Rules) -> Game<'r> {
        Game::from_position(rules, Position::initial(rules))
    }

    /// A game from a given position (its `to_move` is the player to move; passes are resolved).
    pub fn from_position(rules: &'r Rules, position: Position) -> Game<'r> {
        Game::for_round(rules, position, 1, None)
    }

    /// Round `round` of a match, from its refilled position; `previous_winner` won the round
    /// before (for the rules that depend on it).
    pub(crate) fn for_round(
        rules: &'r Rules,
        position: Position,
        round: u16,
        previous_winner: Option<Side>,
    ) -> Game<'r> {
        let slots = if rules.program.sowing.direction.has_choice() {
            2 * CLOCKWISE
        } else {
            rules.holes()
        };
        let history = History {
            positions: Vec::with_capacity(INDEX_FROM),
            ..History::default()
        };
        let turn = Turn {
            results: vec![(position, Sown::default()); slots],
            ..Turn::default()
        };
        let mut game = Game::unopened(rules, position, round, previous_winner, history, turn);
        game.start_turn(position.to_move);
        game
    }

    /// Starts round `round` of the same rules over again from `position`, as
    /// [`Game::for_round`] would, keeping this game's allocations (a match's next round).
    pub(crate) fn reset(&mut self, position: Position, round: u16, previous_winner: Option<Side>) {
        let mut history = std::mem::take(&mut self.history);
        history.clear();
        // The turn cache needs no clearing: opening the turn forgets what was examined.
        let turn = std::mem::take(&mut self.turn);
        *self = Game::unopened(self.rules, position, round, previous_winner, history, turn);
        self.start_turn(position.to_move);
    }

    /// A game about to start from `position`, in the (empty) history and turn cache given,
    /// its first turn not yet opened.
    fn unopened(
        rules: &'r Rules,
        position: Position,
        round: u16,
        previous_winner: Option<Side>,
        history: History,
        turn: Turn,
    ) -> Game<'r> {
        Game {
            rules,
            position,
            stats: GameStats::default(),
            last_capturer: None,
            last_mover: None,
            starter: position.to_move,
            quiet: 0,
            capture_turn: false,
            moved: [false; 2],
            outcome: None,
            history,
            round,
            previous_winner,
            turn,
        }
    }

    /// The rules.
    pub fn rules(&self) -> &'r Rules {
        self.rules
    }

    /// The round of a match this game is (1 for a single game).
    pub fn round(&self) -> u16 {
        self.round
    }

    /// The position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The player who chooses next; `None` once the game is over.
    pub fn to_move(&self) -> Option<Side> {
        self.outcome.is_none().then_some(self.position.to_move)
    }

    /// How the game ended, if it has.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// The positions the repetition rule counts (R10): those since the captured totals last
    /// changed, the current one last. Empty once the game is over only if it ended before any
    /// turn began.
    pub(crate) fn stretch(&self) -> impl Iterator<Item = &Position> + '_ {
        self.history.positions.iter().map(|(_, p)| p)
    }

    /// What the rest of a single game depends on besides its position, the positions the
    /// repetition rule counts ([`Game::stretch`]) and the move count where only the move cap
    /// reads it: the memories the rules consult, packed in a word, each left at zero where
    /// these rules never read it. Two games of one variant's round 1 that agree on these
    /// (and on the move count, or are both out of the cap's reach) play on alike.
    pub(crate) fn memory(&self) -> u64 {
        let rules = self.rules;
        let program = &rules.program;
        let ending = &program.ending;
        let awards = [
            ending.last_seeds.map(|r| r.to),
            ending.majority.map(|m| m.award),
            ending.empty_row.map(|(_, a)| a),
            ending.singletons,
            ending.quiet.map(|(_, a)| a),
            match ending.no_move {
                NoMove::EndGame(a) => Some(a),
                NoMove::Pass => None,
            },
            Some(ending.cap_award),
            Some(ending.repetition_award),
            match program.feeding.map(|f| f.unfeedable) {
                Some(Unfeedable::Ends(a)) => Some(a),
                _ => None,
            },
        ];
        let round_awards = program
            .matches
            .iter()
            .flat_map(|m| m.round_rules.iter().map(|r| Some(r.last_seeds_to)));
        let mut awards = awards.into_iter().chain(round_awards).flatten();
        let (mut capturer, mut last_mover) = (ending.last_seeds.is_some(), false);
        for award in &mut awards {
            capturer |= matches!(award, Award::Capturer | Award::PreviousWinner);
            last_mover |= award == Award::LastMover;
        }
        let side = |s: Option<Side>| s.map_or(0, |s| s.index() as u64 + 1);
        let mut word = u64::from(self.capture_turn) | (self.position.to_move.index() as u64) << 1;
        if capturer {
            word |= side(self.last_capturer) << 2;
        }
        if last_mover {
            word |= side(self.last_mover) << 4;
        }
        if program.sowing.first_move.is_some_and(|f| !f.game_only) {
            word |= u64::from(self.moved[0]) << 6 | u64::from(self.moved[1]) << 7;
        }
        // The move count matters to openings, a first move of the game and captures that
        // start at a later move; past those, only to the move cap.
        let first_move = program.sowing.first_move.is_some_and(|f| f.game_only);
        let early = program
            .captures
            .iter()
            .map(|c| c.from_move)
            .chain([program.sowing.opening.len() as u32, u32::from(first_move)])
            .max()
            .unwrap_or(0);
        word |= u64::from(self.stats.moves.min(early).min(0xff_ffff)) << 8;
        if let Some((moves, _)) = ending.quiet {
            word |= u64::from(self.quiet.min(moves)) << 32;
        }
        word
    }

    /// Counters so far.
    pub fn stats(&self) -> &GameStats {
        &self.stats
    }

    /// The legal moves of the player to move, as a bit mask of moves (sows every candidate
    /// not yet tried).
    pub fn legal_mask(&mut self) -> u64 {
        let mut unknown = self.turn.candidates & !self.turn.examined;
        while unknown != 0 {
            self.examine(unknown.trailing_zeros() as usize);
            unknown &= unknown - 1;
        }
        self.turn.legal
    }

    /// The legal moves of the player to move, ascending: holes, and where the mover chooses
    /// the direction, holes plus [`CLOCKWISE`] for clockwise sowings.
    pub fn legal_moves(&mut self) -> Vec<usize> {
        let mask = self.legal_mask();
        (0..64).filter(|p| mask >> p & 1 == 1).collect()
    }

    /// The position a legal move leads to, before end rules and passes: for agents that look
    /// at the immediate result of a move.
    pub fn preview(&mut self, mv: usize) -> Option<&Position> {
        (mv < self.turn.results.len() && self.examine(mv)).then(|| &self.turn.results[mv].0)
    }

    /// Plays a legal move chosen uniformly at random; `None` when the game is over.
    // Forced inline: `play_random_out` calls it every move, and its report is then dropped unmade.
    #[inline(always)]
    pub fn play_random<R: rand::Rng>(&mut self, rng: &mut R) -> Option<MoveReport> {
        let mv = self.draw(rng)?;
        Some(self.commit(mv, None))
    }

    /// Plays uniformly random legal moves to the end of the game, the first `opening` drawn
    /// from `streams[2]`, then each from the stream of the player to move (`streams[0]` South's,
    /// `streams[1]` North's); returns the moves played.
    ///
    /// Move for move the game that calling [`Game::play_random`] with those streams gives (two
    /// random agents, each with its stream), in one loop with no report per move.
    // Kept a call of its own: inlined into `sim::play_out`, it cost `simulate` 17 instructions
    // a Hoyito I move (1,042 against 1,025 over 40,000 games).
    #[inline(never)]
    pub fn play_random_out<R: rand::Rng>(&mut self, streams: &mut [R; 3], opening: u32) -> u32 {
        let mut moves = 0;
        loop {
            let stream = if moves < opening {
                2
            } else {
                self.position.to_move.index()
            };
            if self.play_random(&mut streams[stream]).is_none() {
                return moves;
            }
            moves += 1;
        }
    }

    /// Plays uniformly random legal moves to the end of the game; returns the moves played.
    ///
    /// The same game as calling [`Game::play_random`] until the end would give in law, but not
    /// move for move: here the draw for the next turn also serves as the check that the next
    /// player can move, which saves sowing a hole per move (the playout loop of simulations
    /// and MCTS).
    pub fn random_playout<R: rand::Rng>(&mut self, rng: &mut R) -> u32 {
        let mut moves = 0;
        while let Some(mv) = self.turn.drawn.take().or_else(|| self.draw(rng)) {
            self.commit(mv, Some(rng));
            moves += 1;
        }
        moves
    }

    /// Draws a legal move uniformly at random, sowing candidates as needed; `None` if there is
    /// none (the game is over).
    #[inline(always)]
    fn draw(&mut self, rng: &mut dyn rand::RngCore) -> Option<usize> {
        // Rejection without replacement: a uniform pick among the untried-or-legal candidates,
        // dropping illegal ones as they are found, is a uniform pick among the legal moves.
        let mut pool = self.turn.candidates & !(self.turn.examined & !self.turn.legal);
        while pool != 0 {
            let mv = nth_bit(pool, rand::Rng::gen_range(rng, 0..pool.count_ones()));
            if self.known_legal(mv) || self.examine(mv) {
                return Some(mv);
            }
            pool &= !(1 << mv);
        }
        None
    }

    /// Plays a move.
    ///
    /// # Errors
    /// When the game is over or the move is not legal; the game is then unchanged.
    pub fn play(&mut self, mv: usize) -> Result<MoveReport, PlayError> {
        self.check(mv)?;
        Ok(self.commit(mv, None))
    }

    /// Plays a move, reporting every step of the sowing to `sink`.
    ///
    /// # Errors
    /// As [`Game::play`].
    pub fn play_traced<S: EventSink>(
        &mut self,
        mv: usize,
        sink: &mut S,
    ) -> Result<MoveReport, PlayError> {
        self.check(mv)?;
        if self.turn.results[mv].1.endless {
            // A never-ending move the rules let end the game: there is no sowing to show.
            return Ok(self.commit(mv, None));
        }
        let mut position = self.position;
        let ctx = self.context(mv).ok_or(PlayError {
            hole: mv,
            reason: Refusal::Direction,
        })?;
        let mut sown = Sown::default();
        sow(
            self.rules,
            &mut position,
            mv % CLOCKWISE,
            ctx,
            sink,
            &mut sown,
        )
        .map_err(|reason| PlayError { hole: mv, reason })?;
        if let (Some(side), Some(seeds)) = (sown.last_capturer, sown.last_seeds) {
            let on_board: u32 = position.board_seeds();
            sink.event(Event::LastSeeds {
                to: self.last_seeds_recipient(side),
                seeds: on_board + u32::from(seeds),
            });
        }
        // The same result as the cached one, now with its events told.
        self.turn.results[mv] = (position, sown);
        Ok(self.commit(mv, None))
    }

    fn check(&mut self, mv: usize) -> Result<(), PlayError> {
        let refuse = |reason| Err(PlayError { hole: mv, reason });
        if self.outcome.is_some() {
            return refuse(Refusal::GameOver);
        }
        if mv % CLOCKWISE >= self.rules.holes() || mv >= self.turn.results.len() {
            return refuse(Refusal::NoSuchHole);
        }
        if !self.examine(mv) {
            return refuse(self.refusal(mv));
        }
        Ok(())
    }

    /// Why an illegal move is illegal (sowing it again: this is the error path).
    fn refusal(&self, mv: usize) -> Refusal {
        let hole = mv % CLOCKWISE;
        let bit = 1u64 << hole;
        let position = &self.position;
        if position.owner(hole) != position.to_move {
            return Refusal::NotOwnHole;
        }
        if position.closed() & bit != 0 {
            return Refusal::Closed;
        }
        if position.houses() & bit != 0 {
            return Refusal::House;
        }
        if position.locked & bit != 0 {
            return Refusal::Locked;
        }
        if position.seeds[hole] == 0 {
            return Refusal::Empty;
        }
        if position.seeds[hole] < self.min_seeds(position.to_move) {
            return Refusal::TooFew;
        }
        if self.context(mv).is_none() {
            return Refusal::Direction;
        }
        if self.position.candidates(position.to_move, 1) & bit != 0
            && self.turn.candidates >> mv & 1 == 0
        {
            return Refusal::Opening;
        }
        if self.turn.not_feeding >> mv & 1 != 0 {
            return Refusal::DoesNotFeed;
        }
        let mut after = self.position;
        let ctx = self.context(mv).expect("checked above");
        let mut sown = Sown::default();
        match sow(self.rules, &mut after, hole, ctx, &mut (), &mut sown) {
            Err(reason) => reason,
            Ok(()) if !self.passes_filter(hole, &after, &sown) => Refusal::MoveFilter,
            Ok(()) => Refusal::DoesNotFeed,
        }
    }

    /// What the interpreter needs to know of move `mv`; `None` if its hole cannot be sown in
    /// the direction it asks.
    #[inline(always)]
    fn context(&self, mv: usize) -> Option<Context> {
        let hole = mv % CLOCKWISE;
        let clockwise = mv >= CLOCKWISE;
        let counterclockwise = Direction::Counterclockwise;
        let direction = match self.rules.program.sowing.direction {
            DirectionRule::Fixed(d) => (!clockwise).then_some(d)?,
            DirectionRule::Chosen if clockwise => Direction::Clockwise,
            DirectionRule::Chosen => counterclockwise,
            DirectionRule::ByParity { odd } => {
                let odd_count = self.position.seeds[hole] % 2 == 1;
                let d = if odd_count { odd } else { odd.reverse() };
                (!clockwise).then_some(d)?
            }
            DirectionRule::ByHole { outward } => {
                let n = self.rules.holes_per_row();
                let place = if hole < n { hole } else { hole - n };
                if n % 2 == 1 && place == n / 2 {
                    // A middle hole sows either way: the mover chooses.
                    if clockwise {
                        Direction::Clockwise
                    } else {
                        counterclockwise
                    }
                } else if clockwise {
                    return None;
                } else {
                    // From the left half, outward sowing runs towards the row's left end:
                    // decreasing hole numbers, clockwise, for either player.
                    let left = place < n / 2;
                    if left == outward {
                        Direction::Clockwise
                    } else {
                        counterclockwise
                    }
                }
            }
        };
        let mover = self.position.to_move;
        Some(Context {
            direction,
            number: self.stats.moves + 1,
            after_capture_turn: self.capture_turn,
            last_seed_across: self
                .rules
                .program
                .sowing
                .first_move
                .is_some_and(|f| f.last_seed_across)
                && self.first_move_bound(mover),
            bear_off: self.turn.bear_off,
        })
    }

    /// The seeds a hole of `side`'s must hold to be played now.
    fn min_seeds(&self, side: Side) -> u16 {
        let sowing = &self.rules.program.sowing;
        let waived =
            sowing.min_seeds_waived && self.position.candidates(side, sowing.min_seeds) == 0;
        if waived {
            1
        } else {
            sowing.min_seeds
        }
    }

    /// Whether `side`'s next move is one the rules' `first move` binds.
    fn first_move_bound(&self, side: Side) -> bool {
        match self.rules.program.sowing.first_move {
            Some(first) if first.game_only => self.stats.moves == 0,
            Some(_) => !self.moved[side.index()],
            None => false,
        }
    }

    /// Whether a move from `hole`, sown, passes the rules' test on its first lap.
    fn passes_filter(&self, hole: usize, after: &Position, sown: &Sown) -> bool {
        let Some(filter) = self.rules.program.sowing.move_filter else {
            return true;
        };
        let mover = self.position.to_move;
        let own = |hole: usize| hole < self.rules.holes() && after.owner(hole) == mover;
        let (landing, count) = sown.first_landing;
        let landing = usize::from(landing);
        match filter {
            MoveFilter::NotIntoOccupiedOwn => !(own(landing) && count > 1),
            MoveFilter::ReachesOpponentOrEmptyOwn => {
                sown.fed_first_lap || (own(landing) && count == 1)
            }
            // What the first lap lifted, not what the whole move dropped: a single seed that
            // relays is still a single seed sown into an occupied hole.
            MoveFilter::SingleIntoEmpty => self.position.seeds[hole] > 1 || count == 1,
        }
    }

    /// Starts a turn for `side`: nothing sown yet. `occupied` is the position's
    /// [`Position::occupied`].
    fn open_turn(&mut self, side: Side, occupied: u64) {
        let rules = self.rules;
        self.position.to_move = side;
        // Most variants play any non-empty open hole: no need to look at the rules below.
        let candidates = if rules.dispatch.plain_turns {
            occupied & self.position.playable(side)
        } else {
            self.ruled_candidates(side)
        };
        let turn = &mut self.turn;
        turn.candidates = candidates;
        turn.examined = 0;
        turn.legal = 0;
        // The opponent's row is looked at only where a feeding rule asks.
        let position = &self.position;
        turn.must_feed = rules.program.feeding.is_some_and(|f| {
            f.duty == FeedDuty::Always || position.row_empty_of(side.other(), occupied)
        });
        turn.sure = rules.dispatch.candidates_legal && !turn.must_feed;
        turn.not_feeding = 0;
        turn.drawn = None;
        // Judged once a turn, on the position the turn starts from.
        turn.bear_off = rules
            .program
            .sowing
            .bear_off
            .is_some_and(|most| self.position.board().iter().all(|&n| n <= most));
    }

    /// The moves `side`, to move, may try under the minimum seeds, the opening, the first-move
    /// rule and the choice of direction.
    fn ruled_candidates(&self, side: Side) -> u64 {
        let rules = self.rules;
        let sowing = &rules.program.sowing;
        let mut holes = self.position.candidates(side, self.min_seeds(side));
        let played = self.stats.moves as usize;
        if let Some(&hole) = sowing.opening.get(played) {
            holes &= 1 << hole;
        } else if let Some(first) = sowing.first_move.filter(|_| self.first_move_bound(side)) {
            let start = if side == Side::South {
                0
            } else {
                rules.holes_per_row()
            };
            holes &= u64::from(first.places) << start;
        }
        if sowing.direction.has_choice() {
            let mut moves = 0;
            let mut rest = holes;
            while rest != 0 {
                let hole = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                for mv in [hole, hole + CLOCKWISE] {
                    if self.context(mv).is_some() {
                        moves |= 1 << mv;
                    }
                }
            }
            moves
        } else {
            holes
        }
    }

    /// Whether move `mv` is legal for the player to move, sowing it if that is not known yet.
    fn examine(&mut self, mv: usize) -> bool {
        let turn = &mut self.turn;
        let bit = 1u64 << mv;
        if turn.examined & bit != 0 {
            return turn.legal & bit != 0;
        }
        if turn.candidates & bit == 0 {
            return false;
        }
        turn.examined |= bit;
        let rules = self.rules;
        let side = self.position.to_move;
        let Some(ctx) = self.context(mv) else {
            return false;
        };
        let turn = &mut self.turn;
        // Sow straight into the turn's slot for this move: no copy on the hot path.
        let (after, kept) = &mut turn.results[mv];
        *after = self.position;
        match sow(rules, after, mv % CLOCKWISE, ctx, &mut (), kept) {
            Ok(()) => {
                let (after, sown) = &self.turn.results[mv];
                if !self.passes_filter(mv % CLOCKWISE, after, sown) {
                    // Refused by the move filter.
                } else if self.turn.must_feed && !feeds(rules, after, sown, side) {
                    self.turn.not_feeding |= bit;
                } else {
                    self.turn.legal |= bit;
                }
            }
            // A sowing that reaches the drop cap is taken for an endless one: the cap is there
            // to stop sowings the cycle detector has not caught (yet).
            Err(refusal @ (Refusal::Endless | Refusal::DropCap))
                if rules.program.ending.endless == Endless::EndsGame =>
            {
                if refusal == Refusal::DropCap {
                    self.stats.drop_cap_hits += 1;
                }
                // Legal; choosing it ends the game, from the position before the move.
                turn.legal |= bit;
                turn.results[mv] = (
                    self.position,
                    Sown {
                        endless: true,
                        ..Sown::default()
                    },
                );
            }
            Err(Refusal::Endless) => self.stats.endless_refused += 1,
            Err(Refusal::DropCap) => self.stats.drop_cap_hits += 1,
            Err(_) => {}
        }
        self.turn.legal & bit != 0
    }

    /// Whether candidate `mv` of the player to move is known to be legal without sowing it:
    /// the turn is sure, or the move's lap lands on an empty hole.
    #[inline(always)]
    fn known_legal(&self, mv: usize) -> bool {
        self.turn.sure || self.lands_on_empty(mv)
    }

    /// Whether candidate `mv`'s lap ends in an empty hole before coming round, which ends the
    /// move, so that it is legal (`Dispatch::ends_on_empty`).
    #[inline(always)]
    fn lands_on_empty(&self, mv: usize) -> bool {
        let position = &self.position;
        if !self.rules.dispatch.ends_on_empty || self.turn.must_feed || position.closed != 0 {
            return false;
        }
        // The direction is fixed, so the move is its hole.
        let landing = &self.rules.geometry.landing[position.to_move.index()][mv];
        landing
            .get(usize::from(position.seeds[mv]))
            .and_then(|&at| position.seeds.get(usize::from(at)))
            == Some(&0)
    }

    /// Whether the player to move has a legal move (sowing candidates in order until one is
    /// found, unless it is known to be legal unsown).
    fn any_legal(&mut self) -> bool {
        if self.turn.legal != 0 {
            return true;
        }
        if self.turn.sure {
            return self.turn.candidates != 0;
        }
        let mut unknown = self.turn.candidates & !self.turn.examined;
        while unknown != 0 {
            let mv = unknown.trailing_zeros() as usize;
            if self.lands_on_empty(mv) || self.examine(mv) {
                return true;
            }
            unknown &= unknown - 1;
        }
        false
    }

    /// Applies a legal move's sown result (from the turn's cache, or, for a move known to be
    /// legal and not tried, sown now), then the end rules, then starts the next turn; `probe`
    /// as in [`Game::start_turn_probing`].
    // Forced inline: the random loops are its hot callers, and as a call it cost them 5 to 30
    // instructions a move.
    #[inline(always)]
    fn commit(&mut self, mv: usize, probe: Option<&mut dyn rand::RngCore>) -> MoveReport {
        let mover = self.position.to_move;
        let sown = if self.turn.examined >> mv & 1 == 1 {
            let (after, sown) = &self.turn.results[mv];
            // A never-ending move ends the game from the position before it.
            if !sown.endless {
                self.position = *after;
            }
            *sown
        } else {
            self.sow_in_place(mv)
        };
        self.stats.moves += 1;
        self.moved[mover.index()] = true;
        self.last_mover = Some(mover);
        let mut report = MoveReport {
            hole: mv,
            side: Some(mover),
            laps: sown.laps,
            sown: sown.drops,
            captures: sown.captures,
            captured: sown.captured,
            extra_turn: sown.extra_turn,
            passes: 0,
        };
        if sown.endless {
            self.finish(EndReason::EndlessMove, Award::Owners, 0, None);
            return report;
        }
        self.stats.max_laps = self.stats.max_laps.max(sown.laps);
        if sown.capped {
            self.stats.drop_cap_hits += 1;
        }
        self.stats.captures += sown.captures;
        self.quiet = if sown.captures > 0 { 0 } else { self.quiet + 1 };
        if sown.last_capturer.is_some() {
            self.last_capturer = sown.last_capturer;
        }
        if sown.extra_turn {
            self.stats.extra_turns += 1;
        }
        self.capture_turn = sown.extra_turn && sown.capture_turn;
        if let Some(hand) = sown.last_seeds {
            let award = self.last_seeds_award();
            self.finish(EndReason::LastSeeds, award, hand, None);
            return report;
        }
        if sown.grand_slam_ends {
            // The mover is still the player to move: the opponent is the one captured from.
            self.finish(EndReason::GrandSlam, Award::Opponent, 0, None);
            return report;
        }
        let scan = self.position.scan();
        let ended = if self.rules.dispatch.ends_after_move {
            self.end_after_move(mover, scan.occupied)
        } else {
            None
        };
        if let Some((reason, award, winner)) = ended {
            self.finish(reason, award, 0, winner);
            return report;
        }
        let passes = self.stats.passes;
        let next = if sown.extra_turn {
            mover
        } else {
            mover.other()
        };
        self.start_turn_probing(next, scan, probe);
        report.passes = self.stats.passes - passes;
        report
    }

    /// Sows move `mv`, known to be legal and never tried (`draw` took it without sowing it: a
    /// move of a sure turn, or one that lands on an empty hole), straight onto the position.
    // Forced inline: with `commit` inlined into several callers, the compiler left it a call of
    // its own, which cost the loop of two random agents 9 to 23 instructions a move.
    #[inline(always)]
    fn sow_in_place(&mut self, mv: usize) -> Sown {
        debug_assert!(self.known_legal(mv));
        let ctx = self
            .context(mv)
            .expect("a candidate can be sown in its direction");
        let mut sown = Sown::default();
        sow(
            self.rules,
            &mut self.position,
            mv % CLOCKWISE,
            ctx,
            &mut (),
            &mut sown,
        )
        .expect("a move drawn unsown is legal");
        sown
    }

    /// End rules looked at once `mover`'s move is over: the reason, the award, and the winner
    /// when a rule names one. `Dispatch::ends_after_move` says whether any of them applies;
    /// `occupied` is the position's [`Position::occupied`].
    // Forced inline: a call of its own cost the loop of two random agents 20 instructions a move.
    #[inline(always)]
    fn end_after_move(
        &self,
        mover: Side,
        occupied: u64,
    ) -> Option<(EndReason, Award, Option<Option<Side>>)> {
        let ending = &self.rules.program.ending;
        let position = &self.position;
        let total = position.total();
        let empty = |side: Side| position.row_empty_of(side, occupied);
        if ending.scoring == Scoring::EmptiedWins && empty(mover) {
            return Some((EndReason::Emptied, Award::Owners, Some(Some(mover))));
        }
        if let Some(rule) = ending.last_seeds {
            if rule.check == LastSeedsCheck::AfterMove
                && self.last_capturer.is_some()
                && position.board_seeds() <= u32::from(rule.at_most)
            {
                return Some((EndReason::LastSeeds, self.last_seeds_award(), None));
            }
        }
        if let Some(majority) = ending.majority {
            // More than half for either player, or exactly half where half is enough or both
            // have it: only the larger total can decide.
            let [s, n] = position.stores().map(u32::from);
            let most = 2 * s.max(n);
            if most > total || (most == total && (majority.at_half || s == n)) {
                return Some((EndReason::Majority, majority.award, None));
            }
        }
        if let Some((which, award)) = ending.empty_row {
            let ended = match which {
                RowTest::Either => empty(Side::South) || empty(Side::North),
                RowTest::Mover => empty(mover),
                RowTest::Opponent => empty(mover.other()),
            };
            if ended {
                return Some((EndReason::EmptyRow, award, None));
            }
        }
        if let Some(award) = ending.singletons {
            if position.board().iter().all(|&n| n <= 1) {
                return Some((EndReason::Singletons, award, None));
            }
        }
        if let Some((moves, award)) = ending.quiet {
            if self.quiet >= moves {
                return Some((EndReason::Quiet, award, None));
            }
        }
        None
    }

    /// Hands the turn to `side` (see [`Game::start_turn_probing`]).
    fn start_turn(&mut self, side: Side) {
        self.start_turn_probing(side, self.position.scan(), None);
    }

    /// Hands the turn to `side`, resolving passes, then applies repetition and the cap. Whether
    /// a player can move is found by sowing their holes in order, or, with `probe`, by drawing
    /// them at random and keeping the first legal one for [`Game::random_playout`]. `scan` is
    /// the position's [`Position::scan`], made once for the end rules, the turn and the history.
    fn start_turn_probing(
        &mut self,
        mut side: Side,
        scan: Scan,
        mut probe: Option<&mut dyn rand::RngCore>,
    ) {
        let rules = self.rules;
        for tried in 0..2 {
            self.open_turn(side, scan.occupied);
            let can_move = match probe.as_deref_mut() {
                Some(rng) => {
                    self.turn.drawn = self.draw(rng);
                    self.turn.drawn.is_some()
                }
                None => self.any_legal(),
            };
            if can_move {
                break;
            }
            if self.turn.not_feeding != 0 {
                match rules.program.feeding.map(|f| f.unfeedable) {
                    Some(Unfeedable::AnyMove) => {
                        // No move feeds: the duty lapses, and the moves it refused are legal.
                        let turn = &mut self.turn;
                        turn.must_feed = false;
                        turn.legal |= turn.not_feeding;
                        turn.not_feeding = 0;
                        turn.drawn = None;
                        break;
                    }
                    Some(Unfeedable::Ends(award)) => {
                        return self.finish(EndReason::Unfeedable, award, 0, None)
                    }
                    None => unreachable!("moves refused for not feeding need a feeding rule"),
                }
            }
            if rules.program.ending.scoring == Scoring::StuckLoses {
                let winner = Some(Some(side.other()));
                return self.finish(EndReason::Stuck, Award::Owners, 0, winner);
            }
            match rules.program.ending.no_move {
                NoMove::EndGame(award) => return self.finish(EndReason::Stuck, award, 0, None),
                NoMove::Pass if tried == 1 => {
                    // Seeds left only in houses are out of play: the game has run its course.
                    let houses = self.position.houses();
                    let in_play = (0..rules.holes())
                        .filter(|h| houses >> h & 1 == 0)
                        .map(|h| self.position.board()[h])
                        .any(|n| n > 0);
                    let reason = if in_play {
                        EndReason::NoMoves
                    } else {
                        EndReason::BoardEmpty
                    };
                    return self.finish(reason, Award::Owners, 0, None);
                }
                NoMove::Pass => {
                    self.stats.passes += 1;
                    side = side.other();
                }
            }
        }
        let ending = &rules.program.ending;
        let key = scan.key(self.position.to_move);
        if self.history.record(&self.position, key) >= usize::from(ending.repetition) {
            return self.finish(EndReason::Repetition, ending.repetition_award, 0, None);
        }
        if self.stats.moves >= ending.move_cap {
            self.finish(EndReason::Cap, ending.cap_award, 0, None);
        }
    }

    fn last_seeds_award(&self) -> Award {
        let default = self
            .rules
            .program
            .ending
            .last_seeds
            .map_or(Award::Capturer, |r| r.to);
        let Some(matches) = &self.rules.program.matches else {
            return default;
        };
        matches
            .round_rules
            .iter()
            .rev()
            .find(|r| self.round >= r.from_round)
            .map_or(default, |r| r.last_seeds_to)
    }

    fn last_seeds_recipient(&self, capturer: Side) -> Side {
        match self.last_seeds_award() {
            Award::PreviousWinner => self.previous_winner.unwrap_or(capturer),
            _ => capturer,
        }
    }

    /// Ends the game: awards the seeds left on the board (plus `hand`, seeds still being sown)
    /// and decides the winner — by the captured totals, unless `winner` says who won.
    fn finish(&mut self, reason: EndReason, award: Award, hand: u16, winner: Option<Option<Side>>) {
        let holes = self.rules.holes();
        let rules = self.rules;
        let to_move = self.position.to_move;
        let party = match award {
            Award::Capturer => self.last_capturer,
            Award::PlayerToMove => Some(to_move),
            Award::Opponent => Some(to_move.other()),
            Award::Starter => Some(self.starter),
            Award::LastMover => Some(self.last_mover.unwrap_or(to_move.other())),
            Award::PreviousWinner => self.previous_winner.or(self.last_capturer),
            Award::Owners | Award::Split | Award::SplitOddToPoorer | Award::Nobody => None,
        };
        let owned = Side::BOTH.map(|side| self.position.owned(side));
        let seeds = &mut self.position.seeds;
        match (award, party) {
            (Award::Nobody, _) => {}
            (Award::Split | Award::SplitOddToPoorer, _) => {
                let left: u16 = seeds[..holes].iter().sum::<u16>() + hand;
                seeds[..holes].fill(0);
                seeds[holes] += left / 2;
                seeds[holes + 1] += left / 2;
                let poorer = match seeds[holes].cmp(&seeds[holes + 1]) {
                    std::cmp::Ordering::Less => Some(holes),
                    std::cmp::Ordering::Greater => Some(holes + 1),
                    std::cmp::Ordering::Equal => None,
                };
                // The odd seed stays on the board (in hole 0) unless it goes to the poorer.
                let odd = match (award, poorer) {
                    (Award::SplitOddToPoorer, Some(store)) => store,
                    _ => 0,
                };
                seeds[odd] += left % 2;
            }
            (_, Some(side)) => {
                let left: u16 = seeds[..holes].iter().sum::<u16>() + hand;
                seeds[..holes].fill(0);
                seeds[holes + side.index()] += left;
            }
            (_, None) => {
                for side in Side::BOTH {
                    let mut mask = owned[side.index()];
                    while mask != 0 {
                        let hole = mask.trailing_zeros() as usize;
                        seeds[holes + side.index()] += seeds[hole];
                        seeds[hole] = 0;
                        mask &= mask - 1;
                    }
                }
                // Seeds in hand have no side; they go to the mover, whose sowing they are in.
                seeds[holes + to_move.index()] += hand;
            }
        }
        let [s, n] = self.position.stores();
        let unfinished = matches!(reason, EndReason::Cap | EndReason::Repetition);
        let winner = match winner {
            Some(winner) => winner,
            None if unfinished && rules.program.ending.unfinished_is_draw => None,
            None => match s.cmp(&n) {
                std::cmp::Ordering::Greater => Some(Side::South),
                std::cmp::Ordering::Less => Some(Side::North),
                std::cmp::Ordering::Equal => None,
            },
        };
        self.turn.candidates = 0;
        self.turn.examined = 0;
        self.turn.legal = 0;
        self.turn.drawn = None;
        self.outcome = Some(Outcome { reason, winner });
    }
}

/// Whether a move by `side` left the opponent something, as the rules judge it (R9).
fn feeds(rules: &Rules, after: &Position, sown: &Sown, side: Side) -> bool {
    match rules.program.feeding.map(|f| f.judged) {
        Some(crate::rules::FeedJudged::FirstLap) => sown.fed_first_lap,
        _ => !after.row_empty(side.other()),
    }
}

/// The position of the `n`-th set bit of `mask`.
fn nth_bit(mut mask: u64, n: u32) -> usize {
    for _ in 0..n {
        mask &= mask - 1;
    }
    mask.trailing_zeros() as usize
}

/// The positions of a game since its captured totals last changed, for the repetition rule
/// (R10): captured totals never go down, so no earlier position can occur again.
#[derive(Default)]
struct History {
    /// The positions, each with its key ([`Scan::key`]).
    positions: Vec<(u64, Position)>,
    /// The captured totals of every position of the stretch (any value while it is empty): one
    /// comparison tells a stretch's end.
    stores: [u16; 2],
    /// A Bloom filter over the keys of the first `INDEX_FROM` positions: most positions are
    /// new, and the filter says so without a scan. Cleared when a stretch's second position
    /// comes.
    seen: [u64; 32],
    /// How many recorded positions have each key, once the stretch is longer: only a key seen
    /// before needs the exact comparison, so long capture-free stretches stay cheap.
    keys: std::collections::HashMap<u64, u16, std::hash::BuildHasherDefault<Premixed>>,
}

impl Clone for History {
    fn clone(&self) -> History {
        History {
            positions: self.positions.clone(),
            stores: self.stores,
            seen: self.seen,
            keys: self.keys.clone(),
        }
    }

    fn clone_from(&mut self, source: &History) {
        self.positions.clone_from(&source.positions);
        self.stores = source.stores;
        self.seen = source.seen;
        // Refilled rather than cloned over: the table's `clone_from` takes the source's size,
        // mostly none (a game's start), and the index would be grown anew every game.
        self.keys.clear();
        self.keys.extend(&source.keys);
    }
}

impl History {
    /// Forgets every position (the filter is cleared when the next stretch needs it).
    fn clear(&mut self) {
        self.positions.clear();
        self.keys.clear();
    }

    /// Records `position`, of key `key` ([`Scan::key`]), and returns how many times it has now
    /// occurred.
    fn record(&mut self, position: &Position, key: u64) -> usize {
        let stores = position.stores();
        if stores != self.stores {
            self.clear();
            self.stores = stores;
        }
        self.positions.push((key, *position));
        // A stretch's first position is new. Many stretches end there (in Kalah most moves sow
        // into a store), so the filter waits for a second position.
        match self.positions.len() {
            1 => return 1,
            2 => {
                self.seen = [0; 32];
                mark(&mut self.seen, self.positions[0].0);
            }
            _ => {}
        }
        let count = || {
            self.positions
                .iter()
                .filter(|(k, p)| *k == key && p == position)
                .count()
        };
        // Short stretches are scanned, when the filter cannot rule a repeat out; long ones
        // index their keys.
        if self.positions.len() <= INDEX_FROM {
            return if mark(&mut self.seen, key) {
                1
            } else {
                count()
            };
        }
        if self.keys.is_empty() {
            for (k, _) in &self.positions[..self.positions.len() - 1] {
                *self.keys.entry(*k).or_insert(0) += 1;
            }
        }
        let seen = self.keys.entry(key).or_insert(0);
        *seen += 1;
        if *seen == 1 {
            1
        } else {
            count()
        }
    }
}

/// Adds `key` to the history's Bloom filter `seen`; returns whether it was surely not there.
fn mark(seen: &mut [u64; 32], key: u64) -> bool {
    let (word, bit) = ((key >> 59) as usize, 1u64 << (key & 63));
    let new = seen[word] & bit == 0;
    seen[word] |= bit;
    new
}

/// History length from which keys are indexed.
const INDEX_FROM: usize = 128;

/// A hasher for keys that are already well mixed.
#[derive(Default)]
struct Premixed(u64);

impl std::hash::Hasher for Premixed {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Positions with the same counts and player to move share a key: the history tells them
    /// apart by comparing them whole, in a short stretch (the filter) as in a long one (the
    /// index), and starts a new stretch when the captured totals change.
    #[test]
    fn the_history_counts_positions_not_their_keys() {
        let rules = crate::lang::shipped("oware");
        let start = Position::initial(&rules);
        let mut locked = start;
        locked.locked = 1;
        let key = |p: &Position| p.scan().key(p.to_move);
        assert_eq!(key(&start), key(&locked));
        let mut history = History::default();
        assert_eq!(history.record(&start, key(&start)), 1);
        assert_eq!(history.record(&locked, key(&locked)), 1);
        assert_eq!(history.record(&start, key(&start)), 2);
        for n in 0..2 * INDEX_FROM as u16 {
            let mut other = start;
            other.seeds[0] = 100 + n;
            assert_eq!(history.record(&other, key(&other)), 1);
        }
        assert_eq!(history.record(&locked, key(&locked)), 2);
        assert_eq!(history.record(&start, key(&start)), 3);
        let mut captured = start;
        captured.seeds[rules.holes()] = 4;
        assert_eq!(history.record(&captured, key(&captured)), 1);
        assert_eq!(history.record(&start, key(&start)), 1);
    }

    /// A move known to be legal unsown (every move of a sure turn; a lap landing on an empty
    /// hole in a relay game), drawn without being tried and sown straight onto the position,
    /// leaves the game as the same move tried first and played from the turn's cache does.
    #[test]
    fn a_move_known_legal_is_sown_in_place_as_a_tried_move_would_be_played() {
        use rand::SeedableRng;
        for name in ["oware", "kalah", "hoyito-i", "ayoayo"] {
            let rules = crate::lang::shipped(name);
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
            let (mut unsown, mut tried_first) = (0, 0);
            for _ in 0..100 {
                let mut drawn = Game::new(&rules);
                while !drawn.is_over() {
                    let mut tried = drawn.clone();
                    let legal = tried.legal_mask();
                    // Known legal unsown is legal; a landing on an empty hole ends the move
                    // with its first lap.
                    for mv in (0..64).filter(|&mv| tried.turn.candidates >> mv & 1 == 1) {
                        if tried.known_legal(mv) {
                            assert_eq!(legal >> mv & 1, 1, "{name}: move {mv}");
                        }
                        if tried.lands_on_empty(mv) {
                            assert_eq!(tried.turn.results[mv].1.laps, 1, "{name}: move {mv}");
                        }
                    }
                    let report = drawn.play_random(&mut rng).expect("the game is not over");
                    if tried.known_legal(report.hole) {
                        unsown += 1;
                    } else {
                        tried_first += 1;
                    }
                    assert_eq!(tried.play(report.hole), Ok(report));
                    assert_eq!(tried.position, drawn.position);
                    // Trying every move counts every endless one refused; drawing, only those
                    // drawn.
                    let endless_refused = drawn.stats.endless_refused;
                    assert_eq!(
                        GameStats {
                            endless_refused,
                            ..tried.stats
                        },
                        drawn.stats
                    );
                    assert_eq!(tried.outcome, drawn.outcome);
                }
            }
            // Both kinds of move were played (Oware's feeding duty makes some turns unsure).
            assert!(unsown > 1000, "{name}: {unsown} moves sown in place");
            assert!(
                name == "kalah" || tried_first > 0,
                "{name}: {tried_first} moves tried first"
            );
        }
    }

    /// In a relay game, a move whose lap ends in an empty hole ends there: it is legal, known
    /// to be without being sown, and sown in place it ends with that lap. Others must be sown
    /// to be known.
    #[test]
    fn a_lap_landing_on_an_empty_hole_is_known_legal_unsown() {
        let rules = crate::lang::shipped("hoyito-i");
        //   North   0 10 10 10 10  2      (holes 11 to 6)
        //   South   3  0  2  0  0  1      (holes 0 to 5), to move
        let board = [3, 0, 2, 0, 0, 1, 2, 10, 10, 10, 10, 0];
        let position = Position::from_setup(&rules, &board, [0, 0], Side::South).expect("48");
        let game = Game::from_position(&rules, position);
        assert!(game.known_legal(0)); // 1, 2, 3: hole 3 was empty
        assert!(game.known_legal(2)); // 3, 4: hole 4 was empty
        assert!(!game.known_legal(5)); // 6 holds two: the sowing relays from there
        for (hole, after) in [
            (0, [0, 1, 3, 1, 0, 1, 2, 10, 10, 10, 10, 0]),
            (2, [3, 0, 0, 1, 1, 1, 2, 10, 10, 10, 10, 0]),
        ] {
            let mut played = game.clone();
            let sown = played.sow_in_place(hole);
            assert_eq!(played.position.board(), after, "hole {hole}");
            assert_eq!(played.position.stores(), [0, 0], "hole {hole}");
            assert_eq!(
                (sown.laps, sown.drops, sown.captures),
                (1, u32::from(board[hole]), 0),
                "hole {hole}"
            );
        }
        // The landings are worked out for open holes only: with a closed hole, sow first.
        let mut closed = position;
        closed.closed = 1 << 1;
        assert!(!Game::from_position(&rules, closed).known_legal(0));
    }

    /// Oware's majority rule (48 seeds): more than half captured ends the game, and so does
    /// half each; half for one player alone ends it only under `majority: at least half`.
    #[test]
    fn a_majority_is_more_than_half_or_half_each_or_half_where_half_is_enough() {
        let more = crate::lang::shipped("oware");
        let half = crate::lang::beside_shipped(
            "extends \"oware.sow\"\nend { majority: at least half, to owners }\n",
        );
        // South has captured `s` and North `n`; the other 48 − s − n seeds are in South's
        // first hole (South moved last).
        let ended = |rules: &Rules, s: u16, n: u16| {
            let mut position = Position::initial(rules);
            position.seeds[..12].fill(0);
            position.seeds[0] = 48 - s - n;
            position.seeds[12..14].copy_from_slice(&[s, n]);
            position.to_move = Side::North;
            let game = Game::unopened(
                rules,
                position,
                1,
                None,
                History::default(),
                Turn::default(),
            );
            game.end_after_move(Side::South, game.position.occupied())
                .map(|(reason, _, _)| reason)
        };
        for rules in [&more, &half] {
            assert_eq!(ended(rules, 25, 0), Some(EndReason::Majority));
            assert_eq!(ended(rules, 3, 25), Some(EndReason::Majority));
            assert_eq!(ended(rules, 24, 24), Some(EndReason::Majority));
            assert_eq!(ended(rules, 23, 23), None);
        }
        assert_eq!(ended(&more, 24, 23), None);
        assert_eq!(ended(&more, 0, 24), None);
        assert_eq!(ended(&half, 24, 23), Some(EndReason::Majority));
        assert_eq!(ended(&half, 0, 24), Some(EndReason::Majority));
    }
}
