//! A match: rounds of one variant linked by its match rules. Between rounds each player's
//! holdings (captures plus reserve) refill the board, unfilled holes close, surplus waits in
//! reserve or wins the opponent's holes, and the starter is chosen; the match ends when a
//! player falls below the losing total, by a first-to rule, or at the round cap.
//!
//! Invariant, checked by the property tests: board + stores + reserves + seeds removed by
//! `to nobody` awards always hold `Rules::total_seeds()`.

use serde::{Deserialize, Serialize};

use crate::rules::{
    Carry, DirectionRule, MatchRules, MatchScoring, Refill, Rules, Side, Starter, Surplus,
    Territory,
};

use super::game::{Game, Outcome};
use super::position::{Position, SetupError};

/// Why a match ended: serialised (in `matches.csv`) by its [`MatchEnd::name`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MatchEnd {
    /// A player held fewer seeds than the losing total after a round. The default only
    /// names CSV columns (`sim::record`).
    #[default]
    LoseBelow,
    /// A player won the rounds the first-to rule asks for.
    FirstTo,
    /// The round cap was reached.
    RoundCap,
    /// The next round could not start: the refill put no seed on the board.
    CannotStart,
}

impl MatchEnd {
    /// The reason as CSV files give it.
    pub fn name(self) -> &'static str {
        match self {
            MatchEnd::LoseBelow => "lose-below",
            MatchEnd::FirstTo => "first-to",
            MatchEnd::RoundCap => "round-cap",
            MatchEnd::CannotStart => "cannot-start",
        }
    }
}

/// How a finished match ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct MatchOutcome {
    /// Why.
    pub reason: MatchEnd,
    /// The winner; `None` is a draw.
    pub winner: Option<Side>,
}

/// One finished round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct RoundResult {
    /// The round, from 1.
    pub round: u16,
    /// Who started it.
    pub starter: Side,
    /// How its game ended.
    pub outcome: Outcome,
    /// What each player captured in it, South first.
    pub captured: [u16; 2],
    /// What each player holds after it (captures plus reserve), South first.
    pub holdings: [u32; 2],
}

/// The board a refill made for the next round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NextRound {
    /// The round it starts, from 2.
    pub round: u16,
    /// Seeds in holes `0..2N`.
    pub board: Vec<u16>,
    /// Closed holes, as a bit mask.
    pub closed: u64,
    /// Holes North owns, as a bit mask.
    pub north: u64,
    /// Seeds each player keeps off the board, South first.
    pub reserve: [u16; 2],
    /// Who starts the round.
    pub starter: Side,
}

/// Why a variant cannot be played as a match.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` has no match rules (no `match` block)")]
pub struct NoMatchRules(pub String);

/// A match given by hand, part-way through a round: for golden cases and tools.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchSetup {
    /// The round being played, from 1.
    pub round: u16,
    /// Seeds in holes `0..2N`.
    pub board: Vec<u16>,
    /// What each player has captured this round, South first.
    pub stores: [u16; 2],
    /// Closed holes, as a bit mask.
    pub closed: u64,
    /// Holes North owns, as a bit mask; `None` for North's row.
    pub north: Option<u64>,
    /// The player to move.
    pub to_move: Side,
    /// Who started this round.
    pub starter: Side,
    /// Seeds each player keeps off the board, South first.
    pub reserve: [u16; 2],
    /// Rounds each player has won so far, South first.
    pub rounds_won: [u16; 2],
    /// The winner of the previous round, if any.
    pub previous_winner: Option<Side>,
}

/// A match in progress: the current round's game and what the players hold off the board.
pub struct Match<'r> {
    rules: &'r Rules,
    matches: &'r MatchRules,
    game: Game<'r>,
    starter: Side,
    reserve: [u16; 2],
    /// Seeds end rules awarded to nobody: out of the match for good.
    removed: u32,
    /// Seeds captured over all rounds, for matches whose rounds start afresh.
    tally: [u32; 2],
    rounds_won: [u16; 2],
    outcome: Option<MatchOutcome>,
}

