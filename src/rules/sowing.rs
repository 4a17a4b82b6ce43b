//! Sowing rules: direction, where a lap starts, skipping, relay, store turns, bearing off,
//! which holes may be played, feeding.

use serde::Serialize;

use super::capture::{Condition, CountTest};
use super::ending::{Award, RowTest};

/// The direction seeds travel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    /// Increasing hole numbers: South's row left to right, then North's.
    Counterclockwise,
    /// Decreasing hole numbers.
    Clockwise,
}

impl Direction {
    /// `0` counterclockwise, `1` clockwise: the index of the geometry tables.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The other direction.
    pub fn reverse(self) -> Direction {
        match self {
            Direction::Counterclockwise => Direction::Clockwise,
            Direction::Clockwise => Direction::Counterclockwise,
        }
    }
}

/// How the direction of a move is decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum DirectionRule {
    /// Always this way.
    Fixed(Direction),
    /// The mover chooses, move by move.
    Chosen,
    /// By the parity of the seeds lifted: an odd number goes this way, an even one the other.
    ByParity {
        /// The direction of an odd number of seeds.
        odd: Direction,
    },
    /// By the hole played: holes in the left half of the mover's row (as the mover sees it)
    /// sow towards the left end (`outward`) or towards the centre; a middle hole of an odd
    /// row chooses.
    ByHole {
        /// The left half sows away from the centre.
        outward: bool,
    },
}

impl DirectionRule {
    /// Whether a move may be sown both ways (the mover chooses, for some holes at least).
    pub fn has_choice(self) -> bool {
        matches!(self, DirectionRule::Chosen | DirectionRule::ByHole { .. })
    }

    /// Whether the mover chooses the direction of a move from the hole at `place` of a row of
    /// `n`: every hole under `chosen`, the middle hole of an odd row under `outward`/`inward`.
    pub fn chooses_at(self, place: usize, n: usize) -> bool {
        match self {
            DirectionRule::Chosen => true,
            DirectionRule::ByHole { .. } => n % 2 == 1 && place == n / 2,
            DirectionRule::Fixed(_) | DirectionRule::ByParity { .. } => false,
        }
    }
}

/// Where the first seed of a lap goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum LapStart {
    /// Into the hole after the one just emptied.
    NextHole,
    /// Back into the hole just emptied.
    LiftedHole,
    /// Back into the hole just emptied, unless it held a single seed, which moves on to the
    /// next hole (Toguz Kumalak).
    LiftedHoleSingleMovesOn,
}

/// Whether the emptied hole of a lap is passed over when the sowing comes round to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum OriginSkip {
    /// Never skipped.
    Never,
    /// Skipped when the lap lifted at least this many seeds. `Some(1)` is "always"; the compiler
    /// writes every threshold that cannot make a difference on the board as `Some(1)`.
    FromSeeds(u16, SkipLaps),
}

/// Which laps origin skipping applies to (R6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum SkipLaps {
    /// The first lap and every relay lap.
    Every,
    /// The first lap of a move only.
    First,
}

/// When a lap ends in a hole, whether the sowing goes on with a new lap, and from where.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Relay {
    /// Single laps: the move ends with its last seed.
    Never,
    /// The landing hole, if it meets the condition, is lifted and sown on.
    Landing(Condition),
    /// The hole after the landing hole, if it holds seeds, is lifted and sown on ("Indian"
    /// lapping: Pallanguzhi, Bosh).
    NextHole,
}

/// Holes that sowing passes over (besides closed holes and a skipped origin).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct SkipHoles {
    /// Holes whose count passes this are passed over.
    pub count: CountTest,
    /// Whose holes are passed over: either player's, the mover's own, or the opponent's
    /// (Lamlameta).
    pub row: RowTest,
    /// The last seed of a lap still goes into such a hole (Kotu-baendum).
    pub except_last: bool,
    /// The game's first move passes over none (Lamlameta).
    pub except_first_move: bool,
}

