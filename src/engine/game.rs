//! A game in progress: the position plus what the end rules need (history, counters), legal
//! moves, playing a move, passes, and the end of the game.

use serde::Serialize;

use crate::rules::{Award, Endless, LastSeedsCheck, NoMove, Rules, Side, MAX_HOLES_PER_ROW};

use super::event::{Event, EventSink};
use super::position::Position;
use super::sow::{sow, Refusal, Sown};

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum EndReason {
    /// The last seeds went to a player (R2).
    LastSeeds,
    /// A player captured more than half the seeds.
    Majority,
    /// A move left a row empty (Kalah).
    EmptyRow,
    /// The opponent's row was empty and no move could feed it (R8).
    Unfeedable,
    /// The player to move could not move and the rules end the game then (En Dodoi).
    Stuck,
    /// A move whose sowing never ends was chosen, and the rules end the game then (R11).
    EndlessMove,
    /// Neither player had a legal move.
    NoMoves,
    /// The move cap was reached (R10).
    Cap,
    /// A position occurred for the third time (R10).
    Repetition,
}

impl EndReason {
    /// The reason's class as traces and CSV files give it: `normal` for an end rule of the
    /// variant, else `no-moves`, `cap` or `repetition`.
    pub fn class(self) -> &'static str {
        match self {
            EndReason::NoMoves => "no-moves",
            EndReason::Cap => "cap",
            EndReason::Repetition => "repetition",
            _ => "normal",
        }
    }

    /// The precise rule, kebab-case (`last-seeds`, `unfeedable`, ...).
    pub fn name(self) -> &'static str {
        match self {
            EndReason::LastSeeds => "last-seeds",
            EndReason::Majority => "majority",
            EndReason::EmptyRow => "empty-row",
            EndReason::Unfeedable => "unfeedable",
            EndReason::Stuck => "stuck",
            EndReason::EndlessMove => "endless-move",
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
    /// The hole played.
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

/// A hole that cannot be played, with the reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("hole {hole} cannot be played: {reason}")]
pub struct PlayError {
    /// The hole asked for.
    pub hole: usize,
    /// Why not.
    pub reason: Refusal,
}

/// What is known of the holes of the player to move this turn. Holes are sown only when
/// needed (to find whether any move exists, or when chosen), so a random game sows about two
/// holes per move instead of every candidate.
#[derive(Clone)]
struct Turn {
    /// Non-empty open holes of the player to move.
    candidates: u64,
    /// Candidates already sown.
    examined: u64,
    /// Examined candidates that are legal.
    legal: u64,
    /// The opponent's row is empty: a move must feed it.
    must_feed: bool,
    /// Examined holes refused only because they do not feed the opponent.
    not_feeding: u64,
    /// A legal hole already drawn at random for this turn by [`Game::random_playout`].
    drawn: Option<usize>,
    /// The result of each legal hole, by position in the row.
    results: [(Position, Sown); MAX_HOLES_PER_ROW],
}

/// A game: the rules, the position, and everything the end rules need.
#[derive(Clone)]
pub struct Game<'r> {
    rules: &'r Rules,
    position: Position,
    stats: GameStats,
    last_capturer: Option<Side>,
    last_mover: Option<Side>,
    outcome: Option<Outcome>,
    /// Positions since the captured totals last changed (no earlier one can recur).
    history: History,
    round: u16,
    previous_winner: Option<Side>,
    turn: Box<Turn>,
}