impl<'r> Match<'r> {
    /// The first round of a match of `rules`.
    ///
    /// # Errors
    /// When the variant has no match rules.
    pub fn new(rules: &'r Rules) -> Result<Match<'r>, NoMatchRules> {
        let matches = rules
            .program
            .matches
            .as_ref()
            .ok_or_else(|| NoMatchRules(rules.provenance.name.clone()))?;
        Ok(Match {
            rules,
            matches,
            game: Game::new(rules),
            starter: rules.program.board.starter,
            reserve: [0; 2],
            removed: 0,
            tally: [0; 2],
            rounds_won: [0; 2],
            outcome: None,
        })
    }

    /// A match from a hand-given state part-way through a round.
    ///
    /// # Errors
    /// When the variant has no match rules, or the board, stores and reserves do not hold
    /// the variant's seeds on a board of its size.
    pub fn from_setup(rules: &'r Rules, setup: &MatchSetup) -> Result<Match<'r>, SetupError> {
        let mut m = Match::new(rules).map_err(|e| SetupError::NoMatch(e.0))?;
        if setup.board.len() != rules.holes() {
            return Err(SetupError::HoleCount {
                rules: rules.holes(),
                got: setup.board.len(),
            });
        }
        let got = setup
            .board
            .iter()
            .chain(&setup.stores)
            .chain(&setup.reserve)
            .map(|&n| u32::from(n))
            .sum();
        if got != rules.total_seeds() {
            return Err(SetupError::SeedCount {
                rules: rules.total_seeds(),
                got,
            });
        }
        let north = setup.north.unwrap_or(Position::initial(rules).north);
        let mut position = Position::for_round(&setup.board, north, setup.closed, setup.to_move);
        position.set_stores(setup.stores);
        m.game = Game::for_round(rules, position, setup.round, setup.previous_winner);
        m.starter = setup.starter;
        m.reserve = setup.reserve;
        m.rounds_won = setup.rounds_won;
        Ok(m)
    }

    /// The current round's game (the last round's, once the match is over).
    pub fn game(&self) -> &Game<'r> {
        &self.game
    }

    /// The current round's game, to play moves in.
    pub fn game_mut(&mut self) -> &mut Game<'r> {
        &mut self.game
    }

    /// The current round, from 1.
    pub fn round(&self) -> u16 {
        self.game.round()
    }

    /// Who started the current round.
    pub fn starter(&self) -> Side {
        self.starter
    }

    /// Seeds each player keeps off the board this round, South first.
    pub fn reserve(&self) -> [u16; 2] {
        self.reserve
    }

    /// Seeds taken out of the match by awards to nobody.
    pub fn removed(&self) -> u32 {
        self.removed
    }

    /// Rounds won so far, South first.
    pub fn rounds_won(&self) -> [u16; 2] {
        self.rounds_won
    }

    /// How the match ended, once it has.
    pub fn outcome(&self) -> Option<MatchOutcome> {
        self.outcome
    }

    /// Whether the match is over.
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// Once the current round's game is over: scores the round, ends the match if a match
    /// rule says so, and otherwise refills the board for the next round. Returns the round's
    /// result and, if the match goes on, the refill.
    ///
    /// # Panics
    /// If the round's game is not over, or the match already is.
    pub fn next_round(&mut self) -> (RoundResult, Option<NextRound>) {
        assert!(self.outcome.is_none(), "the match is over");
        let outcome = self.game.outcome().expect("the round's game is over");
        let position = *self.game.position();
        let captured = position.stores();
        self.removed += position.board_seeds();
        if let Some(winner) = outcome.winner {
            self.rounds_won[winner.index()] += 1;
        }
        let holdings = match self.matches.carry {
            Carry::Fresh => {
                for side in Side::BOTH {
                    self.tally[side.index()] += u32::from(captured[side.index()]);
                }
                self.tally
            }
            Carry::Refill { .. } => {
                Side::BOTH.map(|s| u32::from(self.reserve[s.index()] + captured[s.index()]))
            }
        };
        let round = self.game.round();
        let result = RoundResult {
            round,
            starter: self.starter,
            outcome,
            captured,
            holdings,
        };
        if let Some(end) = self.match_end(round, holdings) {
            self.outcome = Some(end);
            return (result, None);
        }
        let starter = self.next_starter(outcome.winner, holdings);
        let (board, north, closed, reserve) = match self.matches.carry {
            Carry::Fresh => {
                let initial = Position::initial(self.rules);
                (initial.board().to_vec(), initial.north, 0, [0; 2])
            }
            Carry::Refill(ref refill) => {
                let held = match refill.territory {
                    Territory::Rows => Position::initial(self.rules).north,
                    Territory::Kept => position.north,
                };
                let fill = Fill {
                    rules: self.rules,
                    refill,
                    held_by_north: held,
                };
                fill.refill(holdings)
            }
        };
        if board.iter().all(|&n| n == 0) {
            self.outcome = Some(MatchOutcome {
                reason: MatchEnd::CannotStart,
                winner: self.leader(holdings),
            });
            return (result, None);
        }
        self.starter = starter;
        self.reserve = reserve;
        let next = Position::for_round(&board, north, closed, starter);
        self.game.reset(next, round + 1, outcome.winner);
        let refill = NextRound {
            round: round + 1,
            board,
            closed,
            north,
            reserve,
            starter,
        };
        (result, Some(refill))
    }

