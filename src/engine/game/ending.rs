//! The end of a game: why it ended, the end rules looked at after a move, and the awards.

use super::*;

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

/// Who wins a game as it ends: the player an end rule names, or the one the captured totals
/// and the winner rule decide.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Verdict {
    /// By the captured totals (a draw where they are equal, or an unfinished game drawn).
    Totals,
    /// This player, whatever the totals.
    Winner(Side),
}

impl Game<'_> {
    /// End rules looked at once `mover`'s move is over, in the usual order: the reason, the
    /// award, and the winner when a rule names one. `Dispatch::ends_after_move` says whether
    /// any of them applies; `occupied` is the position's [`Position::occupied`]. A file that
    /// states an order has its rules tried by [`Game::ordered_end`] instead.
    // Forced inline: one of five whose removal together slowed whole `simulate` (docs/speed.md,
    // "Inlining the engine keeps").
    #[inline(always)]
    pub(super) fn end_after_move(
        &self,
        mover: Side,
        occupied: u64,
    ) -> Option<(EndReason, Award, Verdict)> {
        // Tried one by one rather than through `end_check` over a list, which cost Oware 15%
        // more instructions a move.
        if let Some(ended) = self.emptied(mover, occupied) {
            return Some(ended);
        }
        if let Some(ended) = self.last_seeds_ends() {
            return Some(ended);
        }
        if let Some(ended) = self.majority_ends() {
            return Some(ended);
        }
        if let Some(ended) = self.empty_row_ends(mover, occupied) {
            return Some(ended);
        }
        if let Some(ended) = self.singletons_end() {
            return Some(ended);
        }
        self.quiet_ends()
    }

    /// Ends the game by the rule [`Game::end_after_move`] found, or, where the file states an
    /// order (`order:`), by the rule its order puts first among those that hold.
    // Out of line and cold: a game ends once, and the move's code stays small.
    #[cold]
    #[inline(never)]
    pub(super) fn end_by_rule(
        &mut self,
        ended: (EndReason, Award, Verdict),
        mover: Side,
        next: Side,
        occupied: u64,
    ) {
        let (reason, award, verdict) = if self.rules.dispatch.ordered_end {
            self.ordered_end(mover, next, occupied).unwrap_or(ended)
        } else {
            ended
        };
        self.finish(reason, award, 0, verdict);
    }

    /// A win by emptying one's own holes, or a loss by an empty row, looked at before any
    /// other end rule.
    #[inline(always)]
    fn emptied(&self, mover: Side, occupied: u64) -> Option<(EndReason, Award, Verdict)> {
        let empty = |side: Side| self.position.row_empty_of(side, occupied);
        match self.rules.program.ending.scoring {
            Scoring::EmptiedWins => {
                empty(mover).then_some((EndReason::Emptied, Award::Owners, Verdict::Winner(mover)))
            }
            Scoring::EmptiedLoses => self.empty_row_loses(empty(Side::South), empty(Side::North)),
            Scoring::MostCaptured | Scoring::StuckLoses => None,
        }
    }

    /// `winner: a player whose row is empty loses`, given whether South's and North's rows
    /// are empty: the other player wins; with both empty, the totals decide.
    fn empty_row_loses(&self, south: bool, north: bool) -> Option<(EndReason, Award, Verdict)> {
        let verdict = match (south, north) {
            (false, false) => return None,
            (true, true) => Verdict::Totals,
            (true, false) => Verdict::Winner(Side::North),
            (false, true) => Verdict::Winner(Side::South),
        };
        Some((EndReason::EmptyRow, Award::Owners, verdict))
    }

    /// Where the file states an order (`order:`) and [`Game::end_after_move`] found a rule
    /// that holds, the rule that decides: the rules the order names first, in its order, then
    /// the rest in the usual order; `next` plays next unless the game ends. Where no rule
    /// holds after the move, the order changes nothing: `no move` is then looked at as the
    /// next turn starts, before anything else.
    fn ordered_end(
        &mut self,
        mover: Side,
        next: Side,
        occupied: u64,
    ) -> Option<(EndReason, Award, Verdict)> {
        if let Some(emptied) = self.emptied(mover, occupied) {
            return Some(emptied);
        }
        // Borrowed from the rules, which outlive `self`: `no move` needs `self` mutable.
        let order = &self.rules.program.ending.order;
        let usual = EndCheck::USUAL_AFTER_MOVE
            .into_iter()
            .filter(|check| !order.contains(check));
        order
            .iter()
            .copied()
            .chain(usual)
            .find_map(|check| self.end_check(check, mover, next, occupied))
    }

    /// One end rule tried after a move: whether it holds now, if the variant has it.
    fn end_check(
        &mut self,
        check: EndCheck,
        mover: Side,
        next: Side,
        occupied: u64,
    ) -> Option<(EndReason, Award, Verdict)> {
        match check {
            EndCheck::LastSeeds => self.last_seeds_ends(),
            EndCheck::Majority => self.majority_ends(),
            EndCheck::EmptyRow => self.empty_row_ends(mover, occupied),
            EndCheck::Singletons => self.singletons_end(),
            EndCheck::Quiet => self.quiet_ends(),
            EndCheck::NoMove => self.no_move_now(mover, next, occupied),
        }
    }

    /// `last seeds: ... after each move`: few enough seeds are left once a capture was made.
    #[inline(always)]
    fn last_seeds_ends(&self) -> Option<(EndReason, Award, Verdict)> {
        let rule = self.rules.program.ending.last_seeds?;
        (rule.check == LastSeedsCheck::AfterMove
            && self.last_capturer.is_some()
            && self.position.board_seeds() <= u32::from(rule.at_most))
        .then(|| {
            (
                EndReason::LastSeeds,
                self.last_seeds_award(),
                Verdict::Totals,
            )
        })
    }

    /// `majority`: more than half the seeds captured by either player, or exactly half where
    /// half is enough or both have it: only the larger total can decide.
    #[inline(always)]
    fn majority_ends(&self) -> Option<(EndReason, Award, Verdict)> {
        let majority = self.rules.program.ending.majority?;
        let total = self.position.total();
        let [s, n] = self.position.stores().map(u32::from);
        let most = 2 * s.max(n);
        (most > total || (most == total && (majority.at_half || s == n))).then_some((
            EndReason::Majority,
            majority.award,
            Verdict::Totals,
        ))
    }

    /// `empty row`: the move left the row the rule names empty.
    #[inline(always)]
    fn empty_row_ends(&self, mover: Side, occupied: u64) -> Option<(EndReason, Award, Verdict)> {
        let (which, award) = self.rules.program.ending.empty_row?;
        let empty = |side: Side| self.position.row_empty_of(side, occupied);
        let now = match which {
            RowTest::Either => empty(Side::South) || empty(Side::North),
            RowTest::Mover => empty(mover),
            RowTest::Opponent => empty(mover.other()),
        };
        now.then_some((EndReason::EmptyRow, award, Verdict::Totals))
    }

    /// `singletons`: no hole holds more than one seed.
    #[inline(always)]
    fn singletons_end(&self) -> Option<(EndReason, Award, Verdict)> {
        let award = self.rules.program.ending.singletons?;
        let board = self.position.board();
        board
            .iter()
            .all(|&n| n <= 1)
            .then_some((EndReason::Singletons, award, Verdict::Totals))
    }

    /// `no capture for`: that many moves in a row without a capture.
    #[inline(always)]
    fn quiet_ends(&self) -> Option<(EndReason, Award, Verdict)> {
        let (moves, award) = self.rules.program.ending.quiet?;
        (self.quiet >= moves).then_some((EndReason::Quiet, award, Verdict::Totals))
    }

    /// The no-move rule tried before the next turn starts, as a file's `order:` asks: the
    /// turn is opened to see whether `next` can move, and opened again if play goes on.
    fn no_move_now(
        &mut self,
        mover: Side,
        next: Side,
        occupied: u64,
    ) -> Option<(EndReason, Award, Verdict)> {
        self.open_turn(next, occupied);
        if !self.any_legal() {
            if let Stuck::Ends(reason, award, verdict) = self.when_stuck(next) {
                return Some((reason, award, verdict));
            }
        }
        self.position.to_move = mover;
        None
    }

    pub(super) fn last_seeds_award(&self) -> Award {
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

    pub(super) fn last_seeds_recipient(&self, capturer: Side) -> Side {
        match self.last_seeds_award() {
            Award::PreviousWinner => self.previous_winner.unwrap_or(capturer),
            _ => capturer,
        }
    }

    /// Ends the game: awards the seeds left on the board (plus `hand`, seeds still being sown)
    /// and decides the winner: by the captured totals, unless `verdict` names one.
    pub(super) fn finish(&mut self, reason: EndReason, award: Award, hand: u16, verdict: Verdict) {
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
        let winner = match verdict {
            Verdict::Winner(side) => Some(side),
            Verdict::Totals if unfinished && rules.program.ending.unfinished_is_draw => None,
            Verdict::Totals => match s.cmp(&n) {
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

#[cfg(test)]
mod tests {
    use super::*;

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
            let occupied = game.position.occupied();
            game.end_after_move(Side::South, occupied)
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