impl<'r> Game<'r> {
    /// A new single game from the start position.
    pub fn new(rules: &'r Rules) -> Game<'r> {
        Game::from_position(rules, Position::initial(rules))
    }

    /// A game from a given position (its `to_move` is the player to move; passes are resolved).
    pub fn from_position(rules: &'r Rules, position: Position) -> Game<'r> {
        let empty = (position, Sown::default());
        let mut game = Game {
            rules,
            position,
            stats: GameStats::default(),
            last_capturer: None,
            last_mover: None,
            outcome: None,
            history: History {
                positions: Vec::with_capacity(INDEX_FROM),
                ..History::default()
            },
            round: 1,
            previous_winner: None,
            turn: Box::new(Turn {
                candidates: 0,
                examined: 0,
                legal: 0,
                must_feed: false,
                not_feeding: 0,
                drawn: None,
                results: [empty; MAX_HOLES_PER_ROW],
            }),
        };
        game.start_turn(position.to_move);
        game
    }

    /// The rules.
    pub fn rules(&self) -> &'r Rules {
        self.rules
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

    /// Counters so far.
    pub fn stats(&self) -> &GameStats {
        &self.stats
    }

    /// The legal holes of the player to move, as a bit mask of hole numbers (sows every
    /// candidate not yet tried).
    pub fn legal_mask(&mut self) -> u64 {
        let mut unknown = self.turn.candidates & !self.turn.examined;
        while unknown != 0 {
            self.examine(unknown.trailing_zeros() as usize);
            unknown &= unknown - 1;
        }
        self.turn.legal
    }

    /// The legal holes of the player to move, ascending.
    pub fn legal_moves(&mut self) -> Vec<usize> {
        let mask = self.legal_mask();
        (0..64).filter(|p| mask >> p & 1 == 1).collect()
    }

    /// The position a legal hole leads to, before end rules and passes: for agents that look
    /// at the immediate result of a move.
    pub fn preview(&mut self, hole: usize) -> Option<&Position> {
        (hole < self.rules.holes() && self.examine(hole))
            .then(|| &self.turn.results[self.row_index(hole)].0)
    }

    /// Plays a legal hole chosen uniformly at random; `None` when the game is over.
    pub fn play_random<R: rand::Rng>(&mut self, rng: &mut R) -> Option<MoveReport> {
        let hole = self.draw(rng)?;
        Some(self.commit(hole, None))
    }

    /// Plays uniformly random legal moves to the end of the game; returns the moves played.
    ///
    /// The same game as calling [`Game::play_random`] until the end would give in law, but not
    /// move for move: here the draw for the next turn also serves as the check that the next
    /// player can move, which saves sowing a hole per move (the playout loop of simulations
    /// and MCTS).
    pub fn random_playout<R: rand::Rng>(&mut self, rng: &mut R) -> u32 {
        let mut moves = 0;
        while let Some(hole) = self.turn.drawn.take().or_else(|| self.draw(rng)) {
            self.commit(hole, Some(rng));
            moves += 1;
        }
        moves
    }

    /// Draws a legal hole uniformly at random, sowing candidates as needed; `None` if there is
    /// none (the game is over).
    fn draw(&mut self, rng: &mut dyn rand::RngCore) -> Option<usize> {
        // Rejection without replacement: a uniform pick among the untried-or-legal candidates,
        // dropping illegal ones as they are found, is a uniform pick among the legal holes.
        let mut pool = self.turn.candidates & !(self.turn.examined & !self.turn.legal);
        while pool != 0 {
            let hole = nth_bit(pool, rand::Rng::gen_range(rng, 0..pool.count_ones()));
            if self.examine(hole) {
                return Some(hole);
            }
            pool &= !(1 << hole);
        }
        None
    }

    /// Plays a hole.
    ///
    /// # Errors
    /// When the game is over or the hole is not legal; the game is then unchanged.
    pub fn play(&mut self, hole: usize) -> Result<MoveReport, PlayError> {
        self.check(hole)?;
        Ok(self.commit(hole, None))
    }

    /// Plays a hole, reporting every step of the sowing to `sink`.
    ///
    /// # Errors
    /// As [`Game::play`].
    pub fn play_traced<S: EventSink>(
        &mut self,
        hole: usize,
        sink: &mut S,
    ) -> Result<MoveReport, PlayError> {
        self.check(hole)?;
        let slot = self.row_index(hole);
        if self.turn.results[slot].1.endless {
            // A never-ending move the rules let end the game: there is no sowing to show.
            return Ok(self.commit(hole, None));
        }
        let mut position = self.position;
        let sown = sow(self.rules, &mut position, hole, sink)
            .map_err(|reason| PlayError { hole, reason })?;
        if let Some((side, seeds)) = sown.last_seeds {
            let on_board: u32 = position.board_seeds();
            sink.event(Event::LastSeeds {
                to: self.last_seeds_recipient(side),
                seeds: on_board + u32::from(seeds),
            });
        }
        // The same result as the cached one, now with its events told.
        self.turn.results[slot] = (position, sown);
        Ok(self.commit(hole, None))
    }

    fn check(&mut self, hole: usize) -> Result<(), PlayError> {
        let refuse = |reason| Err(PlayError { hole, reason });
        if self.outcome.is_some() {
            return refuse(Refusal::GameOver);
        }
        if hole >= self.rules.holes() {
            return refuse(Refusal::NoSuchHole);
        }
        if !self.examine(hole) {
            return refuse(self.refusal(hole));
        }
        Ok(())
    }

    /// Why an illegal hole is illegal (sowing it again: this is the error path).
    fn refusal(&self, hole: usize) -> Refusal {
        let bit = 1u64 << hole;
        if self.rules.geometry.owner(hole) != self.position.to_move {
            return Refusal::NotOwnHole;
        }
        if self.position.closed & bit != 0 {
            return Refusal::Closed;
        }
        if self.position.seeds[hole] == 0 {
            return Refusal::Empty;
        }
        if self.turn.not_feeding & bit != 0 {
            return Refusal::DoesNotFeed;
        }
        let mut after = self.position;
        sow(self.rules, &mut after, hole, &mut ())
            .err()
            .unwrap_or(Refusal::DoesNotFeed)
    }

    /// The position of a hole in its row (a subtraction, not a division: this is hot).
    fn row_index(&self, hole: usize) -> usize {
        let n = self.rules.holes_per_row();
        if hole >= n {
            hole - n
        } else {
            hole
        }
    }

    /// Starts a turn for `side`: nothing sown yet.
    fn open_turn(&mut self, side: Side) {
        let rules = self.rules;
        self.position.to_move = side;
        let turn = &mut *self.turn;
        turn.candidates = self.position.candidates(rules, side);
        turn.examined = 0;
        turn.legal = 0;
        turn.must_feed =
            rules.program.feeding.is_some() && self.position.row_seeds(rules, side.other()) == 0;
        turn.not_feeding = 0;
        turn.drawn = None;
    }

    /// Whether `hole` is legal for the player to move, sowing it if that is not known yet.
    fn examine(&mut self, hole: usize) -> bool {
        let slot = self.row_index(hole);
        let turn = &mut *self.turn;
        let bit = 1u64 << hole;
        if turn.examined & bit != 0 {
            return turn.legal & bit != 0;
        }
        if turn.candidates & bit == 0 {
            return false;
        }
        turn.examined |= bit;
        let rules = self.rules;
        let side = self.position.to_move;
        // Sow straight into the turn's slot for this hole: no copy on the hot path.
        let (after, kept) = &mut turn.results[slot];
        *after = self.position;
        match sow(rules, after, hole, &mut ()) {
            Ok(sown) if turn.must_feed && !feeds(rules, after, &sown, side) => {
                turn.not_feeding |= bit;
            }
            Ok(sown) => {
                turn.legal |= bit;
                *kept = sown;
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
                turn.results[slot] = (
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
        turn.legal & bit != 0
    }

    /// Whether the player to move has a legal move (sowing candidates until one is found).
    fn any_legal(&mut self) -> bool {
        if self.turn.legal != 0 {
            return true;
        }
        // Without relay, feeding or a forbidden grand slam, every candidate is legal.
        if self.rules.dispatch.candidates_legal && !self.turn.must_feed {
            return self.turn.candidates != 0;
        }
        let mut unknown = self.turn.candidates & !self.turn.examined;
        while unknown != 0 {
            if self.examine(unknown.trailing_zeros() as usize) {
                return true;
            }
            unknown &= unknown - 1;
        }
        false
    }

    /// Applies a legal hole's sown result (from the turn's cache), then the end rules, then
    /// starts the next turn; `probe` as in [`Game::start_turn_probing`].
    fn commit(&mut self, hole: usize, probe: Option<&mut dyn rand::RngCore>) -> MoveReport {
        let slot = self.row_index(hole);
        let sown = self.turn.results[slot].1;
        let mover = self.position.to_move;
        self.stats.moves += 1;
        self.last_mover = Some(mover);
        let mut report = MoveReport {
            hole,
            side: Some(mover),
            laps: sown.laps,
            sown: sown.drops,
            captures: sown.captures,
            captured: sown.captured,
            extra_turn: sown.extra_turn,
            passes: 0,
        };
        if sown.endless {
            self.finish(EndReason::EndlessMove, Award::Owners, 0);
            return report;
        }
        self.position = self.turn.results[slot].0;
        self.stats.max_laps = self.stats.max_laps.max(sown.laps);
        if sown.capped {
            self.stats.drop_cap_hits += 1;
        }
        self.stats.captures += sown.captures;
        if sown.last_capturer.is_some() {
            self.last_capturer = sown.last_capturer;
        }
        if sown.extra_turn {
            self.stats.extra_turns += 1;
        }
        if let Some((_, hand)) = sown.last_seeds {
            let award = self.last_seeds_award();
            self.finish(EndReason::LastSeeds, award, hand);
            return report;
        }
        if let Some((reason, award)) = self.end_after_move() {
            self.finish(reason, award, 0);
            return report;
        }
        let passes = self.stats.passes;
        let next = if sown.extra_turn {
            mover
        } else {
            mover.other()
        };
        self.start_turn_probing(next, probe);
        report.passes = self.stats.passes - passes;
        report
    }

    /// End rules looked at once a move is over.
    fn end_after_move(&self) -> Option<(EndReason, Award)> {
        let ending = &self.rules.program.ending;
        let total = self.rules.total;
        if let Some(rule) = ending.last_seeds {
            if rule.check == LastSeedsCheck::AfterMove
                && self.last_capturer.is_some()
                && self.position.board_seeds() <= u32::from(rule.at_most)
            {
                return Some((EndReason::LastSeeds, self.last_seeds_award()));
            }
        }
        if let Some(award) = ending.majority {
            let [s, n] = self.position.stores().map(u32::from);
            if 2 * s > total || 2 * n > total || (2 * s == total && 2 * n == total) {
                return Some((EndReason::Majority, award));
            }
        }
        if let Some(award) = ending.empty_row {
            if Side::BOTH
                .iter()
                .any(|&side| self.position.row_seeds(self.rules, side) == 0)
            {
                return Some((EndReason::EmptyRow, award));
            }
        }
        None
    }

    /// Hands the turn to `side` (see [`Game::start_turn_probing`]).
    fn start_turn(&mut self, side: Side) {
        self.start_turn_probing(side, None);
    }

    /// Hands the turn to `side`, resolving passes, then applies repetition and the cap. Whether
    /// a player can move is found by sowing their holes in order, or, with `probe`, by drawing
    /// them at random and keeping the first legal one for [`Game::random_playout`].
    fn start_turn_probing(&mut self, mut side: Side, mut probe: Option<&mut dyn rand::RngCore>) {
        let rules = self.rules;
        for tried in 0..2 {
            self.open_turn(side);
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
            let playable = self.turn.not_feeding != 0;
            if playable {
                let award = rules
                    .program
                    .feeding
                    .map_or(Award::PlayerToMove, |f| f.unfeedable);
                return self.finish(EndReason::Unfeedable, award, 0);
            }
            match rules.program.ending.no_move {
                NoMove::EndGame(award) => return self.finish(EndReason::Stuck, award, 0),
                NoMove::Pass if tried == 1 => {
                    return self.finish(EndReason::NoMoves, Award::Owners, 0)
                }
                NoMove::Pass => {
                    self.stats.passes += 1;
                    side = side.other();
                }
            }
        }
        let ending = &rules.program.ending;
        if self.history.record(self.position) >= usize::from(ending.repetition) {
            return self.finish(EndReason::Repetition, ending.repetition_award, 0);
        }
        if self.stats.moves >= ending.move_cap {
            self.finish(EndReason::Cap, ending.cap_award, 0);
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
    /// and decides the winner.
    fn finish(&mut self, reason: EndReason, award: Award, hand: u16) {
        let holes = self.rules.holes();
        let rules = self.rules;
        let to_move = self.position.to_move;
        let party = match award {
            Award::Capturer => self.last_capturer,
            Award::PlayerToMove => Some(to_move),
            Award::LastMover => Some(self.last_mover.unwrap_or(to_move.other())),
            Award::PreviousWinner => self.previous_winner.or(self.last_capturer),
            Award::Owners | Award::Split | Award::Nobody => None,
        };
        let seeds = &mut self.position.seeds;
        match (award, party) {
            (Award::Nobody, _) => {}
            (Award::Split, _) => {
                let left: u16 = seeds[..holes].iter().sum::<u16>() + hand;
                seeds[..holes].fill(0);
                seeds[holes] += left / 2;
                seeds[holes + 1] += left / 2;
                seeds[0] += left % 2;
            }
            (_, Some(side)) => {
                let left: u16 = seeds[..holes].iter().sum::<u16>() + hand;
                seeds[..holes].fill(0);
                seeds[holes + side.index()] += left;
            }
            (_, None) => {
                for side in Side::BOTH {
                    let row = rules.geometry.row(side);
                    let left: u16 = seeds[row.clone()].iter().sum();
                    seeds[row].fill(0);
                    seeds[holes + side.index()] += left;
                }
                // Seeds in hand have no side; they go to the mover, whose sowing they are in.
                seeds[holes + to_move.index()] += hand;
            }
        }
        let [s, n] = self.position.stores();
        let unfinished = matches!(reason, EndReason::Cap | EndReason::Repetition);
        let winner = if unfinished && rules.program.ending.unfinished_is_draw {
            None
        } else {
            match s.cmp(&n) {
                std::cmp::Ordering::Greater => Some(Side::South),
                std::cmp::Ordering::Less => Some(Side::North),
                std::cmp::Ordering::Equal => None,
            }
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
        _ => after.row_seeds(rules, side.other()) > 0,
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
#[derive(Clone, Default)]
struct History {
    positions: Vec<(u64, Position)>,
    /// A Bloom filter over the fingerprints: most positions are new, and the filter says so
    /// without a scan.
    seen: [u64; 32],
    /// How many recorded positions have each fingerprint: only a fingerprint seen before
    /// needs the exact comparison, so long capture-free stretches stay cheap.
    fingerprints: std::collections::HashMap<u64, u16, std::hash::BuildHasherDefault<Premixed>>,
}

impl History {
    /// Records `position` and returns how many times it has now occurred.
    fn record(&mut self, position: Position) -> usize {
        if self
            .positions
            .last()
            .is_some_and(|(_, p)| p.stores() != position.stores())
        {
            self.positions.clear();
            self.fingerprints.clear();
            self.seen = [0; 32];
        }
        let fingerprint = position.fingerprint();
        self.positions.push((fingerprint, position));
        let count = || {
            self.positions
                .iter()
                .filter(|(f, p)| *f == fingerprint && *p == position)
                .count()
        };
        // Short stretches are scanned, when the filter cannot rule a repeat out; long ones
        // index their fingerprints.
        if self.positions.len() <= INDEX_FROM {
            let (word, bit) = ((fingerprint >> 59) as usize, 1u64 << (fingerprint & 63));
            let new = self.seen[word] & bit == 0;
            self.seen[word] |= bit;
            return if new { 1 } else { count() };
        }
        if self.fingerprints.is_empty() {
            for (f, _) in &self.positions[..self.positions.len() - 1] {
                *self.fingerprints.entry(*f).or_insert(0) += 1;
            }
        }
        let seen = self.fingerprints.entry(fingerprint).or_insert(0);
        *seen += 1;
        if *seen == 1 {
            1
        } else {
            count()
        }
    }
}

/// History length from which fingerprints are indexed.
const INDEX_FROM: usize = 128;

/// A hasher for keys that are already well-mixed 64-bit fingerprints.
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