    /// The match's end after `round`, if a rule ends it.
    fn match_end(&self, round: u16, holdings: [u32; 2]) -> Option<MatchOutcome> {
        let m = self.matches;
        let below = Side::BOTH.map(|s| holdings[s.index()] < u32::from(m.lose_below));
        if below[0] || below[1] {
            let winner = match below {
                [true, false] => Some(Side::North),
                [false, true] => Some(Side::South),
                _ => self.leader(holdings),
            };
            return Some(MatchOutcome {
                reason: MatchEnd::LoseBelow,
                winner,
            });
        }
        if let Some(k) = m.first_to {
            if let Some(side) = Side::BOTH
                .into_iter()
                .find(|s| self.rounds_won[s.index()] >= k)
            {
                return Some(MatchOutcome {
                    reason: MatchEnd::FirstTo,
                    winner: Some(side),
                });
            }
        }
        (round >= m.round_cap).then(|| MatchOutcome {
            reason: MatchEnd::RoundCap,
            winner: self.leader(holdings),
        })
    }

    /// Who leads by the match's scoring.
    fn leader(&self, holdings: [u32; 2]) -> Option<Side> {
        let [south, north] = match self.matches.scoring {
            MatchScoring::Seeds => holdings,
            MatchScoring::RoundsWon => self.rounds_won.map(u32::from),
        };
        match south.cmp(&north) {
            std::cmp::Ordering::Greater => Some(Side::South),
            std::cmp::Ordering::Less => Some(Side::North),
            std::cmp::Ordering::Equal => None,
        }
    }

    /// Who starts the next round, given the winner of the last (R13) and what each holds.
    fn next_starter(&self, winner: Option<Side>, holdings: [u32; 2]) -> Side {
        let other = self.starter.other();
        let poorer = match holdings[0].cmp(&holdings[1]) {
            std::cmp::Ordering::Less => Some(Side::South),
            std::cmp::Ordering::Greater => Some(Side::North),
            std::cmp::Ordering::Equal => None,
        };
        match (self.matches.starter, winner) {
            (Starter::RoundWinner, Some(w)) => w,
            (Starter::RoundLoser, Some(w)) => w.other(),
            (Starter::PreviousStarter, _) => self.starter,
            (Starter::Poorer, _) => poorer.unwrap_or(other),
            (Starter::RoundWinner | Starter::RoundLoser | Starter::Alternate, _) => other,
        }
    }
}

/// A refill of the board from what the players hold (R12).
struct Fill<'r> {
    rules: &'r Rules,
    refill: &'r Refill,
    /// The holes each player fills first: North's, as a mask (South's are the others).
    held_by_north: u64,
}

