//! A position: seeds in every hole and store, closed holes, and the player to move.

use crate::rules::{Rules, Side, MAX_POSITIONS};

/// Seeds on the board and in the stores, and whose turn it is. Small and `Copy`: the engine
/// tries a move on a copy and keeps it only if the move is legal.
///
/// Invariant: holes plus stores hold `Rules::total_seeds()`, unless an end rule awarded seeds to
/// nobody (they then stay on the board).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    /// Holes `0..2N`, then South's store, then North's. A store holds what its owner captured
    /// (and, when stores are sown, what they sowed into it).
    pub(crate) seeds: [u16; MAX_POSITIONS],
    /// Holes closed for this round of a match, as a bit mask.
    pub(crate) closed: u64,
    pub(crate) to_move: Side,
    pub(crate) holes: u8,
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
    #[error("the board and stores hold {got} seeds but the rules play with {rules}")]
    SeedCount {
        /// What the rules say.
        rules: u32,
        /// What was given.
        got: u32,
    },
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
            to_move: board.starter,
            holes: rules.holes() as u8,
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

    /// Seeds in one side's row.
    pub fn row_seeds(&self, rules: &Rules, side: Side) -> u32 {
        self.seeds[rules.geometry.row(side)]
            .iter()
            .map(|&n| u32::from(n))
            .sum()
    }

    /// Seeds on the board, both rows.
    pub fn board_seeds(&self) -> u32 {
        self.board().iter().map(|&n| u32::from(n)).sum()
    }

    /// The holes `side` could lift: non-empty, open holes of their row, as a bit mask.
    pub fn candidates(&self, rules: &Rules, side: Side) -> u64 {
        let row = rules.geometry.row(side);
        let start = row.start;
        let mask = self.seeds[row]
            .iter()
            .enumerate()
            .fold(0u64, |mask, (i, &n)| {
                mask | u64::from(n != 0) << (start + i)
            });
        mask & !self.closed
    }

    /// A cheap 64-bit fingerprint of the position, for the repetition table.
    pub fn fingerprint(&self) -> u64 {
        // Four counts to a word, one multiply-rotate per word.
        let used = &self.seeds[..self.holes as usize + 2];
        let mut words = used.chunks_exact(4);
        let mut h = 0x9e37_79b9_7f4a_7c15u64 ^ self.to_move as u64;
        for w in &mut words {
            let word = u64::from(w[0])
                | u64::from(w[1]) << 16
                | u64::from(w[2]) << 32
                | u64::from(w[3]) << 48;
            h = (h.rotate_left(23) ^ word).wrapping_mul(0x5851_f42d_4c95_7f2d);
        }
        let tail = words
            .remainder()
            .iter()
            .fold(0u64, |w, &n| w << 16 | u64::from(n));
        h = (h.rotate_left(23) ^ tail).wrapping_mul(0x5851_f42d_4c95_7f2d);
        h ^ (h >> 31) ^ self.closed
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Position")
            .field("board", &self.board())
            .field("stores", &self.stores())
            .field("to_move", &self.to_move)
            .finish()
    }
}
