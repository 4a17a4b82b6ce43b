//! A turn: the moves the player to move may try, which are legal (sown as needed), passes,
//! and the repetition and move cap checked as a turn starts.

use super::*;

/// What a player to move with no legal move brings about ([`Game::when_stuck`]).
pub(super) enum Stuck {
    /// No move feeds the opponent, and the duty to feed lapses: the player can move.
    Lapses,
    /// The game ends: why, the award and the winner.
    Ends(EndReason, Award, Verdict),
    /// The player passes.
    Passes,
}

/// What is known of the moves of the player to move this turn. Moves are sown only when
/// needed (to find whether any move exists, or when chosen), so a random game sows about two
/// holes per move instead of every candidate.
#[derive(Default)]
pub(super) struct Turn {
    /// The moves the player to move could make, as a mask of [`Move::bit`]s.
    pub(super) candidates: u64,
    /// Candidates already sown.
    pub(super) examined: u64,
    /// Examined candidates that are legal.
    pub(super) legal: u64,
    /// The opponent's row is empty: a move must feed it.
    pub(super) must_feed: bool,
    /// Every candidate is legal (see `Dispatch::candidates_legal`, and no duty to feed): a
    /// move is sown only when played, straight onto the position.
    pub(super) sure: bool,
    /// Examined moves refused only because they do not feed the opponent.
    pub(super) not_feeding: u64,
    /// A legal move already drawn at random for this turn by [`Game::random_playout`].
    pub(super) drawn: Option<Move>,
    /// Seeds sown past the end of the mover's row leave the board this turn (`bear off`).
    pub(super) bear_off: bool,
    /// The result of each examined move, by [`Move::slot`].
    pub(super) results: Vec<(Position, Sown)>,
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
            for mv in Move::all_in(source.examined) {
                results[mv.slot()] = source.results[mv.slot()];
            }
        } else {
            results.clone_from(&source.results);
        }
        *self = Turn { results, ..*source };
    }
}

impl Turn {
    /// Takes from `source` what playing `mv` reads: its counts, and of the moves examined
    /// only `mv`'s result (the next turn starts afresh).
    pub(super) fn copy_for(&mut self, source: &Turn, mv: Move) {
        let mut results = std::mem::take(&mut self.results);
        if results.len() == source.results.len() {
            results[mv.slot()] = source.results[mv.slot()];
        } else {
            results.clone_from(&source.results);
        }
        *self = Turn {
            results,
            examined: source.examined & mv.bit(),
            legal: source.legal & mv.bit(),
            ..*source
        };
    }
}