/// Which holes a lap runs through.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Ring {
    /// Both rows, round the board.
    Board,
    /// The mover's own row only, round and round.
    OwnRow,
}

/// A move is legal only if its first lap ends a certain way.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum MoveFilter {
    /// The first lap does not end in an occupied hole of the mover's own (Tapata, Gamacha).
    NotIntoOccupiedOwn,
    /// The first lap reaches the opponent's holes, or ends in an empty hole of the mover's own
    /// (Dabuda, Intotoi).
    ReachesOpponentOrEmptyOwn,
    /// A single seed may be sown only into an empty hole (Kay).
    SingleIntoEmpty,
}

/// Where the first moves of a game may start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct FirstMove {
    /// Bit `p - 1` set: the hole at place `p` of the mover's row, counted from their left.
    pub places: u32,
    /// Only the game's first move is bound, not each player's.
    pub game_only: bool,
    /// On that move, a first lap about to end in the mover's own row ends in the opponent's
    /// first hole instead (Tapata).
    pub last_seed_across: bool,
}

/// How seeds are sown.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Sowing {
    /// How the direction of a move is decided.
    pub direction: DirectionRule,
    /// Where a lap starts.
    pub lap_start: LapStart,
    /// Origin skipping.
    pub origin_skip: OriginSkip,
    /// Relay sowing.
    pub relay: Relay,
    /// A lap ending in the mover's own (sown) store gives another turn.
    pub store_extra_turn: bool,
    /// Safety cap on seeds dropped in one move (R11); reaching it is reported.
    pub drop_cap: u32,
    /// A hole must hold at least this many seeds to be played.
    pub min_seeds: u16,
    /// ... unless the mover has no such hole (Ouri's singletons).
    pub min_seeds_waived: bool,
    /// Holes passed over by sowing, if any.
    pub skip_holes: Option<SkipHoles>,
    /// Which holes a lap runs through.
    pub ring: Ring,
    /// Where the first moves must start.
    pub first_move: Option<FirstMove>,
    /// Moves prescribed at the start of the game, hole by hole.
    pub opening: Vec<u8>,
    /// A move is legal only if its first lap ends this way.
    pub move_filter: Option<MoveFilter>,
    /// Once a lap has gone round the board, the rest of its seeds go into the opponent's
    /// holes only (Songo).
    pub opponent_after_round: bool,
    /// A hole a player sows from is locked for them until the opponent sows a seed into it
    /// (Adi).
    pub lock_played: bool,
    /// Bearing off: on a turn that starts with no hole holding more than this many seeds, a
    /// seed sown past the end of the mover's row leaves the board with the rest of its lap,
    /// put with the mover's captures (in their store), and the move ends there (Andada). Left
    /// out of the rules hash when absent, so that the variants without it keep theirs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bear_off: Option<u16>,
    /// A player may lift any hole of the board, either row, not only their own (`play from:
    /// any hole`). Left out of the rules hash when false, so that the variants without it
    /// keep theirs.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub any_hole: bool,
}

/// How "the move supplies seeds" is judged (R9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum FeedJudged {
    /// On the position after the whole move: the opponent's row holds a seed.
    AfterMove,
    /// On the first lap: at least one seed was sown into the opponent's row.
    FirstLap,
}

/// What happens when no move can feed an opponent whose row is empty.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Unfeedable {
    /// The game ends and the board goes to this party (R8).
    Ends(Award),
    /// The duty lapses: any move may be played.
    AnyMove,
}

/// When the duty to feed binds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum FeedDuty {
    /// When the opponent's row is empty at the start of the turn (Oware).
    RowEmpty,
    /// On every move: no move may leave the opponent's row empty (J'odu).
    Always,
}

/// The duty to feed an opponent whose row is empty at the start of a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Feeding {
    /// When the duty binds.
    pub duty: FeedDuty,
    /// How a move is judged to feed.
    pub judged: FeedJudged,
    /// When no move can.
    pub unfeedable: Unfeedable,
}
