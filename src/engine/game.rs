//! A game in progress: the position plus what the end rules need (history, counters), legal
//! moves, playing a move, passes, and the end of the game.
//!
//! Moves are [`Move`]s: a hole, and the direction where the mover chooses it.

use serde::{Deserialize, Serialize};

use crate::rules::{
    Award, Direction, DirectionRule, EndCheck, Endless, FeedDuty, LastSeedsCheck, MoveFilter,
    NoMove, RowTest, Rules, Scoring, Side, Unfeedable,
};

use super::event::{Event, EventSink};
use super::moves::{Move, MOVE_SLOTS};
use super::position::{Position, Scan};
use super::sow::{sow, Context, Refusal, Sown};

mod ending;
mod history;
mod playout;
mod turn;

use ending::Verdict;
pub use ending::{EndClass, EndReason, Outcome};
use history::History;
use turn::{Stuck, Turn};

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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveReport {
    /// The move played.
    pub mv: Move,
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
#[error("hole {} cannot be played: {reason}", .mv.hole())]
pub struct PlayError {
    /// The move asked for.
    pub mv: Move,
    /// Why not.
    pub reason: Refusal,
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
            MOVE_SLOTS
        } else {
            rules.holes()
        };
        let history = History::new();
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
        // The move count matters to openings, a first move of the game (bound to its holes,
        // or sowing without skipping holes) and captures that
        // start at a later move (move number `from_move`, counted from 1: not before
        // `from_move - 1` moves are played); past those, only to the move cap.
        let first_move = program.sowing.first_move.is_some_and(|f| f.game_only)
            || program
                .sowing
                .skip_holes
                .is_some_and(|s| s.except_first_move);
        let early = program
            .captures
            .iter()
            .map(|c| c.from_move.saturating_sub(1))
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

    /// Plays a move.
    ///
    /// # Errors
    /// When the game is over or the move is not legal; the game is then unchanged.
    pub fn play(&mut self, mv: Move) -> Result<MoveReport, PlayError> {
        self.check(mv)?;
        Ok(self.commit(mv, None))
    }

    /// Plays a move in `child`, a game of the same rules: `child` becomes this game after
    /// `mv`, as `child.clone_from(self)` and `child.play(mv)` would leave it (its legal moves
    /// and all it reports alike), without copying this turn's results of the other moves.
    /// For searches, which play each move of a position in turn; this game is unchanged but
    /// for the move's result, kept.
    ///
    /// # Errors
    /// As [`Game::play`]; `child` is then unchanged.
    pub fn play_into(&mut self, mv: Move, child: &mut Game<'r>) -> Result<MoveReport, PlayError> {
        self.check(mv)?;
        let (mut history, mut turn) = (
            std::mem::take(&mut child.history),
            std::mem::take(&mut child.turn),
        );
        history.clone_from(&self.history);
        turn.copy_for(&self.turn, mv);
        *child = Game {
            history,
            turn,
            ..*self
        };
        Ok(child.commit(mv, None))
    }

    /// Plays a move, reporting every step of the sowing to `sink`.
    ///
    /// # Errors
    /// As [`Game::play`].
    pub fn play_traced<S: EventSink>(
        &mut self,
        mv: Move,
        sink: &mut S,
    ) -> Result<MoveReport, PlayError> {
        self.check(mv)?;
        if self.turn.results[mv.slot()].1.endless {
            // A never-ending move the rules let end the game: there is no sowing to show.
            return Ok(self.commit(mv, None));
        }
        let mut position = self.position;
        let ctx = self.context(mv).ok_or(PlayError {
            mv,
            reason: Refusal::Direction,
        })?;
        let mut sown = Sown::default();
        sow(self.rules, &mut position, mv.hole(), ctx, sink, &mut sown)
            .map_err(|reason| PlayError { mv, reason })?;
        if let (Some(side), Some(seeds)) = (sown.last_capturer, sown.last_seeds) {
            let on_board: u32 = position.board_seeds();
            sink.event(Event::LastSeeds {
                to: self.last_seeds_recipient(side),
                seeds: on_board + u32::from(seeds),
            });
        }
        // The same result as the cached one, now with its events told.
        self.turn.results[mv.slot()] = (position, sown);
        Ok(self.commit(mv, None))
    }

    /// Applies a legal move's sown result (from the turn's cache, or, for a move known to be
    /// legal and not tried, sown now), then the end rules, then starts the next turn; `probe`
    /// as in [`Game::start_turn_probing`].
    // Forced inline: left to the compiler it is a call of its own in `sowlab simulate`'s loop,
    // which ran slower (docs/speed.md, "Inlining the engine keeps").
    #[inline(always)]
    fn commit(&mut self, mv: Move, probe: Option<&mut dyn rand::RngCore>) -> MoveReport {
        let mover = self.position.to_move;
        let sown = if self.turn.examined & mv.bit() != 0 {
            let (after, sown) = &self.turn.results[mv.slot()];
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
            mv,
            side: Some(mover),
            laps: sown.laps,
            sown: sown.drops,
            captures: sown.captures,
            captured: sown.captured,
            extra_turn: sown.extra_turn,
            passes: 0,
        };
        if sown.endless {
            self.finish(EndReason::EndlessMove, Award::Owners, 0, Verdict::Totals);
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
            self.finish(EndReason::LastSeeds, award, hand, Verdict::Totals);
            return report;
        }
        if sown.grand_slam_ends {
            // The mover is still the player to move: the opponent is the one captured from.
            self.finish(EndReason::GrandSlam, Award::Opponent, 0, Verdict::Totals);
            return report;
        }
        let scan = self.position.scan();
        let next = if sown.extra_turn {
            mover
        } else {
            mover.other()
        };
        let ended = if self.rules.dispatch.ends_after_move {
            self.end_after_move(mover, scan.occupied)
        } else {
            None
        };
        if let Some(ended) = ended {
            self.end_by_rule(ended, mover, next, scan.occupied);
            return report;
        }
        let passes = self.stats.passes;
        self.start_turn_probing(next, scan, probe);
        report.passes = self.stats.passes - passes;
        report
    }

    /// Sows move `mv`, known to be legal and never tried (`draw` took it without sowing it: a
    /// move of a sure turn, or one that lands on an empty hole), straight onto the position.
    // Forced inline: with `commit`, for the same reason (docs/speed.md, "Inlining the engine
    // keeps").
    #[inline(always)]
    fn sow_in_place(&mut self, mv: Move) -> Sown {
        debug_assert!(self.known_legal(mv));
        let ctx = self
            .context(mv)
            .expect("a candidate can be sown in its direction");
        let mut sown = Sown::default();
        sow(
            self.rules,
            &mut self.position,
            mv.hole(),
            ctx,
            &mut (),
            &mut sown,
        )
        .expect("a move drawn unsown is legal");
        sown
    }
}
