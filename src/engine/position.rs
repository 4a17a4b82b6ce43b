//! A position: seeds in every hole and store, who owns and who may sow which hole, and the
//! player to move.

use crate::rules::{Rules, Side, MAX_POSITIONS};

/// Seeds on the board and in the stores, hole ownership, and whose turn it is. Small and
/// `Copy`: the engine tries a move on a copy and keeps it only if the move is legal.
///
/// Invariant: holes plus stores hold `total` seeds (the variant's seeds in a single game; in
/// a round of a match, what the players put on the board), unless an end rule awarded seeds
/// to nobody (they then stay on the board).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    /// Holes `0..2N`, then South's store, then North's. A store holds what its owner captured
    /// (and, when stores are sown, what they sowed into it).
    pub(crate) seeds: [u16; MAX_POSITIONS],
    /// Holes closed for this round of a match, as a bit mask: never sown, never played.
    pub(crate) closed: u64,
    /// Holes owned by North, as a bit mask (the others are South's). A player plays and
    /// defends the holes they own: their row, unless a match moved a hole to the other side.
    pub(crate) north: u64,
    /// Houses, as a bit mask: holes that became a player's property (their owner is in
    /// `north`); never played, relayed or captured from.
    pub(crate) houses: u64,
    /// Holes their owner may not play: played, and not yet sown into by the opponent (Adi).
    pub(crate) locked: u64,
    pub(crate) to_move: Side,
    pub(crate) holes: u8,
    /// Seeds in the game: holes plus stores.
    pub(crate) total: u16,
}

/// What one pass over a position's counts finds ([`Position::scan`]).
#[derive(Clone, Copy)]
pub(crate) struct Scan {
    /// The holes holding seeds ([`Position::occupied`]).
    pub occupied: u64,
    /// A hash of the counts (the last word read may take in the stores).
    counts: u64,
}

impl Scan {
    /// The repetition history's key of the position scanned, `to_move` to move: a cheaper key
    /// than the fingerprint, of the counts and the player to move alone. The positions it
    /// compares have the same stores, and positions with equal keys are compared whole.
    pub(crate) fn key(self, to_move: Side) -> u64 {
        // The product's high bits are its best mixed: fold them into the low ones as well.
        self.counts ^ self.counts >> 29 ^ (to_move as u64) << 63
    }
}

/// Why a board given by hand does not fit the rules.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// Wrong number of holes.
    #[error("a board of {rules} holes was expected, got {got}")]
    HoleCount {
        /// What the rules say.
        rules: usize,
        /// What was given.
        got: usize,
    },
    /// The seeds do not add up.
    #[error("the seeds given add up to {got} but the rules play with {rules}")]
    SeedCount {
        /// What the rules say.
        rules: u32,
        /// What was given.
        got: u32,
    },
    /// A match was asked of a variant without match rules.
    #[error("`{0}` has no match rules (no `match` block)")]
    NoMatch(String),
}

impl Position {
    /// The start position of a single game.
    pub fn initial(rules: &Rules) -> Position {
        let board = &rules.program.board;
        let mut seeds = [0; MAX_POSITIONS];
        seeds[..board.layout.len()].copy_from_slice(&board.layout);
        Position {
            seeds,
            closed: 0,
            north: rules.geometry.side_mask[Side::North.index()],
            houses: 0,
            locked: 0,
            to_move: board.starter,
            holes: rules.holes() as u8,
            total: rules.total_seeds() as u16,
        }
    }

    /// The start position of a round of a match: `board` (holes `0..2N`), the holes each side
    /// owns (`north`: a mask of North's), the closed holes, empty stores.
    pub(crate) fn for_round(board: &[u16], north: u64, closed: u64, to_move: Side) -> Position {
        let mut seeds = [0; MAX_POSITIONS];
        seeds[..board.len()].copy_from_slice(board);
        Position {
            seeds,
            closed,
            north,
            houses: 0,
            locked: 0,
            to_move,
            holes: board.len() as u8,
            total: board.iter().sum(),
        }
    }

    /// A position given by hand: holes `0..2N`, captured totals and the player to move.
    ///
    /// # Errors
    /// When the number of holes or the seed total does not match the rules.
    pub fn from_setup(
        rules: &Rules,
        board: &[u16],
        stores: [u16; 2],
        to_move: Side,
    ) -> Result<Position, SetupError> {
        if board.len() != rules.holes() {
            return Err(SetupError::HoleCount {
                rules: rules.holes(),
                got: board.len(),
            });
        }
        let got = board.iter().chain(&stores).map(|&n| u32::from(n)).sum();
        if got != rules.total_seeds() {
            return Err(SetupError::SeedCount {
                rules: rules.total_seeds(),
                got,
            });
        }
        let mut position = Position::initial(rules);
        position.seeds[..board.len()].copy_from_slice(board);
        position.seeds[board.len()..board.len() + 2].copy_from_slice(&stores);
        position.to_move = to_move;
        Ok(position)
    }