impl Fill<'_> {
    /// The holes, in the order `side` fills them: in sowing order from their first hole (or
    /// against it from their last), all the way round the board.
    fn order(&self, side: Side) -> impl Iterator<Item = usize> {
        let holes = self.rules.holes();
        let n = holes / 2;
        let clockwise = self.rules.program.sowing.direction
            == DirectionRule::Fixed(crate::rules::Direction::Clockwise);
        // Counterclockwise, a row runs 0..n and n..2n; clockwise, the other way round.
        let (first, last) = match side {
            Side::South => (0, n - 1),
            Side::North => (n, holes - 1),
        };
        let (start, down) = match (clockwise, self.refill.from_last) {
            (false, false) => (first, false),
            (false, true) => (last, true),
            (true, false) => (last, true),
            (true, true) => (first, false),
        };
        (0..holes).map(move |i| {
            if down {
                (start + holes - i) % holes
            } else {
                (start + i) % holes
            }
        })
    }

    /// Whether `side` holds `hole` before the refill.
    fn held(&self, side: Side, hole: usize) -> bool {
        (self.held_by_north >> hole & 1 == 1) == (side == Side::North)
    }

    /// Fills the holes in turn: each player their own holes, in their order, while they have
    /// `per_hole` seeds (the richer only at the poorer's places, when mirrored); surplus then
    /// fills the other player's unfilled holes, which change owner; the two remainders may
    /// go into one more hole. Returns the board, North's holes, the closed holes and the
    /// reserves.
    fn refill(&self, holdings: [u32; 2]) -> (Vec<u16>, u64, u64, [u16; 2]) {
        let rules = self.rules;
        let refill = self.refill;
        let holes = rules.holes();
        let n = holes / 2;
        let mut board = vec![0u16; holes];
        let mut budget = holdings;
        let mut north = self.held_by_north;
        let per_hole = u32::from(refill.per_hole);
        let place = |hole: usize| if hole < n { hole } else { hole - n };
        let poorer = if holdings[0] <= holdings[1] {
            Side::South
        } else {
            Side::North
        };
        let mut poorer_places = 0u64;
        for side in [poorer, poorer.other()] {
            for hole in self.order(side).filter(|&h| self.held(side, h)) {
                let mirrored = refill.mirrored && side != poorer;
                if mirrored && poorer_places >> place(hole) & 1 == 0 {
                    continue;
                }
                if budget[side.index()] >= per_hole {
                    board[hole] = refill.per_hole;
                    budget[side.index()] -= per_hole;
                    if side == poorer {
                        poorer_places |= 1 << place(hole);
                    }
                }
            }
        }
        if refill.surplus == Surplus::OpponentHoles && !refill.mirrored {
            for side in Side::BOTH {
                let other = side.other();
                for hole in self.order(other).filter(|&h| self.held(other, h)) {
                    if board[hole] == 0 && budget[side.index()] >= per_hole {
                        board[hole] = refill.per_hole;
                        budget[side.index()] -= per_hole;
                        north ^= 1 << hole;
                    }
                }
            }
        }
        let tie_to_poorer = refill.leftover_tie_to_poorer && holdings[0] != holdings[1];
        if refill.leftover_hole
            && budget[0] > 0
            && budget[1] > 0
            && (budget[0] != budget[1] || tie_to_poorer)
        {
            let larger = match budget[0].cmp(&budget[1]) {
                std::cmp::Ordering::Greater => Side::South,
                std::cmp::Ordering::Less => Side::North,
                std::cmp::Ordering::Equal => poorer,
            };
            // The larger remainder's next empty hole: its own first, then the other's.
            let hole = self
                .order(larger)
                .find(|&h| board[h] == 0 && self.held(larger, h))
                .or_else(|| {
                    let other = larger.other();
                    self.order(other)
                        .find(|&h| board[h] == 0 && self.held(other, h))
                });
            if let Some(hole) = hole {
                board[hole] = (budget[0] + budget[1]) as u16;
                budget = [0, 0];
                match larger {
                    Side::North => north |= 1 << hole,
                    Side::South => north &= !(1 << hole),
                }
            }
        }
        let unfilled = board
            .iter()
            .enumerate()
            .filter(|(_, &n)| n == 0)
            .fold(0u64, |mask, (hole, _)| mask | 1 << hole);
        let closed = if refill.close_unfilled { unfilled } else { 0 };
        // What is left is below one hole's refill, or beyond every hole: it fits in a u16,
        // as every count of the game does.
        let reserve = budget.map(|b| b as u16);
        (board, north, closed, reserve)
    }
}

/// A single game or a match, stepped through move by move: what `trace` and the golden
/// cases play.
pub enum Table<'r> {
    /// One game.
    Game(Game<'r>),
    /// A match of rounds.
    Match(Match<'r>),
}

impl<'r> Table<'r> {
    /// The game being played: the current round's in a match.
    pub fn game(&self) -> &Game<'r> {
        match self {
            Table::Game(game) => game,
            Table::Match(m) => m.game(),
        }
    }

    /// The game being played, to play moves in.
    pub fn game_mut(&mut self) -> &mut Game<'r> {
        match self {
            Table::Game(game) => game,
            Table::Match(m) => m.game_mut(),
        }
    }

    /// Whether nothing is left to play: the game, or the whole match, is over.
    pub fn is_over(&self) -> bool {
        match self {
            Table::Game(game) => game.is_over(),
            Table::Match(m) => m.is_over(),
        }
    }

    /// In a match whose round has just ended: scores it and starts the next, as
    /// [`Match::next_round`] does. `None` while the round goes on, and for a single game.
    pub fn round_over(&mut self) -> Option<(RoundResult, Option<NextRound>)> {
        match self {
            Table::Match(m) if m.game().is_over() && !m.is_over() => Some(m.next_round()),
            _ => None,
        }
    }
}