impl Game<'_> {
    /// The legal moves of the player to move, as a bit mask of moves (sows every candidate
    /// not yet tried).
    pub fn legal_mask(&mut self) -> u64 {
        for mv in Move::all_in(self.turn.candidates & !self.turn.examined) {
            self.examine(mv);
        }
        self.turn.legal
    }

    /// The legal moves of the player to move, in [`Move`]'s order: by hole, and where the
    /// mover chooses the direction, the clockwise sowings after the others.
    pub fn legal_moves(&mut self) -> Vec<Move> {
        Move::all_in(self.legal_mask()).collect()
    }

    /// The position a legal move leads to, before end rules and passes: for agents that look
    /// at the immediate result of a move.
    pub fn preview(&mut self, mv: Move) -> Option<&Position> {
        (mv.slot() < self.turn.results.len() && self.examine(mv))
            .then(|| &self.turn.results[mv.slot()].0)
    }

    pub(super) fn check(&mut self, mv: Move) -> Result<(), PlayError> {
        let refuse = |reason| Err(PlayError { mv, reason });
        if self.outcome.is_some() {
            return refuse(Refusal::GameOver);
        }
        if mv.hole() >= self.rules.holes() || mv.slot() >= self.turn.results.len() {
            return refuse(Refusal::NoSuchHole);
        }
        if !self.examine(mv) {
            return refuse(self.refusal(mv));
        }
        Ok(())
    }

    /// Why an illegal move is illegal (sowing it again: this is the error path).
    pub(super) fn refusal(&self, mv: Move) -> Refusal {
        let hole = mv.hole();
        let bit = 1u64 << hole;
        let position = &self.position;
        if self.movable(position.to_move) & bit == 0 {
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
        if self.position.candidates(self.movable(position.to_move), 1) & bit != 0
            && self.turn.candidates & mv.bit() == 0
        {
            return Refusal::Opening;
        }
        if self.turn.not_feeding & mv.bit() != 0 {
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
    // Forced inline: asked for every move sown (docs/speed.md, "Inlining the engine keeps").
    #[inline(always)]
    pub(super) fn context(&self, mv: Move) -> Option<Context> {
        let hole = mv.hole();
        let clockwise = mv.clockwise();
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

    /// The holes `side` may lift, seeds and rules allowing: their own row, or every hole
    /// under `play from: any hole`.
    pub(super) fn movable(&self, side: Side) -> u64 {
        if self.rules.program.sowing.any_hole {
            self.position.owned(side) | self.position.owned(side.other())
        } else {
            self.position.owned(side)
        }
    }

    /// The seeds a hole of `side`'s must hold to be played now.
    pub(super) fn min_seeds(&self, side: Side) -> u16 {
        let sowing = &self.rules.program.sowing;
        let waived = sowing.min_seeds_waived
            && self
                .position
                .candidates(self.movable(side), sowing.min_seeds)
                == 0;
        if waived {
            1
        } else {
            sowing.min_seeds
        }
    }

    /// Whether `side`'s next move is one the rules' `first move` binds.
    pub(super) fn first_move_bound(&self, side: Side) -> bool {
        match self.rules.program.sowing.first_move {
            Some(first) if first.game_only => self.stats.moves == 0,
            Some(_) => !self.moved[side.index()],
            None => false,
        }
    }

    /// Whether a move from `hole`, sown, passes the rules' test on its first lap.
    pub(super) fn passes_filter(&self, hole: usize, after: &Position, sown: &Sown) -> bool {
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
    // Forced inline: with a second, cold caller (`Game::no_move_now`) the compiler stopped
    // inlining it into the turn's start, which cost every variant 3% of its instructions.
    #[inline(always)]
    pub(super) fn open_turn(&mut self, side: Side, occupied: u64) {
        let rules = self.rules;
        self.position.to_move = side;
        // Most variants play any non-empty open hole: no need to look at the rules below.
        let candidates = if rules.dispatch.plain_turns {
            occupied & self.position.playable(self.position.owned(side))
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
    pub(super) fn ruled_candidates(&self, side: Side) -> u64 {
        let rules = self.rules;
        let sowing = &rules.program.sowing;
        let mut holes = self
            .position
            .candidates(self.movable(side), self.min_seeds(side));
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
            for hole in Move::all_in(holes).map(Move::hole) {
                for mv in [Move::new(hole, false), Move::new(hole, true)] {
                    if self.context(mv).is_some() {
                        moves |= mv.bit();
                    }
                }
            }
            moves
        } else {
            holes
        }
    }

    /// Whether move `mv` is legal for the player to move, sowing it if that is not known yet.
    pub(super) fn examine(&mut self, mv: Move) -> bool {
        let turn = &mut self.turn;
        let bit = mv.bit();
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
        let (after, kept) = &mut turn.results[mv.slot()];
        *after = self.position;
        match sow(rules, after, mv.hole(), ctx, &mut (), kept) {
            Ok(()) => {
                let (after, sown) = &self.turn.results[mv.slot()];
                if !self.passes_filter(mv.hole(), after, sown) {
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
                turn.results[mv.slot()] = (
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
    // Forced inline: one of five whose removal together slowed whole `simulate` (docs/speed.md,
    // "Inlining the engine keeps").
    #[inline(always)]
    pub(super) fn known_legal(&self, mv: Move) -> bool {
        self.turn.sure || self.lands_on_empty(mv)
    }

    /// Whether candidate `mv`'s lap ends in an empty hole before coming round, which ends the
    /// move, so that it is legal (`Dispatch::ends_on_empty`).
    // Forced inline: one of five whose removal together slowed whole `simulate` (docs/speed.md,
    // "Inlining the engine keeps").
    #[inline(always)]
    pub(super) fn lands_on_empty(&self, mv: Move) -> bool {
        let position = &self.position;
        if !self.rules.dispatch.ends_on_empty || self.turn.must_feed || position.closed != 0 {
            return false;
        }
        // The direction is fixed, so the move's slot is its hole.
        let hole = mv.slot();
        let landing = &self.rules.geometry.landing[position.to_move.index()][hole];
        landing
            .get(usize::from(position.seeds[hole]))
            .and_then(|&at| position.seeds.get(usize::from(at)))
            == Some(&0)
    }

    /// Whether the player to move has a legal move (sowing candidates in order until one is
    /// found, unless it is known to be legal unsown).
    pub(super) fn any_legal(&mut self) -> bool {
        if self.turn.legal != 0 {
            return true;
        }
        if self.turn.sure {
            return self.turn.candidates != 0;
        }
        let mut unknown = self.turn.candidates & !self.turn.examined;
        while unknown != 0 {
            let mv = Move::lowest(unknown);
            if self.lands_on_empty(mv) || self.examine(mv) {
                return true;
            }
            unknown &= unknown - 1;
        }
        false
    }

    /// What follows when `side`, to move, has no legal move ([`Game::any_legal`] said so): a
    /// duty to feed that no move can meet lapses (its refused moves become legal) or ends the
    /// game, else the winner rule or the no-move rule ends it, or the player passes.
    // Out of line and cold: a player is rarely without a move, and the turn's start stays small.
    #[cold]
    #[inline(never)]
    pub(super) fn when_stuck(&mut self, side: Side) -> Stuck {
        let ending = &self.rules.program.ending;
        if self.turn.not_feeding != 0 {
            match self.rules.program.feeding.map(|f| f.unfeedable) {
                Some(Unfeedable::AnyMove) => {
                    let turn = &mut self.turn;
                    turn.must_feed = false;
                    turn.legal |= turn.not_feeding;
                    turn.not_feeding = 0;
                    turn.drawn = None;
                    return Stuck::Lapses;
                }
                Some(Unfeedable::Ends(award)) => {
                    return Stuck::Ends(EndReason::Unfeedable, award, Verdict::Totals)
                }
                None => unreachable!("moves refused for not feeding need a feeding rule"),
            }
        }
        if ending.scoring == Scoring::StuckLoses {
            return Stuck::Ends(
                EndReason::Stuck,
                Award::Owners,
                Verdict::Winner(side.other()),
            );
        }
        match ending.no_move {
            NoMove::EndGame(award) => Stuck::Ends(EndReason::Stuck, award, Verdict::Totals),
            NoMove::Pass => Stuck::Passes,
        }
    }

    /// Hands the turn to `side` (see [`Game::start_turn_probing`]).
    pub(super) fn start_turn(&mut self, side: Side) {
        self.start_turn_probing(side, self.position.scan(), None);
    }

    /// Hands the turn to `side`, resolving passes, then applies repetition and the cap. Whether
    /// a player can move is found by sowing their holes in order, or, with `probe`, by drawing
    /// them at random and keeping the first legal one for [`Game::random_playout`]. `scan` is
    /// the position's [`Position::scan`], made once for the end rules, the turn and the history.
    pub(super) fn start_turn_probing(
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
            match self.when_stuck(side) {
                Stuck::Lapses => break,
                Stuck::Ends(reason, award, verdict) => {
                    return self.finish(reason, award, 0, verdict)
                }
                Stuck::Passes if tried == 1 => {
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
                    return self.finish(reason, Award::Owners, 0, Verdict::Totals);
                }
                Stuck::Passes => {
                    self.stats.passes += 1;
                    side = side.other();
                }
            }
        }
        let ending = &rules.program.ending;
        let key = scan.key(self.position.to_move);
        if self.history.record(&self.position, key) >= usize::from(ending.repetition) {
            return self.finish(
                EndReason::Repetition,
                ending.repetition_award,
                0,
                Verdict::Totals,
            );
        }
        if self.stats.moves >= ending.move_cap {
            self.finish(EndReason::Cap, ending.cap_award, 0, Verdict::Totals);
        }
    }
}

/// Whether a move by `side` left the opponent something, as the rules judge it (R9).
fn feeds(rules: &Rules, after: &Position, sown: &Sown, side: Side) -> bool {
    match rules.program.feeding.map(|f| f.judged) {
        Some(crate::rules::FeedJudged::FirstLap) => sown.fed_first_lap,
        _ => !after.row_empty(side.other()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
                    for mv in Move::all_in(tried.turn.candidates) {
                        if tried.known_legal(mv) {
                            assert_ne!(legal & mv.bit(), 0, "{name}: move {mv:?}");
                        }
                        if tried.lands_on_empty(mv) {
                            let laps = tried.turn.results[mv.slot()].1.laps;
                            assert_eq!(laps, 1, "{name}: move {mv:?}");
                        }
                    }
                    let report = drawn.play_random(&mut rng).expect("the game is not over");
                    if tried.known_legal(report.mv) {
                        unsown += 1;
                    } else {
                        tried_first += 1;
                    }
                    assert_eq!(tried.play(report.mv), Ok(report));
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
        let hole = Move::from_hole;
        assert!(game.known_legal(hole(0))); // 1, 2, 3: hole 3 was empty
        assert!(game.known_legal(hole(2))); // 3, 4: hole 4 was empty
        assert!(!game.known_legal(hole(5))); // 6 holds two: the sowing relays from there
        for (played_hole, after) in [
            (0, [0, 1, 3, 1, 0, 1, 2, 10, 10, 10, 10, 0]),
            (2, [3, 0, 0, 1, 1, 1, 2, 10, 10, 10, 10, 0]),
        ] {
            let mut played = game.clone();
            let sown = played.sow_in_place(hole(played_hole));
            let context = format!("hole {played_hole}");
            assert_eq!(played.position.board(), after, "{context}");
            assert_eq!(played.position.stores(), [0, 0], "{context}");
            assert_eq!(
                (sown.laps, sown.drops, sown.captures),
                (1, u32::from(board[played_hole]), 0),
                "{context}"
            );
        }
        // The landings are worked out for open holes only: with a closed hole, sow first.
        let mut closed = position;
        closed.closed = 1 << 1;
        assert!(!Game::from_position(&rules, closed).known_legal(hole(0)));
    }
}