    /// Seeds in each hole, `0..2N`.
    pub fn board(&self) -> &[u16] {
        &self.seeds[..self.holes as usize]
    }

    /// The captured totals (store contents), South first.
    pub fn stores(&self) -> [u16; 2] {
        let h = self.holes as usize;
        [self.seeds[h], self.seeds[h + 1]]
    }

    /// The store of one side.
    pub fn store(&self, side: Side) -> u16 {
        self.seeds[self.holes as usize + side.index()]
    }

    /// The player to move.
    pub fn to_move(&self) -> Side {
        self.to_move
    }

    /// Seeds in the game: holes plus stores.
    pub fn total(&self) -> u32 {
        u32::from(self.total)
    }

    /// The holes `side` owns, as a bit mask.
    pub fn owned(&self, side: Side) -> u64 {
        let holes = (1u64 << self.holes) - 1;
        match side {
            Side::South => !self.north & holes,
            Side::North => self.north,
        }
    }

    /// The owner of hole `hole`.
    pub fn owner(&self, hole: usize) -> Side {
        if self.north >> hole & 1 == 1 {
            Side::North
        } else {
            Side::South
        }
    }

    /// The holes North owns, as a bit mask.
    pub fn north_mask(&self) -> u64 {
        self.north
    }

    /// The houses, as a bit mask.
    pub fn houses(&self) -> u64 {
        self.houses
    }

    /// The locked holes (played, not yet sown into by the opponent), as a bit mask.
    pub fn locked_mask(&self) -> u64 {
        self.locked
    }

    /// Gives hole `hole` to `side`.
    pub(crate) fn set_owner(&mut self, hole: usize, side: Side) {
        match side {
            Side::North => self.north |= 1 << hole,
            Side::South => self.north &= !(1 << hole),
        }
    }

    /// The holes closed for this round, as a bit mask.
    pub fn closed(&self) -> u64 {
        self.closed
    }

    /// Seeds in the holes `side` owns.
    pub fn row_seeds(&self, side: Side) -> u32 {
        self.sum(self.owned(side))
    }

    /// Seeds in the holes of `mask`.
    pub(crate) fn sum(&self, mut mask: u64) -> u32 {
        let mut total = 0;
        while mask != 0 {
            total += u32::from(self.seeds[mask.trailing_zeros() as usize]);
            mask &= mask - 1;
        }
        total
    }

    /// Sets the captured totals, keeping the position's total right.
    pub(crate) fn set_stores(&mut self, stores: [u16; 2]) {
        let h = self.holes as usize;
        self.total = self.total - self.seeds[h] - self.seeds[h + 1] + stores[0] + stores[1];
        self.seeds[h..h + 2].copy_from_slice(&stores);
    }

    /// Seeds on the board, both rows.
    pub fn board_seeds(&self) -> u32 {
        self.board().iter().map(|&n| u32::from(n)).sum()
    }

    /// The holes of `mask` holding at least `min` seeds, as a bit mask.
    fn holding(&self, mut mask: u64, min: u16) -> u64 {
        let mut found = 0;
        while mask != 0 {
            let hole = mask.trailing_zeros() as usize;
            found |= u64::from(self.seeds[hole] >= min) << hole;
            mask &= mask - 1;
        }
        found
    }

    /// Whether `side`'s holes are all empty.
    #[inline]
    pub fn row_empty(&self, side: Side) -> bool {
        self.row_empty_of(side, self.occupied())
    }

    /// Whether `side`'s holes are all empty, `occupied` being this position's
    /// [`Position::occupied`], found once for several questions.
    pub(crate) fn row_empty_of(&self, side: Side, occupied: u64) -> bool {
        occupied & self.owned(side) == 0
    }

    /// The holes holding at least one seed, as a bit mask. Bits from `holes` up are not
    /// cleared (where the last four counts read take in the stores): every caller looks at one
    /// side's holes.
    // Forced inline: read after every move (docs/speed.md, "Inlining the engine keeps").
    #[inline(always)]
    pub(crate) fn occupied(&self) -> u64 {
        self.scan().occupied
    }

    /// One pass over the counts, for what a move's end needs of them: the holes holding seeds
    /// and the hash of the repetition history's key. A caller that uses only one of them does
    /// not pay for the other (the compiler drops it).
    // Forced inline: so that a caller using one of its two results does not pay for the other
    // (docs/speed.md, "Inlining the engine keeps").
    #[inline(always)]
    pub(crate) fn scan(&self) -> Scan {
        // Four counts at once, with no branch per hole: adding 0x7fff to a count's low 15
        // bits carries into its top bit unless they are all zero. The product gathers the
        // four top bits (15, 31, 47, 63) into bits 60 to 63 without carries.
        const LOW: u64 = 0x7fff_7fff_7fff_7fff;
        const GATHER: u64 = 1 | 1 << 15 | 1 << 30 | 1 << 45;
        let mut scan = Scan {
            occupied: 0,
            counts: 0,
        };
        for i in 0..self.words() {
            let word = self.word(i);
            let tops = (((word & LOW) + LOW) | word) & !LOW;
            scan.occupied |= tops.wrapping_mul(GATHER) >> 60 << (4 * i);
            scan.counts = (scan.counts ^ word).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
        scan
    }

    /// How many words of four counts cover the board (the last may take in the stores).
    fn words(&self) -> usize {
        usize::from(self.holes).div_ceil(4)
    }

    /// The counts of holes `4i` to `4i + 3`, sixteen bits each, the first lowest.
    fn word(&self, i: usize) -> u64 {
        let w = &self.seeds[4 * i..4 * i + 4];
        u64::from(w[0]) | u64::from(w[1]) << 16 | u64::from(w[2]) << 32 | u64::from(w[3]) << 48
    }

    /// The holes of `holes` (a player's own, usually) that could be lifted: open holes, not
    /// houses, holding at least `min_seeds` seeds (at least one), as a bit mask.
    #[inline]
    pub fn candidates(&self, holes: u64, min_seeds: u16) -> u64 {
        if min_seeds <= 1 {
            self.occupied() & self.playable(holes)
        } else {
            self.holding(self.playable(holes), min_seeds)
        }
    }

    /// The holes of `holes` that may be lifted when they hold seeds enough: open holes, not
    /// houses.
    #[inline]
    pub(crate) fn playable(&self, holes: u64) -> u64 {
        holes & !self.closed & !self.houses & !self.locked
    }

    /// A cheap 64-bit fingerprint of the whole position, for the search's transposition table.
    pub fn fingerprint(&self) -> u64 {
        // One multiply-rotate per word of four counts, then the stores.
        let mut h = 0x9e37_79b9_7f4a_7c15u64 ^ self.to_move as u64;
        for i in 0..self.words() {
            h = (h.rotate_left(23) ^ self.word(i)).wrapping_mul(0x5851_f42d_4c95_7f2d);
        }
        let holes = usize::from(self.holes);
        let stores = u64::from(self.seeds[holes]) | u64::from(self.seeds[holes + 1]) << 16;
        h = (h.rotate_left(23) ^ stores).wrapping_mul(0x5851_f42d_4c95_7f2d);
        h ^ (h >> 31)
            ^ self.closed
            ^ self.north.rotate_left(32)
            ^ self.houses.rotate_left(16)
            ^ self.locked.rotate_left(48)
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Position")
            .field("board", &self.board())
            .field("stores", &self.stores())
            .field("to_move", &self.to_move)
            .field("closed", &self.closed)
            .field("north", &self.north)
            .field("houses", &self.houses)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The word-at-a-time test against one hole at a time: every board size, counts at the
    /// edges of the carry trick (a top bit set, the low bits all zero), full stores beside.
    #[test]
    fn occupied_holes_are_the_holes_holding_seeds() {
        let counts = [0, 1, 2, 0x7fff, 0x8000, 0xffff, 0, 3];
        for holes in (2..=2 * crate::rules::MAX_HOLES_PER_ROW).step_by(2) {
            for shift in 0..counts.len() {
                let board: Vec<u16> = (0..holes)
                    .map(|h| counts[(h + shift) % counts.len()])
                    .collect();
                let mut seeds = [0; MAX_POSITIONS];
                seeds[..holes].copy_from_slice(&board);
                seeds[holes..holes + 2].copy_from_slice(&[5, 0x8000]);
                let position = Position {
                    seeds,
                    closed: 0,
                    north: 0,
                    houses: 0,
                    locked: 0,
                    to_move: Side::South,
                    holes: holes as u8,
                    total: 0,
                };
                let expected = (0..holes)
                    .filter(|&h| board[h] != 0)
                    .fold(0u64, |mask, h| mask | 1 << h);
                let holes_mask = (1u64 << holes) - 1;
                assert_eq!(
                    position.occupied() & holes_mask,
                    expected,
                    "{holes} holes: {board:?}"
                );
            }
        }
    }
}
